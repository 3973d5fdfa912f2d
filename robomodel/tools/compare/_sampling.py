"""The configurations both models are compared at, and the joints whose zero differs.

Each shared joint gets one value per configuration, drawn uniformly within its position
limits (and within the other model's, where they overlap), the same physical position in both
models: a joint whose zero differs in b (MuJoCo's ``ref``, a continuous joint's parametrisation)
gets a's value plus the offset. Mimic joints follow their leaders in each model by that model's
own relation; joints one model holds still sit at their locked positions in the other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.model.joints import PrismaticJoint, RevoluteJoint
from robomodel.model.mimic import mimic_map
from robomodel.model.record import Model
from robomodel.model.spatial import Transform
from robomodel.physics.kinematics import forward_kinematics
from robomodel.tools.compare._matching import Matching

__all__ = ["PRISMATIC_RANGE", "REVOLUTE_RANGE", "Samples", "joint_ends", "offsets", "sample"]

FloatArray = npt.NDArray[np.float64]

REVOLUTE_RANGE = math.pi
"""Revolute joints are drawn within ``[-pi, pi]`` rad (intersected with their limits)."""
PRISMATIC_RANGE = 0.5
"""Prismatic joints are drawn within ``[-0.5, 0.5]`` m (intersected with their limits)."""


@attrs.frozen(kw_only=True, eq=False)
class Samples:
    """Joint positions, velocities and accelerations of both models, one state per row."""

    qa: FloatArray
    dqa: FloatArray
    ddqa: FloatArray
    qb: FloatArray
    dqb: FloatArray
    ddqb: FloatArray


def _rest_poses(model: Model, base: str, frames: list[str]) -> dict[str, Transform]:
    fk = forward_kinematics(model, np.zeros(model.n_pos_coords), base=base)
    return {f: fk.base_H_frame(f) for f in frames}


def offsets(
    a: Model, b: Model, matching: Matching, *, angle: float, length: float
) -> tuple[dict[str, float], list[str]]:
    """Return, per shared joint of a whose zero differs in b, b's position minus a's.

    A joint's rest transform in b that is a's turned about (or slid along) the joint's own
    axis by ``c`` is the same joint with positions shifted by ``c``, provided the position
    limits are shifted by ``c`` too (or both are unlimited, as continuous joints are).
    Otherwise the zero is not shifted and the rest transforms are reported as they differ.
    """
    ref_a, ref_b, _ = matching.reference
    wanted: list[tuple[str, str, tuple[str, str], tuple[str, str], str]] = []
    for ja, jb in matching.joints:
        ends = joint_ends(a, b, matching, ja, jb)
        if ends is None:
            continue
        (pa, pb), (ca, cb), child = ends
        wanted.append((ja, jb, (pa, pb), (ca, cb), child))
    if not wanted:
        return {}, []
    frames_a = sorted({f for _, _, p, c, _ in wanted for f in (p[0], c[0])} | set(a.link_names))
    frames_b = sorted({f for _, _, p, c, _ in wanted for f in (p[1], c[1])})
    rest_a = _rest_poses(a, ref_a, frames_a)
    rest_b = _rest_poses(b, ref_b, frames_b)
    found: dict[str, float] = {}
    notes: list[str] = []
    for ja, jb, (pa, pb), (ca, cb), child in wanted:
        joint_a, joint_b = a.joint(ja), b.joint(jb)
        if not isinstance(joint_a, RevoluteJoint | PrismaticJoint):
            continue
        if type(joint_a) is not type(joint_b):
            continue
        Xa = rest_a[pa].inverse() @ rest_a[ca]
        Xb = rest_b[pb].inverse() @ rest_b[cb]
        D = Xb @ Xa.inverse()
        # The joint's axis, in a's frame pa, seen from the child side.
        axis = rest_a[pa].inverse() @ rest_a[child] @ joint_a.axis(child)
        u = axis.direction
        if isinstance(joint_a, RevoluteJoint):
            S = D.rotation - D.rotation.T
            s = 0.5 * float(u @ np.array([S[2, 1], S[0, 2], S[1, 0]]))
            c = math.atan2(s, 0.5 * (float(np.trace(D.rotation)) - 1.0))
            M = axis.rotation(c)
            small = abs(c) <= angle
        else:
            c = float(u @ D.position)
            M = axis.translation(c)
            small = abs(c) <= length
        if small:
            continue
        fits = (
            float(np.max(np.abs(M.rotation - D.rotation))) <= angle
            and float(np.max(np.abs(M.position - D.position))) <= length
        )
        # b's rest is a's moved by c along the joint: b's position is a's minus c.
        shift = -c
        if not fits or not _limits_shifted(joint_a, joint_b, shift, angle, length):
            continue
        found[ja] = shift
        unit = "rad" if isinstance(joint_a, RevoluteJoint) else "m"
        notes.append(
            f"joint {ja!r}: b's position is a's {shift:+.6g} {unit} (b's zero is elsewhere on "
            "the joint's axis: MuJoCo's ref, or a continuous joint's parametrisation)"
        )
    return found, notes


def joint_ends(
    a: Model, b: Model, matching: Matching, ja: str, jb: str
) -> tuple[tuple[str, str], tuple[str, str], str] | None:
    """The frame pairs on the parent and child bodies of a shared joint, and a's child link.

    Parent and child follow a's traversal from the reference link; ``None`` when b's joint
    does not join the same two bodies (or a frame pair is missing on one of them).
    """
    joint_b = b.joint(jb)
    ip, ic = a.joint_parent_child(ja, a.traversal(matching.reference[0]))
    child = a.link_names[ic]
    ga = {matching.group_a[ip], matching.group_a[ic]}
    gb = {matching.group_b[b.link_index(x)]: x for x in (joint_b.link1, joint_b.link2)}
    if -1 in ga or set(gb) != ga or len(ga) != 2:
        return None
    p = matching.body_frames[matching.group_a[ip]]
    c = matching.body_frames[matching.group_a[ic]]
    if p is None or c is None:
        return None
    return p, c, child


def _limits_shifted(
    ja: RevoluteJoint | PrismaticJoint,
    jb: RevoluteJoint | PrismaticJoint,
    c: float,
    angle: float,
    length: float,
) -> bool:
    la, lb = ja.limits, jb.limits
    if not la.enabled and not lb.enabled:
        return True
    if la.enabled != lb.enabled:
        return False
    tol = angle if isinstance(ja, RevoluteJoint) else length
    return abs(la.lower + c - lb.lower) <= tol and abs(la.upper + c - lb.upper) <= tol


def _interval(joint: RevoluteJoint | PrismaticJoint) -> tuple[float, float]:
    r = REVOLUTE_RANGE if isinstance(joint, RevoluteJoint) else PRISMATIC_RANGE
    if not joint.limits.enabled:
        return -r, r
    lo, hi = joint.limits.lower, joint.limits.upper
    clo, chi = max(lo, -r), min(hi, r)
    if clo > chi:  # limits entirely outside the usual range: a window at their near end
        clo, chi = (lo, min(hi, lo + 2 * r)) if lo > 0 else (max(lo, hi - 2 * r), hi)
    return clo, chi


def _followers(model: Model) -> dict[str, tuple[str, float, float]]:
    return {r.follower: (r.leader, r.multiplier, r.offset) for r in mimic_map(model).relations}


def sample(
    a: Model,
    b: Model,
    matching: Matching,
    shifts: Mapping[str, float],
    locked: Mapping[str, float],
    n: int,
    rng: np.random.Generator,
) -> Samples:
    """Return ``n`` states of both models, drawn with ``rng`` (see the module docstring)."""
    fa, fb = _followers(a), _followers(b)
    qa: dict[str, FloatArray] = {}
    dqa: dict[str, FloatArray] = {}
    ddqa: dict[str, FloatArray] = {}
    qb: dict[str, FloatArray] = {}
    dqb: dict[str, FloatArray] = {}
    ddqb: dict[str, FloatArray] = {}
    zero = np.zeros(n)
    # a's free joints: drawn within both models' limits.
    for ja, jb in matching.joints:
        if ja in fa:
            continue
        joint_a, joint_b = a.joint(ja), b.joint(jb)
        assert isinstance(joint_a, RevoluteJoint | PrismaticJoint)
        assert isinstance(joint_b, RevoluteJoint | PrismaticJoint)
        lo, hi = _interval(joint_a)
        c = shifts.get(ja, 0.0)
        if joint_b.limits.enabled and type(joint_b) is type(joint_a):
            blo, bhi = joint_b.limits.lower - c, joint_b.limits.upper - c
            if max(lo, blo) <= min(hi, bhi):
                lo, hi = max(lo, blo), min(hi, bhi)
        qa[ja] = rng.uniform(lo, hi, n)
        dqa[ja] = rng.standard_normal(n)
        ddqa[ja] = rng.standard_normal(n)
        held = locked.get(ja, locked.get(jb))
        if held is not None:  # the caller pins a joint both models move
            qa[ja], dqa[ja], ddqa[ja] = np.full(n, held), np.zeros(n), np.zeros(n)
    for name, value in matching.locked_a.items():
        if name not in fa or name in locked:
            qa[name], dqa[name], ddqa[name] = np.full(n, value), zero, zero
    _follow(fa, qa, dqa, ddqa, n)
    # b: a's values (shifted where b's zero differs), then b's own followers and locks.
    for ja, jb in matching.joints:
        if jb in fb:
            continue
        qb[jb] = qa[ja] + shifts.get(ja, 0.0)
        dqb[jb], ddqb[jb] = dqa[ja], ddqa[ja]
    for name, value in matching.locked_b.items():
        if name not in fb or name in locked:
            qb[name], dqb[name], ddqb[name] = np.full(n, value), zero, zero
    _follow(fb, qb, dqb, ddqb, n)
    return Samples(
        qa=_columns(a, qa, n),
        dqa=_columns(a, dqa, n),
        ddqa=_columns(a, ddqa, n),
        qb=_columns(b, qb, n),
        dqb=_columns(b, dqb, n),
        ddqb=_columns(b, ddqb, n),
    )


def _follow(
    followers: Mapping[str, tuple[str, float, float]],
    q: dict[str, FloatArray],
    dq: dict[str, FloatArray],
    ddq: dict[str, FloatArray],
    n: int,
) -> None:
    # Resolved relations: every leader is actuated, so one pass suffices.
    for f, (leader, mult, off) in followers.items():
        if f in q:
            continue
        ql = q.get(leader, np.zeros(n))
        q[f] = mult * ql + off
        dq[f] = mult * dq.get(leader, np.zeros(n))
        ddq[f] = mult * ddq.get(leader, np.zeros(n))


def _columns(model: Model, values: Mapping[str, FloatArray], n: int) -> FloatArray:
    out = np.zeros((n, model.n_pos_coords))
    for name, joint in zip(model.joint_names, model.joints, strict=True):
        if joint.n_dofs and name in values:
            out[:, joint.dof_offset] = values[name]
    return out
