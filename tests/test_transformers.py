"""Structural tests of robomodel.transformers: spec vectors T6, T7, T9, T10, T11, errors, no-ops,
sensors, pipelines and reports."""

from __future__ import annotations

import math
import warnings
from functools import partial

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import decorated_models, models

import robomodel as rm
import robomodel.formats.urdf
import robomodel.transformers as rt
from robomodel.errors import (
    ModelError,
    RobomodelError,
    RobomodelWarning,
    TopologyError,
    UnknownNameError,
)
from robomodel.physics.joint_state import joint_values
from robomodel.physics.kinematics import relative_transform
from robomodel.transformers._link_poses import ReexpressPlan, joint_stacks

UNIT = rm.Link(rm.SpatialInertia.from_com(1.0, (0.0, 0.0, 0.0), 0.1 * np.eye(3)))
Z = rm.Axis((0.0, 0.0, 1.0))


def pos(T: rm.Transform) -> list[float]:
    return [round(float(x), 9) + 0.0 for x in T.position]


# --------------------------------------------------------------------------- spec models


def t6_model() -> rm.Model:
    """The model of spec §11 T6, built the way iDynTree's loader builds that URDF.

    Links [base, c, a, b, tool] (base_footprint, a massless leaf, is already a frame at z=-0.5);
    jt is the fixed joint b->tool of T4 (xyz (0,0,1), rpy (0,0,pi/2)), carrying the F/T sensor
    ft (frame=sensor, origin (0.1,0,0), child_to_parent); acc on tool at (0,0,0.2); gyr on a.
    """
    m = rm.add_link(rm.Model(), "base", UNIT)
    for name, parent in (("c", "base"), ("a", "base"), ("b", "a")):
        j = rm.RevoluteJoint(link1=parent, link2=name, axis_in_link1=Z)
        m = rm.add_joint_and_link(m, parent, f"j{name}", j, name, UNIT)
    b_H_tool = rm.Transform.from_rpy_xyz((0, 0, math.pi / 2), (0, 0, 1))
    jt = rm.FixedJoint(link1="b", link2="tool", link1_H_link2=b_H_tool)
    m = rm.add_joint_and_link(m, "b", "jt", jt, "tool", UNIT)
    m = rm.add_frame(m, "base", "base_footprint", rm.Transform.from_translation((0, 0, -0.5)))
    tool_H_s = rm.Transform.from_translation((0.1, 0, 0))
    ft = rm.SixAxisForceTorqueSensor(
        name="ft",
        parent_joint="jt",
        first_link="b",
        second_link="tool",
        first_link_H_sensor=b_H_tool @ tool_H_s,
        second_link_H_sensor=tool_H_s,
        applied_wrench_link="b",
    )
    acc_T = rm.Transform.from_translation((0, 0, 0.2))
    m = rm.add_sensor(m, ft)
    m = rm.add_sensor(m, rm.Accelerometer(name="acc", link="tool", link_H_sensor=acc_T))
    m = rm.add_sensor(m, rm.Gyroscope(name="gyr", link="a"))
    # The loader's sensor frames: FT first (on the child), then accelerometers, then gyroscopes.
    m = rm.add_frame(m, "tool", "ft", tool_H_s)
    m = rm.add_frame(m, "tool", "acc", acc_T)
    return rm.add_frame(m, "a", "gyr")


def t9_model() -> rm.Model:
    """Spec §11 T9 / §5.6: A-B revolute, rest (1,0,0), axis z through (1,1,0) in A."""
    m = rm.add_link(rm.Model(), "A", UNIT)
    j = rm.RevoluteJoint(
        link1="A",
        link2="B",
        link1_H_link2=rm.Transform.from_translation((1, 0, 0)),
        axis_in_link1=rm.Axis((0, 0, 1), (1, 1, 0)),
    )
    m = rm.add_joint_and_link(m, "A", "j", j, "B", UNIT)
    m = rm.add_frame(m, "B", "b_frame")
    return rm.add_sensor(m, rm.Accelerometer(name="accB", link="B"))


# --------------------------------------------------------------------------- T6


def test_t6_reduce_keeps_ja_jb():
    # Spec §11 T6, first half (iDynTree 15.1 run).
    with pytest.warns(RobomodelWarning, match="'ft'"):
        r = rt.reduce_model(t6_model(), keep_joints=["ja", "jb"])
    assert list(r.link_names) == ["base", "a", "b"]
    assert r.frame_names == ["base_footprint", "c", "gyr", "tool", "ft", "acc"]
    assert r.frames[3].link == "b" and pos(r.frames[3].link_H_frame) == [0, 0, 1]
    assert r.frames[5].link == "b" and pos(r.frames[5].link_H_frame) == [0, 0, 1.2]
    assert [s.name for s in r.sensors] == ["acc", "gyr"]
    assert r.sensor("acc").link == "b" and pos(r.sensor("acc").link_H_sensor) == [0, 0, 1.2]
    assert r.default_base == "base"
    assert r.n_frames == t6_model().n_frames  # every link and frame survives as a frame


