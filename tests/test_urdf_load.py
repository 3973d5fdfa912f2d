"""URDF loader: what it reads, the order it builds, and how it refuses bad input."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

import robomodel as rm
from robomodel.errors import ArgumentError, RobomodelWarning, TopologyError, URDFError
from robomodel.formats.urdf import (
    LoadOptions,
    URDFReferenceError,
    URDFSensorError,
    URDFSyntaxError,
    URDFTopologyError,
    URDFUnsupportedError,
    URDFValueError,
    dumps,
    load,
    loads,
    resolve_uri,
)
from robomodel.model.spatial import rotation_from_rpy
from robomodel.transformers import reduce_model

INERTIA = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'


def link(name: str, mass: float = 1.0, extra: str = "") -> str:
    return f'<link name="{name}"><inertial><mass value="{mass}"/>{INERTIA}</inertial>{extra}</link>'


def joint(name: str, parent: str, child: str, kind: str = "fixed", extra: str = "") -> str:
    return (
        f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
        f"{extra}</joint>"
    )


def robot(*parts: str, name: str = "r") -> str:
    return f'<robot name="{name}">\n' + "\n".join(parts) + "\n</robot>"


# ---------------------------------------------------------------------------- what is read
def test_inertial_is_rotated_into_the_link_frame() -> None:
    text = robot(
        '<link name="a"><inertial><origin xyz="0.1 0.2 0.3" rpy="0.3 -0.2 1.1"/>'
        '<mass value="2"/><inertia ixx="1" ixy="0.1" ixz="0.2" iyy="2" iyz="0.3" izz="3"/>'
        "</inertial></link>"
    )
    m = loads(text, options=LoadOptions(inertia="ignore"))  # not a rigid body's inertia
    R = rotation_from_rpy(0.3, -0.2, 1.1)
    I_C = np.array([[1, 0.1, 0.2], [0.1, 2, 0.3], [0.2, 0.3, 3]])
    expected = rm.SpatialInertia.from_com(2.0, (0.1, 0.2, 0.3), R @ I_C @ R.T)
    got = m.link("a").inertia
    assert got.mass == 2.0
    np.testing.assert_allclose(got.as_vector(), expected.as_vector(), atol=1e-14)


def test_joint_kinds_limits_effort_velocity_dynamics() -> None:
    text = robot(
        link("a"),
        link("b"),
        link("c"),
        link("d"),
        joint(
            "rev",
            "a",
            "b",
            "revolute",
            '<axis xyz="0 0 2"/><limit lower="-1" upper="2" effort="30" velocity="4"/>'
            '<dynamics damping="0.5" friction="0.25"/>',
        ),
        # B3: the standard ROS continuous joint carries <limit effort velocity>.
        joint("cont", "b", "c", "continuous", '<limit effort="7" velocity="8"/>'),
        joint("pri", "c", "d", "prismatic", '<axis xyz="1 0 0"/><limit lower="0" upper="0.5"/>'),
    )
    m = loads(text)
    rev, cont, pri = m.joint("rev"), m.joint("cont"), m.joint("pri")
    assert isinstance(rev, rm.RevoluteJoint)
    assert rev.limits == rm.PositionLimits.between(-1.0, 2.0)
    assert (rev.effort_limit, rev.velocity_limit) == (30.0, 4.0)
    assert rev.dynamics == rm.JointDynamics(kind="urdf", damping=0.5, static_friction=0.25)
    np.testing.assert_array_equal(rev.axis("b").direction, [0.0, 0.0, 1.0])
    assert isinstance(cont, rm.RevoluteJoint)
    assert not cont.limits.enabled
    assert (cont.effort_limit, cont.velocity_limit) == (7.0, 8.0)
    assert cont.dynamics.kind == "none"
    assert isinstance(pri, rm.PrismaticJoint)
    assert pri.limits == rm.PositionLimits.between(0.0, 0.5)
    assert math.isinf(pri.effort_limit)


def test_axis_is_given_in_the_child_frame_and_defaults_to_x() -> None:
    origin = '<origin xyz="1 2 3" rpy="0 0 1.5707963267948966"/>'
    m = loads(robot(link("a"), link("b"), joint("j", "a", "b", "revolute", origin)))
    j = m.joint("j")
    np.testing.assert_allclose(j.axis("b").direction, [1.0, 0.0, 0.0], atol=1e-15)
    # In the parent, the child's x axis points along the parent's y axis.
    np.testing.assert_allclose(j.axis_in_link1.direction, [0.0, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(j.axis_in_link1.origin, [1.0, 2.0, 3.0])


def test_shapes_materials_and_names_are_kept() -> None:
    text = robot(
        '<material name="blue"><color rgba="0 0 1 1"/></material>',
        link(
            "a",
            extra='<visual name="v"><origin xyz="0 0 1"/><geometry><box size="1 2 3"/>'
            '</geometry><material name="blue"/></visual>'
            '<visual><geometry><mesh filename="package://p/m.stl" scale="1 2 3"/></geometry>'
            '<material name="red"><color rgba="1 0 0 1"/></material></visual>'
            '<collision name="c"><geometry><cylinder radius="0.1" length="2"/></geometry>'
            "</collision>"
            '<collision><geometry><sphere radius="0.5"/></geometry></collision>',
        ),
    )
    m = loads(text)
    v1, v2 = m.visual_shapes("a")
    assert v1.name == "v" and v1.geometry == rm.Box(1, 2, 3)
    assert v1.material == rm.Material(name="blue", rgba=(0, 0, 1, 1))
    np.testing.assert_array_equal(v1.link_H_geometry.position, [0, 0, 1])
    assert v2.name is None
    assert v2.geometry == rm.Mesh("package://p/m.stl", (1, 2, 3))  # kept verbatim
    assert v2.material == rm.Material(name="red", rgba=(1, 0, 0, 1))
    c1, c2 = m.collision_shapes("a")
    assert c1.geometry == rm.Cylinder(0.1, 2) and c2.geometry == rm.Sphere(0.5)
    assert list(m.materials) == [rm.Material(name="blue", rgba=(0, 0, 1, 1))]
    undefined = loads(
        robot(
            '<link name="a"><visual><geometry><sphere radius="1"/></geometry>'
            '<material name="nope"/></visual></link>'
        )
    )
    assert undefined.visual_shapes("a")[0].material == rm.Material(name="nope")
    assert m.name == "r"


def test_extensions_and_mimic_are_kept_verbatim() -> None:
    gazebo = '<gazebo reference="a">\n    <mu1>0.5</mu1>\n  </gazebo>'
    text = robot(
        link("a", extra='<custom_tag x="1"/>'),
        link("b"),
        link("c"),
        joint(
            "j1",
            "a",
            "b",
            "continuous",
            '<calibration rising="0.1"/><safety_controller k_velocity="10"/>',
        ),
        joint("j2", "b", "c", "continuous", '<mimic joint="j1" multiplier="2" offset="0.5"/>'),
        gazebo,
        '<transmission name="t"><joint name="j1"/></transmission>',
        '<sensor name="cam" type="camera"><parent link="a"/></sensor>',
    )
    m = loads(text)
    assert m.joint("j2").mimic == rm.Mimic(joint="j1", multiplier=2.0, offset=0.5)
    kept = {(e.owner_kind, e.owner, e.tag): e.xml for e in m.extensions}
    assert kept[("robot", "", "gazebo")] == gazebo
    assert kept[("link", "a", "custom_tag")] == '<custom_tag x="1"/>'
    assert kept[("joint", "j1", "calibration")] == '<calibration rising="0.1"/>'
    assert kept[("joint", "j1", "safety_controller")] == '<safety_controller k_velocity="10"/>'
    # Modelled, and its text is the one robomodel writes: not kept (reads back equal).
    assert ("joint", "j2", "mimic") not in kept
    assert kept[("robot", "", "transmission")].startswith('<transmission name="t">')
    assert kept[("robot", "", "sensor")].startswith('<sensor name="cam" type="camera">')
    m2 = loads(text, options=LoadOptions(keep_extensions=False))
    assert len(m2.extensions) == 0


def test_document_order_rule_moving_then_fixed() -> None:
    """Spec §7.7: moving joints in document order, then fixed ones; traversal numbering."""
    text = robot(
        link("base"),
        link("c"),
        link("a"),
        link("b"),
        link("tool"),
        joint("jt", "b", "tool", "fixed"),
        joint("jc", "base", "c", "continuous"),
        joint("ja", "base", "a", "continuous"),
        joint("jb", "a", "b", "continuous"),
    )
    m = loads(text)
    # Adjacency of base: jc, ja (document order); traversal [base, c, a, b, tool].
    assert list(m.link_names) == ["base", "c", "a", "b", "tool"]
    assert list(m.joint_names) == ["jc", "ja", "jb", "jt"]
    assert m.default_base == "base"
    # A joint placed before its links works (iDynTree verified behaviour, spec §7.2).
    again = loads(robot(joint("j", "x", "y", "continuous"), link("x"), link("y")))
    assert list(again.link_names) == ["x", "y"]


def test_fake_links_become_frames_with_shapes_and_sensors_moved() -> None:
    """B16: shapes and link sensors of a fake link move onto its neighbour, composed."""
    text = robot(
        '<link name="footprint"><visual><origin xyz="0 0 0.1"/><geometry><sphere radius="1"/>'
        "</geometry></visual></link>",
        link("base"),
        '<link name="tip"><visual name="tv"><origin xyz="1 0 0"/><geometry>'
        '<box size="1 1 1"/></geometry></visual></link>',
        joint("jf", "footprint", "base", "fixed", '<origin xyz="0 0 0.5"/>'),
        joint("jt", "base", "tip", "fixed", '<origin xyz="0 0 2" rpy="0 0 1.5707963267948966"/>'),
        '<sensor name="acc" type="accelerometer"><parent link="tip"/>'
        '<origin xyz="0 1 0"/></sensor>',
    )
    m = loads(text)
    assert list(m.link_names) == ["base"]
    assert m.default_base == "base"
    assert m.frame_names == ["footprint", "tip", "acc"]
    np.testing.assert_allclose(m.frame_transform("footprint").position, [0, 0, -0.5])
    (fv, tv) = m.visual_shapes("base")  # the fake root's shapes first, then the others
    np.testing.assert_allclose(fv.link_H_geometry.position, [0, 0, -0.4])
    assert tv.name == "tv"
    np.testing.assert_allclose(tv.link_H_geometry.position, [0, 1, 2], atol=1e-15)
    acc = m.sensor("acc")
    assert acc.link == "base"
    np.testing.assert_allclose(acc.link_H_sensor.position, [-1, 0, 2], atol=1e-15)
    kept = loads(text, options=LoadOptions(remove_fake_links=False))
    assert list(kept.link_names) == ["footprint", "base", "tip"]
    assert kept.sensor("acc").link == "tip"


def test_two_massless_links_with_a_fixed_joint() -> None:
    # T12 (iDynTree 15.1 run): removeFakeLinks fails and leaves 2 links, 1 joint, no frames.
    # DEVIATE: the root becomes a frame of the child, as for any fake URDF root.
    m = loads(robot('<link name="a"/>', '<link name="b"/>', joint("j", "a", "b")))
    assert (list(m.link_names), m.n_joints, m.frame_names) == (["b"], 0, ["a"])
    kept = loads(
        robot('<link name="a"/>', '<link name="b"/>', joint("j", "a", "b")),
        options=LoadOptions(remove_fake_links=False),
    )
    assert (kept.n_links, kept.n_joints, len(kept.frames)) == (2, 1, 0)


def test_ft_sensor_joint_keeps_its_massless_leaf_link() -> None:
    # iDynTree removes the leaf and then drops every sensor (B5); robomodel keeps the link.
    m = loads(
        robot(
            link("a"),
            '<link name="f"/>',
            joint("jf", "a", "f"),
            '<sensor name="s" type="force_torque"><parent joint="jf"/><force_torque><frame>'
            "child</frame><measure_direction>parent_to_child</measure_direction>"
            "</force_torque></sensor>",
        )
    )
    assert list(m.link_names) == ["a", "f"]
    assert m.sensor("s").parent_joint == "jf"  # type: ignore[union-attr]


def test_t4_force_torque_sensor_frame_sensor() -> None:
    # T4 (spec §11, from the iDynTree 15.1.0 runs).
    text = robot(
        link("b"),
        link("tool"),
        joint("jt", "b", "tool", "fixed", '<origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/>'),
        '<sensor name="ft" type="force_torque"><parent joint="jt"/><force_torque>'
        "<frame>sensor</frame><measure_direction>child_to_parent</measure_direction>"
        '</force_torque><origin xyz="0.1 0 0"/></sensor>',
    )
    m = loads(text)
    s = m.sensor("ft")
    assert isinstance(s, rm.SixAxisForceTorqueSensor)
    assert (s.first_link, s.second_link, s.applied_wrench_link) == ("b", "tool", "b")
    np.testing.assert_allclose(
        s.first_link_H_sensor.rotation, rotation_from_rpy(0, 0, math.pi / 2), atol=1e-15
    )
    np.testing.assert_allclose(s.first_link_H_sensor.position, [0, 0.1, 1], atol=1e-15)
    np.testing.assert_allclose(s.second_link_H_sensor.position, [0.1, 0, 0])
    assert m.frame_names == ["ft"]
    assert m.link_name(m.frame_link("ft")) == "tool"
    np.testing.assert_allclose(m.frame_transform("ft").position, [0.1, 0, 0])


@pytest.mark.parametrize(
    ("frame", "first", "second"),
    [("child", "P", "I"), ("parent", "I", "Pinv"), ("sensor", "PO", "O")],
)
def test_force_torque_frame_table(frame: str, first: str, second: str) -> None:
    """Spec §7.6 table; link1_H_sensor @ inverse(link2_H_sensor) == P in every case (§8.9)."""
    text = robot(
        link("a"),
        link("b"),
        joint("j", "a", "b", "fixed", '<origin xyz="0.1 0.2 0.3" rpy="0.4 0.5 0.6"/>'),
        f'<sensor name="s" type="force_torque"><parent joint="j"/><force_torque><frame>{frame}'
        "</frame><measure_direction>parent_to_child</measure_direction></force_torque>"
        '<origin xyz="1 2 3" rpy="0.1 0.2 0.3"/></sensor>',
    )
    m = loads(text)
    s = m.sensor("s")
    P = rm.Transform.from_rpy_xyz((0.4, 0.5, 0.6), (0.1, 0.2, 0.3))
    O_ = rm.Transform.from_rpy_xyz((0.1, 0.2, 0.3), (1, 2, 3))
    table = {"P": P, "I": rm.Transform(), "Pinv": P.inverse(), "PO": P @ O_, "O": O_}
    for got, key in ((s.first_link_H_sensor, first), (s.second_link_H_sensor, second)):
        np.testing.assert_allclose(got.as_matrix(), table[key].as_matrix(), atol=1e-14)
    np.testing.assert_allclose(
        (s.first_link_H_sensor @ s.second_link_H_sensor.inverse()).as_matrix(),
        P.as_matrix(),
        atol=1e-14,
    )
    assert s.applied_wrench_link == "b"


def test_sensor_frame_name_clash_warns_b22() -> None:
    text = robot(
        link("a"),
        link("b"),
        '<link name="g"/>',
        joint("j", "a", "b", "continuous"),
        joint("jg", "b", "g", "fixed", '<origin xyz="0 0 1"/>'),
        '<sensor name="g" type="gyroscope"><parent link="a"/></sensor>',
    )
    with pytest.warns(RobomodelWarning, match="no sensor frame added for 'g'"):
        m = loads(text)
    assert m.frame_names == ["g"]
    assert m.link_name(m.frame_link("g")) == "b"
    # The same frame seen from the sensor's link is no clash: silent.
    same = text.replace(
        '<sensor name="g" type="gyroscope"><parent link="a"/>',
        '<sensor name="g" type="gyroscope"><parent link="b"/><origin xyz="0 0 1"/>',
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loads(same)


def test_package_dirs_are_stored_and_resolution_is_explicit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pkg" / "meshes").mkdir(parents=True)
    mesh = tmp_path / "pkg" / "meshes" / "m.stl"
    mesh.write_text("solid")
    text = robot(
        '<link name="a"><visual><geometry><mesh filename="package://pkg/meshes/m.stl"/>'
        "</geometry></visual></link>"
    )
    m = loads(text, package_dirs=[str(tmp_path)])
    assert list(m.package_dirs) == [str(tmp_path)]
    assert m.visual_shapes("a")[0].geometry.filename == "package://pkg/meshes/m.stl"  # type: ignore[union-attr]
    assert resolve_uri(m, "package://pkg/meshes/m.stl") == str(mesh)
    assert resolve_uri([str(tmp_path)], "model://pkg/meshes/m.stl") == str(mesh)
    with pytest.raises(URDFReferenceError, match="not found"):
        resolve_uri([], "package://pkg/meshes/m.stl")
    resolved = loads(text, resolver=lambda uri: resolve_uri([str(tmp_path)], uri)).visual_shapes(
        "a"
    )[0]
    assert resolved.geometry.filename == str(mesh)  # type: ignore[union-attr]


def test_load_from_file_names_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.urdf"
    path.write_text(robot(link("a"), joint("j", "a", "nope")))
    with pytest.raises(URDFReferenceError) as info:
        load(path)
    assert str(info.value).startswith(f"{path}:3: joint 'j': unknown link 'nope'")
    assert info.value.line == 3 and info.value.file == str(path)


# ---------------------------------------------------------------------------- bad input
BAD = {
    "syntax": ("<robot><link name='a'></robot>", URDFSyntaxError, r"<string>:1: xml: not well"),
    "not robot": ("<sdf/>", URDFValueError, r"root element is <sdf>"),
    "no links": ("<robot/>", URDFTopologyError, "no <link>"),
    "link without name": (robot("<link/>"), URDFValueError, r":2: link: <link> needs"),
    "missing mass value": (
        robot('<link name="a"><inertial><mass/></inertial></link>'),
        URDFValueError,
        r"link 'a': <mass> needs the attribute 'value'",
    ),
    "incomplete inertia (B17)": (
        robot('<link name="a"><inertial><mass value="1"/><inertia ixx="1"/></inertial></link>'),
        URDFValueError,
        r"'ixy'",
    ),
    "non-numeric": (
        robot('<link name="a"><inertial><mass value="heavy"/></inertial></link>'),
        URDFValueError,
        r"'heavy'> is not 1 decimal number",
    ),
    "non-finite": (
        robot(link("a"), link("b"), joint("j", "a", "b", extra='<origin xyz="0 nan 0"/>')),
        URDFValueError,
        r"non-finite",
    ),
    "wrong vector length": (
        robot(link("a"), link("b"), joint("j", "a", "b", extra='<origin xyz="0 0"/>')),
        URDFValueError,
        r"must hold 3 numbers, got 2",
    ),
    "unknown link": (
        robot(link("base"), link("arm"), joint("j", "base", "amr")),
        URDFReferenceError,
        r"unknown link 'amr'; did you mean 'arm'\?",
    ),
    "duplicate link": (
        robot(link("a"), link("a")),
        URDFReferenceError,
        r":3: link 'a': a second link with this name \(the first is on line 2\)",
    ),
    "duplicate joint": (
        robot(link("a"), link("b"), link("c"), joint("j", "a", "b"), joint("j", "a", "c")),
        URDFReferenceError,
        r"joint 'j': a second joint",
    ),
    "two parents": (
        robot(link("a"), link("b"), link("c"), joint("j1", "a", "c"), joint("j2", "b", "c")),
        URDFTopologyError,
        r"link 'c' already has the parent joint 'j1'",
    ),
    "loop": (
        robot(
            link("r"),
            link("a"),
            link("b"),
            joint("j0", "r", "a"),
            joint("j1", "a", "b"),
            joint("j2", "b", "a"),
        ),
        URDFTopologyError,
        r"(form a loop|already has the parent)",
    ),
    "pure loop (no root)": (
        robot(link("a"), link("b"), joint("j1", "a", "b"), joint("j2", "b", "a")),
        URDFTopologyError,
        r"form a loop",
    ),
    "several roots (B4)": (
        robot(link("a"), link("b")),
        URDFTopologyError,
        r"2 root links \('a', 'b'\)",
    ),
    "self joint": (robot(link("a"), joint("j", "a", "a")), URDFTopologyError, "both 'a'"),
    "floating (B4)": (
        robot(link("a"), link("b"), joint("j", "a", "b", "floating")),
        URDFUnsupportedError,
        r"type 'floating'",
    ),
    "planar (B4)": (
        robot(link("a"), link("b"), joint("j", "a", "b", "planar")),
        URDFUnsupportedError,
        r"type 'planar'",
    ),
    "unknown joint type": (
        robot(link("a"), link("b"), joint("j", "a", "b", "hinge")),
        URDFValueError,
        r"unknown joint type 'hinge'",
    ),
    "zero axis": (
        robot(link("a"), link("b"), joint("j", "a", "b", "revolute", '<axis xyz="0 0 0"/>')),
        URDFValueError,
        r"zero vector",
    ),
    "lower > upper": (
        robot(
            link("a"),
            link("b"),
            joint("j", "a", "b", "revolute", '<limit lower="1" upper="0"/>'),
        ),
        URDFValueError,
        r"lower > upper",
    ),
    "negative box": (
        robot('<link name="a"><visual><geometry><box size="1 -1 1"/></geometry></visual></link>'),
        URDFValueError,
        r">= 0",
    ),
    "ft on unknown joint (B5)": (
        robot(
            link("a"),
            '<sensor name="s" type="force_torque"><parent joint="x"/><force_torque><frame>'
            "child</frame><measure_direction>parent_to_child</measure_direction>"
            "</force_torque></sensor>",
        ),
        URDFSensorError,
        r"sensor 's': unknown joint 'x'",
    ),
    "ft without measure_direction (B5)": (
        robot(
            link("a"),
            link("b"),
            joint("j", "a", "b"),
            '<sensor name="s" type="force_torque"><parent joint="j"/><force_torque>'
            "<frame>child</frame></force_torque></sensor>",
        ),
        URDFSensorError,
        r"measure_direction",
    ),
    "ft without force_torque": (
        robot(
            link("a"),
            link("b"),
            joint("j", "a", "b"),
            '<sensor name="s" type="force_torque"><parent joint="j"/></sensor>',
        ),
        URDFSensorError,
        r"needs <force_torque>",
    ),
    "accelerometer on unknown link": (
        robot(link("a"), '<sensor name="s" type="accelerometer"><parent link="b"/></sensor>'),
        URDFSensorError,
        r"unknown link 'b'",
    ),
    "duplicate sensor": (
        robot(
            link("a"),
            '<sensor name="s" type="accelerometer"><parent link="a"/></sensor>',
            '<sensor name="s" type="gyroscope"><parent link="a"/></sensor>',
        ),
        URDFReferenceError,
        r"a second sensor",
    ),
    "entities (billion laughs)": (
        '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
        '<robot name="&b;"><link name="x"/></robot>',
        URDFSyntaxError,
        r"entities",
    ),
    "external entity": (
        '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><robot name="&x;"/>',
        URDFSyntaxError,
        r"entities",
    ),
    "external dtd": (
        '<!DOCTYPE robot SYSTEM "http://example.com/x.dtd"><robot><link name="a"/></robot>',
        URDFSyntaxError,
        r"external DTD",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_raises_a_urdf_error(case: str) -> None:
    text, cls, pattern = BAD[case]
    with pytest.raises(cls) as info:
        loads(text)
    assert isinstance(info.value, URDFError)
    assert re.search(pattern, str(info.value)), str(info.value)
    assert str(info.value).startswith("<string>")


@pytest.mark.parametrize("case", [c for c in BAD if BAD[c][1] is URDFTopologyError])
def test_urdf_topology_errors_are_topology_errors(case: str) -> None:
    """A document that is not one tree fails as every model that is not a forest does."""
    text, _, _ = BAD[case]
    with pytest.raises(TopologyError) as info:
        loads(text)
    assert isinstance(info.value, URDFError)
    assert isinstance(info.value, ValueError)
    assert info.value.file == "<string>"


def test_t12_loader_leniency_is_replaced_by_errors() -> None:
    """T12 (spec §11, iDynTree 15.1 runs) DEVIATE: iDynTree returns ok with an empty model."""
    for text in (
        robot(link("a"), link("b")),
        robot(link("a"), link("b"), joint("j", "a", "b", "floating")),
        robot(link("a"), link("b"), joint("j", "a", "b", "planar")),
        robot(link("a"), link("a")),
    ):
        with pytest.raises(URDFError):
            loads(text)
    # The accelerometer on a fake link is kept (moved to the neighbour), not dropped.
    m = loads(
        robot(
            link("a"),
            '<link name="f"/>',
            joint("jf", "a", "f", extra='<origin xyz="1 0 0"/>'),
            '<sensor name="acc" type="accelerometer"><parent link="f"/></sensor>',
        )
    )
    assert m.sensor("acc").link == "a"  # type: ignore[union-attr]
    # The continuous joint with <limit effort velocity> has no position limits (B3).
    m = loads(
        robot(
            link("a"),
            link("b"),
            joint("j", "a", "b", "continuous", '<limit effort="1" velocity="1"/>'),
        )
    )
    assert not m.joint("j").limits.enabled  # type: ignore[union-attr]


def test_unknown_children_inside_modelled_elements_are_kept_in_place() -> None:
    """Children robomodel does not model inside <visual>, <collision>, <material>, <inertial>
    and <force_torque> are kept verbatim and written back inside the same element."""
    drake = 'xmlns:drake="http://drake.mit.edu"'
    text = robot(
        '<material name="grey"><color rgba="0.5 0.5 0.5 1"/><script>s</script></material>',
        '<link name="a"><inertial><mass value="1"/><weird k="1"/>'
        f"{INERTIA}</inertial>"
        '<visual><verbose/><geometry><box size="1 1 1"/></geometry>'
        '<material name="grey"><shininess value="3"/></material></visual>'
        f'<collision><geometry><sphere radius="1"/></geometry><drake:proximity_properties {drake}>'
        '<drake:mu_dynamic value="0.5"/></drake:proximity_properties></collision></link>',
        link("b"),
        joint(
            "j",
            "a",
            "b",
            "revolute",
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="2" velocity="3"/>',
        ),
        '<sensor name="ft" type="force_torque"><parent joint="j"/><force_torque>'
        "<frame>child</frame><measure_direction>child_to_parent</measure_direction>"
        "<range>5</range></force_torque></sensor>",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing is dropped, so nothing warns
        m = loads(text)
    (v,) = m.visual_shapes("a")
    (c,) = m.collision_shapes("a")
    assert v.extensions == ("<verbose/>",)
    assert c.extensions == (
        f'<drake:proximity_properties {drake}><drake:mu_dynamic value="0.5"/>'
        "</drake:proximity_properties>",
    )
    assert m.materials[0].extensions == ("<script>s</script>",)
    # The visual's reference to the robot-level material keeps the colour and its own child.
    assert v.material == rm.Material(
        name="grey",
        rgba=(0.5, 0.5, 0.5, 1.0),
        extensions=("<script>s</script>", '<shininess value="3"/>'),
    )
    kept = {(e.owner_kind, e.owner, e.xml) for e in m.extensions}
    assert kept == {("inertial", "a", '<weird k="1"/>'), ("force_torque", "ft", "<range>5</range>")}
    out = dumps(m)
    doc = etree.fromstring(out.encode())
    for path in (
        "link[@name='a']/inertial/weird",
        "link[@name='a']/visual/verbose",
        "link[@name='a']/visual/material/shininess",
        "material[@name='grey']/script",
        "sensor[@name='ft']/force_torque/range",
    ):
        assert doc.find(path) is not None, path
    again = loads(out)
    assert again == m
    assert dumps(again) == out
    # Not kept when extensions are not kept, silently as for every other kept element.
    bare = loads(text, options=LoadOptions(keep_extensions=False))
    assert bare.visual_shapes("a")[0].extensions == ()
    assert bare.materials[0].extensions == ()
    assert not bare.extensions
    # The shapes' children travel with them: through fake-link removal at load...
    moved = loads(
        robot(
            link("a"),
            '<link name="tool"><visual><verbose/><geometry><box size="1 1 1"/></geometry>'
            "</visual></link>",
            joint("t", "a", "tool", extra='<origin xyz="1 0 0"/>'),
        )
    )
    assert moved.visual_shapes("a")[0].extensions == ("<verbose/>",)
    # ... and through lumping.
    lumped = reduce_model(m, keep_joints=[], lumped_sensors="drop")
    assert [s.extensions for s in lumped.visual_shapes("a")] == [("<verbose/>",)]


def test_unknown_children_of_a_fake_links_inertial_survive_a_round_trip() -> None:
    text = robot(
        link("a"),
        '<link name="tool"><inertial><mass value="0"/><note/></inertial></link>',
        joint("tool_fixed_joint", "a", "tool"),
    )
    m = loads(text)
    assert m.frame_names == ["tool"]
    assert [(e.owner_kind, e.owner, e.xml) for e in m.extensions] == [
        ("inertial", "tool", "<note/>")
    ]
    assert loads(dumps(m)) == m


def test_resolve_uri_never_leaves_the_package_directories(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pkgs = tmp_path / "pkgs"
    (pkgs / "pkg").mkdir(parents=True)
    (pkgs / "pkg" / "a b.stl").write_text("x")
    (tmp_path / "secret.txt").write_text("s")
    (pkgs / "pkg" / "out").symlink_to(tmp_path)
    dirs = [str(pkgs)]
    assert resolve_uri(dirs, "package://pkg/a%20b.stl") == str(pkgs / "pkg" / "a b.stl")
    for bad in (
        "package://pkg/../../secret.txt",
        "package:///etc/passwd",
        "package://pkg/" + "../" * 30 + "etc/passwd",
        "package://pkg/out/secret.txt",  # a symbolic link leading out
        "model://pkg/%2E%2E/%2E%2E/secret.txt",
    ):
        with pytest.raises(URDFReferenceError):
            resolve_uri(dirs, bad)
    assert resolve_uri(dirs, "file://localhost/tmp/a%20b.stl") == "/tmp/a b.stl"
    assert resolve_uri(dirs, "file:///tmp/x.stl") == "/tmp/x.stl"
    with pytest.raises(URDFReferenceError):
        resolve_uri(dirs, "file://elsewhere/tmp/x.stl")
    with pytest.raises(URDFReferenceError):
        resolve_uri(dirs, 3)  # type: ignore[arg-type]


def test_a_resolver_returning_a_non_string_is_refused() -> None:
    text = (
        '<robot name="r"><link name="a"><visual><geometry><mesh filename="m.stl"/></geometry>'
        "</visual></link></robot>"
    )
    with pytest.raises(URDFReferenceError):
        loads(text, resolver=lambda uri: None)  # type: ignore[arg-type,return-value]


def _robot(joints: str, links: str = "abc") -> str:
    ls = "".join(f'<link name="{x}"/>' for x in links)
    return f'<robot name="r">{ls}{joints}</robot>'


def _rev(name: str, p: str, c: str, extra: str = "") -> str:
    return (
        f'<joint name="{name}" type="continuous"><parent link="{p}"/><child link="{c}"/>'
        f"{extra}</joint>"
    )


@pytest.mark.parametrize(
    "text",
    [
        # An internal DTD's attribute default must never apply (a joint's missing type).
        '<!DOCTYPE robot [<!ATTLIST joint type CDATA "revolute">]>'
        + _robot('<joint name="j"><parent link="a"/><child link="b"/></joint>', "ab"),
        "<!DOCTYPE robot>" + _robot("", "a"),
        # Finite numbers whose inertia about the link origin overflows.
        '<robot name="r"><link name="a"><inertial><origin xyz="1e200 0 0"/>'
        '<mass value="1e200"/></inertial></link></robot>',
        '<robot name="r"><link name="a"><inertial><mass value="-1"/></inertial></link></robot>',
        _robot(_rev("j", "a", "b", '<limit effort="-1" velocity="1"/>'), "ab"),
        _robot(_rev("j", "a", "b", '<limit effort="1" velocity="-1"/>'), "ab"),
        _robot(_rev("j", "a", "b", '<dynamics damping="-0.5"/>'), "ab"),
        _robot(_rev("j", "a", "b", '<mimic joint="j"/>'), "ab"),
        _robot(
            _rev("j", "a", "b", '<mimic joint="f"/>')
            + '<joint name="f" type="fixed"><parent link="b"/><child link="c"/></joint>'
        ),
        _robot(
            _rev("j", "a", "b", '<mimic joint="k"/>') + _rev("k", "b", "c", '<mimic joint="j"/>')
        ),
    ],
)
def test_strict_reader_refuses(text: str) -> None:
    with pytest.raises(URDFError):
        loads(text)


def test_a_mimic_naming_no_joint_is_ignored_with_a_warning() -> None:
    # Pinocchio and MuJoCo load such files (Talos'); the warning names the line.
    with pytest.warns(RobomodelWarning, match=r"<string>:\d+: joint 'j'.*'nope'.*ignored"):
        m = loads(_robot(_rev("j", "a", "b", '<mimic joint="nope"/>'), "ab"))
    assert m.joint("j").mimic is None


def test_markup_in_comments_and_cdata_loads() -> None:
    text = _robot(
        "<!-- <!ENTITY x 'y'> <!DOCTYPE robot> --><gazebo><![CDATA[<!ENTITY x 'y'>]]></gazebo>",
        "a",
    )
    m = loads(text)
    assert list(m.link_names) == ["a"]


# ---------------------------------------------------------------------------- inertia policy
def _inertial(six: tuple[float, ...], mass: float = 1.0, rpy: str = "0 0 0") -> str:
    attrs_ = " ".join(
        f'{a}="{v!r}"' for a, v in zip(("ixx", "ixy", "ixz", "iyy", "iyz", "izz"), six, strict=True)
    )
    return (
        f'<link name="base"><inertial><origin rpy="{rpy}"/><mass value="{mass!r}"/>\n'
        f"<inertia {attrs_}/></inertial></link>"
    )


def _policy_load(text: str, policy: str) -> tuple[rm.Model, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RobomodelWarning)
        m = loads(text, filename="bad.urdf", options=LoadOptions(inertia=policy))  # type: ignore[arg-type]
    return m, [w for w in caught if issubclass(w.category, RobomodelWarning)]


@pytest.mark.parametrize(
    ("six", "problem"),
    [
        ((1.0, 0.0, 0.0, 1.0, 0.0, 3.0), "triangle inequality"),
        ((0.1, 0.0, 0.0, 0.1, 0.0, -0.1), "not positive semi-definite"),
        ((1.0, 2.0, 0.0, 1.0, 0.0, 1.0), "not positive semi-definite"),
    ],
)
def test_inconsistent_inertia_follows_the_policy(six: tuple[float, ...], problem: str) -> None:
    """error raises a URDFError naming file, line, link and numbers; warn warns the same text
    at the caller's line; ignore loads silently. The loaded inertia is the one written."""
    text = robot(_inertial(six, rpy="0.1 0.2 0.3"))
    with pytest.raises(URDFValueError) as info:
        loads(text, filename="bad.urdf", options=LoadOptions(inertia="raise"))
    message = str(info.value)
    assert message.startswith("bad.urdf:3: link 'base': ")  # the <inertia> element's line
    assert problem in message
    assert f"(ixx={six[0]:g}, ixy={six[1]:g}," in message and "; mass 1)" in message
    warned, caught = _policy_load(text, "warn")
    assert [str(w.message) for w in caught] == [message]
    assert caught[0].filename == __file__  # stacklevel: the caller of loads
    quiet, none = _policy_load(text, "ignore")
    assert none == []
    assert quiet == warned
    assert LoadOptions().inertia == "warn"


