"""Visual and collision geometry attached to links.

A :class:`SolidShape` is one URDF ``<visual>`` or ``<collision>``: a geometry (a closed union of
:class:`Box`, :class:`Sphere`, :class:`Cylinder` and :class:`Mesh`), an optional name, its pose
``link_H_geometry`` and an optional :class:`Material`. Both keep, verbatim, the child elements
of their URDF element that robomodel does not model (``extensions``), so that writing a loaded
model back loses nothing.
"""

from __future__ import annotations

import math
from typing import TypeAlias

import attrs

from robomodel.spatial import Transform

__all__ = ["Box", "Cylinder", "Geometry", "Material", "Mesh", "SolidShape", "Sphere"]


def _nonneg(v: float) -> float:
    f = float(v)
    if not (math.isfinite(f) and f >= 0.0):
        raise ValueError(f"a shape dimension must be finite and >= 0, got {v!r}")
    return f


@attrs.frozen
class Box:
    """A box centred on its frame, with side lengths ``x``, ``y``, ``z``."""

    x: float = attrs.field(converter=_nonneg)
    y: float = attrs.field(converter=_nonneg)
    z: float = attrs.field(converter=_nonneg)


@attrs.frozen
class Sphere:
    """A sphere centred on its frame."""

    radius: float = attrs.field(converter=_nonneg)


@attrs.frozen
class Cylinder:
    """A cylinder centred on its frame, its axis along z."""

    radius: float = attrs.field(converter=_nonneg)
    length: float = attrs.field(converter=_nonneg)


def _scale(v: tuple[float, float, float] | list[float]) -> tuple[float, float, float]:
    t = tuple(float(x) for x in v)
    if len(t) != 3 or not all(math.isfinite(x) for x in t):
        raise ValueError(f"a mesh scale must be 3 finite numbers, got {v!r}")
    return (t[0], t[1], t[2])


@attrs.frozen
class Mesh:
    """A mesh file (kept verbatim, ``package://`` URIs are not resolved) and its scale."""

    filename: str
    scale: tuple[float, float, float] = attrs.field(default=(1.0, 1.0, 1.0), converter=_scale)


Geometry: TypeAlias = Box | Sphere | Cylinder | Mesh
"""Every geometry kind robomodel models."""


def _rgba(v: tuple[float, ...] | list[float] | None) -> tuple[float, float, float, float] | None:
    if v is None:
        return None
    t = tuple(float(x) for x in v)
    if len(t) != 4 or not all(math.isfinite(x) for x in t):
        raise ValueError(f"a colour must be 4 finite numbers (r g b a), got {v!r}")
    return (t[0], t[1], t[2], t[3])


def _xml_texts(v: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    t = tuple(v)
    for x in t:
        if not isinstance(x, str) or not x.lstrip().startswith("<"):
            raise ValueError(f"an extension must be the XML text of one element, got {x!r}")
    return t


@attrs.frozen(kw_only=True)
class Material:
    """A URDF material: a name, an optional colour and an optional texture file.

    ``extensions`` holds the XML text of the ``<material>``'s children robomodel does not model
    (anything but ``<color>`` and ``<texture>``), in document order; the URDF writer puts them
    back inside the element.
    """

    name: str = ""
    rgba: tuple[float, float, float, float] | None = attrs.field(default=None, converter=_rgba)
    texture: str | None = None
    extensions: tuple[str, ...] = attrs.field(default=(), converter=_xml_texts)


@attrs.frozen(kw_only=True)
class SolidShape:
    """One visual or collision element of a link.

    Attributes:
        geometry: the shape.
        name: the URDF ``name`` attribute, or ``None`` when absent (iDynTree's "invalid name").
        link_H_geometry: the pose of the geometry in the link frame.
        material: the material, or ``None``.
        extensions: the XML text of the element's children robomodel does not model (anything
            but ``<origin>``, ``<geometry>`` and ``<material>``, e.g. Drake's
            ``<drake:proximity_properties>``), in document order. They travel with the shape
            through every transformer and the URDF writer puts them back inside the element.
    """

    geometry: Geometry
    name: str | None = None
    link_H_geometry: Transform = attrs.field(factory=Transform)
    material: Material | None = None
    extensions: tuple[str, ...] = attrs.field(default=(), converter=_xml_texts)

    @property
    def has_valid_name(self) -> bool:
        """Whether the shape has a non-empty name (iDynTree's ``isNameValid``)."""
        return bool(self.name)
