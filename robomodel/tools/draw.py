"""Draw a model's kinematic tree as SVG, written by robomodel itself (no Graphviz needed).

The tree grows top-down from the traversal base. Each link is a card: above the box, the joint
that reaches it (name, index, type, axis in the child frame the way URDF states it, limits,
the joint it mimics, the force/torque sensor in it); in the box, the link's name and mass, its
additional frames and its accelerometers and gyroscopes. Long lists are wrapped and cut after a
few lines (``robomodel tree`` lists everything).

The layout is width-balanced: every subtree gets the width its cards need, siblings side by
side, a parent centred over its children. When that would make the picture more than
``max_aspect`` times wider than tall, the children of the widest families are wrapped onto
several rows, hung from a trunk on their left, until it fits. Text keeps its size, so a picture
shown at its own size is legible (12 to 13 px for names, 11 px for the rest).

>>> from robomodel import Model, Link, RevoluteJoint, add_link, add_joint_and_link
>>> m = add_link(Model(name="demo"), "base", Link())
>>> j1 = RevoluteJoint(link1="base", link2="arm")
>>> m = add_joint_and_link(m, "base", "j1", j1, "arm", Link())
>>> svg = tree_svg(m)
>>> svg.startswith("<?xml") and ">arm<" in svg and "revolute" in svg
True
"""

from __future__ import annotations

import math
from typing import Literal
from xml.sax.saxutils import escape, quoteattr

import attrs

from robomodel.errors import ArgumentError, ModelError
from robomodel.model.joints import FixedJoint, Joint, joint_type_name
from robomodel.model.record import Model
from robomodel.model.sensors import Accelerometer, Gyroscope, SixAxisForceTorqueSensor
from robomodel.tools.textview import mimic_phrase

__all__ = ["tree_svg"]

# Monospace text makes the width of a label predictable without a font engine.
_CHAR = 0.61  # width of one monospace character, in font sizes
_SIZE = {"link": 13.0, "jname": 12.0}  # font sizes by line kind; every other line is _SMALL
_SMALL = 11.0
_LEAD = {"link": 19.0, "jname": 16.0}  # line heights; every other line is _LINE
_LINE = 14.0
_PAD = 7.0  # inner padding of a box
_STEM = 9.0  # the edge runs down the card's left side, this far in; text starts after it
_GAP_X = 18.0  # between sibling subtrees
_GAP_Y = 26.0  # between a parent's box and its children's cards
_FAMILY = 2.5  # see _layout
_TRUNK = 16.0  # indent of wrapped children, for the trunk on their left
_MARGIN = 20.0
_HEADER = 50.0
_LIST = 3  # up to this many frames (or sensors) get a line each; more are grouped
_LIST_LINES = 5  # lines of names shown in a group before "... N more"
_WRAP = 44  # characters per line in a group

_STYLE = """
text { font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; fill: #1b1f24;
  font-size: 11px; }
.title { font-size: 15px; font-weight: bold; }
.subtitle { fill: #57606a; }
.card rect { fill: #dbe9fb; stroke: #2f5e9e; stroke-width: 1.2; }
.card.base rect { fill: #fde7c8; stroke: #b36b00; stroke-width: 2; }
.card.massless rect { fill: #f3f4f6; stroke-dasharray: 4 2; }
.link { font-size: 13px; font-weight: bold; }
.mass, .count, .more, .merged { fill: #57606a; }
.count, .more { font-style: italic; }
.frame { fill: #3d444d; }
.sensor { fill: #b35900; }
.edge { fill: none; stroke: #2f5e9e; stroke-width: 1.5; }
.edge.fixed { stroke: #8c959f; stroke-dasharray: 5 3; }
.edge.prismatic { stroke: #8250df; }
.edge.mimic { stroke: #1a7f37; stroke-dasharray: 6 2 1 2; }
.jname { font-size: 12px; font-weight: bold; }
.jidx { font-weight: normal; fill: #57606a; }
.jinfo { fill: #57606a; }
.ft { fill: #cf222e; font-weight: bold; }
"""


