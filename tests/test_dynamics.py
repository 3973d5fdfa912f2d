"""Tests of robomodel.physics.dynamics.inverse_dynamics (RNEA, fixed base)."""

from __future__ import annotations

import pickle
import warnings
import zlib

import icub_models
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from idyntree_oracle import idt_rnea, load_icub
from idyntree_oracle import load_idt as load_idyntree
from idyntree_oracle import model_to_idt as to_idyntree
from strategies import SLOW, models

import robomodel as rm
from robomodel.errors import ModelError, UnknownNameError
from robomodel.physics._kinematic_tree import (
    FORCE_CROSS,
    MOTION_CROSS,
    cross_rows,
    spatial_products,
)
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState, forward_kinematics

with warnings.catch_warnings():
    # Same SWIG DeprecationWarning as idyntree's (see idyntree_oracle).
    warnings.simplefilter("ignore", DeprecationWarning)
    import pinocchio as pin

ROBOTS = sorted(icub_models.get_robot_names())


@st.composite
def problems(draw: st.DrawFn, max_links: int = 8):
    """A random tree, base, state, base acceleration, gravity and external wrenches."""
    m = draw(models(max_links=max_links))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = m.n_dofs
    state = JointState(
        rng.uniform(-np.pi, np.pi, m.n_pos_coords), rng.uniform(-2, 2, n), rng.uniform(-5, 5, n)
    )
    base = draw(st.integers(0, m.n_links - 1))
    a0 = rng.normal(size=6) if draw(st.booleans()) else np.zeros(6)
    g = rng.normal(scale=5.0, size=3)
    links = draw(st.lists(st.integers(0, m.n_links - 1), unique=True, max_size=3))
    ext = {i: rng.normal(size=6) for i in links}
    v0 = rng.normal(size=6) if draw(st.booleans()) else None  # a floating base, moving
    return m, base, state, a0, g, ext, v0


def check_against_idyntree(m, base, state, a0, g, ext, v0=None, im=None):
    r = inverse_dynamics(
        m,
        state,
        base=base,
        base_acceleration=a0,
        gravity=g,
        external_wrenches=ext,
        base_velocity=v0,
    )
    tau, W, bw = idt_rnea(
        to_idyntree(m) if im is None else im,
        base,
        state.q,
        state.dq,
        state.ddq,
        base_acceleration=a0,
        gravity=g,
        external=ext,
        base_velocity=v0,
    )
    np.testing.assert_allclose(r.joint_torques, tau, atol=1e-8)
    np.testing.assert_allclose(r.internal_wrenches, W, atol=1e-8)
    np.testing.assert_allclose(r.base_wrench, bw, atol=1e-8)


# --------------------------------------------------------------------------- by hand


def pendulum() -> rm.Model:
    m = rm.add_link(rm.Model(), "base")
    arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
    j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
    return rm.add_joint_and_link(m, "base", "j", j, "arm", arm)


def test_pendulum_by_hand():
    """A point-like mass m at distance l on a y-axis hinge: tau = -m g l cos(q) + I_O ddq."""
    m = pendulum()
    q, ddq = 0.3, 1.5
    r = inverse_dynamics(m, JointState([q], [0.7], [ddq]))
    # Rotation about +y by q moves the COM to (l cos q, 0, -l sin q); gravity -z.
    # Inertia about the hinge: I_com,yy + m l^2 = 0.01 + 2 * 0.25.
    expected = -2.0 * 9.81 * 0.5 * np.cos(q) + (0.01 + 0.5) * ddq
    np.testing.assert_allclose(r.joint_torques, [expected], atol=1e-12)
    # The base carries the weight (and the centripetal pull); its internal wrench is zero.
    assert r.internal_wrench("base").tolist() == [0.0] * 6
    np.testing.assert_allclose(r.internal_wrench("arm"), r.internal_wrenches[1])


