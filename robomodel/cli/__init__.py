"""The ``robomodel`` command: inspect, edit, convert and draw robot models from a shell.

Every subcommand reads a model (a URDF file, a robomodel JSON file, or ``example`` for the
bundled humanoid, the default), and writes its result to ``-o FILE`` or to standard output.
A ``.xacro`` file is expanded through xacro; another file using xacro is expanded only with
``--xacro``, and refused without it, since xacro runs the Python code in the file.
Bad input (a missing file, a malformed URDF, an unknown link or joint name) is reported as one
line on standard error with exit status 2; ``validate`` exits with 1 when the model has errors
and ``diff`` with 1 when the models differ, like ``diff(1)``.

Run ``robomodel --help`` or ``robomodel <command> --help`` for the options; ``robomodel demo``
runs a typical pipeline on the bundled model and says what each step did.

The layers, from the top: this module (the entry point), ``robomodel.cli._parser`` (the table
of subcommands and the argument parser built from it), ``robomodel.cli._commands`` (one
``run_<command>`` function per subcommand) and ``robomodel.cli._demo``, both on
``robomodel.cli._shell`` (reading and writing the models named on a command line), which writes
files through ``robomodel._internal.files.atomic_write``. Only :func:`main` is public: the
console script and ``python -m robomodel`` call it.

>>> main(["tree", "--no-frames", "--no-sensors", "--base", "l_foot"])  # doctest: +ELLIPSIS
l_foot  1 kg
└─ l_ankle_roll (revolute, axis -1 0 0) ─ l_ankle_1  0.3 kg
...
0
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence

from robomodel.cli._parser import build_parser
from robomodel.cli._shell import BAD_INPUT, CLIError, format_of, one_line

__all__ = ["main"]

# --------------------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``robomodel`` command with ``argv`` (default: ``sys.argv[1:]``).

    Returns:
        The exit status: 0 on success, 1 for ``validate`` errors and ``diff`` differences,
        2 for bad input.
    """
    from robomodel.errors import RobomodelError, RobomodelWarning

    parser = build_parser()
    args = parser.parse_args(argv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RobomodelWarning)
        try:
            if hasattr(args, "format"):
                # Refuse an output format or extension robomodel cannot write before any work.
                format_of(args.output, args.format)
            status: int = args.run(args)
        except (RobomodelError, CLIError, OSError, ValueError, KeyError, SyntaxError) as e:
            _report_warnings(caught, args.command)
            print(f"robomodel {args.command}: error: {one_line(e)}", file=sys.stderr)
            return BAD_INPUT
    _report_warnings(caught, args.command)
    return status


def _report_warnings(caught: list[warnings.WarningMessage], command: str) -> None:
    for w in caught:
        text = " ".join(str(w.message).split())
        print(f"robomodel {command}: warning: {text}", file=sys.stderr)
