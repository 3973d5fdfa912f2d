"""Rewriting the references to links and joints inside URDF XML kept verbatim.

A model keeps the URDF elements robomodel does not model (``<gazebo>``, ``<transmission>``,
``<mimic>`` ...) as XML text (:class:`robomodel.model.record.Extension`). When links or joints are
renamed (:func:`robomodel.transformers.rename`), the references inside that text must follow;
:func:`rename_in_xml` rewrites them. It lives with the transformer that needs it: the text is
kept verbatim by the model, and a rename is a transformation of the model, not of a URDF file.
"""

from __future__ import annotations

from collections.abc import Mapping

from lxml import etree

from robomodel.errors import ModelError

__all__ = ["rename_in_xml"]


def rename_in_xml(
    xml: str,
    *,
    links: Mapping[str, str],
    joints: Mapping[str, str],
    prefer: str = "link",
) -> str:
    """Return kept URDF XML text with its references to links and joints renamed.

    Rewrites ``<gazebo reference>`` (a link, or a joint), ``<joint name>`` inside
    ``<transmission>`` and ``<mimic joint>``, wherever they occur in the element. The text is
    returned unchanged (byte for byte) when no reference changes.

    >>> rename_in_xml('<gazebo reference="a"><x/></gazebo>', links={"a": "b"}, joints={})
    '<gazebo reference="b"><x/></gazebo>'

    Args:
        xml: the element's XML text.
        links: link (and frame) renames.
        joints: joint renames.
        prefer: ``"joint"`` when a ``<gazebo reference>`` naming both a link and a joint means the
            joint (the owner kind of the extension); otherwise the link wins.

    Raises:
        ModelError: the text is not well-formed XML.
    """
    try:
        root = etree.fromstring(xml)
    except etree.XMLSyntaxError as err:
        raise ModelError(f"kept XML element is not well-formed ({err}): {xml[:80]!r}") from None
    changed = False

    def swap(el: etree._Element, attr: str, table: Mapping[str, str]) -> None:
        nonlocal changed
        old = el.get(attr)
        if old is not None and old in table and table[old] != old:
            el.set(attr, table[old])
            changed = True

    for el in root.iter():
        tag = el.tag if isinstance(el.tag, str) else ""
        local = etree.QName(el).localname if tag else ""
        if local == "gazebo":
            ref = el.get("reference")
            if ref is not None:
                first, second = (joints, links) if prefer == "joint" else (links, joints)
                swap(el, "reference", first if ref in first else second)
        elif local == "mimic":
            swap(el, "joint", joints)
        elif local == "joint":
            parent = el.getparent()
            if parent is not None and etree.QName(parent).localname == "transmission":
                swap(el, "name", joints)
    if not changed:
        return xml
    text: str = etree.tostring(root, encoding="unicode")
    return text
