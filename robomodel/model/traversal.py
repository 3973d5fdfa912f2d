"""Traversals: a model's links in depth-first order from a base, each with its parent and joint."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

import attrs

from robomodel._internal.construct import set_derived
from robomodel.errors import ModelError, TopologyError

__all__ = ["Links", "Traversal", "TraversalElement", "compute_traversal", "flat_links"]


@attrs.frozen
class TraversalElement:
    """One traversal step: a link, its parent and the joint to it (``None`` at the base)."""

    link: int
    parent: int | None
    joint: int | None


@attrs.frozen(repr=False)
class Traversal:
    """A depth-first traversal of a model from ``base``, as immutable tuples of link indices.

    Attributes:
        links: visited link indices, in traversal order (``links[0]`` is the base).
        parents: parent link index of each element (``None`` for the base).
        joints: joint index to the parent of each element (``None`` for the base).
    """

    links: tuple[int, ...]
    parents: tuple[int | None, ...]
    joints: tuple[int | None, ...]
    _position: dict[int, int] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # Derived from ``links`` (and excluded from ``==``): a lookup table for ``position``.
        set_derived(self, "_position", {link: k for k, link in enumerate(self.links)})

    @property
    def base(self) -> int:
        """The base link index."""
        return self.links[0]

    def __len__(self) -> int:
        return len(self.links)

    def __iter__(self) -> Iterator[TraversalElement]:
        return (
            TraversalElement(lk, p, j)
            for lk, p, j in zip(self.links, self.parents, self.joints, strict=True)
        )

    def __getitem__(self, k: int) -> TraversalElement:
        return TraversalElement(self.links[k], self.parents[k], self.joints[k])

    def contains(self, link: int) -> bool:
        """Whether ``link`` was visited."""
        return link in self._position

    def position(self, link: int) -> int:
        """Return the traversal position of ``link``."""
        try:
            return self._position[link]
        except KeyError:
            raise ModelError(
                f"link {link} is not reachable from the traversal base {self.base}"
            ) from None

    def parent_of(self, link: int) -> int | None:
        """Return the traversal parent of ``link`` (``None`` for the base)."""
        return self.parents[self.position(link)]

    def parent_joint_of(self, link: int) -> int | None:
        """Return the joint between ``link`` and its traversal parent (``None`` for the base)."""
        return self.joints[self.position(link)]

    def is_parent_of(self, parent: int, child: int) -> bool:
        """Whether ``child`` was visited with ``parent`` as its parent."""
        k = self._position.get(child)
        return k is not None and self.parents[k] == parent

    def __repr__(self) -> str:
        return f"Traversal(base={self.base}, links={list(self.links)})"


class Links(NamedTuple):
    """A forest's adjacency as three flat lists (compressed rows): no object per entry.

    The neighbours of link ``i`` are ``neighbor[k]`` for ``k`` in ``range(start[i],
    start[i + 1])``, joined by joint ``joint[k]``, in increasing joint index (iDynTree's
    adjacency order).
    """

    start: list[int]
    neighbor: list[int]
    joint: list[int]


def flat_links(one: Sequence[int], two: Sequence[int], n_links: int) -> Links:
    """Return the :class:`Links` of ``n_links`` links, joint ``j`` joining ``one[j]``, ``two[j]``.

    A counting sort by link: every entry goes into a list made once, so a first traversal
    makes a handful of objects rather than one per adjacency entry (on a freshly loaded model,
    every new object kept is a write to memory not in cache).
    """
    start = [0] * (n_links + 1)
    for a in one:
        start[a + 1] += 1
    for b in two:
        start[b + 1] += 1
    for i in range(n_links):
        start[i + 1] += start[i]
    free = start[:-1]  # the next free slot of each link's row
    neighbor = [0] * start[-1]
    joint = [0] * start[-1]
    for j, (a, b) in enumerate(zip(one, two, strict=True)):
        k = free[a]
        neighbor[k] = b
        joint[k] = j
        free[a] = k + 1
        k = free[b]
        neighbor[k] = a
        joint[k] = j
        free[b] = k + 1
    return Links(start, neighbor, joint)


def compute_traversal(links_: Links, base: int, n_links: int) -> Traversal:
    """Return iDynTree's depth-first traversal over a forest's :class:`Links`.

    A link is appended when it is discovered; the stack is popped from the end, so the last
    child's subtree is expanded first. Every model is a forest (``robomodel.model.topology``
    refuses the joint that would make it otherwise), so a link is never reached twice; if the
    links given here had a loop anyway, that is reported instead of looped over.
    """
    if not 0 <= base < n_links:
        raise ModelError(f"traversal base {base} is out of range [0, {n_links})")
    start, neighbor, joint = links_
    links = [base]
    parents: list[int | None] = [None]
    joints: list[int | None] = [None]
    # up[i]: the traversal parent of link i once it is discovered, -1 before; the base is
    # discovered with no parent (-2, which no neighbour is). One list instead of a set of the
    # discovered links and a stack of (link, parent) pairs.
    up = [-1] * n_links
    up[base] = -2
    stack = [base]
    pop, push = stack.pop, stack.append
    while stack:
        link = pop()
        parent = up[link]
        for k in range(start[link], start[link + 1]):
            n = neighbor[k]
            if n == parent:
                continue
            if up[n] != -1:
                raise TopologyError(
                    f"link {n} is reached twice from base {base}: the model has a loop or two "
                    "joints between the same links"
                )
            up[n] = link
            links.append(n)
            parents.append(link)
            joints.append(joint[k])
            push(n)
    return Traversal(tuple(links), tuple(parents), tuple(joints))