def test_t6_reduce_keeps_jt_ja_reattaches_ft():
    # Spec §11 T6, second half: the FT's first link b is lumped into a (jb = 0).
    m = t6_model()
    r = rt.reduce_model(m, keep_joints=["jt", "ja"])
    assert list(r.link_names) == ["base", "a", "tool"]
    assert list(r.joint_names) == ["jt", "ja"]
    assert {r.joint("jt").link1, r.joint("jt").link2} == {"a", "tool"}
    ft = r.sensor("ft")
    assert (ft.first_link, ft.second_link, ft.applied_wrench_link) == ("a", "tool", "a")
    assert ft.first_link_H_sensor == m.sensor("ft").first_link_H_sensor
    # §8.9: link1_H_sensor · inverse(link2_H_sensor) is the joint's rest transform.
    P = ft.first_link_H_sensor @ ft.second_link_H_sensor.inverse()
    np.testing.assert_allclose(P.as_matrix(), r.joint("jt").rest_transform("a", "tool").as_matrix())


def test_t6_reduce_at_locked_position_reexpresses_ft():
    m = t6_model()
    r = rt.reduce_model(m, keep_joints=["jt", "ja"], locked_positions={"jb": 0.3})
    a_H_b = m.joint("jb").transform(0.3, "a", "b")
    expected = a_H_b @ m.sensor("ft").first_link_H_sensor
    np.testing.assert_allclose(
        r.sensor("ft").first_link_H_sensor.as_matrix(), expected.as_matrix(), atol=1e-12
    )


