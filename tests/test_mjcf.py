"""robomodel.formats.mjcf against MuJoCo: exported MJCF compiles and MuJoCo's own numbers agree.

MuJoCo is the oracle: the compiled ``MjModel`` gives masses, inertias and names, ``mj_kinematics``
the poses, ``mj_inverse`` the joint forces and the sensor readings (see test_mjcf_oracle.py).
"""

from __future__ import annotations

import glob
import math
import os
import re
import sys
import warnings

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SLOW, decorated_models, models, models_with_sensors

import robomodel as rm
import robomodel.formats.urdf as ru
from robomodel.formats import mjcf
from robomodel.physics.sensing import predict_sensor_measurements
from robomodel.tools.diff import diff

mujoco = pytest.importorskip("mujoco")
import test_mjcf_oracle as oracle  # noqa: E402  (needs mujoco)

icub_models = pytest.importorskip("icub_models")

FAST_ROBOTS = ["iCubGazeboV2_7", "iCubLisboa01", "left_hand_mk3"]
ALL_ROBOTS = sorted(icub_models.get_robot_names())
NO_MESHES = mjcf.DumpOptions(meshes=False)


def _icub(name: str) -> rm.Model:
    f = str(icub_models.get_model_file(name))
    share = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(f))))
    return rm.with_package_dirs(ru.load(f), [share])


def _state(model: rm.Model, rng: np.random.Generator) -> rm.JointState:
    return rm.JointState(
        rng.uniform(-1.5, 1.5, model.n_pos_coords),
        rng.uniform(-1, 1, model.n_dofs),
        rng.uniform(-1, 1, model.n_dofs),
    )


def _measured(sensor: rm.Sensor, readings: dict[str, np.ndarray]) -> np.ndarray:
    if isinstance(sensor, rm.SixAxisForceTorqueSensor):
        return np.concatenate([readings[f"{sensor.name}_force"], readings[f"{sensor.name}_torque"]])
    return readings[sensor.name]


def check_export(model: rm.Model, rng: np.random.Generator, *, options=NO_MESHES, n: int = 2):
    """The exported MJCF compiles and is the model (up to the report's written inertias)."""
    text, report = mjcf.dumps_with_report(model, options=options)
    mm = mjcf.compile_mjcf(text)
    eff = oracle.effective_model(model, report)
    snapped = [x.name for x in report.of("approximated") if x.kind == "site"]
    oracle.check_inertias(eff, mm)
    oracle.check_names(eff, mm, report)
    for _ in range(n):
        s = _state(model, rng)
        oracle.check_poses(eff, mm, s.q, report)
        readings = oracle.check_torques(eff, mm, s.q, s.dq, s.ddq)
        predicted = predict_sensor_measurements(eff, s, gravity=mm.opt.gravity.copy())
        tr = eff.traversal()
        for sensor in eff.sensors:
            sign = 1.0
            if isinstance(sensor, rm.SixAxisForceTorqueSensor):
                # MuJoCo reads the wrench the parent body applies on the child body.
                _, child = eff.joint_parent_child(sensor.parent_joint, tr)
                sign = 1.0 if sensor.applied_wrench_link == eff.link_names[child] else -1.0
            got = _measured(sensor, readings)
            want = sign * predicted[sensor.name]
            # A site the report says MuJoCo snaps onto its body frame reads from there.
            tol = 1e-4 if any(n.startswith(sensor.name) for n in snapped) else 1e-8
            np.testing.assert_allclose(got, want, rtol=0, atol=tol * max(1.0, np.abs(want).max()))
    return text, report, mm


# ---------------------------------------------------------------------- icub-models
@pytest.mark.parametrize("name", FAST_ROBOTS)
def test_icub_export_is_the_model(name: str) -> None:
    """MuJoCo's masses, inertias, poses, inverse dynamics and sensors equal robomodel's."""
    check_export(_icub(name), np.random.default_rng(0))


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_ROBOTS)
def test_every_icub_export_is_the_model(name: str) -> None:
    """As above, for every icub-models robot, with meshes."""
    check_export(_icub(name), np.random.default_rng(1), options=mjcf.DumpOptions(), n=4)


