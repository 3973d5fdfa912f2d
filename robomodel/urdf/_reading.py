"""Reading a URDF document's values: the loader's context, numbers and deferred arrays.

:class:`_Ctx` carries what one load needs across elements: the file name for errors, the kept
elements, and the values read but not computed yet. Their numbers are read after the element
pass, all at once (:meth:`_Ctx.fill`); when one does not read, the loader reads the document
again with an eager context that checks every number where it is read, so the error names the
first bad number in document order. The helpers here read attributes (``_float``, ``_floats``,
``_vec3``, ``_required``), build the transforms the loader composes itself (``_sourced``,
``canonical``) and write childless kept elements (``_leaf_xml``).
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any

import numpy as np
from lxml import etree

from robomodel._construct import trusted
from robomodel.errors import URDFError
from robomodel.model import Extension
from robomodel.shapes import Mesh
from robomodel.spatial import Axis, Transform, rpy_from_rotation
from robomodel.urdf._sourced import SourcedAxis, SourcedInertia, SourcedTransform, Vec3
from robomodel.urdf.errors import URDFValueError

_ZERO3: Vec3 = (0.0, 0.0, 0.0)
_DIAG = np.arange(3)
# Slot setters, called directly: what object.__setattr__ does on these frozen classes, minus the
# attribute lookup, for the few hundred transforms of a document.
_SET_ROTATION = Transform.__dict__["rotation"].__set__
_SET_POSITION = Transform.__dict__["position"].__set__
_SET_URDF_ORIGIN = SourcedTransform.__dict__["urdf_origin"].__set__
_drain: Callable[[Iterable[Any]], None] = deque(maxlen=0).extend  # runs an iterator in C
_SET_DIRECTION = Axis.__dict__["direction"].__set__
_SET_AXIS_ORIGIN = Axis.__dict__["origin"].__set__
_SET_URDF_AXIS = SourcedAxis.__dict__["urdf_axis"].__set__


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
class _DoubtError(Exception):
    """Raised by :meth:`_Ctx.fill` when a deferred number does not read: load again eagerly."""


class _Ctx:
    __slots__ = (
        "axis_raws",
        "axis_texts",
        "eager",
        "exts",
        "file",
        "inertial_texts",
        "inertias",
        "keep",
        "meshes",
        "origin_texts",
        "pending",
        "plain",
    )

    def __init__(self, file: str, keep: bool, plain: bool = False, eager: bool = False) -> None:
        self.file = file
        self.keep = keep
        # No namespace declaration anywhere in the document: a childless element kept verbatim
        # serialises to what its attributes say (see _leaf_xml).
        self.plain = plain
        # Eager: every number is checked where it is read, so that the first bad one in
        # document order raises its precise error. The loader reads eagerly only after the
        # deferred pass (:meth:`fill`) found a number that does not read.
        self.eager = eager
        # Per (filename, scale text): visual and collision shapes share their mesh.
        self.meshes: dict[tuple[str, str | None], Mesh] = {}
        self.exts: list[Extension] = []  # the robot's own kept elements, in document order
        # Values read but without their numbers and arrays yet: :meth:`fill` computes all of
        # them at once, after the element pass. Per pending origin its xyz and rpy texts; per
        # pending inertial its origin's xyz and rpy texts; per moving joint its axis text.
        self.pending: list[SourcedTransform] = []
        self.origin_texts: list[str] = []
        self.inertias: list[tuple[SourcedInertia, float, tuple[float, ...]]] = []
        self.inertial_texts: list[str] = []
        self.axis_raws: list[Any] = []  # the _RawJoint records of robomodel.urdf._elements
        self.axis_texts: list[str] = []

    def fill(self) -> None:
        """Read every deferred number and compute the pending arrays in one vectorised pass.

        Per element, building small arrays costs far more than the arithmetic; here each value
        gets read-only views into a few shared arrays. The angles go through ``math.cos`` and
        ``math.sin`` and every product and sum is the scalar formula's, in the same order, so
        the arrays are bitwise those of :func:`_sourced` (used for the transforms the loader
        composes itself) and do not depend on what else the document holds.

        Raises:
            _DoubtError: a deferred text is not three finite decimal numbers.
        """
        n, m = len(self.pending), len(self.inertias)
        texts = self.origin_texts + self.inertial_texts + self.axis_texts
        if not texts:
            return
        # Documents repeat texts (a visual and its collision, common angles): each distinct
        # text is parsed once, and each distinct rpy becomes a rotation once.
        uniq = list(dict.fromkeys(texts))
        nums = _parse_triples(uniq)
        U = np.array(nums if nums is not None else (), dtype=np.float64)
        if nums is None or not np.isfinite(U).all():
            if self.eager:
                raise AssertionError("unreachable: _parse_triples refused texts _floats accepts")
            raise _DoubtError
        U = U.reshape(-1, 3)
        it = iter(nums)
        triples = list(zip(it, it, it, strict=True))
        index = dict(zip(uniq, range(len(uniq)), strict=True))
        ix = list(map(index.__getitem__, texts))
        read = list(map(triples.__getitem__, ix))
        if n:
            xi, ri = ix[0 : 2 * n : 2], ix[1 : 2 * n : 2]
            P = U[xi]
            # One rotation per distinct rpy text, in order of first use (each row is computed
            # on its own, so the order does not change any value).
            row_of: dict[int, int] = {}
            inverse = [row_of.setdefault(k, len(row_of)) for k in ri]
            A = U[list(row_of)]
            R = _rotations(A.ravel().tolist(), len(row_of))
            # rpy "0 0 0" is the exact identity (+0.0 where -sin(0) gives -0.0), as in _sourced.
            R[~(np.signbit(A).any(axis=1) | (A != 0.0).any(axis=1)), 2, 0] = 0.0
            R = R[inverse]
            R.setflags(write=False)
            P.setflags(write=False)
            # Three C-level loops instead of one Python loop over a few hundred transforms.
            pending = self.pending
            origins = zip(read[0 : 2 * n : 2], read[1 : 2 * n : 2], repeat(False, n), strict=True)
            _drain(map(_SET_ROTATION, pending, R))
            _drain(map(_SET_POSITION, pending, P))
            _drain(map(_SET_URDF_ORIGIN, pending, origins))
        if m:
            set_ = object.__setattr__
            done = []
            for (inertia, mass, six), xyz, rpy in zip(
                self.inertias,
                read[2 * n : 2 * n + 2 * m : 2],
                read[2 * n + 1 : 2 * n + 2 * m : 2],
                strict=True,
            ):
                set_(inertia, "urdf_inertial", (mass, xyz, rpy, six))
                done.append(inertia)
            for inertia, h, I_O in zip(done, *_inertia_arrays(done), strict=True):
                set_(inertia, "first_moment", h)
                set_(inertia, "rotational_inertia", I_O)
        for raw, xyz in zip(self.axis_raws, read[2 * n + 2 * m :], strict=True):
            raw.axis = xyz
        self.pending, self.origin_texts, self.inertias, self.inertial_texts = [], [], [], []
        self.axis_raws, self.axis_texts = [], []

    def err(self, cls: type[URDFError], el: Any, what: str, reason: str) -> URDFError:
        line = el.sourceline if el is not None else None
        return cls(reason, file=self.file, line=line, element=what)

    def xml(self, el: Any) -> str | None:
        """Return the verbatim XML of ``el`` to keep, ``None`` when nothing is kept.

        Nothing is kept when the loader was told not to keep extensions, or when ``el`` is not
        an element (an entity reference left unexpanded).
        """
        tag = el.tag
        if not self.keep or not isinstance(tag, str):
            return None
        if self.plain and el.text is None and not len(el):
            xml = _leaf_xml(tag, el.items())
            if xml is not None:
                return xml
        return str(etree.tostring(el, encoding="unicode", with_tail=False))

    def keep_ext(self, kind: str, owner: str, el: Any, into: list[Extension]) -> None:
        """Append ``el`` kept verbatim, owned by ``kind`` ``owner``, to ``into``."""
        xml = self.xml(el)
        if xml is not None:
            into.append(_EXTENSION(kind, owner, xml, el.tag))


_EXTENSION = trusted(Extension)


def _leaf_xml(tag: str, items: list[tuple[str, str]]) -> str | None:
    """Return what lxml writes for a childless, textless element, or ``None`` when unsure.

    libxml2 writes ``<tag a="v" .../>`` with the attributes in document order and escapes
    ``<>&"`` and tab, newline and carriage return in values; a value holding any of them, or
    anything outside printable ASCII, or a namespaced name goes to ``etree.tostring``.
    """
    if len(items) == 1:  # the common case (<dynamics damping=...>), without the loop
        k, v = items[0]
        if not (v.isascii() and v.isprintable()) or _ESCAPED.search(v) or "{" in k:
            return None
        return f'<{tag} {k}="{v}"/>'
    out = "<" + tag
    for k, v in items:
        if not (v.isascii() and v.isprintable()) or _ESCAPED.search(v) or "{" in k:
            return None
        out += f' {k}="{v}"'
    return out + "/>"


_ESCAPED = re.compile(r'[<>&"]')


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


def _numbers(ctx: _Ctx, el: Any, what: str, attr: str, n: int, default: Any = None) -> Any:
    """The hot path of :func:`_floats`: any doubt goes to the checked path for its message."""
    text = el.get(attr)
    if text is None and default is not None:
        return default
    parts = None if text is None else text.split()
    read = _parse_all(parts) if parts is not None and len(parts) == n else None
    return read if read is not None else _floats(ctx, el, what, attr, n, default)


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
    if xs is None and rs is None:
        return _IDENTITY_ORIGIN
    if ctx.eager:
        _floats(ctx, el, what, "xyz", 3, _ZERO3)
        _floats(ctx, el, what, "rpy", 3, _ZERO3)
    # The numbers and matrices come later, all at once (_Ctx.fill); an absent attribute reads
    # as zeros.
    t = object.__new__(SourcedTransform)
    ctx.pending.append(t)
    texts = ctx.origin_texts
    texts.append("0 0 0" if xs is None else xs)
    texts.append("0 0 0" if rs is None else rs)
    return t


def _parse_triples(texts: list[str]) -> list[float] | None:
    """Return the numbers of ``texts``, three decimal numbers each, or ``None`` for a doubt.

    One ``float`` pass over all the tokens: the texts are joined with a ``,`` token between
    them, which a number never is, and every fourth token must be that separator, so each text
    held exactly three tokens. ``None`` when a token is not a number (or a form ``float``
    accepts and C parsers do not: ``1_0``, non-ASCII digits); non-finite values are the
    caller's check.
    """
    n = len(texts)
    joined = " , ".join(texts)
    if "_" in joined or not joined.isascii():
        return None
    tokens = joined.split()
    if len(tokens) != 4 * n - 1 or tokens[3::4].count(",") != n - 1:
        return None
    del tokens[3::4]
    try:
        return list(map(float, tokens))
    except ValueError:
        return None


def canonical(T: Transform) -> SourcedTransform:
    """Return the transform URDF text reproduces for ``T`` (``T`` moved by at most an ulp).

    Used for transforms the loader composes itself (shapes and sensors of fake links), so that
    a loaded model is exactly what writing and reading it again gives.
    """
    rpy = rpy_from_rotation(T.rotation)
    xyz = (float(T.position[0]), float(T.position[1]), float(T.position[2]))
    return _sourced(xyz, rpy)


def _dup(ctx: _Ctx, el: Any, what: str) -> URDFError:
    tag = el.tag
    return ctx.err(
        URDFValueError, el, what, f"a second <{tag}>; give at most one <{tag}> per element"
    )


def _parse_all(texts: list[Any]) -> tuple[float, ...] | None:
    """Return the finite decimal numbers of attribute ``texts`` (one each), or ``None``."""
    try:
        v = tuple(map(float, texts))
    except (TypeError, ValueError):  # an absent attribute or not a number
        return None
    joined = "".join(texts)
    if not all(map(math.isfinite, v)) or "_" in joined or not joined.isascii():
        return None
    return v
