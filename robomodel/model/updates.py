"""Functions that return a model with one of its attributes replaced (``with_*``).

Unlike the builders of :mod:`robomodel.model.builders`, these add no element: names, indices and
connectivity stay as they are, so each keeps the model's index and replaces one persistent
field. Also re-exported by the :mod:`robomodel` package.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import replace
from robomodel.errors import ModelError
from robomodel.model.record import Link, Model
from robomodel.model.shapes import SolidShape
from robomodel.model.spatial import FloatArray, SpatialInertia

__all__ = [
    "with_collision_shapes",
    "with_default_base_link",
    "with_inertial_parameters",
    "with_link",
    "with_package_dirs",
    "with_shapes",
    "with_visual_shapes",
]


def with_default_base_link(model: Model, link: str | int) -> Model:
    """Return ``model`` with ``link`` (name or index) as default base."""
    name = model.link_names[model._link_idx(link)]
    if name == model.default_base:
        return model
    return replace(Model)(model, default_base=name)


def with_link(model: Model, link: str | int, new: Link) -> Model:
    """Return ``model`` with one link's inertia replaced."""
    i = model._link_idx(link)
    if model.links[i] == new:
        return model
    return replace(Model)(model, links=model.links.set(i, new))


def with_inertial_parameters(model: Model, params: Sequence[float] | FloatArray) -> Model:
    """Return ``model`` with every link's inertia set from iDynTree's parameter vector.

    Accepts the flat ``10 * n_links`` vector of :meth:`Model.inertial_parameters` or an
    ``(n_links, 10)`` array. No physical-consistency check is made (as in iDynTree).
    """
    p = np.asarray(params, dtype=np.float64)
    n = len(model.links)
    if p.shape not in ((10 * n,), (n, 10)):
        raise ModelError(
            f"expected {10 * n} inertial parameters (10 per link for {n} links), "
            f"got shape {p.shape}"
        )
    rows = p.reshape(n, 10)
    return replace(Model)(model, links=pvector(Link(SpatialInertia.from_vector(r)) for r in rows))


def with_package_dirs(model: Model, dirs: Iterable[str]) -> Model:
    """Return ``model`` with the given package directories."""
    return replace(Model)(model, package_dirs=pvector(str(d) for d in dirs))


def with_visual_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's visual shapes replaced."""
    i = model._link_idx(link)
    return replace(Model)(model, visuals=model.visuals.set(i, _shapes(shapes)))


def with_collision_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's collision shapes replaced."""
    i = model._link_idx(link)
    return replace(Model)(model, collisions=model.collisions.set(i, _shapes(shapes)))


def _shapes(shapes: Iterable[SolidShape]) -> PVectorT[SolidShape]:
    out = pvector(shapes)
    for s in out:
        if not isinstance(s, SolidShape):
            raise ModelError(f"expected SolidShape values, got {type(s).__name__}")
    return out


def with_shapes(
    model: Model,
    *,
    visuals: Sequence[Iterable[SolidShape]] | None = None,
    collisions: Sequence[Iterable[SolidShape]] | None = None,
) -> Model:
    """Return ``model`` with every link's visual and/or collision shapes replaced at once.

    Args:
        model: the model.
        visuals: one shape list per link index (``None``: keep them).
        collisions: one shape list per link index (``None``: keep them).

    Raises:
        ModelError: a list is not one entry per link, or holds something else than a
            :class:`~robomodel.model.shapes.SolidShape`.
    """
    changes: dict[str, PVectorT[PVectorT[SolidShape]]] = {}
    for what, given in (("visuals", visuals), ("collisions", collisions)):
        if given is None:
            continue
        if len(given) != model.n_links:
            raise ModelError(
                f"with_shapes: {what} needs one shape list per link ({model.n_links}), "
                f"got {len(given)}"
            )
        changes[what] = pvector(_shapes(shapes) for shapes in given)
    return replace(Model)(model, **changes) if changes else model
