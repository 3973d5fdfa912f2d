"""The regressor's view of a model: its tree from one base as stacked arrays, and batched poses.

Everything the regressor needs of a model's structure is computed here in a few vectorised
passes over stacked joint arrays (a first call on a freshly loaded model pays for it, so it must
cost little): the motion subspace of each link's joint, the ancestor matrix and each link's
subtree, and the constants of every joint's transform as a function of its position.

The transform from a link's traversal parent to the link is, for every joint kind and
direction, ``J(q) = A0 + c1(q) A1 + c2(q) A2`` (rotation) and ``b0 + c1 b1 + c2 b2``
(position), with ``(c1, c2) = (sin q, 1 - cos q)`` for a revolute joint (Rodrigues' formula
for ``Rot(u, q) = I + sin q K + (1 - cos q) K^2``, ``K = S(u)``), ``(q, 0)`` for a prismatic
one and ``(0, 0)`` for a fixed one. :func:`poses` composes them one tree level at a time, all
links of a level and all samples in each numpy call.
"""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.errors import ModelError
from robomodel.model.joints import FixedJoint, PrismaticJoint, RevoluteJoint
from robomodel.model.record import Model

__all__ = ["Tree", "poses", "tree_of"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


@attrs.frozen(eq=False)
class Tree:
    """A model's traversal from one base, by link index, as the regressor uses it.

    Attributes:
        S_links: ``(6, n_links)``, the motion subspace ``[v; w]`` of each link's joint to its
            traversal parent in the link frame (zero for the base and fixed joints).
        dof_child: per DOF, the link its joint moves.
        anc: ``anc[k, i] = 1`` where link ``i`` is ``k`` or an ancestor of ``k``.
        steps: ``(link, parent)`` in traversal order.
        runs: per DOF, the subtree of its child as runs ``[lo, hi)`` of link indices.
        subtree_runs: per link, its subtree as runs of link indices.
        outside: ``(n_dofs, 10 n_links)``, true in the regressor's columns of the links outside
            the subtree of each DOF's child (the zero blocks of its row).
        base: the base link index.
        levels: per tree depth after the base, the links at that depth and their parents.
        coord: per link, the position coordinate of its joint (0 for the base and fixed joints).
        revolute: the links whose joint is revolute; ``prismatic`` likewise.
        A: ``(3, 3, 3, n_links)``: ``A0, A1, A2`` of every link's joint transform.
        b: ``(3, 3, n_links)``: ``b0, b1, b2``.
    """

    S_links: FloatArray
    dof_child: IntArray
    anc: FloatArray
    steps: tuple[tuple[int, int], ...]
    runs: tuple[tuple[tuple[int, int], ...], ...]
    subtree_runs: tuple[tuple[tuple[int, int], ...], ...]
    outside: npt.NDArray[np.bool_]
    base: int
    levels: tuple[tuple[IntArray, IntArray], ...]
    coord: IntArray
    revolute: IntArray
    prismatic: IntArray
    A: FloatArray
    b: FloatArray


def tree_of(model: Model, base: int) -> Tree:
    """Return the :class:`Tree` of ``model`` from link ``base``, memoised on the model.

    Raises:
        ModelError: a link is not connected to the base.
    """
    return memoized(model, ("identification-tree", base), lambda: _make_tree(model, base))


_F8 = np.dtype(np.float64)


def _stacked(arrays: list[FloatArray], shape: tuple[int, ...]) -> FloatArray:
    # Joining the buffers of many small arrays costs less than np.array on the list; the values
    # store C-contiguous float64, and anything else goes through np.array.
    size = 1
    for k in shape:
        size *= k
    try:
        raw = b"".join(arrays)  # type: ignore[arg-type]
    except (TypeError, BufferError):  # pragma: no cover - a non-contiguous view
        raw = b""
    if len(raw) != 8 * size * len(arrays) or any(a.dtype is not _F8 for a in arrays):
        return np.array(arrays, dtype=np.float64).reshape(-1, *shape)
    return np.frombuffer(raw, dtype=np.float64).reshape(-1, *shape)


def _subtree_runs(anc: FloatArray) -> tuple[tuple[tuple[int, int], ...], ...]:
    # Per link, its subtree (the links k with anc[k, a] = 1) as runs [lo, hi) of consecutive
    # link indices: the run boundaries found in one vectorised pass over the nonzeros.
    a_idx, k_idx = np.nonzero(anc.T)  # sorted by ancestor, then link
    new = np.ones(len(k_idx), dtype=bool)
    new[1:] = (k_idx[1:] != k_idx[:-1] + 1) | (a_idx[1:] != a_idx[:-1])
    starts = np.flatnonzero(new)
    ends = np.append(starts[1:], len(k_idx)) - 1
    out: list[list[tuple[int, int]]] = [[] for _ in range(anc.shape[0])]
    for a, lo, hi in zip(
        a_idx[starts].tolist(), k_idx[starts].tolist(), (k_idx[ends] + 1).tolist(), strict=True
    ):
        out[a].append((lo, hi))
    return tuple(map(tuple, out))


def _skews(u: FloatArray) -> FloatArray:
    # S(u) of each row of u (m, 3), as (m, 3, 3).
    K = np.zeros((len(u), 3, 3))
    K[:, 0, 1], K[:, 0, 2] = -u[:, 2], u[:, 1]
    K[:, 1, 0], K[:, 1, 2] = u[:, 2], -u[:, 0]
    K[:, 2, 0], K[:, 2, 1] = -u[:, 1], u[:, 0]
    return K


def _make_tree(model: Model, base: int) -> Tree:
    # Walk the traversal once in Python (ancestors, subtrees, levels), then build every joint's
    # constants in one vectorised pass over the stacked joint arrays.
    t = model.traversal(base)
    nl = model.n_links
    names = model.link_names
    if len(t) != nl:
        missing = [names[i] for i in range(nl) if not t.contains(i)]
        raise ModelError(
            f"the regressor needs every link connected to the base {names[base]!r}, but "
            f"{missing} are not; join them to the tree or take a submodel first"
        )
    joints = model.joints
    ancestors: list[list[int]] = [[] for _ in range(nl)]
    ancestors[base] = [base]
    depth = [0] * nl
    children: list[int] = []
    parents: list[int] = []
    jts: list[int] = []
    for link, parent, j in zip(t.links[1:], t.parents[1:], t.joints[1:], strict=True):
        if parent is None or j is None:  # pragma: no cover - only the base has none
            continue
        ancestors[link] = [*ancestors[parent], link]
        depth[link] = depth[parent] + 1
        children.append(link)
        parents.append(parent)
        jts.append(j)
    anc = np.zeros((nl, nl))
    anc[
        np.repeat(np.arange(nl), [len(a) for a in ancestors]),
        np.array([a for row in ancestors for a in row], dtype=np.intp),
    ] = 1.0
    subtree_runs = _subtree_runs(anc)

    by_depth: dict[int, tuple[list[int], list[int]]] = {}
    for link, parent in zip(children, parents, strict=True):
        kids, pars = by_depth.setdefault(depth[link], ([], []))
        kids.append(link)
        pars.append(parent)
    levels = tuple(
        (np.array(by_depth[d][0], dtype=np.intp), np.array(by_depth[d][1], dtype=np.intp))
        for d in sorted(by_depth)
    )

    # The joint of each child link, its direction (traversal parent is link1) and kind.
    olds = [joints[j] for j in jts]
    forward = np.array(
        [names[p] == jt.link1 for p, jt in zip(parents, olds, strict=True)], dtype=bool
    )
    rev = np.array([type(jt) is RevoluteJoint for jt in olds], dtype=bool)
    pri = np.array([type(jt) is PrismaticJoint for jt in olds], dtype=bool)
    rests = [jt.link1_H_link2 for jt in olds]
    R0 = _stacked([r.rotation for r in rests], (3, 3))
    p0 = _stacked([r.position for r in rests], (3,))
    zero = np.zeros(3)
    axes = [None if isinstance(jt, FixedJoint) else jt.axis_in_link1 for jt in olds]
    u = _stacked([zero if a is None else a.direction for a in axes], (3,))
    o = _stacked([zero if a is None else a.origin for a in axes], (3,))
    # A joint whose traversal parent is link2 is read as the joint of the inverse rest pose,
    # about its axis seen from link2 and reversed (Rot(u, q)^T = Rot(-u, q)). Then every
    # joint's transform is [Rot(uf, q) Rf, Rot(uf, q) (pf - of) + of] (revolute) or
    # [Rf, pf + q uf] (prismatic), with rest rotation Rf, position pf, axis uf through of.
    R0t = R0.transpose(0, 2, 1)
    fw, fw3 = forward[:, None, None], forward[:, None]
    back = R0t @ np.stack([p0, u, o - p0], axis=2)  # R0^T p0, R0^T u, R0^T (o - p0)
    Rf = np.where(fw, R0, R0t)
    pf = np.where(fw3, p0, -back[:, :, 0])
    uf = np.where(fw3, u, -back[:, :, 1])
    of = np.where(fw3, o, back[:, :, 2])
    K = _skews(uf)
    KM = K @ np.concatenate([Rf, (pf - of)[:, :, None]], axis=2)  # K [Rf, pf - of]
    K2M = K @ KM
    rv, rv3 = rev[:, None], rev[:, None, None]

    # By link index; the base's row is the identity and never read.
    A = np.zeros((3, 3, 3, nl))
    A[0, :, :, base] = np.eye(3)
    b = np.zeros((3, 3, nl))
    rows = np.array(children, dtype=np.intp)
    A[:, :, :, rows] = np.stack([Rf, KM[:, :, :3] * rv3, K2M[:, :, :3] * rv3]).transpose(0, 2, 3, 1)
    b[:, :, rows] = np.stack(
        [pf, KM[:, :, 3] * rv + uf * pri[:, None], K2M[:, :, 3] * rv]
    ).transpose(0, 2, 1)

    # Motion subspaces in the child frame: the axis seen from the child (JointBase.axis) and a
    # point on it.
    child = Rf.transpose(0, 2, 1) @ np.stack([uf, of - pf], axis=2)
    u_c, o_c = child[:, :, 0], child[:, :, 1]
    S = np.zeros((6, nl))
    o_x_u = o_c[:, [1, 2, 0]] * u_c[:, [2, 0, 1]] - o_c[:, [2, 0, 1]] * u_c[:, [1, 2, 0]]
    S[:3, rows] = (o_x_u * rev[:, None] + u_c * pri[:, None]).T
    S[3:, rows] = (u_c * rev[:, None]).T

    coord = np.zeros(nl, dtype=np.intp)
    dof_child = np.zeros(model.n_dofs, dtype=np.intp)
    for link, jt in zip(children, olds, strict=True):
        if jt.n_dofs:
            coord[link] = jt.pos_coord_offset
            dof_child[jt.dof_offset] = link
    # The regressor columns of the links outside the subtree of each DOF's child.
    outside = np.repeat(anc[:, dof_child].T == 0.0, 10, axis=1)
    for arr in (S, dof_child, anc, A, b, coord, outside):
        arr.setflags(write=False)
    return Tree(
        S_links=S,
        dof_child=dof_child,
        anc=anc,
        steps=tuple(zip(children, parents, strict=True)),
        runs=tuple(subtree_runs[c] for c in dof_child.tolist()),
        subtree_runs=subtree_runs,
        outside=outside,
        base=base,
        levels=levels,
        coord=coord,
        revolute=rows[rev],
        prismatic=rows[pri],
        A=A,
        b=b,
    )


def poses(tree: Tree, Q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Return ``base_H_link`` of every link for the samples ``Q`` (N, n_pos_coords).

    The result is ``(R, p)``, shapes ``(3, 3, n_links, N)`` and ``(3, n_links, N)``, by link
    index (the base at the identity). One pass per tree level.
    """
    N = Q.shape[0]
    nl = tree.coord.shape[0]
    # c1, c2 per link and sample: zero for fixed joints (and the base).
    c1 = np.zeros((nl, N))
    c2 = np.zeros((nl, N))
    rv, pr = tree.revolute, tree.prismatic
    if len(rv):
        q = Q.T[tree.coord[rv]]
        c1[rv] = np.sin(q)
        c2[rv] = 1.0 - np.cos(q)
    if len(pr):
        c1[pr] = Q.T[tree.coord[pr]]
    A, b = tree.A, tree.b
    JR = A[0][..., None] + A[1][..., None] * c1 + A[2][..., None] * c2
    Jp = b[0][..., None] + b[1][..., None] * c1 + b[2][..., None] * c2
    R = np.empty((3, 3, nl, N))
    p = np.empty((3, nl, N))
    R[:, :, tree.base] = JR[:, :, tree.base]  # the identity; the others are set level by level
    p[:, tree.base] = 0.0
    for kids, pars in tree.levels:
        Rp = R[:, :, pars]
        R[:, :, kids] = np.einsum("ij...,jk...->ik...", Rp, JR[:, :, kids])
        p[:, kids] = np.einsum("ij...,j...->i...", Rp, Jp[:, kids]) + p[:, pars]
    return R, p
