"""Draw a model's kinematic tree as SVG, written by robomodel itself (no Graphviz needed).

The tree grows left to right from the traversal base. Each link is a box with its name and
mass; each joint is an edge labelled with its name, its type and its axis (in the child frame,
the way URDF states it); additional frames and link sensors hang off their link as small
dashed and orange boxes; force/torque sensors are written on the joint they sit in.

>>> from robomodel import Model, Link, RevoluteJoint, add_link, add_joint_and_link
>>> m = add_link(Model(name="demo"), "base", Link())
>>> j1 = RevoluteJoint(link1="base", link2="arm")
>>> m = add_joint_and_link(m, "base", "j1", j1, "arm", Link())
>>> svg = tree_svg(m)
>>> svg.startswith("<?xml") and ">arm<" in svg and "revolute" in svg
True
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

import attrs

from robomodel.joints import FixedJoint, Joint, joint_type_name
from robomodel.model import Model
from robomodel.sensors import Accelerometer, Gyroscope, SixAxisForceTorqueSensor
from robomodel.textview import mimic_phrase

__all__ = ["tree_svg"]

# Monospace text makes the width of a label predictable without a font engine.
_FONT = 12.0
_SMALL = 10.0
_CHAR = 0.61  # width of one monospace character, in font sizes
_ROW = 40.0  # vertical distance between two leaves
_PAD = 8.0  # inner horizontal padding of a box
_BOX_H = 24.0
_CURVE = 36.0  # horizontal length of the curved part of an edge
_MARGIN = 20.0
_HEADER = 46.0
_GROUP = 3  # more additional frames than this on one link are drawn as one box
_GROUP_WIDTH = 48  # characters per line in such a box
_LINE = 13.0  # line height in a group box

_STYLE = """
text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; fill: #1b1f24; }
.title { font-size: 15px; font-weight: bold; }
.subtitle { font-size: 11px; fill: #57606a; }
.link rect { fill: #dbe9fb; stroke: #2f5e9e; stroke-width: 1.2; }
.link.base rect { fill: #fde7c8; stroke: #b36b00; stroke-width: 2; }
.link.massless rect { fill: #f3f4f6; stroke-dasharray: 4 2; }
.link text { font-size: 12px; }
.link .mass { font-size: 10px; fill: #57606a; }
.frame rect { fill: #ffffff; stroke: #8c959f; stroke-dasharray: 3 2; }
.frame text, .sensor text { font-size: 10px; }
.frame .count { fill: #57606a; font-style: italic; }
.sensor rect { fill: #fff1e0; stroke: #d9730d; }
.edge { fill: none; stroke: #2f5e9e; stroke-width: 1.5; }
.edge.fixed { stroke: #8c959f; stroke-dasharray: 5 3; }
.edge.prismatic { stroke: #8250df; }
.edge.mimic { stroke: #1a7f37; stroke-dasharray: 6 2 1 2; }
.edge.attach { stroke: #c0c6cc; stroke-width: 1; stroke-dasharray: 2 2; }
.jname { font-size: 11px; font-weight: bold; }
.jidx { font-weight: normal; fill: #57606a; }
.jinfo { font-size: 10px; fill: #57606a; }
.ft { font-size: 10px; fill: #cf222e; font-weight: bold; }
"""


@attrs.frozen
class _Item:
    """One box of the drawing: a link, an additional frame or a link sensor."""

    kind: str  # "link", "frame", "frames" (a group) or "sensor"
    label: str
    detail: str
    depth: int
    parent: int | None  # index of the parent item
    joint: int | None = None  # joint index, for links other than the base
    css: str = ""
    names: tuple[tuple[str, ...], ...] = ()  # for a group: the frame names, line by line


def _wrap(names: list[str], width: int) -> tuple[tuple[str, ...], ...]:
    lines: list[tuple[str, ...]] = []
    line: list[str] = []
    used = 0
    for n in names:
        if line and used + 2 + len(n) > width:
            lines.append(tuple(line))
            line, used = [], 0
        used += len(n) + (2 if line else 0)
        line.append(n)
    if line:
        lines.append(tuple(line))
    return tuple(lines)


def _box_height(it: _Item) -> float:
    if it.kind == "link":
        return _BOX_H
    if it.names:
        return 8 + _LINE * (1 + len(it.names))
    return _BOX_H - 6


def _text_width(text: str, size: float) -> float:
    return len(text) * size * _CHAR


def _fmt(x: float) -> str:
    r = round(x, 3)
    return "0" if r == 0 else f"{r:g}"


def _dofs(model: Model) -> str:
    from robomodel.errors import ModelError
    from robomodel.mimic import dof_counts

    try:
        return dof_counts(model)
    except ModelError:  # relations that do not resolve: robomodel validate says why
        return f"{model.n_dofs} DOFs"


def _joint_info(model: Model, joint: Joint, child: str) -> str:
    kind = joint_type_name(joint)
    if isinstance(joint, FixedJoint):
        return kind
    axis = joint.axis(child).direction
    text = f"{kind}  axis ({_fmt(axis[0])}, {_fmt(axis[1])}, {_fmt(axis[2])})"
    if joint.limits.enabled:
        text += f"  [{_fmt(joint.limits.lower)}, {_fmt(joint.limits.upper)}]"
    if joint.mimic is not None:
        text += f"  {mimic_phrase(joint.mimic)}"
    return text


def _items(
    model: Model, base: str | int | None, *, frames: bool, sensors: bool
) -> tuple[list[_Item], list[list[int]]]:
    """Lay the tree out as items in depth-first order, with the children of each item."""
    trav = model.traversal(base)
    children: dict[int, list[int]] = {}
    for el in trav:
        if el.parent is not None:
            children.setdefault(el.parent, []).append(el.link)
    link_sensors: dict[str, list[str]] = {}
    if sensors:
        for s in model.sensors:
            if isinstance(s, Accelerometer | Gyroscope):
                tag = "acc" if isinstance(s, Accelerometer) else "gyro"
                link_sensors.setdefault(s.link, []).append(f"{tag} {s.name}")
    items: list[_Item] = []
    kids: list[list[int]] = []
    parent_joint = dict(zip(trav.links, trav.joints, strict=True))
    base_index = trav.base
    # An explicit stack (not recursion): long serial chains are legal models.
    stack: list[tuple[int, int | None, int]] = [(base_index, None, 0)]
    while stack:
        link, parent_item, depth = stack.pop()
        name = model.link_name(link)
        mass = model.links[link].mass
        css = "link" + (" base" if link == base_index else "") + (" massless" if mass <= 0 else "")
        me = len(items)
        items.append(
            _Item("link", name, f"{mass:.4g} kg", depth, parent_item, parent_joint[link], css)
        )
        kids.append([])
        if parent_item is not None:
            kids[parent_item].append(me)
        if frames:
            names = [model.frame_name(f) for f in model.link_additional_frames(link)]
            if len(names) > _GROUP:
                # Many frames (lumped links, sensor frames) share one box, wrapped in lines.
                group = _wrap(names, _GROUP_WIDTH)
                label = f"{len(names)} frames"
                items.append(_Item("frames", label, "", depth + 1, me, css="frame", names=group))
                kids.append([])
                kids[me].append(len(items) - 1)
            else:
                for n in names:
                    items.append(_Item("frame", n, "", depth + 1, me, css="frame"))
                    kids.append([])
                    kids[me].append(len(items) - 1)
        for label in link_sensors.get(name, ()):
            items.append(_Item("sensor", label, "", depth + 1, me, css="sensor"))
            kids.append([])
            kids[me].append(len(items) - 1)
        for child in reversed(children.get(link, [])):
            stack.append((child, me, depth + 1))
    return items, kids


def tree_svg(
    model: Model,
    *,
    base: str | int | None = None,
    frames: bool = True,
    sensors: bool = True,
    title: str | None = None,
) -> str:
    """Return the kinematic tree of ``model`` as an SVG document.

    Args:
        model: the model to draw (every link reachable from ``base`` is drawn).
        base: the link the tree grows from; the model's default base by default.
        frames: draw the additional frames attached to each link.
        sensors: draw accelerometers and gyroscopes next to their link, and force/torque sensors
            on their joint.
        title: a title line; the model name and its counts by default.

    Returns:
        The SVG text (UTF-8, with an XML declaration), ready to be written to a ``.svg`` file.

    Raises:
        UnknownNameError: ``base`` is not a link of the model.
        ModelError: the model is empty.
    """
    from robomodel.errors import ModelError

    if model.n_links == 0:
        raise ModelError("cannot draw an empty model; add a link first")
    items, kids = _items(model, base, frames=frames, sensors=sensors)
    ft_on_joint: dict[str, list[str]] = {}
    if sensors:
        for s in model.sensors:
            if isinstance(s, SixAxisForceTorqueSensor):
                ft_on_joint.setdefault(s.parent_joint, []).append(s.name)

    # Widths: a box fits its text; a column fits its widest box; the gap before a column fits
    # the widest joint label that ends in it.
    box_w: list[float] = []
    labels: dict[int, tuple[str, str, str]] = {}
    for k, it in enumerate(items):
        text_w = _text_width(it.label, _FONT if it.kind == "link" else _SMALL)
        if it.detail:
            text_w += _text_width(" " + it.detail, _SMALL)
        for line in it.names:
            text_w = max(text_w, _text_width(", ".join(line), _SMALL))
        box_w.append(text_w + 2 * _PAD)
        if it.joint is not None:
            jname = model.joint_name(it.joint)
            joint = model.joints[it.joint]
            ft = ", ".join(ft_on_joint.get(jname, ()))
            labels[k] = (jname, _joint_info(model, joint, it.label), f"F/T {ft}" if ft else "")
    depth = max(it.depth for it in items) + 1
    col_w = [0.0] * depth
    gap_w = [24.0] * depth
    for k, it in enumerate(items):
        col_w[it.depth] = max(col_w[it.depth], box_w[k])
        if k in labels:
            jname, info, ft = labels[k]
            need = max(
                _text_width(f"{jname}  #{it.joint}", 11.0),
                _text_width(info, _SMALL),
                _text_width(ft, _SMALL),
            )
            gap_w[it.depth] = max(gap_w[it.depth], need + _CURVE + 12.0)
    col_x = [_MARGIN]
    for d in range(1, depth):
        col_x.append(col_x[d - 1] + col_w[d - 1] + gap_w[d])

    # Rows: leaves take consecutive rows in depth-first order; a parent sits in the middle of
    # its first and last child. Items are in depth-first order, so children follow parents.
    y = [0.0] * len(items)
    cursor = _HEADER + _MARGIN
    for k in range(len(items)):
        if not kids[k]:
            h = max(_ROW, _box_height(items[k]) + 16.0)
            y[k] = cursor + h / 2
            cursor += h
    for k in range(len(items) - 1, -1, -1):
        if kids[k]:
            y[k] = (y[kids[k][0]] + y[kids[k][-1]]) / 2
    width = col_x[-1] + col_w[-1] + _MARGIN
    height = cursor + _MARGIN

    if title is None:
        title = (
            f"{model.name or 'model'}: {model.n_links} links, {model.n_joints} joints, "
            f"{_dofs(model)}, {len(model.frames)} frames, {len(model.sensors)} sensors"
        )
    width = max(width, _text_width(title, 15.0) + 2 * _MARGIN)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">',
        f"<style>{_STYLE}</style>",
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text class="title" x="{_MARGIN}" y="{_MARGIN + 8}">{escape(title)}</text>',
        f'<text class="subtitle" x="{_MARGIN}" y="{_MARGIN + 26}">'
        "base at left (orange); joints: name, #index, type, axis in the child frame, limits; "
        "dashed boxes: additional frames; orange boxes: link sensors</text>",
    ]
    # Edges first, so boxes are drawn over them.
    for k, it in enumerate(items):
        if it.parent is None:
            continue
        p = it.parent
        x0 = col_x[items[p].depth] + box_w[p]
        y0 = y[p]
        x1 = col_x[it.depth]
        y1 = y[k]
        xm = col_x[it.depth] - gap_w[it.depth] + _CURVE
        if it.kind == "link" and it.joint is not None:
            joint = model.joints[it.joint]
            css = "edge " + joint_type_name(joint)
            if getattr(joint, "mimic", None) is not None:
                css += " mimic"
        else:
            css = "edge attach"
        xs = col_x[it.depth - 1] + col_w[it.depth - 1]
        out.append(
            f'<path class="{css}" d="M{x0:.1f},{y0:.1f} L{xs:.1f},{y0:.1f} '
            f"C{xs + _CURVE / 2:.1f},{y0:.1f} {xm - _CURVE / 2:.1f},{y1:.1f} {xm:.1f},{y1:.1f} "
            f'L{x1:.1f},{y1:.1f}"/>'
        )
        if k in labels:
            jname, info, ft = labels[k]
            tx = xm + 4
            # The joint index (its position in the model) shows what a renumbering changed.
            out.append(
                f'<text class="jname" x="{tx:.1f}" y="{y1 - 5:.1f}">{escape(jname)}'
                f'<tspan class="jidx"> #{it.joint}</tspan></text>'
            )
            out.append(f'<text class="jinfo" x="{tx:.1f}" y="{y1 + 12:.1f}">{escape(info)}</text>')
            if ft:
                out.append(f'<text class="ft" x="{tx:.1f}" y="{y1 - 18:.1f}">{escape(ft)}</text>')
    for k, it in enumerate(items):
        x = col_x[it.depth]
        h = _box_height(it)
        top = y[k] - h / 2
        size = _FONT if it.kind == "link" else _SMALL
        tooltip = f"{it.kind} {it.label}" + (f", {it.detail}" if it.detail else "")
        out.append(f"<g class={quoteattr(it.css)}><title>{escape(tooltip)}</title>")
        out.append(
            f'<rect x="{x:.1f}" y="{top:.1f}" width="{box_w[k]:.1f}" height="{h:.1f}" rx="5"/>'
        )
        if it.names:
            # A group of frames: a count, then the names, one <tspan> each.
            line_y = top + 4 + _LINE * 0.8
            out.append(
                f'<text class="count" x="{x + _PAD:.1f}" y="{line_y:.1f}">{escape(it.label)}</text>'
            )
            for line in it.names:
                line_y += _LINE
                spans = ", ".join(f"<tspan>{escape(n)}</tspan>" for n in line)
                out.append(f'<text x="{x + _PAD:.1f}" y="{line_y:.1f}">{spans}</text>')
            out.append("</g>")
            continue
        baseline = y[k] + size * 0.35
        out.append(f'<text x="{x + _PAD:.1f}" y="{baseline:.1f}">{escape(it.label)}</text>')
        if it.detail:
            dx = x + _PAD + _text_width(it.label, size) + _text_width(" ", _SMALL)
            out.append(
                f'<text class="mass" x="{dx:.1f}" y="{baseline:.1f}">{escape(it.detail)}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
