"""``same_mechanism`` and ``robomodel compare``: it says "same" for what robomodel's conversions and
transformers produce, "different", naming the right element, for planted defects, and it
reports MuJoCo's own URDF import with numbers.

The oracles are outside this module: icub-models' URDF files, MuJoCo's compiler (robomodel's
MJCF reader reads what MuJoCo compiled) and MuJoCo's own URDF importer; the defects are planted
by hand on the values, never through the code under test.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import math
from collections.abc import Callable
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robomodel as rm
from robomodel.data import example_path
from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.formats import json as rjson
from robomodel.formats import mjcf, sdf, urdf
from robomodel.formats import usd as usd_format
from robomodel.tools.compare import Tolerances, same_mechanism
from robomodel.transformers import (
    change_base,
    make_urdf_compatible,
    prefix,
    reduce_model,
    rename,
)

icub_models = pytest.importorskip("icub_models")
mujoco = pytest.importorskip("mujoco")
# OpenUSD needs the usd extra (usd-core); without it the USD checks are left out.
usd = usd_format if importlib.util.find_spec("pxr") is not None else None

FAST = 12  # configurations in the default tier: each check is still hundreds of numbers


@functools.cache
def icub(name: str = "iCubGazeboV2_7") -> rm.Model:
    return urdf.load(icub_models.get_model_file(name))


@functools.cache
def example() -> rm.Model:
    return urdf.load(example_path())


def _moving(m: rm.Model) -> list[str]:
    return [n for n, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs]


def _set_joint(m: rm.Model, name: str, **changes: object) -> rm.Model:
    k = m.joint_index(name)
    return attrs.evolve(m, joints=m.joints.set(k, attrs.evolve(m.joints[k], **changes)))


def _set_sensor(m: rm.Model, name: str, new: rm.Sensor) -> rm.Model:
    k = next(i for i, s in enumerate(m.sensors) if s.name == name)
    return attrs.evolve(m, sensors=m.sensors.set(k, new))


def _rot(axis: tuple[float, float, float], angle: float) -> rm.Transform:
    return rm.Axis(axis).rotation(angle)


# --------------------------------------------------------------------------- "same"


def test_a_model_is_the_same_mechanism_as_itself() -> None:
    """The trivial case, with every quantity compared (sensors, both base conditions)."""
    m = icub()
    v = same_mechanism(m, m, samples=FAST)
    assert v.same and bool(v) and v.differences == ()
    assert v.reference == ("root_link", "root_link")
    assert dict(v.counts)["sensors"] == len(m.sensors)
    assert v.configurations.shape == (FAST, m.n_pos_coords)
    assert str(v).startswith("same mechanism")


def test_urdf_to_json_is_the_same_mechanism() -> None:
    m = icub()
    assert same_mechanism(m, rjson.loads(rjson.dumps(m)), samples=FAST).same


def test_urdf_to_mjcf_compiled_by_mujoco_is_the_same_mechanism() -> None:
    """robomodel's MJCF, compiled by MuJoCo and read back from MuJoCo's arrays."""
    m = icub()
    back = mjcf.loads(mjcf.dumps_with_report(m)[0])
    assert same_mechanism(m, back, samples=FAST).same


def test_urdf_to_sdf_and_usd_are_the_same_mechanism() -> None:
    """robomodel's SDFormat and OpenUSD, read back by robomodel's readers."""
    m = icub()
    assert same_mechanism(m, sdf.loads(sdf.dumps(m)), samples=FAST).same
    if usd is not None:
        assert same_mechanism(m, usd.loads(usd.dumps_with_report(m)[0]), samples=FAST).same


def test_change_base_is_the_same_mechanism() -> None:
    """change_base moves link frames onto the joint axes; their old poses are compared."""
    m = icub()
    c = change_base(m, "l_hand")
    v = same_mechanism(m, c, samples=FAST)
    assert v.same, v.report()
    assert any("were moved" in u for u in v.understood)
    # From the other side too: a's frames moved, b's not.
    assert same_mechanism(c, m, samples=FAST).same


def test_make_urdf_compatible_is_the_same_mechanism() -> None:
    m = change_base(icub(), "r_foot", urdf_compatible=False)
    u = make_urdf_compatible(m)
    assert u is not m
    assert same_mechanism(m, u, samples=FAST).same


def test_reduce_model_with_the_lumped_joints_locked_is_the_same_mechanism() -> None:
    """Legs lumped at random positions: with those positions given, the mechanism is the same;
    without them the lumped joints are reported."""
    m = icub()
    rng = np.random.default_rng(3)
    legs = [n for n in _moving(m) if any(k in n for k in ("hip", "knee", "ankle"))]
    keep = [n for n in m.joint_names if n not in legs and m.joint(n).n_dofs]
    at = {n: float(rng.uniform(-0.3, 0.3)) for n in legs}
    r = reduce_model(m, keep_joints=keep, locked_positions=at, lumped_sensors="drop")
    removed = {n: at.get(n, 0.0) for n in m.joint_names if n not in keep}
    v = same_mechanism(m, r, locked=removed, samples=FAST)
    assert v.same, v.report()
    bad = same_mechanism(m, r, samples=FAST)
    assert not bad.same
    assert {d.name for d in bad.of("missing") if d.kind == "joint"} == set(legs)


def test_a_world_merged_fixed_root_is_not_a_difference() -> None:
    m = example()
    j = rm.FixedJoint(link1="world", link2=m.default_base or "")
    w = rm.add_joint(rm.add_link(m, "world"), "world_fixed", j)
    w = rm.with_default_base_link(w, "world")
    v = same_mechanism(w, m, samples=FAST)
    assert v.same, v.report()
    assert any("world-merged root" in u for u in v.understood)
    # Fixed to the world, the model's base does not float: only the fixed-base torques count.
    i = m.link("l_lower_leg").inertia
    heavier = rm.SpatialInertia(2 * i.mass, 2 * i.first_moment, 2 * i.rotational_inertia)
    v = same_mechanism(w, rm.with_link(w, "l_lower_leg", rm.Link(heavier)), samples=FAST)
    assert "torque (fixed base)" in v.quantities
    assert "torque (floating base)" not in v.quantities
    v = same_mechanism(m, rm.with_link(m, "l_lower_leg", rm.Link(heavier)), samples=FAST)
    assert "torque (floating base)" in v.quantities


def test_rename_and_prefix_rules() -> None:
    m = example()
    p = prefix(m, "left_")
    with pytest.raises(ModelError, match="no link in common"):
        same_mechanism(m, p, samples=2)
    assert same_mechanism(m, p, prefix="left_", samples=FAST).same
    assert same_mechanism(p, m, prefix=("left_", ""), samples=FAST).same
    r = rename(m, {"l_lower_leg": "l_shin", "l_knee": "l_knee_joint"})
    v = same_mechanism(m, r, samples=FAST)
    assert not v.same and "l_lower_leg" in {d.name for d in v.of("missing")}
    names = {"l_lower_leg": "l_shin", "l_knee": "l_knee_joint"}
    assert same_mechanism(m, r, rename=names, samples=FAST).same


def test_a_joint_whose_zero_differs_with_its_limits_is_understood() -> None:
    """MuJoCo's ref: robomodel's MJCF reader gives positions qpos - ref (limits too), and the
    body is written at qpos = ref: the URDF joint and the MJCF joint are the same joint."""
    link = (
        '<inertial><mass value="1"/><origin xyz="0.1 0.2 0.3"/>'
        '<inertia ixx="1" iyy="2" izz="3" ixy="0" ixz="0" iyz="0"/></inertial>'
    )
    text = f"""<robot name="r"><link name="base">{link}</link><link name="arm">{link}</link>
      <link name="wheel">{link}</link>
      <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
        <origin xyz="0 0 1"/><axis xyz="0 0 1"/>
        <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
      <joint name="w" type="continuous"><parent link="arm"/><child link="wheel"/>
        <origin xyz="1 0 0"/><axis xyz="1 0 0"/></joint></robot>"""
    a = urdf.loads(text)
    body = '<inertial pos="0.1 0.2 0.3" mass="1" diaginertia="1 2 3"/>'
    # Bodies written at qpos = ref: the arm turned by 0.5 rad about z, the wheel by 0.7 about x.
    xml = f"""<mujoco><compiler angle="radian"/><worldbody>
      <body name="base"><freejoint name="free"/>{body}
      <body name="arm" pos="0 0 1" quat="{math.cos(0.25)} 0 0 {math.sin(0.25)}">
        <joint name="j" axis="0 0 1" ref="0.5" range="-1 1" limited="true"/>{body}
        <body name="wheel" pos="1 0 0" quat="{math.cos(0.35)} {math.sin(0.35)} 0 0">
          <joint name="w" axis="1 0 0" ref="0.7" limited="false"/>{body}</body></body>
    </body></worldbody></mujoco>"""
    b = mjcf.loads(xml)
    v = same_mechanism(a, b, samples=FAST)
    # MJCF has no velocity limit, and this document no effort limit: nothing else differs.
    assert v.quantities == ("effort limit", "velocity limit"), v.report()
    notes = " ".join(v.understood)
    assert "joint 'j': b's position is a's -0.5 rad" in notes
    assert "joint 'w': b's position is a's -0.7 rad" in notes


def test_mimic_joints_through_mjcf_are_the_same_mechanism() -> None:
    """A mimic relation becomes a MuJoCo joint equality and comes back."""
    m = _set_joint(
        example(), "l_knee", mimic=rm.Mimic(joint="l_hip_pitch", multiplier=-0.5, offset=0.1)
    )
    assert same_mechanism(m, mjcf.loads(mjcf.dumps_with_report(m)[0]), samples=FAST).same


def test_poses_from_a_reference_link_whose_frame_moved() -> None:
    """When every shared link of b is a moved frame, poses are measured from the frame that
    stands for a's reference link, and gravity and the base twist are moved into b's link."""
    unit = rm.SpatialInertia.from_com(1.0, (0.1, 0.2, 0.3), np.diag([0.1, 0.2, 0.25]))
    m = rm.add_link(rm.Model(), "A", rm.Link(unit))
    j1 = rm.RevoluteJoint(
        link1="A", link2="B", axis_in_link1=rm.Axis((0, 0, 1), (0.2, 0.1, 0)),
        link1_H_link2=rm.Transform.from_translation((0.5, 0, 0)),
    )  # fmt: skip
    m = rm.add_joint_and_link(m, "A", "j1", j1, "B", rm.Link(unit))
    j2 = rm.RevoluteJoint(
        link1="B", link2="C", axis_in_link1=rm.Axis((0, 1, 0), (0.1, 0, 0.3)),
        link1_H_link2=rm.Transform.from_rpy_xyz((0.1, 0.2, 0.3), (0.5, 0, 0)),
    )  # fmt: skip
    m = rm.add_joint_and_link(m, "B", "j2", j2, "C", rm.Link(unit))
    b = change_base(m, "C")
    assert set(b.frame_names) == {"A_original_frame", "B_original_frame"}
    # C is renamed away, so A and B (both moved in b) are the only shared links.
    v = same_mechanism(m, b, rename={"C": "C2"}, samples=FAST)
    assert v.reference == ("A", "A")
    assert {(d.quantity, d.name) for d in v.differences} == {("missing", "C")}, v.report()


# --------------------------------------------------------------------------- planted defects

LINKS_WITH_MASS = [n for n in ("l_upper_arm", "r_lower_leg", "chest", "head", "l_hand")]


@settings(max_examples=6)
@given(st.sampled_from([n for n in LINKS_WITH_MASS]))
def test_a_halved_link_mass_is_named(link: str) -> None:
    m = icub()
    i = m.link(link).inertia
    half = rm.SpatialInertia(i.mass / 2, i.first_moment / 2, i.rotational_inertia / 2)
    v = same_mechanism(m, rm.with_link(m, link, rm.Link(half)), samples=FAST)
    assert not v.same
    (d,) = v.of("body mass")
    assert d.name == link and d.a[0] == pytest.approx(2 * d.b[0])
    assert v.of("total mass")[0].error == pytest.approx(i.mass / 2)
    assert {x.name for x in v.of("body inertia")} == {link}


@settings(max_examples=8)
@given(st.data())
def test_an_inertia_rotated_by_its_own_rotation_is_named(data: st.DataObject) -> None:
    """The inertia about the centre of mass turned once more by its principal axes' rotation
    (an rpy applied twice), with mass and centre of mass unchanged."""
    m = icub()
    link = data.draw(st.sampled_from([n for n in m.link_names if m.link(n).mass > 0]))
    i = m.link(link).inertia
    I_C = i.rotational_inertia - i.mass * _skew(i.com).T @ _skew(i.com)
    _, R = np.linalg.eigh(I_C)
    R = R * np.sign(np.linalg.det(R))
    turned = R @ I_C @ R.T
    assume_visible = np.abs(turned - I_C).max() > 100 * Tolerances().inertia
    if not assume_visible:
        return
    new = rm.SpatialInertia.from_com(i.mass, i.com, turned)
    v = same_mechanism(m, rm.with_link(m, link, rm.Link(new)), samples=FAST)
    assert {d.name for d in v.of("body inertia")} == {link}
    assert v.of("body mass") == () and v.of("body centre of mass") == ()


def _skew(v: np.ndarray) -> np.ndarray:
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


@settings(max_examples=8)
@given(st.sampled_from(_moving(urdf.load(icub_models.get_model_file("iCubGazeboV2_7")))))
def test_a_flipped_axis_is_named(joint: str) -> None:
    m = icub()
    j = m.joint(joint)
    b = _set_joint(m, joint, axis_in_link1=j.axis_in_link1.reversed())
    v = same_mechanism(m, b, samples=FAST)
    worst = v.of("axis direction")[0]
    assert worst.name == joint and worst.error == pytest.approx(math.pi)
    assert {d.name for d in v.of("joint transform orientation")} == {joint}


@settings(max_examples=8)
@given(st.sampled_from(icub().joint_names), st.sampled_from([(1, 0, 0), (0, 1, 0), (0, 0, 1)]))
def test_a_joint_origin_shifted_by_a_millimetre_is_named(
    joint: str, direction: tuple[int, int, int]
) -> None:
    """Only the shifted joint's transform differs, by 1 mm; the links below it move by 1 mm."""
    m = icub()
    j = m.joint(joint)
    shift = rm.Transform.from_translation(np.array(direction) * 1e-3)
    changes: dict[str, object] = {"link1_H_link2": shift @ j.link1_H_link2}
    if j.n_dofs:
        changes["axis_in_link1"] = shift @ j.axis_in_link1
    v = same_mechanism(m, _set_joint(m, joint, **changes), samples=FAST)
    assert not v.same
    moved = v.of("joint transform position")
    if j.n_dofs:
        assert [d.name for d in moved] == [joint]
        assert moved[0].error == pytest.approx(1e-3)
    assert max(d.error for d in v.of("frame position")) == pytest.approx(1e-3)


