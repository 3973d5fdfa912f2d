"""``remove_fake_links`` keeps exactly the joints whose two links both survive.

The transformer takes the removed joints from the fake-link search itself (each removed link's
one joint to the links still alive when it goes) instead of looking at every joint's links;
these properties compare that with the plain rule on random trees and on trees of massless
chains (where ``iterate`` removes links whose neighbours went first).
"""

from __future__ import annotations

import hypothesis.strategies as st
import numpy as np
from hypothesis import given, settings
from strategies import models

import robomodel as rm
import robomodel.transformers as rt


def _plain_kept(model: rm.Model, removed: set[str]) -> list[str]:
    return [
        name
        for name, j in zip(model.joint_names, model.joints, strict=True)
        if j.link1 not in removed and j.link2 not in removed
    ]


@st.composite
def massless_trees(draw: st.DrawFn) -> rm.Model:
    """Trees whose links are mostly massless and joints mostly fixed: many fake links, chains."""
    n = draw(st.integers(1, 12))
    unit = rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0)))
    empty = rm.Link()
    m = rm.add_link(rm.Model(), "L0", draw(st.sampled_from([unit, empty])))
    for i in range(1, n):
        parent = draw(st.integers(0, i - 1))
        a, b = (f"L{i}", f"L{parent}") if draw(st.booleans()) else (f"L{parent}", f"L{i}")
        m = rm.add_link(m, f"L{i}", draw(st.sampled_from([empty, empty, unit])))
        if draw(st.integers(0, 3)):
            joint: rm.Joint = rm.FixedJoint(link1=a, link2=b)
        else:
            joint = rm.RevoluteJoint(link1=a, link2=b, axis_in_link1=rm.Axis((0, 0, 1)))
        m = rm.add_joint(m, f"J{i}", joint)
    return m


@settings(max_examples=150, deadline=None)
@given(model=st.one_of(models(max_links=8), massless_trees()), iterate=st.booleans())
def test_kept_joints_are_those_between_surviving_links(model: rm.Model, iterate: bool) -> None:
    """The result's joints are the input's joints with neither link removed, in input order."""
    removed = set(rt.fake_links(model, iterate=iterate))
    out = rt.remove_fake_links(model, iterate=iterate, lumped_sensors="drop")
    assert list(out.joint_names) == _plain_kept(model, removed)
    assert set(out.link_names) == set(model.link_names) - removed


def _plain_fake_links(model: rm.Model, iterate: bool) -> list[str]:
    """iDynTree's rule by a scan of the links: a live link with one live neighbour, on a fixed
    joint, with a mass not positive; two such links that are each other's only neighbour keep
    the default base."""
    alive = set(model.link_names)
    base = model.default_base
    removed: list[str] = []
    while True:
        fake = []
        for name, link in zip(model.link_names, model.links, strict=True):
            if name not in alive:
                continue
            at = [
                (j, j.link2 if j.link1 == name else j.link1)
                for j in model.joints
                if name in (j.link1, j.link2) and j.link1 in alive and j.link2 in alive
            ]
            if len(at) == 1 and isinstance(at[0][0], rm.FixedJoint) and link.inertia.mass <= 0:
                fake.append((name, at[0][1]))
        names = {n for n, _ in fake}
        fake = [(n, a) for n, a in fake if not (a in names and n == base)]
        if not fake:
            return sorted(removed, key=model.link_index)
        for n, a in fake:
            alive.discard(n)
            removed.append(n)
            base = a if n == base else base
        if not iterate:
            return sorted(removed, key=model.link_index)


@settings(max_examples=150, deadline=None)
@given(model=st.one_of(models(max_links=8), massless_trees()), iterate=st.booleans())
def test_fake_links_follow_the_plain_rule(model: rm.Model, iterate: bool) -> None:
    """The search by joint-end degrees finds the links a scan of the links finds."""
    assert rt.fake_links(model, iterate=iterate) == _plain_fake_links(model, iterate)


