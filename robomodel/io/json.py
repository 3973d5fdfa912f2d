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
from collections.abc import Sequence
from typing import Any

import numpy as np

from robomodel.errors import ModelError, RobomodelError
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
from robomodel.spatial import Axis, SpatialInertia, Transform

__all__ = [
    "FORMAT",
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


class JSONFormatError(ModelError):
    """A JSON document is not a robomodel model of a supported schema version.

    Attributes:
        path: where in the document the problem is (``"joints[3].axis"``).
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        super().__init__(f"robomodel JSON, at {path or 'top level'}: {reason}")


# --------------------------------------------------------------------------- writing


def _f(x: float) -> float | str:
    v = float(x)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _arr(a: Any) -> Any:
    return np.asarray(a, dtype=np.float64).tolist()


def _T(T: Transform) -> dict[str, Any]:
    return {"rotation": _arr(T.rotation), "position": _arr(T.position)}


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
    return json.dumps(to_dict(model), indent=indent, allow_nan=False, ensure_ascii=False)


# --------------------------------------------------------------------------- reading


class _Reader:
    """Typed access to one JSON object, with the path for error messages."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise JSONFormatError(path, f"expected an object, got {type(data).__name__}")
        self.d = data
        self.path = path

    def _at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str) -> Any:
        if key not in self.d:
            raise JSONFormatError(self.path, f"missing key {key!r}")
        return self.d[key]

    def text(self, key: str) -> str:
        v = self.get(key)
        if not isinstance(v, str):
            raise JSONFormatError(self._at(key), f"expected a string, got {v!r}")
        return v

    def opt_str(self, key: str) -> str | None:
        v = self.get(key)
        return None if v is None else self.text(key)

    def flag(self, key: str) -> bool:
        v = self.get(key)
        if not isinstance(v, bool):
            raise JSONFormatError(self._at(key), f"expected true or false, got {v!r}")
        return v

    def num(self, key: str, *, inf: bool = False) -> float:
        return _num(self.get(key), self._at(key), inf)

    def vec(self, key: str, shape: tuple[int, ...]) -> np.ndarray[Any, np.dtype[np.float64]]:
        v = self.get(key)
        try:
            arr = np.array(v, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise JSONFormatError(self._at(key), f"expected numbers of shape {shape}") from None
        if arr.shape != shape or not np.all(np.isfinite(arr)):
            raise JSONFormatError(self._at(key), f"expected finite numbers of shape {shape}")
        return arr

    def obj(self, key: str) -> _Reader:
        return _Reader(self.get(key), self._at(key))

    def texts(self, key: str) -> tuple[str, ...]:
        """An optional list of XML element texts (absent: none)."""
        if key not in self.d:
            return ()
        items = self.seq(key)
        for k, x in enumerate(items):
            if not isinstance(x, str) or not x.lstrip().startswith("<"):
                raise JSONFormatError(f"{self._at(key)}[{k}]", f"expected XML text, got {x!r}")
        return tuple(items)

    def seq(self, key: str) -> Sequence[Any]:
        v = self.get(key)
        if not isinstance(v, list):
            raise JSONFormatError(self._at(key), f"expected a list, got {type(v).__name__}")
        return v

    def items(self, key: str) -> list[_Reader]:
        return [_Reader(x, f"{self._at(key)}[{k}]") for k, x in enumerate(self.seq(key))]


def _num(v: Any, path: str, inf: bool) -> float:
    if inf and v in ("inf", "-inf"):
        return math.inf if v == "inf" else -math.inf
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise JSONFormatError(path, f"expected a number, got {v!r}")
    try:
        x = float(v)
    except OverflowError:
        raise JSONFormatError(path, "expected a number within the float range") from None
    if not math.isfinite(x):
        # json.loads reads NaN and Infinity literals, which to_json never writes.
        hint = ' (write "inf" or "-inf" for an unbounded limit)' if inf else ""
        raise JSONFormatError(path, f"expected a finite number, got {x}{hint}")
    return x


def _read_T(r: _Reader) -> Transform:
    return Transform(r.vec("rotation", (3, 3)), r.vec("position", (3,)))


def _read_material(v: Any, path: str) -> Material | None:
    if v is None:
        return None
    r = _Reader(v, path)
    rgba = r.get("rgba")
    return Material(
        name=r.text("name"),
        rgba=None if rgba is None else tuple(r.vec("rgba", (4,)).tolist()),
        texture=r.opt_str("texture"),
        extensions=r.texts("extensions"),
    )


def _read_geometry(r: _Reader) -> Geometry:
    kind = r.text("type")
    if kind == "box":
        x, y, z = r.vec("size", (3,)).tolist()
        return Box(x, y, z)
    if kind == "sphere":
        return Sphere(r.num("radius"))
    if kind == "cylinder":
        return Cylinder(r.num("radius"), r.num("length"))
    if kind == "mesh":
        sx, sy, sz = r.vec("scale", (3,)).tolist()
        return Mesh(r.text("filename"), (sx, sy, sz))
    raise JSONFormatError(r.path, f"unknown geometry type {kind!r} (box, sphere, cylinder, mesh)")


def _read_shape(r: _Reader) -> SolidShape:
    return SolidShape(
        geometry=_read_geometry(r.obj("geometry")),
        name=r.opt_str("name"),
        link_H_geometry=_read_T(r.obj("link_H_geometry")),
        material=_read_material(r.get("material"), f"{r.path}.material"),
        extensions=r.texts("extensions"),
    )


def _read_joint(r: _Reader) -> tuple[str, Joint]:
    name = r.text("name")
    kind = r.text("type")
    link1, link2 = r.text("link1"), r.text("link2")
    rest = _read_T(r.obj("link1_H_link2"))
    if kind == "fixed":
        return name, FixedJoint(link1=link1, link2=link2, link1_H_link2=rest)
    if kind not in ("revolute", "prismatic"):
        raise JSONFormatError(r.path, f"unknown joint type {kind!r} (fixed, revolute, prismatic)")
    ax = r.obj("axis")
    direction = ax.vec("direction", (3,))
    if not np.linalg.norm(direction) > 0.0:
        raise JSONFormatError(ax.path, "the axis direction is the zero vector")
    # Stored values are already unit vectors: normalising again could change the last bit.
    axis = Axis._raw(direction, ax.vec("origin", (3,)))
    lim = r.obj("limits")
    dyn = r.obj("dynamics")
    dyn_kind = dyn.text("kind")
    if dyn_kind not in ("none", "urdf"):
        raise JSONFormatError(dyn.path, f"unknown dynamics kind {dyn_kind!r} (none, urdf)")
    mimic_v = r.get("mimic")
    mimic = None
    if mimic_v is not None:
        mr = r.obj("mimic")
        mimic = Mimic(
            joint=mr.text("joint"), multiplier=mr.num("multiplier"), offset=mr.num("offset")
        )
    cls = RevoluteJoint if kind == "revolute" else PrismaticJoint
    return name, cls(
        link1=link1,
        link2=link2,
        link1_H_link2=rest,
        axis_in_link1=axis,
        limits=PositionLimits(
            enabled=lim.flag("enabled"),
            lower=lim.num("lower", inf=True),
            upper=lim.num("upper", inf=True),
        ),
        effort_limit=r.num("effort_limit", inf=True),
        velocity_limit=r.num("velocity_limit", inf=True),
        dynamics=JointDynamics(
            kind="urdf" if dyn_kind == "urdf" else "none",
            damping=dyn.num("damping"),
            static_friction=dyn.num("static_friction"),
        ),
        mimic=mimic,
    )


def _read_sensor(r: _Reader) -> Sensor:
    kind = r.text("type")
    if kind == "force_torque":
        return SixAxisForceTorqueSensor(
            name=r.text("name"),
            parent_joint=r.text("parent_joint"),
            first_link=r.text("first_link"),
            second_link=r.text("second_link"),
            first_link_H_sensor=_read_T(r.obj("first_link_H_sensor")),
            second_link_H_sensor=_read_T(r.obj("second_link_H_sensor")),
            applied_wrench_link=r.text("applied_wrench_link"),
        )
    if kind in ("accelerometer", "gyroscope"):
        cls = Accelerometer if kind == "accelerometer" else Gyroscope
        return cls(
            name=r.text("name"), link=r.text("link"), link_H_sensor=_read_T(r.obj("link_H_sensor"))
        )
    raise JSONFormatError(
        r.path, f"unknown sensor type {kind!r} (force_torque, accelerometer, gyroscope)"
    )


def _read_inertia(r: _Reader) -> SpatialInertia:
    I_O = r.vec("rotational_inertia", (3, 3))
    if not np.array_equal(I_O, I_O.T):
        raise JSONFormatError(f"{r.path}.rotational_inertia", "the inertia is not symmetric")
    return SpatialInertia(r.num("mass"), r.vec("first_moment", (3,)), I_O)


def from_dict(data: Any) -> Model:
    """Build a model from the dictionary form (see :func:`from_json`)."""
    r = _Reader(data, "")
    fmt = r.get("format")
    if fmt != FORMAT:
        raise JSONFormatError("format", f"expected {FORMAT!r}, got {fmt!r}; not a robomodel model")
    version = r.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise JSONFormatError("version", f"expected a positive integer, got {version!r}")
    if version > SCHEMA_VERSION:
        raise JSONFormatError(
            "version",
            f"schema version {version} is newer than this robomodel reads ({SCHEMA_VERSION}); "
            "upgrade robomodel",
        )
    try:
        links = r.items("links")
        joints = [_read_joint(j) for j in r.items("joints")]
        return Model(
            name=r.text("name"),
            default_base=r.opt_str("default_base"),
            link_names=[lr.text("name") for lr in links],
            links=[Link(_read_inertia(lr)) for lr in links],
            joint_names=[n for n, _ in joints],
            joints=[j for _, j in joints],
            frames=[
                Frame(fr.text("name"), fr.text("link"), _read_T(fr.obj("link_H_frame")))
                for fr in r.items("frames")
            ],
            visuals=[
                [_read_shape(_Reader(s, f"visuals[{k}][{i}]")) for i, s in enumerate(v)]
                for k, v in enumerate(r.seq("visuals"))
            ],
            collisions=[
                [_read_shape(_Reader(s, f"collisions[{k}][{i}]")) for i, s in enumerate(v)]
                for k, v in enumerate(r.seq("collisions"))
            ],
            sensors=[_read_sensor(s) for s in r.items("sensors")],
            package_dirs=[
                _str_item(x, f"package_dirs[{k}]") for k, x in enumerate(r.seq("package_dirs"))
            ],
            materials=[
                _read_material(x, f"materials[{k}]") for k, x in enumerate(r.seq("materials"))
            ],
            extensions=[
                Extension(
                    owner_kind=er.text("owner_kind"),
                    owner=er.text("owner"),
                    tag=er.text("tag"),
                    xml=er.text("xml"),
                )
                for er in r.items("extensions")
            ],
        )
    except JSONFormatError:
        raise
    except (RobomodelError, ValueError, TypeError) as err:
        # A well-formed document that describes an invalid model (unknown link, loop, ...).
        raise JSONFormatError("", f"the model it describes is not valid: {err}") from err


def _str_item(x: Any, path: str) -> str:
    if not isinstance(x, str):
        raise JSONFormatError(path, f"expected a string, got {x!r}")
    return x


def from_json(text: str | bytes) -> Model:
    """Return the model described by JSON text written by :func:`to_json`.

    Args:
        text: the JSON text.

    Raises:
        JSONFormatError: the text is not JSON, not a robomodel model, of a newer schema
            version, or describes an invalid model; the message says where.
    """
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise JSONFormatError("", f"not valid JSON: {err}") from None
    except RecursionError:
        raise JSONFormatError("", "not valid JSON: nested too deeply") from None
    return from_dict(data)
