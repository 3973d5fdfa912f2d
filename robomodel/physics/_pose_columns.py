"""Poses of many configurations as columns: the inner steps of ``forward_kinematics_batch``.

:func:`robomodel.physics.kinematics.forward_kinematics_batch` runs a Python loop over the links that
lead to the requested frames; each step here is a few whole-array operations on all
configurations at once. A pose is held column by column, each column a ``(3, N)`` block with
the configurations along the contiguous axis, and a joint's step is a short, sparse linear
combination of its parent's columns. Per model and base, the constants of every step
(:class:`ColumnStep`: which columns of a rotation a joint mixes, with which coefficients) are
computed once, by :func:`batch_step`, into the kinematics plan
(:class:`robomodel.physics._kinematic_tree.KinematicTree`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.model.joints import FixedJoint, PrismaticJoint, RevoluteJoint
from robomodel.model.record import Model
from robomodel.model.spatial import skew
from robomodel.model.traversal import Traversal

__all__ = ["ColumnStep", "batch_step", "run_step"]

FloatArray = npt.NDArray[np.float64]


def _sincos(x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Return ``(sin(x), cos(x))`` from one transcendental call, within a few ulps.

    In the batched FK, numpy's float64 ``sin`` and ``cos`` (scalar libm calls on many builds)
    cost more than the matrix arithmetic; the half-angle forms
    ``sin x = 2t / (1 + t^2)``, ``cos x = (1 - t^2) / (1 + t^2)`` with ``t = tan(x / 2)`` need
    a single ``tan`` (``|t|`` stays far below overflow for every finite double).

    >>> x = np.linspace(-20.0, 20.0, 1001)
    >>> s, c = _sincos(x)
    >>> bool(np.abs(s - np.sin(x)).max() < 1e-15 and np.abs(c - np.cos(x)).max() < 1e-15)
    True
    """
    t = np.tan(0.5 * x)
    d = t * t
    d += 1.0
    np.reciprocal(d, out=d)
    s = t * d
    s *= 2.0
    c = d * 2.0
    c -= 1.0
    return s, c


Terms = tuple[tuple[int, float], ...]


@attrs.frozen
class ColumnStep:
    """Constants of one traversal step of the batched FK (see :func:`batch_step`)."""

    parent: int
    kind: int  # 0 fixed, 1 revolute, 2 prismatic
    qi: int
    W: tuple[Terms, Terms, Terms]  # W = R_parent @ P, column by column
    axis: int  # revolute: rotate W by R_axis(sign * q)
    sign: float
    Qt: tuple[Terms, Terms, Terms] | None  # revolute: R_child = V @ Q^T (None: Q = I)
    pos: Terms  # p_child = p_parent + R_parent @ r ...
    pos_child: Terms  # ... - R_child @ o (revolute axis off the origin)
    slide: Terms  # prismatic: ... + q * R_parent @ (X3 u)


def _terms(v: FloatArray) -> Terms:
    # Sparse coefficients: exact-ish zeros skipped and unit entries snapped, so that the common
    # URDF rest rotations (multiples of 90 degrees) cost copies instead of products.
    tol = 1e-15 * max(1.0, float(np.abs(v).max()))
    out = []
    for k, c in enumerate(v):
        if abs(c) <= tol:
            continue
        if abs(abs(c) - 1.0) <= 1e-15:
            c = math.copysign(1.0, c)
        out.append((k, float(c)))
    return tuple(out)


def _cols(M: FloatArray) -> tuple[Terms, Terms, Terms]:
    return (_terms(M[:, 0]), _terms(M[:, 1]), _terms(M[:, 2]))


def batch_step(model: Model, t: Traversal, k: int, parent: int) -> ColumnStep:
    child = model.link_names[t.links[k]]
    j = model.joints[t.joints[k]]  # type: ignore[index]
    X = j.rest_transform(model.link_names[t.parents[k]], child)  # type: ignore[index]
    X3, Xp = np.array(X.rotation), np.array(X.position)
    none: Terms = ()
    match j:
        case RevoluteJoint():
            ax = j.axis(child)
            u, o = np.array(ax.direction), np.array(ax.origin)
            a = int(np.argmax(np.abs(u)))
            if all(abs(u[b]) <= 1e-15 for b in range(3) if b != a):
                # Axis along a coordinate axis: rotate two columns, no change of basis.
                Qm, sign, Qt = np.eye(3), math.copysign(1.0, u[a]), None
            else:
                # Rot(u, q) = Q R_a(sign q) Q^T with Q taking sign e_a (the closest signed
                # coordinate axis) onto u; Q and X3 Q stay sparse when u lies in a coordinate plane.
                sign = math.copysign(1.0, u[a])
                Qm = _axis_basis(sign * np.eye(3)[a], u)
                Qt = _cols(Qm.T)
            return ColumnStep(
                parent,
                1,
                j.pos_coord_offset,
                _cols(X3 @ Qm),
                a,
                sign,
                Qt,
                _terms(Xp + X3 @ o),
                _terms(o),
                none,
            )
        case PrismaticJoint():
            u = np.array(j.axis(child).direction)
            return ColumnStep(
                parent,
                2,
                j.pos_coord_offset,
                _cols(X3),
                0,
                1.0,
                None,
                _terms(Xp),
                none,
                _terms(X3 @ u),
            )
        case FixedJoint():
            return ColumnStep(parent, 0, -1, _cols(X3), 0, 1.0, None, _terms(Xp), none, none)


