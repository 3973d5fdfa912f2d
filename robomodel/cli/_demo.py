"""``robomodel demo``: a typical pipeline on the bundled model, explained step by step.

Load the model keeping every URDF link, remove the fake links, reduce to the leg joints (and
the fixed joints of the leg force/torque sensors), renumber the joints from the left foot, make
the model URDF-compatible from that foot, export it, reload it and check that the legs move
like the full robot's. Each step is run through :func:`robomodel.transformers.explain` and its
report is summarised.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from robomodel._internal.files import atomic_write
from robomodel.cli._shell import CLIError, model_summary, read_model
from robomodel.model.record import Model

__all__ = ["DEMO_FILE", "demo_output", "leg_joints", "run_demo"]


def leg_joints(model: Model) -> list[str]:
    """The moving hip, knee and ankle joints, and the fixed joints of F/T sensors below them."""
    from robomodel.model.joints import FixedJoint
    from robomodel.model.sensors import SixAxisForceTorqueSensor

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


DEMO_FILE = "example_legs.urdf"
"""The name of the URDF file the demo writes in its output directory."""


def demo_output(output: str | Path | None = None, out_dir: str | Path | None = None) -> Path:
    """Return the file the demo writes: ``output``, else ``out_dir/example_legs.urdf``.

    Without either, a new temporary directory is made (and left for the user to look at), so
    that the demo never writes into the current directory unasked.

    Raises:
        CLIError: both are given, or ``out_dir`` exists and is not a directory.
    """
    import tempfile

    if output is not None and out_dir is not None:
        raise CLIError("give either an output file (-o FILE) or a directory (--out DIR), not both")
    if output is not None:
        return Path(output)
    if out_dir is None:
        return Path(tempfile.mkdtemp(prefix="robomodel-demo-")) / DEMO_FILE
    directory = Path(out_dir)
    if directory.exists() and not directory.is_dir():
        raise CLIError(f"--out {out_dir}: exists and is not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    return directory / DEMO_FILE


def run_demo(
    source: str = "example",
    output: str | Path | None = None,
    *,
    svg: bool = False,
    out_dir: str | Path | None = None,
) -> int:
    """Run the demo on ``source`` (a URDF path or ``example``), print each step, write a URDF.

    Args:
        source: the model to start from.
        output: the URDF file to write; by default ``example_legs.urdf`` in ``out_dir``.
        svg: also write ``<output>_before.svg`` and ``<output>_after.svg`` tree pictures.
        out_dir: the directory to write into (made if missing); by default a new temporary
            directory, whose path the demo prints.

    Returns:
        0 when the exported model reloads valid and moves like the input; 1 otherwise.
    """
    from functools import partial

    import numpy as np

    from robomodel.formats import urdf
    from robomodel.physics.kinematics import relative_transform
    from robomodel.transformers import (
        explain,
        make_urdf_compatible,
        normalize_joint_order,
        reduce_model,
        remove_fake_links,
    )

    out = demo_output(output, out_dir)

    def say(text: str) -> None:
        print(text)

    def step(title: str, transformer: Callable[[Model], Model], model: Model) -> Model:
        result, report = explain(transformer, model)
        say(f"{title}\n   -> {model_summary(result)}")
        for line in report.summary().splitlines():
            say(f"      {line}")
        return result

    say(
        "robomodel demo: load, remove fake links, reduce to the legs, normalize, make the model "
        f"URDF-compatible from the left foot, export, and check. Output in {out.parent}\n"
    )
    full = read_model(source, keep_fake_links=True)
    say(f"1. load {source} keeping every URDF link\n   -> {model_summary(full)}")
    say(f"      default base {full.default_base!r}; total mass {full.total_mass:.4g} kg")
    no_fake = step(
        "2. remove_fake_links: massless leaf links on fixed joints become frames",
        partial(remove_fake_links, lumped_sensors="raise"),
        full,
    )
    if no_fake.default_base != full.default_base:
        say(f"      default base {full.default_base!r} -> {no_fake.default_base!r}")
    keep = leg_joints(no_fake)
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
    atomic_write(out, text)
    say(
        f"6. export: wrote {out} ({len(text.splitlines())} lines, root link {ready.default_base!r})"
    )
    back = urdf.load(out)
    problems = [str(f) for f in back.problems()]
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
        f"7. check: reloaded {out}: {model_summary(back)}, "
        f"{'valid' if not problems else 'PROBLEMS: ' + '; '.join(problems)}"
    )
    if pairs:
        say(
            f"      {', '.join(f'{a}->{b}' for a, b in pairs)} at 5 random leg configurations: "
            f"largest difference from the full model {worst:.2e}"
        )
    if svg:
        from robomodel.tools.draw import tree_svg

        for tag, model in (("before", full), ("after", back)):
            path = out.with_name(f"{out.stem}_{tag}.svg")
            atomic_write(path, tree_svg(model))
            say(f"   drew the tree {tag} the pipeline: {path}")
    say(f"\nNext: robomodel info {out}   robomodel draw {out} -o {out.parent / 'legs.svg'}")
    return 1 if problems or worst > 1e-9 else 0
