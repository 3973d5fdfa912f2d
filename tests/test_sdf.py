"""robomodel.formats.sdf: round trips (Hypothesis), URDF -> SDFormat -> URDF for the iCub
robots, the reader's pose rules on small documents, sensors, includes, worlds, and bad input.

The numbers of the pose-rule tests are computed by hand from the SDFormat specification's rules
(stated in each test); Drake checks the same rules in test_sdf_oracle.py.
"""

from __future__ import annotations

import math
import os
import warnings

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import SLOW, decorated_models, models, models_with_sensors
from test_urdf_roundtrip import urdf_models

import robomodel as rm
from robomodel.errors import RobomodelWarning, SDFError
from robomodel.formats import sdf, urdf

icub_models = pytest.importorskip("icub_models")

DATA = os.path.join(os.path.dirname(__file__), "data", "sdf")
ICUB = sorted(icub_models.get_robot_names())


def _doc(body: str, version: str = "1.7", name: str = "m") -> str:
    return (
        f'<?xml version="1.0"?>\n<sdf version="{version}"><model name="{name}">{body}</model></sdf>'
    )


def _link(name: str, pose: str = "", rel: str = "") -> str:
    r = f' relative_to="{rel}"' if rel else ""
    p = f"<pose{r}>{pose}</pose>" if pose else ""
    return f'<link name="{name}">{p}<inertial><mass>1</mass></inertial></link>'


def _no_dirs(m: rm.Model) -> rm.Model:
    return attrs.evolve(m, package_dirs=[])


# ---------------------------------------------------------------------- round trips
@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=25, deadline=None)
@given(urdf_models())
def test_round_trip_urdf_models(m: rm.Model) -> None:
    """loads(dumps(m)) == m, and the text is a fixed point: dumps(loads(x)) == x."""
    x = sdf.dumps(m)
    back = sdf.loads(x)
    assert back == m
    assert sdf.dumps(back) == x


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=30, deadline=None)
@given(models_with_sensors())
def test_round_trip_sensors(m: rm.Model) -> None:
    """Models with F/T sensors (either link first, either applied link), accelerometers and
    gyroscopes read back equal."""
    assert sdf.loads(sdf.dumps(m)) == m


@pytest.mark.slow
@SLOW
@given(decorated_models())
def test_round_trip_decorated_models_slow(m: rm.Model) -> None:
    """Every valid model (but its package dirs, which the report lists) reads back equal, in
    both versions when it has no mimic joint."""
    m = _no_dirs(m)
    assert sdf.loads(sdf.dumps(m)) == m
    if not any(getattr(j, "mimic", None) for j in m.joints):
        assert sdf.loads(sdf.dumps(m, options=sdf.DumpOptions(version="1.7"))) == m


@pytest.mark.slow
@SLOW
@given(models(max_links=10, max_frames=5))
def test_round_trip_trees_slow(m: rm.Model) -> None:
    """Random trees with joints in either direction and arbitrary axes read back equal."""
    assert sdf.loads(sdf.dumps(m)) == m


def _icub(name: str) -> rm.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobomodelWarning)
        return urdf.load(icub_models.get_model_file(name))


def _quiet_urdf(text: str) -> rm.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobomodelWarning)
        return urdf.loads(text)


@pytest.mark.parametrize("name", ["iCubGazeboV2_7", "left_hand_mk3"])
def test_icub_urdf_sdf_urdf(name: str) -> None:
    """URDF -> SDFormat -> URDF is == for an iCub, and the SDFormat report lists only renames
    (frames named like joints) and notes."""
    m = _icub(name)
    text, report = sdf.dumps_with_report(m)
    back = sdf.loads(text)
    assert back == m
    assert _quiet_urdf(urdf.dumps(back)) == m
    assert {x.action for x in report.losses} <= {"renamed", "note"}


@pytest.mark.slow
@pytest.mark.parametrize("name", ICUB)
def test_every_icub_urdf_sdf_urdf(name: str) -> None:
    """Every icub-models robot: URDF -> SDFormat -> URDF is ==."""
    m = _icub(name)
    back = sdf.loads(sdf.dumps(m))
    assert back == m
    assert _quiet_urdf(urdf.dumps(back)) == m


