"""Drake as the oracle for robomodel.formats.sdf: the same file in Drake's MultibodyPlant and in
robomodel gives the same total mass, body poses at random joint positions (1e-9) and
inverse-dynamics torques (1e-8).

Inputs nobody here wrote: Drake's own bundled SDFormat models, and robomodel's SDFormat exports
of every icub-models robot (the URDF files of another project). Inputs written here from the
specification (tests/data/sdf) pin one pose rule each, against Drake's libsdformat.
"""

from __future__ import annotations

import glob
import math
import os
import warnings

import attrs
import numpy as np
import pytest

import robomodel as rm
from robomodel.errors import RobomodelWarning
from robomodel.formats import sdf, urdf
from robomodel.physics.inertia import consistency_problems, nearest_consistent
from robomodel.physics.sensing import predict_ft_measurement

pydrake = pytest.importorskip("pydrake")
icub_models = pytest.importorskip("icub_models")
from sdf_oracle import compare, drake_plant, roots  # noqa: E402  (needs pydrake)

DATA = os.path.join(os.path.dirname(__file__), "data", "sdf")
DRAKE_SDF = sorted(
    glob.glob(
        os.path.join(os.path.dirname(pydrake.__file__), "share", "drake", "**", "*.sdf"),
        recursive=True,
    )
)
ICUB = sorted(icub_models.get_robot_names())
FAST_ICUB = ["iCubGenova04", "left_hand_mk3"]
ICUB_PACKAGE = ("iCub", os.path.join(os.path.dirname(icub_models.get_models_path()), ""))
OWN = ["frames_1_7.sdf", "axis_1_4.sdf", "axis_1_5.sdf", "nested_1_8.sdf", "quat_1_9.sdf"]
ARM = ("arm", os.path.join(DATA, "models", "arm"))


def test_drake_ships_sdf_models() -> None:
    """The bundled-file tests below run on something (Drake 1.51 ships eight)."""
    assert len(DRAKE_SDF) >= 5


@pytest.mark.parametrize("path", DRAKE_SDF, ids=os.path.basename)
def test_drake_bundled_files(path: str) -> None:
    """Every SDFormat file in Drake's wheel: same mass, poses and torques as Drake's plant; and
    robomodel's export of it reads back ==, and agrees with Drake's plant of that export."""
    model = sdf.load(path)
    plant, bodies, joints = drake_plant(path=path, roots=roots(model))
    compare(model, plant, bodies, joints)
    text = sdf.dumps(model)
    assert sdf.loads(text) == model
    plant, bodies, joints = drake_plant(text=text, roots=roots(model))
    compare(model, plant, bodies, joints)


@pytest.mark.parametrize("name", [*OWN, "include_arm.sdf"])
def test_pose_rules_agree_with_drake(name: str) -> None:
    """relative_to, attached_to, expressed_in, 1.4/1.5 axis frames, nested models with
    placement_frame, quaternions and degrees, and includes: robomodel reads what Drake reads."""
    path = os.path.join(DATA, name)
    model = sdf.load(path, package_dirs=[os.path.join(DATA, "models")])
    plant, bodies, joints = drake_plant(path=path, roots=roots(model), packages=[ARM])
    # Drake 1.51 places a frame attached_to a joint as if its pose were relative to the joint
    # frame whatever its relative_to says (test_frame_attached_to_a_joint below): not compared.
    compared = compare(model, plant, bodies, joints, rounds=5, skip_frames=("elbow_frame",))
    assert compared == {"frames_1_7.sdf": ["shoulder_mount"], "nested_1_8.sdf": ["arm::mount"]}.get(
        name, []
    )


def test_frame_attached_to_a_joint() -> None:
    """SDFormat: a frame attached_to a joint is fixed to the joint's child link, and its pose is
    in the frame its relative_to names. elbow_frame (frames_1_7.sdf) is on 'upper', at its
    <pose relative_to="upper"> exactly. (Drake 1.51 instead composes that pose with the inverse
    of the joint frame's pose in the link: 0.05 lower here, measured below.)"""
    path = os.path.join(DATA, "frames_1_7.sdf")
    model = sdf.load(path)
    frame = next(f for f in model.frames if f.name == "elbow_frame")
    assert frame.link == "upper"
    expected = rm.Transform.from_rpy_xyz((0, 0.1, 0), (0.02, 0, 0.4))
    np.testing.assert_allclose(frame.link_H_frame.as_matrix(), expected.as_matrix(), atol=1e-15)
    _plant, bodies, _ = drake_plant(path=path, roots=roots(model))  # the plant kept alive
    drake_frame = bodies["frame:elbow_frame"]
    assert drake_frame.body().name() == "upper"
    X = drake_frame.GetFixedPoseInBodyFrame().GetAsMatrix4()
    assert not np.allclose(X, expected.as_matrix(), atol=1e-3)


SDFORMAT = sorted(glob.glob(os.path.join(DATA, "sdformat", "*.sdf")))


@pytest.mark.parametrize("path", SDFORMAT, ids=os.path.basename)
def test_sdformat_test_models_agree_with_drake(path: str) -> None:
    """libsdformat's own pose-semantics test models (tests/data/sdf/sdformat, Apache-2.0):
    robomodel and Drake read the same bodies, frames and torques."""
    model = sdf.load(path)
    plant, bodies, joints = drake_plant(path=path, roots=roots(model))
    compare(model, plant, bodies, joints, rounds=3)


def _icub(name: str) -> rm.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobomodelWarning)
        return urdf.load(icub_models.get_model_file(name))


