"""Kinematics and inverse dynamics speed on iCubGazeboV2_7, against Pinocchio in the same run.

(a) one forward kinematics call (all links) and one RNEA call, robomodel vs Pinocchio from Python;
(b) forward kinematics of 10,000 configurations: robomodel's batched call vs a Python loop of
    ``pin.forwardKinematics`` over the same configurations.

Run: ``python benchmarks/kinematics.py``. Prints absolute times and robomodel/Pinocchio ratios.
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

from robomodel.dynamics import inverse_dynamics  # noqa: E402
from robomodel.kinematics import (  # noqa: E402
    JointState,
    forward_kinematics,
    forward_kinematics_batch,
)

ROBOT = "iCubGazeboV2_7"
N_BATCH = 10_000


def best_of(fn: Callable[[], object], repeat: int, number: int) -> float:
    """Return the best mean time per call (seconds) over ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
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
    print(f"{ROBOT}: {model.n_links} links, {model.n_dofs} DOFs (robomodel via {how});")
    print(f"Pinocchio: {pm.nq} position coordinates, {pm.njoints} joints, {pm.nframes} frames")

    rng = np.random.default_rng(0)
    q = rng.uniform(-1, 1, model.n_pos_coords)
    state = JointState(q, rng.uniform(-1, 1, model.n_dofs), rng.uniform(-1, 1, model.n_dofs))
    pq, pv, pa = (rng.uniform(-1, 1, pm.nq) for _ in range(3))

    # Warm the per-model cache (first call builds it) outside the timings.
    forward_kinematics(model, q)
    inverse_dynamics(model, state)
    t_fk = best_of(lambda: forward_kinematics(model, q), 7, 500)
    t_pfk = best_of(lambda: pin.forwardKinematics(pm, pd, pq), 7, 5000)
    t_id = best_of(lambda: inverse_dynamics(model, state), 7, 500)
    t_pid = best_of(lambda: pin.rnea(pm, pd, pq, pv, pa), 7, 5000)
    print()
    print("(a) single call                 robomodel     Pinocchio   ratio")
    print(f"    forward kinematics        {t_fk * 1e6:8.1f} us   {t_pfk * 1e6:8.2f} us  {t_fk / t_pfk:6.1f}x")
    print(f"    inverse dynamics (RNEA)   {t_id * 1e6:8.1f} us   {t_pid * 1e6:8.2f} us  {t_id / t_pid:6.1f}x")
    print(f"    under 1 ms: FK {t_fk < 1e-3}, RNEA {t_id < 1e-3}")

    Q = rng.uniform(-1, 1, (N_BATCH, model.n_pos_coords))
    PQ = rng.uniform(-1, 1, (N_BATCH, pm.nq))

    def pin_loop() -> None:
        for row in PQ:
            pin.forwardKinematics(pm, pd, row)

    forward_kinematics_batch(model, Q[:10])
    links = list(model.link_names)
    t_b = best_of(lambda: forward_kinematics_batch(model, Q, frames=links), 5, 1)
    t_ball = best_of(lambda: forward_kinematics_batch(model, Q), 3, 1)
    t_pl = best_of(pin_loop, 5, 1)
    print()
    print(f"(b) FK of {N_BATCH} configurations   robomodel     Pinocchio loop   ratio")
    print(f"    all {len(links)} links            {t_b * 1e3:8.1f} ms   {t_pl * 1e3:8.1f} ms      {t_b / t_pl:5.2f}x")
    print(
        f"    all {model.n_frames} frames          {t_ball * 1e3:8.1f} ms   "
        f"{t_pl * 1e3:8.1f} ms      {t_ball / t_pl:5.2f}x"
    )
    print(f"    target <= 1.0x (all links): {'met' if t_b <= t_pl else 'NOT met'}")


if __name__ == "__main__":
    main()
