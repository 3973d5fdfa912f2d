"""``<origin xyz rpy>``: reading it (deferred, then all at once) beside writing it.

Every joint, shape and sensor of a document has an origin, and building a few hundred small
arrays one by one costs far more than the arithmetic. So :func:`read_origin` only registers the
texts with the record that will hold the transform, and :func:`origin_values` computes every
transform of the document in one vectorised pass. The angles go through ``math.cos`` and
``math.sin`` and every product is the scalar formula's, so the arrays are bitwise those of
:func:`sourced_origin`, which builds the transforms the loader composes itself, and do not
depend on what else the document holds. :func:`write_origin` writes numbers computed from the
transform alone (:mod:`robomodel.urdf._exact`).
"""

from __future__ import annotations

import math
from itertools import repeat
from typing import Any

import numpy as np

from robomodel._arrays import immutable
from robomodel.spatial import Transform, rpy_from_rotation
from robomodel.urdf._document import Reader, fmt3, strict_numbers
from robomodel.urdf._exact import computed_rpy, origin_numbers
from robomodel.urdf._sourced import (
    SourcedTransform,
    Vec3,
    sourced_transform,
    sourced_transforms,
)

__all__ = [
    "IDENTITY_ORIGIN",
    "ZERO3",
    "canonical",
    "origin_values",
    "read_origin",
    "rotations",
    "sourced_origin",
    "write_origin",
]

ZERO3: Vec3 = (0.0, 0.0, 0.0)


def rotations(angles: list[float], n: int) -> Any:
    """Return the ``(n, 3, 3)`` rotations of ``n`` flattened ``(roll, pitch, yaw)`` triples.

    The formulas of :func:`robomodel.spatial.rotation_from_rpy`, elementwise in the same order
    (numpy's elementwise float64 operations round like Python's), with ``math`` trigonometry.
    """
    C = np.array(list(map(math.cos, angles))).reshape(n, 3)
    S = np.array(list(map(math.sin, angles))).reshape(n, 3)
    cr, cp, cy = C[:, 0], C[:, 1], C[:, 2]
    sr, sp, sy = S[:, 0], S[:, 1], S[:, 2]
    R = np.empty((n, 3, 3))
    R[:, 0, 0] = cy * cp
    R[:, 0, 1] = cy * sp * sr - sy * cr
    R[:, 0, 2] = cy * sp * cr + sy * sr
    R[:, 1, 0] = sy * cp
    R[:, 1, 1] = sy * sp * sr + cy * cr
    R[:, 1, 2] = sy * sp * cr - cy * sr
    R[:, 2, 0] = -sp
    R[:, 2, 1] = cp * sr
    R[:, 2, 2] = cp * cr
    return R


def sourced_origin(xyz: Vec3, rpy: Vec3, inverted: bool = False) -> SourcedTransform:
    """Return the transform of ``<origin xyz rpy>``, or its inverse when ``inverted``."""
    r, p, y = rpy
    if (
        r == 0.0
        and p == 0.0
        and y == 0.0
        and rpy == ZERO3
        and not (
            math.copysign(1.0, r) < 0 or math.copysign(1.0, p) < 0 or math.copysign(1.0, y) < 0
        )
    ):
        flat = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, xyz[0], xyz[1], xyz[2]]
    else:
        # rotation_from_rpy's formulas, written into one buffer with the position so that a
        # single array holds the whole transform.
        cr, sr = math.cos(r), math.sin(r)
        cp, sp = math.cos(p), math.sin(p)
        cy, sy = math.cos(y), math.sin(y)
        flat = [
            cy * cp,
            cy * sp * sr - sy * cr,
            cy * sp * cr + sy * sr,
            sy * cp,
            sy * sp * sr + cy * cr,
            sy * sp * cr - cy * sr,
            -sp,
            cp * sr,
            cp * cr,
            xyz[0],
            xyz[1],
            xyz[2],
        ]
    buf = np.array(flat)
    R = buf[:9].reshape(3, 3)
    pos = buf[9:]
    if inverted:
        Rt = R.T.copy()
        R, pos = Rt, -(Rt @ pos)
    R, pos = immutable(R), immutable(pos)
    return sourced_transform(R, pos, (xyz, rpy, inverted))


