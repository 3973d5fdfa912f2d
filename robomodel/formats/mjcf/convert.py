"""File conversion between URDF and MJCF, for ``robomodel convert a.urdf a.xml --to mjcf``."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Literal

import attrs

from robomodel.errors import ArgumentError, deprecated
from robomodel.formats.mjcf._kept import PREFIX
from robomodel.formats.mjcf.dump import dump
from robomodel.formats.mjcf.load import loads_with_report, read_mjcf
from robomodel.formats.mjcf.options import DumpOptions, LoadOptions
from robomodel.formats.report import ConversionReport, Loss
from robomodel.model.builders import with_package_dirs

__all__ = ["convert"]

_DEFAULT_EXPORT = DumpOptions()
_DEFAULT_IMPORT = LoadOptions()


def convert(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    to: Literal["mjcf", "urdf"] | None = None,
    package_dirs: Iterable[str] = (),
    dump_options: DumpOptions = _DEFAULT_EXPORT,
    load_options: LoadOptions = _DEFAULT_IMPORT,
    export_options: DumpOptions | None = None,
    import_options: LoadOptions | None = None,
) -> ConversionReport:
    """Convert a URDF file to MJCF or an MJCF file to URDF and return the conversion report.

    Args:
        source: the file to read.
        target: the file to write (replaced in one step).
        to: ``"mjcf"`` or ``"urdf"``; when ``None``, a ``.urdf`` source goes to MJCF and a
            ``.xml`` or ``.mjcf`` source to URDF.
        package_dirs: directories searched for ``package://`` meshes of a URDF source.
        dump_options: options of the MJCF writer (URDF -> MJCF); when its ``base_dir`` is
            ``None``, relative mesh filenames are relative to the URDF file's directory.
        load_options: options of the MJCF reader (MJCF -> URDF).
        export_options: deprecated name of ``dump_options``.
        import_options: deprecated name of ``load_options``.

    Raises:
        ArgumentError: ``to`` is not given and the source suffix does not tell the direction.
    """
    if export_options is not None:
        deprecated("convert(export_options=...)", "dump_options=...")
        dump_options = export_options
    if import_options is not None:
        deprecated("convert(import_options=...)", "load_options=...")
        load_options = import_options
    src = os.fspath(source)
    if to is None:
        suffix = os.path.splitext(src)[1].lower()
        if suffix == ".urdf":
            to = "mjcf"
        elif suffix in (".xml", ".mjcf"):
            to = "urdf"
        else:
            raise ArgumentError(
                f"cannot tell the direction from {src!r}; pass to='mjcf' or to='urdf'"
            )
    if to == "mjcf":
        from robomodel.formats import urdf

        model = with_package_dirs(urdf.load(src), [*package_dirs])
        if dump_options.base_dir is None:
            # The model does not remember where it was read; relative meshes are the file's.
            dump_options = attrs.evolve(
                dump_options, base_dir=os.path.dirname(os.path.abspath(src))
            )
        return dump(model, target, options=dump_options)
    if to == "urdf":
        from robomodel.formats import urdf

        text = read_mjcf(src)
        model, report = loads_with_report(text, options=load_options, path=src)
        kept = [x for x in model.extensions if x.tag.startswith(PREFIX)]
        if kept:
            # MuJoCo's own sections mean nothing in URDF.
            model = attrs.evolve(
                model, extensions=[x for x in model.extensions if not x.tag.startswith(PREFIX)]
            )
            lost = tuple(
                Loss(action="dropped", kind="kept section", name=x.tag, detail="MJCF only")
                for x in kept
            )
            report = attrs.evolve(report, losses=report.losses + lost)
        urdf.dump(model, target)
        return report
    raise ArgumentError(f"to must be 'mjcf' or 'urdf', got {to!r}")
