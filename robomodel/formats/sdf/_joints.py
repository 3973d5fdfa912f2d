"""``<joint>`` with ``<axis>`` (``<xyz>``, ``<limit>``, ``<dynamics>``, ``<mimic>``).

Read beside written.

Reading. A joint connects its parent and child links (``<parent>``/``<child>`` may name frames in
1.8+: the links they are attached to). robomodel stores ``link1 = parent``, ``link2 = child``,
the rest pose ``parent_H_child`` and the axis as a line in the parent: through the joint frame's
origin, along ``<xyz>`` expressed in its ``expressed_in`` frame (1.7+; default the joint frame).
Before 1.7 the axis is in the joint frame unless ``<use_parent_model_frame>`` is true (then the
model frame), and in 1.4 always in the model frame (SDFormat's 1.4 -> 1.5 conversion adds
``use_parent_model_frame=true``). ``continuous`` is a revolute joint without position limits.

Writing. The joint frame is written relative to ``link1`` with no rotation, through the axis
origin, and ``<xyz expressed_in=link1>`` is the stored direction: the reader then gets both
without arithmetic. A joint whose ``link1`` is the written child carries
``robomodel:reversed="true"`` (robomodel joints are undirected; SDFormat's point from parent to
child).
"""

from __future__ import annotations

import math
from itertools import product
from typing import Any

import numpy as np

from robomodel.formats.report import Loss
from robomodel.formats.sdf._poses import PoseGraph, write_pose
from robomodel.formats.sdf._xml import Source, fmt, rm, verbatim
from robomodel.model.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.spatial import Axis, Transform

__all__ = ["UNSUPPORTED_JOINTS", "read_joint", "write_joint"]

UNSUPPORTED_JOINTS = ("ball", "universal", "screw", "gearbox", "revolute2")
_BIG = 1e16  # SDFormat's default limits: a bound this far is no bound
_AXIS_CHILDREN = ("xyz", "limit", "dynamics", "mimic", "use_parent_model_frame")


def _limits(src: Source, axis: Any, what: str) -> tuple[PositionLimits, float, float]:
    lim = None if axis is None else axis.find("limit")
    if lim is None:
        return PositionLimits(), math.inf, math.inf
    vals = {}
    for tag in ("lower", "upper", "effort", "velocity"):
        sub = lim.find(tag)
        vals[tag] = None if sub is None else src.number(sub, what, infinite=True)
    lo = vals["lower"] if vals["lower"] is not None else -_BIG
    hi = vals["upper"] if vals["upper"] is not None else _BIG
    lo = -math.inf if lo <= -_BIG else lo
    hi = math.inf if hi >= _BIG else hi
    flag = lim.get(rm("enabled"))
    enabled = (lo, hi) != (-math.inf, math.inf) if flag is None else flag == "true"
    if lo > hi:
        src.fail(lim, what, f"<lower>{lo}</lower> is above <upper>{hi}</upper>; swap them")
    effort = vals["effort"]
    velocity = vals["velocity"]
    # A negative effort or velocity (SDFormat's default -1) means no limit.
    e = math.inf if effort is None or effort < 0 else effort
    v = math.inf if velocity is None or velocity < 0 else velocity
    return PositionLimits(enabled=enabled, lower=lo, upper=hi), e, v


def _dynamics(src: Source, axis: Any, what: str, name: str, losses: list[Loss]) -> JointDynamics:
    d = None if axis is None else axis.find("dynamics")
    if d is None:
        return JointDynamics()
    damping = friction = 0.0
    for ch in d:
        if ch.tag == "damping":
            damping = src.number(ch, what)
        elif ch.tag == "friction":
            friction = src.number(ch, what)
        elif ch.tag in ("spring_reference", "spring_stiffness") and src.number(ch, what) == 0.0:
            pass
        else:
            losses.append(Loss(action="dropped", kind="joint", name=name, detail=verbatim(ch)))
    if damping < 0 or friction < 0:
        src.fail(d, what, "damping and friction are magnitudes >= 0")
    return JointDynamics(kind="urdf", damping=damping, static_friction=friction)