@pytest.mark.parametrize(
    "six",
    [
        (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),  # a point mass
        (1.0, 0.0, 0.0, 1.0, 0.0, 2.0),  # a lamina, exactly on the triangle boundary
        (0.333333, 0.0, 0.0, 0.666667, 0.0, 1.0),  # a lamina printed with 6 digits
        (1.0, 0.0, 0.0, 1.0, 0.0, 0.0),  # a thin rod
    ],
)
def test_inertias_on_the_boundary_load_under_error(six: tuple[float, ...]) -> None:
    """Bodies on the edge of the consistent set, and rounding to 6 digits, are not errors."""
    m, caught = _policy_load(robot(_inertial(six)), "raise")
    assert caught == []
    assert m.links[0].mass == 1.0


@pytest.mark.parametrize("policy", ["raise", "warn", "ignore"])
def test_negative_mass_is_an_error_under_every_policy(policy: str) -> None:
    with pytest.raises(URDFValueError, match="is negative"):
        loads(
            robot(_inertial((1.0, 0, 0, 1.0, 0, 1.0), mass=-1.0)),
            options=LoadOptions(inertia=policy),
        )  # type: ignore[arg-type]


def test_unknown_inertia_policy_is_refused() -> None:
    with pytest.raises(ArgumentError, match=r"LoadOptions\.inertia must be one of"):
        LoadOptions(inertia="strict")  # type: ignore[arg-type]


