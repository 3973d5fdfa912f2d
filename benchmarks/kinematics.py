"""Kinematics and inverse dynamics speed on iCubGazeboV2_7, against Pinocchio in the same run.

(a) one forward kinematics call (all links) and one RNEA call, robomodel vs Pinocchio from Python;
(b) forward kinematics of 10,000 configurations: robomodel's batched call vs a Python loop of
    ``pin.forwardKinematics`` over the same configurations.

Run: ``python benchmarks/kinematics.py [--cpu]``. Prints absolute times and robomodel/Pinocchio
ratios; ``--cpu`` times with this process's CPU time instead of the wall clock, which is steadier
when the machine is shared.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import icub_models
import numpy as np
import pinocchio as pin

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from robomodel.dynamics import inverse_dynamics
from robomodel.kinematics import (
    JointState,
    forward_kinematics,
    forward_kinematics_batch,
)

ROBOT = "iCubGazeboV2_7"
N_BATCH = 10_000


def best_of(
    fn: Callable[[], object],
    repeat: int,
    number: int,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Return the best mean time per call (seconds) over ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = clock()
        for _ in range(number):
            fn()
        best = min(best, (clock() - t0) / number)
    return best


def load_robomodel(path: str):  # type: ignore[no-untyped-def]
    try:
        from robomodel.urdf import load  # type: ignore[attr-defined]

        return load(path), "robomodel.urdf.load"
    except ImportError:
        from _idyntree_bridge import load_icub

        return load_icub(ROBOT), "iDynTree loader + tests/_idyntree_bridge.py"


def main() -> None:
    path = str(icub_models.get_model_file(ROBOT))
    model, how = load_robomodel(path)
    pm = pin.buildModelFromUrdf(path)
    pd = pm.createData()
    clock = "CPU time" if "--cpu" in sys.argv else "wall-clock time"
    print(f"timing: best of 7 interleaved rounds, {clock}")
    print(f"{ROBOT}: {model.n_links} links, {model.n_dofs} DOFs (robomodel via {how});")
    print(f"Pinocchio: {pm.nq} position coordinates, {pm.njoints} joints, {pm.nframes} frames")

    rng = np.random.default_rng(0)
    q = rng.uniform(-1, 1, model.n_pos_coords)
    state = JointState(q, rng.uniform(-1, 1, model.n_dofs), rng.uniform(-1, 1, model.n_dofs))
    pq, pv, pa = (rng.uniform(-1, 1, pm.nq) for _ in range(3))

    # Warm the per-model cache (the first call builds it) outside the timings. Each pair is
    # measured interleaved, several rounds, keeping the best of each: the machine is shared.
    forward_kinematics(model, q)
    inverse_dynamics(model, state)
    t_fk, t_pfk = pair(
        lambda: forward_kinematics(model, q), lambda: pin.forwardKinematics(pm, pd, pq), 300, 3000
    )
    t_id, t_pid = pair(
        lambda: inverse_dynamics(model, state), lambda: pin.rnea(pm, pd, pq, pv, pa), 300, 3000
    )
    print()
    print("(a) single call                 robomodel     Pinocchio   ratio")
    row("forward kinematics", t_fk * 1e6, t_pfk * 1e6, "us")
    row("inverse dynamics (RNEA)", t_id * 1e6, t_pid * 1e6, "us")
    print(f"    under 1 ms: FK {t_fk < 1e-3}, RNEA {t_id < 1e-3}")

    Q = rng.uniform(-1, 1, (N_BATCH, model.n_pos_coords))
    PQ = rng.uniform(-1, 1, (N_BATCH, pm.nq))

    def pin_loop() -> None:
        for row_q in PQ:
            pin.forwardKinematics(pm, pd, row_q)

    forward_kinematics_batch(model, Q[:10])
    links = list(model.link_names)
    t_b, t_pl = pair(lambda: forward_kinematics_batch(model, Q, frames=links), pin_loop, 1, 1)
    t_ball, _ = pair(lambda: forward_kinematics_batch(model, Q), lambda: None, 1, 1)
    print()
    print(f"(b) FK of {N_BATCH} configurations   robomodel     Pinocchio loop   ratio")
    row(f"all {len(links)} links", t_b * 1e3, t_pl * 1e3, "ms")
    row(f"all {model.n_frames} frames", t_ball * 1e3, t_pl * 1e3, "ms")
    print(f"    target <= 1.0x (all links): {'met' if t_b <= t_pl else 'NOT met'}")


def pair(
    ours: Callable[[], object], theirs: Callable[[], object], n_ours: int, n_theirs: int
) -> tuple[float, float]:
    """Time two callables interleaved over 7 rounds; return the best time per call of each.

    Wall-clock time, or CPU time of this process with ``--cpu`` (steadier on a shared machine).
    """
    clock = time.process_time if "--cpu" in sys.argv else time.perf_counter
    a = b = float("inf")
    for _ in range(7):
        a = min(a, best_of(ours, 1, n_ours, clock))
        b = min(b, best_of(theirs, 1, n_theirs, clock))
    return a, b


def row(label: str, ours: float, theirs: float, unit: str) -> None:
    print(f"    {label:<26}{ours:8.1f} {unit}  {theirs:9.2f} {unit}  {ours / theirs:6.2f}x")


if __name__ == "__main__":
    main()
