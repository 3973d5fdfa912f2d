"""The subcommands of the ``robomodel`` command, one ``run_<command>(args)`` function each.

``robomodel.cli._parser`` names one of these functions for each subcommand, and
:func:`robomodel.cli.main` calls it with the parsed arguments; each returns the exit status (0
on success) and raises on bad input, which :func:`robomodel.cli.main` reports as one line with
status 2. Models are read and written through ``robomodel.cli._shell``, which
``robomodel.cli._demo`` shares.
"""

from __future__ import annotations

import argparse
import fnmatch
import math
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from robomodel.cli._shell import (
    CLIError,
    UnreadableModelError,
    emit,
    format_of,
    model_summary,
    model_text,
    note,
    one_line,
    read_model,
)
from robomodel.model.record import Model
from robomodel.model.shapes import SolidShape

__all__ = [
    "run_attach",
    "run_compare",
    "run_convert",
    "run_demo",
    "run_diff",
    "run_draw",
    "run_from_dh",
    "run_info",
    "run_normalize",
    "run_plot",
    "run_prefix",
    "run_rebase",
    "run_reduce",
    "run_remove_fake_links",
    "run_rename",
    "run_scene",
    "run_to_dh",
    "run_tree",
    "run_urdf_compatible",
    "run_validate",
]

# --------------------------------------------------------------------------- reading and writing


def _model_source(args: argparse.Namespace) -> str:
    positional = getattr(args, "model", None)
    option = getattr(args, "model_option", None)
    if positional is not None and option is not None and positional != option:
        raise CLIError(f"two models given ({positional!r} and --model {option!r}); give one")
    return positional or option or "example"


def _loading(args: argparse.Namespace) -> dict[str, Any]:
    """The options for :func:`read_model` of ``--package-dir``, ``--xacro`` and friends."""
    dirs = list(getattr(args, "package_dirs", None) or ())
    if getattr(args, "env_package_dirs", False):
        from robomodel.formats.meshes import env_package_dirs

        dirs += [d for d in env_package_dirs() if d not in dirs]
    xacro: dict[str, str] = {}
    for item in getattr(args, "xacro_args", None) or ():
        name, sep, value = item.partition(":=")
        if not sep or not name:
            raise CLIError(f"--xacro-arg expects NAME:=VALUE, got {item!r}")
        xacro[name] = value
    trusted = True if getattr(args, "xacro", False) else None  # None: only .xacro files
    return {
        "package_dirs": dirs,
        "xacro_args": xacro or None,
        "xacro": trusted,
        "input_format": getattr(args, "input_format", None),
    }


def _load(args: argparse.Namespace) -> Model:
    return read_model(
        _model_source(args),
        keep_fake_links=getattr(args, "keep_fake_links", False),
        inertia=getattr(args, "inertia", None) or "warn",
        **_loading(args),
    )


def _model_dir(args: argparse.Namespace) -> str | None:
    """The directory of the URDF file a command read, or ``None`` when it read none.

    A URDF's relative mesh filenames are relative to it (a model does not remember where it
    was read), so that a writer reading the meshes (MJCF) finds them from any working
    directory. The MJCF reader gives mesh paths as MuJoCo resolved them (its ``meshdir``
    included), and JSON does not say what its filenames are relative to: ``None`` for those.
    """
    source = getattr(args, "input", None)
    if source is None and (hasattr(args, "model") or hasattr(args, "model_option")):
        source = _model_source(args)
    if source is None:
        return None
    return _urdf_dir(source, getattr(args, "input_format", None))


def _urdf_dir(source: str, requested: str | None) -> str | None:
    """The directory of ``source`` if it was read as URDF (by ``--from`` or its content)."""
    from robomodel._internal.files import read_regular
    from robomodel.data import BUNDLED_MODELS, example_path
    from robomodel.formats.detect import content_format

    bundled = source in BUNDLED_MODELS and not Path(source).exists()
    path = example_path(source) if bundled else Path(source)
    try:
        # The file was read as URDF when --from says so or it holds a <robot> document (a file
        # whose content says nothing did not load as URDF either).
        urdf = requested == "urdf" if requested else content_format(read_regular(path)) == "urdf"
    except OSError:
        return None
    return str(path.resolve().parent) if urdf else None


