"""The regressor's view of a model: its tree from one base as stacked arrays, and batched poses.

Everything the regressor needs of a model's structure is computed here in a few vectorised
passes over stacked joint arrays (a first call on a freshly loaded model pays for it, so it must
cost little): the motion subspace of each link's joint, the ancestor matrix, and the constants
of every joint's transform as a function of its position.

The transform from a link's traversal parent to the link is, for every joint kind and
direction, the 3 x 4 matrix ``[R | p] = J0 + c1(q) J1 + c2(q) J2``, with
``(c1, c2) = (sin q, 1 - cos q)`` for a revolute joint (Rodrigues' formula for
``Rot(u, q) = I + sin q K + (1 - cos q) K^2``, ``K = S(u)``), ``(q, 0)`` for a prismatic one
and ``(0, 0)`` for a fixed one. :func:`poses` composes them one tree level at a time, all links
of a level and all samples in each numpy call. For that the links are numbered internally by
depth (*level order*: the base, then the links one joint away, ...), so that each level is one
contiguous slice and its step three numpy calls on contiguous blocks (a gather of the parents'
rows, a product, a sum), where numpy's broadcasting and einsum cost several times as much on
blocks this small.
"""

from __future__ import annotations

import itertools
import operator

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.errors import ModelError
from robomodel.model.joints import FixedJoint, PrismaticJoint, RevoluteJoint
from robomodel.model.record import Model

__all__ = ["Tree", "poses", "subtree_runs", "tree_of"]

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
        level_links: per tree depth after the base, the link indices of its links and of
            their parents (the pairs a sum over ancestors adds, one level at a time).
        base: the base link index.
        link_at: per level-order position, its link (``link_at[0]`` is the base).
        position: per link, its level-order position (the inverse of ``link_at``).
        levels: per tree depth after the base, the level-order slice ``[lo, hi)`` of its links
            and the ``(4, hi - lo, 3, 4)`` rows of :func:`poses`' buffer its step gathers from
            their parents (see ``_GATHER``).
        coord: per position, the position coordinate of its joint (0 for the base and fixed
            joints).
        revolute: the positions whose joint is revolute; ``prismatic`` likewise.
        J: ``(3, 3, n_links, 4)``: ``J0, J1, J2`` of every position's joint transform, row
            ``j`` of position ``k``'s at ``J[:, j, k]``.
        finish: the rows of :func:`poses`' buffer holding R, then p, by link index.
    """

    S_links: FloatArray
    dof_child: IntArray
    anc: FloatArray
    level_links: tuple[tuple[IntArray, IntArray], ...]
    base: int
    link_at: IntArray
    position: IntArray
    levels: tuple[tuple[int, int, IntArray], ...]
    coord: IntArray
    revolute: IntArray
    prismatic: IntArray
    J: FloatArray
    finish: IntArray


def tree_of(model: Model, base: int) -> Tree:
    """Return the :class:`Tree` of ``model`` from link ``base``, memoised on the model.

    Raises:
        ModelError: a link is not connected to the base.
    """
    return memoized(model, ("identification-tree", base), lambda: _make_tree(model, base))


_F8 = np.dtype(np.float64)
_SIZE = operator.attrgetter("size")
_DTYPE = operator.attrgetter("dtype")


def _stacked(arrays: list[FloatArray], width: int) -> FloatArray:
    """Return the arrays' entries as rows of ``width`` numbers, one row per ``width`` entries.

    Joining the buffers of many small arrays costs less than np.array on the list; the values
    store C-contiguous float64, and anything else goes through np.array.
    """
    try:
        raw = b"".join(arrays)  # type: ignore[arg-type]
    except (TypeError, BufferError):  # pragma: no cover - a non-contiguous view
        raw = b""
    # Sizes and dtypes read by map in C: generator expressions cost more than the join.
    size = sum(map(_SIZE, arrays))
    if len(raw) != 8 * size or not set(map(_DTYPE, arrays)) <= {_F8}:
        return np.concatenate([np.asarray(a, dtype=np.float64).ravel() for a in arrays]).reshape(
            -1, width
        )
    return np.frombuffer(raw, dtype=np.float64).reshape(-1, width)


def subtree_runs(anc: FloatArray) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Return, per link, its subtree as runs ``[lo, hi)`` of consecutive link indices.

    The subtree of a link is the links ``k`` with ``anc[k, link] = 1``; the runs are found in
    one vectorised pass over the nonzeros.
    """
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


