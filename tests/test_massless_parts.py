"""A part whose lumped members are massless keeps its base's link: the same bits as the sum.

The lumping engine skips the composite-inertia sum of a part whose base stays and whose other
members all have zero inertia (``remove_fake_links`` on a robot with many frames as links), when
its base's inertia sums to itself (no ``-0.0``, an exactly symmetric rotational inertia). These
tests force the sum (the flags say no link may skip it) and compare every number's bits.
"""

from __future__ import annotations

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

import robomodel as rm
import robomodel.transformers as rt
import robomodel.transformers.engine as engine


def _summed(monkeypatch: pytest.MonkeyPatch, model: rm.Model) -> rm.Model:
    """``remove_fake_links(model)`` with every part's composite sum computed."""
    with monkeypatch.context() as m:

        def never(inertias: list[rm.SpatialInertia]) -> tuple[list[bool], list[bool]]:
            return [False] * len(inertias), [False] * len(inertias)

        m.setattr(engine, "unchanged_by_massless", never)
        return rt.remove_fake_links(model)


def _bits(model: rm.Model) -> list[bytes]:
    out = []
    for link in model.links:
        i = link.inertia
        out += [np.float64(i.mass).tobytes(), i.first_moment.tobytes()]
        out.append(i.rotational_inertia.tobytes())
    return out


def _model(base: rm.SpatialInertia, leaves: list[rm.SpatialInertia]) -> rm.Model:
    m = rm.add_link(rm.Model(), "base", rm.Link(base))
    for k, inertia in enumerate(leaves):
        joint = rm.FixedJoint(
            link1="base",
            link2=f"leaf{k}",
            link1_H_link2=rm.Transform.from_rpy_xyz(rpy=(0.1 * k, 0.2, -0.3), xyz=(k, 0.5, -1.0)),
        )
        m = rm.add_joint_and_link(m, "base", f"j{k}", joint, f"leaf{k}", rm.Link(inertia))
    return m


_ZERO = rm.SpatialInertia(0.0, np.zeros(3), np.zeros((3, 3)))
_NEGATIVE_ZEROS = rm.SpatialInertia(-0.0, np.full(3, -0.0), np.full((3, 3), -0.0))

_entries = st.sampled_from([0.0, -0.0, 1.0, -2.5, 1e-300, 3.7e-5])


@settings(max_examples=60, deadline=None)
@given(
    mass=st.sampled_from([0.0, -0.0, 1.5, 1e-300]),
    h=st.lists(_entries, min_size=3, max_size=3),
    diagonal=st.lists(st.sampled_from([0.0, -0.0, 0.1, 2.0]), min_size=3, max_size=3),
    off=st.lists(_entries, min_size=3, max_size=3),
    skew=st.sampled_from([0.0, 1e-14]),
    leaves=st.lists(st.sampled_from([_ZERO, _NEGATIVE_ZEROS]), min_size=1, max_size=3),
)
def test_massless_leaves_give_the_bits_of_the_sum(mass, h, diagonal, off, skew, leaves):
    """For a base inertia with zeros of either sign and a rotational inertia symmetric or not
    (within the checked constructor's tolerance), removing massless leaves gives every link's
    inertia the bits the composite sum gives."""
    rot = np.diag(diagonal)
    rot[0, 1], rot[1, 0] = off[0], off[0] + skew
    rot[0, 2] = rot[2, 0] = off[1]
    rot[1, 2] = rot[2, 1] = off[2]
    model = _model(rm.SpatialInertia(mass, np.array(h), rot), leaves)
    with pytest.MonkeyPatch.context() as mp:
        expected = _bits(_summed(mp, model))
    assert _bits(rt.remove_fake_links(model)) == expected


def test_an_exactly_summing_base_keeps_its_link(monkeypatch: pytest.MonkeyPatch):
    """The skip is taken: the base's link object itself survives, and equals the sum's."""
    base = rm.SpatialInertia.from_com(2.0, (0.1, 0.2, 0.3), np.diag([0.1, 0.2, 0.3]))
    model = _model(base, [_ZERO, _ZERO])
    out = rt.remove_fake_links(model)
    assert out.links[0] is model.links[0]
    assert _bits(out) == _bits(_summed(monkeypatch, model))


_POOL = [
    _ZERO,
    _NEGATIVE_ZEROS,
    rm.SpatialInertia.from_com(2.0, (0.1, 0.2, 0.3), np.diag([0.1, 0.2, 0.3])),
    rm.SpatialInertia(0.0, np.zeros(3), np.diag([0.0, 1e-3, 0.0])),
    rm.SpatialInertia(1.0, np.zeros(3), np.array([[1.0, 1e-14, 0], [0, 1.0, 0], [0, 0, 1.0]])),
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_POOL), min_size=1, max_size=10))
def test_flags_are_per_inertia_whatever_is_shared(inertias):
    """The check looks at each distinct inertia object once: every position still gets the
    flags of its own inertia, as when each is checked alone."""
    zero, itself = engine.unchanged_by_massless(inertias)
    alone = [engine.unchanged_by_massless([i]) for i in inertias]
    assert zero == [z[0] for z, _ in alone]
    assert itself == [t[0] for _, t in alone]
    assert zero[0] == (inertias[0] is _ZERO or inertias[0] is _NEGATIVE_ZEROS)


def test_one_shared_massless_inertia_keeps_what_distinct_copies_keep() -> None:
    """Leaves sharing one zero inertia object keep the same links as leaves with a copy each.

    The engine looks at a shared inertia once (the URDF loader gives every massless link the
    same object); copies take the per-object path. Both keep the base's link object itself.
    """
    base = rm.SpatialInertia.from_com(2.0, (0.1, -0.2, 0.3))
    shared = _model(base, [_ZERO] * 4)
    copies = _model(base, [rm.SpatialInertia(0.0, np.zeros(3), np.zeros((3, 3))) for _ in range(4)])
    for model in (shared, copies):
        out = rt.remove_fake_links(model)
        assert out.links[0] is model.links[0]
        assert out.frame_names == [f"leaf{k}" for k in range(4)]
    assert _bits(rt.remove_fake_links(shared)) == _bits(rt.remove_fake_links(copies))
