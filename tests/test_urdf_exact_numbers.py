"""The URDF writer's exact numbers: found without search, and the same as a full search finds.

``robomodel.formats.urdf._exact`` writes numbers that read back bit for bit, with the fewest
decimals. It skips the decimal places whose rounding cannot read back (a number pinned within
a few ulps cannot move further) without computing them; these properties check, on rotations
read from decimal texts, from random doubles and at the gimbal singularity, and on inertias,
that skipping never changes the answer (the full search, every place examined, finds the same
numbers), and that the numbers read back bit for bit.
"""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SLOW, decimal_angles, double_angles

import robomodel as rm
from robomodel.formats.urdf import _exact
from robomodel.formats.urdf._inertial import inertial_values
from robomodel.formats.urdf._origin import origin_transform
from robomodel.formats.urdf.numbers import format_float

# Angles as a document writes them (decimal_angles), any double (double_angles), or
# within 1e-16..1e-6 of +-pi/2, or beyond it (a pitch of 2 is another branch).
singular_pitches = st.builds(
    lambda sign, e: sign * (math.pi / 2 - (0.0 if e is None else 10.0**e)),
    st.sampled_from([1.0, -1.0]),
    st.one_of(st.none(), st.floats(-16.0, -6.0)),
)
any_angle = st.one_of(decimal_angles, double_angles)
pitches = st.one_of(decimal_angles, double_angles, singular_pitches, st.floats(-3.0, 3.0))


def loader_rotation(rpy: tuple[float, float, float]) -> np.ndarray:
    return np.asarray(origin_transform((0.0, 0.0, 0.0), rpy).rotation)


def digits(values: list[float]) -> int:
    return sum(len(format_float(v).lstrip("-").replace(".", "")) for v in values)


@settings(max_examples=200)
@given(any_angle, pitches, any_angle)
def test_rpy_numbers_read_back_and_are_the_full_searchs(
    roll: float, pitch: float, yaw: float
) -> None:
    """For the rotation the loader reads from ``rpy``: the numbers written give it bit for bit
    and are what the search examining every decimal place finds (the exact angles rounded to
    the fewest common decimal places that still give the rotation)."""
    R = loader_rotation((roll, pitch, yaw))
    found = _exact._rpy(R)
    if found is None:  # only where entries underflow (the writer then states R exactly)
        assert 0.0 < np.abs(R[R != 0.0]).min() < 1e-250
        return
    # Bit for bit, -0.0 and 0.0 alike (equal values give equal text, so they are not told apart).
    assert np.array_equal(loader_rotation((found[0], found[1], found[2])), R)
    with mock.patch.object(_exact, "_TINY", math.inf):  # every place examined
        assert _exact._rpy(R) == found


@settings(max_examples=200)
@given(st.tuples(*[st.floats(-1.0, 1.0)] * 4).filter(lambda q: sum(v * v for v in q) > 1e-6))
def test_rpy_numbers_of_rotations_no_rpy_gives(q: tuple[float, float, float, float]) -> None:
    """A rotation from a quaternion (which no rpy of doubles may give): either numbers that
    read back bit for bit, the full search's, or none, as the full search finds none."""
    w, x, y, z = np.array(q) / np.linalg.norm(q)
    R = rm.Transform(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    ).rotation
    found = _exact._rpy(R)
    if found is not None:
        assert np.array_equal(loader_rotation((found[0], found[1], found[2])), R)
    with mock.patch.object(_exact, "_TINY", math.inf):
        assert _exact._rpy(R) == found


masses = st.one_of(
    st.builds(lambda d, p: round(d * 10.0**-p, p), st.integers(1, 10**6), st.integers(0, 6)),
    st.floats(1e-3, 1e3),
)
coords = st.one_of(
    st.builds(lambda d, p: round(d * 10.0**-p, p), st.integers(-(10**6), 10**6), st.integers(0, 7)),
    st.floats(-2.0, 2.0),
)


@settings(max_examples=120)
@given(masses, st.tuples(coords, coords, coords), st.tuples(*[coords] * 3))
def test_inertial_numbers_read_back_and_are_the_full_searchs(
    mass: float, com: tuple[float, float, float], moments: tuple[float, float, float]
) -> None:
    """The ``<inertial>`` numbers of an inertia read from decimals: the same as the search
    examining every decimal place finds; where exact, they give the inertia bit for bit through
    the loader's formula."""
    I_C = np.diag(np.abs(moments)) + 0.01
    inertia = rm.SpatialInertia.from_com(mass, com, I_C)
    found = _exact._search_inertial(inertia)
    with mock.patch.object(_exact, "_radius", lambda bound, a, b, c: None):
        assert _exact._search_inertial(inertia) == found
    m, xyz, six, exact = found
    if exact:
        (back,) = inertial_values([(m, six)], [xyz], [(0.0, 0.0, 0.0)])
        assert back == inertia


