"""Spatial algebra values: rigid transforms, axes and spatial inertias.

Conventions (the same as iDynTree's):

* ``A_H_B`` is the pose of frame B in frame A: a rotation ``A_R_B`` and the position of B's origin
  written in A. It maps points as ``x_A = R @ x_B + p`` and composes as ``A_H_C = A_H_B @ B_H_C``.
* Spatial vectors put the linear part first: a twist is ``[v; w]``, a wrench is ``[f; tau]``.
* URDF roll-pitch-yaw angles mean ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``.

All values are frozen, and the numpy arrays they hold can never be made writable (see
:mod:`robomodel._internal.arrays`). The public constructors check shapes and finiteness; the algebra
(``@``, :meth:`Transform.inverse`, ``+``, :meth:`Axis.rotation`, ...) builds its results with the
trusted constructors of :mod:`robomodel._internal.construct`, since products of valid values are
arrays
of the right shapes, finite barring float overflow (entries beyond ~1e150, which no rigid body
has). Where a result could break an invariant, it is checked: ``T @ axis`` renormalises a
direction that a non-rotation matrix took off the unit sphere, :meth:`SpatialInertia.from_com`
checks what it computed, and angles and distances must be finite.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, overload

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import (
    FloatArray as FloatArray,
)  # re-exported: the array type of values
from robomodel._internal.arrays import (
    canonical,
    check_finite,
    eye3,
    finite_mass,
    finite_number,
    fresh,
    frozen_array,
    frozen_bytes,
    immutable,
    immutable_pair,
    mat33,
    vec3,
    zeros3,
    zeros33,
)
from robomodel._internal.construct import make
from robomodel.errors import ModelError

__all__ = [
    "ROTATION_ROUNDOFF",
    "ROTATION_TOLERANCE",
    "RPY_FLAT_COS",
    "RPY_IDYNTREE_MIN_COS",
    "RPY_TOLERANCE",
    "Axis",
    "SpatialInertia",
    "Transform",
    "cross",
    "cross3",
    "orthonormality",
    "proper_rotation",
    "rotation_from_rpy",
    "rotations_from_rpy",
    "rpy_from_rotation",
    "skew",
    "twist_adjoint",
    "wrench_adjoint",
]

ArrayLike = npt.ArrayLike


def skew(v: ArrayLike) -> FloatArray:
    """Return the 3x3 matrix ``S(v)`` such that ``S(v) @ x == cross(v, x)``."""
    x, y, z = np.asarray(v, dtype=np.float64).tolist()  # Python floats: faster to pack
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def cross3(a: FloatArray, b: FloatArray) -> FloatArray:
    """Return the cross product of two 3-vectors (``np.cross`` costs microseconds per call)."""
    return np.array(
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    )


def cross(a: FloatArray, b: FloatArray) -> FloatArray:
    """Return row-wise cross products over the last axis of broadcastable ``(..., 3)`` arrays.

    Callers stack many products into one call, since the per-call overhead dominates on
    small inputs (``np.cross`` costs several times more there).
    """
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def rotation_from_rpy(roll: float, pitch: float, yaw: float) -> FloatArray:
    """Return ``Rz(yaw) @ Ry(pitch) @ Rx(roll)``, the URDF meaning of ``rpy``."""
    return np.array(_rpy_rows(roll, pitch, yaw))


def _rpy_rows(roll: float, pitch: float, yaw: float) -> list[list[float]]:
    """The rows of :func:`rotation_from_rpy` in plain floats (the same operations)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return [
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ]


def rotations_from_rpy(angles: Sequence[float], n: int) -> FloatArray:
    """Return the ``(n, 3, 3)`` rotations of ``n`` flattened ``(roll, pitch, yaw)`` triples.

    :func:`rotation_from_rpy` of each triple, bit for bit: its formulas, elementwise in the same
    order (numpy's elementwise float64 operations round like Python's), with ``math``
    trigonometry. The products are gathered into a few stacked operations, each product's
    operands in the formula's order and ``a - b`` as ``a + (-1 * b)``, which rounds alike: on a
    document's few dozen rotations numpy's cost per call, not the arithmetic, is what counts.
    """
    if n <= _FEW_ROTATIONS:
        # A few rows (the distinct angles of a small document): the scalar formulas cost less
        # than the dozen numpy calls below, and give the same bits.
        flat: list[float] = []
        for k in range(0, 3 * n, 3):
            flat += _rpy_flat(angles[k], angles[k + 1], angles[k + 2])
        few: FloatArray = np.array(flat).reshape(n, 3, 3)
        return few
    # Columns of V: cos r, cos p, cos y, sin r, sin p, sin y, -sin p.
    V = np.array([*map(math.cos, angles), *map(math.sin, angles)]).reshape(2, n, 3)
    V = np.concatenate((V[0], V[1], -V[1][:, 1:2]), axis=1)
    P = V[:, _P_LEFT] * V[:, _P_RIGHT]  # cy*cp, sy*cp, cp*sr, cp*cr, cy*sp, sy*sp
    # (cy*sp)*sr - sy*cr, (cy*sp)*cr + sy*sr, (sy*sp)*sr + cy*cr, (sy*sp)*cr - cy*sr
    Q = P[:, _Q_LEFT] * V[:, _Q_RIGHT] + _SIGNS * (V[:, _S_LEFT] * V[:, _S_RIGHT])
    out: FloatArray = np.concatenate((P, Q, V[:, 6:]), axis=1)[:, _LAYOUT].reshape(n, 3, 3)
    return out