def test_lumped_sensor_policies():
    m = t6_model()
    with pytest.raises(ModelError, match=r"'ft'.*keep those joints.*lumped_sensors='drop'"):
        rt.reduce_model(m, keep_joints=["ja"], lumped_sensors="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = rt.reduce_model(m, keep_joints=["ja"], lumped_sensors="drop")
    assert not quiet.is_sensor_name_used("ft")
    assert "ft" in quiet.frame_names  # its frame stays
    with pytest.raises(ModelError, match="lumped_sensors must be"):
        rt.reduce_model(m, keep_joints=["ja"], lumped_sensors="ignore")  # type: ignore[arg-type]


def test_lumped_sensor_without_frame_gets_one():
    # No loader sensor frame: the dropped sensor's pose is kept as a frame named after it.
    m = rt.remove_additional_frames(t6_model(), keep=[])
    with pytest.warns(RobomodelWarning):
        r = rt.reduce_model(m, keep_joints=["ja"])
    f = r.frames[r.frame_names.index("ft")]
    assert f.link == "a"
    expected = m.joint("jb").rest_transform("a", "b") @ m.joint("jt").rest_transform("b", "tool")
    expected = expected @ m.sensor("ft").second_link_H_sensor
    np.testing.assert_allclose(f.link_H_frame.as_matrix(), expected.as_matrix(), atol=1e-12)


def test_empty_keep_list_lumps_everything():
    # Spec §5.2: one link holding the whole mass; link sensors kept, FT sensors dropped.
    m = t6_model()
    r = rt.reduce_model(m, keep_joints=[], lumped_sensors="drop")
    assert list(r.link_names) == ["base"]
    assert r.total_mass == pytest.approx(m.total_mass)
    assert [s.name for s in r.sensors] == ["acc", "gyr"]
    assert r.n_frames == m.n_frames


def test_lump_ignores_identity_moves():
    # A move by the identity (signed zeros included) is no move: the same model, to the bit,
    # as without it.
    from robomodel.formats import json as rm_json
    from robomodel.transformers.engine import lump

    m = t6_model()
    eye = rm.Transform(np.eye(3), [-0.0, 0.0, -0.0])
    moves = {name: eye for name in m.link_names}
    for kept in (list(m.joint_names), list(m.joint_names)[:1], []):
        expected = lump(m, kept=kept, step="t", lumped_sensors="drop")
        moved = lump(m, kept=kept, step="t", moves=moves, lumped_sensors="drop")
        assert moved == expected
        assert rm_json.dumps(moved) == rm_json.dumps(expected)


# --------------------------------------------------------------------------- T7


def t7_model() -> rm.Model:
    """Spec §11 T7: links r, x, y, z; joints fz (z-y, fixed), jyx (y-x), jxr (x-r)."""
    m = rm.Model()
    for name in "rxyz":
        m = rm.add_link(m, name, UNIT)
    m = rm.add_joint(m, "fz", rm.FixedJoint(link1="z", link2="y"))
    m = rm.add_joint(m, "jyx", rm.RevoluteJoint(link1="y", link2="x"))
    return rm.add_joint(m, "jxr", rm.RevoluteJoint(link1="x", link2="r"))


def test_t7_normalized_numbering():
    m = t7_model()
    from_z = rt.normalize_joint_order(m, base_link="z")
    from_r = rt.normalize_joint_order(m, base_link="r")
    assert list(from_z.joint_names) == ["jyx", "jxr", "fz"]
    assert list(from_r.joint_names) == ["jxr", "jyx", "fz"]
    for out in (from_z, from_r):
        assert list(out.link_names) == ["r", "x", "y", "z"]
        assert out.default_base == "r"
        assert out.joint("jyx").link1 == "y"  # orientation unchanged


def test_t1_normalized_numbering():
    # Spec §11 T1: B, C1, C2, D1, D2, E1 -> [jC1, jC2, jE1, jD1, jD2].
    m = rm.add_link(rm.Model(), "B", UNIT)
    for parent, child in (("B", "C1"), ("B", "C2"), ("C1", "D1"), ("C1", "D2"), ("C2", "E1")):
        j = rm.RevoluteJoint(link1=parent, link2=child)
        m = rm.add_joint_and_link(m, parent, f"j{child}", j, child, UNIT)
    assert list(rt.normalize_joint_order(m).joint_names) == ["jC1", "jC2", "jE1", "jD1", "jD2"]


# --------------------------------------------------------------------------- T9


def test_t9_make_urdf_compatible():
    # Spec §11 T9 / §5.6; DEVIATE B7 (sensor re-expressed) and B8 (original frame added).
    m = t9_model()
    u = rt.make_urdf_compatible(m)
    assert pos(u.joint("j").link1_H_link2) == [1, 1, 0]
    assert pos(rm.Transform.from_translation(u.link("B").inertia.com)) == [0, -1, 0]
    assert pos(u.frame_transform("b_frame")) == [0, -1, 0]
    assert pos(u.sensor("accB").link_H_sensor) == [0, -1, 0]  # iDynTree leaves (0,0,0): B7
    assert u.frame_names == ["b_frame", "B_original_frame"]
    assert pos(u.frame_transform("B_original_frame")) == [0, -1, 0]
    assert u.joint("j").axis("B").distance(np.zeros(3)) < 1e-12
    assert rt.make_urdf_compatible(u) is u  # already compatible
    plain = rt.make_urdf_compatible(m, original_frames=False)
    assert plain.frame_names == ["b_frame"]


def test_make_urdf_compatible_other_base():
    m = t9_model()
    u = rt.make_urdf_compatible(m, base_link="B")
    assert u.default_base == "B" and list(u.link_names) == ["B", "A"]
    assert u.joint("j").axis("A").distance(np.zeros(3)) < 1e-12


def test_original_frame_name_clash():
    m = rm.add_frame(t9_model(), "A", "B_original_frame")
    with pytest.raises(ModelError, match="original_frames=False"):
        rt.make_urdf_compatible(m)


# --------------------------------------------------------------------------- T10


def test_t10_extract_keeps_joint_orientation():
    # Spec §11 T10: iDynTree's extract gives A_H_B p = (-1.409, 0.879, 0) (bug B9).
    m = t9_model()
    sub = rt.extract_submodel(m, m.traversal("B"))
    assert list(sub.link_names) == ["B", "A"] and sub.default_base == "B"
    assert sub.joint("j") == m.joint("j")
    T = relative_transform(sub, [0.7], "A", "B")
    np.testing.assert_allclose(T.position, [1 + math.sin(0.7), 1 - math.cos(0.7), 0], atol=1e-12)
    assert [round(x, 3) for x in T.position] == [1.644, 0.235, 0.0]
    assert [s.name for s in sub.sensors] == ["accB"] and sub.frame_names == ["b_frame"]


def test_submodel_traversals_split():
    m = t6_model()
    parts = rt.submodel_traversals(m, split_joints=["ja", "jb"])
    names = [[m.link_names[i] for i in t.links] for t in parts]
    assert names == [["base", "c"], ["a"], ["b", "tool"]]
    leg = rt.extract_submodel(m, parts[2])
    assert list(leg.link_names) == ["b", "tool"] and list(leg.joint_names) == ["jt"]
    assert [s.name for s in leg.sensors] == ["ft", "acc"]
    assert leg.frame_names == ["ft", "acc"]


def test_extract_rejects_foreign_traversal():
    m = t6_model()
    other = t7_model()
    with pytest.raises(ModelError, match=r"not one of this model|not a link index"):
        rt.extract_submodel(m, other.traversal())


def test_extract_whole_model_is_noop():
    m = t7_model()
    whole = rt.extract_submodel(m, m.traversal())
    assert list(whole.joint_names) == ["jxr", "jyx", "fz"]  # traversal order
    assert rt.extract_submodel(whole, whole.traversal()) is whole


# --------------------------------------------------------------------------- T11


def test_t11_name_solid_shapes():
    # Spec §11 T11 (iDynTree 15.1 run of addValidNamesToAllSolidShapes).
    s = rm.SolidShape(geometry=rm.Sphere(0.1))
    m = rm.Model()
    for name in "abc":
        m = rm.add_link(m, name, UNIT)
    m = rm.add_joint(m, "ab", rm.FixedJoint(link1="a", link2="b"))
    m = rm.add_joint(m, "ac", rm.FixedJoint(link1="a", link2="c"))
    m = rm.with_visual_shapes(m, "a", [s, s])
    m = rm.with_visual_shapes(m, "b", [s, rm.SolidShape(geometry=rm.Sphere(0.1), name="named")])
    m = rm.with_visual_shapes(m, "c", [s])
    m = rm.with_collision_shapes(m, "c", [s])
    out = rt.name_solid_shapes(m)
    assert [x.name for x in out.visual_shapes("a")] == ["a_visual_0", "a_visual_1"]
    assert [x.name for x in out.visual_shapes("b")] == [None, "named"]
    assert [x.name for x in out.visual_shapes("c")] == ["c_visual"]
    assert [x.name for x in out.collision_shapes("c")] == ["c_collision"]
    assert rt.name_solid_shapes(out) is out
    assert out.link_names == m.link_names and out.frames == m.frames


# --------------------------------------------------------------------------- fake links


def fake_model() -> rm.Model:
    """base - arm (massive), with massless fixed leaves tip (on arm) and tip2 (on tip)."""
    m = rm.add_link(rm.Model(), "base", UNIT)
    m = rm.add_joint_and_link(
        m, "base", "j", rm.RevoluteJoint(link1="base", link2="arm"), "arm", UNIT
    )
    T = rm.Transform.from_translation((0, 0, 0.3))
    m = rm.add_joint_and_link(
        m, "arm", "jt", rm.FixedJoint(link1="arm", link2="tip", link1_H_link2=T), "tip"
    )
    m = rm.add_joint_and_link(
        m, "tip", "jt2", rm.FixedJoint(link1="tip", link2="tip2", link1_H_link2=T), "tip2"
    )
    m = rm.add_frame(m, "tip2", "tool_frame", T)
    m = rm.with_visual_shapes(m, "tip2", [rm.SolidShape(geometry=rm.Sphere(0.01), name="ball")])
    m = rm.add_sensor(m, rm.Accelerometer(name="acc", link="tip2"))
    return rm.with_package_dirs(m, ["/pkgs"])


def test_remove_fake_links_single_pass_and_iterate():
    m = fake_model()
    one = rt.remove_fake_links(m)
    assert list(one.link_names) == ["base", "arm", "tip"]
    assert one.frame_names == ["tip2", "tool_frame"]  # fake-link frames first (iDynTree order)
    assert one.frame_transform("tool_frame").position.tolist() == [0, 0, 0.6]
    assert one.sensor("acc").link == "tip" and list(one.package_dirs) == ["/pkgs"]
    assert one.visual_shapes("tip")[0].name == "ball"
    full = rt.remove_fake_links(m, iterate=True)
    assert list(full.link_names) == ["base", "arm"]
    assert full.frame_names == ["tip", "tip2", "tool_frame"]
    np.testing.assert_allclose(full.frame_transform("tool_frame").position, [0, 0, 0.9])
    assert full.sensor("acc").link == "arm"
    assert rt.remove_fake_links(full, iterate=True) is full
    assert rt.fake_links(m, iterate=True) == ["tip", "tip2"]


def test_remove_fake_base_and_two_massless_links():
    m = rm.add_link(rm.Model(), "footprint")
    m = rm.add_joint_and_link(
        m, "footprint", "jf", rm.FixedJoint(link1="footprint", link2="body"), "body", UNIT
    )
    r = rt.remove_fake_links(m)
    assert list(r.link_names) == ["body"] and r.default_base == "body"
    # Two massless links joined by a fixed joint: iDynTree fails; robomodel keeps the base.
    m2 = rm.add_link(rm.Model(), "p")
    m2 = rm.add_joint_and_link(m2, "p", "jq", rm.FixedJoint(link1="p", link2="q"), "q")
    r2 = rt.remove_fake_links(m2)
    assert list(r2.link_names) == ["p"] and r2.frame_names == ["q"]


# --------------------------------------------------------------------------- errors


def test_errors_are_clear():
    m = t6_model()
    with pytest.raises(UnknownNameError, match="did you mean 'ja'"):
        rt.reduce_model(m, keep_joints=["jaa"])
    with pytest.raises(ModelError, match="'ja' is listed twice in keep_joints"):
        rt.reduce_model(m, keep_joints=["ja", "ja"])
    with pytest.raises(ModelError, match="wrap a single name in a list"):
        rt.reduce_model(m, keep_joints="ja")
    with pytest.raises(ModelError, match=r"'jb' has 1 coordinate\(s\), but 2 value\(s\)"):
        rt.reduce_model(
            m, keep_joints=["ja"], locked_positions={"jb": [0.1, 0.2]}, lumped_sensors="drop"
        )
    with pytest.raises(ModelError, match="fixed and has no position"):
        rt.reduce_model(m, keep_joints=["ja"], locked_positions={"jt": 0.1}, lumped_sensors="drop")
    with pytest.raises(UnknownNameError):
        rt.reduce_model(m, keep_joints=["ja"], locked_positions={"nope": 0.1})
    with pytest.raises(ModelError, match="finite"):
        rt.reduce_model(m, keep_joints=["ja"], locked_positions={"jb": math.nan})
    with pytest.raises(UnknownNameError):
        rt.normalize_joint_order(m, base_link="nope")
    with pytest.raises(UnknownNameError):
        rt.remove_additional_frames(m, keep=["nope"])
    with pytest.raises(ModelError, match="is a link"):
        rt.remove_additional_frames(m, keep=["tool"])
    with pytest.raises(ModelError, match="twice"):
        rt.remove_additional_frames(m, keep=["ft", "ft"])


def test_unreachable_links_raise():
    m = rm.add_link(t7_model(), "island", UNIT)
    for f in (
        partial(rt.reduce_model, keep_joints=[]),
        rt.normalize_joint_order,
        rt.make_urdf_compatible,
        rt.remove_fake_links,
        partial(rt.remove_additional_frames, keep=[]),
    ):
        with pytest.raises(TopologyError, match="'island'"):
            f(m)


def test_locked_positions_accept_lists_and_ignore_kept():
    m = t6_model()
    a = rt.reduce_model(
        m, keep_joints=["ja"], locked_positions={"jb": [0.2], "ja": 5.0}, lumped_sensors="drop"
    )
    b = rt.reduce_model(m, keep_joints=["ja"], locked_positions={"jb": 0.2}, lumped_sensors="drop")
    assert a == b


# --------------------------------------------------------------------------- no-ops, pipelines


def test_noops_return_input():
    m = rt.normalize_joint_order(t6_model())
    assert rt.normalize_joint_order(m) is m
    assert rt.reduce_model(m, keep_joints=list(m.joint_names)) is m
    assert rt.remove_additional_frames(m, keep=m.frame_names) is m
    assert rt.remove_fake_links(m) is m
    assert rt.name_solid_shapes(m) is m
    assert rt.make_urdf_compatible(m) is m


def test_carries_package_dirs_name_materials_extensions():
    m = t6_model()
    m = rm.Model(
        **{
            **{
                f: getattr(m, f)
                for f in ("link_names", "links", "joint_names", "joints", "frames", "sensors")
            },
            "package_dirs": ["/share"],
            "name": "robot",
            "materials": [rm.Material(name="red", rgba=(1, 0, 0, 1))],
            "extensions": [
                rm.Extension(owner_kind="robot", owner="", xml="<gazebo/>", tag="gazebo")
            ],
        }
    )
    for f in (
        partial(rt.reduce_model, keep_joints=["ja"], lumped_sensors="drop"),
        partial(rt.normalize_joint_order, base_link="tool"),
        rt.make_urdf_compatible,
        partial(rt.remove_additional_frames, keep=[]),
    ):
        out = f(m)
        assert (out.package_dirs, out.name, out.materials, out.extensions) == (
            m.package_dirs,
            m.name,
            m.materials,
            m.extensions,
        )


def test_pipeline_composes_and_reprs():
    m = t6_model()
    f = partial(rt.reduce_model, keep_joints=["ja", "jb"], lumped_sensors="drop")
    g = rt.make_urdf_compatible
    p = rt.pipeline(f, g)
    assert p(m) == g(f(m))
    assert rt.pipeline(p, rt.name_solid_shapes).steps == (f, g, rt.name_solid_shapes)
    assert "partial(reduce_model, keep_joints=['ja', 'jb']" in repr(p)
    assert hash(p) == hash(rt.pipeline(f, g)) and p == rt.pipeline(f, g)
    with pytest.raises(ModelError, match="not a transformer"):
        rt.pipeline(f, 3)  # type: ignore[arg-type]


def test_explain_reports_every_change():
    m = t6_model()
    step = rt.pipeline(
        partial(rt.reduce_model, keep_joints=["ja", "jb"], lumped_sensors="drop"),
        rt.name_solid_shapes,
    )
    out, report = rt.explain(step, m)
    assert out == step(m)
    assert {c.name for c in report.lumped} == {"c", "tool"}
    assert {c.name for c in report.dropped if c.kind == "sensor"} == {"ft"}
    assert {c.name for c in report.moved if c.kind == "sensor"} == {"acc"}
    assert all(c.step == "reduce_model" for c in report.changes)
    assert "lumped link 'tool'" in str(report)
    same, empty = rt.explain(rt.name_solid_shapes, out)
    assert same is out and len(empty) == 0
    _, opaque = rt.explain(lambda x: rt.reduce_model(x, keep_joints=[], lumped_sensors="drop"), m)
    assert len(opaque) == 1


def test_errors_subclass_robomodel_error():
    with pytest.raises(RobomodelError):
        rt.reduce_model(t6_model(), keep_joints=["x"])


# --------------------------------------------------------------------------- the recorder


def test_record_outside_explain_is_a_no_op():
    from robomodel.transformers.report import record, recording

    assert not recording()
    record("dropped", "link", "x")  # nothing collects it, nothing raises
    _, report = rt.explain(
        partial(rt.reduce_model, keep_joints=[], lumped_sensors="drop"), t6_model()
    )
    assert not recording() and len(report) > 0  # explain restores "not recording" on exit


def test_explain_takes_partial_positionals_after_the_model():
    m = t6_model()
    out, report = rt.explain(partial(rt.rename, {"tool": "hand"}), m)
    assert out == rt.rename(m, {"tool": "hand"})
    assert [str(c) for c in report.renamed] == ["rename: renamed link 'tool': now 'hand'"]


def test_nested_explains_keep_their_own_reports():
    """An explain inside a step of another explain reports to its own caller only; the outer
    report of a function robomodel does not know is the one opaque line, before and after."""
    m = t6_model()
    inner: list[rt.Report] = []

    def mine(model: rm.Model) -> rm.Model:
        out, report = rt.explain(rt.name_solid_shapes, model)
        inner.append(report)
        return rt.reduce_model(out, keep_joints=["ja"], lumped_sensors="drop")

    out, outer = rt.explain(rt.pipeline(mine, rt.normalize_joint_order), m)
    expected = rt.normalize_joint_order(
        rt.reduce_model(rt.name_solid_shapes(m), keep_joints=["ja"], lumped_sensors="drop")
    )
    assert out == expected
    assert [c.step for c in outer.changes] == ["mine"]
    assert inner[0] == rt.explain(rt.name_solid_shapes, m)[1]
    assert all(c.step == "name_solid_shapes" for c in inner[0].changes)


def test_explains_in_threads_do_not_mix():
    from concurrent.futures import ThreadPoolExecutor

    m = t6_model()
    steps = [
        partial(rt.reduce_model, keep_joints=["ja"], lumped_sensors="drop"),
        partial(rt.prefix, text="p_"),
    ] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda s: rt.explain(s, m), steps))
    for step, (out, report) in zip(steps, results, strict=True):
        assert out == step(m)
        assert {c.step for c in report.changes} == {step.func.__name__}
        assert report == rt.explain(step, m)[1]


