"""Visual and collision geometry attached to links.

A :class:`SolidShape` is one URDF ``<visual>`` or ``<collision>``: a geometry (a closed union of
:class:`Box`, :class:`Sphere`, :class:`Cylinder` and :class:`Mesh`), an optional name, its pose
``link_H_geometry`` and an optional :class:`Material`. Both keep, verbatim, the child elements
of their URDF element that robomodel does not model (``extensions``), so that writing a loaded
model back loses nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

import attrs

from robomodel.errors import ArgumentError, ModelError
from robomodel.model.spatial import Transform
from robomodel.model.validation import real_number

__all__ = ["Box", "Cylinder", "Geometry", "Material", "Mesh", "SolidShape", "Sphere"]


def _nonneg(v: float) -> float:
    f = real_number(v, "a shape dimension")
    if f < 0.0:
        raise ModelError(f"a shape dimension must be >= 0, but got {f!r}")
    return f


def _numbers(v: object, size: int, what: str) -> tuple[float, ...]:
    if isinstance(v, (str, bytes)):
        raise ArgumentError(f"{what} must be {size} numbers, but got the string {v!r:.80}")
    if not isinstance(v, Iterable):
        raise ArgumentError(f"{what} must be {size} numbers, but got {v!r:.80}")
    t = tuple(real_number(x, what) for x in v)
    if len(t) != size:
        raise ArgumentError(f"{what} must be {size} numbers, but got {len(t)}: {t!r}")
    return t


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
    t = _numbers(v, 3, "a mesh scale (x y z)")
    return (t[0], t[1], t[2])


def _filename(v: str) -> str:
    if not isinstance(v, str):
        raise ArgumentError(f"a mesh filename must be a string, but got {v!r:.80}")
    return v


@attrs.frozen
class Mesh:
    """A mesh file (kept verbatim, ``package://`` URIs are not resolved) and its scale."""

    filename: str = attrs.field(converter=_filename)
    scale: tuple[float, float, float] = attrs.field(default=(1.0, 1.0, 1.0), converter=_scale)


Geometry: TypeAlias = Box | Sphere | Cylinder | Mesh
"""Every geometry kind robomodel models."""


def _rgba(v: tuple[float, ...] | list[float] | None) -> tuple[float, float, float, float] | None:
    if v is None:
        return None
    t = _numbers(v, 4, "a colour (r g b a)")
    return (t[0], t[1], t[2], t[3])


def _xml_texts(v: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    if isinstance(v, (str, bytes)):
        raise ArgumentError(
            f"extensions must be a list of XML texts, but got one string {v!r:.80}; wrap it in "
            "a list"
        )
    t = tuple(v)
    for x in t:
        if not isinstance(x, str):
            raise ArgumentError(f"an extension must be the XML text of one element, got {x!r:.80}")
        if not x.lstrip().startswith("<"):
            raise ModelError(f"an extension must be the XML text of one element, got {x!r:.80}")
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


def _check_geometry(v: object) -> None:
    if not isinstance(v, (Box, Sphere, Cylinder, Mesh)):
        raise ArgumentError(
            f"a shape's geometry must be a Box, Sphere, Cylinder or Mesh, but got {v!r:.80}"
        )


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

    geometry: Geometry = attrs.field(validator=lambda _s, _a, v: _check_geometry(v))
    name: str | None = None
    link_H_geometry: Transform = attrs.field(factory=Transform)
    material: Material | None = None
    extensions: tuple[str, ...] = attrs.field(default=(), converter=_xml_texts)

    @property
    def has_valid_name(self) -> bool:
        """Whether the shape has a non-empty name (iDynTree's ``isNameValid``)."""
        return bool(self.name)
