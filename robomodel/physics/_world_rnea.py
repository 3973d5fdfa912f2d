"""One inverse-dynamics call in few numpy operations: the engine of ``inverse_dynamics``.

The recursion is the one of :mod:`robomodel.physics.dynamics` (velocities and accelerations as sums
over
ancestors in the base frame, internal wrenches as sums over subtrees), laid out for the cost of
numpy on small arrays: a call costs about a microsecond whatever its size, and a stacked product
of n tiny matrices is n BLAS calls. After the poses (stacked 4x4 products, still the fastest form
of that step), every array is component-major, traversal positions along the last, contiguous
axis (a 6x6 matrix per position is ``(6, 6, n)``), so that each product of small matrices and
vectors is one ``einsum`` or one broadcast multiply with one 2-D product by a constant table.

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

# numpy's einsum without its Python wrapper and __array_function__ dispatch, which cost about
# 2 us a call (as much as the contraction itself on these sizes); the same function otherwise.
try:
    from numpy._core.multiarray import c_einsum as _einsum
except ImportError:  # pragma: no cover - another numpy layout
    _einsum = np.einsum

# The spatial cross products on the flattened outer product of two 6-vectors (first index
# first), transposed for a product from the left.
_MOTION_CROSS = np.ascontiguousarray(MOTION_CROSS.T)
_FORCE_CROSS = np.ascontiguousarray(FORCE_CROSS.T)


class WorldPlan:
    """The configuration-independent constants of ``world_rnea`` for one plan (dense)."""

    def __init__(self, plan: KinematicTree) -> None:
        if plan.anc is None or plan.desc is None or plan.by_link is None or plan.by_dof is None:
            raise ValueError("world_rnea needs a complete plan with its dense ancestor matrix")
        self.plan = plan
        self.n = len(plan.order)
        self.anc = plan.anc
        self.desc = plan.desc
        self.by_link = plan.by_link
        self.by_dof = plan.by_dof
        self.rate_idx = plan.rate_idx
        self.S = np.ascontiguousarray(plan.S.T)  # (6, n) motion subspaces in the link frames
        # Torques in DOF order: each DOF's link (its row of the internal wrenches by link) and
        # its motion subspace there.
        self.dof_link = plan.order[plan.by_dof]
        self.S_dof = plan.S[plan.by_dof]
        self.I6 = np.ascontiguousarray(plan.I6.transpose(1, 2, 0))  # (6, 6, n)


def world_plan(model: Model, plan: KinematicTree) -> WorldPlan:
    """Return the (cached) ``WorldPlan`` of ``plan``, a dense, complete plan of ``model``."""
    return memoized(model, ("world-rnea", plan.base), lambda: WorldPlan(plan))


def world_rnea(
    wp: WorldPlan,
    q: FloatArray,
    dq: FloatArray,
    ddq: FloatArray,
    a0g: FloatArray,
    v0: FloatArray | None,
    external: list[tuple[int, FloatArray]],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Return (torques by DOF, internal wrenches by link, base wrench, motions by link).

    ``a0g`` is the base acceleration with gravity subtracted from its linear part; ``external``
    lists (traversal position, wrench in the link frame). The motions are ``(2, n_links, 6)``:
    body twists and proper accelerations. All arrays are fresh and writable.
    """
    n = wp.n
    # The poses by stacked 4x4 products (the fastest form of that step), then component-major.
    T = np.ascontiguousarray(poses(wp.plan, q).transpose(1, 2, 0)).reshape(16, n)
    # X (motions base -> link) and Y (wrenches base -> link), entry by entry as G0 G1 - G2 G3
    # of gathered pose entries (see _adjoint_gather).
    G = T.take(_GATHER, axis=0)
    XY = G[0] * G[1]
    XY -= G[2] * G[3]
    X = XY[:36].reshape(6, 6, n)
    Y = XY[36:].reshape(6, 6, n)
    S = _einsum("abk,ak->bk", Y, wp.S)  # motion subspaces in the base frame: Y^T = X^-1
    rates = np.concatenate((dq, ddq, _ZERO)).take(wp.rate_idx)
    SA = S[None] * rates[:, None, :]  # [S dq, S ddq]
    VA = np.empty((2, 6, n))
    V = VA[0]
    np.matmul(SA[0], wp.desc, out=V)  # sums over ancestors
    if v0 is not None:
        V += v0[:, None]
    acc = _MOTION_CROSS @ (V[:, None, :] * SA[0][None]).reshape(36, n)
    acc += SA[1]
    acc[:, 0] = a0g  # the base: gravity as an upward acceleration
    np.matmul(acc, wp.desc, out=VA[1])
    # Into link frames, both at once: va[0] twists, va[1] proper accelerations; then the
    # link wrenches I a + v x* I v.
    va = _einsum("abk,mbk->mak", X, VA)
    Iva = _einsum("abk,mbk->mak", wp.I6, va)
    f = _FORCE_CROSS @ (va[0][:, None, :] * Iva[0][None]).reshape(36, n)
    f += Iva[1]
    for k, w in external:
        f[:, k] -= w
    # Into the base frame (X^T f), summed over subtrees, back into the link frames.
    Fs = _einsum("abk,ak->bk", X, f) @ wp.anc
    base_wrench = Fs[:, 0].copy()
    F = _einsum("abk,bk->ak", Y, Fs)
    F[:, 0] = 0.0
    internal = F.T.take(wp.by_link, axis=0)
    tau = np.vecdot(internal.take(wp.dof_link, axis=0), wp.S_dof)
    motions = va.transpose(0, 2, 1).take(wp.by_link, axis=1)
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


_ZERO = np.zeros(1)
