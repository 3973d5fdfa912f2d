"""The robomodel error hierarchy: every exception and warning class robomodel raises.

Every failure raises a subclass of :class:`RobomodelError`. Each subclass also inherits the builtin
exception it refines, so ``except KeyError`` keeps working for callers that expect it. The format
packages re-export their errors (``robomodel.formats.urdf.URDFValueError`` is
:class:`URDFValueError`), so they can be caught where their reader is imported.

The tree::

    RobomodelError
    +-- ModelError (ValueError)
    |   +-- ArgumentError (TypeError)
    |   +-- DuplicateNameError
    |   +-- TopologyError
    |   +-- MimicError
    |   +-- JSONFormatError
    +-- UnknownNameError (KeyError)
    |   +-- UnknownIndexError (IndexError)
    +-- URDFError (ValueError)
    |   +-- URDFSyntaxError, URDFValueError, URDFReferenceError, URDFUnsupportedError,
    |   |   URDFSensorError, URDFExportError
    |   +-- URDFTopologyError (TopologyError)
    |   +-- URDFXacroError
    |       +-- XacroNotInstalledError (OptionalDependencyError)
    +-- MJCFError (ValueError)
    +-- SDFError (ValueError)
    +-- USDError (ValueError)
    +-- MeshError (ValueError)
    +-- CLIError (ValueError)
    |   +-- UnreadableModelError
    +-- OptionalDependencyError (ImportError)
        +-- MujocoNotInstalledError, MeshesNotInstalledError, XacroNotInstalledError

    RobomodelWarning (UserWarning)

Three private signals are defined next to the code that raises them, because they never leave
it: ``formats/urdf/_inertial.py``'s ``InertiaOverflowError`` and ``formats/urdf/_document.py``'s
``DoubtError`` (caught within the URDF reader, which then reads again more carefully or raises a
:class:`URDFError`) and ``tools/_plot_shapes.py``'s ``MeshSkippedError`` (a mesh the plot
skips). ``tests/test_vocabulary.py`` checks that no other module defines an exception class.
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
    "JSONFormatError",
    "MJCFError",
    "MeshError",
    "MeshesNotInstalledError",
    "MimicError",
    "ModelError",
    "MujocoNotInstalledError",
    "NotARegularFileError",
    "OptionalDependencyError",
    "RobomodelError",
    "RobomodelWarning",
    "SDFError",
    "TopologyError",
    "URDFError",
    "URDFExportError",
    "URDFReferenceError",
    "URDFSensorError",
    "URDFSyntaxError",
    "URDFTopologyError",
    "URDFUnsupportedError",
    "URDFValueError",
    "URDFXacroError",
    "USDError",
    "UnknownIndexError",
    "UnknownNameError",
    "UnreadableModelError",
    "XacroNotExpandedError",
    "XacroNotInstalledError",
    "deprecated",
    "suggest",
    "warn",
]


class RobomodelError(Exception):
    """Root of every error robomodel raises."""


class RobomodelWarning(UserWarning):
    """Warning emitted when robomodel knowingly drops or changes something the user gave it."""


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _inside(filename: str) -> bool:
    # attrs runs converters and validators from the methods it generates for robomodel's values.
    return filename.startswith("<attrs generated") or os.path.abspath(filename).startswith(_PACKAGE)


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


class _XMLDocumentError(RobomodelError, ValueError):
    """An XML robot description (URDF, SDFormat) cannot be read or written.

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


class URDFError(_XMLDocumentError):
    """A URDF document cannot be read or written.

    The message starts with ``file:line: element 'name':`` where those are known (attributes
    ``file``, ``line``, ``element`` and ``reason``).
    """


class CLIError(RobomodelError, ValueError):
    """A problem with a command line (an unknown format, a bad option value, a missing file).

    The ``robomodel`` command reports it like bad input: one line, exit status 2.
    """


