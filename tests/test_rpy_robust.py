"""Roll-pitch-yaw angles of a rotation, exact to round-off at and near the gimbal singularities.

``rpy_from_rotation`` gives iDynTree's ``asRPY`` angles bit for bit where they are accurate and
well-conditioned angles elsewhere (tests/IDYNTREE_SPEC_CODES.md, R1). The bound checked here
is the matrix error ``max |Rz(y) Ry(p) Rx(r) - R|`` of the angles; the oracles are Pinocchio's
``matrixToRpy`` (the same bound), iDynTree's ``asRPY`` (the same bits where it is accurate),
MuJoCo's own quaternion-to-matrix conversion of every body, geom and site of gymnasium's MJCF
assets, and the icub-models robots through URDF -> MJCF -> URDF.
"""

from __future__ import annotations

import glob
import math
import os
import warnings

import icub_models
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SLOW

from robomodel.formats import mjcf, urdf
from robomodel.model.spatial import (
    RPY_IDYNTREE_MIN_COS,
    RPY_TOLERANCE,
    rotation_from_rpy,
    rpy_from_rotation,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # SWIG types warn on import
    import idyntree.bindings as idt
    import pinocchio

BOUND = 4e-15
"""The largest matrix error allowed (observed: under 1.6e-15, as Pinocchio's)."""

angles = st.floats(-math.pi, math.pi)
# How far the pitch is from +-pi/2: log-uniform over 1e-16 .. 1e-6, and exactly 0.
gaps = st.one_of(st.just(0.0), st.floats(-16.0, -6.0).map(lambda e: 10.0**e))
signs = st.sampled_from([1.0, -1.0])


def error(R: np.ndarray, rpy: object) -> float:
    """The matrix error of angles ``rpy`` against ``R``."""
    r, p, y = (float(v) for v in rpy)  # type: ignore[attr-defined]
    return float(np.abs(rotation_from_rpy(r, p, y) - R).max())


def from_quaternion(w: float, x: float, y: float, z: float) -> np.ndarray:
    """The rotation of a quaternion, as MJCF readers compute it (MuJoCo's ``mju_quat2Mat``)."""
    q = np.array([w, x, y, z]) / math.sqrt(w * w + x * x + y * y + z * z)
    out = np.zeros(9)
    import mujoco

    mujoco.mju_quat2Mat(out, q)
    return out.reshape(3, 3)


def quaternion_of_rpy(r: float, p: float, y: float) -> tuple[float, float, float, float]:
    """The quaternion ``(w, x, y, z)`` of ``Rz(y) Ry(p) Rx(r)`` (half-angle products)."""
    cr, sr = math.cos(r / 2), math.sin(r / 2)
    cp, sp = math.cos(p / 2), math.sin(p / 2)
    cy, sy = math.cos(y / 2), math.sin(y / 2)
    return (
        cr * cp * cy + sr * sp * sy,
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
    )


def check(R: np.ndarray) -> None:
    rpy = rpy_from_rotation(R)
    r, p, y = rpy
    assert (
        -math.pi <= r <= math.pi and -math.pi / 2 <= p <= math.pi / 2 and -math.pi <= y <= math.pi
    )
    assert error(R, rpy) < BOUND
    # Pinocchio's angles give the same rotation to the same bound (the oracle agrees).
    assert error(R, pinocchio.rpy.matrixToRpy(R)) < BOUND


# ---------------------------------------------------------------------------- near +-90 degrees
@settings(max_examples=300)
@given(angles, angles, gaps, signs)
def test_rpy_near_the_singularity_is_exact_to_round_off(
    roll: float, yaw: float, gap: float, sign: float
) -> None:
    """Within 1e-16..1e-6 of pitch = +-pi/2 (and at it), both for the rotation of angles and
    for the rotation of their quaternion (MJCF's form), the angles give the rotation within
    4e-15, in the documented ranges; Pinocchio's angles too."""
    pitch = sign * (math.pi / 2 - gap)
    check(rotation_from_rpy(roll, pitch, yaw))
    check(from_quaternion(*quaternion_of_rpy(roll, pitch, yaw)))


@pytest.mark.slow
@SLOW
@given(angles, angles, gaps, signs)
def test_rpy_near_the_singularity_slow(roll: float, yaw: float, gap: float, sign: float) -> None:
    """The property above, with more examples."""
    test_rpy_near_the_singularity_is_exact_to_round_off.hypothesis.inner_test(  # type: ignore[attr-defined]
        roll, yaw, gap, sign
    )


@settings(max_examples=300)
@given(st.tuples(*[st.floats(-1.0, 1.0)] * 4).filter(lambda q: sum(v * v for v in q) > 1e-6))
def test_rpy_of_any_rotation_is_exact_to_round_off(q: tuple[float, float, float, float]) -> None:
    """Any rotation (from a quaternion): the angles give it within 4e-15; Pinocchio's too."""
    check(from_quaternion(*q))


def test_the_errors_the_old_rule_made_are_gone() -> None:
    """iDynTree's rule gives angles off by 8.5e-7 at pitch pi/2 - 1e-9 and by up to 2 within
    1e-15 of it (the rotation of a quaternion); these angles are exact to round-off."""
    for gap in (1e-9, 1e-13, 1e-15, 0.0):
        R = from_quaternion(*quaternion_of_rpy(0.7, math.pi / 2 - gap, -1.1))
        assert error(R, rpy_from_rotation(R)) < BOUND


# ---------------------------------------------------------------------------- iDynTree's bits
@pytest.mark.reference
@settings(max_examples=300)
@given(angles, st.floats(-math.pi / 2, math.pi / 2), angles)
def test_rpy_is_idyntrees_where_idyntree_is_accurate(roll: float, pitch: float, yaw: float) -> None:
    """Where cos(pitch) >= 0.5, the angles are iDynTree's ``asRPY`` bit for bit; elsewhere they
    are iDynTree's whenever iDynTree's are within 2e-15, else more accurate."""
    R = rotation_from_rpy(roll, pitch, yaw)
    ours = rpy_from_rotation(R)
    theirs = tuple(float(v) for v in idt.Rotation(R).asRPY().toNumPy())
    if math.hypot(R[2, 1], R[2, 2]) >= RPY_IDYNTREE_MIN_COS or error(R, theirs) <= RPY_TOLERANCE:
        assert np.array([ours]).tobytes() == np.array([theirs]).tobytes()
    else:
        assert error(R, ours) < error(R, theirs)


# ---------------------------------------------------------------------------- real files
ASSETS = sorted(
    glob.glob(
        os.path.join(
            os.path.dirname(__import__("gymnasium").__file__), "envs", "mujoco", "assets", "*.xml"
        )
    )
)


@pytest.mark.parametrize("path", ASSETS, ids=os.path.basename)
def test_rpy_of_every_rotation_of_gymnasiums_mjcf_assets(path: str) -> None:
    """Every rotation of a gymnasium MJCF asset: the transforms robomodel's MJCF reader builds,
    and the orientation MuJoCo compiles for every body, geom and site (its quaternions turned
    into matrices by MuJoCo itself; capsules given by ``fromto`` lie at pitch +-pi/2)."""
    import mujoco

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # what MJCF cannot carry over is reported by warnings
        model = mjcf.load(path)
    Ts = [j.link1_H_link2 for j in model.joints] + [f.link_H_frame for f in model.frames]
    Ts += [s.link_H_geometry for shapes in (*model.visuals, *model.collisions) for s in shapes]
    rotations = [T.rotation for T in Ts]
    compiled = mujoco.MjModel.from_xml_path(path)
    for quats in (compiled.body_quat, compiled.geom_quat, compiled.site_quat):
        rotations += [from_quaternion(*q) for q in quats]
    assert rotations
    near = 0
    for R in rotations:
        check(R)
        near += abs(abs(R[2, 0]) - 1.0) < 1e-6
    if os.path.basename(path) == "pusher.xml":
        assert near > 0  # capsules along x: the singular case is exercised


ICUB = sorted(icub_models.get_robot_names())
FAST = {"iCubGazeboV2_7", "iCubGenova04", "left_hand_mk3"}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[] if n in FAST else [pytest.mark.slow]) for n in ICUB]
)
def test_icub_urdf_to_mjcf_to_urdf_reads_back(name: str) -> None:
    """URDF -> MJCF -> URDF of every icub-models robot reads back: the rpy written beside
    ``robomodel:rotation`` (a rotation from MJCF's quaternions, which no rpy of doubles gives
    exactly) is that rotation to round-off, so the reader's 1e-6 consistency check passes; the
    URDF text reads back to the very model it was written from."""
    model = urdf.load(icub_models.get_model_file(name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # MJCF cannot carry everything (reported)
        from_mjcf = mjcf.loads(mjcf.dumps(model))
    text = urdf.dumps(from_mjcf)
    back = urdf.loads(text)
    assert back == from_mjcf
