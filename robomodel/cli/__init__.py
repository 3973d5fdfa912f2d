"""The ``robomodel`` command: inspect, edit, convert and draw robot models from a shell.

Every subcommand reads a model (a URDF file, a robomodel JSON file, or ``example`` for the
bundled humanoid, the default), and writes its result to ``-o FILE`` or to standard output.
Bad input (a missing file, a malformed URDF, an unknown link or joint name) is reported as one
line on standard error with exit status 2; ``validate`` exits with 1 when the model has errors
and ``diff`` with 1 when the models differ, like ``diff(1)``.

Run ``robomodel --help`` or ``robomodel <command> --help`` for the options; ``robomodel demo``
runs a typical pipeline on the bundled model and says what each step did.

The layers, from the top: this module (the argument parser and the entry point),
:mod:`robomodel.cli.commands` (one ``run_<command>`` function per subcommand) and
:mod:`robomodel.cli.demo`, both on ``robomodel.cli._shell`` (reading and writing the models named
on a
command line), which writes files through ``robomodel._internal.files.atomic_write``.

>>> main(["tree", "--no-frames", "--no-sensors", "--base", "l_foot"])  # doctest: +ELLIPSIS
l_foot  1 kg
└─ l_ankle_roll (revolute, axis -1 0 0) ─ l_ankle_1  0.3 kg
...
0
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import NoReturn

from robomodel.cli import commands
from robomodel.cli._shell import BAD_INPUT, CLIError, format_of, model_summary, one_line, read_model

__all__ = ["CLIError", "build_parser", "main", "model_summary", "read_model"]

# --------------------------------------------------------------------------- parser


def _add_model(p: argparse.ArgumentParser, *, fake_links: bool = True) -> None:
    p.add_argument(
        "model",
        nargs="?",
        help="a URDF file, a robomodel .json file, or 'example' for the bundled humanoid "
        "(the default)",
    )
    p.add_argument("--model", "-m", dest="model_option", metavar="MODEL", help="same as MODEL")
    if fake_links:
        p.add_argument(
            "--keep-fake-links",
            action="store_true",
            help="load every URDF link as a link (by default massless leaf links on fixed "
            "joints become frames of their neighbour, as in iDynTree)",
        )
        p.add_argument(
            "--inertia",
            choices=("raise", "warn", "ignore", "error"),
            help="a URDF inertia no rigid body has (not positive semi-definite, or breaking the "
            "triangle inequality): fail, warn (the default) or load it silently ('error' is "
            "the previous release's name of 'raise')",
        )
    _add_loading(p)


def _add_loading(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--package-dir",
        dest="package_dirs",
        action="append",
        default=[],
        metavar="DIR",
        help="a directory holding package folders, searched for package:// and model:// "
        "meshes and xacro's $(find PKG); repeat for more",
    )
    p.add_argument(
        "--env-package-dirs",
        action="store_true",
        help="also search the directories ROS_PACKAGE_PATH, AMENT_PREFIX_PATH (their share/) "
        "and GAZEBO_MODEL_PATH name (by default the environment is not read)",
    )
    p.add_argument(
        "--xacro-arg",
        dest="xacro_args",
        action="append",
        default=[],
        metavar="NAME:=VALUE",
        help="the value of a xacro document's <xacro:arg> (.xacro files and files in the "
        "xacro namespace are expanded with the xacro package); repeat for more",
    )


def _add_output(p: argparse.ArgumentParser, *, model: bool = True) -> None:
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    if model:
        _add_format(p)


def _add_format(p: argparse.ArgumentParser) -> None:
    from robomodel.formats.table import FORMATS

    p.add_argument(
        "--to",
        "--format",
        dest="format",
        choices=[f.name for f in FORMATS],
        help="output format (default: from the output file's extension: "
        + ", ".join(f"{'/'.join(f.extensions)} for {f.name}" for f in FORMATS)
        + "; urdf on standard output); other extensions are refused",
    )


def _add_explain(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--explain",
        action="store_true",
        help="print what the transformer did (lumped, moved, dropped, ...) on standard error",
    )


def _add_lumped(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--lumped-sensors",
        choices=("warn", "drop", "raise"),
        default="warn",
        help="force/torque sensors in removed joints: drop with a warning (default), drop "
        "quietly, or fail",
    )


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (plus the usage), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the ``robomodel`` argument parser (exposed for documentation tools)."""
    from robomodel import __version__
    from robomodel.formats.table import FORMATS

    parser = _Parser(
        prog="robomodel",
        description="Inspect, edit, convert and draw robot models (URDF with iDynTree's sensor "
        "dialect). Every command reads the bundled example humanoid unless given a model.",
        epilog="Start with: robomodel demo",
    )
    parser.add_argument("--version", action="version", version=f"robomodel {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def cmd(name: str, run: Callable[[argparse.Namespace], int], text: str) -> _Parser:
        p: _Parser = sub.add_parser(name, help=text, description=text)
        p.set_defaults(run=run)
        return p

    p = cmd("info", commands.run_info, "counts, mass, DOFs, sensors and the kinematic tree")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--no-tree", action="store_true", help="leave out the kinematic tree")

    p = cmd("tree", commands.run_tree, "print the kinematic tree")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--base", metavar="LINK", help="start from this link (default: default base)")
    p.add_argument("--no-frames", action="store_true", help="leave out additional frames")
    p.add_argument("--no-sensors", action="store_true", help="leave out sensors")

    p = cmd(
        "validate",
        commands.run_validate,
        "list every finding (error, warning, note); exit status 1 if there are errors",
    )
    _add_model(p)
    p.add_argument(
        "--show",
        choices=("error", "warning", "note"),
        default="warning",
        help="list findings of this severity and graver (default: warning; 'note' lists "
        "every finding)",
    )
    p.add_argument("--strict", action="store_true", help="exit status 1 on warnings too")

    p = cmd("reduce", commands.run_reduce, "keep only some joints, lumping the links of the others")
    _add_model(p)
    _add_output(p)
    p.add_argument(
        "--joints",
        nargs="+",
        required=True,
        metavar="JOINT",
        help="joints to keep, in this order; shell patterns such as 'l_*' are expanded",
    )
    p.add_argument(
        "--lock",
        nargs="+",
        action="extend",
        metavar="JOINT=VALUE",
        help="position of a removed joint (rad or m; '30deg' for degrees); default 0",
    )
    _add_lumped(p)
    _add_explain(p)

    p = cmd(
        "rebase", commands.run_rebase, "make another link the base (URDF root), moving link frames"
    )
    _add_model(p)
    _add_output(p)
    p.add_argument("--base", required=True, metavar="LINK", help="the new base link")
    p.add_argument(
        "--no-urdf-compatible",
        action="store_true",
        help="only change the default base; do not move link frames onto joint axes",
    )
    _add_explain(p)

    p = cmd(
        "remove-fake-links", commands.run_remove_fake_links, "turn massless leaf links into frames"
    )
    _add_model(p, fake_links=False)
    _add_output(p)
    p.add_argument("--iterate", action="store_true", help="also collapse chains of fake links")
    _add_lumped(p)
    _add_explain(p)

    p = cmd(
        "normalize", commands.run_normalize, "renumber joints: moving first, in traversal order"
    )
    _add_model(p)
    _add_output(p)
    p.add_argument("--base", metavar="LINK", help="traversal base (default: default base)")
    _add_explain(p)

    p = cmd(
        "urdf-compatible",
        commands.run_urdf_compatible,
        "move link frames onto their joint axes so that URDF can express the model",
    )
    _add_model(p)
    _add_output(p)
    p.add_argument("--base", metavar="LINK", help="the URDF root (default: default base)")
    _add_explain(p)

    p = cmd("attach", commands.run_attach, "attach another model to a frame with a fixed joint")
    _add_model(p)
    _add_output(p)
    p.add_argument("--other", required=True, metavar="MODEL", help="the model to attach")
    p.add_argument("--at", required=True, metavar="FRAME", help="a link or frame of MODEL")
    p.add_argument("--other-base", metavar="FRAME", help="where OTHER is held (its base)")
    p.add_argument("--xyz", nargs=3, default=["0", "0", "0"], metavar="M", help="position")
    p.add_argument("--rpy", nargs=3, default=["0", "0", "0"], metavar="RAD", help="roll pitch yaw")
    p.add_argument("--joint-name", metavar="NAME", help="the connecting joint's name")
    p.add_argument("--prefix", metavar="TEXT", help="prefix for OTHER's names")
    p.add_argument(
        "--on-conflict",
        choices=("raise", "prefix"),
        default="raise",
        help="names used by both models: fail (default) or prefix OTHER's",
    )
    _add_explain(p)

    p = cmd("prefix", commands.run_prefix, "put a prefix in front of every name")
    _add_model(p)
    _add_output(p)
    p.add_argument("--prefix", required=True, metavar="TEXT", help="the prefix, e.g. left_")
    _add_explain(p)

    p = cmd("rename", commands.run_rename, "rename links, joints, frames or sensors")
    _add_model(p)
    _add_output(p)
    p.add_argument("--map", nargs="+", required=True, metavar="OLD=NEW", help="renames")
    _add_explain(p)

    p = cmd("diff", commands.run_diff, "compare two models; exit status 1 if they differ")
    p.add_argument("a", metavar="A", help="first model (file or 'example')")
    p.add_argument("b", metavar="B", help="second model")
    p.add_argument("--atol", type=float, default=1e-9, help="tolerance for numbers (1e-9)")
    p.add_argument("--ignore-order", action="store_true", help="ignore element order")
    p.add_argument("--keep-fake-links", action="store_true", help="load fake links as links")
    _add_loading(p)
    _add_output(p, model=False)

    p = cmd(
        "convert",
        commands.run_convert,
        "convert between model formats (" + ", ".join(f.description for f in FORMATS) + ")",
    )
    p.add_argument("input", metavar="IN", help="input model (a file or 'example')")
    p.add_argument(
        "output",
        metavar="OUT",
        help="output file (" + ", ".join(f.extensions[0] for f in FORMATS) + "), '-' for stdout",
    )
    _add_format(p)
    p.add_argument("--keep-fake-links", action="store_true", help="load fake links as links")
    _add_loading(p)

    p = cmd("to-dh", commands.run_to_dh, "extract the DH chain between two frames (iKin text)")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--from", dest="base_frame", required=True, metavar="FRAME", help="chain root")
    p.add_argument("--to", dest="end_frame", required=True, metavar="FRAME", help="end-effector")
    p.add_argument(
        "--exact",
        action="store_true",
        help="print every number as stored (by default rounding noise is printed as the value "
        "it stands for: lengths below 1e-9 m as 0, angles within 1e-8 deg of a multiple of 90 "
        "deg as that multiple)",
    )

    p = cmd(
        "from-dh", commands.run_from_dh, "build a model from a DH chain (iKin text or iCub preset)"
    )
    p.add_argument("chain", nargs="?", metavar="CHAIN", help="an iKin chain file")
    p.add_argument(
        "--icub", nargs=2, metavar=("LIMB", "TYPE"), help="an iCub preset, e.g. arm right_v2.7"
    )
    p.add_argument("--name", help="the robot name")
    p.add_argument(
        "--mass",
        metavar="KG",
        help="the mass of every link, at its origin (default 1, as iDynTree's "
        "CreateModelFromDHChain; 0 for massless links)",
    )
    _add_output(p)

    p = cmd("draw", commands.run_draw, "draw the kinematic tree as SVG (no Graphviz needed)")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--base", metavar="LINK", help="the tree's root (default: default base)")
    p.add_argument("--no-frames", action="store_true", help="leave out additional frames")
    p.add_argument("--no-sensors", action="store_true", help="leave out sensors")
    p.add_argument("--subtree", metavar="LINK", help="draw only LINK and what hangs below it")
    p.add_argument(
        "--depth", type=int, metavar="N", help="draw links at most N joints below the top"
    )
    p.add_argument(
        "--collapse",
        choices=("fixed",),
        help="'fixed': draw links on fixed joints inside their parent's box",
    )
    p.add_argument(
        "--max-aspect",
        type=float,
        default=3.0,
        metavar="R",
        help="wrap wide families until the picture is at most R times wider than tall (3)",
    )

    p = cmd(
        "plot",
        commands.run_plot,
        "draw link and sensor frames in 3D at a configuration (matplotlib)",
    )
    _add_model(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="image (.png, .svg, .pdf)")
    p.add_argument(
        "--q",
        nargs="+",
        action="extend",
        metavar="JOINT=VALUE",
        help="joint positions (rad or m; '30deg' for degrees); others are 0",
    )
    p.add_argument("--base", metavar="LINK", help="link drawn at the origin")
    p.add_argument("--no-frames", action="store_true", help="leave out additional frames")
    p.add_argument("--no-sensors", action="store_true", help="leave out sensors")
    p.add_argument("--no-labels", action="store_true", help="leave out link names")
    p.add_argument(
        "--all-labels",
        action="store_true",
        help="name every link (by default names closer than 1/25 of the robot's size to a "
        "heavier link's are left out)",
    )
    p.add_argument(
        "--label-size",
        type=float,
        metavar="PT",
        help="font size of the names (default: 8 pt for a dozen names, down to 5 for a hundred)",
    )
    p.add_argument("--dpi", type=int, default=120, help="resolution (120)")

    p = cmd(
        "scene",
        commands.run_scene,
        "write the robot's shapes at a configuration as a 3D scene (.glb, .obj; needs trimesh)",
    )
    _add_model(p)
    p.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="scene file (.glb, .obj, ...)"
    )
    p.add_argument(
        "--q",
        nargs="+",
        action="extend",
        metavar="JOINT=VALUE",
        help="joint positions (rad or m; '30deg' for degrees); others are 0",
    )
    p.add_argument("--base", metavar="LINK", help="link placed at the origin")
    p.add_argument(
        "--collision", action="store_true", help="the collision shapes instead of the visuals"
    )

    p = cmd("demo", commands.run_demo, "run a typical pipeline on the bundled model and explain it")
    p.add_argument("--model", "-m", dest="model_option", metavar="MODEL", help=argparse.SUPPRESS)
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write example_legs.urdf (and the pictures) into DIR, made if missing (default: a "
        "new temporary directory, printed at the start)",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the result to FILE instead")
    p.add_argument("--svg", action="store_true", help="also draw the trees before and after")
    return parser


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