def test_version_1_7_reports_mimic_lost() -> None:
    m = rm.add_link(rm.Model(name="r"), "a")
    m = rm.add_joint_and_link(m, "a", "j1", "b", kind="revolute", axis=(0, 0, 1))
    m = rm.add_joint_and_link(m, "b", "j2", "c", kind="revolute", axis=(0, 0, 1))
    j2 = attrs.evolve(m.joint("j2"), mimic=rm.Mimic(joint="j1", multiplier=2.0, offset=0.5))
    m = attrs.evolve(m, joints=[m.joint("j1"), j2])
    text, report = sdf.dumps_with_report(m, options=sdf.DumpOptions(version="1.7"))
    assert '<sdf version="1.7"' in text and "<mimic" not in text
    assert [(x.action, x.name) for x in report.losses] == [("dropped", "j2")]
    assert sdf.loads(text) == attrs.evolve(m, joints=[m.joint("j1"), attrs.evolve(j2, mimic=None)])
    assert sdf.loads(sdf.dumps(m)) == m  # 1.11 keeps it


def test_names_with_xml_characters_round_trip() -> None:
    m = rm.add_link(rm.Model(name='a<&"b'), 'x&"<y')
    m = rm.add_joint_and_link(m, 'x&"<y', 'j"&', "z>'", kind="revolute", axis=(0, 0, 1))
    m = rm.add_frame(m, "z>'", "f&", rm.Transform.from_translation((1, 2, 3)))
    assert sdf.loads(sdf.dumps(m)) == m


def test_dump_writes_a_file_and_load_reads_it(tmp_path: os.PathLike[str]) -> None:
    m = _icub("left_hand_mk3")
    path = os.path.join(tmp_path, "hand.sdf")
    sdf.dump(m, path)
    assert sdf.load(path) == m


# ---------------------------------------------------------------------- pose rules
def test_link_pose_relative_to_a_frame_and_joint_pose_to_the_child() -> None:
    """A link posed relative_to a frame attached to another link; the joint frame (default:
    relative to the child) is the axis origin."""
    text = _doc(
        _link("a")
        + '<frame name="f" attached_to="a"><pose>1 0 0 0 0 1.5707963267948966</pose></frame>'
        + _link("b", "0 2 0 0 0 0", rel="f")
        + '<joint name="j" type="revolute"><pose>0 0 3 0 0 0</pose><parent>a</parent>'
        "<child>b</child><axis><xyz>1 0 0</xyz></axis></joint>"
    )
    m = sdf.loads(text)
    rest = m.joint("j").link1_H_link2
    # f is at (1, 0, 0) turned 90 degrees about z; (0, 2, 0) in f is (-2, 0, 0) in a.
    np.testing.assert_allclose(rest.position, [1 - 2, 0, 0], atol=1e-15)
    axis = m.joint("j").axis_in_link1
    np.testing.assert_allclose(axis.origin, [-1, 0, 3], atol=1e-15)
    np.testing.assert_allclose(axis.direction, [0, 1, 0], atol=1e-15)  # b's x is a's y
    (frame,) = m.frames
    assert (frame.name, frame.link) == ("f", "a")


@pytest.mark.parametrize(
    ("version", "flag", "expected"),
    [
        ("1.4", "", [0, 1, 0]),  # 1.4: the model frame
        ("1.5", "", [0, 0, 1]),  # 1.5: the joint frame (turned 90 degrees about x)
        ("1.5", "<use_parent_model_frame>true</use_parent_model_frame>", [0, 1, 0]),
        ("1.6", "<use_parent_model_frame>false</use_parent_model_frame>", [0, 0, 1]),
    ],
)
def test_axis_frame_before_1_7(version: str, flag: str, expected: list[float]) -> None:
    """<xyz>0 1 0</xyz> on a joint whose frame is turned 90 degrees about x."""
    text = _doc(
        _link("a")
        + _link("b", "0 0 1 1.5707963267948966 0 0")
        + '<joint name="j" type="revolute"><parent>a</parent><child>b</child>'
        f"<axis><xyz>0 1 0</xyz>{flag}</axis></joint>",
        version=version,
    )
    np.testing.assert_allclose(
        sdf.loads(text).joint("j").axis_in_link1.direction, expected, atol=1e-15
    )


