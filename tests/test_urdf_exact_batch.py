"""The URDF writer's batch route to exact numbers gives what the search gives, value by value.

``robomodel.formats.urdf._exact_batch.rpy_numbers_all`` finds the ``rpy`` of many rotations at once
(whole-array roundings, one check per candidate with the loader's arithmetic) and leaves to the
search (``_rpy``) only the rotations where a candidate leaves doubt. These properties check
that it returns, rotation by rotation, the very numbers of the search (so the exporter's text is
unchanged), on Hypothesis-drawn rotations (short decimals as documents write them, any doubles,
pitches at and near the gimbal singularity, tiny angles, rotations no ``rpy`` gives, transposes)
and on every rotation of real robots; and that its pieces agree with their definitions: the
angles with ``rpy_from_rotation``, the roundings with Python's ``round``.
"""

from __future__ import annotations

import math
from typing import Any

import icub_models
import numpy as np
import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st
from strategies import SLOW, decimal_angles, double_angles

import robomodel as rm
from robomodel.data import example_path
from robomodel.formats import urdf
from robomodel.formats.urdf import _exact, _exact_batch
from robomodel.model.joints import FixedJoint
from robomodel.model.spatial import rotation_from_rpy, rpy_from_rotation

tiny_angles = st.builds(
    lambda sign, e: sign * 10.0**e, st.sampled_from([1.0, -1.0]), st.floats(-300.0, -5.0)
)
singular_pitches = st.builds(
    lambda sign, e: sign * (math.pi / 2 - (0.0 if e is None else 10.0**e)),
    st.sampled_from([1.0, -1.0]),
    st.one_of(st.none(), st.floats(-16.0, -6.0)),
)
angles = st.one_of(decimal_angles, double_angles, tiny_angles, st.just(0.0))
pitches = st.one_of(decimal_angles, double_angles, singular_pitches, st.floats(-3.0, 3.0))


def rpy_rotation(rpy: tuple[float, float, float]) -> np.ndarray:
    return rotation_from_rpy(*rpy)


def quaternion_rotation(q: tuple[float, float, float, float]) -> np.ndarray:
    w, x, y, z = np.array(q) / np.linalg.norm(q)
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


rotations = st.one_of(
    st.tuples(angles, pitches, angles).map(rpy_rotation),
    st.tuples(*[st.floats(-1.0, 1.0)] * 4)
    .filter(lambda q: sum(v * v for v in q) > 1e-6)
    .map(quaternion_rotation),
)
# A rotation, or its transpose (the frame of a fake root link is written inverted).
maybe_transposed = st.tuples(rotations, st.booleans()).map(lambda p: p[0].T if p[1] else p[0])


def assert_batch_is_search(Rs: list[np.ndarray]) -> None:
    got = _exact_batch.rpy_numbers_all(np.array(Rs).reshape(-1, 3, 3))
    want = [_exact._rpy(R) for R in Rs]
    assert got == want
    for R, found in zip(Rs, got, strict=True):
        if found is not None:  # and they read back bit for bit (-0.0 and 0.0 alike)
            assert np.array_equal(rotation_from_rpy(*found), R + 0.0)


@settings(max_examples=150)
@given(st.lists(maybe_transposed, min_size=1, max_size=6))
def test_batch_rpy_is_the_searchs(Rs: list[np.ndarray]) -> None:
    assert_batch_is_search(Rs)


def model_rotations(model: rm.Model) -> list[np.ndarray]:
    Rs = [np.asarray(j.link1_H_link2.rotation) for j in model.joints]
    Rs += [np.asarray(f.link_H_frame.rotation) for f in model.frames]
    for shapes in (*model.visuals, *model.collisions):
        Rs += [np.asarray(s.link_H_geometry.rotation) for s in shapes]
    return Rs + [R.T for R in Rs]


FEW = ["iCubGazeboV2_7", "iCubGenova03", "left_hand_mk3"]


@pytest.mark.parametrize("robot", FEW)
def test_batch_rpy_is_the_searchs_on_real_robots(robot: str) -> None:
    assert_batch_is_search(model_rotations(urdf.load(icub_models.get_model_file(robot))))


def test_batch_rpy_is_the_searchs_on_the_bundled_example() -> None:
    assert_batch_is_search(model_rotations(urdf.load(example_path())))


@pytest.mark.slow
@pytest.mark.parametrize("robot", sorted(set(icub_models.get_robot_names()) - set(FEW)))
def test_batch_rpy_is_the_searchs_on_every_icub_model(robot: str) -> None:
    assert_batch_is_search(model_rotations(urdf.load(icub_models.get_model_file(robot))))


