"""Inverse dynamics of many states at once: the engine of ``inverse_dynamics_batch``.

The recursion is the textbook body-frame Newton-Euler one over the traversal, but every
quantity of a body is a ``(6, N)`` block with the N samples along the contiguous axis, so each
step is a handful of whole-array operations whatever N is. Three choices keep the steps few:

* links joined by fixed joints move as one rigid body, so they are lumped into one body (their
  inertias summed) and the recursion runs over moving joints only;
* each body is expressed in its *joint frame*: origin on the joint axis, z along it. A joint's
  motion transform is then a constant 6x6 matrix ``C`` (parent joint frame to child joint frame
  at ``q = 0``, one matrix product) followed by a rotation about z (a translation along z for a
  prismatic joint), which mixes two components of each 3-vector; the motion subspace is a unit
  vector, and the velocity-product term ``v x (S dq)`` two multiply-adds;
* spatial vectors are stored component by component, linear and angular interleaved
  (``[v_x, w_x, v_y, w_y, v_z, w_z]``), with a twist and an acceleration side by side: the x
  and the y components a rotation about z mixes are then two contiguous blocks.

Per model and base, the constants are computed once into a :class:`BatchPlan`, cached on the
model with ``robomodel._internal.memo.memoized``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.model.record import Model
from robomodel.physics._kinematic_tree import KinematicTree, skew_stack

__all__ = ["BatchPlan", "batch_plan", "batch_rnea"]

FloatArray = npt.NDArray[np.float64]


def _motion_transform(H: FloatArray) -> FloatArray:
    """Return ``child_X_parent`` (twists ``[v; w]``) for the 4x4 ``parent_H_child``."""
    R, p = H[:3, :3], H[:3, 3]
    X = np.zeros((6, 6))
    X[:3, :3] = X[3:, 3:] = R.T
    X[:3, 3:] = -R.T @ skew_stack(p)
    return X


def _joint_frame(u: FloatArray, o: FloatArray) -> FloatArray:
    """Return ``link_H_joint``: origin ``o``, z along the unit vector ``u``."""
    a = np.array([1.0, 0.0, 0.0]) if abs(u[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = a - (a @ u) * u
    x /= np.linalg.norm(x)
    H = np.eye(4)
    H[:3, 0], H[:3, 1], H[:3, 2], H[:3, 3] = x, np.cross(u, x), u, o
    return H


def _inverse(H: FloatArray) -> FloatArray:
    out = np.eye(4)
    out[:3, :3] = H[:3, :3].T
    out[:3, 3] = -H[:3, :3].T @ H[:3, 3]
    return out


class BatchPlan:
    """Constants of the batched recursion, by body (see the module docstring).

    Body 0 is the base with the links fixed to it, in the base link frame; every other body is
    a moving joint's child with the links fixed to it, in that joint's frame, numbered in
    traversal order. ``parent[b]`` is the parent body, ``kind[b]`` 1 (revolute) or 2
    (prismatic), ``qi[b]`` and ``dof[b]`` the joint's coordinate and DOF, ``C[b]`` the motion
    transform from the parent body's frame at ``q = 0`` and ``I[b]`` the body's spatial inertia
    in its frame, all in the interleaved layout. ``body_of[k]`` and ``X_in[k]`` give, per
    traversal position, the body a link belongs to and the link's motion transform from that
    body's frame (standard layout, for external wrenches).
    """

    def __init__(self, tree: KinematicTree) -> None:
        n = len(tree.order)
        kind = [0] * n
        qi = [-1] * n
        for k, c in zip(tree.rev_pos.tolist(), tree.rev_q.tolist(), strict=True):
            kind[k], qi[k] = 1, c
        for k, c in zip(tree.pri_pos.tolist(), tree.pri_q.tolist(), strict=True):
            kind[k], qi[k] = 2, c
        dof = dict(zip(tree.dof_pos.tolist(), tree.dof_idx.tolist(), strict=True))
        self.parent: list[int] = [-1]
        self.kind: list[int] = [0]
        self.qi: list[int] = [0]
        self.dof: list[int] = [-1]
        C: list[FloatArray] = [np.eye(6)]
        inertia: list[FloatArray] = [np.zeros((6, 6))]
        self.body_of: list[int] = [0] * n
        self.X_in: list[FloatArray] = [np.eye(6)] * n
        # H[k] = body_H_link of position k (the pose of link k in its body's frame).
        H = [np.eye(4)] * n
        for k in range(n):
            p = tree.parent[k]
            if k and kind[k]:
                S = tree.S[k]
                u = S[3:] if kind[k] == 1 else S[:3]
                # S = [o x u; u]: u x (o x u) is the point of the axis closest to the origin.
                o = np.cross(u, S[:3]) if kind[k] == 1 else np.zeros(3)
                link_H_joint = _joint_frame(u, o)
                b = len(self.parent)
                self.parent.append(self.body_of[p])
                self.kind.append(kind[k])
                self.qi.append(qi[k])
                self.dof.append(dof[k])
                C.append(_motion_transform(H[p] @ tree.rest[k] @ link_H_joint))
                inertia.append(np.zeros((6, 6)))
                H[k] = _inverse(link_H_joint)
            elif k:
                b = self.body_of[p]
                H[k] = H[p] @ tree.rest[k]
            else:
                b = 0
            self.body_of[k] = b
            X = _motion_transform(H[k])
            self.X_in[k] = X
            inertia[b] += X.T @ tree.I6[k] @ X
        nb = len(self.parent)
        self.n_bodies = nb
        P = _INTERLEAVE
        self.C = np.ascontiguousarray(np.array(C)[:, P][:, :, P])
        self.Ct = np.ascontiguousarray(self.C.transpose(0, 2, 1))
        I6 = np.array(inertia)[:, P][:, :, P]
        # Operands of the bias wrench v x* (I v), each 3-vector part extended cyclically (rows of
        # the components x, y, z, x, y) so that the shifted copies a cross product needs are
        # views: G @ v = [v_ext; h_ext] with h = I v.
        ext = np.eye(6)[[0, 1, 2, 3, 4, 5, 0, 1, 2, 3]]
        self.G = np.ascontiguousarray(np.concatenate([np.tile(ext, (nb, 1, 1)), ext @ I6], axis=1))
        self.I = np.ascontiguousarray(I6)


_INTERLEAVE = [0, 3, 1, 4, 2, 5]  # storage row r holds component _INTERLEAVE[r] of [v; w]


def batch_plan(model: Model, tree: KinematicTree) -> BatchPlan:
    """Return the :class:`BatchPlan` of ``tree`` (a plan of ``model``), cached on the model."""
    return memoized(model, ("batch-rnea-plan", tree.base), lambda: BatchPlan(tree))


def batch_rnea(
    plan: BatchPlan,
    Qt: FloatArray,
    DQt: FloatArray,
    DDQt: FloatArray,
    a0: FloatArray,
    v0: FloatArray | None,
    external: list[tuple[int, FloatArray]],
    n_dofs: int,
) -> FloatArray:
    """Return the (n_dofs, N) joint torques of N states given column-wise (``Qt[:, i]``...).

    ``a0`` is the base's proper acceleration (its acceleration minus gravity) and ``v0`` its
    twist, both (6,) in the base frame; ``external`` pairs traversal positions with (6,) or
    (6, N) wrenches applied by the environment, in the link frame.
    """
    nb = plan.n_bodies
    N = Qt.shape[1]
    P = _INTERLEAVE
    # VA[b, r] = [v_b, a_b] row r (interleaved layout): twist and proper acceleration of body b.
    VA = np.empty((nb, 6, 2, N))
    VA[0, :, 0] = 0.0 if v0 is None else v0[P, None]
    VA[0, :, 1] = a0[P, None]
    # F[b]: the net wrench of body b, then (backward) the wrench its parent applies on it.
    F = np.empty((nb, 6, N))
    # [dq, ddq] of every DOF side by side, so that one addition takes both.
    rates = np.empty((DQt.shape[0], 2, N))
    rates[:, 0] = DQt
    rates[:, 1] = DDQt
    sin, cos = np.empty((nb, N)), np.empty((nb, N))
    if Qt.shape[0]:
        np.take(Qt, plan.qi, axis=0, out=cos)
    else:
        cos.fill(0.0)
    np.sin(cos, out=sin)
    np.cos(cos, out=cos)
    ta, tb = np.empty((2, 2, 2, N))
    t1 = np.empty((2, N))
    t3 = np.empty((3, 2, N))
    e = np.empty((20, N))
    for b in range(1, nb):
        out = VA[b]
        np.dot(plan.C[b], VA[plan.parent[b]].reshape(6, 2 * N), out=out.reshape(6, 2 * N))
        x, y = out[0:2], out[2:4]  # x and y rows, each (linear, angular) x (v, a)
        d = plan.dof[b]
        dq = rates[d, 0]
        if plan.kind[b] == 1:
            # Rotation about z by -q, then the joint rates along S = w_z and the velocity
            # product v x (S dq) = dq (v_y, -v_x, 0, w_y, -w_x, 0).
            s, c = sin[b], cos[b]
            np.multiply(x, s, out=ta)
            np.multiply(y, s, out=tb)
            x *= c
            x += tb
            y *= c
            y -= ta
            out[5] += rates[d]
            np.multiply(y[:, 0], dq, out=t1)
            x[:, 1] += t1
            np.multiply(x[:, 0], dq, out=t1)
            y[:, 1] -= t1
        else:
            # Translation along z by q: v += q (w_y, -w_x, 0); S = v_z and
            # v x (S dq) = dq (w_y, -w_x, 0, 0, 0, 0).
            q = Qt[plan.qi[b]]
            np.multiply(out[3], q, out=t1)
            out[0] += t1
            np.multiply(out[1], q, out=t1)
            out[2] -= t1
            out[4] += rates[d]
            out[0, 1] += out[3, 0] * dq
            out[2, 1] -= out[1, 0] * dq
        # Net body wrench f = I a + v x* (I v), v x* h = [w x h_f; w x h_tau + v x h_f]: with
        # (a x b)_i = a_(i+1) b_(i+2) - a_(i+2) b_(i+1), all components from shifted views.
        np.matmul(plan.G[b], out[:, 0], out=e)
        ve, he = e[:10], e[10:]
        f = F[b]
        np.matmul(plan.I[b], out[:, 1], out=f)
        f3 = f.reshape(3, 2, N)
        np.multiply(ve[3:9:2, None], he[4:10].reshape(3, 2, N), out=t3)
        f3 += t3
        np.multiply(ve[5:11:2, None], he[2:8].reshape(3, 2, N), out=t3)
        f3 -= t3
        np.multiply(ve[2:8:2], he[4:10:2], out=t3[:, 0])
        f3[:, 1] += t3[:, 0]
        np.multiply(ve[4:10:2], he[2:8:2], out=t3[:, 0])
        f3[:, 1] -= t3[:, 0]
    for k, wr in external:
        b = plan.body_of[k]
        if b:
            Xt = plan.X_in[k].T
            F[b] -= (Xt @ wr)[P] if wr.ndim == 2 else (Xt @ wr)[P, None]
    tau = np.empty((n_dofs, N))
    tau.fill(0.0)
    g = np.empty((6, N))
    for b in range(nb - 1, 0, -1):
        Fb = F[b]
        x, y = Fb[0:2], Fb[2:4]  # x and y rows of [f, tau]
        if plan.kind[b] == 1:
            tau[plan.dof[b]] = Fb[5]
            # Rotation about z by +q (the transpose of the forward one).
            s, c = sin[b], cos[b]
            np.multiply(x, s, out=ta[0])
            np.multiply(y, s, out=tb[0])
            x *= c
            x -= tb[0]
            y *= c
            y += ta[0]
        else:
            tau[plan.dof[b]] = Fb[4]
            # tau += q (-f_y, f_x, 0)
            q = Qt[plan.qi[b]]
            np.multiply(Fb[2], q, out=t1[0])
            Fb[1] -= t1[0]
            np.multiply(Fb[0], q, out=t1[0])
            Fb[3] += t1[0]
        p = plan.parent[b]
        if p:  # the base's own wrench does not enter any torque
            np.dot(plan.Ct[b], Fb, out=g)
            F[p] += g
    return tau
