"""Which model format a file holds, judged by its content rather than its name.

A URDF file named ``robot.xml`` is still URDF, and MuJoCo's compiler would accept it as MJCF
and make a different robot of it; so the reader is chosen by the document's root element
(``<robot>`` URDF, ``<mujoco>`` MJCF, ``<sdf>`` SDFormat) or, for JSON, by its first character.
Only the prolog and the root tag are scanned, with a regular expression over the bytes: no XML
parser runs, so no entity is expanded and no external document is fetched, whatever the file
declares.

>>> root_element(b'<?xml version="1.0"?> <!-- a robot --> <robot name="r"><link/></robot>')
'robot'
>>> content_format(b'<!DOCTYPE x [<!ENTITY e "1">]><mujoco model="m"/>')
'mjcf'
>>> content_format(b'  {"format": "robomodel"}'), content_format(b"not a model")
('json', None)
"""

from __future__ import annotations

import re

__all__ = ["ROOT_FORMATS", "content_format", "root_element"]

ROOT_FORMATS = {"robot": "urdf", "mujoco": "mjcf", "sdf": "sdf"}
"""The format name (an entry of :data:`robomodel.formats.table.FORMATS`) of each root element."""

# What may come before the root element: white space, the XML declaration and processing
# instructions, comments, and a document type declaration (its internal subset in brackets).
_PROLOG_ITEM = re.compile(
    rb"\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[.*?\])*>", re.DOTALL | re.IGNORECASE
)
_ROOT = re.compile(rb"<([A-Za-z_][\w.\-]*:)?([A-Za-z_][\w.\-]*)")
_BOMS = (b"\xef\xbb\xbf",)


def root_element(data: bytes) -> str | None:
    """Return the local name of the root element of the XML document ``data``, if it has one.

    The namespace prefix is left out (``<xacro:robot>`` would be ``robot``). ``None`` when the
    bytes do not start like an XML document (after an optional UTF-8 byte order mark).
    """
    pos = len(_BOMS[0]) if data.startswith(_BOMS) else 0
    while (m := _PROLOG_ITEM.match(data, pos)) is not None and m.end() > pos:
        pos = m.end()
    root = _ROOT.match(data, pos)
    return root.group(2).decode("ascii") if root is not None else None


def content_format(data: bytes) -> str | None:
    """Return the name of the format the bytes ``data`` hold, or ``None`` when unknown.

    ``"urdf"``, ``"mjcf"`` and ``"sdf"`` from the root element (:data:`ROOT_FORMATS`),
    ``"json"`` for a document starting with ``{``; ``None`` for anything else, an XML document
    with another root included.
    """
    head = data.lstrip(b" \t\r\n")
    if head.startswith(b"{"):
        return "json"
    root = root_element(data)
    return None if root is None else ROOT_FORMATS.get(root)
