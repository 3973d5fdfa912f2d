"""Tests of robomodel.identification: regressors, base parameters, lumping, identification.

The oracles are robomodel's own inverse dynamics (already checked against iDynTree) for random
parameter vectors, and Pinocchio (``pin.rnea``, ``pin.computeJointTorqueRegressor``) on the same
URDF, with joints matched by name.
"""

from __future__ import annotations

import warnings
import zlib

import icub_models
import numpy as np
import pytest
from _idyntree_bridge import load_icub
from hypothesis import given
from hypothesis import strategies as st
from strategies import models

import robomodel as rm
from robomodel.data import example_path
from robomodel.dynamics import inverse_dynamics
from robomodel.errors import ArgumentError, ModelError
from robomodel.identification import Samples, regressor, regressor_batch, stack
from robomodel.kinematics import JointState
from robomodel.urdf import load

with warnings.catch_warnings():
    # Same SWIG DeprecationWarning as idyntree's (see _idyntree_bridge).
    warnings.simplefilter("ignore", DeprecationWarning)
    import pinocchio as pin

ROBOTS = sorted(icub_models.get_robot_names())

# Pinocchio's dynamic parameters are [m, mc, Ixx, Ixy, Iyy, Ixz, Iyz, Izz] (inertia about the
# body origin); robomodel's are [m, h, Ixx, Ixy, Ixz, Iyy, Iyz, Izz]. PIN_OF_RM[k] is the
# Pinocchio position of robomodel's parameter k.
PIN_OF_RM = [0, 1, 2, 3, 4, 5, 7, 6, 8, 9]


def random_parameters(m: rm.Model, rng: np.random.Generator) -> np.ndarray:
    """Arbitrary (not necessarily physical) parameters: the regressor identity is linear."""
    return rng.normal(size=10 * m.n_links)


def rescaled(m: rm.Model, rng: np.random.Generator) -> np.ndarray:
    """The model's own parameters with each link scaled by a positive factor (still physical)."""
    p = m.inertial_parameters().reshape(m.n_links, 10)
    return (p * rng.uniform(0.5, 2.0, (m.n_links, 1))).reshape(-1)


@st.composite
def problems(draw: st.DrawFn, max_links: int = 7):
    """A random tree, base, state, gravity and (sometimes) a moving base."""
    m = draw(models(max_links=max_links))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = m.n_dofs
    state = JointState(
        rng.uniform(-np.pi, np.pi, m.n_pos_coords), rng.uniform(-2, 2, n), rng.uniform(-5, 5, n)
    )
    base = draw(st.integers(0, m.n_links - 1))
    g = rng.normal(scale=5.0, size=3)
    moving = draw(st.booleans())
    v0 = rng.normal(size=6) if moving else None
    a0 = rng.normal(size=6) if moving else None
    return m, base, state, g, v0, a0, rng


# --------------------------------------------------------------------------- regressor


def pendulum() -> rm.Model:
    m = rm.add_link(rm.Model(), "base")
    arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
    j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
    return rm.add_joint_and_link(m, "base", "j", j, "arm", arm)


def test_pendulum_regressor_by_hand():
    """A pendulum about +y, arm along +x at q = 0, with ddq = 1 and gravity -z: the torque is
    ``g_z h_x ... `` so the mass column is zero and the first-moment and Iyy columns are the
    gravity arm and the acceleration."""
    m = pendulum()
    Y = regressor(m, JointState([0.0], [0.0], [1.0]))
    # Link frame = base frame at q = 0. tau_y = (h x a)_y + Iyy ddq with a = (0, 0, 9.81)
    # (gravity as an upward acceleration): (h x a)_y = h_z a_x - h_x a_z = -9.81 h_x.
    expected = np.zeros(20)
    expected[10 + 1] = -9.81
    expected[10 + 7] = 1.0
    np.testing.assert_allclose(Y[0], expected, atol=1e-12)


@given(problems())
def test_regressor_times_parameters_is_inverse_dynamics(prob):
    """For any parameters p, ``regressor(m, ...) @ p`` equals inverse_dynamics of
    ``with_inertial_parameters(m, p)``: joint torques, and the base wrench first when floating,
    for any base, gravity and base motion."""
    m, base, state, g, v0, a0, rng = prob
    p = random_parameters(m, rng)
    kw = {"base": base, "gravity": g, "base_velocity": v0, "base_acceleration": a0}
    r = inverse_dynamics(rm.with_inertial_parameters(m, p), state, **kw)
    Y = regressor(m, state, **kw)
    assert Y.shape == (m.n_dofs, 10 * m.n_links)
    np.testing.assert_allclose(Y @ p, r.joint_torques, atol=1e-9)
    Yf = regressor(m, state, floating=True, **kw)
    assert Yf.shape == (6 + m.n_dofs, 10 * m.n_links)
    np.testing.assert_allclose(Yf @ p, np.concatenate([r.base_wrench, r.joint_torques]), atol=1e-9)


