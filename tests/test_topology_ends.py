"""Adjacency lists and traversals from the joint ends an index is given, against plain ones.

A model's index may hold each joint's link indices (``derive``, the URDF loader through trusted
assembly), so that its first traversal reads no joint. These tests check that whatever the
path that made a model (builders, ``Model(...)``, the URDF loader, unpickling, transformers), its
adjacency lists and its traversals from every base are those computed plainly here from the
joints' link names: iDynTree's rule (each joint in index order appended to both links' lists;
depth first, children numbered when discovered, the last child's subtree expanded first).
"""

from __future__ import annotations

import pickle
import warnings

import icub_models
import pytest
from hypothesis import given, settings
from strategies import models, public_fields

import robomodel as rm
import robomodel.transformers as rt
from robomodel.formats import urdf
from robomodel.model.traversal import compute_traversal, flat_links

ICUB = icub_models.get_model_file("iCubGazeboV2_7")


def plain_adjacency(m: rm.Model) -> list[list[tuple[int, int]]]:
    """Every link's (neighbour, joint) pairs, from the joints' link names."""
    out: list[list[tuple[int, int]]] = [[] for _ in m.links]
    for j, joint in enumerate(m.joints):
        a, b = m.link_names.index(joint.link1), m.link_names.index(joint.link2)
        out[a].append((b, j))
        out[b].append((a, j))
    return out


def plain_traversal(m: rm.Model, base: int) -> list[tuple[int, int | None, int | None]]:
    """iDynTree's depth-first traversal from ``base``: (link, parent, joint) per step."""
    adj = plain_adjacency(m)
    order: list[tuple[int, int | None, int | None]] = [(base, None, None)]
    stack: list[tuple[int, int | None]] = [(base, None)]
    while stack:
        link, parent = stack.pop()
        for n, j in adj[link]:
            if n != parent:
                order.append((n, link, j))
                stack.append((n, link))
    return order


def check_topology(m: rm.Model) -> None:
    adj = plain_adjacency(m)
    ends = m._index._ends
    if ends is not None:
        assert ends == (
            tuple(m.link_names.index(j.link1) for j in m.joints),
            tuple(m.link_names.index(j.link2) for j in m.joints),
        )
    for i in range(m.n_links):
        got = m.neighbors(i)
        assert [tuple(nb) for nb in got] == adj[i]
        assert all(type(nb) is rm.Neighbor for nb in got)
    for base in range(m.n_links):
        t = m.traversal(base)
        assert [(e.link, e.parent, e.joint) for e in t] == plain_traversal(m, base)
    # One component per link less one per joint: what the union-find's roots count.
    roots = sum(p < 0 for p in m._index.components)
    assert m._index.connected() == (roots <= 1)


@settings(max_examples=40, deadline=None)
@given(models(max_links=10))
def test_every_path_to_a_model_gives_the_plain_adjacency_and_traversals(m: rm.Model) -> None:
    check_topology(m)  # builders: no ends stored, the joints are read
    bulk = rm.Model(**public_fields(m))  # derive: ends stored
    assert bulk._index._ends is not None
    check_topology(bulk)
    check_topology(pickle.loads(pickle.dumps(m)))
    check_topology(rm.add_frame(bulk, "L0", "extra"))  # the ends carried over
    # The loader (ends stored, reversed joints included), on the model moved so that URDF can
    # carry it (each child's origin on its joint's axis); itself a transformer's result.
    compatible = rt.make_urdf_compatible(m, original_frames=False)
    check_topology(compatible)
    check_topology(urdf.loads(urdf.dumps(compatible)))


@pytest.mark.parametrize("keep_fakes", [False, True])
def test_a_loaded_robot_gives_the_plain_adjacency_and_traversals(keep_fakes: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # iCub's sensor frames clash with its links' names
        m = urdf.load(ICUB, options=urdf.LoadOptions(remove_fake_links=not keep_fakes))
    assert m._index._ends is not None  # the loader gives them: the first traversal reads no joint
    check_topology(m)
    if keep_fakes:
        check_topology(rt.remove_fake_links(m, lumped_sensors="drop"))


def test_a_loop_given_to_the_walk_is_reported_not_looped_over() -> None:
    # Models never have loops (the union-find refuses them); the walk still stops on one.
    triangle = flat_links((0, 1, 2), (1, 2, 0), 3)
    assert triangle.start == [0, 2, 4, 6]
    with pytest.raises(rm.errors.TopologyError, match="reached twice"):
        compute_traversal(triangle, 0, 3)
    with pytest.raises(rm.errors.ModelError, match="out of range"):
        compute_traversal(triangle, 3, 3)


def test_a_forest_is_not_connected() -> None:
    """Two links and no joint: two components, whether built, derived or unpickled."""
    m = rm.add_link(rm.add_link(rm.Model(), "a"), "b")
    for v in (m, rm.Model(**public_fields(m)), pickle.loads(pickle.dumps(m))):
        assert not v._index.connected()
        check_topology(v)
    joined = rm.add_joint(m, "j", rm.FixedJoint(link1="a", link2="b"))
    assert joined._index.connected()
    check_topology(joined)
