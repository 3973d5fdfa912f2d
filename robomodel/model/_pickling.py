"""A model's pickled form: its persistent content in flat arrays, rebuilt without re-checking.

Pickling a model value by value costs a ``__reduce__`` per transform, axis and inertia and a
checked constructor per value on the way back, several times the cost of loading the URDF it
came from; multiprocessing users pay it every time a model is sent to a worker. So
:func:`model_state` stores what a model *is* in a few flat pieces instead:

* the numbers of every link (mass, first moment, rotational inertia) and of every joint (rest
  transform, axis, effort and velocity limits) in float64 buffers, one row per element;
* the distinct position limits and dynamics of the joints as small tables (told apart by their
  exact bits), which the joints refer to by position: a model has few distinct ones;
* the joint kinds, ends (as link indices) and table positions in one int buffer;
* names, and the rare parts (shapes, frames, sensors, mimics, extensions) as plain objects;
* the index's union-find and counts, so that nothing has to be derived again.

:func:`model_from_state` rebuilds the values through the trusted paths of
:mod:`robomodel._internal.construct`: every field in a state was checked when the model was built,
and a
pickle can only ever be loaded from a trusted source (unpickling runs arbitrary code). The arrays
of the rebuilt values are read-only views of one buffer over immutable ``bytes`` (so, as
:func:`robomodel._internal.arrays.immutable` guarantees for single arrays, no view can be made
writable
again), which is also what makes a model loaded from a pickle smaller than one built value by
value. ``model_from_state(model_state(m)) == m``, with the same hash and the same answers to
every query; ``tests/test_pickling.py`` checks this on random models and the iCub robots.
A loaded model holds the same plain values as a built one, so a copy exports the same text.
"""

from __future__ import annotations

import copyreg
import struct
from collections.abc import Iterable, Sequence
from itertools import count
from typing import Any

import numpy as np
from pyrsistent import pvector

