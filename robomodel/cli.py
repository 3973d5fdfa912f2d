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
└─ l_ankle_roll (revolute, axis 1 0 0) ─ l_ankle_1  0.3 kg
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
from typing import Any, NoReturn

from robomodel.model import Model

__all__ = ["CLIError", "main"]

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


def _read(source: str, *, keep_fake_links: bool = False) -> Model:
    """Load a model from a URDF file, a robomodel JSON file or a bundled model name."""
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
    return _read(_model_source(args), keep_fake_links=getattr(args, "keep_fake_links", False))


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
        _note(f"wrote {_summary(model)} to {args.output}")


def _note(text: str) -> None:
    print(text, file=sys.stderr)


def _summary(model: Model) -> str:
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


# --------------------------------------------------------------------------- text views


def _fmt(x: float) -> str:
    r = round(float(x), 4)
    return "0" if r == 0 else f"{r:g}"


def _joint_text(model: Model, joint_index: int, child: str) -> str:
    from robomodel.joints import FixedJoint, joint_type_name

    joint = model.joints[joint_index]
    name = model.joint_names[joint_index]
    if isinstance(joint, FixedJoint):
        return f"{name} (fixed)"
    u = joint.axis(child).direction
    return f"{name} ({joint_type_name(joint)}, axis {_fmt(u[0])} {_fmt(u[1])} {_fmt(u[2])})"


def tree_lines(
    model: Model, *, base: str | None = None, frames: bool = True, sensors: bool = True
) -> list[str]:
    """Return the kinematic tree of ``model`` as lines of text, from ``base`` (default base).

    Each line shows a link with its mass, reached through its joint (name, type, axis in the
    child frame); additional frames and sensors are listed under their link.

    Args:
        model: the model.
        base: the link the tree starts from.
        frames: list the additional frames.
        sensors: list the sensors (force/torque sensors under the child link of their joint).

    Raises:
        UnknownNameError: ``base`` is not a link.
    """
    from robomodel.sensors import SixAxisForceTorqueSensor, sensor_type_name

    trav = model.traversal(base)
    children: dict[int, list[int]] = {}
    for el in trav:
        if el.parent is not None:
            children.setdefault(el.parent, []).append(el.link)
    attached: dict[str, list[str]] = {}
    if frames:
        for f in model.frames:
            attached.setdefault(f.link, []).append(f"frame {f.name}")
    if sensors:
        for s in model.sensors:
            if isinstance(s, SixAxisForceTorqueSensor):
                child = model.link_index(s.second_link)
                parent = trav.parent_of(child) if trav.contains(child) else None
                owner = s.second_link if parent == model.link_index(s.first_link) else s.first_link
                text = f"sensor {s.name} (force_torque in joint {s.parent_joint})"
            else:
                owner, text = s.link, f"sensor {s.name} ({sensor_type_name(s)})"
            attached.setdefault(owner, []).append(text)
    lines: list[str] = []
    # (link, prefix for its own line, prefix for what hangs under it), depth first, no recursion.
    stack: list[tuple[int, str, str]] = [(trav.base, "", "")]
    while stack:
        link, head, rest = stack.pop()
        name = model.link_names[link]
        joint = trav.parent_joint_of(link)
        via = "" if joint is None else _joint_text(model, joint, name) + " ─ "
        lines.append(f"{head}{via}{name}  {model.links[link].mass:.4g} kg")
        kids = children.get(link, [])
        extra = attached.get(name, [])
        for text in extra:
            lines.append(f"{rest}{'│  ' if kids else '   '}· {text}")
        for k in range(len(kids) - 1, -1, -1):
            last = k == len(kids) - 1
            stack.append(
                (kids[k], rest + ("└─ " if last else "├─ "), rest + ("   " if last else "│  "))
            )
    return lines


def info_text(model: Model, source: str = "") -> str:
    """Return a short report on ``model``: counts, mass, DOFs, sensors, base and frames."""
    from robomodel.joints import FixedJoint
    from robomodel.sensors import SENSOR_TYPE_ORDER

    moving = sum(1 for j in model.joints if not isinstance(j, FixedJoint))
    kinds = ", ".join(
        f"{sum(1 for s in model.sensors if isinstance(s, kind))} {kind.__name__}"
        for kind in SENSOR_TYPE_ORDER
    )
    n_vis = sum(len(v) for v in model.visuals)
    n_col = sum(len(c) for c in model.collisions)
    lines = [
        f"model {model.name!r}" + (f" from {source}" if source else ""),
        f"  links:       {model.n_links} (total mass {model.total_mass:.6g} kg)",
        f"  joints:      {model.n_joints} ({moving} moving, {model.n_joints - moving} fixed)",
        f"  DOFs:        {model.n_dofs} (position coordinates: {model.n_pos_coords})",
        f"  frames:      {len(model.frames)} additional ({model.n_frames} with the link frames)",
        f"  sensors:     {len(model.sensors)} ({kinds})",
        f"  shapes:      {n_vis} visual, {n_col} collision",
        f"  base:        {model.default_base}",
    ]
    problems = model.problems() if model.n_links else ()
    lines.append(f"  valid:       {'yes' if not problems else 'no, see robomodel validate'}")
    return "\n".join(lines)


