"""A versioned JSON form of a model: :func:`to_json` and :func:`from_json`.

The round trip is exact: ``from_json(to_json(m)) == m``. Floats are written with Python's
shortest round-tripping representation (``repr``), infinite joint limits as the strings
``"inf"`` and ``"-inf"`` (JSON has no infinity), and nothing is recomputed on the way back in
(axes are not re-normalised, inertias not re-symmetrised). The schema is documented in
``docs/json-schema.md``; its version is :data:`SCHEMA_VERSION`.

>>> import robomodel as rm
>>> link = rm.Link(rm.SpatialInertia.from_com(0.1, (0, 0, 0.3)))
>>> m = rm.add_link(rm.Model(name="r"), "base", link)
>>> from_json(to_json(m)) == m
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from robomodel._construct import gc_paused, trusted
from robomodel.errors import ArgumentError, ModelError, RobomodelError, suggest
from robomodel.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
    joint_type_name,
)
from robomodel.model import Extension, Frame, Link, Model
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.spatial import Axis, FloatArray, SpatialInertia, Transform, _readonly

__all__ = [
    "AXIS_TOLERANCE",
    "FORMAT",
    "ROTATION_TOLERANCE",
    "SCHEMA_VERSION",
    "JSONFormatError",
    "from_dict",
    "from_json",
    "to_dict",
    "to_json",
]

FORMAT = "robomodel"
"""The value of the top-level ``"format"`` key."""

SCHEMA_VERSION = 1
"""The schema version written by :func:`to_json`; :func:`from_json` reads versions ``<=`` it."""


_V = TypeVar("_V")


class JSONFormatError(ModelError):
    """A JSON document is not a robomodel model of a supported schema version.

    Attributes:
        path: where in the document the problem is, as a JSON path (``"$.joints[3].axis"``).
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        super().__init__(f"robomodel JSON, at {path}: {reason}")


# --------------------------------------------------------------------------- writing


def _f(x: float) -> float | str:
    v = float(x)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _arr(a: FloatArray) -> Any:
    # Model arrays are float64 already (their converters guarantee it): tolist directly.
    return a.tolist()


def _T(T: Transform) -> dict[str, Any]:
    return {"rotation": T.rotation.tolist(), "position": T.position.tolist()}


def _material(m: Material | None) -> dict[str, Any] | None:
    if m is None:
        return None
    d: dict[str, Any] = {
        "name": m.name,
        "rgba": None if m.rgba is None else list(m.rgba),
        "texture": m.texture,
    }
    if m.extensions:  # optional: absent means none (files written before it existed)
        d["extensions"] = list(m.extensions)
    return d


def _geometry(g: Geometry) -> dict[str, Any]:
    match g:
        case Box():
            return {"type": "box", "size": [g.x, g.y, g.z]}
        case Sphere():
            return {"type": "sphere", "radius": g.radius}
        case Cylinder():
            return {"type": "cylinder", "radius": g.radius, "length": g.length}
        case Mesh():
            return {"type": "mesh", "filename": g.filename, "scale": list(g.scale)}


def _shape(s: SolidShape) -> dict[str, Any]:
    d: dict[str, Any] = {
        "name": s.name,
        "geometry": _geometry(s.geometry),
        "link_H_geometry": _T(s.link_H_geometry),
        "material": _material(s.material),
    }
    if s.extensions:  # optional, as for materials
        d["extensions"] = list(s.extensions)
    return d


def _joint(name: str, j: Joint) -> dict[str, Any]:
    d: dict[str, Any] = {
        "name": name,
        "type": joint_type_name(j),
        "link1": j.link1,
        "link2": j.link2,
        "link1_H_link2": _T(j.link1_H_link2),
    }
    if isinstance(j, FixedJoint):
        return d
    d["axis"] = {
        "direction": _arr(j.axis_in_link1.direction),
        "origin": _arr(j.axis_in_link1.origin),
    }
    d["limits"] = {
        "enabled": j.limits.enabled,
        "lower": _f(j.limits.lower),
        "upper": _f(j.limits.upper),
    }
    d["effort_limit"] = _f(j.effort_limit)
    d["velocity_limit"] = _f(j.velocity_limit)
    d["dynamics"] = {
        "kind": j.dynamics.kind,
        "damping": j.dynamics.damping,
        "static_friction": j.dynamics.static_friction,
    }
    d["mimic"] = (
        None
        if j.mimic is None
        else {"joint": j.mimic.joint, "multiplier": j.mimic.multiplier, "offset": j.mimic.offset}
    )
    return d