def test_explain_of_reorder_joints_returns_the_model():
    m = t6_model()
    order = list(m.joint_names)[::-1]
    out, report = rt.explain(partial(rt.reorder_joints, order=order), m)
    assert out == rt.reorder_joints(m, order)[0]
    assert [c.action for c in report.changes] == ["reordered"] * len(report)


# --------------------------------------------------------------------------- the pose batch


def _poses_of(m: rm.Model, keep: list[str], q: dict[str, float]):
    from robomodel.transformers._link_poses import LinkPoses
    from robomodel.transformers._parts import split

    kept = {m.joint_index(n) for n in keep}
    parts = split(m, kept, m.traversal())
    qv = joint_values(m, q).tolist() if q else None
    return LinkPoses.of_parts(m, parts, qv, {}), parts


def test_link_poses_are_relative_transforms_at_the_locked_positions():
    """X[l] = newLink_H_l is the relative transform of the part base to l at the locked q."""
    m = t6_model()
    q = {"jb": 0.4, "jc": -0.3}
    poses, parts = _poses_of(m, ["ja"], q)
    full = joint_values(m, q)
    for mem in parts.members:
        for link in mem:
            expected = relative_transform(m, full, m.link_names[mem[0]], m.link_names[link])
            np.testing.assert_allclose(poses[link].as_matrix(), expected.as_matrix(), atol=1e-12)
            assert poses.moved[link] == (link != mem[0])
    np.testing.assert_array_equal(poses.rotations[2], poses[2].rotation)


