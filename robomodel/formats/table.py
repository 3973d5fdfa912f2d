"""The model file formats the ``robomodel`` command reads and writes: one table, one entry each.

A format is a name (what ``--to`` and ``--format`` take), the file extensions that stand for it,
and the module that reads and writes it, imported only when a file of that format is used (so
``robomodel --help`` does not import lxml). The module's ``dumps(model) -> str`` (or the
function the entry names) writes the format; reading goes through the module's ``load(path)``
where it has one (file names and lines in its errors, files the model refers to resolved next
to it; for URDF also the fake-link option) and through ``loads(text) -> Model`` (or the
function the entry names) otherwise. A new format is one more entry in :data:`FORMATS`, as MJCF is:
``ModelFormat(name="mjcf", extensions=(".xml", ".mjcf"), module="robomodel.formats.mjcf", ...)``.

The command never writes a format under an extension that stands for another one, and refuses
an extension it does not know unless ``--to`` says what to write: ``convert a.urdf out.dae``
fails instead of writing URDF text into ``out.dae``.

>>> [f.name for f in FORMATS]
['urdf', 'json', 'mjcf', 'sdf', 'usd']
>>> format_for_output("robot.JSON", None).name
'json'
>>> format_for_output("robot.dae", None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
robomodel.errors.CLIError: robot.dae: cannot write '.dae' files; robomodel writes .urdf ...
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import attrs

from robomodel._internal.files import read_regular
from robomodel.errors import CLIError
from robomodel.model import Model

__all__ = ["FORMATS", "ModelFormat", "format_for_input", "format_for_output", "format_named"]


@attrs.frozen(kw_only=True)
class ModelFormat:
    """One model file format of the command line.

    Attributes:
        name: the name given to ``--to`` / ``--format`` (``"urdf"``).
        extensions: the file extensions of the format, lower case with the dot; the first is
            the one suggested in messages.
        module: the module (imported when needed) that reads and writes the format.
        description: a few words for messages and ``--help``.
        dumps_function: the name of the module's function ``(model) -> str``.
        loads_function: the name of the module's function ``(text) -> Model``.
        writes_files: the module writes files itself (:meth:`write`), as OpenUSD does for its
            binary ``.usdc``; text goes to standard output through ``dumps``.
    """

    name: str
    extensions: tuple[str, ...]
    module: str
    description: str
    dumps_function: str = "dumps"
    loads_function: str = "loads"
    writes_files: bool = False

    def _function(self, name: str) -> Callable[..., Any]:
        return cast("Callable[..., Any]", getattr(importlib.import_module(self.module), name))

    def dumps(self, model: Model, *, base_dir: str | None = None) -> str:
        """Return ``model`` as text of this format.

        ``base_dir`` is the directory relative mesh filenames are relative to (the directory
        of the file the model was read from), for the formats that read the meshes (MJCF, USD:
        ``DumpOptions.base_dir``); the others keep filenames as they are.

        URDF is written through :func:`robomodel.formats.urdf.dumps_with_report`, so a model
        whose joint axes miss their child's origin is made URDF-compatible rather than refused.

        Warns:
            RobomodelWarning: URDF only: links were moved onto their joints' axes (one entry
                each, from the conversion report).
        """
        if self.name == "urdf" and self.dumps_function == "dumps":
            from robomodel.formats.report import ConversionReport, warn_losses
            from robomodel.formats.urdf import dumps_with_report

            text, report = dumps_with_report(model)
            moved = tuple(x for x in report.losses if x.kind == "link" and x.action == "changed")
            warn_losses(
                ConversionReport(losses=moved),
                what="export",
                full_report="robomodel.formats.urdf.dumps_with_report",
                fmt="URDF",
            )
            return text
        if self.name in ("mjcf", "usd") and self.dumps_function == "dumps" and base_dir is not None:
            module = importlib.import_module(self.module)
            return cast("str", module.dumps(model, options=module.DumpOptions(base_dir=base_dir)))
        return cast("str", self._function(self.dumps_function)(model))

    def write(self, model: Model, path: str, *, base_dir: str | None = None) -> None:
        """Write ``model`` to the file ``path`` through the module's ``dump`` (``writes_files``).

        Args:
            model: the model.
            path: the file; its extension chooses text or binary where the format has both.
            base_dir: the directory relative mesh filenames are relative to (the source file's).
        """
        module = importlib.import_module(self.module)
        if self.name == "usd":
            module.dump(model, path, options=module.DumpOptions(base_dir=base_dir))
        else:
            module.dump(model, path)

    def read(
        self,
        path: Path,
        *,
        keep_fake_links: bool = False,
        package_dirs: Sequence[str] = (),
        xacro_args: Mapping[str, str] | None = None,
        xacro: bool | None = None,
        inertia: str = "warn",
    ) -> Model:
        """Read the model in the file ``path``.

        Args:
            path: the file.
            keep_fake_links: URDF only: keep massless leaf links as links instead of frames.
            package_dirs: directories for ``package://`` meshes, after the model's own.
            xacro_args: URDF only: the arguments of a xacro document.
            xacro: URDF only: the loader's ``xacro`` (``True`` expands xacro in a file of any
                name; xacro runs the Python code in the file).
            inertia: URDF only: the :class:`~robomodel.formats.urdf.LoadOptions` ``inertia`` policy.

        Raises:
            CLIError: ``xacro_args`` for a format other than URDF.
        """
        if self.name == "urdf":
            from robomodel.formats import urdf

            options = urdf.LoadOptions(
                remove_fake_links=not keep_fake_links,
                # The command line still takes the previous release's "error" for "raise".
                inertia="raise" if inertia == "error" else inertia,  # type: ignore[arg-type]
            )
            return urdf.load(
                path,
                options=options,
                package_dirs=package_dirs,
                xacro_args=xacro_args,
                xacro=xacro,
            )
        if xacro_args:
            raise CLIError(
                f"{path}: --xacro-arg is for xacro files, and this is {self.description}"
            )
        module = importlib.import_module(self.module)
        if hasattr(module, "load"):
            # Readers given the path resolve what the file refers to (includes, meshes)
            # relative to its directory.
            model = cast("Model", module.load(path))
        else:
            text = read_regular(path).decode("utf-8")
            model = cast("Model", self._function(self.loads_function)(text))
        if package_dirs:
            from robomodel.model.updates import with_package_dirs

            model = with_package_dirs(model, [*model.package_dirs, *package_dirs])
        return model


FORMATS: tuple[ModelFormat, ...] = (
    ModelFormat(
        name="urdf", extensions=(".urdf",), module="robomodel.formats.urdf", description="URDF"
    ),
    ModelFormat(
        name="json",
        extensions=(".json",),
        module="robomodel.formats.json",
        description="robomodel JSON",
    ),
    ModelFormat(
        name="mjcf",
        extensions=(".xml", ".mjcf"),
        module="robomodel.formats.mjcf",
        description="MuJoCo MJCF (needs the mujoco extra)",
    ),
    ModelFormat(
        name="sdf",
        extensions=(".sdf", ".world"),
        module="robomodel.formats.sdf",
        description="SDFormat",
    ),
    ModelFormat(
        name="usd",
        extensions=(".usda", ".usdc", ".usd"),
        module="robomodel.formats.usd",
        description="OpenUSD with UsdPhysics (needs the usd extra; .usdc and .usd are binary)",
        writes_files=True,
    ),
)
"""Every format, the default (URDF) first. A file is read as the format its content holds
(:func:`format_for_input`); a file whose content and extension say nothing is read as URDF."""


def format_named(name: str) -> ModelFormat:
    """Return the format called ``name`` (as given to ``--to``).

    Raises:
        CLIError: no format has that name.
    """
    for f in FORMATS:
        if f.name == name:
            return f
    known = ", ".join(f.name for f in FORMATS)
    raise CLIError(f"unknown format {name!r}; robomodel writes {known}")


def _by_extension(path: str) -> ModelFormat | None:
    suffix = Path(path).suffix.lower()
    return next((f for f in FORMATS if suffix in f.extensions), None)


def format_for_input(path: Path, requested: str | None = None) -> ModelFormat:
    """Return the format to read ``path`` with: ``requested``, else what the file holds.

    ``requested`` (``--from``) wins. Otherwise the content decides
    (:func:`robomodel.formats.detect.content_format`: the root element ``<robot>``,
    ``<mujoco>`` or ``<sdf>``, or JSON), so that a URDF file named ``.xml`` is read as URDF;
    a file whose content says nothing goes by its extension, URDF when no format claims it.

    Warns:
        RobomodelWarning: the extension stands for another format than the content (the file
            is read as what it holds).

    Raises:
        CLIError: ``requested`` is not a format robomodel reads, or the file holds a format no
            entry of :data:`FORMATS` reads (SDFormat without the SDFormat reader).
    """
    if requested is not None:
        return format_named(requested)
    by_ext = _by_extension(str(path))
    try:
        data = read_regular(path)
    except OSError:
        # The reader opens the file again and says what is wrong with it, in its own words.
        return by_ext or FORMATS[0]
    from robomodel.formats.detect import content_format, root_element

    found = content_format(data)
    if found is None:
        return by_ext or FORMATS[0]
    fmt = next((f for f in FORMATS if f.name == found), None)
    root = root_element(data)
    holds = f"a <{root}> document" if root is not None else "JSON"
    if fmt is None:
        known = ", ".join(f.name for f in FORMATS)
        raise CLIError(
            f"{path}: holds {holds} ({found}), a format this robomodel cannot read; it reads "
            f"{known}"
        )
    if by_ext is not None and by_ext is not fmt:
        from robomodel.errors import warn

        warn(
            f"{path}: the extension {Path(path).suffix!r} stands for {by_ext.name} but the file "
            f"holds {holds}: reading it as {fmt.description} (rename the file; the command's "
            "--from FORMAT chooses the reader)"
        )
    return fmt


def format_for_output(output: str | None, requested: str | None) -> ModelFormat:
    """Return the format to write to ``output`` (``None`` or ``-``: standard output).

    ``requested`` (``--to``) wins, but not against an extension that stands for another format
    (``-o model.json --to urdf`` is refused). Without it the extension decides; standard output
    gets URDF.

    Raises:
        CLIError: the extension is not one robomodel writes, or contradicts ``requested``.
    """
    to_stdout = output is None or output == "-"
    by_ext = None if to_stdout else _by_extension(cast("str", output))
    if requested is not None:
        fmt = format_named(requested)
        if by_ext is not None and by_ext is not fmt:
            raise CLIError(
                f"{output}: the extension says {by_ext.name} but --to says {fmt.name}; "
                f"name the file with {fmt.extensions[0]} or leave out --to"
            )
        return fmt
    if to_stdout:
        return FORMATS[0]
    if by_ext is None:
        suffix = Path(cast("str", output)).suffix.lower()
        what = f"{suffix!r} files" if suffix else "files without an extension"
        known = ", ".join(f"{f.extensions[0]} ({f.name})" for f in FORMATS)
        raise CLIError(
            f"{output}: cannot write {what}; robomodel writes {known}; name the file with one "
            "of these extensions, or give --to FORMAT"
        )
    return by_ext
