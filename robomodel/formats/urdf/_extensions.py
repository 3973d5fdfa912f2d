"""Kept elements: what robomodel does not model, read verbatim and written back where it was.

The loader keeps every element it does not model (``<gazebo>``, ``<transmission>``, unknown
tags, other sensor types, unknown children of modelled elements) as an
:class:`~robomodel.model.record.Extension` naming its owner: the robot, a link, a frame, a joint, a
sensor, or the ``<inertial>`` and ``<force_torque>`` inside a link or sensor. Children kept
inside a shape or a material are stored in that value's ``extensions`` instead (see
:mod:`robomodel.formats.urdf._geometry`). Reading (:func:`keep`, :func:`canonical_order`) and
writing
(:func:`kept_by_owner`, :func:`write_kept`, :func:`write_robot_kept`) are side by side here:
the exporter writes each owner's elements inside that owner, in the order the loader kept them.
"""

from __future__ import annotations

import re
from functools import partial
from itertools import repeat
from operator import attrgetter
from typing import Any

from lxml import etree

from robomodel._internal.construct import make
from robomodel.errors import warn
from robomodel.formats.urdf._document import Reader, Writer
from robomodel.formats.urdf._records import RawJoint, RawLink, RawSensor
from robomodel.model.record import Extension, Model

__all__ = [
    "blob_xml",
    "canonical_order",
    "frame_joint_marker",
    "keep",
    "keep_on",
    "kept_blocks",
    "kept_by_owner",
    "kept_texts",
    "kept_xml",
    "leaf_xml",
    "write_kept",
    "write_robot_kept",
]

_EXTENSION = make(Extension)

_ESCAPED = re.compile(r'[<>&"]')


# ---------------------------------------------------------------------- reading
def leaf_xml(tag: str, items: list[tuple[str, str]]) -> str | None:
    """Return what lxml writes for a childless, textless element, or ``None`` when unsure.

    libxml2 writes ``<tag a="v" .../>`` with the attributes in document order and escapes
    ``<>&"`` and tab, newline and carriage return in values; a value holding any of them, or
    anything outside printable ASCII, or a namespaced name goes to ``etree.tostring``.
    """
    if len(items) == 1:  # the common case (<dynamics damping=...>), without the loop
        k, v = items[0]
        if not (v.isascii() and v.isprintable()) or _ESCAPED.search(v) or "{" in k:
            return None
        return f'<{tag} {k}="{v}"/>'
    out = "<" + tag
    for k, v in items:
        if not (v.isascii() and v.isprintable()) or _ESCAPED.search(v) or "{" in k:
            return None
        out += f' {k}="{v}"'
    return out + "/>"


def kept_xml(r: Reader, el: Any) -> str | None:
    """Return the verbatim XML of ``el`` to keep, ``None`` when nothing is kept.

    Nothing is kept when the loader was told not to keep extensions, or when ``el`` is not
    an element (an entity reference left unexpanded).
    """
    tag = el.tag
    if not r.keep or not isinstance(tag, str):
        return None
    if r.plain and el.text is None and not len(el):
        xml = leaf_xml(tag, el.items())
        if xml is not None:
            return xml
    return str(etree.tostring(el, encoding="unicode", with_tail=False))


def keep(r: Reader, kind: str, owner: str, el: Any, into: list[Extension]) -> None:
    """Append ``el`` kept verbatim, owned by ``kind`` ``owner``, to ``into``."""
    xml = kept_xml(r, el)
    if xml is not None:
        into.append(_EXTENSION(kind, owner, xml, el.tag))


def keep_on(r: Reader, kind: str, raw: RawLink | RawJoint | RawSensor, el: Any) -> None:
    """:func:`keep` ``el`` in record ``raw``'s own list (made on its first kept element)."""
    xml = kept_xml(r, el)
    if xml is not None:
        if not isinstance(raw.exts, list):
            raw.exts = []
        raw.exts.append(_EXTENSION(kind, raw.name, xml, el.tag))


def kept_texts(r: Reader, elements: list[Any]) -> tuple[str, ...]:
    """The verbatim XML of the ``elements`` kept (none when extensions are not kept)."""
    if not elements:
        return ()
    return tuple(x for x in map(partial(kept_xml, r), elements) if x is not None)


def frame_joint_marker(frame: str, joint: str) -> Extension:
    """Return the record of the URDF joint name of the fake link ``frame``.

    Written only when that name is not the exporter's ``<frame>_fixed_joint``, so that a round
    trip keeps the document's joint names.
    """
    xml = f"<joint name={_attr(joint)}/>"
    return Extension(owner_kind="frame", owner=frame, xml=xml, tag="joint")


def _attr(s: str) -> str:
    return '"' + s.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") + '"'