@settings(max_examples=100)
@given(st.lists(maybe_transposed, min_size=1, max_size=8), st.booleans())
def test_angles_all_are_rpy_from_rotation(Rs: list[np.ndarray], idyntree: bool) -> None:
    T = np.array(Rs).reshape(-1, 9) + 0.0
    want = [[a + 0.0 for a in rpy_from_rotation(R + 0.0, idyntree=idyntree)] for R in Rs]
    assert _exact_batch._angles_all(T, idyntree=idyntree) == want


@settings(max_examples=100)
@given(
    st.lists(
        st.tuples(st.tuples(angles, pitches, angles), st.integers(0, 26), st.integers(1, 17)),
        min_size=1,
        max_size=8,
    )
)
def test_gives_rows_is_gives(cases: list[Any]) -> None:
    """The pitch-first check of one candidate per rotation is ``_gives``, candidate by candidate.

    Candidates that read back (the angles themselves) and that nearly do (a neighbour, a
    rounding).
    """
    Rs, C = [], []
    for rpy, step, places in cases:
        R = rotation_from_rpy(*rpy) + 0.0
        moved = [
            math.nextafter(v, math.inf if s == 2 else -math.inf) if s else v
            for v, s in zip(rpy, _exact_batch._NEIGHBOURS[step].tolist(), strict=True)
        ]
        for c in (list(rpy), moved, [round(v, places) for v in rpy]):
            Rs.append(R)
            C.append([v + 0.0 for v in c])
    T = np.array(Rs).reshape(-1, 9)
    want = [_exact._gives(*c, t) for c, t in zip(C, T.tolist(), strict=True)]
    assert _exact_batch._gives_rows(np.array(C), T).tolist() == want


def decimals(v: float) -> int:
    """The decimal places of ``repr(v)`` (the search's ``stable``)."""
    return _exact._first_places(v, math.inf, -(10**6))[1]


numbers = st.one_of(
    st.floats(-4.0, 4.0),
    decimal_angles,
    st.builds(
        lambda d, p: round(d * 10.0**-p, p), st.integers(-(10**9), 10**9), st.integers(0, 12)
    ),
    st.builds(lambda k: 2.0**k, st.integers(-60, 2)),  # powers of two (repr inexact below 2**-24)
    st.just(0.0),
)


@settings(max_examples=300)
@given(st.tuples(numbers, numbers, numbers))
def test_examined_roundings_are_pythons_round(xs: tuple[float, float, float]) -> None:
    """Every place the batch examines holds ``round(x, places)`` where it is sure, and the
    places it skips are ones the search does not examine, whose rounding lies beyond the
    radius (checked in rationals by the distance, here in floats with a wide margin) or
    repeats the last examined one (the search skips it too)."""
    X = np.array([xs])
    top = float(np.abs(X).max())
    if top == 0.0:
        return
    # A number near underflow never reaches the sieve with a radius: the batch leaves its
    # value to the search, whose radius is then None (the pinning does not bound it there,
    # and this test's radius of 16 ulps is not the search's).
    assume(not any(0.0 < abs(v) < _exact._TINY for v in xs))
    lowest = _exact_batch._lowest(top)
    radius = _exact._RADIUS_ULPS * np.spacing(np.abs(X))
    rows, places, C, unsure = _exact_batch._examined(X, X, radius, np.array([lowest]))
    assert rows.tolist() == [0] * len(rows)
    assert places.tolist() == sorted(set(places.tolist()))
    examined = dict(
        zip(places.tolist(), zip(C.tolist(), unsure.tolist(), strict=True), strict=True)
    )
    stable = max(decimals(v) for v in xs)
    last = None
    for k in range(17):
        p = lowest + k
        want = [v + 0.0 if p >= decimals(v) else round(v, p) + 0.0 for v in xs]
        in_search = p < stable
        if k in examined:
            got, doubt = examined[k]
            if not doubt:  # (an unsure place is made again by round, and dropped if no move)
                assert in_search, p
                assert got == want, p
                last = got
            continue
        near = all(abs(w - v) <= r for w, v, r in zip(want, xs, radius[0].tolist(), strict=True))
        if in_search and near:
            assert want == last, p