IDENTITY_ORIGIN = sourced_origin(ZERO3, ZERO3)
"""The transform of an absent ``<origin>`` (shared: records default to it)."""


def canonical(T: Transform) -> SourcedTransform:
    """Return the transform URDF text reproduces for ``T`` (``T`` moved by at most an ulp).

    Used for transforms the loader composes itself (shapes and sensors of fake links), so that
    a loaded model is exactly what writing and reading it again gives.
    """
    rpy = rpy_from_rotation(T.rotation)
    xyz = (float(T.position[0]), float(T.position[1]), float(T.position[2]))
    return sourced_origin(xyz, rpy)


def read_origin(r: Reader, el: Any, what: str, owner: Any) -> None:
    """Register ``<origin>`` ``el``: its transform becomes ``owner.origin`` (see the module).

    ``owner`` keeps its default origin (:data:`IDENTITY_ORIGIN`) when ``el`` gives no numbers.
    """
    xs = el.get("xyz")
    rs = el.get("rpy")
    if xs is None and rs is None:
        return
    if r.eager:
        strict_numbers(r, el, what, "xyz", 3, ZERO3)
        strict_numbers(r, el, what, "rpy", 3, ZERO3)
    r.origin_owners.append(owner)
    texts = r.origin_texts
    texts.append("0 0 0" if xs is None else xs)  # an absent attribute reads as zeros
    texts.append("0 0 0" if rs is None else rs)


def origin_values(U: Any, xyz: list[Vec3], rpy: list[Vec3], ix: list[int]) -> list[Any]:
    """Return the transforms of the registered origins, in registration order.

    ``U`` holds the distinct triples read (one row each), ``ix`` per origin the rows of its
    xyz and rpy (interleaved), ``xyz`` and ``rpy`` the triples themselves.
    """
    n = len(xyz)
    P = U[ix[0::2]]
    # One rotation per distinct rpy text, in order of first use (each row is computed on its
    # own, so the order does not change any value).
    row_of: dict[int, int] = {}
    inverse = [row_of.setdefault(k, len(row_of)) for k in ix[1::2]]
    A = U[list(row_of)]
    R = rotations(A.ravel().tolist(), len(row_of))
    # rpy "0 0 0" is the exact identity (+0.0 where -sin(0) gives -0.0), as in sourced_origin.
    R[~(np.signbit(A).any(axis=1) | (A != 0.0).any(axis=1)), 2, 0] = 0.0
    R, P = immutable(R[inverse]), immutable(P)
    return sourced_transforms(R, P, zip(xyz, rpy, repeat(False, n), strict=True))


def write_origin(T: Transform, invert: bool = False) -> str:
    """Return the ``<origin>`` of ``T`` (of its inverse when ``invert``).

    A function of the value alone (:mod:`robomodel.urdf._exact`): the numbers the loader turns
    back into ``T`` exactly, whatever ``T`` was read from.
    """
    found = origin_numbers(T, invert)
    xyz: Any
    rpy: Any
    if found is not None:
        xyz, rpy = found
    else:
        src = getattr(T, "urdf_origin", None)
        # The numbers read (see robomodel.urdf._exact): where the search fails, which is where
        # equal values can export differently (a frame read from a fake URDF root whose
        # inverse no search reproduces, a few icub-models axes).
        if src is not None and src[2] == invert:
            xyz, rpy = src[0], src[1]
        else:
            U = T.inverse() if invert else T
            xyz, rpy = U.position + 0.0, computed_rpy(U.rotation)
    return f'<origin xyz="{fmt3(xyz)}" rpy="{fmt3(rpy)}"/>'
