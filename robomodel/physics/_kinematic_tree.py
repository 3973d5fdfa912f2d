"""A model's traversal from one base, flattened into arrays: the per-model kinematics plan.

Kinematics, dynamics and sensing all walk a model's tree from a base. The joint data their
loops need (rest transforms, axes in the child frame, coordinate offsets, inertias, the
ancestor matrix) is gathered once per model and base into a :class:`KinematicTree` and kept in
the model's own cache (``robomodel._internal.memo.memoized``, keyed by the base's link index, so a
base given by name and by index share one plan, and the plan dies with the model). A call then
does no per-joint attribute lookups and builds no :class:`~robomodel.model.spatial.Transform` values
in its inner loop.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.errors import ModelError
from robomodel.model.joints import FixedJoint, RevoluteJoint
from robomodel.model.record import Model
from robomodel.model.spatial import cross
from robomodel.model.validation import check_type
from robomodel.physics._pose_columns import ColumnStep, batch_step
from robomodel.physics.joint_state import link_index_of

__all__ = [
    "DENSE_LIMIT",
    "FORCE_CROSS",
    "MOTION_CROSS",
    "KinematicTree",
    "column_steps",
    "cross_rows",
    "down",
    "local_transforms",
    "poses",
    "require_complete",
    "skew_stack",
    "spatial_products",
    "tree_of",
    "up",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

DENSE_LIMIT = 256
"""Trees of up to this many links sum over ancestors with one dense matrix product."""


def tree_of(model: Model, base: object = None) -> KinematicTree:
    """Return the plan of ``model`` from ``base`` (a link name or index; ``None``: default base).

    Raises:
        ArgumentError: ``model`` is not a Model, or ``base`` not a link name or index (``1.0``
            and ``True`` are refused).
        UnknownNameError: no such link.
    """
    b = link_index_of(check_type(model, Model, "model"), base)
    return memoized(model, ("kinematics-plan", b), lambda: KinematicTree(model, b))


class KinematicTree:
    """A model's traversal from one base, flattened into arrays (traversal positions, not links).

    Build it with :func:`tree_of`, which caches it on the model.

    Position ``k`` of every array is the ``k``-th link of the traversal. For a non-base position
    the joint to the parent gives ``parent_H_child(q) = rest @ M(q)``, where ``M`` moves about
    the joint axis expressed in the child (``joint.axis(child)``): a rotation
    ``I + s K + (1 - c) K^2`` about a line through ``o`` for revolute joints, a translation
    along ``u`` for prismatic ones.
    """

    def __init__(self, model: Model, base: int) -> None:
        t = model.traversal(base)
        n = len(t)
        self.base = base
        self.order: IntArray = np.array(t.links, dtype=np.intp)
        self.position = {link: k for k, link in enumerate(t.links)}
        self.parent = [-1] + [self.position[p] for p in t.parents[1:] if p is not None]
        self.complete = n == model.n_links
        # One pass over the joints gathers their stored fields; every derived quantity (rest
        # transforms oriented parent -> child, axes in the child) is then computed for all
        # joints at once, so that building the plan of a 20,000-link chain costs a few
        # microseconds a link rather than a few hundred.
        names, joints = model.link_names, model.joints
        stored_R = np.empty((n, 3, 3))
        stored_p = np.empty((n, 3))
        stored_R[0] = np.eye(3)
        stored_p[0] = 0.0
        flip = np.zeros(n, dtype=bool)  # the joint's link1 is the traversal child
        rev: list[int] = []
        pri: list[int] = []
        coord = np.zeros(n, dtype=np.intp)
        dof = np.full(n, -1, dtype=np.intp)
        u_in = np.zeros((n, 3))
        o_in = np.zeros((n, 3))
        for k in range(1, n):
            j = joints[t.joints[k]]  # type: ignore[index]
            X = j.link1_H_link2
            stored_R[k] = X.rotation
            stored_p[k] = X.position
            flip[k] = j.link1 == names[t.links[k]]
            if isinstance(j, FixedJoint):
                continue
            (rev if isinstance(j, RevoluteJoint) else pri).append(k)
            coord[k] = j.pos_coord_offset
            dof[k] = j.dof_offset
            ax = j.axis_in_link1
            u_in[k] = ax.direction
            o_in[k] = ax.origin
        # rest = parent_H_child: the stored link1_H_link2, or its inverse (R^T, -R^T p).
        Rt = stored_R.transpose(0, 2, 1)
        Rt_p = np.einsum("kij,kj->ki", Rt, stored_p)
        rest = np.tile(np.eye(4), (n, 1, 1))
        rest[:, :3, :3] = np.where(flip[:, None, None], Rt, stored_R)
        rest[:, :3, 3] = np.where(flip[:, None], -Rt_p, stored_p)
        # The axis seen from the child: the stored one reversed when the child is link1, else
        # the stored one expressed in link2 (R^T u through R^T o - R^T p).
        u_fwd = np.einsum("kij,kj->ki", Rt, u_in)
        o_fwd = np.einsum("kij,kj->ki", Rt, o_in) - Rt_p
        # Transform @ Axis renormalises a direction a merely finite, non-orthonormal rotation
        # took off the unit sphere; a proper rotation leaves it as it is.
        d2 = np.einsum("ki,ki->k", u_fwd, u_fwd)
        off = (dof >= 0) & ~flip & (np.abs(d2 - 1.0) > 1e-9)
        if off.any():
            u_fwd[off] /= np.sqrt(d2[off])[:, None]
        u_c = np.where(flip[:, None], -u_in, u_fwd)
        o_c = np.where(flip[:, None], o_in, o_fwd)
        rev_pos = np.array(rev, dtype=np.intp)
        pri_pos = np.array(pri, dtype=np.intp)
        S = np.zeros((n, 6))  # motion subspace in the child frame
        S[rev_pos, :3] = cross(o_c[rev_pos], u_c[rev_pos])
        S[rev_pos, 3:] = u_c[rev_pos]
        S[pri_pos, :3] = u_c[pri_pos]
        self.rest = rest
        self.S = S
        self.dof_pos: IntArray = np.nonzero(dof >= 0)[0]
        self.dof_idx: IntArray = dof[self.dof_pos]
        # The traversal position of each DOF, when every DOF is on the traversal (a complete
        # plan): results in DOF order are one gather.
        self.by_dof: IntArray | None = None
        if len(self.dof_idx) == model.n_dofs:
            self.by_dof = self.dof_pos[np.argsort(self.dof_idx)]
        # rates.take(rate_idx) with rates = [dq, ddq, 0] gives (dq, ddq) per traversal position
        # (zero where the joint is fixed) in one gather.
        n_dofs = model.n_dofs
        self.rate_idx: IntArray = np.where(dof >= 0, dof, 2 * n_dofs) + np.array(
            [[0], [n_dofs]], dtype=np.intp
        ) * (dof >= 0)
        X3 = rest[:, :3, :3]
        # Revolute: rest @ M(q) = (X3 + s A1 + (1-c) A2, Xp - s b1 - (1-c) b2), see class doc.
        self.rev_pos = rev_pos
        self.rev_q: IntArray = coord[rev_pos]
        K = skew_stack(u_c[rev_pos])
        KK = K @ K
        o = o_c[rev_pos]
        Xr = X3[rev_pos]
        self.rev_X3 = Xr
        self.rev_Xp = rest[rev_pos, :3, 3]
        self.rev_A1 = Xr @ K
        self.rev_A2 = Xr @ KK
        self.rev_b1 = np.einsum("kij,kj->ki", self.rev_A1, o)
        self.rev_b2 = np.einsum("kij,kj->ki", self.rev_A2, o)
        # Prismatic: rest @ M(q) = (X3, Xp + q X3 u).
        self.pri_pos = pri_pos
        self.pri_q: IntArray = coord[pri_pos]
        self.pri_c = np.einsum("kij,kj->ki", X3[pri_pos], u_c[pri_pos])
        # local_transforms in one pass over all positions: rest @ M(q) = L0 + sin(q) Ls
        # + cos(q) Lc + q Lq, with (1 - c) A2 split into the constant A2 and -c A2; fixed joints
        # have zero coefficients (and read coordinate 0, or an empty vector's stand-in).
        self.qidx: IntArray = coord
        self.L0 = rest.copy()
        self.Ls = np.zeros((n, 4, 4))
        self.Lc = np.zeros((n, 4, 4))
        self.Lq = np.zeros((n, 4, 4))
        if len(rev):
            self.L0[rev_pos, :3, :3] += self.rev_A2
            self.L0[rev_pos, :3, 3] -= self.rev_b2
            self.Ls[rev_pos, :3, :3] = self.rev_A1
            self.Ls[rev_pos, :3, 3] = -self.rev_b1
            self.Lc[rev_pos, :3, :3] = -self.rev_A2
            self.Lc[rev_pos, :3, 3] = self.rev_b2
        if len(pri):
            self.Lq[pri_pos, :3, 3] = self.pri_c
        # Where each link's pose sits in traversal order (complete plans), so that results by
        # link index are one gather.
        self.by_link: IntArray | None = None
        if self.complete:
            self.by_link = np.empty(n, dtype=np.intp)
            self.by_link[self.order] = np.arange(n)
        # Inertias (link frame) in traversal order, and the 6x6 matrices
        # [[m 1, -S(h)], [S(h), I_O]] (SpatialInertia.as_matrix) built for all links at once.
        links = model.links
        inert = [links[lk].inertia for lk in t.links]
        self.mass = np.array([i.mass for i in inert])
        self.h = np.array([i.first_moment for i in inert]).reshape(n, 3)
        self.I_O = np.array([i.rotational_inertia for i in inert]).reshape(n, 3, 3)
        I6 = np.zeros((n, 6, 6))
        Sh = skew_stack(self.h)
        I6[:, 0, 0] = I6[:, 1, 1] = I6[:, 2, 2] = self.mass
        I6[:, :3, 3:] = -Sh
        I6[:, 3:, :3] = Sh
        I6[:, 3:, 3:] = self.I_O
        self.I6 = I6
        # anc[k, i] = 1 when i is k or one of its ancestors, so that sums over ancestors are
        # anc @ x and sums over subtrees anc.T @ x: one product instead of a loop over links.
        # The matrix is n x n, so big models use the loops of down/up instead.
        self.anc: FloatArray | None = None
        self.desc: FloatArray | None = None
        if n <= DENSE_LIMIT:
            anc = np.zeros((n, n))
            for k in range(n):
                anc[k, k] = 1.0
                p = self.parent[k]
                if p >= 0:
                    anc[k] += anc[p]
            self.anc = anc
            self.desc = np.ascontiguousarray(anc.T)
        # (child, parent) pairs in traversal order, and the jump targets of each round of pointer
        # jumping of poses (see poses).
        self.steps = list(zip(range(1, n), self.parent[1:], strict=True))
        self.jumps: list[IntArray] = []
        J = np.array(self.parent, dtype=np.intp)
        J[0] = 0
        while (J > 0).any():
            self.jumps.append(J.copy())
            J = J[J]


def column_steps(model: Model, plan: KinematicTree) -> list[ColumnStep]:
    """Return the constants of every step of the batched FK of ``plan`` (a plan of ``model``).

    Only :func:`robomodel.physics.kinematics.forward_kinematics_batch` needs them, so they are
    built on
    its first call, not with the plan, and cached on the model beside it.
    """

    def make() -> list[ColumnStep]:
        t = model.traversal(plan.base)
        return [batch_step(model, t, k, plan.parent[k]) for k in range(1, len(plan.order))]

    return memoized(model, ("fk-column-steps", plan.base), make)


def down(plan: KinematicTree, x: FloatArray) -> FloatArray:
    """Return, per traversal position, the sum of ``x`` over the position and its ancestors."""
    if plan.anc is not None:
        out: FloatArray = plan.anc @ x
        return out
    y = x.copy()
    for k, p in plan.steps:
        y[k] += y[p]
    return y


def up(plan: KinematicTree, x: FloatArray) -> FloatArray:
    """Return, per traversal position, the sum of ``x`` over the position's subtree."""
    if plan.desc is not None:
        out: FloatArray = plan.desc @ x
        return out
    y = x.copy()
    for k, p in reversed(plan.steps):
        y[p] += y[k]
    return y