def _write_model(model: Model, args: argparse.Namespace) -> None:
    from robomodel.formats.table import format_named

    fmt = format_of(args.output, args.format)
    base_dir = _model_dir(args)
    if args.output not in (None, "-") and format_named(fmt).writes_files:
        # Binary files (USD's .usdc) are written by the format itself, atomically.
        format_named(fmt).write(model, args.output, base_dir=base_dir)
    else:
        emit(model_text(model, fmt, base_dir=base_dir), args.output)
    if args.output not in (None, "-"):
        note(f"wrote {model_summary(model)} to {args.output}")


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
    note(str(report))
    return out


def run_info(args: argparse.Namespace) -> int:
    """Run ``robomodel info``."""
    from robomodel.formats.urdf.report import recording
    from robomodel.tools.textview import info_text, tree_lines

    with recording() as read:  # a URDF load reports where its meshes are
        model = _load(args)
    text = info_text(model, _model_source(args), origins=read[-1] if read else None)
    if not args.no_tree:
        text += "\n\nkinematic tree:\n" + "\n".join(tree_lines(model))
    emit(text, args.output)
    return 0


def run_tree(args: argparse.Namespace) -> int:
    """Run ``robomodel tree``."""
    from robomodel.tools.textview import tree_lines

    model = _load(args)
    lines = tree_lines(
        model, base=args.base, frames=not args.no_frames, sensors=not args.no_sensors
    )
    emit("\n".join(lines), args.output)
    return 0


def run_validate(args: argparse.Namespace) -> int:
    """Run ``robomodel validate``: :func:`robomodel.formats.check_file`, gravest first."""
    from robomodel.errors import RobomodelError, RobomodelWarning
    from robomodel.formats.check import check_file
    from robomodel.formats.urdf.report import recording
    from robomodel.model.checks import SEVERITIES, Finding, count_text

    source = _model_source(args)
    # A URDF load reports where it read each element (lines, the meshes' directory).
    with warnings.catch_warnings(record=True) as caught, recording() as read:
        warnings.simplefilter("always")
        try:
            # The inertia check below reports inconsistent inertias (as errors): the loader's
            # warnings about them would count each twice.
            inertia = getattr(args, "inertia", None) or "ignore"
            model = read_model(
                source, keep_fake_links=args.keep_fake_links, inertia=inertia, **_loading(args)
            )
        except (RobomodelError, SyntaxError, UnreadableModelError) as e:
            from robomodel.formats.urdf import XacroNotExpandedError

            if isinstance(e, XacroNotExpandedError):
                raise  # the file needs --xacro (if trusted): a usage error, status 2
            # The file was read but is not a valid model: that is a finding, not a usage error.
            text = one_line(e)
            print(f"error: {text if source in text else f'{source}: {text}'} [load]")
            print(f"{source}: not valid (1 error, 0 warnings, 0 notes)")
            return 1
    loading = [
        Finding(
            severity="warning",
            check="load",
            element=source,
            message=" ".join(str(w.message).split()),
        )
        for w in caught
        if issubclass(w.category, RobomodelWarning)
    ]
    sources = read[-1] if read else None
    found = sorted(
        [*loading, *check_file(source, model=model, origins=sources)],
        key=lambda f: SEVERITIES.index(f.severity),
    )
    shown = SEVERITIES[: SEVERITIES.index(args.show) + 1]
    for f in found:
        if f.severity in shown:
            print(f"{f.severity}: {f}")
    n_errors = sum(1 for f in found if f.severity == "error")
    n_warnings = sum(1 for f in found if f.severity == "warning")
    hidden = sum(1 for f in found if f.severity not in shown)
    more = f"; --show {SEVERITIES[-1]} lists every one" if hidden else ""
    verdict = "not valid" if n_errors else "valid"
    print(f"{source}: {verdict} ({count_text(found)}{more}) ({model_summary(model)})")
    if n_errors or (args.strict and n_warnings):
        return 1
    return 0


