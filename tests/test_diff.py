from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import decorated_models, models

import robomodel as rm
from robomodel.testing import assert_models_close
from robomodel.tools.diff import diff
from robomodel.transformers.reorder_joints import reorder_joints


@settings(max_examples=25)
@given(decorated_models())
def test_a_model_does_not_differ_from_itself(m: rm.Model) -> None:
    """diff(m, m) is empty and false; so is diff(m, copy of m)."""
    d = diff(m, m)
    assert not d and len(d) == 0 and "equal" in str(d)
    assert not diff(
        m,
        rm.Model(
            **{
                f.name: getattr(m, f.name)
                for f in attrs.fields(rm.Model)
                if not f.name.startswith("_")
            }
        ),
    )


@settings(max_examples=40)
@given(models(min_links=2), st.data())
def test_a_joint_stored_from_the_other_end_is_the_same_joint(
    m: rm.Model, data: st.DataObject
) -> None:
    """diff compares joints by what they do: swapping link1/link2 (rest inverted, axis
    re-expressed) is no difference."""
    k = data.draw(st.integers(0, m.n_joints - 1))
    j = m.joints[k]
    rest = j.link1_H_link2.inverse()
    if isinstance(j, rm.FixedJoint):
        flipped: rm.Joint = rm.FixedJoint(link1=j.link2, link2=j.link1, link1_H_link2=rest)
    else:
        # Same motion seen from link2: axis in link2, reversed (spec section 2.3).
        flipped = attrs.evolve(
            j,
            link1=j.link2,
            link2=j.link1,
            link1_H_link2=rest,
            axis_in_link1=j.axis(j.link2).reversed(),
        )
    joints = list(m.joints)
    joints[k] = flipped
    other = attrs.evolve(m, joints=joints)
    assert other != m
    assert not diff(m, other, atol=1e-9), str(diff(m, other, atol=1e-9))


@settings(max_examples=40)
@given(models(), st.floats(1e-6, 1.0), st.data())
def test_a_changed_mass_is_reported_with_its_delta(
    m: rm.Model, delta: float, data: st.DataObject
) -> None:
    """Changing one link's mass by delta gives exactly one difference, with |delta|, unless
    atol >= delta."""
    k = data.draw(st.integers(0, m.n_links - 1))
    inertia = m.links[k].inertia
    changed = rm.with_link(m, k, rm.Link(attrs.evolve(inertia, mass=inertia.mass + delta)))
    d = diff(m, changed)
    assert len(d) == 1
    (only,) = d.changed
    assert (only.kind, only.name, only.field) == ("link", m.link_names[k], "mass")
    assert only.delta == pytest.approx(delta)
    assert not diff(m, changed, atol=delta * 1.01)


def _model() -> rm.Model:
    m = rm.add_link(rm.Model(name="r"), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0))))
    m = rm.add_joint_and_link(
        m,
        "base",
        "j1",
        rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 0, 1))),
        "arm",
    )
    m = rm.add_joint_and_link(m, "base", "j2", rm.FixedJoint(link1="base", link2="leg"), "leg")
    m = rm.add_frame(m, "arm", "tool", rm.Transform.from_translation((0.1, 0, 0)))
    return rm.add_sensor(m, rm.Accelerometer(name="imu", link="arm"))


def test_readable_text_lists_each_kind_of_difference() -> None:
    a = _model()
    b = rm.add_link(a, "extra")
    b = rm.add_frame(b, "arm", "tool2")
    b = attrs.evolve(
        b,
        frames=[
            rm.Frame("tool", "arm", rm.Transform.from_translation((0.1, 0.002, 0))),
            b.frames[1],
        ],
    )
    b = rm.discard_sensor(b, "imu")
    b = rm.add_sensor(b, rm.Gyroscope(name="imu", link="leg"))
    b = rm.with_default_base_link(b, "arm")
    text = str(diff(a, b))
    lines = text.splitlines()
    assert lines[0] == f"{len(lines) - 1} differences (atol=0):"
    assert "  ~ model 'r' default base: 'base' -> 'arm'" in lines
    assert "  + link 'extra' only in b" in lines
    assert "  + frame 'tool2' only in b" in lines
    assert (
        "  ~ frame 'tool' link_H_frame position: [0.1, 0, 0] -> [0.1, 0.002, 0] (|delta| 0.002)"
        in lines
    )
    assert "  ~ sensor 'imu' type: Accelerometer -> Gyroscope" in lines
    assert "  - link 'extra' only in a" in str(diff(b, a))


