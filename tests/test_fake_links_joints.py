"""``remove_fake_links`` keeps exactly the joints whose two links both survive.

The transformer takes the removed joints from the fake-link search itself (each removed link's
one joint to the links still alive when it goes) instead of looking at every joint's links;
these properties compare that with the plain rule on random trees and on trees of massless
chains (where ``iterate`` removes links whose neighbours went first).
"""

from __future__ import annotations

import hypothesis.strategies as st
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