def run_reduce(args: argparse.Namespace) -> int:
    """Run ``robomodel reduce``."""
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


def run_rebase(args: argparse.Namespace) -> int:
    """Run ``robomodel rebase``."""
    from functools import partial

    from robomodel.transformers.change_base import change_base

    model = _load(args)
    step = partial(change_base, new_base=args.base, urdf_compatible=not args.no_urdf_compatible)
    _write_model(_run_explained(step, model, args), args)
    return 0


def run_remove_fake_links(args: argparse.Namespace) -> int:
    """Run ``robomodel remove-fake-links``."""
    from functools import partial

    from robomodel.transformers import remove_fake_links

    model = read_model(_model_source(args), keep_fake_links=True, **_loading(args))
    step = partial(remove_fake_links, iterate=args.iterate, lumped_sensors=args.lumped_sensors)
    _write_model(_run_explained(step, model, args), args)
    return 0


def run_normalize(args: argparse.Namespace) -> int:
    """Run ``robomodel normalize``."""
    from functools import partial

    from robomodel.transformers import normalize_joint_order

    model = _load(args)
    step = partial(normalize_joint_order, base_link=args.base)
    _write_model(_run_explained(step, model, args), args)
    return 0


def run_urdf_compatible(args: argparse.Namespace) -> int:
    """Run ``robomodel urdf-compatible``."""
    from functools import partial

    from robomodel.transformers import make_urdf_compatible

    model = _load(args)
    step = partial(make_urdf_compatible, base_link=args.base)
    _write_model(_run_explained(step, model, args), args)
    return 0


def run_attach(args: argparse.Namespace) -> int:
    """Run ``robomodel attach``."""
    from functools import partial

    from robomodel.model.spatial import Transform
    from robomodel.transformers.attach import attach

    model = _load(args)
    loading = _loading(args)
    other = read_model(
        args.other,
        package_dirs=loading["package_dirs"],
        xacro=loading["xacro"],
        input_format=args.other_format,
    )
    other = _meshes_moved(other, _urdf_dir(args.other, args.other_format), _model_dir(args))
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


def _meshes_moved(model: Model, old_dir: str | None, new_dir: str | None) -> Model:
    """``model`` with its relative mesh filenames made relative to ``new_dir`` from ``old_dir``.

    An attached URDF's relative mesh filenames are relative to its own file, but the result is
    written as one document whose relative filenames are all taken relative to the first
    model's file (by the MJCF writer, which reads the meshes, and by whoever reads the URDF next
    to the first model's meshes). Absolute paths and URIs (``package://``, ``file://``) mean the
    same from anywhere and are kept.
    """
    import attrs

    from robomodel.model.shapes import Mesh
    from robomodel.model.updates import with_shapes

    if old_dir is None or new_dir is None or os.path.samefile(old_dir, new_dir):
        return model

    def moved(shapes: Sequence[SolidShape]) -> list[SolidShape]:
        out = []
        for shape in shapes:
            g = shape.geometry
            if isinstance(g, Mesh) and "://" not in g.filename and not os.path.isabs(g.filename):
                name = os.path.relpath(os.path.join(old_dir, g.filename), new_dir)
                shape = attrs.evolve(shape, geometry=attrs.evolve(g, filename=name))
            out.append(shape)
        return out

    return with_shapes(
        model,
        visuals=[moved(s) for s in model.visuals],
        collisions=[moved(s) for s in model.collisions],
    )


def run_prefix(args: argparse.Namespace) -> int:
    """Run ``robomodel prefix``."""
    from functools import partial

    from robomodel.transformers.rename import prefix

    model = _load(args)
    _write_model(_run_explained(partial(prefix, text=args.prefix), model, args), args)
    return 0


def run_rename(args: argparse.Namespace) -> int:
    """Run ``robomodel rename``."""
    from functools import partial

    from robomodel.transformers.rename import rename

    model = _load(args)
    step = partial(rename, mapping=_renames(args.map))
    _write_model(_run_explained(step, model, args), args)
    return 0