def _sensor(s: Sensor) -> dict[str, Any]:
    match s:
        case SixAxisForceTorqueSensor():
            return {
                "type": "force_torque",
                "name": s.name,
                "parent_joint": s.parent_joint,
                "first_link": s.first_link,
                "second_link": s.second_link,
                "first_link_H_sensor": _T(s.first_link_H_sensor),
                "second_link_H_sensor": _T(s.second_link_H_sensor),
                "applied_wrench_link": s.applied_wrench_link,
            }
        case Accelerometer() | Gyroscope():
            kind = "accelerometer" if isinstance(s, Accelerometer) else "gyroscope"
            return {
                "type": kind,
                "name": s.name,
                "link": s.link,
                "link_H_sensor": _T(s.link_H_sensor),
            }


def to_dict(model: Model) -> dict[str, Any]:
    """Return the JSON-ready dictionary of ``model`` (see :func:`to_json`)."""
    return {
        "format": FORMAT,
        "version": SCHEMA_VERSION,
        "name": model.name,
        "default_base": model.default_base,
        "links": [
            {
                "name": n,
                "mass": link.inertia.mass,
                "first_moment": _arr(link.inertia.first_moment),
                "rotational_inertia": _arr(link.inertia.rotational_inertia),
            }
            for n, link in zip(model.link_names, model.links, strict=True)
        ],
        "joints": [_joint(n, j) for n, j in zip(model.joint_names, model.joints, strict=True)],
        "frames": [
            {"name": f.name, "link": f.link, "link_H_frame": _T(f.link_H_frame)}
            for f in model.frames
        ],
        "visuals": [[_shape(s) for s in v] for v in model.visuals],
        "collisions": [[_shape(s) for s in v] for v in model.collisions],
        "sensors": [_sensor(s) for s in model.sensors],
        "package_dirs": list(model.package_dirs),
        "materials": [_material(m) for m in model.materials],
        "extensions": [
            {"owner_kind": e.owner_kind, "owner": e.owner, "tag": e.tag, "xml": e.xml}
            for e in model.extensions
        ],
    }


def to_json(model: Model, *, indent: int | None = None) -> str:
    """Return the JSON text of ``model`` (schema version :data:`SCHEMA_VERSION`).

    Args:
        model: the model.
        indent: pretty-print with this indent (``None``: one line).

    Returns:
        Strict JSON (no NaN or Infinity literals) that :func:`from_json` reads back exactly.
    """
    with gc_paused():  # as in from_json
        return json.dumps(to_dict(model), indent=indent, allow_nan=False, ensure_ascii=False)


# --------------------------------------------------------------------------- reading

ROTATION_TOLERANCE = 1e-9
"""How far a stored rotation may be from orthonormal: ``max |R^T R - I| <= 1e-9`` (with
``det R > 0``). Beyond :data:`_EXACT` (round-off of ordinary arithmetic) it is re-orthonormalised
to the nearest rotation; beyond this tolerance the document is refused."""

AXIS_TOLERANCE = 1e-9
"""How far a stored axis direction's norm may be from 1: ``| |d| - 1 | <= 1e-9``. Beyond
:data:`_EXACT` it is normalised; beyond this tolerance the document is refused."""

_EXACT = 1e-12
# Below this the stored bits are kept: a model built in Python carries round-off of about 1e-16
# per operation, and re-normalising it would change the last bits and break the exact round trip.

