"""Hand-computed inverse dynamics: a planar double pendulum with velocities, an external wrench.

The pendulum: ``base`` (fixed) -> revolute ``j1`` about z at the origin -> ``l1`` -> revolute
``j2`` about z at (L1, 0, 0) of l1 -> ``l2``. Link k has mass m_k, its centre of mass at
(c_k, 0, 0) of its frame and the moment of inertia I_k about the vertical axis through it (the
other two principal moments take no part in the planar motion). Gravity, when there is some,
is g along -y, in the plane of motion.

With s1 = sin q1, s12 = sin(q1 + q2), ... the centres of mass are at
p1 = c1 (cos q1, sin q1) and p2 = L1 (cos q1, sin q1) + c2 (cos q12, sin q12). The kinetic energy
T = 1/2 m1 |p1'|^2 + 1/2 I1 q1'^2 + 1/2 m2 |p2'|^2 + 1/2 I2 (q1' + q2')^2, with
|p2'|^2 = L1^2 q1'^2 + c2^2 (q1' + q2')^2 + 2 L1 c2 cos(q2) q1' (q1' + q2'), gives the mass
matrix

    M11 = I1 + I2 + m1 c1^2 + m2 (L1^2 + c2^2 + 2 L1 c2 cos q2)
    M12 = M21 = I2 + m2 (c2^2 + L1 c2 cos q2)
    M22 = I2 + m2 c2^2.

Lagrange's equations tau = M q'' + C + G add, with h = m2 L1 c2 sin q2 (from dM11/dq2 = -2h and
dM12/dq2 = -h), the Coriolis and centrifugal torques

    C1 = -h (2 q1' q2' + q2'^2)        C2 = h q1'^2

and, from the potential V = g (m1 c1 s1 + m2 (L1 s1 + c2 s12)), the gravity torques

    G1 = g ((m1 c1 + m2 L1) cos q1 + m2 c2 cos q12)        G2 = g m2 c2 cos q12.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import robomodel as rm
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState

M1, C1, I1, L1 = 1.3, 0.4, 0.05, 0.9
M2, C2, I2 = 0.8, 0.35, 0.02
G = 9.81


def _pendulum() -> rm.Model:
    def link(m: float, c: float, izz: float) -> rm.Link:
        # Off-plane moments chosen unequal, so that they would show if the plane were wrong.
        return rm.Link(rm.SpatialInertia.from_com(m, (c, 0.0, 0.0), np.diag([0.03, 0.04, izz])))

    # Axes are lines in link1's coordinates: j2's passes through l2's origin, (L1, 0, 0) of l1.
    j1 = rm.RevoluteJoint(link1="base", link2="l1", axis_in_link1=rm.Axis((0.0, 0.0, 1.0)))
    j2 = rm.RevoluteJoint(
        link1="l1",
        link2="l2",
        link1_H_link2=rm.Transform.from_translation((L1, 0.0, 0.0)),
        axis_in_link1=rm.Axis((0.0, 0.0, 1.0), (L1, 0.0, 0.0)),
    )
    m = rm.add_link(rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(2.0, (0, 0, 0))))
    m = rm.add_joint_and_link(m, "base", "j1", j1, "l1", link(M1, C1, I1))
    return rm.add_joint_and_link(m, "l1", "j2", j2, "l2", link(M2, C2, I2))


def _closed_form(q: np.ndarray, dq: np.ndarray, ddq: np.ndarray, g: float) -> np.ndarray:
    """M(q) q'' + C(q, q') + G(q) from the module docstring."""
    c2, s2 = math.cos(q[1]), math.sin(q[1])
    M = np.array(
        [
            [I1 + I2 + M1 * C1**2 + M2 * (L1**2 + C2**2 + 2 * L1 * C2 * c2), 0.0],
            [I2 + M2 * (C2**2 + L1 * C2 * c2), I2 + M2 * C2**2],
        ]
    )
    M[0, 1] = M[1, 0]
    h = M2 * L1 * C2 * s2
    coriolis = np.array([-h * (2 * dq[0] * dq[1] + dq[1] ** 2), h * dq[0] ** 2])
    c1, c12 = math.cos(q[0]), math.cos(q[0] + q[1])
    gravity = g * np.array([(M1 * C1 + M2 * L1) * c1 + M2 * C2 * c12, M2 * C2 * c12])
    return np.asarray(M @ ddq + coriolis + gravity)


Q = np.array([0.4, -0.7])


@pytest.mark.parametrize("dq", [(1.5, 0.0), (0.0, -2.0), (1.5, -2.0)])
def test_double_pendulum_velocity_torques(dq: tuple[float, float]) -> None:
    """With no gravity and no acceleration the torques are the Coriolis and centrifugal terms
    alone: C1 = -h (2 q1' q2' + q2'^2), C2 = h q1'^2 with h = m2 L1 c2 sin q2."""
    w = np.array(dq)
    tau = inverse_dynamics(_pendulum(), JointState(Q, w, [0.0, 0.0]), gravity=[0, 0, 0])
    h = M2 * L1 * C2 * math.sin(Q[1])
    expected = [-h * (2 * w[0] * w[1] + w[1] ** 2), h * w[0] ** 2]
    np.testing.assert_allclose(tau.joint_torques, expected, rtol=0, atol=1e-12)
    assert np.abs(expected).max() > 0.1  # the case really exercises the velocity terms


def test_double_pendulum_full_dynamics() -> None:
    """Positions, velocities, accelerations and gravity together: tau = M q'' + C + G."""
    dq, ddq = np.array([1.5, -2.0]), np.array([0.7, 1.1])
    tau = inverse_dynamics(_pendulum(), JointState(Q, dq, ddq), gravity=[0.0, -G, 0.0])
    np.testing.assert_allclose(tau.joint_torques, _closed_form(Q, dq, ddq, G), rtol=0, atol=1e-12)


def test_external_wrench_on_a_link() -> None:
    """At rest without gravity, the joints hold a wrench w = [f; tau] that the environment
    applies on l2 (in l2's frame, moments about l2's origin): tau_joint = -J^T w.

    By hand: l2's origin, on j2's axis, is at r = L1 (cos q1, sin q1, 0) in base, and l2's axes
    are turned by q1 + q2 about z. Only moments about z load the joints: j2 holds -tau_z, j1
    holds -(tau_z + (r x f_base)_z) with f_base = Rz(q1 + q2) f.
    """
    f, moment = np.array([1.5, -2.0, 0.5]), np.array([0.2, -0.1, 0.3])
    state = JointState(Q, [0.0, 0.0], [0.0, 0.0])
    tau = inverse_dynamics(
        _pendulum(),
        state,
        gravity=[0.0, 0.0, 0.0],
        external_wrenches={"l2": np.concatenate([f, moment])},
    )
    a = Q[0] + Q[1]
    fx, fy = math.cos(a) * f[0] - math.sin(a) * f[1], math.sin(a) * f[0] + math.cos(a) * f[1]
    rx, ry = L1 * math.cos(Q[0]), L1 * math.sin(Q[0])
    expected = [-(moment[2] + rx * fy - ry * fx), -moment[2]]
    np.testing.assert_allclose(tau.joint_torques, expected, rtol=0, atol=1e-12)
    # The sign of the case: f pushes l2 so that it turns j1 backwards (negative z moment).
    assert rx * fy - ry * fx < 0 and expected[0] > 0
