"""The MJCF writer's stacked pose numbers are those of its one-transform functions, bit for bit."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from strategies import models, rotations

import robomodel as rm
from robomodel.formats.mjcf._common import (
    near_body_frame,
    pose_attrs,
    poses_written,
    quat_from_rows,
    quats_from_rotations,
)
from robomodel.formats.mjcf.dump import _Writer
from robomodel.formats.mjcf.options import DumpOptions
from robomodel.model.spatial import Transform

# Rotations a model file holds: multiples of 90 degrees about the axes (each of Shepperd's
# branches, exact zeros and ones), half turns, and arbitrary ones.
_QUARTER = [
    np.array(r, dtype=float)
    for r in (
        [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
        [[0, 0, 1], [0, 1, 0], [-1, 0, 0]],
        [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
    )
]
_AXIS_ALIGNED = st.lists(st.sampled_from(_QUARTER), max_size=4).map(
    lambda ms: np.linalg.multi_dot([np.eye(3), np.eye(3), *ms])
)
ROTATIONS = st.one_of(rotations(), _AXIS_ALIGNED)
POSITIONS = st.one_of(
    st.just(np.zeros(3)),
    st.lists(st.floats(-2.0, 2.0), min_size=3, max_size=3).map(np.array),
    st.lists(st.floats(-1e-5, 1e-5), min_size=3, max_size=3).map(np.array),
)


@given(st.lists(ROTATIONS, min_size=1, max_size=8))
def test_stacked_quaternions_are_the_scalar_ones(Rs: list[np.ndarray]) -> None:
    """quats_from_rotations gives quat_from_rows of each rotation, bit for bit."""
    Q = quats_from_rotations(np.array(Rs))
    assert Q is not None
    for R, q in zip(Rs, Q.tolist(), strict=True):
        assert q == list(quat_from_rows(R.tolist()))


@given(st.lists(st.tuples(ROTATIONS, POSITIONS), min_size=1, max_size=8))
def test_stacked_poses_are_written_as_one_by_one(
    poses: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    """poses_written gives the pos/quat texts pose_attrs writes, and near_body_frame's answer."""
    out = poses_written(np.array([R for R, _ in poses]), np.array([p for _, p in poses]))
    assert out is not None
    for (R, p), (pos, quat, near) in zip(poses, out, strict=True):
        el = ET.Element("site")
        expected_near = near_body_frame(*pose_attrs(el, Transform(R, p)))
        assert (pos, quat, near) == (el.get("pos"), el.get("quat"), expected_near)


@given(models(max_links=8), st.integers(0, 7))
def test_stacked_joint_axes_are_joint_axis(m: rm.Model, base: int) -> None:
    """The writer's axes of all joints at once are Joint.axis(child) of each, bit for bit,
    from any base (joints seen from link2 and reversed ones)."""
    writer = _Writer(m, DumpOptions(base=m.link_names[base % m.n_links]))
    writer.tr = m.traversal(base % m.n_links)
    axes = writer._child_axes()
    for e in writer.tr:
        if e.joint is not None and e.joint in axes:
            expected = m.joints[e.joint].axis(m.link_names[e.link])
            assert axes[e.joint].direction.tobytes() == expected.direction.tobytes()
            assert axes[e.joint].origin.tobytes() == expected.origin.tobytes()
