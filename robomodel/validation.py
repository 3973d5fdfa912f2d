"""Argument checks shared by every public function, and the one rule for joint values.

Each check returns the value in the form the caller needs (an ``int``, a read-only float64
vector, a list of names) or raises a :class:`~robomodel.errors.RobomodelError` whose message
says what was expected and what was given (``"q must be ... but got q='abc'"``). Library code
calls these instead of writing its own ``isinstance`` and ``np.asarray`` checks, so that one
kind of mistake gets one kind of error everywhere.

Joint values (positions, velocities, accelerations, locked positions) are accepted in one of
two forms wherever a function takes them:

* a vector in the model's coordinate order (``joint.pos_coord_offset`` for positions,
  ``joint.dof_offset`` for velocities and accelerations), of exactly the right size;
* a mapping from joint names to numbers (or to a sequence with one number per coordinate).
  Joints left out are zero with ``missing="zero"`` and an error with ``missing="raise"``;
  fixed joints have no coordinates and may not be named.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from numbers import Integral, Real
from typing import TYPE_CHECKING, Literal, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError, ModelError, UnknownNameError

if TYPE_CHECKING:
    from robomodel.model import Model

__all__ = [
    "STANDARD_GRAVITY",
    "JointValues",
    "Missing",
    "check_choice",
    "check_index",
    "check_name",
    "check_name_list",
    "joint_values",
    "link_index_of",
    "real_array",
    "real_vector",
]

FloatArray: TypeAlias = npt.NDArray[np.float64]
T = TypeVar("T")

STANDARD_GRAVITY: tuple[float, float, float] = (0.0, 0.0, -9.81)
"""The default gravity of every kinematics, dynamics and sensing function (m/s^2, z up)."""

JointValues: TypeAlias = "npt.ArrayLike | Mapping[str, float | Sequence[float]]"
"""Joint values: a vector in coordinate order, or a mapping from joint names to values."""

Missing: TypeAlias = Literal["zero", "raise"]
"""What a joint-name mapping means for the joints it leaves out."""

Coordinates: TypeAlias = Literal["positions", "velocities", "accelerations"]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _where(where: str) -> str:
    return f"{where}: " if where else ""


def check_name(name: object, what: str, *, where: str = "") -> str:
    """Return ``name`` if it is a non-empty string, else raise :class:`ArgumentError`."""
    if type(name) is str and name:
        return name
    raise ArgumentError(
        f"{_where(where)}a {what} name must be a non-empty string, but got {_shown(name)}"
    )


def check_name_list(names: object, what: str, *, where: str = "") -> list[str]:
    """Return ``names`` (an iterable of names, not one string) as a list without repeats.

    Raises:
        ArgumentError: ``names`` is a single string, not iterable, or holds a non-string.
        ModelError: a name is listed twice.
    """
    if isinstance(names, (str, bytes)) or not isinstance(names, Collection):
        raise ArgumentError(
            f"{_where(where)}{what} must be a list of names, but got {_shown(names)}"
            + (" (wrap a single name in a list)" if isinstance(names, str) else "")
        )
    out = list(names)
    seen: set[str] = set()
    for name in out:
        if type(name) is not str or not name:  # check_name's test inline: it is called per name
            check_name(name, what.removesuffix("s"), where=where)
        if name in seen:
            raise ModelError(f"{_where(where)}{name!r} is listed twice in {what}")
        seen.add(name)
    return out


def check_choice(value: T, choices: Sequence[T], what: str, *, where: str = "") -> T:
    """Return ``value`` if it is one of ``choices``, else raise :class:`ArgumentError`."""
    if isinstance(value, (str, int, float, bool, type(None))) and value in choices:
        return value
    options = ", ".join(repr(c) for c in choices)
    raise ArgumentError(f"{_where(where)}{what} must be one of {options}, but got {_shown(value)}")


def check_index(index: object, size: int, kind: str) -> int:
    """Return ``index`` as an ``int`` if it is an integer in ``[0, size)``.

    Raises:
        ArgumentError: ``index`` is not an integer (``bool`` and floats are refused).
        UnknownNameError: ``index`` is out of range (also an ``IndexError``).
    """
    if isinstance(index, bool) or not isinstance(index, (Integral, np.integer)):
        raise ArgumentError(f"a {kind} index must be an int, but got {_shown(index)}")
    i = int(index)
    if not 0 <= i < size:
        raise UnknownNameError(f"{kind} index", i, (), hint=f"valid indices are 0 to {size - 1}")
    return i


def real_array(value: object, what: str, *, shape: tuple[int | None, ...]) -> FloatArray:
    """Return ``value`` as a read-only float64 array of ``shape`` (``None``: any size).

    Refuses strings, mappings, ragged or object arrays, complex numbers, integers too large for
    a float and non-finite entries, each with an :class:`ArgumentError` naming ``what``.
    """
    if isinstance(value, (str, bytes, Mapping)):
        raise ArgumentError(f"{what} must be an array of real numbers, but got {_shown(value)}")
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        raise ArgumentError(
            f"{what} must be an array of real numbers of one shape, but got {_shown(value)}"
        ) from None
    if raw.dtype.kind not in "biuf":
        raise ArgumentError(
            f"{what} must hold real numbers, but got {raw.dtype.name} values: {_shown(value)}"
        )
    try:
        arr = np.array(raw, dtype=np.float64)
    except (ValueError, TypeError, OverflowError):
        raise ArgumentError(
            f"{what} holds a number too large for a float: {_shown(value)}"
        ) from None
    if arr.ndim != len(shape) or any(
        s is not None and s != a for s, a in zip(shape, arr.shape, strict=True)
    ):
        want = "x".join("n" if s is None else str(s) for s in shape) or "a scalar"
        raise ArgumentError(f"{what} must have shape ({want}), but got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ArgumentError(f"{what} must be finite, but got {_shown(arr.tolist())}")
    arr.setflags(write=False)
    return arr


def real_vector(
    value: object, what: str, *, size: int | None = None, count: str = ""
) -> FloatArray:
    """Return ``value`` as a read-only finite float64 vector, of ``size`` entries if given.

    ``count`` names the size in the message (``"n_dofs"``).
    """
    arr = real_array(value, what, shape=(None,))
    if size is not None and arr.shape[0] != size:
        of = f" = {count}" if count else ""
        raise ModelError(
            f"{what} has {arr.shape[0]} entries but the model needs {size}{of}; "
            "give one value per coordinate, or a mapping from joint names"
        )
    return arr


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer)):
        raise ArgumentError(f"{what} must be a real number, but got {_shown(value)}")
    try:
        x = float(value)
    except OverflowError:
        raise ArgumentError(f"{what} is too large for a float: {_shown(value)}") from None
    if not math.isfinite(x):
        raise ArgumentError(f"{what} must be finite, but got {x}")
    return x


def joint_values(
    model: Model,
    values: JointValues | None,
    *,
    kind: Coordinates = "positions",
    missing: Missing = "zero",
    where: str = "",
) -> FloatArray:
    """Return joint ``values`` of ``model`` as a read-only vector in coordinate order.

    Args:
        model: the model the values belong to.
        values: a vector of the right size, a mapping ``joint name -> value`` (a number, or a
            sequence with one number per coordinate), or ``None`` (all zero).
        kind: ``"positions"`` (size ``n_pos_coords``, ``pos_coord_offset``) or ``"velocities"``
            / ``"accelerations"`` (size ``n_dofs``, ``dof_offset``).
        missing: for a mapping, what the moving joints it leaves out get: ``"zero"`` or
            ``"raise"`` (a :class:`ModelError` naming them).
        where: the function or option name, put in front of every message.

    Raises:
        ArgumentError: the values are not numbers, or not finite.
        UnknownNameError: a mapping names a joint the model does not have.
        ModelError: the wrong size, a fixed joint named, or joints missing with
            ``missing="raise"``.
    """
    check_choice(missing, ("zero", "raise"), "missing")
    pos = kind == "positions"
    n = model.n_pos_coords if pos else model.n_dofs
    label = f"{_where(where)}{kind}"
    if values is None:
        return real_vector(np.zeros(n), label)
    if not isinstance(values, Mapping):
        return real_vector(values, label, size=n, count="n_pos_coords" if pos else "n_dofs")
    out = np.zeros(n)
    seen: set[str] = set()
    for name, value in values.items():
        if not isinstance(name, str):
            raise ArgumentError(f"{label}: keys must be joint names, but got {_shown(name)}")
        joint = model.joint(name)
        width = joint.n_pos_coords if pos else joint.n_dofs
        if width == 0:
            raise ModelError(f"{label}: joint {name!r} is fixed and has no {kind}; leave it out")
        if isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, str):
            coords = [_number(v, f"{label} of joint {name!r}") for v in value]
        else:
            coords = [_number(value, f"{label} of joint {name!r}")]
        if len(coords) != width:
            raise ModelError(
                f"{label}: joint {name!r} has {width} coordinate(s), but {len(coords)} value(s) "
                "were given for it"
            )
        start = joint.pos_coord_offset if pos else joint.dof_offset
        out[start : start + width] = coords
        seen.add(name)
    if missing == "raise":
        absent = [
            name
            for name, joint in zip(model.joint_names, model.joints, strict=True)
            if joint.n_dofs and name not in seen
        ]
        if absent:
            raise ModelError(
                f"{label} are missing for joints {absent}; give a value for every moving joint"
            )
    out.setflags(write=False)
    return out


def link_index_of(model: Model, link: object, *, what: str = "base") -> int:
    """Return the link index meant by ``link``: a name, an index, or ``None`` (default base).

    Raises:
        ArgumentError: ``link`` is neither a string nor an integer (``1.0`` and ``True`` are
            refused).
        UnknownNameError: no such link.
    """
    if link is None:
        return model.default_base_index
    if isinstance(link, str):
        return model.link_index(link)
    if isinstance(link, bool) or not isinstance(link, (Integral, np.integer)):
        raise ArgumentError(f"{what} must be a link name or index, but got {_shown(link)}")
    return check_index(link, model.n_links, "link")
