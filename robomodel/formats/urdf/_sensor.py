"""``<sensor>`` in iDynTree's dialect (F/T, accelerometer, gyroscope): read beside written.

The dialect (``docs/sensors.md``)::

    <sensor name="ft" type="force_torque">
      <parent joint="j"/>
      <force_torque><frame>child|parent|sensor</frame>
        <measure_direction>parent_to_child|child_to_parent</measure_direction></force_torque>
      <origin xyz=".." rpy=".."/>              (the sensor pose in the child, for frame=sensor)
    </sensor>
    <sensor name="imu" type="accelerometer|gyroscope">
      <parent link="l"/><origin xyz=".." rpy=".."/>
    </sensor>

Other sensor types are kept verbatim. :func:`read_sensor` checks the element,
:func:`sensor_values` builds the sensors once the joints and fake links are known, and
:func:`add_sensor_frames` adds iDynTree's sensor frames. :func:`write_sensors` writes the sensors
back, choosing the ``<frame>`` that states its two poses exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from robomodel._internal.construct import make
from robomodel.errors import suggest, warn
from robomodel.formats.urdf._document import (
    XMLNS,
    Reader,
    Writer,
    duplicate,
    q,
    quote_names,
    read_transform,
    required,
    rm,
    transform_text,
)
from robomodel.formats.urdf._extensions import keep, keep_on, kept_blocks
from robomodel.formats.urdf._origin import canonical, plan_origins, read_origin
from robomodel.formats.urdf._records import RawJoint, RawSensor
from robomodel.formats.urdf.errors import URDFSensorError
from robomodel.model.record import Frame
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.spatial import Transform
from robomodel.model.traversal import Traversal

__all__ = ["add_sensor_frames", "read_sensor", "sensor_values", "write_sensors"]

_SENSOR_TYPES = ("force_torque", "accelerometer", "gyroscope")
_FT_FRAMES = ("child", "parent", "sensor")
_FT_DIRECTIONS = ("parent_to_child", "child_to_parent")
_ACCELEROMETER = make(Accelerometer)
_EYE = Transform.identity()
_RM_FIRST = rm("first_link")
_RM_FIRST_H = rm("first_link_H_sensor")
_RM_SECOND_H = rm("second_link_H_sensor")
_GYROSCOPE = make(Gyroscope)


# ---------------------------------------------------------------------- reading
def read_sensor(r: Reader, el: Any) -> RawSensor | None:
    """Return the record of ``<sensor>`` ``el``; ``None`` for a type kept verbatim."""
    name = el.get("name")
    if not name or name.isspace():
        name = required(r, el, "sensor", "name")
    what = f"sensor {name!r}"
    kind = el.get("type")
    if not kind or kind.isspace():
        kind = required(r, el, what, "type")
    if kind not in _SENSOR_TYPES:
        keep(r, "robot", "", el, r.exts)
        return None
    raw = RawSensor(name, kind, el)
    origin = ft = None
    want = "joint" if kind == "force_torque" else "link"
    for ch in el:
        tag = ch.tag
        if tag == "parent":
            if raw.parent_el is not None:
                raise duplicate(r, ch, what)
            raw.parent_el = ch
            ref = ch.get(want)
            raw.parent_attr = ref if ref and not ref.isspace() else required(r, ch, what, want)
        elif tag == "origin":
            if origin is not None:
                raise duplicate(r, ch, what)
            origin = ch
            read_origin(r, ch, what, raw)
        elif tag == "force_torque" and kind == "force_torque":
            if ft is not None:
                raise duplicate(r, ch, what)
            ft = ch
            for sub in ch:
                if sub.tag == "frame":
                    raw.frame = (sub.text or "").strip()
                elif sub.tag == "measure_direction":
                    raw.direction = (sub.text or "").strip()
                else:  # kept inside the <force_torque> (owner kind "force_torque")
                    kept = raw.ft_exts if isinstance(raw.ft_exts, list) else []
                    raw.ft_exts = kept
                    keep(r, "force_torque", name, sub, kept)
            if raw.frame not in _FT_FRAMES:
                raise r.err(
                    URDFSensorError,
                    ch,
                    what,
                    f"<frame>{raw.frame}</frame> must be one of child, parent, sensor",
                )
            if raw.direction not in _FT_DIRECTIONS:
                raise r.err(
                    URDFSensorError,
                    ch,
                    what,
                    f"<measure_direction>{raw.direction}</measure_direction> must be "
                    "parent_to_child or child_to_parent",
                )
        else:
            keep_on(r, "sensor", raw, ch)
    if raw.parent_el is None:
        raise r.err(URDFSensorError, el, what, f"<sensor type={kind!r}> needs <parent {want}=...>")
    if kind == "force_torque" and ft is None:
        raise r.err(
            URDFSensorError,
            el,
            what,
            "a force_torque sensor needs <force_torque><frame>..</frame>"
            "<measure_direction>..</measure_direction></force_torque>",
        )
    return raw


def sensor_values(
    r: Reader,
    sensors: list[RawSensor],
    joints: dict[str, RawJoint],
    links: dict[str, int],
    fake_frame: dict[str, Frame],
    joint_names: dict[str, int],
    link_names: dict[str, int],
    in_document_order: bool = False,
) -> tuple[list[Sensor], list[RawSensor]]:
    """Return the model's sensors (F/T, then accelerometers, then gyroscopes) and their records.

    ``in_document_order``: in the document's order instead (a document in index order).

    ``joints`` and ``links`` are the model's joints and links by name, ``fake_frame`` the
    frames of fake links by name (a link sensor on a fake link follows it onto the neighbour,
    B16), ``joint_names`` and ``link_names`` every name of the document (for suggestions).
    """
    ft: list[Sensor] = []
    acc: list[Sensor] = []
    gyr: list[Sensor] = []
    ft_raw: list[RawSensor] = []
    acc_raw: list[RawSensor] = []
    gyr_raw: list[RawSensor] = []
    if in_document_order:  # one list for all kinds
        acc = gyr = ft
        acc_raw = gyr_raw = ft_raw
    for rs in sensors:
        if rs.kind == "force_torque":
            rj = joints.get(rs.parent_attr)
            if rj is None:
                raise r.err(
                    URDFSensorError,
                    rs.parent_el,
                    f"sensor {rs.name!r}",
                    f"unknown joint {rs.parent_attr!r}{suggest(rs.parent_attr, joint_names)}",
                )
            P = rj.origin
            first_H: Transform
            second_H: Transform
            if rs.frame == "child":
                first_H, second_H = P, Transform.identity()
            elif rs.frame == "parent":
                first_H, second_H = Transform.identity(), P.inverse()
            else:
                first_H, second_H = P @ rs.origin, rs.origin
            applied = rj.child if rs.direction == "parent_to_child" else rj.parent
            first, second = rj.parent, rj.child
            if not r.plain and rs.parent_el.get(_RM_FIRST) is not None:
                first, second, first_H, second_H = _exact_ft(r, rs, rj, first_H, second_H)
            ft_raw.append(rs)
            ft.append(
                SixAxisForceTorqueSensor(
                    name=rs.name,
                    parent_joint=rj.name,
                    first_link=first,
                    second_link=second,
                    first_link_H_sensor=first_H,
                    second_link_H_sensor=second_H,
                    applied_wrench_link=applied,
                )
            )
        else:
            link = rs.parent_attr
            T_s: Transform = rs.origin
            if link in fake_frame:  # B16: the sensor follows its fake link onto the neighbour
                fr = fake_frame[link]
                link, T_s = fr.link, canonical(fr.link_H_frame @ rs.origin)
            elif link not in links:
                raise r.err(
                    URDFSensorError,
                    rs.parent_el,
                    f"sensor {rs.name!r}",
                    f"unknown link {link!r}{suggest(link, link_names)}",
                )
            # Names were checked non-empty by the element parser and the link exists.
            if rs.kind == "accelerometer":
                acc.append(_ACCELEROMETER(rs.name, link, T_s))
                acc_raw.append(rs)
            else:
                gyr.append(_GYROSCOPE(rs.name, link, T_s))
                gyr_raw.append(rs)
    if in_document_order:
        return ft, ft_raw
    return ft + acc + gyr, ft_raw + acc_raw + gyr_raw


def _exact_ft(
    r: Reader, rs: RawSensor, rj: RawJoint, parent_H: Transform, child_H: Transform
) -> tuple[str, str, Transform, Transform]:
    """The links and poses of an F/T sensor's ``robomodel:`` attributes on ``<parent joint>``.

    ``robomodel:first_link`` names one end of the joint; the two poses (12 numbers each) must
    agree within ``1e-6`` with those the dialect gives (what other tools read).
    """
    el = rs.parent_el
    what = f"sensor {rs.name!r}"
    first = el.get(_RM_FIRST)
    if first not in (rj.parent, rj.child):
        raise r.err(
            URDFSensorError,
            el,
            what,
            f"robomodel:first_link={first!r} is not an end of joint {rj.name!r}",
        )
    swap = first != rj.parent
    near1, near2 = (child_H, parent_H) if swap else (parent_H, child_H)
    first_H = read_transform(r, el, what, _RM_FIRST_H, near1)
    second_H = read_transform(r, el, what, _RM_SECOND_H, near2)
    second = rj.parent if swap else rj.child
    return first, second, first_H, second_H


def add_sensor_frames(
    r: Reader,
    sensors: list[Sensor],
    links: dict[str, int],
    fake_frame: dict[str, Frame],
    frames_on: list[list[Frame]],
) -> None:
    """Append one frame per sensor, named like it, to ``frames_on`` (per model link).

    iDynTree's ``addSensorFramesAsAdditionalFrames``: an F/T sensor's frame goes on its second
    (child) link, a link sensor's on its link. ``links`` and ``fake_frame`` are the names taken
    by links and by frames of fake links: a sensor whose name is taken gets no frame.
    """
    eye = Transform.identity()  # only compared against, never stored
    added: dict[str, tuple[str, Transform]] = {}
    moved: list[str] = []
    for sen in sensors:
        if isinstance(sen, SixAxisForceTorqueSensor):
            owner, T_f = sen.second_link, sen.second_link_H_sensor
        else:
            owner, T_f = sen.link, sen.link_H_sensor
        name = sen.name
        # The names taken so far: links, frames of fake links, sensor frames added.
        if name in links:
            prev: tuple[str, Transform] | None = (name, eye)
        elif name in fake_frame:
            fr = fake_frame[name]
            prev = (fr.link, fr.link_H_frame)
        else:
            prev = added.get(name)
        if prev is not None:
            # B22: iDynTree skips silently; robomodel warns unless the existing frame is the
            # sensor frame itself (seen from either link of an F/T sensor).
            if not _same_place(sen, prev[0], prev[1]):
                moved.append(sen.name)
            continue
        added[name] = (owner, T_f)
        frames_on[links[owner]].append(_FRAME(name, owner, T_f))
    if moved:
        warn(
            f"{r.file}: no sensor frame added for {', '.join(repr(x) for x in moved)}: "
            "a link or frame with the same name already exists elsewhere"
        )


_FRAME = make(Frame)


def _same_place(s: Sensor, link: str, link_H_frame: Transform) -> bool:
    if isinstance(s, SixAxisForceTorqueSensor):
        if link == s.first_link:
            return _near(link_H_frame, s.first_link_H_sensor)
        return link == s.second_link and _near(link_H_frame, s.second_link_H_sensor)
    return link == s.link and _near(link_H_frame, s.link_H_sensor)


def _near(a: Transform, b: Transform) -> bool:
    # Elementwise |a - b| <= 1e-9 on the rotation and position, in plain floats: numpy's call
    # overhead on 3x3 arrays cost more than the comparison, for a few dozen sensor frames.
    x = a.rotation.tolist()
    y = b.rotation.tolist()
    for ra, rb in zip(x, y, strict=True):
        for u, v in zip(ra, rb, strict=True):
            if not abs(u - v) <= 1e-9:
                return False
    return all(
        abs(u - v) <= 1e-9 for u, v in zip(a.position.tolist(), b.position.tolist(), strict=True)
    )


# ---------------------------------------------------------------------- writing
def write_sensors(w: Writer) -> Callable[[], None]:
    """Plan the model's sensors; the function returned writes them in order.

    In the dialect :func:`read_sensor` reads, once ``w.pending`` is formatted. By columns:
    every sensor's ``<origin>`` (a link sensor's pose, an F/T sensor's pose in its child where
    the dialect needs it) is added to ``w.pending`` in one pass, the names quoted in one; each
    F/T sensor is first checked against its joint (:func:`_ft_layout`).

    Raises:
        URDFExportError: an F/T sensor's two poses disagree with its joint.
    """
    sensors = w.model.sensors
    layouts: list[_FTLayout | None] = []
    poses: list[Transform | None] = []
    t = w.model.traversal(w.base)
    for sen in sensors:
        if isinstance(sen, SixAxisForceTorqueSensor):
            layout = _ft_layout(w, sen, t)
            layouts.append(layout)
            poses.append(layout.child_H if layout.frame == "sensor" else None)
        else:
            layouts.append(None)
            poses.append(sen.link_H_sensor)
    written = [T for T in poses if T is not None]
    origin_texts = plan_origins(written, None, w.memo, w.pending)
    names = [sen.name for sen in sensors]
    qn = quote_names(names)
    quoted_links = quote_names([sen.link for sen in sensors if isinstance(sen, _ON_LINK)])
    kept = kept_blocks(w, "sensor", names, "    ")
    return lambda: _write_sensors(w, layouts, poses, qn, quoted_links, kept, origin_texts())


def _write_sensors(
    w: Writer,
    layouts: list[_FTLayout | None],
    poses: list[Transform | None],
    qn: list[str],
    quoted_links: list[str],
    kept: list[str],
    origin_texts: list[str],
) -> None:
    """Write the sensors planned by :func:`write_sensors`, once their origins are written."""
    sensors = w.model.sensors
    origins = iter(origin_texts)
    links = iter(quoted_links)
    out = w.out
    for k, sen in enumerate(sensors):
        ft = layouts[k]
        if ft is None:
            kind = "accelerometer" if isinstance(sen, Accelerometer) else "gyroscope"
            link = next(links)
            out.append(
                f'  <sensor name={qn[k]} type="{kind}">\n    <parent link={link}/>\n'
                f"    {next(origins)}{kept[k]}\n  </sensor>"
            )
        else:
            origin = next(origins) if poses[k] is not None else None
            out.append(_ft_xml(w, sen, qn[k], ft, origin, kept[k]))  # type: ignore[arg-type]


_ON_LINK = (Accelerometer, Gyroscope)


class _FTLayout(NamedTuple):
    """How an F/T sensor is written: ``<frame>``, ``<measure_direction>``, exactness, pose."""

    frame: str
    direction: str
    exact: bool
    child_H: Transform


def _ft_layout(w: Writer, s: SixAxisForceTorqueSensor, t: Traversal) -> _FTLayout:
    """Choose the ``<frame>`` that states an F/T sensor's two poses (checked against its joint).

    ``t``: the traversal from the export's base (taken once for all sensors).

    Raises:
        URDFExportError: the two poses disagree with the joint's rest transform.
    """
    m = w.model
    j = m.joint(s.parent_joint)
    p_i, c_i = m.joint_parent_child(s.parent_joint, t)
    parent, child = m.link_names[p_i], m.link_names[c_i]
    P = j.rest_transform(parent, child)
    parent_H = s.first_link_H_sensor if parent == s.first_link else s.second_link_H_sensor
    child_H = s.first_link_H_sensor if child == s.first_link else s.second_link_H_sensor
    product = None  # P @ child_H, computed at most once
    if _equal(child_H, _EYE) and _equal(parent_H, P):
        frame = "child"
    elif _equal(parent_H, _EYE) and _equal(child_H, P.inverse()):
        frame = "parent"
    else:
        frame = "sensor"
        product = P @ child_H
        if not _agrees(parent_H, product):
            raise w.fail(
                f"sensor {s.name!r}",
                f"the sensor poses in {parent!r} and {child!r} disagree with the rest "
                f"transform of joint {s.parent_joint!r}; the URDF dialect stores one "
                "pose, fix the sensor",
            )
    direction = "parent_to_child" if s.applied_wrench_link == child else "child_to_parent"
    # What the loader reads from this text (first = parent), when it can be told here:
    # P is the stored rest transform when the joint is written along its direction.
    exact = parent == j.link1 and s.first_link == parent
    if exact:
        P0 = j.link1_H_link2
        if frame == "child":
            exact = _equal(s.first_link_H_sensor, P0) and _equal(s.second_link_H_sensor, _EYE)
        elif frame == "parent":
            exact = _equal(s.first_link_H_sensor, _EYE) and _equal(
                s.second_link_H_sensor, P0.inverse()
            )
        else:  # P is P0 here
            exact = _equal(s.first_link_H_sensor, product if product is not None else P0 @ child_H)
    return _FTLayout(frame, direction, exact, child_H)


def _ft_xml(
    w: Writer,
    s: SixAxisForceTorqueSensor,
    name: str,
    layout: _FTLayout,
    origin: str | None,
    kept: str,
) -> str:
    """The ``<sensor>`` of F/T sensor ``s`` (``name`` quoted) laid out by :func:`_ft_layout`."""
    lines = [f'  <sensor name={name} type="force_torque">']
    if layout.exact:
        lines.append(f"    <parent joint={q(s.parent_joint)}/>")
    else:  # the exact links and poses, read by _exact_ft
        lines.append(
            f"    <parent joint={q(s.parent_joint)} {XMLNS} robomodel:first_link="
            f'{q(s.first_link)} robomodel:first_link_H_sensor="'
            f'{transform_text(s.first_link_H_sensor)}" robomodel:second_link_H_sensor="'
            f'{transform_text(s.second_link_H_sensor)}"/>'
        )
    lines.append("    <force_torque>")
    lines.append(f"      <frame>{layout.frame}</frame>")
    lines.append(f"      <measure_direction>{layout.direction}</measure_direction>")
    exts = w.kept.get(("force_torque", s.name)) if w.options.write_extensions else None
    if w.options.write_extensions:
        w.used.add(("force_torque", s.name))
    if exts:
        lines += ["      " + e.xml for e in exts]
    lines.append("    </force_torque>")
    if origin is not None:
        lines.append("    " + origin)
    return "\n".join(lines) + kept + "\n  </sensor>"


def _equal(a: Transform, b: Transform) -> bool:
    """``a == b``: the same elementwise float comparison (``-0.0 == 0.0``), as plain lists.

    ``Transform.__eq__`` goes through ``np.array_equal``, several Python-level numpy calls
    per array; the exporter compares each F/T sensor's poses up to five times.
    """
    same: bool = a.rotation.tolist() == b.rotation.tolist()
    return same and a.position.tolist() == b.position.tolist()


def _agrees(a: Transform, b: Transform) -> bool:
    """Whether ``a`` and ``b`` agree within ``1e-9`` (the position relative to ``a``'s size).

    Elementwise on plain floats, as :func:`_near`: numpy's calls on frozen 3x3 arrays cost
    more than the comparison.
    """
    pa, pb = a.position.tolist(), b.position.tolist()
    tol = 1e-9 * (1.0 + max(map(abs, pa)))
    ra = [v for row in a.rotation.tolist() for v in row]
    rb = [v for row in b.rotation.tolist() for v in row]
    return all(abs(u - v) <= 1e-9 for u, v in zip(ra, rb, strict=True)) and all(
        abs(u - v) <= tol for u, v in zip(pa, pb, strict=True)
    )
