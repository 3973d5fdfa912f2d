"""DH chains: iKin's convention, angle setting with clamping, blocked links, poses."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import dh_chains

from robomodel.errors import ModelError
from robomodel.formats.dh import (
    DHChain,
    DHLink,
    axis_angle,
    block_link,
    euler_xyz,
    icub_arm,
    icub_leg,
    release_link,
    set_angles,
    set_link_angle,
    with_link_limits,
)
from robomodel.model.spatial import Transform


def unconstrained(chain: DHChain, q_deg: list[float]) -> DHChain:
    """All links free, no clamping, angles (degrees) over all links: plain DH forward kinematics."""
    c = attrs.evolve(chain, constrained=False)
    for i in range(c.n_links):
        c = release_link(c, i)
    return set_angles(c, np.radians(q_deg))[0]


def plain_dh(chain: DHChain, q: np.ndarray) -> np.ndarray:
    """Oracle: H0 * prod(Rz Tz Tx Rx) * HN written out with 4x4 matrices, independent of dh.py."""

    def rz(t: float) -> np.ndarray:
        c, s = math.cos(t), math.sin(t)
        return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])

    def rx(t: float) -> np.ndarray:
        c, s = math.cos(t), math.sin(t)
        return np.array([[1.0, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])

    def tr(x: float, z: float) -> np.ndarray:
        T = np.eye(4)
        T[0, 3], T[2, 3] = x, z
        return T

    H = chain.H0.as_matrix()
    for link, qi in zip(chain.links, q, strict=True):
        H = H @ rz(qi + link.offset) @ tr(0.0, link.d) @ tr(link.a, 0.0) @ rx(link.alpha)
    return H @ chain.HN.as_matrix()


# ---------------------------------------------------------------------- fixed vectors
# From /work/shared/spec/ikin-dh.md §3.5: computed by the spec author from the iKin tables with
# unclamped standard DH (not iKin output). They are cross-checked here against robomodel's FK and
# in test_dh_icub.py against the icub-models URDF.
def test_right_arm_v2_at_zero() -> None:
    # §3.5 "Right arm v2, q=0 (10 links)".
    T = unconstrained(icub_arm("right", "2.0"), [0.0] * 10).end_effector_pose()
    np.testing.assert_allclose(T.position, [-0.010817, 0.084136, -0.180780], atol=1e-6)
    np.testing.assert_allclose(T.rotation, [[0, 1, 0], [0, 0, -1], [-1, 0, 0]], atol=1e-12)


def test_left_arm_v2_at_zero_mirrors_y() -> None:
    # §3.5 "The left arm gives y=-0.084136".
    T = unconstrained(icub_arm("left", "2.0"), [0.0] * 10).end_effector_pose()
    np.testing.assert_allclose(T.position, [-0.010817, -0.084136, -0.180780], atol=1e-6)


def test_right_arm_v2_bent() -> None:
    # §3.5 "Right arm v2, q=[0,0,0,-30,30,0,45,0,0,0] deg".
    T = unconstrained(icub_arm("right", "2.7"), [0, 0, 0, -30, 30, 0, 45, 0, 0, 0])
    np.testing.assert_allclose(
        T.end_effector_pose().position, [-0.304333, 0.202342, 0.025913], atol=1e-6
    )


@pytest.mark.parametrize(
    ("version", "position"),
    [("1", [0.0, 0.0681, -0.5975]), ("2.5", [0.004418, 0.0681, -0.622995])],
)
def test_right_leg_at_zero(version: str, position: list[float]) -> None:
    # §3.5 "Right leg v1, q=0" and "Right leg v2.x, q=0", R=[[0,0,-1],[0,1,0],[1,0,0]].
    T = unconstrained(icub_leg("right", version), [0.0] * 6).end_effector_pose()
    np.testing.assert_allclose(T.position, position, atol=1e-6)
    np.testing.assert_allclose(T.rotation, [[0, 0, -1], [0, 1, 0], [1, 0, 0]], atol=1e-12)


def test_q_zero_is_clamped_by_the_elbow_limit() -> None:
    # §3.5 note: q6 = 0 is below the elbow minimum of 5.5 deg, so a constrained chain clamps it.
    chain = icub_arm("right", "2.7")
    _, clamped = set_angles(chain, np.zeros(7))
    assert clamped[3] == pytest.approx(math.radians(5.5))
    assert clamped[0] == 0.0


# ---------------------------------------------------------------------- convention
@given(dh_chains())
def test_pose_matches_plain_dh_oracle(chain: DHChain) -> None:
    """The end-effector pose is H0 * prod(Rz(q+offset) Tz(d) Tx(a) Rx(alpha)) * HN."""
    np.testing.assert_allclose(
        chain.end_effector_pose().as_matrix(), plain_dh(chain, chain.all_angles), atol=1e-12
    )


@given(dh_chains())
def test_intermediate_poses_compose(chain: DHChain) -> None:
    """pose(i) = pose(i-1) * H_i, HN only after the last link; poses() lists the same values."""
    poses = chain.poses()
    T = chain.H0
    for i, link in enumerate(chain.links):
        T = T @ link.transform()
        expected = T @ chain.HN if i == chain.n_links - 1 else T
        np.testing.assert_allclose(chain.pose(i).as_matrix(), expected.as_matrix(), atol=1e-12)
        assert poses[i] == chain.pose(i)


def test_new_link_starts_at_its_minimum() -> None:
    # iKin's iKinLink constructor sets Ang = Min (ikin-dh.md §3.2).
    link = DHLink(0.1, 0.2, 0.3, 0.4, -0.5, 0.6)
    assert link.angle == -0.5
    assert DHLink(0.0, 0.0, 0.0).min == -math.pi


def test_icub_arm_has_torso_blocked() -> None:
    chain = icub_arm("left", "2.0")
    assert (chain.n_links, chain.n_dofs, chain.dof_links) == (10, 7, (3, 4, 5, 6, 7, 8, 9))
    assert chain.all_angles[:3].tolist() == [0.0, 0.0, 0.0]


# ---------------------------------------------------------------------- clamping
@given(dh_chains(), st.data())
def test_set_angles_never_leaves_the_limits(chain: DHChain, data: st.DataObject) -> None:
    """While constrained every stored angle is inside [min, max] and equals the returned value;
    angles already inside are stored unchanged."""
    q = np.array([data.draw(st.floats(-10, 10)) for _ in range(chain.n_dofs)])
    new, clamped = set_angles(chain, q)
    for n, k in enumerate(new.dof_links):
        link = new.links[k]
        assert link.min <= link.angle <= link.max
        assert clamped[n] == link.angle
        if link.min <= q[n] <= link.max:
            assert link.angle == q[n]
    np.testing.assert_array_equal(new.angles, clamped)


@given(dh_chains(), st.data())
def test_unconstrained_chain_stores_angles_as_given(chain: DHChain, data: st.DataObject) -> None:
    """With constrained=False angles are stored as given, even outside the limits."""
    free = attrs.evolve(chain, constrained=False)
    q = np.array([data.draw(st.floats(-10, 10)) for _ in range(chain.n_dofs)])
    new, values = set_angles(free, q)
    np.testing.assert_array_equal(values, q)
    np.testing.assert_array_equal(new.angles, q)


def test_set_angles_returns_new_chain_and_keeps_old() -> None:
    chain = DHChain(links=[DHLink(0.1, 0.0, 0.0, 0.0, -1.0, 1.0)] * 2)
    new, values = set_angles(chain, [0.5, 2.0])
    assert values.tolist() == [0.5, 1.0]
    assert chain.all_angles.tolist() == [-1.0, -1.0]
    assert new.all_angles.tolist() == [0.5, 1.0]
    assert set_angles(new, [0.5, 1.0])[0] is new


def test_set_link_angle_on_blocked_link_keeps_it_blocked() -> None:
    chain = block_link(DHChain(links=[DHLink(0.1, 0.0, 0.0, 0.0, -1.0, 1.0)] * 2), 0, 0.2)
    new, value = set_link_angle(chain, 0, 5.0)
    assert value == 1.0
    assert new.links[0].blocked and new.links[0].angle == 1.0
    assert new.n_dofs == 1


def test_with_link_limits_does_not_reclamp() -> None:
    chain = DHChain(links=[DHLink(0.0, 0.0, 0.0, 0.0, -1.0, 1.0, angle=0.9)])
    narrowed = with_link_limits(chain, 0, -0.5, 0.5)
    assert narrowed.links[0].angle == 0.9  # like iKin's setMax: the next setAng clamps
    assert set_link_angle(narrowed, 0, 0.9)[1] == 0.5


# ---------------------------------------------------------------------- blocking
@given(dh_chains(), st.data())
def test_blocking_keeps_pose_and_reduces_dofs(chain: DHChain, data: st.DataObject) -> None:
    """Blocking a free link at angle a gives the pose the free chain has at a, one DOF fewer;
    releasing it gives back a chain with the DOF count restored."""
    free = [k for k in range(chain.n_links) if not chain.links[k].blocked]
    if not free:
        return
    k = data.draw(st.sampled_from(free))
    link = chain.links[k]
    a = data.draw(st.floats(link.min, link.max))
    moved, _ = set_link_angle(chain, k, a)
    blocked = block_link(chain, k, a)
    assert blocked.n_dofs == chain.n_dofs - 1
    assert k not in blocked.dof_links
    assert blocked.end_effector_pose() == moved.end_effector_pose()
    released = release_link(blocked, k)
    assert released.n_dofs == chain.n_dofs
    assert released.dof_links == chain.dof_links
    assert released.end_effector_pose() == moved.end_effector_pose()


def test_dof_order_skips_blocked_links() -> None:
    links = [DHLink(0.0, 0.0, 0.0, 0.0, -3.0, 3.0, angle=float(k)) for k in range(4)]
    chain = block_link(block_link(DHChain(links=links), 1), 2)
    assert chain.dof_links == (0, 3)
    assert chain.angles.tolist() == [0.0, 3.0]
    new, _ = set_angles(chain, [-1.0, -2.0])
    assert new.all_angles.tolist() == [-1.0, 1.0, 2.0, -2.0]


def test_block_link_clamps_and_release_is_noop_on_free_link() -> None:
    chain = DHChain(links=[DHLink(0.0, 0.0, 0.0, 0.0, -1.0, 1.0)])
    assert block_link(chain, 0, 3.0).links[0].angle == 1.0
    assert release_link(chain, 0) is chain


# ---------------------------------------------------------------------- pose vector
@given(dh_chains())
def test_end_effector_vector_is_position_and_axis_angle(chain: DHChain) -> None:
    """[x, y, z, axis, theta] reproduces the end-effector pose (Rodrigues), theta in [0, pi]."""
    v = chain.end_effector_vector()
    T = chain.end_effector_pose()
    np.testing.assert_array_equal(v[:3], T.position)
    u, theta = v[3:6], v[6]
    assert 0.0 <= theta <= math.pi
    assert abs(np.linalg.norm(u) - 1.0) < 1e-12
    K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    R = np.eye(3) + math.sin(theta) * K + (1 - math.cos(theta)) * K @ K
    np.testing.assert_allclose(R, T.rotation, atol=1e-7)


@given(dh_chains(), st.data())
def test_pose_vectors_in_euler_form(chain: DHChain, data: st.DataObject) -> None:
    """[x, y, z, r0, r1, r2]: R == (Rx(r0) Ry(r1) Rz(r2))^T, iKin's RotAng formulas, r1 in
    [-pi/2, pi/2]; the end-effector vector is the last link's."""
    i = data.draw(st.integers(0, chain.n_links - 1))
    v = chain.pose_vector(i, euler=True)
    T = chain.pose(i)
    np.testing.assert_array_equal(v[:3], T.position)
    r0, r1, r2 = v[3:]
    assert -math.pi / 2 <= r1 <= math.pi / 2

    def rot(k: int, a: float) -> np.ndarray:
        c, s = math.cos(a), math.sin(a)
        M = np.eye(3)
        j, m = [(1, 2), (0, 2), (0, 1)][k]
        M[j, j], M[j, m], M[m, j], M[m, m] = c, -s, s, c
        if k == 1:  # about y the signs of the sines swap
            M[j, m], M[m, j] = s, -s
        return M

    if abs(abs(T.rotation[2, 0]) - 1.0) > 1e-6:  # away from gimbal lock the angles are unique
        np.testing.assert_allclose((rot(0, r0) @ rot(1, r1) @ rot(2, r2)).T, T.rotation, atol=1e-9)
    np.testing.assert_array_equal(
        chain.end_effector_vector(euler=True), chain.pose_vector(chain.n_links - 1, euler=True)
    )
    np.testing.assert_array_equal(chain.pose_vector(i), np.concatenate([v[:3], *_aa(T)]))


