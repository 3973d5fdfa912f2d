"""Tests of joint_vector_permutation and JointState.permute: joint values between two models of
one robot numbered differently (robomodel's URDF load and iDynTree's own load of it)."""

from __future__ import annotations

import functools
from typing import Any

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from idyntree_oracle import load_idt as load_idyntree
from idyntree_oracle import model_from_idt as from_idyntree
from strategies import models

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError
from robomodel.formats.urdf import load
from robomodel.physics.joint_state import JointState, joint_vector_permutation
from robomodel.physics.kinematics import forward_kinematics
from robomodel.transformers import reorder_joints

ROBOTS = sorted(icub_models.get_robot_names())


@functools.cache
def both(name: str) -> tuple[rm.Model, Any, rm.Model]:
    """robomodel's load of a robot, iDynTree's load, and iDynTree's model as a robomodel Model."""
    path = str(icub_models.get_model_file(name))
    im = load_idyntree(path)
    return load(path), im, from_idyntree(im)


@pytest.mark.reference
@pytest.mark.parametrize("name", ROBOTS)
def test_states_move_into_idyntree_order(name: str) -> None:
    """A state permuted into the order of iDynTree's load puts each joint's value at the offset
    iDynTree gives that joint (getPosCoordsOffset / getDOFsOffset), and both models then have
    the same link poses; permuting back restores the state."""
    m, im, other = both(name)
    rng = np.random.default_rng(sum(map(ord, name)))
    n = m.n_dofs
    state = JointState(*rng.uniform(-1.5, 1.5, (3, n)))
    moved = state.permute(m, other)
    for jn, j in zip(m.joint_names, m.joints, strict=True):
        if j.n_dofs:
            ij = im.getJoint(im.getJointIndex(jn))
            assert moved.q[ij.getPosCoordsOffset()] == state.q[j.pos_coord_offset]
            assert moved.dq[ij.getDOFsOffset()] == state.dq[j.dof_offset]
            assert moved.ddq[ij.getDOFsOffset()] == state.ddq[j.dof_offset]
    assert moved.permute(other, m) == state
    fk, fk_other = forward_kinematics(m, state), forward_kinematics(other, moved)
    for link in m.link_names:
        a, b = fk.base_H_frame(link), fk_other.base_H_frame(link)
        np.testing.assert_allclose(a.rotation, b.rotation, atol=1e-12)
        np.testing.assert_allclose(a.position, b.position, atol=1e-12)


@given(models(max_links=8), st.randoms(use_true_random=False), st.integers(0, 2**32 - 1))
def test_permutation_follows_joint_names(m: rm.Model, rnd: Any, seed: int) -> None:
    """After reorder_joints with any order, v[p] holds each moving joint's value at its new
    offset, for positions and DOFs alike; the permutation of a model to itself is the
    identity."""
    order = list(m.joint_names)
    rnd.shuffle(order)
    other, _ = reorder_joints(m, order)
    v = np.random.default_rng(seed).normal(size=m.n_pos_coords)
    for kind in ("positions", "velocities", "accelerations"):
        p = joint_vector_permutation(m, other, kind=kind)
        moved = v[p]
        for name, j in zip(m.joint_names, m.joints, strict=True):
            if j.n_dofs:
                k = other.joint(name)
                assert (
                    moved[k.pos_coord_offset if kind == "positions" else k.dof_offset]
                    == (v[j.pos_coord_offset if kind == "positions" else j.dof_offset])
                )
        assert joint_vector_permutation(m, m, kind=kind).tolist() == list(range(len(v)))


def chain(kinds: list[str]) -> rm.Model:
    m = rm.add_link(rm.Model(), "L0")
    for i, kind in enumerate(kinds, start=1):
        a, b = f"L{i - 1}", f"L{i}"
        j: rm.Joint
        if kind == "fixed":
            j = rm.FixedJoint(link1=a, link2=b)
        else:
            j = rm.RevoluteJoint(link1=a, link2=b, axis_in_link1=rm.Axis((0, 0, 1)))
        m = rm.add_joint_and_link(m, a, f"J{i}", j, b, rm.Link())
    return m


def test_models_with_other_joints_are_refused() -> None:
    """Different moving joints (one more, or one fixed in the other model) are refused with a
    message naming them; fixed joints alone do not matter; bad arguments are ArgumentErrors."""
    two, three = chain(["revolute", "revolute"]), chain(["revolute", "revolute", "revolute"])
    with pytest.raises(ModelError, match=r"only model_to moves \['J3'\]"):
        joint_vector_permutation(two, three)
    with pytest.raises(ModelError, match=r"only model_from moves \['J3'\]"):
        JointState.zeros(three).permute(three, two)
    fixed = chain(["revolute", "fixed"])
    with pytest.raises(ModelError, match=r"only model_from moves \['J2'\]"):
        joint_vector_permutation(two, fixed, kind="velocities")
    with_fixed = chain(["revolute", "revolute", "fixed"])
    assert joint_vector_permutation(two, with_fixed).tolist() == [0, 1]
    with pytest.raises(ModelError):
        JointState.zeros(three).permute(two, two)  # the state does not fit model_from
    with pytest.raises(ArgumentError):
        joint_vector_permutation(two, two, kind="torques")
    with pytest.raises(ArgumentError):
        joint_vector_permutation(two, "two")  # type: ignore[arg-type]
