"""Inverse dynamics (recursive Newton-Euler) of a model: a pure function of the state.

The base link moves with a given twist and acceleration (both zero by default: a fixed base),
each in the base frame (body-fixed, iDynTree's ``BODY_FIXED_REPRESENTATION``); gravity is folded
in as an upward acceleration of the base, as iDynTree does. The result carries the joint
torques and, per link, the internal wrench with iDynTree's convention: the wrench the link's
traversal parent applies on it, expressed in the link frame, ``[f; tau]``, zero for the base.

Implementation note: the recursion is written with subtree sums. Velocities and accelerations of
all links are sums over their ancestors, and internal wrenches are sums over their descendants;
with every quantity expressed in the base frame, both are one product with the traversal's
(constant, cached) ancestor matrix. This keeps the per-call cost in a handful of vectorised numpy
operations instead of a Python loop over links. Models with more than a few hundred links, where
that matrix would be large, use the equivalent loops. Trees up to that size run the same
recursion laid out component-major (``robomodel.physics._world_rnea``): after the poses, no stacked
product of tiny matrices (one BLAS call each) is left, about 1.6x faster on iCub.

:func:`inverse_dynamics_batch` gives the joint torques of many states at once, vectorised over
the states (:mod:`robomodel.physics._batch_dynamics`).

>>> import robomodel as rm
>>> m = rm.add_link(rm.Model(), "base")
>>> arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
>>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
>>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", arm)
>>> r = inverse_dynamics(m, rm.JointState.zeros(m))
>>> r.joint_torques.round(6).tolist()  # 2 kg at 0.5 m held against gravity about +y
[-9.81]
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError
from robomodel.model.record import Model
from robomodel.model.validation import STANDARD_GRAVITY, fixed_vector, real_array
from robomodel.physics._batch_dynamics import batch_plan, batch_rnea
from robomodel.physics._kinematic_tree import (
    FORCE_CROSS,
    MOTION_CROSS,
    KinematicTree,
    cross_rows,
    down,
    poses,
    require_complete,
    spatial_products,
    tree_of,
    up,
)
from robomodel.physics._world_rnea import world_plan, world_rnea
from robomodel.physics.joint_state import Configuration, link_index_of, state_of

__all__ = [
    "InverseDynamics",
    "inverse_dynamics",
    "inverse_dynamics_batch",
    "link_motion_arrays",
]

FloatArray = npt.NDArray[np.float64]

_TWIST = "[linear; angular]"
_ZERO = np.zeros(1)
_STANDARD_G = fixed_vector(STANDARD_GRAVITY, "gravity", size=3, layout="[x, y, z]")
_STANDARD_A0G = np.concatenate((-_STANDARD_G, np.zeros(3)))  # gravity as a base acceleration
_STANDARD_A0G.setflags(write=False)


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
        velocities: (n_links, 6) by link index: each link's twist ``[v; w]`` in its frame.
        proper_accelerations: (n_links, 6) by link index: each twist's time derivative with
            gravity subtracted, in the link frame (what an accelerometer at the origin feels,
            plus ``w x v``).
    """

    model: Model
    base: int
    joint_torques: FloatArray
    internal_wrenches: FloatArray
    base_wrench: FloatArray
    velocities: FloatArray
    proper_accelerations: FloatArray

    def internal_wrench(self, link: str | int) -> FloatArray:
        """Return the internal wrench of one link (by name or index)."""
        i = link_index_of(self.model, link, what="link", allow_none=False)
        w: FloatArray = self.internal_wrenches[i]
        return w

    def __repr__(self) -> str:
        return (
            f"InverseDynamics(base={self.model.link_names[self.base]!r}, "
            f"joint_torques={self.joint_torques.round(6).tolist()})"
        )


@attrs.frozen(eq=False)
class _Forward:
    # The forward (velocity and acceleration) pass, by traversal position: the per-model plan,
    # rotations and positions of base_H_link, motion subspaces in base coordinates (and the
    # positions that have one), and body twists / proper accelerations stacked as va[:, 0|1].
    plan: KinematicTree
    R: FloatArray
    p: FloatArray
    Sb: FloatArray
    Sd: npt.NDArray[np.intp]
    va: FloatArray


def _base_velocity(base_velocity: npt.ArrayLike | None) -> FloatArray | None:
    """The checked base twist, or ``None`` for a base at rest (every entry point's rule)."""
    if base_velocity is None:
        return None
    return fixed_vector(base_velocity, "base_velocity", size=6, layout=_TWIST)


def _check_wrench_mapping(external_wrenches: object) -> None:
    if external_wrenches is not None and not isinstance(external_wrenches, Mapping):
        raise ArgumentError(
            "external_wrenches must be a mapping from link names or indices to wrenches "
            f"[f; tau], but got {external_wrenches!r:.80}"
        )