def _drake_readable(model: rm.Model, report: sdf.ConversionReport) -> rm.Model:
    """``model`` with the inertias the export report says SDFormat readers refuse made
    readable (massless moments zeroed, inconsistent ones replaced by the nearest consistent)."""
    noted = {x.name for x in report.losses if x.kind == "link" and x.action == "note"}
    for name in noted:
        inertia = model.link(name).inertia
        if inertia.mass == 0.0:
            fixed = rm.SpatialInertia.zero()
        else:
            assert consistency_problems(inertia)
            fixed = nearest_consistent(inertia)
        model = rm.with_link(model, name, rm.Link(fixed))
    return model


def _check_icub_export(name: str) -> None:
    model = _icub(name)
    text, report = sdf.dumps_with_report(model)
    assert sdf.loads(text) == model
    usable = _drake_readable(model, report)
    if usable is not model:  # the report named links Drake refuses or reads otherwise
        with pytest.raises((RuntimeError, AssertionError)):
            plant, bodies, joints = drake_plant(
                text=text, roots=roots(model), packages=[ICUB_PACKAGE]
            )
            compare(model, plant, bodies, joints)
        text = sdf.dumps(usable)
    plant, bodies, joints = drake_plant(text=text, roots=roots(usable), packages=[ICUB_PACKAGE])
    compare(usable, plant, bodies, joints)


@pytest.mark.parametrize("name", FAST_ICUB)
def test_icub_export_parsed_by_drake(name: str) -> None:
    """robomodel's SDFormat export of an iCub, parsed by Drake, equals robomodel's model."""
    _check_icub_export(name)


def test_version_1_7_export_parsed_by_drake() -> None:
    """The SDFormat 1.7 text (rpy poses, relative_to, expressed_in) reads alike in Drake."""
    model = _icub("iCubGazeboV2_7")
    text = sdf.dumps(model, options=sdf.DumpOptions(version="1.7"))
    assert '<sdf version="1.7"' in text
    assert sdf.loads(text) == model
    plant, bodies, joints = drake_plant(text=text, roots=roots(model), packages=[ICUB_PACKAGE])
    compare(model, plant, bodies, joints)


@pytest.mark.slow
@pytest.mark.parametrize("name", ICUB)
def test_every_icub_export_parsed_by_drake(name: str) -> None:
    """Every icub-models robot: the export reads back ==, and Drake's plant of it agrees (after
    the inertias the report names as refused by SDFormat readers are made consistent)."""
    _check_icub_export(name)


@pytest.mark.parametrize("frame", ["child", "parent", "sensor"])
@pytest.mark.parametrize("direction", ["parent_to_child", "child_to_parent"])
def test_force_torque_sign_rule_against_statics(frame: str, direction: str) -> None:
    """The F/T sensor of frames_1_7.sdf (with each <frame> and <measure_direction>) reads, at
    rest, the wrench that holds the tool up (parent_to_child: +m g; child_to_parent: its
    opposite), moments about the joint origin, in the orientation <frame> names. Poses from
    Drake's plant; the statics by hand."""
    with open(os.path.join(DATA, "frames_1_7.sdf"), encoding="utf-8") as fh:
        text = fh.read()
    text = text.replace("<frame>sensor</frame>", f"<frame>{frame}</frame>").replace(
        "<measure_direction>parent_to_child</measure_direction>",
        f"<measure_direction>{direction}</measure_direction>",
    )
    model = sdf.loads(text)
    plant, bodies, joints = drake_plant(text=text, roots=roots(model))
    ctx = plant.CreateDefaultContext()
    rng = np.random.default_rng(3)
    q = rng.uniform(-0.5, 0.5, model.n_pos_coords)
    qd = np.zeros(plant.num_positions())
    for joint in model.joints:
        if joint.n_dofs:
            qd[joints[(joint.link1, joint.link2)].position_start()] = q[joint.pos_coord_offset]
    plant.SetPositions(ctx, qd)
    tool = bodies["tool"]
    c_W = plant.EvalBodyPoseInWorld(ctx, tool).multiply(tool.default_com())
    X_WJ = joints[("slider", "tool")].frame_on_child().CalcPoseInWorld(ctx)
    R_WS = {
        "child": plant.EvalBodyPoseInWorld(ctx, tool).rotation().matrix(),
        "parent": plant.EvalBodyPoseInWorld(ctx, bodies["slider"]).rotation().matrix(),
        "sensor": X_WJ.rotation().matrix() @ rm.Transform.from_rpy_xyz((0, 0, 0.5)).rotation,
    }[frame]
    g = plant.gravity_field().gravity_vector()
    f_W = -tool.default_mass() * g * (1.0 if direction == "parent_to_child" else -1.0)
    tau_W = np.cross(c_W - X_WJ.translation(), f_W)
    expected = np.concatenate([R_WS.T @ f_W, R_WS.T @ tau_W])
    got = predict_ft_measurement(model, "ft", q, gravity=g)
    np.testing.assert_allclose(got, expected, atol=1e-9)
    assert sdf.loads(sdf.dumps(model)) == model


def test_imu_reads_gravity_in_its_axes() -> None:
    """The IMU of frames_1_7.sdf, turned 90 degrees about z on its link: at rest its
    accelerometer reads +g along the world's up axis, expressed in the sensor axes."""
    model = sdf.load(os.path.join(DATA, "frames_1_7.sdf"))
    acc = next(s for s in model.sensors if s.name == "imu_accelerometer")
    assert isinstance(acc, rm.Accelerometer)
    R = acc.link_H_sensor.rotation
    np.testing.assert_allclose(R, rm.Transform.from_rpy_xyz((0, 0, math.pi / 2)).rotation)
    assert attrs.evolve(acc, name="x").link == "base"
