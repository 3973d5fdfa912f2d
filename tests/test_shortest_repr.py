"""``robomodel._internal.shortest``: Python's ``repr`` of whole float64 arrays, bit for bit.

The oracle is ``repr`` itself, called number by number. :func:`reprs_by_arrays` is tested
directly (it takes the array path whatever the size); :func:`reprs` only chooses between it and
``repr`` by size.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from robomodel._internal import shortest
from robomodel._internal.shortest import FEW, reprs, reprs_by_arrays


def _reference(a: np.ndarray) -> list[str]:
    return [repr(v) for v in np.asarray(a, dtype=np.float64).ravel().tolist()]


def _assert_same(a: np.ndarray) -> None:
    got = reprs_by_arrays(a)
    want = _reference(a)
    bad = [(g, w) for g, w in zip(got, want, strict=True) if g != w]
    assert not bad, bad[:10]


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(finite)
def test_one_number_is_its_repr(x: float) -> None:
    """For every finite float x, the array method's text of [x] is repr(x)."""
    assert reprs_by_arrays(np.array([x])) == [repr(x)]


@given(hnp.arrays(np.float64, st.integers(0, 50), elements=st.floats(width=64)))
def test_arrays_are_their_reprs(a: np.ndarray) -> None:
    """For every float64 array (NaN and infinities included), the texts are the reprs."""
    assert reprs_by_arrays(a) == _reference(a)
    assert reprs(a) == _reference(a)


def test_reprs_switches_by_size() -> None:
    """Below FEW numbers reprs is repr; from FEW on, the array method (same texts)."""
    rng = np.random.default_rng(5)
    for n in (0, 1, FEW - 1, FEW, 3 * FEW):
        a = rng.normal(size=n)
        assert reprs(a) == _reference(a)
    assert reprs([[0.5, 0.25], [1e-7, -3.0]]) == ["0.5", "0.25", "1e-07", "-3.0"]


def _random_bits(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 2**64, size=n, dtype=np.uint64).view(np.float64)


def _robot_like(n: int, seed: int) -> np.ndarray:
    """Numbers like a robot's: rotation entries, rpy angles, lengths and inertias typed with a
    few digits, and 1e-8..1e4 computed values."""
    rng = np.random.default_rng(seed)
    angles = rng.uniform(-math.pi, math.pi, size=(n // 8, 3))
    c, s = np.cos(angles), np.sin(angles)
    rotations = np.stack(  # products of two rotations about x and z
        [c[:, 0] * c[:, 2], -s[:, 0] * c[:, 2], s[:, 2] * c[:, 0] * s[:, 1], c[:, 1] * s[:, 0]]
    ).ravel()
    computed = 10.0 ** rng.uniform(-8, 4, size=n // 4) * rng.choice([-1.0, 1.0], size=n // 4)
    typed = np.array(
        [
            round(v, int(d))
            for v, d in zip(
                computed.tolist(), rng.integers(1, 9, size=n // 4).tolist(), strict=True
            )
        ]
    )
    quotients = rng.integers(1, 100_000, size=n // 8) / 10.0 ** rng.integers(0, 9, size=n // 8)
    return np.concatenate([rotations, angles.ravel(), computed, typed, quotients])


def _boundaries() -> np.ndarray:
    """Powers of ten and two, the notation and range limits, their neighbours and extremes."""
    centres = [
        *(10.0**e for e in range(-12, 24)),
        *(2.0**e for e in range(-60, 70)),
        1e-4, 1e16, 1e-6, 1e17, 2.0**53, 2.0**53 + 2, 9007199254740991.0,
        5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
        0.1, 0.2, 0.3, 0.1 + 0.2, 1 / 3, 2 / 3, math.pi, math.e, 0.0254, 1.5708,
        0.0, 123456789012345.6, 9.999999999999999e-05, 9999999999999998.0,
    ]  # fmt: skip
    c = np.array(centres)
    with np.errstate(over="ignore"):  # the largest double's upper neighbour is inf
        near = [c, np.nextafter(c, np.inf), np.nextafter(c, -np.inf)]
        near += [np.nextafter(near[1], np.inf), np.nextafter(near[2], -np.inf)]
    both = np.concatenate(near)
    return np.concatenate([both, -both, [-0.0, math.inf, -math.inf, math.nan]])


def test_boundaries() -> None:
    """Powers of ten and two, the 1e-4 and 1e16 notation limits, 2**53, subnormals, the
    largest double, -0.0 and the non-finite values, with their neighbours, are the reprs."""
    _assert_same(_boundaries())


def test_random_bit_patterns() -> None:
    """Doubles of random bits (all magnitudes and signs): the reprs."""
    _assert_same(_random_bits(20_000, seed=1))


def test_robot_like_values() -> None:
    """Rotation entries, angles, typed and computed values: the reprs."""
    _assert_same(_robot_like(20_000, seed=2))


def test_short_decimals_and_their_neighbours() -> None:
    """d.dde-k for a grid of digits and exponents, and the doubles either side: the reprs."""
    short = np.array([float(f"{m}e{e}") for m in range(1, 400) for e in range(-9, 19)])
    _assert_same(np.concatenate([short, np.nextafter(short, 0), np.nextafter(short, np.inf)]))


@pytest.mark.slow
def test_a_million_random_bit_patterns() -> None:
    """A million doubles of random bits: the reprs."""
    _assert_same(_random_bits(1_000_000, seed=3))


@pytest.mark.slow
def test_a_million_robot_like_values() -> None:
    """A million robot-like numbers, and the doubles either side of each: the reprs."""
    a = _robot_like(1_000_000, seed=4)
    _assert_same(np.concatenate([a, np.nextafter(a, 0), np.nextafter(a, np.inf)]))


@pytest.mark.parametrize(
    ("x", "why"),
    [
        (2111323203129956.2, "17 digits, x exactly halfway between two (…956.25)"),
        (849290210684858.2, "16 digits, x exactly halfway between two (…858.25)"),
        (1e-7, "below the range"),
        (3e17, "above the range"),
        (37.0, "integral"),
        (0.0, "zero"),
        (math.nan, "not finite"),
    ],
)
def test_fallback_cases_are_written_by_repr(x: float, why: str) -> None:
    """Every case the array method leaves to repr is detected, and the text is repr's."""
    a = np.array([x, 0.1 + 0.2])  # and a number the array method writes
    ax = np.abs(a[:1])
    in_range = bool(ax[0] >= shortest._LOWEST) and bool(ax[0] < shortest._BEYOND)
    if in_range and math.isfinite(x):
        _, _, vouched = shortest._digits(ax)
        assert not (vouched[0] and math.floor(x) != x), why
    assert reprs_by_arrays(a) == [repr(x), "0.30000000000000004"]


def test_ties_exist_and_are_left_to_repr() -> None:
    """Values exactly halfway between two candidates of their length: none is vouched for."""
    ties = np.array([2111323203129956.25, 849290210684858.25])  # exact doubles
    _, _, vouched = shortest._digits(ties)
    assert not vouched.any()
    _assert_same(ties)
