"""The spatial algebra gives the bits of its plain formulas, stored frozen and canonical.

``Transform``, ``Axis`` and ``SpatialInertia`` compute on plain views of their frozen arrays and
freeze their results through a byte screen for ``-0.0`` (robomodel/_internal/arrays.py); each
property here recomputes a result with the formula on writable copies (``np.array``), then
``+ 0.0`` as the canonical rule says, and asks for the same bits. Axis-aligned rotations and
zero positions are drawn too, since those are where products give ``-0.0``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import inertias, transforms, unit_vectors

import robomodel as rm
from robomodel._internal.arrays import FrozenArray, immutable, immutable_pair


def _signed_permutations() -> list[np.ndarray]:
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1.0, -1.0), repeat=3):
            R = np.zeros((3, 3))
            for row, (col, sign) in enumerate(zip(perm, signs, strict=True)):
                R[row, col] = sign
            if np.linalg.det(R) > 0:
                out.append(R)
    return out


_AXIS_ALIGNED = st.sampled_from(_signed_permutations())
_ZERO_OR = st.sampled_from([0.0, -0.0, 1.0, -2.5])
_aligned_transforms = st.builds(
    rm.Transform, _AXIS_ALIGNED, st.tuples(_ZERO_OR, _ZERO_OR, _ZERO_OR)
)
any_transforms = st.one_of(transforms(), _aligned_transforms)
any_axes = st.builds(
    rm.Axis,
    st.one_of(unit_vectors(), st.sampled_from([(0.0, 0.0, 1.0), (0.0, -1.0, 0.0)])),
    st.tuples(_ZERO_OR, _ZERO_OR, _ZERO_OR),
)


def canon(a: np.ndarray) -> np.ndarray:
    return a + 0.0


def same_bits(stored: np.ndarray, want: np.ndarray) -> None:
    """``stored`` is a frozen value array with exactly the bits of ``want`` (canonical)."""
    assert isinstance(stored, FrozenArray)
    assert stored.shape == want.shape
    assert stored.tobytes() == canon(want).tobytes()
    assert not np.signbit(stored[stored == 0.0]).any()
    with pytest.raises(ValueError, match="WRITEABLE"):
        stored.setflags(write=True)


def plain(T: rm.Transform) -> tuple[np.ndarray, np.ndarray]:
    return np.array(T.rotation), np.array(T.position)


def plain_inverse(T: rm.Transform) -> tuple[np.ndarray, np.ndarray]:
    R, p = plain(T)
    Rt = R.T.copy()
    return Rt, canon(-(Rt @ p))


def plain_axis_map(R: np.ndarray, p: np.ndarray, axis: rm.Axis) -> tuple[np.ndarray, np.ndarray]:
    d = R @ np.array(axis.direction)
    assert abs(float(d @ d) - 1.0) <= 1e-9  # rotations keep units: no renormalising here
    return d, R @ np.array(axis.origin) + p


def plain_skew_sq(h: np.ndarray) -> np.ndarray:
    return np.outer(h, h) - float(h @ h) * np.eye(3)


@given(any_transforms, any_transforms)
def test_product_and_inverse_are_the_plain_formulas(A: rm.Transform, B: rm.Transform) -> None:
    RA, pA = plain(A)
    RB, pB = plain(B)
    AB = A @ B
    same_bits(AB.rotation, RA @ RB)
    same_bits(AB.position, RA @ pB + pA)
    Rt, pt = plain_inverse(A)
    inv = A.inverse()
    same_bits(inv.rotation, Rt)
    same_bits(inv.position, pt)


@given(any_transforms, any_axes)
def test_axis_maps_are_the_plain_formulas(T: rm.Transform, axis: rm.Axis) -> None:
    d, o = plain_axis_map(*plain(T), axis)
    mapped = T @ axis
    same_bits(mapped.direction, d)
    same_bits(mapped.origin, o)
    d, o = plain_axis_map(*plain_inverse(T), axis)
    for got in (T.inverse_apply(axis), T.inverse() @ axis):
        same_bits(got.direction, d)
        same_bits(got.origin, o)
    rev = axis.reversed()
    same_bits(rev.direction, -np.array(axis.direction))
    assert rev.origin.tobytes() == axis.origin.tobytes()


@given(any_transforms, st.one_of(inertias(), st.just(rm.SpatialInertia(0.0, (0, 0, 0), np.eye(3)))))
def test_inertia_transform_is_the_plain_formula(
    T: rm.Transform, inertia: rm.SpatialInertia
) -> None:
    R, p = plain(T)
    m = inertia.mass
    h, I_O = np.array(inertia.first_moment), np.array(inertia.rotational_inertia)
    if m == 0.0:
        h_A, I_A = np.zeros(3), R @ I_O @ R.T
    else:
        h_A = m * (R @ (h / m) + p)
        I_A = R @ (I_O + plain_skew_sq(h) / m) @ R.T - plain_skew_sq(h_A) / m
    got = T @ inertia
    assert got.mass == m
    same_bits(got.first_moment, h_A)
    same_bits(got.rotational_inertia, 0.5 * I_A + 0.5 * I_A.T)
    both = inertia + got
    same_bits(both.first_moment, h + h_A)
    I_sum = I_O + np.array(got.rotational_inertia)
    same_bits(both.rotational_inertia, 0.5 * I_sum + 0.5 * I_sum.T)


@given(any_axes, st.floats(-4.0, 4.0))
def test_rotation_about_an_axis_is_the_plain_formula(axis: rm.Axis, angle: float) -> None:
    x, y, z = np.array(axis.direction)
    K = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    c, s = np.cos(angle), np.sin(angle)
    R = np.eye(3) + s * K + (1.0 - c) * (K @ K)
    T = axis.rotation(angle)
    same_bits(T.rotation, R)
    same_bits(T.position, (np.eye(3) - R) @ np.array(axis.origin))
    shift = axis.translation(angle)
    same_bits(shift.rotation, np.eye(3))
    same_bits(shift.position, np.array(axis.direction) * angle)


@given(
    st.lists(_ZERO_OR, min_size=1, max_size=12).map(np.array),
    st.sampled_from([lambda a: a, lambda a: a[::-1], lambda a: immutable(a)]),
)
def test_immutable_stores_the_canonical_bits(values: np.ndarray, layout: object) -> None:
    arr = layout(values)  # type: ignore[operator]
    same_bits(immutable(arr), np.array(arr))
    first, second = immutable_pair(arr, np.array(arr)[::-1])
    same_bits(first, np.array(arr))
    same_bits(second, np.array(arr)[::-1])
