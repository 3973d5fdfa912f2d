"""Direct tests of :func:`robomodel.identification.identify` against closed-form weighted least
squares.

The oracle whitens the system itself: one regressor per sample (rows = the sample's joints in
DOF order), each row multiplied by its joint's weight, ``beta = lstsq(W Yb, W y)``,
``sigma^2 = r^T r / (rows - rank)`` and ``cov = sigma^2 (A^T A)^-1`` with ``A = W Yb``: the
textbook weighted least-squares estimate, built without ``stack`` or ``row_weights``.
"""

from __future__ import annotations

import numpy as np
import pytest

import robomodel as rm
from robomodel.identification import Samples, base_parameters, identify, regressor
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState


def _arm() -> rm.Model:
    """Three revolute joints about z, y, x: enough coupling for a dozen base parameters."""
    inertia = rm.SpatialInertia.from_com(1.5, (0.1, 0.02, -0.03), np.diag([0.02, 0.03, 0.04]))
    m = rm.add_link(rm.Model(name="arm"), "base", rm.Link(inertia))
    axes = [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    parent = "base"
    for k, axis in enumerate(axes, start=1):
        j = rm.RevoluteJoint(
            link1=parent,
            link2=f"l{k}",
            link1_H_link2=rm.Transform.from_rpy_xyz((0.1 * k, -0.2, 0.3), (0.3, 0.05 * k, 0.1)),
            axis_in_link1=rm.Axis(axis, (0.3, 0.05 * k, 0.1)),
        )
        m = rm.add_joint_and_link(m, parent, f"j{k}", j, f"l{k}", rm.Link(inertia))
        parent = f"l{k}"
    return m


def _samples(model: rm.Model, n: int, seed: int) -> Samples:
    rng = np.random.default_rng(seed)
    q, dq, ddq = (rng.uniform(-1.5, 1.5, (n, model.n_dofs)) for _ in range(3))
    torques = np.array(
        [inverse_dynamics(model, JointState(q[i], dq[i], ddq[i])).joint_torques for i in range(n)]
    )
    # Measurement noise, different per joint, so the weights change the estimate.
    torques += rng.normal(size=torques.shape) * np.array([0.05, 0.5, 0.01])
    return Samples(q=q, dq=dq, ddq=ddq, torques=torques)


def _closed_form(model, samples, structure, row_weight: np.ndarray):
    """Weighted least squares on the whitened system (see the module docstring)."""
    blocks, targets, weights = [], [], []
    for i in range(len(samples)):
        state = JointState(samples.q[i], samples.dq[i], samples.ddq[i])
        blocks.append(regressor(model, state))
        targets.append(samples.torques[i])
        weights.append(row_weight)  # joint k of sample i weighs row_weight[k]
    Y, y, w = np.vstack(blocks), np.concatenate(targets), np.concatenate(weights)
    A = w[:, None] * Y[:, structure.independent]
    b = w * y
    beta = np.linalg.lstsq(A, b, rcond=None)[0]
    r = A @ beta - b
    rank = np.linalg.matrix_rank(A)
    sigma2 = float(r @ r) / (A.shape[0] - rank)
    return beta, sigma2 * np.linalg.inv(A.T @ A), Y, y


@pytest.mark.parametrize(
    "weights",
    [None, {"j1": 20.0, "j2": 2.0, "j3": 100.0}, [1.0, 0.1, 7.0], {"j2": 0.25}],
    ids=["unweighted", "by-name", "vector", "one-name"],
)
def test_identify_is_weighted_least_squares(weights) -> None:
    model = _arm()
    samples = _samples(model, 9, seed=1)
    structure = base_parameters(model)
    result = identify(model, samples, weights=weights, structure=structure)
    if weights is None:
        w = np.ones(3)
    elif isinstance(weights, dict):
        w = np.array([weights.get(f"j{k}", 1.0) for k in (1, 2, 3)])
    else:
        w = np.asarray(weights)
    beta, cov, Y, y = _closed_form(model, samples, structure, w)
    assert 3 * len(samples) > structure.count  # redundant rows: a covariance exists
    np.testing.assert_allclose(result.beta, beta, rtol=1e-8, atol=1e-10)
    assert result.covariance is not None
    np.testing.assert_allclose(result.covariance, cov, rtol=1e-6, atol=1e-14)
    # The residuals are unweighted, per sample and joint, of the returned model.
    np.testing.assert_allclose(
        result.residuals, (y - Y @ result.parameters).reshape(len(samples), 3), atol=1e-9
    )
    np.testing.assert_allclose(structure.from_full(result.parameters), beta, rtol=1e-8, atol=1e-10)


def test_identify_recovers_noise_free_parameters_and_has_zero_variance() -> None:
    """Noise-free torques: beta equals the true base parameters, the covariance vanishes."""
    model = _arm()
    rng = np.random.default_rng(4)
    n = 8
    q, dq, ddq = (rng.uniform(-1, 1, (n, 3)) for _ in range(3))
    tau = np.array(
        [inverse_dynamics(model, JointState(q[i], dq[i], ddq[i])).joint_torques for i in range(n)]
    )
    samples = Samples(q=q, dq=dq, ddq=ddq, torques=tau)
    structure = base_parameters(model)
    result = identify(model, samples, weights={"j1": 3.0}, structure=structure)
    np.testing.assert_allclose(
        result.beta, structure.from_full(model.inertial_parameters()), rtol=1e-8, atol=1e-9
    )
    assert result.covariance is not None
    assert np.abs(result.covariance).max() < 1e-15


def test_no_covariance_without_redundant_rows() -> None:
    """rows == base parameters: sigma^2 has zero degrees of freedom, so no covariance."""
    model = _arm()
    structure = base_parameters(model)
    n_rows = structure.count
    assert n_rows % 3 == 0, "the arm's base-parameter count is a multiple of its 3 joints"
    samples = _samples(model, n_rows // 3, seed=2)
    result = identify(model, samples, structure=structure)
    assert result.covariance is None


def test_a_sensors_weight_applies_to_its_six_rows_in_every_sample() -> None:
    """Torques and a force/torque sensor's wrench: rows per sample are the 3 joints, then the
    sensor's fx .. tz; the sensor's weight multiplies those six rows of every sample."""
    model = rm.add_sensor(
        _arm(),
        rm.SixAxisForceTorqueSensor(
            name="ft",
            parent_joint="j2",
            first_link="l1",
            second_link="l2",
            applied_wrench_link="l2",
        ),
    )
    rng = np.random.default_rng(7)
    n = 6
    q, dq, ddq = (rng.uniform(-1, 1, (n, 3)) for _ in range(3))
    full = [regressor(model, JointState(q[i], dq[i], ddq[i]), sensors=["ft"]) for i in range(n)]
    p = model.inertial_parameters()
    tau = np.array([Y[:3] @ p for Y in full]) + rng.normal(size=(n, 3)) * 0.1
    wrench = np.array([Y[3:] @ p for Y in full]) + rng.normal(size=(n, 6)) * 0.3
    samples = Samples(q=q, dq=dq, ddq=ddq, torques=tau, wrenches={"ft": wrench})
    structure = base_parameters(model, sensors=["ft"])
    result = identify(model, samples, weights={"ft": 0.2, "j3": 5.0}, structure=structure)
    w = np.array([1.0, 1.0, 5.0] + [0.2] * 6)
    A = np.vstack([w[:, None] * Y[:, structure.independent] for Y in full])
    b = np.concatenate([w * np.concatenate([tau[i], wrench[i]]) for i in range(n)])
    beta = np.linalg.lstsq(A, b, rcond=None)[0]
    r = A @ beta - b
    sigma2 = float(r @ r) / (A.shape[0] - np.linalg.matrix_rank(A))
    np.testing.assert_allclose(result.beta, beta, rtol=1e-8, atol=1e-10)
    assert result.covariance is not None
    np.testing.assert_allclose(
        result.covariance, sigma2 * np.linalg.inv(A.T @ A), rtol=1e-6, atol=1e-14
    )
    assert result.row_names == (
        "j1",
        "j2",
        "j3",
        "ft_fx",
        "ft_fy",
        "ft_fz",
        "ft_tx",
        "ft_ty",
        "ft_tz",
    )
