"""Sensor prediction speed on iCubGazeboV2_7 (6 F/T sensors, 62 accelerometers, 15 gyroscopes),
against iDynTree in the same run.

(a) every sensor's measurement at one random state: ``predict_sensor_measurements`` vs
    ``idt.predictSensorsMeasurements`` with all its buffers allocated once, outside the timing;
(b) one ``wrench_applied_on_link`` call vs ``SixAxisForceTorqueSensor.getWrenchAppliedOnLink``.

First-call rows: before each timed call both libraries load the URDF (not timed; iDynTree's
buffers are allocated then too). Rows saying "repeated" time many calls on one model.

Run: ``python benchmarks/sensors.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed in
paired rounds by ``_harness``.
"""

from __future__ import annotations

from typing import Any

import _harness as h
import numpy as np

import robomodel as rm

JointState = rm.JointState
predict_sensor_measurements = h.rm_module("physics.sensing").predict_sensor_measurements


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=9, block=0.05)
    idt = h.idyntree()
    path = h.icub_path()
    model = h.load_robomodel(path)
    rng = np.random.default_rng(0)
    state = JointState(*rng.uniform(-1, 1, (3, model.n_dofs)))

    def idt_setup() -> Any:
        """A freshly loaded iDynTree model with the state set and every buffer allocated."""
        im = h.load_idyntree(path)
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
        return im, (sl, trav, pos, vel, acc, gravity, ext, *bufs, meas)

    def idt_all(setup: Any) -> object:
        im, inputs = setup
        return idt.predictSensorsMeasurements(im, *inputs)

    ft = next(x for x in model.sensors if isinstance(x, rm.SixAxisForceTorqueSensor))
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])

    def rm_ft() -> Any:
        loaded = h.load_robomodel(path)
        return next(x for x in loaded.sensors if x.name == ft.name)

    def idt_ft() -> Any:
        im = h.load_idyntree(path)
        sensor = im.sensors().getSixAxisForceTorqueSensor(0)
        assert sensor.getName() == ft.name
        return im, sensor, im.getLinkIndex(ft.first_link), idt.Wrench.FromPython(w.tolist())

    def idt_wrench(setup: Any) -> object:
        _, sensor, li, iw = setup
        out = idt.Wrench()
        sensor.getWrenchAppliedOnLink(li, iw, out)
        return out

    n = len(model.sensors)
    fixed_setup, fixed_ft = idt_setup(), idt_ft()
    cases: list[h.Case | h.Fresh] = [
        h.Fresh(
            f"predict_sensor_measurements, all {n} sensors, one state",
            lambda: h.load_robomodel(path),
            lambda m: predict_sensor_measurements(m, state),
            "iDynTree `predictSensorsMeasurements`, its buffers allocated (not timed)",
            idt_setup,
            idt_all,
        ),
        h.Fresh(
            "wrench_applied_on_link",
            rm_ft,
            lambda sensor: sensor.wrench_applied_on_link(ft.first_link, w),
            "iDynTree `SixAxisForceTorqueSensor.getWrenchAppliedOnLink`",
            idt_ft,
            idt_wrench,
        ),
        h.Case(
            f"predict_sensor_measurements, all {n} sensors, repeated on one model",
            lambda: predict_sensor_measurements(model, state),
            "iDynTree `predictSensorsMeasurements`, its buffers allocated once",
            lambda: idt_all(fixed_setup),
        ),
        h.Case(
            "wrench_applied_on_link, repeated on one sensor",
            lambda: ft.wrench_applied_on_link(ft.first_link, w),
            "iDynTree `SixAxisForceTorqueSensor.getWrenchAppliedOnLink`",
            lambda: idt_wrench(fixed_ft),
        ),
    ]
    h.header(f"{h.ICUB}: {n} sensors", s)
    h.finish("sensors", h.measure(cases, s), s)


if __name__ == "__main__":
    main()