@given(models(max_links=6), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_batch_rows_are_single_regressors(m, N, seed):
    """Sample s of regressor_batch is regressor() of sample s, with per-sample base motion."""
    rng = np.random.default_rng(seed)
    Q = rng.uniform(-3, 3, (N, m.n_pos_coords))
    DQ, DDQ = rng.normal(size=(2, N, m.n_dofs))
    V0, A0 = rng.normal(size=(2, N, 6))
    Y = regressor_batch(m, Q, DQ, DDQ, floating=True, base_velocity=V0, base_acceleration=A0)
    assert Y.shape == (N, 6 + m.n_dofs, 10 * m.n_links)
    for s in range(N):
        single = regressor(
            m,
            JointState(Q[s], DQ[s], DDQ[s]),
            floating=True,
            base_velocity=V0[s],
            base_acceleration=A0[s],
        )
        np.testing.assert_allclose(Y[s], single, atol=1e-10)


def pinocchio_state(pm, m: rm.Model, rng: np.random.Generator, offset: int = 0):
    """A random Pinocchio state and the same state for robomodel, joints matched by name.

    Returns (pq, pv, pa, robomodel JointState, rows) where ``rows[o]`` is the Pinocchio velocity
    index of robomodel DOF ``o``. ``offset`` skips a root joint (the free flyer)."""
    pq = pin.randomConfiguration(pm, -np.ones(pm.nq), np.ones(pm.nq))
    pv, pa = rng.uniform(-1.5, 1.5, (2, pm.nv))
    pq[offset:] = rng.uniform(-1.5, 1.5, pm.nq - offset)
    q, dq, ddq = (np.zeros(m.n_dofs) for _ in range(3))
    rows = np.zeros(m.n_dofs, dtype=int)
    for jid in range(2 if offset else 1, pm.njoints):
        o = m.joint(pm.names[jid]).dof_offset
        rows[o] = pm.joints[jid].idx_v
        q[o], dq[o], ddq[o] = pq[pm.joints[jid].idx_q], pv[rows[o]], pa[rows[o]]
    return pq, pv, pa, JointState(q, dq, ddq), rows


def pinocchio_inertia(v: np.ndarray):
    """pin.Inertia of robomodel parameters ``v``, massless bodies included (Pinocchio's own
    FromDynamicParameters divides by the mass)."""
    if v[0] > 0:
        return pin.Inertia.FromDynamicParameters(v[PIN_OF_RM])
    inertia = np.array([[v[4], v[5], v[6]], [v[5], v[7], v[8]], [v[6], v[8], v[9]]])
    return pin.Inertia(0.0, np.zeros(3), inertia)


def with_pinocchio_inertias(pm, m: rm.Model, p: np.ndarray):
    """A copy of Pinocchio model ``pm`` whose bodies carry robomodel parameters ``p``.

    Pinocchio merges links joined by fixed joints into one body: each body's inertia is the sum
    of its links' inertias moved by their BODY frames' placements (Pinocchio's own geometry)."""
    sums = np.zeros((pm.njoints, 10))
    for f in pm.frames:
        # Massless URDF links are additional frames in robomodel: they contribute nothing.
        if f.type == pin.FrameType.BODY and m.is_link_name_used(f.name):
            k = m.link_index(f.name)
            own = f.placement.act(pinocchio_inertia(p[10 * k : 10 * k + 10]))
            sums[f.parentJoint] += own.toDynamicParameters()
    out = pm.copy()
    for j in range(pm.njoints):
        out.inertias[j] = pinocchio_inertia(sums[j][PIN_OF_RM])
    return out


@pytest.mark.reference
@pytest.mark.parametrize("robot", ROBOTS)
def test_regressor_matches_pinocchio_on_icub_models(robot):
    """On every icub-models robot, at random states: ``Y @ p`` equals pin.rnea on the URDF of
    the model's own parameters and of per-link rescaled ones; and each link that is a
    Pinocchio body (the child of a moving joint, with no fixed links hanging from it) has the
    same regressor columns as pin.computeJointTorqueRegressor, in robomodel's layout."""
    m = load_icub(robot)
    rng = np.random.default_rng(zlib.crc32(robot.encode()))
    pm = pin.buildModelFromUrdf(str(icub_models.get_model_file(robot)))
    pd = pm.createData()
    for p in (m.inertial_parameters(), rescaled(m, rng)):
        pmp = with_pinocchio_inertias(pm, m, p)
        pq, pv, pa, state, rows = pinocchio_state(pmp, m, rng)
        Y = regressor(m, state, gravity=tuple(pmp.gravity.linear))
        tau = pin.rnea(pmp, pmp.createData(), pq, pv, pa)
        np.testing.assert_allclose(Y @ p, tau[rows], atol=1e-8)

    pq, pv, pa, state, rows = pinocchio_state(pm, m, rng)
    Y = regressor(m, state, gravity=tuple(pm.gravity.linear))
    Yp = pin.computeJointTorqueRegressor(pm, pd, pq, pv, pa)
    compared = 0
    for jid in range(1, pm.njoints):
        # The body of joint jid is its child link, plus any link fixed to it.
        child = m.joint_parent_child(pm.names[jid])[1]
        if any(
            f.parentJoint == jid and f.type == pin.FrameType.BODY and f.name != m.link_names[child]
            for f in pm.frames
        ):
            continue
        ours = Y[:, 10 * child : 10 * child + 10]
        theirs = Yp[rows][:, 10 * (jid - 1) : 10 * jid][:, PIN_OF_RM]
        np.testing.assert_allclose(ours, theirs, atol=1e-8)
        compared += 1
    assert compared >= 1


@pytest.mark.reference
@pytest.mark.parametrize("robot", ["iCubGazeboV2_7", "left_hand_mk3"])
def test_floating_regressor_matches_pinocchio_free_flyer(robot):
    """With a free-flyer root, the floating-base regressor times p equals pin.rnea: the first
    six rows are the free flyer's wrench (base frame), gravity seen in the base frame and the
    base twist and acceleration in Pinocchio's local convention."""
    m = load_icub(robot)
    rng = np.random.default_rng(zlib.crc32(robot.encode()) + 3)
    p = rescaled(m, rng)
    path = str(icub_models.get_model_file(robot))
    pm = with_pinocchio_inertias(pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()), m, p)
    pq, pv, pa, state, rows = pinocchio_state(pm, m, rng, offset=7)
    R = pin.Quaternion(pq[3:7]).matrix()
    g = R.T @ pm.gravity.linear
    motion = {"base_velocity": pv[:6], "base_acceleration": pa[:6]}
    Y = regressor(m, state, gravity=g, floating=True, **motion)
    tau = pin.rnea(pm, pm.createData(), pq, pv, pa)
    np.testing.assert_allclose(Y @ p, np.concatenate([tau[:6], tau[rows]]), atol=1e-8)


