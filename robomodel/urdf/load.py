"""The URDF loader: ``load(path)`` and ``loads(text)`` return a :class:`~robomodel.model.Model`.

The loader reads what iDynTree's ``ModelLoader`` reads (links, inertials, visuals, collisions,
materials, fixed/revolute/continuous/prismatic joints, iDynTree's ``<sensor>`` dialect) and keeps
everything else verbatim in ``model.extensions``. Unlike iDynTree it is strict: every malformed
document raises a :class:`~robomodel.errors.URDFError` subclass naming ``file:line: element``,
and nothing is ever half-loaded.

Order (spec §7.7, deterministic instead of iDynTree's hash order): joints are connected moving
joints first, then fixed joints, each group in document order; massless leaf links on fixed
joints become frames; links are then numbered in traversal order from the root, joints as the
moving joints in traversal order followed by the fixed joints in traversal order. Frames are
grouped by link in traversal order: on each link the frames of its fake links (a fake root
first, then document order), then its sensor frames (F/T, accelerometers, gyroscopes).
"""

from __future__ import annotations

import math
import os
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import numpy as np
from lxml import etree

from robomodel.errors import RobomodelError, RobomodelWarning, URDFError, suggest
from robomodel.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model import Extension, Frame, Link, Model
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.spatial import Transform, rotation_from_rpy, rpy_from_rotation
from robomodel.urdf._sourced import SourcedAxis, SourcedInertia, SourcedTransform, Vec3
from robomodel.urdf.errors import (
    URDFReferenceError,
    URDFSensorError,
    URDFSyntaxError,
    URDFTopologyError,
    URDFUnsupportedError,
    URDFValueError,
)
from robomodel.urdf.options import LoadOptions

__all__ = ["load", "loads", "resolve_uri"]

_DEFAULT_OPTIONS = LoadOptions()
_ZERO3: Vec3 = (0.0, 0.0, 0.0)
_EYE = np.eye(3)
_EYE.setflags(write=False)
_MOVING_TYPES: dict[str, type[RevoluteJoint] | type[PrismaticJoint]] = {
    "revolute": RevoluteJoint,
    "continuous": RevoluteJoint,
    "prismatic": PrismaticJoint,
}
_UNSUPPORTED_TYPES = {
    "floating": "a floating joint (6 DOFs) is not a URDF tree joint robomodel models; remove it "
    "and use the child as the base link",
    "planar": "planar joints are not modelled; replace it with two prismatic joints and one "
    "revolute joint",
    "spherical": "spherical joints are not modelled; replace it with three revolute joints",
    "ball": "spherical (ball) joints are not modelled; replace it with three revolute joints",
}
_SENSOR_TYPES = ("force_torque", "accelerometer", "gyroscope")
_FT_FRAMES = ("child", "parent", "sensor")
_FT_DIRECTIONS = ("parent_to_child", "child_to_parent")

_local = threading.local()


def _parser() -> Any:
    # lxml parsers must not be shared between threads; one per thread, built once.
    p = getattr(_local, "parser", None)
    if p is None:
        p = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            huge_tree=False,
            remove_comments=True,
            remove_pis=True,
        )
        _local.parser = p
    return p