_TRANSFORM_KEYS = frozenset(("rotation", "position"))
_LINK_KEYS = frozenset(("name", "mass", "first_moment", "rotational_inertia"))
_FIXED_KEYS = frozenset(("name", "type", "link1", "link2", "link1_H_link2"))
_MOVING_KEYS = _FIXED_KEYS | {
    "axis",
    "limits",
    "effort_limit",
    "velocity_limit",
    "dynamics",
    "mimic",
}
_TOP_KEYS = frozenset(
    (
        "format",
        "version",
        "name",
        "default_base",
        "links",
        "joints",
        "frames",
        "visuals",
        "collisions",
        "sensors",
        "package_dirs",
        "materials",
        "extensions",
    )
)
_GEOMETRY_KEYS = {
    "box": frozenset(("type", "size")),
    "sphere": frozenset(("type", "radius")),
    "cylinder": frozenset(("type", "radius", "length")),
    "mesh": frozenset(("type", "filename", "scale")),
}
_SENSOR_KEYS = {
    "force_torque": frozenset(
        (
            "type",
            "name",
            "parent_joint",
            "first_link",
            "second_link",
            "first_link_H_sensor",
            "second_link_H_sensor",
            "applied_wrench_link",
        )
    ),
    "accelerometer": frozenset(("type", "name", "link", "link_H_sensor")),
    "gyroscope": frozenset(("type", "name", "link", "link_H_sensor")),
}


class _Duplicated(dict[str, Any]):
    """An object whose text repeats a key (``json.loads`` would silently keep the last)."""

    duplicate = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) == len(pairs):
        return d
    # Reported by the reader, which knows the object's path.
    out = _Duplicated(d)
    seen: set[str] = set()
    for k, _ in pairs:
        if k in seen:
            out.duplicate = k
            break
        seen.add(k)
    return out


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(v), "null" if v is None else repr(v)
    )


class _Reader:
    """Typed access to one JSON object, with the path for error messages."""

    __slots__ = ("d", "path")

    def __init__(self, data: Any, path: str, keys: frozenset[str] | None = None) -> None:
        if type(data) is not dict and (type(data) is _Duplicated or not isinstance(data, dict)):
            if type(data) is _Duplicated:
                raise JSONFormatError(path, f"the key {data.duplicate!r} appears twice")
            raise JSONFormatError(path, f"expected an object, got {_type_name(data)}")
        self.d = data
        self.path = path
        if keys is not None:
            self.only(keys)

    def only(self, keys: frozenset[str]) -> None:
        """Refuse keys outside ``keys`` (a typo would otherwise drop data silently)."""
        if not self.d.keys() <= keys:
            extra = sorted(self.d.keys() - keys)[0]
            raise JSONFormatError(
                self._at(extra), f"unknown key {extra!r} (expected {', '.join(sorted(keys))})"
            )

    def _at(self, key: str) -> str:
        return f"{self.path}.{key}"

    def get(self, key: str) -> Any:
        try:
            return self.d[key]
        except KeyError:
            raise JSONFormatError(self.path, f"missing key {key!r}") from None

    def text(self, key: str) -> str:
        v = self.get(key)
        if type(v) is not str:
            raise JSONFormatError(self._at(key), f"expected a string, got {_type_name(v)}")
        return v

    def opt_str(self, key: str) -> str | None:
        v = self.get(key)
        return None if v is None else self.text(key)

    def flag(self, key: str) -> bool:
        v = self.get(key)
        if type(v) is not bool:
            raise JSONFormatError(self._at(key), f"expected true or false, got {_type_name(v)}")
        return v

    def num(self, key: str, *, inf: bool = False, nonneg: bool = False) -> float:
        x = _num(self.get(key), self._at(key), inf)
        if nonneg and not x >= 0.0:
            raise JSONFormatError(self._at(key), f"expected a number >= 0, got {x!r}")
        return x

    def vec(self, key: str, n: int) -> FloatArray:
        return np.array(_floats(self.get(key), self._at(key), n))

    def mat33(self, key: str) -> list[list[float]]:
        v = self.get(key)
        path = self._at(key)
        if type(v) is not list or len(v) != 3:
            raise JSONFormatError(path, f"expected 3 rows of 3 numbers, got {_type_name(v)}")
        return [_floats(row, f"{path}[{i}]", 3) for i, row in enumerate(v)]

    def rotation(self, key: str = "rotation") -> FloatArray:
        return _rotation(self.mat33(key), self._at(key))

    def obj(self, key: str, keys: frozenset[str] | None = None) -> _Reader:
        return _Reader(self.get(key), self._at(key), keys)

    def texts(self, key: str) -> tuple[str, ...]:
        """An optional list of XML element texts (absent: none)."""
        if key not in self.d:
            return ()
        items = self.seq(key)
        for k, x in enumerate(items):
            if type(x) is not str or not x.lstrip().startswith("<"):
                raise JSONFormatError(
                    f"{self._at(key)}[{k}]", f"expected XML text, got {_type_name(x)}"
                )
        return tuple(items)

    def seq(self, key: str) -> list[Any]:
        v = self.get(key)
        if type(v) is not list:
            raise JSONFormatError(self._at(key), f"expected a list, got {_type_name(v)}")
        return v

    def items(self, key: str, keys: frozenset[str] | None = None) -> list[_Reader]:
        at = self._at(key)
        return [_Reader(x, f"{at}[{k}]", keys) for k, x in enumerate(self.seq(key))]


