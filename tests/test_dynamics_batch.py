"""Tests of robomodel.physics.dynamics.inverse_dynamics_batch (RNEA over many states at once)."""

from __future__ import annotations

import concurrent.futures
import warnings
import zlib

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from idyntree_oracle import load_icub
from strategies import models

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.physics.dynamics import inverse_dynamics, inverse_dynamics_batch
from robomodel.physics.kinematics import JointState

with warnings.catch_warnings():
    # Same SWIG DeprecationWarning as idyntree's (see idyntree_oracle).
    warnings.simplefilter("ignore", DeprecationWarning)
    import pinocchio as pin


@st.composite
def batch_problems(draw: st.DrawFn, max_links: int = 8):
    """A random tree, base, N states, base motion, gravity and external wrenches (some of them
    the same for every state, some one row per state)."""
    m = draw(models(max_links=max_links))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    N = draw(st.integers(1, 5))
    n = m.n_dofs
    Q = rng.uniform(-np.pi, np.pi, (N, m.n_pos_coords))
    DQ, DDQ = rng.uniform(-2, 2, (N, n)), rng.uniform(-5, 5, (N, n))
    base = draw(st.integers(0, m.n_links - 1))
    kw = {
        "base": base,
        "gravity": rng.normal(scale=5.0, size=3),
        "base_acceleration": rng.normal(size=6) if draw(st.booleans()) else None,
        "base_velocity": rng.normal(size=6) if draw(st.booleans()) else None,
    }
    links = draw(st.lists(st.integers(0, m.n_links - 1), unique=True, max_size=3))
    kw["external_wrenches"] = {
        i: rng.normal(size=(N, 6)) if draw(st.booleans()) else rng.normal(size=6) for i in links
    }
    return m, Q, DQ, DDQ, kw


@given(batch_problems())
def test_rows_equal_the_single_state_function(p):
    """Row i of inverse_dynamics_batch is inverse_dynamics' torques of state i, with the same
    base, gravity, base motion and external wrenches (fixed joints, prismatic joints, any base)."""
    m, Q, DQ, DDQ, kw = p
    out = inverse_dynamics_batch(m, Q, DQ, DDQ, **kw)
    assert out.shape == (len(Q), m.n_dofs)
    assert not out.flags.writeable
    for i in range(len(Q)):
        ext = {k: (w[i] if w.ndim == 2 else w) for k, w in kw["external_wrenches"].items()}
        one = inverse_dynamics(
            m, JointState(Q[i], DQ[i], DDQ[i]), **{**kw, "external_wrenches": ext}
        )
        np.testing.assert_allclose(out[i], one.joint_torques, rtol=1e-9, atol=1e-8)


@pytest.mark.reference
def test_matches_pinocchio_on_icub():
    """pin.rnea on Pinocchio's own load of iCubGazeboV2_7 (fixed base at the URDF root) gives the
    same torques for 300 random states, joints matched by name (the two libraries number them
    differently)."""
    robot = "iCubGazeboV2_7"
    m = load_icub(robot)
    pm = pin.buildModelFromUrdf(str(icub_models.get_model_file(robot)))
    pd = pm.createData()
    rng = np.random.default_rng(zlib.crc32(robot.encode()))
    N = 300
    PQ, PV, PA = rng.uniform(-1.5, 1.5, (3, N, pm.nq))
    ours, theirs = [], []
    for jid in range(1, pm.njoints):
        ours.append(m.joint(pm.names[jid]).dof_offset)
        theirs.append(pm.joints[jid].idx_v)
    assert sorted(ours) == list(range(m.n_dofs))
    Q, DQ, DDQ = (np.zeros((N, m.n_dofs)) for _ in range(3))
    Q[:, ours], DQ[:, ours], DDQ[:, ours] = PQ[:, theirs], PV[:, theirs], PA[:, theirs]
    tau = inverse_dynamics_batch(m, Q, DQ, DDQ, gravity=tuple(pm.gravity.linear))
    for i in range(N):
        expected = pin.rnea(pm, pd, PQ[i], PV[i], PA[i])
        np.testing.assert_allclose(tau[i, ours], expected[theirs], atol=1e-8)


