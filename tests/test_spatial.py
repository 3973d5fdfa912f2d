"""Properties of the spatial algebra: transforms, RPY, adjoints, axes and spatial inertias."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import SLOW, angles, inertias, transforms, unit_vectors

import robomodel as rm
from robomodel.model.spatial import (
    rotation_from_rpy,
    rpy_from_rotation,
    skew,
    twist_adjoint,
    wrench_adjoint,
)

ATOL = 1e-9
points = st.lists(st.floats(-5, 5), min_size=3, max_size=3).map(np.array)


def close(a: object, b: object, atol: float = ATOL) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=0.0, atol=atol))


def same_transform(A: rm.Transform, B: rm.Transform, atol: float = ATOL) -> bool:
    return close(A.rotation, B.rotation, atol) and close(A.position, B.position, atol)


# ---------------------------------------------------------------------------- transforms


@given(transforms(), transforms(), transforms())
def test_composition_is_associative(A: rm.Transform, B: rm.Transform, C: rm.Transform) -> None:
    """(A @ B) @ C == A @ (B @ C) for all transforms."""
    assert same_transform((A @ B) @ C, A @ (B @ C))


@given(transforms())
def test_identity_and_inverse(A: rm.Transform) -> None:
    """The identity is neutral on both sides and A @ A^-1 == A^-1 @ A == identity."""
    identity = rm.Transform.identity()
    assert A @ identity == A
    assert identity @ A == A
    assert (A @ A.inverse()).is_identity(1e-12)
    assert (A.inverse() @ A).is_identity(1e-12)
    assert same_transform(A.inverse().inverse(), A, 1e-12)


@given(transforms(), transforms())
def test_inverse_of_product(A: rm.Transform, B: rm.Transform) -> None:
    """(A @ B)^-1 == B^-1 @ A^-1."""
    assert same_transform((A @ B).inverse(), B.inverse() @ A.inverse())


@given(transforms(), transforms(), points)
def test_transform_matches_homogeneous_matrix(
    A: rm.Transform, B: rm.Transform, x: np.ndarray
) -> None:
    """as_matrix is a group homomorphism and maps points like the transform does."""
    assert close((A @ B).as_matrix(), A.as_matrix() @ B.as_matrix())
    assert close(A.inverse().as_matrix(), np.linalg.inv(A.as_matrix()))
    assert close(A @ x, (A.as_matrix() @ np.append(x, 1.0))[:3])
    assert rm.Transform.from_matrix(A.as_matrix()) == A
    batch = np.stack([x, 2 * x, -x])
    assert close(A @ batch, np.stack([A @ x, A @ (2 * x), A @ (-x)]))


@given(transforms())
def test_transform_arrays_are_read_only(A: rm.Transform) -> None:
    """Arrays handed out by a Transform cannot be written; as_matrix returns a fresh array."""
    with pytest.raises(ValueError):
        A.rotation[0, 0] = 2.0
    with pytest.raises(ValueError):
        A.position[0] = 2.0
    H = A.as_matrix()
    H[0, 3] += 1.0  # a writable copy: the transform is unchanged
    assert H[0, 3] != A.position[0]


def test_transform_constructor_copies_its_input() -> None:
    """A Transform keeps a private copy: changing the caller's array later changes nothing."""
    p = np.array([1.0, 2.0, 3.0])
    T = rm.Transform(np.eye(3), p)
    p[0] = 100.0
    assert T.position.tolist() == [1.0, 2.0, 3.0]


def _stored_arrays(T: rm.Transform, m: rm.SpatialInertia, axis: rm.Axis) -> list[np.ndarray]:
    """Every array stored in values made by each way robomodel makes them."""
    made = [
        T,
        T @ T,
        T.inverse(),
        pickle.loads(pickle.dumps(T)),
        rm.Transform.identity(),
        rm.Transform(),
        *rm.Transform._raw_many(np.stack([T.rotation] * 2), np.zeros((2, 3))),
        axis.rotation(0.3),
        axis.translation(0.3),
    ]
    arrays = [a for X in made for a in (X.rotation, X.position)]
    for inertia in (m, T @ m, m + m, rm.SpatialInertia.zero(), rm.SpatialInertia()):
        arrays += [inertia.first_moment, inertia.rotational_inertia]
    for ax in (axis, axis.reversed(), T @ axis, pickle.loads(pickle.dumps(axis))):
        arrays += [ax.direction, ax.origin]
    return arrays


