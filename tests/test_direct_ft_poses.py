"""Direct tests of a force/torque sensor's two poses after its link is lumped or moved.

The sensor sits in the fixed joint ``ft`` between ``a`` and ``b``; ``a`` hangs from ``base`` on
the revolute joint ``j0``. Both orders of the sensor's ends are tried, so that the moved end is
once the first link and once the second. Expected poses are computed by hand below.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import robomodel as rm
from robomodel.transformers import make_urdf_compatible, reduce_model

UNIT = rm.Link(rm.SpatialInertia.from_com(1.0, (0.1, 0.0, 0.0), np.eye(3) * 0.01))
# b in a: a quarter turn about z, then 0.2 along a's z.
a_H_b = rm.Transform.from_rpy_xyz((0.0, 0.0, math.pi / 2), (0.0, 0.0, 0.2))
# The sensor in a: turned about x, off a's origin.
a_H_s = rm.Transform.from_rpy_xyz((0.3, 0.0, 0.0), (0.05, -0.02, 0.1))


def _model(*, j0_rest: rm.Transform, j0_axis: rm.Axis, a_first: bool) -> rm.Model:
    j0 = rm.RevoluteJoint(link1="base", link2="a", link1_H_link2=j0_rest, axis_in_link1=j0_axis)
    ft = rm.FixedJoint(link1="a", link2="b", link1_H_link2=a_H_b)
    m = rm.add_link(rm.Model(), "base", UNIT)
    m = rm.add_joint_and_link(m, "base", "j0", j0, "a", UNIT)
    m = rm.add_joint_and_link(m, "a", "ft", ft, "b", UNIT)
    b_H_s = a_H_b.inverse() @ a_H_s
    ends = [("a", a_H_s), ("b", b_H_s)] if a_first else [("b", b_H_s), ("a", a_H_s)]
    (first, first_H_s), (second, second_H_s) = ends
    sensor = rm.SixAxisForceTorqueSensor(
        name="ft_sensor",
        parent_joint="ft",
        first_link=first,
        second_link=second,
        first_link_H_sensor=first_H_s,
        second_link_H_sensor=second_H_s,
        applied_wrench_link="b",
    )
    return rm.add_sensor(m, sensor)


def _poses(m: rm.Model) -> dict[str, rm.Transform]:
    (s,) = m.sensors
    assert isinstance(s, rm.SixAxisForceTorqueSensor)
    return {s.first_link: s.first_link_H_sensor, s.second_link: s.second_link_H_sensor}


def _assert_pose(got: rm.Transform, want: rm.Transform) -> None:
    np.testing.assert_allclose(got.rotation, want.rotation, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got.position, want.position, rtol=0, atol=1e-12)


@pytest.mark.parametrize("a_first", [True, False], ids=["a first", "a second"])
def test_ft_poses_after_reduce_lumps_the_sensor_link(a_first: bool) -> None:
    """Removing j0 (locked at 0.4 rad) lumps a into base: a's end of the sensor is re-attached
    to base at base_H_a(0.4) @ a_H_s, b's end is unchanged.

    By hand: j0 turns about base's z axis through the origin and its rest pose is a pure
    translation by (0, 0, 1) along that axis, so base_H_a(q) = (Rz(q), (0, 0, 1)).
    """
    m = _model(
        j0_rest=rm.Transform.from_translation((0.0, 0.0, 1.0)),
        j0_axis=rm.Axis((0.0, 0.0, 1.0)),
        a_first=a_first,
    )
    r = reduce_model(m, keep_joints=["ft"], locked_positions={"j0": 0.4})
    (s,) = r.sensors
    assert isinstance(s, rm.SixAxisForceTorqueSensor)
    assert (s.first_link, s.second_link) == (("base", "b") if a_first else ("b", "base"))
    c, sn = math.cos(0.4), math.sin(0.4)
    base_H_a = rm.Transform(np.array([[c, -sn, 0.0], [sn, c, 0.0], [0.0, 0.0, 1.0]]), (0, 0, 1))
    poses = _poses(r)
    _assert_pose(poses["base"], base_H_a @ a_H_s)
    _assert_pose(poses["b"], a_H_b.inverse() @ a_H_s)


@pytest.mark.parametrize("a_first", [True, False], ids=["a first", "a second"])
def test_ft_poses_after_make_urdf_compatible_moves_the_sensor_link(a_first: bool) -> None:
    """make_urdf_compatible moves a's frame onto j0's axis: a's end of the sensor is
    re-expressed in the moved frame, b's end is unchanged.

    By hand: j0's rest pose puts a at (1, 0, 0) in base, turned a quarter turn about z; the axis
    is base's z through (0.3, 0, 0). The closest axis point to a's origin is (0.3, 0, 0) in base,
    a displacement of (-0.7, 0, 0) in base, which is Rz(-pi/2) (-0.7, 0, 0) = (0, 0.7, 0) in a's
    axes. The frame is only translated, so new_a_H_old_a = (I, (0, -0.7, 0)) and the sensor's
    pose in the new a is that translation applied to a_H_s. b (child of a fixed joint) stays.
    """
    m = _model(
        j0_rest=rm.Transform.from_rpy_xyz((0.0, 0.0, math.pi / 2), (1.0, 0.0, 0.0)),
        j0_axis=rm.Axis((0.0, 0.0, 1.0), (0.3, 0.0, 0.0)),
        a_first=a_first,
    )
    u = make_urdf_compatible(m)
    assert "a_original_frame" in u.frame_names  # the frame did move
    poses = _poses(u)
    new_a_H_old_a = rm.Transform.from_translation((0.0, -0.7, 0.0))
    _assert_pose(poses["a"], new_a_H_old_a @ a_H_s)
    _assert_pose(poses["b"], a_H_b.inverse() @ a_H_s)