def test_quaternion_and_degrees_give_the_rpy_rotation() -> None:
    """quat_xyzw and degrees="true" (1.9+) read as the same rotation as radians rpy."""
    q = rm.Transform.from_rpy_xyz((0.1, 0.2, 0.3)).rotation
    w = math.sqrt(1 + np.trace(q)) / 2
    x, y, z = (float(q[i, j] - q[j, i]) / (4 * w) for i, j in ((2, 1), (0, 2), (1, 0)))
    w = float(w)
    deg = " ".join(repr(math.degrees(v)) for v in (0.1, 0.2, 0.3))
    poses = [
        "<pose>0 0 0 0.1 0.2 0.3</pose>",
        f'<pose rotation_format="quat_xyzw">0 0 0 {x!r} {y!r} {z!r} {w!r}</pose>',
        f'<pose degrees="true">0 0 0 {deg}</pose>',
    ]
    body = "".join(f'<frame name="f{k}" attached_to="a">{p}</frame>' for k, p in enumerate(poses))
    frames = sdf.loads(_doc(_link("a") + body, version="1.9")).frames
    for f in frames[1:]:
        np.testing.assert_allclose(f.link_H_frame.rotation, q, atol=1e-12)


def test_nested_models_scope_names_and_frames() -> None:
    m = sdf.load(os.path.join(DATA, "nested_1_8.sdf"))
    assert list(m.link_names) == ["base", "arm::l1", "arm::hand::palm"]
    assert list(m.joint_names) == ["arm::wrist", "mount_joint"]
    assert [f.name for f in m.frames] == ["arm", "arm::mount", "arm::hand"]
    # placement_frame: the pose places arm::mount, so arm::mount is at (0, 0, 1) in base.
    mount = next(f for f in m.frames if f.name == "arm::mount")
    T = m.joint("mount_joint").link1_H_link2 @ mount.link_H_frame
    np.testing.assert_allclose(T.position, [0, 0, 1], atol=1e-15)


def test_include_through_package_dirs_only() -> None:
    m = sdf.load(os.path.join(DATA, "include_arm.sdf"), package_dirs=[os.path.join(DATA, "models")])
    assert list(m.link_names) == ["torso", "left_arm::upper", "left_arm::lower"]
    with pytest.raises(SDFError, match=r"include_arm.sdf:\d+: <include> 'model://arm/model.sdf'"):
        sdf.load(os.path.join(DATA, "include_arm.sdf"))


def test_include_directory_uri_reads_model_config(tmp_path: os.PathLike[str]) -> None:
    text = _doc(_link("t") + "<include><uri>model://arm</uri></include>")
    m = sdf.loads(text, package_dirs=[os.path.join(DATA, "models")])
    assert "arm::upper" in m.link_names
    outside = _doc(_link("t") + "<include><uri>model://../include_arm.sdf</uri></include>")
    with pytest.raises(SDFError, match="not found in the package dirs"):
        sdf.loads(outside, package_dirs=[os.path.join(DATA, "models")])


def test_include_cycle_is_refused(tmp_path: os.PathLike[str]) -> None:
    """A model that includes itself (through a relative URI) is an error, not a recursion."""
    folder = os.fspath(tmp_path)
    with open(os.path.join(folder, "a.sdf"), "w", encoding="utf-8") as fh:
        fh.write(_doc(_link("x") + "<include><uri>b.sdf</uri><name>b</name></include>", name="a"))
    with open(os.path.join(folder, "b.sdf"), "w", encoding="utf-8") as fh:
        fh.write(_doc(_link("y") + "<include><uri>a.sdf</uri><name>a</name></include>", name="b"))
    with pytest.raises(SDFError, match="includes itself"):
        sdf.load(os.path.join(folder, "a.sdf"))


