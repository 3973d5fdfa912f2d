"""Kinematics and inverse dynamics speed on iCubGazeboV2_7, against Pinocchio in the same run.

(a) one forward kinematics call (all links) and one RNEA call, robomodel vs Pinocchio from Python;
(b) forward kinematics of 10,000 configurations: robomodel's batched call vs a Python loop of
    ``pin.forwardKinematics`` over the same configurations.

Run: ``python benchmarks/kinematics.py [--rounds N] [--quick] [--cpu]``; timed in paired rounds
by ``_harness``.
"""

from __future__ import annotations

import _harness as h
import numpy as np
import pinocchio as pin

from robomodel.dynamics import inverse_dynamics
from robomodel.kinematics import JointState, forward_kinematics, forward_kinematics_batch

N_BATCH = 10_000


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=7, block=0.05)
    path = h.icub_path()
    model = h.load_robomodel(path)
    pm = pin.buildModelFromUrdf(path)
    pd = pm.createData()
    rng = np.random.default_rng(0)
    q = rng.uniform(-1, 1, model.n_pos_coords)
    state = JointState(q, rng.uniform(-1, 1, model.n_dofs), rng.uniform(-1, 1, model.n_dofs))
    pq, pv, pa = (rng.uniform(-1, 1, pm.nq) for _ in range(3))
    Q = rng.uniform(-1, 1, (N_BATCH, model.n_pos_coords))
    PQ = rng.uniform(-1, 1, (N_BATCH, pm.nq))

    def pin_loop() -> None:
        for row_q in PQ:
            pin.forwardKinematics(pm, pd, row_q)

    links = list(model.link_names)
    cases = [
        h.Case(
            "forward kinematics",
            lambda: forward_kinematics(model, q),
            "Pinocchio",
            lambda: pin.forwardKinematics(pm, pd, pq),
        ),
        h.Case(
            "inverse dynamics (RNEA)",
            lambda: inverse_dynamics(model, state),
            "Pinocchio",
            lambda: pin.rnea(pm, pd, pq, pv, pa),
        ),
        h.Case(
            f"FK of {N_BATCH} configurations, all {len(links)} links",
            lambda: forward_kinematics_batch(model, Q, frames=links),
            "Pinocchio loop",
            pin_loop,
        ),
        h.Case(
            f"FK of {N_BATCH} configurations, all {model.n_frames} frames",
            lambda: forward_kinematics_batch(model, Q),
            "Pinocchio loop",
            pin_loop,
        ),
    ]
    h.header(
        f"{h.ICUB}: {model.n_links} links, {model.n_dofs} DOFs; Pinocchio: {pm.nq} position "
        f"coordinates, {pm.njoints} joints, {pm.nframes} frames",
        s,
    )
    fk, rnea, batch, _ = h.run(cases, s)
    print(f"under 1 ms: FK {fk.ours_median < 1e-3}, RNEA {rnea.ours_median < 1e-3}")
    print(f"batched FK target <= 1.0x (all links): {'met' if batch.ratio <= 1.0 else 'NOT met'}")


if __name__ == "__main__":
    main()
