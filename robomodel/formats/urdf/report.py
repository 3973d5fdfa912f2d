"""A load with its report: the model and where each of its elements was read.

:func:`load_result` and :func:`loads_result` take exactly the arguments of
:func:`robomodel.formats.urdf.load` and :func:`~robomodel.formats.urdf.loads` and return a
:class:`LoadResult`: the model (equal to what ``load`` returns, of the same plain values) and
its :class:`~robomodel.formats.urdf._sources.Sources` (file, element and mesh lines, the
directory relative meshes are in). ``robomodel validate`` names lines with it
(:func:`robomodel.model.checks.locate`), and mesh checks resolve relative filenames with it
(``check_meshes(model, origins=result.sources)``). :func:`recording` collects the sources of
every URDF load inside a ``with`` block, for callers that load through another function.
"""

from __future__ import annotations

import os
from typing import Any

import attrs

from robomodel.formats.urdf._sources import Sources as Sources
from robomodel.formats.urdf._sources import recording as recording
from robomodel.formats.urdf.load import load, loads
from robomodel.model.record import Model

__all__ = ["LoadResult", "Sources", "load_result", "loads_result", "recording"]


@attrs.frozen(kw_only=True)
class LoadResult:
    """A loaded model and where it was read.

    Attributes:
        model: the model.
        sources: the file, the lines of its elements and meshes, the mesh base directory.
    """

    model: Model
    sources: Sources


def load_result(path: str | os.PathLike[str], **kwargs: Any) -> LoadResult:
    """Return :func:`~robomodel.formats.urdf.load` of ``path`` with its sources.

    >>> from robomodel.data import example_path
    >>> result = load_result(example_path())
    >>> result.sources.line("link", "root_link")
    25
    """
    with recording() as box:
        model = load(path, **kwargs)
    return LoadResult(model=model, sources=box[-1])


def loads_result(text: str | bytes, **kwargs: Any) -> LoadResult:
    """Return :func:`~robomodel.formats.urdf.loads` of ``text`` with its sources."""
    with recording() as box:
        model = loads(text, **kwargs)
    return LoadResult(model=model, sources=box[-1])
