"""The vectorised passes of the lumping engine (:mod:`robomodel.transformers.engine`).

Re-expressing many poses, joints and inertias one value at a time costs far more in numpy call
overhead than in arithmetic; these helpers stack the inputs once (joining their bytes), do one
batched product, and hand out read-only row views as new values.
"""

from __future__ import annotations

import math

import numpy as np

from robomodel.joints import FixedJoint, Joint, replace_joint
from robomodel.model import Model
from robomodel.spatial import FloatArray, SpatialInertia, Transform

_IDENTITY = Transform.identity()
"""The pose of a link frame that does not move: compared by identity (``is``), not by value."""


_FEW = 4
"""Up to this many joints are re-expressed one by one rather than in a vectorised batch."""


def _reexpress_joints(
    joints: list[Joint],
    moved: list[tuple[int, int, int]],
    X: list[Transform],
    XR: FloatArray,
    Xp: FloatArray,
) -> None:
    """Re-express joints in new link frames, in place: ``rest' = X1 rest X2^-1``, axis ``X1 a``.

    ``moved`` holds (position in ``joints``, link1 index, link2 index); ``X1``/``X2`` are the
    ``newLink_H_oldLink`` of the joint's two links (rows of ``XR``/``Xp``). One vectorised pass,
    or, for a few joints, one product per joint (cheaper than the batch's fixed cost).
    """
    if len(moved) <= _FEW:
        for k, o1, o2 in moved:
            j, x1, x2 = joints[k], X[o1], X[o2]
            rest = j.link1_H_link2 if x1 is _IDENTITY else x1 @ j.link1_H_link2
            if x2 is not _IDENTITY:
                rest = rest @ x2.inverse()
            if isinstance(j, FixedJoint):
                joints[k] = replace_joint(j, link1_H_link2=rest)
            else:
                axis = j.axis_in_link1 if x1 is _IDENTITY else x1 @ j.axis_in_link1
                joints[k] = replace_joint(j, link1_H_link2=rest, axis_in_link1=axis)
        return
    i1 = np.array([o1 for _, o1, _ in moved], dtype=np.intp)
    i2 = np.array([o2 for _, _, o2 in moved], dtype=np.intp)
    R1, p1, R2, p2 = XR.take(i1, 0), Xp.take(i1, 0), XR.take(i2, 0), Xp.take(i2, 0)
    old = [joints[k] for k, _, _ in moved]
    Rr = _stack([j.link1_H_link2.rotation for j in old], (3, 3))
    pr = _stack([j.link1_H_link2.position for j in old], (3,))
    RrR2t = Rr @ R2.transpose(0, 2, 1)
    R = R1 @ RrR2t
    p = (R1 @ (pr - (RrR2t @ p2[:, :, None])[:, :, 0])[:, :, None])[:, :, 0] + p1
    rests = _transforms(R, p)
    for (k, o1, _), j, rest in zip(moved, old, rests, strict=True):
        if isinstance(j, FixedJoint):
            joints[k] = replace_joint(j, link1_H_link2=rest)
        else:
            x1 = X[o1]
            axis = j.axis_in_link1 if x1 is _IDENTITY else x1 @ j.axis_in_link1
            joints[k] = replace_joint(j, link1_H_link2=rest, axis_in_link1=axis)


def _compose_rows(
    XR: FloatArray, Xp: FloatArray, rows: list[int], B: list[Transform]
) -> list[Transform]:
    """Return ``[X[r] @ b for r, b in zip(rows, B)]``, with ``X`` stacked in ``XR``/``Xp``."""
    if not rows:
        return []
    idx = np.array(rows, dtype=np.intp)  # indexing with a list converts it each time
    RA = XR[idx]
    R = RA @ _stack([b.rotation for b in B], (3, 3))
    p = (RA @ _stack([b.position for b in B], (3,))[:, :, None])[:, :, 0]
    p += Xp[idx]
    return _transforms(R, p)


def _transforms(R: FloatArray, p: FloatArray) -> list[Transform]:
    """Return ``Transform`` values viewing the rows of stacked rotations and positions.

    This is ``Transform._raw`` per row, minus its per-row ``setflags``: the stacks are locked
    once, and numpy views of a read-only array are read-only. The per-row calls dominated the
    cost of re-expressing a few hundred frames.
    """
    R.setflags(write=False)
    p.setflags(write=False)
    new = object.__new__
    set_r, set_p = _SET_ROTATION, _SET_POSITION
    out: list[Transform] = []
    append = out.append
    for r, q in zip(list(R), list(p), strict=True):
        t = new(Transform)
        set_r(t, r)
        set_p(t, q)
        append(t)
    return out


# The slot setters of Transform, called directly: what object.__setattr__ ends up doing on a
# frozen attrs class, minus the attribute lookup.
_SET_ROTATION = Transform.__dict__["rotation"].__set__
_SET_POSITION = Transform.__dict__["position"].__set__


def _stack(arrays: list[FloatArray], shape: tuple[int, ...]) -> FloatArray:
    """Return float64 arrays of one ``shape`` stacked into a read-only ``(k, *shape)`` array.

    Joining their bytes is several times faster than ``np.array`` on a list of small arrays.
    Every array here belongs to a ``Transform`` or ``SpatialInertia``, which store float64; the
    size check falls back to ``np.array`` should any other dtype ever turn up.
    """
    size = math.prod(shape)
    raw = b"".join([a.tobytes() for a in arrays])
    if len(raw) != 8 * size * len(arrays):
        return np.array(arrays, dtype=np.float64).reshape(-1, *shape)
    return np.frombuffer(raw, dtype=np.float64).reshape(-1, *shape)


def _inertia_sums(
    model: Model, XR: FloatArray, Xp: FloatArray, members: list[tuple[int, int]]
) -> dict[int, SpatialInertia]:
    """Per part, the sum of ``X[link] @ inertia(link)`` over ``(part, link)`` in ``members``.

    ``XR``/``Xp`` stack the rotations and positions of ``X`` by link index; ``members`` lists
    each part's links contiguously. Inertias are moved with
    ``I_A = R I_O R^T - S(Rh) S(p) - S(p) S(Rh) - m S(p)^2``, expanded with
    ``S(a) S(b) = b a^T - (a.b) 1``; it needs no centre of mass, so massless links with a
    rotational inertia are moved exactly too.
    """
    if not members:
        return {}
    inertias = [model.links[link].inertia for _, link in members]
    rows = np.array([link for _, link in members], dtype=np.intp)
    m = np.array([i.mass for i in inertias])
    h = _stack([i.first_moment for i in inertias], (3,))
    I_O = _stack([i.rotational_inertia for i in inertias], (3, 3))
    R = XR[rows]
    p = Xp[rows]
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
    # What SpatialInertia._raw does per value (symmetrise, lock), done once for all parts.
    Is = 0.5 * (Is + Is.transpose(0, 2, 1))
    hs.setflags(write=False)
    Is.setflags(write=False)
    new, set_ = object.__new__, object.__setattr__
    out: dict[int, SpatialInertia] = {}
    for r, k in enumerate(starts):
        si = new(SpatialInertia)
        set_(si, "mass", mass[r])
        set_(si, "first_moment", hs[r])
        set_(si, "rotational_inertia", Is[r])
        out[part[k]] = si
    return out
