"""Kinematics and inverse dynamics speed on iCubGazeboV2_7, against Pinocchio in the same run.

(a) one forward kinematics call (all links) and one RNEA call, robomodel vs Pinocchio from Python;
    the FK call is compared both with ``pin.forwardKinematics`` alone (joint placements only) and
    with ``forwardKinematics`` + ``updateFramePlacements`` (the same work as ours: the pose of
    every link, which Pinocchio keeps as a frame when a fixed joint attaches it);
(b) forward kinematics of 10,000 configurations: robomodel's batched call vs a Python loop of
    ``pin.forwardKinematics`` over the same configurations (all links, and all frames);
(b') the same batch of all frames against issue 19's peer, a loop of ``pin.forwardKinematics`` +
    ``pin.updateFramePlacements`` (Pinocchio's frames are placed, into its one ``Data``, and
    nothing is kept), three ways:
    "fresh": the call as by default, returning new arrays (343 MB) every time;
    "workspace": the call with ``out=BatchPoses(...)`` made once, writing into the same memory
    every time, as Pinocchio writes into its ``Data``;
    "workspace" vs "+ copy": for equal output, the Pinocchio loop also copies each placement
    into a preallocated (N, F, 4, 4) array, F the 214 Pinocchio frames that carry the name of
    a robomodel frame (iCub's other 59 robomodel frames, sensor frames, are not Pinocchio
    frames), so that both sides end with every pose of every configuration in memory;
(c) a long chain (20,000 links; 2,000 with ``--quick``): the first forward kinematics call on a
    freshly loaded model (which builds the per-model plan) against the URDF load of that chain,
    in paired rounds (each round loads the text once and times that model's first FK call).

The rows of (a), (b) and (b') say "repeated": they time many calls on one model after a warm-up
(the first calls on a freshly loaded model are in ``benchmarks/dynamics_batch.py``); (c) is a
first call.

Run: ``python benchmarks/kinematics.py [--rounds N] [--quick] [--cpu]``; timed in paired rounds
by ``_harness``.
"""

from __future__ import annotations

import statistics

import _harness as h
import numpy as np
import pinocchio as pin
from model_values import chain_urdf

kinematics = h.rm_module("physics.kinematics")
loads = h.rm_module("formats.urdf").loads
inverse_dynamics = h.rm_module("physics.dynamics").inverse_dynamics
BatchPoses = kinematics.BatchPoses
JointState = kinematics.JointState
forward_kinematics = kinematics.forward_kinematics
forward_kinematics_batch = kinematics.forward_kinematics_batch

N_BATCH = 10_000
CHAIN = 20_000
CHAIN_QUICK = 2_000