def test_regressor_refuses_bad_arguments():
    """Wrong sizes and shapes raise robomodel errors that name the argument."""
    m = pendulum()
    with pytest.raises(ModelError, match="q"):
        regressor(m, JointState([0.0, 1.0], [0.0], [0.0]))
    with pytest.raises(ModelError, match="JointState"):
        regressor(m, [0.0])  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="gravity"):
        regressor(m, JointState.zeros(m), gravity=(0, 0))
    with pytest.raises(ArgumentError, match="base_velocity"):
        regressor(m, JointState.zeros(m), base_velocity=np.ones(5))
    with pytest.raises(ModelError, match=r"DQ must have shape \(N, 1\)"):
        regressor_batch(m, np.zeros((2, 1)), np.zeros((2, 2)), np.zeros((2, 1)))
    with pytest.raises(ModelError, match="one row per sample"):
        regressor_batch(m, np.zeros((2, 1)), np.zeros((3, 1)), np.zeros((2, 1)))
    lonely = rm.add_link(m, "lonely")
    with pytest.raises(ModelError, match="lonely"):
        regressor(lonely, JointState.zeros(lonely))


def test_stack_is_samples_in_order_with_weights():
    """stack() puts sample s's rows at [s n, (s + 1) n) and scales rows and torques by the
    weights; Y @ p reproduces the torques of simulated samples."""
    m = load(example_path())
    rng = np.random.default_rng(5)
    N = 4
    Q = rng.uniform(-1, 1, (N, m.n_dofs))
    DQ, DDQ = rng.normal(size=(2, N, m.n_dofs))
    tau = np.array(
        [inverse_dynamics(m, JointState(*s)).joint_torques for s in zip(Q, DQ, DDQ, strict=True)]
    )
    Y, y = stack(m, Samples(q=Q, dq=DQ, ddq=DDQ, torques=tau))
    assert Y.shape == (N * m.n_dofs, 10 * m.n_links)
    np.testing.assert_allclose(Y @ m.inertial_parameters(), y, atol=1e-9)
    second = regressor(m, JointState(Q[1], DQ[1], DDQ[1]))
    np.testing.assert_allclose(Y[m.n_dofs : 2 * m.n_dofs], second, atol=1e-12)
    name = m.joint_names[[j.n_dofs for j in m.joints].index(1)]
    Yw, yw = stack(m, Samples(q=Q, dq=DQ, ddq=DDQ, torques=tau), weights={name: 3.0})
    o = m.joint(name).dof_offset
    np.testing.assert_allclose(Yw[o], 3.0 * Y[o])
    np.testing.assert_allclose(yw[o], 3.0 * y[o])
    with pytest.raises(ModelError, match="floating=True"):
        stack(m, Samples(q=Q, dq=DQ, ddq=DDQ, torques=np.zeros((N, m.n_dofs + 6))))
    with pytest.raises(ModelError, match="one row per sample"):
        Samples(q=Q, dq=DQ[:2], ddq=DDQ, torques=tau)
