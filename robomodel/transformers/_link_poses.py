"""Where every old link frame sits in its new link: the pose batch of the lumping engine.

Lumping (:mod:`robomodel.transformers.engine`) fuses the links of each part into one new link,
whose frame is the old frame of the part's base, possibly moved. Everything attached to an old
link (its inertia, frames, shapes, sensors, the joints at it) is then re-expressed in the new
link frame through one transform per old link, ``X[l] = newLink_H_l``. :class:`LinkPoses` holds
those transforms, stacked once, and re-expresses many values in one vectorised pass: one value
at a time, numpy's call overhead costs far more than the arithmetic.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Mapping, Sequence

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import EYE3, ZEROS3, immutable
from robomodel._internal.construct import make
from robomodel._internal.memo import memoized
from robomodel.model.joints import FixedJoint, Joint
from robomodel.model.record import Model
from robomodel.model.spatial import Axis, FloatArray, SpatialInertia, Transform
from robomodel.transformers._parts import Split

__all__ = [
    "IDENTITY",
    "LinkPoses",
    "ReexpressPlan",
    "joint_stacks",
    "stack",
    "unchanged_by_massless",
]

IDENTITY = Transform.identity()
"""The pose of a link frame that does not move: compared by identity (``is``), not by value."""

_IDENTITY_BYTES = (IDENTITY.rotation.tobytes(), IDENTITY.position.tobytes())


_FEW = 4
"""Up to this many joints are re-expressed one by one rather than in a vectorised batch."""

_FEW_ROWS = 6
"""Up to this many poses of one tree level are composed one by one rather than stacked."""

# Values are made (trusted construction) from rows of arrays computed here: read-only float64 of
# the right shapes (Transform; Axis, whose direction stays unit as a rotated unit vector, as
# Axis._raw keeps it), a float mass and a symmetrised rotational inertia (SpatialInertia).


@attrs.frozen(eq=False)
class LinkPoses:
    """``X[l] = newLink_H_l`` for every link ``l`` of the input, stacked.

    Attributes:
        transforms: ``X`` by input link index; :data:`IDENTITY` itself for a link whose frame
            is its new link's frame, unmoved (nothing attached to it needs re-expressing).
        moved: per link, whether what is attached to it must be re-expressed (its ``X`` is
            not :data:`IDENTITY`).
    """

    transforms: tuple[Transform, ...]
    moved: tuple[bool, ...]
    # The rotations and positions of ``X`` stacked, once something asks for them: when every
    # ``X`` is a value taken as it is (``remove_fake_links``: the fake links' joint poses),
    # often nothing does, and stacking would read every one of those poses.
    _stacks: list[FloatArray] = attrs.field(factory=list)

    @property
    def rotations(self) -> FloatArray:
        """The rotations of ``X``, shape ``(n, 3, 3)``, read-only."""
        return (self._stacks or self._stacked())[0]

    @property
    def positions(self) -> FloatArray:
        """The positions of ``X``, shape ``(n, 3)``, read-only."""
        return (self._stacks or self._stacked())[1]

    def _stacked(self) -> list[FloatArray]:
        # The poses, all values here, stacked from their bytes (an unmoved link's identity
        # joined from one copy).
        eye, zero = _IDENTITY_BYTES
        X = self.transforms
        n = len(X)
        R = b"".join([eye if t is IDENTITY else t.rotation for t in X])  # type: ignore[misc]
        p = b"".join([zero if t is IDENTITY else t.position for t in X])  # type: ignore[misc]
        self._stacks.extend((np.frombuffer(R).reshape(n, 3, 3), np.frombuffer(p).reshape(n, 3)))
        return self._stacks

    @classmethod
    def of_parts(
        cls,
        model: Model,
        parts: Split,
        positions: Sequence[float] | None,
        moves: Mapping[str, Transform],
    ) -> LinkPoses:
        """Return the poses of the links of ``model`` split into ``parts``.

        Args:
            model: the input model.
            parts: its links split into parts.
            positions: joint positions in coordinate order (lumped joints are rigid at them),
                or ``None`` for all zero.
            moves: new frames of part bases: link name -> ``newLink_H_oldLink`` (no identities).
        """
        names = model.link_names
        joints = model.joints
        n = len(names)
        X: list[Transform] = [IDENTITY] * n
        # One pass in traversal order: each member's joint pose from its parent, and its depth
        # in its part. A member whose parent stays and whose joint pose is a value takes that
        # value as it is (the IDENTITY of a joint at the identity leaves it unmoved); the
        # others are composed below, one tree level at a time.
        depth = [0] * n
        levels: list[list[tuple[int, int, int]]] = []  # per depth - 1: (link, parent, row)
        rests: list[Transform] = []  # per row: the joint pose, or the rest it inverts
        inverted: list[int] = []  # the rows that hold a rest to invert
        for mem, par, jts in zip(parts.members, parts.parents, parts.joints, strict=True):
            b = mem[0]
            X[b] = moves.get(names[b], IDENTITY)
            for link, parent, j in zip(mem[1:], par[1:], jts[1:], strict=True):
                joint = joints[j]  # type: ignore[index]
                q = positions[joint.pos_coord_offset] if positions and joint.n_pos_coords else 0.0
                pn = names[parent]  # type: ignore[index]
                if q:
                    P = joint.transform(q, pn, names[link])
                elif pn == joint.link1:  # joint.rest_transform(pn, link), without the call
                    P = joint.link1_H_link2
                else:
                    P = None
                if P is not None and X[parent] is IDENTITY:  # type: ignore[index]
                    X[link] = P
                    continue
                d = depth[link] = depth[parent] + 1  # type: ignore[index]
                if d > len(levels):
                    levels += [[] for _ in range(d - len(levels))]
                if P is None:
                    inverted.append(len(rests))
                    P = joint.link1_H_link2
                levels[d - 1].append((link, parent, len(rests)))  # type: ignore[arg-type]
                rests.append(P)
                X[link] = _PENDING
        moved = tuple([t is not IDENTITY for t in X])
        if not any(moved):
            # Nothing to re-express (a renumbering, a change of base): read-only views of one
            # identity instead of stacking n of them.
            return cls(
                tuple(X), moved, [np.broadcast_to(EYE3, (n, 3, 3)), np.broadcast_to(ZEROS3, (n, 3))]
            )
        if not levels:
            return cls(tuple(X), moved)  # every pose a value: stacked when asked for
        # The poses known as values, stacked from their bytes (an unmoved link's identity
        # joined from one copy), then the others filled in as plain arrays.
        eye, zero = _IDENTITY_BYTES
        known = [t is not IDENTITY and t is not _PENDING for t in X]
        rotations = [t.rotation if k else eye for t, k in zip(X, known, strict=True)]
        positions_ = [t.position if k else zero for t, k in zip(X, known, strict=True)]
        XR = np.frombuffer(b"".join(rotations)).reshape(n, 3, 3)  # type: ignore[arg-type]
        Xp = np.frombuffer(b"".join(positions_)).reshape(n, 3)  # type: ignore[arg-type]
        XR, Xp = XR.copy(), Xp.copy()
        made = _compose(X, XR, Xp, levels, rests, inverted)
        rows = np.array(made, dtype=np.intp)
        for link, T in zip(made, _transforms(XR[rows], Xp[rows]), strict=True):
            X[link] = T
        # Stored as the values store them (canonical), read-only.
        XR = np.frombuffer((XR + 0.0).tobytes(), dtype=np.float64).reshape(n, 3, 3)
        Xp = np.frombuffer((Xp + 0.0).tobytes(), dtype=np.float64).reshape(n, 3)
        return cls(tuple(X), moved, [XR, Xp])

    def __getitem__(self, link: int) -> Transform:
        """``newLink_H_link`` of input link ``link``."""
        return self.transforms[link]

    def reexpress(self, plan: ReexpressPlan) -> list[Transform]:
        """Return ``X[l] @ pose`` for every distinct pose of ``plan``, in its order.

        Each distinct rotation and position is re-expressed once, in one vectorised pass; the
        same bits as one ``X[l] @ pose`` each.
        """
        if not plan.pose_rotations:
            return []
        RA = self.rotations[plan.rotation_links]
        R = RA @ plan.rotations
        if plan.position_links is not plan.rotation_links:  # a grouped plan; else the same rows
            RA = self.rotations[plan.position_links]
        p = (RA @ plan.positions)[:, :, 0]
        p += self.positions[plan.position_links]
        rotations = _rows(immutable(R))
        positions = _rows(immutable(p))
        if not plan.grouped:  # one pose per row
            return list(map(make(Transform), rotations, positions))
        return list(
            map(
                make(Transform),
                map(rotations.__getitem__, plan.pose_rotations),
                map(positions.__getitem__, plan.pose_positions),
            )
        )

    def products(
        self, links: Sequence[int], rotations: FloatArray, positions: FloatArray
    ) -> list[Transform]:
        """Return ``X[l] @ (R, p)`` for ``l`` in ``links`` and the stacked poses, in one pass.

        ``rotations`` and ``positions`` have shapes ``(len(links), 3, 3)`` and
        ``(len(links), 3)``: row ``k`` is a pose on input link ``links[k]``. The same bits as
        one ``X[l] @ Transform(R, p)`` each.
        """
        if not links:
            return []
        idx = np.array(links, dtype=np.intp)
        RA = self.rotations[idx]
        R = RA @ rotations
        p = (RA @ positions[:, :, None])[:, :, 0]
        p += self.positions[idx]
        return _transforms(R, p)

    def joint_rests(
        self, model: Model, rows: Sequence[int], ends: Sequence[tuple[int, int]]
    ) -> dict[int, tuple[Transform, Axis | None]]:
        """The new rest transforms and axes of the joints ``rows`` of ``model`` with a moved end.

        The result is keyed by position in ``rows``; ``ends[k]`` holds the input link indices of
        joint ``rows[k]``'s ``link1`` and ``link2``. A joint with a moved end gets
        ``rest' = X1 rest X2^-1`` and axis ``X1 a`` (``None`` for a fixed joint); the others are
        left out, so the caller builds each joint once with all its changes. One vectorised
        pass, or one product per joint for a few (cheaper than the batch's fixed cost).
        """
        m = self.moved
        if not any(m):
            return {}
        moved = [(k, o1, o2) for k, (o1, o2) in enumerate(ends) if m[o1] or m[o2]]
        if not moved:
            return {}
        joints = model.joints
        X, XR, Xp = self.transforms, self.rotations, self.positions
        out: dict[int, tuple[Transform, Axis | None]] = {}
        if len(moved) <= _FEW:
            # The rests and axes of these few joints only, stacked (by position in ``moved``):
            # plain arrays, whose products skip the frozen arrays' per-result hook.
            few = [joints[rows[k]] for k, _, _ in moved]
            Rr, pr, d, o = _joint_rows(few)
            # Joints whose link1 alone moves (the usual case) take the one-by-one products
            # stacked: the same operations, so the same bits, in a few numpy calls.
            alone = [(n, k, o1) for n, (k, o1, o2) in enumerate(moved) if X[o2] is IDENTITY]
            if len(alone) > 1:
                stacks = (Rr, pr, d, o)
                out.update(self._link1_rests(few, stacks, [n for n, _, _ in alone], alone))
            for n, (k, o1, o2) in enumerate(moved):
                if k not in out:
                    out[k] = (self._rest(n, o1, o2, Rr, pr), self._axis(few[n], n, o1, d, o))
            return out
        # The rest transforms and axes of these joints only, stacked (a first call reads no
        # other joint's values).
        old = [joints[rows[k]] for k, _, _ in moved]
        Rr, pr, d, o = _joint_rows(old)
        i1 = np.array([o1 for _, o1, _ in moved], dtype=np.intp)
        i2 = np.array([o2 for _, _, o2 in moved], dtype=np.intp)
        R1, p1, R2, p2 = XR.take(i1, 0), Xp.take(i1, 0), XR.take(i2, 0), Xp.take(i2, 0)
        RrR2t = Rr @ R2.transpose(0, 2, 1)
        R = R1 @ RrR2t
        p = (R1 @ (pr - (RrR2t @ p2[:, :, None])[:, :, 0])[:, :, None])[:, :, 0] + p1
        axes = self._axes(old, [X[o1] is IDENTITY for _, o1, _ in moved], R1, p1, d, o)
        for (k, _, _), rest, axis in zip(moved, _transforms(R, p), axes, strict=True):
            out[k] = (rest, axis)
        return out

    def _link1_rests(
        self,
        joints: Sequence[Joint],
        stacks: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
        js: Sequence[int],
        at: Sequence[tuple[int, int, int]],
    ) -> dict[int, tuple[Transform, Axis | None]]:
        """What ``_rest`` and ``_axis`` give the joints ``joints[js[n]]`` whose link1 alone moves.

        ``stacks`` are the rests and axes of ``joints`` (:func:`_joint_rows`); ``at[n]`` is
        ``(js[n], key, link1 index)``; the result is keyed by ``key``. Every link1 is moved (its
        ``X`` is not ``IDENTITY``) and no link2 is.
        """
        Rr, pr, d, o = stacks
        rows = np.array(js, dtype=np.intp)
        i1 = np.array([o1 for _, _, o1 in at], dtype=np.intp)
        R1, p1 = self.rotations[i1], self.positions[i1]
        rests = _transforms(R1 @ Rr[rows], (R1 @ pr[rows][:, :, None])[:, :, 0] + p1)
        u = (R1 @ d[rows][:, :, None])[:, :, 0]
        origins = immutable((R1 @ o[rows][:, :, None])[:, :, 0] + p1)
        directions = immutable(u)
        out: dict[int, tuple[Transform, Axis | None]] = {}
        for n, (_, k, o1) in enumerate(at):
            joint = joints[js[n]]
            axis: Axis | None = None
            if not isinstance(joint, FixedJoint):
                if abs(float(u[n] @ u[n]) - 1.0) > 1e-9:  # not a rotation: as in _axis
                    axis = self.transforms[o1] @ joint.axis_in_link1
                else:
                    axis = make(Axis)(directions[n], origins[n])
            out[k] = (rests[n], axis)
        return out

    def _rest(self, j: int, o1: int, o2: int, Rr: FloatArray, pr: FloatArray) -> Transform:
        """``X[o1] @ rest @ X[o2].inverse()`` of joint ``j``, each factor only where it moves.

        The products of ``Transform.__matmul__`` and ``inverse``, in their order (so the same
        bits), on rows of plain arrays.
        """
        R, p = Rr[j], pr[j]
        if self.transforms[o1] is not IDENTITY:
            R1 = self.rotations[o1]
            R, p = R1 @ R, R1 @ p + self.positions[o1]
        if self.transforms[o2] is not IDENTITY:
            Rt = self.rotations[o2].T.copy()
            R, p = R @ Rt, R @ -(Rt @ self.positions[o2]) + p
        return make(Transform)(immutable(R), immutable(p))

    def _axis(self, joint: Joint, j: int, o1: int, d: FloatArray, o: FloatArray) -> Axis | None:
        """``X[o1] @ axis`` of joint ``j`` (its own where ``X[o1]`` is the identity)."""
        if isinstance(joint, FixedJoint):
            return None
        x1 = self.transforms[o1]
        if x1 is IDENTITY:
            return joint.axis_in_link1
        R1 = self.rotations[o1]
        u = R1 @ d[j]
        if abs(float(u @ u) - 1.0) > 1e-9:
            return x1 @ joint.axis_in_link1  # not a rotation: Axis renormalises the direction
        return make(Axis)(immutable(u), immutable(R1 @ o[j] + self.positions[o1]))

    @staticmethod
    def _axes(
        joints: Sequence[Joint],
        kept: Sequence[bool],
        R1: FloatArray,
        p1: FloatArray,
        d: FloatArray,
        o: FloatArray,
    ) -> list[Axis | None]:
        """``X1 a`` of each moving joint (its own axis where ``kept``), ``None`` if fixed.

        ``d`` and ``o`` hold the axes' directions and origins, row ``k`` for ``joints[k]``.
        """
        moving = [k for k, j in enumerate(joints) if not kept[k] and not isinstance(j, FixedJoint)]
        out: list[Axis | None] = [
            None if isinstance(j, FixedJoint) else j.axis_in_link1 for j in joints
        ]
        if not moving:
            return out
        rows = np.array(moving, dtype=np.intp)
        Rm = R1[rows]
        directions = (Rm @ d[rows][:, :, None])[:, :, 0]
        origins = (Rm @ o[rows][:, :, None])[:, :, 0] + p1[rows]
        # Stored in the new joints' axes: over immutable memory, as every value's arrays are.
        directions = immutable(directions)
        origins = immutable(origins)
        for k, dk, ok in zip(moving, _rows(directions), _rows(origins), strict=True):
            out[k] = make(Axis)(dk, ok)
        return out

    def composite_inertias(
        self, model: Model, members: Sequence[tuple[int, int]]
    ) -> dict[int, SpatialInertia]:
        """Per part, the sum of ``X[link] @ inertia(link)`` over ``(part, link)`` in ``members``.

        ``members`` lists each part's links contiguously. Inertias are moved with
        ``I_A = R I_O R^T - S(Rh) S(p) - S(p) S(Rh) - m S(p)^2``, expanded with
        ``S(a) S(b) = b a^T - (a.b) 1``; it needs no centre of mass, so massless links with a
        rotational inertia are moved exactly too.
        """
        if not members:
            return {}
        links = [link for _, link in members]
        rows = np.array(links, dtype=np.intp)
        # The inertias of these members only, stacked (a first call reads no other link's).
        m, h, I_O = _link_inertias(model, links)
        R = self.rotations[rows]
        p = self.positions[rows]
        Rh = (R @ h[:, :, None])[:, :, 0]
        h_A = Rh + m[:, None] * p
        # The expanded form regrouped: m (p p^T) + p Rh^T = p h_A^T, and the diagonal term is
        # 2 p.Rh + m |p|^2 = p.(h_A + Rh).
        I_A = R @ I_O @ R.transpose(0, 2, 1)
        I_A -= p[:, :, None] * h_A[:, None, :]
        I_A -= Rh[:, :, None] * p[:, None, :]
        I_A.reshape(-1, 9)[:, ::4] += (p * (h_A + Rh)).sum(axis=1)[:, None]
        # Members of a part are contiguous: sum each run with one reduceat per quantity.
        part = [s for s, _ in members]
        starts = [0] + [k for k in range(1, len(part)) if part[k] != part[k - 1]]
        mass = np.add.reduceat(m, starts).tolist()
        hs = np.add.reduceat(h_A, starts, axis=0)
        Is = np.add.reduceat(I_A, starts, axis=0)
        # What SpatialInertia._raw does per value (symmetrise, freeze), done once for all parts.
        hs = immutable(hs)
        Is = immutable(0.5 * (Is + Is.transpose(0, 2, 1)))
        return {part[k]: make(SpatialInertia)(mass[r], hs[r], Is[r]) for r, k in enumerate(starts)}


@attrs.frozen(eq=False)
class ReexpressPlan:
    """Which distinct poses :meth:`LinkPoses.reexpress` computes for the values on some links.

    Values with the same link and bit-identical rotations (or positions) re-express to
    bit-identical results, so a grouped plan computes each distinct one once. Made from the
    stacked poses of the values on those links only (see :meth:`of`), once per set of links.

    Attributes:
        rotation_links: the link of each distinct rotation to re-express.
        rotations: those rotations, ``(k, 3, 3)``.
        position_links: the link of each distinct position to re-express.
        positions: those positions, ``(m, 3, 1)``.
        pose_rotations: per distinct pose (same link, rotation and position), its rotation's
            row in ``rotations``.
        pose_positions: per distinct pose, its position's row in ``positions``.
        slot: per input row, the index of its distinct pose in what ``reexpress`` returns
            (``-1`` for a row on another link).
        rows: the input rows the plan was made for.
        grouped: whether poses are grouped by bits (else each pose it was given is computed,
            whether or not another has the same bits).
    """

    rotation_links: npt.NDArray[np.intp]
    rotations: FloatArray
    position_links: npt.NDArray[np.intp]
    positions: FloatArray
    pose_rotations: list[int]
    pose_positions: list[int]
    slot: list[int]
    rows: Sequence[int]
    grouped: bool

    @classmethod
    def of(
        cls,
        rows: Sequence[int],
        links: Sequence[int],
        rotations: FloatArray,
        positions: FloatArray,
        n_rows: int,
        aliases: Sequence[tuple[int, int]] = (),
    ) -> ReexpressPlan:
        """The plan for the poses ``(rotations[k], positions[k])`` on link ``links[k]``.

        ``rows[k]`` is the pose's input row, one of ``range(n_rows)``. Each pose is its own:
        grouping them (:meth:`grouped_by_bits`) costs about what it saves in one call. An
        ``(alias, row)`` pair of ``aliases`` gives input row ``alias`` the pose of ``row``
        (one of ``rows``): the same pose object on the same link, computed once.
        """
        n = len(rows)
        slot = [-1] * n_rows
        for k, row in enumerate(rows):
            slot[row] = k
        if aliases:
            for alias, row in aliases:
                slot[alias] = slot[row]
            rows = [*rows, *[alias for alias, _ in aliases]]
        link = np.array(links, dtype=np.intp)
        every = list(range(n))
        return cls(link, rotations, link, positions[:, :, None], every, every, slot, rows, False)

    def grouped_by_bits(self, n_rows: int) -> ReexpressPlan:
        """This plan with its poses grouped by link and bits: each distinct one computed once."""
        rows, link, rotations = self.rows, self.rotation_links, self.rotations
        positions = self.positions[:, :, 0]
        n = len(link)
        slot = np.full(n_rows, -1, dtype=np.intp)
        key = link.astype(np.uint64)[:, None]
        r_first, r_id = _distinct(np.hstack([key, rotations.reshape(n, 9).view(np.uint64)]))
        p_first, p_id = _distinct(np.hstack([key, positions.reshape(n, 3).view(np.uint64)]))
        # Same rotation and same position means same link: the pair is the pose.
        t_first, t_id = _distinct((r_id * len(p_first) + p_id).astype(np.uint64)[:, None])
        # Each row takes the distinct pose of the pose it took in this plan.
        slot[rows] = t_id[np.array(self.slot, dtype=np.intp)[rows]]
        return ReexpressPlan(
            link[r_first],
            rotations[r_first],
            link[p_first],
            positions[p_first][:, :, None],
            r_id[t_first].tolist(),
            p_id[t_first].tolist(),
            slot.tolist(),
            rows,
            True,
        )


def _distinct(rows: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The first index of each distinct row of ``rows`` and, per row, the id of its kind.

    ``rows`` is C-contiguous, shape ``(n, k)``; kinds are numbered in the order of their
    bytes. One stable sort of the rows as opaque values, then a comparison of neighbours.
    """
    n = len(rows)
    if not n:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    keys: npt.NDArray[np.generic]
    if rows.shape[1] == 1:
        keys = rows[:, 0]
    else:  # each row as one opaque value: equal exactly when its bits are
        keys = rows.view(np.dtype((np.void, rows.shape[1] * rows.itemsize))).ravel()
    order = keys.argsort(kind="stable")
    ranked = rows[order]
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    np.not_equal(ranked[1:], ranked[:-1]).any(axis=1, out=starts[1:])
    ids = np.empty(n, dtype=np.intp)
    ids[order] = starts.cumsum() - 1
    return order[starts], ids


def unchanged_by_massless(inertias: Sequence[SpatialInertia]) -> tuple[list[bool], list[bool]]:
    """Per inertia of ``inertias``, whether it is exactly zero, and whether it sums to itself.

    A part whose base does not move and whose other members all have zero inertia sums to its
    base's inertia bit for bit when that inertia *sums to itself*: it holds no ``-0.0``
    (``x + 0.0`` is ``x`` for every other ``x``), its rotational inertia is exactly symmetric
    (the sum is symmetrised) and no entry is so large that doubling it overflows.
    :func:`~robomodel.transformers.engine.lump` keeps such a base's link as it is, without the
    composite sum (the fake links of ``remove_fake_links``).

    Each distinct inertia object is looked at once (massless links usually share one), in one
    vectorised pass.
    """
    ids = list(map(id, inertias))
    by_id = dict(zip(ids, inertias, strict=True))
    row_of = dict(zip(by_id, range(len(by_id)), strict=True))
    rows = list(map(row_of.__getitem__, ids))
    distinct = list(by_id.values())
    n = len(distinct)
    masses = np.array([i.mass for i in distinct], dtype=np.float64)
    moments = stack([i.first_moment for i in distinct], (3,))
    rotational = stack([i.rotational_inertia for i in distinct], (3, 3))
    every = np.concatenate([masses[:, None], moments, rotational.reshape(n, 9)], axis=1)
    zero = every == 0.0
    itself = ~(zero & np.signbit(every)).any(axis=1)
    itself &= (rotational == rotational.transpose(0, 2, 1)).all(axis=(1, 2))
    itself &= (np.abs(every) < 1e300).all(axis=1)
    zero_rows: list[bool] = zero.all(axis=1).tolist()
    itself_rows: list[bool] = itself.tolist()
    return list(map(zero_rows.__getitem__, rows)), list(map(itself_rows.__getitem__, rows))


def _link_inertias(model: Model, links: Sequence[int]) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The masses, first moments and rotational inertias of the links ``links``, stacked."""
    olds = model.links
    inertias = [olds[k].inertia for k in links]
    return (
        np.array([i.mass for i in inertias], dtype=np.float64),
        stack([i.first_moment for i in inertias], (3,)),
        stack([i.rotational_inertia for i in inertias], (3, 3)),
    )


def joint_stacks(model: Model) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Every joint's rest rotation and position, axis direction and origin, by joint index.

    Read-only plain arrays, memoised on the model; a fixed joint's axis rows are zero.
    """
    return memoized(model, "transformers.joint-stacks", lambda: _joint_stacks(model))


def _joint_stacks(model: Model) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    return _joint_rows(model.joints)


def _joint_rows(
    joints: Sequence[Joint],
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The rest rotations and positions, axis directions and origins of ``joints``, stacked."""
    rests = [j.link1_H_link2 for j in joints]
    axes = [None if isinstance(j, FixedJoint) else j.axis_in_link1 for j in joints]
    zero = np.zeros(3)
    return (
        stack([t.rotation for t in rests], (3, 3)),
        stack([t.position for t in rests], (3,)),
        stack([zero if a is None else a.direction for a in axes], (3,)),
        stack([zero if a is None else a.origin for a in axes], (3,)),
    )


def _compose(
    X: list[Transform],
    XR: FloatArray,
    Xp: FloatArray,
    levels: Sequence[Sequence[tuple[int, int, int]]],
    rests: Sequence[Transform],
    inverted: Sequence[int],
) -> list[int]:
    """Fill ``XR`` and ``Xp`` of the members in ``levels``: ``X[link] = X[parent] @ P``.

    ``levels[d - 1]`` holds ``(link, parent, row)`` of the members at depth ``d`` still to
    compute; ``rests[row]`` is the joint pose ``P`` from the parent, or the rest transform
    whose inverse it is for a row in ``inverted``. Inverses and products are those of
    :meth:`Transform.inverse` and ``Transform.__matmul__`` on stacked rows (the same bits); a
    member whose parent does not move takes ``P`` as it is. Returns the members computed, in
    order, each marked ``_PENDING`` in ``X`` (its value is made from the rows).
    """
    PR = stack([t.rotation for t in rests], (3, 3))
    Pp = stack([t.position for t in rests], (3,))
    if inverted:
        PR, Pp = PR.copy(), Pp.copy()
        rows = np.array(inverted, dtype=np.intp)
        Rt = np.ascontiguousarray(PR[rows].transpose(0, 2, 1))  # each .T.copy()
        # Stored as Transform.inverse stores them (canonical): those are the bits composed.
        Pp[rows] = -(Rt @ Pp[rows][:, :, None])[:, :, 0] + 0.0
        PR[rows] = Rt + 0.0
    made: list[int] = []
    for level in levels:
        if len(level) <= _FEW_ROWS:
            # A thin level (a chain of lumped links): one product per link on rows, cheaper
            # than the batch's fixed cost; 2-D products give the bits of stacked ones.
            for link, parent, row in level:
                if X[parent] is IDENTITY:
                    XR[link] = PR[row]
                    Xp[link] = Pp[row]
                else:
                    R = XR[parent]
                    XR[link] = R @ PR[row]
                    Xp[link] = R @ Pp[row] + Xp[parent]
                made.append(link)
            continue
        taken = [(link, row) for link, parent, row in level if X[parent] is IDENTITY]
        if taken:
            at = np.array([link for link, _ in taken], dtype=np.intp)
            rows = np.array([row for _, row in taken], dtype=np.intp)
            XR[at] = PR[rows]
            Xp[at] = Pp[rows]
        composed = [m for m in level if X[m[1]] is not IDENTITY]
        if composed:
            at = np.array([link for link, _, _ in composed], dtype=np.intp)
            up = np.array([parent for _, parent, _ in composed], dtype=np.intp)
            rows = np.array([row for _, _, row in composed], dtype=np.intp)
            R = XR[up]
            XR[at] = R @ PR[rows]
            Xp[at] = (R @ Pp[rows][:, :, None])[:, :, 0] + Xp[up]
        made += [link for link, _, _ in level]
    return made


_PENDING = Transform._raw(np.eye(3), np.zeros(3))
"""The ``X`` of a link while its pose is computed from stacked rows (never :data:`IDENTITY`)."""


def _transforms(R: FloatArray, p: FloatArray) -> list[Transform]:
    """Return ``Transform`` values viewing the rows of stacked rotations and positions.

    The stacks are frozen once (copied over immutable memory, which no view can make writable
    again), so no row needs its own copy (which dominated the cost of re-expressing a few hundred
    frames).
    """
    R = immutable(R)
    p = immutable(p)
    return list(map(make(Transform), _rows(R), _rows(p)))


def _rows(stacked: FloatArray) -> list[FloatArray]:
    """The rows of a frozen stack, as frozen views (what ``list(stacked)`` gives).

    Iterating a ``FrozenArray`` asks its Python-level class for ``__getitem__`` on every row;
    ``operator.getitem`` mapped over the indices goes straight to numpy's subscript (a bound
    ``stacked.__getitem__`` is a method-wrapper, which packs an argument tuple per row): a few
    hundred rows per lumped model.
    """
    return list(map(_ROW, itertools.repeat(stacked), range(len(stacked))))


# ``operator.getitem`` typed for the rows of a stack (mypy cannot pick one of its overloads).
_ROW: Callable[[FloatArray, int], FloatArray] = operator.getitem  # type: ignore[assignment]


def stack(arrays: list[FloatArray], shape: tuple[int, ...]) -> FloatArray:
    """Return float64 arrays of one ``shape`` stacked into a read-only ``(k, *shape)`` array.

    Joining their bytes is several times faster than ``np.array`` on a list of small arrays.
    Every array here belongs to a ``Transform`` or ``SpatialInertia``, which store float64; the
    size check falls back to ``np.array`` should any other dtype ever turn up.
    """
    size = math.prod(shape)
    try:
        # C-contiguous arrays join through the buffer protocol, without a bytes copy each.
        raw = b"".join(arrays)  # type: ignore[arg-type]
    except TypeError:  # a non-contiguous view (no buffer as plain bytes): copy each
        raw = b"".join([a.tobytes() for a in arrays])
    if len(raw) != 8 * size * len(arrays):
        return np.array(arrays, dtype=np.float64).reshape(-1, *shape)
    return np.frombuffer(raw, dtype=np.float64).reshape(-1, *shape)
