"""Sensors against iDynTree 15.1: the icub-models sensor lists, predicted measurements (F/T,
accelerometers, gyroscopes) on every icub-models robot and on random trees, T4 end to end, and
the §8.9 invariants before and after reduction."""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from idyntree_oracle import add_sensors_to_idt as add_sensors_to_idyntree
from idyntree_oracle import idt_predict
from idyntree_oracle import load_idt as load_idyntree
from idyntree_oracle import model_to_idt as to_idyntree
from idyntree_oracle import sensors_from_idt as sensors_from_idyntree
from idyntree_oracle import transform_from_idt as rm_transform
from strategies import models_with_sensors

import robomodel as rm
from robomodel.formats.urdf import load, loads
from robomodel.physics.kinematics import JointState
from robomodel.physics.sensing import (
    predict_ft_measurement,
    predict_sensor_measurements,
    sensor_problems,
)
from robomodel.transformers import reduce_model

with warnings.catch_warnings():
    # SWIG's types warn (DeprecationWarning) while idyntree loads; under pytest's
    # filterwarnings=error that warning is raised inside the extension's init and crashes it.
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

pytestmark = pytest.mark.reference

ROBOTS = sorted(icub_models.get_robot_names())
WITH_SENSORS = [r for r in ROBOTS if r not in ("left_hand_mk3", "left_wrist_mk2")]
G = np.array([0.0, 0.0, -9.81])


@functools.cache
def robot(name: str) -> tuple[rm.Model, Any]:
    """The robot through robomodel's URDF loader, and iDynTree's model of the same file."""
    path = str(icub_models.get_model_file(name))
    return load(path), load_idyntree(path)


def _same_transform(a: rm.Transform, b: rm.Transform, atol: float = 1e-12) -> bool:
    return bool(
        np.allclose(a.rotation, b.rotation, rtol=0, atol=atol)
        and np.allclose(a.position, b.position, rtol=0, atol=atol)
    )


# --------------------------------------------------------------------------- sensor lists


@pytest.mark.parametrize("name", ROBOTS)
def test_icub_sensor_lists_match_idyntree(name: str) -> None:
    m, im = robot(name)
    ref = sensors_from_idyntree(im)
    # iDynTree lists sensors type by type; robomodel keeps them in that same order at load.
    assert [(type(s), s.name) for s in m.sensors] == [(type(s), s.name) for s in ref]
    for got, exp in zip(m.sensors, ref, strict=True):
        match got, exp:
            case rm.SixAxisForceTorqueSensor(), rm.SixAxisForceTorqueSensor():
                assert (got.parent_joint, got.first_link, got.second_link) == (
                    exp.parent_joint,
                    exp.first_link,
                    exp.second_link,
                )
                assert got.applied_wrench_link == exp.applied_wrench_link
                assert _same_transform(got.first_link_H_sensor, exp.first_link_H_sensor)
                assert _same_transform(got.second_link_H_sensor, exp.second_link_H_sensor)
            case ((rm.Accelerometer() | rm.Gyroscope()), (rm.Accelerometer() | rm.Gyroscope())):
                assert got.link == exp.link
                assert _same_transform(got.link_H_sensor, exp.link_H_sensor)
            case _:
                pytest.fail(f"sensor kinds differ: {got!r} vs {exp!r}")
    # Every sensor fits its model, transforms included (§8.9 for URDF F/T sensors).
    assert [p for s in m.sensors for p in sensor_problems(m, s, atol=1e-12)] == []


# --------------------------------------------------------------------------- predictions


def _idt_vectors(m: rm.Model, im: Any, state: JointState) -> tuple[np.ndarray, ...]:
    """The state's vectors in iDynTree's joint order (matched by joint name)."""
    q = np.zeros(im.getNrOfPosCoords())
    dq = np.zeros(im.getNrOfDOFs())
    ddq = np.zeros(im.getNrOfDOFs())
    for jn, j in zip(m.joint_names, m.joints, strict=True):
        if j.n_dofs:
            ij = im.getJoint(im.getJointIndex(jn))
            q[ij.getPosCoordsOffset()] = state.q[j.pos_coord_offset]
            dq[ij.getDOFsOffset()] = state.dq[j.dof_offset]
            ddq[ij.getDOFsOffset()] = state.ddq[j.dof_offset]
    return q, dq, ddq


def _compare(
    m: rm.Model,
    im: Any,
    state: JointState,
    *,
    base: str,
    gravity: np.ndarray,
    base_acceleration: np.ndarray,
    atol: float,
    base_velocity: np.ndarray | None = None,
) -> None:
    q, dq, ddq = _idt_vectors(m, im, state)
    ref = idt_predict(
        im,
        im.getLinkIndex(base),
        q,
        dq,
        ddq,
        gravity=gravity,
        base_acceleration=base_acceleration,
        base_velocity=base_velocity,
    )
    got = predict_sensor_measurements(
        m,
        state,
        gravity=gravity,
        base=base,
        base_acceleration=base_acceleration,
        base_velocity=base_velocity,
    )
    assert sorted(got) == sorted(ref)
    for k, v in ref.items():
        np.testing.assert_allclose(got[k], v, rtol=0, atol=atol, err_msg=k)


