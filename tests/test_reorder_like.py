"""reorder_like: a model's links, joints and additional frames in another model's order.

The reference tests load every icub-models robot twice, with robomodel's URDF loader (document
order) and iDynTree's (its own hash-map order), and check that after ``reorder_like`` every index
and every index-ordered vector (frame poses, joint torques, link wrenches) is iDynTree's.
"""

from __future__ import annotations

import warnings
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import decorated_models

import robomodel as rm
import robomodel.formats.urdf
from robomodel.errors import ArgumentError, ModelError
from robomodel.formats import from_idyntree
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState, forward_kinematics
from robomodel.transformers import explain, reorder_joints, reorder_like

icub_models = pytest.importorskip("icub_models")

ROBOTS = sorted(icub_models.get_robot_names())


def _orders(data: st.DataObject, m: rm.Model) -> tuple[list[str], list[str], list[str]]:
    return (
        data.draw(st.permutations(list(m.link_names))),
        data.draw(st.permutations(list(m.joint_names))),
        data.draw(st.permutations(m.frame_names)),
    )


@settings(max_examples=40, deadline=None)
@given(decorated_models(), st.data())
def test_reorder_like_is_a_pure_permutation(m: rm.Model, data: st.DataObject) -> None:
    """reorder_like(m, link_names=L, joint_names=J, frame_names=F): link, joint and frame k are
    L[k], J[k], F[k] with their own values, shapes follow their links, everything else is m's,
    and the kinematics of the permuted q is m's."""
    links, joints, frames = _orders(data, m)
    r = reorder_like(m, link_names=links, joint_names=joints, frame_names=frames)
    assert list(r.link_names) == links
    assert list(r.joint_names) == joints
    assert r.frame_names == frames
    for name in links:
        assert r.link(name) == m.link(name)
        i, k = r.link_index(name), m.link_index(name)
        assert r.visuals[i] == m.visuals[k] and r.collisions[i] == m.collisions[k]
    for f in r.frames:
        assert f == m.frames[m.frame_names.index(f.name)]
    assert (r.default_base, r.sensors, r.extensions, r.materials, r.name) == (
        m.default_base,
        m.sensors,
        m.extensions,
        m.materials,
        m.name,
    )
    _, perm = reorder_joints(m, joints)
    q = np.linspace(-1.0, 1.0, m.n_pos_coords)
    fk_m, fk_r = forward_kinematics(m, q), forward_kinematics(r, perm.q(q))
    for name in [*links, *frames]:
        np.testing.assert_allclose(
            fk_r.base_H_frame(name).as_matrix(), fk_m.base_H_frame(name).as_matrix(), atol=1e-12
        )


@settings(max_examples=30, deadline=None)
@given(decorated_models(), st.data())
def test_reorder_like_a_model_takes_its_orders(m: rm.Model, data: st.DataObject) -> None:
    """reorder_like(m, other) takes other's link, joint and frame orders, each only when its
    flag is on; reordering back like m gives m itself (==)."""
    links, joints, frames = _orders(data, m)
    other = reorder_like(m, link_names=links, joint_names=joints, frame_names=frames)
    use = data.draw(st.tuples(st.booleans(), st.booleans(), st.booleans()))
    r = reorder_like(m, other, links=use[0], joints=use[1], frames=use[2])
    assert list(r.link_names) == (links if use[0] else list(m.link_names))
    assert list(r.joint_names) == (joints if use[1] else list(m.joint_names))
    assert r.frame_names == (frames if use[2] else m.frame_names)
    assert reorder_like(other, m) == m


def _tree() -> rm.Model:
    m = rm.add_link(rm.Model(), "b")
    m = rm.add_joint_and_link(m, "b", "j1", rm.RevoluteJoint(link1="b", link2="c"), "c")
    m = rm.add_joint_and_link(m, "c", "j2", rm.PrismaticJoint(link1="c", link2="d"), "d")
    return rm.add_frame(rm.add_frame(m, "d", "f1"), "b", "f2")


def test_reorder_like_returns_the_input_when_nothing_moves() -> None:
    """A no-op returns the input object, for a model and for name lists."""
    m = _tree()
    assert reorder_like(m, m) is m
    assert reorder_like(m, link_names=["b", "c", "d"], frame_names=["f1", "f2"]) is m
    other = reorder_like(m, link_names=["d", "c", "b"])
    assert reorder_like(m, other, links=False) is m


