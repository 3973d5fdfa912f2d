"""The inverse-dynamics engine (robomodel.physics._world_rnea): its dense sums against its loops.

The engine sums over ancestors and subtrees with one product by the dense ancestor matrix for
trees of up to ``DENSE_LIMIT`` links, and with loops over the links for bigger trees. Both must
give the same numbers; a row of ``inverse_dynamics_batch`` (another engine) must give the same
torques; the checks shared by the entry points raise the same errors.
"""

from __future__ import annotations

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import SLOW, models

import robomodel as rm
from robomodel.formats.urdf import load
from robomodel.model.spatial import Transform, rotation_from_rpy
from robomodel.model.validation import STANDARD_GRAVITY
from robomodel.physics._kinematic_tree import tree_of
from robomodel.physics._world_rnea import _GATHER, WorldPlan, world_rnea
from robomodel.physics.dynamics import _boundary, inverse_dynamics, inverse_dynamics_batch
from robomodel.physics.joint_state import state_of
from robomodel.physics.kinematics import JointState

FIELDS = ("joint_torques", "internal_wrenches", "base_wrench", "velocities", "proper_accelerations")


class _Result:
    def __init__(self, base, tau, internal, base_wrench, motions):
        self.base = base
        self.joint_torques, self.internal_wrenches, self.base_wrench = tau, internal, base_wrench
        self.velocities, self.proper_accelerations = motions
        for x in (tau, internal, base_wrench, motions):
            x.setflags(write=False)


def _general(model, state, **kw):
    """The engine with its loops over the links (as big trees run), on one state."""
    plan = tree_of(model, kw.get("base"))
    wp = WorldPlan(plan)
    wp.anc = wp.desc = None
    st = state_of(model, state)
    a0g, v0, external = _boundary(
        model,
        plan,
        kw.get("gravity", STANDARD_GRAVITY),
        kw.get("base_acceleration"),
        kw.get("base_velocity"),
        kw.get("external_wrenches"),
    )
    tau, internal, base_wrench, motions = world_rnea(
        wp, st.q[None], st.dq[None], st.ddq[None], a0g, v0, external
    )
    return _Result(plan.base, tau[0], internal[0], base_wrench[0], motions[:, 0])


def _assert_same(a, b, rtol=1e-12):
    assert a.base == b.base
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape, name
        assert not x.flags.writeable, name
        scale = max(1.0, float(np.abs(y).max(initial=0.0)))
        np.testing.assert_allclose(x, y, rtol=0, atol=rtol * scale, err_msg=name)


@st.composite
def problems(draw: st.DrawFn, max_links: int = 8):
    """A random tree, one state, a base link (not always the default), a moving base, gravity
    and external wrenches."""
    m = draw(models(max_links=max_links))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    state = JointState(
        rng.uniform(-np.pi, np.pi, m.n_pos_coords),
        rng.uniform(-2, 2, m.n_dofs),
        rng.uniform(-5, 5, m.n_dofs),
    )
    kw: dict[str, object] = {"base": draw(st.integers(0, m.n_links - 1))}
    if draw(st.booleans()):
        kw["base_velocity"] = rng.uniform(-1, 1, 6)
        kw["base_acceleration"] = rng.uniform(-3, 3, 6)
    if draw(st.booleans()):
        kw["gravity"] = rng.uniform(-10, 10, 3)
    if draw(st.booleans()):
        links = draw(st.lists(st.integers(0, m.n_links - 1), max_size=3, unique=True))
        kw["external_wrenches"] = {
            (m.link_names[i] if i % 2 else i): rng.uniform(-2, 2, 6) for i in links
        }
    return m, state, kw


@given(problems())
def test_equals_the_general_formulation(p):
    m, state, kw = p
    _assert_same(inverse_dynamics(m, state, **kw), _general(m, state, **kw))


@given(problems())
def test_torques_equal_a_row_of_the_batch(p):
    m, state, kw = p
    one = inverse_dynamics(m, state, **kw).joint_torques
    rows = inverse_dynamics_batch(m, state.q[None], state.dq[None], state.ddq[None], **kw)
    np.testing.assert_allclose(
        one, rows[0], rtol=0, atol=1e-9 * max(1.0, np.abs(one).max(initial=0.0))
    )


