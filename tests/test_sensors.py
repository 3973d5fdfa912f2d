"""Sensor values: the force/torque sensor's wrench maps (spec §8.3-8.4, T4), replacements,
validation and descriptions; accelerometer and gyroscope value-level predictions."""

from __future__ import annotations

import math

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import transforms

import robomodel as rm
from robomodel.errors import ModelError
from robomodel.model.sensors import (
    SENSOR_TYPE_ORDER,
    Accelerometer,
    Gyroscope,
    SixAxisForceTorqueSensor,
    measurement_size,
    sensor_type_name,
)
from robomodel.model.spatial import Transform, rotation_from_rpy, skew

W = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])


def urdf_ft_sensor(
    *, P: Transform, origin: Transform, frame: str, direction: str, name: str = "ft"
) -> SixAxisForceTorqueSensor:
    """The sensor iDynTree's URDF loader builds (spec §7.6 table), parent 'b', child 'tool'.

    P is the joint's rest parent_H_child, origin the sensor's <origin>.
    """
    if frame == "child":
        first, second = P, Transform.identity()
    elif frame == "parent":
        first, second = Transform.identity(), P.inverse()
    else:
        first, second = P @ origin, origin
    return SixAxisForceTorqueSensor(
        name=name,
        parent_joint="j",
        first_link="b",
        second_link="tool",
        first_link_H_sensor=first,
        second_link_H_sensor=second,
        applied_wrench_link="tool" if direction == "parent_to_child" else "b",
    )


# Spec §11 T4: fixed joint b -> tool with origin xyz (0,0,1) rpy (0,0,pi/2), sensor origin
# xyz (0.1,0,0), frame "sensor", measure_direction "child_to_parent" (iDynTree 15.1 run).
T4_P = Transform.from_rpy_xyz((0, 0, math.pi / 2), (0, 0, 1))
T4_O = Transform.from_translation((0.1, 0, 0))


@pytest.fixture
def t4() -> SixAxisForceTorqueSensor:
    return urdf_ft_sensor(P=T4_P, origin=T4_O, frame="sensor", direction="child_to_parent")


def test_t4_transforms_and_applied_link(t4: SixAxisForceTorqueSensor) -> None:
    assert (t4.first_link, t4.second_link, t4.applied_wrench_link) == ("b", "tool", "b")
    b_H_s = t4.link_H_sensor("b")
    np.testing.assert_allclose(b_H_s.rotation, rotation_from_rpy(0, 0, math.pi / 2), atol=1e-15)
    np.testing.assert_allclose(b_H_s.position, [0, 0.1, 1], atol=1e-15)
    tool_H_s = t4.link_H_sensor("tool")
    np.testing.assert_array_equal(tool_H_s.rotation, np.eye(3))
    np.testing.assert_array_equal(tool_H_s.position, [0.1, 0, 0])


def test_t4_wrench_applied_on_links(t4: SixAxisForceTorqueSensor) -> None:
    # Spec §11 T4 numbers.
    np.testing.assert_allclose(
        t4.wrench_applied_on_link("b", W), [-2, 1, 3, -5.7, 2, 6.2], atol=1e-12
    )
    np.testing.assert_allclose(
        t4.wrench_applied_on_link("tool", W), [-1, -2, -3, -4, -4.7, -6.2], atol=1e-12
    )


def test_t4_matrix_on_tool(t4: SixAxisForceTorqueSensor) -> None:
    # Spec §11 T4: the matrix on tool is -[[I, 0], [skew(0.1, 0, 0), I]].
    expected = -np.block([[np.eye(3), np.zeros((3, 3))], [skew([0.1, 0, 0]), np.eye(3)]])
    np.testing.assert_allclose(t4.wrench_applied_on_link_matrix("tool"), expected, atol=1e-15)


def test_results_are_read_only(t4: SixAxisForceTorqueSensor) -> None:
    for arr in (
        t4.wrench_applied_on_link("b", W),
        t4.wrench_applied_on_link_matrix("b"),
        t4.wrench_applied_on_link_inverse_matrix("b"),
    ):
        with pytest.raises(ValueError, match="read-only"):
            arr[0] = 1.0


# --------------------------------------------------------------------------- properties


@st.composite
def ft_sensors(draw: st.DrawFn) -> SixAxisForceTorqueSensor:
    return SixAxisForceTorqueSensor(
        name="ft",
        parent_joint="j",
        first_link="a",
        second_link="b",
        first_link_H_sensor=draw(transforms()),
        second_link_H_sensor=draw(transforms()),
        applied_wrench_link=draw(st.sampled_from(["a", "b"])),
    )


wrenches = st.lists(st.floats(-100, 100), min_size=6, max_size=6).map(np.array)