def test_order_differences_are_reported_unless_asked_not_to() -> None:
    a = _model()
    b, _ = reorder_joints(a, ["j2", "j1"])
    d = diff(a, b)
    assert len(d) == 1 and "order" in d.differences[0].field
    assert "[j1, j2] -> [j2, j1]" in str(d)
    assert not diff(a, b, order=False)


def test_joint_field_differences() -> None:
    a = _model()
    j = a.joint("j1")
    assert isinstance(j, rm.RevoluteJoint)
    changes = {
        "limits enabled": attrs.evolve(j, limits=rm.PositionLimits.between(-1, 1)),
        "effort limit": attrs.evolve(j, effort_limit=3.0),
        "axis direction (in link2)": attrs.evolve(j, axis_in_link1=rm.Axis((0, 1, 0))),
        "axis line (distance between the axes' points)": attrs.evolve(
            j, axis_in_link1=rm.Axis((0, 0, 1), (0.5, 0, 0))
        ),
        "mimic": attrs.evolve(j, mimic=rm.Mimic(joint="j2")),
        "type": rm.PrismaticJoint(link1="base", link2="arm"),
    }
    for field, new in changes.items():
        joints = list(a.joints)
        joints[0] = new
        fields = [d.field for d in diff(a, attrs.evolve(a, joints=joints)).differences]
        assert field in fields, (field, fields)


def test_shape_differences() -> None:
    a = rm.with_visual_shapes(_model(), "arm", [rm.SolidShape(geometry=rm.Box(1, 1, 1))])
    b = rm.with_visual_shapes(a, "arm", [rm.SolidShape(geometry=rm.Box(1, 2, 1))])
    c = rm.with_visual_shapes(a, "arm", [rm.SolidShape(geometry=rm.Sphere(1))])
    d = rm.with_collision_shapes(a, "arm", [rm.SolidShape(geometry=rm.Sphere(1))])
    assert [x.field for x in diff(a, b).differences] == ["box size"]
    assert [x.field for x in diff(a, c).differences] == ["geometry"]
    assert [(x.kind, x.field) for x in diff(a, d).differences] == [
        ("collision", "number of shapes")
    ]


def test_assert_models_close() -> None:
    a = _model()
    assert_models_close(a, a)
    b = rm.with_link(a, "arm", rm.Link(rm.SpatialInertia.from_com(1e-12, (0, 0, 0))))
    assert_models_close(a, b, atol=1e-9)
    with pytest.raises(AssertionError, match="link 'arm' mass"):
        assert_models_close(a, b, atol=1e-15)
    c = rm.add_link(a, "x")
    with pytest.raises(AssertionError, match=r"\+ link 'x' only in b"):
        assert_models_close(a, c)
    np.testing.assert_equal(bool(diff(a, c)), True)


def test_kept_children_of_a_shape_are_a_difference() -> None:
    box = rm.SolidShape(geometry=rm.Box(1.0, 1.0, 1.0))
    a = rm.with_visual_shapes(rm.add_link(rm.Model(), "l", rm.Link()), "l", [box])
    b = rm.with_visual_shapes(a, "l", [attrs.evolve(box, extensions=("<verbose/>",))])
    d = diff(a, b)
    assert [(c.kind, c.field) for c in d.differences] == [("visual", "extensions")]
