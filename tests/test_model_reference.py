"""Reference tests: the same random models built in robomodel and in ``idyntree.bindings.Model``.

The iDynTree model is built here from the same recipe, with iDynTree's own API (addLink,
addJoint with RevoluteJoint/PrismaticJoint/FixedJoint, setRestTransform, one-argument setAxis in
link1 coordinates, addAdditionalFrameToLink), never by converting the robomodel value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SLOW, joints, model_steps, replay, transforms

import robomodel as rm

idt = pytest.importorskip("idyntree.bindings")

pytestmark = pytest.mark.reference
FEW = settings(max_examples=25, deadline=None)


# ---------------------------------------------------------------------------- iDynTree side
def idt_transform(T: rm.Transform) -> Any:
    return idt.Transform(idt.Rotation(np.asarray(T.rotation)), idt.Position(*T.position))


def np_transform(T: Any) -> np.ndarray:
    return T.asHomogeneousTransform().toNumPy()


def idt_link(link: rm.Link) -> Any:
    inertia = idt.SpatialInertia()
    inertia.fromVector(idt.Vector10.FromPython(link.inertia.as_vector().tolist()))
    out = idt.Link()
    out.setInertia(inertia)
    return out


def idt_joint(j: rm.Joint) -> Any:
    match j:
        case rm.FixedJoint():
            out = idt.FixedJoint()
            out.setRestTransform(idt_transform(j.link1_H_link2))
            return out
        case rm.RevoluteJoint() | rm.PrismaticJoint():
            out = idt.RevoluteJoint() if isinstance(j, rm.RevoluteJoint) else idt.PrismaticJoint()
            out.setRestTransform(idt_transform(j.link1_H_link2))
            a = j.axis_in_link1
            out.setAxis(idt.Axis(idt.Direction(*a.direction), idt.Position(*a.origin)))
            out.setPosLimits(0, j.limits.lower, j.limits.upper)
            out.enablePosLimits(j.limits.enabled)
            return out


def idt_replay(steps: tuple) -> Any:
    m = idt.Model()
    for step in steps:
        match step:
            case ("link", name, link):
                assert m.addLink(name, idt_link(link)) >= 0
            case ("joint", name, joint):
                assert m.addJoint(joint.link1, joint.link2, name, idt_joint(joint)) >= 0
            case ("frame", link, name, T):
                assert m.addAdditionalFrameToLink(link, name, idt_transform(T))
    return m


def idt_traversal(m: Any, base: int) -> list[tuple[int, int | None, int | None]]:
    t = idt.Traversal()
    assert m.computeFullTreeTraversal(t, base)
    out = []
    for k in range(t.getNrOfVisitedLinks()):
        parent = t.getParentLink(k)
        joint = t.getParentJoint(k)
        out.append(
            (
                t.getLink(k).getIndex(),
                None if parent is None else parent.getIndex(),
                None if joint is None else joint.getIndex(),
            )
        )
    return out


def idt_neighbors(m: Any, i: int) -> list[tuple[int, int]]:
    out = []
    for k in range(m.getNrOfNeighbors(i)):
        nb = m.getNeighbor(i, k)
        out.append((nb.neighborLink, nb.neighborJoint))
    return out


def idt_joint_transform(joint: Any, q: np.ndarray, a: int, b: int) -> np.ndarray:
    """``joint.getTransform(q, a, b)`` as a 4x4 array, with iDynTree's cache flushed first.

    iDynTree 15.1's revolute/prismatic joints cache the transform of the last q and do not
    invalidate it in setRestTransform/setAxis (found by these tests: after
    insertLinkToExistingJoint..., getTransform at q = 0 still returned the old rest pose,
    and a fresh RevoluteJoint returns the identity at q = 0 whatever its rest transform).
    Evaluating at another q first forces the recomputation.
    """
    joint.getTransform(idt.VectorDynSize.FromPython((q + 0.5).tolist()), a, b)
    return np_transform(joint.getTransform(idt.VectorDynSize.FromPython(q.tolist()), a, b))


def idt_moving(j: Any) -> Any:
    if j.isRevoluteJoint():
        return j.asRevoluteJoint()
    if j.isPrismaticJoint():
        return j.asPrismaticJoint()
    return None


# ---------------------------------------------------------------------------- comparison
def assert_same_model(ours: rm.Model, ref: Any, q: np.ndarray | None = None) -> None:
    """Compare every Model query of the seed on two models (1e-12 on numbers)."""
    assert ours.n_links == ref.getNrOfLinks()
    assert ours.n_joints == ref.getNrOfJoints()
    assert ours.n_frames == ref.getNrOfFrames()
    assert (ours.n_dofs, ours.n_pos_coords) == (ref.getNrOfDOFs(), ref.getNrOfPosCoords())
    assert ours.default_base_index == ref.getDefaultBaseLink()
    for i, name in enumerate(ours.link_names):
        assert ref.getLinkName(i) == name and ref.getLinkIndex(name) == i
        assert ref.isLinkNameUsed(name) and ref.isFrameNameUsed(name)
        assert [tuple(nb) for nb in ours.neighbors(i)] == idt_neighbors(ref, i)
        # getLinkAdditionalFrames' output vector is not usable from Python (SWIG pointers);
        # it lists the additional frames whose getFrameLink is i, in index order.
        extra = range(ref.getNrOfLinks(), ref.getNrOfFrames())
        assert ours.link_additional_frames(i) == [f for f in extra if ref.getFrameLink(f) == i]
    for f in range(ours.n_frames):
        name = ours.frame_name(f)
        assert ref.getFrameName(f) == name and ref.getFrameIndex(name) == f
        assert ours.frame_link(f) == ref.getFrameLink(f)
        np.testing.assert_allclose(
            ours.frame_transform(f).as_matrix(), np_transform(ref.getFrameTransform(f)), atol=1e-12
        )
    qv = np.zeros(ours.n_pos_coords) if q is None else q
    for j, name in enumerate(ours.joint_names):
        assert ref.getJointName(j) == name and ref.getJointIndex(name) == j
        ours_j, ref_j = ours.joints[j], ref.getJoint(j)
        l1, l2 = ours.link_index(ours_j.link1), ours.link_index(ours_j.link2)
        assert (ref_j.getFirstAttachedLink(), ref_j.getSecondAttachedLink()) == (l1, l2)
        assert ours_j.dof_offset == ref_j.getDOFsOffset()
        assert ours_j.pos_coord_offset == ref_j.getPosCoordsOffset()
        qj = float(qv[ours_j.pos_coord_offset]) if ours_j.n_pos_coords else 0.0
        for a, b in ((l1, l2), (l2, l1)):
            na, nb = ours.link_name(a), ours.link_name(b)
            np.testing.assert_allclose(
                ours_j.rest_transform(na, nb).as_matrix(),
                np_transform(ref_j.getRestTransform(a, b)),
                atol=1e-12,
            )
            np.testing.assert_allclose(
                ours_j.transform(qj, na, nb).as_matrix(),
                idt_joint_transform(ref_j, qv, a, b),
                atol=1e-12,
            )
        moving = idt_moving(ref_j)
        assert (moving is None) == isinstance(ours_j, rm.FixedJoint)
        if moving is not None:
            assert isinstance(ours_j, rm.RevoluteJoint | rm.PrismaticJoint)
            for child in (l1, l2):
                axis = ours_j.axis(ours.link_name(child))
                ref_axis = moving.getAxis(child)
                np.testing.assert_allclose(
                    axis.direction, ref_axis.getDirection().toNumPy(), atol=1e-12
                )
                np.testing.assert_allclose(axis.origin, ref_axis.getOrigin().toNumPy(), atol=1e-12)
            assert moving.hasPosLimits() == ours_j.limits.enabled
    params = idt.VectorDynSize(10 * ours.n_links)
    assert ref.getInertialParameters(params)
    np.testing.assert_allclose(ours.inertial_parameters(), params.toNumPy(), atol=1e-12, rtol=0)
    assert ours.total_mass == pytest.approx(ref.getTotalMass(), abs=1e-12)


def assert_same_traversals(ours: rm.Model, ref: Any, bases: list[int]) -> None:
    for base in bases:
        t = ours.traversal(base)
        assert list(zip(t.links, t.parents, t.joints, strict=True)) == idt_traversal(ref, base)
        for j in range(ours.n_joints):
            idt_t = idt.Traversal()
            ref.computeFullTreeTraversal(idt_t, base)
            parent = idt_t.getParentLinkIndexFromJointIndex(ref, j)
            child = idt_t.getChildLinkIndexFromJointIndex(ref, j)
            assert ours.joint_parent_child(j, t) == (parent, child)


# ---------------------------------------------------------------------------- tests
@FEW
@given(model_steps(max_links=9, max_frames=4), st.data())
def test_random_models_match_idyntree(steps: tuple, data: st.DataObject) -> None:
    """Names, indices, offsets, neighbors, frames, joint transforms/axes and inertial
    parameters agree with iDynTree on the same build steps; so do traversals from several
    bases (including iDynTree's parent/child rule of each joint)."""
    ours, ref = replay(steps), idt_replay(steps)
    q = np.array(
        data.draw(
            st.lists(st.floats(-3, 3), min_size=ours.n_pos_coords, max_size=ours.n_pos_coords)
        )
    )
    assert_same_model(ours, ref, q)
    bases = sorted({0, ours.n_links - 1, data.draw(st.integers(0, ours.n_links - 1))})
    assert_same_traversals(ours, ref, bases)


@FEW
@given(model_steps(min_links=2, max_links=7, max_frames=2), st.data(), transforms())
def test_insert_link_matches_idyntree(steps: tuple, data: st.DataObject, T: rm.Transform) -> None:
    """insert_link_to_existing_joint == insertLinkToExistingJointAndAddJointForDisplacedLink:
    same joints (ends, rest transforms, axes), neighbors order, offsets and traversals."""
    ours, ref = replay(steps), idt_replay(steps)
    k = data.draw(st.integers(0, ours.n_joints - 1))
    old = ours.joints[k]
    unmovable = data.draw(st.sampled_from([old.link1, old.link2]))
    displaced = old.other_link(unmovable)
    joint = data.draw(joints("NEW", displaced))
    inertia_steps = model_steps(max_links=1, max_frames=0)
    new_link = data.draw(inertia_steps)[0][2]
    ours2 = rm.insert_link_to_existing_joint(
        ours, ours.joint_names[k], unmovable, T, "jNEW", joint, "NEW", new_link
    )
    got = ref.insertLinkToExistingJointAndAddJointForDisplacedLink(
        ours.joint_names[k],
        unmovable,
        idt_transform(T),
        "jNEW",
        idt_joint(joint),
        "NEW",
        idt_link(new_link),
    )
    assert got == ours2.joint_index("jNEW")
    assert_same_model(ours2, ref)
    assert_same_traversals(ours2, ref, sorted({0, ours2.n_links - 1}))
    assert ours == replay(steps)


def test_T1_with_idyntree() -> None:
    """Spec §11 T1 reproduced on the spot: iDynTree's traversal from B is [B, C1, C2, E1, D1, D2]
    and ours is the same, from every base."""
    steps: list[tuple[object, ...]] = [
        ("link", n, rm.Link()) for n in ["B", "C1", "C2", "D1", "D2", "E1"]
    ]
    for a, b in [("B", "C1"), ("B", "C2"), ("C1", "D1"), ("C1", "D2"), ("C2", "E1")]:
        steps.append(("joint", f"j{b}", rm.RevoluteJoint(link1=a, link2=b)))
    ours, ref = replay(tuple(steps)), idt_replay(tuple(steps))
    assert [ours.link_name(i) for i, _, _ in idt_traversal(ref, 0)] == [
        "B",
        "C1",
        "C2",
        "E1",
        "D1",
        "D2",
    ]
    assert_same_traversals(ours, ref, list(range(6)))
    assert_same_model(ours, ref)


def test_T2_with_idyntree() -> None:
    """Spec §11 T2 on both libraries: frame fB index 6 -> 7; fixed-joint DOF offsets."""
    steps: list[tuple[object, ...]] = [
        ("link", n, rm.Link()) for n in ["B", "C1", "C2", "D1", "D2", "E1"]
    ]
    for a, b in [("B", "C1"), ("B", "C2"), ("C1", "D1"), ("C1", "D2"), ("C2", "E1")]:
        steps.append(("joint", f"j{b}", rm.RevoluteJoint(link1=a, link2=b)))
    steps.append(("frame", "B", "fB", rm.Transform.from_translation((0, 0, 1))))
    steps.append(("link", "X", rm.Link()))
    steps.append(("joint", "B", rm.FixedJoint(link1="E1", link2="X")))
    steps.append(("link", "Y", rm.Link()))
    steps.append(("joint", "jY", rm.FixedJoint(link1="X", link2="Y")))
    ours, ref = replay(tuple(steps)), idt_replay(tuple(steps))
    assert ours.frame_index("fB") == ref.getFrameIndex("fB") == 8
    assert [ref.getJoint(j).getDOFsOffset() for j in range(7)] == [0, 1, 2, 3, 4, 5, 5]
    assert_same_model(ours, ref)
    # iDynTree rejects what robomodel rejects (returning -1 / False instead of raising).
    assert ref.addLink("fB", idt.Link()) == -1
    assert not ref.addAdditionalFrameToLink("B", "C1", idt.Transform.Identity())
    with pytest.raises(rm.DuplicateNameError):
        rm.add_link(ours, "fB", rm.Link())
    with pytest.raises(rm.DuplicateNameError):
        rm.add_frame(ours, "B", "C1")


@pytest.mark.slow
@SLOW
@given(model_steps(max_links=20, max_frames=6), st.data())
def test_random_models_match_idyntree_slow(steps: tuple, data: st.DataObject) -> None:
    """Larger random trees: everything above, traversals from every base."""
    ours, ref = replay(steps), idt_replay(steps)
    assert_same_model(ours, ref)
    assert_same_traversals(ours, ref, list(range(ours.n_links)))
