"""Kinematics and dynamics speed on iCubGazeboV2_7 against Pinocchio, paired rounds, medians.

Rows (robomodel / Pinocchio from Python, on the same robot loaded by each library):

* ``inverse_dynamics_batch`` of 2,000 states vs a Python loop of ``pin.rnea``;
* ``forward_kinematics_batch`` of all frames over 10,000 configurations vs a Python loop of
  ``pin.forwardKinematics`` + ``pin.updateFramePlacements``;
* one ``forward_kinematics`` call vs one ``pin.forwardKinematics``, and vs
  ``pin.forwardKinematics`` + ``pin.updateFramePlacements`` (the same work: every link pose);
* one ``inverse_dynamics`` call vs one ``pin.rnea``.

Each round times robomodel then Pinocchio back to back; the ratio of the round is their
quotient and the row reports the median over rounds (the machine may be shared, and a pair
measured together sees the same load). Run from the repository root:
``PYTHONPATH=$PWD python benchmarks/dynamics_batch.py [--rounds 9] [--quick] [--cpu]``
(``--cpu``: this process's CPU time instead of the wall clock, steadier on a shared machine).
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable

import icub_models
import numpy as np

from robomodel.formats.urdf import load
from robomodel.physics.dynamics import inverse_dynamics, inverse_dynamics_batch
from robomodel.physics.kinematics import JointState, forward_kinematics, forward_kinematics_batch

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import pinocchio as pin

ROBOT = "iCubGazeboV2_7"


CLOCK = time.perf_counter


def per_call(fn: Callable[[], object], number: int) -> float:
    """Return the mean time of one call over ``number`` calls (``CLOCK``), in seconds."""
    t0 = CLOCK()
    for _ in range(number):
        fn()
    return (CLOCK() - t0) / number


def paired(
    ours: Callable[[], object], theirs: Callable[[], object], number: int, rounds: int
) -> tuple[float, float, float]:
    """Return (median ours, median theirs, median of the per-round ratios), in seconds."""
    a, b, r = [], [], []
    for _ in range(rounds):
        x, y = per_call(ours, number), per_call(theirs, number)
        a.append(x)
        b.append(y)
        r.append(x / y)
    return statistics.median(a), statistics.median(b), statistics.median(r)


def row(
    label: str, times: tuple[float, float, float], unit: float, name: str, target: float
) -> None:
    ours, theirs, ratio = times
    verdict = "met" if ratio <= target else "NOT met"
    print(
        f"  {label:<44}{ours / unit:10.2f} {name} {theirs / unit:10.2f} {name} "
        f"{ratio:7.2f}x  (target <= {target:g}x: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--quick", action="store_true", help="one round on small batches")
    parser.add_argument("--cpu", action="store_true", help="time with this process's CPU time")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    rounds = 1 if args.quick else args.rounds
    path = str(icub_models.get_model_file(ROBOT))
    model = load(path)
    pm = pin.buildModelFromUrdf(path)
    pd = pm.createData()
    rng = np.random.default_rng(0)
    print(f"{ROBOT}: {model.n_links} links, {model.n_dofs} DOFs, {model.n_frames} frames; ")
    print(f"medians of {rounds} paired rounds, {'CPU time' if args.cpu else 'wall clock'}")
    print(f"  {'':<44}{'robomodel':>13} {'Pinocchio':>13} {'ratio':>8}")

    N = 100 if args.quick else 2000
    Q, DQ, DDQ = (rng.uniform(-1, 1, (N, model.n_dofs)) for _ in range(3))
    PQ, PV, PA = (rng.uniform(-1, 1, (N, pm.nq)) for _ in range(3))

    def rnea_loop() -> None:
        for i in range(N):
            pin.rnea(pm, pd, PQ[i], PV[i], PA[i])

    inverse_dynamics_batch(model, Q[:2], DQ[:2], DDQ[:2])  # builds the per-model plan
    times = paired(lambda: inverse_dynamics_batch(model, Q, DQ, DDQ), rnea_loop, 1, rounds)
    row(f"inverse_dynamics_batch, {N} states", times, 1e-3, "ms", 1.0)

    NF = 200 if args.quick else 10_000
    QF = rng.uniform(-1, 1, (NF, model.n_pos_coords))
    PQF = rng.uniform(-1, 1, (NF, pm.nq))

    def fk_loop() -> None:
        for q in PQF:
            pin.forwardKinematics(pm, pd, q)
            pin.updateFramePlacements(pm, pd)

    forward_kinematics_batch(model, QF[:2])
    times = paired(lambda: forward_kinematics_batch(model, QF), fk_loop, 1, rounds)
    row(f"forward_kinematics_batch, all frames, {NF}", times, 1e-3, "ms", 1.0)

    q = rng.uniform(-1, 1, model.n_pos_coords)
    state = JointState(q, rng.uniform(-1, 1, model.n_dofs), rng.uniform(-1, 1, model.n_dofs))
    pq, pv, pa = (rng.uniform(-1, 1, pm.nq) for _ in range(3))
    forward_kinematics(model, q)
    inverse_dynamics(model, state)
    times = paired(
        lambda: forward_kinematics(model, q),
        lambda: pin.forwardKinematics(pm, pd, pq),
        300,
        rounds,
    )
    row("forward_kinematics, one call", times, 1e-6, "us", 10.0)

    def fk_frames() -> None:
        pin.forwardKinematics(pm, pd, pq)
        pin.updateFramePlacements(pm, pd)

    # Equal work: robomodel's call returns every link pose, which Pinocchio has only after
    # updateFramePlacements (iCub's links on fixed joints are Pinocchio frames).
    times = paired(lambda: forward_kinematics(model, q), fk_frames, 300, rounds)
    row("  same, vs forwardKinematics + frames", times, 1e-6, "us", 10.0)
    times = paired(
        lambda: inverse_dynamics(model, state),
        lambda: pin.rnea(pm, pd, pq, pv, pa),
        300,
        rounds,
    )
    row("inverse_dynamics, one call", times, 1e-6, "us", 10.0)


if __name__ == "__main__":
    main()
