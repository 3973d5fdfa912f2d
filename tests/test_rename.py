from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from strategies import decorated_models

import robomodel as rm
from robomodel.physics.kinematics import forward_kinematics
from robomodel.transformers._xml_names import rename_in_xml
from robomodel.transformers.rename import prefix, rename
from robomodel.transformers.report import Report


def _references(m: rm.Model) -> set[str]:
    """Every name an element of ``m`` refers to (oracle: read the fields and the XML directly)."""
    refs: set[str] = set()
    for j in m.joints:
        refs |= {j.link1, j.link2}
        if not isinstance(j, rm.FixedJoint) and j.mimic is not None:
            refs.add(j.mimic.joint)
    refs |= {f.link for f in m.frames}
    for s in m.sensors:
        if isinstance(s, rm.SixAxisForceTorqueSensor):
            refs |= {s.parent_joint, s.first_link, s.second_link, s.applied_wrench_link}
        else:
            refs.add(s.link)
    for e in m.extensions:
        if e.owner:
            refs.add(e.owner)
        root = etree.fromstring(e.xml)
        refs |= {el.get("reference") for el in root.iter("gazebo") if el.get("reference")}
        refs |= {el.get("name") for el in root.iter("joint")}
    return refs


@settings(max_examples=25)
@given(decorated_models())
def test_prefix_renames_every_name_and_every_reference(m: rm.Model) -> None:
    """prefix(m, p): every element name and every reference to one gains p; numbers unchanged."""
    p = prefix(m, "left_")
    assert list(p.link_names) == ["left_" + n for n in m.link_names]
    assert list(p.joint_names) == ["left_" + n for n in m.joint_names]
    assert p.frame_names == ["left_" + n for n in m.frame_names]
    assert [s.name for s in p.sensors] == ["left_" + s.name for s in m.sensors]
    assert p.default_base == "left_" + str(m.default_base)
    assert _references(p) == {"left_" + r for r in _references(m)}
    assert p.links == m.links and p.visuals == m.visuals and p.collisions == m.collisions
    assert p.name == m.name and p.materials == m.materials
    # Kinematics are untouched: same poses for the same q, frame by frame.
    q = np.linspace(-1, 1, m.n_pos_coords)
    fa, fb = forward_kinematics(m, q), forward_kinematics(p, q)
    for i in range(m.n_frames):
        assert fa.base_H_frame(i) == fb.base_H_frame(i)


@settings(max_examples=25)
@given(decorated_models(), st.data())
def test_rename_back_is_identity(m: rm.Model, data: st.DataObject) -> None:
    """rename(rename(m, f), f^-1) == m for any injective renaming."""
    names = list(m.link_names) + m.frame_names
    pick = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=3))
    forward = {n: f"{n}_x" for n in pick}
    back = {v: k for k, v in forward.items()}
    r = rename(
        m,
        links={k: v for k, v in forward.items() if m.is_link_name_used(k)},
        frames={k: v for k, v in forward.items() if not m.is_link_name_used(k)},
    )
    assert rename(r, back) == m


def _two_link_model() -> rm.Model:
    m = rm.add_link(rm.Model(), "base")
    j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 0, 1)))
    m = rm.add_joint_and_link(m, "base", "shoulder", j, "arm")
    j2 = rm.RevoluteJoint(
        link1="arm", link2="hand", mimic=rm.Mimic(joint="shoulder", multiplier=2.0)
    )
    m = rm.add_joint_and_link(m, "arm", "wrist", j2, "hand")
    m = rm.add_frame(m, "hand", "tool")
    m = rm.add_sensor(
        m,
        rm.SixAxisForceTorqueSensor(
            name="ft",
            parent_joint="wrist",
            first_link="arm",
            second_link="hand",
            applied_wrench_link="hand",
        ),
    )
    ext = [
        rm.Extension(
            owner_kind="link",
            owner="arm",
            tag="gazebo",
            xml='<gazebo reference="arm"><mu1>1</mu1></gazebo>',
        ),
        rm.Extension(
            owner_kind="joint",
            owner="wrist",
            tag="gazebo",
            xml='<gazebo reference="wrist"><provideFeedback>true</provideFeedback></gazebo>',
        ),
        rm.Extension(
            owner_kind="robot",
            owner="",
            tag="transmission",
            xml=(
                '<transmission name="t"><joint name="shoulder"/><actuator name="a"/></transmission>'
            ),
        ),
        rm.Extension(
            owner_kind="joint",
            owner="wrist",
            tag="mimic",
            xml='<mimic joint="shoulder" multiplier="2"/>',
        ),
    ]
    import attrs

    return attrs.evolve(m, extensions=ext)


