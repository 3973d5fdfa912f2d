r"""Text views of a model for terminals: the kinematic tree and a summary.

These are what ``robomodel tree``, ``robomodel info`` and ``robomodel validate`` print.

>>> import robomodel.formats.urdf
>>> from robomodel.data import example_path
>>> m = robomodel.formats.urdf.load(example_path())
>>> print("\n".join(tree_lines(m, base="r_foot", frames=False, sensors=False)[:3]))
r_foot  1 kg
└─ r_ankle_roll (revolute, axis -1 0 0) ─ r_ankle_1  0.3 kg
   └─ r_ankle_pitch (revolute, axis 0 -1 0) ─ r_lower_leg  2 kg
>>> m.problems(severity="warning")
()
"""

from __future__ import annotations

from robomodel.model.joints import Mimic
from robomodel.model.mesh_files import MeshOrigins
from robomodel.model.record import Model

__all__ = ["find_problems", "info_text", "mimic_phrase", "tree_lines"]


def _fmt(x: float) -> str:
    r = round(float(x), 4)
    return "0" if r == 0 else f"{r:g}"


def _joint_text(model: Model, joint_index: int, child: str) -> str:
    from robomodel.model.joints import FixedJoint, joint_type_name

    joint = model.joints[joint_index]
    name = model.joint_names[joint_index]
    if isinstance(joint, FixedJoint):
        return f"{name} (fixed)"
    u = joint.axis(child).direction
    mimic = f", {mimic_phrase(joint.mimic)}" if joint.mimic is not None else ""
    return f"{name} ({joint_type_name(joint)}, axis {_fmt(u[0])} {_fmt(u[1])} {_fmt(u[2])}{mimic})"


def mimic_phrase(mimic: Mimic) -> str:
    """Return ``"mimics j1"``, ``"mimics j1 x -1 + 0.1"``: a mimic relation in few words."""
    text = f"mimics {mimic.joint}"
    if mimic.multiplier != 1.0:
        text += f" x {mimic.multiplier:.6g}"
    if mimic.offset:
        text += f" {'-' if mimic.offset < 0 else '+'} {abs(mimic.offset):.6g}"
    return text


def tree_lines(
    model: Model, *, base: str | None = None, frames: bool = True, sensors: bool = True
) -> list[str]:
    """Return the kinematic tree of ``model`` as lines of text, from ``base`` (default base).

    Each line shows a link with its mass, reached through its joint (name, type, axis in the
    child frame, and the joint it mimics, if any); additional frames and sensors are listed
    under their link.

    Args:
        model: the model.
        base: the link the tree starts from.
        frames: list the additional frames.
        sensors: list the sensors (force/torque sensors under the child link of their joint).

    Raises:
        UnknownNameError: ``base`` is not a link.
    """
    from robomodel.model.sensors import SixAxisForceTorqueSensor, sensor_type_name

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


_MIMIC_SHOWN = 4  # mimic relations written out on the info line


def _dofs_text(model: Model) -> str:
    from robomodel.errors import ModelError
    from robomodel.model.mimic import mimic_map, mimic_relations

    coords = f"position coordinates: {model.n_pos_coords}"
    try:
        mm = mimic_map(model)
    except ModelError:
        n_mimic = len(mimic_relations(model))
        return f"{model.n_dofs} ({n_mimic} mimic, unresolved: see robomodel validate; {coords})"
    detail = f"{mm.n_actuated} actuated, {mm.n_mimic} mimic; " if mm.n_mimic else ""
    return f"{model.n_dofs} ({detail}{coords})"


def info_text(model: Model, source: str = "", *, origins: MeshOrigins | None = None) -> str:
    """Return a short report on ``model``: counts, mass, DOFs, sensors, base and frames.

    Its last line is the verdict of :mod:`robomodel.model.checks` (as ``robomodel validate``'s):
    ``valid: yes`` when no check finds an error, with the counts of what they found.
    ``origins``: where the model was read (a loader's report), for its mesh files.
    """
    from robomodel.model.checks import count_text, findings
    from robomodel.model.joints import FixedJoint
    from robomodel.model.mimic import mimic_relations
    from robomodel.model.sensors import SENSOR_TYPE_ORDER

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
        f"  DOFs:        {_dofs_text(model)}",
        f"  frames:      {len(model.frames)} additional ({model.n_frames} with the link frames)",
        f"  sensors:     {len(model.sensors)} ({kinds})",
        f"  shapes:      {n_vis} visual, {n_col} collision",
        f"  base:        {model.default_base}",
    ]
    relations = mimic_relations(model)
    if relations:
        lines.append(f"  mimic:       {len(relations)} joints follow another one")
        lines += [f"                 {r}" for r in relations[:_MIMIC_SHOWN]]
        more = len(relations) - _MIMIC_SHOWN
        if more > 0:
            lines.append(f"                 ... {more} more (robomodel tree shows each)")
    found = findings(model, files=True, origins=origins)
    valid = not any(f.severity == "error" for f in found)
    hint = "; robomodel validate lists them" if found else ""
    lines.append(f"  valid:       {'yes' if valid else 'no'} ({count_text(found)}{hint})")
    return "\n".join(lines)


def find_problems(model: Model) -> tuple[list[str], list[str]]:
    """Deprecated: ``(errors, warnings)`` as text; use ``model.problems(severity="warning")``.

    The findings are those of :meth:`Model.problems() <robomodel.model.record.Model.problems>`
    (notes are left out), each as ``"element: message [check]"``.
    """
    from robomodel.errors import deprecated

    deprecated("robomodel.tools.textview.find_problems", 'model.problems(severity="warning")')
    found = model.problems(severity="warning")
    return (
        [str(f) for f in found if f.severity == "error"],
        [str(f) for f in found if f.severity == "warning"],
    )
