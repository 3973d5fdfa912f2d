"""Values that remember the URDF numbers they were computed from.

A URDF stores a rotation as roll-pitch-yaw angles and an inertia about its centre of mass;
within one load the loader builds its transforms, inertias and axes as these subclasses, which
also carry the numbers read (the inverse of a fake root's origin is computed from them). The
exporter does not read them: it writes a function of the value alone
(:mod:`robomodel.formats.urdf._exact`).

The subclasses compare and hash exactly like their base classes, and pickle and deepcopy keep
their record; any operation on them returns a plain value, so a transformed model never carries
stale numbers.

The makers at the end build them from fields the loader computed itself, through
:mod:`robomodel._internal.construct`: :func:`~robomodel._internal.construct.trusted` stores the
base class's
fields, and :func:`~robomodel._internal.construct.set_derived` the number record. That record is the
kind of slot ``set_derived`` is for: outside ``==`` and ``hash``, and consistent with the
fields by construction (they were computed from it), so filling it never changes the value.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from itertools import repeat
from typing import Any

import numpy as np

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import set_derived, trusted
from robomodel.model.spatial import Axis, SpatialInertia, Transform

Vec3 = tuple[float, float, float]

__all__ = [
    "SourcedAxis",
    "SourcedInertia",
    "SourcedTransform",
    "Vec3",
    "sourced_axes",
    "sourced_inertias",
    "sourced_transform",
    "sourced_transforms",
]


class SourcedTransform(Transform):
    """A :class:`Transform` read from ``<origin xyz rpy>``.

    ``urdf_origin`` is ``(xyz, rpy, inverted)``: the value is the origin's transform, or its
    inverse when ``inverted`` (the frame of a fake URDF root link).
    """

    __slots__ = ("urdf_origin",)
    urdf_origin: tuple[Vec3, Vec3, bool]

    def __reduce__(self) -> tuple[Any, ...]:
        # The record travels with the value (see the module docstring).
        return (
            _remade,
            (SourcedTransform, "urdf_origin", self.urdf_origin, self.rotation, self.position),
        )


class SourcedInertia(SpatialInertia):
    """A :class:`SpatialInertia` read from ``<inertial>``.

    ``urdf_inertial`` is ``(mass, com_xyz, rpy, (ixx, ixy, ixz, iyy, iyz, izz))``.
    """

    __slots__ = ("urdf_inertial",)
    urdf_inertial: tuple[float, Vec3, Vec3, tuple[float, ...]]

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _remade,
            (
                SourcedInertia,
                "urdf_inertial",
                self.urdf_inertial,
                self.mass,
                self.first_moment,
                self.rotational_inertia,
            ),
        )


class SourcedAxis(Axis):
    """An :class:`Axis` in link1 coordinates computed from ``<axis xyz>`` given in the child.

    ``urdf_axis`` is ``(xyz, rest)``: the numbers read and the rest transform object used to
    bring them into link1. The exporter uses ``xyz`` only while the joint still holds that very
    rest transform object and the same orientation.
    """

    __slots__ = ("urdf_axis",)
    urdf_axis: tuple[Vec3, Transform]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_remade, (SourcedAxis, "urdf_axis", self.urdf_axis, self.direction, self.origin))


_TRANSFORM = trusted(SourcedTransform)
_INERTIA = trusted(SourcedInertia)
_AXIS = trusted(SourcedAxis)
_MAKERS: dict[type, Callable[..., Any]] = {
    SourcedTransform: _TRANSFORM,
    SourcedInertia: _INERTIA,
    SourcedAxis: _AXIS,
}
_drain: Callable[[Iterable[Any]], None] = deque(maxlen=0).extend  # runs an iterator in C


def _remade(cls: type, slot: str, record: Any, *fields: Any) -> Any:
    """Rebuild a pickled or copied sourced value with its record (arrays frozen again)."""
    make = _MAKERS[cls]
    v = make(
        *(
            immutable(np.asarray(f, dtype=np.float64)) if isinstance(f, np.ndarray) else f
            for f in fields
        )
    )
    set_derived(v, slot, record)
    return v


def sourced_transform(
    rotation: Any, position: Any, origin: tuple[Vec3, Vec3, bool]
) -> SourcedTransform:
    """Return the transform ``(rotation, position)`` read from ``origin`` (read-only arrays)."""
    t = _TRANSFORM(rotation, position)
    set_derived(t, "urdf_origin", origin)
    return t


# The loader builds hundreds of these per document: the batch makers below run their loops in
# C (``map``), calling only the generated constructor and set_derived per value.
def sourced_transforms(
    rotations: Iterable[Any],
    positions: Iterable[Any],
    origins: Iterable[tuple[Vec3, Vec3, bool]],
) -> list[SourcedTransform]:
    """Return :func:`sourced_transform` of each ``(rotation, position, origin)``."""
    out = list(map(_TRANSFORM, rotations, positions))
    _drain(map(set_derived, out, repeat("urdf_origin"), origins))
    return out


def sourced_inertias(
    masses: Iterable[float],
    first_moments: Iterable[Any],
    rotational_inertias: Iterable[Any],
    inertials: Iterable[tuple[float, Vec3, Vec3, tuple[float, ...]]],
) -> list[SourcedInertia]:
    """Return the inertias computed from ``inertials`` (read-only arrays, symmetric matrices)."""
    out = list(map(_INERTIA, masses, first_moments, rotational_inertias))
    _drain(map(set_derived, out, repeat("urdf_inertial"), inertials))
    return out


def sourced_axes(
    directions: Iterable[Any], origins: Iterable[Any], sources: Iterable[tuple[Vec3, Transform]]
) -> list[SourcedAxis]:
    """Return the axes computed from ``(<axis xyz>, rest transform)`` (unit directions)."""
    out = list(map(_AXIS, directions, origins))
    _drain(map(set_derived, out, repeat("urdf_axis"), sources))
    return out
