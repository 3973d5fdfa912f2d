"""The loader's records: one element of a document as read, before the model is assembled.

A :class:`RawLink`, :class:`RawJoint`, :class:`RawSensor` or :class:`RawShape` holds what its
element's reader checked, and receives its origin, inertia or axis once the document's numbers
are read in one pass (:func:`robomodel.formats.urdf.load._read_numbers`). The numbers an element
was read from stay here, with the loader, never in the values it builds: a loaded model holds
the same plain :class:`~robomodel.model.spatial.Transform`,
:class:`~robomodel.model.spatial.SpatialInertia` and :class:`~robomodel.model.spatial.Axis` a
built one does.

The records sit below every element module (``_link``, ``_joint``, ``_sensor``, ``_geometry``,
``_inertial``, ``_extensions``), which read, fill or walk them.
"""

from __future__ import annotations

from typing import Any

from robomodel.formats.urdf._origin import IDENTITY_ORIGIN
from robomodel.model.joints import Mimic
from robomodel.model.record import Extension
from robomodel.model.shapes import Geometry, Material
from robomodel.model.spatial import SpatialInertia, Transform

__all__ = ["NO_KEPT", "NO_SHAPES", "RawJoint", "RawLink", "RawSensor", "RawShape", "Vec3"]

Vec3 = tuple[float, float, float]

NO_KEPT: tuple[Extension, ...] = ()
"""The class-level default of a record's kept-element lists: replaced by a list before the first
append (an empty tuple, so that no module-level list exists to grow by mistake). Most elements
keep nothing, and an empty list per record would only feed the garbage collector, which runs
every few hundred container objects a load keeps alive."""


class RawShape:
    """A visual or collision as read, waiting for its origin."""

    __slots__ = ("extensions", "geometry", "line", "material", "name", "origin")

    def __init__(self, geometry: Geometry, name: str | None, line: int | None = None) -> None:
        self.geometry = geometry
        self.name = name
        self.line = line  # of its <mesh> element, for the load's report (None for primitives)
        self.origin: Transform = IDENTITY_ORIGIN
        self.material: Material | None = None
        self.extensions: tuple[str, ...] = ()


NO_SHAPES: tuple[RawShape, ...] = ()
"""A link's shape list before its first shape (replaced, never appended to)."""


class RawLink:
    """One ``<link>`` as read; its inertia arrives after the element pass."""

    # Class-level defaults, as for RawJoint. Most links of a real URDF are empty frames: shape
    # lists only for links with shapes.
    inertia: SpatialInertia | None = None
    visuals: list[RawShape] | tuple[RawShape, ...] = NO_SHAPES
    collisions: list[RawShape] | tuple[RawShape, ...] = NO_SHAPES
    inertial_exts: list[Extension] | tuple[Extension, ...] = (
        NO_KEPT  # kept children of its <inertial>
    )
    exts: list[Extension] | tuple[Extension, ...] = NO_KEPT  # its kept children

    def __init__(self, name: str, el: Any) -> None:
        self.name = name
        self.el = el


class RawJoint:
    """One ``<joint>`` as read; its origin and axis numbers arrive after the element pass."""

    # The defaults live on the class: a joint sets only what it holds, and a document has
    # hundreds of joints.
    origin: Transform = IDENTITY_ORIGIN
    parent = ""
    child = ""
    axis: Vec3 = (1.0, 0.0, 0.0)
    axis_el: Any = None
    exact_axis = False  # the <axis> has robomodel:direction
    reversed_el: Any = None  # the <child> stating the joint's link1 is the URDF child
    limit: Any = None
    dynamics: Any = None
    mimic: Mimic | None = None
    exts: list[Extension] | tuple[Extension, ...] = NO_KEPT  # its kept children

    def __init__(self, name: str, kind: str, el: Any) -> None:
        self.name = name
        self.kind = kind
        self.el = el


class RawSensor:
    """One ``<sensor>`` as read; its origin arrives after the element pass."""

    # Class-level defaults, as for RawJoint.
    origin: Transform = IDENTITY_ORIGIN
    parent_el: Any = None
    parent_attr = ""
    frame = ""
    direction = ""
    ft_exts: list[Extension] | tuple[Extension, ...] = (
        NO_KEPT  # kept children of its <force_torque>
    )
    exts: list[Extension] | tuple[Extension, ...] = NO_KEPT  # its kept children

    def __init__(self, name: str, kind: str, el: Any) -> None:
        self.name = name
        self.kind = kind
        self.el = el