@attrs.frozen
class _Line:
    """One line of a card: its kind (CSS class) and its words (one <tspan> each if several)."""

    kind: str
    words: tuple[str, ...]
    head: str = ""  # text before the words (``"frame "``), or the joint index for ``jname``

    @property
    def size(self) -> float:
        return _SIZE.get(self.kind, _SMALL)

    @property
    def lead(self) -> float:
        return _LEAD.get(self.kind, _LINE)

    @property
    def width(self) -> float:
        if self.kind == "link":  # name, then the mass in small type
            return _text_width(self.words[0] + " ", self.size) + _text_width(self.words[1], _SMALL)
        if self.kind == "jname":
            return _text_width(self.words[0], self.size) + _text_width(self.head, _SMALL)
        return _text_width(self.head + ", ".join(self.words), self.size)


@attrs.define
class _Card:
    """A drawn node: one link (or, with collapse, a link and its fixed descendants)."""

    link: int
    depth: int
    header: list[_Line]  # the joint, above the box
    body: list[_Line]  # the link, its frames and sensors, in the box
    edge_css: str = "edge"
    css: str = "card"
    children: list[int] = attrs.Factory(list)  # card indices
    width: float = 0.0
    # Layout, relative to the card's subtree block (then absolute).
    block_w: float = 0.0
    block_h: float = 0.0
    x: float = 0.0
    y: float = 0.0
    left: float = 0.0  # the card's own left edge, within its block
    rows: list[list[int]] = attrs.Factory(list)
    row_y: list[float] = attrs.Factory(list)  # top of each row of children, relative

    @property
    def header_h(self) -> float:
        return sum(line.lead for line in self.header)

    @property
    def box_h(self) -> float:
        return sum(line.lead for line in self.body) + 2 * _PAD - 4

    @property
    def height(self) -> float:
        return self.header_h + self.box_h


def _text_width(text: str, size: float) -> float:
    return len(text) * size * _CHAR


def _fmt(x: float) -> str:
    r = round(x, 3)
    return "0" if r == 0 else f"{r:g}"


def _joint_info(joint: Joint, child: str) -> str:
    kind = joint_type_name(joint)
    if isinstance(joint, FixedJoint):
        return kind
    axis = joint.axis(child).direction
    text = f"{kind}  axis ({_fmt(axis[0])}, {_fmt(axis[1])}, {_fmt(axis[2])})"
    if joint.limits.enabled:
        text += f"  [{_fmt(joint.limits.lower)}, {_fmt(joint.limits.upper)}]"
    return text


def _dofs(model: Model) -> str:
    from robomodel.model.mimic import dof_counts

    try:
        return dof_counts(model)
    except ModelError:  # relations that do not resolve: robomodel validate says why
        return f"{model.n_dofs} DOFs"


def _wrap(names: list[str], width: int) -> list[tuple[str, ...]]:
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
    return lines


def _listing(kind: str, head: str, names: list[str], what: str) -> list[_Line]:
    """A few names a line each, or a count and the names wrapped (cut after a few lines)."""
    if len(names) <= _LIST:
        return [_Line(kind, (n,), head) for n in names]
    wrapped = _wrap(names, _WRAP)
    out = [_Line("count", (f"{len(names)} {what}",))]
    out += [_Line(kind, words) for words in wrapped[:_LIST_LINES]]
    hidden = sum(len(w) for w in wrapped[_LIST_LINES:])
    if hidden:
        out.append(_Line("more", (f"... {hidden} more (robomodel tree lists them)",)))
    return out