def test_icub_export_keeps_everything_the_urdf_importer_drops() -> None:
    """Against MuJoCo's URDF import of the same file: all mass, 83 sensors, 234 frames."""
    m = _icub("iCubGazeboV2_7")
    _text, report, mm = check_export(m, np.random.default_rng(2), n=1)
    assert mm.body_mass.sum() == pytest.approx(m.total_mass, abs=1e-12)
    assert mm.nsensor == sum(
        2 if isinstance(s, rm.SixAxisForceTorqueSensor) else 1 for s in m.sensors
    )
    sites = {mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_SITE, s) for s in range(mm.nsite)}
    assert len(m.frame_names) == 234 and set(m.frame_names) <= sites
    assert not report.of("changed")


def test_icub_meshes_resolve_through_package_dirs() -> None:
    """package:// meshes become mesh assets with absolute paths MuJoCo loads."""
    m = _icub("left_wrist_mk2")
    text, _report = mjcf.dumps_with_report(m)
    mm = mjcf.compile_mjcf(text)
    n_mesh_shapes = sum(
        isinstance(s.geometry, rm.Mesh) for shapes in (*m.visuals, *m.collisions) for s in shapes
    )
    assert mm.ngeom == n_mesh_shapes > 0
    files = re.findall(r'<mesh name="[^"]*" file="([^"]*)"', text)
    assert len(files) == mm.nmesh >= 1
    assert all(os.path.isabs(f) and os.path.exists(f) for f in files)
    _, r = mjcf.dumps_with_report(rm.with_package_dirs(m, []))
    assert len(r.of("dropped")) >= n_mesh_shapes
    assert all(
        "not found" in x.detail for x in r.of("dropped") if x.kind in ("visual", "collision")
    )


def test_urdf_to_mjcf_to_robomodel_is_the_urdf_model() -> None:
    """URDF -> MJCF -> robomodel equals the URDF model, except the reported losses."""
    m = _icub("iCubGazeboV2_7")
    text, report = mjcf.dumps_with_report(m)
    back, back_report = mjcf.loads_with_report(text)
    assert not back_report.of("dropped")
    dropped_ext = [x for x in report.of("dropped") if x.kind == "extension"]
    assert len(dropped_ext) == len(m.extensions)
    # Extensions (URDF-only <gazebo>, <transmission>, ...) are the reported loss.
    d = diff(attrs.evolve(m, extensions=[]), back, atol=1e-9, order=False)
    assert not d, str(d)


