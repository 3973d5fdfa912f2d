"""Where a load read each element: the loader's report, kept apart from the model's values.

A loaded model holds the same plain values as a built one; the file, the lines of its links,
joints, sensors and meshes and the directory relative mesh filenames are relative to are a
:class:`Sources` record that :func:`robomodel.formats.urdf.load_with_report` returns in its
report. The loader hands it to whoever listens through a context variable (the pattern of
Hypothesis' build context), so that :func:`~robomodel.formats.urdf.load` keeps returning just
the model and no parameter threads through every reader.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import attrs
from pyrsistent import PMap, pmap

__all__ = ["Sources", "element_lines", "listening", "note_sources", "recording"]


def _frozen(lines: Mapping[Any, int]) -> Mapping[Any, int]:
    return lines if isinstance(lines, PMap) else pmap(lines)


@attrs.frozen(kw_only=True)
class Sources:
    """Where one load read its model.

    Attributes:
        file: the file name as given to the loader (``"<string>"`` for text; a xacro file's
            name says ``(expanded by xacro)`` and its lines are those of the expansion).
        base_dir: the directory relative mesh filenames are relative to, or ``None``.
        lines: the line of each ``<link>``, ``<joint>`` and ``<sensor>`` element, by
            ``(tag, name)``; a link that became a frame keeps its ``("link", name)`` line.
        mesh_lines: the line of each mesh's ``<mesh>`` element, by ``(link, "visual" or
            "collision", index)`` as in the model (the shapes of a link that became a frame
            are on its neighbour's list).
    """

    file: str
    base_dir: str | None = None
    lines: Mapping[tuple[str, str], int] = attrs.field(factory=pmap, converter=_frozen)
    mesh_lines: Mapping[tuple[str, str, int], int] = attrs.field(factory=pmap, converter=_frozen)

    def line(self, kind: str, name: str) -> int | None:
        """Return the line of element ``<kind name=...>``, or ``None`` when not read here."""
        return self.lines.get((kind, name))


_listener: ContextVar[list[Sources] | None] = ContextVar("robomodel_urdf_sources", default=None)


@contextmanager
def recording() -> Iterator[list[Sources]]:
    """Collect the :class:`Sources` of every URDF load run inside the ``with`` block.

    The list yielded receives one record per load, in order.
    """
    box: list[Sources] = []
    token = _listener.set(box)
    try:
        yield box
    finally:
        _listener.reset(token)


def listening() -> bool:
    """Whether a :func:`recording` is open (the loader then gathers the shapes' lines)."""
    return _listener.get() is not None


def element_lines(
    links: list[Any], joints: list[Any], sensors: list[Any]
) -> dict[tuple[str, str], int]:
    """Return the line of each link, joint and sensor record's element, by ``(tag, name)``."""
    lines: dict[tuple[str, str], int] = {}
    for tag, records in (("link", links), ("joint", joints), ("sensor", sensors)):
        for raw in records:
            line = raw.el.sourceline
            if line is not None:
                lines.setdefault((tag, raw.name), line)
    return lines


def note_sources(r: Any, lines: dict[tuple[str, str], int], shapes: dict[str, list[Any]]) -> None:
    """Give the listening :func:`recording` the sources of the load reader ``r``.

    ``lines`` are the :func:`element_lines`; ``shapes`` gives per model link its visual and
    collision records, in the model's order.
    """
    box = _listener.get()
    if box is None:
        return
    mesh_lines = {
        (link, kind, k): s.line
        for link, (visuals, collisions) in shapes.items()
        for kind, raws in (("visual", visuals), ("collision", collisions))
        for k, s in enumerate(raws)
        if s.line is not None
    }
    box.append(Sources(file=r.file, base_dir=r.base_dir, lines=lines, mesh_lines=mesh_lines))
