"""The regressor's tree against the build it replaced.

``regressor_reference`` holds the tree build as it was before issue 32; every array of the
:class:`~robomodel.identification._tree.Tree` built now must have the same bits (the joints'
constants set the poses' bits, and through them the regressor's).
"""

from __future__ import annotations

import regressor_reference as reference
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import models

from robomodel.data import example_path
from robomodel.formats.urdf import load
from robomodel.identification import _tree


def same_trees(new: _tree.Tree, old: _tree.Tree) -> None:
    for name in (
        "S_links",
        "dof_child",
        "anc",
        "link_at",
        "position",
        "coord",
        "revolute",
        "prismatic",
        "J",
    ):
        a, b = getattr(new, name), getattr(old, name)
        assert a.dtype == b.dtype and a.shape == b.shape, name
        assert a.tobytes() == b.tobytes(), name
    assert new.base == old.base
    assert len(new.levels) == len(old.levels)
    for (lo, hi, pars), (lo0, hi0, pars0) in zip(new.levels, old.levels, strict=True):
        assert (lo, hi) == (lo0, hi0)
        assert pars.tolist() == pars0.tolist()
    for (links, parents), (links0, parents0) in zip(new.level_links, old.level_links, strict=True):
        assert links.tolist() == links0.tolist()
        assert parents.tolist() == parents0.tolist()


@given(models(max_links=12), st.data())
@settings(max_examples=60, deadline=None)
def test_tree_is_the_old_tree(m, data):
    """From any base of a random tree (joints in either direction, every kind), the tree holds
    the same arrays, bit for bit, as the build it replaced."""
    base = data.draw(st.integers(0, m.n_links - 1))
    t = m.traversal(base)
    if len(t) != m.n_links:
        return
    same_trees(_tree._make_tree(m, base), reference._make_tree(m, base))


def test_tree_on_a_humanoid():
    """The bundled humanoid, from its default base and from a foot."""
    m = load(example_path())
    for base in (m.default_base_index, m.link_index("l_sole") if "l_sole" in m.link_names else 3):
        same_trees(_tree._make_tree(m, base), reference._make_tree(m, base))