def run_diff(args: argparse.Namespace) -> int:
    """Run ``robomodel diff``."""
    from robomodel.tools.diff import diff

    a = read_model(args.a, keep_fake_links=args.keep_fake_links, **_loading(args))
    b = read_model(args.b, keep_fake_links=args.keep_fake_links, **_loading(args))
    d = diff(a, b, atol=args.atol, order=not args.ignore_order)
    emit(str(d), args.output)
    return 1 if d else 0


def _tolerances(items: Sequence[str]) -> Any:
    """Parse ``--tolerance`` words: ``VALUE`` for every tolerance, ``QUANTITY=VALUE`` for one."""
    from robomodel.tools.compare import Tolerances

    every: float | None = None
    one: dict[str, float] = {}
    for item in items:
        name, sep, value = item.rpartition("=")
        number = _number(value, f"--tolerance {item}")
        if number < 0:
            raise CLIError(f"--tolerance {item}: a tolerance is >= 0")
        if sep:
            one[name] = number
        else:
            every = number
    return Tolerances.all(every, **one)


def run_compare(args: argparse.Namespace) -> int:
    """Run ``robomodel compare``: exit 0 (same mechanism), 1 (different), 2 (unreadable)."""
    import json

    from robomodel.tools.compare import same_mechanism

    a = read_model(args.a, keep_fake_links=args.keep_fake_links, **_loading(args))
    b = read_model(args.b, keep_fake_links=args.keep_fake_links, **_loading(args))
    rename: dict[str, str] = {}
    for item in args.rename or ():
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            raise CLIError(f"--rename expects OLD=NEW, got {item!r}")
        rename[old] = new
    prefix: str | tuple[str, str] = ""
    if args.prefix:
        pa, sep, pb = args.prefix.partition("=")
        prefix = (pa, pb) if sep else args.prefix
    if args.samples < 1:
        raise CLIError(f"--samples must be at least 1, got {args.samples}")
    verdict = same_mechanism(
        a,
        b,
        rename=rename,
        prefix=prefix,
        locked=_assignments(args.locked, "--locked"),
        samples=args.samples,
        seed=args.seed,
        tolerances=_tolerances(args.tolerance),
    )
    if args.json:
        text = json.dumps(verdict.as_dict(), indent=1, allow_nan=False)
    else:
        text = verdict.report(limit=max(args.limit, 0))
    emit(text, args.output)
    return 0 if verdict.same else 1


def run_convert(args: argparse.Namespace) -> int:
    """Run ``robomodel convert``."""
    model = read_model(args.input, keep_fake_links=args.keep_fake_links, **_loading(args))
    _write_model(model, args)
    return 0


def run_to_dh(args: argparse.Namespace) -> int:
    """Run ``robomodel to-dh``."""
    from robomodel.formats.dh.bridge import model_to_chain
    from robomodel.formats.dh.ikin_text import dumps

    model = _load(args)
    chain = model_to_chain(model, args.base_frame, args.end_frame)
    emit(dumps(chain, exact=args.exact), args.output)
    if args.output not in (None, "-"):
        note(f"wrote a {chain.n_links}-link DH chain to {args.output}")
    return 0


def run_from_dh(args: argparse.Namespace) -> int:
    """Run ``robomodel from-dh``."""
    from robomodel.formats.dh.bridge import DEFAULT_LINK_MASS, chain_to_model

    link_mass = DEFAULT_LINK_MASS if args.mass is None else _number(args.mass, "--mass")
    if link_mass < 0.0:
        raise CLIError(f"--mass must be a mass >= 0 kg, got {args.mass!r}")
    if (args.chain is None) == (args.icub is None):
        raise CLIError("give an iKin chain file or --icub LIMB TYPE (one of them)")
    if args.icub is not None:
        from robomodel.formats.dh.presets import icub_chain

        chain = icub_chain(args.icub[0], args.icub[1])
    else:
        from robomodel.errors import ModelError
        from robomodel.formats.dh.ikin_text import loads

        path = Path(args.chain)
        if not path.is_file():
            raise CLIError(f"{args.chain}: no such file")
        try:
            chain = loads(path.read_text(encoding="utf-8"))
        except (ModelError, UnicodeDecodeError) as e:
            raise CLIError(f"{args.chain}: {e}") from e
    model = chain_to_model(chain, link_mass=link_mass)
    if format_of(args.output, args.format) == "urdf":
        from robomodel.transformers import make_urdf_compatible

        # DH frames sit off the joint axes; URDF needs every child origin on its joint axis.
        model = make_urdf_compatible(model)
    if args.name:
        import attrs

        model = attrs.evolve(model, name=args.name)
    _write_model(model, args)
    # A DH chain has no masses, so these are made up: say so, wherever the model went.
    default = " (the default, as iDynTree's; set it with --mass KG)" if args.mass is None else ""
    note(
        f"every one of the {chain.n_links + 1} links weighs {link_mass:g} kg at its origin{default}"
    )
    return 0