def _num(v: Any, path: str, inf: bool) -> float:
    t = type(v)
    if t is float:
        x = v
    elif t is int:
        try:
            x = float(v)
        except OverflowError:
            raise JSONFormatError(path, "expected a number within the float range") from None
    elif inf and v in ("inf", "-inf"):
        return math.inf if v == "inf" else -math.inf
    else:
        raise JSONFormatError(path, f"expected a number, got {_type_name(v)}")
    if x - x != 0.0:
        # json.loads reads NaN and Infinity literals (and 1e400 as inf), which to_json never
        # writes.
        hint = ' (write "inf" or "-inf" for an unbounded limit)' if inf else ""
        raise JSONFormatError(path, f"expected a finite number, got {x}{hint}")
    return float(x)


def _floats(v: Any, path: str, n: int) -> list[float]:
    """``n`` finite numbers; the common case (floats only) in one pass."""
    if type(v) is not list or len(v) != n:
        raise JSONFormatError(path, f"expected a list of {n} numbers, got {_type_name(v)}")
    for x in v:
        if type(x) is not float or x - x != 0.0:
            return [_num(x, f"{path}[{i}]", False) for i, x in enumerate(v)]
    return v


def _rotation(rows: list[list[float]], path: str) -> FloatArray:
    (a, b, c), (d, e, f), (g, h, i) = rows
    # R^T R - I and det R in plain floats: for one 3x3 matrix this is several times faster than
    # numpy, and the reader checks one rotation per joint, frame, shape and sensor.
    try:
        err = max(
            abs(a * a + d * d + g * g - 1.0),
            abs(b * b + e * e + h * h - 1.0),
            abs(c * c + f * f + i * i - 1.0),
            abs(a * b + d * e + g * h),
            abs(a * c + d * f + g * i),
            abs(b * c + e * f + h * i),
        )
        det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    except OverflowError:  # not raised by float arithmetic today; inf/NaN are refused below
        err, det = math.inf, 0.0
    if err <= _EXACT and det > 0.0:
        return np.array(rows)
    if not (err <= ROTATION_TOLERANCE and det > 0.0):
        what = (
            "a reflection (det < 0)"
            if det < 0.0 and err <= ROTATION_TOLERANCE
            else (f"not orthonormal (max |R^T R - I| = {err:.3g} > {ROTATION_TOLERANCE:g})")
        )
        raise JSONFormatError(
            path, f"not a rotation matrix: {what}; store a proper rotation (R^T R = I, det R = 1)"
        )
    # Round-off beyond ordinary arithmetic (a text editor, another writer): the nearest rotation.
    u, _, vt = np.linalg.svd(np.array(rows))
    nearest: FloatArray = u @ vt
    return nearest


def _read_T(r: _Reader) -> Transform:
    r.only(_TRANSFORM_KEYS)
    return Transform._raw(r.rotation(), r.vec("position", 3))


def _made(path: str, make: Callable[..., _V], *args: Any, **kwargs: Any) -> _V:
    """``make(*args, **kwargs)``, its refusal (a ModelError, ValueError, ...) at ``path``."""
    try:
        return make(*args, **kwargs)
    except JSONFormatError:
        raise
    except (RobomodelError, ValueError, TypeError) as err:
        # At the top level the document is well formed but its model is not (an unknown link,
        # a loop, ...).
        reason = f"the model it describes is not valid: {err}" if path == "$" else str(err)
        raise JSONFormatError(path, reason) from None


def _read_material(v: Any, path: str) -> Material | None:
    if v is None:
        return None
    r = _Reader(v, path, _MATERIAL_KEYS)
    rgba = r.get("rgba")
    return _made(
        path,
        Material,
        name=r.text("name"),
        rgba=None if rgba is None else tuple(_floats(rgba, f"{path}.rgba", 4)),
        texture=r.opt_str("texture"),
        extensions=r.texts("extensions"),
    )


