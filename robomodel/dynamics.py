"""Inverse dynamics (recursive Newton-Euler) of a fixed-base model: a pure function of the state.

The base link moves with a given spatial acceleration (zero by default) and zero velocity; gravity
is folded in as an upward acceleration of the base, as iDynTree does. The result carries the joint
torques and, per link, the internal wrench with iDynTree's convention: the wrench the link's
traversal parent applies on it, expressed in the link frame, ``[f; tau]``, zero for the base.

Implementation note: the recursion is written with subtree sums. Velocities and accelerations of
all links are sums over their ancestors, and internal wrenches are sums over their descendants;
with every quantity expressed in the base frame, both are one product with the traversal's
(constant, cached) ancestor matrix. This keeps the per-call cost in a handful of vectorised numpy
operations instead of a Python loop over links. Models with more than a few hundred links, where
that matrix would be large, use the equivalent loops.

>>> import robomodel as rm
>>> m = rm.add_link(rm.Model(), "base")
>>> arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
>>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
>>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", arm)
>>> r = inverse_dynamics(m, JointState.zeros(m))
>>> r.joint_torques.round(6).tolist()  # 2 kg at 0.5 m held against gravity about +y
[-9.81]
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.errors import ModelError
from robomodel.kinematics import (
    FloatArray,
    JointState,
    _down,
    _link_index,
    _plan,
    _poses,
    _require_complete,
    _up,
)
from robomodel.model import Model

__all__ = ["InverseDynamics", "inverse_dynamics"]

_STANDARD_GRAVITY = (0.0, 0.0, -9.81)


@attrs.frozen(eq=False, repr=False)
class InverseDynamics:
    """The result of :func:`inverse_dynamics`.

    Attributes:
        model: the model.
        base: the base link index.
        joint_torques: (n_dofs,) joint torques (forces for prismatic joints), in DOF order. For
            each joint, the torque the joint exerts on its traversal child along the motion axis
            seen from that child (``joint.axis(child)``).
        internal_wrenches: (n_links, 6) by link index: the wrench ``[f; tau]`` the link's
            traversal parent applies on it, in the link frame (iDynTree's ``LinkInternalWrenches``
            from ``RNEADynamicPhase``). Zero for the base.
        base_wrench: (6,) the wrench the environment must apply on the base, in the base frame,
            to produce the requested base acceleration.
    """

    model: Model
    base: int
    joint_torques: FloatArray
    internal_wrenches: FloatArray
    base_wrench: FloatArray

    def internal_wrench(self, link: str | int) -> FloatArray:
        """Return the internal wrench of one link (by name or index)."""
        w: FloatArray = self.internal_wrenches[_link_index(self.model, link)]
        return w

    def __repr__(self) -> str:
        return (
            f"InverseDynamics(base={self.model.link_names[self.base]!r}, "
            f"joint_torques={self.joint_torques.round(6).tolist()})"
        )


def _six(v: npt.ArrayLike, what: str) -> FloatArray:
    arr = np.asarray(v, dtype=np.float64)
    if arr.shape != (6,) or not np.all(np.isfinite(arr)):
        raise ModelError(f"{what} must be a finite 6-vector [linear; angular], got {arr.tolist()}")
    return arr


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    # Row-wise cross products of (n, 3) arrays; np.cross costs several times more on small inputs.
    out = np.empty_like(a)
    out[:, 0] = a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1]
    out[:, 1] = a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2]
    out[:, 2] = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    return out


def inverse_dynamics(
    model: Model,
    state: JointState,
    *,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    gravity: npt.ArrayLike = _STANDARD_GRAVITY,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None = None,
) -> InverseDynamics:
    """Return the joint torques and internal wrenches that realise ``state`` (fixed base).

    Args:
        model: the model; every link must be connected to the base.
        state: joint positions, velocities and accelerations.
        base: the base link (name or index); the model's default base if ``None``.
        base_acceleration: spatial acceleration ``[a; alpha]`` of the base in the base frame
            (zero if ``None``). The base velocity is zero.
        gravity: gravity acceleration expressed in the base frame.
        external_wrenches: optional wrenches applied on links by the environment, by link name
            or index, each ``[f; tau]`` in that link's frame (moments about its origin).

    Raises:
        ModelError: a size does not match the model, or a link is not connected to the base.
        UnknownNameError: an external wrench names an unknown link.
    """
    plan = _plan(model, base)
    _require_complete(plan, model, "inverse dynamics")
    state.check(model)
    g = np.asarray(gravity, dtype=np.float64)
    if g.shape != (3,) or not np.all(np.isfinite(g)):
        raise ModelError(f"gravity must be a finite 3-vector, got {g.tolist()}")
    a0 = np.zeros(6) if base_acceleration is None else _six(base_acceleration, "base_acceleration")
    n = len(plan.order)

    T = _poses(plan, state.q)
    R = T[:, :3, :3]
    Rt = R.transpose(0, 2, 1)
    p = T[:, :3, 3]
    S, Sd = plan.S, plan.dof_pos
    # Motion subspaces in base coordinates (twist adjoint of base_H_link applied to S).
    Sw = np.einsum("kij,kj->ki", R, S[:, 3:])
    Sv = np.einsum("kij,kj->ki", R, S[:, :3]) + _cross(p, Sw)
    Sb = np.concatenate([Sv, Sw], axis=1)
    dq = np.zeros(n)
    ddq = np.zeros(n)
    dq[Sd] = state.dq[plan.dof_idx]
    ddq[Sd] = state.ddq[plan.dof_idx]

    # Spatial velocities and accelerations (base frame): sums over ancestors.
    sv = Sb * dq[:, None]
    V = _down(plan, sv)
    bias = np.concatenate(
        [_cross(V[:, 3:], sv[:, :3]) + _cross(V[:, :3], sv[:, 3:]), _cross(V[:, 3:], sv[:, 3:])],
        axis=1,
    )
    A = _down(plan, Sb * ddq[:, None] + bias)
    A[:, :3] += a0[:3] - g
    A[:, 3:] += a0[3:]

    # Body quantities in link frames: v = Ad(base_H_link)^-1 V (and the same for A).
    def to_link(X: FloatArray) -> FloatArray:
        w = np.einsum("kij,kj->ki", Rt, X[:, 3:])
        v = np.einsum("kij,kj->ki", Rt, X[:, :3] - _cross(p, X[:, 3:]))
        return np.concatenate([v, w], axis=1)

    v = to_link(V)
    a = to_link(A)
    Iv = np.einsum("kij,kj->ki", plan.I6, v)
    f = np.einsum("kij,kj->ki", plan.I6, a)
    f[:, :3] += _cross(v[:, 3:], Iv[:, :3])
    f[:, 3:] += _cross(v[:, :3], Iv[:, :3]) + _cross(v[:, 3:], Iv[:, 3:])
    if external_wrenches:
        for link, w in external_wrenches.items():
            li = _link_index(model, link)
            f[plan.position[li]] -= _six(w, f"the external wrench on {model.link_names[li]!r}")

    # Wrenches in the base frame, summed over subtrees, then back into each link frame.
    fl = np.einsum("kij,kj->ki", R, f[:, :3])
    F = np.concatenate([fl, np.einsum("kij,kj->ki", R, f[:, 3:]) + _cross(p, fl)], axis=1)
    Fs = _up(plan, F)
    tau = np.zeros(model.n_dofs)
    tau[plan.dof_idx] = np.einsum("ki,ki->k", Sb[Sd], Fs[Sd])
    internal = np.empty((model.n_links, 6))
    internal[plan.order, :3] = np.einsum("kij,kj->ki", Rt, Fs[:, :3])
    internal[plan.order, 3:] = np.einsum("kij,kj->ki", Rt, Fs[:, 3:] - _cross(p, Fs[:, :3]))
    internal[plan.base] = 0.0
    base_wrench = Fs[0].copy()
    for arr in (tau, internal, base_wrench):
        arr.setflags(write=False)
    return InverseDynamics(model, plan.base, tau, internal, base_wrench)