def _poses_one_by_one(m: rm.Model, parts, q: list[float] | None, moves) -> list[rm.Transform]:
    """X of every link composed one value at a time: the rule the pose batch follows."""
    from robomodel.transformers._link_poses import IDENTITY

    names, X = m.link_names, [IDENTITY] * m.n_links
    for mem, par, jts in zip(parts.members, parts.parents, parts.joints, strict=True):
        X[mem[0]] = moves.get(names[mem[0]], IDENTITY)
        for link, parent, j in zip(mem[1:], par[1:], jts[1:], strict=True):
            joint = m.joints[j]
            qj = q[joint.pos_coord_offset] if q and joint.n_pos_coords else 0.0
            P = joint.transform(qj, names[parent], names[link])
            X[link] = P if X[parent] is IDENTITY else X[parent] @ P
    return X


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), m=models(max_links=9))
def test_pose_batch_is_one_product_per_link_bit_for_bit(data: st.DataObject, m: rm.Model):
    """Composing the poses one tree level at a time on stacked rows gives the bits of one
    ``Transform`` product per link, for any split, locked positions and moved part bases."""
    from robomodel.transformers import _link_poses
    from robomodel.transformers._link_poses import IDENTITY, LinkPoses
    from robomodel.transformers._parts import split

    kept = data.draw(st.sets(st.integers(0, max(m.n_joints - 1, 0))), label="kept")
    kept = {j for j in kept if j < m.n_joints}
    parts = split(m, kept, m.traversal())
    q = None
    if data.draw(st.booleans(), label="locked"):
        q = data.draw(st.lists(st.floats(-3, 3), min_size=m.n_pos_coords, max_size=m.n_pos_coords))
    bases = [m.link_names[mem[0]] for mem in parts.members]
    moved = data.draw(st.sets(st.sampled_from(bases)), label="moved bases")
    moves = {
        b: rm.Transform.from_rpy_xyz((0.3 * k, -0.2, 1.1), (k, 0.5, -0.25))
        for k, b in enumerate(sorted(moved))
    }
    expected = _poses_one_by_one(m, parts, q, moves)
    # Both ways of composing a tree level: one product per link, and stacked rows.
    for few in (_link_poses._FEW_ROWS, 0):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_link_poses, "_FEW_ROWS", few)
            poses = LinkPoses.of_parts(m, parts, q, moves)
        for link, T in enumerate(expected):
            assert (poses[link] is IDENTITY) == (T is IDENTITY)
            assert poses.moved[link] == (T is not IDENTITY)
            assert poses[link].rotation.tobytes() == T.rotation.tobytes()
            assert poses[link].position.tobytes() == T.position.tobytes()
            assert poses.rotations[link].tobytes() == T.rotation.tobytes()
            assert poses.positions[link].tobytes() == T.position.tobytes()