def test_dynamics_errors():
    m = pendulum()
    s = JointState.zeros(m)
    with pytest.raises(ModelError, match="n_dofs = 1"):
        inverse_dynamics(m, JointState([0.0], [0.0, 0.0], [0.0, 0.0]))
    with pytest.raises(ModelError, match="gravity must be a finite 3-vector"):
        inverse_dynamics(m, s, gravity=(0, 0))
    with pytest.raises(ModelError, match="base_acceleration must be a finite 6-vector"):
        inverse_dynamics(m, s, base_acceleration=np.zeros(3))
    with pytest.raises(ModelError, match="base_velocity must be a finite 6-vector"):
        inverse_dynamics(m, s, base_velocity=[0.0, 0.0, 0.0, 0.0, 0.0, np.nan])
    with pytest.raises(UnknownNameError, match="'hand'"):
        inverse_dynamics(m, s, external_wrenches={"hand": np.zeros(6)})
    with pytest.raises(ModelError, match="external wrench on 'arm'"):
        inverse_dynamics(m, s, external_wrenches={"arm": np.zeros(5)})
    with pytest.raises(ModelError, match=r"connected to the base 'base', but \['island'\] are not"):
        inverse_dynamics(rm.add_link(m, "island"), s)


# --------------------------------------------------------------------------- properties


def subtree(m: rm.Model, t: rm.Traversal, link: int) -> list[int]:
    out = [link]
    for k in range(len(t)):
        if t.parents[k] is not None and t.parents[k] in out:
            out.append(t.links[k])
    return out


@given(problems())
def test_static_torques_equal_subtree_mass_moments(p):
    """At zero velocity and acceleration, with gravity only, the torque of each joint is the
    moment about its axis of the weight of the subtree it carries (a force for prismatic
    joints), and the internal force on a link is the subtree's weight support."""
    m, base, state, _, g, _, _ = p
    s = JointState(state.q, np.zeros(m.n_dofs), np.zeros(m.n_dofs))
    r = inverse_dynamics(m, s, base=base, gravity=g)
    fk = forward_kinematics(m, s.q, base=base)
    t = m.traversal(base)
    for k in range(1, len(t)):
        child, jidx = t.links[k], t.joints[k]
        j = m.joints[jidx]
        sub = subtree(m, t, child)
        mass = sum(m.links[i].inertia.mass for i in sub)
        # First moment of the subtree about the base origin, in base coordinates.
        h = sum(
            m.links[i].inertia.mass * (fk.base_H_frame(i) @ m.links[i].inertia.com) for i in sub
        )
        R_child = fk.base_H_frame(child).rotation
        support = -mass * g  # the force the parent exerts to hold the subtree
        np.testing.assert_allclose(r.internal_wrenches[child][:3], R_child.T @ support, atol=1e-9)
        if j.n_dofs == 0:
            continue
        axis = fk.base_H_frame(child) @ j.axis(m.link_name(child))
        if isinstance(j, rm.RevoluteJoint):
            # moment about the axis line of the support force applied at the subtree COM
            moment = np.cross(h - mass * axis.origin, -g)
            expected = float(axis.direction @ moment)
        else:
            expected = float(axis.direction @ support)
        np.testing.assert_allclose(r.joint_torques[j.dof_offset], expected, atol=1e-9)


@given(problems())
def test_base_linear_acceleration_is_equivalent_to_gravity(p):
    """Only a0 - g matters: accelerating the base by a equals adding -a to gravity (whether the
    base moves or not)."""
    m, base, state, a0, g, ext, v0 = p
    a = np.concatenate([a0[:3], np.zeros(3)])
    kw = {"base": base, "external_wrenches": ext, "base_velocity": v0}
    r1 = inverse_dynamics(m, state, base_acceleration=a, gravity=g, **kw)
    r2 = inverse_dynamics(m, state, gravity=g - a0[:3], **kw)
    np.testing.assert_allclose(r1.joint_torques, r2.joint_torques, atol=1e-9)
    np.testing.assert_allclose(r1.internal_wrenches, r2.internal_wrenches, atol=1e-9)


@given(problems())
def test_external_wrenches_enter_linearly(p):
    """The torques and internal wrenches are affine in the external wrenches."""
    m, base, state, a0, g, ext, v0 = p
    kw = {"base": base, "base_acceleration": a0, "gravity": g, "base_velocity": v0}
    r0 = inverse_dynamics(m, state, **kw)
    r1 = inverse_dynamics(m, state, external_wrenches=ext, **kw)
    r2 = inverse_dynamics(m, state, external_wrenches={k: 2 * w for k, w in ext.items()}, **kw)
    np.testing.assert_allclose(
        r2.joint_torques - r1.joint_torques, r1.joint_torques - r0.joint_torques, atol=1e-8
    )
    np.testing.assert_allclose(
        r2.internal_wrenches - r1.internal_wrenches,
        r1.internal_wrenches - r0.internal_wrenches,
        atol=1e-8,
    )


