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
:mod:`robomodel._construct`: every field in a state was checked when the model was built, and a
pickle can only ever be loaded from a trusted source (unpickling runs arbitrary code). The arrays
of the rebuilt values are read-only views of one buffer over immutable ``bytes`` (so, as
:func:`robomodel._arrays.immutable` guarantees for single arrays, no view can be made writable
again), which is also what makes a model loaded from a pickle smaller than one built value by
value. ``model_from_state(model_state(m)) == m``, with the same hash and the same answers to
every query; ``tests/test_pickling.py`` checks this on random models and the iCub robots.

As before this layout, the URDF text a loaded value remembers (``robomodel.urdf._sourced``)
does not travel: the copy's arrays are bit-identical, but ``urdf.dumps`` computes their text
afresh, which can differ from the original file in the last digit.
"""

from __future__ import annotations

import copyreg
import struct
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from pyrsistent import pvector

from robomodel._arrays import frozen_bytes
from robomodel._construct import gc_paused, set_derived, trusted
from robomodel._topology import EMPTY_SHAPES, restored_index
from robomodel.errors import ModelError
from robomodel.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model import Link, Model, _evolve, _model_from_fields
from robomodel.shapes import SolidShape
from robomodel.spatial import Axis, FloatArray, SpatialInertia, Transform

__all__ = ["model_from_state", "model_state", "reduce_model"]

VERSION = 2
"""The layout of a state; a state of another version is refused."""

_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_KINDS: tuple[type, ...] = (FixedJoint, RevoluteJoint, PrismaticJoint)
_KIND_CODE = {cls: k for k, cls in enumerate(_KINDS)}
_PAIR = struct.Struct("<dd").pack
_DYN_KINDS = ("none", "urdf")
_LIMITS = trusted(PositionLimits)
_DYNAMICS = trusted(JointDynamics)

_LINK = trusted(Link)
_INERTIA = trusted(SpatialInertia)
_TRANSFORM = trusted(Transform)
_AXIS = trusted(Axis)
_FIXED = trusted(FixedJoint)
_REVOLUTE = trusted(RevoluteJoint)
_PRISMATIC = trusted(PrismaticJoint)
_EMPTY_MODEL = Model()


def _floats(arrays: Iterable[FloatArray]) -> bytes:
    return b"".join([a.tobytes() for a in arrays])


def _floats_of(pairs: list[tuple[float, float]]) -> bytes:
    return np.array(pairs, dtype=_F64).reshape(len(pairs), 2).tobytes()


def _pairs(buf: bytes) -> list[list[float]]:
    out: list[list[float]] = np.frombuffer(buf, _F64).reshape(-1, 2).tolist()
    return out


def _rows(buf: bytes, shape: tuple[int, ...]) -> FloatArray:
    # Read-only over immutable bytes: neither the array nor a view of it can be made writable.
    return frozen_bytes(buf, shape)  # its layout frozen too (robomodel._arrays)


def _shapes(per_link: Sequence[Sequence[SolidShape]]) -> dict[int, tuple[SolidShape, ...]]:
    return {i: tuple(s) for i, s in enumerate(per_link) if len(s)}


def model_state(model: Model) -> tuple[Any, ...] | None:
    """Return ``model``'s persistent content as a tuple of plain, picklable pieces.

    ``None`` when an element is of a subclass of a robomodel class (a joint or link class of
    the user's own), whose extra content the flat layout would lose: pickle it field by field.
    """
    if not all(type(j) in _KIND_CODE for j in model.joints) or not all(
        type(lk) is Link for lk in model.links
    ):
        return None
    with gc_paused():  # thousands of short-lived containers, no cycles
        return _state(model)


def _state(model: Model) -> tuple[Any, ...]:
    inertias = [lk.inertia for lk in model.links]
    joints = model.joints
    lmap = dict(zip(model.link_names, range(len(model.link_names)), strict=True))
    moving: list[RevoluteJoint | PrismaticJoint] = [j for j in joints if type(j) is not FixedJoint]  # type: ignore[misc]
    # Limits and dynamics take few distinct values in a model: each joint stores the position
    # of its own in a table of them (told apart by their exact bits, -0.0 included).
    limits: dict[tuple[bool, bytes], int] = {}
    dynamics: dict[tuple[str, bytes], int] = {}
    limit_values: list[PositionLimits] = []
    dynamics_values: list[JointDynamics] = []
    ints: list[int] = []
    for joint in joints:
        if type(joint) is FixedJoint:
            ints += (0, lmap[joint.link1], lmap[joint.link2], 0, 0)
            continue
        lim, dyn = joint.limits, joint.dynamics  # type: ignore[union-attr]
        lkey = (lim.enabled, _PAIR(lim.lower, lim.upper))
        lcode = limits.get(lkey)
        if lcode is None:
            lcode = limits[lkey] = len(limit_values)
            limit_values.append(lim)
        dkey = (dyn.kind, _PAIR(dyn.damping, dyn.static_friction))
        dcode = dynamics.get(dkey)
        if dcode is None:
            dcode = dynamics[dkey] = len(dynamics_values)
            dynamics_values.append(dyn)
        ints += (_KIND_CODE[type(joint)], lmap[joint.link1], lmap[joint.link2], lcode, dcode)
    speeds = [(j.effort_limit, j.velocity_limit) for j in moving]
    index = model._index
    return (
        VERSION,
        list(model.link_names),
        np.array([i.mass for i in inertias], dtype=_F64).tobytes(),
        _floats(i.first_moment for i in inertias),
        _floats(i.rotational_inertia for i in inertias),
        list(model.joint_names),
        np.array(ints, dtype=_I64).tobytes(),
        _floats(j.link1_H_link2.rotation for j in joints),
        _floats(j.link1_H_link2.position for j in joints),
        _floats(j.axis_in_link1.direction for j in moving),
        _floats(j.axis_in_link1.origin for j in moving),
        np.array(speeds, dtype=_F64).reshape(len(moving), 2).tobytes(),
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
        _extras(model),
    )


def _extra_slots(value: object, base: type) -> tuple[type, dict[str, Any]] | None:
    """The class and extra slots of ``value`` when it is of a subclass of ``base``, else None.

    The URDF loader's values remember the numbers they were read from in such slots (outside
    ``==``); the exporter needs them to write a loaded model back exactly, so they travel too.
    """
    cls = type(value)
    if cls is base:
        return None
    names = [
        n
        for k in cls.__mro__
        if k is not base and issubclass(k, base)
        for n in k.__dict__.get("__slots__", ())
    ]
    return cls, {n: getattr(value, n) for n in names if hasattr(value, n)}


def _extras(model: Model) -> dict[tuple[str, int], tuple[type, dict[str, Any]]]:
    out: dict[tuple[str, int], tuple[type, dict[str, Any]]] = {}
    for i, link in enumerate(model.links):
        e = _extra_slots(link.inertia, SpatialInertia)
        if e is not None:
            out["inertia", i] = e
    for j, joint in enumerate(model.joints):
        e = _extra_slots(joint.link1_H_link2, Transform)
        if e is not None:
            out["rest", j] = e
        if type(joint) is not FixedJoint:
            e = _extra_slots(joint.axis_in_link1, Axis)  # type: ignore[union-attr]
            if e is not None:
                out["axis", j] = e
    return out


_SUBCLASS_MAKERS: dict[type, Any] = {}


def _made(
    extras: dict[tuple[str, int], tuple[type, dict[str, Any]]],
    key: tuple[str, int],
    make: Any,
    *fields: Any,
) -> Any:
    """Build a value from checked ``fields``: of its recorded subclass, with its slots, if any."""
    extra = extras.get(key)
    if extra is None:
        return make(*fields)
    cls, slots = extra
    sub = _SUBCLASS_MAKERS.get(cls)
    if sub is None:
        sub = _SUBCLASS_MAKERS[cls] = trusted(cls)
    value = sub(*fields)
    for name, v in slots.items():
        set_derived(value, name, v)
    return value


def model_from_state(state: tuple[Any, ...]) -> Model:
    """Return the model :func:`model_state` gave ``state`` for, without re-checking it.

    Raises:
        ModelError: ``state`` is not a state of this version of robomodel.
    """
    with gc_paused():  # thousands of new values, no cycles (as in the URDF loader)
        return _from_state(state)


def _from_state(state: tuple[Any, ...]) -> Model:
    if not isinstance(state, tuple) or len(state) != 29 or state[0] != VERSION:
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
        extras,
    ) = state
    n, m = len(link_names), len(joint_names)
    links = [
        _LINK(_made(extras, ("inertia", i), _INERTIA, mass, h, i_o))
        for i, (mass, h, i_o) in enumerate(
            zip(
                np.frombuffer(masses, _F64).tolist(),
                _rows(moments, (n, 3)),
                _rows(rotational, (n, 3, 3)),
                strict=True,
            )
        )
    ]
    kinds, ends1, ends2, limit_codes, dynamics_codes = (
        np.frombuffer(ints_buf, _I64).reshape(m, 5).T.tolist() if m else ([],) * 5
    )
    n_moving = len(directions) // 24
    directions_ = _rows(directions, (n_moving, 3))
    origins_ = _rows(origins, (n_moving, 3))
    efforts, velocities = (
        np.frombuffer(speeds, _F64).reshape(n_moving, 2).T.tolist() if n_moving else ([], [])
    )
    limit_values = [
        _LIMITS(bool(on), lower, upper)
        for on, (lower, upper) in zip(limits_enabled, _pairs(limits_bounds), strict=True)
    ]
    dynamics_values = [
        _DYNAMICS(_DYN_KINDS[kind], damping, friction)
        for kind, (damping, friction) in zip(dynamics_kinds, _pairs(dynamics_numbers), strict=True)
    ]
    joints: list[Joint] = []
    k = 0  # moving joints have one position coordinate and one DOF each
    for j, (R, p, kind, a, b, lc, dc) in enumerate(
        zip(
            _rows(rotations, (m, 3, 3)),
            _rows(positions, (m, 3)),
            kinds,
            ends1,
            ends2,
            limit_codes,
            dynamics_codes,
            strict=True,
        )
    ):
        if kind == 0:
            rest = _made(extras, ("rest", j), _TRANSFORM, R, p)
            joints.append(_FIXED(link_names[a], link_names[b], rest, k, k))
            continue
        joints.append(
            (_REVOLUTE if kind == 1 else _PRISMATIC)(
                link_names[a],
                link_names[b],
                _made(extras, ("rest", j), _TRANSFORM, R, p),
                _made(extras, ("axis", j), _AXIS, directions_[k], origins_[k]),
                limit_values[lc],
                efforts[k],
                velocities[k],
                dynamics_values[dc],
                mimics.get(k),
                k,
                k,
            )
        )
        k += 1
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
    return _evolve(
        _EMPTY_MODEL,
        link_names=pvector(link_names),
        links=pvector(links),
        joint_names=pvector(joint_names),
        joints=pvector(joints),
        frames=pvector(frames),
        default_base=default_base,
        visuals=pvector(vis),
        collisions=pvector(col),
        sensors=pvector(sensors),
        package_dirs=pvector(package_dirs),
        name=name,
        materials=pvector(materials),
        extensions=pvector(extensions),
        _index=index,
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