# Rows of [u; -u; 0] (components x, y, z of each) giving S(u) = [[0, -u2, u1], [u2, 0, -u0],
# [-u1, u0, 0]], and the index pairs of a cross product's two terms.
# Index arrays, not lists: numpy converts a list index to an array on every use.
_SKEW = np.array([6, 5, 1, 2, 6, 3, 4, 0, 6])
_CROSS_A = np.array([1, 2, 0, 2, 0, 1])
_CROSS_B = np.array([2, 0, 1, 1, 2, 0])
for _a in (_SKEW, _CROSS_A, _CROSS_B):
    _a.setflags(write=False)


def _skews(u: FloatArray) -> FloatArray:
    # S(u) of each row of u (m, 3), as (m, 3, 3).
    ext = np.concatenate([u, -u, np.zeros((len(u), 1))], axis=1)
    out: FloatArray = ext[:, _SKEW].reshape(-1, 3, 3)
    return out


def _crosses(a: FloatArray, b: FloatArray) -> FloatArray:
    # Row-wise a x b of (m, 3) arrays.
    ab = a[:, _CROSS_A] * b[:, _CROSS_B]
    out: FloatArray = ab[:, :3] - ab[:, 3:]
    return out


_BASE_POSE = np.eye(3, 4)  # [I | 0]
_BASE_POSE.setflags(write=False)

# poses() keeps [R | p] of position k in rows 1 + 12 k + 4 i + c of a buffer whose row 0 is zeros.
# Relative to 12 k_parent, the rows a step gathers, by (j, i, c): the parent's column j for
# every entry (i, c) of the product (j < 3), then (j = 3) the parent's translation in column
# c = 3 and zeros (row 0, by the 0/1 factor _GATHER_KEEP) elsewhere.
_J, _I, _C = np.ogrid[:4, :3, :4]
_GATHER = np.where(_J < 3, 1 + 4 * _I + _J, 4 + 4 * _I)
_GATHER_KEEP = np.where((_J < 3) | (_C == 3), 1, 0)
# The rows of a position with parent position k are 12 k _GATHER_STEP + _GATHER_ROW, (j, i, c)
# flattened into a column: the product then runs along the positions (long inner loops).
_GATHER_STEP = np.broadcast_to(12 * _GATHER_KEEP, (4, 3, 4)).reshape(48, 1)
_GATHER_ROW = np.broadcast_to(_GATHER * _GATHER_KEEP, (4, 3, 4)).reshape(48, 1)
# The rows of R by (i, j), then of p by i, relative to 12 k: poses()' final gather.
_FINISH = np.array([1 + 4 * i + j for i in range(3) for j in range(3)] + [4, 8, 12])[:, None]
for _a in (_GATHER, _GATHER_KEEP, _GATHER_STEP, _GATHER_ROW, _FINISH):
    _a.setflags(write=False)