# --------------------------------------------------------------------------- reference


@pytest.mark.reference
@given(problems())
def test_rnea_matches_idyntree_on_random_trees(p):
    """Torques, internal wrenches and base wrench equal iDynTree's ForwardPosVelAccKinematics +
    RNEADynamicPhase from the same base, state, base acceleration, gravity and external wrenches,
    with the base fixed or moving (a body-fixed base twist)."""
    check_against_idyntree(*p)


@pytest.mark.reference
@pytest.mark.slow
@settings(SLOW)
@given(problems(max_links=15))
def test_rnea_matches_idyntree_on_random_trees_slow(p):
    """Slow tier of test_rnea_matches_idyntree_on_random_trees, on bigger trees."""
    check_against_idyntree(*p)


@pytest.mark.reference
@pytest.mark.parametrize("robot", ROBOTS)
def test_rnea_matches_idyntree_on_icub_models(robot):
    """On every icub-models robot (robomodel's model and iDynTree's own URDF load), from the
    default base and from a foot, at a random state with external wrenches."""
    m = load_icub(robot)
    im = load_idyntree(str(icub_models.get_model_file(robot)))
    rng = np.random.default_rng(zlib.crc32(robot.encode()))
    n = im.getNrOfDOFs()
    qi, dqi, ddqi = rng.uniform(-1.5, 1.5, (3, n))
    # robomodel's order by joint name (the same order if the loader keeps iDynTree's).
    perm = np.zeros(n, dtype=int)
    for j in range(im.getNrOfJoints()):
        ij = im.getJoint(j)
        if ij.getNrOfDOFs():
            perm[ij.getDOFsOffset()] = m.joint(im.getJointName(j)).dof_offset
    q, dq, ddq = (np.empty(n) for _ in range(3))
    q[perm], dq[perm], ddq[perm] = qi, dqi, ddqi
    ext_names = [im.getLinkName(i) for i in (1, im.getNrOfLinks() - 1)]
    ext = {name: rng.normal(size=6) for name in ext_names}
    bases = [im.getLinkName(im.getDefaultBaseLink())]
    bases += [b for b in ("l_sole",) if m.is_link_name_used(b)]
    for base in bases:
        a0 = rng.normal(size=6)
        r = inverse_dynamics(
            m, JointState(q, dq, ddq), base=base, base_acceleration=a0, external_wrenches=ext
        )
        tau, W, bw = idt_rnea(
            im,
            im.getLinkIndex(base),
            qi,
            dqi,
            ddqi,
            base_acceleration=a0,
            gravity=np.array([0, 0, -9.81]),
            external={im.getLinkIndex(k): w for k, w in ext.items()},
        )
        np.testing.assert_allclose(r.joint_torques[perm], tau, atol=1e-8)
        for i in range(im.getNrOfLinks()):
            got = r.internal_wrench(im.getLinkName(i))
            np.testing.assert_allclose(got, W[i], atol=1e-8)
        np.testing.assert_allclose(r.base_wrench, bw, atol=1e-8)


@pytest.mark.reference
@pytest.mark.parametrize("robot", ["iCubGazeboV2_7", "iCubGenova04", "left_hand_mk3"])
def test_rnea_matches_pinocchio_on_icub_models(robot):
    """pin.rnea on Pinocchio's own URDF model (fixed base at the URDF root) gives the same
    torques, joint by joint (matched by name)."""
    m = load_icub(robot)
    pm = pin.buildModelFromUrdf(str(icub_models.get_model_file(robot)))
    pd = pm.createData()
    rng = np.random.default_rng(zlib.crc32(robot.encode()) + 1)
    pq, pv, pa = rng.uniform(-1.5, 1.5, (3, pm.nq))
    q, dq, ddq = (np.zeros(m.n_dofs) for _ in range(3))
    index = {}
    for jid in range(1, pm.njoints):
        name = pm.names[jid]
        o = m.joint(name).dof_offset
        index[o] = pm.joints[jid].idx_v
        q[o], dq[o], ddq[o] = pq[pm.joints[jid].idx_q], pv[index[o]], pa[index[o]]
    assert len(index) == m.n_dofs
    tau_pin = pin.rnea(pm, pd, pq, pv, pa)
    # Pinocchio fixes the URDF root, which is also robomodel's default base.
    r = inverse_dynamics(m, JointState(q, dq, ddq), gravity=tuple(pm.gravity.linear))
    for o, v in index.items():
        assert r.joint_torques[o] == pytest.approx(tau_pin[v], abs=1e-8)


