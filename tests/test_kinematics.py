"""Tests of robomodel.physics.kinematics: joint states, forward kinematics (single and batched),
COM."""

from __future__ import annotations

import zlib

import icub_models
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from idyntree_oracle import idt_relative_transform, kindyn, load_icub
from idyntree_oracle import load_idt as load_idyntree
from idyntree_oracle import model_to_idt as to_idyntree
from strategies import SLOW, models

import robomodel as rm
from robomodel.errors import ModelError, RobomodelError, UnknownNameError
from robomodel.physics._kinematic_tree import tree_of
from robomodel.physics.kinematics import (
    JointState,
    center_of_mass,
    forward_kinematics,
    forward_kinematics_batch,
    relative_transform,
    total_spatial_inertia,
)

ROBOTS = sorted(icub_models.get_robot_names())


def H(T: rm.Transform) -> np.ndarray:
    return T.as_matrix()


@st.composite
def models_and_q(draw: st.DrawFn, max_links: int = 8, n_q: int = 1):
    m = draw(models(max_links=max_links))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    Q = rng.uniform(-np.pi, np.pi, (n_q, m.n_pos_coords))
    return m, (Q[0] if n_q == 1 else Q)


def chain() -> rm.Model:
    """base -(rev z at x=1)- arm -(fixed)- hand, plus a frame 'tip' on hand."""
    m = rm.add_link(rm.Model(), "base")
    j = rm.RevoluteJoint(
        link1="base",
        link2="arm",
        axis_in_link1=rm.Axis((0, 0, 1)),
        link1_H_link2=rm.Transform.from_translation((1, 0, 0)),
    )
    m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
    f = rm.FixedJoint(
        link1="hand", link2="arm", link1_H_link2=rm.Transform.from_translation((-1, 0, 0))
    )
    # add_joint (not add_joint_and_link, which relabels link1/link2 as iDynTree does) keeps the
    # stored direction: link1 = hand is the traversal child.
    m = rm.add_joint(rm.add_link(m, "hand"), "f", f)
    return rm.add_frame(m, "hand", "tip", rm.Transform.from_translation((0, 0, 2)))


# --------------------------------------------------------------------------- JointState


def test_joint_state_from_names_orders_by_offsets():
    m = chain()
    s = JointState.from_names(m, positions={"j": 0.5}, velocities={"j": 2.0})
    assert s.q.tolist() == [0.5] and s.dq.tolist() == [2.0] and s.ddq.tolist() == [0.0]
    assert s == JointState([0.5], [2.0], [0.0])
    assert JointState.zeros(m) == JointState([0.0], [0.0], [0.0])


def test_joint_state_errors_name_the_problem():
    m = chain()
    with pytest.raises(UnknownNameError, match="'jj'"):
        JointState.from_names(m, positions={"jj": 0.1})
    with pytest.raises(ModelError, match="fixed"):
        JointState.from_names(m, positions={"j": 0.1, "f": 0.0})
    with pytest.raises(ModelError, match=r"missing for joints \['j'\]"):
        JointState.from_names(m, positions={})
    with pytest.raises(ModelError, match=r"velocities are missing"):
        JointState.from_names(m, positions={"j": 0.0}, velocities={})
    with pytest.raises(ModelError, match="dq has 2 entries but ddq has 1"):
        JointState([0.0], [0.0, 1.0], [0.0])
    with pytest.raises(ModelError, match="n_dofs = 1"):
        JointState([0.0], [0.0, 1.0], [0.0, 0.0]).check(m)
    with pytest.raises(ModelError, match="finite"):
        JointState([np.nan], [0.0], [0.0])


def test_joint_state_is_read_only():
    s = JointState([0.0], [0.0], [0.0])
    with pytest.raises(ValueError):
        s.q[0] = 1.0


# --------------------------------------------------------------------------- forward kinematics