@settings(max_examples=200)
@given(st.one_of(coords, masses, st.floats(-1e6, 1e6)), st.one_of(masses, coords), st.booleans())
def test_one_number_search_is_the_search_of_a_list_of_one(
    x: float, y: float, product: bool
) -> None:
    """``_shortest1`` (one number, as the inertia's numbers are searched) finds what
    ``_shortest`` of a one-number list finds, with a radius and without."""
    if product and y != 0.0:
        h = y * x

        def ok(c: float) -> bool:
            return y * c == h

        x0 = h / y
        radius = _exact._radius(math.ulp(h) / abs(y) + math.ulp(x0), y, h, x0)
    else:
        target = x - y

        def ok(c: float) -> bool:
            return c - y == target

        x0 = target + y
        radius = _exact._radius(math.ulp(target) + math.ulp(x0), y, target, x0)
    for r in (radius, None):
        listed = _exact._shortest([x0], lambda c: ok(c[0]), None if r is None else [r])
        assert _exact._shortest1(x0, ok, r) == (None if listed is None else listed[0])


@pytest.mark.slow
@SLOW
@given(any_angle, pitches, any_angle)
def test_rpy_numbers_slow(roll: float, pitch: float, yaw: float) -> None:
    """The rpy property above, with more examples."""
    test_rpy_numbers_read_back_and_are_the_full_searchs.hypothesis.inner_test(  # type: ignore[attr-defined]
        roll, pitch, yaw
    )


@pytest.mark.slow
@SLOW
@given(masses, st.tuples(coords, coords, coords), st.tuples(*[coords] * 3))
def test_inertial_numbers_slow(
    mass: float, com: tuple[float, float, float], moments: tuple[float, float, float]
) -> None:
    """The inertia property above, with more examples."""
    test_inertial_numbers_read_back_and_are_the_full_searchs.hypothesis.inner_test(  # type: ignore[attr-defined]
        mass, com, moments
    )


def plain_inverse_numbers(T: rm.Transform) -> list[float] | None:
    """The inverse position search candidate by candidate, one numpy check each (the plain
    route that ``origin_numbers(T, invert=True)`` checks in stacked products)."""
    Rt = np.asarray(T.rotation)
    target = T.position.tolist()
    x0 = (-(Rt.T @ np.asarray(T.position))).tolist()

    def ok(c: list[float]) -> bool:
        return bool((-(Rt @ np.array(c))).tolist() == target)

    found = _exact._shortest(x0, ok)
    return found if found is not None else _exact._refined(Rt, -T.position, ok)


@settings(max_examples=200)
@given(any_angle, pitches, any_angle, st.tuples(coords, coords, coords), st.booleans())
def test_inverse_position_numbers_are_the_plain_searchs(
    roll: float, pitch: float, yaw: float, xyz: tuple[float, float, float], read: bool
) -> None:
    """The ``xyz`` of a fake root's inverted origin: what the candidate-by-candidate search
    finds, and where found, read back (inverted by the loader) to the position bit for bit.
    ``read``: the frame as the loader inverts an origin read (which often has exact numbers),
    else a transform built from the numbers (which often has none)."""
    T = origin_transform(xyz, (roll, pitch, yaw), inverted=read)
    found, _ = _exact.origin_numbers(T, invert=True)
    assert found == plain_inverse_numbers(T)
    if found is not None:
        assert (-(np.asarray(T.rotation) @ np.array(found))).tolist() == T.position.tolist()


def test_stacked_products_are_the_single_ones() -> None:
    """``R @ C[:, :, None]`` (the inverse search's one check of all candidates) gives, vector
    by vector, the very doubles of ``R @ c``, for rotations and general matrices, over vectors
    of mixed magnitudes."""
    rng = np.random.default_rng(32)
    for k in range(400):
        q = rng.normal(size=4)
        T = rm.Transform.from_rpy_xyz(tuple(rng.uniform(-3.0, 3.0, 3)), (0.0, 0.0, 0.0))
        R = np.asarray(T.rotation) if k % 2 else rng.normal(size=(3, 3)) * 10.0 ** q[0]
        C = rng.normal(size=(30, 3)) * 10.0 ** rng.integers(-8, 3, size=(30, 3))
        stacked = -(R @ C[:, :, None])[:, :, 0]
        for c, s in zip(C.tolist(), stacked.tolist(), strict=True):
            assert (-(R @ np.array(c))).tolist() == s
