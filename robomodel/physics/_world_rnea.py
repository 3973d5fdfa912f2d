"""The inverse-dynamics engine: recursive Newton-Euler for N states at once (N = 1 for one call).

The recursion is the one of :mod:`robomodel.physics.dynamics` (velocities and accelerations as
sums over ancestors in the base frame, internal wrenches as sums over subtrees), laid out for the
cost of numpy on small arrays: a numpy call costs about a microsecond whatever its size, and a
stacked product of n tiny matrices is n BLAS calls. After the poses (stacked 4x4 products, still
the fastest form of that step), every array is component-major, states then traversal positions
along the last, contiguous axes (a 6x6 matrix per state and position is ``(6, 6, N, n)``), so
that each product of small matrices and vectors is one ``einsum`` or one broadcast multiply with
one 2-D product by a constant table, whatever N is. Sums over ancestors and subtrees are one
product with the dense ancestor matrix (trees up to ``DENSE_LIMIT`` links), else loops over the
links.

The 6x6 transforms base -> link of motions, ``X = [[R^T, -R^T S(p)], [0, R^T]]``, and of
wrenches, ``Y = [[R^T, 0], [-R^T S(p), R^T]]``, are built together from one gather of pose
entries, two products and a difference; then motions go into link frames with ``X``, link
wrenches into the base frame with ``X^T``, subtree wrenches back with ``Y``, and motion subspaces
into the base frame with ``Y^T = X^-1``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.model.record import Model
from robomodel.physics._kinematic_tree import FORCE_CROSS, MOTION_CROSS, KinematicTree, poses

__all__ = ["WorldPlan", "world_plan", "world_rnea"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

# The spatial cross products on the flattened outer product of two 6-vectors (first index
# first), transposed for a product from the left.
_MOTION_CROSS = np.ascontiguousarray(MOTION_CROSS.T)
_FORCE_CROSS = np.ascontiguousarray(FORCE_CROSS.T)


class WorldPlan:
    """The configuration-independent constants of :func:`world_rnea` for one complete plan."""

    def __init__(self, plan: KinematicTree) -> None:
        if plan.by_link is None or plan.by_dof is None:
            raise ValueError("world_rnea needs a complete plan")
        self.plan = plan
        self.n = len(plan.order)
        # Sums over ancestors (x @ desc) and over subtrees (x @ anc) along the last axis: one
        # product with the dense ancestor matrix, or loops over the links of a big tree.
        self.anc = plan.anc
        self.desc = plan.desc
        self.steps = plan.steps
        self.by_link = plan.by_link
        self.by_dof = plan.by_dof
        self.rate_idx = plan.rate_idx
        self.S = np.ascontiguousarray(plan.S.T)  # (6, n) motion subspaces in the link frames
        # Torques in DOF order: each DOF's link (its row of the internal wrenches by link) and
        # its motion subspace there.
        self.dof_link = plan.order[plan.by_dof]
        self.S_dof = plan.S[plan.by_dof]
        self.I6 = np.ascontiguousarray(plan.I6.transpose(1, 2, 0))  # (6, 6, n)

    def over_ancestors(self, x: FloatArray, out: FloatArray) -> None:
        """Write into ``out`` the sums of ``x`` over each position and its ancestors."""
        if self.desc is not None:
            np.matmul(x, self.desc, out=out)
            return
        out[...] = x
        for k, p in self.steps:
            out[..., k] += out[..., p]

    def over_subtrees(self, x: FloatArray) -> FloatArray:
        """Return the sums of ``x`` over each position's subtree."""
        if self.anc is not None:
            y: FloatArray = x @ self.anc
            return y
        y = x.copy()
        for k, p in reversed(self.steps):
            y[..., p] += y[..., k]
        return y


def world_plan(model: Model, plan: KinematicTree) -> WorldPlan:
    """Return the (cached) ``WorldPlan`` of ``plan``, a complete plan of ``model``."""
    return memoized(model, ("world-rnea", plan.base), lambda: WorldPlan(plan))