# ---------------------------------------------------------------------- public API
def load(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str] = (),
    resolver: Callable[[str], str] | None = None,
) -> Model:
    """Read the URDF file ``path`` and return its model.

    Args:
        path: the URDF file.
        options: see :class:`~robomodel.urdf.options.LoadOptions`.
        package_dirs: directories searched for ``package://`` and ``model://`` URIs; stored in
            ``model.package_dirs`` (mesh filenames stay verbatim).
        resolver: when given, every mesh filename is replaced by ``resolver(filename)`` (for
            example ``functools.partial(resolve_uri, dirs)``). Without it nothing is resolved.

    Raises:
        URDFError: a subclass naming ``file:line: element`` for every malformed document.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(name, "rb") as fh:
        data = fh.read()
    return _load_bytes(data, name, options, package_dirs, resolver)


def loads(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str] = (),
    resolver: Callable[[str], str] | None = None,
) -> Model:
    """Read a URDF document from ``text`` and return its model (see :func:`load`).

    ``filename`` is only used in error messages.

    >>> m = loads('''<robot name="r">
    ...   <link name="base"><inertial><mass value="1"/>
    ...     <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    ...   <link name="arm"><inertial><mass value="2"/>
    ...     <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    ...   <link name="tool"/>
    ...   <joint name="j" type="continuous"><parent link="base"/><child link="arm"/>
    ...     <axis xyz="0 0 1"/></joint>
    ...   <joint name="t" type="fixed"><parent link="arm"/><child link="tool"/></joint>
    ... </robot>''')
    >>> list(m.link_names), list(m.joint_names), m.frame_names, m.name
    (['base', 'arm'], ['j'], ['tool'], 'r')
    """
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return _load_bytes(data, filename, options, package_dirs, resolver)


def resolve_uri(model_or_dirs: Model | Iterable[str], uri: str) -> str:
    """Return a local path for a mesh ``uri``, searching the given package directories.

    ``package://pkg/path`` and ``model://pkg/path`` are looked up as ``dir/pkg/path`` in each
    directory (the model's ``package_dirs`` when a model is given), ``file://`` URIs lose their
    scheme, and plain paths are returned unchanged. Only the directories given are searched;
    the environment is never consulted.

    Raises:
        URDFReferenceError: a ``package://`` or ``model://`` URI is not found in any directory.
    """
    dirs = list(model_or_dirs.package_dirs if isinstance(model_or_dirs, Model) else model_or_dirs)
    for scheme in ("package://", "model://"):
        if uri.startswith(scheme):
            rest = uri[len(scheme) :]
            for d in dirs:
                cand = os.path.normpath(os.path.join(d, rest))
                if os.path.exists(cand):
                    return cand
            raise URDFReferenceError(
                f"{uri!r} is not found in the package directories {dirs!r}; give the directory "
                "that contains the package folder",
                element="mesh",
            )
    if uri.startswith("file://"):
        return uri[len("file://") :]
    return uri


# ---------------------------------------------------------------------- parsing helpers
class _Ctx:
    __slots__ = ("exts", "file", "keep", "materials", "warned")

    def __init__(self, file: str, keep: bool) -> None:
        self.file = file
        self.keep = keep
        self.exts: list[Extension] = []
        self.warned: list[str] = []

    def err(self, cls: type[URDFError], el: Any, what: str, reason: str) -> URDFError:
        line = el.sourceline if el is not None else None
        return cls(reason, file=self.file, line=line, element=what)

    def keep_ext(self, kind: str, owner: str, el: Any) -> None:
        tag = el.tag
        if not isinstance(tag, str):
            return
        if self.keep:
            xml = etree.tostring(el, encoding="unicode", with_tail=False)
            self.exts.append(Extension(owner_kind=kind, owner=owner, xml=xml, tag=tag))

    def dropped(self, el: Any, where: str) -> None:
        if isinstance(el.tag, str):
            self.warned.append(f"line {el.sourceline}: <{el.tag}> inside {where}")


def _floats(ctx: _Ctx, el: Any, what: str, attr: str, n: int, default: Any = None) -> Any:
    """Return the ``n`` numbers of attribute ``attr`` (``default`` when absent)."""
    text = el.get(attr)
    if text is None:
        if default is None:
            raise ctx.err(
                URDFValueError, el, what, f"<{el.tag}> needs the attribute {attr!r} ({n} numbers)"
            )
        return default
    parts = text.split()
    if len(parts) != n:
        raise ctx.err(
            URDFValueError,
            el,
            what,
            f"<{el.tag} {attr}={text!r}> must hold {n} number{'s' if n > 1 else ''}, "
            f"got {len(parts)}",
        )
    try:
        if "_" in text or not text.isascii():
            raise ValueError
        vals = tuple(map(float, parts))
    except ValueError:
        raise ctx.err(
            URDFValueError,
            el,
            what,
            f"<{el.tag} {attr}={text!r}> is not {n} decimal number{'s' if n > 1 else ''}",
        ) from None
    for v in vals:
        if not math.isfinite(v):
            raise ctx.err(
                URDFValueError,
                el,
                what,
                f"<{el.tag} {attr}={text!r}> holds a non-finite number; give finite values",
            )
    return vals


def _vec3(ctx: _Ctx, el: Any, what: str, attr: str, default: Vec3) -> Vec3:
    """The hot path of :func:`_floats` for three numbers; any doubt goes to the checked path."""
    text = el.get(attr)
    if text is None:
        return default
    try:
        a, b, c = text.split()
        v = (float(a), float(b), float(c))
    except ValueError:
        return _floats(ctx, el, what, attr, 3)  # type: ignore[no-any-return]
    # x - x is 0.0 for a finite x and NaN otherwise; float() also takes "1_0" and non-ASCII
    # digits, which a C parser would refuse.
    if (v[0] - v[0]) + (v[1] - v[1]) + (v[2] - v[2]) != 0.0 or "_" in text or not text.isascii():
        return _floats(ctx, el, what, attr, 3)  # type: ignore[no-any-return]
    return v


def _float(ctx: _Ctx, el: Any, what: str, attr: str, default: float | None = None) -> float:
    text = el.get(attr)
    if text is None and default is not None:
        return default
    try:
        v = float(text)
    except (TypeError, ValueError):
        v = math.nan
    if v - v != 0.0 or "_" in text or not text.isascii():
        checked: float = _floats(ctx, el, what, attr, 1)[0]  # raises with a precise message
        return checked
    return v


def _required(ctx: _Ctx, el: Any, what: str, attr: str) -> str:
    v = el.get(attr)
    if v is None or not v.strip():
        raise ctx.err(URDFValueError, el, what, f"<{el.tag}> needs a non-empty {attr!r} attribute")
    return str(v)


def _sourced(xyz: Vec3, rpy: Vec3, inverted: bool = False) -> SourcedTransform:
    r, q, y = rpy
    if (
        r == 0.0
        and q == 0.0
        and y == 0.0
        and rpy == _ZERO3
        and not (
            math.copysign(1.0, r) < 0 or math.copysign(1.0, q) < 0 or math.copysign(1.0, y) < 0
        )
    ):
        flat = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, xyz[0], xyz[1], xyz[2]]
    else:
        # rotation_from_rpy's formulas, written into one buffer with the position so that a
        # single array holds the whole transform (this runs for every <origin>).
        cr, sr = math.cos(r), math.sin(r)
        cp, sp = math.cos(q), math.sin(q)
        cy, sy = math.cos(y), math.sin(y)
        flat = [
            cy * cp,
            cy * sp * sr - sy * cr,
            cy * sp * cr + sy * sr,
            sy * cp,
            sy * sp * sr + cy * cr,
            sy * sp * cr - cy * sr,
            -sp,
            cp * sr,
            cp * cr,
            xyz[0],
            xyz[1],
            xyz[2],
        ]
    buf = np.array(flat)
    R = buf[:9].reshape(3, 3)
    p = buf[9:]
    if inverted:
        Rt = R.T.copy()
        R, p = Rt, -(Rt @ p)
    R.setflags(write=False)
    p.setflags(write=False)
    t = object.__new__(SourcedTransform)
    set_ = object.__setattr__
    set_(t, "rotation", R)
    set_(t, "position", p)
    set_(t, "urdf_origin", (xyz, rpy, inverted))
    return t


_IDENTITY_ORIGIN = _sourced(_ZERO3, _ZERO3)


def _origin(ctx: _Ctx, el: Any, what: str) -> SourcedTransform:
    if el is None:
        return _IDENTITY_ORIGIN
    xs = el.get("xyz")
    rs = el.get("rpy")
    try:
        if xs is None:
            xyz = _ZERO3
        else:
            a, b, c = xs.split()
            xyz = (float(a), float(b), float(c))
        if rs is None:
            rpy = _ZERO3
        else:
            a, b, c = rs.split()
            rpy = (float(a), float(b), float(c))
    except ValueError:
        xyz = rpy = (math.nan, 0.0, 0.0)
    check = xyz[0] - xyz[0] + xyz[1] - xyz[1] + xyz[2] - xyz[2]
    check += rpy[0] - rpy[0] + rpy[1] - rpy[1] + rpy[2] - rpy[2]
    if (
        check != 0.0
        or (xs is not None and ("_" in xs or not xs.isascii()))
        or (rs is not None and ("_" in rs or not rs.isascii()))
    ):
        # The checked path finds the culprit and raises with a precise message.
        xyz = _floats(ctx, el, what, "xyz", 3, _ZERO3)
        rpy = _floats(ctx, el, what, "rpy", 3, _ZERO3)
    if xyz is _ZERO3 and rpy is _ZERO3:
        return _IDENTITY_ORIGIN
    return _sourced(xyz, rpy)


def canonical(T: Transform) -> SourcedTransform:
    """Return the transform URDF text reproduces for ``T`` (``T`` moved by at most an ulp).

    Used for transforms the loader composes itself (shapes and sensors of fake links), so that
    a loaded model is exactly what writing and reading it again gives.
    """
    rpy = rpy_from_rotation(T.rotation)
    xyz = (float(T.position[0]), float(T.position[1]), float(T.position[2]))
    return _sourced(xyz, rpy)


def _single(ctx: _Ctx, seen: set[str], el: Any, what: str) -> None:
    tag = el.tag
    if tag in seen:
        raise ctx.err(
            URDFValueError, el, what, f"a second <{tag}>; give at most one <{tag}> per element"
        )
    seen.add(tag)


# ---------------------------------------------------------------------- element parsers
def _inertial(ctx: _Ctx, el: Any, what: str) -> SourcedInertia:
    origin = mass_el = inertia_el = None
    seen: set[str] = set()
    for ch in el:
        tag = ch.tag
        if tag == "origin":
            _single(ctx, seen, ch, what)
            origin = ch
        elif tag == "mass":
            _single(ctx, seen, ch, what)
            mass_el = ch
        elif tag == "inertia":
            _single(ctx, seen, ch, what)
            inertia_el = ch
        else:
            ctx.dropped(ch, f"the <inertial> of {what}")
    if mass_el is None:
        raise ctx.err(
            URDFValueError, el, what, "<inertial> has no <mass value=...>; add the link mass"
        )
    m = _float(ctx, mass_el, what, "value")
    xyz = _ZERO3 if origin is None else _vec3(ctx, origin, what, "xyz", _ZERO3)
    rpy = _ZERO3 if origin is None else _vec3(ctx, origin, what, "rpy", _ZERO3)
    if inertia_el is None:
        six: tuple[float, ...] = (0.0,) * 6
    else:
        six = tuple(
            _float(ctx, inertia_el, what, a) for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
        )
    return _make_inertia(m, xyz, rpy, six)


def _make_inertia(m: float, xyz: Vec3, rpy: Vec3, six: tuple[float, ...]) -> SourcedInertia:
    ixx, ixy, ixz, iyy, iyz, izz = six
    I_C = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    if rpy != _ZERO3:
        R = rotation_from_rpy(rpy[0], rpy[1], rpy[2])
        I_C = R @ I_C @ R.T
    c = np.array(xyz, dtype=np.float64)
    h = m * c
    # The same arithmetic as SpatialInertia.from_com, without its argument checks.
    I_O = I_C.copy() if m == 0.0 else I_C - (np.outer(h, h) - float(h @ h) * np.eye(3)) / m
    inertia = cast(SourcedInertia, SourcedInertia._raw(m, h, I_O))
    object.__setattr__(inertia, "urdf_inertial", (m, xyz, rpy, six))
    return inertia


def _material(ctx: _Ctx, el: Any, what: str, db: dict[str, Material] | None) -> Material:
    name = el.get("name", "")
    rgba = texture = None
    for ch in el:
        tag = ch.tag
        if tag == "color":
            rgba = _floats(ctx, ch, what, "rgba", 4)
        elif tag == "texture":
            texture = ch.get("filename", "")
        else:
            ctx.dropped(ch, f"a <material> of {what}")
    if rgba is None and texture is None and db is not None:
        # A reference to a robot-level material; an unknown name stays a name-only material
        # (iDynTree drops the shapes after it, which loses data).
        found = db.get(name)
        if found is not None:
            return found
    return Material(name=name, rgba=rgba, texture=texture)


def _geometry(ctx: _Ctx, el: Any, what: str) -> Geometry | None:
    shapes = [ch for ch in el if isinstance(ch.tag, str)]
    if len(shapes) != 1:
        raise ctx.err(
            URDFValueError,
            el,
            what,
            f"<geometry> must hold exactly one shape (box, cylinder, sphere or mesh), got "
            f"{len(shapes)}",
        )
    g = shapes[0]
    tag = g.tag
    if tag == "box":
        x, y, z = _floats(ctx, g, what, "size", 3)
        dims: tuple[float, ...] = (x, y, z)
    elif tag == "cylinder":
        dims = (_float(ctx, g, what, "radius"), _float(ctx, g, what, "length"))
    elif tag == "sphere":
        dims = (_float(ctx, g, what, "radius"),)
    elif tag == "mesh":
        filename = _required(ctx, g, what, "filename")
        scale = _floats(ctx, g, what, "scale", 3, (1.0, 1.0, 1.0))
        return Mesh(filename, scale)
    else:
        return None  # not modelled: the caller keeps the whole element verbatim
    if any(d < 0.0 for d in dims):
        raise ctx.err(URDFValueError, g, what, f"<{tag}> dimensions must be >= 0, got {list(dims)}")
    if tag == "box":
        return Box(*dims)
    if tag == "cylinder":
        return Cylinder(*dims)
    return Sphere(dims[0])


def _shape(ctx: _Ctx, el: Any, what: str, db: dict[str, Material]) -> SolidShape | None:
    origin = geometry = material = None
    seen: set[str] = set()
    for ch in el:
        tag = ch.tag
        if tag == "origin":
            _single(ctx, seen, ch, what)
            origin = ch
        elif tag == "geometry":
            _single(ctx, seen, ch, what)
            geometry = ch
        elif tag == "material":
            _single(ctx, seen, ch, what)
            material = ch
        else:
            ctx.dropped(ch, f"a <{el.tag}> of {what}")
    if geometry is None:
        raise ctx.err(URDFValueError, el, what, f"<{el.tag}> has no <geometry>; add one")
    g = _geometry(ctx, geometry, what)
    if g is None:
        return None
    return SolidShape(
        geometry=g,
        name=el.get("name") or None,
        link_H_geometry=_origin(ctx, origin, what),
        material=None if material is None else _material(ctx, material, what, db),
    )


class _RawLink:
    __slots__ = ("collisions", "el", "inertia", "name", "visuals")

    def __init__(self, name: str, el: Any) -> None:
        self.name = name
        self.el = el
        self.inertia: SourcedInertia | None = None
        self.visuals: list[SolidShape] = []
        self.collisions: list[SolidShape] = []


def _link(ctx: _Ctx, el: Any, db: dict[str, Material]) -> _RawLink:
    name = el.get("name")
    if not name or name.isspace():
        name = _required(ctx, el, "link", "name")
    what = f"link {name!r}"
    raw = _RawLink(name, el)
    for ch in el:
        tag = ch.tag
        if tag == "inertial":
            if raw.inertia is not None:
                raise ctx.err(URDFValueError, ch, what, "a second <inertial>; give one")
            raw.inertia = _inertial(ctx, ch, what)
        elif tag == "visual" or tag == "collision":
            s = _shape(ctx, ch, what, db)
            if s is None:
                ctx.keep_ext("link", name, ch)
            elif tag == "visual":
                raw.visuals.append(s)
            else:
                raw.collisions.append(s)
        else:
            ctx.keep_ext("link", name, ch)
    return raw


class _RawJoint:
    __slots__ = (
        "axis",
        "axis_el",
        "child",
        "dynamics",
        "el",
        "kind",
        "limit",
        "mimic",
        "name",
        "origin",
        "parent",
    )

    def __init__(self, name: str, kind: str, el: Any) -> None:
        self.name = name
        self.kind = kind
        self.el = el
        self.origin: SourcedTransform = _IDENTITY_ORIGIN
        self.parent = ""
        self.child = ""
        self.axis: Vec3 = (1.0, 0.0, 0.0)
        self.axis_el: Any = None
        self.limit: Any = None
        self.dynamics: Any = None
        self.mimic: Mimic | None = None


def _joint(ctx: _Ctx, el: Any) -> _RawJoint:
    name = el.get("name")
    if not name or name.isspace():
        name = _required(ctx, el, "joint", "name")
    what = f"joint {name!r}"
    kind = el.get("type")
    if kind is None:
        raise ctx.err(
            URDFValueError,
            el,
            what,
            "<joint> needs a 'type' attribute (fixed, revolute, continuous or prismatic)",
        )
    if kind in _UNSUPPORTED_TYPES:
        raise ctx.err(URDFUnsupportedError, el, what, f"type {kind!r}: {_UNSUPPORTED_TYPES[kind]}")
    if kind != "fixed" and kind not in _MOVING_TYPES:
        raise ctx.err(
            URDFValueError,
            el,
            what,
            f"unknown joint type {kind!r}; use fixed, revolute, continuous or prismatic",
        )
    raw = _RawJoint(name, kind, el)
    moving = kind != "fixed"
    seen: set[str] = set()
    for ch in el:
        tag = ch.tag
        if tag == "origin":
            if tag in seen:
                _single(ctx, seen, ch, what)
            seen.add(tag)
            raw.origin = _origin(ctx, ch, what)
        elif tag == "parent" or tag == "child":
            if tag in seen:
                _single(ctx, seen, ch, what)
            seen.add(tag)
            ref = ch.get("link")
            if not ref or ref.isspace():
                ref = _required(ctx, ch, what, "link")
            if tag == "parent":
                raw.parent = ref
            else:
                raw.child = ref
        elif moving and tag == "axis":
            _single(ctx, seen, ch, what)
            raw.axis = _vec3(ctx, ch, what, "xyz", (1.0, 0.0, 0.0))
            raw.axis_el = ch
        elif moving and tag == "limit":
            _single(ctx, seen, ch, what)
            raw.limit = ch
        elif moving and tag == "dynamics":
            _single(ctx, seen, ch, what)
            raw.dynamics = ch
        elif tag == "mimic":
            _single(ctx, seen, ch, what)
            raw.mimic = Mimic(
                joint=_required(ctx, ch, what, "joint"),
                multiplier=_float(ctx, ch, what, "multiplier", 1.0),
                offset=_float(ctx, ch, what, "offset", 0.0),
            )
            ctx.keep_ext("joint", name, ch)
        else:
            ctx.keep_ext("joint", name, ch)
    for tag in ("parent", "child"):
        if tag not in seen:
            raise ctx.err(URDFValueError, el, what, f"<joint> has no <{tag} link=...>; add it")
    if raw.parent == raw.child:
        raise ctx.err(
            URDFTopologyError,
            el,
            what,
            f"parent and child are both {raw.parent!r}; a joint connects two different links",
        )
    return raw


def _build_joint(ctx: _Ctx, raw: _RawJoint) -> Joint:
    what = f"joint {raw.name!r}"
    if raw.kind == "fixed":
        return FixedJoint(link1=raw.parent, link2=raw.child, link1_H_link2=raw.origin)
    cls = _MOVING_TYPES[raw.kind]
    u = np.array(raw.axis, dtype=np.float64)
    norm = float(np.linalg.norm(u))
    if norm < 1e-12:
        raise ctx.err(
            URDFValueError,
            raw.axis_el,
            what,
            f"<axis xyz={raw.el.find('axis').get('xyz')!r}> is a zero vector; give the motion "
            "axis, e.g. '0 0 1'",
        )
    T = raw.origin
    R = T.rotation
    axis = SourcedAxis._raw(R @ (u / norm), R @ np.zeros(3) + T.position)
    object.__setattr__(axis, "urdf_axis", (raw.axis, T))
    limits = PositionLimits()
    effort = velocity = math.inf
    lim = raw.limit
    if lim is not None:
        lower = lim.get("lower")
        upper = lim.get("upper")
        lo = _float(ctx, lim, what, "lower", 0.0)
        hi = _float(ctx, lim, what, "upper", 0.0)
        effort = _float(ctx, lim, what, "effort", math.inf)
        velocity = _float(ctx, lim, what, "velocity", math.inf)
        if lo > hi:
            raise ctx.err(
                URDFValueError,
                lim,
                what,
                f"<limit lower={lo!r} upper={hi!r}>: lower > upper; swap them",
            )
        if raw.kind == "continuous":
            # B3: a continuous joint never gets position limits; keep given numbers disabled.
            limits = PositionLimits(
                enabled=False,
                lower=-math.inf if lower is None else lo,
                upper=math.inf if upper is None else hi,
            )
        else:
            limits = PositionLimits(enabled=True, lower=lo, upper=hi)
    dyn = raw.dynamics
    dynamics = (
        JointDynamics()
        if dyn is None
        else JointDynamics(
            kind="urdf",
            damping=_float(ctx, dyn, what, "damping", 0.0),
            static_friction=_float(ctx, dyn, what, "friction", 0.0),
        )
    )
    return cls(
        link1=raw.parent,
        link2=raw.child,
        link1_H_link2=T,
        axis_in_link1=axis,
        limits=limits,
        effort_limit=effort,
        velocity_limit=velocity,
        dynamics=dynamics,
        mimic=raw.mimic,
    )


class _RawSensor:
    __slots__ = ("direction", "el", "frame", "kind", "name", "origin", "parent_attr", "parent_el")

    def __init__(self, name: str, kind: str, el: Any) -> None:
        self.name = name
        self.kind = kind
        self.el = el
        self.origin: SourcedTransform = _IDENTITY_ORIGIN
        self.parent_el: Any = None
        self.parent_attr = ""
        self.frame = ""
        self.direction = ""


def _sensor(ctx: _Ctx, el: Any) -> _RawSensor | None:
    name = _required(ctx, el, "sensor", "name")
    what = f"sensor {name!r}"
    kind = _required(ctx, el, what, "type")
    if kind not in _SENSOR_TYPES:
        ctx.keep_ext("robot", "", el)
        return None
    raw = _RawSensor(name, kind, el)
    seen: set[str] = set()
    want = "joint" if kind == "force_torque" else "link"
    for ch in el:
        tag = ch.tag
        if tag == "parent":
            _single(ctx, seen, ch, what)
            raw.parent_el = ch
            raw.parent_attr = _required(ctx, ch, what, want)
        elif tag == "origin":
            _single(ctx, seen, ch, what)
            raw.origin = _origin(ctx, ch, what)
        elif tag == "force_torque" and kind == "force_torque":
            _single(ctx, seen, ch, what)
            for sub in ch:
                if sub.tag == "frame":
                    raw.frame = (sub.text or "").strip()
                elif sub.tag == "measure_direction":
                    raw.direction = (sub.text or "").strip()
                else:
                    ctx.dropped(sub, f"the <force_torque> of {what}")
            if raw.frame not in _FT_FRAMES:
                raise ctx.err(
                    URDFSensorError,
                    ch,
                    what,
                    f"<frame>{raw.frame}</frame> must be one of child, parent, sensor",
                )
            if raw.direction not in _FT_DIRECTIONS:
                raise ctx.err(
                    URDFSensorError,
                    ch,
                    what,
                    f"<measure_direction>{raw.direction}</measure_direction> must be "
                    "parent_to_child or child_to_parent",
                )
        else:
            ctx.keep_ext("sensor", name, ch)
    if raw.parent_el is None:
        raise ctx.err(
            URDFSensorError, el, what, f"<sensor type={kind!r}> needs <parent {want}=...>"
        )
    if kind == "force_torque" and "force_torque" not in seen:
        raise ctx.err(
            URDFSensorError,
            el,
            what,
            "a force_torque sensor needs <force_torque><frame>..</frame>"
            "<measure_direction>..</measure_direction></force_torque>",
        )
    return raw


# ---------------------------------------------------------------------- the document
def _parse_xml(data: bytes, file: str) -> Any:
    if b"<!ENTITY" in data:
        raise URDFSyntaxError(
            "the document declares XML entities, which are refused (entity expansion attacks); "
            "remove the <!DOCTYPE> block",
            file=file,
            line=data[: data.find(b"<!ENTITY")].count(b"\n") + 1,
            element="<!DOCTYPE>",
        )
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno if isinstance(e.lineno, int) and e.lineno > 0 else None
        msg = getattr(e, "msg", str(e))
        raise URDFSyntaxError(
            f"not well-formed XML ({msg}); fix the markup", file=file, line=line, element="xml"
        ) from None
    info = root.getroottree().docinfo
    dtd = info.internalDTD
    if info.system_url or info.public_id or (dtd is not None and any(dtd.iterentities())):
        raise URDFSyntaxError(
            "the document refers to an external DTD or declares entities, which are refused; "
            "remove the <!DOCTYPE> line",
            file=file,
            line=1,
            element="<!DOCTYPE>",
        )
    if root.tag != "robot":
        raise URDFValueError(
            f"the root element is <{root.tag}>, not <robot>; is this a URDF file?",
            file=file,
            line=root.sourceline,
            element=f"<{root.tag}>",
        )
    return root


def _load_bytes(
    data: bytes,
    file: str,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    root = _parse_xml(data, file)
    ctx = _Ctx(file, options.keep_extensions)
    try:
        model = _build(ctx, root, options, package_dirs, resolver)
    except URDFError:
        raise
    except (RobomodelError, ValueError, TypeError) as e:
        # A value the element parsers did not anticipate (the core constructors check more);
        # report it as a URDF problem instead of leaking a model-building error.
        raise URDFValueError(f"{e}", file=file, element="robot") from e
    if ctx.warned:
        shown = "; ".join(ctx.warned[:5]) + (" ..." if len(ctx.warned) > 5 else "")
        warnings.warn(
            f"{file}: {len(ctx.warned)} nested element(s) robomodel does not read were dropped "
            f"and will not be written back: {shown}",
            RobomodelWarning,
            stacklevel=3,
        )
    return model


def _build(
    ctx: _Ctx,
    root: Any,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    # Robot-level materials first: shapes may refer to a material defined after them.
    db: dict[str, Material] = {}
    materials: list[Material] = []
    for el in root.iterchildren("material"):
        name = _required(ctx, el, "material", "name")
        if name in db:
            raise ctx.err(
                URDFReferenceError, el, f"material {name!r}", "defined twice at robot level"
            )
        mat = _material(ctx, el, f"material {name!r}", None)
        db[name] = mat
        materials.append(mat)

    links: list[_RawLink] = []
    link_idx: dict[str, int] = {}
    joints: list[_RawJoint] = []
    joint_idx: dict[str, int] = {}
    sensors: list[_RawSensor] = []
    sensor_names: dict[str, _RawSensor] = {}
    for el in root:
        tag = el.tag
        if tag == "link":
            raw = _link(ctx, el, db)
            if raw.name in link_idx:
                raise ctx.err(
                    URDFReferenceError,
                    el,
                    f"link {raw.name!r}",
                    f"a second link with this name (the first is on line "
                    f"{links[link_idx[raw.name]].el.sourceline}); rename one",
                )
            link_idx[raw.name] = len(links)
            links.append(raw)
        elif tag == "joint":
            rj = _joint(ctx, el)
            if rj.name in joint_idx:
                raise ctx.err(
                    URDFReferenceError,
                    el,
                    f"joint {rj.name!r}",
                    f"a second joint with this name (the first is on line "
                    f"{joints[joint_idx[rj.name]].el.sourceline}); rename one",
                )
            joint_idx[rj.name] = len(joints)
            joints.append(rj)
        elif tag == "sensor":
            rs = _sensor(ctx, el)
            if rs is not None:
                if rs.name in sensor_names:
                    raise ctx.err(
                        URDFReferenceError,
                        el,
                        f"sensor {rs.name!r}",
                        f"a second sensor with this name (the first is on line "
                        f"{sensor_names[rs.name].el.sourceline}); rename one",
                    )
                sensor_names[rs.name] = rs
                sensors.append(rs)
        elif tag == "material":
            pass
        else:
            ctx.keep_ext("robot", "", el)

    if not links:
        raise URDFTopologyError(
            "the robot has no <link>; a model needs at least one link",
            file=ctx.file,
            line=root.sourceline,
            element="robot",
        )

    # ------------------------------------------------------------------ topology
    n = len(links)
    parent_joint: list[int] = [-1] * n
    for k, rj in enumerate(joints):
        for end in (rj.parent, rj.child):
            if end not in link_idx:
                raise ctx.err(
                    URDFReferenceError,
                    rj.el,
                    f"joint {rj.name!r}",
                    f"unknown link {end!r}{suggest(end, link_idx)}; define <link name={end!r}>",
                )
        c = link_idx[rj.child]
        if parent_joint[c] >= 0:
            first = joints[parent_joint[c]]
            raise ctx.err(
                URDFTopologyError,
                rj.el,
                f"joint {rj.name!r}",
                f"link {rj.child!r} already has the parent joint {first.name!r} (line "
                f"{first.el.sourceline}); a URDF link has one parent, remove one of the joints",
            )
        parent_joint[c] = k
    roots = [i for i in range(n) if parent_joint[i] < 0]
    if not roots:
        raise _loop_error(ctx, links, joints, link_idx, parent_joint, 0)
    if len(roots) > 1:
        names = [links[i].name for i in roots]
        shown = ", ".join(repr(x) for x in names[:6]) + (" ..." if len(names) > 6 else "")
        raise ctx.err(
            URDFTopologyError,
            links[roots[1]].el,
            f"link {names[1]!r}",
            f"the document has {len(names)} root links ({shown}); a URDF is one tree, connect "
            "them with joints or remove the extra ones",
        )
    root_i = roots[0]

    # Moving joints first, then fixed ones, each in document order (spec §7.7).
    order = [k for k, rj in enumerate(joints) if rj.kind != "fixed"]
    order += [k for k, rj in enumerate(joints) if rj.kind == "fixed"]
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k in order:
        rj = joints[k]
        p, c = link_idx[rj.parent], link_idx[rj.child]
        adj[p].append((c, k))
        adj[c].append((p, k))

    def massless(i: int) -> bool:
        inertia = links[i].inertia
        return inertia is None or not inertia.mass > 0.0

    fake = [False] * n
    if options.remove_fake_links:
        # The joint of an F/T sensor keeps both its links (iDynTree drops every sensor then).
        ft_joints = {rs.parent_attr for rs in sensors if rs.kind == "force_torque"}
        for i in range(n):
            if len(adj[i]) == 1 and massless(i):
                rj = joints[adj[i][0][1]]
                fake[i] = rj.kind == "fixed" and rj.name not in ft_joints
        for i in range(n):
            # Two massless links joined by a fixed joint: both look fake; keep both as links.
            if fake[i] and fake[adj[i][0][0]]:
                fake[i] = False
                fake[adj[i][0][0]] = False
    base = adj[root_i][0][0] if fake[root_i] else root_i

    # iDynTree's traversal (§3.1) over the links that stay links.
    t_links = [base]
    t_joint: list[int] = [-1]
    seen = [False] * n
    seen[base] = True
    stack: list[tuple[int, int]] = [(base, -1)]
    while stack:
        lk, par = stack.pop()
        for nb, k in adj[lk]:
            if nb == par or fake[nb]:
                continue
            seen[nb] = True
            t_links.append(nb)
            t_joint.append(k)
            stack.append((nb, lk))
    n_real = n - sum(fake)
    if len(t_links) != n_real:
        unreached = next(i for i in range(n) if not seen[i] and not fake[i])
        raise _loop_error(ctx, links, joints, link_idx, parent_joint, unreached)

    built: dict[int, Joint] = {}
    for k in t_joint[1:]:
        built[k] = _build_joint(ctx, joints[k])
    moving_order = [k for k in t_joint[1:] if joints[k].kind != "fixed"]
    fixed_order = [k for k in t_joint[1:] if joints[k].kind == "fixed"]
    joint_order = moving_order + fixed_order

    # ------------------------------------------------------------------ frames of fake links
    link_names = [links[i].name for i in t_links]
    real_pos = {links[i].name: pos for pos, i in enumerate(t_links)}
    frames_on: list[list[Frame]] = [[] for _ in t_links]
    fake_frame: dict[str, Frame] = {}
    fake_joint: dict[str, str] = {}
    visuals: list[list[SolidShape]] = [list(links[i].visuals) for i in t_links]
    collisions: list[list[SolidShape]] = [list(links[i].collisions) for i in t_links]
    exts = ctx.exts
    if n_real != n:
        fakes = [i for i in range(n) if fake[i]]
        if fake[root_i]:
            fakes.remove(root_i)
            fakes.insert(0, root_i)  # the fake root is the base's first frame
        for i in fakes:
            nb, k = adj[i][0]
            rj = joints[k]
            fname = links[i].name
            if rj.parent == fname:  # the fake root: its joint goes fake -> neighbour
                xyz, rpy, _ = rj.origin.urdf_origin
                T = _sourced(xyz, rpy, inverted=True)
            else:
                T = rj.origin
            owner = links[nb].name
            fr = Frame(fname, owner, T)
            frames_on[real_pos[owner]].append(fr)
            fake_frame[fname] = fr
            fake_joint[fname] = rj.name
            if rj.name != fname + "_fixed_joint":
                exts.append(
                    Extension(
                        owner_kind="frame",
                        owner=fname,
                        xml=f"<joint name={_quote(rj.name)}/>",
                        tag="joint",
                    )
                )
            pos = real_pos[owner]
            for s in links[i].visuals:
                visuals[pos].append(_moved(s, T))
            for s in links[i].collisions:
                collisions[pos].append(_moved(s, T))

    # ------------------------------------------------------------------ sensors
    final_joints = {joints[k].name: k for k in joint_order}
    ft: list[Sensor] = []
    acc: list[Sensor] = []
    gyr: list[Sensor] = []
    for rs in sensors:
        what = f"sensor {rs.name!r}"
        if rs.kind == "force_torque":
            jk = final_joints.get(rs.parent_attr)
            if jk is None:
                raise ctx.err(
                    URDFSensorError,
                    rs.parent_el,
                    what,
                    f"unknown joint {rs.parent_attr!r}{suggest(rs.parent_attr, joint_idx)}",
                )
            rj = joints[jk]
            P = rj.origin
            first_H: Transform
            second_H: Transform
            if rs.frame == "child":
                first_H, second_H = P, Transform.identity()
            elif rs.frame == "parent":
                first_H, second_H = Transform.identity(), P.inverse()
            else:
                first_H, second_H = P @ rs.origin, rs.origin
            applied = rj.child if rs.direction == "parent_to_child" else rj.parent
            ft.append(
                SixAxisForceTorqueSensor(
                    name=rs.name,
                    parent_joint=rj.name,
                    first_link=rj.parent,
                    second_link=rj.child,
                    first_link_H_sensor=first_H,
                    second_link_H_sensor=second_H,
                    applied_wrench_link=applied,
                )
            )
        else:
            link = rs.parent_attr
            T_s: Transform = rs.origin
            if link in fake_frame:  # B16: the sensor follows its fake link onto the neighbour
                fr = fake_frame[link]
                link, T_s = fr.link, canonical(fr.link_H_frame @ rs.origin)
            elif link not in real_pos:
                raise ctx.err(
                    URDFSensorError,
                    rs.parent_el,
                    what,
                    f"unknown link {link!r}{suggest(link, link_idx)}",
                )
            cls = Accelerometer if rs.kind == "accelerometer" else Gyroscope
            (acc if cls is Accelerometer else gyr).append(
                cls(name=rs.name, link=link, link_H_sensor=T_s)
            )
    all_sensors = ft + acc + gyr

    # ------------------------------------------------------------------ sensor frames
    if options.add_sensor_frames and all_sensors:
        taken: dict[str, tuple[str, Transform]] = {
            name: (name, Transform.identity()) for name in link_names
        }
        for group in frames_on:
            for fr in group:
                taken[fr.name] = (fr.link, fr.link_H_frame)
        moved: list[str] = []
        for sen in all_sensors:
            if isinstance(sen, SixAxisForceTorqueSensor):
                owner, T_f = sen.second_link, sen.second_link_H_sensor
            else:
                owner, T_f = sen.link, sen.link_H_sensor
            prev = taken.get(sen.name)
            if prev is not None:
                # B22: iDynTree skips silently; robomodel warns unless the existing frame is the
                # sensor frame itself (seen from either link of an F/T sensor).
                if not _same_place(sen, prev[0], prev[1]):
                    moved.append(sen.name)
                continue
            fr = Frame(sen.name, owner, T_f)
            taken[sen.name] = (owner, T_f)
            frames_on[real_pos[owner]].append(fr)
        if moved:
            warnings.warn(
                f"{ctx.file}: no sensor frame added for {', '.join(repr(x) for x in moved)}: "
                "a link or frame with the same name already exists elsewhere",
                RobomodelWarning,
                stacklevel=4,
            )

    if resolver is not None:
        visuals = [[_resolved(s, resolver) for s in v] for v in visuals]
        collisions = [[_resolved(s, resolver) for s in c] for c in collisions]

    frames = [fr for group in frames_on for fr in group]
    jnames = [joints[k].name for k in joint_order]
    return Model(
        link_names=link_names,
        links=[_link_value(links[i].inertia) for i in t_links],
        joint_names=jnames,
        joints=[built[k] for k in joint_order],
        frames=frames,
        default_base=links[base].name,
        visuals=visuals,
        collisions=collisions,
        sensors=all_sensors,
        package_dirs=[str(d) for d in package_dirs],
        name=root.get("name", ""),
        materials=materials,
        extensions=_canonical_order(exts, link_names, jnames, frames, fake_joint, all_sensors),
    )


_KIND_RANK = {"robot": 0, "link": 1, "frame": 2, "joint": 3, "sensor": 4}


def _canonical_order(
    exts: list[Extension],
    link_names: list[str],
    joint_names: list[str],
    frames: list[Frame],
    fake_joint: dict[str, str],
    sensors: list[Sensor],
) -> list[Extension]:
    # Order the kept elements by their owner's place in the model (document order within one
    # owner), so that the order survives writing: the exporter writes owners in traversal
    # order, not in the order of the original document.
    rank: dict[tuple[str, str], int] = {("robot", ""): 0}
    for i, name in enumerate(link_names):
        rank["link", name] = i
    nl, nj = len(link_names), len(joint_names)
    for k, fr in enumerate(frames):
        rank["link", fr.name] = nl + k
        rank["frame", fr.name] = k
        jn = fake_joint.get(fr.name)
        if jn is not None:
            rank["joint", jn] = nj + k
    for i, name in enumerate(joint_names):
        rank["joint", name] = i
    for i, sn in enumerate(sensors):
        rank["sensor", sn.name] = i
    big = len(rank) + 1
    return sorted(
        exts,
        key=lambda e: (_KIND_RANK.get(e.owner_kind, 5), rank.get((e.owner_kind, e.owner), big)),
    )


_ZERO_LINK = Link()


def _link_value(inertia: SourcedInertia | None) -> Link:
    return _ZERO_LINK if inertia is None else Link(inertia)


def _moved(s: SolidShape, link_H_frame: Transform) -> SolidShape:
    return SolidShape(
        geometry=s.geometry,
        name=s.name,
        link_H_geometry=canonical(link_H_frame @ s.link_H_geometry),
        material=s.material,
    )


def _resolved(s: SolidShape, resolver: Callable[[str], str]) -> SolidShape:
    g = s.geometry
    if not isinstance(g, Mesh):
        return s
    return SolidShape(
        geometry=Mesh(resolver(g.filename), g.scale),
        name=s.name,
        link_H_geometry=s.link_H_geometry,
        material=s.material,
    )


def _same_place(s: Sensor, link: str, link_H_frame: Transform) -> bool:
    if isinstance(s, SixAxisForceTorqueSensor):
        if link == s.first_link:
            return _close(link_H_frame, s.first_link_H_sensor)
        return link == s.second_link and _close(link_H_frame, s.second_link_H_sensor)
    return link == s.link and _close(link_H_frame, s.link_H_sensor)


def _close(a: Transform, b: Transform) -> bool:
    return bool(
        np.abs(a.rotation - b.rotation).max() <= 1e-9
        and np.abs(a.position - b.position).max() <= 1e-9
    )


def _quote(s: str) -> str:
    return '"' + s.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") + '"'


def _loop_error(
    ctx: _Ctx,
    links: Sequence[_RawLink],
    joints: Sequence[_RawJoint],
    link_idx: dict[str, int],
    parent_joint: list[int],
    start: int,
) -> URDFError:
    # Every link on the walk up from ``start`` has a parent; the walk must revisit a link.
    path: list[int] = []
    on_path: dict[int, int] = {}
    i = start
    while i not in on_path:
        on_path[i] = len(path)
        path.append(i)
        i = link_idx[joints[parent_joint[i]].parent]
    cycle = path[on_path[i] :]
    names = [joints[parent_joint[c]].name for c in cycle]
    j0 = joints[parent_joint[cycle[0]]]
    return ctx.err(
        URDFTopologyError,
        j0.el,
        f"joint {j0.name!r}",
        f"the joints {', '.join(repr(x) for x in names)} form a loop; a URDF is a tree, remove "
        "one of them",
    )
