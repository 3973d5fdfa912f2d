"""``<link>``: its inertial, visuals and collisions, read beside written.

:func:`read_link` returns a :class:`~robomodel.formats.urdf._records.RawLink` record; whether
the link stays a link or becomes a frame of its neighbour is decided with the whole tree
(:mod:`robomodel.formats.urdf._tree`).
:func:`link_blocks` writes model links, :func:`write_bare_link` the massless link that carries
an additional frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

import numpy as np

from robomodel._internal.construct import make
from robomodel.formats.urdf._document import Reader, Writer, fill, q, quote_names, required
from robomodel.formats.urdf._extensions import keep_on, kept_blocks, write_kept
from robomodel.formats.urdf._geometry import read_shape, shape_blocks
from robomodel.formats.urdf._inertial import inertial_texts, read_inertial
from robomodel.formats.urdf._records import NO_SHAPES, RawLink
from robomodel.formats.urdf.errors import URDFValueError
from robomodel.model.record import Link, Model
from robomodel.model.shapes import Material, SolidShape
from robomodel.model.spatial import SpatialInertia

__all__ = ["link_blocks", "link_shapes", "link_value", "read_link", "write_bare_link"]


def read_link(r: Reader, el: Any, db: dict[str, Material]) -> RawLink:
    """Return the record of ``<link>`` ``el`` (``db``: the robot-level materials)."""
    name = el.get("name")
    if not name or name.isspace():
        name = required(r, el, "link", "name")
    raw = RawLink(name, el)
    if not len(el):
        return raw
    what = f"link {name!r}"
    inertial = None
    for ch in el:
        tag = ch.tag
        if tag == "inertial":
            if inertial is not None:
                raise r.err(URDFValueError, ch, what, "a second <inertial>; give one")
            inertial = ch
            read_inertial(r, ch, raw, what)
        elif tag == "visual" or tag == "collision":
            s = read_shape(r, ch, what, db)
            if s is None:
                keep_on(r, "link", raw, ch)
            elif tag == "visual":
                if raw.visuals is NO_SHAPES:
                    raw.visuals = []
                raw.visuals.append(s)  # type: ignore[union-attr]
            else:
                if raw.collisions is NO_SHAPES:
                    raw.collisions = []
                raw.collisions.append(s)  # type: ignore[union-attr]
        else:
            keep_on(r, "link", raw, ch)
    return raw


_ZERO_LINK = Link()
_LINK = make(Link)


def link_value(inertia: SpatialInertia | None) -> Link:
    """Return the link of a record's inertia (zero without an ``<inertial>``)."""
    return _ZERO_LINK if inertia is None else _LINK(inertia)


_LINK_PARTS = ("  <link name=", ">\n    <inertial>\n", "/>", "\n    </inertial>", "", "\n  </link>")


def link_shapes(m: Model, lis: Sequence[int]) -> tuple[list[str], list[SolidShape], list[str]]:
    """The shapes of links ``lis`` in document order (each link's visuals, then collisions).

    Per shape: its tag, the shape, and its link's name.
    """
    # By whole columns, without a Python step per link: the groups (each link's visuals, then
    # its collisions) chained in C, each group's tag and each link's name repeated by numpy.
    names, visuals, collisions = m.link_names, m.visuals, m.collisions
    groups = list(chain.from_iterable([(visuals[li], collisions[li]) for li in lis]))
    counts = np.fromiter(map(len, groups), dtype=np.intp, count=len(groups))
    shapes: list[SolidShape] = list(chain.from_iterable(groups))
    tags: list[str] = _SHAPE_TAGS[(np.arange(len(groups)) & 1).repeat(counts)].tolist()
    per_link = counts[0::2] + counts[1::2]
    owners: list[str] = np.array([names[li] for li in lis], dtype=object).repeat(per_link).tolist()
    return tags, shapes, owners


_SHAPE_TAGS = np.array(["visual", "collision"], dtype=object)
_SHAPE_TAGS.flags.writeable = False


def link_blocks(
    w: Writer,
    lis: Sequence[int],
    shapes_of: tuple[list[str], list[SolidShape], list[str]] | None = None,
) -> Callable[[Sequence[str]], list[str]]:
    """Add the numbers of links ``lis`` to ``w.pending``; return a function of their texts.

    Once ``w.pending`` is formatted, the function returned gives the ``<link>`` of each link
    ``lis`` of the model, one text each, in order, from the ``<origin>`` of each shape of
    :func:`link_shapes` (``shapes_of``, when the caller has it already). The inertials' and
    shapes' numbers are formatted with the export's (:func:`inertial_texts`,
    :func:`shape_blocks`).

    Raises:
        URDFExportError: a shape's name or file name holds control characters.
    """
    m = w.model
    tags, shapes, owners = link_shapes(m, lis) if shapes_of is None else shapes_of
    shape_texts = shape_blocks(w, tags, shapes, owners)
    links = m.links
    inertials = inertial_texts(w, [links[li].inertia for li in lis])
    names = [m.link_names[li] for li in lis]
    quoted = quote_names(names)
    kept_inertials = kept_blocks(w, "inertial", names, "      ")
    kept_links = kept_blocks(w, "link", names, "    ")

    def texts(origins: Sequence[str]) -> list[str]:
        if not names:
            return []
        blocks = iter(shape_texts(origins))
        visuals, collisions = m.visuals, m.collisions
        shape_groups = [
            "".join(["\n" + next(blocks) for _ in range(len(visuals[li]) + len(collisions[li]))])
            for li in lis
        ]
        return fill(_LINK_PARTS, quoted, inertials(), kept_inertials, shape_groups, kept_links)

    return texts


def write_bare_link(w: Writer, fname: str) -> None:
    """Write the massless link of frame ``fname``, with what was kept from its URDF link."""
    exts = w.kept.get(("link", fname)) if w.options.write_extensions else None
    kept = w.kept.get(("inertial", fname)) if w.options.write_extensions else None
    if exts or kept:
        w.out.append(f"  <link name={q(fname)}>")
        if kept:  # a massless <inertial> (the link stays a frame) holding them
            w.out.append('    <inertial>\n      <mass value="0"/>')
            write_kept(w, "inertial", fname, "      ")
            w.out.append("    </inertial>")
        write_kept(w, "link", fname, "    ")
        w.out.append("  </link>")
    else:
        w.used.add(("link", fname))
        w.out.append(f"  <link name={q(fname)}/>")