def require_complete(plan: KinematicTree, model: Model, what: str) -> None:
    if not plan.complete:
        missing = [model.link_names[i] for i in range(model.n_links) if i not in plan.position]
        raise ModelError(
            f"{what} needs every link connected to the base {model.link_names[plan.base]!r}, "
            f"but {missing} are not; join them to the tree or take a submodel first"
        )


def local_transforms(plan: KinematicTree, q: FloatArray) -> FloatArray:
    """Return ``parent_H_child(q)`` of every traversal position as (..., n, 4, 4).

    ``q`` is one configuration (n_pos_coords,) or a stack of them (..., n_pos_coords).
    """
    if not len(plan.rev_pos) and not len(plan.pri_pos):
        return np.broadcast_to(plan.rest, (*q.shape[:-1], *plan.rest.shape)).copy()
    a = q.take(plan.qidx, axis=-1)[..., None, None]
    L = plan.L0 + np.sin(a) * plan.Ls
    L += np.cos(a) * plan.Lc
    if len(plan.pri_pos):
        L += a * plan.Lq
    return L


def poses(plan: KinematicTree, q: FloatArray) -> FloatArray:
    """Return ``base_H_link`` of every traversal position as (..., n, 4, 4).

    ``q`` is one configuration or a stack of them, as in :func:`local_transforms`.
    """
    T = local_transforms(plan, q)
    out = np.empty_like(T)
    # Pointer jumping: T[k] holds J[k]_H_k for a jump target J[k], first the parent; each round
    # composes every link with its target's transform and doubles the jump, so a tree of depth d
    # needs ceil(log2 d) batched products instead of one small product per link. Finished links
    # jump to the base, whose pose is the identity, so every round is one product of all links.
    # Two buffers take turns (a fresh result array per round costs more than the gather).
    for J in plan.jumps:
        np.matmul(T.take(J, axis=-3), T, out=out)
        T, out = out, T
    return T