@given(transforms(), inertias(), st.builds(rm.Axis, unit_vectors()))
def test_stored_arrays_can_never_be_made_writable(
    T: rm.Transform, m: rm.SpatialInertia, axis: rm.Axis
) -> None:
    """No array inside a value (nor the array it is a view of) can be made writable again, so
    shared values such as ``Transform.identity()`` cannot be corrupted through ``setflags``."""
    for arr in _stored_arrays(T, m, axis):
        assert arr.dtype == np.float64 and not arr.flags.writeable
        for x in (arr, arr.base):
            if isinstance(x, np.ndarray):
                with pytest.raises(ValueError, match="WRITEABLE"):
                    x.setflags(write=True)
    assert rm.Transform.identity().is_identity(0.0)
    assert rm.SpatialInertia.zero() == rm.SpatialInertia()


def test_transform_rejects_bad_shapes_and_nan() -> None:
    with pytest.raises(ValueError, match="shape"):
        rm.Transform(np.eye(3), [1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        rm.Transform(np.eye(3), [1.0, math.nan, 0.0])
    with pytest.raises(ValueError, match="points"):
        rm.Transform.identity() @ np.zeros(4)


def test_defaults_are_identity_and_zero() -> None:
    """Spec §0 DEVIATE: default transform is the identity, default inertia is zero."""
    assert rm.Transform() == rm.Transform.identity()
    assert rm.Transform().is_identity(0.0)
    assert rm.SpatialInertia().as_vector().tolist() == [0.0] * 10
    assert rm.Link().inertia == rm.SpatialInertia.zero()


@given(transforms())
def test_value_semantics_of_transform(A: rm.Transform) -> None:
    """Equal transforms hash alike and survive pickling; repr names the class."""
    B = rm.Transform(A.rotation.copy(), A.position.copy())
    assert A == B and hash(A) == hash(B)
    assert pickle.loads(pickle.dumps(A)) == A
    assert "Transform" in repr(A)


# ---------------------------------------------------------------------------- RPY


def test_rpy_composition_order() -> None:
    """URDF rpy means Rz(yaw) @ Ry(pitch) @ Rx(roll) (spec §0)."""

    def Rx(a: float) -> np.ndarray:
        c, s = math.cos(a), math.sin(a)
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])

    def Ry(a: float) -> np.ndarray:
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])

    def Rz(a: float) -> np.ndarray:
        c, s = math.cos(a), math.sin(a)
        return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])

    r, p, y = 0.3, -0.7, 1.9
    assert close(rotation_from_rpy(r, p, y), Rz(y) @ Ry(p) @ Rx(r), 1e-15)


@given(angles, st.floats(-1.5, 1.5), angles)
def test_rpy_round_trip_away_from_gimbal_lock(roll: float, pitch: float, yaw: float) -> None:
    """Away from pitch = ±π/2, rpy(rotation(r, p, y)) gives back rotation(r, p, y).

    The angles themselves come back modulo 2π (roll and yaw at ±π are the same rotation).
    """
    R = rotation_from_rpy(roll, pitch, yaw)
    r2, p2, y2 = rpy_from_rotation(R)
    assert abs(p2 - pitch) < 1e-9
    assert close(rotation_from_rpy(r2, p2, y2), R)
    wrap = lambda a: (a + math.pi) % (2 * math.pi) - math.pi  # noqa: E731
    assert abs(wrap(r2 - roll)) < 1e-9 or abs(abs(wrap(r2 - roll)) - 2 * math.pi) < 1e-9
    assert abs(wrap(y2 - yaw)) < 1e-9 or abs(abs(wrap(y2 - yaw)) - 2 * math.pi) < 1e-9


