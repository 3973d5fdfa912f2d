"""The URDF loader: ``load(path)`` and ``loads(text)`` return a :class:`~robomodel.model.Model`.

The loader reads what iDynTree's ``ModelLoader`` reads (links, inertials, visuals, collisions,
materials, fixed/revolute/continuous/prismatic joints, iDynTree's ``<sensor>`` dialect) and keeps
everything else verbatim in ``model.extensions``. Unlike iDynTree it is strict: every malformed
document raises a :class:`~robomodel.errors.URDFError` subclass naming ``file:line: element``,
and nothing is ever half-loaded.

Order (spec §7.7, deterministic instead of iDynTree's hash order): joints are connected moving
joints first, then fixed joints, each group in document order; massless leaf links on fixed
joints become frames; links are then numbered in traversal order from the root, joints as the
moving joints in traversal order followed by the fixed joints in traversal order. Frames are
grouped by link in traversal order: on each link the frames of its fake links (a fake root
first, then document order), then its sensor frames (F/T, accelerometers, gyroscopes).
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import Any

import attrs
from lxml import etree

from robomodel._bulk import gc_paused, trusted
from robomodel.errors import RobomodelError, RobomodelWarning, URDFError, suggest
from robomodel.joints import Joint
from robomodel.model import Extension, Frame, Link, Model
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import Material, Mesh, SolidShape
from robomodel.spatial import Transform
from robomodel.urdf._elements import (
    _build_joint,
    _joint,
    _link,
    _material,
    _moving_axes,
    _RawJoint,
    _RawLink,
    _RawSensor,
    _sensor,
)
from robomodel.urdf._reading import _Ctx, _DoubtError, _required, _sourced, canonical
from robomodel.urdf._sourced import SourcedInertia
from robomodel.urdf.errors import (
    URDFReferenceError,
    URDFSensorError,
    URDFSyntaxError,
    URDFTopologyError,
    URDFValueError,
)
from robomodel.urdf.options import LoadOptions

__all__ = ["load", "loads", "resolve_uri"]

_DEFAULT_OPTIONS = LoadOptions()
_local = threading.local()


def _parser() -> Any:
    # lxml parsers must not be shared between threads; one per thread, built once.
    p = getattr(_local, "parser", None)
    if p is None:
        p = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            huge_tree=False,
            remove_comments=True,
            remove_pis=True,
        )
        _local.parser = p
    return p


# ---------------------------------------------------------------------- public API
def load(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str] = (),
    resolver: Callable[[str], str] | None = None,
) -> Model:
    """Read the URDF file ``path`` and return its model.

    Args:
        path: the URDF file.
        options: see :class:`~robomodel.urdf.options.LoadOptions`.
        package_dirs: directories searched for ``package://`` and ``model://`` URIs; stored in
            ``model.package_dirs`` (mesh filenames stay verbatim).
        resolver: when given, every mesh filename is replaced by ``resolver(filename)`` (for
            example ``functools.partial(resolve_uri, dirs)``). Without it nothing is resolved.

    Raises:
        URDFError: a subclass naming ``file:line: element`` for every malformed document.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(name, "rb") as fh:
        data = fh.read()
    return _load_bytes(data, name, options, package_dirs, resolver)


def loads(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str] = (),
    resolver: Callable[[str], str] | None = None,
) -> Model:
    """Read a URDF document from ``text`` and return its model (see :func:`load`).

    ``filename`` is only used in error messages.

    >>> m = loads('''<robot name="r">
    ...   <link name="base"><inertial><mass value="1"/>
    ...     <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    ...   <link name="arm"><inertial><mass value="2"/>
    ...     <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    ...   <link name="tool"/>
    ...   <joint name="j" type="continuous"><parent link="base"/><child link="arm"/>
    ...     <axis xyz="0 0 1"/></joint>
    ...   <joint name="t" type="fixed"><parent link="arm"/><child link="tool"/></joint>
    ... </robot>''')
    >>> list(m.link_names), list(m.joint_names), m.frame_names, m.name
    (['base', 'arm'], ['j'], ['tool'], 'r')
    """
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    return _load_bytes(data, filename, options, package_dirs, resolver)


def resolve_uri(model_or_dirs: Model | Iterable[str], uri: str) -> str:
    """Return a local path for a mesh ``uri``, searching the given package directories.

    ``package://pkg/path`` and ``model://pkg/path`` are looked up as ``dir/pkg/path`` in each
    directory (the model's ``package_dirs`` when a model is given), ``file://`` URIs lose their
    scheme, and plain paths are returned unchanged. Only the directories given are searched;
    the environment is never consulted.

    Raises:
        URDFReferenceError: a ``package://`` or ``model://`` URI is not found in any directory.
    """
    dirs = list(model_or_dirs.package_dirs if isinstance(model_or_dirs, Model) else model_or_dirs)
    for scheme in ("package://", "model://"):
        if uri.startswith(scheme):
            rest = uri[len(scheme) :]
            for d in dirs:
                cand = os.path.normpath(os.path.join(d, rest))
                if os.path.exists(cand):
                    return cand
            raise URDFReferenceError(
                f"{uri!r} is not found in the package directories {dirs!r}; give the directory "
                "that contains the package folder",
                element="mesh",
            )
    if uri.startswith("file://"):
        return uri[len("file://") :]
    return uri