# ---------------------------------------------------------------------- Hypothesis models
@given(models(max_links=7), st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_random_models_export(model: rm.Model, seed: int) -> None:
    """Any tree robomodel can hold exports to MJCF that compiles and is the same model."""
    check_export(model, np.random.default_rng(seed), n=1)


@pytest.mark.slow
@given(models(max_links=8), st.integers(0, 2**32 - 1))
@SLOW
def test_random_models_export_slow(model: rm.Model, seed: int) -> None:
    """As above, more examples."""
    check_export(model, np.random.default_rng(seed), n=2)


@given(models_with_sensors(max_links=5), st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_random_sensors_read_what_robomodel_predicts(model: rm.Model, seed: int) -> None:
    """F/T, accelerometer and gyroscope readings from mj_inverse equal robomodel's predictions
    (F/T sign by the side the sensor measures, as documented), and reading the MJCF back gives
    the model MuJoCo simulates."""
    text, report, _ = check_export(model, np.random.default_rng(seed), n=1)
    back, _ = mjcf.loads_with_report(text)
    d = diff(oracle.effective_model(model, report), back, atol=1e-9, order=False)
    assert not d, str(d)


@given(models(max_links=6), st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_random_models_come_back(model: rm.Model, seed: int) -> None:
    """robomodel -> MJCF -> robomodel is the model MuJoCo simulates (the written inertias),
    link by link, joint by joint and frame by frame."""
    text, report = mjcf.dumps_with_report(model, options=NO_MESHES)
    back, back_report = mjcf.loads_with_report(text)
    assert not back_report.of("dropped")
    d = diff(oracle.effective_model(model, report), back, atol=1e-9, order=False)
    assert not d, str(d)


@given(decorated_models(max_links=5))
@settings(max_examples=15, deadline=None)
def test_decorated_models_compile_and_report_every_loss(model: rm.Model) -> None:
    """Shapes, sensors, mimics, extensions: the MJCF compiles, every shape is a geom or a
    report entry, every mimic an equality, every extension a report entry."""
    text, report = mjcf.dumps_with_report(model)
    mm = mjcf.compile_mjcf(text)
    n_shapes = sum(len(s) for s in (*model.visuals, *model.collisions))
    shape_losses = [x for x in report.of("dropped") if x.kind in ("visual", "collision")]
    assert mm.ngeom + len(shape_losses) == n_shapes
    mimics = [j for j in model.joints if getattr(j, "mimic", None) is not None]
    assert mm.neq + len(report.of("dropped")) >= len(mimics)
    exts = [x for x in report.of("dropped") if x.kind == "extension"]
    assert len(exts) == len(model.extensions)


def test_every_extension_is_one_report_entry_in_order() -> None:
    """Each extension that is not a kept MJCF section is one "dropped" entry, in model order,
    naming its tag (or "?") and its owner; a kept robot-level MJCF section is no entry."""
    m = rm.add_link(
        rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.eye(3)))
    )
    exts = [
        rm.Extension(owner_kind="robot", owner="", xml="<gazebo/>", tag="gazebo"),
        rm.Extension(owner_kind="link", owner="base", xml="<x/>", tag=""),
        rm.Extension(owner_kind="robot", owner="", xml="<option/>", tag="mjcf:option"),
        rm.Extension(owner_kind="joint", owner="j", xml="<mjcf:a/>", tag="mjcf:a"),
    ]
    m = attrs.evolve(m, extensions=exts)
    _, report = mjcf.dumps_with_report(m)
    got = [(x.action, x.name, x.detail) for x in report.losses if x.kind == "extension"]
    assert got == [
        ("dropped", "gazebo", "<gazebo> has no MJCF form"),
        ("dropped", "?", "an element of link 'base' has no MJCF form"),
        ("dropped", "mjcf:a", "<mjcf:a> of joint 'j' has no MJCF form"),
    ]


# ---------------------------------------------------------------------- policies
def _chain(inertia: rm.SpatialInertia, *, middle: rm.SpatialInertia | None = None) -> rm.Model:
    m = rm.add_link(
        rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.eye(3)))
    )
    j = rm.RevoluteJoint(
        link1="base",
        link2="mid",
        link1_H_link2=rm.Transform.from_translation((0, 0, 0.3)),
        axis_in_link1=rm.Axis((0, 0, 1), (0.1, 0, 0)),
    )
    m = rm.add_joint_and_link(
        m, "base", "j1", j, "mid", rm.Link(middle or rm.SpatialInertia.zero())
    )
    k = rm.PrismaticJoint(
        link1="mid",
        link2="tip",
        link1_H_link2=rm.Transform.from_rpy_xyz((0.3, 0.2, 0.1), (0.2, 0, 0)),
        axis_in_link1=rm.Axis((0, 1, 0)),
    )
    return rm.add_joint_and_link(m, "mid", "j2", k, "tip", rm.Link(inertia))


GOOD = rm.SpatialInertia.from_com(0.5, (0.1, 0, 0), np.diag([0.01, 0.02, 0.025]))


def test_massless_link_between_moving_joints_is_merged_exactly() -> None:
    """The massless link's joint moves into its child's body: nothing changes, and reading
    the MJCF back restores the link."""
    m = _chain(GOOD)
    text, report, mm = check_export(m, np.random.default_rng(3))
    assert [x.name for x in report.losses if x.kind == "merged link"] == ["mid"]
    assert not report.inertias and mm.nbody == 3
    back, _ = mjcf.loads_with_report(text)
    assert not diff(m, back, atol=1e-12, order=False)


