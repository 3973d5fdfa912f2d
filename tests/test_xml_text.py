"""robomodel._internal.xml_text writes what ElementTree writes, or declines."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from robomodel._internal.xml_text import Part, TextElement, attribute, element_text, indented_text

NAMES = st.sampled_from(["a", "body", "site", "geom", "x_1", "ns:tag", "joint-2"])
# Values with every character ElementTree escapes, and some it does not.
VALUES = st.text(alphabet=st.sampled_from("ab 0.1-e+&<>\"'\r\n\t\u00e9/"), max_size=12)


@st.composite
def trees(draw: st.DrawFn, depth: int = 3) -> ET.Element:
    el = ET.Element(draw(NAMES))
    for k in draw(st.lists(NAMES, max_size=4, unique=True)):
        el.set(k, draw(VALUES))
    if depth:
        for child in draw(st.lists(trees(depth - 1), max_size=3)):
            el.append(child)
    return el


def element_tree_text(root: ET.Element) -> str:
    root = copy.deepcopy(root)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode")


@given(trees())
def test_plain_trees_are_written_as_elementtree_writes_them(root: ET.Element) -> None:
    """For a tree of elements with attributes only, the text is ElementTree's indented text,
    character for character, and the tree is left as it was."""
    before = ET.tostring(root, encoding="unicode")
    assert indented_text(root) == element_tree_text(root)
    assert ET.tostring(root, encoding="unicode") == before


@given(trees(), st.sampled_from(["text", "tail", "comment", "namespace"]))
def test_anything_else_is_declined(root: ET.Element, what: str) -> None:
    """Text, tails, comments and namespaced names anywhere make it return None (the caller
    then uses ElementTree), never a different text."""
    leaf = root
    while len(leaf):
        leaf = leaf[-1]
    if what == "text":
        leaf.text = "x"
    elif what == "tail":
        child = ET.SubElement(leaf, "c")
        child.tail = "\n  "
    elif what == "comment":
        leaf.append(ET.Comment("note"))
    else:
        leaf.tag = "{urn:x}tag"
    assert indented_text(root) is None


def _text_element(el: ET.Element, slots: list[str]) -> TextElement:
    """The TextElement of ``el``, every second attribute a number slot: its value in ``el``
    is replaced by the slot's text (numbers are never escaped)."""
    attrs: list[Part] = []
    for k, (name, value) in enumerate(el.items()):
        if k % 2:
            slots.append(f"{len(value)}.5 -1e-0{k}")
            el.set(name, slots[-1])
            attrs += (f' {name}="', len(slots) - 1, '"')
        else:
            attrs.append(attribute(name, value))
    out = TextElement(el.tag, attrs)
    out.children = [_text_element(child, slots) for child in el]
    return out


@given(trees(), st.integers(0, 3))
def test_text_elements_are_written_as_elementtree_writes_them(root: ET.Element, level: int) -> None:
    """A TextElement tree is written as ElementTree writes the same tree placed at depth
    ``level`` of a document (its text with every line after the first indented ``level``
    steps more), literal attributes escaped as ElementTree escapes them."""
    slots: list[str] = []
    tree = _text_element(root, slots)
    expected = element_tree_text(root).replace("\n", "\n" + "  " * level)
    assert element_text(tree, slots, level=level) == expected