def test_chain_by_hand():
    """A hand-computed pose (spec §2.3: the axis rotation acts in link1, before the rest pose)."""
    m = chain()
    fk = forward_kinematics(m, [np.pi / 2])
    # arm: Rz(pi/2) about the z line through base's origin, applied to (1, 0, 0) -> (0, 1, 0).
    np.testing.assert_allclose(fk.base_H_frame("arm").position, [0, 1, 0], atol=1e-15)
    np.testing.assert_allclose(
        fk.base_H_frame("arm").rotation, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15
    )
    # hand: arm_H_hand = (1, 0, 0) (inverse of the stored hand_H_arm), rotated with arm.
    np.testing.assert_allclose(fk.base_H_frame("hand").position, [0, 2, 0], atol=1e-15)
    np.testing.assert_allclose(fk.base_H_frame("tip").position, [0, 2, 2], atol=1e-15)
    # tip_H_base = -R^T p with R = Rz(pi/2), p = (0, 2, 2).
    np.testing.assert_allclose(
        relative_transform(m, [np.pi / 2], "tip", "base").position, [-2, 0, -2], atol=1e-15
    )


def test_fk_errors():
    m = chain()
    with pytest.raises(ModelError, match="n_pos_coords = 1"):
        forward_kinematics(m, [0.0, 1.0])
    with pytest.raises(UnknownNameError, match="did you mean 'tip'"):
        forward_kinematics(m, [0.0]).base_H_frame("tipp")
    with pytest.raises(UnknownNameError):
        forward_kinematics(m, [0.0], base="nope")
    with pytest.raises(ModelError, match=r"shape \(N, 1\)"):
        forward_kinematics_batch(m, np.zeros((3, 2)))
    with pytest.raises(UnknownNameError):
        forward_kinematics_batch(m, np.zeros((3, 1)), frames=["nope"])
    with pytest.raises(UnknownNameError, match="no frame with index 17"):
        forward_kinematics_batch(m, np.zeros((3, 1)), frames=[17])
    with pytest.raises(ModelError, match=r"Q\[1, 0\] is nan"):
        forward_kinematics_batch(m, [[0.0], [np.nan]])
    with pytest.raises(ModelError, match="q must be finite"):
        forward_kinematics(m, [np.inf])


def test_disconnected_links_are_reported_not_dropped():
    m = rm.add_link(chain(), "island")
    fk = forward_kinematics(m, [0.0])
    assert np.isnan(fk.base_H_link[m.link_index("island")]).all()
    with pytest.raises(ModelError, match="'island', which is not connected"):
        fk.base_H_frame("island")
    with pytest.raises(ModelError, match="not connected"):
        forward_kinematics_batch(m, np.zeros((2, 1)), frames=["island"])
    with pytest.raises(ModelError, match=r"\['island'\] are not"):
        center_of_mass(m, [0.0])


@given(models_and_q())
def test_fk_follows_each_joint_transform(mq):
    """For every joint, the relative pose of its two links is the joint's own transform at q."""
    m, q = mq
    fk = forward_kinematics(m, q)
    for j in m.joints:
        qj = q[j.pos_coord_offset] if j.n_pos_coords else 0.0
        a_H_b = np.linalg.inv(H(fk.base_H_frame(j.link1))) @ H(fk.base_H_frame(j.link2))
        np.testing.assert_allclose(a_H_b, H(j.transform(qj, j.link1, j.link2)), atol=1e-10)


@given(models_and_q())
def test_frame_fk_composes_with_its_link(mq):
    """base_H_frame = base_H_link(frame's link) @ link_H_frame, and the base is the identity."""
    m, q = mq
    fk = forward_kinematics(m, q)
    assert fk.base_H_frame(m.default_base).is_identity(0.0)
    for i in range(m.n_links, m.n_frames):
        expected = fk.base_H_link[m.frame_link(i)] @ H(m.frame_transform(i))
        np.testing.assert_allclose(H(fk.base_H_frame(m.frame_name(i))), expected, atol=1e-12)
        np.testing.assert_allclose(H(fk.base_H_frame(i)), expected, atol=1e-12)


@given(models_and_q(), st.data())
def test_fk_invariant_to_the_base(mq, data):
    """With another base b: a_H_x = a_H_b @ b_H_x for every frame x."""
    m, q = mq
    b = data.draw(st.integers(0, m.n_links - 1))
    fa = forward_kinematics(m, q)
    fb = forward_kinematics(m, q, base=b)
    a_H_b = H(fa.base_H_frame(b))
    for i in range(m.n_frames):
        np.testing.assert_allclose(H(fa.base_H_frame(i)), a_H_b @ H(fb.base_H_frame(i)), atol=1e-9)