@settings(max_examples=8)
@given(st.data())
def test_a_rotated_sensor_frame_is_named(data: st.DataObject) -> None:
    m = icub()
    s = data.draw(st.sampled_from(list(m.sensors)))
    turn = _rot((0.0, 0.0, 1.0), 0.1)
    if isinstance(s, rm.SixAxisForceTorqueSensor):
        new: rm.Sensor = s
        for link in s.links:
            new = new.with_link_H_sensor(link, s.link_H_sensor(link) @ turn)
    else:
        new = attrs.evolve(s, link_H_sensor=s.link_H_sensor @ turn)
    v = same_mechanism(m, _set_sensor(m, s.name, new), samples=FAST)
    # The turned frame is named by its orientation; its reading differs too, unless the sensor
    # reads nothing that depends on the turn (a gyroscope on the fixed root reads zero).
    assert {d.name for d in v.differences if d.kind == "sensor"} == {s.name}
    assert {d.name for d in v.of("frame orientation")} == {s.name}  # F/T: seen from both links
    assert {d.name for d in v.of("sensor reading")} <= {s.name}


@settings(max_examples=6)
@given(st.data())
def test_a_changed_mimic_multiplier_is_named(data: st.DataObject) -> None:
    m = icub()
    moving = _moving(m)
    follower = data.draw(st.sampled_from(moving))
    leader = data.draw(st.sampled_from([n for n in moving if n != follower]))
    k = data.draw(st.sampled_from([0.5, -1.0, 2.0]))
    with_mimic = _set_joint(m, follower, mimic=rm.Mimic(joint=leader, multiplier=k))
    assert same_mechanism(with_mimic, with_mimic, samples=FAST).same
    changed = _set_joint(m, follower, mimic=rm.Mimic(joint=leader, multiplier=k * 1.1))
    v = same_mechanism(with_mimic, changed, samples=FAST)
    (d,) = v.of("mimic")
    assert d.name == follower and d.a[0] == k and d.b[0] == pytest.approx(1.1 * k)