_MATERIAL_KEYS = frozenset(("name", "rgba", "texture", "extensions"))
_SHAPE_KEYS = frozenset(("name", "geometry", "link_H_geometry", "material", "extensions"))
_AXIS_KEYS = frozenset(("direction", "origin"))
_LIMIT_KEYS = frozenset(("enabled", "lower", "upper"))
_DYNAMICS_KEYS = frozenset(("kind", "damping", "static_friction"))
_MIMIC_KEYS = frozenset(("joint", "multiplier", "offset"))
_FRAME_KEYS = frozenset(("name", "link", "link_H_frame"))
_EXTENSION_KEYS = frozenset(("owner_kind", "owner", "tag", "xml"))


def _read_geometry(r: _Reader) -> Geometry:
    kind = r.text("type")
    keys = _GEOMETRY_KEYS.get(kind)
    if keys is None:
        raise JSONFormatError(
            r._at("type"), f"unknown geometry type {kind!r} (box, sphere, cylinder, mesh)"
        )
    r.only(keys)
    if kind == "box":
        x, y, z = _floats(r.get("size"), r._at("size"), 3)
        return _made(r.path, Box, x, y, z)
    if kind == "sphere":
        return _made(r.path, Sphere, r.num("radius"))
    if kind == "cylinder":
        return _made(r.path, Cylinder, r.num("radius"), r.num("length"))
    sx, sy, sz = _floats(r.get("scale"), r._at("scale"), 3)
    return _made(r.path, Mesh, r.text("filename"), (sx, sy, sz))


def _read_shape(r: _Reader) -> SolidShape:
    r.only(_SHAPE_KEYS)
    return _made(
        r.path,
        SolidShape,
        geometry=_read_geometry(r.obj("geometry")),
        name=r.opt_str("name"),
        link_H_geometry=_read_T(r.obj("link_H_geometry")),
        material=_read_material(r.get("material"), r._at("material")),
        extensions=r.texts("extensions"),
    )


def _read_axis(r: _Reader) -> Axis:
    r.only(_AXIS_KEYS)
    x, y, z = _floats(r.get("direction"), r._at("direction"), 3)
    n = math.hypot(x, y, z)  # no overflow for huge components
    if not abs(n - 1.0) <= AXIS_TOLERANCE:
        raise JSONFormatError(
            r._at("direction"),
            f"expected a unit vector, got norm {n!r} (|norm - 1| > {AXIS_TOLERANCE:g}); "
            "store the direction normalised",
        )
    d = np.array((x, y, z))
    if abs(n - 1.0) > _EXACT:
        d = d / n
    # Within _EXACT the stored bits are kept: normalising again could change the last bit.
    return Axis._raw(d, r.vec("origin", 3))


def _read_joint(r: _Reader) -> tuple[str, Joint]:
    kind = r.text("type")
    if kind == "fixed":
        r.only(_FIXED_KEYS)
    elif kind in ("revolute", "prismatic"):
        r.only(_MOVING_KEYS)
    else:
        raise JSONFormatError(
            r._at("type"), f"unknown joint type {kind!r} (fixed, revolute, prismatic)"
        )
    name = r.text("name")
    link1, link2 = r.text("link1"), r.text("link2")
    rest = _read_T(r.obj("link1_H_link2"))
    if kind == "fixed":
        return name, _made(r.path, FixedJoint, link1=link1, link2=link2, link1_H_link2=rest)
    axis = _read_axis(r.obj("axis"))
    lim = r.obj("limits", _LIMIT_KEYS)
    dyn = r.obj("dynamics", _DYNAMICS_KEYS)
    dyn_kind = dyn.text("kind")
    if dyn_kind not in ("none", "urdf"):
        raise JSONFormatError(dyn._at("kind"), f"unknown dynamics kind {dyn_kind!r} (none, urdf)")
    mimic = None
    if r.get("mimic") is not None:
        mr = r.obj("mimic", _MIMIC_KEYS)
        mimic = Mimic(
            joint=mr.text("joint"), multiplier=mr.num("multiplier"), offset=mr.num("offset")
        )
    limits = _made(
        lim.path,
        PositionLimits,
        enabled=lim.flag("enabled"),
        lower=lim.num("lower", inf=True),
        upper=lim.num("upper", inf=True),
    )
    cls: Callable[..., Joint] = RevoluteJoint if kind == "revolute" else PrismaticJoint
    joint: Joint = _made(
        r.path,
        cls,
        link1=link1,
        link2=link2,
        link1_H_link2=rest,
        axis_in_link1=axis,
        limits=limits,
        effort_limit=r.num("effort_limit", inf=True, nonneg=True),
        velocity_limit=r.num("velocity_limit", inf=True, nonneg=True),
        dynamics=JointDynamics(
            kind="urdf" if dyn_kind == "urdf" else "none",
            damping=dyn.num("damping", nonneg=True),
            static_friction=dyn.num("static_friction", nonneg=True),
        ),
        mimic=mimic,
    )
    return name, joint


