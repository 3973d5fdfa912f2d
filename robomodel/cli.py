"""The ``robomodel`` command: inspect, edit, convert and draw robot models from a shell.

Every subcommand reads a model (a URDF file, a robomodel JSON file, or ``example`` for the
bundled humanoid, the default), and writes its result to ``-o FILE`` or to standard output.
Bad input (a missing file, a malformed URDF, an unknown link or joint name) is reported as one
line on standard error with exit status 2; ``validate`` exits with 1 when the model has errors
and ``diff`` with 1 when the models differ, like ``diff(1)``.

Run ``robomodel --help`` or ``robomodel <command> --help`` for the options; ``robomodel demo``
runs a typical pipeline on the bundled model and says what each step did.

>>> main(["tree", "--no-frames", "--no-sensors", "--base", "l_foot"])  # doctest: +ELLIPSIS
l_foot  1 kg
└─ l_ankle_roll (revolute, axis -1 0 0) ─ l_ankle_1  0.3 kg
...
0
"""

from __future__ import annotations

import argparse
import fnmatch
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from robomodel.model import Model

__all__ = ["CLIError", "build_parser", "main", "model_summary", "read_model"]

BAD_INPUT = 2
"""Exit status for bad input: unreadable files, malformed models, unknown names, bad options."""


class CLIError(Exception):
    """A problem with the command line itself (reported like bad input, exit status 2)."""


# --------------------------------------------------------------------------- reading and writing


def _model_source(args: argparse.Namespace) -> str:
    positional = getattr(args, "model", None)
    option = getattr(args, "model_option", None)
    if positional is not None and option is not None and positional != option:
        raise CLIError(f"two models given ({positional!r} and --model {option!r}); give one")
    return positional or option or "example"