def read_joint(
    src: Source,
    el: Any,
    name: str,
    scope_model: str,
    parent: str,
    child: str,
    graph: PoseGraph,
    losses: list[Loss],
) -> Joint:
    """Return the joint of ``<joint>`` ``el`` between links ``parent`` and ``child``.

    ``scope_model``: the frame of the model the joint is in (for ``use_parent_model_frame``
    and ``expressed_in="__model__"``).
    """
    what = f"joint {name!r}"
    kind = el.get("type", "")
    reversed_ = el.get(rm("reversed")) == "true"
    link1, link2 = (child, parent) if reversed_ else (parent, child)
    rest = graph.between(link1, link2)
    if kind == "fixed":
        return FixedJoint(link1=link1, link2=link2, link1_H_link2=rest)
    if kind not in ("revolute", "prismatic", "continuous"):
        src.fail(el, what, f'type="{kind}" is not a joint type robomodel models')
    axis = el.find("axis")
    if axis is None:
        src.fail(el, what, f"a {kind} joint needs an <axis><xyz>")
    xyz_el = axis.find("xyz")
    xyz = [0.0, 0.0, 1.0] if xyz_el is None else src.numbers(xyz_el, what, 3)
    # The frame the axis is expressed in (see the module docstring for the versions).
    use_model = axis.find("use_parent_model_frame")
    if src.version < (1, 5):
        frame = scope_model
    elif src.version < (1, 7) and use_model is not None:
        frame = scope_model if (use_model.text or "").strip() in ("true", "1") else name
    else:
        given = None if xyz_el is None else xyz_el.get("expressed_in")
        frame = name if not given else graph.check(graph.scoped(el, given), xyz_el, what)
    R = None if frame == link1 else graph.between(link1, frame).rotation
    d = np.array(xyz, dtype=np.float64) if R is None else R @ np.array(xyz)
    if reversed_:
        d = -d
    origin = graph.between(link1, name).position
    for ch in axis:
        if ch.tag not in _AXIS_CHILDREN:
            losses.append(Loss(action="dropped", kind="joint", name=name, detail=verbatim(ch)))
    try:
        ax = Axis(d, origin)
    except ValueError:
        src.fail(xyz_el if xyz_el is not None else axis, what, "the axis <xyz> is zero")
    if xyz_el is not None and xyz_el.get(rm("direction")) is not None:
        given = np.array(src.numbers_attr(xyz_el, "direction", what, 3))
        if float(np.abs(given - ax.direction).max()) > 1e-9:
            src.fail(xyz_el, what, "robomodel:direction disagrees with <xyz>: remove it")
        ax = Axis._raw(given, ax.origin.copy())
    if kind == "continuous":
        limits, effort, velocity = PositionLimits(), math.inf, math.inf
        lim = axis.find("limit")
        if lim is not None:
            _, effort, velocity = _limits(src, axis, what)
    else:
        limits, effort, velocity = _limits(src, axis, what)
    mimic = None
    mim = axis.find("mimic")
    if mim is not None:
        mult = mim.find("multiplier")
        off = mim.find("offset")
        ref = mim.find("reference")
        if ref is not None and src.number(ref, what) != 0.0:
            src.fail(ref, what, "a mimic <reference> other than 0 is not supported")
        leader = mim.get("joint", "")
        mimic = Mimic(
            joint=graph.scoped(el, leader) if leader else leader,
            multiplier=1.0 if mult is None else src.number(mult, what),
            offset=0.0 if off is None else src.number(off, what),
        )
    cls = PrismaticJoint if kind == "prismatic" else RevoluteJoint
    return cls(
        link1=link1,
        link2=link2,
        link1_H_link2=rest,
        axis_in_link1=ax,
        limits=limits,
        effort_limit=effort,
        velocity_limit=velocity,
        dynamics=_dynamics(src, axis, what, name, losses),
        mimic=mimic,
    )


def _direction_numbers(d: np.ndarray) -> tuple[list[float], bool]:
    """Return numbers whose normalisation (``Axis``) is ``d`` exactly, and whether found.

    When none is found, ``d`` itself is returned and the writer states it exactly.
    """
    target = d.tolist()

    def ok(c: list[float]) -> bool:
        try:
            return bool(Axis(c).direction.tolist() == target)
        except ValueError:
            return False

    base = [float(v) + 0.0 for v in target]
    top = max(abs(v) for v in base)
    lead = math.floor(math.log10(top))
    for digits in range(1, 18):
        cand = [round(v, digits - 1 - lead) + 0.0 for v in base]
        if ok(cand):
            return cand, True
    for steps in product(range(-2, 3), repeat=3):
        cand = [_step(v, k) for v, k in zip(base, steps, strict=True)]
        if ok(cand):
            return cand, True
    return base, False


def _step(v: float, k: int) -> float:
    for _ in range(abs(k)):
        v = math.nextafter(v, math.copysign(math.inf, k))
    return v


