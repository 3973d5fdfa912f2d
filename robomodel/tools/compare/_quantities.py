"""What is measured in both models at the sampled states, and judged against the tolerances.

All poses are relative to the reference link (so a changed base is no difference) and come
from one :func:`~robomodel.physics.kinematics.forward_kinematics_batch` call per model; the
torques from one :func:`~robomodel.physics.dynamics.inverse_dynamics_batch` call per model and
base condition. Each quantity of each element gives at most one :class:`Discrepancy`: at the
state where the two models are farthest apart, with the number of states that disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from robomodel.model.joints import PrismaticJoint, RevoluteJoint, joint_type_name
from robomodel.model.mimic import MimicRelation, mimic_map
from robomodel.model.record import Model
from robomodel.model.sensors import SixAxisForceTorqueSensor
from robomodel.model.spatial import Transform
from robomodel.model.validation import STANDARD_GRAVITY
from robomodel.physics.dynamics import inverse_dynamics_batch
from robomodel.physics.joint_state import JointState
from robomodel.physics.kinematics import forward_kinematics_batch
from robomodel.physics.sensing import predict_sensor_measurements
from robomodel.tools.compare._matching import Matching
from robomodel.tools.compare._sampling import Samples, joint_ends
from robomodel.tools.compare.verdict import Discrepancy, Tolerances

__all__ = ["Judge", "measure"]

FloatArray = npt.NDArray[np.float64]


class Judge:
    """Collects the discrepancies of one comparison."""

    def __init__(self, tolerances: Tolerances) -> None:
        self.tol = tolerances
        self.out: list[Discrepancy] = []

    def numbers(
        self,
        quantity: str,
        kind: str,
        names: tuple[str, str],
        error: npt.ArrayLike,
        va: npt.ArrayLike,
        vb: npt.ArrayLike,
        *,
        per_state: bool = True,
        detail: str = "",
    ) -> None:
        """Judge ``error`` (one entry per state, or one) of values ``va`` / ``vb``."""
        err = np.atleast_1d(np.asarray(error, dtype=float))
        tol = self.tol.of(quantity)
        if err.max() <= tol:  # the common case, decided before the relative part (NaN fails)
            return
        err = np.where(np.isnan(err), np.inf, err)
        A = np.asarray(va, dtype=float).reshape(err.shape[0], -1)
        B = np.asarray(vb, dtype=float).reshape(err.shape[0], -1)
        scale = np.maximum(np.abs(A).max(axis=1), np.abs(B).max(axis=1))
        limit = tol + self.tol.relative * np.where(np.isfinite(scale), scale, 0.0)
        bad = err > limit
        if not bad.any():
            return
        i = int(np.argmax(np.where(bad, err, -np.inf)))
        name, other = names
        self.out.append(
            Discrepancy(
                quantity=quantity,
                kind=kind,
                name=name,
                other_name=other if other != name else "",
                a=A[i],
                b=B[i],
                error=float(err[i]),
                tolerance=tol,
                configuration=i if per_state else None,
                count=int(bad.sum()) if per_state else 1,
                detail=detail,
            )
        )

    def text(self, quantity: str, kind: str, names: tuple[str, str], a: str, b: str) -> None:
        """Judge two texts exactly."""
        if a != b:
            name, other = names
            self.out.append(
                Discrepancy(
                    quantity=quantity,
                    kind=kind,
                    name=name,
                    other_name=other if other != name else "",
                    a=a,
                    b=b,
                )
            )


# --------------------------------------------------------------------------- geometry helpers


def _skew(v: FloatArray) -> FloatArray:
    S = np.zeros((*v.shape[:-1], 3, 3))
    S[..., 0, 1], S[..., 0, 2] = -v[..., 2], v[..., 1]
    S[..., 1, 0], S[..., 1, 2] = v[..., 2], -v[..., 0]
    S[..., 2, 0], S[..., 2, 1] = -v[..., 1], v[..., 0]
    return S


def _angle(Ra: FloatArray, Rb: FloatArray) -> FloatArray:
    """The angle of ``Ra^T Rb``, accurate for small angles (from the chord, not the trace)."""
    chord = np.linalg.norm(Ra - Rb, axis=(-2, -1)) / (2.0 * np.sqrt(2.0))
    out: FloatArray = 2.0 * np.arcsin(np.clip(chord, 0.0, 1.0))
    return out


def _rpy(R: FloatArray) -> FloatArray:
    """Roll, pitch and yaw (URDF's ``Rz(yaw) Ry(pitch) Rx(roll)``) of a stack of rotations."""
    roll = np.arctan2(R[..., 2, 1], R[..., 2, 2])
    pitch = np.arcsin(np.clip(-R[..., 2, 0], -1.0, 1.0))
    yaw = np.arctan2(R[..., 1, 0], R[..., 0, 0])
    out: FloatArray = np.stack((roll, pitch, yaw), axis=-1)
    return out


def _six(J: FloatArray) -> FloatArray:
    """``[ixx, iyy, izz, ixy, ixz, iyz]`` of a stack of symmetric 3x3 matrices."""
    out: FloatArray = np.stack(
        (J[..., 0, 0], J[..., 1, 1], J[..., 2, 2], J[..., 0, 1], J[..., 0, 2], J[..., 1, 2]),
        axis=-1,
    )
    return out


def _poses(model: Model, Q: FloatArray, frames: Sequence[str], base: str) -> dict[str, FloatArray]:
    got = forward_kinematics_batch(model, Q, frames=list(frames), base=base)
    return {k: np.ascontiguousarray(v) for k, v in got.items()}


def _relative(T: FloatArray, U: FloatArray) -> FloatArray:
    """``T^-1 U`` for stacks of homogeneous transforms."""
    R, p = T[..., :3, :3], T[..., :3, 3]
    Rt = np.swapaxes(R, -1, -2)
    out = np.zeros_like(U)
    out[..., :3, :3] = Rt @ U[..., :3, :3]
    out[..., :3, 3] = np.einsum("...ij,...j->...i", Rt, U[..., :3, 3] - p)
    out[..., 3, 3] = 1.0
    return out


def _inertias_in_base(
    model: Model, poses: dict[str, FloatArray]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per state and link: mass (K,), first moment (N, K, 3), inertia about the base origin."""
    H = np.stack([poses[n] for n in model.link_names], axis=1)  # (N, K, 4, 4)
    R, p = H[..., :3, :3], H[..., :3, 3]
    m = np.array([link.inertia.mass for link in model.links])
    h = np.array([link.inertia.first_moment for link in model.links])
    I_O = np.array([link.inertia.rotational_inertia for link in model.links])
    Rh = np.einsum("nkij,kj->nki", R, h)
    Sp, SRh = _skew(p), _skew(Rh)
    inertia = (
        R @ I_O[None] @ np.swapaxes(R, -1, -2)
        - SRh @ Sp
        - Sp @ SRh
        - m[None, :, None, None] * (Sp @ Sp)
    )
    return m, Rh + m[None, :, None] * p, inertia


def _about_com(m: float, h: FloatArray, I_O: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Centre of mass (N, 3) and inertia about it (N, 3, 3) of bodies of mass ``m`` > 0."""
    c = h / m
    Sc = _skew(c)
    return c, I_O + m * (Sc @ Sc)


# --------------------------------------------------------------------------- the phases


def measure(
    a: Model,
    b: Model,
    matching: Matching,
    samples: Samples,
    judge: Judge,
    *,
    shifts: Mapping[str, float],
    floating: bool,
    rng: np.random.Generator,
) -> None:
    """Judge every compared quantity of the two models at ``samples``.

    ``shifts`` holds b's position minus a's for the joints whose zero differs.
    """
    ref_a, ref_b, fix = matching.reference
    frames_a = list(dict.fromkeys([*a.link_names, *(fa for fa, _ in matching.frames)]))
    frames_b = list(dict.fromkeys([*b.link_names, *(fb for _, fb in matching.frames)]))
    Pa = _poses(a, samples.qa, frames_a, ref_a)
    Pb = _poses(b, samples.qb, frames_b, ref_b)
    if fix != Transform.identity():
        # b's reference link frame is not a's: measure b's poses from the frame that is.
        F = np.broadcast_to(fix.as_matrix(), (samples.qb.shape[0], 4, 4))
        Pb = {k: _relative(F, v) for k, v in Pb.items()}
    _frames(matching, Pa, Pb, judge, a, b)
    _sensor_frames(a, b, matching, Pa, Pb, judge)
    _mass(a, b, matching, Pa, Pb, judge)
    _joints(a, b, matching, Pa, Pb, judge, shifts)
    _dynamics(a, b, matching, samples, judge, fix, floating=floating, rng=rng)
    _sensors(a, b, matching, samples, judge, fix)


def _frames(
    matching: Matching,
    Pa: dict[str, FloatArray],
    Pb: dict[str, FloatArray],
    judge: Judge,
    a: Model,
    b: Model,
) -> None:
    for fa, fb in matching.frames:
        A, B = Pa[fa], Pb[fb]
        kind = "link" if a.is_link_name_used(fa) else "frame"
        pa, pb = A[:, :3, 3], B[:, :3, 3]
        judge.numbers("frame position", kind, (fa, fb), np.linalg.norm(pa - pb, axis=1), pa, pb)
        judge.numbers(
            "frame orientation",
            kind,
            (fa, fb),
            _angle(A[:, :3, :3], B[:, :3, :3]),
            _rpy(A[:, :3, :3]),
            _rpy(B[:, :3, :3]),
        )
    del b


def _sensor_poses(model: Model, name: str) -> list[tuple[str, Transform]]:
    sensor = model.sensor(name)
    if isinstance(sensor, SixAxisForceTorqueSensor):
        return [(link, sensor.link_H_sensor(link)) for link in sensor.links]
    return [(sensor.link, sensor.link_H_sensor)]


def _sensor_frames(
    a: Model,
    b: Model,
    matching: Matching,
    Pa: dict[str, FloatArray],
    Pb: dict[str, FloatArray],
    judge: Judge,
) -> None:
    """Each sensor's frame, seen from each of its links that both models put on one body."""
    for sa, sb in matching.sensors:
        there = {
            matching.group_b[b.link_index(link)]: (link, T) for link, T in _sensor_poses(b, sb)
        }
        for link, T in _sensor_poses(a, sa):
            k = matching.group_a[a.link_index(link)]
            if k < 0 or k not in there:
                continue
            link_b, U = there[k]
            A = Pa[link] @ T.as_matrix()
            B = Pb[link_b] @ U.as_matrix()
            names = (sa, sb)
            detail = f"seen from link {link!r}"
            pa, pb = A[:, :3, 3], B[:, :3, 3]
            judge.numbers(
                "frame position", "sensor", names, np.linalg.norm(pa - pb, axis=1), pa, pb,
                detail=detail,
            )  # fmt: skip
            judge.numbers(
                "frame orientation", "sensor", names, _angle(A[:, :3, :3], B[:, :3, :3]),
                _rpy(A[:, :3, :3]), _rpy(B[:, :3, :3]), detail=detail,
            )  # fmt: skip


def _mass(
    a: Model,
    b: Model,
    matching: Matching,
    Pa: dict[str, FloatArray],
    Pb: dict[str, FloatArray],
    judge: Judge,
) -> None:
    model_names = (a.name or "model", b.name or "model")
    judge.numbers(
        "total mass", "model", model_names, [abs(a.total_mass - b.total_mass)],
        [a.total_mass], [b.total_mass], per_state=False,
    )  # fmt: skip
    ma, ha, Ia = _inertias_in_base(a, Pa)
    mb, hb, Ib = _inertias_in_base(b, Pb)
    Ma, Mb = float(ma.sum()), float(mb.sum())
    if Ma > 0.0 and Mb > 0.0:
        ca, _ = _about_com(Ma, ha.sum(axis=1), Ia.sum(axis=1))
        cb, _ = _about_com(Mb, hb.sum(axis=1), Ib.sum(axis=1))
        judge.numbers(
            "centre of mass", "model", model_names, np.linalg.norm(ca - cb, axis=1), ca, cb
        )
    Ta, Tb = Ia.sum(axis=1), Ib.sum(axis=1)
    judge.numbers(
        "composite inertia",
        "model",
        model_names,
        np.abs(Ta - Tb).max(axis=(1, 2)),
        _six(Ta),
        _six(Tb),
    )
    # Per body: the links of each model that move as one.
    ga, gb = np.array(matching.group_a, dtype=int), np.array(matching.group_b, dtype=int)
    for k, (label, links_a, links_b) in enumerate(matching.bodies):
        if not links_a or not links_b:
            continue
        sa, sb = ga == k, gb == k
        names = (label, links_b[0] if label in links_a else label)
        m1, m2 = float(ma[sa].sum()), float(mb[sb].sum())
        detail = _members(links_a, links_b)
        judge.numbers(
            "body mass", "link", names, [abs(m1 - m2)], [m1], [m2], per_state=False, detail=detail
        )
        if m1 <= 0.0 or m2 <= 0.0:
            # No centre of mass: compare the inertia about the reference origin (a massless
            # body may still have rotational inertia, which dynamics sees).
            I1, I2 = Ia[:, sa].sum(axis=1), Ib[:, sb].sum(axis=1)
            judge.numbers(
                "body inertia", "link", names, np.abs(I1 - I2).max(axis=(1, 2)), _six(I1),
                _six(I2),
                detail=", ".join(filter(None, [detail, "about the reference link's origin"])),
            )  # fmt: skip
            continue
        c1, I1 = _about_com(m1, ha[:, sa].sum(axis=1), Ia[:, sa].sum(axis=1))
        c2, I2 = _about_com(m2, hb[:, sb].sum(axis=1), Ib[:, sb].sum(axis=1))
        judge.numbers(
            "body centre of mass", "link", names, np.linalg.norm(c1 - c2, axis=1), c1, c2,
            detail=detail,
        )  # fmt: skip
        judge.numbers(
            "body inertia", "link", names, np.abs(I1 - I2).max(axis=(1, 2)), _six(I1), _six(I2),
            detail=detail,
        )  # fmt: skip


def _members(links_a: tuple[str, ...], links_b: tuple[str, ...]) -> str:
    if len(links_a) == 1 and len(links_b) == 1:
        return ""
    return f"a links {', '.join(links_a)}; b links {', '.join(links_b)}"


def _joints(
    a: Model,
    b: Model,
    matching: Matching,
    Pa: dict[str, FloatArray],
    Pb: dict[str, FloatArray],
    judge: Judge,
    shifts: Mapping[str, float],
) -> None:
    relations_a = {r.follower: r for r in mimic_map(a).relations}
    relations_b = {r.follower: r for r in mimic_map(b).relations}
    to_b = dict(matching.joints)
    for ja, jb in matching.fixed_joints:
        ends = joint_ends(a, b, matching, ja, jb)
        if ends is not None:
            (pa, pb), (ca, cb), _ = ends
            _transform(judge, (ja, jb), _relative(Pa[pa], Pa[ca]), _relative(Pb[pb], Pb[cb]))
    for ja, jb in matching.joints:
        joint_a, joint_b = a.joint(ja), b.joint(jb)
        names = (ja, jb)
        ta, tb = joint_type_name(joint_a), joint_type_name(joint_b)
        if ta != tb:
            judge.text("joint type", "joint", names, ta, tb)
            continue
        assert isinstance(joint_a, RevoluteJoint | PrismaticJoint)
        assert isinstance(joint_b, RevoluteJoint | PrismaticJoint)
        c = shifts.get(ja, 0.0)
        _limits(judge, names, joint_a, joint_b, c)
        _mimic(judge, names, relations_a.get(ja), relations_b.get(jb), to_b, shifts, c)
        ends = joint_ends(a, b, matching, ja, jb)
        if ends is None:
            judge.text(
                "joint links",
                "joint",
                names,
                f"{joint_a.link1} - {joint_a.link2}",
                f"{joint_b.link1} - {joint_b.link2}",
            )
            continue
        (pa, pb), (ca, cb), child = ends
        _transform(judge, names, _relative(Pa[pa], Pa[ca]), _relative(Pb[pb], Pb[cb]))
        # b's end of the joint on the child's body (the frame pair may be on another link).
        k = matching.group_a[a.link_index(child)]
        child_b = next(
            x for x in (joint_b.link1, joint_b.link2) if matching.group_b[b.link_index(x)] == k
        )
        _axis(judge, names, joint_a, joint_b, child, child_b, Pa[child], Pb[child_b])


def _transform(judge: Judge, names: tuple[str, str], Xa: FloatArray, Xb: FloatArray) -> None:
    """The pose of a joint's child body in its parent body."""
    pa, pb = Xa[:, :3, 3], Xb[:, :3, 3]
    judge.numbers(
        "joint transform position", "joint", names, np.linalg.norm(pa - pb, axis=1), pa, pb
    )
    judge.numbers(
        "joint transform orientation",
        "joint",
        names,
        _angle(Xa[:, :3, :3], Xb[:, :3, :3]),
        _rpy(Xa[:, :3, :3]),
        _rpy(Xb[:, :3, :3]),
    )


def _limits(
    judge: Judge,
    names: tuple[str, str],
    ja: RevoluteJoint | PrismaticJoint,
    jb: RevoluteJoint | PrismaticJoint,
    c: float,
) -> None:
    la, lb = ja.limits, jb.limits
    if la.enabled != lb.enabled:
        judge.text(
            "position limits",
            "joint",
            names,
            f"[{la.lower:.6g}, {la.upper:.6g}]" if la.enabled else "none",
            f"[{lb.lower:.6g}, {lb.upper:.6g}]" if lb.enabled else "none",
        )
    elif la.enabled:
        va = np.array([la.lower + c, la.upper + c])
        vb = np.array([lb.lower, lb.upper])
        judge.numbers(
            "position limits", "joint", names, [np.abs(va - vb).max()], va, vb, per_state=False
        )
    for quantity, x, y in (
        ("effort limit", ja.effort_limit, jb.effort_limit),
        ("velocity limit", ja.velocity_limit, jb.velocity_limit),
    ):
        if x == y:
            continue
        err = abs(x - y) if np.isfinite(x) and np.isfinite(y) else np.inf
        judge.numbers(quantity, "joint", names, [err], [x], [y], per_state=False)


def _mimic(
    judge: Judge,
    names: tuple[str, str],
    ra: object,
    rb: object,
    to_b: dict[str, str],
    shifts: Mapping[str, float],
    c: float,
) -> None:
    if ra is None and rb is None:
        return
    if not isinstance(ra, MimicRelation) or not isinstance(rb, MimicRelation):
        judge.text("mimic", "joint", names, str(ra or "none"), str(rb or "none"))
        return
    if to_b.get(ra.leader, ra.leader) != rb.leader:
        judge.text("mimic", "joint", names, str(ra), str(rb))
        return
    # q_f + c = m (q_l + c_l) + o_b  <=>  o_b = o_a + c - m c_l.
    expected = ra.offset + c - ra.multiplier * shifts.get(ra.leader, 0.0)
    va = np.array([ra.multiplier, expected])
    vb = np.array([rb.multiplier, rb.offset])
    judge.numbers(
        "mimic",
        "joint",
        names,
        [np.abs(va - vb).max()],
        va,
        vb,
        per_state=False,
        detail=f"multiplier and offset of a: {ra}; b: {rb}",
    )


def _axis(
    judge: Judge,
    names: tuple[str, str],
    ja: RevoluteJoint | PrismaticJoint,
    jb: RevoluteJoint | PrismaticJoint,
    child_a: str,
    child_b: str,
    Ha: FloatArray,
    Hb: FloatArray,
) -> None:
    """The joint's axis (seen from its child) in the reference frame, at every state."""
    xa, xb = ja.axis(child_a), jb.axis(child_b)
    da = Ha[:, :3, :3] @ xa.direction
    db = Hb[:, :3, :3] @ xb.direction
    chord = np.linalg.norm(da - db, axis=1)
    judge.numbers("axis direction", "joint", names, 2 * np.arcsin(np.clip(chord / 2, 0, 1)), da, db)
    if isinstance(ja, RevoluteJoint):
        oa = Ha[:, :3, :3] @ xa.origin + Ha[:, :3, 3]
        ob = Hb[:, :3, :3] @ xb.origin + Hb[:, :3, 3]

        def off_line(o: FloatArray, p: FloatArray, d: FloatArray) -> FloatArray:
            v = o - p
            out: FloatArray = np.linalg.norm(v - d * np.sum(v * d, axis=1)[:, None], axis=1)
            return out

        dist = np.maximum(off_line(ob, oa, da), off_line(oa, ob, db))
        judge.numbers("axis line", "joint", names, dist, oa, ob)


def _gravity_and_twists(
    fix: Transform, g: FloatArray, twists: Sequence[FloatArray]
) -> tuple[FloatArray, list[FloatArray]]:
    """Gravity and ``[v; w]`` twists given in a's reference frame, in b's reference link."""
    R, p = fix.rotation, fix.position
    out = []
    for t in twists:
        w = R @ t[3:]
        out.append(np.concatenate((R @ t[:3] + np.cross(p, w), w)))
    return R @ g, out


def _dynamics(
    a: Model,
    b: Model,
    matching: Matching,
    samples: Samples,
    judge: Judge,
    fix: Transform,
    *,
    floating: bool,
    rng: np.random.Generator,
) -> None:
    ref_a, ref_b, _ = matching.reference
    g = np.asarray(STANDARD_GRAVITY, dtype=float)
    cases: list[tuple[str, FloatArray | None, FloatArray | None]] = [
        ("torque (fixed base)", None, None)
    ]
    if floating:
        cases.append(("torque (floating base)", rng.standard_normal(6), rng.standard_normal(6)))
    for quantity, v0, a0 in cases:
        gb, moved = _gravity_and_twists(fix, g, [x for x in (v0, a0) if x is not None])
        vb0, ab0 = (moved[0], moved[1]) if moved else (None, None)
        ta = inverse_dynamics_batch(
            a, samples.qa, samples.dqa, samples.ddqa, gravity=g, base=ref_a,
            base_velocity=v0, base_acceleration=a0,
        )  # fmt: skip
        tb = inverse_dynamics_batch(
            b, samples.qb, samples.dqb, samples.ddqb, gravity=gb, base=ref_b,
            base_velocity=vb0, base_acceleration=ab0,
        )  # fmt: skip
        for ja, jb in matching.joints:
            x = ta[:, a.joint(ja).dof_offset]
            y = tb[:, b.joint(jb).dof_offset]
            judge.numbers(quantity, "joint", (ja, jb), np.abs(x - y), x, y)


def _sensors(
    a: Model, b: Model, matching: Matching, samples: Samples, judge: Judge, fix: Transform
) -> None:
    if not matching.sensors:
        return
    ref_a, ref_b, _ = matching.reference
    g = np.asarray(STANDARD_GRAVITY, dtype=float)
    gb, _ = _gravity_and_twists(fix, g, [])
    n = samples.qa.shape[0]
    ra: dict[str, list[FloatArray]] = {s: [] for s, _ in matching.sensors}
    rb: dict[str, list[FloatArray]] = {s: [] for _, s in matching.sensors}
    for i in range(n):
        xa = predict_sensor_measurements(
            a, JointState(samples.qa[i], samples.dqa[i], samples.ddqa[i]), gravity=g, base=ref_a
        )
        xb = predict_sensor_measurements(
            b, JointState(samples.qb[i], samples.dqb[i], samples.ddqb[i]), gravity=gb, base=ref_b
        )
        for sa, sb in matching.sensors:
            ra[sa].append(xa[sa])
            rb[sb].append(xb[sb])
    for sa, sb in matching.sensors:
        A, B = np.array(ra[sa]), np.array(rb[sb])
        judge.numbers("sensor reading", "sensor", (sa, sb), np.abs(A - B).max(axis=1), A, B)
