"""What the checks, the mimic map and the mesh-file checks read of a model, as a protocol.

:meth:`Model.problems() <robomodel.model.record.Model.problems>` runs the checks table of
:mod:`robomodel.model.checks`, so :mod:`robomodel.model.record` imports it. The checks (and the
mimic map and mesh checks they use) therefore read a model through :class:`ModelView`, which
:class:`~robomodel.model.record.Model` satisfies structurally, rather than through the class
itself: importing ``Model`` there, even for annotations only, would make an import cycle. mypy
checks that ``Model`` satisfies the protocol wherever a model is passed to a check.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from robomodel.model._index import NameIndex
from robomodel.model.joints import Joint
from robomodel.model.sensors import Sensor
from robomodel.model.shapes import SolidShape
from robomodel.model.spatial import SpatialInertia
from robomodel.model.topology import Neighbor
from robomodel.model.traversal import Traversal

__all__ = ["LinkView", "ModelView"]


class LinkView(Protocol):
    """What the checks read of a link: its inertia."""

    @property
    def inertia(self) -> SpatialInertia:
        """The link's spatial inertia."""
        ...


class ModelView(Protocol):
    """The part of a :class:`~robomodel.model.record.Model` the checks read (see the module)."""

    @property
    def link_names(self) -> Sequence[str]:
        """The link names, in index order."""
        ...

    @property
    def links(self) -> Sequence[LinkView]:
        """The links, in index order."""
        ...

    @property
    def joint_names(self) -> Sequence[str]:
        """The joint names, in index order."""
        ...

    @property
    def joints(self) -> Sequence[Joint]:
        """The joints, in index order."""
        ...

    @property
    def sensors(self) -> Sequence[Sensor]:
        """The sensors, in insertion order."""
        ...

    @property
    def visuals(self) -> Sequence[Sequence[SolidShape]]:
        """The visual shapes of each link."""
        ...

    @property
    def collisions(self) -> Sequence[Sequence[SolidShape]]:
        """The collision shapes of each link."""
        ...

    @property
    def package_dirs(self) -> Sequence[str]:
        """The directories searched for ``package://`` URIs."""
        ...

    @property
    def default_base(self) -> str | None:
        """The default base link."""
        ...

    @property
    def n_links(self) -> int:
        """The number of links."""
        ...

    @property
    def _l(self) -> NameIndex:
        """Link name -> index."""
        ...

    @property
    def _j(self) -> NameIndex:
        """Joint name -> index."""
        ...

    @property
    def _memo(self) -> dict[Any, Any] | None:
        """The per-value cache (:func:`robomodel._internal.memo.memoized`)."""
        ...

    def joint_name(self, index: int) -> str:
        """The name of the joint at ``index``."""
        ...

    def is_joint_name_used(self, name: str) -> bool:
        """Whether a joint is called ``name``."""
        ...

    def neighbors(self, link: str | int) -> tuple[Neighbor, ...]:
        """The links next to ``link``, with the joints to them."""
        ...

    def traversal(self, base: str | int | None = None) -> Traversal:
        """The traversal of the tree from ``base`` (default: the default base)."""
        ...