def _validation(model: Model) -> tuple[list[str], list[str]]:
    """Return (errors, warnings) found in a loaded model."""
    from robomodel.joints import FixedJoint

    errors = list(model.problems())
    warns: list[str] = []
    if model.n_links == 0:
        errors.append("the model has no links")
        return errors, warns
    for name, link in zip(model.link_names, model.links, strict=True):
        inertia = link.inertia
        if not inertia.is_physically_consistent():
            errors.append(
                f"link {name!r}: the inertia is not physically consistent (mass {inertia.mass:g});"
                " check the mass, the centre of mass and the triangle inequalities of the tensor"
            )
    trav = model.traversal()
    for el in trav:
        if el.joint is None or el.parent is None:
            continue
        joint = model.joints[el.joint]
        jname = model.joint_names[el.joint]
        child = model.link_names[el.link]
        if isinstance(joint, FixedJoint):
            continue
        if joint.axis(child).distance([0.0, 0.0, 0.0]) > 1e-7:
            warns.append(
                f"joint {jname!r}: its axis does not pass through the origin of {child!r}; "
                "URDF export needs make_urdf_compatible (robomodel rebase does it)"
            )
        if joint.limits.enabled and joint.limits.lower == joint.limits.upper:
            warns.append(f"joint {jname!r}: its position limits allow no motion")
    for name, link in zip(model.link_names, model.links, strict=True):
        if link.mass == 0 and len(model.neighbors(name)) > 1:
            warns.append(f"link {name!r} has zero mass and is not a leaf")
    return errors, warns


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
    model = _load(args)
    text = info_text(model, _model_source(args))
    if not args.no_tree:
        text += "\n\nkinematic tree:\n" + "\n".join(tree_lines(model))
    _emit(text, args.output)
    return 0


def _cmd_tree(args: argparse.Namespace) -> int:
    model = _load(args)
    lines = tree_lines(
        model, base=args.base, frames=not args.no_frames, sensors=not args.no_sensors
    )
    _emit("\n".join(lines), args.output)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from robomodel.errors import RobomodelError, RobomodelWarning

    source = _model_source(args)
    load_warnings: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            model = _read(source, keep_fake_links=args.keep_fake_links)
        except (RobomodelError, SyntaxError) as e:
            # The file was read but is not a valid model: that is a finding, not a usage error.
            print(f"error: {_one_line(e)}")
            print(f"{source}: 1 error")
            return 1
    load_warnings = [str(w.message) for w in caught if issubclass(w.category, RobomodelWarning)]
    errors, warns = _validation(model)
    warns = load_warnings + warns
    for problem in errors:
        print(f"error: {problem}")
    for problem in warns:
        print(f"warning: {problem}")
    verdict = "valid" if not errors else f"{len(errors)} error{'s' * (len(errors) != 1)}"
    print(f"{source}: {verdict}, {len(warns)} warning{'s' * (len(warns) != 1)} ({_summary(model)})")
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

    model = _read(_model_source(args), keep_fake_links=True)
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
    other = _read(args.other)
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

    a = _read(args.a, keep_fake_links=args.keep_fake_links)
    b = _read(args.b, keep_fake_links=args.keep_fake_links)
    d = diff(a, b, atol=args.atol, order=not args.ignore_order)
    _emit(str(d), args.output)
    return 1 if d else 0


def _cmd_convert(args: argparse.Namespace) -> int:
    model = _read(args.input, keep_fake_links=args.keep_fake_links)
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
        _note(f"wrote the tree of {_summary(model)} to {args.output}")
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
    _note(f"wrote a 3D view of {_summary(model)} to {args.output}")
    return 0


def _report_lines(report: Any) -> list[str]:
    """Summarise a transformer report: one line per (action, kind), with the first names."""
    groups: dict[tuple[str, str], list[str]] = {}
    for change in report.changes:
        groups.setdefault((change.action, change.kind), []).append(change.name)
    lines = []
    for (action, kind), names in groups.items():
        if not any(names):
            lines.append(f"{action} the {kind}s")
            continue
        shown = ", ".join(names[:6]) + (f", ... ({len(names) - 6} more)" if len(names) > 6 else "")
        plural = kind if len(names) == 1 else (kind + "es" if kind.endswith("s") else kind + "s")
        lines.append(f"{action} {len(names)} {plural}: {shown}")
    return lines or ["nothing to do"]