def _bits(model: rm.Model) -> list[bytes]:
    out = [
        f.link_H_frame.rotation.tobytes() + f.link_H_frame.position.tobytes() for f in model.frames
    ]
    for link in model.links:
        i = link.inertia
        out.append(i.first_moment.tobytes() + i.rotational_inertia.tobytes())
    for shapes in (*model.visuals, *model.collisions):
        out += [
            s.link_H_geometry.rotation.tobytes() + s.link_H_geometry.position.tobytes()
            for s in shapes
        ]
    return out


@settings(max_examples=150, deadline=None)
@given(model=st.one_of(models(max_links=8), massless_trees()), iterate=st.booleans())
def test_the_split_of_fake_leaves_is_the_traversal_split(model: rm.Model, iterate: bool) -> None:
    """``remove_fake_links`` splits the links itself when every fake link is a leaf of a kept
    link (no traversal); the lumping engine's own split from the traversal gives the same model,
    bit for bit."""
    from robomodel.transformers import engine

    out = rt.remove_fake_links(model, iterate=iterate, lumped_sensors="drop")
    if out is model:
        return
    removed = set(rt.fake_links(model, iterate=iterate))
    base = model.default_base
    if base in removed:
        base = out.default_base
    reference = engine.lump(
        model,
        kept=_plain_kept(model, removed),
        step="test",
        base=base,
        link_order="input",
        frame_order="input",
        lumped_sensors="drop",
    )
    assert out == reference
    assert _bits(out) == _bits(reference)


@st.composite
def anchors_with_fake_leaves(draw: st.DrawFn) -> rm.Model:
    """Links with several fake leaves each, joined in any joint order, each leaf with shapes
    and a massless or negative inertia (so that the leaves' order shows in the shape lists and
    in the bits of the composite sums)."""
    n_anchors = draw(st.integers(1, 3))
    m = rm.add_link(rm.Model(), "A0", rm.Link(rm.SpatialInertia.from_com(2.0, (0.1, 0, 0))))
    for a in range(1, n_anchors):
        m = rm.add_joint_and_link(
            m,
            "A0",
            f"JA{a}",
            rm.RevoluteJoint(link1="A0", link2=f"A{a}"),
            f"A{a}",
            rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0.2, 0))),
        )
    leaves = draw(st.lists(st.integers(0, n_anchors - 1), min_size=1, max_size=6))
    order = draw(st.permutations(range(len(leaves))))
    for k in order:
        anchor, leaf = f"A{leaves[k]}", f"F{k}"
        inertia = draw(
            st.sampled_from(
                [
                    rm.SpatialInertia(0.0, np.zeros(3), np.diag([1e-3 * (k + 1), 2e-3, 0.3])),
                    rm.SpatialInertia(-0.5 * (k + 1), np.array([0.1, -0.2 * k, 0.3]), np.eye(3)),
                    rm.SpatialInertia(),
                ]
            )
        )
        T = rm.Transform.from_rpy_xyz((0.3 * k, -0.1, 0.7), (k, 0.5, -0.25))
        joint = rm.FixedJoint(link1=anchor, link2=leaf, link1_H_link2=T)
        if draw(st.booleans()):
            joint = rm.FixedJoint(link1=leaf, link2=anchor, link1_H_link2=T)
        m = rm.add_link(m, leaf, rm.Link(inertia))
        m = rm.add_joint(m, f"J{k}", joint)
        shape = rm.SolidShape(geometry=rm.Sphere(0.1 * (k + 1)), name=f"s{k}")
        m = rm.with_visual_shapes(m, leaf, [shape])
    return m


@settings(max_examples=100, deadline=None)
@given(model=anchors_with_fake_leaves())
def test_fake_leaves_follow_their_anchor_in_joint_order(model: rm.Model) -> None:
    """Several fake leaves of one link, added in any order: the result is the one of the
    lumping engine's traversal split (shapes in the traversal's order, the same sums)."""
    test_the_split_of_fake_leaves_is_the_traversal_split.hypothesis.inner_test(model, False)  # type: ignore[attr-defined]