def _forward_pass(
    model: Model,
    state: Configuration,
    base: str | int | None,
    base_acceleration: npt.ArrayLike | None,
    gravity: npt.ArrayLike,
    what: str,
    base_velocity: npt.ArrayLike | None = None,
) -> _Forward:
    plan = tree_of(model, base)
    require_complete(plan, model, what)
    st = state_of(model, state)
    g = (
        _STANDARD_G
        if gravity is STANDARD_GRAVITY  # the default, checked once
        else fixed_vector(gravity, "gravity", size=3, layout="[x, y, z] in the base frame")
    )
    a0 = (
        np.zeros(6)
        if base_acceleration is None
        else fixed_vector(base_acceleration, "base_acceleration", size=6, layout=_TWIST)
    )
    v0 = _base_velocity(base_velocity)
    n = len(plan.order)

    T = poses(plan, st.q)
    R = T[:, :3, :3]
    p = T[:, :3, 3]
    # Every transform below is one stacked product with R (rows: x @ R^T = (R x)^T) and one
    # cross product with p; no 6x6 adjoint is built. A twist [v; w] at the link origin is
    # [R v + p x R w; R w] at the base origin, in base axes.
    RS = plan.S.reshape(n, 2, 3) @ R.transpose(0, 2, 1)  # rows R s_v, R s_w
    Sb = RS.reshape(n, 6)
    Sb[:, :3] += cross_rows(p, RS[:, 1])
    Sd = plan.dof_pos
    dq, ddq = np.concatenate((st.dq, st.ddq, _ZERO)).take(plan.rate_idx)

    # Spatial velocities and accelerations (base frame): sums over ancestors. The bias term is
    # V x (S dq) with the motion cross product [w x v' + v x w'; w x w'].
    sv = Sb * dq[:, None]
    V = down(plan, sv)
    if v0 is not None:
        # The base frame, frozen at this instant, is the inertial frame of the sums: the base's
        # body twist is its spatial twist there, and d/dt of the body twist its spatial
        # acceleration (they differ by v0 x v0 = 0). Every link then moves with the base too,
        # and the bias terms below see the total twist.
        V += v0
    acc = Sb * ddq[:, None]
    acc += spatial_products(V, sv, MOTION_CROSS)
    A = down(plan, acc)
    # Gravity enters as an upward acceleration of the base, so A is the proper acceleration.
    A += a0
    A[:, :3] -= g
    # Into body frames: [v; w] -> [R^T (v - p x w); R^T w], for V and A at once.
    X = np.concatenate((V, A), axis=1).reshape(n, 2, 2, 3)
    X[:, :, 0] -= cross_rows(p[:, None], X[:, :, 1])
    va = (X.reshape(n, 4, 3) @ R).reshape(n, 2, 6)
    return _Forward(plan, R, p, Sb, Sd, va)


