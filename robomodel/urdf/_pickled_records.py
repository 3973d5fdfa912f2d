"""The URDF number records of a model's values (``_sourced``), packed into a few flat buffers.

A model loaded from URDF holds three records per link: the ``<inertial>`` numbers of its
inertia, the ``<origin>`` numbers of its joint's rest transform and the ``<axis>`` numbers of
its axis. They travel with a pickled model (:mod:`robomodel._pickling`) so that the copy
exports the same text, but pickling them as Python tuples, a dozen floats each, cost more than
the rest of the model. :func:`pack` stores all records of one kind as one float64 buffer (and
the inverted flags of the origins as one bool buffer), and :func:`build` rebuilds the values
with their records, every loop in C (``map``, ``zip``); the rebuilt records are tuples of
Python floats and bools again, bit for bit the ones packed.

Only the loader's own shape of record is packed: a record holding anything else (a number of
another type, an axis read with another rest transform than its joint's) is left to the
caller, which carries such values one by one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from robomodel._construct import set_derived, trusted
from robomodel.spatial import Axis, SpatialInertia, Transform
from robomodel.urdf._sourced import SourcedAxis, SourcedInertia, SourcedTransform

__all__ = ["Packed", "build", "pack"]

Packed = tuple[bytes, bytes, bytes, bytes, bytes, bytes, bytes]
"""``(inertia mask, inertial numbers, origin mask, origin numbers, inverted flags, axis mask,
axis numbers)``: each mask one bool per value (is it packed), each numbers buffer float64."""

_F64 = np.dtype(np.float64)
_BOOL = np.dtype(np.bool_)
_drain: Callable[[Iterable[Any]], None] = deque(maxlen=0).extend  # runs an iterator in C
_ITEMS = [itemgetter(k) for k in range(4)]


def _numbers(records: list[Any], sizes: Sequence[int | None]) -> bytes | None:
    """The numbers of ``records`` column by column, or ``None`` if one is not of the shape.

    A record is a tuple of ``len(sizes)`` items; item ``k`` is one number (``sizes[k]`` is
    ``None``), a bool (``0``, packed apart) or a sequence of ``sizes[k]`` numbers. Each number
    is stored as the float64 the exporter writes (it formats ``float(x)``).
    """
    if not records:
        return b""
    if set(map(len, records)) != {len(sizes)}:
        return None
    parts: list[Iterable[Any]] = []
    width = 0
    for get, size in zip(_ITEMS, sizes, strict=False):
        if size is None:
            parts.append(map(get, records))
            width += 1
        elif size:
            items = list(map(get, records))
            if set(map(len, items)) != {size}:
                return None
            parts.append(chain.from_iterable(items))
            width += size
    try:
        flat = np.fromiter(chain.from_iterable(parts), _F64)
    except (TypeError, ValueError):
        return None
    return flat.tobytes() if len(flat) == width * len(records) else None


def _columns(buf: bytes, k: int, sizes: Sequence[int | None]) -> list[Iterable[Any]]:
    """The columns :func:`_numbers` packed for ``k`` records.

    A number column is a list of Python floats; a vector column a list of read-only rows of
    one array over ``buf`` (views cost a third of a tuple of floats each, and are not objects
    the garbage collector has to scan).
    """
    flat = np.frombuffer(buf, _F64)
    out: list[Iterable[Any]] = []
    at = 0
    for size in sizes:
        width = 1 if size is None else size
        part = flat[at : at + k * width]
        at += k * width
        out.append(part.tolist() if size is None else list(part.reshape(k, width)))
    return out


def _mask(values: Sequence[Any], cls: type, slot: str) -> tuple[list[bool], list[Any]]:
    """Which ``values`` are of ``cls``, and their records."""
    mask = [type(v) is cls for v in values]
    return mask, [getattr(v, slot) for v in compress(values, mask)]


_INERTIAL = (None, 3, 3, 6)
_ORIGIN = (3, 3, 0)
_AXIS = (3, 0)  # the rest transform: not a number, not packed


def pack(
    inertias: Sequence[SpatialInertia],
    rests: Sequence[Transform],
    axes: Sequence[Axis],
    axis_rests: Sequence[Transform],
) -> tuple[Packed, list[bool], list[bool], list[bool]] | None:
    """Pack the records of a model's link inertias, joint rest transforms and moving axes.

    ``axis_rests[k]`` is the rest transform of the joint of ``axes[k]``: an axis record is
    packed only while it names that very transform, as the loader made it. Returns the buffers
    and, per kind, which values they hold (the others, of a record-carrying class or not, are
    the caller's); ``None`` when no value has a record this module packs. The records of a kind
    are packed all or none: one not of the loader's shape leaves its kind to the caller.
    """
    none = ([False] * len(inertias), [False] * len(rests), [False] * len(axes))
    inertia_mask, inertials = _mask(inertias, SourcedInertia, "urdf_inertial")
    origin_mask, origins = _mask(rests, SourcedTransform, "urdf_origin")
    axis_mask = [
        type(a) is SourcedAxis and a.urdf_axis[1] is t
        for a, t in zip(axes, axis_rests, strict=True)
    ]
    axis_records = [a.urdf_axis for a in compress(axes, axis_mask)]  # type: ignore[attr-defined]
    i_numbers = _numbers(inertials, _INERTIAL)
    o_numbers = _numbers(origins, _ORIGIN)
    a_numbers = _numbers(axis_records, _AXIS)
    inverted = [o[2] for o in origins] if o_numbers is not None else []
    if set(map(type, inverted)) - {bool}:
        o_numbers = None
    if i_numbers is None:
        inertia_mask, i_numbers = none[0], b""
    if o_numbers is None:
        origin_mask, o_numbers, inverted = none[1], b"", []
    if a_numbers is None:
        axis_mask, a_numbers = none[2], b""
    if not (any(inertia_mask) or any(origin_mask) or any(axis_mask)):
        return None
    packed = (
        np.array(inertia_mask, _BOOL).tobytes(),
        i_numbers,
        np.array(origin_mask, _BOOL).tobytes(),
        o_numbers,
        np.array(inverted, _BOOL).tobytes(),
        np.array(axis_mask, _BOOL).tobytes(),
        a_numbers,
    )
    return packed, inertia_mask, origin_mask, axis_mask


_SOURCED_INERTIA = trusted(SourcedInertia)
_SOURCED_TRANSFORM = trusted(SourcedTransform)
_SOURCED_AXIS = trusted(SourcedAxis)


def _built(
    mask_buf: bytes,
    base: Callable[..., Any],
    sourced: Callable[..., Any],
    slot: str,
    records: Callable[[list[int]], Iterable[Any]],
    columns: Sequence[Sequence[Any]],
) -> list[Any]:
    """The values of ``columns``: of the sourced class with their record where the mask says."""
    mask = np.frombuffer(mask_buf, _BOOL)
    n = len(mask)
    idx = np.flatnonzero(mask).tolist()
    if len(idx) == n:
        out = list(map(sourced, *columns))
        _drain(map(set_derived, out, repeat(slot), records(idx)))
        return out
    out = list(map(base, *columns))
    if idx:
        subs = list(map(sourced, *(map(c.__getitem__, idx) for c in columns)))
        _drain(map(set_derived, subs, repeat(slot), records(idx)))
        for i, v in zip(idx, subs, strict=True):
            out[i] = v
    return out


def build(
    packed: Packed,
    makers: tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]],
    inertia_fields: Sequence[Sequence[Any]],
    rest_fields: Sequence[Sequence[Any]],
    axis_fields: Sequence[Sequence[Any]],
    axis_joints: Sequence[int],
) -> tuple[list[SpatialInertia], list[Transform], list[Axis]]:
    """Rebuild the inertias, rest transforms and axes of a model with their packed records.

    ``makers`` are the trusted makers of the plain classes, for the values without a record;
    each ``*_fields`` holds the checked fields of every value, column by column (masses, first
    moments, rotational inertias; rotations, positions; directions, origins), and
    ``axis_joints[k]`` the joint of axis ``k``, whose rebuilt rest transform its record names.
    """
    i_mask, i_numbers, o_mask, o_numbers, inverted, a_mask, a_numbers = packed
    inertia, transform, axis = makers

    def inertials(idx: list[int]) -> Iterable[Any]:
        return zip(*_columns(i_numbers, len(idx), _INERTIAL), strict=True)

    def origins(idx: list[int]) -> Iterable[Any]:
        xyz, rpy = _columns(o_numbers, len(idx), _ORIGIN[:2])
        return zip(xyz, rpy, np.frombuffer(inverted, _BOOL).tolist(), strict=True)

    inertias = _built(i_mask, inertia, _SOURCED_INERTIA, "urdf_inertial", inertials, inertia_fields)
    rests = _built(o_mask, transform, _SOURCED_TRANSFORM, "urdf_origin", origins, rest_fields)

    def axis_records(idx: list[int]) -> Iterable[Any]:
        (xyz,) = _columns(a_numbers, len(idx), _AXIS[:1])
        return zip(xyz, map(rests.__getitem__, map(axis_joints.__getitem__, idx)), strict=True)

    axes = _built(a_mask, axis, _SOURCED_AXIS, "urdf_axis", axis_records, axis_fields)
    return inertias, rests, axes