def _aa(T: Transform) -> tuple[np.ndarray, np.ndarray]:
    axis, theta = axis_angle(T.rotation)
    return axis, np.array([theta])


def test_euler_form_clamps_rounding_past_one() -> None:
    R = np.array([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0 + 1e-15, 0.0, 0.0]])
    r = euler_xyz(R)
    assert r[1] == math.pi / 2 and np.isfinite(r).all()


@pytest.mark.parametrize("axis", [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0], [1.0, 2.0, -2.0]])
def test_axis_angle_at_pi_and_zero(axis: list[float]) -> None:
    u = np.array(axis) / np.linalg.norm(axis)
    R = 2 * np.outer(u, u) - np.eye(3)  # rotation by pi about u
    got, theta = axis_angle(R)
    assert theta == math.pi
    np.testing.assert_allclose(np.outer(got, got), np.outer(u, u), atol=1e-12)
    assert axis_angle(np.eye(3))[1] == 0.0


# ---------------------------------------------------------------------- errors
def test_bad_values_raise_model_errors() -> None:
    with pytest.raises(ModelError, match="min <= max"):
        DHLink(0.0, 0.0, 0.0, 0.0, 1.0, -1.0)
    with pytest.raises(ModelError, match="alpha must be finite"):
        DHLink(0.0, 0.0, math.nan)
    with pytest.raises(ModelError, match="must be numbers"):
        DHLink("x", 0.0, 0.0)
    with pytest.raises(ModelError, match="at least one link"):
        DHChain(links=[])
    chain = icub_arm("right", "2.7")
    with pytest.raises(ModelError, match="there is no link 10"):
        chain.pose(10)
    with pytest.raises(ModelError, match="there is no link -1"):
        block_link(chain, -1)
    with pytest.raises(ModelError, match="7 DOFs"):
        set_angles(chain, np.zeros(10))
