"""The links and joints of a robomodel JSON document read column by column.

:mod:`robomodel.formats.json` checks every element of a document on its own, which names the JSON
path of the first problem but costs a dozen Python calls per number. A document written by
:func:`~robomodel.formats.json.to_json` has the same keys in every link and in every joint of a
kind, and floats everywhere; this module reads such a document's links and joints a column at a
time (one value of one key across all elements), checking each column in bulk: the types of
all its items in one ``set(map(type, ...))``, all its numbers finite in one numpy test, every
rotation orthonormal and every axis a unit vector in stacked numpy arithmetic. The values are
then built through the trusted constructors of :mod:`robomodel._internal.construct`, their arrays
read-only rows of one buffer over immutable ``bytes`` (as in a model read from a pickle).

Each reader returns ``None`` as soon as a column is not of that form: an integer where a float
could be, an infinite limit (``"inf"``), a mimic, a rotation or axis near the tolerance
boundaries, or any error at all. The caller then reads the section element by element, which
accepts exactly what it accepted before and raises the error, with its path, that it raised
before: this module only ever accepts what that reader accepts, and builds the same values.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from robomodel._internal.arrays import frozen_bytes
from robomodel._internal.construct import make
from robomodel.model.joints import (
    FixedJoint,
    JointDynamics,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.record import Link
from robomodel.model.spatial import Axis, FloatArray, SpatialInertia, Transform

__all__ = ["bulk_joints", "bulk_links"]

_F64 = np.dtype(np.float64)
_FLOATS = {float}
_LISTS = {list}
_STRS = {str}
_BOOLS = {bool}
_DICTS = {dict}

# Within these the element reader keeps the stored bits (its _EXACT, 1e-12), with a margin
# for the rounding in which numpy's stacked arithmetic may differ from its scalar one.
_KEEP = 0.5e-12

_MOVING = {"revolute": RevoluteJoint, "prismatic": PrismaticJoint}


def _column(items: Sequence[Any], key: str) -> list[Any]:
    # KeyError (a missing key) is the caller's signal to give up.
    return list(map(itemgetter(key), items))


def _objects(items: Sequence[Any], n_keys: int) -> bool:
    """Whether ``items`` are plain objects (no repeated key) of ``n_keys`` keys each."""
    return set(map(type, items)) == _DICTS and set(map(len, items)) == {n_keys}


def _numbers(col: Sequence[Any], *, nonneg: bool = False) -> list[float] | None:
    """``col`` if it holds finite floats only (``>= 0`` if ``nonneg``), else ``None``."""
    if set(map(type, col)) != _FLOATS:
        return None
    a = np.fromiter(col, dtype=_F64, count=len(col))  # as in _rows
    if not np.isfinite(a).all() or (nonneg and not (a >= 0.0).all()):
        return None
    return list(col)


_INFINITIES = {"inf": float("inf"), "-inf": float("-inf")}


def _limits(col: Sequence[Any], *, nonneg: bool = False) -> list[float] | None:
    """As :func:`_numbers`, where a limit may also be ``"inf"`` or ``"-inf"``."""
    if set(map(type, col)) == _FLOATS:
        return _numbers(col, nonneg=nonneg)
    floats = [x for x in col if type(x) is not str]
    if floats and _numbers(floats, nonneg=nonneg) is None:
        return None
    words = {x for x in col if type(x) is str}
    if not words <= _INFINITIES.keys() or (nonneg and "-inf" in words):
        return None
    return [_INFINITIES[x] if type(x) is str else x for x in col]


def _rows(col: Sequence[Any], shape: tuple[int, ...]) -> FloatArray | None:
    """The finite floats of ``col`` (each item nested lists of ``shape``) as one frozen array."""
    items: Sequence[Any] = col
    for size in shape:
        if set(map(type, items)) != _LISTS or set(map(len, items)) != {size}:
            return None
        items = list(chain.from_iterable(items))
    if set(map(type, items)) != _FLOATS:
        return None
    # Floats only (checked above): fromiter stores each one's double as it is, as np.array
    # would, in a third of the time (no search for nested sequences).
    a = np.fromiter(items, dtype=_F64, count=len(items))
    if not np.isfinite(a).all():
        return None
    # Over immutable bytes, as a FrozenArray: no view of it can be made writable or reshaped.
    return frozen_bytes(a.tobytes(), (len(col), *shape))


def _transforms(col: Sequence[Any]) -> list[Transform] | None:
    """The transforms of ``{"rotation", "position"}`` objects whose rotations keep their bits."""
    if not _objects(col, 2):
        return None
    R = _rows(_column(col, "rotation"), (3, 3))
    p = _rows(_column(col, "position"), (3,))
    if R is None or p is None:
        return None
    # The element reader's test, stacked: max |R^T R - I| and det R.
    # Huge finite entries overflow to inf/NaN here; those fail the test (and the element
    # reader then names them), so numpy's overflow warnings are not wanted.
    with np.errstate(all="ignore"):
        RtR = np.einsum("kji,kjl->kil", R, R)
        err = np.abs(RtR - np.eye(3)).max(axis=(1, 2)) if len(R) else np.zeros(0)
        ok = (err <= _KEEP).all() and (np.linalg.det(R) > 0.0).all()
    if not ok:
        return None
    return list(map(make(Transform), R, p))


def bulk_links(items: Any) -> tuple[list[str], list[Link]] | None:
    """The names and links of a document's ``"links"``, or ``None``: read them one by one."""
    if type(items) is not list or not items or not _objects(items, 4):
        return None
    try:
        names = _column(items, "name")
        masses = _numbers(_column(items, "mass"), nonneg=True)
        h = _rows(_column(items, "first_moment"), (3,))
        inertia = _rows(_column(items, "rotational_inertia"), (3, 3))
    except KeyError:
        return None
    if set(map(type, names)) != _STRS or masses is None or h is None or inertia is None:
        return None
    if not (inertia == inertia.transpose(0, 2, 1)).all():  # exactly symmetric, as one by one
        return None
    return names, list(map(make(Link), map(make(SpatialInertia), masses, h, inertia)))


