"""MJCF sections robomodel does not model, kept verbatim as extensions for the way back.

``<option>``, ``<size>``, ``<default>``, ``<tendon>``, ``<actuator>`` and ``<contact>`` of a
document read with :func:`robomodel.formats.mjcf.loads_with_report` become robot extensions tagged
``mjcf:<section>``;
:func:`robomodel.formats.mjcf.dumps_with_report` writes them back. Kept defaults move into one
class,
``robomodel_kept``, given to the kept elements that named no class, so that they shape the kept
actuators and tendons as before and never the bodies, joints and geoms robomodel writes itself.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from robomodel.model.record import Extension

__all__ = ["KEPT_CLASS", "KEPT_SECTIONS", "PREFIX", "keep", "restore"]

PREFIX = "mjcf:"
"""The tag prefix of kept sections."""

KEPT_SECTIONS = ("option", "size", "default", "tendon", "actuator", "contact")
"""The top-level MJCF sections kept verbatim, in the order they are written back."""

KEPT_CLASS = "robomodel_kept"
"""The default class holding a kept document's top-level defaults."""


def keep(text: str) -> list[Extension]:
    """Return the kept sections of an MJCF document as robot extensions (document order).

    The top-level ``<default>`` becomes ``<default class="robomodel_kept">``; elements of kept
    tendons and actuators that named no class get that class.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return []
    has_defaults = root.find("default") is not None
    out: list[Extension] = []
    for section in root:
        tag = section.tag
        if not isinstance(tag, str) or tag not in KEPT_SECTIONS:
            continue
        if tag == "default":
            section.set("class", KEPT_CLASS)
        elif tag in ("tendon", "actuator") and has_defaults:
            for el in section:
                if "class" not in el.attrib:
                    el.set("class", KEPT_CLASS)
        section.tail = None
        xml = ET.tostring(section, encoding="unicode")
        out.append(Extension(owner_kind="robot", owner="", xml=xml, tag=PREFIX + tag))
    return out


def restore(extensions: list[Extension]) -> list[ET.Element]:
    """Return the elements to write back for kept extensions, in :data:`KEPT_SECTIONS` order."""
    by_tag: dict[str, list[ET.Element]] = {}
    for ext in extensions:
        el = ET.fromstring(ext.xml)
        if ext.tag == PREFIX + "default":
            wrapper = ET.Element("default")
            wrapper.append(el)
            el = wrapper
        by_tag.setdefault(ext.tag[len(PREFIX) :], []).append(el)
    return [el for tag in KEPT_SECTIONS for el in by_tag.get(tag, [])]