def canonical_order(
    robot: list[Extension],
    links: list[RawLink],
    joints: list[RawJoint],
    frames: list[str],
    fake_of: dict[str, tuple[RawLink, RawJoint]],
    markers: dict[str, Extension],
    sensors: list[RawSensor],
) -> list[Extension]:
    """Return the kept elements in the order the exporter writes their owners.

    By owner kind (robot, link, frame, joint, sensor), then by the owner's place in the model
    (links, then frames by frame index; joints, then the fixed joints of frames by frame
    index), document order within one owner: the order survives writing, because the exporter
    writes owners in that order, not in the document's. The children kept inside an owner's
    ``<inertial>`` or ``<force_torque>`` follow its own.
    """
    out = list(robot)
    for raw in links:
        out += raw.exts
        out += raw.inertial_exts
    fakes = [fake_of[name] for name in frames if name in fake_of]
    for fake_link, _ in fakes:
        out += fake_link.exts
        out += fake_link.inertial_exts
    out += [markers[name] for name in frames if name in markers]
    for rj in joints:
        out += rj.exts
    for _, fake_joint in fakes:
        out += fake_joint.exts
    for rs in sensors:
        out += rs.exts
        out += rs.ft_exts
    return out


# ---------------------------------------------------------------------- writing
def kept_by_owner(
    model: Model,
) -> tuple[dict[tuple[str, str], list[Extension]], dict[str, str]]:
    """Return the model's kept elements by ``(owner kind, owner)`` and the frames' joint names."""
    kept: dict[tuple[str, str], list[Extension]] = {}
    frame_joint: dict[str, str] = {}
    for e in model.extensions:
        if e.owner_kind == "frame" and e.tag == "joint":
            name = etree.fromstring(e.xml).get("name")
            if name:
                frame_joint[e.owner] = name
        else:
            kept.setdefault((e.owner_kind, e.owner), []).append(e)
    return kept, frame_joint


def write_kept(w: Writer, kind: str, owner: str, indent: str, skip: str = "") -> None:
    """Write the elements kept for ``kind`` ``owner`` (except those with tag ``skip``)."""
    if not w.options.write_extensions:
        return
    key = (kind, owner)
    exts = w.kept.get(key)
    w.used.add(key)
    if exts:
        for e in exts:
            if e.tag != skip:
                w.out.append(indent + e.xml)


def kept_blocks(w: Writer, kind: str, owners: list[str], indent: str) -> list[str]:
    """Return per owner the lines of its kept elements, each after a newline (``""``: none).

    :func:`write_kept` for many owners of one kind, as text to put inside each owner: the
    kept elements of that kind are looked up by owner name in one pass.
    """
    if not w.options.write_extensions or not w.kept:
        return [""] * len(owners)
    texts = w.kept_texts.get((kind, indent))
    if texts is None:  # each kind's texts are made once per export (joints and frames share)
        # Each owner's text is one join of its elements' texts (no comprehension per owner,
        # which is a function call), or its one element's (most owners keep one element:
        # joining a map first makes a list of it).
        sep = "\n" + indent
        texts = w.kept_texts[(kind, indent)] = {}
        for (k, owner), exts in w.kept.items():
            if k == kind and exts:
                texts[owner] = (
                    sep + exts[0].xml if len(exts) == 1 else sep + sep.join(map(_XML, exts))
                )
    if not texts:
        return [""] * len(owners)
    blocks = list(map(texts.get, owners, repeat("", len(owners))))
    w.used.update(zip(repeat(kind), texts.keys() & owners))
    return blocks


_XML = attrgetter("xml")


def write_robot_kept(w: Writer) -> None:
    """Write the robot's own kept elements; warn about those whose owner is gone."""
    if not w.options.write_extensions:
        return
    for e in w.kept.get(("robot", ""), ()):
        w.out.append("  " + e.xml)
    w.used.add(("robot", ""))
    gone = w.kept.keys() - w.used
    stale = [
        f"{e.owner_kind} {e.owner!r}: <{e.tag}>"
        for key, exts in w.kept.items()
        if key in gone
        for e in exts
    ]
    if stale:
        warn(
            f"{len(stale)} kept extension element(s) belong to elements the model no "
            f"longer has and were not written: {'; '.join(stale[:5])}"
        )


def blob_xml(w: Writer, blob: str) -> str:
    """Return the XML ``blob`` of :attr:`DumpOptions.xml_blobs` as one checked element."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        el = etree.fromstring(blob.encode("utf-8"), parser)
    except etree.XMLSyntaxError as e:
        raise w.fail("xml blob", f"not well-formed XML ({e}); fix the blob") from None
    return str(etree.tostring(el, encoding="unicode", with_tail=False))