def run_draw(args: argparse.Namespace) -> int:
    """Run ``robomodel draw``."""
    from robomodel.tools.draw import tree_svg

    model = _load(args)
    svg = tree_svg(
        model,
        base=args.base,
        frames=not args.no_frames,
        sensors=not args.no_sensors,
        subtree=args.subtree,
        depth=args.depth,
        collapse=args.collapse,
        max_aspect=args.max_aspect,
    )
    emit(svg, args.output)
    if args.output not in (None, "-"):
        note(f"wrote the tree of {model_summary(model)} to {args.output}")
    return 0


def run_plot(args: argparse.Namespace) -> int:
    """Run ``robomodel plot``."""
    from robomodel.formats.urdf.report import recording
    from robomodel.tools.plot import save_pose

    with recording() as read:  # a URDF load reports the directory of its relative meshes
        model = _load(args)
    positions = _assignments(args.q, "--q")
    for name in positions:
        model.joint(name)  # an unknown joint is bad input, reported with a suggestion
    # The title shows the positions as typed ('r_elbow=-30deg'), not converted to radians.
    typed = ", ".join(
        item.replace(" ", "") for item in args.q or () if positions[item.partition("=")[0]] != 0
    )
    base = args.base or model.default_base
    title = f"{model.name or 'model'} in {base} frame{': ' + typed if typed else ' at q = 0'}"
    save_pose(
        model,
        args.output,
        positions,
        base=args.base,
        frames=not args.no_frames,
        sensors=not args.no_sensors,
        labels=False if args.no_labels else ("all" if args.all_labels else True),
        label_size=args.label_size,
        title=title,
        dpi=args.dpi,
        base_dir=read[-1].base_dir if read else None,
    )
    note(f"wrote a 3D view of {model_summary(model)} to {args.output}")
    return 0


def run_scene(args: argparse.Namespace) -> int:
    """Run ``robomodel scene``."""
    from robomodel.formats.meshes import ShapeKind, export_scene
    from robomodel.formats.urdf.report import recording

    with recording() as read:  # a URDF load reports the directory of its relative meshes
        model = _load(args)
    q = [0.0] * model.n_pos_coords
    for name, value in _assignments(args.q, "--q").items():
        joint = model.joint(name)  # an unknown joint is bad input, reported with a suggestion
        if joint.n_pos_coords == 0:
            raise CLIError(f"--q {name}: joint {name!r} is fixed and has no position")
        q[joint.pos_coord_offset] = value
    kind: ShapeKind = "collision" if args.collision else "visual"
    base_dir = read[-1].base_dir if read else None
    if Path(args.output).suffix.lower() in (".usda", ".usdc", ".usd"):
        from robomodel.formats.usd import dump_scene

        dump_scene(model, args.output, q, kind=kind, base=args.base, base_dir=base_dir)
    else:
        export_scene(model, args.output, q, kind=kind, base=args.base, base_dir=base_dir)
    note(f"wrote the {kind} shapes of {model_summary(model)} to {args.output}")
    return 0


def run_demo(args: argparse.Namespace) -> int:
    """Run ``robomodel demo``."""
    from robomodel.cli._demo import run_demo

    return run_demo(_model_source(args), args.output, svg=args.svg, out_dir=args.out)
