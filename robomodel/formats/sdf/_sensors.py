"""``<sensor>``: ``force_torque`` in a joint, ``imu`` in a link; read beside written.

Force/torque. SDFormat reports the wrench applied by one link on the other
(``<measure_direction>``: ``child_to_parent`` is the wrench the child applies on the parent,
the default; ``parent_to_child`` the reverse), in the orientation of the child link, the parent
link or the sensor (``<frame>``, default ``child``), with moments about the joint origin. So the
robomodel sensor frame has that orientation and the joint's origin; its applied-wrench link is
the parent for ``child_to_parent``. The first link is the parent. The writer puts a fixed
joint's frame at the sensor origin (so that the moments are about it) and states both poses
exactly in ``robomodel:`` attributes, which the reader prefers.

IMU. An ``imu`` of name ``n`` is an accelerometer ``n_accelerometer`` and a gyroscope
``n_gyroscope`` at its pose in the link. robomodel writes each accelerometer and gyroscope as
an ``imu`` of its own name marked ``robomodel:measures``, which reads back as that one sensor.
"""

from __future__ import annotations

from typing import Any

from robomodel.formats.sdf._poses import PoseGraph, read_pose, write_pose
from robomodel.formats.sdf._xml import Source, exact_transform_text, rm, tag_of, verbatim
from robomodel.model.record import Extension
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.spatial import Transform

__all__ = ["read_ft", "read_imu", "write_ft", "write_imu"]


def _pose_in(src: Source, el: Any, what: str, graph: PoseGraph, frame: str, default: str) -> Any:
    """The pose of sensor ``el`` in ``frame`` (its ``<pose>`` is relative to ``default``)."""
    p = el.find("pose")
    if p is None:
        return graph.between(frame, default)
    T, rel = read_pose(src, p, what)
    rel = default if not rel else graph.check(graph.scoped(el, rel), p, what)
    return T if rel == frame else graph.between(frame, rel) @ T


def read_ft(
    src: Source,
    el: Any,
    name: str,
    joint: str,
    parent: str,
    child: str,
    graph: PoseGraph,
    extensions: list[Extension],
) -> SixAxisForceTorqueSensor:
    """Return the F/T sensor ``el`` of joint ``joint`` (parent and child links given)."""
    what = f"sensor {name!r}"
    ft = el.find("force_torque")
    frame, direction = "child", "child_to_parent"
    if ft is not None:
        for ch in ft:
            if ch.tag == "frame":
                frame = (ch.text or "").strip()
            elif ch.tag == "measure_direction":
                direction = (ch.text or "").strip()
            else:
                extensions.append(
                    Extension(
                        owner_kind="force_torque", owner=name, xml=verbatim(ch), tag=tag_of(ch)
                    )
                )
    if frame not in ("child", "parent", "sensor"):
        src.fail(ft, what, f"<frame>{frame}</frame> must be child, parent or sensor")
    if direction not in ("child_to_parent", "parent_to_child"):
        src.fail(ft, what, f"<measure_direction>{direction}</measure_direction> is unknown")
    for ch in el:
        if ch.tag not in ("pose", "force_torque"):
            extensions.append(
                Extension(owner_kind="sensor", owner=name, xml=verbatim(ch), tag=tag_of(ch))
            )
    origin = graph.between(child, joint).position
    if frame == "child":
        R = Transform.identity().rotation
    elif frame == "parent":
        R = graph.between(child, parent).rotation
    else:
        R = _pose_in(src, el, what, graph, child, joint).rotation
    child_H = Transform(R, origin)
    parent_H = graph.between(parent, child) @ child_H
    first = el.get(rm("first_link"))
    exact_c = src.exact(el, "child_H_sensor", what, None)
    exact_p = src.exact(el, "parent_H_sensor", what, None)
    if exact_c is not None and exact_p is not None:
        child_H, parent_H = exact_c, exact_p
    applied = child if direction == "parent_to_child" else parent
    if first == child:
        return SixAxisForceTorqueSensor(
            name=name,
            parent_joint=joint,
            first_link=child,
            second_link=parent,
            first_link_H_sensor=child_H,
            second_link_H_sensor=parent_H,
            applied_wrench_link=applied,
        )
    return SixAxisForceTorqueSensor(
        name=name,
        parent_joint=joint,
        first_link=parent,
        second_link=child,
        first_link_H_sensor=parent_H,
        second_link_H_sensor=child_H,
        applied_wrench_link=applied,
    )


def write_ft(s: SixAxisForceTorqueSensor, parent: str, child: str, indent: str) -> str:
    """Return ``<sensor type="force_torque">`` for ``s`` in a joint from ``parent`` to ``child``."""
    from xml.sax.saxutils import quoteattr

    child_H = s.link_H_sensor(child)
    parent_H = s.link_H_sensor(parent)
    direction = "parent_to_child" if s.applied_wrench_link == child else "child_to_parent"
    first = f" robomodel:first_link={quoteattr(child)}" if s.first_link == child else ""
    i2 = indent + "  "
    return "\n".join(
        [
            f'{indent}<sensor name={quoteattr(s.name)} type="force_torque"{first}'
            f' robomodel:child_H_sensor="{exact_transform_text(child_H)}"'
            f' robomodel:parent_H_sensor="{exact_transform_text(parent_H)}">',
            write_pose(child_H, child, i2),
            f"{i2}<force_torque><frame>sensor</frame>"
            f"<measure_direction>{direction}</measure_direction></force_torque>",
        ]
    )


def read_imu(
    src: Source, el: Any, name: str, link: str, graph: PoseGraph, extensions: list[Extension]
) -> list[Sensor]:
    """Return the accelerometer and gyroscope of ``<sensor type="imu">`` ``el`` on ``link``."""
    what = f"sensor {name!r}"
    T = _pose_in(src, el, what, graph, link, link)
    measures = el.get(rm("measures"))
    if measures == "accelerometer":
        out: list[Sensor] = [Accelerometer(name=name, link=link, link_H_sensor=T)]
    elif measures == "gyroscope":
        out = [Gyroscope(name=name, link=link, link_H_sensor=T)]
    elif measures is None:
        out = [
            Accelerometer(name=f"{name}_accelerometer", link=link, link_H_sensor=T),
            Gyroscope(name=f"{name}_gyroscope", link=link, link_H_sensor=T),
        ]
    else:
        src.fail(el, what, f'robomodel:measures="{measures}" is not accelerometer or gyroscope')
    for ch in el:
        if ch.tag != "pose":
            extensions.append(
                Extension(owner_kind="sensor", owner=out[0].name, xml=verbatim(ch), tag=tag_of(ch))
            )
    return out


def write_imu(s: Accelerometer | Gyroscope, indent: str, kept: list[str]) -> str:
    """Return ``<sensor type="imu">`` for one accelerometer or gyroscope.

    ``kept``: the XML of its extensions, written inside.
    """
    from xml.sax.saxutils import quoteattr

    kind = "accelerometer" if isinstance(s, Accelerometer) else "gyroscope"
    i2 = indent + "  "
    lines = [f'{indent}<sensor name={quoteattr(s.name)} type="imu" robomodel:measures="{kind}">']
    if not s.link_H_sensor.is_identity(0.0):
        lines.append(write_pose(s.link_H_sensor, None, i2))
    lines.extend(i2 + x for x in kept)
    lines.append(f"{indent}</sensor>")
    return "\n".join(lines)
