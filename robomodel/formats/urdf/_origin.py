"""``<origin xyz rpy>``: reading it (deferred, then all at once) beside writing it.

Every joint, shape and sensor of a document has an origin, and building a few hundred small
arrays one by one costs far more than the arithmetic. So :func:`read_origin` only registers the
texts with the record that will hold the transform, and :func:`origin_values` computes every
transform of the document in one vectorised pass. The angles go through ``math.cos`` and
``math.sin`` and every product is the scalar formula's, so the arrays are bitwise those of
:func:`origin_transform`, which builds the transforms the loader composes itself, and do not
depend on what else the document holds. :func:`write_origin` writes numbers computed from the
transform alone (:mod:`robomodel.formats.urdf._exact`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import chain, compress, repeat
from operator import is_
from typing import Any

import numpy as np

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import make
from robomodel.formats.urdf._document import XMLNS, Pending, Reader, fmt3, rm, strict_numbers
from robomodel.formats.urdf._exact import (
    computed_rpy,
    inverse_rpy,
    inverse_xyz,
    origin_numbers,
)
from robomodel.formats.urdf.errors import URDFValueError
from robomodel.formats.urdf.numbers import format_floats
from robomodel.model.spatial import Transform, rotations_from_rpy, rpy_from_rotation

__all__ = [
    "IDENTITY_ORIGIN",
    "ZERO3",
    "apply_exact",
    "canonical",
    "exact_rotation",
    "inverted",
    "origin_text",
    "origin_texts",
    "origin_transform",
    "origin_values",
    "plan_origins",
    "read_origin",
    "row_keys",
    "stacked",
    "stacked_rows",
    "write_origin",
]

Vec3 = tuple[float, float, float]
ZERO3: Vec3 = (0.0, 0.0, 0.0)
# Every transform the loader builds was computed here from checked, finite numbers.
_TRANSFORM = make(Transform)


def origin_transform(xyz: Vec3, rpy: Vec3, inverted: bool = False) -> Transform:
    """Return the transform of ``<origin xyz rpy>``, or its inverse when ``inverted``."""
    r, p, y = rpy
    if (
        r == 0.0
        and p == 0.0
        and y == 0.0
        and rpy == ZERO3
        and not (
            math.copysign(1.0, r) < 0 or math.copysign(1.0, p) < 0 or math.copysign(1.0, y) < 0
        )
    ):
        flat = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, xyz[0], xyz[1], xyz[2]]
    else:
        # rotation_from_rpy's formulas, written into one buffer with the position so that a
        # single array holds the whole transform.
        cr, sr = math.cos(r), math.sin(r)
        cp, sp = math.cos(p), math.sin(p)
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
    pos = buf[9:]
    if inverted:
        Rt = R.T.copy()
        R, pos = Rt, -(Rt @ pos)
    R, pos = immutable(R), immutable(pos)
    return _TRANSFORM(R, pos)


IDENTITY_ORIGIN = origin_transform(ZERO3, ZERO3)
"""The transform of an absent ``<origin>`` (shared: records default to it)."""


def canonical(T: Transform) -> Transform:
    """Return the transform URDF text reproduces for ``T`` (``T`` moved by at most an ulp).

    Used for transforms the loader composes itself (shapes and sensors of fake links), so that
    a loaded model is exactly what writing and reading it again gives.
    """
    rpy = rpy_from_rotation(T.rotation)
    xyz = (float(T.position[0]), float(T.position[1]), float(T.position[2]))
    return origin_transform(xyz, rpy)


def read_origin(r: Reader, el: Any, what: str, owner: Any) -> None:
    """Register ``<origin>`` ``el``: its transform becomes ``owner.origin`` (see the module).

    ``owner`` keeps its default origin (:data:`IDENTITY_ORIGIN`) when ``el`` gives no numbers.
    """
    xs = el.get("xyz")
    rs = el.get("rpy")
    if not r.plain and el.get(_ROTATION) is not None:
        r.exact_origins.append((owner, el))
    if xs is None and rs is None:
        return
    if r.eager:
        strict_numbers(r, el, what, "xyz", 3, ZERO3)
        strict_numbers(r, el, what, "rpy", 3, ZERO3)
    r.origin_owners.append(owner)
    texts = r.origin_texts
    texts.append("0 0 0" if xs is None else xs)  # an absent attribute reads as zeros
    texts.append("0 0 0" if rs is None else rs)


def origin_values(U: Any, ix: list[int]) -> list[Transform]:
    """Return the transforms of the registered origins, in registration order.

    ``U`` holds the distinct triples read (one row each, canonical), ``ix`` per origin the
    rows of its xyz and rpy (interleaved). Origins with the same ``rpy`` text share one frozen
    rotation, and those with the same ``xyz`` text one frozen position: values never change,
    so sharing is safe, and a document repeats few texts many times ("0 0 0").
    """
    # One rotation per distinct rpy text, in order of first use (each row is computed on its
    # own, so the order does not change any value).
    row_of: dict[int, int] = {}
    inverse = [row_of.setdefault(k, len(row_of)) for k in ix[1::2]]
    A = U[list(row_of)]
    # immutable stores every -0.0 as 0.0: rpy "0 0 0" gives the exact identity (-sin(0) is
    # -0.0), as in origin_transform.
    R = immutable(rotations_from_rpy(A.ravel().tolist(), len(row_of)))
    P = immutable(U)
    # Rows by index: iterating a frozen array goes through numpy's slower sequence protocol.
    rotations = [R[k] for k in range(len(R))]
    positions = {k: P[k] for k in dict.fromkeys(ix[0::2])}
    return list(
        map(_TRANSFORM, map(rotations.__getitem__, inverse), map(positions.__getitem__, ix[0::2]))
    )


_ROTATION = rm("rotation")
_ROTATION_TOLERANCE = 1e-6  # how far the exact rotation may be from the one rpy gives


def exact_rotation(r: Reader, el: Any, what: str, rpy_rotation: Any) -> Any:
    """Return the rotation of ``el``'s ``robomodel:rotation`` (9 numbers, row-major).

    It must be within ``1e-6`` of ``rpy_rotation`` (what the element's ``rpy`` gives, and what
    other tools read), so that robomodel and other tools read the same pose.
    """
    nums = strict_numbers(r, el, what, _ROTATION, 9)
    R = np.array(nums, dtype=np.float64).reshape(3, 3)
    if not np.abs(R - rpy_rotation).max() <= _ROTATION_TOLERANCE:
        raise r.err(
            URDFValueError,
            el,
            what,
            f"robomodel:rotation is not the rotation of rpy={el.get('rpy')!r} (off by more than "
            f"{_ROTATION_TOLERANCE:g}); remove the attribute or give both for the same rotation",
        )
    return R


def apply_exact(r: Reader) -> None:
    """Give each origin with a ``robomodel:rotation`` that exact rotation (after the numbers)."""
    for owner, el in r.exact_origins:
        T = owner.origin
        R = exact_rotation(r, el, f"<{el.getparent().tag}>", T.rotation)
        R = immutable(R)
        owner.origin = _TRANSFORM(R, T.position)


def inverted(T: Transform) -> Transform:
    """Return the inverse of an origin read (the frame of a fake URDF root link).

    From the rotation the origin holds (its exact rotation when it has one) and its position,
    which holds the ``xyz`` numbers read: bitwise what :func:`origin_transform` with
    ``inverted`` computes from the numbers.
    """
    Rt = T.rotation.T.copy()
    pos = -(Rt @ np.array(T.position, dtype=np.float64))
    Rt = immutable(Rt)
    pos = immutable(pos)
    return _TRANSFORM(Rt, pos)


def origin_text(
    T: Transform, invert: bool = False, memo: dict[bytes, Any] | None = None
) -> str | None:
    """Return the ``<origin>`` that reads back to ``T`` exactly (to its inverse when ``invert``).

    A function of the value alone (:mod:`robomodel.formats.urdf._exact`). Where no ``rpy`` of
    doubles
    gives the rotation, the angles computed by iDynTree's rule are written (what other tools
    read) with the exact rotation in ``robomodel:rotation``. ``None`` when ``invert`` and no
    ``xyz`` gives the position exactly. ``memo``: one export's memo (``Writer.memo``).
    """
    # The text is computed with -0.0 as 0.0, so equal values under two keys get the same text.
    if memo is None:
        return _origin_text(T, invert)
    key = b"o" + T.rotation.tobytes() + T.position.tobytes() + (b"i" if invert else b"")
    if key not in memo:
        memo[key] = _origin_text(T, invert, memo)
    text: str | None = memo[key]
    return text


def _origin_text(T: Transform, invert: bool, memo: dict[bytes, Any] | None = None) -> str | None:
    if invert:
        # The position first: without an exact inverse position no text is written, and the
        # rpy search of the transposed rotation (not among the model's) is not needed.
        xyz = inverse_xyz(T)
        if xyz is None:
            return None
        return _text_of(T, invert, xyz, inverse_rpy(T, memo))
    xyz, rpy = origin_numbers(T, invert, memo)
    return _text_of(T, invert, xyz, rpy)


def _text_of(
    T: Transform, invert: bool, xyz: list[float] | None, rpy: list[float] | None
) -> str | None:
    """The ``<origin>`` of the numbers found for ``T`` (``None`` without an ``xyz``)."""
    if xyz is None:
        return None
    R = T.rotation.T if invert else T.rotation
    if rpy is None:
        return (
            f'<origin xyz="{fmt3(xyz)}" rpy="{fmt3(computed_rpy(R))}" {XMLNS} '
            f'robomodel:rotation="{format_floats((R + 0.0).ravel().tolist())}"/>'
        )
    return f'<origin xyz="{fmt3(xyz)}" rpy="{fmt3(rpy)}"/>'


def write_origin(T: Transform, invert: bool = False, memo: dict[bytes, Any] | None = None) -> str:
    """Return the ``<origin>`` of ``T`` (of its inverse when ``invert``), exact where it can be.

    :func:`origin_text`; where no numbers give the inverse position exactly, the computed
    numbers (within an ulp; the exporter in index order writes such a frame as a child).
    """
    text = origin_text(T, invert, memo)
    if text is not None:
        return text
    U = T.inverse()
    _, rpy = origin_numbers(U, memo=memo)
    R = T.rotation.T
    if rpy is None:
        return (
            f'<origin xyz="{fmt3(U.position + 0.0)}" rpy="{fmt3(computed_rpy(R))}" {XMLNS} '
            f'robomodel:rotation="{format_floats((R + 0.0).ravel().tolist())}"/>'
        )
    return f'<origin xyz="{fmt3(U.position + 0.0)}" rpy="{fmt3(rpy)}"/>'


_MISSING = object()  # a memo's answer for a key it does not hold (None is an answer there)


def row_keys(prefix: bytes, rows: Any) -> list[bytes]:
    """Return ``prefix + row.tobytes()`` for every row of the float64 array ``rows``, at once.

    The memo keys of many values: the rows' bytes after the prefix in one ``uint8`` buffer,
    read back as one ``bytes`` object per row (a void view's ``tolist``).
    """
    m = len(rows)
    k = len(prefix)
    buf = np.empty((m, k + 8 * rows.shape[1]), dtype=np.uint8)
    buf[:, :k] = np.frombuffer(prefix, dtype=np.uint8)
    buf[:, k:] = np.ascontiguousarray(rows, dtype=np.float64).view(np.uint8).reshape(m, -1)
    keys: Any = buf.view(np.dtype((np.void, buf.shape[1]))).ravel().tolist()
    return list(keys)


def stacked(transforms: Sequence[Transform]) -> tuple[Any, Any]:
    """Return the rotations ``(n, 9)`` (row-major) and positions ``(n, 3)`` of ``transforms``.

    Views of :func:`stacked_rows`, with ``-0.0`` as ``0.0``.
    """
    rows = stacked_rows(transforms)
    return rows[:, :9], rows[:, 9:]


def stacked_rows(transforms: Sequence[Transform]) -> Any:
    """Return each transform as a row of 12 numbers (rotation row-major, then position).

    ``-0.0`` is ``0.0``. The arrays' buffers are joined as they are (a value's arrays are
    C-contiguous float64, by its converters): no ``tobytes`` copy each, no per-array numpy
    call; any other array (a non-contiguous view) goes through ``tobytes``.
    """
    n = len(transforms)
    rotations = [T.rotation for T in transforms]
    positions = [T.position for T in transforms]
    try:
        r, p = b"".join(rotations), b"".join(positions)  # type: ignore[arg-type]
    except (TypeError, BufferError, ValueError):  # pragma: no cover - a non-contiguous view
        r = p = b""
    if len(r) != 72 * n or len(p) != 24 * n:  # pragma: no cover - as above
        r = b"".join([np.asarray(a, dtype=np.float64).tobytes() for a in rotations])
        p = b"".join([np.asarray(a, dtype=np.float64).tobytes() for a in positions])
    rows = np.empty((n, 12), dtype=np.float64)
    rows[:, :9] = np.frombuffer(r, dtype=np.float64).reshape(n, 9)
    rows[:, 9:] = np.frombuffer(p, dtype=np.float64).reshape(n, 3)
    rows += 0.0
    return rows


def origin_texts(
    transforms: Sequence[Transform],
    invert: Sequence[bool] | None = None,
    memo: dict[bytes, Any] | None = None,
) -> list[str]:
    """Return :func:`write_origin` of every transform, the numbers formatted in one pass.

    ``invert``: per transform, whether to write its inverse (default: none). ``memo``: one
    export's memo (``Writer.memo``), which holds the ``rpy`` of the model's rotations
    (:func:`robomodel.formats.urdf._exact_batch.export_memo`). :func:`plan_origins` on its own
    :class:`~robomodel.formats.urdf._document.Pending`, formatted at once.
    """
    pending = Pending()
    texts = plan_origins(transforms, invert, memo, pending)
    pending.format()
    return texts()


def plan_origins(
    transforms: Sequence[Transform],
    invert: Sequence[bool] | None,
    memo: dict[bytes, Any] | None,
    pending: Pending,
) -> Callable[[], list[str]]:
    """Add the numbers of every transform's ``<origin>`` to ``pending``; return its texts later.

    The returned function gives :func:`write_origin` of every transform once ``pending`` is
    formatted. ``invert`` and ``memo``: as :func:`origin_texts`.

    Each distinct transform not asked for yet in ``pending`` looks its ``rpy`` up once and adds
    its six numbers as one row; inverted origins and origins without an exact ``rpy`` (rare)
    are written one by one by :func:`write_origin`.
    """
    # A model repeats poses (a visual and its collision, a sensor and its frame): each
    # distinct one is computed and written once per export (pending's origin_keys), keyed by
    # its numbers' bytes (-0.0 as 0.0: equal values get one text).
    rows = pending.origin_keys
    n = len(transforms)
    if not n:
        return list  # texts() of no origins: an empty list
    RP = stacked_rows(transforms)
    keys = row_keys(b"w", RP)
    flags = [False] * n if invert is None else list(map(bool, invert))
    inverted = list(compress(range(n), flags))
    for k in inverted:
        keys[k] += b"i"
    todo = [k for key, k in dict(zip(keys, range(n), strict=True)).items() if key not in rows]

    # ------------------------------------------------------------------ the rpy of each
    # The model's rotations are in the memo (under their canonical bytes, as here); any other
    # is searched (and memoised) by origin_numbers. The rare cases (an inverted origin, a
    # rotation not in the memo, one without an exact rpy) are told apart by C-level scans
    # first, so that the usual export runs no Python loop for them.
    plain = [k for k in todo if not flags[k]] if inverted else todo
    one_by_one = [k for k in todo if flags[k]] if inverted else []
    # (The rows by one index array; the scans by identity, where ``in`` would compare the
    # sentinel with every list found.)
    at = np.fromiter(plain, dtype=np.intp, count=len(plain))
    found: list[Any] = (
        list(map(memo.get, row_keys(b"r", RP[at, :9]), repeat(_MISSING, len(plain))))
        if memo is not None and plain
        else [_MISSING] * len(plain)
    )
    if any(map(is_, found, repeat(_MISSING))):
        found = [
            origin_numbers(transforms[k], False, memo)[1] if rpy is _MISSING else rpy
            for k, rpy in zip(plain, found, strict=True)
        ]
    # No exact rpy: written one by one, with the rotation stated exactly.
    if any(map(is_, found, repeat(None))):
        one_by_one += [k for k, rpy in zip(plain, found, strict=True) if rpy is None]
        plain = [k for k, rpy in zip(plain, found, strict=True) if rpy is not None]
        found = [rpy for rpy in found if rpy is not None]
        at = np.fromiter(plain, dtype=np.intp, count=len(plain))

    # ------------------------------------------------------------------ the rows
    # Six numbers per origin, as one array: the positions as they are, the angles (lists of
    # the memo) chained in C.
    if plain:
        m = len(plain)
        six = np.empty((m, 6), dtype=np.float64)
        six[:, :3] = RP[at, 9:]
        six[:, 3:] = np.fromiter(chain.from_iterable(found), np.float64, 3 * m).reshape(m, 3)
        first = pending.add_origins(six.ravel())
        rows.update(zip([keys[k] for k in plain], range(first, first + len(plain)), strict=True))
    # Through write_origin's memo (origin_text): the fake root's inverse, which the tree
    # writer checks first, is searched once per export.
    for k in one_by_one:
        rows[keys[k]] = pending.add_origin_text(write_origin(transforms[k], flags[k], memo))
    where = list(map(rows.__getitem__, keys))

    def texts() -> list[str]:
        return list(map(pending.origins.__getitem__, where))

    return texts