@given(
    st.lists(st.floats(-np.pi, np.pi), min_size=3, max_size=3), st.tuples(*[st.floats(-5, 5)] * 3)
)
def test_the_gathered_adjoints_are_the_motion_and_force_transforms(rpy, p):
    # X = [[R^T, -R^T S(p)], [0, R^T]] (motions base -> link) and Y = [[R^T, 0],
    # [-R^T S(p), R^T]] (wrenches), for base_H_link = (R, p).
    H = Transform(rotation_from_rpy(*rpy), np.array(p)).as_matrix().reshape(16)
    G = H[_GATHER]
    XY = (G[0] * G[1] - G[2] * G[3]).reshape(2, 6, 6)
    R, t = H.reshape(4, 4)[:3, :3], H.reshape(4, 4)[:3, 3]
    S = np.array([[0, -t[2], t[1]], [t[2], 0, -t[0]], [-t[1], t[0], 0]])
    B = -R.T @ S
    Z = np.zeros((3, 3))
    np.testing.assert_allclose(XY[0], np.block([[R.T, B], [Z, R.T]]), atol=1e-12)
    np.testing.assert_allclose(XY[1], np.block([[R.T, Z], [B, R.T]]), atol=1e-12)


@pytest.mark.parametrize("robot", ["iCubGazeboV2_7", "iCubGenova04", "iCubGazeboV2_5"])
@pytest.mark.parametrize("base", [None, "l_sole", "r_hand", "head"])
def test_icub_from_several_bases(robot, base):
    m = load(str(icub_models.get_model_file(robot)))
    if base is not None and base not in m.link_names:
        pytest.skip(f"{robot} has no link {base}")
    rng = np.random.default_rng(7)
    state = JointState(
        rng.uniform(-1, 1, m.n_pos_coords),
        rng.uniform(-1, 1, m.n_dofs),
        rng.uniform(-1, 1, m.n_dofs),
    )
    kw = {
        "base": base,
        "base_velocity": rng.normal(size=6),
        "base_acceleration": rng.normal(size=6),
        "external_wrenches": {m.link_names[-1]: rng.normal(size=6)},
    }
    _assert_same(inverse_dynamics(m, state, **kw), _general(m, state, **kw))
    _assert_same(inverse_dynamics(m, state, base=base), _general(m, state, base=base))


BAD = [
    ({"gravity": [0, 0]}, None),
    ({"gravity": "down"}, None),
    ({"base_acceleration": np.zeros(5)}, None),
    ({"base_velocity": [np.nan] * 6}, None),
    ({"external_wrenches": [np.zeros(6)]}, None),
    ({"external_wrenches": {"nope": np.zeros(6)}}, None),
    ({"external_wrenches": {"L1": np.zeros(3)}}, None),
    ({"external_wrenches": {"L1": np.zeros(6)}, "gravity": [1, 2]}, None),
    ({}, np.zeros(7)),
]


@pytest.mark.parametrize(("kw", "q"), BAD)
def test_errors_are_those_of_the_batch(kw, q):
    """The checks the entry points share (_boundary) raise the same errors from both."""
    m = rm.add_link(rm.Model(), "L0")
    j = rm.RevoluteJoint(link1="L0", link2="L1", axis_in_link1=rm.Axis((0, 0, 1)))
    m = rm.add_joint_and_link(m, "L0", "J1", j, "L1", rm.Link())
    state = JointState.zeros(m) if q is None else q
    with pytest.raises(rm.RobomodelError) as one:
        inverse_dynamics(m, state, **kw)
    if q is not None or "[f; tau]" in str(one.value):  # the state, or a wrench's layout
        return
    z = np.zeros((1, 1))
    with pytest.raises(type(one.value)) as batch:
        inverse_dynamics_batch(m, z, z, z, **kw)
    assert str(batch.value) == str(one.value)


@pytest.mark.slow
@SLOW
@given(problems(max_links=12))
def test_equals_the_general_formulation_on_bigger_trees(p):
    m, state, kw = p
    _assert_same(inverse_dynamics(m, state, **kw), _general(m, state, **kw))
