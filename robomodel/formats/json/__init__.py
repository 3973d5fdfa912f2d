"""A versioned JSON form of a model: :func:`dumps` and :func:`loads` (:func:`dump`, :func:`load`).

The round trip is exact: ``loads(dumps(m)) == m``. Floats are written with Python's
shortest round-tripping representation (``repr``), infinite joint limits as the strings
``"inf"`` and ``"-inf"`` (JSON has no infinity), and nothing is recomputed on the way back in
(axes are not re-normalised, inertias not re-symmetrised). The schema is documented in
``docs/json-schema.md``; its version is :data:`SCHEMA_VERSION`.

>>> import robomodel as rm
>>> link = rm.Link(rm.SpatialInertia.from_com(0.1, (0, 0, 0.3)))
>>> m = rm.add_link(rm.Model(name="r"), "base", link)
>>> loads(dumps(m)) == m
True

JSON holds everything a model holds, so a conversion loses nothing: the report-returning verbs
every format shares (:func:`loads_with_report`, :func:`dumps_with_report`) are here for code
written over all formats, and their report is always empty. :func:`to_dict` and
:func:`from_dict` are the document as Python values, before or after the text.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import make
from robomodel._internal.deprecation import renamed_attributes
from robomodel._internal.files import atomic_write, read_regular
from robomodel.errors import ArgumentError, JSONFormatError, suggest
from robomodel.formats.json._document import (
    _EXACT,
    _FIXED_KEYS,
    _GEOMETRY_KEYS,
    _LINK_KEYS,
    _MOVING_KEYS,
    _SENSOR_KEYS,
    _TOP_KEYS,
    AXIS_TOLERANCE,
    ROTATION_TOLERANCE,
    _floats,
    _made,
    _pairs,
    _read_T,
    _Reader,
    _type_name,
)
from robomodel.formats.report import ConversionReport
from robomodel.model.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
    joint_type_name,
)
from robomodel.model.record import Extension, Frame, Link, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.model.spatial import Axis, FloatArray, SpatialInertia, Transform
from robomodel.model.topology import EMPTY_SHAPES

__all__ = [
    "AXIS_TOLERANCE",
    "FORMAT",
    "ROTATION_TOLERANCE",
    "SCHEMA_VERSION",
    "JSONFormatError",
    "dump",
    "dumps",
    "dumps_with_report",
    "from_dict",
    "load",
    "load_with_report",
    "loads",
    "loads_with_report",
    "to_dict",
]

FORMAT = "robomodel"
"""The value of the top-level ``"format"`` key."""

SCHEMA_VERSION = 1
"""The schema version written by :func:`dumps`; :func:`loads` reads versions ``<=`` it."""


_V = TypeVar("_V")


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


def _sections(model: Model, links: Any, joints: Any) -> dict[str, Any]:
    """The top-level object of ``model``'s document, with ``links`` and ``joints`` as given."""
    return {
        "format": FORMAT,
        "version": SCHEMA_VERSION,
        "name": model.name,
        "default_base": model.default_base,
        "links": links,
        "joints": joints,
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


def to_dict(model: Model) -> dict[str, Any]:
    """Return the JSON-ready dictionary of ``model`` (see :func:`dumps`)."""
    links = [
        {
            "name": n,
            "mass": link.inertia.mass,
            "first_moment": _arr(link.inertia.first_moment),
            "rotational_inertia": _arr(link.inertia.rotational_inertia),
        }
        for n, link in zip(model.link_names, model.links, strict=True)
    ]
    joints = [_joint(n, j) for n, j in zip(model.joint_names, model.joints, strict=True)]
    return _sections(model, links, joints)


def _dumps(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, indent=indent, allow_nan=False, ensure_ascii=False)


def dumps(model: Model, *, indent: int | None = None) -> str:
    """Return the JSON text of ``model`` (schema version :data:`SCHEMA_VERSION`).

    Args:
        model: the model.
        indent: pretty-print with this indent (``None``: one line).

    Returns:
        Strict JSON (no NaN or Infinity literals) that :func:`loads` reads back exactly.
    """
    return _dumps(to_dict(model), indent)


# --------------------------------------------------------------------------- reading


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
        dynamics=_made(
            dyn.path,
            JointDynamics,
            kind="urdf" if dyn_kind == "urdf" else "none",
            damping=dyn.num("damping", nonneg=True),
            static_friction=dyn.num("static_friction", nonneg=True),
        ),
        mimic=mimic,
    )
    return name, joint


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
    h = immutable(r.vec("first_moment", 3))
    return r.text("name"), Link(make(SpatialInertia)(mass, h, immutable(np.array(rows))))


