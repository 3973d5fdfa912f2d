"""iDynTree side of the sensor reference tests: sensor lists in both directions, predictions.

Written against the iDynTree 15.1 Python bindings. Models themselves go through
``tests/_idyntree_bridge.py`` or robomodel's URDF loader; this module adds the sensors.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from _idyntree_bridge import idt_transform, rm_transform

import robomodel as rm

with warnings.catch_warnings():
    # SWIG's types warn (DeprecationWarning) while idyntree loads; under pytest's
    # filterwarnings=error that warning is raised inside the extension's init and crashes it.
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

KINDS = (idt.SIX_AXIS_FORCE_TORQUE, idt.ACCELEROMETER, idt.GYROSCOPE)


def sensors_from_idyntree(im: Any) -> list[rm.Sensor]:
    """Return iDynTree's sensors as robomodel values, type by type in enum order."""
    sl = im.sensors()
    out: list[rm.Sensor] = []
    for k in range(sl.getNrOfSensors(idt.SIX_AXIS_FORCE_TORQUE)):
        s = sl.getSixAxisForceTorqueSensor(k)
        l1, l2 = s.getFirstLinkIndex(), s.getSecondLinkIndex()
        T1, T2 = idt.Transform(), idt.Transform()
        assert s.getLinkSensorTransform(l1, T1) and s.getLinkSensorTransform(l2, T2)
        out.append(
            rm.SixAxisForceTorqueSensor(
                name=s.getName(),
                parent_joint=s.getParentJoint(),
                first_link=s.getFirstLinkName(),
                second_link=s.getSecondLinkName(),
                first_link_H_sensor=rm_transform(T1),
                second_link_H_sensor=rm_transform(T2),
                applied_wrench_link=im.getLinkName(s.getAppliedWrenchLink()),
            )
        )
    for kind, getter, cls in (
        (idt.ACCELEROMETER, "getAccelerometerSensor", rm.Accelerometer),
        (idt.GYROSCOPE, "getGyroscopeSensor", rm.Gyroscope),
    ):
        for k in range(sl.getNrOfSensors(kind)):
            s = getattr(sl, getter)(k)
            out.append(
                cls(
                    name=s.getName(),
                    link=s.getParentLink(),
                    link_H_sensor=rm_transform(s.getLinkSensorTransform()),
                )
            )
    return out


def add_sensors_to_idyntree(im: Any, model: rm.Model) -> Any:
    """Add ``model``'s sensors to the iDynTree model ``im`` (same link and joint names)."""
    for s in model.sensors:
        match s:
            case rm.SixAxisForceTorqueSensor():
                ft = idt.SixAxisForceTorqueSensor()
                ft.setName(s.name)
                ft.setParentJoint(s.parent_joint)
                ft.setParentJointIndex(im.getJointIndex(s.parent_joint))
                ft.setFirstLinkName(s.first_link)
                ft.setSecondLinkName(s.second_link)
                ft.setFirstLinkSensorTransform(
                    im.getLinkIndex(s.first_link), idt_transform(s.first_link_H_sensor)
                )
                ft.setSecondLinkSensorTransform(
                    im.getLinkIndex(s.second_link), idt_transform(s.second_link_H_sensor)
                )
                ft.setAppliedWrenchLink(im.getLinkIndex(s.applied_wrench_link))
                sensor: Any = ft
            case rm.Accelerometer() | rm.Gyroscope():
                sensor = (
                    idt.AccelerometerSensor()
                    if isinstance(s, rm.Accelerometer)
                    else idt.GyroscopeSensor()
                )
                sensor.setName(s.name)
                sensor.setParentLink(s.link)
                sensor.setParentLinkIndex(im.getLinkIndex(s.link))
                sensor.setLinkSensorTransform(idt_transform(s.link_H_sensor))
        if im.sensors().addSensor(sensor) < 0:
            raise ValueError(f"iDynTree refused sensor {s.name!r}")
    return im


def idt_predict(
    im: Any,
    base: int,
    q: np.ndarray,
    dq: np.ndarray,
    ddq: np.ndarray,
    *,
    gravity: np.ndarray,
    base_acceleration: np.ndarray,
    base_velocity: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Run iDynTree's ``predictSensorsMeasurements`` with the base at rest in the world (or
    moving with the body-fixed twist ``base_velocity``).

    Returns every sensor's measurement by name.
    """
    trav = idt.Traversal()
    if not im.computeFullTreeTraversal(trav, base):
        raise ValueError("traversal failed")
    pos = idt.FreeFloatingPos(im)
    pos.worldBasePos = idt.Transform.Identity()
    vel = idt.FreeFloatingVel(im)
    acc = idt.FreeFloatingAcc(im)
    for i in range(im.getNrOfPosCoords()):
        pos.jointPos.setVal(i, float(q[i]))
    for i in range(im.getNrOfDOFs()):
        vel.jointVel.setVal(i, float(dq[i]))
        acc.jointAcc.setVal(i, float(ddq[i]))
    vel.baseVel.zero()
    if base_velocity is not None:
        for i in range(6):
            vel.baseVel.setVal(i, float(base_velocity[i]))
    base_acc = acc.baseAcc  # a reference into acc
    for i in range(6):
        base_acc.setVal(i, float(base_acceleration[i]))
    ext = idt.LinkWrenches(im)
    ext.zero()
    sl = im.sensors()
    meas = idt.SensorsMeasurements(sl)
    ok = idt.predictSensorsMeasurements(
        im,
        sl,
        trav,
        pos,
        vel,
        acc,
        idt.GeomVector3(*[float(x) for x in gravity]),
        ext,
        idt.FreeFloatingAcc(im),
        idt.LinkPositions(im),
        idt.LinkVelArray(im),
        idt.LinkAccArray(im),
        idt.LinkWrenches(im),
        idt.FreeFloatingGeneralizedTorques(im),
        meas,
    )
    if not ok:
        raise ValueError("predictSensorsMeasurements failed")
    out: dict[str, np.ndarray] = {}
    for kind in KINDS:
        for k in range(sl.getNrOfSensors(kind)):
            size = 6 if kind == idt.SIX_AXIS_FORCE_TORQUE else 3
            # LinAcceleration and AngVelocity are typedefs of GeomVector3 in the bindings.
            v = idt.Wrench() if size == 6 else idt.GeomVector3()
            assert meas.getMeasurement(kind, k, v)
            out[sl.getSensor(kind, k).getName()] = v.toNumPy()
    return out