def _leg_joints(model: Model) -> list[str]:
    """The moving hip, knee and ankle joints, and the fixed joints of F/T sensors below them."""
    from robomodel.joints import FixedJoint
    from robomodel.sensors import SixAxisForceTorqueSensor

    moving = [
        n
        for n, j in zip(model.joint_names, model.joints, strict=True)
        if not isinstance(j, FixedJoint) and any(k in n for k in ("hip", "knee", "ankle"))
    ]
    if not moving:
        raise CLIError("the model has no joint named like a hip, knee or ankle joint")
    trav = model.traversal()
    kept = {model.joint_index(n) for n in moving}
    below: set[int] = set()  # links whose path to the base crosses a kept joint
    for el in trav:
        if el.parent is not None and (el.joint in kept or el.parent in below):
            below.add(el.link)
    ft = [
        s.parent_joint
        for s in model.sensors
        if isinstance(s, SixAxisForceTorqueSensor)
        and model.link_index(s.first_link) in below | {model.link_index(s.second_link)}
        and model.link_index(s.second_link) in below
    ]
    return moving + [j for j in ft if j not in moving]


def _cmd_demo(args: argparse.Namespace) -> int:
    from functools import partial

    import numpy as np

    from robomodel import urdf
    from robomodel.kinematics import relative_transform
    from robomodel.transformers import (
        explain,
        make_urdf_compatible,
        normalize_joint_order,
        reduce_model,
        remove_fake_links,
    )

    source = _model_source(args)
    out = Path(args.output)

    def say(text: str) -> None:
        print(text)

    def step(title: str, transformer: Callable[[Model], Model], model: Model) -> Model:
        result, report = explain(transformer, model)
        say(f"{title}\n   -> {_summary(result)}")
        for line in _report_lines(report):
            say(f"      {line}")
        return result

    say(
        "robomodel demo: load, remove fake links, reduce to the legs, normalize, make the model "
        "URDF-compatible from the left foot, export, and check.\n"
    )
    full = _read(source, keep_fake_links=True)
    say(f"1. load {source} keeping every URDF link\n   -> {_summary(full)}")
    say(f"      default base {full.default_base!r}; total mass {full.total_mass:.4g} kg")
    no_fake = step(
        "2. remove_fake_links: massless leaf links on fixed joints become frames",
        partial(remove_fake_links, lumped_sensors="raise"),
        full,
    )
    if no_fake.default_base != full.default_base:
        say(f"      default base {full.default_base!r} -> {no_fake.default_base!r}")
    keep = _leg_joints(no_fake)
    legs = step(
        f"3. reduce_model to the {len(keep)} leg joints (hips, knees, ankles and the leg F/T "
        "sensor joints); the rest is locked at 0 and lumped",
        partial(reduce_model, keep_joints=keep, lumped_sensors="drop"),
        no_fake,
    )
    say(f"      total mass kept: {legs.total_mass:.4g} kg of {full.total_mass:.4g} kg")
    foot = "l_foot" if legs.is_link_name_used("l_foot") else legs.link_names[-1]
    normalized = step(
        f"4. normalize_joint_order from {foot!r}: moving joints first, in traversal order",
        partial(normalize_joint_order, base_link=foot),
        legs,
    )
    say("      joints: " + " ".join(normalized.joint_names))
    ready = step(
        f"5. make_urdf_compatible with base {foot!r}: link origins onto the joint axes",
        partial(make_urdf_compatible, base_link=foot),
        normalized,
    )
    text = urdf.dumps(ready)
    out.write_text(text, encoding="utf-8")
    say(
        f"6. export: wrote {out} ({len(text.splitlines())} lines, root link {ready.default_base!r})"
    )
    back = urdf.load(out)
    problems = back.problems()
    # The exported legs must move like the full robot with the other joints at 0.
    rng = np.random.default_rng(0)
    worst = 0.0
    frames = [f for f in ("l_sole", "r_sole", "r_leg_ft", "l_leg_ft") if back.is_frame_name_used(f)]
    pairs = [(a, b) for a in frames for b in frames if a < b and full.is_frame_name_used(a)]
    for _ in range(5):
        values = {
            n: float(rng.uniform(-0.5, 0.5)) for n in back.joint_names if back.joint(n).n_dofs
        }
        q_full = np.zeros(full.n_pos_coords)
        q_back = np.zeros(back.n_pos_coords)
        for n, v in values.items():
            q_full[full.joint(n).pos_coord_offset] = v
            q_back[back.joint(n).pos_coord_offset] = v
        for a, b in pairs:
            Ta = relative_transform(full, q_full, a, b).as_matrix()
            Tb = relative_transform(back, q_back, a, b).as_matrix()
            worst = max(worst, float(np.max(np.abs(Ta - Tb))))
    say(
        f"7. check: reloaded {out}: {_summary(back)}, "
        f"{'valid' if not problems else 'PROBLEMS: ' + '; '.join(problems)}"
    )
    if pairs:
        say(
            f"      {', '.join(f'{a}->{b}' for a, b in pairs)} at 5 random leg configurations: "
            f"largest difference from the full model {worst:.2e}"
        )
    if args.svg:
        from robomodel.draw import tree_svg

        for tag, model in (("before", full), ("after", back)):
            path = out.with_name(f"{out.stem}_{tag}.svg")
            path.write_text(tree_svg(model), encoding="utf-8")
            say(f"   drew the tree {tag} the pipeline: {path}")
    say(f"\nNext: robomodel info {out}   robomodel draw {out} -o legs.svg")
    return 1 if problems or worst > 1e-9 else 0


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