def write_joint(
    name: str,
    j: Joint,
    parent: str,
    child: str,
    version: str,
    indent: str,
    losses: list[Loss],
    pose: Transform | None = None,
    sdf_names: dict[str, str] | None = None,
) -> list[str]:
    """Return the opening lines of ``<joint>`` (the caller adds sensors, extensions, the end).

    ``pose``: the joint frame in the child for a fixed joint (an F/T sensor's origin).
    """
    from xml.sax.saxutils import quoteattr

    i2, i3 = indent + "  ", indent + "    "
    rev = ' robomodel:reversed="true"' if j.link1 != parent else ""
    if isinstance(j, FixedJoint):
        out = [f'{indent}<joint name={quoteattr(name)} type="fixed"{rev}>']
        out += _ends(parent, child, i2)
        if pose is not None:
            out.append(write_pose(pose, child, i2))
        return out
    ax = j.axis_in_link1
    lim = j.limits
    continuous = (
        isinstance(j, RevoluteJoint)
        and not lim.enabled
        and (lim.lower, lim.upper) == (-math.inf, math.inf)
    )
    kind = "continuous" if continuous else joint_kind(j)
    out = [f'{indent}<joint name={quoteattr(name)} type="{kind}"{rev}>']
    out += _ends(parent, child, i2)
    # The world is no frame of a model: its frame is the model frame (written at the identity).
    frame1 = "__model__" if j.link1 == "world" else j.link1
    out.append(write_pose(Transform.from_translation(ax.origin + 0.0), frame1, i2))
    nums, found = _direction_numbers(ax.direction)
    if j.link1 != parent:  # the reader negates the axis of a reversed joint back, exactly
        nums = [-v for v in nums]
    exact = "" if found else f' robomodel:direction="{fmt(ax.direction)}"'
    out.append(f"{i2}<axis>")
    out.append(f"{i3}<xyz expressed_in={quoteattr(frame1)}{exact}>{fmt(nums)}</xyz>")
    if not continuous or math.isfinite(j.effort_limit) or math.isfinite(j.velocity_limit):
        out.append(f"{i3}{_write_limit(j, continuous)}")
    if j.dynamics.kind != "none":
        out.append(
            f"{i3}<dynamics><damping>{fmt([j.dynamics.damping])}</damping>"
            f"<friction>{fmt([j.dynamics.static_friction])}</friction></dynamics>"
        )
    if j.mimic is not None:
        if version == "1.7":
            losses.append(
                Loss(
                    action="dropped",
                    kind="joint",
                    name=name,
                    detail=f"mimic of {j.mimic.joint!r}: SDFormat 1.7 has no <mimic> (1.11 has)",
                )
            )
        else:
            out.append(
                f"{i3}<mimic joint={quoteattr((sdf_names or {}).get(j.mimic.joint, j.mimic.joint))}"
                ' axis="axis">'
                f"<multiplier>{fmt([j.mimic.multiplier])}</multiplier>"
                f"<offset>{fmt([j.mimic.offset])}</offset><reference>0</reference></mimic>"
            )
    out.append(f"{i2}</axis>")
    return out


def joint_kind(j: Joint) -> str:
    """Return the SDFormat type of a revolute or prismatic joint."""
    return "prismatic" if isinstance(j, PrismaticJoint) else "revolute"


def _write_limit(j: RevoluteJoint | PrismaticJoint, continuous: bool) -> str:
    lim = j.limits
    lo = -_BIG if lim.lower == -math.inf else lim.lower
    hi = _BIG if lim.upper == math.inf else lim.upper
    inferred = (lim.lower, lim.upper) != (-math.inf, math.inf)
    flag = (
        ""
        if continuous or lim.enabled == inferred
        else f' robomodel:enabled="{"true" if lim.enabled else "false"}"'
    )
    body = "" if continuous else f"<lower>{fmt([lo])}</lower><upper>{fmt([hi])}</upper>"
    if math.isfinite(j.effort_limit):
        body += f"<effort>{fmt([j.effort_limit])}</effort>"
    if math.isfinite(j.velocity_limit):
        body += f"<velocity>{fmt([j.velocity_limit])}</velocity>"
    return f"<limit{flag}>{body}</limit>"


def _end(tag: str, name: str, indent: str) -> str:
    """``<parent>``/``<child>`` naming ``name``.

    Readers trim the text of these elements, so a name with surrounding spaces is also stated
    exactly in ``robomodel:name`` (read back by :func:`end_name`).
    """
    from xml.sax.saxutils import escape, quoteattr

    exact = f" robomodel:name={quoteattr(name)}" if name != name.strip() else ""
    return f"{indent}<{tag}{exact}>{escape(name)}</{tag}>"


def _ends(parent: str, child: str, indent: str) -> list[str]:
    return [_end("parent", parent, indent), _end("child", child, indent)]


def end_name(el: Any) -> str:
    """The link or frame a ``<parent>``/``<child>`` element names (``""`` when it names none).

    Its text without surrounding whitespace (files put the name on a line of its own), unless
    robomodel's writer stated the exact name in ``robomodel:name``.
    """
    if el is None:
        return ""
    exact: str | None = el.get(rm("name"))
    return exact if exact is not None else (el.text or "").strip()
