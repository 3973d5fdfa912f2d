"""The keyword form of add_joint_and_link / insert_link_to_existing_joint (no placeholder links).

The oracle is the positional form with a joint value built by hand: both must give ``==`` models.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import transforms, unit_vectors

import robomodel as rm

BASE = rm.add_link(rm.Model(), "base", rm.Link())
LIMITS = rm.PositionLimits.between(-1.0, 2.0)
DYN = rm.JointDynamics(kind="urdf", damping=0.5, static_friction=0.1)
LINK = rm.Link(rm.SpatialInertia.from_com(2.0, (0.0, 0.1, 0.0), np.eye(3) * 0.01))


@given(T=transforms(), u=unit_vectors(), kind=st.sampled_from(["revolute", "prismatic"]))
def test_moving_joint_equals_the_old_form(T: rm.Transform, u: np.ndarray, kind: str) -> None:
    cls = rm.RevoluteJoint if kind == "revolute" else rm.PrismaticJoint
    # The old form: the axis converted into link1 by hand (child axis seen from the parent).
    stored = T @ rm.Axis(u)
    old = cls(
        link1="x", link2="y", link1_H_link2=T, axis_in_link1=stored, limits=LIMITS,
        effort_limit=3.0, velocity_limit=4.0, dynamics=DYN,
    )  # fmt: skip
    want = rm.add_joint_and_link(BASE, "base", "j", old, "arm", LINK)
    got = rm.add_joint_and_link(
        BASE, "base", "j", "arm", kind=kind, parent_H_child=T, axis=u, link=LINK,
        limits=LIMITS, effort_limit=3.0, velocity_limit=4.0, dynamics=DYN,
    )  # fmt: skip
    assert got == want
    assert hash(got) == hash(want)
    # The axis reads back in the child's frame as given.
    np.testing.assert_allclose(got.joint("j").axis("arm").direction, u, atol=1e-12)


@given(T=transforms())
def test_fixed_joint_equals_the_old_form(T: rm.Transform) -> None:
    old = rm.FixedJoint(link1="x", link2="y", link1_H_link2=T)
    want = rm.add_joint_and_link(BASE, "base", "j", old, "arm")
    got = rm.add_joint_and_link(BASE, "base", "j", "arm", kind="fixed", parent_H_child=T)
    assert got == want


def test_defaults_are_identity_rest_x_axis_and_a_massless_link() -> None:
    m = rm.add_joint_and_link(BASE, "base", "j", "arm", kind="revolute")
    j = m.joint("j")
    assert j.link1_H_link2 == rm.Transform.identity()
    assert j.axis_in_link1.direction.tolist() == [1.0, 0.0, 0.0]
    assert j.limits == rm.PositionLimits() and j.effort_limit == math.inf
    assert m.link("arm") == rm.Link()


def test_an_axis_value_with_an_origin_is_moved_into_link1() -> None:
    T = rm.Transform.from_rpy_xyz((0.0, 0.0, math.pi / 2), (1.0, 0.0, 0.0))
    line = rm.Axis((0.0, 1.0, 0.0), origin=(0.0, 0.0, 0.3))
    m = rm.add_joint_and_link(
        BASE, "base", "j", "arm", kind="revolute", parent_H_child=T, axis=line
    )
    stored = m.joint("j").axis_in_link1
    np.testing.assert_allclose(stored.direction, [-1.0, 0.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(stored.origin, [1.0, 0.0, 0.3], atol=1e-15)


@given(T=transforms(), half=transforms(), u=unit_vectors())
def test_insert_equals_the_old_form(T: rm.Transform, half: rm.Transform, u: np.ndarray) -> None:
    m = rm.add_joint_and_link(BASE, "base", "j1", "arm", kind="revolute", parent_H_child=T)
    old = rm.PrismaticJoint(
        link1="x", link2="y", link1_H_link2=half, axis_in_link1=half @ rm.Axis(u)
    )
    want = rm.insert_link_to_existing_joint(m, "j1", "base", half, "j2", old, "elbow", LINK)
    got = rm.insert_link_to_existing_joint(
        m, "j1", "base", half, "j2", "elbow", kind="prismatic", parent_H_child=half, axis=u,
        link=LINK,
    )  # fmt: skip
    assert got == want
    np.testing.assert_allclose(got.joint("j2").axis("arm").direction, u, atol=1e-12)


def test_insert_from_the_link2_side_takes_d_as_the_child() -> None:
    m = rm.add_joint_and_link(BASE, "base", "j1", "arm", kind="fixed")
    got = rm.insert_link_to_existing_joint(
        m, "j1", "arm", rm.Transform.identity(), "j2", "mid", kind="revolute", axis=(0, 0, 1)
    )
    j2 = got.joint("j2")
    assert (j2.link1, j2.link2) == ("mid", "base")
    assert got.joint("j1").link1 == "mid"


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (("arm",), {}, "needs a joint"),
        (("arm",), {"kind": "ball"}, "kind must be one of"),
        (("arm",), {"kind": "fixed", "axis": (0, 0, 1)}, "fixed joint has no axis"),
        (("arm",), {"kind": "fixed", "limits": LIMITS}, "fixed joint has no limits"),
        (("arm",), {"kind": "revolute", "axis": (0, 0, 0)}, "zero|direction"),
        (("arm",), {"kind": "revolute", "parent_H_child": np.eye(4)}, "must be a Transform"),
        (("arm", rm.Link()), {"kind": "revolute"}, r"link=\.\.\."),
        ((rm.FixedJoint(link1="x", link2="y"), "arm"), {"kind": "fixed"}, "not both"),
        ((rm.FixedJoint(link1="x", link2="y"), "arm"), {"limits": LIMITS}, "set them on"),
        ((rm.FixedJoint(link1="x", link2="y"),), {}, "needs a name"),
    ],
)
def test_mixed_or_wrong_forms_are_refused(args: tuple, kwargs: dict, match: str) -> None:
    with pytest.raises(rm.ModelError, match=match):
        rm.add_joint_and_link(BASE, "base", "j", *args, **kwargs)


def test_name_checks_apply_to_the_keyword_form() -> None:
    m = rm.add_joint_and_link(BASE, "base", "j", "arm", kind="fixed")
    with pytest.raises(rm.DuplicateNameError):
        rm.add_joint_and_link(m, "base", "j2", "arm", kind="fixed")
    with pytest.raises(rm.DuplicateNameError):
        rm.add_joint_and_link(m, "base", "j", "hand", kind="fixed")
    with pytest.raises(rm.UnknownNameError):
        rm.add_joint_and_link(m, "nope", "j2", "hand", kind="fixed")
    with pytest.raises(rm.ModelError):
        rm.add_joint_and_link(m, "base", "j2", "", kind="fixed")
    with pytest.raises(rm.ModelError, match=r"link=\.\.\."):
        rm.insert_link_to_existing_joint(
            m, "j", "base", rm.Transform.identity(), "j2", "mid", rm.Link(), kind="fixed"
        )
    with pytest.raises(rm.ModelError, match="not both"):
        rm.insert_link_to_existing_joint(
            m, "j", "base", rm.Transform.identity(), "j2", rm.FixedJoint(link1="x", link2="y"),
            "mid", axis=(1, 0, 0),
        )  # fmt: skip
