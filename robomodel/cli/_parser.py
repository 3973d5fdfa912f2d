"""The ``robomodel`` argument parser, built from one table of subcommands.

Each subcommand is one :class:`Command` entry of the table :data:`COMMANDS`: its name, its
one-line help, its arguments in the order ``--help`` lists them, and the ``run_<command>``
function of ``robomodel.cli._commands`` that carries it out. Options several subcommands share
(the model to read, how to load it, the output file and format, ``--explain``) are declared
once below and named in the entries; texts that list the file formats are made when the parser
is built (:class:`FromFormats`). :func:`build_parser` only walks the table.

>>> [c.name for c in COMMANDS][:4]
['info', 'tree', 'validate', 'reduce']
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

import attrs

from robomodel.cli import _commands as commands
from robomodel.cli._shell import BAD_INPUT
from robomodel.formats import table

__all__ = ["COMMANDS", "Arg", "Command", "FromFormats", "build_parser"]


@attrs.frozen
class Arg:
    """One ``add_argument`` call: its flags (or positional name) and its keyword arguments."""

    flags: tuple[str, ...]
    options: Mapping[str, Any]


def arg(*flags: str, **options: Any) -> Arg:
    """Return the :class:`Arg` for ``parser.add_argument(*flags, **options)``."""
    return Arg(flags, options)


@attrs.frozen
class Command:
    """One subcommand: its name, one-line help, arguments in help order and the function run."""

    name: str
    help: str | FromFormats
    run: Callable[[argparse.Namespace], int]
    arguments: tuple[Arg, ...]


@attrs.frozen
class FromFormats:
    """A help text or list of choices made from the file formats robomodel knows.

    It is made when the parser is built, from what :data:`robomodel.formats.table.FORMATS`
    holds then, so that a format added there is offered by ``--to`` and ``convert`` at once.
    """

    make: Callable[[Sequence[table.ModelFormat]], Any]


def _resolved(value: Any) -> Any:
    return value.make(table.FORMATS) if isinstance(value, FromFormats) else value


# --------------------------------------------------------------------------- shared options

#: The model a subcommand reads: a positional file or ``--model``.
MODEL_SOURCE = (
    arg(
        "model",
        nargs="?",
        help="a URDF file, a robomodel .json file, or 'example' for the bundled humanoid "
        "(the default)",
    ),
    arg("--model", "-m", dest="model_option", metavar="MODEL", help="same as MODEL"),
)

#: How a URDF's doubtful links and inertias are read.
URDF_READING = (
    arg(
        "--keep-fake-links",
        action="store_true",
        help="load every URDF link as a link (by default massless leaf links on fixed "
        "joints become frames of their neighbour, as in iDynTree)",
    ),
    arg(
        "--inertia",
        choices=("raise", "warn", "ignore", "error"),
        help="a URDF inertia no rigid body has (not positive semi-definite, or breaking the "
        "triangle inequality): fail, warn (the default) or load it silently ('error' is "
        "the previous release's name of 'raise')",
    ),
)


def _input_format(*flags: str, dest: str = "input_format") -> Arg:
    return arg(
        *flags,
        dest=dest,
        metavar="FORMAT",
        choices=FromFormats(lambda formats: [f.name for f in formats]),
        help=FromFormats(
            lambda formats: (
                "read the model file as this format ("
                + ", ".join(f.name for f in formats)
                + "); by default the content decides (root element <robot>, <mujoco>, <sdf>, "
                "or JSON), then the extension"
            )
        ),
    )


#: The format a model file is read as, when its content should not decide.
INPUT_FORMAT = (_input_format("--from", "--from-format"),)

#: ``INPUT_FORMAT`` for commands whose ``--from`` means something else (``to-dh``).
INPUT_FORMAT_LONG = (_input_format("--from-format"),)

#: Where a model's packages, meshes and xacro arguments come from.
LOADING = (
    arg(
        "--package-dir",
        dest="package_dirs",
        action="append",
        default=[],
        metavar="DIR",
        help="a directory holding package folders, searched for package:// and model:// "
        "meshes and xacro's $(find PKG); repeat for more",
    ),
    arg(
        "--env-package-dirs",
        action="store_true",
        help="also search the directories ROS_PACKAGE_PATH, AMENT_PREFIX_PATH (their share/) "
        "and GAZEBO_MODEL_PATH name (by default the environment is not read)",
    ),
    arg(
        "--xacro",
        action="store_true",
        help="expand xacro in URDF files of any name (by default only .xacro files are "
        "expanded, and other files using xacro are refused). xacro runs the Python code in a "
        "file: give --xacro only for files you trust",
    ),
    arg(
        "--xacro-arg",
        dest="xacro_args",
        action="append",
        default=[],
        metavar="NAME:=VALUE",
        help="the value of a xacro document's <xacro:arg> (.xacro files, and with --xacro any "
        "file using xacro, are expanded with the xacro package); repeat for more",
    ),
)

MODEL = MODEL_SOURCE + URDF_READING + INPUT_FORMAT + LOADING
"""The model a subcommand reads, with every loading option."""

#: :data:`MODEL` for a command whose ``--from`` names something else.
MODEL_FROM_FORMAT = MODEL_SOURCE + URDF_READING + INPUT_FORMAT_LONG + LOADING

#: A fake-link-free reading, for the command that removes fake links itself.
MODEL_AS_WRITTEN = MODEL_SOURCE + INPUT_FORMAT + LOADING

#: Where the output goes; on its own for text output (a report, a tree, a picture).
OUTPUT = (arg("-o", "--output", metavar="FILE", help="write here instead of standard output"),)

EXPLAIN = (
    arg(
        "--explain",
        action="store_true",
        help="print what the transformer did (lumped, moved, dropped, ...) on standard error",
    ),
)

LUMPED_SENSORS = (
    arg(
        "--lumped-sensors",
        choices=("warn", "drop", "raise"),
        default="warn",
        help="force/torque sensors in removed joints: drop with a warning (default), drop "
        "quietly, or fail",
    ),
)

#: ``--keep-fake-links`` in its short form, for commands reading two models or any format.
KEEP_FAKE_LINKS = (arg("--keep-fake-links", action="store_true", help="load fake links as links"),)

JOINT_VALUES = (
    arg(
        "--q",
        nargs="+",
        action="extend",
        metavar="JOINT=VALUE",
        help="joint positions (rad or m; '30deg' for degrees); others are 0",
    ),
)

NO_FRAMES = (arg("--no-frames", action="store_true", help="leave out additional frames"),)
NO_SENSORS = (arg("--no-sensors", action="store_true", help="leave out sensors"),)


def _format_help(formats: Sequence[table.ModelFormat]) -> str:
    return (
        "output format (default: from the output file's extension: "
        + ", ".join(f"{'/'.join(f.extensions)} for {f.name}" for f in formats)
        + "; urdf on standard output); other extensions are refused"
    )


#: The format of a written model: one of the formats robomodel writes.
FORMAT = (
    arg(
        "--to",
        "--format",
        dest="format",
        choices=FromFormats(lambda formats: [f.name for f in formats]),
        help=FromFormats(_format_help),
    ),
)

#: A written model: the file and its format.
MODEL_OUTPUT = OUTPUT + FORMAT


# --------------------------------------------------------------------------- the subcommands

COMMANDS: tuple[Command, ...] = (
    Command(
        "info",
        "counts, mass, DOFs, sensors and the kinematic tree",
        commands.run_info,
        (
            *MODEL,
            *OUTPUT,
            arg("--no-tree", action="store_true", help="leave out the kinematic tree"),
        ),
    ),
    Command(
        "tree",
        "print the kinematic tree",
        commands.run_tree,
        (
            *MODEL,
            *OUTPUT,
            arg("--base", metavar="LINK", help="start from this link (default: default base)"),
            *NO_FRAMES,
            *NO_SENSORS,
        ),
    ),
    Command(
        "validate",
        "list every finding (error, warning, note); exit status 1 if there are errors",
        commands.run_validate,
        (
            *MODEL,
            arg(
                "--show",
                choices=("error", "warning", "note"),
                default="warning",
                help="list findings of this severity and graver (default: warning; 'note' "
                "lists every finding)",
            ),
            arg("--strict", action="store_true", help="exit status 1 on warnings too"),
        ),
    ),
    Command(
        "reduce",
        "keep only some joints, lumping the links of the others",
        commands.run_reduce,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg(
                "--joints",
                nargs="+",
                required=True,
                metavar="JOINT",
                help="joints to keep, in this order; shell patterns such as 'l_*' are expanded",
            ),
            arg(
                "--lock",
                nargs="+",
                action="extend",
                metavar="JOINT=VALUE",
                help="position of a removed joint (rad or m; '30deg' for degrees); default 0",
            ),
            *LUMPED_SENSORS,
            *EXPLAIN,
        ),
    ),
    Command(
        "rebase",
        "make another link the base (URDF root), moving link frames",
        commands.run_rebase,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg("--base", required=True, metavar="LINK", help="the new base link"),
            arg(
                "--no-urdf-compatible",
                action="store_true",
                help="only change the default base; do not move link frames onto joint axes",
            ),
            *EXPLAIN,
        ),
    ),
    Command(
        "remove-fake-links",
        "turn massless leaf links into frames",
        commands.run_remove_fake_links,
        (
            *MODEL_AS_WRITTEN,
            *MODEL_OUTPUT,
            arg("--iterate", action="store_true", help="also collapse chains of fake links"),
            *LUMPED_SENSORS,
            *EXPLAIN,
        ),
    ),
    Command(
        "normalize",
        "renumber joints: moving first, in traversal order",
        commands.run_normalize,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg("--base", metavar="LINK", help="traversal base (default: default base)"),
            *EXPLAIN,
        ),
    ),
    Command(
        "urdf-compatible",
        "move link frames onto their joint axes so that URDF can express the model",
        commands.run_urdf_compatible,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg("--base", metavar="LINK", help="the URDF root (default: default base)"),
            *EXPLAIN,
        ),
    ),
    Command(
        "attach",
        "attach another model to a frame with a fixed joint",
        commands.run_attach,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg("--other", required=True, metavar="MODEL", help="the model to attach"),
            _input_format("--other-from", dest="other_format"),
            arg("--at", required=True, metavar="FRAME", help="a link or frame of MODEL"),
            arg("--other-base", metavar="FRAME", help="where OTHER is held (its base)"),
            arg("--xyz", nargs=3, default=["0", "0", "0"], metavar="M", help="position"),
            arg("--rpy", nargs=3, default=["0", "0", "0"], metavar="RAD", help="roll pitch yaw"),
            arg("--joint-name", metavar="NAME", help="the connecting joint's name"),
            arg("--prefix", metavar="TEXT", help="prefix for OTHER's names"),
            arg(
                "--on-conflict",
                choices=("raise", "prefix"),
                default="raise",
                help="names used by both models: fail (default) or prefix OTHER's",
            ),
            *EXPLAIN,
        ),
    ),
    Command(
        "prefix",
        "put a prefix in front of every name",
        commands.run_prefix,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg("--prefix", required=True, metavar="TEXT", help="the prefix, e.g. left_"),
            *EXPLAIN,
        ),
    ),
    Command(
        "rename",
        "rename links, joints, frames or sensors",
        commands.run_rename,
        (
            *MODEL,
            *MODEL_OUTPUT,
            arg("--map", nargs="+", required=True, metavar="OLD=NEW", help="renames"),
            *EXPLAIN,
        ),
    ),
    Command(
        "diff",
        "compare two models; exit status 1 if they differ",
        commands.run_diff,
        (
            arg("a", metavar="A", help="first model (file or 'example')"),
            arg("b", metavar="B", help="second model"),
            arg("--atol", type=float, default=1e-9, help="tolerance for numbers (1e-9)"),
            arg("--ignore-order", action="store_true", help="ignore element order"),
            *KEEP_FAKE_LINKS,
            *INPUT_FORMAT,
            *LOADING,
            *OUTPUT,
        ),
    ),
    Command(
        "compare",
        "is B still the same robot as A? compare masses, poses, axes, limits, inverse dynamics "
        "and sensor readings at random configurations; exit status 1 if they differ",
        commands.run_compare,
        (
            arg("a", metavar="A", help="first model (a file of any format robomodel reads)"),
            arg("b", metavar="B", help="second model"),
            arg(
                "--rename",
                nargs="+",
                action="extend",
                metavar="OLD=NEW",
                help="an element of A called NEW in B; repeat for more",
            ),
            arg(
                "--prefix",
                metavar="TEXT",
                help="B's names are A's with TEXT in front; or A_PREFIX=B_PREFIX",
            ),
            arg(
                "--locked",
                nargs="+",
                action="extend",
                metavar="JOINT=VALUE",
                help="position of a joint that moves in one model only (rad or m; '30deg' for "
                "degrees); also names joints lumped on purpose",
            ),
            arg("--samples", type=int, default=100, metavar="N", help="configurations (100)"),
            arg("--seed", type=int, default=0, help="random seed of the configurations (0)"),
            arg(
                "--tolerance",
                action="append",
                default=[],
                metavar="[QUANTITY=]VALUE",
                help="every tolerance (default 1e-6 in SI units), or one of mass, length, "
                "angle, inertia, torque, sensor, limit, mimic, relative; repeat for more",
            ),
            arg("--json", action="store_true", help="print the verdict as JSON"),
            arg(
                "--limit",
                type=int,
                default=5,
                metavar="N",
                help="differences listed per quantity (5)",
            ),
            *KEEP_FAKE_LINKS,
            *LOADING,
            *OUTPUT,
        ),
    ),
    Command(
        "convert",
        FromFormats(
            lambda formats: (
                "convert between model formats (" + ", ".join(f.description for f in formats) + ")"
            )
        ),
        commands.run_convert,
        (
            arg("input", metavar="IN", help="input model (a file or 'example')"),
            arg(
                "output",
                metavar="OUT",
                help=FromFormats(
                    lambda formats: (
                        "output file ("
                        + ", ".join(f.extensions[0] for f in formats)
                        + "), '-' for stdout"
                    )
                ),
            ),
            *FORMAT,
            *KEEP_FAKE_LINKS,
            *INPUT_FORMAT,
            *LOADING,
        ),
    ),
    Command(
        "to-dh",
        "extract the DH chain between two frames (iKin text)",
        commands.run_to_dh,
        (
            *MODEL_FROM_FORMAT,
            *OUTPUT,
            arg("--from", dest="base_frame", required=True, metavar="FRAME", help="chain root"),
            arg("--to", dest="end_frame", required=True, metavar="FRAME", help="end-effector"),
            arg(
                "--exact",
                action="store_true",
                help="print every number as stored (by default rounding noise is printed as "
                "the value it stands for: lengths below 1e-9 m as 0, angles within 1e-8 deg "
                "of a multiple of 90 deg as that multiple)",
            ),
        ),
    ),
    Command(
        "from-dh",
        "build a model from a DH chain (iKin text or iCub preset)",
        commands.run_from_dh,
        (
            arg("chain", nargs="?", metavar="CHAIN", help="an iKin chain file"),
            arg(
                "--icub",
                nargs=2,
                metavar=("LIMB", "TYPE"),
                help="an iCub preset, e.g. arm right_v2.7",
            ),
            arg("--name", help="the robot name"),
            arg(
                "--mass",
                metavar="KG",
                help="the mass of every link, at its origin (default 1, as iDynTree's "
                "CreateModelFromDHChain; 0 for massless links)",
            ),
            *MODEL_OUTPUT,
        ),
    ),
    Command(
        "draw",
        "draw the kinematic tree as SVG (no Graphviz needed)",
        commands.run_draw,
        (
            *MODEL,
            *OUTPUT,
            arg("--base", metavar="LINK", help="the tree's root (default: default base)"),
            *NO_FRAMES,
            *NO_SENSORS,
            arg("--subtree", metavar="LINK", help="draw only LINK and what hangs below it"),
            arg(
                "--depth",
                type=int,
                metavar="N",
                help="draw links at most N joints below the top",
            ),
            arg(
                "--collapse",
                choices=("fixed",),
                help="'fixed': draw links on fixed joints inside their parent's box",
            ),
            arg(
                "--max-aspect",
                type=float,
                default=3.0,
                metavar="R",
                help="wrap wide families until the picture is at most R times wider than tall (3)",
            ),
        ),
    ),
    Command(
        "plot",
        "draw link and sensor frames in 3D at a configuration (matplotlib)",
        commands.run_plot,
        (
            *MODEL,
            arg("-o", "--output", required=True, metavar="FILE", help="image (.png, .svg, .pdf)"),
            *JOINT_VALUES,
            arg("--base", metavar="LINK", help="link drawn at the origin"),
            *NO_FRAMES,
            *NO_SENSORS,
            arg("--no-labels", action="store_true", help="leave out link names"),
            arg(
                "--all-labels",
                action="store_true",
                help="name every link (by default names closer than 1/25 of the robot's size "
                "to a heavier link's are left out)",
            ),
            arg(
                "--label-size",
                type=float,
                metavar="PT",
                help="font size of the names (default: 8 pt for a dozen names, down to 5 for a "
                "hundred)",
            ),
            arg("--dpi", type=int, default=120, help="resolution (120)"),
        ),
    ),
    Command(
        "scene",
        "write the robot's shapes at a configuration as a 3D scene (.glb, .obj, .usda; needs "
        "trimesh)",
        commands.run_scene,
        (
            *MODEL,
            arg(
                "-o",
                "--output",
                required=True,
                metavar="FILE",
                help="scene file (.glb, .obj, ..., or OpenUSD .usda/.usdc/.usd)",
            ),
            *JOINT_VALUES,
            arg("--base", metavar="LINK", help="link placed at the origin"),
            arg(
                "--collision",
                action="store_true",
                help="the collision shapes instead of the visuals",
            ),
        ),
    ),
    Command(
        "demo",
        "run a typical pipeline on the bundled model and explain it",
        commands.run_demo,
        (
            # Accepted so that `robomodel demo -m example` works like every other command.
            arg("--model", "-m", dest="model_option", metavar="MODEL", help=argparse.SUPPRESS),
            arg(
                "--out",
                metavar="DIR",
                help="write example_legs.urdf (and the pictures) into DIR, made if missing "
                "(default: a new temporary directory, printed at the start)",
            ),
            arg("-o", "--output", metavar="FILE", help="write the result to FILE instead"),
            arg("--svg", action="store_true", help="also draw the trees before and after"),
        ),
    ),
)
"""Every subcommand, in the order ``robomodel --help`` lists them."""


# --------------------------------------------------------------------------- the parser


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (plus the usage), exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Return the ``robomodel`` argument parser, one subparser per entry of :data:`COMMANDS`.

    Each subparser stores its command's function as ``args.run``.
    """
    from robomodel import __version__

    parser = _Parser(
        prog="robomodel",
        description="Inspect, edit, convert and draw robot models (URDF with iDynTree's sensor "
        "dialect). Every command reads the bundled example humanoid unless given a model.",
        epilog="Start with: robomodel demo",
    )
    parser.add_argument("--version", action="version", version=f"robomodel {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for command in COMMANDS:
        text = _resolved(command.help)
        p = sub.add_parser(command.name, help=text, description=text)
        p.set_defaults(run=command.run)
        for a in command.arguments:
            p.add_argument(*a.flags, **{k: _resolved(v) for k, v in a.options.items()})
    return parser
