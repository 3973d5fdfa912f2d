"""Tests of robomodel.model.validation and of how every kinematics, dynamics and sensing call uses
it.

The properties: every malformed argument (a string, a mapping, a ragged list, an object array,
an integer too large for a float, complex or non-finite numbers, a float or bool as a link) is
refused with a robomodel error that also is the builtin it refines and names what was
expected; joint values are read by one rule (a JointState, a vector or a joint-name mapping);
``base`` is keyword-only and resolved to one link index, so one plan serves a base given by
name or by index.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robomodel as rm
from robomodel.errors import (
    ArgumentError,
    ModelError,
    RobomodelError,
    UnknownIndexError,
    UnknownNameError,
)
from robomodel.model import validation
from robomodel.physics import _kinematic_tree, dynamics, joint_state, kinematics, sensing
from robomodel.physics.joint_state import JointState, positions_of, state_of


def robot() -> rm.Model:
    """base -(revolute j1)- arm -(prismatic j2)- slider -(fixed ft)- tool, with three sensors."""
    heavy = rm.Link(rm.SpatialInertia.from_com(1.5, (0.1, 0.0, 0.2), 0.01 * np.eye(3)))
    m = rm.add_link(rm.Model(), "base", heavy)
    j1 = rm.RevoluteJoint(
        link1="base",
        link2="arm",
        axis_in_link1=rm.Axis((0, 0, 1)),
        link1_H_link2=rm.Transform.from_translation((0, 0, 0.5)),
    )
    m = rm.add_joint_and_link(m, "base", "j1", j1, "arm", heavy)
    j2 = rm.PrismaticJoint(link1="arm", link2="slider", axis_in_link1=rm.Axis((1, 0, 0)))
    m = rm.add_joint_and_link(m, "arm", "j2", j2, "slider", heavy)
    ft = rm.FixedJoint(
        link1="slider", link2="tool", link1_H_link2=rm.Transform.from_translation((0.3, 0, 0))
    )
    m = rm.add_joint_and_link(m, "slider", "ft", ft, "tool", heavy)
    m = rm.add_frame(m, "tool", "tip", rm.Transform.from_translation((0, 0, 0.1)))
    m = rm.add_sensor(
        m,
        rm.SixAxisForceTorqueSensor(
            name="ft_sensor",
            parent_joint="ft",
            first_link="slider",
            second_link="tool",
            first_link_H_sensor=rm.Transform.from_translation((0.3, 0, 0)),
            applied_wrench_link="tool",
        ),
    )
    m = rm.add_sensor(m, rm.Accelerometer(name="acc", link="tool"))
    return rm.add_sensor(m, rm.Gyroscope(name="gyro", link="arm"))


M = robot()
Q = np.array([0.3, 0.1])
STATE = JointState(Q, [0.5, -0.2], [1.0, 0.3])


# --------------------------------------------------------------------------- bad inputs

HUGE = 10**400  # beyond the float range: numpy would raise OverflowError or keep an object


def bad_arrays(size: int) -> st.SearchStrategy[Any]:
    """Values that are not ``size`` finite real numbers, of every malformed kind."""
    ok = st.floats(-10, 10)
    return st.one_of(
        st.text(max_size=5),
        st.binary(max_size=3),
        st.dictionaries(st.text(max_size=3), ok, max_size=2),
        st.just([[0.0], [0.0, 1.0]]),  # ragged
        st.lists(ok, min_size=size, max_size=size).map(lambda v: [*v[:-1], HUGE]),
        st.lists(ok, min_size=size, max_size=size).map(lambda v: [*v[:-1], complex(v[-1], 1)]),
        st.lists(ok, min_size=size, max_size=size).map(
            lambda v: np.array([*v[:-1], object()], dtype=object)
        ),
        st.sampled_from([math.nan, math.inf, -math.inf]).map(lambda x: [x] * size),
        st.lists(ok, min_size=size, max_size=size).map(lambda v: [*v[:-1], "1.0"]),
        st.just([True] * size),
        st.just([None] * size),
        st.just(None),
        st.lists(ok, max_size=size + 3).filter(lambda v: len(v) != size),
        st.lists(ok, min_size=size, max_size=size).map(lambda v: [v]),  # (1, size)
        ok,  # a scalar
    )


def bad_links(*, frames: bool = False) -> st.SearchStrategy[Any]:
    """Values that are not a link (or frame) of :data:`M`: floats, bools, unknown names, ..."""
    names = M.frame_names if frames else M.link_names
    n = M.n_frames if frames else M.n_links
    return st.one_of(
        st.sampled_from([1.0, 0.0, True, False, 2.5, math.nan, [0], (1,), b"base", object()]),
        st.text(max_size=6).filter(lambda s: s not in names),
        st.integers().filter(lambda i: not 0 <= i < n),
        st.just(HUGE),
        st.just(np.float64(1.0)),
    )


def bad_joint_maps() -> st.SearchStrategy[Any]:
    """Joint-name mappings that are wrong: unknown or fixed joints, bad values, keys left out."""
    good = {"j1": 0.1, "j2": 0.2}
    return st.one_of(
        st.just({"j1": 0.1}),  # j2 left out
        st.just({**good, "ft": 0.0}),  # a fixed joint
        st.just({**good, "nope": 0.0}),
        st.just({**good, 3: 0.0}),
        st.sampled_from(["a", None, math.nan, HUGE, 1j, [0.1, 0.2], True]).map(
            lambda v: {**good, "j1": v}
        ),
    )


def _sensor(name: str) -> Any:
    return M.sensor(name)


def _q_values() -> st.SearchStrategy[Any]:
    return st.one_of(bad_arrays(2), bad_joint_maps())


def _given(size: int) -> st.SearchStrategy[Any]:
    # For options where None means "the default".
    return bad_arrays(size).filter(lambda v: v is not None)


def _not_one_row(v: Any) -> bool:
    return not (isinstance(v, list) and len(v) == 1 and isinstance(v[0], list) and len(v[0]) == 2)


def _not_a_vector(v: Any) -> bool:
    # JointState checks sizes against a model only when used, so any 1-D list of floats is fine.
    return not (isinstance(v, list) and all(isinstance(e, float) for e in v))


def _frames() -> st.SearchStrategy[Any]:
    return bad_links(frames=True)


def _links_or_none() -> st.SearchStrategy[Any]:
    return st.one_of(bad_links(), st.just(None))


def _keys() -> st.SearchStrategy[Any]:
    return bad_links().filter(lambda v: isinstance(v, (str, int, float, bytes)))


def _mappings() -> st.SearchStrategy[Any]:
    return st.sampled_from(["tool", [np.zeros(6)], 3.0, (("tool", np.zeros(6)),)])


def _sensors() -> st.SearchStrategy[Any]:
    return st.sampled_from(["ft", None, 3, M])


def _tolerances() -> st.SearchStrategy[Any]:
    return st.sampled_from(["1e-9", None, -1.0, math.nan, True, [0.1], 1j])


def _not_models() -> st.SearchStrategy[Any]:
    return st.sampled_from([None, "model.urdf", {}, STATE, [M]])


def _a2() -> st.SearchStrategy[Any]:
    return bad_arrays(2)


def _a6() -> st.SearchStrategy[Any]:
    return bad_arrays(6)


kin, dyn, sen = kinematics, dynamics, sensing
FT, G = "ft_sensor", "gravity"

# (what, label, call, values): every public kinematics, dynamics and sensing entry point with
# one argument drawn bad; ``what`` is the argument's name as the message must give it.
CALLS: list[tuple[str, str, Callable[[Any], object], Callable[[], st.SearchStrategy[Any]]]] = [
    ("q", "forward_kinematics q", lambda x: kin.forward_kinematics(M, x), _q_values),
    ("base", "forward_kinematics base", lambda x: kin.forward_kinematics(M, Q, base=x), bad_links),
    ("frame", "base_H_frame", lambda x: kin.forward_kinematics(M, Q).base_H_frame(x), _frames),
    ("q", "relative_transform q", lambda x: kin.relative_transform(M, x, "tip", "base"), _a2),
    ("frame_a", "relative_transform a", lambda x: kin.relative_transform(M, Q, x, "tip"), _frames),
    ("q", "center_of_mass q", lambda x: kin.center_of_mass(M, x), _a2),
    ("base", "center_of_mass base", lambda x: kin.center_of_mass(M, Q, base=x), bad_links),
    ("q", "total_spatial_inertia q", lambda x: kin.total_spatial_inertia(M, x), _a2),
    ("base", "total_inertia base", lambda x: kin.total_spatial_inertia(M, Q, base=x), bad_links),
    (
        "Q",
        "forward_kinematics_batch Q",
        lambda x: kin.forward_kinematics_batch(M, x),
        lambda: bad_arrays(2).filter(_not_one_row),
    ),
    ("frame", "batch frames", lambda x: kin.forward_kinematics_batch(M, [Q], frames=[x]), _frames),
    ("base", "batch base", lambda x: kin.forward_kinematics_batch(M, [Q], base=x), bad_links),
    (
        "JointState.q",
        "JointState q",
        lambda x: JointState(x, [0, 0], [0, 0]),
        lambda: bad_arrays(2).filter(_not_a_vector),
    ),
    (
        "positions",
        "JointState.from_names",
        lambda x: JointState.from_names(M, positions=x),
        lambda: _q_values().filter(lambda v: v is not None),
    ),
    ("state", "inverse_dynamics state", lambda x: dyn.inverse_dynamics(M, x), _q_values),
    ("base", "inverse_dynamics base", lambda x: dyn.inverse_dynamics(M, STATE, base=x), bad_links),
    (
        G,
        "inverse_dynamics gravity",
        lambda x: dyn.inverse_dynamics(M, STATE, gravity=x),
        lambda: _given(3),
    ),
    (
        "base_acceleration",
        "inverse_dynamics base_acceleration",
        lambda x: dyn.inverse_dynamics(M, STATE, base_acceleration=x),
        lambda: _given(6),
    ),
    (
        "base_velocity",
        "inverse_dynamics base_velocity",
        lambda x: dyn.inverse_dynamics(M, STATE, base_velocity=x),
        lambda: _given(6),
    ),
    (
        "external wrench",
        "inverse_dynamics wrench",
        lambda x: dyn.inverse_dynamics(M, STATE, external_wrenches={"tool": x}),
        _a6,
    ),
    (
        "external_wrenches",
        "inverse_dynamics wrench key",
        lambda x: dyn.inverse_dynamics(M, STATE, external_wrenches={x: np.zeros(6)}),
        _keys,
    ),
    (
        "external_wrenches",
        "inverse_dynamics wrenches",
        lambda x: dyn.inverse_dynamics(M, STATE, external_wrenches=x),
        _mappings,
    ),
    (
        "link",
        "internal_wrench",
        lambda x: dyn.inverse_dynamics(M, STATE).internal_wrench(x),
        _links_or_none,
    ),
    ("state", "link_motion_arrays state", lambda x: dyn.link_motion_arrays(M, x), _a2),
    (G, "link_motion gravity", lambda x: sen.link_motion(M, STATE, gravity=x), lambda: _given(3)),
    ("base", "link_motion base", lambda x: sen.link_motion(M, STATE, base=x), bad_links),
    ("link", "velocity", lambda x: sen.link_motion(M, STATE).velocity(x), _links_or_none),
    (
        "state",
        "predict_sensor_measurements state",
        lambda x: sen.predict_sensor_measurements(M, x),
        _q_values,
    ),
    (
        "base",
        "predict_sensor_measurements base",
        lambda x: sen.predict_sensor_measurements(M, STATE, base=x),
        bad_links,
    ),
    (
        "base_velocity",
        "predict_sensor_measurements base_velocity",
        lambda x: sen.predict_sensor_measurements(M, STATE, base_velocity=x),
        lambda: _given(6),
    ),
    (
        "internal_wrenches",
        "predict_measurement",
        lambda x: sen.predict_measurement(_sensor(FT), M, M.traversal(), x),
        _a6,
    ),
    ("sensor", "sensor_problems", lambda x: sen.sensor_problems(M, x), _sensors),
    ("atol", "check_sensor atol", lambda x: sen.check_sensor(M, _sensor(FT), atol=x), _tolerances),
    ("model", "forward_kinematics model", lambda x: kin.forward_kinematics(x, Q), _not_models),
    ("model", "center_of_mass model", lambda x: kin.center_of_mass(x, Q), _not_models),
    ("model", "inverse_dynamics model", lambda x: dyn.inverse_dynamics(x, STATE), _not_models),
    ("model", "sensors model", lambda x: sen.predict_sensor_measurements(x, STATE), _not_models),
    ("model", "JointState.zeros", lambda x: JointState.zeros(x), _not_models),
    (
        "model",
        "relative_transform model",
        lambda x: kin.relative_transform(x, Q, 0, 1),
        _not_models,
    ),
    (
        "model",
        "predict_measurement model",
        lambda x: sen.predict_measurement(_sensor(FT), x, M.traversal(), np.zeros((4, 6))),
        _not_models,
    ),
    ("link velocity", "gyroscope", lambda x: _sensor("gyro").predict_measurement(x), _a6),
    (
        "proper acceleration",
        "accelerometer",
        lambda x: _sensor("acc").predict_measurement(np.zeros(6), x),
        _a6,
    ),
    (
        "measured wrench",
        "wrench_applied_on_link",
        lambda x: _sensor(FT).wrench_applied_on_link("tool", x),
        _a6,
    ),
]


@pytest.mark.parametrize(("what", "label", "call", "values"), CALLS, ids=[c[1] for c in CALLS])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_bad_inputs_raise_robomodel_errors(
    what: str,
    label: str,
    call: Callable[[Any], object],
    values: Callable[[], st.SearchStrategy[Any]],
    data: st.DataObject,
) -> None:
    """Every malformed argument of every public kinematics, dynamics and sensing function is
    refused with a RobomodelError that is also the builtin it refines (ValueError, TypeError or
    KeyError); a wrong type or form names the argument and what was expected."""
    bad = data.draw(values(), label=label)
    with pytest.raises(RobomodelError) as info:
        call(bad)
    err = info.value
    assert isinstance(err, (ValueError, TypeError, KeyError))
    if isinstance(err, ArgumentError):
        text = str(err)
        assert what in text, text
        assert "must" in text, text


@given(st.one_of(bad_arrays(2), bad_joint_maps()).filter(lambda v: v is not None))
def test_joint_values_refuses_what_numpy_would_mangle(bad: Any) -> None:
    """joint_values never lets numpy's own TypeError/ValueError/OverflowError through, and never
    drops an imaginary part or reads a bool as a number (``None`` means all zero)."""
    with pytest.raises(RobomodelError):
        joint_state.joint_values(M, bad, kind="positions", missing="raise", what="q")


def test_messages_say_what_was_expected() -> None:
    with pytest.raises(ArgumentError, match=r"q must hold real numbers, but got complex"):
        kinematics.forward_kinematics(M, [0.1, 1j])
    with pytest.raises(ArgumentError, match=r"integer too large for a float"):
        kinematics.forward_kinematics(M, [0.1, HUGE])
    with pytest.raises(ArgumentError, match=r"not a ragged list"):
        kinematics.forward_kinematics(M, [[0.1], [0.1, 0.2]])
    with pytest.raises(ArgumentError, match=r"q must be an array of real numbers, but got str"):
        kinematics.forward_kinematics(M, "0 0")
    with pytest.raises(ArgumentError, match=r"base must be a link name or index, but got 1\.0"):
        kinematics.forward_kinematics(M, Q, base=1.0)
    with pytest.raises(ArgumentError, match=r"base must be a link name or index, but got True"):
        kinematics.forward_kinematics(M, Q, base=True)
    with pytest.raises(UnknownIndexError, match=r"no link with index 9 \(valid: 0 to 3\)"):
        kinematics.forward_kinematics(M, Q, base=9)
    with pytest.raises(ModelError, match=r"q: positions are missing for joints \['j2'\]"):
        kinematics.forward_kinematics(M, {"j1": 0.0})
    with pytest.raises(ModelError, match=r"gravity must be a finite 3-vector"):
        dynamics.inverse_dynamics(M, STATE, gravity=(0, 0, "g"))


def test_integers_beyond_int64_that_fit_a_float_are_numbers() -> None:
    q = [2**70, 0]
    got = kinematics.forward_kinematics(M, q).base_H_link
    np.testing.assert_array_equal(got, kinematics.forward_kinematics(M, [2.0**70, 0.0]).base_H_link)


def test_unknown_index_is_a_key_and_an_index_error() -> None:
    with pytest.raises(IndexError):
        validation.check_index(7, 3, "frame")
    with pytest.raises(KeyError):
        validation.check_index(-1, 3, "frame")
    with pytest.raises(UnknownNameError):
        joint_state.frame_index_of(M, M.n_frames)


# --------------------------------------------------------------------------- joint values


def test_joint_values_by_vector_mapping_and_state_agree() -> None:
    """A vector, a mapping naming every moving joint and a JointState mean the same q."""
    by_name = {"j2": 0.1, "j1": 0.3}
    for f in (kinematics.forward_kinematics,):
        np.testing.assert_array_equal(f(M, by_name).base_H_link, f(M, Q).base_H_link)
        np.testing.assert_array_equal(f(M, STATE).base_H_link, f(M, Q).base_H_link)
    np.testing.assert_array_equal(
        kinematics.center_of_mass(M, by_name), kinematics.center_of_mass(M, Q)
    )
    assert positions_of(M, by_name).tolist() == Q.tolist()
    assert not positions_of(M, by_name).flags.writeable


def test_dynamics_take_positions_as_the_model_at_rest() -> None:
    """inverse_dynamics(m, q) (vector or mapping) is the state (q, 0, 0): the gravity torques."""
    rest = JointState(Q, np.zeros(2), np.zeros(2))
    expected = dynamics.inverse_dynamics(M, rest).joint_torques
    for q in (Q, {"j1": 0.3, "j2": 0.1}, Q.tolist()):
        np.testing.assert_array_equal(dynamics.inverse_dynamics(M, q).joint_torques, expected)
    assert state_of(M, STATE) is STATE
    sensors = sensing.predict_sensor_measurements(M, {"j1": 0.3, "j2": 0.1})
    for name, value in sensing.predict_sensor_measurements(M, rest).items():
        np.testing.assert_array_equal(sensors[name], value)


def test_from_names_missing_rule() -> None:
    with pytest.raises(ModelError, match=r"missing for joints \['j2'\]"):
        JointState.from_names(M, positions={"j1": 0.3})
    s = JointState.from_names(M, positions={"j1": 0.3}, velocities={"j2": 1.0}, missing="zero")
    assert s == JointState([0.3, 0.0], [0.0, 1.0], [0.0, 0.0])
    # A vector is accepted too, read by the same rule.
    assert JointState.from_names(M, positions=Q) == JointState(Q, [0, 0], [0, 0])
    with pytest.raises(ArgumentError, match="missing must be one of"):
        JointState.from_names(M, positions=Q, missing="ignore")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- base and plans


@pytest.mark.parametrize(
    "f",
    [
        kinematics.forward_kinematics,
        kinematics.center_of_mass,
        kinematics.total_spatial_inertia,
        kinematics.forward_kinematics_batch,
        dynamics.inverse_dynamics,
        dynamics.link_motion_arrays,
        sensing.link_motion,
        sensing.predict_sensor_measurements,
    ],
)
def test_base_is_keyword_only(f: Callable[..., object]) -> None:
    assert inspect.signature(f).parameters["base"].kind is inspect.Parameter.KEYWORD_ONLY


def test_a_base_by_name_and_by_index_share_one_plan() -> None:
    m = robot()
    kinematics.forward_kinematics(m, Q, base="arm")
    plan = _kinematic_tree.tree_of(m, "arm")
    kinematics.forward_kinematics(m, Q, base=m.link_index("arm"))
    assert _kinematic_tree.tree_of(m, m.link_index("arm")) is plan
    assert _kinematic_tree.tree_of(m, np.int64(m.link_index("arm"))) is plan
    assert _kinematic_tree.tree_of(m, None) is _kinematic_tree.tree_of(m, "base")
    sensing.predict_sensor_measurements(m, STATE, base="arm")
    splan = sensing._plan(m, "arm")
    assert sensing._plan(m, m.link_index("arm")) is splan
    # The plans live in the model's own cache, keyed by link index, and nowhere else.
    keys = {k for k in m._memo if isinstance(k, tuple) and k[0].endswith("-plan")}
    assert keys == {("kinematics-plan", 0), ("kinematics-plan", 1), ("sensing-plan", 1)}


def test_one_gravity_constant() -> None:
    assert sensing.STANDARD_GRAVITY is validation.STANDARD_GRAVITY
    for f in (dynamics.inverse_dynamics, sensing.link_motion, sensing.predict_sensor_measurements):
        default = inspect.signature(f).parameters["gravity"].default
        assert default is validation.STANDARD_GRAVITY
    assert not hasattr(dynamics, "_STANDARD_GRAVITY")


# --------------------------------------------------------------------------- value layer


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (lambda: rm.Box(1, -1, 1), ModelError),
        (lambda: rm.Sphere(-1), ModelError),
        (lambda: rm.Cylinder(1, math.nan), ArgumentError),
        (lambda: rm.Box("1", 1, 1), ArgumentError),
        (lambda: rm.Sphere(None), ArgumentError),
        (lambda: rm.Mesh("m.stl", (1, 1)), ArgumentError),
        (lambda: rm.Mesh(None), ArgumentError),
        (lambda: rm.Material(rgba=(1, 0, 0)), ArgumentError),
        (lambda: rm.Material(rgba="red"), ArgumentError),
        (lambda: rm.Material(rgba=(1, 0, 0, math.inf)), ArgumentError),
        (lambda: rm.Material(extensions=["not xml"]), ModelError),
        (lambda: rm.SolidShape(geometry="box"), ArgumentError),
        (lambda: rm.Accelerometer(name="", link="l"), ArgumentError),
        (lambda: rm.Gyroscope(name="g", link=3), ArgumentError),
        (lambda: rm.Gyroscope(name="g", link="l", link_H_sensor=np.eye(4)), ArgumentError),
    ],
)
def test_value_errors_are_robomodel_errors(make: Callable[[], object], kind: type) -> None:
    """Bad shapes, colours and sensors raise robomodel errors that are also ValueErrors."""
    with pytest.raises(kind) as info:
        make()
    assert isinstance(info.value, ValueError)