def test_rename_rewrites_references_in_kept_xml() -> None:
    m = _two_link_model()
    r = rename(m, {"arm": "upper_arm", "shoulder": "j1", "wrist": "j2", "ft": "wrist_ft"})
    xml = [e.xml for e in r.extensions]
    assert xml[0] == '<gazebo reference="upper_arm"><mu1>1</mu1></gazebo>'
    assert 'reference="j2"' in xml[1]
    assert '<joint name="j1"/>' in xml[2] and '<actuator name="a"/>' in xml[2]
    assert xml[3] == '<mimic joint="j1" multiplier="2"/>'
    assert [e.owner for e in r.extensions] == ["upper_arm", "j2", "", "j2"]
    wrist = r.joint("j2")
    assert isinstance(wrist, rm.RevoluteJoint) and wrist.mimic is not None
    assert wrist.mimic.joint == "j1"
    ft = r.sensor("wrist_ft")
    assert isinstance(ft, rm.SixAxisForceTorqueSensor)
    assert (ft.parent_joint, ft.first_link) == ("j2", "upper_arm")


def test_gazebo_reference_prefers_the_owner_kind() -> None:
    # A link and a joint may share a name (iDynTree allows it); the owner kind decides.
    xml = '<gazebo reference="x"/>'
    assert rename_in_xml(xml, links={"x": "L"}, joints={"x": "J"}) == '<gazebo reference="L"/>'
    assert (
        rename_in_xml(xml, links={"x": "L"}, joints={"x": "J"}, prefer="joint")
        == '<gazebo reference="J"/>'
    )


def test_unchanged_xml_is_kept_byte_for_byte() -> None:
    xml = "<gazebo  reference='other' ><a/></gazebo>"
    assert rename_in_xml(xml, links={"x": "y"}, joints={}) is xml


def test_swap_two_names() -> None:
    m = _two_link_model()
    r = rename(m, links={"arm": "hand", "hand": "arm"})
    assert list(r.link_names) == ["base", "hand", "arm"]
    assert r.joint("shoulder").link2 == "hand"
    assert r.frames[0].link == "arm"


def test_noop_returns_the_same_object() -> None:
    m = _two_link_model()
    assert rename(m, {}) is m
    assert prefix(m, "") is m


def test_report_lists_renames() -> None:
    from robomodel.transformers import explain

    out, report = explain(partial(rename, {"arm": "upper"}), _two_link_model())
    assert out == rename(_two_link_model(), {"arm": "upper"})
    assert isinstance(report, Report)
    first = report.changes[0]
    assert (first.action, first.kind, first.name) == ("renamed", "link", "arm")
    assert "now 'upper'" in str(report)


def test_unknown_name_is_an_error() -> None:
    m = _two_link_model()
    with pytest.raises(rm.UnknownNameError, match="did you mean 'arm'"):
        rename(m, {"amr": "x"})
    with pytest.raises(rm.UnknownNameError, match="joint"):
        rename(m, joints={"arm": "x"})


def test_name_conflicts_are_errors() -> None:
    m = _two_link_model()
    with pytest.raises(rm.DuplicateNameError, match="'hand'"):
        rename(m, links={"arm": "hand"})
    with pytest.raises(rm.DuplicateNameError, match="tool"):
        rename(m, links={"arm": "tool"})  # links and frames share one namespace
    with pytest.raises(rm.DuplicateNameError):
        rename(m, joints={"shoulder": "w", "wrist": "w"})
    with pytest.raises(rm.ModelError, match="non-empty"):
        rename(m, {"arm": ""})
    with pytest.raises(rm.ModelError, match="string"):
        prefix(m, 3)  # type: ignore[arg-type]


def test_malformed_kept_xml_is_an_error() -> None:
    import attrs

    m = attrs.evolve(
        _two_link_model(),
        extensions=[rm.Extension(owner_kind="robot", owner="", tag="gazebo", xml="<gazebo>")],
    )
    with pytest.raises(rm.ModelError, match="well-formed"):
        prefix(m, "p_")


def test_explain_runs_every_transformer_of_this_area() -> None:
    """explain() knows rename, prefix, attach, change_base and reorder_joints."""
    from functools import partial

    from robomodel.transformers import explain
    from robomodel.transformers.attach import attach
    from robomodel.transformers.change_base import change_base
    from robomodel.transformers.reorder_joints import reorder_joints

    m = _two_link_model()
    cases = [
        (partial(rename, {"arm": "upper"}), "rename: renamed link 'arm': now 'upper'"),
        (partial(prefix, text="l_"), "prefix: renamed joint 'wrist': now 'l_wrist'"),
        (
            partial(attach, prefix(m, "r_"), at_frame="tool", joint_name="mount"),
            "attach: added joint 'mount'",
        ),
        (partial(change_base, new_base="hand"), "change_base: moved model 'default base'"),
        (
            partial(reorder_joints, order=["wrist", "shoulder"]),
            "reorder_joints: reordered joint 'wrist': index 1 -> 0",
        ),
    ]
    for step, line in cases:
        out, report = explain(step, m)
        assert any(str(c).startswith(line) for c in report.changes), (line, str(report))
        assert isinstance(out, rm.Model)