def _make_tree(model: Model, base: int) -> Tree:
    # Walk the traversal once in Python (levels, the joints' stored fields), then build the
    # ancestor matrix one level at a time and every joint's constants in one vectorised pass
    # over the stacked joint arrays.
    t = model.traversal(base)
    nl = model.n_links
    names = model.link_names
    if len(t) != nl:
        missing = [names[i] for i in range(nl) if not t.contains(i)]
        raise ModelError(
            f"the regressor needs every link connected to the base {names[base]!r}, but "
            f"{missing} are not; join them to the tree or take a submodel first"
        )

    # Phase 1, Python: the links by depth (level order), each link's ancestors, and each
    # joint's stored fields in level order.
    joints = model.joints
    depth = [0] * nl
    ancestors: list[list[int]] = [[] for _ in range(nl)]
    ancestors[base] = [base]
    by_depth: list[list[tuple[int, int, int]]] = []
    for link, parent, j in zip(t.links[1:], t.parents[1:], t.joints[1:], strict=True):
        d = depth[link] = depth[parent] + 1  # type: ignore[index]
        ancestors[link] = [*ancestors[parent], link]  # type: ignore[index]
        if d > len(by_depth):
            by_depth.append([])
        by_depth[d - 1].append((link, parent, j))  # type: ignore[arg-type]
    steps = [e for level in by_depth for e in level]
    link_at = np.array([base] + [e[0] for e in steps], dtype=np.intp)
    parent_link = np.array([e[1] for e in steps], dtype=np.intp)
    position = np.empty(nl, dtype=np.intp)
    position[link_at] = np.arange(nl)
    parent_pos = position[parent_link]
    olds = [joints[e[2]] for e in steps]
    forward: list[bool] = []
    kinds: list[type] = []
    fields: list[FloatArray] = []
    zero = np.zeros(3)
    coord = [0] * nl
    dof_child = [0] * model.n_dofs
    for k, ((link, parent, _), jt) in enumerate(zip(steps, olds, strict=True), start=1):
        forward.append(names[parent] == jt.link1)
        kind = type(jt)
        kinds.append(kind)
        rest = jt.link1_H_link2
        if isinstance(jt, FixedJoint):
            fields += (rest.rotation, rest.position, zero, zero)
            continue
        axis = jt.axis_in_link1
        fields += (rest.rotation, rest.position, axis.direction, axis.origin)
        coord[k] = jt.pos_coord_offset
        dof_child[jt.dof_offset] = link

    # Phase 2: the ancestor matrix (one scatter of every (link, ancestor) pair) and the levels.
    # The scatter by flat index (row offset + column): put costs less than a 2-D fancy index.
    anc = np.zeros((nl, nl))
    flat = np.repeat(np.arange(0, nl * nl, nl), list(map(len, ancestors)))  # row offsets
    flat += np.fromiter(itertools.chain.from_iterable(ancestors), dtype=np.intp, count=len(flat))
    anc.put(flat, 1.0)
    # Rows of poses()' buffer (a row of zeros, then 12 rows [R | p] per position) gathered for
    # each position's step (see _GATHER), computed as (48, n) and read as a (4, n, 3, 4) view.
    rows = (_GATHER_STEP * parent_pos + _GATHER_ROW).reshape(4, 3, 4, nl - 1).transpose(0, 3, 1, 2)
    levels = []
    level_links = []
    lo = 1
    for level in by_depth:
        hi = lo + len(level)
        levels.append((lo, hi, rows[:, lo - 1 : hi - 1]))
        level_links.append((link_at[lo:hi], parent_link[lo - 1 : hi - 1]))
        lo = hi
    # The rows of R (i, j, link) then of p (i, link), by link index, for the final gather.
    finish = (12 * position + _FINISH).ravel()

    # Phase 3: the joints' constants, one vectorised pass over the stacked joint arrays (rows
    # by level-order position after the base).
    fw = np.array(forward, dtype=bool)
    rev = np.array([k is RevoluteJoint for k in kinds], dtype=bool)
    pri = np.array([k is PrismaticJoint for k in kinds], dtype=bool)
    stacked = _stacked(fields, 18)
    R0 = stacked[:, :9].reshape(-1, 3, 3)
    p0, u, o = stacked[:, 9:12], stacked[:, 12:15], stacked[:, 15:]
    # A joint whose traversal parent is link2 is read as the joint of the inverse rest pose,
    # about its axis seen from link2 and reversed (Rot(u, q)^T = Rot(-u, q)). Then every
    # joint's transform is [Rot(uf, q) Rf, Rot(uf, q) (pf - of) + of] (revolute) or
    # [Rf, pf + q uf] (prismatic), with rest pose G = [Rf | pf], axis uf through of.
    G = np.concatenate([R0, p0[:, :, None]], axis=2)
    uf, of = u, o
    bw = (~fw).nonzero()[0]
    if len(bw):
        R0t = R0[bw].transpose(0, 2, 1)
        back = R0t @ np.stack([p0[bw], u[bw], o[bw] - p0[bw]], axis=2)  # R0^T (p0, u, o - p0)
        G[bw, :, :3] = R0t
        G[bw, :, 3] = -back[:, :, 0]
        uf, of = u.copy(), o.copy()
        uf[bw] = -back[:, :, 1]
        of[bw] = back[:, :, 2]
    Rf, pf = G[:, :, :3], G[:, :, 3]
    K = _skews(uf)
    KM = K @ np.concatenate([Rf, (pf - of)[:, :, None]], axis=2)  # K [Rf, pf - of]
    K2M = K @ KM
    # By level-order position; the base's is [I | 0]. J1 = K [Rf, pf - of] for a revolute
    # joint, [0, uf] for a prismatic one.
    J = np.zeros((3, 3, nl, 4))
    J[0, :, 0] = _BASE_POSE
    J[0, :, 1:] = G.transpose(1, 0, 2)
    np.multiply(KM.transpose(1, 0, 2), rev[:, None], out=J[1, :, 1:])
    J[1, :, 1:, 3] += uf.T * pri
    np.multiply(K2M.transpose(1, 0, 2), rev[:, None], out=J[2, :, 1:])

    # Motion subspaces in the child frame: the axis seen from the child (JointBase.axis) and a
    # point on it.
    child = Rf.transpose(0, 2, 1) @ np.stack([uf, of - pf], axis=2)
    u_c, o_c = child[:, :, 0], child[:, :, 1]
    S = np.zeros((6, nl))
    links = link_at[1:]
    S[:3, links] = (_crosses(o_c, u_c) * rev[:, None] + u_c * pri[:, None]).T
    S[3:, links] = (u_c * rev[:, None]).T

    dofs = np.array(dof_child, dtype=np.intp)
    coords = np.array(coord, dtype=np.intp)
    positions = np.arange(1, nl, dtype=np.intp)
    for arr in (S, dofs, anc, J, coords, link_at, position):
        arr.setflags(write=False)
    return Tree(
        S_links=S,
        dof_child=dofs,
        anc=anc,
        level_links=tuple(level_links),
        base=base,
        link_at=link_at,
        position=position,
        levels=tuple(levels),
        coord=coords,
        revolute=positions[rev],
        prismatic=positions[pri],
        J=J,
        finish=finish,
    )


