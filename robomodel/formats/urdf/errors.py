"""The URDF error classes: every one is a :class:`robomodel.errors.URDFError`.

Each message reads ``file:line: element: what is wrong; what to do``.
"""

from __future__ import annotations

from robomodel.errors import TopologyError, URDFError

__all__ = [
    "URDFExportError",
    "URDFReferenceError",
    "URDFSensorError",
    "URDFSyntaxError",
    "URDFTopologyError",
    "URDFUnsupportedError",
    "URDFValueError",
]


class URDFSyntaxError(URDFError):
    """The text is not well-formed XML, or it declares entities or an external DTD (refused)."""


class URDFValueError(URDFError):
    """A required attribute is missing, or a value is not a finite number of the right count."""


class URDFReferenceError(URDFError):
    """A name is unknown (a joint's link, a sensor's link or joint) or defined twice."""


class URDFTopologyError(URDFError, TopologyError):
    """The links and joints do not form one tree (two parents, a loop, several roots or none).

    Also a :class:`robomodel.errors.TopologyError`, the error of a model that would not be a
    forest, so that one ``except TopologyError`` catches both.
    """


class URDFUnsupportedError(URDFError):
    """The document uses something robomodel does not model (floating, planar, spherical joints)."""


class URDFSensorError(URDFError):
    """A ``<sensor>`` in iDynTree's dialect cannot be built (unknown joint, bad frame, ...)."""


class URDFExportError(URDFError):
    """The model cannot be written as URDF (unreachable links, an axis off its child origin...)."""