def test_reorder_like_refuses_other_names_and_says_which() -> None:
    """Differing name sets raise a ModelError naming the names on each side only."""
    m = _tree()
    with pytest.raises(ModelError, match=r"only in the model: 'd'.*only in the order to copy: 'x'"):
        reorder_like(m, link_names=["b", "c", "x"])
    with pytest.raises(ModelError, match=r"joint names differ \(only in the model: 'j2'\)"):
        reorder_like(m, joint_names=["j1"])
    with pytest.raises(ModelError, match="listed twice"):
        reorder_like(m, frame_names=["f1", "f1"])
    renamed = rm.transformers.rename(m, frames={"f1": "g1"})
    with pytest.raises(
        ModelError, match=r"only in the model: 'f1'.*only in the order to copy: 'g1'"
    ):
        reorder_like(m, renamed)
    assert reorder_like(m, renamed, frames=False) is m


def test_reorder_like_checks_its_arguments() -> None:
    """Both a model and name lists, neither, or a non-model other are ArgumentErrors."""
    m = _tree()
    with pytest.raises(ArgumentError, match="not both"):
        reorder_like(m, m, link_names=["b", "c", "d"])
    with pytest.raises(ArgumentError, match="give the model whose order to copy"):
        reorder_like(m)
    with pytest.raises(ArgumentError, match="from_idyntree"):
        reorder_like(m, ["b", "c", "d"])  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="list of names"):
        reorder_like(m, link_names="bcd")


def test_explain_shows_what_reorder_like_moved() -> None:
    """explain lists every link, joint and frame whose index changed, with old and new index."""
    m = _tree()
    f = partial(reorder_like, link_names=["c", "b", "d"], joint_names=["j2", "j1"])
    r, report = explain(f, m)
    assert r == f(m)
    assert [str(c) for c in report.reordered] == [
        "reorder_like: reordered joint 'j2': index 1 -> 0",
        "reorder_like: reordered joint 'j1': index 0 -> 1",
        "reorder_like: reordered link 'c': index 1 -> 0",
        "reorder_like: reordered link 'b': index 0 -> 1",
    ]
    assert len(report) == 4


# --------------------------------------------------------------------------- against iDynTree


def _idyntree_load(path: str):  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import idyntree.bindings as idt
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(path)
    return idt, loader.model().copy()


@pytest.mark.reference
@pytest.mark.parametrize("robot", ROBOTS)
def test_reorder_like_idyntree_gives_idyntree_indices_and_vectors(robot: str) -> None:
    """robomodel's load of an icub-models robot, reordered like iDynTree's own load of it (as
    from_idyntree converts it), has iDynTree's link, joint and frame indices, and its frame
    poses, joint torques and link wrenches at random states are iDynTree's index by index."""
    from idyntree_oracle import idt_rnea

    path = str(icub_models.get_model_file(robot))
    idt, im = _idyntree_load(path)
    m = rm.formats.urdf.load(path)
    r = reorder_like(m, from_idyntree(im))
    if robot == "iCubGazeboV2_7":  # the two loaders' orders differ here (issue 20): 28/39 links
        assert sum(a != b for a, b in zip(m.link_names, r.link_names, strict=True)) == 28
    assert list(r.link_names) == [im.getLinkName(i) for i in range(im.getNrOfLinks())]
    assert list(r.joint_names) == [im.getJointName(i) for i in range(im.getNrOfJoints())]
    assert [r.frame_name(i) for i in range(r.n_frames)] == [
        im.getFrameName(i) for i in range(im.getNrOfFrames())
    ]
    assert r.default_base_index == im.getDefaultBaseLink()
    for i in range(r.n_joints):
        j = im.getJoint(i)
        assert (r.joints[i].pos_coord_offset, r.joints[i].dof_offset) == (
            j.getPosCoordsOffset(),
            j.getDOFsOffset(),
        )
    rng = np.random.default_rng(20)  # any states will do
    kd = idt.KinDynComputations()
    assert kd.loadRobotModel(im)
    base = r.default_base_index
    for _ in range(3):
        q, dq, ddq = (rng.uniform(-1, 1, r.n_dofs) for _ in range(3))
        assert kd.setJointPos(q)
        fk = forward_kinematics(r, q)
        for f in range(r.n_frames):
            got = kd.getRelativeTransform(base, f).asHomogeneousTransform().toNumPy()
            np.testing.assert_allclose(fk.base_H_frame(f).as_matrix(), got, atol=1e-9)
        gravity = np.array([0.0, 0.0, -9.81])
        tau, wrenches, _ = idt_rnea(
            im, base, q, dq, ddq, base_acceleration=np.zeros(6), gravity=gravity
        )
        ours = inverse_dynamics(r, JointState(q, dq, ddq), gravity=gravity)
        np.testing.assert_allclose(ours.joint_torques, tau, atol=1e-8)
        np.testing.assert_allclose(ours.internal_wrenches, wrenches, atol=1e-8)
