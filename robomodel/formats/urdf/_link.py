"""``<link>``: its inertial, visuals and collisions, read beside written.

:func:`read_link` returns a :class:`~robomodel.formats.urdf._records.RawLink` record; whether
the link stays a link or becomes a frame of its neighbour is decided with the whole tree
(:mod:`robomodel.formats.urdf._tree`).
:func:`write_link` writes a model link, :func:`write_bare_link` the massless link that carries
an additional frame.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from robomodel._internal.construct import make
from robomodel.formats.urdf._document import Reader, Writer, q, required
from robomodel.formats.urdf._extensions import keep_on, write_kept
from robomodel.formats.urdf._geometry import read_shape, write_shape
from robomodel.formats.urdf._inertial import inertial_texts, read_inertial, write_inertial
from robomodel.formats.urdf._origin import origin_texts
from robomodel.formats.urdf._records import NO_SHAPES, RawLink
from robomodel.formats.urdf.errors import URDFValueError
from robomodel.model.record import Link
from robomodel.model.shapes import Material
from robomodel.model.spatial import SpatialInertia

__all__ = ["link_value", "read_link", "write_bare_link", "write_link", "write_links"]


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


def write_links(w: Writer, lis: Sequence[int]) -> None:
    """Write links ``lis`` of the model in order; the numbers of all are formatted at once."""
    m = w.model
    shapes = [s for li in lis for group in (m.visuals[li], m.collisions[li]) for s in group]
    origins = iter(origin_texts([s.link_H_geometry for s in shapes], None, w.memo))
    inertials = inertial_texts(w, [m.links[li].inertia for li in lis])
    names = m.link_names
    for li, inertial in zip(lis, inertials, strict=True):
        w.guard(f"link {names[li]!r}", write_link, li, origins, inertial)


def write_link(
    w: Writer, li: int, origins: Iterator[str] | None = None, inertial: str | None = None
) -> None:
    """Write link ``li`` of the model.

    ``origins`` yields its shapes' ``<origin>`` (visuals, then collisions) and ``inertial`` is
    its inertial's body, when :func:`write_links` computed them for many links.
    """
    m, out = w.model, w.out
    name = m.link_names[li]
    out.append(f"  <link name={q(name)}>")
    write_inertial(w, name, m.links[li].inertia, inertial)
    for s in m.visuals[li]:
        write_shape(w, "visual", s, None if origins is None else next(origins))
    for s in m.collisions[li]:
        write_shape(w, "collision", s, None if origins is None else next(origins))
    write_kept(w, "link", name, "    ")
    out.append("  </link>")


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