_FEW_ROTATIONS = 16
"""Up to this many rows :func:`rotations_from_rpy` computes in Python floats, beyond in numpy
(measured: the stacked path costs about 12 us plus 0.3 us a row, the scalar formulas 0.6 us a
row)."""


def _rpy_flat(roll: float, pitch: float, yaw: float) -> list[float]:
    """:func:`_rpy_rows` row-major in one list (the same operations)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    cysp = cy * sp
    sysp = sy * sp
    return [
        cy * cp,
        cysp * sr - sy * cr,
        cysp * cr + sy * sr,
        sy * cp,
        sysp * sr + cy * cr,
        sysp * cr - cy * sr,
        -sp,
        cp * sr,
        cp * cr,
    ]


# The columns rotations_from_rpy() gathers from V, P and Q, and the row-major layout of
# [P | Q | -sp] (read-only index arrays: a list would be converted on every call).
def _columns(*k: int) -> Any:
    out = np.array(k, dtype=np.intp)
    out.flags.writeable = False
    return out


_P_LEFT = _columns(2, 5, 1, 1, 2, 5)
_P_RIGHT = _columns(1, 1, 3, 0, 4, 4)
_Q_LEFT = _columns(4, 4, 5, 5)
_Q_RIGHT = _columns(3, 0, 3, 0)
_S_LEFT = _columns(5, 5, 2, 2)
_S_RIGHT = _columns(0, 3, 0, 3)
_LAYOUT = _columns(0, 6, 7, 1, 8, 9, 10, 2, 3)
_SIGNS = immutable(np.array([-1.0, 1.0, 1.0, -1.0]))


RPY_IDYNTREE_MIN_COS = 0.5
"""The smallest ``cos(pitch)`` at which :func:`rpy_from_rotation` gives iDynTree's angles unchecked.

iDynTree's ``asRPY`` reads the yaw and the pitch from entries scaled by ``cos(pitch)`` (and from
``asin``, flat there), so its angles carry round-off divided by ``cos(pitch)``: their rotation is
off by about ``1e-15 / cos(pitch)``, which is 1e-7 at a pitch 1e-9 from 90 degrees and a wrong
rotation (off by up to 2) within 1e-15 of it. Down to a cosine of 0.5 (pitch within 60 degrees of
level) the error stays under 2e-15, as small as any rule gives; below it iDynTree's angles are
kept only where their rotation is checked to be within :data:`RPY_TOLERANCE`.
"""

RPY_TOLERANCE = 2e-15
"""How far (each entry) the rotation of iDynTree's angles may be from ``R`` to be kept."""

RPY_FLAT_COS = 1e-15
"""Below this ``cos(pitch)`` the roll is 0 and the whole turn about the vertical goes into yaw.

The entries that would give the roll are then round-off, and dropping it changes the rotation by
less than this (iDynTree does the same when ``|R20|`` reaches 1).
"""


