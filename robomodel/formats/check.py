"""What is wrong with a model file: :func:`check_file`, what ``robomodel validate`` reports.

The file-level counterpart of :meth:`Model.problems() <robomodel.model.record.Model.problems>`:
the same checks table (:mod:`robomodel.model.checks`), plus the checks that read the files the
model refers to (its meshes), with the line of each element in a URDF file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from robomodel.formats.table import format_for_input
from robomodel.formats.urdf.report import Sources, recording
from robomodel.model.checks import Finding, findings, locate
from robomodel.model.record import Model

__all__ = ["check_file"]


def check_file(
    path: str | os.PathLike[str],
    *,
    model: Model | None = None,
    origins: Sources | None = None,
    package_dirs: Sequence[str] = (),
    keep_fake_links: bool = False,
    xacro_args: Mapping[str, str] | None = None,
    xacro: bool | None = None,
) -> tuple[Finding, ...]:
    """Return every finding of the model in the file ``path``, gravest first.

    The findings of :meth:`Model.problems(severity="note")
    <robomodel.model.record.Model.problems>` and of the mesh-file checks
    (:data:`~robomodel.model.checks.FILE_CHECKS`), each with the line of its element when the
    file is URDF. The file is read by its extension as ``robomodel`` reads it (URDF when no
    format claims the extension), with inconsistent inertias loaded silently: the ``inertia``
    check reports them.

    Args:
        path: the model file.
        model: the model already read from ``path`` (the file is then not read again).
        origins: where ``model`` was read (the sources a URDF load reports:
            :func:`robomodel.formats.urdf.load_with_report`); with them findings name their
            lines and relative meshes resolve in the file's directory.
        package_dirs: directories searched for ``package://`` meshes.
        keep_fake_links: read massless leaf links of a URDF as links, not frames.
        xacro_args: the arguments of a xacro document.
        xacro: expand xacro in a file of any name (``None``: only a ``.xacro`` file). xacro
            runs Python code from the file: only for files you trust.

    Raises:
        RobomodelError: the file cannot be read as a model (a
            :class:`~robomodel.errors.URDFError`, ...); the loader's warnings are not caught.
        OSError: the file cannot be opened.

    >>> from robomodel.data import example_path
    >>> check_file(example_path())
    ()
    """
    if model is None:
        file = Path(path)
        with recording() as read:
            model = format_for_input(file).read(
                file,
                keep_fake_links=keep_fake_links,
                package_dirs=package_dirs,
                xacro_args=xacro_args,
                xacro=xacro,
                inertia="ignore",
            )
        origins = read[-1] if read else None
    found = findings(model, files=True, origins=origins)
    return found if origins is None else locate(found, origins.lines)
