"""The text of a tree of plain XML elements, as ElementTree writes it indented, in one pass.

``ET.indent(root)`` then ``ET.tostring(root, encoding="unicode")`` walks the tree three times
(indentation, namespace collection, serialisation), with a Python call per attribute; for the
tree of a whole robot's MJCF that is a good part of the export. :func:`indented_text` writes the
same text in one walk, one string per element, for the trees the MJCF writer builds: elements
with string tags and attributes only. Anything else (text or tails, comments, namespaced
names, non-string values) makes it return ``None``, and the caller uses ElementTree itself,
the plain twin that gives the same text.

:class:`TextElement` and :func:`element_text` write the same indented text for a tree that is
never an ElementTree at all: the MJCF writer lays out its bodies, joints, geoms, sites and
inertials as heads of text parts (literal text and the slots of numbers formatted later, all at
once) and splices the result into the rest of its document.

Attribute values are escaped as ElementTree escapes them, found by asking ElementTree itself
at import (the set of escaped characters has changed across Python versions).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

__all__ = ["TextElement", "attribute", "element_text", "indented_text"]


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


Part = str | int
"""A piece of an element's attributes' text: literal text, or the index of a number slot."""


class TextElement:
    """An element written as text: its tag, its attributes as text parts, and its children.

    ``attrs`` holds literal strings and, in place of numbers not yet formatted, ints: indices
    into the list of texts :func:`element_text` is given. Build it from :func:`attribute`
    (which escapes as ElementTree does) and, for numbers, ``' pos="'``, a slot, ``'"'``.
    """

    __slots__ = ("attrs", "children", "tag")

    def __init__(self, tag: str, attrs: list[Part]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[TextElement] = []

    def add(self, tag: str, attrs: list[Part]) -> TextElement:
        """Append a child and return it."""
        child = TextElement(tag, attrs)
        self.children.append(child)
        return child


def attribute(name: str, value: str) -> str:
    """The text `` name="value"``, ``value`` escaped as ElementTree escapes attribute values.

    ``name`` must be a plain attribute name (the writer's own literals).
    """
    if _SPECIAL.search(value) is not None:
        value = _escape(value)
    return f' {name}="{value}"'


def element_text(root: TextElement, slots: list[str], level: int = 0, space: str = "  ") -> str:
    """The text :func:`indented_text` writes for ``root`` placed at depth ``level`` of a tree.

    Each int among the attributes' parts is replaced by ``slots[i]``. The text starts with the
    root's opening tag (the indentation before it is the caller's) and ends with its closing
    tag.
    """
    out: list[str] = []
    push = out.append
    # As in indented_text: an explicit stack of elements with the line break and indentation
    # before them, or (as strings) closing texts, written once an element's children are. Each
    # piece goes to ``out`` on its own: one join at the end.
    stack: list[tuple[TextElement | str, str]] = [(root, "\n" + space * level)]
    while stack:
        item, before = stack.pop()
        if isinstance(item, str):
            push(item)
            continue
        push(before)
        push("<")
        push(item.tag)
        for p in item.attrs:
            push(p if isinstance(p, str) else slots[p])
        if item.children:
            push(">")
            stack.append((before + "</" + item.tag + ">", ""))
            inner = before + space
            stack.extend([(child, inner) for child in reversed(item.children)])
        else:
            push(" />")
    del out[0]  # the root's own indentation
    return "".join(out)