def rpy_from_rotation(R: ArrayLike, *, idyntree: bool = True) -> tuple[float, float, float]:
    """Return ``(roll, pitch, yaw)`` with ``R == Rz(yaw) @ Ry(pitch) @ Rx(roll)`` to round-off.

    The rotation of the angles is within about 2e-15 of ``R`` (each entry, for ``R``
    orthonormal to round-off) for every pitch, including at and near the gimbal singularities
    (pitch = ±π/2). Roll and yaw are in ``[-π, π]``, the pitch in ``[-π/2, π/2]``.

    The angles are iDynTree's ``asRPY`` angles bit for bit wherever those are that accurate:
    always where ``cos(pitch) >=`` :data:`RPY_IDYNTREE_MIN_COS`, and elsewhere when their
    rotation is within :data:`RPY_TOLERANCE` of ``R``. They are ``atan2(R21, R22)``,
    ``asin(-R20)``, ``atan2(R10, R00)`` (at ``|R20| >= 1``: roll 0, pitch ±π/2, and the yaw from
    ``R12`` and ``R11``), so the identity gives ``pitch == -0.0`` (writers print every zero as
    ``0``). Elsewhere, where iDynTree's pitch and yaw carry round-off magnified
    by ``1 / cos(pitch)``, the roll is still ``atan2(R21, R22)`` (0 below :data:`RPY_FLAT_COS`),
    and the yaw and the pitch are read from ``R @ Rx(roll)^T == Rz(yaw) @ Ry(pitch)``, whose
    entries are not scaled by ``cos(pitch)``: the yaw from its middle column
    ``(-sin yaw, cos yaw, 0)``, the pitch from ``-R20`` and ``cos(pitch)``.

    With ``idyntree=False`` the well-conditioned angles are given everywhere (the URDF writer
    starts its search for exact angles from them: they are within an ulp or so of the angles a
    rotation was computed from).

    >>> rpy_from_rotation(np.eye(3))
    (0.0, -0.0, 0.0)
    >>> R = rotation_from_rpy(0.3, math.pi / 2 - 1e-12, -0.4)
    >>> bool(np.abs(rotation_from_rpy(*rpy_from_rotation(R)) - R).max() < 2e-15)
    True
    """
    rows = np.asarray(R, dtype=np.float64).tolist()
    (r00, r01, r02), (r10, r11, r12), (r20, r21, r22) = rows
    cos_pitch = math.hypot(r21, r22)
    # iDynTree's asRPY.
    if not idyntree:
        pass
    elif -1.0 < r20 < 1.0:
        rpy = math.atan2(r21, r22), math.asin(-r20), math.atan2(r10, r00)
        if cos_pitch >= RPY_IDYNTREE_MIN_COS:
            return rpy
    elif r20 >= 1.0:
        rpy = 0.0, -math.pi / 2, math.atan2(-r12, r11)
    else:
        rpy = 0.0, math.pi / 2, -math.atan2(-r12, r11)
    if idyntree:
        err = max(
            abs(a - b)
            for got, want in zip(_rpy_rows(*rpy), rows, strict=True)
            for a, b in zip(got, want, strict=True)
        )
        if err <= RPY_TOLERANCE:
            return rpy
    # Well-conditioned angles.
    if cos_pitch < RPY_FLAT_COS:
        roll, c, s = 0.0, 1.0, 0.0
    else:
        roll = math.atan2(r21, r22)
        c, s = math.cos(roll), math.sin(roll)
    # The columns of R @ Rx(roll)^T: (.., .., -sin p), (-sin y, cos y, ~0), (.., .., cos p).
    yaw = math.atan2(r02 * s - r01 * c, r11 * c - r12 * s)
    pitch = math.atan2(-r20, max(r21 * s + r22 * c, 0.0))
    return roll, pitch, yaw


ROTATION_TOLERANCE = 1e-9
"""How far a rotation may be from orthonormal: ``max |R^T R - I| <= 1e-9``, with ``det R > 0``.

One rule for every value and every reader: within round-off of ordinary arithmetic
(:data:`ROTATION_ROUNDOFF`) a matrix is stored bit for bit; up to this tolerance (a rotation
written with few digits, or accumulated over many products) it is replaced by the nearest rotation
(the orthogonal polar factor); beyond it, or with ``det R < 0`` (a reflection), it is refused.
"""

ROTATION_ROUNDOFF = 1e-12
"""Below this ``max |R^T R - I|`` a rotation is stored as given: a model built in Python carries
about 1e-16 of round-off per operation, and re-orthonormalising would change its last bits."""


def orthonormality(R: ArrayLike) -> tuple[float, float]:
    """Return ``(max |R^T R - I|, det R)`` of a 3x3 matrix, in plain floats (exact to round-off)."""
    (a, b, c), (d, e, f), (g, h, i) = np.asarray(R, dtype=np.float64).tolist()
    err = max(
        abs(a * a + d * d + g * g - 1.0),
        abs(b * b + e * e + h * h - 1.0),
        abs(c * c + f * f + i * i - 1.0),
        abs(a * b + d * e + g * h),
        abs(a * c + d * f + g * i),
        abs(b * c + e * f + h * i),
    )
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return err, det


