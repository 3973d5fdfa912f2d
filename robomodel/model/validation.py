"""Argument checks shared by every public function: one kind of mistake, one kind of error.

Each check returns the value in the form the caller needs (an ``int``, a read-only float64
vector, a list of names) or raises a :class:`~robomodel.errors.RobomodelError` whose message
says what was expected and what was given (``"q must be ... but got q='abc'"``). Library code
calls these instead of writing its own ``isinstance`` and ``np.asarray`` checks, so that one
kind of mistake gets one kind of error everywhere: a value of the wrong type or form (a
string, a mapping, a ragged list, complex or non-finite numbers, an integer too large for a
float, ``base=1.0``) is an :class:`~robomodel.errors.ArgumentError` (also a ``TypeError`` and a
``ValueError``), a size that does not fit the model a :class:`~robomodel.errors.ModelError`,
and a name or index the model does not have an :class:`~robomodel.errors.UnknownNameError`.

Names are any ``str`` (``np.str_`` included, kept as the plain ``str`` it equals). Joint values
(positions, velocities, accelerations, locked positions) follow one rule, that of
:mod:`robomodel.physics.joint_state`: a vector in coordinate order, a mapping from joint names, or
a ``JointState``; ``None`` and the joints a mapping leaves out are zero exactly where the
argument itself may be left out.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from numbers import Integral, Real
from typing import Any, ParamSpec, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError, ModelError, UnknownIndexError

__all__ = [
    "STANDARD_GRAVITY",
    "check_choice",
    "check_index",
    "check_length",
    "check_name",
    "check_name_list",
    "check_tolerance",
    "check_type",
    "fixed_vector",
    "keyword_options",
    "read_only",
    "real_array",
    "real_number",
    "real_vector",
    "shown",
    "where_prefix",
]

FloatArray: TypeAlias = npt.NDArray[np.float64]
T = TypeVar("T")
P = ParamSpec("P")

STANDARD_GRAVITY: tuple[float, float, float] = (0.0, 0.0, -9.81)
"""The default gravity of every kinematics, dynamics and sensing function (m/s^2, z up)."""


def shown(value: object) -> str:
    """``value`` as messages show it (its repr, cut short)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def where_prefix(where: str) -> str:
    """The prefix ``"where: "`` of a message, or nothing when ``where`` is empty."""
    return f"{where}: " if where else ""


def check_type(value: T, cls: type | tuple[type, ...], what: str) -> T:
    """Return ``value`` if it is an instance of ``cls``, else raise :class:`ArgumentError`.

    >>> check_type(3, int, "n")
    3
    """
    if isinstance(value, cls):
        return value
    names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
    raise ArgumentError(f"{what} must be a {names}, but got {shown(value)}")


def check_name(name: object, what: str, *, where: str = "") -> str:
    """Return ``name`` as a plain ``str`` if it is a non-empty string; else :class:`ArgumentError`.

    Any ``str`` is a name, subclasses included: indexing a numpy array of names gives
    ``np.str_``, which is stored as the plain ``str`` it equals (so reprs and pickles of the
    model do not depend on numpy).

    >>> import numpy as np
    >>> type(check_name(np.array(["arm"])[0], "link"))
    <class 'str'>
    """
    if type(name) is str and name and not name.isspace() and name.isprintable():
        return name
    if isinstance(name, str) and name and not name.isspace() and name.isprintable():
        return str.__str__(name)
    raise ArgumentError(
        f"{where_prefix(where)}a {what} name must be a non-empty string of printable characters, "
        f"not only spaces (every file format must hold it), but got {shown(name)}"
    )


def check_name_list(names: object, what: str, *, where: str = "") -> list[str]:
    """Return ``names`` (an iterable of names, not one string) as a list without repeats.

    Raises:
        ArgumentError: ``names`` is a single string, not iterable, or holds a non-string.
        ModelError: a name is listed twice.
    """
    if isinstance(names, (str, bytes)) or not isinstance(names, Collection):
        raise ArgumentError(
            f"{where_prefix(where)}{what} must be a list of names, but got {shown(names)}"
            + (" (wrap a single name in a list)" if isinstance(names, str) else "")
        )
    out = list(names)
    seen: set[str] = set()
    for k, name in enumerate(out):
        if type(name) is not str or not name:  # check_name's test inline: it is called per name
            name = out[k] = check_name(name, what.removesuffix("s"), where=where)
        if name in seen:
            raise ModelError(f"{where_prefix(where)}{name!r} is listed twice in {what}")
        seen.add(name)
    return out


def check_choice(value: T, choices: Sequence[T], what: str, *, where: str = "") -> T:
    """Return ``value`` if it is one of ``choices``, else raise :class:`ArgumentError`."""
    if isinstance(value, (str, int, float, bool, type(None))) and value in choices:
        return value
    options = ", ".join(repr(c) for c in choices)
    raise ArgumentError(
        f"{where_prefix(where)}{what} must be one of {options}, but got {shown(value)}"
    )