@settings(max_examples=300)
@given(st.lists(st.tuples(numbers, numbers, numbers), min_size=1, max_size=40))
def test_examined_in_chunks_is_examined_at_once(rows: list[tuple[float, float, float]]) -> None:
    """The sieve takes its rows in chunks (its arrays below the allocator's mmap threshold):
    the examined places of many rows are those of each row alone."""
    X = np.array(rows)
    top = np.abs(X).max(axis=1)
    X, top = X[top != 0.0], top[top != 0.0]
    radius = _exact._RADIUS_ULPS * np.spacing(np.abs(X))
    lowest = _exact_batch._lowest_all(top)
    chunk = _exact_batch._CHUNK
    _exact_batch._CHUNK = 17 * 3 * 3  # three rows a chunk
    try:
        got = _exact_batch._examined(X, X, radius, lowest)
    finally:
        _exact_batch._CHUNK = chunk
    for r in range(len(X)):
        alone = _exact_batch._examined(
            X[r : r + 1], X[r : r + 1], radius[r : r + 1], lowest[r : r + 1]
        )
        at = got[0] == r
        assert got[1][at].tolist() == alone[1].tolist()
        np.testing.assert_array_equal(got[2][at], alone[2])  # (nan past 10**308 alike)
        assert got[3][at].tolist() == alone[3].tolist()


finite = st.floats(allow_nan=False, allow_infinity=False).filter(lambda v: v != 0.0)


