"""What the MJCF writer and reader share: the lazy MuJoCo import and quaternion conversions."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from typing import Any, TypeGuard

import numpy as np
import numpy.typing as npt

from robomodel.errors import MJCFError, ModelError, MujocoNotInstalledError
from robomodel.model.joints import PrismaticJoint, RevoluteJoint
from robomodel.model.spatial import Transform

FloatArray = npt.NDArray[np.float64]

METADATA_NAME = "robomodel"
"""The name of the ``<custom><text>`` element holding robomodel's metadata."""


def mujoco() -> Any:
    """Return the ``mujoco`` module, imported on first use (it is an optional extra).

    Raises:
        MujocoNotInstalledError: ``mujoco`` is not installed.
    """
    try:
        import mujoco as mj  # type: ignore[import-untyped]
    except ImportError as exc:
        raise MujocoNotInstalledError(
            "robomodel.formats.mjcf needs MuJoCo to compile MJCF; install it with "
            "pip install 'robomodel[mujoco]'",
            package="mujoco",
            extra="mujoco",
        ) from exc
    return mj


def quat_from_rotation(R: npt.ArrayLike) -> tuple[float, float, float, float]:
    """Return the unit quaternion ``(w, x, y, z)`` of a rotation matrix (MuJoCo's order), w >= 0.

    Shepperd's method: the largest of the four squared components is computed directly, so the
    division never loses precision. Plain floats: this runs once per body, site and inertia.
    """
    return quat_from_rows(np.asarray(R, dtype=np.float64).tolist())


def quat_from_rows(rows: list[list[float]]) -> tuple[float, float, float, float]:
    """:func:`quat_from_rotation` of a rotation given as three lists of floats."""
    (a, b, c), (d, e, f), (g, h, i) = rows
    tr = a + e + i
    big = max(tr, a, e, i)
    if big == tr:
        s = 2.0 * math.sqrt(max(1.0 + tr, 0.0))
        q = (0.25 * s, (h - f) / s, (c - g) / s, (d - b) / s)
    elif big == a:
        s = 2.0 * math.sqrt(max(1.0 + a - e - i, 0.0))
        q = ((h - f) / s, 0.25 * s, (b + d) / s, (c + g) / s)
    elif big == e:
        s = 2.0 * math.sqrt(max(1.0 + e - a - i, 0.0))
        q = ((c - g) / s, (b + d) / s, 0.25 * s, (f + h) / s)
    else:
        s = 2.0 * math.sqrt(max(1.0 + i - a - e, 0.0))
        q = ((d - b) / s, (c + g) / s, (f + h) / s, 0.25 * s)
    n = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    k = 1.0 / n if q[0] >= 0.0 else -1.0 / n
    return (q[0] * k, q[1] * k, q[2] * k, q[3] * k)