def _axis_basis(f: FloatArray, u: FloatArray) -> FloatArray:
    """Return the rotation taking the unit vector ``f`` onto the unit vector ``u`` (``f.u > 0``).

    ``I + K + K^2 / (1 + f.u)`` with ``K = S(f x u)``: exact for any pair short of opposite
    vectors, with no normalisation of ``f x u`` (which may be tiny). When ``u`` lies in a plane
    of ``f``'s frame, the result is a rotation about that plane's normal and stays sparse.
    """
    K = skew(np.cross(f, u))
    Q: FloatArray = np.eye(3) + K + (K @ K) / (1.0 + float(f @ u))
    return Q


def _combo(
    out: FloatArray,
    cols: Sequence[FloatArray],
    terms: Terms,
    tmp: FloatArray,
    *,
    accumulate: bool = False,
    sign: float = 1.0,
    base: FloatArray | None = None,
) -> None:
    """Write ``[base +] sign * sum(c * cols[k])`` into ``out`` (or add it) in few array passes."""
    first = not accumulate
    for k, c0 in terms:
        c, col = c0 * sign, cols[k]
        if first and base is not None:
            if c == 1.0:
                np.add(base, col, out=out)
            elif c == -1.0:
                np.subtract(base, col, out=out)
            else:
                np.multiply(col, c, out=out)
                np.add(out, base, out=out)
            first = False
        elif first:
            if c == 1.0:
                np.copyto(out, col)
            elif c == -1.0:
                np.negative(col, out=out)
            else:
                np.multiply(col, c, out=out)
            first = False
        elif c == 1.0:
            np.add(out, col, out=out)
        elif c == -1.0:
            np.subtract(out, col, out=out)
        else:
            np.multiply(col, c, out=tmp)
            np.add(out, tmp, out=out)
    if first:
        if base is None:
            out.fill(0.0)
        else:
            np.copyto(out, base)


def _column(
    cols: Sequence[FloatArray], terms: Terms, buf: FloatArray, tmp: FloatArray
) -> FloatArray:
    """Return ``sum(c * cols[k])``: the column itself when it is a plain copy, else in ``buf``."""
    if len(terms) == 1 and terms[0][1] == 1.0:
        return cols[terms[0][0]]
    _combo(buf, cols, terms, tmp)
    return buf


_ROTATED = ((1, 2), (2, 0), (0, 1))  # the columns a rotation about x, y, z mixes


def run_step(
    st: ColumnStep,
    Hp: FloatArray,
    Hc: FloatArray,
    Qt: FloatArray,
    tmp: FloatArray,
    scratch: FloatArray,
) -> None:
    Rp = (Hp[0, :3], Hp[1, :3], Hp[2, :3])
    Rc = (Hc[0, :3], Hc[1, :3], Hc[2, :3])
    pc = Hc[3, :3]
    if st.kind == 1:
        i, j = _ROTATED[st.axis]
        # One joint at a time, so that the (N,) temporaries are recycled by the allocator.
        s, c = _sincos(Qt[st.qi])
        if st.sign < 0:
            np.negative(s, out=s)
        # V = W @ R_axis(q); with Q = I it is the child rotation itself.
        V = Rc if st.Qt is None else (scratch[0], scratch[1], scratch[2])
        a = st.axis
        _combo(V[a], Rp, st.W[a], tmp)
        Wi = _column(Rp, st.W[i], scratch[3], tmp)
        Wj = _column(Rp, st.W[j], scratch[4], tmp)
        np.multiply(Wi, c, out=V[i])
        np.multiply(Wj, s, out=tmp)
        np.add(V[i], tmp, out=V[i])
        np.multiply(Wj, c, out=V[j])
        np.multiply(Wi, s, out=tmp)
        np.subtract(V[j], tmp, out=V[j])
        if st.Qt is not None:
            for m in range(3):
                _combo(Rc[m], V, st.Qt[m], tmp)
        _combo(pc, Rp, st.pos, tmp, base=Hp[3, :3])
        _combo(pc, Rc, st.pos_child, tmp, accumulate=True, sign=-1.0)
    else:
        for m in range(3):
            _combo(Rc[m], Rp, st.W[m], tmp)
        _combo(pc, Rp, st.pos, tmp, base=Hp[3, :3])
        if st.kind == 2:
            _combo(scratch[0], Rp, st.slide, tmp)
            np.multiply(scratch[0], Qt[st.qi], out=scratch[0])
            np.add(pc, scratch[0], out=pc)
