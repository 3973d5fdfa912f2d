"""A model's traversal from one base, flattened into arrays: the per-model kinematics plan.

Kinematics, dynamics and sensing all walk a model's tree from a base. The joint data their
loops need (rest transforms, axes in the child frame, coordinate offsets, inertias, the
ancestor matrix) is gathered once per model and base into a :class:`KinematicTree` and kept in
the model's own cache (:func:`robomodel.model.memoized`, keyed by the base's link index, so a
base given by name and by index share one plan, and the plan dies with the model). A call then
does no per-joint attribute lookups and builds no :class:`~robomodel.spatial.Transform` values
in its inner loop.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robomodel._pose_columns import batch_step
from robomodel.errors import ModelError
from robomodel.joints import FixedJoint, PrismaticJoint, RevoluteJoint
from robomodel.model import Model, memoized
from robomodel.spatial import skew
from robomodel.validation import check_type, link_index_of

__all__ = [
    "DENSE_LIMIT",
    "KinematicTree",
    "down",
    "local_transforms",
    "poses",
    "require_complete",
    "skew_stack",
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
        rest = np.tile(np.eye(4), (n, 1, 1))
        S = np.zeros((n, 6))  # motion subspace in the child frame
        dof = np.full(n, -1, dtype=np.intp)
        rev: list[tuple[int, int, FloatArray, FloatArray]] = []
        pri: list[tuple[int, int, FloatArray]] = []
        for k in range(1, n):
            child = model.link_names[t.links[k]]
            parent = model.link_names[t.parents[k]]  # type: ignore[index]
            j = model.joints[t.joints[k]]  # type: ignore[index]
            X = j.rest_transform(parent, child)
            rest[k, :3, :3] = X.rotation
            rest[k, :3, 3] = X.position
            match j:
                case RevoluteJoint():
                    ax = j.axis(child)
                    u, o = np.array(ax.direction), np.array(ax.origin)
                    S[k, :3] = np.cross(o, u)
                    S[k, 3:] = u
                    dof[k] = j.dof_offset
                    rev.append((k, j.pos_coord_offset, u, o))
                case PrismaticJoint():
                    u = np.array(j.axis(child).direction)
                    S[k, :3] = u
                    dof[k] = j.dof_offset
                    pri.append((k, j.pos_coord_offset, u))
                case FixedJoint():
                    pass
        self.rest = rest
        self.S = S
        self.dof_pos: IntArray = np.nonzero(dof >= 0)[0]
        self.dof_idx: IntArray = dof[self.dof_pos]
        X3 = rest[:, :3, :3]
        # Revolute: rest @ M(q) = (X3 + s A1 + (1-c) A2, Xp - s b1 - (1-c) b2), see class doc.
        self.rev_pos = np.array([r[0] for r in rev], dtype=np.intp)
        self.rev_q = np.array([r[1] for r in rev], dtype=np.intp)
        K = np.array([skew(r[2]) for r in rev]).reshape(-1, 3, 3)
        KK = K @ K
        o = np.array([r[3] for r in rev]).reshape(-1, 3)
        Xr = X3[self.rev_pos]
        self.rev_X3 = Xr
        self.rev_Xp = rest[self.rev_pos, :3, 3]
        self.rev_A1 = Xr @ K
        self.rev_A2 = Xr @ KK
        self.rev_b1 = np.einsum("kij,kj->ki", self.rev_A1, o)
        self.rev_b2 = np.einsum("kij,kj->ki", self.rev_A2, o)
        # Prismatic: rest @ M(q) = (X3, Xp + q X3 u).
        self.pri_pos = np.array([p[0] for p in pri], dtype=np.intp)
        self.pri_q = np.array([p[1] for p in pri], dtype=np.intp)
        u_p = np.array([p[2] for p in pri]).reshape(-1, 3)
        self.pri_c = np.einsum("kij,kj->ki", X3[self.pri_pos], u_p)
        # local_transforms in one pass over all positions: rest @ M(q) = L0 + sin(q) Ls
        # + cos(q) Lc + q Lq, with (1 - c) A2 split into the constant A2 and -c A2; fixed joints
        # have zero coefficients (and read coordinate 0, or an empty vector's stand-in).
        self.qidx: IntArray = np.zeros(n, dtype=np.intp)
        self.qidx[self.rev_pos] = self.rev_q
        self.qidx[self.pri_pos] = self.pri_q
        self.L0 = rest.copy()
        self.Ls = np.zeros((n, 4, 4))
        self.Lc = np.zeros((n, 4, 4))
        self.Lq = np.zeros((n, 4, 4))
        if len(rev):
            self.L0[self.rev_pos, :3, :3] += self.rev_A2
            self.L0[self.rev_pos, :3, 3] -= self.rev_b2
            self.Ls[self.rev_pos, :3, :3] = self.rev_A1
            self.Ls[self.rev_pos, :3, 3] = -self.rev_b1
            self.Lc[self.rev_pos, :3, :3] = -self.rev_A2
            self.Lc[self.rev_pos, :3, 3] = self.rev_b2
        if len(pri):
            self.Lq[self.pri_pos, :3, 3] = self.pri_c
        # Where each link's pose sits in traversal order (complete plans), so that results by
        # link index are one gather.
        self.by_link: IntArray | None = None
        if self.complete:
            self.by_link = np.empty(n, dtype=np.intp)
            self.by_link[self.order] = np.arange(n)
        # Inertias (link frame) in traversal order.
        inert = [model.links[lk].inertia for lk in t.links]
        self.mass = np.array([i.mass for i in inert])
        self.h = np.array([i.first_moment for i in inert]).reshape(n, 3)
        self.I_O = np.array([i.rotational_inertia for i in inert]).reshape(n, 3, 3)
        self.I6 = np.array([i.as_matrix() for i in inert]).reshape(n, 6, 6)
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
        self.batch_steps = [batch_step(model, t, k, self.parent[k]) for k in range(1, n)]


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
    """Return ``parent_H_child(q)`` of every traversal position as (n, 4, 4) (identity at 0)."""
    if not len(plan.rev_pos) and not len(plan.pri_pos):
        return plan.rest.copy()
    a = q[plan.qidx][:, None, None]
    L = plan.L0 + np.sin(a) * plan.Ls
    L += np.cos(a) * plan.Lc
    if len(plan.pri_pos):
        L += a * plan.Lq
    return L


def poses(plan: KinematicTree, q: FloatArray) -> FloatArray:
    """Return ``base_H_link`` of every traversal position as (n, 4, 4)."""
    T = local_transforms(plan, q)
    # Pointer jumping: T[k] holds J[k]_H_k for a jump target J[k], first the parent; each round
    # composes every link with its target's transform and doubles the jump, so a tree of depth d
    # needs ceil(log2 d) batched products instead of one small product per link. Finished links
    # jump to the base, whose pose is the identity, so every round is one product of all links.
    for J in plan.jumps:
        T = T[J] @ T
    return T


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