@given(ft_sensors(), wrenches, st.sampled_from(["a", "b"]))
def test_matrix_times_measurement_is_wrench_on_link(
    s: SixAxisForceTorqueSensor, w: np.ndarray, link: str
) -> None:
    """The matrix times the measured wrench equals wrench_applied_on_link (spec §8.4)."""
    np.testing.assert_allclose(
        s.wrench_applied_on_link_matrix(link) @ w,
        s.wrench_applied_on_link(link, w),
        atol=1e-10,
    )


@given(ft_sensors(), wrenches, st.sampled_from(["a", "b"]))
def test_inverse_matrix_inverts_the_matrix(
    s: SixAxisForceTorqueSensor, w: np.ndarray, link: str
) -> None:
    """Matrix and inverse matrix multiply to the identity; the inverse recovers the reading."""
    M = s.wrench_applied_on_link_matrix(link)
    Minv = s.wrench_applied_on_link_inverse_matrix(link)
    np.testing.assert_allclose(M @ Minv, np.eye(6), atol=1e-12)
    np.testing.assert_allclose(Minv @ M, np.eye(6), atol=1e-12)
    np.testing.assert_allclose(Minv @ s.wrench_applied_on_link(link, w), w, atol=1e-9)


@given(ft_sensors(), wrenches)
def test_newtons_third_law(s: SixAxisForceTorqueSensor, w: np.ndarray) -> None:
    """The wrenches on the two links are equal and opposite once expressed in the same frame."""
    on_a = s.wrench_applied_on_link("a", w)
    on_b = s.wrench_applied_on_link("b", w)
    a_H_b = s.first_link_H_sensor @ s.second_link_H_sensor.inverse()
    np.testing.assert_allclose(on_a + a_H_b.apply_wrench(on_b), 0.0, atol=1e-9)


@given(ft_sensors(), wrenches)
def test_applied_link_gets_the_measurement_in_its_frame(
    s: SixAxisForceTorqueSensor, w: np.ndarray
) -> None:
    """On the applied link the wrench is the reading moved by link_H_sensor, with a + sign."""
    link = s.applied_wrench_link
    np.testing.assert_allclose(
        s.wrench_applied_on_link(link, w),
        s.link_H_sensor(link).apply_wrench(w),
        atol=1e-12,
    )
    flipped = s.with_applied_wrench_link(s.other_link(link))
    np.testing.assert_allclose(
        flipped.wrench_applied_on_link(link, w), -s.wrench_applied_on_link(link, w), atol=0
    )


@given(ft_sensors(), transforms(), st.sampled_from(["first", "second"]))
def test_with_link_keeps_the_applied_side(
    s: SixAxisForceTorqueSensor, T: Transform, side: str
) -> None:
    """Replacing one end keeps which side the measured wrench is applied on."""
    applied_first = s.applied_wrench_link == s.first_link
    new = s.with_first_link("c", T) if side == "first" else s.with_second_link("c", T)
    assert (new.applied_wrench_link == new.first_link) == applied_first
    assert new.link_H_sensor("c") == T
    assert s.is_link_attached("a") and not new.is_link_attached("a" if side == "first" else "b")


# --------------------------------------------------------------------------- replacements, errors


def test_with_replacements(t4: SixAxisForceTorqueSensor) -> None:
    assert t4.with_name("ft2").name == "ft2"
    assert t4.with_parent_joint("j2").parent_joint == "j2"
    moved = t4.with_first_link("base")
    assert (moved.first_link, moved.applied_wrench_link) == ("base", "base")
    assert moved.first_link_H_sensor == t4.first_link_H_sensor
    assert t4.with_applied_wrench_link("tool").applied_wrench_link == "tool"
    T = Transform.from_translation((1, 2, 3))
    assert t4.with_link_H_sensor("tool", T).second_link_H_sensor == T
    assert t4.with_link_H_sensor("b", T).first_link_H_sensor == T
    # Values never change.
    assert t4 == urdf_ft_sensor(P=T4_P, origin=T4_O, frame="sensor", direction="child_to_parent")


@pytest.mark.parametrize(
    "method",
    [
        lambda s: s.link_H_sensor("hand"),
        lambda s: s.wrench_applied_on_link("hand", W),
        lambda s: s.wrench_applied_on_link_matrix("hand"),
        lambda s: s.wrench_applied_on_link_inverse_matrix("hand"),
        lambda s: s.with_applied_wrench_link("hand"),
        lambda s: s.with_link_H_sensor("hand", Transform()),
        lambda s: s.other_link("hand"),
    ],
)
def test_unattached_link_raises(t4: SixAxisForceTorqueSensor, method: object) -> None:
    assert not t4.is_link_attached("hand")
    with pytest.raises(ModelError, match=r"link 'hand' is not attached to it; use 'b' or 'tool'"):
        method(t4)  # type: ignore[operator]