def _cards(
    model: Model,
    base: str | int | None,
    *,
    subtree: str | None,
    depth: int | None,
    collapse: Literal["fixed"] | None,
    frames: bool,
    sensors: bool,
) -> list[_Card]:
    """The cards in depth-first order (parents before children), with their children."""
    trav = model.traversal(base)
    children: dict[int, list[int]] = {}
    for el in trav:
        if el.parent is not None:
            children.setdefault(el.parent, []).append(el.link)
    root = trav.base
    if subtree is not None:
        root = model.link_index(subtree)
        if not trav.contains(root):
            raise ModelError(
                f"link {subtree!r} is not reachable from the base "
                f"{model.link_name(trav.base)!r}; give a link of the same tree"
            )
    ft_on_joint: dict[str, list[str]] = {}
    link_sensors: dict[str, list[str]] = {}
    if sensors:
        for s in model.sensors:
            if isinstance(s, SixAxisForceTorqueSensor):
                ft_on_joint.setdefault(s.parent_joint, []).append(s.name)
            elif isinstance(s, Accelerometer | Gyroscope):
                tag = "acc" if isinstance(s, Accelerometer) else "gyro"
                link_sensors.setdefault(s.link, []).append(f"{tag} {s.name}")

    def header(link: int) -> tuple[list[_Line], str]:
        joint_index = trav.parent_joint_of(link)
        if joint_index is None or (link == root and subtree is None):
            return [], "edge"
        joint = model.joints[joint_index]
        name = model.joint_name(joint_index)
        lines = [
            _Line("jname", (name,), f" #{joint_index}"),
            _Line("jinfo", (_joint_info(joint, model.link_name(link)),)),
        ]
        css = "edge " + joint_type_name(joint)
        mimic = getattr(joint, "mimic", None)
        if mimic is not None:
            lines.append(_Line("jinfo", (mimic_phrase(mimic),)))
            css += " mimic"
        if name in ft_on_joint:
            lines.append(_Line("ft", (f"F/T {', '.join(ft_on_joint[name])}",)))
        return lines, css

    def merged(link: int) -> bool:
        joint_index = trav.parent_joint_of(link)
        return (
            collapse == "fixed"
            and joint_index is not None
            and link != root
            and isinstance(model.joints[joint_index], FixedJoint)
        )

    cards: list[_Card] = []
    # An explicit stack (not recursion): long serial chains are legal models.
    stack: list[tuple[int, int | None, int]] = [(root, None, 0)]
    while stack:
        link, parent_card, level = stack.pop()
        # The links of this card: the link, and with collapse its fixed descendants.
        members = [link]
        below: list[int] = []
        k = 0
        while k < len(members):
            for child in children.get(members[k], []):
                (members if merged(child) else below).append(child)
            k += 1
        name = model.link_name(link)
        mass = sum(model.links[m].mass for m in members)
        body = [_Line("link", (name, f"{mass:.4g} kg"))]
        frame_names: list[str] = []
        sensor_names: list[str] = []
        for m in members:
            if m != link:
                joint_name = model.joint_name(trav.parent_joint_of(m))  # type: ignore[arg-type]
                ft = ", ".join(ft_on_joint.get(joint_name, ()))
                text = f"+ {model.link_name(m)} {model.links[m].mass:.4g} kg ({joint_name}"
                body.append(_Line("merged", (text + (f", F/T {ft})" if ft else ")"),)))
            if frames:
                frame_names += [model.frame_name(f) for f in model.link_additional_frames(m)]
            sensor_names += link_sensors.get(model.link_name(m), [])
        body += _listing("frame", "frame ", frame_names, "frames")
        body += _listing("sensor", "", sensor_names, "sensors")
        if depth is not None and level >= depth and below:
            count, todo = 0, list(below)
            while todo:
                count += 1
                todo += children.get(todo.pop(), [])
            links = "link" if count == 1 else "links"
            body.append(_Line("more", (f"... {count} more {links} below (--depth)",)))
            below = []
        head, edge_css = header(link)
        css = "card" + (" base" if link == trav.base else "") + (" massless" if mass <= 0 else "")
        me = len(cards)
        cards.append(_Card(link, level, head, body, edge_css, css))
        if parent_card is not None:
            cards[parent_card].children.append(me)
        for child in reversed(below):
            stack.append((child, me, level + 1))
    for card in cards:
        card.width = max(line.width for line in card.header + card.body) + _STEM + 2 * _PAD
    return cards


def _layout(cards: list[_Card], limit: float) -> None:
    """Size every subtree block, bottom-up, wrapping children wider than ``limit`` into rows."""
    # Cards are in depth-first order, so children come after their parent: go backwards.
    for card in reversed(cards):
        card.rows, card.row_y = [], []
        if not card.children:
            card.block_w, card.block_h = card.width, card.height
            continue
        # A big family (many leaf links on one body, a hand's fingers) is wrapped into a block
        # about _FAMILY times wider than tall, even when the picture as a whole would fit.
        area = sum(cards[c].block_w * cards[c].block_h for c in card.children)
        family = max(card.width, _FAMILY * math.sqrt(area))
        row_limit = min(limit, family)
        rows: list[list[int]] = [[]]
        used = 0.0
        for c in card.children:
            w = cards[c].block_w
            if rows[-1] and used + _GAP_X + w > row_limit:
                rows.append([])
                used = 0.0
            used += w + (_GAP_X if rows[-1] else 0.0)
            rows[-1].append(c)
        indent = _TRUNK if len(rows) > 1 else 0.0
        top = card.height + _GAP_Y
        row_w = []
        for row in rows:
            card.row_y.append(top)
            x = indent
            for c in row:
                cards[c].x, cards[c].y = x, top
                x += cards[c].block_w + _GAP_X
            row_w.append(x - _GAP_X)
            top += max(cards[c].block_h for c in row) + _GAP_Y
        card.rows = rows
        kids_w = max(row_w)
        card.block_w = max(card.width, kids_w)
        card.block_h = top - _GAP_Y
        if len(rows) == 1 and len(rows[0]) > 1 and kids_w < card.width:
            # A narrow family under a wide card: centre the family under it. (A single child
            # stays left-aligned, so that a chain of links is one straight line.)
            shift = (card.width - kids_w) / 2
            for c in rows[0]:
                cards[c].x += shift