@pytest.mark.parametrize("name", WITH_SENSORS)
def test_icub_predictions_match_idyntree(name: str) -> None:
    m, im = robot(name)
    rng = np.random.default_rng(sum(map(ord, name)))
    n = m.n_dofs
    for moving in (False, True):
        scale = 1.0 if moving else 0.0
        state = JointState(
            rng.uniform(-1.5, 1.5, n), scale * rng.uniform(-2, 2, n), scale * rng.uniform(-5, 5, n)
        )
        _compare(
            m,
            im,
            state,
            base=m.default_base or "",
            gravity=G + scale * rng.uniform(-1, 1, 3),
            base_acceleration=scale * rng.uniform(-1, 1, 6),
            base_velocity=scale * rng.uniform(-1, 1, 6),
            atol=1e-8,
        )


@given(st.data(), models_with_sensors())
def test_random_tree_predictions_match_idyntree(data: st.DataObject, m: rm.Model) -> None:
    """On random trees (joints stored in either direction, any base, the base fixed or moving),
    every predicted measurement equals iDynTree's predictSensorsMeasurements."""
    im = add_sensors_to_idyntree(to_idyntree(m), m)
    n = m.n_dofs
    vals = st.lists(st.floats(-2, 2), min_size=n, max_size=n)
    state = JointState(data.draw(vals), data.draw(vals), data.draw(vals))
    base = data.draw(st.sampled_from(list(m.link_names)))
    six = st.lists(st.floats(-2, 2), min_size=6, max_size=6)
    a0 = np.array(data.draw(six))
    v0 = data.draw(st.one_of(st.none(), six.map(np.array)))
    _compare(
        m,
        im,
        state,
        base=base,
        gravity=np.array([0.3, -0.4, -9.81]),
        base_acceleration=a0,
        base_velocity=v0,
        atol=1e-9,
    )


@pytest.mark.parametrize("name", ["iCubGazeboV2_7", "iCubGenova04"])
def test_icub_one_call_ft_predictions_match_idyntree(name: str) -> None:
    """predict_ft_measurement, one F/T sensor per call, gives iDynTree's reading of each."""
    m, im = robot(name)
    rng = np.random.default_rng(sum(map(ord, name)) + 7)
    n = m.n_dofs
    state = JointState(rng.uniform(-1.5, 1.5, n), rng.uniform(-2, 2, n), rng.uniform(-5, 5, n))
    a0, v0 = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
    base = m.default_base or ""
    ref = idt_predict(
        im,
        im.getLinkIndex(base),
        *_idt_vectors(m, im, state),
        gravity=G,
        base_acceleration=a0,
        base_velocity=v0,
    )
    fts = m.sensors_of_type(rm.SixAxisForceTorqueSensor)
    assert fts
    for s in fts:
        got = predict_ft_measurement(
            m, s.name, state, gravity=G, base=base, base_acceleration=a0, base_velocity=v0
        )
        np.testing.assert_allclose(got, ref[s.name], rtol=0, atol=1e-8, err_msg=s.name)


# --------------------------------------------------------------------------- T4 end to end

T4_URDF = """<robot name="t4">
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="tool"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="jt" type="fixed"><parent link="b"/><child link="tool"/>
    <origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/></joint>
  <sensor name="ft" type="force_torque"><parent joint="jt"/>
    <origin xyz="0.1 0 0" rpy="0 0 0"/>
    <force_torque><frame>sensor</frame><measure_direction>child_to_parent</measure_direction>
    </force_torque></sensor>
</robot>"""


def test_t4_from_urdf_matches_idyntree_wrench_maps() -> None:
    # Spec §11 T4; iDynTree is run on the same document.
    m = loads(T4_URDF)
    ft = m.sensor("ft")
    assert isinstance(ft, rm.SixAxisForceTorqueSensor)
    loader = idt.ModelLoader()
    assert loader.loadModelFromString(T4_URDF)
    im = loader.model()
    ift = im.sensors().getSixAxisForceTorqueSensor(0)
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    for link in ("b", "tool"):
        li = im.getLinkIndex(link)
        out = idt.Wrench()
        assert ift.getWrenchAppliedOnLink(li, idt.Wrench.FromPython(w.tolist()), out)
        np.testing.assert_allclose(ft.wrench_applied_on_link(link, w), out.toNumPy(), atol=1e-12)
        M = idt.Matrix6x6()
        assert ift.getWrenchAppliedOnLinkMatrix(li, M)
        np.testing.assert_allclose(ft.wrench_applied_on_link_matrix(link), M.toNumPy(), atol=1e-12)
        assert ift.getWrenchAppliedOnLinkInverseMatrix(li, M)
        np.testing.assert_allclose(
            ft.wrench_applied_on_link_inverse_matrix(link), M.toNumPy(), atol=1e-12
        )
        T = idt.Transform()
        assert ift.getLinkSensorTransform(li, T)
        assert _same_transform(ft.link_H_sensor(link), rm_transform(T), atol=1e-15)
    np.testing.assert_allclose(
        ft.wrench_applied_on_link("b", w), [-2, 1, 3, -5.7, 2, 6.2], atol=1e-12
    )
    # The unattached-link case: iDynTree returns false, robomodel raises.
    assert not ift.isLinkAttachedToSensor(5) and not ft.is_link_attached("x")