def check_index(index: object, size: int, kind: str) -> int:
    """Return ``index`` as an ``int`` if it is an integer in ``[0, size)``.

    Raises:
        ArgumentError: ``index`` is not an integer (``bool`` and floats are refused).
        UnknownIndexError: ``index`` is out of range (an :class:`UnknownNameError` and an
            ``IndexError``).
    """
    if isinstance(index, bool) or not isinstance(index, (Integral, np.integer)):
        raise ArgumentError(f"a {kind} index must be an int, but got {shown(index)}")
    i = int(index)
    if not 0 <= i < size:
        raise UnknownIndexError(kind, i, size)
    return i


def _shape_text(shape: Sequence[int | None]) -> str:
    if not shape:
        return "a scalar"
    dims = ["N" if s is None else str(s) for s in shape]
    return f"({dims[0]},)" if len(dims) == 1 else f"({', '.join(dims)})"


def _as_numbers(value: object, what: str) -> npt.NDArray[Any]:
    """``np.asarray(value)`` holding real numbers, or an :class:`ArgumentError` saying why not."""
    if isinstance(value, (str, bytes)) or (
        # Lists and tuples, the common case, skip the slower abstract-class check.
        not isinstance(value, (list, tuple)) and isinstance(value, Mapping)
    ):
        raise ArgumentError(
            f"{what} must be an array of real numbers, but got {type(value).__name__} "
            f"{shown(value)}"
        )
    try:
        raw = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        raise ArgumentError(
            f"{what} must be an array of real numbers with one length per axis (not a ragged "
            f"list), but got {shown(value)}"
        ) from None
    if raw.dtype.kind in "iuf":
        return raw
    if raw.dtype.kind == "O" and raw.size and all(_is_real(x) for x in raw.flat):
        # Python integers beyond int64 land in object arrays; they are numbers all the same
        # unless they exceed the float range.
        try:
            return np.array([float(x) for x in raw.flat]).reshape(raw.shape)
        except OverflowError:
            raise ArgumentError(
                f"{what} must hold numbers within the float range, but got an integer too "
                f"large for a float: {shown(value)}"
            ) from None
    kind = {"b": "boolean", "c": "complex", "U": "string", "S": "bytes", "O": "non-numeric"}
    raise ArgumentError(
        f"{what} must hold real numbers, but got {kind.get(raw.dtype.kind, raw.dtype.name)} "
        f"values: {shown(value)}"
    )


def _is_real(x: object) -> bool:
    return isinstance(x, (Real, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def real_array(
    value: object, what: str, *, shape: tuple[int | None, ...], copy: bool = True
) -> FloatArray:
    """Return ``value`` as a read-only float64 array of ``shape`` (``None``: any size).

    Refuses strings, mappings, ragged or object arrays, booleans, complex numbers, integers too
    large for a float and non-finite entries, each with an :class:`ArgumentError` naming
    ``what``. With ``copy=False`` a float64 array is returned as it is (writable, possibly the
    caller's own): for inputs that are only read during the call, where a copy of a large
    batch would cost more than the work.
    """
    # Arrays of numbers (what the library itself passes around) skip the generic conversion.
    is_numeric = type(value) is np.ndarray and value.dtype.kind in "iuf"
    raw: npt.NDArray[Any] = value if is_numeric else _as_numbers(value, what)  # type: ignore[assignment]
    if raw.shape != shape and not _fits(shape, raw.shape):
        raise ArgumentError(
            f"{what} must have shape {_shape_text(shape)}, but got shape {raw.shape}"
        )
    arr = np.array(raw, dtype=np.float64, copy=copy or None)
    # Per-call overhead dominates for the small vectors of most calls: a Python pass over a
    # few floats costs less than a numpy reduction.
    if not (
        all(map(math.isfinite, arr.ravel().tolist()))
        if arr.size <= 64
        else bool(np.isfinite(arr).all())
    ):
        _not_finite(arr, what)
    if copy:
        arr.setflags(write=False)
    return arr


def _fits(want: tuple[int | None, ...], got: tuple[int, ...]) -> bool:
    if len(want) != len(got):
        return False
    # A plain loop: all() over a generator costs a microsecond here, on every call.
    for s, a in zip(want, got, strict=True):  # noqa: SIM110
        if s is not None and s != a:
            return False
    return True


def _not_finite(arr: FloatArray, what: str) -> None:
    bad = tuple(int(i) for i in np.argwhere(~np.isfinite(arr))[0])
    at = f"{what}[{', '.join(map(str, bad))}]" if bad else what
    raise ArgumentError(f"{what} must be finite, but {at} is {arr[bad]}")


def real_vector(
    value: object, what: str, *, size: int | None = None, count: str = ""
) -> FloatArray:
    """Return ``value`` as a read-only finite float64 vector, of ``size`` entries if given.

    ``size`` is a count of the model (``count`` names it in the message: ``"n_dofs"``), so a
    wrong size is a :class:`ModelError`; for vectors of a fixed meaning (a gravity 3-vector)
    use :func:`fixed_vector`.
    """
    arr = real_array(value, what, shape=(None,))
    if size is not None:
        check_length(arr, size, what, count=count)
    return arr


def check_length(vector: FloatArray, size: int, what: str, *, count: str = "") -> None:
    """Raise :class:`ModelError` unless the 1-D ``vector`` has ``size`` entries.

    For vectors already checked by :func:`real_vector` (a
    :class:`~robomodel.physics.joint_state.JointState`
    holds such vectors) when they meet a model: ``count`` names the model's size
    (``"n_pos_coords"``).
    """
    if vector.shape != (size,):
        n = vector.shape[0] if vector.ndim == 1 else vector.size
        of = f"{count} = {size}" if count else str(size)
        raise ModelError(
            f"{what} has {n} {'entry' if n == 1 else 'entries'} but the model has {of}; "
            "give one value per coordinate, or a mapping from joint names"
        )


def fixed_vector(value: object, what: str, *, size: int, layout: str = "") -> FloatArray:
    """Return ``value`` as a read-only finite float64 vector of exactly ``size`` entries.

    ``layout`` describes the entries in the message (``"[linear; angular]"``).

    Raises:
        ArgumentError: not ``size`` finite real numbers.
    """
    try:
        return real_array(value, what, shape=(size,))
    except ArgumentError:
        want = f"a finite {size}-vector" + (f" {layout}" if layout else "")
        raise ArgumentError(f"{what} must be {want}, but got {shown(value)}") from None


def check_tolerance(value: object, what: str = "atol") -> float:
    """Return ``value`` as a ``float`` if it is a real number ``>= 0`` (``inf`` allowed).

    Raises:
        ArgumentError: not a real number, NaN, or negative.
    """
    if isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer)):
        raise ArgumentError(f"{what} must be a number >= 0, but got {shown(value)}")
    x = float(value)
    if not x >= 0.0:
        raise ArgumentError(f"{what} must be a number >= 0, but got {x}")
    return x