@given(problems())
def test_big_model_loops_equal_the_dense_sums(p):
    """The loop path used for big models gives the ancestor-matrix path's results."""
    from robomodel.physics import _kinematic_tree

    m, base, state, a0, g, ext, v0 = p
    kw = {"base": base, "base_acceleration": a0, "gravity": g, "external_wrenches": ext}
    kw["base_velocity"] = v0
    dense = inverse_dynamics(m, state, **kw)
    # A copy of the model starts with an empty cache, so its plans are built under the patch.
    fresh = pickle.loads(pickle.dumps(m))
    saved = _kinematic_tree.DENSE_LIMIT
    try:
        _kinematic_tree.DENSE_LIMIT = 0
        looped = inverse_dynamics(fresh, state, **kw)
        assert _kinematic_tree.tree_of(fresh, base).anc is None
    finally:
        _kinematic_tree.DENSE_LIMIT = saved
    np.testing.assert_allclose(looped.joint_torques, dense.joint_torques, atol=1e-10)
    np.testing.assert_allclose(looped.internal_wrenches, dense.internal_wrenches, atol=1e-10)
    np.testing.assert_allclose(looped.base_wrench, dense.base_wrench, atol=1e-10)


def test_long_chain_uses_linear_memory():
    """A 600-link chain (beyond the dense limit) still matches iDynTree."""
    m = rm.add_link(rm.Model(), "L0", rm.Link(rm.SpatialInertia.from_com(1.0, (0.1, 0, 0))))
    rng = np.random.default_rng(7)
    for i in range(1, 600):
        j = rm.RevoluteJoint(
            link1=f"L{i - 1}",
            link2=f"L{i}",
            axis_in_link1=rm.Axis(rng.normal(size=3)),
            link1_H_link2=rm.Transform.from_rpy_xyz(rng.normal(size=3), (0.01, 0, 0)),
        )
        link = rm.Link(rm.SpatialInertia.from_com(0.1, (0.005, 0, 0), 1e-4 * np.eye(3)))
        m = rm.add_joint_and_link(m, f"L{i - 1}", f"J{i}", j, f"L{i}", link)
    n = m.n_dofs
    state = JointState(*rng.uniform(-1, 1, (3, n)))
    check_against_idyntree(m, 0, state, np.zeros(6), np.array([0, 0, -9.81]), {599: np.ones(6)})


@given(st.integers(0, 2**32 - 1), st.integers(1, 7))
def test_cross_product_tables_match_np_cross(seed, n):
    """The table-driven cross products equal the spatial algebra's definitions."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=(2, n, 6)) * rng.uniform(0.1, 100.0)
    v, w, v2, w2 = a[:, :3], a[:, 3:], b[:, :3], b[:, 3:]
    motion = np.hstack([np.cross(w, v2) + np.cross(v, w2), np.cross(w, w2)])
    force = np.hstack([np.cross(w, v2), np.cross(w, w2) + np.cross(v, v2)])
    scale = 1e-13 * np.abs(a).max() * np.abs(b).max()
    np.testing.assert_allclose(spatial_products(a, b, MOTION_CROSS), motion, rtol=0, atol=scale)
    np.testing.assert_allclose(spatial_products(a, b, FORCE_CROSS), force, rtol=0, atol=scale)
    stacked = a.reshape(n, 2, 3)
    np.testing.assert_allclose(
        cross_rows(stacked[:, :1], b.reshape(n, 2, 3)),
        np.cross(stacked[:, :1], b.reshape(n, 2, 3)),
        rtol=0,
        atol=scale,
    )
