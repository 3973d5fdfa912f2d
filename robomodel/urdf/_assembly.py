"""Assembling the URDF loader's element records into a model: topology, order, frames, sensors.

:mod:`robomodel.urdf.load` reads the document's elements into records
(:mod:`robomodel.urdf._elements`); :func:`assemble` checks the tree they form, removes fake
links (iDynTree's default), numbers links and joints in traversal order, re-homes what fake links
held, builds the sensors and their frames and puts the kept elements in canonical order.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import Any, NamedTuple

import attrs

from robomodel._construct import trusted
from robomodel.errors import RobomodelWarning, URDFError, suggest
from robomodel.joints import Joint
from robomodel.model import Extension, Frame, Link, Model
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import Material, Mesh, SolidShape
from robomodel.spatial import Transform
from robomodel.urdf._elements import _build_joint, _moving_axes, _RawJoint, _RawLink, _RawSensor
from robomodel.urdf._reading import _Ctx, _sourced, canonical
from robomodel.urdf._sourced import SourcedInertia
from robomodel.urdf.errors import (
    URDFReferenceError,
    URDFSensorError,
    URDFTopologyError,
)
from robomodel.urdf.options import LoadOptions


class Elements(NamedTuple):
    """What the element pass read, in document order, and the index of each link and joint."""

    materials: list[Material]
    links: list[_RawLink]
    link_idx: dict[str, int]
    joints: list[_RawJoint]
    joint_idx: dict[str, int]
    sensors: list[_RawSensor]


def assemble(
    ctx: _Ctx,
    root: Any,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
    read: Elements,
) -> Model:
    """Return the model of the element records ``read`` (see the module docstring).

    Raises:
        URDFError: the links and joints do not form one tree, or a reference is unknown.
    """
    materials, links, link_idx, joints, joint_idx, sensors = read
    if not links:
        raise URDFTopologyError(
            "the robot has no <link>; a model needs at least one link",
            file=ctx.file,
            line=root.sourceline,
            element="robot",
        )

    # ------------------------------------------------------------------ topology
    n = len(links)
    parent_joint: list[int] = [-1] * n
    ends: list[tuple[int, int]] = []  # per joint: its parent and child link indices
    for k, rj in enumerate(joints):
        p = link_idx.get(rj.parent, -1)
        c = link_idx.get(rj.child, -1)
        if p < 0 or c < 0:
            end = rj.parent if p < 0 else rj.child
            raise ctx.err(
                URDFReferenceError,
                rj.el,
                f"joint {rj.name!r}",
                f"unknown link {end!r}{suggest(end, link_idx)}; define <link name={end!r}>",
            )
        ends.append((p, c))
        if parent_joint[c] >= 0:
            first = joints[parent_joint[c]]
            raise ctx.err(
                URDFTopologyError,
                rj.el,
                f"joint {rj.name!r}",
                f"link {rj.child!r} already has the parent joint {first.name!r} (line "
                f"{first.el.sourceline}); a URDF link has one parent, remove one of the joints",
            )
        parent_joint[c] = k
    n_roots = parent_joint.count(-1)
    roots = [i for i, pj in enumerate(parent_joint) if pj < 0] if n_roots > 1 else []
    if not n_roots:
        raise _loop_error(ctx, links, joints, link_idx, parent_joint, 0)
    if n_roots > 1:
        names = [links[i].name for i in roots]
        shown = ", ".join(repr(x) for x in names[:6]) + (" ..." if len(names) > 6 else "")
        raise ctx.err(
            URDFTopologyError,
            links[roots[1]].el,
            f"link {names[1]!r}",
            f"the document has {len(names)} root links ({shown}); a URDF is one tree, connect "
            "them with joints or remove the extra ones",
        )
    root_i = parent_joint.index(-1)

    # Moving joints first, then fixed ones, each in document order (spec §7.7).
    fixed = [rj.kind == "fixed" for rj in joints]
    order = sorted(range(len(joints)), key=fixed.__getitem__)  # stable: document order kept
    adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k in order:
        p, c = ends[k]
        adj[p].append((c, k))
        adj[c].append((p, k))

    fake = [False] * n
    if options.remove_fake_links:
        # The joint of an F/T sensor keeps both its links (iDynTree drops every sensor then).
        ft_joints = {rs.parent_attr for rs in sensors if rs.kind == "force_torque"}
        for i, nbs in enumerate(adj):
            if len(nbs) == 1:
                inertia = links[i].inertia
                if inertia is None or not inertia.mass > 0.0:  # massless
                    k = nbs[0][1]
                    fake[i] = fixed[k] and joints[k].name not in ft_joints
        for i in range(n):
            # Two massless links joined by a fixed joint (the whole model): both look fake and
            # iDynTree fails. robomodel keeps one as the link: the one with an <inertial> if
            # only one has it (exported frames are bare links), else the child.
            if not fake[i]:
                continue
            o = adj[i][0][0]
            if fake[o]:
                has_i, has_o = links[i].inertia is not None, links[o].inertia is not None
                keep = (i if has_i else o) if has_i != has_o else (i if parent_joint[i] >= 0 else o)
                fake[keep] = False
    base = adj[root_i][0][0] if fake[root_i] else root_i

    # iDynTree's traversal (§3.1) over the links that stay links.
    t_links = [base]
    t_joint: list[int] = [-1]
    seen = [False] * n
    seen[base] = True
    stack: list[tuple[int, int]] = [(base, -1)]
    while stack:
        lk, par = stack.pop()
        for nb, k in adj[lk]:
            if nb == par or fake[nb]:
                continue
            seen[nb] = True
            t_links.append(nb)
            t_joint.append(k)
            stack.append((nb, lk))
    n_real = n - sum(fake)
    if len(t_links) != n_real:
        unreached = next(i for i in range(n) if not seen[i] and not fake[i])
        raise _loop_error(ctx, links, joints, link_idx, parent_joint, unreached)

    moving_order = [k for k in t_joint[1:] if not fixed[k]]
    fixed_order = [k for k in t_joint[1:] if fixed[k]]
    joint_order = moving_order + fixed_order
    # Each moving joint has one position coordinate and one DOF; the fixed ones come after all
    # of them. Built with their final offsets, the model constructor keeps the joints as given.
    n_moving = len(moving_order)
    built: dict[int, Joint] = {}
    axes = _moving_axes([joints[k] for k in moving_order])
    for offset, (k, axis) in enumerate(zip(moving_order, axes, strict=True)):
        built[k] = _build_joint(ctx, joints[k], offset, axis)
    for k in fixed_order:
        built[k] = _build_joint(ctx, joints[k], n_moving)

    # ------------------------------------------------------------------ frames of fake links
    link_names = [links[i].name for i in t_links]
    real_pos = {links[i].name: pos for pos, i in enumerate(t_links)}
    frames_on: list[list[Frame]] = [[] for _ in t_links]
    fake_frame: dict[str, Frame] = {}
    fake_of: dict[str, tuple[_RawLink, _RawJoint]] = {}  # frame name -> its link and joint
    markers: dict[str, Extension] = {}
    visuals: list[list[SolidShape]] = [list(links[i].visuals) for i in t_links]
    collisions: list[list[SolidShape]] = [list(links[i].collisions) for i in t_links]
    if n_real != n:
        fakes = list(compress(range(n), fake))
        if fake[root_i]:
            fakes.remove(root_i)
            fakes.insert(0, root_i)  # the fake root is the base's first frame
        for i in fakes:
            nb, k = adj[i][0]
            rj = joints[k]
            raw = links[i]
            fname = raw.name
            if rj.parent == fname:  # the fake root: its joint goes fake -> neighbour
                xyz, rpy, _ = rj.origin.urdf_origin
                T = _sourced(xyz, rpy, inverted=True)
            else:
                T = rj.origin
            owner = links[nb].name
            pos = real_pos[owner]
            fr = _FRAME(fname, owner, T)
            frames_on[pos].append(fr)
            fake_frame[fname] = fr
            fake_of[fname] = (raw, rj)
            if rj.name != fname + "_fixed_joint":
                markers[fname] = Extension(
                    owner_kind="frame",
                    owner=fname,
                    xml=f"<joint name={_quote(rj.name)}/>",
                    tag="joint",
                )
            if raw.visuals:
                visuals[pos] += [_moved(s, T) for s in raw.visuals]
            if raw.collisions:
                collisions[pos] += [_moved(s, T) for s in raw.collisions]

    # ------------------------------------------------------------------ sensors
    final_joints = {joints[k].name: k for k in joint_order}
    ft: list[Sensor] = []
    acc: list[Sensor] = []
    gyr: list[Sensor] = []
    ft_raw: list[_RawSensor] = []
    acc_raw: list[_RawSensor] = []
    gyr_raw: list[_RawSensor] = []
    for rs in sensors:
        if rs.kind == "force_torque":
            jk = final_joints.get(rs.parent_attr)
            if jk is None:
                raise ctx.err(
                    URDFSensorError,
                    rs.parent_el,
                    f"sensor {rs.name!r}",
                    f"unknown joint {rs.parent_attr!r}{suggest(rs.parent_attr, joint_idx)}",
                )
            rj = joints[jk]
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
            ft_raw.append(rs)
            ft.append(
                SixAxisForceTorqueSensor(
                    name=rs.name,
                    parent_joint=rj.name,
                    first_link=rj.parent,
                    second_link=rj.child,
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
            elif link not in real_pos:
                raise ctx.err(
                    URDFSensorError,
                    rs.parent_el,
                    f"sensor {rs.name!r}",
                    f"unknown link {link!r}{suggest(link, link_idx)}",
                )
            # Names were checked non-empty by the element parser and the link exists.
            if rs.kind == "accelerometer":
                acc.append(_ACCELEROMETER(rs.name, link, T_s))
                acc_raw.append(rs)
            else:
                gyr.append(_GYROSCOPE(rs.name, link, T_s))
                gyr_raw.append(rs)
    all_sensors = ft + acc + gyr

    # ------------------------------------------------------------------ sensor frames
    if options.add_sensor_frames and all_sensors:
        eye = Transform.identity()  # only compared against, never stored
        added: dict[str, tuple[str, Transform]] = {}
        moved: list[str] = []
        for sen in all_sensors:
            if isinstance(sen, SixAxisForceTorqueSensor):
                owner, T_f = sen.second_link, sen.second_link_H_sensor
            else:
                owner, T_f = sen.link, sen.link_H_sensor
            name = sen.name
            # The names taken so far: links, frames of fake links, sensor frames added.
            if name in real_pos:
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
            fr = _FRAME(name, owner, T_f)
            added[name] = (owner, T_f)
            frames_on[real_pos[owner]].append(fr)
        if moved:
            warnings.warn(
                f"{ctx.file}: no sensor frame added for {', '.join(repr(x) for x in moved)}: "
                "a link or frame with the same name already exists elsewhere",
                RobomodelWarning,
                stacklevel=6,
            )

    if resolver is not None:
        visuals = [[_resolved(s, resolver) for s in v] for v in visuals]
        collisions = [[_resolved(s, resolver) for s in c] for c in collisions]

    frames = [fr for group in frames_on for fr in group]
    jnames = [joints[k].name for k in joint_order]
    return Model(
        link_names=link_names,
        links=[_link_value(links[i].inertia) for i in t_links],
        joint_names=jnames,
        joints=[built[k] for k in joint_order],
        frames=frames,
        default_base=links[base].name,
        visuals=visuals,
        collisions=collisions,
        sensors=all_sensors,
        package_dirs=[str(d) for d in package_dirs],
        name=root.get("name", ""),
        materials=materials,
        extensions=_canonical_order(
            ctx.exts,
            [links[i] for i in t_links],
            [joints[k] for k in joint_order],
            [fr.name for fr in frames],
            fake_of,
            markers,
            ft_raw + acc_raw + gyr_raw,
        ),
    )


def _canonical_order(
    robot: list[Extension],
    links: list[_RawLink],
    joints: list[_RawJoint],
    frames: list[str],
    fake_of: dict[str, tuple[_RawLink, _RawJoint]],
    markers: dict[str, Extension],
    sensors: list[_RawSensor],
) -> list[Extension]:
    # The kept elements ordered by owner kind (robot, link, frame, joint, sensor), then by the
    # owner's place in the model (links, then frames by frame index; joints, then the fixed
    # joints of frames by frame index), document order within one owner: the order survives
    # writing, because the exporter writes owners in that order, not in the document's.
    # The children kept inside an owner's <inertial> or <force_torque> follow its own.
    out = list(robot)
    for raw in links:
        out += raw.exts
        out += raw.inertial_exts
    fakes = [fake_of[name] for name in frames if name in fake_of]
    for fake_link, _ in fakes:
        out += fake_link.exts
        out += fake_link.inertial_exts
    out += [markers[name] for name in frames if name in markers]
    for rj in joints:
        out += rj.exts
    for _, fake_joint in fakes:
        out += fake_joint.exts
    for rs in sensors:
        out += rs.exts
        out += rs.ft_exts
    return out


_ZERO_LINK = Link()
_LINK = trusted(Link)
_FRAME = trusted(Frame)
_ACCELEROMETER = trusted(Accelerometer)
_GYROSCOPE = trusted(Gyroscope)


def _link_value(inertia: SourcedInertia | None) -> Link:
    return _ZERO_LINK if inertia is None else _LINK(inertia)


def _moved(s: SolidShape, link_H_frame: Transform) -> SolidShape:
    return attrs.evolve(s, link_H_geometry=canonical(link_H_frame @ s.link_H_geometry))


def _resolved(s: SolidShape, resolver: Callable[[str], str]) -> SolidShape:
    g = s.geometry
    if not isinstance(g, Mesh):
        return s
    return attrs.evolve(s, geometry=Mesh(resolver(g.filename), g.scale))


def _same_place(s: Sensor, link: str, link_H_frame: Transform) -> bool:
    if isinstance(s, SixAxisForceTorqueSensor):
        if link == s.first_link:
            return _close(link_H_frame, s.first_link_H_sensor)
        return link == s.second_link and _close(link_H_frame, s.second_link_H_sensor)
    return link == s.link and _close(link_H_frame, s.link_H_sensor)


def _close(a: Transform, b: Transform) -> bool:
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


def _quote(s: str) -> str:
    return '"' + s.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;") + '"'


def _loop_error(
    ctx: _Ctx,
    links: Sequence[_RawLink],
    joints: Sequence[_RawJoint],
    link_idx: dict[str, int],
    parent_joint: list[int],
    start: int,
) -> URDFError:
    # Every link on the walk up from ``start`` has a parent; the walk must revisit a link.
    path: list[int] = []
    on_path: dict[int, int] = {}
    i = start
    while i not in on_path:
        on_path[i] = len(path)
        path.append(i)
        i = link_idx[joints[parent_joint[i]].parent]
    cycle = path[on_path[i] :]
    names = [joints[parent_joint[c]].name for c in cycle]
    j0 = joints[parent_joint[cycle[0]]]
    return ctx.err(
        URDFTopologyError,
        j0.el,
        f"joint {j0.name!r}",
        f"the joints {', '.join(repr(x) for x in names)} form a loop; a URDF is a tree, remove "
        "one of them",
    )
