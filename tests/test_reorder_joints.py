from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import models

import robomodel as rm
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState, forward_kinematics
from robomodel.transformers import explain
from robomodel.transformers.reorder_joints import Permutation, reorder_joints


@st.composite
def reorderings(draw: st.DrawFn) -> tuple[rm.Model, list[str]]:
    m = draw(models(max_links=7, min_links=2))
    return m, draw(st.permutations(list(m.joint_names)))


@settings(max_examples=40)
@given(reorderings(), st.data())
def test_reorder_is_a_pure_permutation(
    case: tuple[rm.Model, list[str]], data: st.DataObject
) -> None:
    """reorder_joints: joint k of the result is order[k]; offsets are running totals in the new
    order; permuted q gives the same FK and permuted torques are the same RNEA torques."""
    m, order = case
    r, p = reorder_joints(m, order)
    assert list(r.joint_names) == order
    pos = dof = 0
    for name in order:
        j = r.joint(name)
        assert (j.pos_coord_offset, j.dof_offset) == (pos, dof)
        pos, dof = pos + j.n_pos_coords, dof + j.n_dofs
        old = m.joint(name)
        assert (j.link1, j.link2, j.link1_H_link2) == (old.link1, old.link2, old.link1_H_link2)
    assert r.links == m.links and r.frames == m.frames and r.link_names == m.link_names
    q = np.array([data.draw(st.floats(-2, 2)) for _ in range(m.n_pos_coords)])
    dq = np.array([data.draw(st.floats(-2, 2)) for _ in range(m.n_dofs)])
    ddq = np.array([data.draw(st.floats(-2, 2)) for _ in range(m.n_dofs)])
    fm, fr = forward_kinematics(m, q), forward_kinematics(r, p.q(q))
    assert np.allclose(fm.base_H_link, fr.base_H_link, atol=1e-12)
    tm = inverse_dynamics(m, JointState(q, dq, ddq)).joint_torques
    tr = inverse_dynamics(r, JointState(p.q(q), p.dq(dq), p.dq(ddq))).joint_torques
    assert np.allclose(p.torques(tm), tr, atol=1e-9)
    inv = p.inverse()
    assert np.array_equal(inv.q(p.q(q)), q) and np.array_equal(inv.torques(p.torques(tm)), tm)
    back, p2 = reorder_joints(r, list(m.joint_names))
    assert back == m and p2 == inv


def test_fixed_vector_example() -> None:
    # Hand-built: three joints, the middle one fixed; the new order puts the prismatic first.
    m = rm.add_link(rm.Model(), "b")
    m = rm.add_joint_and_link(m, "b", "r1", rm.RevoluteJoint(link1="b", link2="c"), "c")
    m = rm.add_joint_and_link(m, "c", "f", rm.FixedJoint(link1="c", link2="d"), "d")
    m = rm.add_joint_and_link(m, "d", "p", rm.PrismaticJoint(link1="d", link2="e"), "e")
    r, p = reorder_joints(m, ["p", "f", 0])
    assert p == Permutation(joints=(2, 1, 0), pos_coords=(1, 0), dofs=(1, 0))
    assert r.joint("f").dof_offset == 1 and r.joint("r1").dof_offset == 1
    assert p.q([[1.0, 2.0], [3.0, 4.0]]).tolist() == [[2.0, 1.0], [4.0, 3.0]]  # batched
    assert reorder_joints(m, ["r1", "f", "p"])[0] is m


def test_report_lists_moves() -> None:
    m = rm.add_link(rm.Model(), "b")
    m = rm.add_joint_and_link(m, "b", "j1", rm.RevoluteJoint(link1="b", link2="c"), "c")
    m = rm.add_joint_and_link(m, "b", "j2", rm.RevoluteJoint(link1="b", link2="d"), "d")
    out, report = explain(partial(reorder_joints, order=["j2", "j1"]), m)
    assert out == reorder_joints(m, ["j2", "j1"])[0]
    assert str(report).splitlines() == [
        "reorder_joints: reordered joint 'j2': index 1 -> 0",
        "reorder_joints: reordered joint 'j1': index 0 -> 1",
    ]


def test_errors() -> None:
    m = rm.add_link(rm.Model(), "b")
    m = rm.add_joint_and_link(m, "b", "j1", rm.RevoluteJoint(link1="b", link2="c"), "c")
    m = rm.add_joint_and_link(m, "b", "j2", rm.RevoluteJoint(link1="b", link2="d"), "d")
    with pytest.raises(rm.ModelError, match="missing 'j2'"):
        reorder_joints(m, ["j1"])
    with pytest.raises(rm.ModelError, match="'j1' appears twice"):
        reorder_joints(m, ["j1", "j1"])
    with pytest.raises(rm.ModelError, match="appears twice"):
        reorder_joints(m, ["j1", 0])
    with pytest.raises(rm.UnknownNameError, match="did you mean"):
        reorder_joints(m, ["j1", "jj2"])
    with pytest.raises(rm.ModelError, match="out of range"):
        reorder_joints(m, [0, 5])
    with pytest.raises(rm.ModelError, match="not one string"):
        reorder_joints(m, "j1")
    with pytest.raises(rm.ModelError, match="neither a joint name"):
        reorder_joints(m, ["j1", 1.5])  # type: ignore[list-item]
    with pytest.raises(rm.ModelError, match="not a permutation"):
        Permutation(joints=(0, 0), pos_coords=(0, 1), dofs=(0, 1))
    with pytest.raises(rm.ModelError, match="2 entries"):
        Permutation(joints=(1, 0), pos_coords=(1, 0), dofs=(1, 0)).q([1.0, 2.0, 3.0])