def test_a_joint_both_models_move_can_be_held_still() -> None:
    """Named in ``locked``, a joint both models move sits there in both, and the verdict says
    so: its flipped axis no longer moves the links below it apart."""
    m = example()
    j = m.joint("l_knee")
    flipped = _set_joint(m, "l_knee", axis_in_link1=j.axis_in_link1.reversed())
    assert not same_mechanism(m, flipped, samples=FAST).same
    v = same_mechanism(m, flipped, locked={"l_knee": 0.0}, samples=FAST)
    # Still seen: the axis itself, and the torque measured along it (of the opposite sign).
    assert v.quantities == ("axis direction", "torque (fixed base)", "torque (floating base)")
    assert {d.name for d in v.differences} == {"l_knee"}, v.report()
    assert "l_knee=0" in " ".join(v.understood)
    assert set(v.configurations[:, v.joint_names.index("l_knee")]) == {0.0}


def test_a_joint_that_one_model_fixed_is_a_difference_unless_locked() -> None:
    m = example()
    j = m.joint("l_knee")
    fixed = rm.FixedJoint(link1=j.link1, link2=j.link2, link1_H_link2=j.link1_H_link2)
    b = attrs.evolve(m, joints=m.joints.set(m.joint_index("l_knee"), fixed))
    v = same_mechanism(m, b, samples=FAST)
    (d,) = v.of("joint type")
    assert (d.name, d.b) == ("l_knee", "fixed")
    assert same_mechanism(m, b, locked={"l_knee": 0.0}, samples=FAST).same
    assert not same_mechanism(m, b, locked={"l_knee": 0.3}, samples=FAST).same