def test_massless_policy_bound_and_raise() -> None:
    """Without merging, a massless moving body gets the bound, reported, or is refused."""
    m = _chain(GOOD)
    bound = mjcf.DumpOptions(massless="bound")
    _text, report, _ = check_export(m, np.random.default_rng(4), options=bound)
    assert report.inertias["mid"].mass == bound.bound_mass
    assert [x.name for x in report.of("changed")] == ["mid"]
    with pytest.raises(mjcf.MJCFError, match="massless"):
        mjcf.dumps_with_report(m, options=mjcf.DumpOptions(massless="raise"))


def test_invalid_inertia_policy() -> None:
    """An inertia breaking A + B >= C is balanced (reported) or refused; MuJoCo refuses it raw."""
    bad = rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.diag([0.1, 0.1, 0.3]))
    m = _chain(bad, middle=GOOD)
    _text, report, _mm = check_export(m, np.random.default_rng(5))
    assert [x.name for x in report.of("changed")] == ["tip"]
    d = np.sort(np.linalg.eigvalsh(report.inertias["tip"].inertia_com))
    assert d[0] + d[1] >= d[2] and d[2] == pytest.approx(0.3)
    with pytest.raises(mjcf.MJCFError, match="A \\+ B >= C"):
        mjcf.dumps_with_report(m, options=mjcf.DumpOptions(invalid_inertia="raise"))


def test_floating_base_and_another_base() -> None:
    """floating_base adds a free joint; base= roots the tree elsewhere (poses from that base)."""
    m = _chain(GOOD, middle=GOOD)
    text, _ = mjcf.dumps_with_report(m, options=mjcf.DumpOptions(floating_base=True))
    mm = mjcf.compile_mjcf(text)
    assert mm.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE and mm.nq == 9
    text, _report = mjcf.dumps_with_report(m, options=mjcf.DumpOptions(base="tip"))
    mm = mjcf.compile_mjcf(text)
    assert mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_BODY, 1) == "tip"
    d = mujoco.MjData(mm)
    q = np.array([0.4, -0.2])
    d.qpos[:] = oracle.qpos_of(m, mm, q)
    mujoco.mj_kinematics(mm, d)
    T = rm.forward_kinematics(m, q, base="tip").base_H_frame("base")
    b = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, "base")
    np.testing.assert_allclose(d.xpos[b], T.position, atol=1e-12)


def test_mimic_joint_is_an_equality_and_comes_back() -> None:
    """A mimic joint becomes <equality><joint polycoef="offset multiplier ..."> and back."""
    m = _chain(GOOD, middle=GOOD)
    j1 = m.joint("j1")
    k = m.joint_index("j2")
    mimic = rm.Mimic(joint="j1", multiplier=-0.5, offset=0.25)
    m = attrs.evolve(m, joints=m.joints.set(k, attrs.evolve(m.joints[k], mimic=mimic)))
    text, _report = mjcf.dumps_with_report(m)
    mm = mjcf.compile_mjcf(text)
    assert mm.neq == 1 and mm.eq_type[0] == mujoco.mjtEq.mjEQ_JOINT
    np.testing.assert_array_equal(mm.eq_data[0][:5], [0.25, -0.5, 0, 0, 0])
    # MuJoCo's constraint holds the follower where robomodel's mimic rule puts it.
    d = mujoco.MjData(mm)
    mujoco.mj_forward(mm, d)
    for _ in range(200):
        mujoco.mj_step(mm, d)
    q1 = d.qpos[mm.jnt_qposadr[mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_JOINT, "j1")]]
    q2 = d.qpos[mm.jnt_qposadr[mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_JOINT, "j2")]]
    assert q2 == pytest.approx(-0.5 * q1 + 0.25, abs=1e-3)
    back, _ = mjcf.loads_with_report(text)
    assert back.joint("j2").mimic == mimic and isinstance(j1, rm.RevoluteJoint)