@given(models_and_q(), st.data())
def test_relative_transform_is_the_pose_of_b_in_a(mq, data):
    """relative_transform(a, b) = base_H_a^-1 @ base_H_b."""
    m, q = mq
    a = data.draw(st.integers(0, m.n_frames - 1))
    b = data.draw(st.integers(0, m.n_frames - 1))
    fk = forward_kinematics(m, q)
    expected = np.linalg.inv(H(fk.base_H_frame(a))) @ H(fk.base_H_frame(b))
    np.testing.assert_allclose(H(relative_transform(m, q, a, b)), expected, atol=1e-9)


@given(models_and_q(n_q=5), st.data())
def test_batched_fk_equals_single_fk_row_by_row(mq, data):
    """forward_kinematics_batch(Q)[f][n] == forward_kinematics(Q[n]).base_H_frame(f)."""
    m, Q = mq
    base = data.draw(st.integers(0, m.n_links - 1))
    subset = data.draw(st.none() | st.lists(st.integers(0, m.n_frames - 1), unique=True))
    out = forward_kinematics_batch(m, Q, frames=subset, base=base)
    wanted = list(range(m.n_frames)) if subset is None else subset
    assert list(out) == [m.frame_name(i) for i in wanted]
    for n in range(len(Q)):
        fk = forward_kinematics(m, Q[n], base=base)
        for i in wanted:
            arr = out[m.frame_name(i)]
            assert arr.shape == (len(Q), 4, 4)
            np.testing.assert_allclose(arr[n], H(fk.base_H_frame(i)), atol=1e-12)


def test_batched_fk_general_axes_and_empty_batch():
    """Axes off the coordinate planes and axis lines off the origin use the general path; the
    batched FK matches the single FK on all of them, for both joint kinds and directions."""
    m = rm.add_link(rm.Model(), "a")
    prev = "a"
    # General, in-plane, aligned, and nearly aligned axes (the last two once broke the change of
    # basis: a cross product of norm 1e-14 was normalised).
    axes = [(1, 2, 3), (0, 1, -1), (1, 0, 0), (0, 0, -1), (2.9e-14, -4.5e-14, 1.0), (-1, 1e-16, 0)]
    for k, u in enumerate(axes):
        cls = rm.RevoluteJoint if k % 2 == 0 else rm.PrismaticJoint
        j = cls(
            link1=prev,
            link2=f"b{k}",
            axis_in_link1=rm.Axis(u, (0.1 * k, -0.2, 0.3)),
            link1_H_link2=rm.Transform.from_rpy_xyz((0.3, -0.2, 1.0 + k), (0.1, 0.2, 0.3)),
        )
        m = rm.add_joint_and_link(m, prev, f"j{k}", j, f"b{k}", rm.Link())
        prev = f"b{k}"
    # Reversed joint directions: link1 is the traversal child.
    j = rm.RevoluteJoint(link1="c", link2="a", axis_in_link1=rm.Axis((1, 1, 0), (0, 0.5, 0)))
    m = rm.add_joint(rm.add_link(m, "c"), "jc", j)
    Q = np.random.default_rng(3).uniform(-2, 2, (7, m.n_pos_coords))
    out = forward_kinematics_batch(m, Q)
    for n in range(7):
        fk = forward_kinematics(m, Q[n])
        for name, arr in out.items():
            np.testing.assert_allclose(arr[n], H(fk.base_H_frame(name)), atol=1e-12)
    empty = forward_kinematics_batch(m, np.zeros((0, m.n_pos_coords)))
    assert empty["c"].shape == (0, 4, 4)


