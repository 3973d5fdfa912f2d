"""Frozen float arrays: the checks and the storage shared by every value's numpy fields.

A value's arrays are float64, of a fixed shape, finite, and immutable: :func:`immutable` stores
them over a ``bytes`` buffer, so that not even ``setflags(write=True)`` can make one writable
again. That is what makes sharing them safe (:func:`zeros3` and friends hand out one array to
every default-constructed value) and what lets the trusted constructors of
:mod:`robomodel.spatial` store an array without copying it again.
"""

from __future__ import annotations

import math

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


def check_finite(arr: FloatArray, what: str) -> None:
    """Raise :class:`ModelError` unless every entry of ``arr`` is finite."""
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{what} must be finite, got {arr.tolist()}")


def finite_number(value: float, what: str) -> float:
    """Return ``value`` as a float; raise :class:`ArgumentError` if it is NaN or infinite."""
    f = float(value)
    if not math.isfinite(f):
        raise ArgumentError(f"{what} must be a finite number, got {f}")
    return f


def immutable(arr: FloatArray) -> FloatArray:
    """Return a read-only copy of ``arr`` over an immutable ``bytes`` buffer.

    ``setflags(write=False)`` alone can be undone with ``setflags(write=True)`` on the array (or
    on its base), so a value would not be a value. An array over ``bytes`` can never be made
    writable again, nor can anything it is a view of.
    """
    out: FloatArray = _ndarray(arr.shape, _F64, arr.tobytes())  # ``arr`` is float64
    return out


_ndarray = np.ndarray
_F64 = np.dtype(np.float64)


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
    return m