def rotation_from_quat(q: npt.ArrayLike) -> FloatArray:
    """Return the rotation matrix of a quaternion ``(w, x, y, z)`` (normalised first)."""
    w, x, y, z = np.asarray(q, dtype=np.float64) / np.linalg.norm(np.asarray(q, dtype=np.float64))
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def rotations_from_quats(q: npt.ArrayLike) -> FloatArray:
    """Return the ``(N, 3, 3)`` rotation matrices of ``(N, 4)`` quaternions (normalised first)."""
    a = np.asarray(q, dtype=np.float64).reshape(-1, 4)
    n = np.linalg.norm(a, axis=1)
    a = a / np.where(n > 0.0, n, 1.0)[:, None]
    w, x, y, z = a.T
    out = np.empty((len(a), 3, 3))
    out[:, 0, 0] = 1 - 2 * (y * y + z * z)
    out[:, 0, 1] = 2 * (x * y - w * z)
    out[:, 0, 2] = 2 * (x * z + w * y)
    out[:, 1, 0] = 2 * (x * y + w * z)
    out[:, 1, 1] = 1 - 2 * (x * x + z * z)
    out[:, 1, 2] = 2 * (y * z - w * x)
    out[:, 2, 0] = 2 * (x * z - w * y)
    out[:, 2, 1] = 2 * (y * z + w * x)
    out[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return out


def num(x: float) -> str:
    return nums((x,))


def nums(xs: Iterable[float]) -> str:
    # repr is the shortest text that reads back as the same double; "inf" and "nan" are the
    # only spellings with an "n" in them. ``+ 0.0`` writes a zero as "0.0", never "-0.0": a
    # quaternion or position computed from canonical values can still come out as -0.0, and
    # export is a function of the value (robomodel._internal.arrays.canonical).
    text = " ".join([repr(float(x) + 0.0) for x in xs])
    if "n" in text:
        raise MJCFError(f"MJCF cannot hold the non-finite numbers in {text!r}")
    return text


EYE = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
ORIGIN = [0.0, 0.0, 0.0]


def pose_attrs(el: ET.Element, T: Transform) -> tuple[list[float], tuple[float, ...] | None]:
    """Write ``pos``/``quat`` of ``T`` (only what is not the identity); return them."""
    p = T.position.tolist()
    if p != ORIGIN:
        el.set("pos", nums(p))
    rows = T.rotation.tolist()
    if rows == EYE:
        return p, None
    q = quat_from_rows(rows)
    el.set("quat", nums(q))
    return p, q


Pose = tuple[str | None, str | None, bool]
"""A transform as a site or body writes it: its ``pos`` text (``None``: the origin), ``quat``
text (``None``: the identity rotation), and whether it is near its body frame
(:func:`near_body_frame`)."""


def quats_from_rotations(R: FloatArray) -> FloatArray | None:
    """:func:`quat_from_rows` of stacked ``(k, 3, 3)`` rotations, as ``(k, 4)``, bit for bit.

    Every branch of Shepperd's method is evaluated on all rows with the same operations in the
    same order as the scalar function (IEEE arithmetic and square roots give the same doubles)
    and each row takes the branch the scalar function takes. ``None`` when a row would divide
    by zero or is not finite: the caller then goes row by row.
    """
    a, b, c = R[:, 0, 0], R[:, 0, 1], R[:, 0, 2]
    d, e, f = R[:, 1, 0], R[:, 1, 1], R[:, 1, 2]
    g, h, i = R[:, 2, 0], R[:, 2, 1], R[:, 2, 2]
    tr = a + e + i
    big = np.maximum(np.maximum(np.maximum(tr, a), e), i)
    first = big == tr
    second = ~first & (big == a)
    third = ~first & ~second & (big == e)
    fourth = ~first & ~second & ~third
    s = np.empty_like(tr)
    s[first] = (1.0 + tr)[first]
    s[second] = (1.0 + a - e - i)[second]
    s[third] = (1.0 + e - a - i)[third]
    s[fourth] = (1.0 + i - a - e)[fourth]
    s = 2.0 * np.sqrt(np.maximum(s, 0.0))
    if not (np.isfinite(s).all() and (s > 0.0).all()):
        return None
    q = np.empty((len(tr), 4))
    quarter = 0.25 * s
    for rows, terms in (
        (first, (None, h - f, c - g, d - b)),
        (second, (h - f, None, b + d, c + g)),
        (third, (c - g, b + d, None, f + h)),
        (fourth, (d - b, c + g, f + h, None)),
    ):
        for col, t in enumerate(terms):
            q[rows, col] = quarter[rows] if t is None else t[rows] / s[rows]
    n = np.sqrt(q[:, 0] * q[:, 0] + q[:, 1] * q[:, 1] + q[:, 2] * q[:, 2] + q[:, 3] * q[:, 3])
    k = np.where(q[:, 0] >= 0.0, 1.0 / n, -1.0 / n)
    out: FloatArray = q * k[:, None]
    return out if np.isfinite(out).all() else None


def poses_written(rotations: FloatArray, positions: FloatArray) -> list[Pose] | None:
    """Return the :data:`Pose` of stacked ``(k, 3, 3)`` rotations and ``(k, 3)`` positions.

    The numbers are computed and formatted as whole arrays, with the texts of
    :func:`pose_attrs`; ``None`` if a number is not finite (the caller then writes each pose
    with :func:`pose_attrs`, which names it).
    """
    if not (np.isfinite(rotations).all() and np.isfinite(positions).all()):
        return None
    identity = (rotations == np.eye(3)).all(axis=(1, 2))
    Q = quats_from_rotations(rotations)
    if Q is None:
        return None
    at_origin = (positions == 0.0).all(axis=1)
    # near_body_frame on all rows at once.
    near_rot = identity | (
        (np.abs(Q[:, 0] - 1.0) < SAME_FRAME) & (np.abs(Q[:, 1:]).max(axis=1) < SAME_FRAME)
    )
    near_pos = ~at_origin & (np.abs(positions).max(axis=1) < SAME_FRAME)
    near = (near_rot & ~identity) | (near_rot & near_pos)
    out: list[Pose] = []
    for origin, eye, close, p, q in zip(
        at_origin.tolist(),
        identity.tolist(),
        near.tolist(),
        (positions + 0.0).tolist(),
        (Q + 0.0).tolist(),
        strict=True,
    ):
        out.append(
            (
                None if origin else " ".join(map(repr, p)),
                None if eye else " ".join(map(repr, q)),
                close,
            )
        )
    return out


def set_pose(el: ET.Element, pose: Pose) -> None:
    """Write the ``pos``/``quat`` texts of a :data:`Pose` (only what is not the identity)."""
    if pose[0] is not None:
        el.set("pos", pose[0])
    if pose[1] is not None:
        el.set("quat", pose[1])


SAME_FRAME = 1e-5
"""Ten times MuJoCo's tolerance for treating a site or an inertial frame as its body frame."""


def near_body_frame(pos: list[float], quat: tuple[float, ...] | None) -> bool:
    """Whether MuJoCo may snap a frame onto its body frame though it differs from it.

    MuJoCo's "same frame" shortcut compares the rotation with a tolerance whatever the
    position, and the position with a tolerance when the rotation matches. ``quat`` is
    ``None`` for an exact identity rotation.
    """
    near_rot = quat is None or (
        abs(quat[0] - 1.0) < SAME_FRAME and max(abs(x) for x in quat[1:]) < SAME_FRAME
    )
    near_pos = pos != ORIGIN and max(abs(x) for x in pos) < SAME_FRAME
    return (near_rot and quat is not None) or (near_rot and near_pos)


def pose(pos: Any, quat: Any) -> Transform:
    """Return the transform of a MuJoCo position and quaternion ``(w, x, y, z)``."""
    return Transform(rotation_from_quat(quat), np.asarray(pos, dtype=np.float64))


def moves(joint: object) -> TypeGuard[RevoluteJoint | PrismaticJoint]:
    """Whether ``joint`` is a revolute or prismatic joint."""
    return isinstance(joint, RevoluteJoint | PrismaticJoint)


def merged_links(data: object, n: int, taken: set[str]) -> list[tuple[str, Transform]] | None:
    """The names and body-relative frames of the ``n`` links merged into a body, if recorded."""
    if not isinstance(data, list) or len(data) != n:
        return None
    out = []
    for item in data:
        try:
            name, numbers = item
            v = np.asarray(numbers, dtype=np.float64).reshape(12)
        except (TypeError, ValueError):
            return None
        if not isinstance(name, str) or name in taken:
            return None
        # A robomodel value must be what its type says: a frame whose rotation is not a
        # rotation (a scaling, a shear, a mirror) is refused rather than carried into the model,
        # by the one rotation rule of every transform.
        try:
            T = Transform(v[3:].reshape(3, 3), v[:3])
        except ModelError as e:
            raise MJCFError(
                f"the frame of merged link {name!r} is not a rigid transform ({e}); fix or "
                "remove the entry",
                element=f'<custom><text name="{METADATA_NAME}">: "merged"',
            ) from None
        out.append((name, T))
    return out