# ---------------------------------------------------------------------- the document
def _parse_xml(data: bytes, file: str) -> Any:
    if b"<!ENTITY" in data:
        raise URDFSyntaxError(
            "the document declares XML entities, which are refused (entity expansion attacks); "
            "remove the <!DOCTYPE> block",
            file=file,
            line=data[: data.find(b"<!ENTITY")].count(b"\n") + 1,
            element="<!DOCTYPE>",
        )
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno if isinstance(e.lineno, int) and e.lineno > 0 else None
        msg = getattr(e, "msg", str(e))
        raise URDFSyntaxError(
            f"not well-formed XML ({msg}); fix the markup", file=file, line=line, element="xml"
        ) from None
    info = root.getroottree().docinfo
    dtd = info.internalDTD
    if info.system_url or info.public_id or (dtd is not None and any(dtd.iterentities())):
        raise URDFSyntaxError(
            "the document refers to an external DTD or declares entities, which are refused; "
            "remove the <!DOCTYPE> line",
            file=file,
            line=1,
            element="<!DOCTYPE>",
        )
    if root.tag != "robot":
        raise URDFValueError(
            f"the root element is <{root.tag}>, not <robot>; is this a URDF file?",
            file=file,
            line=root.sourceline,
            element=f"<{root.tag}>",
        )
    return root


def _load_bytes(
    data: bytes,
    file: str,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    with gc_paused():  # the document's tree is freed inside the pause too
        return _load_document(data, file, options, package_dirs, resolver)


def _load_document(
    data: bytes,
    file: str,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    root = _parse_xml(data, file)
    plain = b"xmlns" not in data
    ctx = _Ctx(file, options.keep_extensions, plain)
    try:
        try:
            model = _build(ctx, root, options, package_dirs, resolver)
        except _DoubtError:
            # A number did not read: build again checking every number where it is read, which
            # raises the precise error of the first bad one in document order.
            ctx = _Ctx(file, options.keep_extensions, plain, eager=True)
            model = _build(ctx, root, options, package_dirs, resolver)
    except URDFError:
        raise
    except (RobomodelError, ValueError, TypeError) as e:
        # A value the element parsers did not anticipate (the core constructors check more);
        # report it as a URDF problem instead of leaking a model-building error.
        raise URDFValueError(f"{e}", file=file, element="robot") from e
    return model


def _build(
    ctx: _Ctx,
    root: Any,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    # Robot-level materials first: shapes may refer to a material defined after them.
    db: dict[str, Material] = {}
    materials: list[Material] = []
    for el in root.iterchildren("material"):
        name = _required(ctx, el, "material", "name")
        if name in db:
            raise ctx.err(
                URDFReferenceError, el, f"material {name!r}", "defined twice at robot level"
            )
        mat = _material(ctx, el, f"material {name!r}", None)
        db[name] = mat
        materials.append(mat)

    links: list[_RawLink] = []
    link_idx: dict[str, int] = {}
    joints: list[_RawJoint] = []
    joint_idx: dict[str, int] = {}
    sensors: list[_RawSensor] = []
    sensor_names: dict[str, _RawSensor] = {}
    for el in root:
        tag = el.tag
        if tag == "link":
            raw = _link(ctx, el, db)
            if raw.name in link_idx:
                raise ctx.err(
                    URDFReferenceError,
                    el,
                    f"link {raw.name!r}",
                    f"a second link with this name (the first is on line "
                    f"{links[link_idx[raw.name]].el.sourceline}); rename one",
                )
            link_idx[raw.name] = len(links)
            links.append(raw)
        elif tag == "joint":
            rj = _joint(ctx, el)
            if rj.name in joint_idx:
                raise ctx.err(
                    URDFReferenceError,
                    el,
                    f"joint {rj.name!r}",
                    f"a second joint with this name (the first is on line "
                    f"{joints[joint_idx[rj.name]].el.sourceline}); rename one",
                )
            joint_idx[rj.name] = len(joints)
            joints.append(rj)
        elif tag == "sensor":
            rs = _sensor(ctx, el)
            if rs is not None:
                if rs.name in sensor_names:
                    raise ctx.err(
                        URDFReferenceError,
                        el,
                        f"sensor {rs.name!r}",
                        f"a second sensor with this name (the first is on line "
                        f"{sensor_names[rs.name].el.sourceline}); rename one",
                    )
                sensor_names[rs.name] = rs
                sensors.append(rs)
        elif tag == "material":
            pass
        else:
            ctx.keep_ext("robot", "", el, ctx.exts)
    ctx.fill()

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
                stacklevel=5,
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