# --------------------------------------------------------------------------- MuJoCo's own import


def mujoco_urdf_import(name: str, tmp_path: Path) -> rm.Model:
    """MuJoCo's URDF importer on an icub-models robot (shapes removed: its meshes are not on
    MuJoCo's path), saved by MuJoCo as MJCF and read by robomodel's MJCF reader."""
    from lxml import etree

    doc = etree.parse(str(icub_models.get_model_file(name)))
    for el in doc.xpath("//visual|//collision"):
        el.getparent().remove(el)
    mm = mujoco.MjModel.from_xml_string(etree.tostring(doc).decode())
    out = tmp_path / f"{name}_mujoco.xml"
    mujoco.mj_saveLastXML(str(out), mm)
    return mjcf.load(out)


def test_mujocos_own_urdf_import_is_reported_with_numbers(tmp_path: Path) -> None:
    """MuJoCo fuses fixed-joint links into their parents (the root into the world, whose mass
    MuJoCo drops), loses every frame and sensor, and writes 6 significant digits; the joints'
    dynamics otherwise agree."""
    a = icub()
    b = mujoco_urdf_import("iCubGazeboV2_7", tmp_path)
    v = same_mechanism(a, b, samples=20)
    assert not v.same
    root = a.link("root_link").mass
    (total,) = v.of("total mass")
    assert total.error == pytest.approx(root, abs=1e-4)
    assert v.named("root_link")[0].quantity == "body mass"
    missing = v.of("missing")
    assert {d.name for d in missing if d.kind == "sensor"} == {s.name for s in a.sensors}
    assert {d.name for d in missing if d.kind == "frame"} == {f.name for f in a.frames}
    fused = {d.name for d in missing if d.kind == "link"}
    assert {"l_upper_arm", "r_upper_arm", "l_foot", "r_foot"} <= fused
    assert all("fused" in d.detail for d in missing if d.kind == "link" and d.name in fused)
    # Rounding to 6 digits, not a defect: every torque agrees to 1e-3 N m.
    torques = v.of("torque (fixed base)")
    assert torques and max(d.error for d in torques) < 1e-3
    assert v.of("axis line") == () or max(d.error for d in v.of("axis line")) < 1e-5


