"""Per-link geometry (the seed's KinematicLinkInfo), joint bindings and the Rig of shared links."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import dh_chains, transforms

from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.formats.dh import (
    BuddyGroup,
    DHChain,
    DHLink,
    JointBinding,
    JointCommand,
    Rig,
    chain_to_model,
    icub_arm,
    icub_rig,
    icub_torso,
    link_geometry,
    make_rig,
    set_angles,
    set_link_angle,
    set_rig_angle,
    set_rig_chain_angles,
)
from robomodel.model.spatial import Transform
from robomodel.physics.kinematics import relative_transform


# ---------------------------------------------------------------------- link geometry
@given(dh_chains(), st.data(), transforms(), transforms(scale=0.2))
def test_link_geometry_identities(
    chain: DHChain, data: st.DataObject, world_H_root: Transform, link_H_object: Transform
) -> None:
    """height == norm(axis); axis == top - bottom; bottom/top are the origins of frames i-1, i;
    rot_center lies on the joint axis (turning link i about it leaves the centre fixed); world
    and object variants are the root values mapped by world_H_root and object_H_link."""
    i = data.draw(st.integers(0, chain.n_links - 1))
    g = link_geometry(chain, i, world_H_root=world_H_root, link_H_object=link_H_object)
    previous = chain.H0 if i == 0 else chain.pose(i - 1)
    np.testing.assert_array_equal(g.bottom, previous.position)
    np.testing.assert_array_equal(g.top, chain.pose(i).position)
    np.testing.assert_array_equal(g.axis, g.top - g.bottom)
    assert g.height == pytest.approx(float(np.linalg.norm(g.axis)), abs=1e-15)
    assert g.root_H_link == chain.pose(i)
    # rot_axis / rot_center, mapped back to the root frame, are z and origin of frame i-1.
    np.testing.assert_allclose(
        g.root_H_link.rotation @ g.rot_axis, previous.rotation[:, 2], atol=1e-12
    )
    np.testing.assert_allclose(g.root_H_link @ g.rot_center, previous.position, atol=1e-12)
    # Turning link i moves every point of its frame except those on the axis through rot_center.
    link = chain.links[i]
    turned, _ = set_link_angle(chain, i, (link.min + link.max) / 2)
    T_new = turned.pose(i)
    np.testing.assert_allclose(T_new @ g.rot_center, previous.position, atol=1e-12)
    np.testing.assert_allclose(
        T_new @ (g.rot_center + g.rot_axis), previous @ np.array([0.0, 0.0, 1.0]), atol=1e-12
    )
    # World variants.
    np.testing.assert_allclose(g.bottom_world, world_H_root @ g.bottom, atol=1e-12)
    np.testing.assert_allclose(g.top_world, world_H_root @ g.top, atol=1e-12)
    np.testing.assert_allclose(g.axis_world, world_H_root.rotation @ g.axis, atol=1e-12)
    np.testing.assert_allclose(
        g.world_H_link.as_matrix(), (world_H_root @ chain.pose(i)).as_matrix(), atol=1e-12
    )
    # Object variants.
    object_H_link = link_H_object.inverse()
    np.testing.assert_allclose(g.rot_axis_object, object_H_link.rotation @ g.rot_axis, atol=1e-12)
    np.testing.assert_allclose(g.rot_center_object, object_H_link @ g.rot_center, atol=1e-12)
    np.testing.assert_allclose(
        g.world_H_object.as_matrix(),
        (world_H_root @ chain.pose(i) @ link_H_object).as_matrix(),
        atol=1e-12,
    )


def test_link_geometry_defaults_and_zero_height() -> None:
    # Link 4 of the iCub arm has a = d = 0, so its bottom and top coincide.
    chain = icub_arm("right", "2.7")
    g = link_geometry(chain, 4)
    assert g.world_H_root.is_identity() and g.link_H_object.is_identity()
    assert g.height == 0.0 and g.axis.tolist() == [0.0, 0.0, 0.0]
    np.testing.assert_array_equal(g.bottom_world, g.bottom)
    with pytest.raises(ModelError, match="no link 10"):
        link_geometry(chain, 10)


def test_hand_computed_geometry() -> None:
    # A planar two-link arm at q = (90 deg, 0): link 1 runs from (0, 1, 0) to (0, 2, 0).
    chain = DHChain(
        links=[
            DHLink(1.0, 0.0, 0.0, 0.0, -math.pi, math.pi, angle=math.pi / 2),
            DHLink(1.0, 0.0, 0.0, 0.0, -math.pi, math.pi, angle=0.0),
        ]
    )
    g = link_geometry(chain, 1)
    np.testing.assert_allclose(g.bottom, [0.0, 1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(g.top, [0.0, 2.0, 0.0], atol=1e-15)
    assert g.height == pytest.approx(1.0)
    np.testing.assert_allclose(g.rot_axis, [0.0, 0.0, 1.0], atol=1e-15)
    np.testing.assert_allclose(g.rot_center, [-1.0, 0.0, 0.0], atol=1e-15)


# ---------------------------------------------------------------------- joint bindings
def test_joint_binding_signs() -> None:
    # Seed (KinematicLinkInfo, detailed description): the simulator joint's parent is the chain's
    # child, so the axis is normally inverted and angles map as they are; a non-inverted axis
    # needs every angle and angular velocity negated.
    normal = JointBinding(joint="r_elbow")
    flipped = JointBinding(joint="r_elbow", inverted=False, dof=1)
    assert normal.joint_angle(0.4) == 0.4 and normal.link_angle(-0.2) == -0.2
    assert flipped.joint_angle(0.4) == -0.4 and flipped.link_angle(-0.2) == 0.2
    assert flipped.command(position=0.3, velocity=-1.0) == JointCommand(
        joint="r_elbow", dof=1, position=-0.3, velocity=1.0
    )
    assert normal.command(velocity=2.0) == JointCommand(joint="r_elbow", velocity=2.0)


# ---------------------------------------------------------------------- rig
@given(st.data())
def test_rig_shared_angle_moves_every_member(data: st.DataObject) -> None:
    """Setting a torso angle through any member gives all three chains that angle, and the
    chains' shared part (links 0-1, identical rows) has the same pose in each; every other
    link keeps its angle."""
    rig = icub_rig("2.7")
    k = data.draw(st.integers(0, 2))
    via = data.draw(st.sampled_from(["torso", "left_arm", "right_arm"]))
    angle = data.draw(st.floats(-2.0, 2.0))
    new, value = set_rig_angle(rig, via, k, angle)
    lo = max(rig.chain(c).links[k].min for c in ("torso", "left_arm", "right_arm"))
    hi = min(rig.chain(c).links[k].max for c in ("torso", "left_arm", "right_arm"))
    assert value == min(max(angle, lo), hi)
    for c in ("torso", "left_arm", "right_arm"):
        assert new.chain(c).links[k].angle == value
        for j in range(rig.chain(c).n_links):
            if j != k:
                assert new.chain(c).links[j].angle == rig.chain(c).links[j].angle
    torso_pose = new.chain("torso").pose(1)
    for arm in ("left_arm", "right_arm"):
        assert new.chain(arm).pose(1) == torso_pose
        # Link 2 turns about the same axis through the same centre in all three chains.
        ga, gt = new.link_geometry(arm, 2), new.link_geometry("torso", 2)
        np.testing.assert_array_equal(ga.bottom, gt.bottom)
    assert new.chain("left_leg") is rig.chain("left_leg")
    # The arms' torso links stay blocked (not arm DOFs) while moving with the torso.
    assert new.chain("left_arm").n_dofs == 7


def test_rig_master_and_body_geometry() -> None:
    rig = icub_rig("2.5")
    assert rig.master_of("right_arm", 2) == ("torso", 2)
    assert rig.master_of("right_arm", 5) == ("right_arm", 5)
    assert rig.buddies("left_arm", 0) == (("torso", 0), ("left_arm", 0), ("right_arm", 0))
    body = rig.body_geometry("left_arm", 2)
    own = rig.link_geometry("left_arm", 2)
    assert body == rig.link_geometry("torso", 2)
    assert body.top.tolist() != own.top.tolist()  # the chest rows differ in "top" (ikin-dh.md B)


def test_rig_chain_angles_and_initial_sync() -> None:
    rig = icub_rig("2.7")
    # make_rig aligned the arms' torso links to the torso's initial angle (its minimum).
    assert rig.chain("right_arm").links[0].angle == icub_torso("2.7").links[0].min
    new, values = set_rig_chain_angles(rig, "torso", [0.1, 0.2, 0.3])
    assert values.tolist() == [0.1, 0.2, 0.3]
    assert new.chain("left_arm").all_angles[:3].tolist() == [0.1, 0.2, 0.3]


def test_rig_validation_errors() -> None:
    a = DHChain(links=[DHLink(0.1, 0.0, 0.0, 0.0, -1.0, 1.0)])
    b = DHChain(links=[DHLink(0.1, 0.0, 0.0, 0.0, 2.0, 3.0)])
    with pytest.raises(ModelError, match="master"):
        BuddyGroup(("a", 0), [("b", 0)])
    with pytest.raises(UnknownNameError, match="no chain named 'c'"):
        make_rig({"a": a}, [BuddyGroup(("a", 0), [("a", 0), ("c", 0)])])
    with pytest.raises(ModelError, match="no link 3"):
        make_rig({"a": a}, [BuddyGroup(("a", 3), [("a", 3)])])
    with pytest.raises(ModelError, match="different angles"):
        Rig(chains={"a": a, "b": b}, groups=[BuddyGroup(("a", 0), [("a", 0), ("b", 0)])])
    with pytest.raises(ModelError, match="two buddy groups"):
        make_rig(
            {"a": a, "b": a},
            [BuddyGroup(("a", 0), [("a", 0)]), BuddyGroup(("b", 0), [("a", 0), ("b", 0)])],
        )
    rig = make_rig({"a": a, "b": b}, [BuddyGroup(("a", 0), [("a", 0), ("b", 0)])])
    with pytest.raises(ModelError, match="no common angle"):
        set_rig_angle(rig, "a", 0, 0.0)
    with pytest.raises(UnknownNameError):
        rig.chain("nope")


# ---------------------------------------------------------------------- the attached body
def test_body_names_the_model_link_the_chain_link_moves() -> None:
    """``body`` is the seed's ``getWObject``: with ``body="link{i+1}"`` (the link of
    ``chain_to_model`` that DH link i moves) the geometry's object pose is that model link's
    pose, computed by the model's own forward kinematics."""
    chain, _ = set_angles(icub_arm("right", "2.7"), np.radians([-30, 40, 10, 60, 5, 3, 2]))
    model = chain_to_model(chain)
    world_H_root = Transform.from_rpy_xyz([0.1, -0.2, 0.3], [0.5, 0.0, 1.0])
    q = np.array([link.angle for link in chain.links])  # one model joint per DH link
    for i in range(chain.n_links - 1):  # the last link also carries HN, i.e. distal_frame
        g = link_geometry(chain, i, world_H_root=world_H_root, body=f"link{i + 1}")
        assert g.body == f"link{i + 1}"
        expected = world_H_root @ relative_transform(model, q, "base_frame", g.body)
        np.testing.assert_allclose(g.world_H_object.as_matrix(), expected.as_matrix(), atol=1e-12)
    assert link_geometry(chain, 0).body is None


def test_body_must_be_a_name_and_rigs_pass_it_on() -> None:
    chain = icub_arm("right", "2.7")
    for bad in ("", 3, b"hand"):
        with pytest.raises(ArgumentError, match="body name must be a non-empty string"):
            link_geometry(chain, 0, body=bad)  # type: ignore[arg-type]
    rig = icub_rig("2.7")
    # The chest is one body whatever chain it is reached from; the master's view places it.
    chest = rig.body_geometry("left_arm", 2, body="chest")
    assert chest == rig.link_geometry("torso", 2, body="chest")
    assert rig.link_geometry("left_arm", 2, body="chest").body == "chest"
