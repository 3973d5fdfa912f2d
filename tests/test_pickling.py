"""Pickle round trips of models (robomodel.model._pickling): the same value, the same answers.

The oracle is the original model: the copy must be ``==``, hash alike, hold bit-identical arrays
and answer every query the same way; it must also keep working as a model (builders on it).
"""

from __future__ import annotations

import copy
import pickle

import attrs
import icub_models
import numpy as np
import pytest
from hypothesis import given
from idyntree_oracle import load_icub
from strategies import decorated_models, models, models_with_sensors, public_fields

import robomodel as rm
from robomodel.errors import ModelError
from robomodel.formats import json as rm_json
from robomodel.formats import urdf
from robomodel.model import _pickling

ROBOTS = sorted(icub_models.get_robot_names())


def _bits(x: object) -> object:
    """Every field of a value down to its arrays' bytes, so that -0.0 and 0.0 differ."""

    if isinstance(x, np.ndarray):
        return (x.shape, x.tobytes())
    if isinstance(x, float):
        return x.hex()
    if attrs.has(type(x)):
        return (type(x).__name__, tuple(_bits(getattr(x, f.name)) for f in attrs.fields(type(x))))
    if isinstance(x, (list, tuple)) or type(x).__name__ == "PVector":
        return tuple(_bits(v) for v in x)
    return x


def _assert_same_model(a: rm.Model, b: rm.Model) -> None:
    assert b == a and hash(b) == hash(a)
    assert _bits(public_fields(b)) == _bits(public_fields(a))
    assert (b.n_links, b.n_joints, b.n_frames, b.n_dofs, b.n_pos_coords) == (
        a.n_links,
        a.n_joints,
        a.n_frames,
        a.n_dofs,
        a.n_pos_coords,
    )
    for i, name in enumerate(a.link_names):
        assert b.link_index(name) == i and b.link_name(i) == name
        assert b.neighbors(i) == a.neighbors(i)
        assert b.link_additional_frames(i) == a.link_additional_frames(i)
    for j, name in enumerate(a.joint_names):
        assert b.joint_index(name) == j and b.joint_name(j) == name
    for f in range(a.n_frames):
        name = a.frame_name(f)
        assert b.frame_name(f) == name and b.frame_index(name) == f
        assert b.frame_link(f) == a.frame_link(f) and b.frame_transform(f) == a.frame_transform(f)
    for s in a.sensors:
        assert b.sensor(s.name) == s and b.is_sensor_name_used(s.name)
    if a.n_links:
        assert b.default_base_index == a.default_base_index
        for base in range(a.n_links):
            assert b.traversal(base) == a.traversal(base)
    assert b.problems() == a.problems()
    assert b.describe() == a.describe()
    assert np.array_equal(b.inertial_parameters(), a.inertial_parameters())


def _assert_frozen(m: rm.Model) -> None:
    """Every array of the copy is read-only, and neither it nor its base can be made writable."""
    arrays = [lk.inertia.first_moment for lk in m.links]
    arrays += [lk.inertia.rotational_inertia for lk in m.links]
    for j in m.joints:
        arrays += [j.link1_H_link2.rotation, j.link1_H_link2.position]
        if not isinstance(j, rm.FixedJoint):
            arrays += [j.axis_in_link1.direction, j.axis_in_link1.origin]
    for x in arrays:
        assert not x.flags.writeable
        for y in (x, x.base):
            if isinstance(y, np.ndarray):
                with pytest.raises(ValueError):
                    y.setflags(write=True)


@given(m=models(max_links=8))
def test_round_trip_of_random_models(m: rm.Model) -> None:
    b = pickle.loads(pickle.dumps(m))
    _assert_same_model(m, b)
    _assert_frozen(b)


@given(m=decorated_models())
def test_round_trip_of_models_with_shapes_limits_and_extensions(m: rm.Model) -> None:
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        _assert_same_model(m, pickle.loads(pickle.dumps(m, protocol=protocol)))
    _assert_same_model(m, copy.deepcopy(m))


@given(m=models_with_sensors())
def test_round_trip_of_models_with_sensors(m: rm.Model) -> None:
    _assert_same_model(m, pickle.loads(pickle.dumps(m)))


@given(m=models(max_links=6))
def test_the_copy_keeps_building_like_the_original(m: rm.Model) -> None:
    b = pickle.loads(pickle.dumps(m))
    last = m.link_names[-1]
    joint = rm.RevoluteJoint(link1="x", link2="y")
    grown = rm.add_joint_and_link(m, last, "extra_j", joint, "extra_l")
    assert rm.add_joint_and_link(b, last, "extra_j", joint, "extra_l") == grown
    assert rm.add_frame(b, last, "extra_f") == rm.add_frame(m, last, "extra_f")
    if m.n_joints:
        # The union-find came along: a joint closing a loop is still refused.
        j = m.joints[0]
        with pytest.raises(rm.TopologyError):
            rm.add_joint(b, "again", rm.FixedJoint(link1=j.link1, link2=j.link2))