# --------------------------------------------------------------------------- the verdict value


def test_the_verdict_is_an_immutable_value() -> None:
    m = example()
    v = same_mechanism(m, m, samples=5, seed=7)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        v.seed = 1  # type: ignore[misc]
    with pytest.raises(ValueError):
        v.configurations[0, 0] = 1.0
    assert v == same_mechanism(m, m, samples=5, seed=7)
    assert v != same_mechanism(m, m, samples=5, seed=8)
    assert set(v.configuration(0)) == set(_moving(m))
    assert json.loads(json.dumps(v.as_dict(), allow_nan=False))["same"] is True
    from test_results_immutable import assert_deeply_immutable

    j = m.joint("l_knee")
    flipped = _set_joint(m, "l_knee", axis_in_link1=j.axis_in_link1.reversed())
    different = same_mechanism(m, change_base(flipped, "l_foot"), samples=5)
    assert not different.same
    assert_deeply_immutable(different)
    assert_deeply_immutable(v)


def test_the_configurations_are_within_the_joint_limits() -> None:
    m = icub()
    v = same_mechanism(m, m, samples=200, seed=1)
    for k, name in enumerate(v.joint_names):
        lim = m.joint(name).limits
        col = v.configurations[:, k]
        assert lim.lower <= col.min() and col.max() <= lim.upper, name