def link_motion_arrays(
    model: Model,
    state: Configuration,
    *,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base_velocity: npt.ArrayLike | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Return every link's twist and proper acceleration, ``(n_links, 6)`` each, by link index.

    Both are in the link's own frame, ``[v; w]`` (velocity of the link origin and angular
    velocity); the proper acceleration is the twist's time derivative with gravity subtracted,
    which is what an accelerometer at the link origin feels (plus ``w x v``). This is the
    forward pass of :func:`inverse_dynamics`, with the same arguments.
    """
    fp = _forward_pass(model, state, base, base_acceleration, gravity, "link motion", base_velocity)
    return _by_link(fp, model)


def _by_link(fp: _Forward, model: Model) -> tuple[FloatArray, FloatArray]:
    out = np.empty((2, model.n_links, 6))
    out[:, fp.plan.order] = fp.va.transpose(1, 0, 2)
    out.setflags(write=False)
    return out[0], out[1]


def inverse_dynamics(
    model: Model,
    state: Configuration,
    *,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None = None,
    base_velocity: npt.ArrayLike | None = None,
) -> InverseDynamics:
    """Return the joint torques and internal wrenches that realise ``state``.

    Args:
        model: the model; every link must be connected to the base.
        state: joint positions, velocities and accelerations (a :class:`JointState`); joint
            positions alone (a vector, or a mapping naming every moving joint) mean the model
            at rest there (zero velocities and accelerations: the gravity torques).
        base: the base link (name or index); the model's default base if ``None``.
        base_acceleration: acceleration ``[a; alpha]`` of the base in the base frame: the time
            derivative of ``base_velocity`` (zero if ``None``).
        base_velocity: twist ``[v; w]`` of the base in the base frame, the velocity of its origin
            and its angular velocity (zero if ``None``: a fixed base).
        gravity: gravity acceleration expressed in the base frame.
        external_wrenches: optional wrenches applied on links by the environment, by link name
            or index, each ``[f; tau]`` in that link's frame (moments about its origin).

    Raises:
        ArgumentError: a value is not real numbers of the right form, or ``base`` not a link
            name or index.
        ModelError: a size does not match the model, or a link is not connected to the base.
        UnknownNameError: the base, or a link of an external wrench, does not exist.
    """
    plan = tree_of(model, base)
    if plan.anc is not None and plan.by_dof is not None and plan.complete:
        # Trees of up to DENSE_LIMIT links: the same recursion in fewer numpy operations.
        return _inverse_dynamics_dense(
            model, plan, state, base_acceleration, gravity, external_wrenches, base_velocity
        )
    return _inverse_dynamics_general(
        model, state, base, base_acceleration, gravity, external_wrenches, base_velocity
    )


def _inverse_dynamics_general(
    model: Model,
    state: Configuration,
    base: str | int | None,
    base_acceleration: npt.ArrayLike | None,
    gravity: npt.ArrayLike,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None,
    base_velocity: npt.ArrayLike | None,
) -> InverseDynamics:
    # Any tree: link-major arrays, subtree sums by the plan's down/up (loops for big trees).
    fp = _forward_pass(
        model, state, base, base_acceleration, gravity, "inverse dynamics", base_velocity
    )
    plan, R, p, Sb, Sd, va = fp.plan, fp.R, fp.p, fp.Sb, fp.Sd, fp.va
    n = len(plan.order)
    Iva = va @ plan.I6  # rows (I v)^T: the spatial inertia is symmetric
    f = Iva[:, 1]
    f += spatial_products(va[:, 0], Iva[:, 0], FORCE_CROSS)
    _check_wrench_mapping(external_wrenches)
    if external_wrenches:
        for link, w in external_wrenches.items():
            li = link_index_of(model, link, what="an external_wrenches key", allow_none=False)
            what = f"the external wrench on {model.link_names[li]!r}"
            f[plan.position[li]] -= fixed_vector(w, what, size=6, layout="[f; tau]")

    # Wrenches in the base frame ([f; tau] -> [R f; p x R f + R tau]), summed over subtrees,
    # then back into each link frame ([F; T] -> [R^T F; R^T (T - p x F)]).
    Fb = (f.reshape(n, 2, 3) @ R.transpose(0, 2, 1)).reshape(n, 6)
    Fb[:, 3:] += cross_rows(p, Fb[:, :3])
    Fs = up(plan, Fb)
    if plan.by_dof is not None:
        tau = (Sb * Fs).sum(axis=1).take(plan.by_dof)
    else:
        tau = np.zeros(model.n_dofs)
        tau[plan.dof_idx] = (Sb[Sd] * Fs[Sd]).sum(axis=1)
    base_wrench = Fs[0].copy()
    back = Fs.reshape(n, 2, 3)  # Fs is not needed after this: transformed in place
    back[:, 1] -= cross_rows(p, back[:, 0])
    local = (back @ R).reshape(n, 6)
    if plan.by_link is not None:
        internal = local.take(plan.by_link, axis=0)
    else:
        internal = np.empty((model.n_links, 6))
        internal[plan.order] = local
    internal[plan.base] = 0.0
    for arr in (tau, internal, base_wrench):
        arr.setflags(write=False)
    velocities, accelerations = _by_link(fp, model)
    return InverseDynamics(model, plan.base, tau, internal, base_wrench, velocities, accelerations)


def _inverse_dynamics_dense(
    model: Model,
    plan: KinematicTree,
    state: Configuration,
    base_acceleration: npt.ArrayLike | None,
    gravity: npt.ArrayLike,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None,
    base_velocity: npt.ArrayLike | None,
) -> InverseDynamics:
    # inverse_dynamics of a tree small enough for the dense ancestor matrix: the same checks,
    # in the same order, as _forward_pass and inverse_dynamics, then robomodel.physics._world_rnea.
    st = state_of(model, state)
    if gravity is STANDARD_GRAVITY:
        a0g = _STANDARD_A0G
    else:
        g = fixed_vector(gravity, "gravity", size=3, layout="[x, y, z] in the base frame")
        a0g = np.concatenate((-g, np.zeros(3)))
    if base_acceleration is not None:
        a0g = a0g + fixed_vector(base_acceleration, "base_acceleration", size=6, layout=_TWIST)
    v0 = _base_velocity(base_velocity)
    _check_wrench_mapping(external_wrenches)
    external: list[tuple[int, FloatArray]] = []
    if external_wrenches:
        for link, w in external_wrenches.items():
            li = link_index_of(model, link, what="an external_wrenches key", allow_none=False)
            what = f"the external wrench on {model.link_names[li]!r}"
            external.append((plan.position[li], fixed_vector(w, what, size=6, layout="[f; tau]")))
    tau, internal, base_wrench, motions = world_rnea(
        world_plan(model, plan), st.q, st.dq, st.ddq, a0g, v0, external
    )
    for arr in (tau, internal, base_wrench, motions):
        arr.setflags(write=False)
    return InverseDynamics(model, plan.base, tau, internal, base_wrench, motions[0], motions[1])


def inverse_dynamics_batch(
    model: Model,
    Q: npt.ArrayLike,
    DQ: npt.ArrayLike,
    DDQ: npt.ArrayLike,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    base_velocity: npt.ArrayLike | None = None,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None = None,
) -> FloatArray:
    """Return the joint torques of many states at once, ``(N, n_dofs)``, one row per state.

    Row ``i`` equals ``inverse_dynamics(model, JointState(Q[i], DQ[i], DDQ[i]), ...)
    .joint_torques`` with the same keyword arguments (to rounding); the work is vectorised
    over the N states (a Python loop over the links, none over the states).

    Args:
        model: the model; every link must be connected to the base.
        Q: (N, n_pos_coords) joint positions, one state per row.
        DQ: (N, n_dofs) joint velocities.
        DDQ: (N, n_dofs) joint accelerations.
        gravity: gravity acceleration expressed in the base frame, the same for every state.
        base: the base link (name or index); the model's default base if ``None``.
        base_acceleration: ``[a; alpha]`` of the base in the base frame (zero if ``None``), the
            same for every state.
        base_velocity: twist ``[v; w]`` of the base in the base frame (zero if ``None``), the
            same for every state.
        external_wrenches: wrenches applied on links by the environment, by link name or index,
            each ``[f; tau]`` in that link's frame: a 6-vector (the same for every state) or an
            (N, 6) array (one row per state).

    Raises:
        ArgumentError: an array is not finite real numbers of the right shape, or ``base`` not
            a link name or index.
        ModelError: a link is not connected to the base.
        UnknownNameError: the base, or a link of an external wrench, does not exist.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "base")
    >>> arm = rm.Link(rm.SpatialInertia.from_com(2.0, (0.5, 0, 0), 0.01 * np.eye(3)))
    >>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 1, 0)))
    >>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", arm)
    >>> Q = np.array([[0.0], [np.pi / 3]])  # gravity torque -m g l cos(q)
    >>> inverse_dynamics_batch(m, Q, np.zeros((2, 1)), np.zeros((2, 1))).round(6).tolist()
    [[-9.81], [-4.905]]
    """
    tree = tree_of(model, base)
    require_complete(tree, model, "inverse dynamics")
    Qa = real_array(Q, "Q", shape=(None, model.n_pos_coords), copy=False)
    N = Qa.shape[0]
    DQa = real_array(DQ, "DQ", shape=(N, model.n_dofs), copy=False)
    DDQa = real_array(DDQ, "DDQ", shape=(N, model.n_dofs), copy=False)
    g = fixed_vector(gravity, "gravity", size=3, layout="[x, y, z] in the base frame")
    a0 = np.zeros(6)
    if base_acceleration is not None:
        a0 += fixed_vector(base_acceleration, "base_acceleration", size=6, layout=_TWIST)
    # Gravity enters as an upward acceleration of the base, as in inverse_dynamics.
    a0[:3] -= g
    v0 = _base_velocity(base_velocity)
    _check_wrench_mapping(external_wrenches)
    external: list[tuple[int, FloatArray]] = []
    for link, w in (external_wrenches or {}).items():
        li = link_index_of(model, link, what="an external_wrenches key", allow_none=False)
        what = f"the external wrench on {model.link_names[li]!r}"
        if isinstance(w, np.ndarray) and w.ndim == 2:
            wr = real_array(w, what, shape=(N, 6), copy=False).T
        else:
            wr = fixed_vector(w, what, size=6, layout="[f; tau], or an (N, 6) array")
        external.append((tree.position[li], wr))
    # Samples along the contiguous axis: every step of the recursion is on (6, N) blocks (the
    # engine copies the rates into its own buffers, so the transposed views need no copy here).
    tau = batch_rnea(
        batch_plan(model, tree),
        Qa.T,
        DQa.T,
        DDQa.T,
        a0,
        v0,
        external,
        model.n_dofs,
    )
    out = np.ascontiguousarray(tau.T)
    out.setflags(write=False)
    return out