def _check_mimics(names: list[str], joints: list[Joint]) -> None:
    """Refuse a mimic naming an unknown, a fixed or its own joint, and mimic cycles."""
    index = {n: k for k, n in enumerate(names)}
    leader: dict[int, int] = {}
    for k, j in enumerate(joints):
        mimic = getattr(j, "mimic", None)
        if mimic is None:
            continue
        path = f"$.joints[{k}].mimic.joint"
        other = index.get(mimic.joint)
        if other is None:
            raise JSONFormatError(
                path, f"the model has no joint named {mimic.joint!r}{suggest(mimic.joint, names)}"
            )
        if other == k:
            raise JSONFormatError(path, f"joint {names[k]!r} cannot mimic itself")
        if isinstance(joints[other], FixedJoint):
            raise JSONFormatError(
                path, f"joint {mimic.joint!r} is fixed: a mimic needs a moving leader"
            )
        leader[k] = other
    done: set[int] = set()
    for start in leader:
        trail: list[int] = []
        at: int | None = start
        while at is not None and at not in done:
            if at in trail:
                cycle = [*trail[trail.index(at) :], at]
                raise JSONFormatError(
                    f"$.joints[{at}].mimic.joint",
                    "mimic joints form a cycle: " + " -> ".join(repr(names[i]) for i in cycle),
                )
            trail.append(at)
            at = leader.get(at)
        done.update(trail)


def _read_sensor(r: _Reader) -> Sensor:
    kind = r.text("type")
    keys = _SENSOR_KEYS.get(kind)
    if keys is None:
        raise JSONFormatError(
            r._at("type"),
            f"unknown sensor type {kind!r} (force_torque, accelerometer, gyroscope)",
        )
    r.only(keys)
    if kind == "force_torque":
        return _made(
            r.path,
            SixAxisForceTorqueSensor,
            name=r.text("name"),
            parent_joint=r.text("parent_joint"),
            first_link=r.text("first_link"),
            second_link=r.text("second_link"),
            first_link_H_sensor=_read_T(r.obj("first_link_H_sensor")),
            second_link_H_sensor=_read_T(r.obj("second_link_H_sensor")),
            applied_wrench_link=r.text("applied_wrench_link"),
        )
    cls: Callable[..., Sensor] = Accelerometer if kind == "accelerometer" else Gyroscope
    return _made(
        r.path,
        cls,
        name=r.text("name"),
        link=r.text("link"),
        link_H_sensor=_read_T(r.obj("link_H_sensor")),
    )


def _read_link(r: _Reader) -> tuple[str, Link]:
    rows = r.mat33("rotational_inertia")
    if rows[0][1] != rows[1][0] or rows[0][2] != rows[2][0] or rows[1][2] != rows[2][1]:
        raise JSONFormatError(r._at("rotational_inertia"), "the inertia is not symmetric")
    # Every check of SpatialInertia's constructor is done above (finite, shapes, exact symmetry),
    # so the trusted constructor stores the arrays as they are.
    mass = r.num("mass", nonneg=True)
    h = _readonly(r.vec("first_moment", 3))
    return r.text("name"), Link(_inertia(mass, h, _readonly(np.array(rows))))


_inertia = trusted(SpatialInertia)


