"""The numbers UsdPhysics wants that robomodel does not store: principal inertias, joint frames.

UsdPhysics describes a body's inertia by its principal moments and the rotation of its principal
axes, and a joint's motion along the X, Y or Z axis of a joint frame. Both are computed here from
robomodel's values in doubles, deterministically (equal models give equal bits), and the inverse
maps used by the reader.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from robomodel.model.spatial import SpatialInertia, Transform, skew

__all__ = [
    "Principal",
    "frame_with_x_along",
    "inertia_from_principal",
    "matrix_from_quaternion",
    "principal",
    "quaternion_from_matrix",
]

FloatArray = npt.NDArray[np.float64]


class Principal:
    """A body's mass, centre of mass, principal moments and principal axes (as a rotation).

    Attributes:
        mass: the mass.
        com: the centre of mass in the body frame.
        moments: the principal moments of inertia about the centre of mass, ascending.
        axes: the rotation whose columns are the principal axes in the body frame.
    """

    __slots__ = ("axes", "com", "mass", "moments")

    def __init__(self, mass: float, com: FloatArray, moments: FloatArray, axes: FloatArray):
        self.mass = mass
        self.com = com
        self.moments = moments
        self.axes = axes


def principal(inertia: SpatialInertia) -> Principal:
    """Return the principal form of ``inertia`` (the 3x3 inertia about the centre of mass).

    The eigen-decomposition is symmetric (``numpy.linalg.eigh``, moments ascending); each axis is
    signed so that its largest component (the first of equals) is positive, and the last axis
    is flipped when needed to make a proper rotation. A massless body has its centre of mass at
    the origin.
    """
    m = inertia.mass
    if m > 0.0:
        c = inertia.first_moment / m
        S = skew(c)
        # I_O = I_C - m S(c)^2, the parallel-axis theorem in matrix form.
        I_C = inertia.rotational_inertia + m * (S @ S)
    else:
        c = np.zeros(3)
        I_C = np.array(inertia.rotational_inertia)
    I_C = 0.5 * (I_C + I_C.T)
    moments, V = np.linalg.eigh(I_C)
    V = np.array(V)
    for k in range(3):
        col = V[:, k]
        if col[int(np.argmax(np.abs(col)))] < 0.0:
            V[:, k] = -col
    if np.linalg.det(V) < 0.0:
        V[:, 2] = -V[:, 2]
    return Principal(float(m), c, moments, V)


def inertia_from_principal(
    mass: float, com: FloatArray, moments: FloatArray, axes: FloatArray
) -> SpatialInertia:
    """Return the :class:`SpatialInertia` of a principal form (the inverse of :func:`principal`)."""
    I_C = axes @ np.diag(moments) @ axes.T
    return SpatialInertia.from_com(mass, com, 0.5 * (I_C + I_C.T))


def quaternion_from_matrix(R: FloatArray) -> tuple[float, float, float, float]:
    """Return the unit quaternion ``(w, x, y, z)`` of the rotation ``R``, with ``w >= 0``."""
    t = float(np.trace(R))
    if t > 0.0:
        s = 2.0 * np.sqrt(t + 1.0)
        q = np.array(
            [0.25 * s, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s, (R[1, 0] - R[0, 1]) / s]
        )
    else:
        i = int(np.argmax(np.diag(R)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = 2.0 * np.sqrt(max(1.0 + R[i, i] - R[j, j] - R[k, k], 0.0))
        q = np.empty(4)
        q[0] = (R[k, j] - R[j, k]) / s
        q[1 + i] = 0.25 * s
        q[1 + j] = (R[j, i] + R[i, j]) / s
        q[1 + k] = (R[k, i] + R[i, k]) / s
    q /= np.linalg.norm(q)
    if q[0] < 0.0:
        q = -q
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def matrix_from_quaternion(w: float, x: float, y: float, z: float) -> FloatArray:
    """Return the rotation matrix of the quaternion ``(w, x, y, z)`` (normalised first)."""
    q = np.array([w, x, y, z], dtype=np.float64)
    n = float(np.linalg.norm(q))
    if n == 0.0:
        return np.eye(3)
    w, x, y, z = q / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def frame_with_x_along(direction: FloatArray, origin: FloatArray) -> Transform:
    """Return the joint frame at ``origin`` whose X axis is the unit vector ``direction``.

    For an axis in the half space ``x >= 0`` the rotation is the smallest one taking X to
    ``direction`` (about ``X x direction``); otherwise it is the half turn about Z followed by
    the smallest rotation to the half-turned axis, so that the formula never divides by a
    number near zero (``direction = -X`` gives the half turn itself). UsdPhysics joints move
    along X, Y or Z of their frames only, so the writer turns every axis into X this way.
    """
    u = np.asarray(direction, dtype=np.float64)
    u = u / np.linalg.norm(u)
    flip = bool(u[0] < 0.0)
    if flip:
        u = np.array([-u[0], -u[1], u[2]])
    # Rodrigues' formula for the rotation from e_x to u: I + K + K^2 / (1 + c), K = [e_x x u],
    # with c = u_x >= 0 here.
    K = skew(np.array([0.0, -u[2], u[1]]))
    R = np.eye(3) + K + (K @ K) / (1.0 + float(u[0]))
    if flip:
        R = np.diag([-1.0, -1.0, 1.0]) @ R
    return Transform(R, origin)