def _urdf_inconsistent(path: str, tol: float = 1e-6) -> list[str]:
    """The links whose <inertia> numbers break PSD or the triangle inequality (by definition,
    from the file's numbers with numpy alone, not through robomodel)."""
    out = []
    for link_el in etree.parse(path).getroot().iter("link"):
        el = link_el.find("inertial/inertia")
        if el is None:
            continue
        xx, xy, xz, yy, yz, zz = (
            float(el.get(a, "0")) for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
        )
        ev = np.linalg.eigvalsh(np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]))
        mass = float(link_el.find("inertial/mass").get("value"))  # type: ignore[union-attr]
        scale = max(abs(mass), float(np.abs(ev).max()))
        if ev[0] < -tol * scale or ev[0] + ev[1] < ev[2] - tol * scale:
            out.append(link_el.get("name"))
    return out


def test_icub_models_inertias_follow_the_policy() -> None:
    """On every icub-models robot, warn flags exactly the links whose numbers are inconsistent
    (checked from the file with numpy), error raises on the first of them, ignore is silent."""
    import icub_models

    flagged_total = 0
    for name in sorted(icub_models.get_robot_names()):
        path = str(icub_models.get_model_file(name))
        expected = _urdf_inconsistent(path)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RobomodelWarning)
            load(path, options=LoadOptions(inertia="warn"))
        flagged = [
            re.search(r"link '([^']+)'", str(w.message)).group(1)  # type: ignore[union-attr]
            for w in caught
            if "physically inconsistent" in str(w.message)
        ]
        assert flagged == expected, name
        flagged_total += len(flagged)
        if expected:
            with pytest.raises(URDFValueError, match=f"link '{expected[0]}'"):
                load(path, options=LoadOptions(inertia="raise"))
        with warnings.catch_warnings(record=True) as quiet:
            warnings.simplefilter("always", RobomodelWarning)
            load(path, options=LoadOptions(inertia="ignore"))
        assert not [w for w in quiet if "physically inconsistent" in str(w.message)]
    assert flagged_total > 0  # the data set does hold such links (else the test proves little)