def test_limits_dynamics_and_effort() -> None:
    """Limits become ranges (or limited="false"), damping/friction and effort limits are kept."""
    m = _chain(GOOD, middle=GOOD)
    k = m.joint_index("j1")
    j = attrs.evolve(
        m.joints[k],
        limits=rm.PositionLimits.between(-1.0, 2.0),
        dynamics=rm.JointDynamics(kind="urdf", damping=0.3, static_friction=0.1),
        effort_limit=7.0,
        velocity_limit=3.0,
    )
    m = attrs.evolve(m, joints=m.joints.set(k, j))
    text, _report = mjcf.dumps_with_report(m, options=mjcf.DumpOptions(actuators=True))
    mm = mjcf.compile_mjcf(text)
    jid = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_JOINT, "j1")
    assert mm.jnt_limited[jid] and list(mm.jnt_range[jid]) == [-1.0, 2.0]
    assert mm.dof_damping[jid] == 0.3 and mm.dof_frictionloss[jid] == 0.1
    assert list(mm.jnt_actfrcrange[jid]) == [-7.0, 7.0] and mm.nu == 2
    assert not mm.jnt_limited[mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_JOINT, "j2")]
    back, _ = mjcf.loads_with_report(text)
    assert back.joint("j1") == attrs.evolve(j, pos_coord_offset=0, dof_offset=0)


def test_dump_writes_atomically_and_dumps_warns(tmp_path) -> None:
    """dump replaces the file in one step; dumps warns when something was lost."""
    m = _chain(GOOD)
    path = tmp_path / "m.xml"
    report = mjcf.dump(m, path)
    assert mjcf.compile_mjcf(path.read_text()).nbody == 3
    assert os.listdir(tmp_path) == ["m.xml"] and len(report) == 1
    lossy = rm.add_frame(_chain(GOOD, middle=GOOD), "tip", "f")
    lossy = attrs.evolve(
        lossy, extensions=[rm.Extension(owner_kind="robot", owner="", xml="<x/>", tag="x")]
    )
    with pytest.warns(rm.RobomodelWarning, match="extension"):
        mjcf.dumps(lossy)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mjcf.dumps(_chain(GOOD, middle=GOOD))


def test_missing_mujoco_names_the_extra(monkeypatch) -> None:
    """Without MuJoCo the error says how to install it."""
    monkeypatch.setitem(sys.modules, "mujoco", None)
    with pytest.raises(mjcf.MujocoNotInstalledError, match=r"robomodel\[mujoco\]"):
        mjcf.loads("<mujoco/>")
    with pytest.raises(ImportError):
        mjcf.compile_mjcf("<mujoco/>")


# ---------------------------------------------------------------------- import
try:
    import gymnasium
except ImportError:  # the import tests need gymnasium's MuJoCo assets; the rest does not
    gymnasium = None
