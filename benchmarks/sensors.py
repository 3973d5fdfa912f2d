"""Sensor prediction speed on iCubGazeboV2_7 (6 F/T sensors, 62 accelerometers, 15 gyroscopes),
against iDynTree in the same run.

(a) every sensor's measurement at one random state: ``predict_sensor_measurements`` vs
    ``idt.predictSensorsMeasurements`` with all its buffers allocated once, outside the timing;
(b) one ``wrench_applied_on_link`` call vs ``SixAxisForceTorqueSensor.getWrenchAppliedOnLink``.

Run: ``python benchmarks/sensors.py [--rounds N] [--quick] [--cpu]``; timed in paired rounds by
``_harness``.
"""

from __future__ import annotations

import _harness as h
import numpy as np

import robomodel as rm
from robomodel.physics.kinematics import JointState
from robomodel.physics.sensing import predict_sensor_measurements


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=9, block=0.05)
    idt = h.idyntree()
    path = h.icub_path()
    model = h.load_robomodel(path)
    im = h.load_idyntree(path)
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

    ft = next(x for x in model.sensors if isinstance(x, rm.SixAxisForceTorqueSensor))
    ift = sl.getSixAxisForceTorqueSensor(0)
    assert ift.getName() == ft.name
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    iw, out = idt.Wrench.FromPython(w.tolist()), idt.Wrench()
    li = im.getLinkIndex(ft.first_link)
    cases = [
        h.Case(
            "all sensor measurements",
            lambda: predict_sensor_measurements(model, state),
            "iDynTree",
            idt_all,
        ),
        h.Case(
            "wrench_applied_on_link",
            lambda: ft.wrench_applied_on_link(ft.first_link, w),
            "iDynTree",
            lambda: ift.getWrenchAppliedOnLink(li, iw, out),
        ),
    ]
    h.header(f"{h.ICUB}: {len(model.sensors)} sensors", s)
    h.run(cases, s)


if __name__ == "__main__":
    main()
