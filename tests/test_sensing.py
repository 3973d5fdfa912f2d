"""Sensor predictions on models (spec §8.5, T5) checked against physics computed independently.

The oracle differentiates forward kinematics numerically along the trajectory
``q(t) = q + dq t + ddq t^2 / 2`` (five-point stencils) and applies Newton-Euler to the subtree
beyond the sensor, so it shares nothing with the recursive code but the pose computation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import SLOW, models_with_sensors

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.model.spatial import Transform
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState, forward_kinematics
from robomodel.physics.sensing import (
    check_sensor,
    link_motion,
    predict_ft_measurement,
    predict_measurement,
    predict_sensor_measurements,
    sensor_problems,
)

G = np.array([0.0, 0.0, -9.81])


# --------------------------------------------------------------------------- T5


def two_bodies(direction: str) -> rm.Model:
    """Spec §8.5/T5: two links of mass 2, a fixed joint, an F/T sensor with frame 'child'."""
    body = rm.Link(rm.SpatialInertia.from_com(2.0, (0, 0, 0), 0.01 * np.eye(3)))
    m = rm.add_link(rm.Model(), "parent", body)
    m = rm.add_joint_and_link(
        m, "parent", "j", rm.FixedJoint(link1="parent", link2="child"), "child", body
    )
    ft = rm.SixAxisForceTorqueSensor(
        name="ft",
        parent_joint="j",
        first_link="parent",
        second_link="child",
        applied_wrench_link="child" if direction == "parent_to_child" else "parent",
    )
    return rm.add_sensor(m, ft)


@pytest.mark.parametrize(
    ("direction", "fz"), [("parent_to_child", 19.62), ("child_to_parent", -19.62)]
)
def test_t5_predict_measurement(direction: str, fz: float) -> None:
    # Numbers from spec §8.5 (iDynTree 15.1 run): +-19.62 N on z.
    m = two_bodies(direction)
    dyn = inverse_dynamics(m, JointState.zeros(m), gravity=G)
    got = predict_measurement(m.sensor("ft"), m, m.traversal(), dyn.internal_wrenches)  # type: ignore[arg-type]
    np.testing.assert_allclose(got, [0, 0, fz, 0, 0, 0], atol=1e-12)
    by_name = predict_sensor_measurements(m, JointState.zeros(m), gravity=G)
    np.testing.assert_allclose(by_name["ft"], got, atol=1e-12)


def test_t5_from_the_other_base() -> None:
    """With the child as base the world holds the child, which now carries the parent.

    The traversal from 'child' flips which link is the parent; the sensor still measures the
    wrench on 'child', which is now the parent's weight pulling down.
    """
    m = two_bodies("parent_to_child")
    got = predict_sensor_measurements(m, JointState.zeros(m), gravity=G, base="child")
    np.testing.assert_allclose(got["ft"], [0, 0, -19.62, 0, 0, 0], atol=1e-12)


# --------------------------------------------------------------------------- accelerometer basics


def test_accelerometer_at_rest_reads_minus_gravity_in_sensor_axes() -> None:
    m = rm.add_link(rm.Model(), "base", rm.Link())
    tilt = Transform.from_rpy_xyz((math.pi / 2, 0, 0), (0.3, 0, 0))
    m = rm.add_sensor(m, rm.Accelerometer(name="up", link="base"))
    m = rm.add_sensor(m, rm.Accelerometer(name="tilted", link="base", link_H_sensor=tilt))
    m = rm.add_sensor(m, rm.Gyroscope(name="gyr", link="base", link_H_sensor=tilt))
    got = predict_sensor_measurements(m, JointState.zeros(m))
    np.testing.assert_allclose(got["up"], [0, 0, 9.81], atol=1e-12)
    # Sensor y axis = base z (roll of 90 degrees): the reaction to gravity points along +y.
    np.testing.assert_allclose(got["tilted"], [0, 9.81, 0], atol=1e-12)
    np.testing.assert_allclose(got["gyr"], [0, 0, 0], atol=0)
    assert list(got) == ["up", "tilted", "gyr"]


def test_base_acceleration_adds_to_the_accelerometer() -> None:
    m = rm.add_link(rm.Model(), "base", rm.Link())
    m = rm.add_sensor(m, rm.Accelerometer(name="a", link="base"))
    got = predict_sensor_measurements(
        m, JointState.zeros(m), gravity=(0, 0, 0), base_acceleration=[1, 2, 3, 0, 0, 0]
    )
    np.testing.assert_allclose(got["a"], [1, 2, 3], atol=1e-12)


# --------------------------------------------------------------------------- physics oracle


def _derivatives(
    model: rm.Model, state: JointState, base: str | None = None, h: float = 1e-3
) -> tuple[np.ndarray, ...]:
    """Return (H, dH/dt, d2H/dt2) of every base_H_link along the quadratic joint trajectory."""
    q, dq, ddq = state.q, state.dq, state.ddq
    Hs = [
        forward_kinematics(model, q + dq * t + 0.5 * ddq * t * t, base=base).base_H_link
        for t in (-2 * h, -h, 0.0, h, 2 * h)
    ]
    d1 = (Hs[0] - 8 * Hs[1] + 8 * Hs[3] - Hs[4]) / (12 * h)
    d2 = (-Hs[0] + 16 * Hs[1] - 30 * Hs[2] + 16 * Hs[3] - Hs[4]) / (12 * h * h)
    return Hs[2], d1, d2


def _vee(S: np.ndarray) -> np.ndarray:
    return np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]]) / 2


def subtree_support_wrench(
    model: rm.Model, state: JointState, child: int, gravity: np.ndarray, base: str
) -> np.ndarray:
    """The wrench (base frame, moments about the base origin) that holds up ``child``'s subtree.

    Newton-Euler for the bodies beyond the joint: the rate of change of their momentum minus
    the gravity force on them.
    """
    t = model.traversal(base)
    inside = {child}
    for link, parent in zip(t.links, t.parents, strict=True):
        if parent in inside:
            inside.add(link)
    H, dH, ddH = _derivatives(model, state, base)
    F, tau = np.zeros(3), np.zeros(3)
    for i in inside:
        inertia = model.links[i].inertia
        m, c_local = inertia.mass, inertia.com
        R, dR, ddR = H[i, :3, :3], dH[i, :3, :3], ddH[i, :3, :3]
        c = H[i, :3, 3] + R @ c_local
        ddc = ddH[i, :3, 3] + ddR @ c_local
        w = _vee(dR @ R.T)
        alpha = _vee(ddR @ R.T + dR @ dR.T)
        I_w = R @ inertia.inertia_com @ R.T
        f = m * (ddc - gravity)
        F += f
        tau += np.cross(c, f) + I_w @ alpha + np.cross(w, I_w @ w)
    return np.concatenate([F, tau])


def states(model: rm.Model, moving: bool) -> st.SearchStrategy[JointState]:
    n = model.n_dofs
    values = st.lists(st.floats(-1.5, 1.5), min_size=n, max_size=n)
    if not moving:
        return values.map(lambda q: JointState(q, np.zeros(n), np.zeros(n)))
    return st.builds(JointState, values, values, values)


def _check_subtree_support(data: st.DataObject, m: rm.Model, moving: bool) -> None:
    state = data.draw(states(m, moving))
    base = data.draw(st.sampled_from(list(m.link_names)))
    gravity = np.array([0.5, -1.0, -9.81])
    ft = m.sensor("ft")
    assert isinstance(ft, rm.SixAxisForceTorqueSensor)
    _parent, child = m.joint_parent_child(ft.parent_joint, m.traversal(base))
    child_name = m.link_names[child]
    W_base = subtree_support_wrench(m, state, child, gravity, base)
    base_H_child = forward_kinematics(m, state.q, base=base).base_H_link[child]
    base_H_sensor = Transform.from_matrix(base_H_child) @ ft.link_H_sensor(child_name)
    expected = base_H_sensor.inverse().apply_wrench(W_base)
    if ft.applied_wrench_link != child_name:
        expected = -expected
    got = predict_sensor_measurements(m, state, gravity=gravity, base=base)["ft"]
    scale = 1.0 + float(np.abs(expected).max())
    np.testing.assert_allclose(got, expected, atol=1e-6 * scale)


@given(st.data(), models_with_sensors(), st.booleans())
def test_ft_measurement_supports_the_subtree(
    data: st.DataObject, m: rm.Model, moving: bool
) -> None:
    """The predicted F/T reading equals the wrench that holds up the subtree beyond the joint.

    The base (any link, drawn) is held by the world; the subtree is the side of the sensor's
    joint away from it, and its support wrench is Newton-Euler on its masses, centres of mass
    and (numerically differentiated) accelerations. Static (dq = ddq = 0) and dynamic states.
    A base on the other side of the joint flips which sensor link is the traversal parent.
    """
    _check_subtree_support(data, m, moving)


@given(st.data(), models_with_sensors())
def test_link_sensors_read_the_motion_of_their_frame(data: st.DataObject, m: rm.Model) -> None:
    """Accelerometer = sensor_R_base (d2/dt2 of the sensor origin - g); gyroscope = sensor_R_base w.

    Both from numerically differentiated forward kinematics.
    """
    state = data.draw(states(m, True))
    gravity = np.array([0.0, 0.3, -9.81])
    got = predict_sensor_measurements(m, state, gravity=gravity)
    H, dH, ddH = _derivatives(m, state)
    for name in ("acc", "gyr"):
        s = m.sensor(name)
        assert isinstance(s, rm.Accelerometer | rm.Gyroscope)
        i = m.link_index(s.link)
        R, dR, ddR = H[i, :3, :3], dH[i, :3, :3], ddH[i, :3, :3]
        r, Rs = s.link_H_sensor.position, s.link_H_sensor.rotation
        R_sensor = R @ Rs
        if name == "acc":
            expected = R_sensor.T @ (ddH[i, :3, 3] + ddR @ r - gravity)
        else:
            expected = R_sensor.T @ _vee(dR @ R.T)
        np.testing.assert_allclose(got[name], expected, atol=1e-6 * (1 + np.abs(expected).max()))


# --------------------------------------------------------------------------- link motion


def test_link_motion_of_a_spinning_arm() -> None:
    # A revolute joint about z at the base origin, the arm origin 1 m out along x, q = 0:
    # v = w x r = (0, dq, 0), centripetal acceleration -dq^2 along x (plus ddq along y).
    m = rm.add_link(rm.Model(), "base")
    j = rm.RevoluteJoint(
        link1="base",
        link2="arm",
        axis_in_link1=rm.Axis((0, 0, 1)),
        link1_H_link2=Transform.from_translation((1, 0, 0)),
    )
    m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
    m = rm.add_sensor(m, rm.Accelerometer(name="a", link="arm"))
    state = JointState([0.0], [2.0], [3.0])
    lm = link_motion(m, state, gravity=(0, 0, 0))
    np.testing.assert_allclose(lm.velocity("arm"), [0, 2, 0, 0, 0, 2], atol=1e-12)
    np.testing.assert_allclose(lm.proper_acceleration(1), [0, 3, 0, 0, 0, 3], atol=1e-12)
    got = predict_sensor_measurements(m, state, gravity=(0, 0, 0))["a"]
    np.testing.assert_allclose(got, [-4, 3, 0], atol=1e-12)
    assert repr(lm) == "LinkMotion(base='base')"


# --------------------------------------------------------------------------- checks and errors


def test_sensor_problems_and_check_sensor() -> None:
    m = two_bodies("parent_to_child")
    ft = m.sensor("ft")
    assert isinstance(ft, rm.SixAxisForceTorqueSensor)
    assert sensor_problems(m, ft) == ()
    assert check_sensor(m, ft) is ft
    with pytest.raises(ModelError, match="the model has no joint 'jj'"):
        check_sensor(m, ft.with_parent_joint("jj"))
    with pytest.raises(ModelError, match="the model has no link 'hand'"):
        check_sensor(m, ft.with_second_link("hand"))
    shifted = ft.with_link_H_sensor("child", Transform.from_translation((0, 0, 0.5)))
    with pytest.raises(ModelError, match=r"differs from the rest transform of joint 'j' by 0\.5"):
        check_sensor(m, shifted)
    assert check_sensor(m, shifted, atol=1.0) is shifted
    m2 = rm.add_frame(m, "child", "imu_frame")
    with pytest.raises(ModelError, match="'imu_frame' is an additional frame: attach"):
        check_sensor(m2, rm.Accelerometer(name="a", link="imu_frame"))
    with pytest.raises(ModelError, match="gyroscope 'g': the model has no link 'x'"):
        check_sensor(m2, rm.Gyroscope(name="g", link="x"))


def test_ft_sensor_links_must_be_the_joint_ends() -> None:
    m = rm.add_link(rm.Model(), "a")
    m = rm.add_joint_and_link(m, "a", "j1", rm.FixedJoint(link1="a", link2="b"), "b", rm.Link())
    m = rm.add_joint_and_link(m, "b", "j2", rm.FixedJoint(link1="b", link2="c"), "c", rm.Link())
    ft = rm.SixAxisForceTorqueSensor(
        name="ft", parent_joint="j1", first_link="a", second_link="c", applied_wrench_link="c"
    )
    with pytest.raises(ModelError, match="are not the two ends of joint 'j1'"):
        check_sensor(m, ft)
    W = np.zeros((3, 6))
    with pytest.raises(ModelError, match="are not parent and child in the traversal from 'a'"):
        predict_measurement(ft, m, m.traversal(), W)
    good = ft.with_second_link("b")
    with pytest.raises(ModelError, match=r"internal_wrenches must have shape \(3, 6\)"):
        predict_measurement(good, m, m.traversal(), np.zeros((2, 6)))
    with pytest.raises(UnknownNameError, match="no link named 'zz'"):
        predict_measurement(good.with_first_link("zz"), m, m.traversal(), W)


def test_prediction_inputs_are_checked() -> None:
    m = two_bodies("parent_to_child")
    z = JointState.zeros(m)
    with pytest.raises(ModelError, match="gravity must be a finite 3-vector"):
        predict_sensor_measurements(m, z, gravity=(0, 9.81))
    with pytest.raises(ModelError, match="base_acceleration"):
        predict_sensor_measurements(m, z, base_acceleration=(0, 0, 1))
    with pytest.raises(ModelError, match="positions"):
        link_motion(m, JointState([1.0], [0.0], [0.0]))
    split = rm.add_link(m, "loose")
    with pytest.raises(ModelError, match=r"\['loose'\] are not"):
        link_motion(split, JointState.zeros(split))
    with pytest.raises(UnknownNameError):
        predict_sensor_measurements(m, z, base="nope")


def test_external_wrench_on_the_subtree_is_measured() -> None:
    """Pushing the child up with its own weight empties the sensor."""
    m = two_bodies("parent_to_child")
    got = predict_sensor_measurements(
        m, JointState.zeros(m), gravity=G, external_wrenches={"child": [0, 0, 19.62, 0, 0, 0]}
    )
    np.testing.assert_allclose(got["ft"], 0.0, atol=1e-12)


@pytest.mark.slow
@SLOW
@given(st.data(), models_with_sensors(max_links=10), st.booleans())
def test_ft_measurement_supports_the_subtree_slow(
    data: st.DataObject, m: rm.Model, moving: bool
) -> None:
    """The subtree-support property above, on bigger trees and many more examples."""
    _check_subtree_support(data, m, moving)


# --------------------------------------------------------------------------- one call per sensor


@given(st.data(), models_with_sensors())
def test_predict_ft_measurement_is_the_multi_call_path(data: st.DataObject, m: rm.Model) -> None:
    """predict_ft_measurement(m, name, state, ...) equals predict_measurement on the internal
    wrenches of inverse_dynamics with the same base (and its traversal), and the entry of
    predict_sensor_measurements, for any base, base motion and external wrenches."""
    state = data.draw(states(m, True))
    base = data.draw(st.sampled_from(list(m.link_names)))
    six = st.lists(st.floats(-2, 2), min_size=6, max_size=6).map(np.array)
    kw = {
        "base": base,
        "gravity": np.array([0.5, -1.0, -9.81]),
        "base_acceleration": data.draw(six),
        "base_velocity": data.draw(st.none() | six),
        "external_wrenches": {data.draw(st.sampled_from(list(m.link_names))): data.draw(six)},
    }
    everything = predict_sensor_measurements(m, state, **kw)
    dyn = inverse_dynamics(m, state, **kw)
    for s in m.sensors_of_type(rm.SixAxisForceTorqueSensor):
        got = predict_ft_measurement(m, s.name, state, **kw)
        assert not got.flags.writeable
        multi = predict_measurement(s, m, m.traversal(base), dyn.internal_wrenches)  # type: ignore[arg-type]
        np.testing.assert_allclose(got, multi, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(got, everything[s.name])


def test_predict_ft_measurement_errors() -> None:
    """Unknown names, non-names and link sensors are refused, saying what to use instead."""
    m = rm.add_sensor(two_bodies("child_to_parent"), rm.Accelerometer(name="acc", link="child"))
    state = JointState.zeros(m)
    np.testing.assert_allclose(
        predict_ft_measurement(m, "ft", state), predict_sensor_measurements(m, state)["ft"]
    )
    with pytest.raises(UnknownNameError, match="'fx'"):
        predict_ft_measurement(m, "fx", state)
    with pytest.raises(ArgumentError, match="accelerometer"):
        predict_ft_measurement(m, "acc", state)
    with pytest.raises(ArgumentError, match="name of a force/torque sensor"):
        predict_ft_measurement(m, 0, state)  # type: ignore[arg-type]