def test_an_include_bomb_is_refused(tmp_path: os.PathLike[str]) -> None:
    """Ten includes of the next level at each of nine levels would expand 10**9 models: the
    reader stops at its bound with an error naming the element, in well under a second."""
    folder = os.fspath(tmp_path)
    for level in range(9):
        inc = "".join(
            f"<include><uri>l{level + 1}.sdf</uri><name>m{k}</name></include>" for k in range(10)
        )
        body = _link("x") + (inc if level < 8 else "")
        with open(os.path.join(folder, f"l{level}.sdf"), "w", encoding="utf-8") as fh:
            fh.write(_doc(body, name=f"l{level}"))
    with pytest.raises(SDFError, match=r"l\d\.sdf:\d+: <include> .*more than 1000 includes"):
        sdf.load(os.path.join(folder, "l0.sdf"))


def test_fifo_include_is_refused_without_blocking(tmp_path: os.PathLike[str]) -> None:
    folder = os.fspath(tmp_path)
    os.mkfifo(os.path.join(folder, "pipe.sdf"))
    with open(os.path.join(folder, "a.sdf"), "w", encoding="utf-8") as fh:
        fh.write(_doc(_link("x") + "<include><uri>pipe.sdf</uri></include>"))
    with pytest.raises(SDFError, match="not found"):
        sdf.load(os.path.join(folder, "a.sdf"))


# ---------------------------------------------------------------------- sensors and extensions
def test_sensors_and_kept_elements_of_frames_1_7() -> None:
    m, report = sdf.load_with_report(os.path.join(DATA, "frames_1_7.sdf"))
    assert [s.name for s in m.sensors] == ["imu_accelerometer", "imu_gyroscope", "ft"]
    ft = m.sensors[2]
    assert isinstance(ft, rm.SixAxisForceTorqueSensor)
    assert (ft.first_link, ft.second_link, ft.applied_wrench_link) == ("slider", "tool", "tool")
    tags = sorted((e.owner_kind, e.tag) for e in m.extensions)
    assert tags == [
        ("link", "self_collide"),
        ("robot", "plugin"),
        ("robot", "static"),
        ("sensor", "always_on"),
        ("sensor", "update_rate"),
    ]
    assert len(report) == 0
    assert sdf.loads(sdf.dumps(m)) == m


def test_force_torque_child_frame_and_direction() -> None:
    """frame=child, child_to_parent (the defaults): the child's axes at the joint origin, the
    wrench on the parent."""
    text = _doc(
        _link("a")
        + _link("b", "0 0 1 0 0 0.5")
        + '<joint name="j" type="fixed"><pose>0.1 0 0 0 0 0</pose><parent>a</parent>'
        '<child>b</child><sensor name="s" type="force_torque"/></joint>'
    )
    (s,) = sdf.loads(text).sensors
    assert isinstance(s, rm.SixAxisForceTorqueSensor)
    assert s.applied_wrench_link == "a"
    np.testing.assert_allclose(
        s.link_H_sensor("b").as_matrix(), rm.Transform.from_translation((0.1, 0, 0)).as_matrix()
    )


# ---------------------------------------------------------------------- bad input
def test_world_with_two_models_lists_them_and_model_chooses() -> None:
    path = os.path.join(DATA, "world_two.sdf")
    with pytest.raises(
        SDFError, match=r"world_two.sdf:\d+: the document has 2 models \('box', 'ball'\)"
    ):
        sdf.load(path)
    m = sdf.load(path, options=sdf.LoadOptions(model="ball"))
    assert list(m.link_names) == ["s"] and m.total_mass == 2.0
    with pytest.raises(SDFError, match="no model named 'cart'"):
        sdf.load(path, options=sdf.LoadOptions(model="cart"))