def test_pose_batch_matches_one_product_per_value():
    """reexpress, composite_inertias and joint_rests (both the per-joint and the batched path)
    give what composing one value at a time gives."""
    m = t6_model()
    poses, parts = _poses_of(m, [], {"ja": 0.7, "jb": -1.1, "jc": 0.2})
    # Per link: a pose of its own twice, the same rotation with two positions of different
    # bits but equal values (-0.0 and 0.0), and the pose of link 0 (bits shared across links).
    n = m.n_links
    links = list(range(n)) * 5
    own = [rm.Transform.from_rpy_xyz((0.1 * k, 0.2, -0.3 * k), (k, -k, 0.5)) for k in range(n)]
    values = [
        *own,
        *own,
        *[rm.Transform(T.rotation, (k, 1.0, -0.0)) for k, T in enumerate(own)],
        *[rm.Transform(T.rotation, (k, 1.0, 0.0)) for k, T in enumerate(own)],
        *[own[0]] * n,
    ]
    R = np.array([T.rotation for T in values])
    p = np.array([T.position for T in values])
    # Values store -0.0 as 0.0 (canonical numbers): the plan's input arrays can still carry the
    # other bits, and must be grouped by bits.
    p[2 * n : 3 * n, 2] = -0.0
    rows = [3 + k for k in range(5 * n)]  # input rows, not all of them taken
    every = ReexpressPlan.of(rows, links, R, p, 5 * n + 4)
    plan = every.grouped_by_bits(5 * n + 4)
    assert not every.grouped and plan.grouped
    assert len(set(plan.slot) - {-1}) == 4 * n - 1 and len(set(every.slot) - {-1}) == 5 * n
    for pl in (every, plan):
        assert [pl.slot[k] for k in (0, 1, 2, 5 * n + 3)] == [-1] * 4
    assert len(plan.rotations) == 2 * n - 1 and len(plan.positions) == 4 * n - 1
    new = poses.reexpress(plan)
    assert len(new) == 4 * n - 1 and len(poses.reexpress(every)) == 5 * n
    for pl in (every, plan):
        made = poses.reexpress(pl)
        for row, link, T in zip(rows, links, values, strict=True):
            got = made[pl.slot[row]]
            want = poses[link] @ T
            assert got.rotation.tobytes() == want.rotation.tobytes()
            assert got.position.tobytes() == want.position.tobytes()
    assert new[plan.slot[rows[1]]] is new[plan.slot[rows[n + 1]]]  # the same input: one result
    # An alias row (a sensor sharing its frame's pose object) takes its row's pose, before and
    # after grouping.
    aliased = ReexpressPlan.of(rows, links, R, p, 5 * n + 4, [(0, rows[2]), (1, rows[n])])
    for pl in (aliased, aliased.grouped_by_bits(5 * n + 4)):
        made = poses.reexpress(pl)
        assert made[pl.slot[0]] is made[pl.slot[rows[2]]]
        assert made[pl.slot[1]] is made[pl.slot[rows[n]]] and pl.slot[2] == -1
        assert made[pl.slot[1]] == poses[links[n]] @ values[n]
    empty = ReexpressPlan.of([], [], R[:0], p[:0], 3)
    assert poses.reexpress(empty) == poses.reexpress(empty.grouped_by_bits(3)) == []
    # products: one X[l] @ pose per row, the same bits as the Transform product.
    for got, link, T in zip(poses.products(links, R, p), links, values, strict=True):
        want = poses[link] @ T
        assert np.array_equal(got.rotation, want.rotation)
        assert np.array_equal(got.position, want.position)
    assert poses.products([], R[:0], p[:0]) == []
    members = [(0, link) for link in parts.members[0]]
    total = poses.composite_inertias(m, members)[0]
    expected = rm.SpatialInertia.zero()
    for _, link in members:
        expected = expected + poses[link] @ m.links[link].inertia
    np.testing.assert_allclose(total.as_vector(), expected.as_vector(), atol=1e-12)
    index = m.link_index
    ends = [(index(j.link1), index(j.link2)) for j in m.joints]
    for copies in (1, 3):  # 4 joints one by one, 12 in a batch
        joints, at = list(m.joints) * copies, ends * copies
        got = poses.joint_rests(m, list(range(m.n_joints)) * copies, at)
        assert sorted(got) == [k for k, (o1, o2) in enumerate(at) if o1 or o2]  # 0: the base
        for k, (new_rest, axis) in got.items():
            old, (o1, o2) = joints[k], at[k]
            rest = poses[o1] @ old.link1_H_link2 @ poses[o2].inverse()
            np.testing.assert_allclose(new_rest.as_matrix(), rest.as_matrix(), atol=1e-12)
            if isinstance(old, rm.FixedJoint):
                assert axis is None
            else:
                expected = poses[o1] @ old.axis_in_link1
                np.testing.assert_allclose(axis.direction, expected.direction, atol=1e-12)


