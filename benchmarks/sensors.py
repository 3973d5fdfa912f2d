"""Sensor prediction speed on iCubGazeboV2_7 (6 F/T sensors, 62 accelerometers, 15 gyroscopes),
against iDynTree in the same run.

(a) every sensor's measurement at one random state: ``predict_sensor_measurements`` vs
    ``idt.predictSensorsMeasurements`` with all its buffers allocated once, outside the timing;
(b) one ``wrench_applied_on_link`` call vs ``SixAxisForceTorqueSensor.getWrenchAppliedOnLink``.

Run: ``python benchmarks/sensors.py``. Prints absolute times and robomodel/iDynTree ratios.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import icub_models
import idyntree.bindings as idt
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import robomodel as rm
from robomodel.kinematics import JointState
from robomodel.sensing import predict_sensor_measurements
from robomodel.urdf import load

ROBOT = "iCubGazeboV2_7"


def best_of(fn: Callable[[], object], repeat: int = 7, number: int = 200) -> float:
    """Return the best mean time per call (seconds) over ``repeat`` runs of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def main() -> None:
    path = str(icub_models.get_model_file(ROBOT))
    model = load(path)
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(path)
    im = loader.model().copy()
    rng = np.random.default_rng(0)
    state = JointState(*rng.uniform(-1, 1, (3, model.n_dofs)))

    # iDynTree inputs and buffers, built once (joint order matched by name).
    trav = idt.Traversal()
    assert im.computeFullTreeTraversal(trav, im.getLinkIndex(model.default_base))
    pos, vel, acc = idt.FreeFloatingPos(im), idt.FreeFloatingVel(im), idt.FreeFloatingAcc(im)
    pos.worldBasePos = idt.Transform.Identity()
    vel.baseVel.zero()
    acc.baseAcc.zero()
    for jn, j in zip(model.joint_names, model.joints, strict=True):
        if j.n_dofs:
            k = im.getJoint(im.getJointIndex(jn)).getDOFsOffset()
            pos.jointPos.setVal(k, float(state.q[j.dof_offset]))
            vel.jointVel.setVal(k, float(state.dq[j.dof_offset]))
            acc.jointAcc.setVal(k, float(state.ddq[j.dof_offset]))
    sl = im.sensors()
    meas = idt.SensorsMeasurements(sl)
    gravity = idt.GeomVector3(0.0, 0.0, -9.81)
    ext = idt.LinkWrenches(im)
    ext.zero()
    bufs = (
        idt.FreeFloatingAcc(im),
        idt.LinkPositions(im),
        idt.LinkVelArray(im),
        idt.LinkAccArray(im),
        idt.LinkWrenches(im),
        idt.FreeFloatingGeneralizedTorques(im),
    )

    def idt_all() -> None:
        idt.predictSensorsMeasurements(im, sl, trav, pos, vel, acc, gravity, ext, *bufs, meas)

    def rm_all() -> None:
        predict_sensor_measurements(model, state)

    rm_all()  # build the per-model cache outside the timing, as iDynTree's buffers are
    t_rm, t_idt = best_of(rm_all), best_of(idt_all)
    print(f"{ROBOT}: {len(model.sensors)} sensors")
    print(
        f"(a) all sensor measurements: robomodel {t_rm * 1e3:.3f} ms, "
        f"iDynTree {t_idt * 1e3:.3f} ms, ratio {t_rm / t_idt:.2f}"
    )

    ft = next(s for s in model.sensors if isinstance(s, rm.SixAxisForceTorqueSensor))
    ift = sl.getSixAxisForceTorqueSensor(0)
    assert ift.getName() == ft.name
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    iw, out = idt.Wrench.FromPython(w.tolist()), idt.Wrench()
    li = im.getLinkIndex(ft.first_link)
    t_rm1 = best_of(lambda: ft.wrench_applied_on_link(ft.first_link, w), number=2000)
    t_idt1 = best_of(lambda: ift.getWrenchAppliedOnLink(li, iw, out), number=2000)
    print(
        f"(b) wrench_applied_on_link: robomodel {t_rm1 * 1e6:.2f} us, "
        f"iDynTree {t_idt1 * 1e6:.2f} us, ratio {t_rm1 / t_idt1:.2f}"
    )


if __name__ == "__main__":
    main()
