"""Frozen float arrays: the checks and the storage shared by every value's numpy fields.

A value's arrays are float64, of a fixed shape, finite, canonical and immutable: :func:`immutable`
stores them over a ``bytes`` buffer, so that not even ``setflags(write=True)`` can make one writable
again, with every ``-0.0`` stored as ``0.0`` (see :func:`canonical`). That is what makes sharing
them safe (:func:`zeros3` and friends hand out one array to
every default-constructed value) and what lets the trusted constructors of
:mod:`robomodel.model.spatial` store an array without copying it again.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError, ModelError

FloatArray = npt.NDArray[np.float64]
"""A numpy array of float64 values."""
ArrayLike = npt.ArrayLike


def frozen_array(value: ArrayLike, shape: tuple[int, ...], what: str) -> FloatArray:
    """Return a read-only float64 copy of ``value`` with the given shape, or raise ModelError."""
    arr = np.asarray(value, dtype=np.float64)
    if arr.shape != shape:
        raise ModelError(f"{what} must have shape {shape}, got {arr.shape}")
    check_finite(arr, what)
    return immutable(arr)


def canonical(value: float) -> float:
    """Return ``value`` as a float with ``-0.0`` folded into ``0.0`` (NaN and infinities kept).

    Every number a value stores goes through this (arrays through :func:`immutable`): ``-0.0 ==
    0.0``, so two values differing only in the sign of a zero are equal, and they must also hash
    alike, pickle and write alike and give the same derived quantities (``atan2(-0.0, -1)`` is
    ``-pi``, ``atan2(0.0, -1)`` is ``pi``). Adding ``0.0`` is the IEEE rule that does it:
    ``-0.0 + 0.0 == +0.0`` and every other number is unchanged.
    """
    return float(value) + 0.0


def check_finite(arr: FloatArray, what: str) -> None:
    """Raise :class:`ModelError` unless every entry of ``arr`` is finite."""
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{what} must be finite, got {arr.tolist()}")


def finite_number(value: float, what: str) -> float:
    """Return ``value`` as a float; raise :class:`ArgumentError` if it is NaN or infinite."""
    f = float(value)
    if not math.isfinite(f):
        raise ArgumentError(f"{what} must be a finite number, got {f}")
    return f + 0.0  # canonical: -0.0 is stored as 0.0


class FrozenArray(np.ndarray[Any, np.dtype[np.float64]]):
    """A float64 array whose contents and layout cannot change: what :func:`immutable` returns.

    Over ``bytes`` its elements cannot be written, but numpy still lets any array's ``shape``,
    ``dtype`` and ``strides`` be assigned and ``__setstate__`` load new (writable) contents, in
    place: ``model.joints[0].link1_H_link2.rotation.shape = (9,)`` would change a model. This
    subclass refuses those (and any other attribute assignment). Views of it (``a.T``, ``a[0]``)
    are frozen too; ``a.copy()`` and ufunc results (``a @ b``, ``a + 1``) are plain arrays. It
    pickles and copies as itself, frozen.
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(
            f"a model's arrays cannot change: {name!r} cannot be set (make a new array, "
            "e.g. np.array(a).reshape(...))"
        )

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a model's arrays cannot change: {name!r} cannot be deleted")

    def __setstate__(self, state: object) -> None:
        raise TypeError("a model's arrays cannot change: __setstate__ is refused")

    def resize(self, *shape: Any, **kwargs: Any) -> None:
        """Refused (numpy would let a same-size resize through)."""
        raise ValueError("a model's arrays cannot change: resize is refused")

    def __array_wrap__(self, arr: Any, context: object = None, return_scalar: bool = False) -> Any:
        # Ufunc results own new memory: hand them out as plain arrays (numpy would make them
        # frozen-layout views of this class).
        return arr[()] if return_scalar else arr.view(np.ndarray)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_frozen, (self.shape, self.tobytes()))

    def copy(self, order: Any = "C") -> Any:
        """Return a writable plain copy (``np.array(a, order=order)``)."""
        return np.array(self, order=order)

    def __copy__(self) -> FrozenArray:
        return self  # nothing can change it: sharing is safe

    def __deepcopy__(self, memo: object) -> FrozenArray:
        return self


def _frozen(shape: tuple[int, ...], data: bytes) -> FrozenArray:
    return FrozenArray(shape, _F64, data)


def frozen_copy(arr: npt.ArrayLike) -> npt.NDArray[Any]:
    """Return a read-only copy of a numeric array of any dtype, over an immutable buffer.

    For results that are handed out more than once (memoised, or held by a frozen record):
    ``setflags(write=True)`` fails on the copy, as on every value's own arrays. Float entries
    are canonical (``-0.0`` stored as ``0.0``; NaN and infinities kept as they are).
    """
    a = np.ascontiguousarray(arr)
    if a.dtype.hasobject:
        raise TypeError(f"cannot freeze an array of dtype {a.dtype}")
    if a.dtype.kind in "fc":
        a = a + a.dtype.type(0)  # -0.0 + 0.0 is +0.0; every other entry is unchanged
    return np.frombuffer(a.tobytes(), dtype=a.dtype).reshape(a.shape)


