"""Name every visual and collision shape (iDynTree's ``addValidNamesToAllSolidShapes``)."""

from __future__ import annotations

from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import replace
from robomodel.model.assembly import reshaped
from robomodel.model.record import Model
from robomodel.model.shapes import SolidShape
from robomodel.transformers.report import record, recording

__all__ = ["name_solid_shapes"]


def name_solid_shapes(model: Model) -> Model:
    """Return ``model`` with generated names for its unnamed shapes, exactly as iDynTree does.

    For each link, visuals and collisions separately (``kind`` is ``visual`` or ``collision``):

    * a single unnamed shape is named ``<link>_<kind>``;
    * several shapes none of which has a name are named ``<link>_<kind>_0``, ``_1``, ... in order;
    * if at least one of several shapes has a name, none of them is changed (unnamed ones stay
      unnamed, as in iDynTree).

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "a")
    >>> m = rm.with_visual_shapes(m, "a", [rm.SolidShape(geometry=rm.Sphere(1.0))] * 2)
    >>> [s.name for s in name_solid_shapes(m).visual_shapes("a")]
    ['a_visual_0', 'a_visual_1']

    Args:
        model: the model.

    Returns:
        The model with named shapes (``model`` itself when every shape keeps its name).
    """
    visuals = model.visuals
    collisions = model.collisions
    ve = visuals.evolver()
    ce = collisions.evolver()
    reporting = recording()
    for i, link in enumerate(model.link_names):
        v = _named(link, "visual", visuals[i], reporting)
        if v is not visuals[i]:
            ve[i] = v
        c = _named(link, "collision", collisions[i], reporting)
        if c is not collisions[i]:
            ce[i] = c
    if not ve.is_dirty() and not ce.is_dirty():
        return model
    # Only shape names change, so every index and derived map of ``model`` stays valid.
    return reshaped(model, visuals=ve.persistent(), collisions=ce.persistent())


def _named(
    link: str, kind: str, shapes: PVectorT[SolidShape], reporting: bool
) -> PVectorT[SolidShape]:
    if not shapes or any(s.has_valid_name for s in shapes):
        return shapes
    if len(shapes) == 1:
        new = [f"{link}_{kind}"]
    else:
        new = [f"{link}_{kind}_{i}" for i in range(len(shapes))]
    if reporting:
        for i, name in enumerate(new):
            record("renamed", kind, f"{link}#{i}", f"unnamed -> {name!r}")
    # A shape of the model under a name made here (a non-empty string): nothing else changes,
    # so its other fields stay as checked.
    renamed = replace(SolidShape)
    return pvector([renamed(s, name=n) for s, n in zip(shapes, new, strict=True)])