def test_invalid_sensors_raise(t4: SixAxisForceTorqueSensor) -> None:
    with pytest.raises(ModelError, match="first and second link are both 'b'"):
        t4.with_second_link("b")
    with pytest.raises(ModelError, match="first and second link are both 'tool'"):
        t4.with_first_link("tool")
    with pytest.raises(ModelError, match="applied-wrench link 'x' must be 'b' or 'tool'"):
        attrs.evolve(t4, applied_wrench_link="x")
    with pytest.raises(ModelError, match="non-empty string"):
        t4.with_name("")
    with pytest.raises(ModelError, match="parent joint name must be a non-empty"):
        t4.with_parent_joint("")
    with pytest.raises(ModelError, match="6-vector"):
        t4.wrench_applied_on_link("b", [1, 2, 3])
    with pytest.raises(ModelError, match="link name must be a non-empty"):
        Accelerometer(name="a", link="")
    # The errors are also ValueErrors, for callers catching the builtin.
    with pytest.raises(ValueError):
        t4.link_H_sensor("x")


def test_describe(t4: SixAxisForceTorqueSensor) -> None:
    text = t4.describe()
    assert text.splitlines()[0] == "force/torque sensor 'ft' in joint 'j'"
    assert "measures the wrench that 'tool' applies on 'b'" in text
    assert "b_H_sensor xyz=(0 0.1 1) rpy=(0 0 1.5708)" in text
    assert "tool_H_sensor xyz=(0.1 0 0)" in text
    acc = Accelerometer(
        name="imu", link="head", link_H_sensor=Transform.from_translation((0, 0, 1))
    )
    assert (
        acc.describe()
        == "accelerometer 'imu' on link 'head': head_H_sensor xyz=(0 0 1) rpy=(0 0 0)"
    )
    assert Gyroscope(name="g", link="head").describe().startswith("gyroscope 'g' on link 'head'")


def test_type_names_and_sizes(t4: SixAxisForceTorqueSensor) -> None:
    acc, gyr = Accelerometer(name="a", link="l"), Gyroscope(name="g", link="l")
    assert [sensor_type_name(s) for s in (t4, acc, gyr)] == [
        "force_torque",
        "accelerometer",
        "gyroscope",
    ]
    assert [measurement_size(s) for s in (t4, acc, gyr)] == [6, 3, 3]
    assert (SixAxisForceTorqueSensor, Accelerometer, Gyroscope) == SENSOR_TYPE_ORDER
    assert acc.with_link("m").link == "m" and gyr.with_name("h").name == "h"
    T = Transform.from_translation((1, 0, 0))
    assert acc.with_link_H_sensor(T).link_H_sensor == T == gyr.with_link("m", T).link_H_sensor


# --------------------------------------------------------------------------- link sensors


@given(transforms(), wrenches, wrenches)
def test_accelerometer_reads_the_acceleration_of_its_origin(
    link_H_sensor: Transform, v: np.ndarray, a: np.ndarray
) -> None:
    """The reading is the classical acceleration of the sensor origin, in sensor axes.

    Oracle: for a body twist (v, w) and body acceleration (dv, dw) at the link origin, the
    sensor origin r (link coordinates) has acceleration dv + w x v + dw x r + w x (w x r) in
    link axes; rotate it by sensor_R_link.
    """
    s = Accelerometer(name="a", link="l", link_H_sensor=link_H_sensor)
    r, R = link_H_sensor.position, link_H_sensor.rotation
    lin, w = v[:3] / 10, v[3:] / 10
    dv, dw = a[:3], a[3:]
    expected = R.T @ (dv + np.cross(w, lin) + np.cross(dw, r) + np.cross(w, np.cross(w, r)))
    got = s.predict_measurement(np.concatenate([lin, w]), a)
    np.testing.assert_allclose(got, expected, atol=1e-9 * (1 + np.abs(expected).max()))


@given(transforms(), wrenches)
def test_gyroscope_reads_angular_velocity_in_sensor_axes(
    link_H_sensor: Transform, v: np.ndarray
) -> None:
    """The reading is sensor_R_link @ w, whatever the linear velocity or the sensor offset."""
    s = Gyroscope(name="g", link="l", link_H_sensor=link_H_sensor)
    np.testing.assert_allclose(
        s.predict_measurement(v), link_H_sensor.rotation.T @ v[3:], atol=1e-12
    )


def test_link_sensor_inputs_are_checked() -> None:
    with pytest.raises(ModelError, match="link velocity must be a finite 6-vector"):
        Gyroscope(name="g", link="l").predict_measurement([1, 2, 3])
    with pytest.raises(ModelError, match="proper acceleration must be a finite 6-vector"):
        Accelerometer(name="a", link="l").predict_measurement(np.zeros(6), np.zeros(3))


def test_sensors_are_hashable_values() -> None:
    a = rm.Accelerometer(name="a", link="l", link_H_sensor=Transform.from_translation((1, 0, 0)))
    b = rm.Accelerometer(name="a", link="l", link_H_sensor=Transform.from_translation((1, 0, 0)))
    assert a == b and hash(a) == hash(b) and {a, b} == {a}