def test_batched_fk_of_many_frames_on_one_link():
    """Many additional frames on one link (computed together, in chunks of configurations),
    frames at the identity (sharing their link's buffer), and a frame asked for twice all match
    the single-configuration FK."""
    rng = np.random.default_rng(11)
    m = chain()
    for k in range(40):
        T = rm.Transform.from_rpy_xyz(rng.normal(size=3), rng.normal(size=3))
        m = rm.add_frame(m, "arm" if k % 2 else "hand", f"f{k}", T)
    m = rm.add_frame(m, "arm", "same", rm.Transform.identity())
    m = rm.add_frame(m, "base", "offset", rm.Transform.from_translation((0, 0, 2)))
    Q = rng.uniform(-3, 3, (3000, m.n_pos_coords))
    names = ["f3", "same", "f3", "offset", *(f"f{k}" for k in range(40)), "arm"]
    out = forward_kinematics_batch(m, Q, frames=names)
    assert list(out) == list(dict.fromkeys(names))
    for n in (0, 1364, 1365, 2999):
        fk = forward_kinematics(m, Q[n])
        for name, arr in out.items():
            np.testing.assert_allclose(arr[n], H(fk.base_H_frame(name)), atol=1e-12)
    np.testing.assert_array_equal(out["same"], out["arm"])


def test_batched_results_are_read_only():
    out = forward_kinematics_batch(chain(), np.zeros((2, 1)))
    with pytest.raises(ValueError):
        out["tip"][0, 0, 0] = 2.0


# --------------------------------------------------------------------------- mass distribution


@given(models_and_q(), st.data())
def test_total_inertia_is_the_sum_of_moved_link_inertias(mq, data):
    """total_spatial_inertia = sum(base_H_link @ I_link); its COM is center_of_mass."""
    m, q = mq
    base = data.draw(st.integers(0, m.n_links - 1))
    fk = forward_kinematics(m, q, base=base)
    expected = rm.SpatialInertia.zero()
    for i, link in enumerate(m.links):
        expected = expected + fk.base_H_frame(i) @ link.inertia
    total = total_spatial_inertia(m, q, base=base)
    np.testing.assert_allclose(total.as_matrix(), expected.as_matrix(), atol=1e-9)
    if expected.mass > 0:
        np.testing.assert_allclose(center_of_mass(m, q, base=base), expected.com, atol=1e-10)
    else:
        with pytest.raises(ModelError, match="total mass is zero"):
            center_of_mass(m, q, base=base)


# --------------------------------------------------------------------------- reference: iDynTree


def check_fk_against_idyntree(m: rm.Model, q: np.ndarray, base: str) -> None:
    kd = kindyn(to_idyntree(m), q, base)
    fk = forward_kinematics(m, q, base=base)
    for i in range(m.n_frames):
        name = m.frame_name(i)
        np.testing.assert_allclose(
            H(fk.base_H_frame(name)), idt_relative_transform(kd, base, name), atol=1e-10
        )


@pytest.mark.reference
@given(models_and_q(), st.data())
def test_fk_matches_idyntree_on_random_trees(mq, data):
    """Every frame's pose from any base equals KinDynComputations.getRelativeTransform."""
    m, q = mq
    base = m.link_name(data.draw(st.integers(0, m.n_links - 1)))
    check_fk_against_idyntree(m, q, base)


@pytest.mark.reference
@pytest.mark.slow
@settings(SLOW)
@given(models_and_q(max_links=15), st.data())
def test_fk_matches_idyntree_on_random_trees_slow(mq, data):
    """Slow tier of test_fk_matches_idyntree_on_random_trees, on bigger trees."""
    m, q = mq
    base = m.link_name(data.draw(st.integers(0, m.n_links - 1)))
    check_fk_against_idyntree(m, q, base)


def idt_q(m: rm.Model, im, q_idt: np.ndarray) -> np.ndarray:
    """Map an iDynTree position vector to robomodel's order, by joint name."""
    q = np.zeros(m.n_pos_coords)
    for j in range(im.getNrOfJoints()):
        ij = im.getJoint(j)
        if ij.getNrOfPosCoords():
            q[m.joint(im.getJointName(j)).pos_coord_offset] = q_idt[ij.getPosCoordsOffset()]
    return q


