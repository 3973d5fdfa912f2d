"""The URDF reads and writes that also say what they did: the reports, and where each element was.

URDF and a robomodel model do not hold the same things: a massless leaf link on a fixed joint
is read as an additional frame (``LoadOptions.remove_fake_links``), frames are written back as
such links, and the elements robomodel does not model are kept verbatim only when asked
(``LoadOptions.keep_extensions``, ``DumpOptions.write_extensions``).
:func:`load_with_report`, :func:`loads_with_report` and :func:`dumps_with_report` list each of
those, in the vocabulary every format shares (:class:`~robomodel.formats.report.Loss`).

Where each element was read is not part of the model (two equal models behave alike wherever
they came from): a load's report is a :class:`LoadReport`, which also holds its
:class:`~robomodel.formats.urdf._sources.Sources` (file, element and mesh lines, the directory
relative meshes are in). ``robomodel validate`` names lines with it
(:func:`robomodel.model.checks.locate`), and mesh checks resolve relative filenames with it
(``check_meshes(model, origins=report.sources)``). :func:`recording` collects the sources of
every URDF load inside a ``with`` block, for callers that load through another function.
``load_result`` and ``loads_result`` (a ``LoadResult`` of the model and its sources) are the
deprecated names of the same reads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from robomodel._internal.deprecation import renamed_attributes
from robomodel.formats.report import ConversionReport, Loss
from robomodel.formats.urdf._sources import Sources as Sources
from robomodel.formats.urdf._sources import recording as recording
from robomodel.formats.urdf.dump import dumps
from robomodel.formats.urdf.load import load, loads
from robomodel.formats.urdf.options import DumpOptions, LoadOptions
from robomodel.model.record import Model

__all__ = [
    "LoadReport",
    "Sources",
    "dumps_with_report",
    "load_with_report",
    "loads_with_report",
    "recording",
]

_DEFAULT_LOAD = LoadOptions()
_DEFAULT_DUMP = DumpOptions()


@attrs.frozen(kw_only=True)
class LoadReport(ConversionReport):
    """The report of a URDF read: what it changed or dropped, and where it read each element.

    Attributes:
        sources: the file, the lines of its elements and meshes, and the directory relative
            mesh filenames are relative to (the file's; for text, the ``base_dir`` given).
    """

    sources: Sources = attrs.field(factory=lambda: Sources(file="<string>"))


def load_with_report(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT_LOAD,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
    resolver: Callable[[str], str] | None = None,
    xacro_args: Mapping[str, str] | None = None,
    xacro: bool | None = None,
) -> tuple[Model, LoadReport]:
    """Return :func:`~robomodel.formats.urdf.load` of ``path`` and the report of the read.

    The arguments are those of :func:`~robomodel.formats.urdf.load`; the report is that of
    :func:`loads_with_report`, its ``sources`` naming ``path`` and its directory.

    >>> from robomodel.data import example_path
    >>> model, report = load_with_report(example_path())
    >>> report.sources.line("link", "root_link")
    25
    >>> report.sources.base_dir == str(example_path().parent)
    True
    """

    def read(o: LoadOptions) -> Model:
        return load(
            path,
            options=o,
            package_dirs=package_dirs,
            resolver=resolver,
            xacro_args=xacro_args,
            xacro=xacro,
        )

    return _with_report(read, options)


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
) -> tuple[Model, LoadReport]:
    """Return :func:`~robomodel.formats.urdf.loads` of ``text`` and the report of what it changed.

    The arguments are those of :func:`~robomodel.formats.urdf.loads`. The report lists every
    link read as a frame (``"changed"``) and, with ``keep_extensions=False``, every element
    not kept (``"dropped"``; finding those reads the document a second time); its
    ``sources`` say where each element was read (lines, the ``base_dir`` of relative meshes).
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

    return _with_report(read, options)


def _with_report(
    read: Callable[[LoadOptions], Model], options: LoadOptions
) -> tuple[Model, LoadReport]:
    """Run one URDF read with ``options`` and make its report (see :func:`loads_with_report`)."""
    with recording() as box:
        model = read(options)
    sources = box[0]
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
    return model, LoadReport(losses=tuple(losses), sources=sources)


def dumps_with_report(
    model: Model, *, options: DumpOptions = _DEFAULT_DUMP
) -> tuple[str, ConversionReport]:
    """Return :func:`~robomodel.formats.urdf.dumps` of ``model`` and the report of what it changed.

    URDF puts each child link's origin on the axis of its moving joint; a model whose axes
    miss their child's origin (an MJCF joint with a ``pos``, an iDynTree model) is first made
    URDF-compatible (:func:`robomodel.transformers.make_urdf_compatible`: the child frames are
    translated onto the axes, everything else re-expressed, the mechanism unchanged, a frame
    ``<link>_original_frame`` at each old pose), and the report says so for each moved link.

    The report lists every additional frame written as a massless link on a fixed joint
    (``"changed"``) and, with ``write_extensions=False``, every kept element not written
    (``"dropped"``).

    >>> import robomodel as rm
    >>> m = rm.add_frame(rm.add_link(rm.Model(), "base"), "base", "tip")
    >>> text, report = dumps_with_report(m)
    >>> print(report)
    changed frame 'tip': written as a massless link on a fixed joint to 'base'
    """
    written, moved = urdf_compatible(model, options)
    text = dumps(written, options=options)
    losses = [
        Loss(
            action="changed",
            kind="link",
            name=link,
            detail=f"its frame is moved onto the axis of joint {joint!r} (URDF puts a child "
            "link's origin on its joint's axis); inertia, shapes, frames and sensors are "
            f"re-expressed, the mechanism is unchanged; frame {frame!r} keeps the old frame"
            if frame
            else f"its frame is moved onto the axis of joint {joint!r} (URDF puts a child "
            "link's origin on its joint's axis); the mechanism is unchanged",
        )
        for link, joint, frame in moved
    ]
    losses += [
        Loss(
            action="changed",
            kind="frame",
            name=f.name,
            detail=f"written as a massless link on a fixed joint to {f.link!r}",
        )
        for f in written.frames
    ]
    massless, welded = _mujoco_import_facts(written, options)
    losses += [
        Loss(
            action="note",
            kind="link",
            name=name,
            detail="massless on a moving joint: valid URDF (Pinocchio and iDynTree load it), "
            "but MuJoCo's URDF import refuses a moving body without mass; "
            "robomodel.formats.mjcf writes it (merged or bounded) instead",
        )
        for name in massless
    ]
    if welded > 0.0:
        base = written.link_names[written.traversal(options.base).base]
        losses.append(
            Loss(
                action="note",
                kind="link",
                name=base,
                detail=f"the URDF root: MuJoCo's URDF import welds it to the world and fuses it "
                f"and the links welded to it into the world body (fusestatic), so their "
                f"{welded!r} kg are not in MuJoCo's total mass (Pinocchio and iDynTree count "
                "them); robomodel.formats.mjcf keeps them",
            )
        )
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


def _mujoco_import_facts(model: Model, options: DumpOptions) -> tuple[list[str], float]:
    """What MuJoCo's URDF import does with ``model``'s masses.

    Returns the links on a moving joint (from the base) with no mass, nor mass welded to them
    (MuJoCo refuses them), and the mass of the base with the links welded to it (MuJoCo fuses
    it into its world body).
    """
    from robomodel.errors import RobomodelError
    from robomodel.model.joints import FixedJoint

    try:
        trav = model.traversal(options.base)
    except RobomodelError:
        return [], 0.0
    # Mass carried by each link together with the links welded to it (fixed joints below).
    carried = [link.inertia.mass for link in model.links]
    for link, j, parent in reversed(list(zip(trav.links, trav.joints, trav.parents, strict=True))):
        if j is not None and isinstance(model.joints[j], FixedJoint) and parent is not None:
            carried[parent] += carried[link]
    massless = [
        model.link_names[link]
        for link, j in zip(trav.links, trav.joints, strict=True)
        if j is not None and not isinstance(model.joints[j], FixedJoint) and carried[link] <= 0.0
    ]
    return massless, carried[trav.base]


def urdf_compatible(
    model: Model, options: DumpOptions = _DEFAULT_DUMP
) -> tuple[Model, list[tuple[str, str, str | None]]]:
    """Return ``model`` made writable as URDF from ``options.base``, and what moved.

    The moved links come as ``(link, its joint from the base, the frame at its old pose or
    None)``. ``model`` itself, and no moves, when every axis passes through its child's origin
    or when the model cannot be written anyway (links not connected to the base: the writer
    says why).
    """
    from robomodel.errors import ModelError, RobomodelError
    from robomodel.transformers import make_urdf_compatible

    base = options.base
    try:
        try:
            new = make_urdf_compatible(model, base_link=base)
            originals = True
        except ModelError:
            # A "<link>_original_frame" name is taken: move the frames without the record.
            new = make_urdf_compatible(model, base_link=base, original_frames=False)
            originals = False
    except RobomodelError:
        return model, []
    if new is model:
        return model, []
    before = set(model.frame_names)
    trav = new.traversal(base)
    moved: list[tuple[str, str, str | None]] = []
    for link, j in zip(trav.links, trav.joints, strict=True):
        if j is None:
            continue
        name, joint = new.link_names[link], new.joint_names[j]
        frame = f"{name}_original_frame"
        if originals:
            if frame not in before and new.is_frame_name_used(frame):
                moved.append((name, joint, frame))
        elif new.joints[j] != model.joint(joint):
            # Without the record frames, a moved child shows in its joint's rest transform.
            moved.append((name, joint, None))
    return new, moved


@attrs.frozen(kw_only=True)
class _LoadResult:
    """A loaded model and where it was read (deprecated: see :func:`load_with_report`).

    Attributes:
        model: the model.
        sources: the file, the lines of its elements and meshes, the mesh base directory.
    """

    model: Model
    sources: Sources


def _load_result(path: str | os.PathLike[str], **kwargs: Any) -> _LoadResult:
    """The old ``load_result``: :func:`load_with_report` as a ``LoadResult``."""
    model, report = load_with_report(path, **kwargs)
    return _LoadResult(model=model, sources=report.sources)


def _loads_result(text: str | bytes, **kwargs: Any) -> _LoadResult:
    """The old ``loads_result``: :func:`loads_with_report` as a ``LoadResult``."""
    model, report = loads_with_report(text, **kwargs)
    return _LoadResult(model=model, sources=report.sources)


# One report-returning verb set for every format (docs/formats.md): the names of the separate
# "result" reads still work, with a DeprecationWarning.
__getattr__ = renamed_attributes(
    __name__,
    {
        "load_result": ("robomodel.formats.urdf.load_with_report", lambda: _load_result),
        "loads_result": ("robomodel.formats.urdf.loads_with_report", lambda: _loads_result),
        "LoadResult": ("robomodel.formats.urdf.LoadReport", lambda: _LoadResult),
    },
)
