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
from hypothesis import given, settings
from hypothesis import strategies as st
from idyntree_oracle import idt, load_icub
from idyntree_oracle import model_to_idt as to_idyntree
from strategies import SLOW, models, models_with_sensors

import robomodel as rm
from robomodel.data import example_path
from robomodel.errors import ArgumentError, ModelError
from robomodel.formats import to_pinocchio
from robomodel.formats.urdf import load
from robomodel.identification import (
    Samples,
    base_parameters,
    identify,
    lumping_matrix,
    parameter_transform,
    pivoted_qr,
    regressor,
    regressor_batch,
    stack,
)
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.inertia import consistency_problems
from robomodel.physics.kinematics import JointState
from robomodel.physics.sensing import predict_sensor_measurements
from robomodel.transformers import make_urdf_compatible, reduce_model

with warnings.catch_warnings():
    # Same SWIG DeprecationWarning as idyntree's (see idyntree_oracle).
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


@settings(max_examples=30)
@given(problems())
def test_regressor_times_parameters_is_inverse_dynamics(prob):
    """For any parameters p, ``regressor(m, ...) @ p`` equals inverse_dynamics of
    ``with_inertial_parameters(m, p)``: joint torques, and the base wrench first when floating,
    for any base, gravity and base motion."""
    check_regressor(prob)


@pytest.mark.slow
@settings(SLOW)
@given(problems(max_links=15))
def test_regressor_times_parameters_is_inverse_dynamics_slow(prob):
    """Slow tier of test_regressor_times_parameters_is_inverse_dynamics, on bigger trees."""
    check_regressor(prob)


def check_regressor(prob) -> None:
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


@settings(max_examples=20)
@given(models(max_links=6), st.sampled_from([1, 3, 12, 17, 24]), st.integers(0, 2**32 - 1))
def test_batch_rows_are_single_regressors(m, N, seed):
    """Sample s of regressor_batch is regressor() of sample s, with per-sample base motion;
    both the few-sample (one product per sample) and the many-sample (subtree runs)
    projections (the threshold is 16 samples)."""
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
@settings(max_examples=20)
@given(models(max_links=6, max_frames=0), st.integers(0, 2**32 - 1))
def test_regressor_matches_pinocchio_on_random_trees(m, seed):
    """On random trees (link frames moved onto the joint axes so that they export as URDF),
    ``Y @ p`` equals pin.rnea on the URDF text for the model's parameters and for per-link
    rescaled ones (continuous joints are (cos, sin) pairs in Pinocchio)."""
    rng = np.random.default_rng(seed)
    for p in (m.inertial_parameters(), rescaled(m, rng)):
        mu = make_urdf_compatible(rm.with_inertial_parameters(m, p))
        pm = to_pinocchio(mu)
        pq = np.zeros(pm.nq)
        pv, pa = rng.normal(size=(2, pm.nv))
        q, dq, ddq = (np.zeros(mu.n_dofs) for _ in range(3))
        rows = np.zeros(mu.n_dofs, dtype=int)
        for jid in range(1, pm.njoints):
            jm, o = pm.joints[jid], mu.joint(pm.names[jid]).dof_offset
            rows[o], i = jm.idx_v, jm.idx_q
            q[o] = rng.uniform(-np.pi, np.pi)
            pq[i : i + jm.nq] = (np.cos(q[o]), np.sin(q[o])) if jm.nq == 2 else q[o]
            dq[o], ddq[o] = pv[rows[o]], pa[rows[o]]
        Y = regressor(mu, JointState(q, dq, ddq), gravity=tuple(pm.gravity.linear))
        tau = pin.rnea(pm, pm.createData(), pq, pv, pa)
        np.testing.assert_allclose(Y @ mu.inertial_parameters(), tau[rows], atol=1e-8)


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


