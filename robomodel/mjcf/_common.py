"""What the MJCF writer and reader share: the lazy MuJoCo import and quaternion conversions."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from robomodel.errors import RobomodelError

FloatArray = npt.NDArray[np.float64]

METADATA_NAME = "robomodel"
"""The name of the ``<custom><text>`` element holding robomodel's metadata."""


class MujocoNotInstalledError(RobomodelError, ImportError):
    """The optional ``mujoco`` package is needed and missing."""


def mujoco() -> Any:
    """Return the ``mujoco`` module, imported on first use (it is an optional extra).

    Raises:
        MujocoNotInstalledError: ``mujoco`` is not installed.
    """
    try:
        import mujoco as mj  # type: ignore[import-untyped]
    except ImportError as exc:
        raise MujocoNotInstalledError(
            "robomodel.mjcf needs MuJoCo to compile MJCF; install it with "
            "pip install 'robomodel[mujoco]'"
        ) from exc
    return mj


class MJCFError(RobomodelError, ValueError):
    """MuJoCo refused an MJCF document, or a model cannot be written as MJCF."""


def quat_from_rotation(R: FloatArray) -> FloatArray:
    """Return the unit quaternion ``(w, x, y, z)`` of a rotation matrix (MuJoCo's order).

    Shepperd's method: the largest of the four squared components is computed directly, so the
    division never loses precision.
    """
    m = np.asarray(R, dtype=np.float64)
    tr = m[0, 0] + m[1, 1] + m[2, 2]
    k = int(np.argmax([tr, m[0, 0], m[1, 1], m[2, 2]]))
    if k == 0:
        s = 2.0 * math.sqrt(max(1.0 + tr, 0.0))
        q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
    elif k == 1:
        s = 2.0 * math.sqrt(max(1.0 + m[0, 0] - m[1, 1] - m[2, 2], 0.0))
        q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
    elif k == 2:
        s = 2.0 * math.sqrt(max(1.0 + m[1, 1] - m[0, 0] - m[2, 2], 0.0))
        q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
    else:
        s = 2.0 * math.sqrt(max(1.0 + m[2, 2] - m[0, 0] - m[1, 1], 0.0))
        q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
    out = np.array(q, dtype=np.float64)
    out /= np.linalg.norm(out)
    return out if out[0] >= 0.0 else -out


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