def proper_rotation(R: FloatArray) -> FloatArray:
    """Return the rotation ``R`` stands for under :data:`ROTATION_TOLERANCE`, or raise.

    ``R`` itself when it is orthonormal to round-off, the nearest rotation when it is within the
    tolerance, else a :class:`~robomodel.errors.ModelError` saying which rule it breaks.
    """
    err, det = orthonormality(R)
    if err <= ROTATION_ROUNDOFF and det > 0.0:
        return R
    if not (err <= ROTATION_TOLERANCE and det > 0.0):
        what = (
            "a reflection (det < 0)"
            if det <= 0.0 and err <= ROTATION_TOLERANCE
            else f"not orthonormal (max |R^T R - I| = {err:.3g} > {ROTATION_TOLERANCE:g})"
        )
        raise ModelError(
            f"not a rotation matrix: {what}; give a proper rotation (R^T R = I, det R = 1)"
        )
    u, _, vt = np.linalg.svd(R)
    nearest: FloatArray = u @ vt
    return nearest


# The algebra below computes on plain views of the frozen arrays (``a.view(_PLAIN)``, ~0.1 us):
# numpy would run ``FrozenArray.__array_wrap__``, a Python call, on every ufunc and matmul
# result with a frozen operand, which costs more than the arithmetic of a 3x3 product. The
# operations and their operand order are those of the plain formulas, so the bits are the same.
_PLAIN = np.ndarray
_EYE3 = eye3().view(_PLAIN)  # a constant no one can write, so that no call pays for np.eye(3)


def _rotation_field(v: ArrayLike) -> FloatArray:
    R = mat33(v)
    checked = proper_rotation(R)
    return R if checked is R else immutable(checked)