def _place(cards: list[_Card]) -> None:
    """Turn block positions absolute and place each card in its block.

    A card sits at its block's left, or centred over its children when two or more fill a row.
    """
    for card in cards:  # parents before children
        for c in card.children:
            cards[c].x += card.x
            cards[c].y += card.y
    for card in reversed(cards):  # children before parents
        card.left = card.x
        if len(card.rows) == 1 and len(card.children) > 1:
            first, last = cards[card.rows[0][0]], cards[card.rows[0][-1]]
            mid = (first.left + last.left + last.width) / 2
            card.left = max(card.x, min(mid - card.width / 2, card.x + card.block_w - card.width))


def tree_svg(
    model: Model,
    *,
    base: str | int | None = None,
    frames: bool = True,
    sensors: bool = True,
    title: str | None = None,
    subtree: str | None = None,
    depth: int | None = None,
    collapse: Literal["fixed"] | None = None,
    max_aspect: float = 3.0,
    legend: bool = True,
) -> str:
    """Return the kinematic tree of ``model`` as an SVG document, top-down from ``base``.

    Args:
        model: the model to draw (every link reachable from ``base`` is drawn).
        base: the link the tree grows from; the model's default base by default.
        frames: list the additional frames of each link.
        sensors: list accelerometers and gyroscopes with their link, and force/torque sensors
            on their joint.
        title: a title line; the model name and its counts by default.
        subtree: draw only this link and what hangs below it (seen from ``base``).
        depth: draw links at most this many joints below the top link; deeper ones are counted.
        collapse: ``"fixed"`` draws links reached through fixed joints inside their parent's
            card (their mass added, their frames and sensors listed there).
        max_aspect: wrap wide families of children onto rows until the picture is at most this
            many times wider than tall.
        legend: write the line that explains the drawing under the title; without it a small
            tree makes a narrow picture (the legend is about 1,100 pixels wide), for a page
            that explains the drawing in its own text.

    Returns:
        The SVG text (UTF-8, with an XML declaration), ready to be written to a ``.svg`` file.

    Raises:
        UnknownNameError: ``base`` or ``subtree`` is not a link of the model.
        ModelError: the model is empty, ``subtree`` is not below ``base``, ``depth`` is
            negative or ``max_aspect`` is not above 1.
        ArgumentError: ``depth`` is not an int.
    """
    if model.n_links == 0:
        raise ModelError("cannot draw an empty model; add a link first")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int)):
        raise ArgumentError(f"depth must be an int (levels below the top), got {depth!r}")
    if depth is not None and depth < 0:
        raise ModelError(f"depth must be >= 0 (levels below the top), got {depth}")
    if collapse not in (None, "fixed"):
        raise ModelError(f"collapse must be None or 'fixed', got {collapse!r}")
    if not max_aspect > 1.0:
        raise ModelError(f"max_aspect must be above 1, got {max_aspect!r}")
    cards = _cards(
        model,
        base,
        subtree=subtree,
        depth=depth,
        collapse=collapse,
        frames=frames,
        sensors=sensors,
    )

    # Width-balanced layout; if too wide for its height, wrap families at a narrower limit,
    # found by bisection (narrower limits give taller, narrower pictures).
    def aspect(limit: float) -> float:
        _layout(cards, limit)
        return (cards[0].block_w + 2 * _MARGIN) / (cards[0].block_h + _HEADER + 2 * _MARGIN)

    widest = max(c.width for c in cards)
    if aspect(math.inf) > max_aspect:
        lo, hi = widest, cards[0].block_w
        for _ in range(30):
            mid = (lo + hi) / 2
            if aspect(mid) > max_aspect:
                hi = mid
            else:
                lo = mid
            if hi - lo < 1.0:
                break
        aspect(lo)
    _place(cards)

    if title is None:
        title = (
            f"{model.name or 'model'}: {model.n_links} links, {model.n_joints} joints, "
            f"{_dofs(model)}, {len(model.frames)} frames, {len(model.sensors)} sensors"
        )
        if subtree is not None:
            title += f"; below {subtree}"
    subtitle = (
        "base at the top (orange); above each link: its joint (name, #index, type, axis in "
        "the child frame, limits); green dash-dot edges: mimic joints; grey dashed: fixed"
    )
    width = max(
        cards[0].block_w + 2 * _MARGIN,
        _text_width(title, 15.0) + 2 * _MARGIN,
        _text_width(subtitle, _SMALL) + 2 * _MARGIN if legend else 0.0,
    )
    height = cards[0].block_h + _HEADER + 2 * _MARGIN
    top = _MARGIN + _HEADER
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">',
        f"<style>{_STYLE}</style>",
        f'<rect x="0" y="0" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text class="title" x="{_MARGIN}" y="{_MARGIN + 10}">{escape(title)}</text>',
    ]
    if legend:
        out.append(
            f'<text class="subtitle" x="{_MARGIN}" y="{_MARGIN + 30}">{escape(subtitle)}</text>'
        )
    out += _edges(cards, _MARGIN, top)
    for card in cards:
        out += _card_svg(card, card.left + _MARGIN, card.y + top)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _edges(cards: list[_Card], dx: float, dy: float) -> list[str]:
    """Orthogonal edges: down from the parent's box, along a bus (or a trunk), down the card."""
    out = []
    for card in cards:
        if not card.rows:
            continue
        px = card.left + dx + _STEM
        py = card.y + dy + card.height
        for r, row in enumerate(card.rows):
            bus = card.row_y[r] + card.y + dy - _GAP_Y / 2
            for c in row:
                child = cards[c]
                cx = child.left + dx + _STEM
                cy = child.y + dy + child.header_h
                if r == 0 and len(card.rows) == 1:
                    d = f"M{px:.1f},{py:.1f} V{bus:.1f} H{cx:.1f} V{cy:.1f}"
                else:
                    # Wrapped rows hang from a trunk left of the children.
                    trunk = card.x + dx + _TRUNK / 2
                    first = card.y + dy + card.height + _GAP_Y / 2
                    d = (
                        f"M{px:.1f},{py:.1f} V{first:.1f} H{trunk:.1f} V{bus:.1f} "
                        f"H{cx:.1f} V{cy:.1f}"
                    )
                out.append(f'<path class="{child.edge_css}" d="{d}"/>')
    return out