# cross_rows: the Levi-Civita symbol as a (9, 3) matrix, e_(3j+k) -> e_j x e_k.
_EPS = np.zeros((9, 3))
for _i, _j, _k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
    _EPS[3 * _j + _k, _i] = 1.0
    _EPS[3 * _k + _j, _i] = -1.0


def _cross_tables() -> tuple[FloatArray, FloatArray]:
    motion, force = np.zeros((36, 6)), np.zeros((36, 6))
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (1, 0, 2), (2, 1, 0)):
        e = 1.0 if (i, j, k) in ((0, 1, 2), (1, 2, 0), (2, 0, 1)) else -1.0  # eps_ijk
        motion[6 * (3 + j) + k, i] += e  # w1 x v2
        motion[6 * j + 3 + k, i] += e  # v1 x w2
        motion[6 * (3 + j) + 3 + k, 3 + i] += e  # w1 x w2
        force[6 * (3 + j) + k, i] += e  # w x f
        force[6 * (3 + j) + 3 + k, 3 + i] += e  # w x t
        force[6 * j + k, 3 + i] += e  # v x f
    motion.setflags(write=False)
    force.setflags(write=False)
    return motion, force


MOTION_CROSS, FORCE_CROSS = _cross_tables()
"""The spatial cross products as read-only (36, 6) matrices on the flattened outer product of
two 6-vectors (``[v; w]`` order): ``MOTION_CROSS`` gives ``m1 x m2 = [w1 x v2 + v1 x w2;
w1 x w2]``, ``FORCE_CROSS`` gives ``m x* f = [w x f; w x t + v x f]`` (see spatial_products)."""