class UnreadableModelError(CLIError):
    """A model file that exists but that the readers fail on outside their own error checks."""


class MimicError(ModelError):
    """Mimic relations that do not resolve: a leader that is not a moving joint, or a cycle.

    Attributes:
        joints: the joints concerned (the follower, or the joints of the cycle).
        reason: the message without the joint names in front.
    """

    def __init__(self, joints: tuple[str, ...], reason: str) -> None:
        self.joints = joints
        self.reason = reason
        names = ", ".join(repr(j) for j in joints)
        super().__init__(f"joint{'s' * (len(joints) > 1)} {names}: {reason}")


class MeshError(RobomodelError, ValueError):
    """A mesh filename cannot be resolved to a file, or the file cannot be read as a mesh.

    Attributes:
        filename: the mesh filename as written.
        reason: what is wrong and what to do.
        kind: ``"unresolvable"`` (a ``package://`` URI without package directories, a relative
            path without a base directory, a scheme robomodel does not read), ``"missing"``
            (resolved, but no such file), ``"refused"`` (it would leave its directory, or names
            another host) or ``"unreadable"`` (the file is there but cannot be read).
    """

    def __init__(self, filename: str, reason: str, *, kind: str) -> None:
        self.filename = filename
        self.reason = reason
        self.kind = kind
        super().__init__(f"mesh {filename!r}: {reason}")


class JSONFormatError(ModelError):
    """A JSON document is not a robomodel model of a supported schema version.

    Attributes:
        path: where in the document the problem is, as a JSON path (``"$.joints[3].axis"``).
        reason: what is wrong and what to do.
        file: the file the document was read from, or ``None`` for text given as a string.
    """

    def __init__(self, path: str, reason: str, *, file: str | None = None) -> None:
        self.path = path
        self.reason = reason
        self.file = file
        where = f"{file}: " if file is not None else ""
        super().__init__(f"{where}robomodel JSON, at {path}: {reason}")

    def in_file(self, file: str) -> JSONFormatError:
        """Return this error naming ``file``, the document's file."""
        return JSONFormatError(self.path, self.reason, file=file)


class MJCFError(RobomodelError, ValueError):
    """MuJoCo refused an MJCF document, or a model cannot be written as MJCF.

    The message starts with ``file: element:`` where those are known (``"<string>"`` for text
    given as a string, ``"<model>"`` for an export that names no file).

    Attributes:
        file: the MJCF file (or ``None`` while the error travels up to the function that knows it).
        element: a short description of the offending element (``"<include file='a.xml'>"``), or
            ``""``.
        reason: what is wrong and what to do.
    """

    def __init__(self, reason: str, *, file: str | None = None, element: str = "") -> None:
        self.file = file
        self.element = element
        self.reason = reason
        where = "" if file is None else f"{file}: "
        super().__init__(f"{where}{element + ': ' if element else ''}{reason}")

    def in_file(self, file: str) -> MJCFError:
        """Return this error naming ``file`` (itself when it already names a file)."""
        if self.file is not None:
            return self
        out = type(self)(self.reason, file=file, element=self.element)
        out.__cause__ = self.__cause__
        return out


class SDFError(_XMLDocumentError):
    """An SDFormat document cannot be read, or a model cannot be written as SDFormat.

    The message starts with ``file:line: element 'name':`` where those are known (attributes
    ``file``, ``line``, ``element`` and ``reason``).
    """


class USDError(RobomodelError, ValueError):
    """An OpenUSD stage is not an articulation robomodel can read, or a model cannot be written.

    The message starts with ``file: prim:`` where those are known (``"<string>"`` for text given
    as a string).

    Attributes:
        file: the USD file (or ``None`` when none is known).
        prim: the path of the offending prim (``"/robot/joints/j1"``), or ``""``.
        reason: what is wrong and what to do.
    """

    def __init__(self, reason: str, *, file: str | None = None, prim: str = "") -> None:
        self.file = file
        self.prim = prim
        self.reason = reason
        where = "" if file is None else f"{file}: "
        super().__init__(f"{where}{prim + ': ' if prim else ''}{reason}")