@pytest.mark.reference
@pytest.mark.parametrize("robot", ROBOTS)
def test_fk_matches_idyntree_on_icub_models(robot):
    """Every frame of every icub-models robot (loaded by each library from the same URDF),
    from the default base and from a hand or foot, matches getRelativeTransform at random q;
    so do the COM (getCenterOfMassPosition) and the total inertia (getRobotLockedInertia)."""
    m = load_icub(robot)
    im = load_idyntree(str(icub_models.get_model_file(robot)))
    rng = np.random.default_rng(zlib.crc32(robot.encode()))
    q_idt = rng.uniform(-1.5, 1.5, im.getNrOfPosCoords())
    q = idt_q(m, im, q_idt)
    names = [im.getFrameName(f) for f in range(im.getNrOfFrames())]
    bases = [im.getLinkName(im.getDefaultBaseLink())]
    bases += [b for b in ("l_sole", "r_hand") if m.is_link_name_used(b)]
    for base in bases:
        kd = kindyn(im, q_idt, base)
        fk = forward_kinematics(m, q, base=base)
        for name in names:
            np.testing.assert_allclose(
                H(fk.base_H_frame(name)), idt_relative_transform(kd, base, name), atol=1e-10
            )
        com = kd.getCenterOfMassPosition().toNumPy()
        np.testing.assert_allclose(center_of_mass(m, q, base=base), com, atol=1e-10)
        locked = kd.getRobotLockedInertia().asMatrix().toNumPy()
        np.testing.assert_allclose(
            total_spatial_inertia(m, q, base=base).as_matrix(), locked, atol=1e-10
        )
    Q = rng.uniform(-1.5, 1.5, (4, m.n_pos_coords))
    batch = forward_kinematics_batch(m, Q, frames=names[:: max(1, len(names) // 40)])
    for n in range(len(Q)):
        fk = forward_kinematics(m, Q[n])
        for name, arr in batch.items():
            np.testing.assert_allclose(arr[n], H(fk.base_H_frame(name)), atol=1e-12)


def test_errors_are_robomodel_errors():
    m = chain()
    for call in (
        lambda: forward_kinematics(m, np.zeros((1, 1))),
        lambda: relative_transform(m, [0.0], "tip", "nowhere"),
        lambda: JointState.from_names(m, positions={"x": 1.0}),
    ):
        with pytest.raises(RobomodelError):
            call()


@given(
    st.lists(
        st.floats(-1e12, 1e12, allow_nan=False) | st.floats(-10, 10, allow_nan=False),
        min_size=1,
        max_size=50,
    )
)
def test_batched_fk_sine_and_cosine_match_numpy(xs):
    """The half-angle sin/cos of the batched FK agree with numpy's to 1e-15 absolute."""
    from robomodel.physics._pose_columns import _sincos

    x = np.array(xs)
    s, c = _sincos(x)
    np.testing.assert_allclose(s, np.sin(x), rtol=0, atol=1e-15)
    np.testing.assert_allclose(c, np.cos(x), rtol=0, atol=1e-15)


@given(models(max_links=8), st.data())
def test_plan_holds_each_joints_own_rest_transform_and_axis(m, data):
    """The plan, built for all joints at once, agrees with each joint's own methods."""
    base = data.draw(st.integers(0, m.n_links - 1))
    plan = tree_of(m, base)
    t = m.traversal(base)
    for k in range(1, len(t)):
        j = m.joints[t.joints[k]]
        parent, child = m.link_names[t.parents[k]], m.link_names[t.links[k]]
        np.testing.assert_allclose(plan.rest[k], H(j.rest_transform(parent, child)), atol=1e-14)
        if j.n_dofs:
            ax = j.axis(child)
            u, o = ax.direction, ax.origin
            s_v = np.cross(o, u) if isinstance(j, rm.RevoluteJoint) else u
            s_w = u if isinstance(j, rm.RevoluteJoint) else np.zeros(3)
            np.testing.assert_allclose(plan.S[k], np.concatenate([s_v, s_w]), atol=1e-14)
        else:
            assert not plan.S[k].any()
    for k, link in enumerate(t.links):
        np.testing.assert_allclose(plan.I6[k], m.links[link].inertia.as_matrix(), atol=0)
