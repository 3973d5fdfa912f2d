"""Joint semantics (spec §2): undirected joints, transforms between either end, axes, limits."""

from __future__ import annotations

import math
import pickle

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import joints, transforms, unit_vectors

import robomodel as rm
import robomodel.formats.urdf
from robomodel.model.joints import joint_type_name, replace_joint

ATOL = 1e-9
qs = st.floats(-3.0, 3.0)


def same(A: rm.Transform, B: rm.Transform, atol: float = ATOL) -> bool:
    return bool(
        np.allclose(A.rotation, B.rotation, rtol=0, atol=atol)
        and np.allclose(A.position, B.position, rtol=0, atol=atol)
    )


def motion_about(axis: rm.Axis, joint: rm.Joint, q: float) -> rm.Transform:
    """Our own oracle of a joint's motion about an axis (Rodrigues / translation)."""
    if isinstance(joint, rm.FixedJoint):
        return rm.Transform()
    if isinstance(joint, rm.PrismaticJoint):
        return rm.Transform(np.eye(3), axis.direction * q)
    u = axis.direction
    K = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    R = np.eye(3) + math.sin(q) * K + (1 - math.cos(q)) * K @ K
    return rm.Transform(R, axis.origin - R @ axis.origin)


@given(joints("a", "b"), qs)
def test_transform_between_either_end(joint: rm.Joint, q: float) -> None:
    """transform(q, b, a) is the inverse of transform(q, a, b); rest is transform at q = 0."""
    ab = joint.transform(q, "a", "b")
    assert same(joint.transform(q, "b", "a"), ab.inverse())
    assert joint.rest_transform("a", "b") == joint.link1_H_link2
    assert same(joint.rest_transform("b", "a"), joint.link1_H_link2.inverse(), 1e-12)
    assert same(joint.transform(0.0, "a", "b"), joint.link1_H_link2, 1e-12)


@given(joints("a", "b"), qs)
def test_motion_is_applied_in_link1_before_rest(joint: rm.Joint, q: float) -> None:
    """Spec §2.3: link1_H_link2(q) = Motion_link1(axis, q) @ link1_H_link2_rest."""
    axis = getattr(joint, "axis_in_link1", rm.Axis((1, 0, 0)))
    expected = motion_about(axis, joint, q) @ joint.link1_H_link2
    assert same(joint.transform(q, "a", "b"), expected)


@given(joints("a", "b").filter(lambda j: not isinstance(j, rm.FixedJoint)), qs)
def test_axis_seen_from_each_child(joint: rm.RevoluteJoint | rm.PrismaticJoint, q: float) -> None:
    """axis(child) is the axis in the child's frame: parent_H_child(q) = rest @ Motion(axis, q).

    Spec §2.3 getAxis: for child == link1 the stored axis reversed (in link1); for link2 the
    stored axis expressed in link2 (constant in q).
    """
    for parent, child in (("a", "b"), ("b", "a")):
        expected = joint.rest_transform(parent, child) @ motion_about(joint.axis(child), joint, q)
        assert same(joint.transform(q, parent, child), expected)
    a1 = joint.axis("a")
    assert np.allclose(a1.direction, -joint.axis_in_link1.direction, atol=0)
    assert np.allclose(a1.origin, joint.axis_in_link1.origin, atol=0)
    a2 = joint.axis("b")
    back = joint.link1_H_link2 @ a2
    assert np.allclose(back.direction, joint.axis_in_link1.direction, atol=1e-12)
    assert np.allclose(back.origin, joint.axis_in_link1.origin, atol=1e-12)


@given(transforms(), unit_vectors(), st.sampled_from([rm.RevoluteJoint, rm.PrismaticJoint]))
def test_with_axis_in_child_reads_back(
    rest: rm.Transform, u: np.ndarray, cls: type[rm.RevoluteJoint]
) -> None:
    """with_axis_in(child, axis) (iDynTree setAxis(axis, child)) gives axis(child) == axis."""
    axis = rm.Axis(u, (0.1, -0.2, 0.3))
    for child in ("a", "b"):
        j = cls.with_axis_in(child, axis, link1="a", link2="b", link1_H_link2=rest)
        got = j.axis(child)
        assert np.allclose(got.direction, axis.direction, atol=1e-12)
        assert np.allclose(got.origin, axis.origin, atol=1e-12)
    with pytest.raises(rm.ModelError, match="axis frame"):
        cls.with_axis_in("c", axis, link1="a", link2="b", link1_H_link2=rest)


def test_revolute_fixed_vector() -> None:
    """A revolute joint about z through (1, 0, 0) in link1, rest identity, q = π/2.

    The link2 origin (0,0,0) rotates about the line x=1 to (1, -1, 0) by hand computation.
    """
    j = rm.RevoluteJoint(link1="a", link2="b", axis_in_link1=rm.Axis((0, 0, 1), (1, 0, 0)))
    T = j.transform(math.pi / 2, "a", "b")
    assert np.allclose(T.position, [1.0, -1.0, 0.0], atol=1e-12)
    assert np.allclose(T.rotation, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-12)
    p = rm.PrismaticJoint(link1="a", link2="b", axis_in_link1=rm.Axis((0, 0, 1), (5, 5, 5)))
    assert p.transform(0.25, "a", "b").position.tolist() == [0.0, 0.0, 0.25]