class URDFSyntaxError(URDFError):
    """The text is not well-formed XML, or it declares entities or an external DTD (refused)."""


class URDFValueError(URDFError):
    """A required attribute is missing, or a value is not a finite number of the right count."""


class URDFReferenceError(URDFError):
    """A name is unknown (a joint's link, a sensor's link or joint) or defined twice."""


class URDFTopologyError(URDFError, TopologyError):
    """The links and joints do not form one tree (two parents, a loop, several roots or none).

    Also a :class:`TopologyError`, the error of a model that would not be a forest, so that one
    ``except TopologyError`` catches both.
    """


class URDFUnsupportedError(URDFError):
    """The document uses something robomodel does not model (floating, planar, spherical joints)."""


class URDFSensorError(URDFError):
    """A ``<sensor>`` in iDynTree's dialect cannot be built (unknown joint, bad frame, ...)."""


class URDFExportError(URDFError):
    """The model cannot be written as URDF (unreachable links, an axis off its child origin...)."""


class NotARegularFileError(RobomodelError, OSError):
    """A model or mesh file named is not a regular file (a FIFO, a device, a directory).

    robomodel opens only regular files: reading a FIFO or a device could block forever or never
    end. Also an :class:`OSError`, as every other file that cannot be read.
    """


class URDFXacroError(URDFError):
    """A xacro document cannot be expanded (an undefined property or argument, a bad macro...)."""


class XacroNotExpandedError(URDFXacroError):
    """A document uses xacro, and the loader was not asked to expand it.

    Raised for a document that is not named ``.xacro`` and is loaded without ``xacro=True``,
    and for any document that uses xacro, or is named ``.xacro``, loaded with ``xacro=False``.
    xacro runs Python code from the document, so the loader never expands one on its own.
    """


class OptionalDependencyError(RobomodelError, ImportError):
    """An optional package robomodel needs for this call is not installed.

    The message says what to install: ``pip install 'robomodel[mujoco]'`` for robomodel's own
    extras, the peer's own package (``pip install idyntree``) for the interoperability bridges.

    Attributes:
        package: the module that failed to import (``"mujoco"``, ``"trimesh"``, ...).
        extra: the robomodel extra that installs it (``"mujoco"``), or ``None`` when there is
            none (idyntree, pinocchio).
    """

    def __init__(self, message: str, *, package: str, extra: str | None = None) -> None:
        self.package = package
        self.extra = extra
        super().__init__(message, name=package)


class MujocoNotInstalledError(OptionalDependencyError):
    """MuJoCo (the ``mujoco`` extra) is needed to compile MJCF and is not installed."""


class MeshesNotInstalledError(OptionalDependencyError):
    """trimesh (the ``meshes`` extra) is needed to read mesh files and is not installed."""


class XacroNotInstalledError(URDFXacroError, OptionalDependencyError):
    """A xacro document needs the ``xacro`` package (the ``xacro`` extra), not installed.

    Also a :class:`URDFXacroError`, as every failure to expand a xacro document is.
    """

    def __init__(self, reason: str, *, file: str = "<string>") -> None:
        # Both parents' __init__ take other arguments: set the fields of each here.
        self.file = file
        self.line = None
        self.element = ""
        self.reason = reason
        self.package = "xacro"
        self.extra = "xacro"
        ImportError.__init__(self, f"{file}: {reason}", name="xacro")


def deprecated(old: str, new: str, *, category: type[Warning] = DeprecationWarning) -> None:
    """Warn that the name ``old`` is deprecated in favour of ``new`` (removed after one release).

    The warning points at the user's line, as :func:`warn` does.
    """
    warn(f"{old} is deprecated and will be removed in the next release; use {new}", category)
