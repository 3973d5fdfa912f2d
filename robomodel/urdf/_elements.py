"""The element parsers of the URDF loader: one function per URDF element, no topology.

Each parser reads one element into plain records (``_RawLink``, ``_RawJoint``, ``_RawSensor``)
or values, checks every attribute, and raises a :mod:`robomodel.urdf.errors` class naming the
file, line and element. :mod:`robomodel.urdf.load` assembles the records into a model.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from robomodel._construct import trusted
from robomodel.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model import Extension
from robomodel.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.urdf._reading import (
    _IDENTITY_ORIGIN,
    _SET_AXIS_ORIGIN,
    _SET_DIRECTION,
    _SET_URDF_AXIS,
    _ZERO3,
    _Ctx,
    _dup,
    _float,
    _floats,
    _numbers,
    _origin,
    _parse_all,
    _required,
)
from robomodel.urdf._sourced import SourcedAxis, SourcedInertia, SourcedTransform, Vec3
from robomodel.urdf.errors import (
    URDFSensorError,
    URDFTopologyError,
    URDFUnsupportedError,
    URDFValueError,
)

_MESH = trusted(Mesh)
_MATERIAL = trusted(Material)
_SOLID_SHAPE = trusted(SolidShape)
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


_INERTIA_ATTRS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


_INERTIAL_CHILDREN = {"origin": 0, "mass": 1, "inertia": 2}
_SHAPE_CHILDREN = {"origin": 0, "geometry": 1, "material": 2}


def _pick(ctx: _Ctx, el: Any, what: str, slots: dict[str, int]) -> tuple[list[Any], list[Any]]:
    """Return the children with the tags of ``slots`` (else None) and the others, in order.

    A second child with one of those tags is an error.
    """
    found: list[Any] = [None] * len(slots)
    others: list[Any] = []
    for ch in el:
        k = slots.get(ch.tag)
        if k is None:
            others.append(ch)
        elif found[k] is not None:
            raise _dup(ctx, ch, what)
        else:
            found[k] = ch
    return found, others


def _kept(ctx: _Ctx, elements: list[Any]) -> tuple[str, ...]:
    """The verbatim XML of the ``elements`` kept (none when extensions are not kept)."""
    if not elements:
        return ()
    return tuple(x for x in map(ctx.xml, elements) if x is not None)


def _inertial(ctx: _Ctx, el: Any, raw: _RawLink, what: str) -> SourcedInertia:
    (origin, mass_el, inertia_el), others = _pick(ctx, el, what, _INERTIAL_CHILDREN)
    if others:  # kept inside the <inertial> (owner kind "inertial": the link's)
        if raw.inertial_exts is _NO_EXTS:
            raw.inertial_exts = []
        for ch in others:
            ctx.keep_ext("inertial", raw.name, ch, raw.inertial_exts)
    if mass_el is None:
        raise ctx.err(
            URDFValueError, el, what, "<inertial> has no <mass value=...>; add the link mass"
        )
    m = _float(ctx, mass_el, what, "value")
    if origin is None:
        xs = rs = None
    else:
        xs = origin.get("xyz")
        rs = origin.get("rpy")
        if ctx.eager:
            _floats(ctx, origin, what, "xyz", 3, _ZERO3)
            _floats(ctx, origin, what, "rpy", 3, _ZERO3)
    if inertia_el is None:
        six: tuple[float, ...] = (0.0,) * 6
    else:
        get = inertia_el.get
        texts = [get(a) for a in _INERTIA_ATTRS]
        parsed = _parse_all(texts)
        # The checked path names the culprit.
        six = (
            parsed
            if parsed is not None
            else tuple(_float(ctx, inertia_el, what, a) for a in _INERTIA_ATTRS)
        )
    # The origin's numbers and the arrays come later, all at once (_Ctx.fill).
    inertia = object.__new__(SourcedInertia)
    object.__setattr__(inertia, "mass", m)
    ctx.inertias.append((inertia, m, six))
    texts = ctx.inertial_texts
    texts.append("0 0 0" if xs is None else xs)
    texts.append("0 0 0" if rs is None else rs)
    return inertia


def _material(ctx: _Ctx, el: Any, what: str, db: dict[str, Material] | None) -> Material:
    name = el.get("name", "")
    rgba = texture = None
    others: list[Any] = []
    for ch in el:
        tag = ch.tag
        if tag == "color":
            rgba = _numbers(ctx, ch, what, "rgba", 4)
        elif tag == "texture":
            texture = ch.get("filename", "")
        else:
            others.append(ch)
    kept = _kept(ctx, others)
    if rgba is None and texture is None and db is not None:
        # A reference to a robot-level material; an unknown name stays a name-only material
        # (iDynTree drops the shapes after it, which loses data). Children the reference holds
        # itself are kept after the referred material's.
        found = db.get(name)
        if found is not None:
            if not kept:
                return found
            return _MATERIAL(found.name, found.rgba, found.texture, found.extensions + kept)
    # Four finite floats (or none) and element texts: what Material's converters would check.
    return _MATERIAL(name, rgba, texture, kept)


def _geometry(ctx: _Ctx, el: Any, what: str) -> Geometry | None:
    g = el[0] if len(el) == 1 else None
    if g is None or not isinstance(g.tag, str):
        shapes = [ch for ch in el if isinstance(ch.tag, str)]
        count = len(shapes)
        g = shapes[0] if count == 1 else None
    if g is None:
        raise ctx.err(
            URDFValueError,
            el,
            what,
            f"<geometry> must hold exactly one shape (box, cylinder, sphere or mesh), got {count}",
        )
    assert g is not None
    tag = g.tag
    if tag == "mesh":
        filename = g.get("filename")
        if not filename or filename.isspace():
            filename = _required(ctx, g, what, "filename")
        key = (filename, g.get("scale"))
        mesh = ctx.meshes.get(key)
        if mesh is None:
            scale = _numbers(ctx, g, what, "scale", 3, (1.0, 1.0, 1.0))
            # Three finite floats: what Mesh's converter would check.
            mesh = ctx.meshes[key] = _MESH(filename, scale)
        return mesh
    if tag == "box":
        x, y, z = _floats(ctx, g, what, "size", 3)
        dims: tuple[float, ...] = (x, y, z)
    elif tag == "cylinder":
        dims = (_float(ctx, g, what, "radius"), _float(ctx, g, what, "length"))
    elif tag == "sphere":
        dims = (_float(ctx, g, what, "radius"),)
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
    (origin, geometry, material), others = _pick(ctx, el, what, _SHAPE_CHILDREN)
    if geometry is None:
        raise ctx.err(URDFValueError, el, what, f"<{el.tag}> has no <geometry>; add one")
    g = _geometry(ctx, geometry, what)
    if g is None:
        return None
    return _SOLID_SHAPE(
        g,
        el.get("name") or None,
        _origin(ctx, origin, what),
        None if material is None else _material(ctx, material, what, db),
        _kept(ctx, others),
    )


_NO_SHAPES: tuple[SolidShape, ...] = ()
_NO_EXTS: list[Extension] = []  # a class-level default, replaced before the first append


class _RawLink:
    # One <link> as read; class-level defaults as for _RawJoint. Most links of a real URDF are
    # empty frames: shape lists only for links with shapes.
    inertia: SourcedInertia | None = None
    visuals: list[SolidShape] | tuple[SolidShape, ...] = _NO_SHAPES
    collisions: list[SolidShape] | tuple[SolidShape, ...] = _NO_SHAPES
    inertial_exts: list[Extension] = _NO_EXTS  # kept children of its <inertial>

    def __init__(self, name: str, el: Any) -> None:
        self.name = name
        self.el = el
        self.exts: list[Extension] = []


def _link(ctx: _Ctx, el: Any, db: dict[str, Material]) -> _RawLink:
    name = el.get("name")
    if not name or name.isspace():
        name = _required(ctx, el, "link", "name")
    raw = _RawLink(name, el)
    if not len(el):
        return raw
    what = f"link {name!r}"
    for ch in el:
        tag = ch.tag
        if tag == "inertial":
            if raw.inertia is not None:
                raise ctx.err(URDFValueError, ch, what, "a second <inertial>; give one")
            raw.inertia = _inertial(ctx, ch, raw, what)
        elif tag == "visual" or tag == "collision":
            s = _shape(ctx, ch, what, db)
            if s is None:
                ctx.keep_ext("link", name, ch, raw.exts)
            elif tag == "visual":
                if raw.visuals is _NO_SHAPES:
                    raw.visuals = []
                raw.visuals.append(s)  # type: ignore[union-attr]
            else:
                if raw.collisions is _NO_SHAPES:
                    raw.collisions = []
                raw.collisions.append(s)  # type: ignore[union-attr]
        else:
            ctx.keep_ext("link", name, ch, raw.exts)
    return raw


class _RawJoint:
    # One <joint> as read. The defaults live on the class: a joint sets only what it holds,
    # and a document has hundreds of joints.
    origin: SourcedTransform = _IDENTITY_ORIGIN
    parent = ""
    child = ""
    axis: Vec3 = (1.0, 0.0, 0.0)
    axis_el: Any = None
    limit: Any = None
    dynamics: Any = None
    mimic: Mimic | None = None

    def __init__(self, name: str, kind: str, el: Any) -> None:
        self.name = name
        self.kind = kind
        self.el = el
        self.exts: list[Extension] = []


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
    moving = kind != "fixed"
    if moving and kind not in _MOVING_TYPES:
        if kind in _UNSUPPORTED_TYPES:
            raise ctx.err(
                URDFUnsupportedError, el, what, f"type {kind!r}: {_UNSUPPORTED_TYPES[kind]}"
            )
        raise ctx.err(
            URDFValueError,
            el,
            what,
            f"unknown joint type {kind!r}; use fixed, revolute, continuous or prismatic",
        )
    raw = _RawJoint(name, kind, el)
    origin = parent = child = None
    for ch in el:
        tag = ch.tag
        if tag == "origin":
            if origin is not None:
                raise _dup(ctx, ch, what)
            origin = ch
            raw.origin = _origin(ctx, ch, what)
        elif tag == "parent" or tag == "child":
            is_parent = tag == "parent"
            if (parent if is_parent else child) is not None:
                raise _dup(ctx, ch, what)
            ref = ch.get("link")
            if not ref or ref.isspace():
                ref = _required(ctx, ch, what, "link")
            if is_parent:
                parent, raw.parent = ch, ref
            else:
                child, raw.child = ch, ref
        elif moving and tag == "axis":
            if raw.axis_el is not None:
                raise _dup(ctx, ch, what)
            raw.axis_el = ch
            xs = ch.get("xyz")
            if xs is not None:  # its numbers come later (_Ctx.fill)
                if ctx.eager:
                    _floats(ctx, ch, what, "xyz", 3)
                ctx.axis_raws.append(raw)
                ctx.axis_texts.append(xs)
        elif moving and tag == "limit":
            if raw.limit is not None:
                raise _dup(ctx, ch, what)
            raw.limit = ch
        elif moving and tag == "dynamics":
            if raw.dynamics is not None:
                raise _dup(ctx, ch, what)
            raw.dynamics = ch
        elif tag == "mimic":
            if raw.mimic is not None:
                raise _dup(ctx, ch, what)
            raw.mimic = Mimic(
                joint=_required(ctx, ch, what, "joint"),
                multiplier=_float(ctx, ch, what, "multiplier", 1.0),
                offset=_float(ctx, ch, what, "offset", 0.0),
            )
            ctx.keep_ext("joint", name, ch, raw.exts)
        else:
            ctx.keep_ext("joint", name, ch, raw.exts)
    if parent is None or child is None:
        tag = "parent" if parent is None else "child"
        raise ctx.err(URDFValueError, el, what, f"<joint> has no <{tag} link=...>; add it")
    if raw.parent == raw.child:
        raise ctx.err(
            URDFTopologyError,
            el,
            what,
            f"parent and child are both {raw.parent!r}; a joint connects two different links",
        )
    return raw


_FIXED_JOINT = trusted(FixedJoint)
_TRUSTED_MOVING = {kind: trusted(cls) for kind, cls in _MOVING_TYPES.items()}
_LIMITS = trusted(PositionLimits)
_DYNAMICS = trusted(JointDynamics)
_NO_LIMITS = PositionLimits()
_NO_DYNAMICS = JointDynamics()
_ZEROS3 = np.zeros(3)
_ZEROS3.setflags(write=False)


def _moving_axes(raws: list[_RawJoint]) -> list[SourcedAxis | None]:
    """Return the axes in link1 of moving joints, ``None`` for a zero ``<axis xyz>``.

    One batched pass over all joints: per joint, numpy's call overhead on 3-vectors cost ten
    times the arithmetic. Each step is the per-joint expression on a stack (``u.dot(u)`` and
    ``R @ v`` as stacked matmuls), which numpy evaluates with the same kernels, so every value
    is bitwise what ``T @ Axis(xyz)`` gives for one joint.
    """
    n = len(raws)
    if not n:
        return []
    U = np.array([r.axis for r in raws], dtype=np.float64)
    R = np.array([r.origin.rotation for r in raws])
    P = np.array([r.origin.position for r in raws])
    with np.errstate(all="ignore"):  # zero axes are reported by the caller, in joint order
        norms = np.sqrt((U[:, None, :] @ U[:, :, None])[:, 0, 0])
        huge = norms == np.inf
        if huge.any():  # |xyz|^2 overflowed (components above ~1e154): scale, as Axis does
            U[huge] /= np.abs(U[huge]).max(axis=1, keepdims=True)
            norms[huge] = np.sqrt((U[huge] * U[huge]).sum(axis=1))
        D = (R @ (U / norms[:, None])[:, :, None])[:, :, 0]
    Org = R @ _ZEROS3 + P
    D.setflags(write=False)
    Org.setflags(write=False)
    out: list[SourcedAxis | None] = []
    for r, d, o, norm in zip(raws, D, Org, norms.tolist(), strict=True):
        if norm < 1e-12:
            out.append(None)
            continue
        axis = object.__new__(SourcedAxis)
        _SET_DIRECTION(axis, d)
        _SET_AXIS_ORIGIN(axis, o)
        _SET_URDF_AXIS(axis, (r.axis, r.origin))
        out.append(axis)
    return out


def _build_joint(ctx: _Ctx, raw: _RawJoint, offset: int, axis: SourcedAxis | None = None) -> Joint:
    """Return the joint of ``raw`` with position-coordinate and DOF offsets ``offset``.

    ``axis`` is the moving joint's entry of :func:`_moving_axes` (``None``: a zero axis).
    """
    # Every value below was checked as the joint classes check it (two different non-empty
    # link names, finite numbers, lower <= upper), so the trusted constructors apply.
    if raw.kind == "fixed":
        return _FIXED_JOINT(raw.parent, raw.child, raw.origin, offset, offset)
    what = f"joint {raw.name!r}"
    if axis is None:
        raise ctx.err(
            URDFValueError,
            raw.axis_el,
            what,
            f"<axis xyz={raw.el.find('axis').get('xyz')!r}> is a zero vector; give the motion "
            "axis, e.g. '0 0 1'",
        )
    T = raw.origin
    limits = _NO_LIMITS
    effort = velocity = math.inf
    lim = raw.limit
    if lim is not None:
        get = lim.get
        lower = get("lower")
        upper = get("upper")
        texts = [lower, upper, get("effort"), get("velocity")]
        read = _parse_all(texts)  # all four given and fine: the common case
        if read is not None:
            lo, hi, effort, velocity = read
        else:  # defaults for absent ones; the checked path names what is wrong
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
            limits = _LIMITS(
                False, -math.inf if lower is None else lo, math.inf if upper is None else hi
            )
        else:
            limits = _LIMITS(True, lo, hi)
    dyn = raw.dynamics
    if dyn is None:
        dynamics = _NO_DYNAMICS
    else:
        pair = _parse_all([dyn.get("damping"), dyn.get("friction")])
        if pair is None:
            pair = (
                _float(ctx, dyn, what, "damping", 0.0),
                _float(ctx, dyn, what, "friction", 0.0),
            )
        dynamics = _DYNAMICS("urdf", pair[0], pair[1])
    return _TRUSTED_MOVING[raw.kind](
        raw.parent,
        raw.child,
        T,
        axis,
        limits,
        effort,
        velocity,
        dynamics,
        raw.mimic,
        offset,
        offset,
    )


class _RawSensor:
    # One <sensor> as read; class-level defaults as for _RawJoint.
    origin: SourcedTransform = _IDENTITY_ORIGIN
    parent_el: Any = None
    parent_attr = ""
    frame = ""
    direction = ""
    ft_exts: list[Extension] = _NO_EXTS  # kept children of its <force_torque>

    def __init__(self, name: str, kind: str, el: Any) -> None:
        self.name = name
        self.kind = kind
        self.el = el
        self.exts: list[Extension] = []


def _sensor(ctx: _Ctx, el: Any) -> _RawSensor | None:
    name = el.get("name")
    if not name or name.isspace():
        name = _required(ctx, el, "sensor", "name")
    what = f"sensor {name!r}"
    kind = el.get("type")
    if not kind or kind.isspace():
        kind = _required(ctx, el, what, "type")
    if kind not in _SENSOR_TYPES:
        ctx.keep_ext("robot", "", el, ctx.exts)
        return None
    raw = _RawSensor(name, kind, el)
    origin = ft = None
    want = "joint" if kind == "force_torque" else "link"
    for ch in el:
        tag = ch.tag
        if tag == "parent":
            if raw.parent_el is not None:
                raise _dup(ctx, ch, what)
            raw.parent_el = ch
            ref = ch.get(want)
            raw.parent_attr = ref if ref and not ref.isspace() else _required(ctx, ch, what, want)
        elif tag == "origin":
            if origin is not None:
                raise _dup(ctx, ch, what)
            origin = ch
            raw.origin = _origin(ctx, ch, what)
        elif tag == "force_torque" and kind == "force_torque":
            if ft is not None:
                raise _dup(ctx, ch, what)
            ft = ch
            for sub in ch:
                if sub.tag == "frame":
                    raw.frame = (sub.text or "").strip()
                elif sub.tag == "measure_direction":
                    raw.direction = (sub.text or "").strip()
                else:  # kept inside the <force_torque> (owner kind "force_torque")
                    if raw.ft_exts is _NO_EXTS:
                        raw.ft_exts = []
                    ctx.keep_ext("force_torque", name, sub, raw.ft_exts)
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
            ctx.keep_ext("sensor", name, ch, raw.exts)
    if raw.parent_el is None:
        raise ctx.err(
            URDFSensorError, el, what, f"<sensor type={kind!r}> needs <parent {want}=...>"
        )
    if kind == "force_torque" and ft is None:
        raise ctx.err(
            URDFSensorError,
            el,
            what,
            "a force_torque sensor needs <force_torque><frame>..</frame>"
            "<measure_direction>..</measure_direction></force_torque>",
        )
    return raw