def test_rpy_of_identity_has_negative_zero_pitch() -> None:
    """Spec §0: asRPY of the identity gives pitch = asin(-0.0) = -0.0 (URDF ``rpy="0 -0 0"``)."""
    r, p, y = rpy_from_rotation(np.eye(3))
    assert (r, p, y) == (0.0, 0.0, 0.0)
    assert math.copysign(1.0, p) == -1.0
    assert math.copysign(1.0, r) == 1.0 and math.copysign(1.0, y) == 1.0


@given(angles, angles)
def test_rpy_gimbal_cases_follow_the_spec_exactly(roll: float, yaw: float) -> None:
    """At R20 <= -1 and R20 >= 1 the rule of spec §0 applies bit for bit.

    R20 <= -1: (0, +π/2, -atan2(-R12, R11)); R20 >= 1: (0, -π/2, atan2(-R12, R11)).
    """
    for pitch, sign in ((math.pi / 2, -1.0), (-math.pi / 2, 1.0)):
        R = rotation_from_rpy(roll, pitch, yaw)
        # Force the singular branch exactly, as a matrix read from a file would give it.
        R[2, 0] = sign
        expected_yaw = math.atan2(-R[1, 2], R[1, 1])
        if sign < 0:
            assert rpy_from_rotation(R) == (0.0, math.pi / 2, -expected_yaw)
        else:
            assert rpy_from_rotation(R) == (0.0, -math.pi / 2, expected_yaw)
        # The angles describe the same rotation (roll folded into yaw).
        assert close(rotation_from_rpy(*rpy_from_rotation(R))[:, 1:], R[:, 1:], 1e-9)


def test_rpy_gimbal_fixed_vector() -> None:
    """Pitch +π/2 with roll 0.4, yaw 0.1: roll and yaw fold into yaw = 0.1 - 0.4 (spec §0 rule)."""
    R = rotation_from_rpy(0.4, math.pi / 2, 0.1)
    R[2, 0] = -1.0
    r, p, y = rpy_from_rotation(R)
    assert (r, p) == (0.0, math.pi / 2)
    assert abs(y - (0.1 - 0.4)) < 1e-12


# ---------------------------------------------------------------------------- adjoints


@given(transforms(), st.lists(st.floats(-5, 5), min_size=6, max_size=6).map(np.array))
def test_wrench_and_twist_adjoints(A: rm.Transform, w: np.ndarray) -> None:
    """The 6x6 adjoints act like apply_wrench/apply_twist and match spec §0's block form."""
    X_star = wrench_adjoint(A)
    X = twist_adjoint(A)
    assert close(X_star @ w, A.apply_wrench(w))
    assert close(X @ w, A.apply_twist(w))
    R, p = A.rotation, A.position
    assert close(X_star[3:, :3], skew(p) @ R, 1e-12)
    # Power is frame independent: (X* f) . (X v) == f . v
    v = w[::-1].copy()
    assert abs(float((X_star @ w) @ (X @ v)) - float(w @ v)) < 1e-8
    # X* = X^-T
    assert close(X_star, np.linalg.inv(X).T)


@given(transforms(), transforms())
def test_adjoints_compose(A: rm.Transform, B: rm.Transform) -> None:
    """Adjoints are homomorphisms: Ad(A @ B) == Ad(A) @ Ad(B)."""
    assert close(wrench_adjoint(A @ B), wrench_adjoint(A) @ wrench_adjoint(B))
    assert close(twist_adjoint(A @ B), twist_adjoint(A) @ twist_adjoint(B))


@given(points, points)
def test_skew_is_cross_product(a: np.ndarray, b: np.ndarray) -> None:
    """skew(a) @ b == a x b."""
    assert close(skew(a) @ b, np.cross(a, b))


