"""What the MJCF writer and reader share: the lazy MuJoCo import and quaternion conversions."""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any, TypeGuard

import numpy as np
import numpy.typing as npt

from robomodel._internal.shortest import reprs
from robomodel._internal.xml_text import Part
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


def stacked(arrays: Iterable[FloatArray], *shape: int) -> FloatArray:
    """The float64 arrays ``arrays`` (each of ``shape``) stacked as one ``(k, *shape)`` array.

    What ``np.array(list(arrays))`` gives, bit for bit, read-only: their bytes joined and read
    once, which costs a fraction of numpy's discovery of a list of (frozen) arrays.
    """
    data = b"".join([a.tobytes() for a in arrays])
    return np.frombuffer(data, dtype=np.float64).reshape(-1, *shape)


def number_texts(a: FloatArray) -> list[str]:
    """The texts of the numbers of a float64 array, as MJCF export writes them: the one place.

    ``repr`` is the shortest text that reads back as the same double. ``+ 0.0`` writes a zero
    as "0.0", never "-0.0": a quaternion or position computed from canonical values can still
    come out as -0.0, and export is a function of the value
    (robomodel._internal.arrays.canonical). Every number of a document goes through here,
    most of them in one call (:class:`NumberSlots`), whose thousands of numbers
    :func:`robomodel._internal.shortest.reprs` formats in whole arrays, with the very texts of
    ``repr``. Non-finite numbers come out as "inf", "-inf" and "nan": the callers refuse them.
    """
    return reprs(a + 0.0)


def _refuse_non_finite(text: str) -> None:
    # "inf" and "nan" are the only spellings with an "n" in them.
    if "n" in text:
        raise MJCFError(f"MJCF cannot hold the non-finite numbers in {text!r}")


def num(x: float) -> str:
    return nums((x,))


def nums(xs: Iterable[float]) -> str:
    """The text of a few numbers written at once (see :func:`number_texts`)."""
    text = " ".join(number_texts(np.fromiter(xs, dtype=np.float64)))
    _refuse_non_finite(text)
    return text


class NumberSlots:
    """The numbers of a document's elements, gathered as they are laid out, formatted at once.

    :meth:`add` and :meth:`add_rows` return slots (ints) that stand for the numbers' text in an
    element's attributes (:class:`robomodel._internal.xml_text.TextElement`); :meth:`texts`
    formats every number in one :func:`number_texts` call and returns the text of each slot.
    """

    def __init__(self) -> None:
        self.values: list[float] = []
        self.ends: list[int] = []  # where each slot's numbers end in ``values``

    def add(self, xs: Iterable[float]) -> int:
        """Return the slot of the numbers ``xs``, written with a space between them."""
        self.values += xs
        self.ends.append(len(self.values))
        return len(self.ends) - 1

    def add_rows(self, a: FloatArray) -> range:
        """Return the slots of the rows of a ``(k, n)`` array, one slot per row."""
        k, n = a.shape
        start, first = len(self.values), len(self.ends)
        self.values += a.ravel().tolist()
        self.ends += range(start + n, start + n * k + 1, n)
        return range(first, first + k)

    def texts(self) -> list[str]:
        """The text of every slot, in slot order.

        Raises:
            MJCFError: a number is not finite; the message names the first slot holding one.
        """
        a = np.array(self.values, dtype=np.float64)
        # Each distinct number formatted once (a document repeats its zeros, ones and common
        # offsets: iCub's 2,268 numbers hold 1,646 distinct ones), then gathered back in C.
        distinct, where = np.unique(a + 0.0, return_inverse=True)
        texts = number_texts(distinct)
        if len(a) > 1:
            texts = list(operator.itemgetter(*where.ravel().tolist())(texts))
        elif len(a) == 1:
            texts = [texts[where.ravel()[0]]]
        out: list[str] = []
        start = 0
        for end in self.ends:
            out.append(" ".join(texts[start:end]))
            start = end
        if not np.isfinite(a).all():
            for text in out:
                _refuse_non_finite(text)
        return out


EYE = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
ORIGIN = [0.0, 0.0, 0.0]


def pose_attrs(
    attrs: list[Part], T: Transform, slots: NumberSlots
) -> tuple[list[float], tuple[float, ...] | None]:
    """Append ``pos``/``quat`` of ``T`` (only what is not the identity); return their numbers."""
    p = T.position.tolist()
    if p != ORIGIN:
        attrs += (' pos="', slots.add(p), '"')
    rows = T.rotation.tolist()
    if rows == EYE:
        return p, None
    q = quat_from_rows(rows)
    attrs += (' quat="', slots.add(q), '"')
    return p, q