def test_unsupported_joint_raises_with_its_line_or_is_dropped_and_reported() -> None:
    path = os.path.join(DATA, "ball.sdf")
    with pytest.raises(
        SDFError, match=r"ball.sdf:6: joint 'socket': type=\"ball\" is not modelled"
    ):
        sdf.load(path)
    m, report = sdf.load_with_report(path, options=sdf.LoadOptions(unsupported_joints="drop"))
    assert m.n_joints == 0 and m.n_links == 2
    assert [(x.action, x.kind, x.name) for x in report.losses] == [("dropped", "joint", "socket")]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("<sdf version='1.7'><model name='m'><link name='a'></model></sdf>", "not well-formed"),
        ("<robot name='r'/>", "not <sdf>"),
        ("<sdf version='2.0'><model name='m'/></sdf>", "2.0 is not supported"),
        ("<sdf version='x'><model name='m'/></sdf>", "is not a version"),
        ("<sdf version='1.7'></sdf>", "has no <model>"),
        (_doc(_link("a", "1 2 3")), "must hold 6 numbers"),
        (_doc(_link("a", "1 2 3 4 5 nan")), "NaN"),
        (_doc(_link("a", "0 0 0 0 0 0", rel="nowhere")), "no frame named 'nowhere'"),
        (
            _doc(
                _link("a")
                + '<joint name="j" type="fixed"><parent>a</parent><child>zz</child></joint>'
            ),
            "zz",
        ),
        (
            _doc(
                _link("a")
                + _link("b")
                + '<joint name="j" type="revolute"><parent>a</parent><child>b</child></joint>'
            ),
            "needs an <axis>",
        ),
        (_doc(_link("a") + '<link name="a"/>'), "is taken"),
        (
            _doc('<frame name="f" attached_to="g"/><frame name="g" attached_to="f"/>' + _link("a")),
            "cycle",
        ),
        (_doc('<link name="a"><inertial><mass>-1</mass></inertial></link>'), "negative"),
        ('<!DOCTYPE x [<!ENTITY e "x">]><sdf version="1.7"/>', "DOCTYPE"),
        (
            _doc(
                '<link name="a"><visual name="v"><geometry><box><size>-1 1 1</size></box>'
                "</geometry></visual></link>"
            ),
            "link 'a': a shape dimension must be >= 0",
        ),
        (
            _doc(
                _link("a")
                + _link("b")
                + '<joint name="j" type="revolute"><parent>a</parent><child>b</child>'
                '<axis><xyz>0 0 1</xyz><mimic joint="nope"/></axis></joint>',
                version="1.11",
            ),
            "<mimic joint='nope'> names no joint",
        ),
        (
            _doc(
                _link("a")
                + '<frame name="f"><pose rotation_format="quat_xyzw">0 0 0 0 0 0 0</pose></frame>',
                version="1.9",
            ),
            "quaternion is zero",
        ),
    ],
)
def test_bad_input_is_an_sdf_error_naming_the_place(text: str, words: str) -> None:
    with pytest.raises(SDFError, match=words) as e:
        sdf.loads(text, filename="bad.sdf")
    assert str(e.value).startswith("bad.sdf")


def test_dump_refuses_reserved_names() -> None:
    """'world' is SDFormat's world only as a massless first link at the base."""
    m = rm.add_joint_and_link(rm.add_link(rm.Model(), "a"), "a", "j", "world", kind="fixed")
    with pytest.raises(SDFError, match="reserves"):
        sdf.dumps(m)
    with pytest.raises(SDFError, match="reserves"):
        sdf.dumps(rm.add_frame(rm.add_link(rm.Model(), "a"), "a", "__model__"))
    w = rm.add_joint_and_link(rm.add_link(rm.Model(), "world"), "world", "j", "a", kind="fixed")
    assert '<link name="world"' not in sdf.dumps(w)
    assert sdf.loads(sdf.dumps(w)) == w


def test_names_with_surrounding_spaces_round_trip() -> None:
    """Readers trim ``<parent>``/``<child>`` text (a name on a line of its own); robomodel states
    a name that has surrounding spaces exactly beside it."""
    m = rm.Model(link_names=["a", " b "], links=[rm.Link(), rm.Link()])
    m = rm.add_joint(
        m,
        "j",
        rm.RevoluteJoint(
            link1="a", link2=" b ", link1_H_link2=rm.Transform(), axis_in_link1=rm.Axis((0, 0, 1))
        ),
    )
    text = sdf.dumps(m)
    assert 'robomodel:name=" b "' in text
    assert sdf.loads(text) == m