def _card_svg(card: _Card, x: float, y: float) -> list[str]:
    out = [f"<g class={quoteattr(card.css)}>"]
    tx = x + _STEM + _PAD
    line_y = y
    for line in card.header:
        line_y += line.lead
        out.append(_line_svg(line, tx, line_y - 4))
    box_top = y + card.header_h
    out.append(
        f'<rect x="{x:.1f}" y="{box_top:.1f}" width="{card.width:.1f}" '
        f'height="{card.box_h:.1f}" rx="5"/>'
    )
    line_y = box_top + _PAD - 2
    for line in card.body:
        line_y += line.lead
        out.append(_line_svg(line, tx, line_y - 4))
    out.append("</g>")
    return out


def _line_svg(line: _Line, x: float, y: float) -> str:
    at = f'x="{x:.1f}" y="{y:.1f}"'
    if line.kind == "link":
        name, mass = line.words
        mx = x + _text_width(name + " ", line.size)
        return (
            f'<text class="link" {at}>{escape(name)}</text>'
            f'<text class="mass" x="{mx:.1f}" y="{y:.1f}">{escape(mass)}</text>'
        )
    if line.kind == "jname":
        # The joint index (its position in the model) shows what a renumbering changed.
        return (
            f'<text class="jname" {at}>{escape(line.words[0])}'
            f'<tspan class="jidx">{escape(line.head)}</tspan></text>'
        )
    if len(line.words) == 1 and not line.head:
        return f'<text class="{line.kind}" {at}>{escape(line.words[0])}</text>'
    spans = ", ".join(f"<tspan>{escape(w)}</tspan>" for w in line.words)
    return f'<text class="{line.kind}" {at}>{escape(line.head)}{spans}</text>'