def first_fk_of_chain(n: int, s: h.Settings) -> None:
    """Print the paired URDF load / first FK figures of an ``n``-link chain."""
    text = chain_urdf(n)
    loads_, fks = [], []
    for _ in range(min(s.rounds, 5)):
        t0 = s.clock()
        model = loads(text)
        t1 = s.clock()
        forward_kinematics(model, np.zeros(model.n_pos_coords))
        t2 = s.clock()
        loads_.append(t1 - t0)
        fks.append(t2 - t1)
        del model
    ratios = [f / lo for f, lo in zip(fks, loads_, strict=True)]
    print(
        f"{n}-link chain, {len(ratios)} paired rounds: URDF load "
        f"{statistics.median(loads_) / n * 1e6:.1f} us/link, first FK "
        f"{statistics.median(fks) / n * 1e6:.1f} us/link, ratio first FK / load "
        f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f}x; "
        f"target <= 1.0x: {'met' if statistics.median(ratios) <= 1.0 else 'NOT met'})"
    )


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

    def pin_frames_loop() -> None:
        for row_q in PQ:
            pin.forwardKinematics(pm, pd, row_q)
            pin.updateFramePlacements(pm, pd)

    shared = [
        pm.getFrameId(f) for f in list(model.link_names) + model.frame_names if pm.existFrame(f)
    ]
    kept = np.empty((N_BATCH, len(shared), 4, 4))

    def pin_frames_copy_loop() -> None:
        oMf = pd.oMf
        for n, row_q in enumerate(PQ):
            pin.forwardKinematics(pm, pd, row_q)
            pin.updateFramePlacements(pm, pd)
            dst = kept[n]
            for f, i in enumerate(shared):
                dst[f] = oMf[i].homogeneous

    workspace = BatchPoses(model, N_BATCH)
    links = list(model.link_names)
    cases = [
        h.Case(
            "forward kinematics, repeated",
            lambda: forward_kinematics(model, q),
            "one `pin.forwardKinematics`",
            lambda: pin.forwardKinematics(pm, pd, pq),
        ),
        h.Case(
            "forward kinematics (all links), repeated",
            lambda: forward_kinematics(model, q),
            "one `pin.forwardKinematics` + `pin.updateFramePlacements`",
            lambda: (pin.forwardKinematics(pm, pd, pq), pin.updateFramePlacements(pm, pd)),
        ),
        h.Case(
            "inverse dynamics (RNEA), repeated",
            lambda: inverse_dynamics(model, state),
            "one `pin.rnea`",
            lambda: pin.rnea(pm, pd, pq, pv, pa),
        ),
        h.Case(
            f"FK of {N_BATCH} configurations, all {len(links)} links, repeated",
            lambda: forward_kinematics_batch(model, Q, frames=links),
            f"a `pin.forwardKinematics` loop, {N_BATCH} configurations",
            pin_loop,
        ),
        h.Case(
            f"FK of {N_BATCH} configurations, all {model.n_frames} frames, repeated",
            lambda: forward_kinematics_batch(model, Q),
            f"a `pin.forwardKinematics` loop, {N_BATCH} configurations",
            pin_loop,
        ),
        h.Case(
            f"FK of {N_BATCH}, all frames, fresh arrays, repeated",
            lambda: forward_kinematics_batch(model, Q),
            f"a `pin.forwardKinematics` + `updateFramePlacements` loop, {N_BATCH} configurations",
            pin_frames_loop,
        ),
        h.Case(
            f"FK of {N_BATCH}, all frames, workspace, repeated",
            lambda: forward_kinematics_batch(model, Q, out=workspace),
            f"a `pin.forwardKinematics` + `updateFramePlacements` loop, {N_BATCH} configurations",
            pin_frames_loop,
        ),
        h.Case(
            f"FK of {N_BATCH}, all frames, workspace, repeated",
            lambda: forward_kinematics_batch(model, Q, out=workspace),
            f"a `pin.forwardKinematics` + `updateFramePlacements` loop copying {len(shared)} "
            f"frames into one preallocated array, {N_BATCH} configurations",
            pin_frames_copy_loop,
        ),
    ]
    h.header(
        f"{h.ICUB}: {model.n_links} links, {model.n_dofs} DOFs; Pinocchio: {pm.nq} position "
        f"coordinates, {pm.njoints} joints, {pm.nframes} frames",
        s,
    )
    results = h.run(cases, s)
    h.write_json("kinematics", results, s)
    fk, fk_frames, rnea, batch, _, fresh, reused, _ = results
    for label, r in (("FK", fk), ("FK (vs + frames)", fk_frames), ("RNEA", rnea)):
        print(f"{label} target <= 10x: {'met' if r.ratio <= 10.0 else 'NOT met'}")
    print(f"batched FK target <= 1.0x (all links): {'met' if batch.ratio <= 1.0 else 'NOT met'}")
    for label, r in (("fresh", fresh), ("workspace", reused)):
        verdict = "met" if r.ratio <= 1.0 else "NOT met"
        print(f"batched FK of all frames target <= 1.0x ({label}): {verdict}")
    first_fk_of_chain(CHAIN_QUICK if s.quick else CHAIN, s)


if __name__ == "__main__":
    main()