@attrs.frozen(eq=False, repr=False)
class Transform:
    """A rigid transform ``A_H_B``: the rotation ``A_R_B`` and the position of B's origin in A.

    Defaults to the identity. ``@`` composes transforms and maps points (shape ``(3,)`` or
    ``(N, 3)``), wrenches are mapped with :meth:`apply_wrench`, inertias with ``T @ inertia``.

    >>> T = Transform.from_rpy_xyz((0, 0, math.pi / 2), (1, 0, 0))
    >>> (T @ np.array([1.0, 0, 0])).round(12).tolist()
    [1.0, 1.0, 0.0]
    >>> (T @ T.inverse()).is_identity()
    True
    """

    rotation: FloatArray = attrs.field(factory=eye3, converter=_rotation_field)
    position: FloatArray = attrs.field(factory=zeros3, converter=vec3)

    @classmethod
    def _raw(cls, rotation: FloatArray, position: FloatArray) -> Transform:
        # Internal constructor for float64 arrays of the right shapes that the caller computed
        # itself from valid values (so finite), and owns: skips the copy and the checks of the
        # public converter, which dominate the cost of composing transforms.
        return make(Transform)(*immutable_pair(rotation, position))

    @classmethod
    def identity(cls) -> Transform:
        """Return the identity transform."""
        return _IDENTITY

    @classmethod
    def from_matrix(cls, H: ArrayLike) -> Transform:
        """Build a transform from a 4x4 homogeneous matrix (the last row is not checked)."""
        m = np.asarray(H, dtype=np.float64)
        if m.shape != (4, 4):
            raise ModelError(f"a homogeneous matrix must have shape (4, 4), got {m.shape}")
        return cls(m[:3, :3], m[:3, 3])

    @classmethod
    def from_rpy_xyz(
        cls, rpy: Iterable[float] = (0.0, 0.0, 0.0), xyz: Iterable[float] = (0.0, 0.0, 0.0)
    ) -> Transform:
        """Build a transform from URDF ``<origin rpy xyz>`` values."""
        r, p, y = (float(v) for v in rpy)
        return cls(rotation_from_rpy(r, p, y), tuple(xyz))

    @classmethod
    def from_translation(cls, xyz: Iterable[float]) -> Transform:
        """Return a pure translation."""
        return cls(np.eye(3), tuple(xyz))

    def rpy(self) -> tuple[float, float, float]:
        """Return the roll-pitch-yaw angles of the rotation (:func:`rpy_from_rotation`)."""
        return rpy_from_rotation(self.rotation)

    @classmethod
    def _raw_many(cls, rotations: FloatArray, positions: FloatArray) -> list[Transform]:
        """Return one transform per row of stacked ``(N, 3, 3)`` rotations and ``(N, 3)`` positions.

        Internal: the rows become read-only views of private copies, without per-row checks.
        """
        R = immutable(np.asarray(rotations, dtype=np.float64))
        p = immutable(np.asarray(positions, dtype=np.float64))
        new = make(Transform)
        return [new(R[k], p[k]) for k in range(R.shape[0])]

    def inverse(self) -> Transform:
        """Return ``B_H_A`` for this ``A_H_B``."""
        # Finite entries give finite results here and in ``@`` (barring float overflow, which
        # needs entries beyond ~1e150 that no rigid transform has): no check on this hot path.
        Rt = self.rotation.view(
            _PLAIN
        ).T.copy()  # C order: ``Rt @ p`` is the product of a plain matrix
        return Transform._raw(Rt, -(Rt @ self.position.view(_PLAIN)))

    def inverse_apply(self, axis: Axis) -> Axis:
        """Return ``self.inverse() @ axis`` bit for bit, without building the inverse transform.

        What a joint does to express its axis in link2 (``joint.axis(joint.link2)``).
        """
        Rt = self.rotation.view(
            _PLAIN
        ).T.copy()  # C order, as in ``inverse``: the same matrix products
        # The inverse would store this position canonical (``-0.0`` as ``0.0``); the stored
        # origin is made canonical after the sum, which gives the same bits either way.
        p = -(Rt @ self.position.view(_PLAIN))
        return Axis._raw(
            _rotated_unit(Rt, axis.direction.view(_PLAIN)), Rt @ axis.origin.view(_PLAIN) + p
        )

    def as_matrix(self) -> FloatArray:
        """Return the 4x4 homogeneous matrix (a new, writable array)."""
        H = np.eye(4)
        H[:3, :3] = self.rotation
        H[:3, 3] = self.position
        return H

    def is_identity(self, atol: float = 1e-12) -> bool:
        """Return whether this transform is the identity within ``atol``."""
        return bool(
            np.allclose(self.rotation, np.eye(3), rtol=0.0, atol=atol)
            and np.allclose(self.position, 0.0, rtol=0.0, atol=atol)
        )

    @overload
    def __matmul__(self, other: Transform) -> Transform: ...
    @overload
    def __matmul__(self, other: SpatialInertia) -> SpatialInertia: ...
    @overload
    def __matmul__(self, other: Axis) -> Axis: ...
    @overload
    def __matmul__(self, other: FloatArray) -> FloatArray: ...

    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, Transform):
            R = self.rotation.view(_PLAIN)
            return Transform._raw(
                R @ other.rotation.view(_PLAIN),
                R @ other.position.view(_PLAIN) + self.position.view(_PLAIN),
            )
        if isinstance(other, SpatialInertia):
            return other.transformed(self)
        if isinstance(other, Axis):
            R = self.rotation.view(_PLAIN)
            return Axis._raw(
                _rotated_unit(R, other.direction.view(_PLAIN)),
                R @ other.origin.view(_PLAIN) + self.position.view(_PLAIN),
            )
        if isinstance(other, np.ndarray):
            R, p = self.rotation.view(_PLAIN), self.position.view(_PLAIN)
            if other.shape == (3,):
                return R @ other + p
            if other.ndim == 2 and other.shape[1] == 3:
                return other @ R.T + p
            raise ModelError(f"a Transform maps points of shape (3,) or (N, 3), got {other.shape}")
        return NotImplemented

    def apply_wrench(self, f_B: ArrayLike) -> FloatArray:
        """Map a wrench ``[f; tau]`` expressed in B (moments about B) to A (moments about A)."""
        w = np.asarray(f_B, dtype=np.float64)
        f = self.rotation @ w[:3]
        return np.concatenate([f, self.rotation @ w[3:] + np.cross(self.position, f)])

    def apply_twist(self, v_B: ArrayLike) -> FloatArray:
        """Map a twist ``[v; w]`` expressed in B to A."""
        t = np.asarray(v_B, dtype=np.float64)
        w = self.rotation @ t[3:]
        return np.concatenate([self.rotation @ t[:3] + np.cross(self.position, w), w])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transform):
            return NotImplemented
        return bool(
            np.array_equal(self.rotation, other.rotation)
            and np.array_equal(self.position, other.position)
        )

    def __hash__(self) -> int:
        # ``+ 0.0`` folds -0.0 into 0.0, so that values equal under ``==`` hash alike.
        R, p = self.rotation.view(_PLAIN), self.position.view(_PLAIN)
        return hash(((R + 0.0).tobytes(), (p + 0.0).tobytes()))

    def __repr__(self) -> str:
        if self.is_identity(0.0):
            return "Transform.identity()"
        rpy = tuple(round(a, 6) for a in self.rpy())
        xyz = tuple(round(float(a), 6) for a in self.position)
        return f"Transform.from_rpy_xyz(rpy={rpy}, xyz={xyz})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_transform_from_state, (self.rotation.tobytes(), self.position.tobytes()))


def _transform_from_state(rotation: bytes, position: bytes) -> Transform:
    # A pickle is trusted like any pickle (loading one can run code): the transform is rebuilt
    # from its own bytes, bit for bit, without the constructor's checks, which cost a third of
    # unpickling a model's frames, sensors and shapes.
    return make(Transform)(frozen_bytes(rotation, (3, 3)), frozen_bytes(position, (3,)))