Pose = tuple[int | None, int | None, bool]
"""A transform as a site or body writes it: the slot of its ``pos`` numbers (``None``: the
origin), of its ``quat`` (``None``: the identity rotation), and whether it is near its body
frame (:func:`near_body_frame`)."""


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

    def pick(x1: FloatArray, x2: FloatArray, x3: FloatArray, x4: FloatArray) -> FloatArray:
        # Each row's value from its branch; every candidate is computed on all rows, each
        # element by the same operations as on the branch's rows alone (elementwise IEEE
        # arithmetic), which is cheaper than gathering and scattering by masks.
        out: FloatArray = np.where(first, x1, np.where(second, x2, np.where(third, x3, x4)))
        return out

    s = pick(1.0 + tr, 1.0 + a - e - i, 1.0 + e - a - i, 1.0 + i - a - e)
    s = 2.0 * np.sqrt(np.maximum(s, 0.0))
    if not (np.isfinite(s).all() and (s > 0.0).all()):
        return None
    quarter = 0.25 * s
    hf, cg, db = (h - f) / s, (c - g) / s, (d - b) / s
    bd, gc, fh = (b + d) / s, (c + g) / s, (f + h) / s
    q = np.stack(
        [
            pick(quarter, hf, cg, db),
            pick(hf, quarter, bd, gc),
            pick(cg, bd, quarter, fh),
            pick(db, gc, fh, quarter),
        ],
        axis=1,
    )
    n = np.sqrt(q[:, 0] * q[:, 0] + q[:, 1] * q[:, 1] + q[:, 2] * q[:, 2] + q[:, 3] * q[:, 3])
    k = np.where(q[:, 0] >= 0.0, 1.0 / n, -1.0 / n)
    out: FloatArray = q * k[:, None]
    return out if np.isfinite(out).all() else None


def poses_written(
    rotations: FloatArray, positions: FloatArray, slots: NumberSlots
) -> list[Pose] | None:
    """Return the :data:`Pose` of stacked ``(k, 3, 3)`` rotations and ``(k, 3)`` positions.

    The numbers are computed as whole arrays and given slots as whole arrays, with the numbers
    of :func:`pose_attrs`; ``None`` if a number is not finite (the caller then writes each pose
    with :func:`pose_attrs`).
    """
    if not (np.isfinite(rotations).all() and np.isfinite(positions).all()):
        return None
    identity = (rotations == np.eye(3)).all(axis=(1, 2))
    Q = quats_from_rotations(rotations)
    if Q is None:
        return None
    at_origin = (positions == 0.0).all(axis=1)
    # near_body_frame on all rows at once (the largest of three columns taken column by column:
    # a reduction along rows of three is far slower).
    aQ, ap = np.abs(Q), np.abs(positions)
    near_rot = identity | (
        (np.abs(Q[:, 0] - 1.0) < SAME_FRAME)
        & (np.maximum(np.maximum(aQ[:, 1], aQ[:, 2]), aQ[:, 3]) < SAME_FRAME)
    )
    near_pos = ~at_origin & (np.maximum(np.maximum(ap[:, 0], ap[:, 1]), ap[:, 2]) < SAME_FRAME)
    near = (near_rot & ~identity) | (near_rot & near_pos)
    # Slots for the rows written only: the positions off the origin, the rotations off the
    # identity, in row order (row k's slot: the first plus the written rows before it).
    pos = slots.add_rows(positions[~at_origin]).start + np.cumsum(~at_origin) - 1
    quat = slots.add_rows(Q[~identity]).start + np.cumsum(~identity) - 1
    return [
        (None if origin else p, None if eye else q, close)
        for origin, eye, close, p, q in zip(
            at_origin.tolist(),
            identity.tolist(),
            near.tolist(),
            pos.tolist(),
            quat.tolist(),
            strict=True,
        )
    ]


def set_pose(attrs: list[Part], pose: Pose) -> None:
    """Append the ``pos``/``quat`` slots of a :data:`Pose` (only what is not the identity)."""
    if pose[0] is not None:
        attrs += (' pos="', pose[0], '"')
    if pose[1] is not None:
        attrs += (' quat="', pose[1], '"')


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