from robomodel._internal.arrays import frozen_bytes
from robomodel._internal.construct import make
from robomodel.errors import ModelError
from robomodel.model.assembly import with_index
from robomodel.model.joints import (
    FixedJoint,
    JointDynamics,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.record import Link, Model, _model_from_fields
from robomodel.model.shapes import SolidShape
from robomodel.model.spatial import Axis, FloatArray, SpatialInertia, Transform
from robomodel.model.topology import EMPTY_SHAPES, restored_index

__all__ = ["model_from_state", "model_state", "reduce_model"]

VERSION = 4
"""The layout of a state (4: without 3's record of subclass values, which still reads); a state
of another version is refused."""

_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_KINDS: tuple[type, ...] = (FixedJoint, RevoluteJoint, PrismaticJoint)
_KIND_CODE = {cls: k for k, cls in enumerate(_KINDS)}
_PAIR = struct.Struct("<dd").pack
_DYN_KINDS = ("none", "urdf")
_LIMITS = make(PositionLimits)
_DYNAMICS = make(JointDynamics)

_LINK = make(Link)
_INERTIA = make(SpatialInertia)
_TRANSFORM = make(Transform)
_AXIS = make(Axis)
_FIXED = make(FixedJoint)
_REVOLUTE = make(RevoluteJoint)
_PRISMATIC = make(PrismaticJoint)


def _floats(arrays: list[FloatArray]) -> bytes:
    return b"".join([a.tobytes() for a in arrays])


def _floats_of(pairs: list[tuple[float, float]]) -> bytes:
    return np.array(pairs, dtype=_F64).reshape(len(pairs), 2).tobytes()


def _pairs(buf: bytes) -> list[list[float]]:
    out: list[list[float]] = np.frombuffer(buf, _F64).reshape(-1, 2).tolist()
    return out


def _rows(buf: bytes, shape: tuple[int, ...]) -> FloatArray:
    # Read-only over immutable bytes: neither the array nor a view of it can be made writable.
    return frozen_bytes(buf, shape)  # its layout frozen too (robomodel._internal.arrays)


def _shapes(per_link: Sequence[Sequence[SolidShape]]) -> dict[int, tuple[SolidShape, ...]]:
    return {i: tuple(s) for i, s in enumerate(per_link) if len(s)}


def model_state(model: Model) -> tuple[Any, ...] | None:
    """Return ``model``'s persistent content as a tuple of plain, picklable pieces.

    ``None`` when an element is of a subclass of a robomodel class (a joint, link, inertia,
    transform or axis class of the user's own), whose extra content the flat layout would lose:
    pickle it field by field.
    """
    if not all(type(j) in _KIND_CODE for j in model.joints) or not all(
        type(lk) is Link and type(lk.inertia) is SpatialInertia for lk in model.links
    ):
        return None
    if not all(type(j.link1_H_link2) is Transform for j in model.joints) or not all(
        type(j.axis_in_link1) is Axis
        for j in model.joints
        if isinstance(j, RevoluteJoint | PrismaticJoint)
    ):
        return None
    return _state(model)


def _table(keys: Iterable[Any]) -> tuple[list[int], list[int]]:
    """``(code of each key, position of the first key of each code)``: codes count distinct keys.

    Each loop runs in C: ``setdefault`` hands every key the position of its first occurrence.
    """
    first: dict[Any, int] = {}
    at = list(map(first.setdefault, keys, count()))
    dense = dict(zip(first.values(), count()))
    return list(map(dense.__getitem__, at)), list(first.values())


def _state(model: Model) -> tuple[Any, ...]:
    inertias = [lk.inertia for lk in model.links]
    joints = model.joints
    m = len(joints)
    lmap = dict(zip(model.link_names, range(len(model.link_names)), strict=True))
    moving: list[RevoluteJoint | PrismaticJoint] = [j for j in joints if type(j) is not FixedJoint]  # type: ignore[misc]
    # Limits and dynamics take few distinct values in a model: each joint stores the position
    # of its own in a table of them (told apart by their exact bits, -0.0 included).
    lims = [j.limits for j in moving]
    dyns = [j.dynamics for j in moving]
    lcodes, lfirst = _table(
        zip(
            [lim.enabled for lim in lims],
            map(_PAIR, [lim.lower for lim in lims], [lim.upper for lim in lims]),
            strict=True,
        )
    )
    dcodes, dfirst = _table(
        zip(
            [d.kind for d in dyns],
            map(_PAIR, [d.damping for d in dyns], [d.static_friction for d in dyns]),
            strict=True,
        )
    )
    limit_values = list(map(lims.__getitem__, lfirst))
    dynamics_values = list(map(dyns.__getitem__, dfirst))
    ints = np.zeros((m, 5), dtype=_I64)
    if m:
        kinds = ints[:, 0]
        kinds[:] = list(map(_KIND_CODE.__getitem__, map(type, joints)))
        ints[:, 1] = list(map(lmap.__getitem__, [j.link1 for j in joints]))
        ints[:, 2] = list(map(lmap.__getitem__, [j.link2 for j in joints]))
        moving_rows = kinds != 0
        ints[moving_rows, 3] = lcodes
        ints[moving_rows, 4] = dcodes
    rests = [j.link1_H_link2 for j in joints]
    axes = [j.axis_in_link1 for j in moving]
    index = model._index
    return (
        VERSION,
        list(model.link_names),
        np.array([i.mass for i in inertias], dtype=_F64).tobytes(),
        _floats([i.first_moment for i in inertias]),
        _floats([i.rotational_inertia for i in inertias]),
        list(model.joint_names),
        ints.tobytes(),
        _floats([t.rotation for t in rests]),
        _floats([t.position for t in rests]),
        _floats([a.direction for a in axes]),
        _floats([a.origin for a in axes]),
        np.array(
            [[j.effort_limit for j in moving], [j.velocity_limit for j in moving]], dtype=_F64
        ).tobytes(),
        [lim.enabled for lim in limit_values],
        _floats_of([(lim.lower, lim.upper) for lim in limit_values]),
        [_DYN_KINDS.index(d.kind) for d in dynamics_values],
        _floats_of([(d.damping, d.static_friction) for d in dynamics_values]),
        {k: j.mimic for k, j in enumerate(moving) if j.mimic is not None},
        _shapes(model.visuals),
        _shapes(model.collisions),
        tuple(model.frames),
        tuple(model.sensors),
        model.default_base,
        tuple(model.package_dirs),
        model.name,
        tuple(model.materials),
        tuple(model.extensions),
        np.array(index.components, dtype=_I64).tobytes(),
        index.counts,
    )


# ------------------------------------------------------------------ reading a state
def model_from_state(state: tuple[Any, ...]) -> Model:
    """Return the model :func:`model_state` gave ``state`` for, without re-checking it.

    Raises:
        ModelError: ``state`` is not a state of this version of robomodel.
    """
    return _from_state(state)


def _placed(n: int, groups: Iterable[tuple[list[int], list[Any]]]) -> list[Any]:
    """One list of ``n`` items from groups of ``(positions, items)``."""
    out: list[Any] = [None] * n
    for idx, items in groups:
        if len(idx) == n:
            return items
        for i, v in zip(idx, items, strict=True):
            out[i] = v
    return out


def _from_version_3(state: tuple[Any, ...]) -> tuple[Any, ...]:
    """The version-4 state of a version-3 state (robomodel 0.1), or ``state`` unchanged.

    Version 3 ended with a record of the values of subclasses: the URDF loader's, dropped on
    pickling already, and a user's own, restored with their slots. A state holding none reads
    as version 4; one holding a user's is refused (pickle it again, field by field).
    """
    if not (isinstance(state, tuple) and len(state) == 29 and state[0] == 3):
        return state
    records = state[-1]
    if not (isinstance(records, tuple) and len(records) == 2 and not records[1]):
        raise ModelError(
            "this pickle of robomodel 0.1 holds values of a class of your own inside joints "
            "or links, which this version does not restore; pickle it again with 0.1 after "
            "replacing them by robomodel's classes, or save it as JSON"
        )
    return (VERSION, *state[1:-1])


def _from_state(state: tuple[Any, ...]) -> Model:
    state = _from_version_3(state)
    if not isinstance(state, tuple) or len(state) != 28 or state[0] != VERSION:
        raise ModelError(
            "this pickle holds a model in a layout this version of robomodel cannot read; "
            "pickle it again with this version, or save it as URDF"
        )
    (
        _,
        link_names,
        masses,
        moments,
        rotational,
        joint_names,
        ints_buf,
        rotations,
        positions,
        directions,
        origins,
        speeds,
        limits_enabled,
        limits_bounds,
        dynamics_kinds,
        dynamics_numbers,
        mimics,
        visuals,
        collisions,
        frames,
        sensors,
        default_base,
        package_dirs,
        name,
        materials,
        extensions,
        components,
        counts,
    ) = state
    n, m = len(link_names), len(joint_names)
    ints = np.frombuffer(ints_buf, _I64).reshape(m, 5)
    kinds = ints[:, 0]
    is_moving = kinds != 0
    moving_idx = np.flatnonzero(is_moving)
    n_moving = len(moving_idx)
    inertias = list(
        map(
            _INERTIA,
            np.frombuffer(masses, _F64).tolist(),
            _rows(moments, (n, 3)),
            _rows(rotational, (n, 3, 3)),
        )
    )
    rests = list(map(_TRANSFORM, _rows(rotations, (m, 3, 3)), _rows(positions, (m, 3))))
    axes = list(map(_AXIS, _rows(directions, (n_moving, 3)), _rows(origins, (n_moving, 3))))
    links = list(map(_LINK, inertias))
    # Each joint's offset (its first position coordinate and DOF): the moving joints before it.
    offsets = (np.cumsum(is_moving) - is_moving).tolist()
    names1 = list(map(link_names.__getitem__, ints[:, 1].tolist()))
    names2 = list(map(link_names.__getitem__, ints[:, 2].tolist()))
    groups: list[tuple[list[int], list[Any]]] = []
    fixed = np.flatnonzero(~is_moving).tolist()
    if fixed:
        at = [f.__getitem__ for f in (names1, names2, rests, offsets, offsets)]
        groups.append((fixed, list(map(_FIXED, *(map(g, fixed) for g in at)))))
    if n_moving:
        moving = moving_idx.tolist()
        efforts, velocities = np.frombuffer(speeds, _F64).reshape(2, n_moving).tolist()
        bounds = np.frombuffer(limits_bounds, _F64).reshape(-1, 2).T.tolist()
        limit_values = list(map(_LIMITS, limits_enabled, *bounds))
        dynamics_values = [
            _DYNAMICS(_DYN_KINDS[kind], damping, friction)
            for kind, (damping, friction) in zip(
                dynamics_kinds, _pairs(dynamics_numbers), strict=True
            )
        ]
        columns = [
            list(map(names1.__getitem__, moving)),
            list(map(names2.__getitem__, moving)),
            list(map(rests.__getitem__, moving)),
            axes,
            list(map(limit_values.__getitem__, ints[moving_idx, 3].tolist())),
            efforts,
            velocities,
            list(map(dynamics_values.__getitem__, ints[moving_idx, 4].tolist())),
            list(map(mimics.get, range(n_moving))),
            range(n_moving),
            range(n_moving),
        ]
        moving_kinds = kinds[moving_idx]
        for code, make in ((1, _REVOLUTE), (2, _PRISMATIC)):
            sel = np.flatnonzero(moving_kinds == code).tolist()
            if sel:
                at = [c.__getitem__ for c in columns]
                made = list(map(make, *(map(g, sel) for g in at)))
                groups.append((moving_idx[sel].tolist(), made))
    joints = _placed(m, groups)
    vis = [EMPTY_SHAPES] * n
    for i, shapes in visuals.items():
        vis[i] = pvector(shapes)
    col = [EMPTY_SHAPES] * n
    for i, shapes in collisions.items():
        col[i] = pvector(shapes)
    index = restored_index(
        link_names,
        joint_names,
        [f.name for f in frames],
        [s.name for s in sensors],
        np.frombuffer(components, _I64).tolist(),
        counts,
    )
    return with_index(
        index,
        link_names=link_names,
        links=links,
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=default_base,
        visuals=vis,
        collisions=col,
        sensors=sensors,
        package_dirs=package_dirs,
        name=name,
        materials=materials,
        extensions=extensions,
    )


def reduce_model(model: Model) -> tuple[Any, ...]:
    """Return how ``pickle`` and ``copy`` rebuild ``model``: the compact state when it has one.

    A model holding an element of a user's own subclass has none; it goes field by field
    through the checked constructor.
    """
    state = model_state(model)
    if state is None:
        return (_model_from_fields, (model.__getstate__(),))
    return (model_from_state, (state,))


# copyreg instead of Model.__reduce__: the model module then needs no import of this one.
copyreg.pickle(Model, reduce_model)