def _shapes(r: _Reader, key: str) -> list[Any]:
    seq = r.seq(key)
    if set(map(type, seq)) <= {list} and not any(seq):  # no shapes at all: the common case
        return [EMPTY_SHAPES] * len(seq)
    at = r._at(key)
    out = []
    for k, v in enumerate(r.seq(key)):
        if type(v) is not list:
            raise JSONFormatError(f"{at}[{k}]", f"expected a list of shapes, got {_type_name(v)}")
        out.append([_read_shape(_Reader(s, f"{at}[{k}][{i}]")) for i, s in enumerate(v)])
    return out


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


def from_dict(data: Any) -> Model:
    """Build a model from the dictionary form (see :func:`loads`)."""
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
    links = _unzipped([_read_link(lr) for lr in r.items("links", _LINK_KEYS)])
    joints = _unzipped([_read_joint(j) for j in r.items("joints")])
    joint_names, joint_list = joints
    _check_mimics(joint_names, joint_list)
    return _made(
        "$",
        Model,
        name=r.text("name"),
        default_base=r.opt_str("default_base"),
        link_names=links[0],
        links=links[1],
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


def _unzipped(pairs: list[tuple[str, _V]]) -> tuple[list[str], list[_V]]:
    return [n for n, _ in pairs], [v for _, v in pairs]


def _str_item(x: Any, path: str) -> str:
    if type(x) is not str:
        raise JSONFormatError(path, f"expected a string, got {_type_name(x)}")
    return x


def loads(text: str | bytes) -> Model:
    """Return the model described by JSON text written by :func:`dumps`.

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
            f"loads reads JSON text (str or bytes), but got {type(text).__name__}; "
            "use from_dict for a parsed document"
        )
    try:
        data = json.loads(text, object_pairs_hook=_pairs)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise JSONFormatError("$", f"not valid JSON: {err}") from None
    except RecursionError:
        raise JSONFormatError("$", "not valid JSON: nested too deeply") from None
    return from_dict(data)


def load(path: str | os.PathLike[str]) -> Model:
    """Return the model in the robomodel JSON file ``path`` (UTF-8); see :func:`loads`."""
    try:
        return loads(read_regular(path))
    except JSONFormatError as e:
        raise e.in_file(os.fspath(path)) from None


def dump(model: Model, path: str | os.PathLike[str], *, indent: int | None = None) -> None:
    """Write ``model`` as a robomodel JSON file at ``path`` (UTF-8); see :func:`dumps`.

    The text goes to a temporary file in the same directory, renamed over ``path`` only once
    complete: a failed write leaves ``path`` as it was.
    """
    atomic_write(os.fspath(path), dumps(model, indent=indent))


def loads_with_report(text: str | bytes) -> tuple[Model, ConversionReport]:
    """Return :func:`loads` ``(text)`` and an empty report: JSON loses nothing.

    For code written over every format (see ``docs/formats.md``).
    """
    return loads(text), ConversionReport()


def load_with_report(path: str | os.PathLike[str]) -> tuple[Model, ConversionReport]:
    """Return :func:`load` ``(path)`` and an empty report: JSON loses nothing.

    For code written over every format (see ``docs/formats.md``).
    """
    return load(path), ConversionReport()


def dumps_with_report(model: Model, *, indent: int | None = None) -> tuple[str, ConversionReport]:
    """Return :func:`dumps` ``(model)`` and an empty report: JSON loses nothing.

    For code written over every format (see ``docs/formats.md``).
    """
    return dumps(model, indent=indent), ConversionReport()


__getattr__ = renamed_attributes(
    __name__,
    {
        "to_json": ("robomodel.formats.json.dumps", lambda: dumps),
        "from_json": ("robomodel.formats.json.loads", lambda: loads),
    },
)