GYM = (
    os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
    if gymnasium is not None
    else ""
)
GYM_FILES = sorted(glob.glob(os.path.join(GYM, "*.xml"))) if GYM else []
needs_gym = pytest.mark.skipif(gymnasium is None, reason="needs gymnasium's MuJoCo assets")
FAST_GYM = ["ant.xml", "hopper.xml", "humanoid.xml", "pusher.xml"]


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def check_import(path: str, rng: np.random.Generator) -> None:
    """Mass and poses equal MuJoCo's; MJCF -> robomodel -> MJCF has the same physics."""
    model, report = mjcf.loads_with_report(_read(path), path=path)
    mm = mujoco.MjModel.from_xml_path(path)
    assert model.total_mass == pytest.approx(mm.body_mass.sum(), abs=1e-9)
    for _ in range(3):
        oracle.check_imported_poses(model, mm, oracle.random_qpos(mm, rng))
    floating = any(x.kind == "floating base" for x in report.losses)
    text, _ = mjcf.dumps_with_report(model, options=mjcf.DumpOptions(floating_base=floating))
    mm2 = mjcf.compile_mjcf(text)
    for _ in range(3):
        oracle.check_same_physics(mm, mm2, rng)
    # Kept sections come back: options, actuators (gains, ranges, targets) and tendons.
    assert mm2.opt.timestep == mm.opt.timestep and mm2.ntendon == mm.ntendon
    assert mm2.nu == mm.nu
    for field in ("actuator_gear", "actuator_ctrlrange", "actuator_gainprm", "actuator_biasprm"):
        np.testing.assert_array_equal(getattr(mm2, field), getattr(mm, field))
    target_kind = {
        mujoco.mjtTrn.mjTRN_JOINT: mujoco.mjtObj.mjOBJ_JOINT,
        mujoco.mjtTrn.mjTRN_JOINTINPARENT: mujoco.mjtObj.mjOBJ_JOINT,
        mujoco.mjtTrn.mjTRN_TENDON: mujoco.mjtObj.mjOBJ_TENDON,
        mujoco.mjtTrn.mjTRN_SITE: mujoco.mjtObj.mjOBJ_SITE,
        mujoco.mjtTrn.mjTRN_SLIDERCRANK: mujoco.mjtObj.mjOBJ_SITE,
        mujoco.mjtTrn.mjTRN_BODY: mujoco.mjtObj.mjOBJ_BODY,
    }
    for k in range(mm.nu):
        assert mm.actuator_trntype[k] == mm2.actuator_trntype[k]
        kind = target_kind[mujoco.mjtTrn(mm.actuator_trntype[k])]
        t1, t2 = mm.actuator_trnid[k][0], mm2.actuator_trnid[k][0]
        assert mujoco.mj_id2name(mm, kind, t1) == mujoco.mj_id2name(mm2, kind, t2)


@needs_gym
@pytest.mark.parametrize("name", FAST_GYM)
def test_gymnasium_import(name: str) -> None:
    """Gymnasium's MuJoCo assets read through MuJoCo's compiler are MuJoCo's models."""
    check_import(os.path.join(GYM, name), np.random.default_rng(6))


MUJOCO_TESTDATA = sorted(
    glob.glob(os.path.join(os.path.dirname(mujoco.__file__), "testdata", "*.xml"))
)


@pytest.mark.parametrize("path", MUJOCO_TESTDATA, ids=os.path.basename)
def test_mujoco_test_models_import(path: str) -> None:
    """MuJoCo's own test models (free bodies, ball joints, unnamed joints, tendons, .msh
    meshes): poses equal MuJoCo's and the round trip has the same physics."""
    check_import(path, np.random.default_rng(8))


@pytest.mark.slow
# half_cheetah.xml uses <compiler settotalmass>, which MuJoCo's compiler warns about itself (its
# UserWarning reaches the caller: robomodel changes no warning filters).
@pytest.mark.filterwarnings("ignore:compiler attribute 'settotalmass' is deprecated:UserWarning")
@pytest.mark.parametrize("path", GYM_FILES, ids=os.path.basename)
def test_every_gymnasium_import(path: str) -> None:
    """As above, for every asset."""
    check_import(path, np.random.default_rng(7))


@needs_gym
def test_import_reports_what_it_cannot_carry() -> None:
    """Capsules, the floating base and the world floor appear in the report; actuators are
    kept verbatim (or dropped when asked not to keep them)."""
    model, report = mjcf.loads_with_report(_read(os.path.join(GYM, "ant.xml")))
    kinds = {(x.action, x.kind) for x in report.losses}
    assert ("note", "floating base") in kinds and ("note", "kept") in kinds
    assert any(x.tag == "mjcf:actuator" for x in model.extensions)
    options = mjcf.LoadOptions(keep_sections=False)
    model2, report2 = mjcf.loads_with_report(_read(os.path.join(GYM, "ant.xml")), options=options)
    assert ("dropped", "actuator") in {(x.action, x.kind) for x in report2.losses}
    assert not model2.extensions
    assert any(x.kind == "geom" and "capsule" in x.detail for x in report.losses)
    assert model.default_base == "torso"
    with pytest.warns(rm.RobomodelWarning, match="capsule"):
        mjcf.loads(_read(os.path.join(GYM, "ant.xml")))