def frozen_bytes(data: bytes, shape: tuple[int, ...]) -> FloatArray:
    """Return the float64 values in ``data`` as a :class:`FrozenArray` of ``shape``, canonical.

    ``data`` is stored as it is (no copy) unless it holds a ``-0.0`` or is longer than 256 bytes:
    then a canonical copy.
    """
    out: FloatArray = FrozenArray(shape, _F64, data)
    # A cheap screen on small buffers (most hold no such byte pattern at all); a large one
    # takes the canonical copy at once, cheaper than the search there (see immutable).
    if len(data) > _SCREENED_BYTES or _NEG_ZERO in data:
        return immutable(out)
    return out


def immutable(arr: FloatArray) -> FloatArray:
    """Return a read-only copy of ``arr`` over an immutable ``bytes`` buffer.

    ``setflags(write=False)`` alone can be undone with ``setflags(write=True)`` on the array (or
    on its base), so a value would not be a value. An array over ``bytes`` can never be made
    writable again, nor can anything it is a view of; as a :class:`FrozenArray` its shape and
    dtype cannot be reassigned either. Every ``-0.0`` is stored as ``0.0`` (:func:`canonical`).
    """
    # ``tobytes`` copies any layout in C order without running ``FrozenArray``'s ufunc hooks;
    # the byte screen then finds the rare ``-0.0`` (a false positive only costs the addition),
    # so most small arrays are stored without the ``+ 0.0`` pass that would give the same bits.
    # The screen is a substring search for eight bytes, seven of them zero: on a long buffer
    # full of zero bytes (stacked axis-aligned rotations) it measured 70 us for 30 KB against
    # 2 us for the addition, so arrays above _SCREENED_BYTES take the addition at once.
    if arr.dtype is _F64 and arr.nbytes <= _SCREENED_BYTES:
        data = arr.tobytes()
        if _NEG_ZERO not in data:
            return FrozenArray(arr.shape, _F64, data)
    plain = np.asarray(arr, dtype=_F64)  # a plain view: ``+ 0.0`` runs no Python hook
    return FrozenArray(plain.shape, _F64, (plain + 0.0).tobytes())


def immutable_pair(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Return ``(immutable(a), immutable(b))`` (the same bits) over one shared ``bytes`` buffer.

    For two fields of one value built together (a transform's rotation and position): one
    buffer and one ``-0.0`` screen instead of two. Each array keeps its own shape, a read-only
    view of the buffer, which nothing can write.
    """
    if a.dtype is _F64 and b.dtype is _F64:
        data = a.tobytes() + b.tobytes()
        if _NEG_ZERO not in data:
            return FrozenArray(a.shape, _F64, data), FrozenArray(b.shape, _F64, data, a.nbytes)
    return immutable(a), immutable(b)


_F64 = np.dtype(np.float64)
_NEG_ZERO = np.array(-0.0).tobytes()
_SCREENED_BYTES = 256
"""The largest array :func:`immutable` screens for ``-0.0`` bytes (32 numbers: a 6x6 matrix
or a few stacked 3x3s); larger ones take the ``+ 0.0`` pass, which is cheaper there."""


def fresh(arr: FloatArray) -> FloatArray:
    """Return ``arr`` (just computed for a caller, stored in no value) marked read-only.

    Read-only as a reminder that it is derived data; a caller re-enabling writes changes no
    value, so no copy is made.
    """
    arr.setflags(write=False)
    return arr


def vec3(v: ArrayLike) -> FloatArray:
    """Return ``v`` as a frozen, finite 3-vector."""
    return frozen_array(v, (3,), "a 3-vector")


def mat33(v: ArrayLike) -> FloatArray:
    """Return ``v`` as a frozen, finite 3x3 matrix."""
    return frozen_array(v, (3, 3), "a rotation matrix")


# Shared by every default-constructed value: safe, since no one can make them writable again.
ZEROS3 = immutable(np.zeros(3))
EYE3 = immutable(np.eye(3))
ZEROS33 = immutable(np.zeros((3, 3)))


def zeros3() -> FloatArray:
    """Return the zero 3-vector (one shared frozen array)."""
    return ZEROS3


def eye3() -> FloatArray:
    """Return the 3x3 identity (one shared frozen array)."""
    return EYE3


def zeros33() -> FloatArray:
    """Return the zero 3x3 matrix (one shared frozen array)."""
    return ZEROS33


def finite_mass(value: float) -> float:
    """Return ``value`` as a float; raise :class:`ModelError` if it is NaN or infinite."""
    m = float(value)
    if not math.isfinite(m):
        raise ModelError(f"a mass must be finite, got {m}")
    return m + 0.0  # canonical: -0.0 is stored as 0.0
