"""A model's links split into parts along joints: what becomes each link of a lumped model.

:func:`split` walks a traversal and cuts it at the kept joints (iDynTree's
``SubModelDecomposition``); :func:`extract_submodel <robomodel.transformers.extract_submodel>`
takes one part, the lumping engine fuses every part into one new link.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import attrs

from robomodel.model.record import Link, Model
from robomodel.model.traversal import Traversal

__all__ = ["NewLinks", "Split", "split"]


@attrs.frozen
class Split:
    """A model's links partitioned into parts along kept joints.

    Attributes:
        part_of: part index of every link (by link index).
        members: per part, its links in traversal order (the first is the part's base).
        parents: per part, the traversal parent of each member (``None`` for the part's base).
        joints: per part, the joint to that parent (``None`` for the part's base).
    """

    part_of: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int | None, ...], ...]
    joints: tuple[tuple[int | None, ...], ...]


def split(model: Model, kept: Collection[int], traversal: Traversal) -> Split:
    """Split the links of ``traversal`` into parts along the joints (indices) in ``kept``.

    The base starts part 0; every link whose joint to its traversal parent is kept starts a new
    part; every other link joins its parent's part.
    """
    parents = [
        None if parent is None or joint in kept else parent
        for parent, joint in zip(traversal.parents, traversal.joints, strict=True)
    ]
    return split_of(model.n_links, traversal.links, parents, traversal.joints)


def split_of(
    n_links: int,
    links: Sequence[int],
    parents: Sequence[int | None],
    joints: Sequence[int | None],
) -> Split:
    """The :class:`Split` of links with their parents and joints, in members' order.

    A link whose parent is ``None`` starts a new part; any other joins its parent's part (the
    parent must come first), reached through its joint. Given as three sequences, read in one
    C-level ``zip``: no entry tuple per link.
    """
    part_of = [-1] * n_links
    members: list[list[int]] = []
    member_parents: list[list[int | None]] = []
    member_joints: list[list[int | None]] = []
    for link, parent, joint in zip(links, parents, joints, strict=True):
        if parent is None:
            part_of[link] = len(members)
            members.append([link])
            member_parents.append([None])
            member_joints.append([None])
        else:
            s = part_of[parent]
            part_of[link] = s
            members[s].append(link)
            member_parents[s].append(parent)
            member_joints[s].append(joint)
    return Split(
        tuple(part_of),
        tuple(map(tuple, members)),
        tuple(map(tuple, member_parents)),
        tuple(map(tuple, member_joints)),
    )


@attrs.frozen
class NewLinks:
    """The links of a lumped model: one per part of a :class:`Split`.

    Attributes:
        parts: the split they come from.
        order: the part indices in the result's link order.
        names: per part index, the new link's name (that of the part's base).
        links: the new links, in the result's order.
        of_link: per input link index, the name of the new link it is part of.
    """

    parts: Split
    order: tuple[int, ...]
    names: tuple[str, ...]
    links: tuple[Link, ...]
    of_link: tuple[str, ...]
