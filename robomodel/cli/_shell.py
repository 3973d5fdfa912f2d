"""What the ``robomodel`` command and ``robomodel demo`` share: models named on a command line.

Reading a model from a file name or a bundled model name, the one-line model summary, writing
text to a file (atomically) or to standard output, and turning an error into one line. The
command (:mod:`robomodel.cli`, ``robomodel.cli._commands``) and the demo
(``robomodel.cli._demo``) both build on this module; it imports neither.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from robomodel._internal.files import atomic_write
from robomodel.errors import CLIError, RobomodelError, UnknownNameError, UnreadableModelError
from robomodel.model.record import Model

__all__ = [
    "BAD_INPUT",
    "CLIError",
    "UnreadableModelError",
    "emit",
    "format_of",
    "model_summary",
    "model_text",
    "note",
    "one_line",
    "read_model",
]

BAD_INPUT = 2
"""Exit status for bad input: unreadable files, malformed models, unknown names, bad options."""


def read_model(
    source: str,
    *,
    keep_fake_links: bool = False,
    package_dirs: Sequence[str] = (),
    xacro_args: Mapping[str, str] | None = None,
    xacro: bool | None = None,
    inertia: str = "warn",
    input_format: str | None = None,
) -> Model:
    """Load a model from a model file or a bundled model name.

    Args:
        source: a file of one of the formats in :data:`robomodel.formats.table.FORMATS` (by its
            content, see :func:`robomodel.formats.table.format_for_input`; a file whose content
            and extension say nothing is read as URDF), or ``example``.
        keep_fake_links: keep massless leaf links as links instead of frames.
        package_dirs: directories searched for ``package://`` meshes (``--package-dir``).
        xacro_args: the arguments of a xacro document (``--xacro-arg NAME:=VALUE``).
        xacro: ``True`` to expand a URDF file using xacro whatever its name (``--xacro``; xacro
            runs the Python code in the file); ``None`` expands only ``.xacro`` files.
        inertia: what a URDF's inconsistent inertias do (``LoadOptions.inertia``).
        input_format: the name of the format to read the file as (``--from``), whatever it
            holds; ``None`` decides by the content.

    Warns:
        RobomodelWarning: the file's extension stands for another format than its content.

    Raises:
        CLIError: the file does not exist or is not a regular file (a directory, a FIFO).
        UnreadableModelError: a reader failed on the file outside its own checks (invalid
            UTF-8, nesting too deep, a number too large, ...).
        URDFError: the URDF is malformed, or uses xacro and is not expanded
            (``XacroNotExpandedError``).
        RobomodelError: the JSON is not a robomodel model.
    """
    from robomodel.data import BUNDLED_MODELS, example_path

    if source in BUNDLED_MODELS and not Path(source).exists():
        path = example_path(source)
    else:
        path = Path(source)
        if not path.exists():
            raise CLIError(
                f"{source}: no such file (give a URDF path, or 'example' for the bundled model)"
            )
        if path.is_dir():
            raise CLIError(f"{source}: is a directory, not a model file")
        if not path.is_file():
            # A FIFO or a device: reading it blocks forever or never ends.
            raise CLIError(f"{source}: is not a regular file (a FIFO or a device?)")
    from robomodel.formats.table import format_for_input

    try:
        return format_for_input(path, input_format).read(
            path,
            keep_fake_links=keep_fake_links,
            package_dirs=package_dirs,
            xacro_args=xacro_args,
            xacro=xacro,
            inertia=inertia,
        )
    except (RobomodelError, OSError, SyntaxError) as e:
        if str(path) not in str(e) and source not in str(e):
            # The JSON reader names the place in the document, not the file; keep the error
            # (callers may catch its class) and say which file it is about.
            e.add_note(f"in {source}")
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError) as e:
        # A reader that lets a malformed document reach Python's own checks (deep nesting,
        # invalid UTF-8, a number too large, a list where a mapping belongs) still met bad
        # input, not a bug of the command: say which file and what went wrong.
        raise UnreadableModelError(
            f"{source}: not a valid model file ({type(e).__name__}: {e})"
        ) from e
    except RecursionError as e:
        raise UnreadableModelError(f"{source}: not a valid model file (nested too deeply)") from e


def model_summary(model: Model) -> str:
    """Return a one-line summary: name and counts of links, joints, DOFs, frames, sensors.

    The DOF count says how many are actuated and how many mimic another joint, if any.
    """
    from robomodel.errors import ModelError
    from robomodel.model.mimic import dof_counts

    try:
        dofs = dof_counts(model)  # "44 DOFs (20 actuated, 24 mimic)"
    except ModelError:
        dofs = f"{model.n_dofs} DOFs"  # mimic relations that do not resolve: validate says why
    return (
        f"{model.name or 'model'} ({model.n_links} links, {model.n_joints} joints, "
        f"{dofs}, {len(model.frames)} frames, {len(model.sensors)} sensors)"
    )


def format_of(output: str | None, requested: str | None) -> str:
    """Return the name of the model format to write to ``output`` (``--to`` is ``requested``).

    See :func:`robomodel.formats.table.format_for_output`.

    Raises:
        CLIError: ``output``'s extension is not a format robomodel writes, or contradicts
            ``requested``.
    """
    from robomodel.formats.table import format_for_output

    return format_for_output(output, requested).name


def model_text(model: Model, fmt: str, *, base_dir: str | None = None) -> str:
    """Return ``model`` as text of the format named ``fmt`` (``"urdf"``, ``"json"``, ...).

    ``base_dir`` is the directory relative mesh filenames are relative to (the input file's).
    """
    from robomodel.formats.table import format_named

    return format_named(fmt).dumps(model, base_dir=base_dir)


def emit(text: str, output: str | None) -> None:
    """Write ``text`` (with a final newline) to the file ``output``, or to standard output.

    ``None`` and ``-`` mean standard output. A file is replaced only once the whole text is
    written (:func:`robomodel._internal.files.atomic_write`), so a failure leaves it as it was.
    """
    text = text if text.endswith("\n") else text + "\n"
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    atomic_write(output, text)


def note(text: str) -> None:
    """Print a remark for the user on standard error (standard output may carry the model)."""
    print(text, file=sys.stderr)


def one_line(error: BaseException) -> str:
    """Return the message of ``error`` on one line (``KeyError`` without its quotes).

    Notes added to the error (``add_note``, such as the file it is about) follow in parentheses.
    """
    if isinstance(error, KeyError) and not isinstance(error, UnknownNameError) and error.args:
        text = str(error.args[0])
    else:
        text = str(error)
    text = " ".join(line.strip() for line in text.splitlines() if line.strip()) or repr(error)
    notes = [str(n) for n in getattr(error, "__notes__", ())]
    return f"{text} ({'; '.join(notes)})" if notes else text
