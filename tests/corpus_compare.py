"""Whether two models are the same mechanism, judged by what a user measures, not by ``==``.

Used by the corpus round trips (``tests/test_corpus_roundtrip.py``): a model written to a format
and read back may differ in representation (link order, a link frame moved onto its joint's
axis with a ``<link>_original_frame`` at the old pose, a merged link back from the metadata)
but must have the same total mass, the same pose of every named link and frame at random
configurations, and the same inverse dynamics. Every quantity is computed by robomodel's own
kinematics and dynamics on each model separately and compared by name; the corpus test's oracle
is the input file itself (MuJoCo and Pinocchio read it in other tests).
"""

from __future__ import annotations

import math

import numpy as np

import robomodel as rm
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.joint_state import JointState
from robomodel.physics.kinematics import forward_kinematics


def _moving(model: rm.Model) -> list[str]:
    return [n for n, j in zip(model.joint_names, model.joints, strict=True) if j.n_dofs]


def random_positions(model: rm.Model, rng: np.random.Generator) -> dict[str, float]:
    """One position per moving joint, inside finite limits, mimic followers following."""
    out: dict[str, float] = {}
    for name in _moving(model):
        lim = model.joint(name).limits
        lo = lim.lower if lim.enabled and math.isfinite(lim.lower) else -1.0
        hi = lim.upper if lim.enabled and math.isfinite(lim.upper) else 1.0
        out[name] = float(rng.uniform(lo, hi)) if hi > lo else lo
    for name in _moving(model):
        mim = model.joint(name).mimic
        if mim is not None and mim.joint in out:
            out[name] = mim.multiplier * out[mim.joint] + mim.offset
    return out


def _name_in(b: rm.Model, name: str) -> str | None:
    """The name ``b`` gives the frame ``a`` calls ``name``: itself or its original frame."""
    moved = f"{name}_original_frame"
    if b.is_frame_name_used(moved):
        return moved
    if b.is_link_name_used(name) or b.is_frame_name_used(name):
        return name
    return None


def assert_same_mechanism(
    a: rm.Model, b: rm.Model, *, rng: np.random.Generator, states: int = 3, what: str = ""
) -> None:
    """Assert that ``b`` is the mechanism ``a`` is (see the module docstring).

    Every link and frame name of ``a`` must name a link or frame of ``b`` (or its
    ``_original_frame``); every moving joint of ``a`` a moving joint of ``b``.
    """
    where = f"{what}: " if what else ""
    scale = max(1.0, a.total_mass)
    assert math.isclose(a.total_mass, b.total_mass, rel_tol=1e-9, abs_tol=1e-12 * scale), (
        f"{where}total mass {a.total_mass!r} became {b.total_mass!r}"
    )
    names = [*a.link_names, *a.frame_names]
    lost = [n for n in names if _name_in(b, n) is None]
    assert not lost, f"{where}links/frames lost: {lost}"
    assert set(_moving(a)) <= set(_moving(b)), f"{where}joints lost"
    base = a.link_names[a.default_base_index]
    base_b = _name_in(b, base)
    assert base_b is not None
    for _ in range(states):
        q = random_positions(a, rng)
        qb = {n: q.get(n, 0.0) for n in _moving(b)}
        fa = forward_kinematics(a, JointState.from_names(a, positions=q).q)
        fb = forward_kinematics(b, JointState.from_names(b, positions=qb).q)
        ref_a, ref_b = fa.base_H_frame(base), fb.base_H_frame(base_b)
        for n in names:
            n_b = _name_in(b, n)
            assert n_b is not None
            pa = ref_a.inverse() @ fa.base_H_frame(n)
            pb = ref_b.inverse() @ fb.base_H_frame(n_b)
            size = max(1.0, float(np.abs(pa.position).max()))
            np.testing.assert_allclose(
                pb.position, pa.position, atol=1e-9 * size, err_msg=f"{where}{n} at {q}"
            )
            np.testing.assert_allclose(
                pb.rotation, pa.rotation, atol=1e-9, err_msg=f"{where}{n} at {q}"
            )
        if not b.is_link_name_used(base):
            continue  # the base became a frame: dynamics about another fixed link differ
        dq = {n: float(rng.uniform(-1, 1)) for n in _moving(a)}
        ddq = {n: float(rng.uniform(-1, 1)) for n in _moving(a)}
        for m in (a, b):
            for n in _moving(m):
                mim = m.joint(n).mimic
                if mim is not None and mim.joint in dq:
                    dq[n] = mim.multiplier * dq[mim.joint]
                    ddq[n] = mim.multiplier * ddq[mim.joint]
        sa = JointState.from_names(a, positions=q, velocities=dq, accelerations=ddq)
        sb = JointState.from_names(
            b,
            positions=qb,
            velocities={n: dq.get(n, 0.0) for n in _moving(b)},
            accelerations={n: ddq.get(n, 0.0) for n in _moving(b)},
        )
        ta = _torques(a, inverse_dynamics(a, sa, base=base).joint_torques)
        tb = _torques(b, inverse_dynamics(b, sb, base=base).joint_torques)
        big = max(1.0, max((abs(v) for v in ta.values()), default=0.0))
        for n, v in ta.items():
            assert abs(tb[n] - v) <= 1e-7 * big, f"{where}torque of {n}: {v!r} became {tb[n]!r}"


def _torques(model: rm.Model, tau: np.ndarray) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, joint in zip(model.joint_names, model.joints, strict=True):
        if joint.n_dofs == 1:
            out[name] = float(tau[joint.dof_offset])
    return out