def test_limits_and_dynamics_keep_their_exact_bits() -> None:
    m = rm.add_link(rm.Model(), "a")
    for k, (lower, damping) in enumerate([(-0.0, -0.0), (0.0, 0.0), (-0.0, 0.0)]):
        j = rm.RevoluteJoint(
            link1="x",
            link2="y",
            limits=rm.PositionLimits.between(lower, 1.0),
            dynamics=rm.JointDynamics(kind="urdf", damping=damping),
        )
        m = rm.add_joint_and_link(m, "a", f"j{k}", j, f"l{k}")
    b = pickle.loads(pickle.dumps(m))
    assert [j.limits.lower.hex() for j in b.joints] == [j.limits.lower.hex() for j in m.joints]
    assert [j.dynamics.damping.hex() for j in b.joints] == [
        j.dynamics.damping.hex() for j in m.joints
    ]


def test_a_state_of_another_layout_is_refused() -> None:
    state = _pickling.model_state(rm.add_link(rm.Model(), "a"))
    with pytest.raises(ModelError, match="cannot read"):
        _pickling.model_from_state((99, *state[1:]))


def test_pickles_of_the_field_layout_still_load_through_the_checks() -> None:
    m = rm.add_joint_and_link(
        rm.add_link(rm.Model(), "a"), "a", "j", "b", kind="revolute", axis=(0, 0, 1)
    )
    shell = rm.Model.__new__(rm.Model)
    shell.__setstate__(public_fields(m))
    assert shell == m and shell.link_index("b") == 1
    bad = dict(public_fields(m), link_names=["a", "a"])
    with pytest.raises(rm.DuplicateNameError):
        rm.Model.__new__(rm.Model).__setstate__(bad)


@pytest.mark.parametrize("robot", ROBOTS)
def test_round_trip_of_icub_models(robot: str) -> None:
    m = load_icub(robot)
    b = pickle.loads(pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL))
    _assert_same_model(m, b)
    _assert_frozen(b)
    q = np.linspace(-0.5, 0.5, m.n_pos_coords)
    fa = rm.forward_kinematics(m, q).base_H_link
    fb = rm.forward_kinematics(b, q).base_H_link
    assert fa.tobytes() == fb.tobytes()


@pytest.mark.parametrize("robot", ROBOTS)
def test_copies_of_icub_models_export_the_same_text(robot: str) -> None:
    # A loaded model holds plain values, so every kind of copy, and a copy of a copy, writes the
    # URDF and the JSON the loaded model writes, byte for byte.
    m = load_icub(robot)
    text, doc = urdf.dumps(m), rm_json.dumps(m)
    once = pickle.loads(pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL))
    copies = [once, copy.deepcopy(m), pickle.loads(pickle.dumps(once, protocol=2))]
    for b in copies:
        assert b == m and hash(b) == hash(m)
        assert urdf.dumps(b) == text
        assert rm_json.dumps(b) == doc


_TWO_LINKS = """<robot name="r">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="b"><inertial><mass value="2"/><origin xyz="0 0 0.1" rpy="0.1 0 0"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 1" rpy="0 0.3 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1"/></joint>
</robot>"""


class _TaggedJoint(rm.RevoluteJoint):
    """A user's joint class: the flat layout cannot hold it, so it pickles field by field."""


def test_a_model_with_a_users_joint_class_pickles_field_by_field() -> None:
    m = rm.Model(
        link_names=["a", "b"],
        links=[rm.Link(), rm.Link()],
        joint_names=["j"],
        joints=[_TaggedJoint(link1="a", link2="b")],
    )
    assert _pickling.model_state(m) is None
    b = pickle.loads(pickle.dumps(m))
    assert b == m and type(b.joints[0]) is _TaggedJoint


class _TaggedTransform(rm.Transform):
    """A user's transform class: the flat layout cannot hold it either."""


def test_a_model_with_a_users_value_class_pickles_field_by_field() -> None:
    m = urdf.loads(_TWO_LINKS)
    j = m.joints[0]
    rest = _TaggedTransform(j.link1_H_link2.rotation, j.link1_H_link2.position)
    m = rm.Model(
        link_names=m.link_names,
        links=m.links,
        joint_names=m.joint_names,
        joints=[rm.RevoluteJoint(link1="a", link2="b", link1_H_link2=rest)],
    )
    assert _pickling.model_state(m) is None  # so the model goes field by field
    b = pickle.loads(pickle.dumps(m))
    assert b == m and hash(b) == hash(m)


def test_a_copy_of_a_loaded_model_is_of_the_plain_classes() -> None:
    m = urdf.loads(_TWO_LINKS)
    assert _pickling.model_state(m) is not None
    b = pickle.loads(pickle.dumps(m))
    assert b == m and hash(b) == hash(m)
    assert type(b.links[1].inertia) is rm.SpatialInertia
    assert type(b.joints[0].link1_H_link2) is rm.Transform
    assert type(b.joints[0].axis_in_link1) is rm.Axis