def test_huge_finite_numbers_are_urdf_errors() -> None:
    """Finite input whose derived values overflow is a URDFError naming the element."""
    huge_origin = robot(
        link("a"), link("b"), joint("j", "a", "b", extra='<origin xyz="1e200 0 0"/>')
    )
    with pytest.raises(URDFValueError, match=r'<origin xyz="1e200 0 0">'):
        loads(huge_origin)
    heavy_far = robot(
        '<link name="a"><inertial><origin xyz="1e200 0 0"/><mass value="1e200"/>'
        f"{INERTIA}</inertial></link>"
    )
    with pytest.raises(URDFValueError, match="link 'a'"):
        loads(heavy_far)


@pytest.mark.parametrize(
    ("option", "status"), [([], 0), (["--inertia", "error"], 2), (["--inertia", "ignore"], 0)]
)
def test_cli_inertia_option(
    option: list[str], status: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--inertia`` picks the policy: warn (the default) loads with a warning on standard
    error, error exits 2 with the one-line URDFError, ignore loads silently."""
    from robomodel.cli import main

    path = tmp_path / "bad.urdf"
    path.write_text(robot(_inertial((1.0, 0.0, 0.0, 1.0, 0.0, 3.0))))
    with warnings.catch_warnings():
        warnings.simplefilter("always", RobomodelWarning)
        assert main(["info", str(path), *option]) == status
    err = capsys.readouterr().err
    assert ("physically inconsistent" in err) == (option != ["--inertia", "ignore"])
    assert err.count("\n") <= 1 or status == 0
