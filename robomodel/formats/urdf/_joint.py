"""``<joint>`` and its ``<axis>``, ``<limit>``, ``<dynamics>``, ``<mimic>``: read beside written.

Reading is in two steps. :func:`read_joint` checks the element and returns a :class:`RawJoint`
record naming its links (the tree is checked in :mod:`robomodel.formats.urdf._tree`); once the
document's numbers are read and the joints ordered, :func:`joint_values` builds the joints with
their final offsets, the axes of all moving joints in one batch. :func:`write_joint` writes a
joint as the exporter's traversal orients it (parent and child), and the axis in the child as
URDF wants it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from itertools import repeat
from typing import Any

import numpy as np
from lxml import etree

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import make
from robomodel.errors import warn
from robomodel.formats.urdf._document import (
    XMLNS,
    Reader,
    Writer,
    duplicate,
    fmt3,
    number,
    parse_numbers,
    q,
    quote_names,
    required,
    strict_numbers,
)
from robomodel.formats.urdf._exact import axis_numbers
from robomodel.formats.urdf._extensions import keep_on, kept_blocks
from robomodel.formats.urdf._joint_exact import (
    LIMIT_MARKS,
    RM_DIRECTION,
    RM_ORIGIN,
    RM_REST,
    child_xml,
    exact_axis,
    exact_limits,
    limit_attributes,
    limit_xml,
    reversed_values,
)
from robomodel.formats.urdf._origin import read_origin, row_keys, stacked
from robomodel.formats.urdf._records import RawJoint
from robomodel.formats.urdf.errors import (
    URDFTopologyError,
    URDFUnsupportedError,
    URDFValueError,
)
from robomodel.formats.urdf.numbers import format_float
from robomodel.model.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.record import Extension
from robomodel.model.spatial import Axis

__all__ = [
    "check_mimics",
    "joint_blocks",
    "joint_values",
    "mimic_kept",
    "read_joint",
    "release_elements",
]

_MOVING_TYPES: dict[str, type[RevoluteJoint] | type[PrismaticJoint]] = {
    "revolute": RevoluteJoint,
    "continuous": RevoluteJoint,
    "prismatic": PrismaticJoint,
}
_UNSUPPORTED_TYPES = {
    "floating": "a floating joint (6 DOFs) is not a URDF tree joint robomodel models; remove it "
    "and use the child as the base link",
    "planar": "planar joints are not modelled; replace it with two prismatic joints and one "
    "revolute joint",
    "spherical": "spherical joints are not modelled; replace it with three revolute joints",
    "ball": "spherical (ball) joints are not modelled; replace it with three revolute joints",
}
_AXIS_TOLERANCE = 1e-7  # iDynTree's: a URDF axis must pass through the child origin
_MISSING = object()  # a memo's answer for a key it does not hold (None is an answer there)


# ---------------------------------------------------------------------- reading
def read_joint(r: Reader, el: Any) -> RawJoint:
    """Return the record of ``<joint>`` ``el``, every attribute checked."""
    name = el.get("name")
    if not name or name.isspace():
        name = required(r, el, "joint", "name")
    what = f"joint {name!r}"
    kind = el.get("type")
    if kind is None:
        raise r.err(
            URDFValueError,
            el,
            what,
            "<joint> needs a 'type' attribute (fixed, revolute, continuous or prismatic)",
        )
    moving = kind != "fixed"
    if moving and kind not in _MOVING_TYPES:
        if kind in _UNSUPPORTED_TYPES:
            raise r.err(
                URDFUnsupportedError, el, what, f"type {kind!r}: {_UNSUPPORTED_TYPES[kind]}"
            )
        raise r.err(
            URDFValueError,
            el,
            what,
            f"unknown joint type {kind!r}; use fixed, revolute, continuous or prismatic",
        )
    raw = RawJoint(name, kind, el)
    origin = parent = child = None
    for ch in el:
        tag = ch.tag
        if tag == "origin":
            if origin is not None:
                raise duplicate(r, ch, what)
            origin = ch
            read_origin(r, ch, what, raw)
        elif tag == "parent" or tag == "child":
            is_parent = tag == "parent"
            if (parent if is_parent else child) is not None:
                raise duplicate(r, ch, what)
            ref = ch.get("link")
            if not ref or ref.isspace():
                ref = required(r, ch, what, "link")
            if is_parent:
                parent, raw.parent = ch, ref
            else:
                child, raw.child = ch, ref
                if not r.plain and ch.get(RM_REST) is not None:
                    raw.reversed_el = ch
        elif moving and tag == "axis":
            if raw.axis_el is not None:
                raise duplicate(r, ch, what)
            raw.axis_el = ch
            xs = ch.get("xyz")
            if xs is not None:  # its numbers come after the element pass, as raw.axis
                if r.eager:
                    strict_numbers(r, ch, what, "xyz", 3)
                r.axis_owners.append(raw)
                r.axis_texts.append(xs)
                if not r.plain and (
                    ch.get(RM_DIRECTION) is not None or ch.get(RM_ORIGIN) is not None
                ):
                    raw.exact_axis = True
        elif moving and tag == "limit":
            if raw.limit is not None:
                raise duplicate(r, ch, what)
            raw.limit = ch  # read by joint_values
        elif moving and tag == "dynamics":
            if raw.dynamics is not None:
                raise duplicate(r, ch, what)
            raw.dynamics = ch  # read by joint_values
        elif tag == "mimic":
            if raw.mimic is not None:
                raise duplicate(r, ch, what)
            raw.mimic = Mimic(
                joint=required(r, ch, what, "joint"),
                multiplier=number(r, ch, what, "multiplier", 1.0),
                offset=number(r, ch, what, "offset", 0.0),
            )
            # Its own text is kept, written back while the mimic is unchanged; not when it is
            # the text robomodel writes for it, so that a model built in code reads back equal.
            keep_on(r, "joint", raw, ch)
            if raw.exts and raw.exts[-1].xml == _mimic_text(raw.mimic):
                raw.exts.pop()  # type: ignore[union-attr]
        else:
            keep_on(r, "joint", raw, ch)
    if parent is None or child is None:
        tag = "parent" if parent is None else "child"
        raise r.err(URDFValueError, el, what, f"<joint> has no <{tag} link=...>; add it")
    if raw.parent == raw.child:
        raise r.err(
            URDFTopologyError,
            el,
            what,
            f"parent and child are both {raw.parent!r}; a joint connects two different links",
        )
    return raw


_FIXED_JOINT = make(FixedJoint)
_TRUSTED_MOVING = {kind: make(cls) for kind, cls in _MOVING_TYPES.items()}
_LIMITS = make(PositionLimits)
_DYNAMICS = make(JointDynamics)
_AXIS = make(Axis)  # the batched axes below are unit by construction
_NO_LIMITS = PositionLimits()
_NO_DYNAMICS = JointDynamics()


def joint_values(r: Reader, raws: list[RawJoint]) -> list[Joint]:
    """Return the joints of ``raws``, in that order, with their offsets.

    Each moving joint has one position coordinate and one DOF; a fixed joint's offsets are the
    count of coordinates before it. Built with their final offsets, the model constructor keeps
    the joints as given.
    """
    moving = [raw for raw in raws if raw.kind != "fixed"]
    found = _moving_axes(moving)
    for k, raw in enumerate(moving):
        if raw.exact_axis and found[k] is not None:
            found[k] = exact_axis(r, raw.axis_el, f"joint {raw.name!r}", found[k])
    axes = iter(found)
    out: list[Joint] = []
    offset = 0
    for raw in raws:
        if raw.kind == "fixed":
            # Two different non-empty link names and a checked origin: what FixedJoint checks.
            j: Joint = _FIXED_JOINT(raw.parent, raw.child, raw.origin, offset, offset)
        else:
            j = _moving_joint(r, raw, offset, next(axes))
            offset += 1
        if raw.reversed_el is not None:
            j = _reversed(r, raw, j)
        out.append(j)
    return out


def release_elements(raws: list[RawJoint]) -> None:
    """Drop the XML elements of ``raws`` once :func:`joint_values` has read them.

    Each held element is a Python proxy of its libxml2 node (the tree itself lives until the
    load returns); four a joint, they were about a twentieth of a load's peak memory, which
    comes after this, while the model is assembled. Nothing after ``joint_values`` reads them:
    the checks that name a joint's line (names, mimics, the tree, numbers) come before, and a
    later error of the joint would name no line rather than fail.
    """
    for raw in raws:
        # Back to the class defaults (None). Not through raw.__dict__, which would make each
        # record a dict of its own (one more object for the garbage collector).
        # (read_joint sets each only to an element.)
        if raw.axis_el is not None:
            del raw.axis_el
        if raw.limit is not None:
            del raw.limit
        if raw.dynamics is not None:
            del raw.dynamics
        if raw.reversed_el is not None:
            del raw.reversed_el
        raw.el = None


def _reversed(r: Reader, raw: RawJoint, j: Joint) -> Joint:
    """Return joint ``j`` from its URDF child (link1) to its parent, as ``<child>`` states.

    See :func:`robomodel.formats.urdf._joint_exact.reversed_values`.
    """
    T, axis = reversed_values(r, raw.reversed_el, f"joint {raw.name!r}", j, raw.child, raw.axis)
    if axis is None:
        return _FIXED_JOINT(raw.child, raw.parent, T, j.pos_coord_offset, j.dof_offset)
    assert not isinstance(j, FixedJoint)
    return _TRUSTED_MOVING[raw.kind](
        raw.child,
        raw.parent,
        T,
        axis,
        j.limits,
        j.effort_limit,
        j.velocity_limit,
        j.dynamics,
        j.mimic,
        j.pos_coord_offset,
        j.dof_offset,
    )


def _moving_axes(raws: list[RawJoint]) -> list[Axis | None]:
    """Return the axes in link1 of moving joints, ``None`` for a zero ``<axis xyz>``.

    One batched pass over all joints: per joint, numpy's call overhead on 3-vectors cost ten
    times the arithmetic. Each step is the per-joint expression on a stack (``u.dot(u)`` and
    ``R @ v`` as stacked matmuls), which numpy evaluates with the same kernels, so every value
    is bitwise what ``T @ Axis(xyz)`` gives for one joint.
    """
    n = len(raws)
    if not n:
        return []
    U = np.array([r.axis for r in raws], dtype=np.float64)
    R = np.array([r.origin.rotation for r in raws])
    with np.errstate(all="ignore"):  # zero axes are reported by the caller, in joint order
        norms = np.sqrt((U[:, None, :] @ U[:, :, None])[:, 0, 0])
        huge = norms == np.inf
        if huge.any():  # |xyz|^2 overflowed (components above ~1e154): scale, as Axis does
            U[huge] /= np.abs(U[huge]).max(axis=1, keepdims=True)
            norms[huge] = np.sqrt((U[huge] * U[huge]).sum(axis=1))
        D = (R @ (U / norms[:, None])[:, :, None])[:, :, 0]
    # The axis passes through the child origin: T applied to the zero point is R @ 0 + p,
    # which is p itself (a sum of signed zeros added to a finite, canonical p), so each axis
    # shares its origin's frozen position.
    axes = list(map(_AXIS, immutable(D), [r.origin.position for r in raws]))
    return [None if norm < 1e-12 else a for a, norm in zip(axes, norms.tolist(), strict=True)]


def _moving_joint(r: Reader, raw: RawJoint, offset: int, axis: Axis | None) -> Joint:
    """Return the moving joint of ``raw`` with offsets ``offset`` (``axis``: None if zero)."""
    # Every value below was checked as the joint classes check it (two different non-empty
    # link names, finite numbers, lower <= upper), so the trusted constructors apply.
    what = f"joint {raw.name!r}"
    if axis is None:
        raise r.err(
            URDFValueError,
            raw.axis_el,
            what,
            f"<axis xyz={raw.el.find('axis').get('xyz')!r}> is a zero vector; give the motion "
            "axis, e.g. '0 0 1'",
        )
    limits = _NO_LIMITS
    effort = velocity = math.inf
    lim = raw.limit
    if lim is not None:
        get = lim.get
        lower = get("lower")
        upper = get("upper")
        effort_text = get("effort")
        velocity_text = get("velocity")
        # An absent attribute reads as its default: "0" stands for it here (a continuous joint
        # gives no lower and upper), and an absent effort or velocity is unlimited below.
        read = parse_numbers(
            [
                "0" if lower is None else lower,
                "0" if upper is None else upper,
                "0" if effort_text is None else effort_text,
                "0" if velocity_text is None else velocity_text,
            ]
        )
        if read is not None:  # every given number fine: the common case
            lo, hi, effort, velocity = read
            if effort_text is None:
                effort = math.inf
            if velocity_text is None:
                velocity = math.inf
        else:  # the checked path names what is wrong
            lo = number(r, lim, what, "lower", 0.0)
            hi = number(r, lim, what, "upper", 0.0)
            effort = number(r, lim, what, "effort", math.inf)
            velocity = number(r, lim, what, "velocity", math.inf)
        if effort < 0.0 or velocity < 0.0:
            raise r.err(
                URDFValueError,
                lim,
                what,
                f"<limit effort={effort!r} velocity={velocity!r}>: a limit is negative; give "
                "magnitudes >= 0",
            )
        if lo > hi:
            raise r.err(
                URDFValueError,
                lim,
                what,
                f"<limit lower={lo!r} upper={hi!r}>: lower > upper; swap them",
            )
        if raw.kind == "continuous" or (lower is None and upper is None):
            # B3: a continuous joint never gets position limits; keep given numbers disabled.
            # A <limit> without lower and upper (effort or velocity only) gives none either.
            enabled = False
            lo = -math.inf if lower is None else lo
            hi = math.inf if upper is None else hi
        else:
            enabled = True
        if not r.plain and any(map(lim.get, LIMIT_MARKS)):
            (lo, hi, effort, velocity), enabled = exact_limits(
                r, lim, what, [lo, hi, effort, velocity], enabled
            )
        limits = _LIMITS(enabled, lo, hi)
    dyn = raw.dynamics
    if dyn is None:
        dynamics = _NO_DYNAMICS
    else:
        damping, friction = dyn.get("damping"), dyn.get("friction")
        pair = parse_numbers(
            ["0" if damping is None else damping, "0" if friction is None else friction]
        )
        if pair is None:  # the checked path names what is wrong
            pair = (
                number(r, dyn, what, "damping", 0.0),
                number(r, dyn, what, "friction", 0.0),
            )
        if pair[0] < 0.0:
            raise r.err(
                URDFValueError,
                dyn,
                what,
                f"<dynamics damping={pair[0]!r}> is negative; damping is >= 0",
            )
        dynamics = _DYNAMICS("urdf", pair[0], pair[1])
    return _TRUSTED_MOVING[raw.kind](
        raw.parent,
        raw.child,
        raw.origin,
        axis,
        limits,
        effort,
        velocity,
        dynamics,
        raw.mimic,
        offset,
        offset,
    )


def check_mimics(r: Reader, joints: list[RawJoint], joint_idx: dict[str, int]) -> None:
    """Refuse an ambiguous ``<mimic>``; ignore, with a warning, one that cannot mean anything.

    A ``<mimic>`` on a fixed joint (it has no position to follow) and one naming no joint of
    the document are ignored with a :class:`~robomodel.errors.RobomodelWarning` naming the file
    and line, as Pinocchio and MuJoCo ignore them: the file says nothing a user could mean
    differently, and often comes from a package the user cannot edit. A ``<mimic>`` naming its
    own joint or a fixed leader, and a cycle, are refused: there the intended motion is unclear.
    """
    for rj in joints:
        mim = rj.mimic
        if mim is None:
            continue
        what = f"joint {rj.name!r}"
        k = joint_idx.get(mim.joint)
        el = rj.el.find("mimic")
        if rj.kind == "fixed" or k is None:
            why = (
                "is on a fixed joint, which has no position to follow"
                if rj.kind == "fixed"
                else "names no joint of the document"
            )
            _ignore_mimic(r, rj, el, what, f"<mimic joint={mim.joint!r}> {why}: ignored")
            continue
        if mim.joint == rj.name:
            raise r.err(URDFValueError, el, what, "<mimic> names the joint itself; name another")
        if joints[k].kind == "fixed":
            raise r.err(
                URDFValueError,
                el,
                what,
                f"<mimic joint={mim.joint!r}>: a fixed joint neither follows nor leads; use "
                "moving joints",
            )
        seen = [rj.name]
        leader: RawJoint | None = joints[k]
        while leader is not None and leader.mimic is not None:
            if leader.name in seen:
                raise r.err(
                    URDFValueError,
                    el,
                    what,
                    f"the mimic joints {', '.join(repr(x) for x in seen)} form a cycle; one of "
                    "them must move on its own",
                )
            seen.append(leader.name)
            nxt = joint_idx.get(leader.mimic.joint)
            leader = None if nxt is None else joints[nxt]


def _ignore_mimic(r: Reader, rj: RawJoint, el: Any, what: str, reason: str) -> None:
    """Drop the ``<mimic>`` of ``rj`` (and its kept text), warning with the file and line."""
    rj.mimic = None
    rj.exts = [x for x in rj.exts if x.tag != "mimic"]
    err = r.err(URDFValueError, el, what, f"{reason} (remove the <mimic> to silence this)")
    warn(str(err))


# ---------------------------------------------------------------------- writing
_FIXED = (
    '  <joint name={} type="fixed">\n    {}\n    <parent link={}/>\n    {}{}\n  </joint>'.format
)


def joint_blocks(
    w: Writer,
    js: Sequence[int],
    parents: Sequence[str],
    children: Sequence[str],
) -> Callable[[Sequence[str]], list[str]]:
    """Add the numbers of joints ``js`` to ``w.pending``; return a function of their texts.

    Once ``w.pending`` is formatted, the function returned gives the ``<joint>`` of each joint
    ``js`` from ``parents[k]`` to ``children[k]``, one text per joint, from each one's
    ``<origin>`` (by :func:`~robomodel.formats.urdf._origin.plan_origins` with ``invert`` where
    the parent is not the joint's link1). The numbers of all axes, limits and dynamics are
    formatted with the export's.

    Raises:
        URDFExportError: a moving joint's axis does not pass through its child's origin (the
            first such joint of ``js``).
    """
    m = w.model
    joints = [m.joints[j] for j in js]
    jnames = [m.joint_names[j] for j in js]
    moving = [k for k, j in enumerate(joints) if not isinstance(j, FixedJoint)]
    axes = _axis_parts(
        w, [jnames[k] for k in moving], [joints[k] for k in moving], [children[k] for k in moving]
    )
    # ------------------------------------------------------------------ the numbers
    flat: list[float] = []
    limits: list[list[tuple[str, float]] | None] = []
    for k, (xyz, _) in zip(moving, axes, strict=True):
        j = joints[k]
        assert not isinstance(j, FixedJoint)
        flat += xyz
        lim = limit_attributes(j)
        limits.append(lim)
        if lim is not None:
            flat += [v for _, v in lim if math.isfinite(v)]
        if j.dynamics.kind == "urdf":
            flat += [j.dynamics.damping, j.dynamics.static_friction]
    start = w.pending.add(flat)
    qn, qp, qc = quote_names(jnames), quote_names(parents), quote_names(children)
    kept = kept_blocks(w, "joint", jnames, "    ")

    def texts(origins: Sequence[str]) -> list[str]:
        t = iter(w.pending.texts[start : start + len(flat)])
        quoted = (qn, qp, qc)
        return _joint_texts(
            w, joints, jnames, parents, children, quoted, origins, axes, limits, t, kept
        )

    return texts


def _joint_texts(
    w: Writer,
    joints: list[Joint],
    jnames: list[str],
    parents: Sequence[str],
    children: Sequence[str],
    quoted: tuple[list[str], list[str], list[str]],
    origins: Sequence[str],
    axes: list[tuple[list[float], str]],
    limits: list[list[tuple[str, float]] | None],
    t: Iterator[str],
    kept: list[str],
) -> list[str]:
    """The texts of :func:`joint_blocks`, once their numbers' texts ``t`` are known.

    ``quoted``: the joints', parents' and children's names quoted.
    """
    qn, qp, qc = quoted
    blocks = []
    parts = iter(zip(axes, limits, strict=True))
    for k, j in enumerate(joints):
        invert = parents[k] != j.link1
        child = f"<child link={qc[k]}/>" if not invert else child_xml(j, children[k], True)
        if isinstance(j, FixedJoint):
            blocks.append(_FIXED(qn[k], origins[k], qp[k], child, kept[k]))
            continue
        (_, marks), lim = next(parts)
        axis = f'<axis xyz="{next(t)} {next(t)} {next(t)}"{marks}/>'
        kind = (
            '"prismatic"'
            if isinstance(j, PrismaticJoint)
            else ('"revolute"' if j.limits.enabled else '"continuous"')
        )
        lines = [
            f"  <joint name={qn[k]} type={kind}>",
            "    " + origins[k],
            "    " + axis,
            f"    <parent link={qp[k]}/>",
            "    " + child,
        ]
        if lim is not None:
            lines.append(
                "    " + limit_xml(lim, t, isinstance(j, PrismaticJoint) and not j.limits.enabled)
            )
        if j.dynamics.kind == "urdf":
            lines.append(f'    <dynamics damping="{next(t)}" friction="{next(t)}"/>')
        if j.mimic is not None:
            lines.append("    " + _mimic_xml(w, jnames[k], j.mimic))
            exts = w.kept.get(("joint", jnames[k]), ()) if w.options.write_extensions else ()
            lines += ["    " + e.xml for e in exts if e.tag != "mimic"]
        elif kept[k]:
            lines.append(kept[k][1:])
        lines.append("  </joint>")
        blocks.append("\n".join(lines))
    return blocks


def _axis_parts(
    w: Writer, jnames: list[str], joints: list[Any], children: list[str]
) -> list[tuple[list[float], str]]:
    """Per moving joint: the ``<axis xyz>`` numbers in its child and robomodel's attributes.

    The axis must pass through the child's origin. Joints written along their direction (the
    child is link2) whose stored axis goes through link2's origin (what the loader gives) are
    checked together: the distance is then exactly 0, and the direction in the child is unit
    (the test of :func:`_axis_in_child`) whenever the stacked one is within ``1e-10`` of unit,
    far inside its ``1e-9``; any other joint goes through :func:`_axis_xml_parts`.

    Raises:
        URDFExportError: the first joint whose axis does not pass through its child's origin.
    """
    n = len(joints)
    if not n:
        return []
    along = [c == j.link2 for j, c in zip(joints, children, strict=True)]
    R, P = stacked([j.link1_H_link2 for j in joints])
    D = np.frombuffer(
        b"".join([j.axis_in_link1.direction.tobytes() for j in joints]), dtype=np.float64
    ).reshape(n, 3)
    Org = np.frombuffer(
        b"".join([j.axis_in_link1.origin.tobytes() for j in joints]), dtype=np.float64
    ).reshape(n, 3)
    U = np.einsum("nji,nj->ni", R.reshape(n, 3, 3), D)
    unit = np.abs(np.einsum("ni,ni->n", U, U) - 1.0) <= 1e-10
    through = (Org.view(np.int64) == P.view(np.int64)).all(axis=1)
    checked = (unit & through).tolist()
    # The numbers that read back to each direction (robomodel.formats.urdf._exact), from the
    # export's memo (its keys: the rest rotation's and the direction's bytes).
    keys = row_keys(b"a", np.concatenate([R, D], axis=1))
    found = list(map(w.memo.get, keys, repeat(_MISSING, n)))
    parts = []
    for k, j in enumerate(joints):
        if along[k] and checked[k] and found[k] is not _MISSING and found[k] is not None:
            parts.append((list(found[k]), ""))  # through link2's origin: no robomodel:origin
        else:
            parts.append(_axis_xml_parts(w, jnames[k], j, children[k]))
    return parts


def _axis_in_child(j: RevoluteJoint | PrismaticJoint, child: str) -> tuple[Any, float] | None:
    """Return the direction of ``j.axis(child)`` and its distance from ``child``'s origin.

    Bitwise what ``j.axis(child)`` and its ``distance`` give: the same numpy operations, on plain
    views (each operation on frozen arrays runs their Python ``__array_wrap__``). ``None`` when
    the rest rotation does not keep the direction unit (the general path renormalises it).
    """
    a = j.axis_in_link1
    u = a.direction.view(np.ndarray)
    o = a.origin.view(np.ndarray)
    if child == j.link1:  # the stored axis reversed
        u = -u
    else:  # the stored axis through link1_H_link2.inverse()
        T = j.link1_H_link2
        Rt = T.rotation.view(np.ndarray).T.copy()
        u = Rt @ u
        if abs(float(u @ u) - 1.0) > 1e-9:
            return None
        if a.origin.tobytes() == T.position.tobytes():
            # The line through link2's origin (as the loader stores it): the origin in link2,
            # ``Rt @ o + -(Rt @ o)``, is exactly +0.0, and so is everything computed from it.
            return u, 0.0
        o = Rt @ o + -(Rt @ T.position.view(np.ndarray))
    p = o + u * float((_ORIGIN - o) @ u)  # the point of the line closest to the origin
    d = p - _ORIGIN
    return u, math.sqrt(float(d.dot(d)))


_ORIGIN = np.zeros(3)


def _axis_xml_parts(
    w: Writer, jname: str, j: RevoluteJoint | PrismaticJoint, child: str
) -> tuple[list[float], str]:
    """The ``<axis>`` of joint ``jname`` in ``child``: its ``xyz`` numbers and extra attributes.

    Raises:
        URDFExportError: the axis does not pass through the origin of ``child``.
    """
    fast = _axis_in_child(j, child)
    if fast is None:
        axis = j.axis(child)
        direction, distance = axis.direction, axis.distance((0.0, 0.0, 0.0))
    else:
        direction, distance = fast
    if distance > _AXIS_TOLERANCE:
        axis = j.axis(child)
        raise w.fail(
            f"joint {jname!r}",
            f"the motion axis does not pass through the origin of the child link {child!r} "
            f"(distance {axis.distance((0.0, 0.0, 0.0)):.3g}); URDF cannot express it, move "
            "the child link frame onto the axis first",
        )
    if child == j.link2:
        # A function of the value (robomodel.formats.urdf._exact): the numbers that the loader
        # turns back into this very direction; else the numbers computed, with the direction in
        # link1 stated exactly in robomodel's attribute.
        a = j.axis_in_link1
        found = axis_numbers(j.link1_H_link2, a.direction, w.memo)
        marks = ""
        if found is None:
            marks += f' robomodel:direction="{fmt3(a.direction + 0.0)}"'
        if a.origin.tolist() != j.link1_H_link2.position.tolist():  # another point of the line
            marks += f' robomodel:origin="{fmt3(a.origin + 0.0)}"'
        xyz = found if found is not None else (direction + 0.0).tolist()
        return list(xyz), marks and f" {XMLNS}{marks}"
    # A joint written against its direction (link1 is the URDF child) reads back with its
    # links swapped, whatever the numbers (docs/urdf.md, "Exact round trips").
    return (direction + 0.0).tolist(), ""


def _mimic_xml(w: Writer, jname: str, mimic: Mimic) -> str:
    # The <mimic> read is kept too: written back as it was while the model's mimic is the one
    # it reads as (so its attribute order and spelling survive).
    for e in w.kept.get(("joint", jname), ()):
        if e.tag == "mimic":
            el = etree.fromstring(e.xml)
            try:
                kept = Mimic(
                    joint=el.get("joint", ""),
                    multiplier=float(el.get("multiplier", "1")),
                    offset=float(el.get("offset", "0")),
                )
            except ValueError:
                break
            if kept == mimic:
                return e.xml
            break
    return _mimic_text(mimic)


def mimic_kept(w: Writer, e: Extension) -> bool:
    """Whether the kept ``<mimic>`` ``e`` is written and read back as an extension.

    It is written while the joint's mimic is what it says, and kept on reading unless it is
    the text robomodel writes for it.
    """
    if e.owner not in w.model.joint_names:
        return False
    j = w.model.joint(e.owner)
    mimic = getattr(j, "mimic", None)
    kept = [x for x in w.kept.get(("joint", e.owner), ()) if x.tag == "mimic"]
    return (
        mimic is not None
        and kept[:1] == [e]
        and _mimic_xml(w, e.owner, mimic) == e.xml
        and e.xml != _mimic_text(mimic)
    )


def _mimic_text(mimic: Mimic) -> str:
    return (
        f'<mimic joint={q(mimic.joint)} multiplier="{format_float(mimic.multiplier)}" '
        f'offset="{format_float(mimic.offset)}"/>'
    )
