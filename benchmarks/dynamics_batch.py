"""Batched inverse dynamics and regressors on iCubGazeboV2_7 against Pinocchio loops.

Run ``python benchmarks/dynamics_batch.py [--rounds N] [--quick] [--cpu] [--json PATH]
[--rows TEXT]``; timed in paired rounds by ``_harness``; ``--rows regressor_batch`` runs only
the rows whose label holds that text (``run_all.py --only`` picks benchmarks, not rows). Both
libraries load the same URDF (fixed base, 32 DOFs) and get random states of the same shape.

First-call rows (load a robot, call one thing): before each timed call robomodel loads the URDF
(its per-model plans are then empty and the call builds them) and Pinocchio builds its model
with ``pin.buildModelFromUrdf`` and its ``Data`` with ``createData`` (neither timed). The
Pinocchio side is the cheapest loop that ends with the same output, all states' results in
memory, each copied into one preallocated array:

* ``inverse_dynamics_batch`` of 10, 200 and 2,000 states against a ``pin.rnea`` loop writing
  into an ``(N, nv)`` array;
* ``regressor_batch`` of 10, 200 and 2,000 states against a
  ``pin.computeJointTorqueRegressor`` loop writing into an ``(N, nv, 10 (njoints - 1))`` array
  (Pinocchio's regressor has 10 columns per moving body, the links on fixed joints merged into
  them; robomodel's 10 per link, 39 links: the same rows, more columns);
* one ``inverse_dynamics`` call against one ``pin.rnea``; one ``forward_kinematics`` call (the
  pose of every link and frame) against ``pin.forwardKinematics`` + ``updateFramePlacements``.

Rows saying "repeated" time many calls on one model after a warm-up (plans built).
"""

from __future__ import annotations

import warnings
from typing import Any

import _harness as h
import numpy as np

import robomodel as rm
from robomodel.identification import regressor_batch

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import pinocchio as pin

dynamics = h.rm_module("physics.dynamics")
urdf = h.rm_module("formats.urdf")


def main() -> None:
    p = h.parser(__doc__)
    p.add_argument("--rows", metavar="TEXT", help="run only the rows whose label holds TEXT")
    args = p.parse_args()
    s = h.settings(args, rounds=9, block=0.05)
    warnings.simplefilter("ignore")
    path = h.icub_path()
    model = urdf.load(path)
    pm = pin.buildModelFromUrdf(path)
    pd = pm.createData()
    assert pm.nq == pm.nv == model.n_dofs == model.n_pos_coords
    rng = np.random.default_rng(0)
    sizes = (10, 200) if s.quick else (10, 200, 2000)
    states = {n: tuple(rng.uniform(-1, 1, (n, model.n_dofs)) for _ in range(3)) for n in sizes}
    n_cols = 10 * (pm.njoints - 1)

    def rm_load() -> Any:
        return urdf.load(path)

    def pin_load() -> Any:
        built = pin.buildModelFromUrdf(path)
        return built, built.createData()

    def rnea_loop(n: int) -> Any:
        Q, DQ, DDQ = states[n]

        def run(pin_model: Any) -> object:
            m, d = pin_model
            out = np.empty((n, m.nv))
            for i in range(n):
                out[i] = pin.rnea(m, d, Q[i], DQ[i], DDQ[i])
            return out

        return run

    def regressor_loop(n: int) -> Any:
        Q, DQ, DDQ = states[n]

        def run(pin_model: Any) -> object:
            m, d = pin_model
            out = np.empty((n, m.nv, n_cols))
            for i in range(n):
                out[i] = pin.computeJointTorqueRegressor(m, d, Q[i], DQ[i], DDQ[i])
            return out

        return run

    cases: list[h.Case | h.Fresh] = []
    for n in sizes:
        Q, DQ, DDQ = states[n]
        cases.append(
            h.Fresh(
                f"inverse_dynamics_batch, {n} states",
                rm_load,
                lambda m, Q=Q, DQ=DQ, DDQ=DDQ: dynamics.inverse_dynamics_batch(m, Q, DQ, DDQ),
                f"a `pin.rnea` loop writing into one preallocated array, {n} states",
                pin_load,
                rnea_loop(n),
            )
        )
    for n in sizes:
        Q, DQ, DDQ = states[n]
        cases.append(
            h.Fresh(
                f"regressor_batch, {n} states",
                rm_load,
                lambda m, Q=Q, DQ=DQ, DDQ=DDQ: regressor_batch(m, Q, DQ, DDQ),
                f"a `pin.computeJointTorqueRegressor` loop writing into one preallocated "
                f"array, {n} states",
                pin_load,
                regressor_loop(n),
            )
        )
    q, dq, ddq = (rng.uniform(-1, 1, model.n_dofs) for _ in range(3))
    state = rm.JointState(q, dq, ddq)

    def fk_frames(pin_model: Any) -> object:
        m, d = pin_model
        pin.forwardKinematics(m, d, q)
        pin.updateFramePlacements(m, d)
        return d

    cases += [
        h.Fresh(
            "inverse_dynamics, one state",
            rm_load,
            lambda m: rm.inverse_dynamics(m, state),
            "one `pin.rnea`",
            pin_load,
            lambda pmd: pin.rnea(pmd[0], pmd[1], q, dq, ddq),
        ),
        h.Fresh(
            "forward_kinematics, one configuration (every link and frame)",
            rm_load,
            lambda m: rm.forward_kinematics(m, q),
            "one `pin.forwardKinematics` + `pin.updateFramePlacements`",
            pin_load,
            fk_frames,
        ),
    ]
    big = sizes[-1]
    Q, DQ, DDQ = states[big]
    cases += [
        h.Case(
            f"inverse_dynamics_batch, {big} states, repeated on one model",
            lambda: dynamics.inverse_dynamics_batch(model, Q, DQ, DDQ),
            f"a `pin.rnea` loop writing into one preallocated array, {big} states",
            lambda: rnea_loop(big)((pm, pd)),
        ),
        h.Case(
            "regressor_batch, 200 states, repeated on one model",
            lambda: regressor_batch(model, *states[200]),
            "a `pin.computeJointTorqueRegressor` loop writing into one preallocated array, "
            "200 states",
            lambda: regressor_loop(200)((pm, pd)),
        ),
        h.Case(
            "inverse_dynamics, one state, repeated on one model",
            lambda: rm.inverse_dynamics(model, state),
            "one `pin.rnea`",
            lambda: pin.rnea(pm, pd, q, dq, ddq),
        ),
        h.Case(
            "forward_kinematics, one configuration, repeated on one model",
            lambda: rm.forward_kinematics(model, q),
            "one `pin.forwardKinematics` + `pin.updateFramePlacements`",
            lambda: fk_frames((pm, pd)),
        ),
    ]
    h.header(
        f"{h.ICUB}: {model.n_links} links, {model.n_dofs} DOFs, {model.n_frames} frames; "
        f"Pinocchio: {pm.njoints} joints, {pm.nframes} frames",
        s,
    )
    if args.rows:
        cases = [c for c in cases if args.rows in c.label]
    h.finish("dynamics_batch", h.measure(cases, s), s)


if __name__ == "__main__":
    main()