BALL = """<mujoco><compiler angle="radian"/><worldbody><body name="a" pos="0 0 1">
  <joint name="b" type="ball" pos="0.1 0 0"/>
  <inertial pos="0.2 0 0" mass="1" diaginertia="0.1 0.2 0.25"/>
  <site name="s" pos="0.3 0.1 0"/>
  <body name="c" pos="0.5 0 0"><joint name="h" axis="0 1 0" ref="0.3" range="-1 1"/>
    <inertial pos="0 0 0" mass="2" diaginertia="1 1 1"/></body>
</body></worldbody>
<sensor><gyro name="g" site="s"/><accelerometer name="acc" site="s"/></sensor></mujoco>"""


def test_ball_joint_becomes_three_revolute_joints() -> None:
    """A ball joint is x-y-z revolute joints through its anchor: poses agree when MuJoCo's
    quaternion is the product of the three rotations; ref shifts positions and limits."""
    model, report = mjcf.loads_with_report(BALL)
    assert next(x.action for x in report.losses if x.kind == "joint") == "approximated"
    assert list(model.joint_names) == ["b_x", "b_y", "b_z", "h"]
    assert model.joint("h").limits == rm.PositionLimits.between(-1.3, 0.7)
    assert {s.name for s in model.sensors} == {"g", "acc"}
    mm = mujoco.MjModel.from_xml_string(BALL)
    a, b, c, h = 0.3, -0.4, 0.7, 0.2
    quat = np.zeros(4)
    parts = [np.zeros(4) for _ in range(3)]
    for p, axis, angle in zip(parts, np.eye(3), (a, b, c), strict=True):
        mujoco.mju_axisAngle2Quat(p, axis, angle)
    tmp = np.zeros(4)
    mujoco.mju_mulQuat(tmp, parts[0], parts[1])
    mujoco.mju_mulQuat(quat, tmp, parts[2])
    d = mujoco.MjData(mm)
    d.qpos[:4], d.qpos[4] = quat, h + 0.3
    mujoco.mj_kinematics(mm, d)
    fk = rm.forward_kinematics(model, [a, b, c, h])
    for body in ("a", "c"):
        T = fk.base_H_frame(body)
        k = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, body)
        np.testing.assert_allclose(d.xpos[k], T.position, atol=1e-12)
        np.testing.assert_allclose(d.xmat[k].reshape(3, 3), T.rotation, atol=1e-12)
    np.testing.assert_allclose(d.site_xpos[0], fk.base_H_frame("s").position, atol=1e-12)
    assert math.isclose(model.total_mass, 3.0)


def test_kept_section_that_no_longer_fits_is_dropped_with_the_reason() -> None:
    """An actuator on a joint the model lost is refused by MuJoCo: that section is dropped
    and reported, the rest is kept."""
    text = """<mujoco><option timestep="0.005"/><worldbody><body name="a">
      <joint name="j" axis="0 0 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      </body></worldbody><actuator><motor joint="j" gear="3"/></actuator></mujoco>"""
    model, _ = mjcf.loads_with_report(text)
    k = model.joint_index("j")
    old = model.joints[k]
    fixed = rm.FixedJoint(link1=old.link1, link2=old.link2, link1_H_link2=old.link1_H_link2)
    renamed = attrs.evolve(model, joints=model.joints.set(k, fixed))
    out, report = mjcf.dumps_with_report(renamed)
    mm = mjcf.compile_mjcf(out)
    assert mm.nu == 0 and mm.opt.timestep == 0.005
    assert [x.name for x in report.of("dropped")] == ["<actuator>"]


