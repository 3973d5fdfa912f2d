"""The URDF reads and writes that also say what they did: the reports, and where each element was.

URDF and a robomodel model do not hold the same things: a massless leaf link on a fixed joint
is read as an additional frame (``LoadOptions.remove_fake_links``), frames are written back as
such links, and the elements robomodel does not model are kept verbatim only when asked
(``LoadOptions.keep_extensions``, ``DumpOptions.write_extensions``).
:func:`loads_with_report` and :func:`dumps_with_report` list each of those, in the vocabulary
every format shares (:class:`~robomodel.formats.report.Loss`).

Where each element was read is not part of the model (two equal models behave alike wherever
they came from): :func:`load_result` and :func:`loads_result` take exactly the arguments of
:func:`robomodel.formats.urdf.load` and :func:`~robomodel.formats.urdf.loads` and return a
:class:`LoadResult`, the model and its :class:`~robomodel.formats.urdf._sources.Sources` (file,
element and mesh lines, the directory relative meshes are in). ``robomodel validate`` names lines
with it (:func:`robomodel.model.checks.locate`), and mesh checks resolve relative filenames with
it (``check_meshes(model, origins=result.sources)``). :func:`recording` collects the sources of
every URDF load inside a ``with`` block, for callers that load through another function.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from robomodel.formats.report import ConversionReport, Loss
from robomodel.formats.urdf._sources import Sources as Sources
from robomodel.formats.urdf._sources import recording as recording
from robomodel.formats.urdf.dump import dumps
from robomodel.formats.urdf.load import load, loads
from robomodel.formats.urdf.options import DumpOptions, LoadOptions
from robomodel.model.record import Model

__all__ = [
    "LoadResult",
    "Sources",
    "dumps_with_report",
    "load_result",
    "loads_result",
    "loads_with_report",
    "recording",
]

_DEFAULT_LOAD = LoadOptions()
_DEFAULT_DUMP = DumpOptions()


def loads_with_report(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT_LOAD,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
    resolver: Callable[[str], str] | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    xacro_args: Mapping[str, str] | None = None,
    xacro: bool | None = None,
) -> tuple[Model, ConversionReport]:
    """Return :func:`~robomodel.formats.urdf.loads` of ``text`` and the report of what it changed.

    The arguments are those of :func:`~robomodel.formats.urdf.loads`. The report lists every
    link read as a frame (``"changed"``) and, with ``keep_extensions=False``, every element
    not kept (``"dropped"``; finding those reads the document a second time).
    """

    def read(o: LoadOptions) -> Model:
        return loads(
            text,
            filename=filename,
            options=o,
            package_dirs=package_dirs,
            resolver=resolver,
            base_dir=base_dir,
            xacro_args=xacro_args,
            xacro=xacro,
        )

    model = read(options)
    sensors = {s.name for s in model.sensors} if options.add_sensor_frames else set()
    # Every additional frame of a URDF document is a fake link or a sensor's frame.
    losses = [
        Loss(
            action="changed",
            kind="link",
            name=f.name,
            detail=f"a massless leaf link on a fixed joint, read as a frame of {f.link!r}",
        )
        for f in model.frames
        if f.name not in sensors
    ]
    if not options.keep_extensions:
        kept = read(attrs.evolve(options, keep_extensions=True)).extensions
        losses += [
            Loss(
                action="dropped",
                kind="extension",
                name=x.tag,
                detail=f"of {x.owner_kind} {x.owner!r}" if x.owner else "of the robot",
            )
            for x in kept
        ]
    return model, ConversionReport(losses=tuple(losses))


def dumps_with_report(
    model: Model, *, options: DumpOptions = _DEFAULT_DUMP
) -> tuple[str, ConversionReport]:
    """Return :func:`~robomodel.formats.urdf.dumps` of ``model`` and the report of what it changed.

    The report lists every additional frame written as a massless link on a fixed joint
    (``"changed"``) and, with ``write_extensions=False``, every kept element not written
    (``"dropped"``).

    >>> import robomodel as rm
    >>> m = rm.add_frame(rm.add_link(rm.Model(), "base"), "base", "tip")
    >>> text, report = dumps_with_report(m)
    >>> print(report)
    changed frame 'tip': written as a massless link on a fixed joint to 'base'
    """
    text = dumps(model, options=options)
    losses = [
        Loss(
            action="changed",
            kind="frame",
            name=f.name,
            detail=f"written as a massless link on a fixed joint to {f.link!r}",
        )
        for f in model.frames
    ]
    if not options.write_extensions:
        losses += [
            Loss(
                action="dropped",
                kind="extension",
                name=x.tag,
                detail=f"of {x.owner_kind} {x.owner!r}" if x.owner else "of the robot",
            )
            for x in model.extensions
        ]
    return text, ConversionReport(losses=tuple(losses))


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