def test_joint_rests_of_joints_whose_link1_alone_moves_keep_the_one_by_one_bits():
    """A few joints whose link1 alone moves are re-expressed in one stacked pass: its rest
    transforms and axes are bit for bit those of the one-by-one products."""
    m = t6_model()
    poses, _ = _poses_of(m, ["jb", "jt"], {"ja": 0.7, "jc": -0.4})
    jb, jt = m.joint_index("jb"), m.joint_index("jt")
    index = m.link_index
    ends = {j: (index(m.joints[j].link1), index(m.joints[j].link2)) for j in (jb, jt)}
    assert poses.moved[ends[jb][0]] and not poses.moved[ends[jb][1]]
    Rr, pr, d, o = joint_stacks(m)
    for rows in ([jb, jb], [jb, jt, jb, jb]):
        got = poses.joint_rests(m, rows, [ends[j] for j in rows])
        assert sorted(got) == [k for k, j in enumerate(rows) if j == jb]
        o1 = ends[jb][0]
        want_rest = poses._rest(jb, o1, ends[jb][1], Rr, pr)
        want_axis = poses._axis(m.joints[jb], jb, o1, d, o)
        for rest, axis in got.values():
            assert rest == want_rest and axis == want_axis
            assert rest.rotation.tobytes() == want_rest.rotation.tobytes()
            assert rest.position.tobytes() == want_rest.position.tobytes()