def poses(tree: Tree, Q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Return ``base_H_link`` of every link for the samples ``Q`` (N, n_pos_coords).

    The result is ``(R, p)``, shapes ``(3, 3, n_links, N)`` and ``(3, n_links, N)``, by link
    index (the base at the identity). One pass per tree level, in level order; one gather at
    the end puts the links back in index order.
    """
    N = Q.shape[0]
    nl = tree.coord.shape[0]
    # c1, c2 per position and sample: zero for fixed joints (and the base).
    c1 = np.zeros((nl, 1, N))
    c2 = np.zeros((nl, 1, N))
    rv, pr = tree.revolute, tree.prismatic
    if len(rv):
        q = Q.T[tree.coord[rv]]
        c1[rv, 0] = np.sin(q)
        c2[rv, 0] = 1.0 - np.cos(q)
    if len(pr):
        c1[pr, 0] = Q.T[tree.coord[pr]]
    # Jq[k] = position k's joint transform [JR | Jp], with a fourth row of ones that carries
    # the gathered parent translation below.
    Jq = np.empty((4, nl, 4, N))
    J0, J1, J2 = tree.J[..., None]
    Jt = Jq[:3]
    np.multiply(J1, c1, out=Jt)
    Jt += J0
    Jt += J2 * c2
    Jq[3] = 1.0
    # buf: a row of zeros, then 12 rows [R | p] per position (N samples each).
    buf = np.empty((1 + 12 * nl, N))
    buf[0] = 0.0
    H = buf[1:].reshape(nl, 3, 4, N)
    H[0] = _BASE_POSE[:, :, None]  # the base, at [I | 0]
    for lo, hi, rows in tree.levels:
        # [R | p] = [Rp JR | Rp Jp + pp]: the terms t[j] = (column j of Rp) x (row j of Jq)
        # from the gathered parent rows, summed in order ((t0 + t1) + t2) + t3 (np.add.reduce
        # over an outer axis), t3 = [0 | pp]. Bit for bit the einsum sum from 0.0 this
        # replaces, then + pp: on R, the + 0.0 gives einsum's +0.0 where all three products
        # are -0.0 (tests/test_identification.py compares the two).
        t = np.take(buf, rows, axis=0)  # (4, hi - lo, 3, 4, N)
        t *= Jq[:, lo:hi, None]
        np.add.reduce(t, axis=0, out=H[lo:hi])
    out = np.take(buf, tree.finish, axis=0)
    return out[: 9 * nl].reshape(3, 3, nl, N), out[9 * nl :].reshape(3, nl, N)