def idt_regressor(m: rm.Model, base: int, state: JointState, v0, a0, g) -> np.ndarray:
    """iDynTree's InverseDynamicsInertialParametersRegressor (base-wrench rows, then joint
    torques) after ForwardPosVelAccKinematics, with the base frame as the reference frame."""
    im = to_idyntree(m)
    trav = idt.Traversal()
    assert im.computeFullTreeTraversal(trav, base)
    pos, vel, acc = idt.FreeFloatingPos(im), idt.FreeFloatingVel(im), idt.FreeFloatingAcc(im)
    pos.worldBasePos = idt.Transform.Identity()
    for i in range(m.n_dofs):
        pos.jointPos.setVal(i, float(state.q[i]))
        vel.jointVel.setVal(i, float(state.dq[i]))
        acc.jointAcc.setVal(i, float(state.ddq[i]))
    proper = np.concatenate([a0[:3] - g, a0[3:]])  # gravity as an upward base acceleration
    base_acc = acc.baseAcc
    for i in range(6):
        vel.baseVel.setVal(i, float(v0[i]))
        base_acc.setVal(i, float(proper[i]))
    lp, lv, la = idt.LinkPositions(im), idt.LinkVelArray(im), idt.LinkAccArray(im)
    assert idt.ForwardPosVelAccKinematics(im, trav, pos, vel, acc, lp, lv, la)
    out = idt.MatrixDynSize(6 + m.n_dofs, 10 * m.n_links)
    assert idt.InverseDynamicsInertialParametersRegressor(im, trav, lp, lv, la, out)
    return out.toNumPy()


@pytest.mark.reference
@settings(max_examples=30)
@given(problems())
def test_regressor_is_idyntrees_inertial_parameters_regressor(prob):
    """The floating-base regressor equals iDynTree's InverseDynamicsInertialParametersRegressor
    entry by entry (same parameter layout, same rows), for any base, gravity and base motion."""
    m, base, state, g, v0, a0, _ = prob
    v0 = np.zeros(6) if v0 is None else v0
    a0 = np.zeros(6) if a0 is None else a0
    Y = regressor(
        m, state, base=base, gravity=g, floating=True, base_velocity=v0, base_acceleration=a0
    )
    np.testing.assert_allclose(Y, idt_regressor(m, base, state, v0, a0, g), atol=1e-9)


def test_regressor_refuses_bad_arguments():
    """Wrong sizes and shapes raise robomodel errors that name the argument."""
    m = pendulum()
    with pytest.raises(ModelError, match="q"):
        regressor(m, JointState([0.0, 1.0], [0.0], [0.0]))
    with pytest.raises(ArgumentError, match=r"JointState\.zeros"):
        regressor(m, None)  # type: ignore[arg-type]
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


# --------------------------------------------------------------------------- F/T sensor rows


@settings(max_examples=30)
@given(models_with_sensors(), st.integers(0, 2**32 - 1), st.booleans())
def test_sensor_rows_times_parameters_are_sensor_predictions(m, seed, moving):
    """The six rows of an F/T sensor times any p are predict_sensor_measurements' reading of
    with_inertial_parameters(m, p), for any base, gravity and base motion."""
    rng = np.random.default_rng(seed)
    state = JointState(rng.uniform(-3, 3, m.n_pos_coords), *rng.normal(size=(2, m.n_dofs)))
    kw = {
        "base": int(rng.integers(m.n_links)),
        "gravity": rng.normal(scale=5.0, size=3),
        "base_velocity": rng.normal(size=6) if moving else None,
        "base_acceleration": rng.normal(size=6) if moving else None,
    }
    p = random_parameters(m, rng)
    reading = predict_sensor_measurements(rm.with_inertial_parameters(m, p), state, **kw)["ft"]
    Y = regressor(m, state, floating=True, sensors=["ft"], **kw)
    assert Y.shape == (12 + m.n_dofs, 10 * m.n_links)
    np.testing.assert_allclose(Y[-6:] @ p, reading, atol=1e-9)