def test_bad_options_raise_clear_errors() -> None:
    m = example()
    with pytest.raises(ArgumentError, match="samples"):
        same_mechanism(m, m, samples=0)
    with pytest.raises(ArgumentError, match="seed"):
        same_mechanism(m, m, seed=1.5)  # type: ignore[arg-type]
    assert same_mechanism(m, m, samples=np.int64(3), seed=np.int32(2)).same  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError):
        same_mechanism(m, m, locked={"no_such_joint": 0.0})
    with pytest.raises(ArgumentError, match="tolerance"):
        Tolerances(torque=-1.0)
    with pytest.raises(ArgumentError, match="unknown tolerance"):
        Tolerances.all(1e-3, speed=1.0)


def test_tolerances_decide() -> None:
    """A 1 mm shift is a difference at the default tolerances and none at 1 cm."""
    m = example()
    j = m.joint("l_knee")
    shift = rm.Transform.from_translation((1e-3, 0, 0))
    b = _set_joint(
        m, "l_knee", link1_H_link2=shift @ j.link1_H_link2, axis_in_link1=shift @ j.axis_in_link1
    )
    assert not same_mechanism(m, b, samples=FAST).same
    loose = Tolerances.all(1.0)
    assert same_mechanism(m, b, samples=FAST, tolerances=loose).same


# --------------------------------------------------------------------------- the command


@attrs.frozen
class _Ran:
    returncode: int
    stdout: str


@pytest.fixture
def run_compare(capsys: pytest.CaptureFixture[str]) -> Callable[..., _Ran]:
    """``robomodel compare ARGS`` in this process: its exit status and standard output."""
    from robomodel.cli import main

    def run(*args: str) -> _Ran:
        capsys.readouterr()
        status = main(["compare", *args])
        return _Ran(status, capsys.readouterr().out)

    return run


def test_the_command_exit_status_says_same_different_or_unreadable(
    tmp_path: Path, run_compare: Callable[..., _Ran]
) -> None:
    m = example()
    same = tmp_path / "same.json"
    same.write_text(rjson.dumps(m))
    out = run_compare(str(example_path()), str(same))
    assert out.returncode == 0 and out.stdout.startswith("same mechanism"), out.stdout
    i = m.link("l_lower_leg").inertia
    half = rm.SpatialInertia(i.mass / 2, i.first_moment / 2, i.rotational_inertia / 2)
    other = tmp_path / "other.urdf"
    other.write_text(urdf.dumps(rm.with_link(m, "l_lower_leg", rm.Link(half))))
    out = run_compare(str(example_path()), str(other), "--samples", "5")
    assert out.returncode == 1
    assert "body mass" in out.stdout and "'l_lower_leg'" in out.stdout
    out = run_compare(str(example_path()), str(other), "--json", "--samples", "5")
    data = json.loads(out.stdout)
    assert out.returncode == 1 and data["same"] is False
    assert {d["name"] for d in data["differences"] if d["quantity"] == "body mass"} == {
        "l_lower_leg"
    }
    near = tmp_path / "near.urdf"
    heavier = rm.SpatialInertia(i.mass + 1e-5, i.first_moment, i.rotational_inertia)
    near.write_text(urdf.dumps(rm.with_link(m, "l_lower_leg", rm.Link(heavier))))
    assert run_compare(str(example_path()), str(near), "--samples", "5").returncode == 1
    out = run_compare(str(example_path()), str(near), "--tolerance", "1e-3", "--samples", "5")
    assert out.returncode == 0, out.stdout
    out = run_compare(str(example_path()), str(near), "--tolerance", "mass=1e-3", "--samples", "5")
    assert out.returncode == 1 and "body mass" not in out.stdout
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot")
    assert run_compare(str(example_path()), str(bad)).returncode == 2
    assert run_compare(str(example_path()), str(tmp_path / "none.urdf")).returncode == 2
    assert run_compare("example", "example", "--tolerance", "speed=1").returncode == 2


