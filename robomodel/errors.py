"""The robomodel error hierarchy.

Every failure raises a subclass of :class:`RobomodelError`. Each subclass also inherits the builtin
exception it refines, so ``except KeyError`` keeps working for callers that expect it.
"""

from __future__ import annotations

import difflib
import os
import sys
import warnings
from collections.abc import Iterable

__all__ = [
    "ArgumentError",
    "CLIError",
    "DuplicateNameError",
    "ModelError",
    "RobomodelError",
    "RobomodelWarning",
    "TopologyError",
    "URDFError",
    "UnknownIndexError",
    "UnknownNameError",
    "suggest",
    "warn",
]


class RobomodelError(Exception):
    """Root of every error robomodel raises."""


class RobomodelWarning(UserWarning):
    """Warning emitted when robomodel knowingly drops or changes something the user gave it."""


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _inside(filename: str) -> bool:
    return os.path.abspath(filename).startswith(_PACKAGE)


def warn(message: str, category: type[Warning] = RobomodelWarning) -> None:
    """Emit ``message`` as a warning attributed to the first caller outside robomodel.

    A warning should point at the user's line that caused it (``model = load(...)``), not at
    the robomodel line that noticed the problem, however deep that is. Python 3.12's
    ``warnings.warn(skip_file_prefixes=...)`` does this; robomodel supports 3.11, so this
    counts the frames inside the package itself and passes that as ``stacklevel``.
    """
    frame = sys._getframe(1)
    level = 2  # warnings.warn's stacklevel of the frame ``frame``: 1 would be this function
    while frame.f_back is not None and _inside(frame.f_code.co_filename):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)


class ModelError(RobomodelError, ValueError):
    """A model, or an argument given to build or transform one, is not acceptable."""


class ArgumentError(ModelError, TypeError):
    """An argument has the wrong type or form (a string where numbers go, a float index, NaN).

    Also a ``TypeError`` and (through :class:`ModelError`) a ``ValueError``, so callers catching
    either builtin keep working.
    """


class UnknownNameError(RobomodelError, KeyError):
    """A name (of a link, joint, frame, sensor, ...) does not exist in the model.

    Attributes:
        kind: what was looked up (``"link"``, ``"joint"``, ``"frame"``, ...).
        name: the name that was not found.
    """

    def __init__(
        self, kind: str, name: object, candidates: Iterable[str] = (), hint: str = ""
    ) -> None:
        self.kind = kind
        self.name = name
        self.message = f"the model has no {kind} named {name!r}{suggest(name, candidates)}" + (
            f" ({hint})" if hint else ""
        )
        super().__init__(self.message)

    def __str__(self) -> str:
        # KeyError.__str__ would quote the whole message; show it as written.
        return self.message


class UnknownIndexError(UnknownNameError, IndexError):
    """An index (of a link, joint, frame, ...) is out of range for the model.

    An :class:`UnknownNameError` (so ``except KeyError`` and ``except UnknownNameError`` keep
    working wherever a name or an index is accepted) and an ``IndexError``.

    Attributes:
        kind: what was looked up (``"link index"``, ``"frame index"``, ...).
        name: the index that was given.
        size: how many there are (valid indices are ``0`` to ``size - 1``).
    """

    def __init__(self, kind: str, index: int, size: int) -> None:
        self.kind = f"{kind} index"
        self.name = index
        self.size = size
        valid = (
            f"it has no {kind}s"
            if not size
            else "valid: 0"
            if size == 1
            else f"valid: 0 to {size - 1}"
        )
        self.message = f"the model has no {kind} with index {index} ({valid})"
        Exception.__init__(self, self.message)


class DuplicateNameError(ModelError):
    """A name is already used by another element of the same namespace.

    Attributes:
        kind: the namespace (``"link or frame"``, ``"joint"``, ``"sensor"``).
        name: the duplicated name.
    """

    def __init__(self, kind: str, name: str, hint: str = "") -> None:
        self.kind = kind
        self.name = name
        text = f"the name {name!r} is already used by a {kind} of the model; choose another name"
        super().__init__(text + (f" ({hint})" if hint else ""))


class TopologyError(ModelError):
    """A joint would make the model something other than a forest (loop, double edge, self loop)."""


def suggest(name: object, candidates: Iterable[str]) -> str:
    """Return a ``"; did you mean 'x'?"`` suffix for the closest candidate, or ``""``."""
    if not isinstance(name, str):
        return ""
    # Compare case-insensitively ('b' should suggest 'B'), but answer with the real spelling.
    by_folded: dict[str, str] = {}
    for c in candidates:
        by_folded.setdefault(c.casefold(), c)
    close = difflib.get_close_matches(name.casefold(), list(by_folded), n=1, cutoff=0.6)
    return f"; did you mean {by_folded[close[0]]!r}?" if close else ""


class URDFError(RobomodelError, ValueError):
    """A URDF document cannot be read or written.

    The message starts with ``file:line: element 'name':`` where those are known.

    Attributes:
        file: the file name (``"<string>"`` for text).
        line: the 1-based line of the offending element, or ``None``.
        element: a short description of the element (``"joint 'j3'"``), or ``""``.
        reason: what is wrong and what to do.
    """

    def __init__(
        self, reason: str, *, file: str = "<string>", line: int | None = None, element: str = ""
    ) -> None:
        self.file = file
        self.line = line
        self.element = element
        self.reason = reason
        where = file if line is None else f"{file}:{line}"
        super().__init__(f"{where}: {element + ': ' if element else ''}{reason}")


class CLIError(RobomodelError, ValueError):
    """A problem with a command line (an unknown format, a bad option value, a missing file).

    The ``robomodel`` command reports it like bad input: one line, exit status 2.
    """
