"""Trusted assembly: a model built in one step from element lists its builder proved consistent.

``Model(...)`` validates whole element lists (:func:`robomodel.model.topology.derive`): every
name, every
frame's link, every joint's links and the forest rule, every sensor's references. A transformer
that builds its result from a valid input (the lumping engine, :func:`extract_submodel
<robomodel.transformers.extract_submodel>`) has proved all of that by construction, and the
checks were a tenth of its time. :func:`assemble` builds such a result through the model's
trusted copy (the hash cache and the memo reset) with the index made directly from the names.
``tests/test_transformers.py`` rebuilds transformer results through ``Model(...)`` and compares.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TypeVar

from pyrsistent import PVector, pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import replace
from robomodel.model.joints import Joint
from robomodel.model.record import Extension, Frame, Link, Model
from robomodel.model.sensors import Sensor
from robomodel.model.shapes import Material, SolidShape
from robomodel.model.topology import JointEnds, ModelIndex, tree_index

__all__ = ["assemble", "reshaped", "with_index"]

_EMPTY = Model()
T = TypeVar("T")
_NAME = operator.attrgetter("name")
_N_POS = operator.attrgetter("n_pos_coords")
_N_DOFS = operator.attrgetter("n_dofs")


def assemble(
    *,
    link_names: Sequence[str],
    links: Sequence[Link],
    joint_names: Sequence[str],
    joints: Sequence[Joint],
    frames: Sequence[Frame],
    default_base: str,
    visuals: Sequence[PVectorT[SolidShape]],
    collisions: Sequence[PVectorT[SolidShape]],
    sensors: Sequence[Sensor],
    package_dirs: PVectorT[str],
    name: str,
    materials: PVectorT[Material],
    extensions: Sequence[Extension],
    like: Model | None = None,
    joint_ends: JointEnds | None = None,
) -> Model:
    """Return the model of these fields, without the checks of ``Model(...)``.

    The caller guarantees what :func:`~robomodel.model.topology.derive` would check and normalise:
    names unique per namespace (links and frames together), frames on links of the model, the
    joints a tree connecting every link, with their running position-coordinate and DOF
    offsets, sensors referring to links and joints of the model consistently, one persistent
    shape vector per link, and ``default_base`` a link.

    ``like`` is the model the result was made from: where the result's joints or sensors have
    the same names in the same order, its name maps are shared instead of rebuilt.
    ``joint_ends``, when the caller has them, are each joint's link indices (the ``link1``s,
    then the ``link2``s): the model's first traversal then reads no joint to find them.
    """
    # C-level passes (map) over the elements: a Python-level loop per element was a visible
    # share of a transformer's first call.
    npos = sum(map(_N_POS, joints))
    ndof = sum(map(_N_DOFS, joints))
    joint_index = sensor_index = None
    if like is not None:
        if len(joint_names) == like.n_joints and like.joint_names == joint_names:
            joint_index = like._j
        if len(sensors) == len(like.sensors) and (
            all(map(operator.is_, sensors, like.sensors))
            or list(map(_NAME, sensors)) == list(map(_NAME, like.sensors))
        ):
            sensor_index = like._s
    index = tree_index(
        link_names,
        joint_names if joint_index is None else joint_index,
        list(map(_NAME, frames)),
        [s.name for s in sensors] if sensor_index is None else sensor_index,
        (npos, ndof),
        joint_ends,
    )
    return with_index(
        index,
        link_names=link_names,
        links=links,
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=default_base,
        visuals=visuals,
        collisions=collisions,
        sensors=sensors,
        package_dirs=package_dirs,
        name=name,
        materials=materials,
        extensions=extensions,
    )


def with_index(
    index: ModelIndex,
    *,
    link_names: Sequence[str],
    links: Sequence[Link],
    joint_names: Sequence[str],
    joints: Sequence[Joint],
    frames: Sequence[Frame],
    default_base: str,
    visuals: Sequence[PVectorT[SolidShape]],
    collisions: Sequence[PVectorT[SolidShape]],
    sensors: Sequence[Sensor],
    package_dirs: Sequence[str],
    name: str,
    materials: Sequence[Material],
    extensions: Sequence[Extension],
) -> Model:
    """Return the model of these fields and its already-made ``index``, nothing checked.

    The one place a model is made from trusted parts: :func:`assemble` and the unpickler
    (``robomodel.model._pickling``), whose callers prove what ``Model(...)`` would check.
    """
    return replace(Model)(
        _EMPTY,
        link_names=_pv(link_names),
        links=_pv(links),
        joint_names=_pv(joint_names),
        joints=_pv(joints),
        frames=_pv(frames),
        default_base=default_base,
        visuals=_pv(visuals),
        collisions=_pv(collisions),
        sensors=_pv(sensors),
        package_dirs=_pv(package_dirs),
        name=name,
        materials=_pv(materials),
        extensions=_pv(extensions),
        _index=index,
    )


def _pv(items: Sequence[T]) -> PVectorT[T]:
    # A persistent vector as it is (the input model's, shared), any other sequence copied in.
    # Its exact type first: isinstance(x, PVector) asks the ABC, a Python-level call a field.
    kind = type(items)
    if kind is _PVECTOR:
        return items  # type: ignore[return-value]
    if kind is list or kind is tuple or not isinstance(items, PVector):
        return pvector(items)
    return items


_PVECTOR: type = type(pvector())  # the type pvector() returns (pyrsistent's C vector if built)


def reshaped(
    model: Model,
    *,
    visuals: PVectorT[PVectorT[SolidShape]],
    collisions: PVectorT[PVectorT[SolidShape]],
) -> Model:
    """Return ``model`` with its shape vectors replaced, without the checks of ``with_shapes``.

    The caller guarantees one persistent vector of :class:`~robomodel.model.shapes.SolidShape`
    values per link, each made from the model's own shapes; names, indices and connectivity
    do not change, so the model's index is kept.
    """
    return replace(Model)(model, visuals=visuals, collisions=collisions)