def read_model(source: str, *, keep_fake_links: bool = False) -> Model:
    """Load a model from a URDF file, a robomodel JSON file or a bundled model name.

    Args:
        source: a ``.urdf`` (or any XML) path, a ``.json`` path, or ``example``.
        keep_fake_links: keep massless leaf links as links instead of frames.

    Raises:
        CLIError: the file does not exist or is a directory.
        URDFError: the URDF is malformed.
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
    if path.suffix.lower() == ".json":
        from robomodel import io

        return io.from_json(path.read_text(encoding="utf-8"))
    from robomodel import urdf

    return urdf.load(path, options=urdf.LoadOptions(remove_fake_links=not keep_fake_links))


def _load(args: argparse.Namespace) -> Model:
    return read_model(_model_source(args), keep_fake_links=getattr(args, "keep_fake_links", False))


def _format_of(output: str | None, requested: str | None) -> str:
    if requested:
        return requested
    if output and output != "-" and Path(output).suffix.lower() == ".json":
        return "json"
    return "urdf"


def _model_text(model: Model, fmt: str) -> str:
    if fmt == "json":
        from robomodel import io

        return io.to_json(model)
    from robomodel import urdf

    return urdf.dumps(model)


def _emit(text: str, output: str | None) -> None:
    """Write ``text`` to the file ``output``, or to standard output for ``None`` or ``-``."""
    if output is None or output == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    Path(output).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def _write_model(model: Model, args: argparse.Namespace) -> None:
    fmt = _format_of(args.output, args.format)
    _emit(_model_text(model, fmt), args.output)
    if args.output not in (None, "-"):
        _note(f"wrote {model_summary(model)} to {args.output}")


def _note(text: str) -> None:
    print(text, file=sys.stderr)


def model_summary(model: Model) -> str:
    """Return a one-line summary: name and counts of links, joints, DOFs, frames, sensors."""
    return (
        f"{model.name or 'model'} ({model.n_links} links, {model.n_joints} joints, "
        f"{model.n_dofs} DOFs, {len(model.frames)} frames, {len(model.sensors)} sensors)"
    )


def _number(text: str, what: str) -> float:
    """Parse a number; ``deg`` at the end converts degrees to radians."""
    t = text.strip()
    scale = 1.0
    if t.endswith("deg"):
        t, scale = t[:-3], math.pi / 180.0
    try:
        value = float(t) * scale
    except ValueError:
        raise CLIError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise CLIError(f"{what}: {text!r} is not a finite number")
    return value


def _assignments(items: Sequence[str] | None, option: str) -> dict[str, float]:
    """Parse ``NAME=VALUE`` words (``VALUE`` may end in ``deg``)."""
    out: dict[str, float] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise CLIError(f"{option} expects JOINT=VALUE, got {item!r}")
        out[name] = _number(value, f"{option} {name}")
    return out


def _renames(items: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or ():
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            raise CLIError(f"--map expects OLD=NEW, got {item!r}")
        out[old] = new
    return out


def _select_joints(model: Model, patterns: Sequence[str]) -> list[str]:
    """Expand joint names and shell patterns (``'l_*'``) in model order, keeping the given order."""
    from robomodel.errors import UnknownNameError

    out: list[str] = []
    for pattern in patterns:
        if any(c in pattern for c in "*?["):
            hits = [n for n in model.joint_names if fnmatch.fnmatchcase(n, pattern)]
            if not hits:
                raise CLIError(f"the pattern {pattern!r} matches no joint of the model")
        elif model.is_joint_name_used(pattern):
            hits = [pattern]
        else:
            raise UnknownNameError("joint", pattern, model.joint_names)
        out.extend(h for h in hits if h not in out)
    return out


# --------------------------------------------------------------------------- subcommands


def _run_explained(step: Callable[[Model], Model], model: Model, args: argparse.Namespace) -> Model:
    """Run a transformer; with ``--explain`` print what it did on standard error."""
    if not getattr(args, "explain", False):
        return step(model)
    from robomodel.transformers import explain

    out, report = explain(step, model)
    _note(str(report))
    return out


def _cmd_info(args: argparse.Namespace) -> int:
    from robomodel.textview import info_text, tree_lines

    model = _load(args)
    text = info_text(model, _model_source(args))
    if not args.no_tree:
        text += "\n\nkinematic tree:\n" + "\n".join(tree_lines(model))
    _emit(text, args.output)
    return 0


def _cmd_tree(args: argparse.Namespace) -> int:
    from robomodel.textview import tree_lines

    model = _load(args)
    lines = tree_lines(
        model, base=args.base, frames=not args.no_frames, sensors=not args.no_sensors
    )
    _emit("\n".join(lines), args.output)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from robomodel.errors import RobomodelError, RobomodelWarning
    from robomodel.textview import find_problems

    source = _model_source(args)
    load_warnings: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = read_model(source, keep_fake_links=args.keep_fake_links)
        except (RobomodelError, SyntaxError) as e:
            # The file was read but is not a valid model: that is a finding, not a usage error.
            print(f"error: {_one_line(e)}")
            print(f"{source}: 1 error")
            return 1
    load_warnings = [str(w.message) for w in caught if issubclass(w.category, RobomodelWarning)]
    errors, warns = find_problems(model)
    warns = load_warnings + warns
    for problem in errors:
        print(f"error: {problem}")
    for problem in warns:
        print(f"warning: {problem}")
    verdict = "valid" if not errors else f"{len(errors)} error{'s' * (len(errors) != 1)}"
    plural = "s" * (len(warns) != 1)
    print(f"{source}: {verdict}, {len(warns)} warning{plural} ({model_summary(model)})")
    return 1 if errors else 0


def _cmd_reduce(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers import reduce_model

    model = _load(args)
    keep = _select_joints(model, args.joints)
    locked = _assignments(args.lock, "--lock")
    step = partial(
        reduce_model, keep_joints=keep, locked_positions=locked, lumped_sensors=args.lumped_sensors
    )
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_rebase(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers.change_base import change_base

    model = _load(args)
    step = partial(change_base, new_base=args.base, urdf_compatible=not args.no_urdf_compatible)
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_remove_fake_links(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers import remove_fake_links

    model = read_model(_model_source(args), keep_fake_links=True)
    step = partial(remove_fake_links, iterate=args.iterate, lumped_sensors=args.lumped_sensors)
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_normalize(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers import normalize_joint_order

    model = _load(args)
    step = partial(normalize_joint_order, base_link=args.base)
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_urdf_compatible(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers import make_urdf_compatible

    model = _load(args)
    step = partial(make_urdf_compatible, base_link=args.base)
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_attach(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.spatial import Transform
    from robomodel.transformers.attach import attach

    model = _load(args)
    other = read_model(args.other)
    xyz = [_number(v, "--xyz") for v in args.xyz]
    rpy = [_number(v, "--rpy") for v in args.rpy]
    pose = Transform.from_rpy_xyz(rpy, xyz)
    step = partial(
        attach,
        other=other,
        at_frame=args.at,
        other_base=args.other_base,
        pose=pose,
        joint_name=args.joint_name,
        prefix=args.prefix,
        on_conflict=args.on_conflict,
    )
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_prefix(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers.rename import prefix

    model = _load(args)
    _write_model(_run_explained(partial(prefix, text=args.prefix), model, args), args)
    return 0


def _cmd_rename(args: argparse.Namespace) -> int:
    from functools import partial

    from robomodel.transformers.rename import rename

    model = _load(args)
    step = partial(rename, mapping=_renames(args.map))
    _write_model(_run_explained(step, model, args), args)
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from robomodel.diff import diff

    a = read_model(args.a, keep_fake_links=args.keep_fake_links)
    b = read_model(args.b, keep_fake_links=args.keep_fake_links)
    d = diff(a, b, atol=args.atol, order=not args.ignore_order)
    _emit(str(d), args.output)
    return 1 if d else 0


def _cmd_convert(args: argparse.Namespace) -> int:
    model = read_model(args.input, keep_fake_links=args.keep_fake_links)
    _write_model(model, args)
    return 0


def _cmd_to_dh(args: argparse.Namespace) -> int:
    from robomodel.dh.bridge import model_to_chain
    from robomodel.dh.ikin_text import dumps_ikin

    model = _load(args)
    chain = model_to_chain(model, args.base_frame, args.end_frame)
    _emit(dumps_ikin(chain), args.output)
    if args.output not in (None, "-"):
        _note(f"wrote a {chain.n_links}-link DH chain to {args.output}")
    return 0


def _cmd_from_dh(args: argparse.Namespace) -> int:
    from robomodel.dh.bridge import chain_to_model

    if (args.chain is None) == (args.icub is None):
        raise CLIError("give an iKin chain file or --icub LIMB TYPE (one of them)")
    if args.icub is not None:
        from robomodel.dh.presets import icub_chain

        chain = icub_chain(args.icub[0], args.icub[1])
    else:
        from robomodel.dh.ikin_text import loads_ikin

        path = Path(args.chain)
        if not path.is_file():
            raise CLIError(f"{args.chain}: no such file")
        chain = loads_ikin(path.read_text(encoding="utf-8"))
    model = chain_to_model(chain)
    if _format_of(args.output, args.format) == "urdf":
        from robomodel.transformers import make_urdf_compatible

        # DH frames sit off the joint axes; URDF needs every child origin on its joint axis.
        model = make_urdf_compatible(model)
    if args.name:
        import attrs

        model = attrs.evolve(model, name=args.name)
    _write_model(model, args)
    return 0


def _cmd_draw(args: argparse.Namespace) -> int:
    from robomodel.draw import tree_svg

    model = _load(args)
    svg = tree_svg(model, base=args.base, frames=not args.no_frames, sensors=not args.no_sensors)
    _emit(svg, args.output)
    if args.output not in (None, "-"):
        _note(f"wrote the tree of {model_summary(model)} to {args.output}")
    return 0


def _cmd_plot(args: argparse.Namespace) -> int:
    from robomodel.plot import save_pose

    model = _load(args)
    positions = _assignments(args.q, "--q")
    for name in positions:
        model.joint(name)  # an unknown joint is bad input, reported with a suggestion
    save_pose(
        model,
        args.output,
        positions,
        base=args.base,
        frames=not args.no_frames,
        sensors=not args.no_sensors,
        labels=not args.no_labels,
        dpi=args.dpi,
    )
    _note(f"wrote a 3D view of {model_summary(model)} to {args.output}")
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from robomodel.demo import run_demo

    return run_demo(_model_source(args), args.output, svg=args.svg)


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


def _add_output(p: argparse.ArgumentParser, *, model: bool = True) -> None:
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    if model:
        p.add_argument(
            "--format",
            choices=("urdf", "json"),
            help="output format (default: from the -o extension, else urdf)",
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

    p = cmd("info", _cmd_info, "counts, mass, DOFs, sensors and the kinematic tree")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--no-tree", action="store_true", help="leave out the kinematic tree")

    p = cmd("tree", _cmd_tree, "print the kinematic tree")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--base", metavar="LINK", help="start from this link (default: default base)")
    p.add_argument("--no-frames", action="store_true", help="leave out additional frames")
    p.add_argument("--no-sensors", action="store_true", help="leave out sensors")

    p = cmd("validate", _cmd_validate, "list every problem; exit status 1 if there are errors")
    _add_model(p)

    p = cmd("reduce", _cmd_reduce, "keep only some joints, lumping the links of the others")
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

    p = cmd("rebase", _cmd_rebase, "make another link the base (URDF root), moving link frames")
    _add_model(p)
    _add_output(p)
    p.add_argument("--base", required=True, metavar="LINK", help="the new base link")
    p.add_argument(
        "--no-urdf-compatible",
        action="store_true",
        help="only change the default base; do not move link frames onto joint axes",
    )
    _add_explain(p)

    p = cmd("remove-fake-links", _cmd_remove_fake_links, "turn massless leaf links into frames")
    _add_model(p, fake_links=False)
    _add_output(p)
    p.add_argument("--iterate", action="store_true", help="also collapse chains of fake links")
    _add_lumped(p)
    _add_explain(p)

    p = cmd("normalize", _cmd_normalize, "renumber joints: moving first, in traversal order")
    _add_model(p)
    _add_output(p)
    p.add_argument("--base", metavar="LINK", help="traversal base (default: default base)")
    _add_explain(p)

    p = cmd(
        "urdf-compatible",
        _cmd_urdf_compatible,
        "move link frames onto their joint axes so that URDF can express the model",
    )
    _add_model(p)
    _add_output(p)
    p.add_argument("--base", metavar="LINK", help="the URDF root (default: default base)")
    _add_explain(p)

    p = cmd("attach", _cmd_attach, "attach another model to a frame with a fixed joint")
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

    p = cmd("prefix", _cmd_prefix, "put a prefix in front of every name")
    _add_model(p)
    _add_output(p)
    p.add_argument("--prefix", required=True, metavar="TEXT", help="the prefix, e.g. left_")
    _add_explain(p)

    p = cmd("rename", _cmd_rename, "rename links, joints, frames or sensors")
    _add_model(p)
    _add_output(p)
    p.add_argument("--map", nargs="+", required=True, metavar="OLD=NEW", help="renames")
    _add_explain(p)

    p = cmd("diff", _cmd_diff, "compare two models; exit status 1 if they differ")
    p.add_argument("a", metavar="A", help="first model (file or 'example')")
    p.add_argument("b", metavar="B", help="second model")
    p.add_argument("--atol", type=float, default=1e-9, help="tolerance for numbers (1e-9)")
    p.add_argument("--ignore-order", action="store_true", help="ignore element order")
    p.add_argument("--keep-fake-links", action="store_true", help="load fake links as links")
    _add_output(p, model=False)

    p = cmd("convert", _cmd_convert, "convert between URDF and robomodel JSON")
    p.add_argument("input", metavar="IN", help="input model (.urdf, .json or 'example')")
    p.add_argument("output", metavar="OUT", help="output file (.urdf or .json), '-' for stdout")
    p.add_argument("--format", choices=("urdf", "json"), help="output format")
    p.add_argument("--keep-fake-links", action="store_true", help="load fake links as links")

    p = cmd("to-dh", _cmd_to_dh, "extract the DH chain between two frames (iKin text)")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--from", dest="base_frame", required=True, metavar="FRAME", help="chain root")
    p.add_argument("--to", dest="end_frame", required=True, metavar="FRAME", help="end-effector")

    p = cmd("from-dh", _cmd_from_dh, "build a model from a DH chain (iKin text or iCub preset)")
    p.add_argument("chain", nargs="?", metavar="CHAIN", help="an iKin chain file")
    p.add_argument(
        "--icub", nargs=2, metavar=("LIMB", "TYPE"), help="an iCub preset, e.g. arm right_v2.7"
    )
    p.add_argument("--name", help="the robot name")
    _add_output(p)

    p = cmd("draw", _cmd_draw, "draw the kinematic tree as SVG (no Graphviz needed)")
    _add_model(p)
    _add_output(p, model=False)
    p.add_argument("--base", metavar="LINK", help="the tree's root (default: default base)")
    p.add_argument("--no-frames", action="store_true", help="leave out additional frames")
    p.add_argument("--no-sensors", action="store_true", help="leave out sensors")

    p = cmd("plot", _cmd_plot, "draw link and sensor frames in 3D at a configuration (matplotlib)")
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
    p.add_argument("--dpi", type=int, default=120, help="resolution (120)")

    p = cmd("demo", _cmd_demo, "run a typical pipeline on the bundled model and explain it")
    p.add_argument("--model", "-m", dest="model_option", metavar="MODEL", help=argparse.SUPPRESS)
    p.add_argument(
        "-o",
        "--output",
        default="example_legs.urdf",
        metavar="FILE",
        help="where to write the result (default: example_legs.urdf)",
    )
    p.add_argument("--svg", action="store_true", help="also draw the trees before and after")
    return parser


# --------------------------------------------------------------------------- entry point


def _one_line(error: BaseException) -> str:
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    from robomodel.errors import UnknownNameError

    if isinstance(error, UnknownNameError):
        text = str(error)
    return " ".join(line.strip() for line in text.splitlines() if line.strip()) or repr(error)


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
            status: int = args.run(args)
        except (RobomodelError, CLIError, OSError, ValueError, KeyError, SyntaxError) as e:
            _report_warnings(caught, args.command)
            print(f"robomodel {args.command}: error: {_one_line(e)}", file=sys.stderr)
            return BAD_INPUT
    _report_warnings(caught, args.command)
    return status


def _report_warnings(caught: list[warnings.WarningMessage], command: str) -> None:
    for w in caught:
        text = " ".join(str(w.message).split())
        print(f"robomodel {command}: warning: {text}", file=sys.stderr)