def test_the_command_takes_renames_and_locked_joints(
    tmp_path: Path, run_compare: Callable[..., _Ran]
) -> None:
    m = example()
    r = tmp_path / "renamed.urdf"
    r.write_text(urdf.dumps(rename(m, {"l_lower_leg": "l_shin"})))
    assert run_compare("example", str(r), "--samples", "3").returncode == 1
    assert (
        run_compare(
            "example", str(r), "--rename", "l_lower_leg=l_shin", "--samples", "3"
        ).returncode
        == 0
    )
    moving = [n for n in m.joint_names if n != "l_knee"]
    red = tmp_path / "reduced.urdf"
    red.write_text(
        urdf.dumps(
            reduce_model(
                m, keep_joints=moving, locked_positions={"l_knee": 0.2}, lumped_sensors="drop"
            )
        )
    )
    assert run_compare("example", str(red), "--samples", "3").returncode == 1
    out = run_compare("example", str(red), "--locked", "l_knee=0.2", "--samples", "3")
    assert out.returncode == 0, out.stdout


# --------------------------------------------------------------------------- every robot (slow)


def _balanced_by(detail: str) -> float:
    """The largest change of a principal inertia the MJCF export report gives (two lists)."""
    import re

    before, after = (json.loads(x) for x in re.findall(r"\[[^\]]*\]", detail)[:2])
    return float(np.abs(np.array(before) - np.array(after)).max())


@pytest.mark.slow
@pytest.mark.parametrize("name", icub_models.get_robot_names())
def test_every_icub_robot_converts_to_the_same_mechanism(name: str) -> None:
    """JSON keeps everything. MJCF keeps everything MuJoCo can hold, and the comparison names
    exactly the links whose inertia the export report says it changed: a link with rotational
    inertia but no mass (iCubLisboa01's torso) gets MuJoCo's minimum inertia, and inertias
    no rigid body has (iCubNancy01's ankles) are balanced."""
    m = icub(name)
    assert same_mechanism(m, rjson.loads(rjson.dumps(m))).same
    assert same_mechanism(m, sdf.loads(sdf.dumps(m))).same
    if usd is not None:
        assert same_mechanism(m, usd.loads(usd.dumps_with_report(m)[0])).same
    text, report = mjcf.dumps_with_report(m)
    v = same_mechanism(m, mjcf.loads(text))
    bumped = {x.name for x in report.losses if "massless moving body" in x.detail}
    lost = {
        n
        for n in bumped
        if m.link(n).mass == 0 and np.abs(m.link(n).inertia.rotational_inertia).max() > 1e-6
    } | {
        x.name
        for x in report.losses
        if x.kind == "inertia" and x.action == "changed" and _balanced_by(x.detail) > 1e-6
    }
    assert {d.name for d in v.of("body inertia")} == lost, f"{name}\n{v.report()}"
    if not lost:
        assert v.same, f"{name}\n{v.report()}"


@pytest.mark.slow
@pytest.mark.parametrize("name", icub_models.get_robot_names())
def test_every_icub_robot_transformed_is_the_same_mechanism(name: str) -> None:
    m = icub(name)
    rng = np.random.default_rng(0)
    moving = _moving(m)
    far = m.link_names[-1]
    assert same_mechanism(m, change_base(m, far)).same
    assert same_mechanism(m, make_urdf_compatible(change_base(m, far, urdf_compatible=False))).same
    keep = [n for n in moving if rng.random() < 0.5]
    at = {n: float(rng.uniform(-0.2, 0.2)) for n in moving if n not in keep}
    r = reduce_model(m, keep_joints=keep, locked_positions=at, lumped_sensors="drop")
    removed = {n: at.get(n, 0.0) for n in m.joint_names if n not in keep}
    v = same_mechanism(m, r, locked=removed)
    assert v.same, f"{name}\n{v.report()}"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["iCubGazeboV2_5", "iCubGenova04", "left_hand_mk3"])