def world_rnea(
    wp: WorldPlan,
    Q: FloatArray,
    DQ: FloatArray,
    DDQ: FloatArray,
    a0g: FloatArray,
    v0: FloatArray | None,
    external: list[tuple[int, FloatArray]],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Return (torques by DOF, internal wrenches by link, base wrench, motions by link) of N states.

    ``Q``, ``DQ`` and ``DDQ`` hold one state per row, ``(N, n_pos_coords)`` and ``(N, n_dofs)``.
    ``a0g`` is the base acceleration with gravity subtracted from its linear part; ``external``
    lists (traversal position, wrench in the link frame, ``(6,)`` or one per state ``(6, N)``).
    The results are ``(N, n_dofs)``, ``(N, n_links, 6)``, ``(N, 6)`` and ``(2, N, n_links, 6)``
    (body twists and proper accelerations); all fresh and writable.
    """
    n = wp.n
    N = Q.shape[0]
    # The poses by stacked 4x4 products (the fastest form of that step), then component-major:
    # entry, state, position.
    T = np.ascontiguousarray(poses(wp.plan, Q).transpose(2, 3, 0, 1)).reshape(16, N, n)
    # X (motions base -> link) and Y (wrenches base -> link), entry by entry as G0 G1 - G2 G3
    # of gathered pose entries (see _adjoint_gather).
    G = T.take(_GATHER, axis=0)
    XY = G[0] * G[1]
    XY -= G[2] * G[3]
    X = XY[:36].reshape(6, 6, N, n)
    Y = XY[36:].reshape(6, 6, N, n)
    S = np.einsum("abjk,ak->bjk", Y, wp.S)  # motion subspaces in the base frame: Y^T = X^-1
    rates = np.concatenate((DQ, DDQ, np.zeros((N, 1))), axis=1).take(wp.rate_idx, axis=1)
    SA = S[None] * rates.transpose(1, 0, 2)[:, None]  # [S dq, S ddq]
    VA = np.empty((2, 6, N, n))
    V = VA[0]
    wp.over_ancestors(SA[0], V)
    if v0 is not None:
        V += v0[:, None, None]
    acc = (_MOTION_CROSS @ (V[:, None] * SA[0][None]).reshape(36, N * n)).reshape(6, N, n)
    acc += SA[1]
    acc[:, :, 0] = a0g[:, None]  # the base: gravity as an upward acceleration
    wp.over_ancestors(acc, VA[1])
    # Into link frames, both at once: va[0] twists, va[1] proper accelerations; then the
    # link wrenches I a + v x* I v.
    va = np.einsum("abjk,mbjk->majk", X, VA)
    Iva = np.einsum("abk,mbjk->majk", wp.I6, va)
    f = (_FORCE_CROSS @ (va[0][:, None] * Iva[0][None]).reshape(36, N * n)).reshape(6, N, n)
    f += Iva[1]
    for k, w in external:
        f[:, :, k] -= w if w.ndim == 2 else w[:, None]
    # Into the base frame (X^T f), summed over subtrees, back into the link frames.
    Fs = wp.over_subtrees(np.einsum("abjk,ajk->bjk", X, f))
    base_wrench = Fs[:, :, 0].T.copy()
    F = np.einsum("abjk,bjk->ajk", Y, Fs)
    F[:, :, 0] = 0.0
    internal = F.transpose(1, 2, 0).take(wp.by_link, axis=1)
    tau = np.vecdot(internal.take(wp.dof_link, axis=1), wp.S_dof)
    motions = va.transpose(0, 2, 3, 1).take(wp.by_link, axis=2)
    return tau, internal, base_wrench, motions


def _adjoint_gather() -> npt.NDArray[np.intp]:
    # Indices into a pose flattened row-major (entry (r, c) at 4 r + c) such that entry e of
    # [X; Y] is G[0, e] G[1, e] - G[2, e] G[3, e]: X = [[R^T, B], [0, R^T]] and
    # Y = [[R^T, 0], [B, R^T]] with B = -R^T S(p), B[i, j] = p_(j+1) R_(j+2, i)
    # - p_(j+2) R_(j+1, i). Entry (3, 0) of a pose is 0 and (3, 3) is 1, exactly.
    zero, one = 12, 15
    g = np.full((4, 2, 6, 6), zero, dtype=np.intp)
    for i in range(3):
        for j in range(3):
            for which, (rt, b) in enumerate((((0, 0), (0, 3)), ((0, 0), (3, 0)))):
                for r0, c0 in (rt, (3, 3)):
                    g[0, which, r0 + i, c0 + j] = 4 * j + i
                    g[1, which, r0 + i, c0 + j] = one
                j1, j2 = (j + 1) % 3, (j + 2) % 3
                g[:, which, b[0] + i, b[1] + j] = (4 * j1 + 3, 4 * j2 + i, 4 * j2 + 3, 4 * j1 + i)
    out = g.reshape(4, 72)
    out.setflags(write=False)
    return out


_GATHER = _adjoint_gather()