def pendulum() -> rm.Model:
    m = rm.add_link(rm.Model(), "base")
    arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
    j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
    return rm.add_joint_and_link(m, "base", "j", j, "arm", arm)


def test_pendulum_by_hand():
    """A 2 kg point at 0.5 m about +y: gravity torque m g l cos(q) (sign: +y rotation lifts the
    point), plus the inertia m l^2 + I_yy times the acceleration; no states give (0, n)."""
    m = pendulum()
    Q = np.array([[0.0], [0.3], [1.0]])
    DDQ = np.array([[0.0], [0.0], [2.0]])
    tau = inverse_dynamics_batch(m, Q, np.zeros((3, 1)), DDQ)
    expected = -2.0 * 9.81 * 0.5 * np.cos(Q[:, 0]) + (2.0 * 0.25 + 0.01) * DDQ[:, 0]
    np.testing.assert_allclose(tau[:, 0], expected, atol=1e-12)
    assert inverse_dynamics_batch(
        m, np.zeros((0, 1)), np.zeros((0, 1)), np.zeros((0, 1))
    ).shape == (
        0,
        1,
    )


def test_a_model_without_joints():
    """A single link has no torques: (N, 0)."""
    m = rm.add_link(rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0))))
    assert inverse_dynamics_batch(
        m, np.zeros((4, 0)), np.zeros((4, 0)), np.zeros((4, 0))
    ).shape == (
        4,
        0,
    )


def test_errors():
    """Wrong shapes, mismatched state counts, non-finite numbers, bad wrenches and unknown links
    are refused with robomodel errors."""
    m = pendulum()
    z = np.zeros((2, 1))
    with pytest.raises(ArgumentError, match="Q must have shape"):
        inverse_dynamics_batch(m, np.zeros((2, 2)), z, z)
    with pytest.raises(ArgumentError, match="DQ must have shape"):
        inverse_dynamics_batch(m, z, np.zeros((3, 1)), z)
    with pytest.raises(ArgumentError, match="DDQ must be finite"):
        inverse_dynamics_batch(m, z, z, np.array([[0.0], [np.nan]]))
    with pytest.raises(ArgumentError, match="gravity"):
        inverse_dynamics_batch(m, z, z, z, gravity=(0, 0))
    with pytest.raises(ArgumentError, match="external_wrenches must be a mapping"):
        inverse_dynamics_batch(m, z, z, z, external_wrenches=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="external wrench on 'arm'"):
        inverse_dynamics_batch(m, z, z, z, external_wrenches={"arm": np.zeros((3, 6))})
    with pytest.raises(UnknownNameError):
        inverse_dynamics_batch(m, z, z, z, external_wrenches={"hand": np.zeros(6)})
    with pytest.raises(UnknownNameError):
        inverse_dynamics_batch(m, z, z, z, base="hand")
    loose = rm.add_link(m, "loose")
    with pytest.raises(ModelError, match="connected"):
        inverse_dynamics_batch(loose, z, z, z)


def test_results_survive_later_calls_and_other_threads():
    """The engine reuses its work arrays between calls: a returned array must not change when
    later calls (of other sizes, or in other threads at the same time) run."""
    m = load_icub("iCubGazeboV2_7")
    rng = np.random.default_rng(3)

    def problem(N):
        return tuple(rng.uniform(-1, 1, (N, m.n_dofs)) for _ in range(3))

    problems = [problem(N) for N in (7, 7, 30, 1, 30, 7)]
    expected = [
        np.array(
            [inverse_dynamics(m, JointState(*row)).joint_torques for row in zip(*p, strict=True)]
        )
        for p in problems
    ]
    first = [inverse_dynamics_batch(m, *p) for p in problems]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda p: inverse_dynamics_batch(m, *p), problems * 4))
    for got, want in zip(first + threaded, expected * 5, strict=True):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