@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(
            st.floats(min_value=5e-324, allow_infinity=False),
            st.builds(lambda k: 10.0**k, st.integers(-323, 308)),  # powers of ten and beside
            st.builds(
                lambda k, s: math.nextafter(10.0**k, s),
                st.integers(-300, 300),
                st.sampled_from([0.0, math.inf]),
            ),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_lowest_all_is_the_searchs(tops: list[float]) -> None:
    """The batch's first places, from numpy's log10 (math's near a power of ten)."""
    got = _exact_batch._lowest_all(np.array(tops)).tolist()
    assert got == [_exact_batch._lowest(t) for t in tops]


powers_of_two = st.builds(math.ldexp, st.sampled_from([1.0, -1.0]), st.integers(-1074, 1023))


@settings(max_examples=500)
@given(st.one_of(finite, numbers, powers_of_two), st.integers(-1, 17))
def test_search_rounding_is_the_searchs(v: float, k: int) -> None:
    """The batch's rounding of an unsure place is the search's: the number itself from its
    ``repr``'s decimals on, else ``round`` (``round`` alone, except at powers of two)."""
    assume(v != 0.0)
    places = _exact_batch._lowest(abs(v)) + k
    try:
        want = v + 0.0 if places >= decimals(v) else round(v, places) + 0.0
    except OverflowError:
        reject()
    assert _exact_batch._search_rounding([v], places) == [want]


@pytest.mark.slow
@SLOW
@given(st.lists(maybe_transposed, min_size=1, max_size=6))
def test_batch_rpy_slow(Rs: list[np.ndarray]) -> None:
    """The batch property above, with more examples."""
    assert_batch_is_search(Rs)


masses = st.one_of(
    st.builds(lambda d, p: round(d * 10.0**-p, p), st.integers(1, 10**6), st.integers(0, 6)),
    st.floats(1e-3, 1e3),
    st.just(0.0),
)
coords = st.one_of(
    st.builds(lambda d, p: round(d * 10.0**-p, p), st.integers(-(10**6), 10**6), st.integers(0, 7)),
    st.floats(-2.0, 2.0),
    st.just(0.0),
    st.floats(1e-40, 1e-20),
    st.floats(20.0, 2e3),
)
inertias = st.builds(
    lambda mass, com, moments, off: rm.SpatialInertia.from_com(
        mass, com if mass else (0.0, 0.0, 0.0), np.diag(np.abs(moments)) + 0.01 + off
    ),
    masses,
    st.tuples(coords, coords, coords),
    st.tuples(coords, coords, coords),
    st.sampled_from([0.0, 1e-3]),
)


@settings(max_examples=100)
@given(st.lists(inertias, min_size=1, max_size=5))
def test_batch_inertials_are_the_searchs(items: list[rm.SpatialInertia]) -> None:
    assert _exact_batch.inertial_numbers_all(items) == [_exact._search_inertial(i) for i in items]


@pytest.mark.parametrize("robot", FEW)
def test_batch_inertials_are_the_searchs_on_real_robots(robot: str) -> None:
    items = [link.inertia for link in urdf.load(icub_models.get_model_file(robot)).links]
    assert _exact_batch.inertial_numbers_all(items) == [_exact._search_inertial(i) for i in items]


def test_export_memo_holds_the_searchs_numbers() -> None:
    """What the writer finds in the memo is what the search gives for the same value."""
    model = urdf.load(icub_models.get_model_file("iCubGazeboV2_7"))
    memo = _exact_batch.export_memo(model)
    for j in model.joints:
        R = np.asarray(j.link1_H_link2.rotation) + 0.0
        assert memo[b"r" + R.tobytes()] == _exact._rpy(R)
        if not isinstance(j, FixedJoint):
            key = b"a" + j.link1_H_link2.rotation.tobytes() + j.axis_in_link1.direction.tobytes()
            assert memo[key] == _exact._search_axis(j.link1_H_link2, j.axis_in_link1.direction)
    for link in model.links:
        assert memo[_exact._inertia_key(link.inertia)] == _exact._search_inertial(link.inertia)


def axis_case(rpy: tuple[float, float, float], xyz: tuple[float, float, float]) -> tuple[Any, Any]:
    """A joint's rest transform and its axis direction in link1, as the loader builds them."""
    rest = rm.Transform.from_rpy_xyz(rpy, (0.0, 0.0, 0.0))
    axis = rest @ rm.Axis(xyz)
    return rest, axis.direction


axis_numbers = st.one_of(
    coords, st.sampled_from([0.0, 1.0, -1.0, 0.7071068, 0.965926, 0.258819, 1e-17])
)
axis_cases = st.builds(
    axis_case,
    st.tuples(angles, pitches, angles),
    st.tuples(axis_numbers, axis_numbers, axis_numbers).filter(
        lambda v: sum(x * x for x in v) > 1e-6
    ),
)


@settings(max_examples=100)
@given(st.lists(axis_cases, min_size=1, max_size=5))
def test_batch_axes_are_the_searchs(cases: list[tuple[Any, Any]]) -> None:
    rests, directions = [c[0] for c in cases], [c[1] for c in cases]
    got = _exact_batch.axis_numbers_all(rests, directions)
    assert got == [_exact._search_axis(r, d) for r, d in cases]


def hair_off(unit: int, sign: float, hairs: tuple[float | None, ...]) -> tuple[float, ...]:
    """A coordinate axis with components of 1e-17..1e-12 (or 0) beside it."""
    return tuple(
        sign if k == unit else (0.0 if e is None else 10.0**e) for k, e in enumerate(hairs)
    )


hair_off_cases = st.builds(
    axis_case,
    st.tuples(double_angles, double_angles, double_angles),
    st.builds(
        hair_off,
        st.integers(0, 2),
        st.sampled_from([1.0, -1.0]),
        st.tuples(*[st.one_of(st.none(), st.floats(-17.0, -12.0))] * 3),
    ),
)


@settings(max_examples=60)
@given(st.lists(hair_off_cases, min_size=2, max_size=6))
def test_batch_axes_refined_together_are_the_searchs(cases: list[tuple[Any, Any]]) -> None:
    """Axes a hair off a coordinate axis: most go through the exact refinement (rounded
    numbers and their neighbours miss), which the batch makes for several axes at once."""
    rests, directions = [c[0] for c in cases], [c[1] for c in cases]
    got = _exact_batch.axis_numbers_all(rests, directions)
    assert got == [_exact._search_axis(r, d) for r, d in cases]


@pytest.mark.parametrize("robot", FEW)
def test_batch_axes_are_the_searchs_on_real_robots(robot: str) -> None:
    model = urdf.load(icub_models.get_model_file(robot))
    joints = [j for j in model.joints if not isinstance(j, FixedJoint)]
    rests = [j.link1_H_link2 for j in joints]
    directions = [j.axis_in_link1.direction for j in joints]
    want = [_exact._search_axis(r, d) for r, d in zip(rests, directions, strict=True)]
    assert _exact_batch.axis_numbers_all(rests, directions) == want


@given(
    st.integers(0, 5),
    st.integers(0, 4),
    st.integers(1, 4),
    st.lists(st.one_of(finite, st.just(0.0), st.just(-0.0), st.just(math.nan)), min_size=1),
)
def test_column_reductions_are_numpys(n: int, p: int, k: int, pool: list[float]) -> None:
    """The sieve's reductions over a short last axis (``|``, ``&``, ``maximum`` of its
    columns) give numpy's ``any``, ``all`` and ``max`` over that axis, nan and -0.0 included."""
    for shape in ((n, k), (n, p, k)):
        size = math.prod(shape)
        A = np.resize(np.array(pool), size).reshape(shape)
        b = A > 0.0
        assert np.array_equal(_exact_batch._any_column(b), b.any(axis=-1))
        assert np.array_equal(_exact_batch._all_column(b), b.all(axis=-1))
        got, want = _exact_batch._max_column(np.abs(A)), np.abs(A).max(axis=-1)
        assert got.tobytes() == want.tobytes()