def _axes(col: Sequence[Any]) -> list[Axis] | None:
    """The axes of ``{"direction", "origin"}`` objects whose directions keep their bits."""
    if not _objects(col, 2):
        return None
    d = _rows(_column(col, "direction"), (3,))
    o = _rows(_column(col, "origin"), (3,))
    if d is None or o is None:
        return None
    with np.errstate(all="ignore"):  # a huge direction overflows: not a unit one, either way
        unit = (np.abs(np.sqrt((d * d).sum(axis=1)) - 1.0) <= _KEEP).all()
    if not unit:
        return None
    return list(map(make(Axis), d, o))


def _moving(items: list[Any], offsets: list[int]) -> list[Any] | None:
    """The joints of moving ``items`` at ``offsets``, or ``None``."""
    if not _objects(items, 11):
        return None
    if set(_column(items, "mimic")) != {None}:
        return None
    limits, dynamics = _column(items, "limits"), _column(items, "dynamics")
    if not (_objects(limits, 3) and _objects(dynamics, 3)):
        return None
    enabled = _column(limits, "enabled")
    lower, upper = _limits(_column(limits, "lower")), _limits(_column(limits, "upper"))
    kinds = _column(dynamics, "kind")
    damping = _numbers(_column(dynamics, "damping"), nonneg=True)
    friction = _numbers(_column(dynamics, "static_friction"), nonneg=True)
    effort = _limits(_column(items, "effort_limit"), nonneg=True)
    velocity = _limits(_column(items, "velocity_limit"), nonneg=True)
    if set(map(type, enabled)) != _BOOLS or not set(kinds) <= {"none", "urdf"}:
        return None
    if None in (lower, upper, damping, friction, effort, velocity):
        return None
    if not (np.array(lower) <= np.array(upper)).all():
        return None
    # Damping or friction beside kind "none" is refused by JointDynamics; the element reader
    # says where. Both scans are C loops, and the zip runs only when some value is non-zero.
    if (any(damping) or any(friction)) and any(  # type: ignore[arg-type]
        k == "none" and (d or f)
        for k, d, f in zip(kinds, damping, friction, strict=True)  # type: ignore[arg-type]
    ):
        return None
    rests = _transforms(_column(items, "link1_H_link2"))
    axes = _axes(_column(items, "axis"))
    if rests is None or axes is None:
        return None
    n = len(items)
    return list(
        map(
            make(_MOVING[items[0]["type"]]),
            _column(items, "link1"),
            _column(items, "link2"),
            rests,
            axes,
            map(make(PositionLimits), enabled, lower, upper),  # type: ignore[arg-type]
            effort,  # type: ignore[arg-type]
            velocity,  # type: ignore[arg-type]
            map(make(JointDynamics), kinds, damping, friction),  # type: ignore[arg-type]
            [None] * n,
            offsets,
            offsets,
        )
    )


def bulk_joints(items: Any) -> tuple[list[str], list[Any]] | None:
    """The names and joints of a document's ``"joints"``, or ``None``: read them one by one."""
    if type(items) is not list or not items or set(map(type, items)) != _DICTS:
        return None
    try:
        kinds = _column(items, "type")
        names = _column(items, "name")
        ends1, ends2 = _column(items, "link1"), _column(items, "link2")
        groups: dict[str, list[int]] = {}
        for k, kind in enumerate(kinds):
            groups.setdefault(kind, []).append(k)
        if not set(groups) <= {"fixed", "revolute", "prismatic"}:
            return None
        if set(map(type, names)) != _STRS or set(map(type, chain(ends1, ends2))) != _STRS:
            return None
        # Two different, non-empty link names: what the joint classes check.
        if "" in ends1 or "" in ends2 or any(map(str.__eq__, ends1, ends2)):
            return None
        joints: list[Any] = [None] * len(items)
        # Each joint's offsets (as the model places them): one coordinate and one DOF for each
        # moving joint before it.
        moving = np.array(kinds) != "fixed"
        all_offsets = (np.cumsum(moving) - moving).tolist()
        for kind, idx in groups.items():
            group = list(map(items.__getitem__, idx))
            offsets = list(map(all_offsets.__getitem__, idx))
            if kind == "fixed":
                if not _objects(group, 5):
                    return None
                rests = _transforms(_column(group, "link1_H_link2"))
                if rests is None:
                    return None
                ends = (_column(group, "link1"), _column(group, "link2"))
                made = list(map(make(FixedJoint), *ends, rests, offsets, offsets))
            else:
                made_or_none = _moving(group, offsets)
                if made_or_none is None:
                    return None
                made = made_or_none
            for k, joint in zip(idx, made, strict=True):
                joints[k] = joint
    except (KeyError, TypeError):
        return None
    return names, joints
