"""The checked walk over a robomodel JSON document: paths, types, numbers, keys, rotations.

:mod:`robomodel.formats.json` reads each element with a :class:`_Reader` positioned at that
element's JSON path, so that every refusal is a :class:`JSONFormatError` naming where in the
document it is (``$.joints[3].axis``). The element readers themselves stay in
:mod:`robomodel.formats.json`, beside the writers of the same elements.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from robomodel.errors import JSONFormatError, ModelError, RobomodelError
from robomodel.model.spatial import (
    ROTATION_TOLERANCE as ROTATION_TOLERANCE,
)
from robomodel.model.spatial import FloatArray, Transform, proper_rotation

_V = TypeVar("_V")


AXIS_TOLERANCE = 1e-9
"""How far a stored axis direction's norm may be from 1: ``| |d| - 1 | <= 1e-9``. Beyond
:data:`_EXACT` it is normalised; beyond this tolerance the document is refused."""

_EXACT = 1e-12
# Below this the stored bits are kept: a model built in Python carries round-off of about 1e-16
# per operation, and re-normalising it would change the last bits and break the exact round trip.

_TRANSFORM_KEYS = frozenset(("rotation", "position"))
_LINK_KEYS = frozenset(("name", "mass", "first_moment", "rotational_inertia"))
_FIXED_KEYS = frozenset(("name", "type", "link1", "link2", "link1_H_link2"))
_MOVING_KEYS = _FIXED_KEYS | {
    "axis",
    "limits",
    "effort_limit",
    "velocity_limit",
    "dynamics",
    "mimic",
}
_TOP_KEYS = frozenset(
    (
        "format",
        "version",
        "name",
        "default_base",
        "links",
        "joints",
        "frames",
        "visuals",
        "collisions",
        "sensors",
        "package_dirs",
        "materials",
        "extensions",
    )
)
_GEOMETRY_KEYS = {
    "box": frozenset(("type", "size")),
    "sphere": frozenset(("type", "radius")),
    "cylinder": frozenset(("type", "radius", "length")),
    "mesh": frozenset(("type", "filename", "scale")),
}
_SENSOR_KEYS = {
    "force_torque": frozenset(
        (
            "type",
            "name",
            "parent_joint",
            "first_link",
            "second_link",
            "first_link_H_sensor",
            "second_link_H_sensor",
            "applied_wrench_link",
        )
    ),
    "accelerometer": frozenset(("type", "name", "link", "link_H_sensor")),
    "gyroscope": frozenset(("type", "name", "link", "link_H_sensor")),
}


class _Duplicated(dict[str, Any]):
    """An object whose text repeats a key (``json.loads`` would silently keep the last)."""

    duplicate = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) == len(pairs):
        return d
    # Reported by the reader, which knows the object's path.
    out = _Duplicated(d)
    seen: set[str] = set()
    for k, _ in pairs:
        if k in seen:
            out.duplicate = k
            break
        seen.add(k)
    return out


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(v), "null" if v is None else repr(v)
    )


class _Reader:
    """Typed access to one JSON object, with the path for error messages."""

    __slots__ = ("d", "path")

    def __init__(self, data: Any, path: str, keys: frozenset[str] | None = None) -> None:
        if type(data) is not dict and (type(data) is _Duplicated or not isinstance(data, dict)):
            if type(data) is _Duplicated:
                raise JSONFormatError(path, f"the key {data.duplicate!r} appears twice")
            raise JSONFormatError(path, f"expected an object, got {_type_name(data)}")
        self.d = data
        self.path = path
        if keys is not None:
            self.only(keys)

    def only(self, keys: frozenset[str]) -> None:
        """Refuse keys outside ``keys`` (a typo would otherwise drop data silently)."""
        if not self.d.keys() <= keys:
            extra = sorted(self.d.keys() - keys)[0]
            raise JSONFormatError(
                self._at(extra), f"unknown key {extra!r} (expected {', '.join(sorted(keys))})"
            )

    def _at(self, key: str) -> str:
        return f"{self.path}.{key}"

    def get(self, key: str) -> Any:
        try:
            return self.d[key]
        except KeyError:
            raise JSONFormatError(self.path, f"missing key {key!r}") from None

    def text(self, key: str) -> str:
        v = self.get(key)
        if type(v) is not str:
            raise JSONFormatError(self._at(key), f"expected a string, got {_type_name(v)}")
        return v

    def opt_str(self, key: str) -> str | None:
        v = self.get(key)
        return None if v is None else self.text(key)

    def flag(self, key: str) -> bool:
        v = self.get(key)
        if type(v) is not bool:
            raise JSONFormatError(self._at(key), f"expected true or false, got {_type_name(v)}")
        return v

    def num(self, key: str, *, inf: bool = False, nonneg: bool = False) -> float:
        x = _num(self.get(key), self._at(key), inf)
        if nonneg and not x >= 0.0:
            raise JSONFormatError(self._at(key), f"expected a number >= 0, got {x!r}")
        return x

    def vec(self, key: str, n: int) -> FloatArray:
        return np.array(_floats(self.get(key), self._at(key), n))

    def mat33(self, key: str) -> list[list[float]]:
        v = self.get(key)
        path = self._at(key)
        if type(v) is not list or len(v) != 3:
            raise JSONFormatError(path, f"expected 3 rows of 3 numbers, got {_type_name(v)}")
        return [_floats(row, f"{path}[{i}]", 3) for i, row in enumerate(v)]

    def rotation(self, key: str = "rotation") -> FloatArray:
        return _rotation(self.mat33(key), self._at(key))

    def obj(self, key: str, keys: frozenset[str] | None = None) -> _Reader:
        return _Reader(self.get(key), self._at(key), keys)

    def texts(self, key: str) -> tuple[str, ...]:
        """An optional list of XML element texts (absent: none)."""
        if key not in self.d:
            return ()
        items = self.seq(key)
        for k, x in enumerate(items):
            if type(x) is not str or not x.lstrip().startswith("<"):
                raise JSONFormatError(
                    f"{self._at(key)}[{k}]", f"expected XML text, got {_type_name(x)}"
                )
        return tuple(items)

    def seq(self, key: str) -> list[Any]:
        v = self.get(key)
        if type(v) is not list:
            raise JSONFormatError(self._at(key), f"expected a list, got {_type_name(v)}")
        return v

    def items(self, key: str, keys: frozenset[str] | None = None) -> list[_Reader]:
        at = self._at(key)
        return [_Reader(x, f"{at}[{k}]", keys) for k, x in enumerate(self.seq(key))]


def _num(v: Any, path: str, inf: bool) -> float:
    t = type(v)
    if t is float:
        x = v
    elif t is int:
        try:
            x = float(v)
        except OverflowError:
            raise JSONFormatError(path, "expected a number within the float range") from None
    elif inf and v in ("inf", "-inf"):
        return math.inf if v == "inf" else -math.inf
    else:
        raise JSONFormatError(path, f"expected a number, got {_type_name(v)}")
    if x - x != 0.0:
        # json.loads reads NaN and Infinity literals (and 1e400 as inf), which dumps never
        # writes.
        hint = ' (write "inf" or "-inf" for an unbounded limit)' if inf else ""
        raise JSONFormatError(path, f"expected a finite number, got {x}{hint}")
    return float(x) + 0.0  # canonical: -0.0 is stored as 0.0


def _floats(v: Any, path: str, n: int) -> list[float]:
    """``n`` finite numbers; the common case (floats only) in one pass."""
    if type(v) is not list or len(v) != n:
        raise JSONFormatError(path, f"expected a list of {n} numbers, got {_type_name(v)}")
    for x in v:
        if type(x) is not float or x - x != 0.0:
            return [_num(x, f"{path}[{i}]", False) for i, x in enumerate(v)]
    return v


def _rotation(rows: list[list[float]], path: str) -> FloatArray:
    # The one rule of every rotation (robomodel.model.spatial.proper_rotation), named by path.
    try:
        return proper_rotation(np.array(rows))
    except ModelError as e:
        raise JSONFormatError(path, str(e).replace("give a proper", "store a proper")) from None


def _read_T(r: _Reader) -> Transform:
    r.only(_TRANSFORM_KEYS)
    return Transform._raw(r.rotation(), r.vec("position", 3))


def _made(path: str, make: Callable[..., _V], *args: Any, **kwargs: Any) -> _V:
    """``make(*args, **kwargs)``, its refusal (a ModelError, ValueError, ...) at ``path``."""
    try:
        return make(*args, **kwargs)
    except JSONFormatError:
        raise
    except (RobomodelError, ValueError, TypeError) as err:
        # At the top level the document is well formed but its model is not (an unknown link,
        # a loop, ...).
        reason = f"the model it describes is not valid: {err}" if path == "$" else str(err)
        raise JSONFormatError(path, reason) from None