# ---------------------------------------------------------------------------- axes


@given(unit_vectors(), points, st.floats(-3, 3), points)
def test_axis_rotation_fixes_the_line(
    u: np.ndarray, o: np.ndarray, angle: float, x: np.ndarray
) -> None:
    """A rotation about an axis fixes every point of the line and preserves distances to it."""
    axis = rm.Axis(u, o)
    T = axis.rotation(angle)
    on_line = o + 0.7 * axis.direction
    assert close(T @ on_line, on_line)
    assert abs(axis.distance(T @ x) - axis.distance(x)) < 1e-9
    assert same_transform(axis.rotation(angle) @ axis.rotation(-angle), rm.Transform())
    assert close(axis.translation(angle).position, axis.direction * angle)


@given(unit_vectors(), points, transforms(), points)
def test_axis_transform_and_reverse(
    u: np.ndarray, o: np.ndarray, A: rm.Transform, x: np.ndarray
) -> None:
    """A @ axis maps direction and origin; rotating in B equals conjugating in A (spec §0)."""
    axis = rm.Axis(u, o)
    moved = A @ axis
    assert close(moved.direction, A.rotation @ axis.direction)
    assert close(moved.origin, A @ axis.origin)
    assert same_transform(moved.rotation(0.3), A @ axis.rotation(0.3) @ A.inverse())
    rev = axis.reversed()
    assert close(rev.direction, -axis.direction) and close(rev.origin, axis.origin)
    c = axis.closest_point(x)
    assert abs(float((x - c) @ axis.direction)) < 1e-9


def test_axis_normalises_and_rejects_zero() -> None:
    assert close(rm.Axis((0, 0, 2)).direction, [0, 0, 1], 0.0)
    with pytest.raises(ValueError, match="non-zero"):
        rm.Axis((0, 0, 0))


# ---------------------------------------------------------------------------- inertia


def test_T3_as_vector_takes_inertia_about_origin() -> None:
    """Spec §11 T3: SpatialInertia(1, c=(0.1,0.2,0.3), I=0) -> [1, .1, .2, .3, 0...].

    The constructor's I is about the frame origin, and entries 1-3 are the first moment m*c.
    """
    inertia = rm.SpatialInertia.from_origin(1.0, (0.1, 0.2, 0.3), np.zeros((3, 3)))
    assert inertia.as_vector().tolist() == [1.0, 0.1, 0.2, 0.3, 0, 0, 0, 0, 0, 0]
    heavy = rm.SpatialInertia.from_origin(2.0, (0.1, 0.2, 0.3), np.zeros((3, 3)))
    assert close(heavy.as_vector()[1:4], [0.2, 0.4, 0.6], 1e-15)


@given(st.lists(st.floats(-10, 10), min_size=10, max_size=10).map(np.array))
def test_inertia_vector_round_trip(v: np.ndarray) -> None:
    """from_vector(v).as_vector() == v exactly, for any 10 numbers (no consistency check)."""
    assert rm.SpatialInertia.from_vector(v).as_vector().tolist() == v.tolist()


@given(inertias())
def test_inertia_vector_round_trip_from_value(inertia: rm.SpatialInertia) -> None:
    """from_vector(I.as_vector()) == I."""
    assert rm.SpatialInertia.from_vector(inertia.as_vector()) == inertia


@given(inertias(allow_zero=False))
def test_parallel_axis_consistency(inertia: rm.SpatialInertia) -> None:
    """from_com(m, c, I_C) and from_origin(m, c, I_O) agree through the parallel-axis theorem.

    I_O = I_C + m (|c|^2 I - c c^T); com and inertia_com read back what was given.
    """
    m, c, I_C = inertia.mass, inertia.com, inertia.inertia_com
    I_O = I_C + m * (float(c @ c) * np.eye(3) - np.outer(c, c))
    assert close(inertia.rotational_inertia, I_O)
    again = rm.SpatialInertia.from_origin(m, c, I_O)
    assert close(again.as_vector(), inertia.as_vector())
    assert close(rm.SpatialInertia.from_com(m, c, I_C).inertia_com, I_C)
    assert inertia.is_physically_consistent()