_IDENTITY = Transform()


def wrench_adjoint(A_H_B: Transform) -> FloatArray:
    """Return the 6x6 matrix mapping wrenches in B to A: ``[[R, 0], [S(p) R, R]]``."""
    R, p = A_H_B.rotation, A_H_B.position
    M = np.zeros((6, 6))
    M[:3, :3] = R
    M[3:, 3:] = R
    M[3:, :3] = skew(p) @ R
    return M


def twist_adjoint(A_H_B: Transform) -> FloatArray:
    """Return the 6x6 matrix mapping twists in B to A: ``[[R, S(p) R], [0, R]]``."""
    R, p = A_H_B.rotation, A_H_B.position
    M = np.zeros((6, 6))
    M[:3, :3] = R
    M[3:, 3:] = R
    M[:3, 3:] = skew(p) @ R
    return M


def _unit(v: ArrayLike) -> FloatArray:
    arr = frozen_array(v, (3,), "Axis.direction")
    with np.errstate(over="ignore"):
        n = float(np.linalg.norm(arr))
    if n == math.inf:  # |v|^2 overflowed (components above ~1e154): scale, then normalise
        arr = arr / np.abs(arr).max()
        n = float(np.linalg.norm(arr))
    if n < 1e-12:
        raise ModelError(
            f"an axis direction must be a non-zero vector, got {arr.tolist()}; give e.g. (0, 0, 1)"
        )
    return immutable(arr / n)


