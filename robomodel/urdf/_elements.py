"""The element parsers of the URDF loader: one function per URDF element, no topology.

Each parser reads one element into plain records (``_RawLink``, ``_RawJoint``, ``_RawSensor``)
or values, checks every attribute, and raises a :mod:`robomodel.urdf.errors` class naming the
file, line and element. :mod:`robomodel.urdf.load` assembles the records into a model.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from lxml import etree

from robomodel.errors import URDFError
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
from robomodel.spatial import Transform, rpy_from_rotation
from robomodel.urdf._sourced import SourcedAxis, SourcedInertia, SourcedTransform, Vec3
from robomodel.urdf.errors import (
    URDFSensorError,
    URDFTopologyError,
    URDFUnsupportedError,
    URDFValueError,
)

_ZERO3: Vec3 = (0.0, 0.0, 0.0)
_EYE = np.eye(3)
_EYE.setflags(write=False)
_DIAG = np.arange(3)
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


def _rotations(angles: list[float], n: int) -> Any:
    """Return the ``(n, 3, 3)`` rotations of ``n`` flattened ``(roll, pitch, yaw)`` triples.

    The formulas of :func:`robomodel.spatial.rotation_from_rpy`, elementwise in the same order
    (numpy's elementwise float64 operations round like Python's), with ``math`` trigonometry.
    """
    C = np.array(list(map(math.cos, angles))).reshape(n, 3)
    S = np.array(list(map(math.sin, angles))).reshape(n, 3)
    cr, cp, cy = C[:, 0], C[:, 1], C[:, 2]
    sr, sp, sy = S[:, 0], S[:, 1], S[:, 2]
    R = np.empty((n, 3, 3))
    R[:, 0, 0] = cy * cp
    R[:, 0, 1] = cy * sp * sr - sy * cr
    R[:, 0, 2] = cy * sp * cr + sy * sr
    R[:, 1, 0] = sy * cp
    R[:, 1, 1] = sy * sp * sr + cy * cr
    R[:, 1, 2] = sy * sp * cr - cy * sr
    R[:, 2, 0] = -sp
    R[:, 2, 1] = cp * sr
    R[:, 2, 2] = cp * cr
    return R


def _inertia_arrays(inertias: list[SourcedInertia]) -> tuple[list[Any], list[Any]]:
    """Return the first moments and the inertias about the origin of pending inertials.

    ``SpatialInertia.from_com(m, c, R I Rᵀ)`` written elementwise, every sum left to right, so
    that the result does not depend on how many inertials a document has.
    """
    n = len(inertias)
    data = [x.urdf_inertial for x in inertias]
    m = np.array([d[0] for d in data])
    c = np.array([d[1] for d in data], dtype=np.float64).reshape(n, 3)
    six = np.array([d[3] for d in data], dtype=np.float64).reshape(n, 6)
    I_C = six[:, [0, 1, 2, 1, 3, 4, 2, 4, 5]].reshape(n, 3, 3)
    rotated = [k for k, d in enumerate(data) if d[2] != _ZERO3]  # "0 -0 0" is not rotated
    A = I_C.copy()
    if rotated:
        R = _rotations([a for k in rotated for a in data[k][2]], len(rotated))
        Ic = I_C[rotated]
        B = R[:, :, 0, None] * Ic[:, None, 0, :]
        B = B + R[:, :, 1, None] * Ic[:, None, 1, :]
        B = B + R[:, :, 2, None] * Ic[:, None, 2, :]
        Ar = B[:, :, None, 0] * R[:, None, :, 0]
        Ar = Ar + B[:, :, None, 1] * R[:, None, :, 1]
        Ar = Ar + B[:, :, None, 2] * R[:, None, :, 2]
        A[rotated] = Ar
    # Python floats overflow to inf silently; so does this (a zero mass keeps A as it is).
    with np.errstate(all="ignore"):
        h = m[:, None] * c
        hh = h[:, 0] * h[:, 0] + h[:, 1] * h[:, 1] + h[:, 2] * h[:, 2]
        outer = h[:, :, None] * h[:, None, :]
        outer[:, _DIAG, _DIAG] -= hh[:, None]
        A = np.where((m != 0.0)[:, None, None], A - outer / m[:, None, None], A)
    I_O = 0.5 * (A + A.transpose(0, 2, 1))  # numpy's warnings here, as before
    h.setflags(write=False)
    I_O.setflags(write=False)
    return list(h), list(I_O)


# ---------------------------------------------------------------------- parsing helpers
class _Ctx:
    __slots__ = ("exts", "file", "inertias", "keep", "materials", "pending", "vecs", "warned")

    def __init__(self, file: str, keep: bool) -> None:
        self.file = file
        self.keep = keep
        self.exts: list[Extension] = []
        self.warned: list[str] = []
        # Origins and inertials read but without their arrays yet: :meth:`fill` computes all of
        # them at once, after the element pass.
        self.pending: list[SourcedTransform] = []
        self.inertias: list[SourcedInertia] = []
        self.vecs: dict[str, Vec3] = {}  # attribute text -> its three numbers, per document

    def fill(self) -> None:
        """Compute the arrays of every pending origin and inertial in one vectorised pass.

        Per element, building small arrays costs far more than the arithmetic; here each value
        gets read-only views into a few shared arrays. The angles go through ``math.cos`` and
        ``math.sin`` and every product and sum is the scalar formula's, in the same order, so
        the arrays are bitwise those of :func:`_sourced` (used for the transforms the loader
        composes itself) and do not depend on what else the document holds.
        """
        set_ = object.__setattr__
        pending = self.pending
        if pending:
            self.pending = []
            n = len(pending)
            origins = [t.urdf_origin for t in pending]
            P = np.array([x for o in origins for x in o[0]], dtype=np.float64).reshape(n, 3)
            angles = [a for o in origins for a in o[1]]
            R = _rotations(angles, n)
            # rpy "0 0 0" is the exact identity (+0.0 where -sin(0) gives -0.0), as in _sourced.
            A = np.array(angles).reshape(n, 3)
            R[~(np.signbit(A).any(axis=1) | (A != 0.0).any(axis=1)), 2, 0] = 0.0
            R.setflags(write=False)
            P.setflags(write=False)
            for t, Rk, pk in zip(pending, list(R), list(P), strict=True):
                set_(t, "rotation", Rk)
                set_(t, "position", pk)
        inertias = self.inertias
        if inertias:
            self.inertias = []
            for inertia, h, I_O in zip(inertias, *_inertia_arrays(inertias), strict=True):
                set_(inertia, "first_moment", h)
                set_(inertia, "rotational_inertia", I_O)

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


def _parse3(text: str) -> Vec3 | None:
    """Return the three finite decimal numbers of ``text``, or ``None`` for anything else."""
    try:
        a, b, c = text.split()
        v = (float(a), float(b), float(c))
    except ValueError:
        return None
    # x - x is 0.0 for a finite x and NaN otherwise; float() also takes "1_0" and non-ASCII
    # digits, which a C parser would refuse.
    if (v[0] - v[0]) + (v[1] - v[1]) + (v[2] - v[2]) != 0.0 or "_" in text or not text.isascii():
        return None
    return v


def _vec3(ctx: _Ctx, el: Any, what: str, attr: str, default: Vec3) -> Vec3:
    """The hot path of :func:`_floats` for three numbers; any doubt goes to the checked path."""
    text = el.get(attr)
    if text is None:
        return default
    v = ctx.vecs.get(text) or _parse3(text)
    if v is None:
        return _floats(ctx, el, what, attr, 3)  # type: ignore[no-any-return]
    ctx.vecs[text] = v
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
    # Documents repeat the same texts (``rpy`` above all): each distinct text is parsed once.
    vecs = ctx.vecs
    xs = el.get("xyz")
    rs = el.get("rpy")
    xyz = _ZERO3 if xs is None else (vecs.get(xs) or _parse3(xs))
    rpy = _ZERO3 if rs is None else (vecs.get(rs) or _parse3(rs))
    if xyz is None or rpy is None:
        # The checked path finds the culprit and raises with a precise message.
        _floats(ctx, el, what, "xyz", 3, _ZERO3)
        _floats(ctx, el, what, "rpy", 3, _ZERO3)
        raise AssertionError("unreachable: _parse3 refused a text _floats accepts")
    if xs is not None:
        vecs[xs] = xyz
    if rs is not None:
        vecs[rs] = rpy
    if xyz is _ZERO3 and rpy is _ZERO3:
        return _IDENTITY_ORIGIN
    # The matrices come later, all at once (_Ctx.fill).
    t = object.__new__(SourcedTransform)
    object.__setattr__(t, "urdf_origin", (xyz, rpy, False))
    ctx.pending.append(t)
    return t


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
    # The arrays come later, all at once (_Ctx.fill).
    inertia = object.__new__(SourcedInertia)
    object.__setattr__(inertia, "mass", m)
    object.__setattr__(inertia, "urdf_inertial", (m, xyz, rpy, six))
    ctx.inertias.append(inertia)
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
        scale = _vec3(ctx, g, what, "scale", (1.0, 1.0, 1.0))
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
    if raw.kind == "fixed":
        return FixedJoint(link1=raw.parent, link2=raw.child, link1_H_link2=raw.origin)
    what = f"joint {raw.name!r}"
    cls = _MOVING_TYPES[raw.kind]
    u = np.array(raw.axis, dtype=np.float64)
    # What np.linalg.norm computes for a 1-D float64 vector, without its generic checks.
    norm = math.sqrt(float(u.dot(u)))
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