def test_mujocos_own_import_of_other_robots_loses_the_root_mass(name: str, tmp_path: Path) -> None:
    """MuJoCo fuses a URDF's root into its world body, whose mass it drops."""
    a = icub(name)
    v = same_mechanism(a, mujoco_urdf_import(name, tmp_path))
    root = a.default_base or ""
    (total,) = v.of("total mass")
    assert total.error == pytest.approx(a.link(root).mass, abs=1e-4)
    assert v.named(root)[0].quantity == "body mass"


# --------------------------------------------------------------------------- random models


@settings(max_examples=25)
@given(st.data())
def test_random_models_are_the_same_mechanism_after_change_base_and_json(
    data: st.DataObject,
) -> None:
    """For random trees (links in either direction, prismatic and revolute joints, frames, an
    F/T sensor, an accelerometer, a gyroscope): a JSON round trip and ``change_base`` to any
    link (frames moved onto the joint axes) are the same mechanism, from both sides."""
    from strategies import models_with_sensors

    m = data.draw(models_with_sensors(max_links=6))
    assert same_mechanism(m, rjson.loads(rjson.dumps(m)), samples=5).same
    base = data.draw(st.sampled_from(list(m.link_names)))
    c = change_base(m, base)
    tol = Tolerances.all(1e-6, relative=1e-7)  # random inertias of 1e3 and lengths of 10
    v = same_mechanism(m, c, samples=5, tolerances=tol)
    assert v.same, v.report()
    assert same_mechanism(c, m, samples=5, tolerances=tol).same


@settings(max_examples=25)
@given(st.data())
def test_random_models_with_a_shifted_joint_are_different(data: st.DataObject) -> None:
    """Moving one joint's origin by 1 cm is always seen, and named on that joint.

    The shift is across the joint's axis: along it, an unlimited prismatic joint is the same
    joint with its zero elsewhere."""
    from strategies import models

    m = data.draw(models(max_links=6, min_links=2))
    name = data.draw(st.sampled_from(list(m.joint_names)))
    j = m.joint(name)
    u = j.axis_in_link1.direction if j.n_dofs else np.array([1.0, 0.0, 0.0])
    across = np.cross(u, [1.0, 0.0, 0.0] if abs(u[0]) < 0.9 else [0.0, 1.0, 0.0])
    shift = rm.Transform.from_translation(0.01 * across / np.linalg.norm(across))
    changes: dict[str, object] = {"link1_H_link2": shift @ j.link1_H_link2}
    if j.n_dofs:
        changes["axis_in_link1"] = shift @ j.axis_in_link1
    v = same_mechanism(m, _set_joint(m, name, **changes), samples=5)
    assert not v.same
    assert name in {d.name for d in v.of("joint transform position")}, v.report()


def _gym_assets() -> list[str]:
    try:
        import gymnasium
    except ImportError:
        return []
    import glob
    import os

    folder = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
    return sorted(glob.glob(os.path.join(folder, "*.xml")))


# half_cheetah.xml's <compiler settotalmass> makes MuJoCo's compiler itself warn (the MJCF
# reader passes its warnings on to the caller).
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:compiler attribute 'settotalmass' is deprecated:UserWarning")
@pytest.mark.parametrize("path", _gym_assets(), ids=lambda p: Path(p).name)
def test_gymnasium_models_through_robomodels_mjcf_are_the_same_mechanism(path: str) -> None:
    """gymnasium's MuJoCo models (ball joints, free joints, sites, joint equalities), read by
    robomodel, written as MJCF, compiled by MuJoCo and read back."""
    m, report = mjcf.loads_with_report(Path(path).read_text(), path=path)
    floating = any(x.kind == "floating base" for x in report.losses)
    text = mjcf.dumps_with_report(m, options=mjcf.DumpOptions(floating_base=floating))[0]
    v = same_mechanism(m, mjcf.loads_with_report(text)[0])  # (keyframes are reported lost)
    assert v.same, v.report()
