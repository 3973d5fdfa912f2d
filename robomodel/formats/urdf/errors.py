"""The URDF error classes, defined in :mod:`robomodel.errors` and re-exported here.

Every one is a :class:`robomodel.errors.URDFError`; each message reads
``file:line: element: what is wrong; what to do``.
"""

from __future__ import annotations

from robomodel.errors import URDFError as URDFError
from robomodel.errors import URDFExportError as URDFExportError
from robomodel.errors import URDFReferenceError as URDFReferenceError
from robomodel.errors import URDFSensorError as URDFSensorError
from robomodel.errors import URDFSyntaxError as URDFSyntaxError
from robomodel.errors import URDFTopologyError as URDFTopologyError
from robomodel.errors import URDFUnsupportedError as URDFUnsupportedError
from robomodel.errors import URDFValueError as URDFValueError
from robomodel.errors import URDFXacroError as URDFXacroError
from robomodel.errors import XacroNotInstalledError as XacroNotInstalledError

__all__ = [
    "URDFError",
    "URDFExportError",
    "URDFReferenceError",
    "URDFSensorError",
    "URDFSyntaxError",
    "URDFTopologyError",
    "URDFUnsupportedError",
    "URDFValueError",
    "URDFXacroError",
    "XacroNotInstalledError",
]
