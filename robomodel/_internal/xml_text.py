"""The text of a tree of plain XML elements, as ElementTree writes it indented, in one pass.

``ET.indent(root)`` then ``ET.tostring(root, encoding="unicode")`` walks the tree three times
(indentation, namespace collection, serialisation), with a Python call per attribute; for the
tree of a whole robot's MJCF that is a good part of the export. :func:`indented_text` writes the
same text in one walk, one string per element, for the trees the MJCF writer builds: elements
with string tags and attributes only. Anything else (text or tails, comments, namespaced
names, non-string values) makes it return ``None``, and the caller uses ElementTree itself,
the plain twin that gives the same text.

Attribute values are escaped as ElementTree escapes them, found by asking ElementTree itself
at import (the set of escaped characters has changed across Python versions).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

__all__ = ["indented_text"]


def _escaped(c: str) -> str:
    text = ET.tostring(ET.Element("a", b=c), encoding="unicode")
    return text[len('<a b="') : -len('" />')]


_ESCAPES = [(c, e) for c in "&<>\"'\r\n\t" if (e := _escaped(c)) != c]
_SPECIAL = re.compile("[" + re.escape("".join(c for c, _ in _ESCAPES)) + "]")
# What a tag or an attribute name may not hold for it to be written as it is.
_PLAIN_NAME = re.compile(r"[^\s&<>\"'{}=/]+")


def _escape(value: str) -> str:
    for c, e in _ESCAPES:  # ElementTree's order: "&" first
        value = value.replace(c, e)
    return value


def indented_text(root: ET.Element, space: str = "  ") -> str | None:
    """Return ``root`` as ``ET.indent(root, space)`` then ``ET.tostring(root, "unicode")``.

    ``root`` is not changed. Returns ``None`` unless every element has a plain string tag,
    plain attribute names, string values, and no text or tail (which ``ET.indent`` would keep
    or replace); the caller then writes the tree with ElementTree.

    >>> root = ET.Element("a", x="1 < 2")
    >>> _ = ET.SubElement(root, "b")
    >>> print(indented_text(root))
    <a x="1 &lt; 2">
      <b />
    </a>
    """
    out: list[str] = []
    special = _SPECIAL.search
    names: set[str] = set()  # the tags and attribute names found plain so far

    def plain(name: object) -> bool:
        if isinstance(name, str) and _PLAIN_NAME.fullmatch(name):
            names.add(name)
            return True
        return False

    def head(el: ET.Element) -> str | None:
        """The element's opening text without its end, ``None`` when it is not plain."""
        tag = el.tag
        if (tag not in names and not plain(tag)) or el.text or el.tail:
            return None
        parts = ["<", tag]
        for k, v in el.items():
            if (k not in names and not plain(k)) or not isinstance(v, str):
                return None
            parts += [" ", k, '="', v if special(v) is None else _escape(v), '"']
        return "".join(parts)

    # An explicit stack rather than recursion: a long kinematic chain nests its bodies as
    # deep as it has links. Each entry is an element with the line break and indentation that
    # come before it (none before the root) or, as a string, an element's closing text, written
    # once its children are.
    stack: list[tuple[ET.Element | str, str]] = [(root, "")]
    while stack:
        item, before = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        opening = head(item)
        if opening is None:
            return None
        out.append(before)
        if len(item):
            indent = before or "\n"
            inner = indent + space
            out.append(opening + ">")
            stack.append((indent + "</" + str(item.tag) + ">", ""))
            stack.extend((child, inner) for child in reversed(item))
        else:
            out.append(opening + " />")
    return "".join(out)
