"""The names pickles of robomodel 0.1 refer to for loaded values: they load as plain values.

robomodel 0.1 built a loaded model's transforms, inertias and axes as subclasses that also
remembered the URDF numbers they were read from; a pickle of one names this module's
``_remade`` and its class (``robomodel.urdf._sourced``, reached through the old-path aliases).
Those subclasses are gone: a loaded model holds the plain values a built one does. The names
stay, bound to the plain classes, so that such a pickle still loads, as the plain value (the
numbers read are dropped; nothing reads them). Nothing else uses this module.
"""

from __future__ import annotations

from typing import Any

from robomodel.model.spatial import Axis, SpatialInertia, Transform

__all__: list[str] = []

SourcedTransform = Transform
SourcedInertia = SpatialInertia
SourcedAxis = Axis


def _remade(cls: type, slot: str, record: Any, *fields: Any) -> Any:
    """Rebuild a 0.1 pickle's value as the plain value (checked), without its record."""
    del slot, record  # what the value was read from: not part of a value any more
    return cls(*fields)
