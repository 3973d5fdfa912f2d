"""Values that remember the URDF numbers they were computed from.

A URDF stores a rotation as roll-pitch-yaw angles and an inertia about its centre of mass, so
writing a model's matrices back as text and reading them again can move them by an ulp. To make
``loads(dumps(loads(text))) == loads(text)`` hold exactly, the loader builds its transforms,
inertias and axes as these subclasses, which also carry the numbers read. The exporter writes
those numbers when it meets such a value (it reads back to the identical matrix, because the
loader is deterministic) and computes the text otherwise.

The subclasses compare, hash and pickle exactly like their base classes; any operation on them
returns a plain value, so a transformed model never carries stale numbers.
"""

from __future__ import annotations

from robomodel.spatial import Axis, SpatialInertia, Transform

Vec3 = tuple[float, float, float]


class SourcedTransform(Transform):
    """A :class:`Transform` read from ``<origin xyz rpy>``.

    ``urdf_origin`` is ``(xyz, rpy, inverted)``: the value is the origin's transform, or its
    inverse when ``inverted`` (the frame of a fake URDF root link).
    """

    __slots__ = ("urdf_origin",)
    urdf_origin: tuple[Vec3, Vec3, bool]


class SourcedInertia(SpatialInertia):
    """A :class:`SpatialInertia` read from ``<inertial>``.

    ``urdf_inertial`` is ``(mass, com_xyz, rpy, (ixx, ixy, ixz, iyy, iyz, izz))``.
    """

    __slots__ = ("urdf_inertial",)
    urdf_inertial: tuple[float, Vec3, Vec3, tuple[float, ...]]


class SourcedAxis(Axis):
    """An :class:`Axis` in link1 coordinates computed from ``<axis xyz>`` given in the child.

    ``urdf_axis`` is ``(xyz, rest)``: the numbers read and the rest transform object used to
    bring them into link1. The exporter uses ``xyz`` only while the joint still holds that very
    rest transform object and the same orientation.
    """

    __slots__ = ("urdf_axis",)
    urdf_axis: tuple[Vec3, Transform]