_FRAME_EXTENSION_URDF = """<robot name="r">
<link name="base"><inertial><mass value="1"/>
  <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<link name="l1"><inertial><mass value="1"/>
  <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>
<link name="tip"/>
<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
  <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
<joint name="tip_fixed" type="fixed"><parent link="l1"/><child link="tip"/></joint>
</robot>"""


def test_extract_submodel_drops_what_frames_outside_own():
    """An extension owned by a frame (here the frame's own fixed joint element, kept so that
    its name survives) goes with the frame's link: the part without it drops (and reports) the
    extension, the part with it keeps it, and both reload exactly."""
    m = rm.formats.urdf.loads(_FRAME_EXTENSION_URDF)
    assert [(e.owner_kind, e.owner, e.tag) for e in m.extensions] == [("frame", "tip", "joint")]
    base_part, tip_part = rt.submodel_traversals(m, split_joints=["j1"])
    out, report = rt.explain(partial(rt.extract_submodel, traversal=base_part), m)
    assert not out.extensions
    assert [c.name for c in report.dropped if c.kind == "extension"] == ["<joint> of frame 'tip'"]
    kept = rt.extract_submodel(m, tip_part)
    assert [(e.owner_kind, e.owner) for e in kept.extensions] == [("frame", "tip")]
    for part in (out, kept):
        assert rm.formats.urdf.loads(rm.formats.urdf.dumps(part)) == part


def test_extract_submodel_drops_a_mimic_whose_leader_is_outside():
    """A joint following a joint of another part moves on its own in its part: a warning and
    the report say so, the part reloads exactly, and a mimic inside one part is kept."""
    m = rm.add_link(rm.Model(), "a")
    m = rm.add_joint_and_link(m, "a", "lead", rm.RevoluteJoint(link1="a", link2="b"), "b")
    m = rm.add_joint_and_link(m, "a", "cut", rm.RevoluteJoint(link1="a", link2="c"), "c")
    follow = rm.RevoluteJoint(link1="c", link2="d", mimic=rm.Mimic(joint="lead"))
    m = rm.add_joint_and_link(m, "c", "follow", follow, "d")
    inside = rm.RevoluteJoint(link1="d", link2="e", mimic=rm.Mimic(joint="follow"))
    m = rm.add_joint_and_link(m, "d", "inside", inside, "e")
    parts = rt.submodel_traversals(m, split_joints=["cut"])
    outer = next(t for t in parts if m.link_index("d") in t.links)
    with pytest.warns(rm.errors.RobomodelWarning, match="'follow' mimics joint 'lead'"):
        out, report = rt.explain(partial(rt.extract_submodel, traversal=outer), m)
    assert out.joint("follow").mimic is None
    assert out.joint("inside").mimic == rm.Mimic(joint="follow")
    assert [c.name for c in report.dropped if c.kind == "mimic"] == ["follow"]
    assert rm.formats.urdf.loads(rm.formats.urdf.dumps(out)) == out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=decorated_models(max_links=7), data=st.data())
def test_memoised_tables_do_not_change_results(m: rm.Model, data: st.DataObject) -> None:
    """The per-model tables (re-expression plans per set of moved links, URDF moves per base)
    are filled call by call: a call on a model that already served other calls gives what it
    gives on a fresh copy of the model, whose tables are empty."""
    from robomodel._internal.construct import set_derived

    links = list(m.link_names)
    joints = list(m.joint_names)
    calls = [
        partial(rt.reduce_model, keep_joints=data.draw(st.permutations(joints))[: k % 4])
        for k in range(3)
    ] + [partial(rt.make_urdf_compatible, base_link=data.draw(st.sampled_from(links)))]
    calls.append(calls[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobomodelWarning)
        warm = [call(m) for call in calls]
        for call, got in zip(calls, warm, strict=True):
            set_derived(m, "_memo", None)
            assert call(m) == got


def test_stack_joins_contiguous_and_strided_arrays_alike():
    """stack reads C-contiguous arrays through their buffers and copies other views: the same
    rows either way, and np.array's for another dtype."""
    from robomodel.transformers._link_poses import stack

    rng = np.random.default_rng(3)
    mats = [rng.standard_normal((3, 3)) for _ in range(4)]
    want = np.array(mats)
    assert np.array_equal(stack(mats, (3, 3)), want)
    assert np.array_equal(stack([m.T for m in mats], (3, 3)), want.transpose(0, 2, 1))
    assert np.array_equal(stack([mats[0], mats[1].T], (3, 3)), [mats[0], mats[1].T])
    assert np.array_equal(stack([m[:, 0] for m in mats], (3,)), want[:, :, 0])
    assert np.array_equal(stack([np.ones(3, dtype=np.float32)], (3,)), [[1.0, 1.0, 1.0]])
    assert stack([], (3,)).shape == (0, 3)