@given(joints("a", "b"))
def test_fixed_ignores_q_and_counts(joint: rm.Joint) -> None:
    """Fixed joints have 0/0 coordinates and a constant transform; moving joints 1/1."""
    if isinstance(joint, rm.FixedJoint):
        assert (joint.n_pos_coords, joint.n_dofs) == (0, 0)
        assert joint.transform(1.3, "a", "b") == joint.link1_H_link2
        assert joint_type_name(joint) == "fixed"
    else:
        assert (joint.n_pos_coords, joint.n_dofs) == (1, 1)
        assert joint_type_name(joint) in ("revolute", "prismatic")
    assert joint.other_link("a") == "b" and joint.other_link("b") == "a"


def test_defaults_match_idyntree() -> None:
    """Spec §2.3 defaults: axis x through the origin, limits disabled, no dynamics, inf limits."""
    j = rm.RevoluteJoint(link1="a", link2="b")
    assert j.axis_in_link1 == rm.Axis((1, 0, 0))
    assert j.limits == rm.PositionLimits()
    assert not j.limits.enabled
    assert j.limits.lower == -math.inf and j.limits.upper == math.inf
    assert j.dynamics.kind == "none" and j.dynamics.damping == 0.0
    assert j.dynamics.static_friction == 0.0
    assert j.effort_limit == math.inf and j.velocity_limit == math.inf
    assert j.mimic is None
    assert j.link1_H_link2 == rm.Transform.identity()


def test_limits() -> None:
    lim = rm.PositionLimits.between(-1.0, 2.0)
    assert lim.enabled and (lim.lower, lim.upper) == (-1.0, 2.0)
    with pytest.raises(rm.ModelError, match="lower <= upper"):
        rm.PositionLimits(enabled=True, lower=1.0, upper=0.0)
    with pytest.raises(ValueError, match="NaN"):
        rm.PositionLimits(lower=math.nan)
    with pytest.raises(ValueError, match="NaN"):
        rm.RevoluteJoint(link1="a", link2="b", effort_limit=math.nan)


@pytest.mark.parametrize("cls", [rm.FixedJoint, rm.RevoluteJoint, rm.PrismaticJoint])
def test_bad_link_names(cls: type[rm.FixedJoint]) -> None:
    """A self joint is a TopologyError; an empty link name a ModelError; both RobomodelErrors."""
    with pytest.raises(rm.TopologyError, match="itself"):
        cls(link1="a", link2="a")
    with pytest.raises(rm.ModelError, match="non-empty"):
        cls(link1="", link2="a")
    j = cls(link1="a", link2="b")
    with pytest.raises(rm.ModelError, match="not an end"):
        j.other_link("c")
    with pytest.raises(rm.ModelError, match="not the two ends"):
        j.transform(0.0, "a", "c")
    with pytest.raises(rm.TopologyError):
        replace_joint(j, link2="a")


@given(joints("a", "b"))
def test_joint_value_semantics(joint: rm.Joint) -> None:
    """Joints are frozen values: equal copies hash alike, pickle round trips, evolve copies."""
    copy = attrs.evolve(joint)
    assert copy == joint and hash(copy) == hash(joint)
    assert pickle.loads(pickle.dumps(joint)) == joint
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        joint.link1 = "z"  # type: ignore[misc]
    moved = replace_joint(joint, link1="x", dof_offset=7)
    assert (moved.link1, moved.link2, moved.dof_offset) == ("x", "b", 7)
    assert (joint.link1, joint.dof_offset) == ("a", 0)
    assert type(moved) is type(joint)


def test_joint_dynamics_carries_values_only_when_written() -> None:
    """kind='none' writes no <dynamics>, so it holds no values (they would be lost on export);
    unknown kinds and non-finite values are refused with what to do."""
    assert rm.JointDynamics() == rm.JointDynamics(kind="none", damping=0.0, static_friction=-0.0)
    with pytest.raises(rm.errors.ModelError, match="kind='urdf'"):
        rm.JointDynamics(damping=0.5)
    with pytest.raises(rm.errors.ModelError, match="kind='urdf'"):
        rm.JointDynamics(static_friction=0.1)
    with pytest.raises(rm.errors.ModelError, match="'none' or 'urdf'"):
        rm.JointDynamics(kind="viscous")  # type: ignore[arg-type]
    with pytest.raises(rm.errors.ModelError, match="finite"):
        rm.JointDynamics(kind="urdf", damping=math.inf)
    d = rm.JointDynamics(kind="urdf", damping=0.5, static_friction=0.1)
    j = rm.RevoluteJoint(link1="a", link2="b", dynamics=d)
    m = rm.add_joint_and_link(rm.add_link(rm.Model(), "a"), "a", "j", j, "b")
    assert rm.formats.urdf.loads(rm.formats.urdf.dumps(m)).joint("j").dynamics == d