@needs_gym
def test_convert_both_ways(tmp_path) -> None:
    """convert: URDF -> MJCF by suffix, MJCF -> URDF (kept MJCF sections are not URDF)."""
    path = str(icub_models.get_model_file("left_wrist_mk2"))
    xml = tmp_path / "w.xml"
    mjcf.convert(
        path,
        xml,
        package_dirs=[os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(path))))],
    )
    assert mjcf.compile_mjcf(xml.read_text()).nmesh > 0
    back = tmp_path / "w.urdf"
    report = mjcf.convert(xml, back)
    assert ru.load(back).total_mass == pytest.approx(ru.load(path).total_mass, abs=1e-9)
    ant = tmp_path / "ant.urdf"
    report = mjcf.convert(os.path.join(GYM, "ant.xml"), ant)
    assert "<actuator" not in ant.read_text()
    assert any(x.kind == "kept section" and x.action == "dropped" for x in report.losses)
    with pytest.raises(rm.errors.ArgumentError, match="to='mjcf'"):
        mjcf.convert(tmp_path / "a.txt", tmp_path / "b")


def test_meshes_mujoco_cannot_read_are_converted_or_dropped(tmp_path) -> None:
    """A .ply mesh is dropped with a report, or converted to STL with trimesh on request."""
    trimesh = pytest.importorskip("trimesh")
    ply = tmp_path / "box.ply"
    trimesh.creation.box(extents=(0.1, 0.2, 0.3)).export(ply)
    shape = rm.SolidShape(geometry=rm.Mesh(str(ply)))
    m = rm.with_visual_shapes(_chain(GOOD, middle=GOOD), "tip", [shape])
    text, report = mjcf.dumps_with_report(m)
    assert mjcf.compile_mjcf(text).ngeom == 0
    assert "MuJoCo reads only" in report.of("dropped")[0].detail
    text, report = mjcf.dumps_with_report(
        m, options=mjcf.DumpOptions(mesh_dir=str(tmp_path / "out"))
    )
    mm = mjcf.compile_mjcf(text)
    assert mm.ngeom == 1 and mm.nmesh == 1
    assert (tmp_path / "out" / "box.stl").exists() and report.of("approximated")
    # The converted STL is the same box: MuJoCo's mesh bounding box is 0.1 x 0.2 x 0.3.
    verts = mm.mesh_vert[mm.mesh_vertadr[0] : mm.mesh_vertadr[0] + mm.mesh_vertnum[0]]
    np.testing.assert_allclose(np.sort(verts.max(0) - verts.min(0)), [0.1, 0.2, 0.3], atol=1e-6)


def test_malformed_metadata_is_ignored() -> None:
    """A hand-edited robomodel metadata element cannot break reading; good entries still work."""
    text = """<mujoco><worldbody><body name="a"><joint name="j" axis="0 0 1"/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody>
      <custom><text name="robomodel" data='{"merged": 3, "velocity_limits": {"j": "x"},
        "effort_limits": {"j": 2.5}, "force_torque": {"s": 1}}'/></custom></mujoco>"""
    model, _ = mjcf.loads_with_report(text)
    j = model.joint("j")
    assert j.velocity_limit == math.inf and j.effort_limit == 2.5
    _, report = mjcf.loads_with_report(
        "<mujoco><custom><text name='robomodel' data='not json'/></custom></mujoco>"
    )
    assert [x.kind for x in report.of("dropped")] == ["metadata"]


def test_relative_meshes_resolve_next_to_their_urdf(relative_mesh_urdf) -> None:
    """A mesh path relative to its URDF file is found from any working directory, given the
    URDF's directory (the load's report holds it: a mesh value does not remember it)."""
    model, read = ru.load_with_report(relative_mesh_urdf)
    options = mjcf.DumpOptions(base_dir=read.sources.base_dir)
    text, report = mjcf.dumps_with_report(model, options=options)
    assert not report.of("dropped")
    files = re.findall(r'<mesh name="[^"]*" file="([^"]*)"', text)
    assert files == [str(relative_mesh_urdf.parent / "meshes" / "b.stl")]
    mm = mjcf.compile_mjcf(text)
    assert mm.nmesh == 1 and mm.ngeom == 1