def _shapes(r: _Reader, key: str) -> list[list[SolidShape]]:
    at = r._at(key)
    out = []
    for k, v in enumerate(r.seq(key)):
        if type(v) is not list:
            raise JSONFormatError(f"{at}[{k}]", f"expected a list of shapes, got {_type_name(v)}")
        out.append([_read_shape(_Reader(s, f"{at}[{k}][{i}]")) for i, s in enumerate(v)])
    return out


def from_dict(data: Any) -> Model:
    """Build a model from the dictionary form (see :func:`from_json`)."""
    r = _Reader(data, "$")
    fmt = r.get("format")
    if fmt != FORMAT or type(fmt) is not str:
        raise JSONFormatError(
            "$.format", f"expected {FORMAT!r}, got {fmt!r}; not a robomodel model"
        )
    version = r.get("version")
    if type(version) is not int or version < 1:
        raise JSONFormatError("$.version", f"expected a positive integer, got {version!r}")
    if version > SCHEMA_VERSION:
        raise JSONFormatError(
            "$.version",
            f"schema version {version} is newer than this robomodel reads ({SCHEMA_VERSION}); "
            "upgrade robomodel",
        )
    r.only(_TOP_KEYS)
    links = [_read_link(lr) for lr in r.items("links", _LINK_KEYS)]
    joints = [_read_joint(j) for j in r.items("joints")]
    joint_names = [n for n, _ in joints]
    joint_list = [j for _, j in joints]
    _check_mimics(joint_names, joint_list)
    return _made(
        "$",
        Model,
        name=r.text("name"),
        default_base=r.opt_str("default_base"),
        link_names=[n for n, _ in links],
        links=[link for _, link in links],
        joint_names=joint_names,
        joints=joint_list,
        frames=[
            _made(fr.path, Frame, fr.text("name"), fr.text("link"), _read_T(fr.obj("link_H_frame")))
            for fr in r.items("frames", _FRAME_KEYS)
        ],
        visuals=_shapes(r, "visuals"),
        collisions=_shapes(r, "collisions"),
        sensors=[_read_sensor(s) for s in r.items("sensors")],
        package_dirs=[
            _str_item(x, f"$.package_dirs[{k}]") for k, x in enumerate(r.seq("package_dirs"))
        ],
        materials=[
            _read_material(x, f"$.materials[{k}]") for k, x in enumerate(r.seq("materials"))
        ],
        extensions=[
            _made(
                er.path,
                Extension,
                owner_kind=er.text("owner_kind"),
                owner=er.text("owner"),
                tag=er.text("tag"),
                xml=er.text("xml"),
            )
            for er in r.items("extensions", _EXTENSION_KEYS)
        ],
    )


def _str_item(x: Any, path: str) -> str:
    if type(x) is not str:
        raise JSONFormatError(path, f"expected a string, got {_type_name(x)}")
    return x


def from_json(text: str | bytes) -> Model:
    """Return the model described by JSON text written by :func:`to_json`.

    The reader is strict: every value has the type and shape of the schema
    (``docs/json-schema.md``), numbers are finite (limits may be ``"inf"``), rotations are
    rotations and axis directions unit vectors to within :data:`ROTATION_TOLERANCE` and
    :data:`AXIS_TOLERANCE`, masses, effort and velocity limits, damping and friction are
    ``>= 0``, mimic joints name another moving joint without cycles, and no object repeats a key
    or has a key the schema does not define. Unknown keys are refused rather than ignored: the
    schema version changes whenever a key is added, so in a document this reader accepts an
    unknown key is a typo or a corruption, and ignoring it would lose data silently.

    Args:
        text: the JSON text (``bytes`` must be UTF-8).

    Raises:
        JSONFormatError: the text is not JSON, not a robomodel model, of a newer schema
            version, or describes an invalid model; ``err.path`` says where (``$.joints[3].axis``).
        ArgumentError: ``text`` is neither a string nor bytes.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise ArgumentError(
            f"from_json reads JSON text (str or bytes), but got {type(text).__name__}; "
            "use from_dict for a parsed document"
        )
    # The document and the model are trees: the cyclic collector finds nothing in them, but a
    # big model allocates enough objects to run it many times over a growing heap.
    with gc_paused():
        try:
            data = json.loads(text, object_pairs_hook=_pairs)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise JSONFormatError("$", f"not valid JSON: {err}") from None
        except RecursionError:
            raise JSONFormatError("$", "not valid JSON: nested too deeply") from None
        return from_dict(data)