def test_few_and_many_sample_projections_agree_with_sensors():
    """The few-sample projection (one matrix product per sample, up to 16 samples) gives the
    rows of the many-sample one (subtree runs), sensor and base-wrench rows included, and zero
    blocks exactly zero."""
    m = load(example_path())
    rng = np.random.default_rng(9)
    Q = rng.uniform(-1.5, 1.5, (20, m.n_dofs))
    DQ, DDQ = rng.normal(size=(2, 20, m.n_dofs))
    kw = {
        "floating": True,
        "sensors": ["l_leg_ft", "r_leg_ft"],
        "base_velocity": rng.normal(size=6),
    }
    many = regressor_batch(m, Q, DQ, DDQ, **kw)
    few = regressor_batch(m, Q[:5], DQ[:5], DDQ[:5], **kw)
    np.testing.assert_allclose(few, many[:5], rtol=0, atol=1e-12)
    blocks = np.abs(many).reshape(20, -1, m.n_links, 10).max(axis=(0, 3)) == 0
    assert (np.abs(few).reshape(5, -1, m.n_links, 10).max(axis=(0, 3))[blocks] == 0).all()


@pytest.mark.parametrize("chunk", [7, 64, 1000])
def test_many_samples_are_the_same_bits_in_any_chunks(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """A batch too large for one product with the ancestor matrix (here 400 samples of 27
    links) runs through the kinematics in chunks of samples: every chunking (a last chunk
    shorter than the others, one chunk for all) gives the same bits, base-wrench, sensor and
    per-sample base-acceleration rows included."""
    import robomodel.identification.regressors as regressors

    m = load(example_path())
    rng = np.random.default_rng(11)
    n = 400
    Q = rng.uniform(-1.5, 1.5, (n, m.n_dofs))
    DQ, DDQ = rng.normal(size=(2, n, m.n_dofs))
    kw = {
        "floating": True,
        "sensors": ["l_leg_ft", "r_leg_ft"],
        "base_velocity": rng.normal(size=6),
        "base_acceleration": rng.normal(size=(n, 6)),
    }
    whole = regressor_batch(m, Q, DQ, DDQ, **kw)
    monkeypatch.setattr(regressors, "_CHUNK", chunk)
    chunked = regressor_batch(m, Q, DQ, DDQ, **kw)
    assert chunked.tobytes() == whole.tobytes()


def _poses_by_einsum(tree, Q):
    """The poses as the regressor composed them with np.einsum (the reference of poses())."""
    N, nl = len(Q), tree.coord.shape[0]
    c1, c2 = np.zeros((2, nl, N))
    rv, pr = tree.revolute, tree.prismatic
    c1[rv] = np.sin(Q.T[tree.coord[rv]])
    c2[rv] = 1.0 - np.cos(Q.T[tree.coord[rv]])
    c1[pr] = Q.T[tree.coord[pr]]
    J0, J1, J2 = tree.J[..., None]  # (row j, position, column c, 1)
    Jq = J0 + J1 * c1[:, None]
    Jq += J2 * c2[:, None]
    Jq = Jq.transpose(0, 2, 1, 3)  # (j, c, position, N)
    H = np.empty((3, 4, nl, N))
    H[:, :, 0] = np.eye(3, 4)[..., None]
    for (lo, hi, _), (_, parents) in zip(tree.levels, tree.level_links, strict=True):
        Hp = H[:, :, tree.position[parents]]
        np.einsum("ij...,jk...->ik...", Hp[:, :3], Jq[:, :, lo:hi], out=H[:, :, lo:hi])
        H[:, 3, lo:hi] += Hp[:, 3]
    return H[:, :3][:, :, tree.position], H[:, 3][:, tree.position]


@given(models(max_links=12), st.integers(0, 2**32 - 1), st.sampled_from([1, 2, 7, 40]))
@settings(max_examples=40, deadline=None)
def test_poses_by_gathers_are_the_einsum_products(m, seed, n):
    """poses() (a gather, a product and an ordered sum per level) gives, bit for bit, the einsum
    sums from 0.0 it replaced, zeros' signs included, exact zeros among the positions."""
    from robomodel.identification._tree import poses, tree_of

    t = m.traversal()
    if len(t) != m.n_links:
        return
    tree = tree_of(m, t.links[0])
    Q = np.random.default_rng(seed).uniform(-3, 3, (n, m.n_pos_coords))
    Q[0] = 0.0
    R, p = poses(tree, Q)
    R0, p0 = _poses_by_einsum(tree, Q)
    assert R.tobytes() == np.ascontiguousarray(R0).tobytes()
    assert p.tobytes() == np.ascontiguousarray(p0).tobytes()


@given(models(max_links=12), st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_sums_over_ancestors_by_level_are_the_link_by_link_sums(m, seed):
    """Summing over ancestors one tree level at a time (each link adds its parent's finished
    sum) gives, bit for bit, the pass over the links in traversal order it replaced, and the
    ancestor-matrix product to rounding."""
    import robomodel.identification.regressors as regressors
    from robomodel.identification._tree import tree_of

    t = m.traversal()
    if len(t) != m.n_links:
        return
    tree = tree_of(m, t.links[0])
    x = np.random.default_rng(seed).normal(size=(6, m.n_links, 5))
    plain = x.copy()
    for link, parent in zip(t.links[1:], t.parents[1:], strict=True):
        plain[:, link] += plain[:, parent]
    by_level = regressors._down(tree, x, dense=False)
    assert by_level.tobytes() == plain.tobytes()
    np.testing.assert_allclose(regressors._down(tree, x, dense=True), plain, atol=1e-12)


def test_sensor_rows_see_only_the_measured_side():
    """On the bundled humanoid, a leg sensor's rows have non-zero columns only for the links
    beyond it (the upper leg down to the foot), and sensors alone identify the legs' base
    parameters (those of the subtree model) from noise-free readings."""
    m = load(example_path())
    rng = np.random.default_rng(8)
    N = 30
    Q = rng.uniform(-1.5, 1.5, (N, m.n_dofs))
    DQ, DDQ = rng.normal(size=(2, N, m.n_dofs))
    sensors = ["l_leg_ft", "r_leg_ft"]
    Y = regressor_batch(m, Q, DQ, DDQ, sensors=sensors)[:, m.n_dofs :]
    used = np.abs(Y).reshape(N, 12, m.n_links, 10).max(axis=(0, 1, 3)) > 0
    leg = {m.link_names[i] for i in np.nonzero(used)[0]}
    assert "l_upper_leg" in leg and "r_upper_leg" in leg
    assert not leg & {"base_link", "l_hip_3", "r_hip_3", "l_upper_arm", "torso"}
    wrenches = {
        name: np.array(
            [
                predict_sensor_measurements(m, JointState(*s))[name]
                for s in zip(Q, DQ, DDQ, strict=True)
            ]
        )
        for name in sensors
    }
    samples = Samples(q=Q, dq=DQ, ddq=DDQ, wrenches=wrenches)
    Ys, ys = stack(m, samples)
    assert Ys.shape == (N * 12, 10 * m.n_links)
    np.testing.assert_allclose(Ys @ m.inertial_parameters(), ys, atol=1e-9)
    prior = rm.with_inertial_parameters(m, m.inertial_parameters() * rng.uniform(0.7, 1.3, 270))
    alone = identify(prior, samples)
    assert alone.base is base_parameters(prior, sensors=sensors, torques=False)
    assert alone.base.count < base_parameters(m).count
    np.testing.assert_allclose(alone.beta, alone.base.from_full(m.inertial_parameters()), atol=1e-8)
    # What the leg sensors cannot see (the arms, say) stays as in the prior.
    arm = m.link_index("l_upper_arm")
    np.testing.assert_allclose(
        alone.parameters[10 * arm : 10 * arm + 10],
        prior.inertial_parameters()[10 * arm : 10 * arm + 10],
    )
    both = Samples(
        q=Q,
        dq=DQ,
        ddq=DDQ,
        torques=regressor_batch(m, Q, DQ, DDQ) @ m.inertial_parameters(),
        wrenches=wrenches,
    )
    result = identify(prior, both, weights={"l_leg_ft": 2.0})
    np.testing.assert_allclose(
        result.beta, result.base.from_full(m.inertial_parameters()), atol=1e-8
    )
    assert result.row_names[-6:] == tuple(
        f"r_leg_ft_{c}" for c in ("fx", "fy", "fz", "tx", "ty", "tz")
    )
    with pytest.raises(ModelError, match="not a force/torque sensor"):
        regressor(m, JointState.zeros(m), sensors=[m.sensors_of_type(rm.Accelerometer)[0].name])
    with pytest.raises(rm.UnknownNameError):
        regressor(m, JointState.zeros(m), sensors=["nope"])
    with pytest.raises(ModelError, match="nothing to fit"):
        Samples(q=Q, dq=DQ, ddq=DDQ)


# --------------------------------------------------------------------------- base parameters


def test_pivoted_qr_factorises_with_a_sorted_diagonal():
    """A[:, perm] = Q R with R upper triangular, |diag R| non-increasing, and R^T R equal to
    A[:, perm]^T A[:, perm] (Q orthogonal); a rank-deficient A ends in a zero diagonal."""
    rng = np.random.default_rng(3)
    A = rng.normal(size=(9, 6)) @ np.diag([1, 10, 0.1, 5, 2, 3])
    A[:, 4] = A[:, 0] - 2 * A[:, 2]  # rank 5
    R, perm = pivoted_qr(A)
    assert sorted(perm.tolist()) == list(range(6))
    np.testing.assert_allclose(np.tril(R, -1), 0.0)
    d = np.abs(np.diag(R))
    assert np.all(d[:-1] >= d[1:] - 1e-12)
    np.testing.assert_allclose(R.T @ R, A[:, perm].T @ A[:, perm], atol=1e-9)
    assert d[-1] < 1e-12 * d[0]


@pytest.mark.parametrize("floating", [False, True])
def test_base_parameters_reproduce_every_regressor(floating):
    """For any p and at states other than those used to find them, Y @ p equals
    Y_base @ beta(p); to_full(beta) has base parameters beta, and with a reference it is the
    nearest such vector (its change is orthogonal to the null space of B)."""
    m = load(example_path())
    bp = base_parameters(m, floating=floating)
    assert bp.count == np.linalg.matrix_rank(bp.matrix)
    rng = np.random.default_rng(11)
    N = 6
    Q = rng.uniform(-3, 3, (N, m.n_dofs))
    DQ, DDQ = rng.normal(size=(2, N, m.n_dofs))
    V0, A0 = rng.normal(size=(2, N, 6)) if floating else (None, None)
    kw = {"floating": floating, "base_velocity": V0, "base_acceleration": A0}
    Y = regressor_batch(m, Q, DQ, DDQ, **kw).reshape(-1, 10 * m.n_links)
    p = random_parameters(m, rng)
    beta = bp.from_full(p)
    np.testing.assert_allclose(bp.regressor(Y) @ beta, Y @ p, atol=1e-9 * np.abs(Y @ p).max())
    np.testing.assert_allclose(bp.matrix @ p, beta, atol=1e-12)
    np.testing.assert_allclose(bp.from_full(bp.to_full(beta)), beta, atol=1e-10)
    ref = random_parameters(m, rng)
    near = bp.to_full(beta, reference=ref)
    np.testing.assert_allclose(bp.from_full(near), beta, atol=1e-9)
    # near - ref is in the row space of B: no component along B's null space.
    null = np.linalg.svd(bp.matrix)[2][bp.count :]
    np.testing.assert_allclose(null @ (near - ref), 0.0, atol=1e-9)
    assert base_parameters(m, floating=floating) is bp  # memoised on the model


@pytest.mark.reference
@pytest.mark.parametrize(
    "robot",
    [pytest.param("iCubGazeboV2_7", marks=pytest.mark.slow), "left_hand_mk3", "left_wrist_mk2"],
)
@pytest.mark.parametrize("floating", [False, True])
def test_base_parameter_count_is_pinocchio_regressor_rank(robot, floating):
    """The number of base parameters equals the numerical rank of Pinocchio's
    computeJointTorqueRegressor stacked over random states (free flyer for a floating base)."""
    m = load_icub(robot)
    bp = base_parameters(m, floating=floating)
    path = str(icub_models.get_model_file(robot))
    pm = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating else None
    pm = pm if pm is not None else pin.buildModelFromUrdf(path)
    pd = pm.createData()
    rng = np.random.default_rng(zlib.crc32(robot.encode()))
    rows = []
    for _ in range(2 * bp.n_parameters // pm.nv + 4):
        q = pin.randomConfiguration(pm, -np.pi * np.ones(pm.nq), np.pi * np.ones(pm.nq))
        v, a = rng.normal(size=(2, pm.nv))
        rows.append(pin.computeJointTorqueRegressor(pm, pd, q, v, a).copy())
    assert bp.count == np.linalg.matrix_rank(np.vstack(rows))
    # The decision is clear: a wide gap between the last kept and the first dropped value.
    sv = bp.singular_values
    assert sv[bp.count - 1] > 1e6 * sv[min(bp.count, len(sv) - 1)]


def test_base_parameters_of_a_pendulum_by_hand():
    """A pendulum about y with gravity along -z: the torque is -9.81 h_x + Iyy ddq (in the arm
    frame at q = 0, rotated with q), so exactly h_x, h_z and Iyy are identifiable, as 3 base
    parameters; the base link's 10 and the rest of the arm's do not appear."""
    m = pendulum()
    bp = base_parameters(m)
    assert bp.count == 3
    assert sorted(bp.independent.tolist()) == [11, 13, 17]
    np.testing.assert_allclose(bp.coefficients, 0.0)


def test_base_parameters_refuse_bad_arguments():
    """An empty model, a model with no joint, and a tolerance outside (0, 1) are refused."""
    with pytest.raises(ModelError, match="no links"):
        base_parameters(rm.Model())
    with pytest.raises(ModelError, match="nothing is measured"):
        base_parameters(rm.add_link(rm.Model(), "a"))
    with pytest.raises(ModelError, match="tolerance"):
        base_parameters(pendulum(), tolerance=2.0)
    bp = base_parameters(pendulum())
    with pytest.raises(ModelError, match="20"):
        bp.regressor(np.zeros((2, 19)))
    with pytest.raises(ModelError, match="beta"):
        bp.to_full(np.zeros(4))


# --------------------------------------------------------------------------- lumping


@st.composite
def reductions(draw: st.DrawFn, max_links: int = 7):
    """A random tree, a subset of its joints to keep and locked positions for the others."""
    m = draw(models(max_links=max_links))
    keep = draw(st.lists(st.sampled_from(m.joint_names), unique=True)) if m.n_joints else []
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    locked = {
        name: float(rng.uniform(-np.pi, np.pi))
        for name, j in zip(m.joint_names, m.joints, strict=True)
        if j.n_dofs and name not in keep and draw(st.booleans())
    }
    return m, keep, locked, rng


@settings(max_examples=30)
@given(reductions())
def test_lumping_matrix_is_reduce_model(prob):
    """reduce_model(with_inertial_parameters(m, p), ...).inertial_parameters() == L @ p for
    any p, kept joints and locked positions; and the reduced model's regressor times L p is the
    full regressor times p at states with the removed joints locked (and still)."""
    check_lumping(prob)


@pytest.mark.slow
@settings(SLOW)
@given(reductions(max_links=15))
def test_lumping_matrix_is_reduce_model_slow(prob):
    """Slow tier of test_lumping_matrix_is_reduce_model, on bigger trees."""
    check_lumping(prob)


def check_lumping(prob) -> None:
    m, keep, locked, rng = prob
    L = lumping_matrix(m, keep_joints=keep, locked_positions=locked)
    p = random_parameters(m, rng)
    reduced = reduce_model(
        rm.with_inertial_parameters(m, p), keep_joints=keep, locked_positions=locked
    )
    assert L.shape == (10 * reduced.n_links, 10 * m.n_links)
    np.testing.assert_allclose(reduced.inertial_parameters(), L @ p, atol=1e-9)

    q_red = rng.uniform(-np.pi, np.pi, reduced.n_pos_coords)
    dq_red, ddq_red = rng.normal(size=(2, reduced.n_dofs))
    q, dq, ddq = np.zeros(m.n_pos_coords), np.zeros(m.n_dofs), np.zeros(m.n_dofs)
    for name, value in locked.items():
        q[m.joint(name).pos_coord_offset] = value
    rows = []
    for name in keep:
        jr, jf = reduced.joint(name), m.joint(name)
        if jf.n_dofs:
            q[jf.pos_coord_offset] = q_red[jr.pos_coord_offset]
            dq[jf.dof_offset], ddq[jf.dof_offset] = dq_red[jr.dof_offset], ddq_red[jr.dof_offset]
            rows.append((jr.dof_offset, jf.dof_offset))
    Y_red = regressor(reduced, JointState(q_red, dq_red, ddq_red))
    Y_full = regressor(m, JointState(q, dq, ddq))
    for r, f in rows:
        assert Y_red[r] @ (L @ p) == pytest.approx(Y_full[f] @ p, abs=1e-8)


def test_lumping_everything_into_the_base_is_the_total_inertia():
    """With no joint kept, L @ p is the whole model's composite inertia in the base frame at
    the locked positions (robomodel.physics.kinematics.total_spatial_inertia)."""
    m = load(example_path())
    rng = np.random.default_rng(2)
    q = rng.uniform(-1, 1, m.n_dofs)
    locked = {
        n: q[j.pos_coord_offset] for n, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs
    }
    L = lumping_matrix(m, keep_joints=[], locked_positions=locked)
    total = rm.total_spatial_inertia(m, q)
    np.testing.assert_allclose(L @ m.inertial_parameters(), total.as_vector(), atol=1e-12)


def test_parameter_transform_composes():
    """T(A_H_B) T(B_H_C) = T(A_H_C), and T of the identity is the identity."""
    X = rm.Transform.from_rpy_xyz((0.3, -0.2, 1.1), (0.1, 0.5, -0.3))
    Z = rm.Transform.from_rpy_xyz((-0.7, 0.4, 0.2), (1.0, 0.0, 0.2))
    np.testing.assert_allclose(
        parameter_transform(X) @ parameter_transform(Z), parameter_transform(X @ Z), atol=1e-12
    )
    np.testing.assert_allclose(parameter_transform(rm.Transform()), np.eye(10))


def test_lumping_matrix_refuses_bad_arguments():
    """Unknown joints, a single string and disconnected links raise robomodel errors."""
    m = pendulum()
    with pytest.raises(rm.UnknownNameError):
        lumping_matrix(m, keep_joints=["nope"])
    with pytest.raises(ArgumentError, match="list"):
        lumping_matrix(m, keep_joints="j")
    with pytest.raises(rm.TopologyError, match="lonely"):
        lumping_matrix(rm.add_link(m, "lonely"), keep_joints=[])


# --------------------------------------------------------------------------- identify


def simulated(m: rm.Model, N: int, seed: int, noise: float = 0.0):
    """Torques of ``m`` at N random states, plus Gaussian noise of standard deviation noise."""
    rng = np.random.default_rng(seed)
    Q = rng.uniform(-1.5, 1.5, (N, m.n_pos_coords))
    DQ, DDQ = rng.normal(size=(2, N, m.n_dofs))
    Y = regressor_batch(m, Q, DQ, DDQ)
    tau = Y @ m.inertial_parameters() + noise * rng.normal(size=(N, m.n_dofs))
    return Samples(q=Q, dq=DQ, ddq=DDQ, torques=tau), rng


def test_identify_recovers_the_bundled_model_from_noise_free_data():
    """From a prior with every parameter off by up to 30 %, noise-free torques of the bundled
    model give back its base parameters to 1e-8, and residuals at round-off; what the data
    cannot see stays as in the prior."""
    m = load(example_path())
    samples, rng = simulated(m, 40, seed=1)
    prior = rm.with_inertial_parameters(
        m, m.inertial_parameters() * rng.uniform(0.7, 1.3, 10 * m.n_links)
    )
    result = identify(prior, samples)
    bp = result.base
    truth = bp.from_full(m.inertial_parameters())
    np.testing.assert_allclose(result.beta, truth, atol=1e-8)
    np.testing.assert_allclose(bp.from_full(result.model.inertial_parameters()), truth, atol=1e-8)
    assert max(result.rms.values()) < 1e-9
    # The unidentifiable part (B's null space) is the prior's.
    null = np.linalg.svd(bp.matrix)[2][bp.count :]
    np.testing.assert_allclose(
        null @ result.parameters, null @ prior.inertial_parameters(), atol=1e-8
    )
    assert "base parameters from 40 samples" in result.report()
    assert set(result.rms) == {n for n, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs}


def test_identify_with_noise_is_within_its_statistical_error():
    """With Gaussian torque noise, the estimate's error is consistent with its own covariance:
    the Mahalanobis distance to the truth is within a chi-square bound for count degrees of
    freedom, and the residual rms is the noise level."""
    m = load(example_path())
    sigma = 0.05
    samples, _ = simulated(m, 80, seed=4, noise=sigma)
    result = identify(m, samples)
    bp = result.base
    err = result.beta - bp.from_full(m.inertial_parameters())
    assert result.covariance is not None
    d2 = float(err @ np.linalg.solve(result.covariance, err))
    k = bp.count
    assert d2 < k + 6 * np.sqrt(2 * k)
    rms = np.sqrt(np.mean(result.residuals**2))
    assert 0.8 * sigma < rms < 1.1 * sigma


def test_identify_consistent_projects_every_link():
    """consistent=True returns a model whose every link inertia passes consistency_problems."""
    m = load(example_path())
    samples, _ = simulated(m, 40, seed=6, noise=0.5)
    bad = rm.with_inertial_parameters(m, -m.inertial_parameters())
    result = identify(bad, samples, consistent=True)
    for link in result.model.links:
        assert consistency_problems(link.inertia) == ()


def test_identify_floating_and_weights():
    """A floating base identifies from base-wrench rows too; weights scale rows and leave a
    noise-free estimate unchanged; a mismatched structure or too few samples are refused."""
    m = load(example_path())
    rng = np.random.default_rng(9)
    N = 12
    Q = rng.uniform(-1.5, 1.5, (N, m.n_dofs))
    DQ, DDQ = rng.normal(size=(2, N, m.n_dofs))
    V0, A0 = rng.normal(size=(2, N, 6))
    Y = regressor_batch(m, Q, DQ, DDQ, floating=True, base_velocity=V0, base_acceleration=A0)
    samples = Samples(
        q=Q,
        dq=DQ,
        ddq=DDQ,
        torques=Y @ m.inertial_parameters(),
        base_velocity=V0,
        base_acceleration=A0,
    )
    weights = rng.uniform(0.5, 2.0, 6 + m.n_dofs)
    result = identify(m, samples, floating=True, weights=weights)
    truth = result.base.from_full(m.inertial_parameters())
    np.testing.assert_allclose(result.beta, truth, atol=1e-8)
    assert result.row_names[:6] == (
        "base_fx",
        "base_fy",
        "base_fz",
        "base_tx",
        "base_ty",
        "base_tz",
    )
    with pytest.raises(ModelError, match="structure"):
        identify(m, samples, floating=True, structure=base_parameters(pendulum()))
    with pytest.raises(ModelError, match="more samples"):
        few = Samples(q=Q[:1], dq=DQ[:1], ddq=DDQ[:1], torques=samples.torques[:1])
        identify(m, few, floating=True)