# --------------------------------------------------------------------------- reduction (§8.9)


def _reduction_cases(m: rm.Model) -> list[tuple[list[str], dict[str, float]]]:
    ft_joints = [s.parent_joint for s in m.sensors if isinstance(s, rm.SixAxisForceTorqueSensor)]
    moving = [jn for jn, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs]
    legs = [jn for jn in moving if "leg" in jn or "ankle" in jn or "knee" in jn or "hip" in jn]
    locked = {jn: 0.1 * (i % 7) - 0.3 for i, jn in enumerate(moving) if jn not in legs}
    return [
        (moving + ft_joints, {}),  # lump only the fixed joints that carry no F/T sensor
        (legs + ft_joints, locked),  # lock everything above the legs at non-zero positions
    ]


@pytest.mark.parametrize("name", ["iCubGazeboV2_7", "iCubGenova02", "iCubLisboa01"])
def test_reduction_keeps_sensor_invariants_and_readings(name: str) -> None:
    """After reduce_model, each kept URDF F/T sensor still satisfies first_link_H_sensor @
    inverse(second_link_H_sensor) == its joint's rest transform, every link sensor survives,
    and every reading equals the full model's with the lumped joints held at their locked
    positions."""
    m, _ = robot(name)
    rng = np.random.default_rng(7)
    for keep, locked in _reduction_cases(m):
        r = reduce_model(m, keep_joints=keep, locked_positions=locked)
        assert [s.name for s in r.sensors] == [s.name for s in m.sensors]
        for s in r.sensors:
            assert sensor_problems(r, s, atol=1e-12) == ()
            if isinstance(s, rm.SixAxisForceTorqueSensor):
                old = m.sensor(s.name)
                assert isinstance(old, rm.SixAxisForceTorqueSensor)
                # The same physical side stays the applied one (§8.9).
                same_side = (old.applied_wrench_link == old.first_link) == (
                    s.applied_wrench_link == s.first_link
                )
                assert same_side or (s.first_link, s.second_link) == (
                    old.second_link,
                    old.first_link,
                )
        n = r.n_dofs
        full_q = np.zeros(m.n_dofs)
        for jn, v in locked.items():
            full_q[m.joint(jn).dof_offset] = v
        red_q, red_dq, red_ddq = rng.uniform(-1, 1, (3, n))
        full_dq, full_ddq = np.zeros(m.n_dofs), np.zeros(m.n_dofs)
        for jn in keep:
            jf, jr = m.joint(jn), r.joint(jn)
            if jf.n_dofs:
                full_q[jf.dof_offset] = red_q[jr.dof_offset]
                full_dq[jf.dof_offset] = red_dq[jr.dof_offset]
                full_ddq[jf.dof_offset] = red_ddq[jr.dof_offset]
        gravity = np.array([0.2, -0.1, -9.81])
        got = predict_sensor_measurements(r, JointState(red_q, red_dq, red_ddq), gravity=gravity)
        ref = predict_sensor_measurements(m, JointState(full_q, full_dq, full_ddq), gravity=gravity)
        for k, v in ref.items():
            np.testing.assert_allclose(got[k], v, rtol=0, atol=1e-9, err_msg=k)


def test_reduced_ft_sensor_invariant_matches_idyntree() -> None:
    """iDynTree's createReducedModel and robomodel's reduce_model give the same F/T sensors."""
    name = "iCubGazeboV2_7"
    m, im = robot(name)
    keep, _ = _reduction_cases(m)[0]
    r = reduce_model(m, keep_joints=keep)
    ir = idt.Model()
    assert idt.createReducedModel(im, keep, ir)
    ref = [s for s in sensors_from_idyntree(ir) if isinstance(s, rm.SixAxisForceTorqueSensor)]
    got = [s for s in r.sensors if isinstance(s, rm.SixAxisForceTorqueSensor)]
    assert [s.name for s in got] == [s.name for s in ref]
    for a, b in zip(got, ref, strict=True):
        assert (a.first_link, a.second_link, a.applied_wrench_link) == (
            b.first_link,
            b.second_link,
            b.applied_wrench_link,
        )
        assert _same_transform(a.first_link_H_sensor, b.first_link_H_sensor, atol=1e-10)
        assert _same_transform(a.second_link_H_sensor, b.second_link_H_sensor, atol=1e-10)
        rest = r.joint(a.parent_joint).rest_transform(a.first_link, a.second_link)
        implied = a.first_link_H_sensor @ a.second_link_H_sensor.inverse()
        assert _same_transform(implied, rest, atol=1e-10)
    assert math.isfinite(r.total_mass)