def spatial_products(a: FloatArray, b: FloatArray, table: FloatArray) -> FloatArray:
    """Return the row-wise spatial cross products of (n, 6) stacks ``a`` and ``b``.

    ``table`` is :data:`MOTION_CROSS` (``a x b``) or :data:`FORCE_CROSS` (``a x* b``).
    """
    outer = a[:, :, None] * b[:, None, :]
    out: FloatArray = outer.reshape(-1, 36) @ table
    return out


def cross_rows(a: FloatArray, b: FloatArray) -> FloatArray:
    """Return row-wise cross products of broadcastable ``(..., 3)`` stacks.

    Two numpy calls whatever the stack: the outer products of the rows, then one matrix product
    with the Levi-Civita symbol (``spatial.cross``, three assignments of two products, costs
    twice as much on the small stacks of one dynamics call). Each entry is the difference of
    two products, summed with zeros, so it matches ``np.cross`` to rounding.
    """
    outer = a[..., :, None] * b[..., None, :]
    # One 2-D product (a stacked one would be one small product per row).
    out: FloatArray = (outer.reshape(-1, 9) @ _EPS).reshape(outer.shape[:-1])
    return out


def skew_stack(v: FloatArray) -> FloatArray:
    """Return the skew-symmetric matrices of a stack of 3-vectors, shape ``(..., 3, 3)``."""
    S = np.zeros((*v.shape[:-1], 3, 3))
    S[..., 0, 1] = -v[..., 2]
    S[..., 0, 2] = v[..., 1]
    S[..., 1, 0] = v[..., 2]
    S[..., 1, 2] = -v[..., 0]
    S[..., 2, 0] = -v[..., 1]
    S[..., 2, 1] = v[..., 0]
    return S