@attrs.frozen(eq=False, repr=False)
class Axis:
    """A directed line: a unit ``direction`` through the point ``origin``, both in one frame.

    The direction is normalised on construction; a zero vector is an error (iDynTree silently
    turns it into x).
    """

    direction: FloatArray = attrs.field(converter=_unit)
    origin: FloatArray = attrs.field(factory=zeros3, converter=vec3)

    @classmethod
    def _raw(cls, direction: FloatArray, origin: FloatArray) -> Axis:
        # Internal: a unit, finite ``direction`` and a finite ``origin`` the caller owns.
        return make(Axis)(*immutable_pair(direction, origin))

    def reversed(self) -> Axis:
        """Return the same line with the opposite direction."""
        # The origin is frozen: the new axis shares it.
        return make(Axis)(immutable(-self.direction.view(_PLAIN)), self.origin)

    def rotation(self, angle: float) -> Transform:
        """Return the transform rotating by ``angle`` about this line (Rodrigues)."""
        a = finite_number(angle, "a rotation angle")
        c, s = math.cos(a), math.sin(a)
        K = skew(self.direction.view(_PLAIN))
        R = _EYE3 + s * K + (1.0 - c) * (K @ K)
        return Transform._raw(R, (_EYE3 - R) @ self.origin.view(_PLAIN))

    def translation(self, distance: float) -> Transform:
        """Return the transform translating by ``distance`` along this direction."""
        d = finite_number(distance, "a translation distance")
        return Transform._raw(_EYE3, self.direction.view(_PLAIN) * d)

    def closest_point(self, x: ArrayLike) -> FloatArray:
        """Return the point of the line closest to ``x``."""
        p = np.asarray(x, dtype=np.float64)
        u = self.direction
        return self.origin + u * float((p - self.origin) @ u)

    def distance(self, x: ArrayLike) -> float:
        """Return the distance from ``x`` to the line."""
        return float(np.linalg.norm(self.closest_point(x) - np.asarray(x, dtype=np.float64)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Axis):
            return NotImplemented
        return bool(
            np.array_equal(self.direction, other.direction)
            and np.array_equal(self.origin, other.origin)
        )

    def __hash__(self) -> int:
        d, o = self.direction.view(_PLAIN), self.origin.view(_PLAIN)
        return hash(((d + 0.0).tobytes(), (o + 0.0).tobytes()))

    def __repr__(self) -> str:
        d = [round(float(a), 6) for a in self.direction]
        o = [round(float(a), 6) for a in self.origin]
        return f"Axis(direction={d}, origin={o})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Not through the constructor: renormalising an already unit direction can change its
        # last bit, and an unpickled axis must be == to the original.
        return (_axis_from_state, (self.direction.tolist(), self.origin.tolist()))


def _axis_from_state(direction: list[float], origin: list[float]) -> Axis:
    # Pickled state is data from outside: check it as the constructor does, but keep the unit
    # direction's bits (renormalising could change its last bit).
    d = frozen_array(direction, (3,), "Axis.direction")
    if abs(float(np.linalg.norm(d)) - 1.0) > 1e-9:
        d = _unit(d)
    return make(Axis)(d, vec3(origin))


def _rotated_unit(R: FloatArray, u: FloatArray) -> FloatArray:
    """Return ``R @ u`` for a unit ``u``: unit itself when ``R`` is a rotation, else normalised.

    A Transform's rotation is only checked to be finite, so its product with a unit direction is
    renormalised when it is not unit (a proper rotation keeps the product's bits unchanged).
    """
    d = R @ u
    if abs(float(d @ d) - 1.0) > 1e-9:
        return _unit(d)
    return d


def _sym3(v: ArrayLike) -> FloatArray:
    arr = frozen_array(v, (3, 3), "rotational inertia")
    if not np.allclose(arr, arr.T, rtol=0.0, atol=1e-12 * max(1.0, float(np.abs(arr).max()))):
        raise ModelError(f"a rotational inertia must be symmetric, got {arr.tolist()}")
    return arr


@attrs.frozen(eq=False, repr=False)
class SpatialInertia:
    """The inertia of a rigid body, stored as iDynTree stores it.

    Attributes:
        mass: the mass ``m`` (kg).
        first_moment: ``h = m * c``, with ``c`` the centre of mass in the body frame.
        rotational_inertia: the 3x3 inertia **about the frame origin**, in frame axes.

    Defaults to zero (iDynTree leaves it uninitialised). Use :meth:`from_com` for URDF-style data
    (inertia about the centre of mass). ``a + b`` adds two inertias expressed in the same frame;
    ``A_H_B @ inertia_B`` re-expresses one in A.

    >>> I = SpatialInertia.from_com(2.0, (0.1, 0, 0), np.eye(3))
    >>> I.as_vector().round(12).tolist()
    [2.0, 0.2, 0.0, 0.0, 1.0, 0.0, 0.0, 1.02, 0.0, 1.02]
    """

    mass: float = attrs.field(default=0.0, converter=canonical)
    first_moment: FloatArray = attrs.field(factory=zeros3, converter=vec3)
    rotational_inertia: FloatArray = attrs.field(factory=zeros33, converter=_sym3)

    @mass.validator
    def _check_mass(self, _: attrs.Attribute[float], value: float) -> None:
        finite_mass(value)

    @classmethod
    def _raw(cls, mass: float, h: FloatArray, I_O: FloatArray) -> SpatialInertia:
        # Internal: a finite mass, first moment and inertia (symmetrised here) the caller owns.
        # Halves added rather than the sum halved: the same bits, and no overflow to inf for an
        # inertia near the largest double.
        return make(SpatialInertia)(float(mass) + 0.0, *immutable_pair(h, 0.5 * I_O + 0.5 * I_O.T))

    @classmethod
    def zero(cls) -> SpatialInertia:
        """Return the zero inertia (a massless body)."""
        return _ZERO_INERTIA

    @classmethod
    def from_com(
        cls, mass: float, com: ArrayLike, inertia_com: ArrayLike | None = None
    ) -> SpatialInertia:
        """Build from the mass, the centre of mass and the inertia **about the centre of mass**.

        ``inertia_com`` is in the body frame's axes (rotate a URDF inertia first). Massless bodies
        keep the given inertia about the origin unchanged.
        """
        m = finite_mass(mass)
        c = frozen_array(com, (3,), "centre of mass")
        I_C = _sym3(np.zeros((3, 3)) if inertia_com is None else inertia_com)
        if m == 0.0:
            return cls._raw(0.0, m * c, I_C.copy())
        # Products of finite numbers can still overflow: check what the trusted path receives
        # (and raise that, rather than numpy's overflow warning).
        with np.errstate(over="ignore", invalid="ignore"):
            h = m * c
            I_O = I_C - _skew_sq(h) / m
        check_finite(h, "the first moment (mass * centre of mass)")
        check_finite(I_O, "the rotational inertia about the origin")
        return cls._raw(m, h, I_O)

    @classmethod
    def from_origin(
        cls, mass: float, com: ArrayLike, inertia_origin: ArrayLike | None = None
    ) -> SpatialInertia:
        """Build from the mass, the centre of mass and the inertia **about the frame origin**."""
        m = finite_mass(mass)
        c = frozen_array(com, (3,), "centre of mass")
        I_O = _sym3(np.zeros((3, 3)) if inertia_origin is None else inertia_origin)
        with np.errstate(over="ignore"):
            h = m * c  # the constructor refuses it if it overflowed
        return cls(m, h, I_O)

    @classmethod
    def from_vector(cls, v: ArrayLike) -> SpatialInertia:
        """Build from iDynTree's 10 parameters ``[m, hx, hy, hz, Ixx, Ixy, Ixz, Iyy, Iyz, Izz]``.

        The six inertia entries are about the frame origin.
        """
        p = frozen_array(v, (10,), "inertial parameter vector")
        _, _, _, _, ixx, ixy, ixz, iyy, iyz, izz = p
        I_O = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        return cls(float(p[0]), p[1:4], I_O)

    @property
    def com(self) -> FloatArray:
        """The centre of mass ``h / m`` (zero for a massless body)."""
        if self.mass == 0.0:
            return fresh(np.zeros(3))
        return fresh(self.first_moment.view(_PLAIN) / self.mass)

    @property
    def inertia_com(self) -> FloatArray:
        """The rotational inertia about the centre of mass, in frame axes."""
        if self.mass == 0.0:
            return self.rotational_inertia
        h = self.first_moment.view(_PLAIN)
        return fresh(self.rotational_inertia.view(_PLAIN) + _skew_sq(h) / self.mass)

    def as_vector(self) -> FloatArray:
        """Return iDynTree's 10-parameter vector (first moment, inertia about the origin)."""
        J = self.rotational_inertia
        return np.array(
            [
                self.mass,
                *self.first_moment,
                J[0, 0],
                J[0, 1],
                J[0, 2],
                J[1, 1],
                J[1, 2],
                J[2, 2],
            ]
        )

    def as_matrix(self) -> FloatArray:
        """Return the 6x6 spatial inertia matrix ``[[m I, -S(h)], [S(h), I_O]]`` (linear first)."""
        M = np.zeros((6, 6))
        S = skew(self.first_moment)
        M[:3, :3] = self.mass * np.eye(3)
        M[:3, 3:] = -S
        M[3:, :3] = S
        M[3:, 3:] = self.rotational_inertia
        return M

    def transformed(self, A_H_B: Transform) -> SpatialInertia:
        """Return this inertia (expressed in B) expressed in A."""
        R = A_H_B.rotation.view(_PLAIN)
        I_O = self.rotational_inertia.view(_PLAIN)
        m = self.mass
        if m == 0.0:
            # A massless body with a rotational inertia is non-physical; rotate it and keep it.
            return SpatialInertia._raw(0.0, np.zeros(3), R @ I_O @ R.T)
        h = self.first_moment.view(_PLAIN)
        # ``self.com`` and ``self.inertia_com``, without marking intermediates read-only.
        c_A = R @ (h / m) + A_H_B.position.view(_PLAIN)
        h_A = m * c_A
        I_C = I_O + _skew_sq(h) / m
        return SpatialInertia._raw(m, h_A, R @ I_C @ R.T - _skew_sq(h_A) / m)

    def __add__(self, other: SpatialInertia) -> SpatialInertia:
        if not isinstance(other, SpatialInertia):
            return NotImplemented
        return SpatialInertia._raw(
            self.mass + other.mass,
            self.first_moment.view(_PLAIN) + other.first_moment.view(_PLAIN),
            self.rotational_inertia.view(_PLAIN) + other.rotational_inertia.view(_PLAIN),
        )

    def is_physically_consistent(self) -> bool:
        """Return whether ``m > 0`` and the central inertia's eigenvalues obey the triangle rule."""
        if not self.mass > 0.0:
            return False
        ev = np.linalg.eigvalsh(self.inertia_com)
        tol = 1e-12 * max(1.0, float(np.abs(ev).max()))
        if ev.min() < -tol:
            return False
        a, b, c = ev
        return bool(a + b >= c - tol and a + c >= b - tol and b + c >= a - tol)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SpatialInertia):
            return NotImplemented
        return bool(
            self.mass == other.mass
            and np.array_equal(self.first_moment, other.first_moment)
            and np.array_equal(self.rotational_inertia, other.rotational_inertia)
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.mass,
                (self.first_moment.view(_PLAIN) + 0.0).tobytes(),
                (self.rotational_inertia.view(_PLAIN) + 0.0).tobytes(),
            )
        )

    def __repr__(self) -> str:
        c = [round(float(a), 6) for a in self.com]
        return f"SpatialInertia(mass={self.mass!r}, com={c})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (SpatialInertia, (self.mass, self.first_moment, self.rotational_inertia))


_ZERO_INERTIA = SpatialInertia()


def _skew_sq(h: FloatArray) -> FloatArray:
    """Return ``S(h) @ S(h) == h h^T - |h|^2 I`` for a plain ``h``."""
    # ``h[:, None] * h`` is the product ``np.outer`` forms, without its Python-level wrapper.
    return h[:, None] * h - float(h @ h) * _EYE3