@given(inertias(allow_zero=False), transforms())
def test_inertia_transform_matches_matrix_and_adjoints(
    inertia: rm.SpatialInertia, A: rm.Transform
) -> None:
    """(A @ I).as_matrix() == X* M X^-1 with X*, X the wrench and twist adjoints of A.

    Mass is kept and the COM moves as a point (spec §4.3).
    """
    M_A = (A @ inertia).as_matrix()
    X_star = wrench_adjoint(A)
    X_inv = twist_adjoint(A.inverse())
    assert close(M_A, X_star @ inertia.as_matrix() @ X_inv, 1e-8)
    moved = A @ inertia
    assert moved.mass == inertia.mass
    assert close(moved.com, A @ inertia.com)
    assert moved.is_physically_consistent()
    assert close((A.inverse() @ moved).as_vector(), inertia.as_vector(), 1e-8)


@given(inertias(), inertias(), transforms())
def test_inertia_sum_and_transform_distribute(
    a: rm.SpatialInertia, b: rm.SpatialInertia, A: rm.Transform
) -> None:
    """Lumping: a + b adds the 10-vectors, and A @ (a + b) == A @ a + A @ b."""
    assert close((a + b).as_vector(), a.as_vector() + b.as_vector(), 1e-12)
    assert close((A @ (a + b)).as_vector(), (A @ a + A @ b).as_vector(), 1e-8)


@given(inertias(allow_zero=False))
def test_inertia_matrix_form(inertia: rm.SpatialInertia) -> None:
    """as_matrix() is [[m I, -S(h)], [S(h), I_O]]: symmetric and positive definite."""
    M = inertia.as_matrix()
    assert close(M, M.T, 0.0)
    assert close(M[3:, :3], skew(inertia.first_moment), 0.0)
    assert np.linalg.eigvalsh(M).min() > 0


def test_physical_consistency_rules() -> None:
    assert not rm.SpatialInertia.zero().is_physically_consistent()
    assert not rm.SpatialInertia.from_com(-1.0, (0, 0, 0), np.eye(3)).is_physically_consistent()
    # Triangle inequality violated: 1 + 1 < 3.
    bad = rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.diag([1.0, 1.0, 3.0]))
    assert not bad.is_physically_consistent()
    assert rm.SpatialInertia.from_com(
        1.0, (0, 0, 0), np.diag([1.0, 1.0, 2.0])
    ).is_physically_consistent()


def test_inertia_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="symmetric"):
        rm.SpatialInertia(1.0, (0, 0, 0), [[1, 1, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ValueError, match="finite"):
        rm.SpatialInertia(math.inf)
    with pytest.raises(ValueError, match="shape"):
        rm.SpatialInertia.from_vector([1.0, 2.0])


@given(inertias())
def test_inertia_value_semantics(inertia: rm.SpatialInertia) -> None:
    """Equal inertias hash alike, pickle round trips, arrays are read-only."""
    copy = rm.SpatialInertia.from_vector(inertia.as_vector())
    assert copy == inertia and hash(copy) == hash(inertia)
    assert pickle.loads(pickle.dumps(inertia)) == inertia
    with pytest.raises(ValueError):
        inertia.first_moment[0] = 1.0
    with pytest.raises(ValueError):
        inertia.rotational_inertia[0, 0] = 1.0


@pytest.mark.slow
@SLOW
@given(transforms(scale=10.0), transforms(scale=10.0), inertias(allow_zero=False))
def test_group_laws_slow(A: rm.Transform, B: rm.Transform, inertia: rm.SpatialInertia) -> None:
    """Transform of an inertia is an action: (A @ B) @ I == A @ (B @ I)."""
    assert close(((A @ B) @ inertia).as_vector(), (A @ (B @ inertia)).as_vector(), 1e-6)