def real_number(value: object, what: str) -> float:
    """Return ``value`` as a finite ``float`` if it is a real number (``bool`` refused).

    Raises:
        ArgumentError: not a real number (a string, ``None``, complex), too large for a float,
            or not finite.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
        value = value.item()  # a 0-d array from numpy arithmetic is a number too
    if isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer)):
        raise ArgumentError(f"{what} must be a real number, but got {shown(value)}")
    try:
        x = float(value)
    except OverflowError:
        raise ArgumentError(
            f"{what} must be a number within the float range, but got an integer too large "
            f"for a float: {shown(value)}"
        ) from None
    if not math.isfinite(x):
        raise ArgumentError(f"{what} must be finite, but got {x}")
    return x + 0.0  # canonical: -0.0 is stored as 0.0 (robomodel._internal.arrays.canonical)


def read_only(arr: FloatArray) -> FloatArray:
    """Return ``arr``, an array the library has just made and owns, made read-only.

    For results, not arguments: an argument is copied by :func:`real_array`, never frozen in
    place (that would change the caller's array).
    """
    arr.setflags(write=False)
    return arr


def keyword_options(*names: str) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """Make the options ``names`` of a function keyword-only, still taking them by position.

    The decorated function declares ``names`` after ``*``; for one release a call that passes
    them by position still works, in that order, with a :class:`DeprecationWarning` that shows
    the keyword form. A call that gives more positional arguments than that, or one option
    both ways, is a ``TypeError`` as for any function.

    >>> @keyword_options("frames")
    ... def poses(model, Q, *, frames=None):
    ...     return frames
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     poses("m", "Q", ["hand"]), str(caught[0].message)
    (['hand'], 'poses: pass frames by keyword (frames=...); positional options are deprecated')
    """

    def decorate(func: Callable[P, T]) -> Callable[P, T]:
        params = inspect.signature(func).parameters.values()
        n_positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        name = func.__name__

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
            if len(args) > n_positional:
                extra = args[n_positional:]
                if len(extra) > len(names):
                    raise TypeError(
                        f"{name}() takes {n_positional} positional arguments but "
                        f"{len(args)} were given"
                    )
                moved = names[: len(extra)]
                for option, value in zip(moved, extra, strict=True):
                    if option in kwargs:
                        raise TypeError(f"{name}() got multiple values for argument {option!r}")
                    kwargs[option] = value
                keywords = ", ".join(f"{option}=..." for option in moved)
                warnings.warn(
                    f"{name}: pass {', '.join(moved)} by keyword ({keywords}); positional "
                    "options are deprecated",
                    DeprecationWarning,
                    stacklevel=2,
                )
                args = args[:n_positional]  # type: ignore[assignment]
            return func(*args, **kwargs)

        return wrapper

    return decorate
