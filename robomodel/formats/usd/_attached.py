"""Frames and sensors: ``Xform`` prims under their link, written and read.

An additional frame is an ``Xform`` in its link's ``frames`` scope, placed by an
``xformOp:transform`` (the exact ``link_H_frame``). UsdPhysics has no sensor schema: a sensor is
an ``Xform`` in its link's ``sensors`` scope (a force/torque sensor under its first link), at
the sensor pose, and everything else about it is ``robomodel:`` attributes
(``robomodel:sensor_type``, the links and joint it names, the second pose of a force/torque
sensor); the report notes each one. ``robomodel:index`` keeps the model's order of frames and
sensors, which are spread over the links.
"""

from __future__ import annotations

from typing import Any

from robomodel.formats.report import Loss
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import Names, get, matrix_of, put, transform_of_matrix
from robomodel.model.record import Frame
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.spatial import Transform

__all__ = ["read_frame", "read_sensor", "scope", "write_frame", "write_sensor"]


def scope(stage: Any, parent: str, role: str, scopes: dict[str, Names]) -> tuple[str, Names]:
    """Return the path of the ``role`` scope under ``parent`` (made on first use) and its names."""
    path = f"{parent}/{role}"
    if path not in scopes:
        prim = pxr().UsdGeom.Scope.Define(stage, path).GetPrim()
        put(prim, "role", "token", role)
        scopes[path] = Names()
    return path, scopes[path]


def _placed(stage: Any, path: str, T: Transform) -> Any:
    p = pxr()
    xf = p.UsdGeom.Xform.Define(stage, path)
    xf.AddTransformOp(p.UsdGeom.XformOp.PrecisionDouble).Set(matrix_of(T))
    return xf.GetPrim()


def _pose(prim: Any) -> Transform:
    p = pxr()
    for op in p.UsdGeom.Xformable(prim).GetOrderedXformOps():
        if op.GetOpType() == p.UsdGeom.XformOp.TypeTransform:
            return transform_of_matrix(op.Get())
    return Transform.identity()


def write_frame(stage: Any, path: str, frame: Frame, index: int) -> None:
    """Write ``frame`` (the ``index``-th of the model) as an ``Xform`` at ``path``."""
    prim = _placed(stage, path, frame.link_H_frame)
    put(prim, "name", "string", frame.name)
    put(prim, "link", "string", frame.link)
    put(prim, "index", "int", index)


def read_frame(prim: Any, link: str) -> tuple[int, Frame]:
    """Return the index and the frame of a prim :func:`write_frame` wrote under ``link``."""
    return int(get(prim, "index", 0)), Frame(
        str(get(prim, "name", prim.GetName())), link, _pose(prim)
    )


def sensor_link(sensor: Sensor) -> str:
    """The link a sensor's prim is placed under."""
    match sensor:
        case SixAxisForceTorqueSensor():
            return sensor.first_link
        case Accelerometer() | Gyroscope():
            return sensor.link


def write_sensor(stage: Any, path: str, sensor: Sensor, index: int) -> Loss:
    """Write ``sensor`` (the ``index``-th of the model) at ``path``; return its report entry."""
    match sensor:
        case SixAxisForceTorqueSensor():
            prim = _placed(stage, path, sensor.first_link_H_sensor)
            put(prim, "sensor_type", "token", "force_torque")
            put(prim, "parent_joint", "string", sensor.parent_joint)
            put(prim, "first_link", "string", sensor.first_link)
            put(prim, "second_link", "string", sensor.second_link)
            put(prim, "second_link_H_sensor", "matrix4d", matrix_of(sensor.second_link_H_sensor))
            put(prim, "applied_wrench_link", "string", sensor.applied_wrench_link)
            kind = "force/torque sensor"
        case Accelerometer() | Gyroscope():
            prim = _placed(stage, path, sensor.link_H_sensor)
            kind = "accelerometer" if isinstance(sensor, Accelerometer) else "gyroscope"
            put(prim, "sensor_type", "token", kind)
    put(prim, "name", "string", sensor.name)
    put(prim, "index", "int", index)
    return Loss(
        action="note",
        kind="sensor",
        name=sensor.name,
        detail=f"{kind}: no UsdPhysics schema, written as an Xform with robomodel: attributes",
    )


def read_sensor(prim: Any, link: str) -> tuple[int, Sensor]:
    """Return the index and the sensor of a prim :func:`write_sensor` wrote under ``link``."""
    kind = str(get(prim, "sensor_type"))
    name = str(get(prim, "name", prim.GetName()))
    index = int(get(prim, "index", 0))
    if kind == "force_torque":
        return index, SixAxisForceTorqueSensor(
            name=name,
            parent_joint=str(get(prim, "parent_joint")),
            first_link=str(get(prim, "first_link")),
            second_link=str(get(prim, "second_link")),
            first_link_H_sensor=_pose(prim),
            second_link_H_sensor=transform_of_matrix(get(prim, "second_link_H_sensor")),
            applied_wrench_link=str(get(prim, "applied_wrench_link")),
        )
    cls = Accelerometer if kind == "accelerometer" else Gyroscope
    return index, cls(name=name, link=link, link_H_sensor=_pose(prim))
