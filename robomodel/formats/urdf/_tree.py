"""The kinematic tree: links and joints read into a model, and a model laid out as URDF.

Reading (:func:`assemble`): the element records of :mod:`robomodel.formats.urdf.load` must form one
tree; fake links (massless leaves on fixed joints, iDynTree's default) become frames of their
neighbour, carrying their shapes and link sensors along; links and joints are numbered in
traversal order from the root (the order rule is in :mod:`robomodel.formats.urdf.load`).

With ``<robomodel:order>`` (what the exporter writes by default) the document is in index order
instead: see :func:`_order_hint`.

Writing (:func:`write_tree`): in index order (see there), or iDynTree's ``ModelExporter``'s
layout: the optional
fake root frame first, then for each link of the traversal from the base its parent joint and
the link, then every other additional frame as a massless link on a fixed joint
``<frame>_fixed_joint`` (or the joint name the frame had in the document).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import Any, NamedTuple

import attrs
from lxml import etree
from pyrsistent import pvector

from robomodel._internal.construct import make
from robomodel.errors import URDFError, suggest
from robomodel.formats.urdf._document import XMLNS, Reader, Writer, fill, quote_names, rm
from robomodel.formats.urdf._extensions import canonical_order, frame_joint_marker, kept_blocks
from robomodel.formats.urdf._geometry import shape_values
from robomodel.formats.urdf._inertial import apply_exact_inertials
from robomodel.formats.urdf._joint import joint_blocks, joint_values, mimic_kept, release_elements
from robomodel.formats.urdf._link import link_blocks, link_shapes, link_value, write_bare_link
from robomodel.formats.urdf._origin import (
    apply_exact,
    canonical,
    inverted,
    origin_text,
    plan_origins,
)
from robomodel.formats.urdf._records import RawJoint, RawLink, RawSensor
from robomodel.formats.urdf._sensor import add_sensor_frames, sensor_values
from robomodel.formats.urdf._sources import element_lines, listening, note_sources
from robomodel.formats.urdf.errors import (
    URDFExportError,
    URDFReferenceError,
    URDFTopologyError,
    URDFValueError,
)
from robomodel.formats.urdf.options import LoadOptions
from robomodel.model.assembly import assemble as assembled
from robomodel.model.record import Extension, Frame, Model
from robomodel.model.shapes import Material, Mesh, SolidShape
from robomodel.model.spatial import Transform

__all__ = ["ORDER_TAG", "Elements", "assemble", "finish_order", "write_tree"]

_FRAME = make(Frame)
ORDER_TAG = rm("order")
"""``<robomodel:order links="N"/>``: the document lists the model in index order (see below)."""


class Elements(NamedTuple):
    """What the element pass read, in document order, and the index of each link and joint."""

    materials: list[Material]
    links: list[RawLink]
    link_idx: dict[str, int]
    joints: list[RawJoint]
    joint_idx: dict[str, int]
    sensors: list[RawSensor]


# ---------------------------------------------------------------------- reading
def _model_ends(
    tops: list[int],
    bottoms: list[int],
    in_model: list[RawJoint],
    joint_order: list[int],
    t_links: list[int],
    n: int,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each model joint's link1 and link2 indices in the model, for its adjacency lists.

    ``tops`` and ``bottoms`` are each joint's parent and child in document indices; the model's
    link ``p`` is the document's
    ``t_links[p]``. A joint read with robomodel's ``<child>`` marker goes from its child
    (link1) to its parent (before :func:`release_elements`, which drops the marker).
    """
    position = [0] * n
    for p, i in enumerate(t_links):
        position[i] = p
    ones: list[int] = []
    twos: list[int] = []
    for k, raw in zip(joint_order, in_model, strict=True):
        parent, child = tops[k], bottoms[k]
        if raw.reversed_el is not None:
            parent, child = child, parent
        ones.append(position[parent])
        twos.append(position[child])
    return tuple(ones), tuple(twos)


def assemble(
    r: Reader,
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
    if r.exact_origins:
        apply_exact(r)
    if r.exact_inertials:
        apply_exact_inertials(r)
    hint = _order_hint(r, root, len(links))
    n_links = None if hint is None else int(hint.get("links", ""))
    if not links:
        raise URDFTopologyError(
            "the robot has no <link>; a model needs at least one link",
            file=r.file,
            line=root.sourceline,
            element="robot",
        )

    # ------------------------------------------------------------------ one tree
    n = len(links)
    parent_joint: list[int] = [-1] * n
    # Per joint, its parent and child link indices: two lists of ints rather than pairs, which
    # would live through the assembly as one more object each for the garbage collector.
    tops: list[int] = []
    bottoms: list[int] = []
    for k, rj in enumerate(joints):
        p = link_idx.get(rj.parent, -1)
        c = link_idx.get(rj.child, -1)
        if p < 0 or c < 0:
            end = rj.parent if p < 0 else rj.child
            raise r.err(
                URDFReferenceError,
                rj.el,
                f"joint {rj.name!r}",
                f"unknown link {end!r}{suggest(end, link_idx)}; define <link name={end!r}>",
            )
        tops.append(p)
        bottoms.append(c)
        if parent_joint[c] >= 0:
            first = joints[parent_joint[c]]
            raise r.err(
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
        raise _loop_error(r, links, joints, link_idx, parent_joint, 0)
    if n_roots > 1:
        names = [links[i].name for i in roots]
        shown = ", ".join(repr(x) for x in names[:6]) + (" ..." if len(names) > 6 else "")
        raise r.err(
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
    # Per link, its joints; seen from link i, joint k leads to span[k] - i (its other end).
    span = [p + c for p, c in zip(tops, bottoms, strict=True)]
    adj: list[list[int]] = [[] for _ in range(n)]
    for k in order:
        adj[tops[k]].append(k)
        adj[bottoms[k]].append(k)

    # ------------------------------------------------------------------ fake links
    fake = [False] * n
    if n_links is not None:
        fake = [i >= n_links for i in range(n)]
        _check_frame_links(r, links, adj, span, fake, fixed, n_links)
    elif options.remove_fake_links:
        # The joint of an F/T sensor keeps both its links (iDynTree drops every sensor then).
        ft_joints = {rs.parent_attr for rs in sensors if rs.kind == "force_torque"}
        for i, nbs in enumerate(adj):
            if len(nbs) == 1:
                inertia = links[i].inertia
                if inertia is None or not inertia.mass > 0.0:  # massless
                    k = nbs[0]
                    fake[i] = fixed[k] and joints[k].name not in ft_joints
        for i in range(n):
            # Two massless links joined by a fixed joint (the whole model): both look fake and
            # iDynTree fails. robomodel keeps one as the link: the one with an <inertial> if
            # only one has it (exported frames are bare links), else the child.
            if not fake[i]:
                continue
            o = span[adj[i][0]] - i
            if fake[o]:
                has_i, has_o = links[i].inertia is not None, links[o].inertia is not None
                keep = (i if has_i else o) if has_i != has_o else (i if parent_joint[i] >= 0 else o)
                fake[keep] = False
    base = span[adj[root_i][0]] - root_i if fake[root_i] else root_i

    # ------------------------------------------------------------------ traversal order
    # iDynTree's traversal (§3.1) over the links that stay links.
    t_links = [base]
    t_joint: list[int] = [-1]
    seen = [False] * n
    seen[base] = True
    stack: list[tuple[int, int]] = [(base, -1)]
    while stack:
        lk, par = stack.pop()
        for k in adj[lk]:
            nb = span[k] - lk
            if nb == par or fake[nb]:
                continue
            seen[nb] = True
            t_links.append(nb)
            t_joint.append(k)
            stack.append((nb, lk))
    n_real = n - sum(fake)
    if len(t_links) != n_real:
        unreached = next(i for i in range(n) if not seen[i] and not fake[i])
        raise _loop_error(r, links, joints, link_idx, parent_joint, unreached)

    if n_links is not None:  # index order: the document's
        t_links = list(range(n_links))
        joint_order = sorted(t_joint[1:])
    else:
        moving_order = [k for k in t_joint[1:] if not fixed[k]]
        joint_order = moving_order + [k for k in t_joint[1:] if fixed[k]]
    in_model = [joints[k] for k in joint_order]
    # Only for a listening load_with_report: each element's line, before the joints drop theirs.
    lines = element_lines(links, joints, sensors) if listening() else None
    built = joint_values(r, in_model)
    joint_ends = _model_ends(tops, bottoms, in_model, joint_order, t_links, n)
    release_elements(in_model)  # before the model's values add to the peak

    # ------------------------------------------------------------------ frames of fake links
    link_names = [links[i].name for i in t_links]
    real_pos = {links[i].name: pos for pos, i in enumerate(t_links)}
    frames_on: list[list[Frame]] = [[] for _ in t_links]
    fake_frame: dict[str, Frame] = {}
    fake_of: dict[str, tuple[RawLink, RawJoint]] = {}  # frame name -> its link and joint
    markers: dict[str, Extension] = {}
    in_order: list[Frame] = []  # the frames of fake links, in document order
    # Only for a listening load_with_report: the records of each model link's shapes, in order.
    shape_raws = (
        [[links[i].visuals, links[i].collisions] for i in t_links] if lines is not None else None
    )
    # (Most links of a document have no shapes, or only visuals.)
    visuals = [shape_values(links[i].visuals) if links[i].visuals else [] for i in t_links]
    collisions = [shape_values(links[i].collisions) if links[i].collisions else [] for i in t_links]
    if n_real != n:
        fakes = list(compress(range(n), fake))
        if fake[root_i] and n_links is None:
            fakes.remove(root_i)
            fakes.insert(0, root_i)  # the fake root is the base's first frame
        for i in fakes:
            k = adj[i][0]
            nb = span[k] - i
            rj = joints[k]
            raw = links[i]
            fname = raw.name
            # The fake root: its joint goes fake -> neighbour.
            T = inverted(rj.origin) if rj.parent == fname else rj.origin
            owner = links[nb].name
            pos = real_pos[owner]
            fr = _FRAME(fname, owner, T)
            frames_on[pos].append(fr)
            in_order.append(fr)
            fake_frame[fname] = fr
            fake_of[fname] = (raw, rj)
            if rj.name != fname + "_fixed_joint":
                markers[fname] = frame_joint_marker(fname, rj.name)
            if raw.visuals:
                visuals[pos] += [_moved(s, T) for s in shape_values(raw.visuals)]
            if raw.collisions:
                collisions[pos] += [_moved(s, T) for s in shape_values(raw.collisions)]
            if shape_raws is not None:
                shape_raws[pos] = [
                    [*shape_raws[pos][0], *raw.visuals],
                    [*shape_raws[pos][1], *raw.collisions],
                ]

    # ------------------------------------------------------------------ sensors
    model_joints = {joints[k].name: joints[k] for k in joint_order}
    all_sensors, sensor_raws = sensor_values(
        r, sensors, model_joints, real_pos, fake_frame, joint_idx, link_idx, n_links is not None
    )
    # In index order the document lists every frame: sensor frames are frames like the others.
    if options.add_sensor_frames and all_sensors and n_links is None:
        add_sensor_frames(r, all_sensors, real_pos, fake_frame, frames_on)

    if resolver is not None:
        visuals = [[_resolved(s, resolver) for s in v] for v in visuals]
        collisions = [[_resolved(s, resolver) for s in c] for c in collisions]

    if lines is not None and shape_raws is not None:
        note_sources(r, lines, dict(zip(link_names, shape_raws, strict=True)))

    # ------------------------------------------------------------------ the model
    frames = in_order if n_links is not None else [fr for group in frames_on for fr in group]
    # Trusted assembly: the passes above proved what Model(...) would check again. Link names
    # are non-empty and unique in the document; frames are fake links (named like no model
    # link) or sensor frames whose names add_sensor_frames found free, each on a model link;
    # the joints form one tree over the model's links (the traversal reached every link), in
    # order with their running offsets (joint_values), names unique in the document; sensors
    # have unique names and refer to model joints and to the links of those joints, or to
    # model links (sensor_values); the base is a model link.
    return assembled(
        link_names=link_names,
        links=[link_value(links[i].inertia) for i in t_links],
        joint_names=[joints[k].name for k in joint_order],
        joints=built,
        frames=frames,
        default_base=links[base].name,
        joint_ends=joint_ends,
        visuals=[pvector(v) for v in visuals],
        collisions=[pvector(c) for c in collisions],
        sensors=all_sensors,
        package_dirs=pvector([str(d) for d in package_dirs]),
        name=root.get("name", ""),
        materials=pvector(materials),
        extensions=_ordered(
            r,
            hint,
            canonical_order(
                r.exts,
                [links[i] for i in t_links],
                [joints[k] for k in joint_order],
                [fr.name for fr in frames],
                fake_of,
                markers,
                sensor_raws,
            ),
        ),
    )


def _order_hint(r: Reader, root: Any, n: int) -> Any:
    """Return the document's ``<robomodel:order>`` (its ``links`` checked), ``None`` without.

    With it, the document lists the model in index order: its first ``links`` ``<link>``
    elements are the links, the others the frames (massless leaves on fixed joints), each kind
    in document order, and so are the joints between links and the sensors; no sensor frame is
    added (the document lists every frame). Its optional ``extensions`` gives the order of the
    kept elements (:func:`_extension_order`). Written by :func:`write_tree` in index order.
    """
    if r.plain:  # no namespace declared anywhere: no robomodel element either
        return None
    el = root.find(ORDER_TAG)
    if el is None:
        return None
    r.exts[:] = [e for e in r.exts if e.tag != ORDER_TAG]  # not a kept element
    text = el.get("links", "")
    if not text.isdigit() or not 1 <= int(text) <= n:
        raise r.err(
            URDFValueError,
            el,
            "robomodel:order",
            f"links={text!r} must count the document's first links (1 to {n}); fix or remove "
            "the element",
        )
    return el


def _ordered(r: Reader, hint: Any, exts: list[Extension]) -> list[Extension]:
    """Return the kept elements ``exts`` in the order of the hint's ``extensions``, if any."""
    text = None if hint is None else hint.get("extensions")
    if text is None or not r.keep:
        return exts
    parts = text.split()
    if sorted(parts, key=lambda p: int(p) if p.isdigit() else -1) != [
        str(k) for k in range(len(exts))
    ]:
        raise r.err(
            URDFValueError,
            hint,
            "robomodel:order",
            f"extensions={text!r} is not an order of the document's {len(exts)} kept elements; "
            "fix or remove the attribute",
        )
    return [exts[int(p)] for p in parts]


def finish_order(w: Writer) -> None:
    """Add the kept elements' order to ``<robomodel:order>`` (after everything is written).

    Only when every kept element of the model reads back exactly once: none is left out (an
    owner the model no longer has, which the exporter warns about), a frame has at most one
    joint name that is not the default, and a joint's ``<mimic>`` was written from its kept
    text. Otherwise the loader's order by owner applies.
    """
    if w.order_line < 0 or not w.options.write_extensions:
        return
    m = w.model
    if not w.kept.keys() <= w.used:
        return
    named: set[str] = set()
    for e in m.extensions:
        if e.owner_kind == "frame" and e.tag == "joint":
            if (
                e.owner in named
                or not m.is_frame_name_used(e.owner)
                or w.frame_joint.get(e.owner) == e.owner + "_fixed_joint"
            ):
                return
            named.add(e.owner)
        elif e.owner_kind == "joint" and e.tag == "mimic" and not mimic_kept(w, e):
            return
    order = _extension_order(m)
    if order:
        line = w.out[w.order_line]
        w.out[w.order_line] = line[:-2] + f' extensions="{order}"/>'


_ROBOT_KEY = (0, 0, 0)


def _extension_order(m: Model) -> str:
    """The ``extensions`` of ``<robomodel:order>``: where each kept element of ``m`` lands.

    The loader lists kept elements by owner
    (:func:`robomodel.formats.urdf._extensions.canonical_order`
    on a document in index order: the robot, each link with its inertial, each frame's link,
    the frames' joint names, the joints, the frames' joints, each sensor with its F/T part),
    in document order within one owner, which the exporter writes in model order (a kept
    ``<mimic>`` first). Empty when that is already the model's order.
    """
    exts = m.extensions
    if len(exts) < 2:
        return ""
    # One pass over the kept elements, without a call per element, looking owners up in the
    # model's own name tables (made by its index; no table is built here: a robot has hundreds
    # of frames). A table may hold names appended after this model's: an index at or beyond
    # the count is not the model's.
    links, n_links = m._l.table(), len(m.links)
    joints, n_joints = m._j.table(), len(m.joints)
    frames, n_frames = m._f.table(), len(m.frames)
    sensors, n_sensors = m._s.table(), len(m.sensors)

    def frame_of(name: str) -> int:
        k = frames.get(name, n_frames)
        return k if k < n_frames else -1

    # The joints of frames named in the document (usually none); the others are
    # <frame>_fixed_joint.
    named = {
        etree.fromstring(x.xml).get("name", ""): frame_of(x.owner)
        for x in exts
        if x.owner_kind == "frame" and x.tag == "joint"
    }
    keys: list[tuple[int, int, int]] = []
    for e in exts:
        kind, owner = e.owner_kind, e.owner
        if kind == "robot":  # (most kept elements of a robot: <gazebo>, <transmission>)
            keys.append(_ROBOT_KEY)
        elif kind == "joint":
            i = joints.get(owner, n_joints)
            if i < n_joints:
                keys.append((4, i, 0 if e.tag == "mimic" else 1))
            elif owner in named:
                keys.append((5, named[owner], 0))
            elif owner.endswith("_fixed_joint"):
                keys.append((5, frame_of(owner[: -len("_fixed_joint")]), 0))
            else:
                keys.append((5, -1, 0))
        elif kind == "link" or kind == "inertial":
            i = links.get(owner, n_links)
            sub = 0 if kind == "link" else 1
            keys.append((1, i, sub) if i < n_links else (2, frame_of(owner), sub))
        elif kind == "frame":
            keys.append((3, frame_of(owner), 0))
        else:  # a sensor's, or its <force_torque>'s
            i = sensors.get(owner, n_sensors)
            keys.append((6, i if i < n_sensors else -1, 0 if kind == "sensor" else 1))
    if keys == sorted(keys):  # already in the loader's order (a stable sort keeps it)
        return ""
    landing = sorted(range(len(exts)), key=keys.__getitem__)
    where = [0] * len(exts)
    for pos, i in enumerate(landing):
        where[i] = pos
    return " ".join(map(str, where))


def _check_frame_links(
    r: Reader,
    links: Sequence[RawLink],
    adj: list[list[int]],
    span: list[int],
    fake: list[bool],
    fixed: list[bool],
    n_links: int,
) -> None:
    """Refuse a link listed as a frame that is not a massless leaf on a fixed joint to a link."""
    for i in range(n_links, len(links)):
        nbs = adj[i]
        inertia = links[i].inertia
        if not (
            len(nbs) == 1
            and fixed[nbs[0]]
            and not fake[span[nbs[0]] - i]
            and (inertia is None or not inertia.mass > 0.0)
        ):
            raise r.err(
                URDFTopologyError,
                links[i].el,
                f"link {links[i].name!r}",
                f'<robomodel:order links="{n_links}"/> makes this link a frame, but it is not '
                "a massless leaf on a fixed joint to a link; fix the count or remove the element",
            )


def _moved(s: SolidShape, link_H_frame: Transform) -> SolidShape:
    return attrs.evolve(s, link_H_geometry=canonical(link_H_frame @ s.link_H_geometry))


def _resolved(s: SolidShape, resolver: Callable[[str], str]) -> SolidShape:
    g = s.geometry
    if not isinstance(g, Mesh):
        return s
    return attrs.evolve(s, geometry=Mesh(resolver(g.filename), g.scale))


def _loop_error(
    r: Reader,
    links: Sequence[RawLink],
    joints: Sequence[RawJoint],
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
    return r.err(
        URDFTopologyError,
        j0.el,
        f"joint {j0.name!r}",
        f"the joints {', '.join(repr(x) for x in names)} form a loop; a URDF is a tree, remove "
        "one of them",
    )


# ---------------------------------------------------------------------- writing
def write_tree(w: Writer, base: str) -> Callable[[], None]:
    """Plan the links, joints and frames of the model, the URDF root being link ``base``.

    Their numbers go to ``w.pending``; the function returned writes them to ``w.out`` once
    ``w.pending`` is formatted.

    In index order (the default, :attr:`DumpOptions.order`): ``<robomodel:order>``, the links
    by link index, the joints by joint index, the frames by frame index, so that the loader
    gives every element its index again (:func:`_order_hint`). In iDynTree's order: see the
    module docstring; the loader then numbers them by its traversal rule.

    Each kind is written by columns (:func:`link_blocks`, :func:`joint_blocks`,
    :func:`_frame_blocks`), every ``<origin>`` of the tree in one pass (:func:`plan_origins`).

    Raises:
        URDFExportError: some links are not reachable from ``base``, a moving joint's axis
            does not pass through its child's origin, a shape's name holds control characters,
            or a generated joint name is already used (the first problem in document order).
    """
    m = w.model
    t = m.traversal(base)
    if len(t) != m.n_links:
        missing = [n for i, n in enumerate(m.link_names) if not t.contains(i)]
        raise w.fail(
            "robot",
            f"links not reachable from the base {base!r}: "
            f"{', '.join(repr(x) for x in missing[:8])}; a URDF is one tree, connect them "
            "or remove them (e.g. with a sub-model) before exporting",
        )
    n = m.n_links
    by_index = w.options.order == "index"
    root_frame = -1
    if w.options.export_first_base_link_frame_as_fake_urdf_base:
        # The base's first frame: the frames' links scanned by list.index, in C.
        frame_links = [fr.link for fr in m.frames]
        if base in frame_links:
            root_frame = frame_links.index(base)
            # In index order a frame whose inverse no numbers state exactly is written as a
            # child, which reads back to the same model (the frame order is the document's).
            if by_index and origin_text(m.frames[root_frame].link_H_frame, True, w.memo) is None:
                root_frame = -1

    # ------------------------------------------------------------------ what goes where
    names = m.link_names
    if by_index:  # links and joints by index (each joint from its traversal parent)
        lis: list[int] = list(range(n))
        ends: list[tuple[int, int]] = [(0, 0)] * m.n_joints
        for k in range(1, len(t)):
            j, p = t.joints[k], t.parents[k]
            assert j is not None and p is not None
            ends[j] = (p, t.links[k])
        js = list(range(m.n_joints))
        parents = [names[p] for p, _ in ends]
        children = [names[c] for _, c in ends]
        front: list[int] = []
        back = list(range(len(m.frames)))
    else:  # the traversal: each link after the joint from its parent
        lis = list(t.links)
        js = [j for j in t.joints[1:] if j is not None]
        parents = [names[p] for p in t.parents[1:] if p is not None]
        children = [names[li] for li in t.links[1:]]
        front = [root_frame] if root_frame >= 0 else []
        back = [k for k in range(len(m.frames)) if k != root_frame]

    # ------------------------------------------------------------------ every origin at once
    shapes_of = link_shapes(m, lis)  # each shape's tag, the shape and its link
    shapes = shapes_of[1]
    joints = [m.joints[j] for j in js]
    frame_ks = front + back
    origins = plan_origins(
        [s.link_H_geometry for s in shapes]
        + [jt.link1_H_link2 for jt in joints]
        + [m.frames[k].link_H_frame for k in frame_ks],
        [False] * len(shapes)
        + [p != jt.link1 for jt, p in zip(joints, parents, strict=True)]
        + [k == root_frame for k in frame_ks],
        w.memo,
        w.pending,
    )
    n_shapes, n_js = len(shapes), len(js)

    # ------------------------------------------------------------------ the elements' numbers
    written: set[str] = set()  # the joint names of the frames written so far
    if by_index:
        links = link_blocks(w, lis, shapes_of)
        joint_texts = joint_blocks(w, js, parents, children)
        back_frames = _frame_blocks(w, back, root_frame, base, written)

        def write_by_index() -> None:
            o = origins()
            # Its extensions attribute is added once the kept elements are written
            # (finish_order).
            w.order_line = len(w.out)
            w.out.append(f'  <robomodel:order {XMLNS} links="{n}"/>')
            w.out += links(o[:n_shapes])
            w.out += joint_texts(o[n_shapes : n_shapes + n_js])
            w.out += back_frames(o[n_shapes + n_js :])

        return write_by_index
    front_frames = _frame_blocks(w, front, root_frame, base, written)
    try:
        links = link_blocks(w, lis, shapes_of)
        joint_texts = joint_blocks(w, js, parents, children)
    except URDFExportError:
        _raise_first(w, lis, js, parents, children)
        raise
    back_frames = _frame_blocks(w, back, root_frame, base, written)

    def write_by_traversal() -> None:
        o = origins()
        frame_origins = o[n_shapes + n_js :]
        w.out += front_frames(frame_origins[: len(front)])
        link_texts = links(o[:n_shapes])
        w.out.append(link_texts[0])
        for joint, link in zip(
            joint_texts(o[n_shapes : n_shapes + n_js]), link_texts[1:], strict=True
        ):
            w.out.append(joint)
            w.out.append(link)
        w.out += back_frames(frame_origins[len(front) :])

    return write_by_traversal


def _raise_first(
    w: Writer,
    lis: list[int],
    js: list[int],
    parents: list[str],
    children: list[str],
) -> None:
    """Raise the first export error of the links and joints in iDynTree's order, if any.

    The link ``lis[k]`` follows the joint ``js[k - 1]`` in the document.
    """
    for k, li in enumerate(lis):
        if k:
            joint_blocks(w, js[k - 1 : k], parents[k - 1 : k], children[k - 1 : k])
        link_blocks(w, [li])


def _frame_blocks(
    w: Writer,
    ks: list[int],
    root_frame: int,
    base: str,
    written: set[str],
) -> Callable[[Sequence[str]], list[str]]:
    """Return the function giving frames ``ks`` (frame positions, in order) from their origins.

    Each frame is a massless link on a fixed joint. Frame ``root_frame`` is the fake URDF
    root, the parent of link ``base``; the function takes the frames' ``<origin>`` (the root's
    inverted); ``written`` holds the joint names of the frames written before, which this adds
    to. The whole group is written at once, each name quoted once.

    Raises:
        URDFExportError: a frame's joint name is already used by a joint or another frame.
    """
    m = w.model
    sel = [m.frames[k] for k in ks]
    fnames = [fr.name for fr in sel]
    jnames = _frame_joint_names(w, fnames)
    joint_names = m.joint_names
    if (
        len(set(jnames)) < len(jnames)
        or (written and not written.isdisjoint(jnames))
        or not set(joint_names).isdisjoint(jnames)
    ):
        used = set(joint_names) | written
        for fname, jn in zip(fnames, jnames, strict=True):
            if jn in used:
                raise w.fail(
                    f"frame {fname!r}",
                    f"the generated joint name {jn!r} is already used by another joint; "
                    "rename the frame or the joint",
                )
            used.add(jn)
    written.update(jnames)
    qf = quote_names(fnames)
    # The default joint name only adds plain characters to the frame's: its quoted text is the
    # frame's with them added (no second pass over the names).
    qj = quote_names(jnames) if w.frame_joint else [x[:-1] + '_fixed_joint"' for x in qf]
    # Frames share their links (hundreds of frames on a few dozen links): each distinct link
    # name is quoted once.
    plinks = [fr.link for fr in sel]
    distinct = list(dict.fromkeys(plinks))
    qp = list(map(dict(zip(distinct, quote_names(distinct), strict=True)).__getitem__, plinks))
    parents, children = qp, qf
    if root_frame in ks:  # the fake root: its joint goes frame -> base
        i = ks.index(root_frame)
        parents, children = list(qp), list(qf)
        parents[i], children[i] = qf[i], quote_names([base])[0]
    kept = w.kept if w.options.write_extensions else {}
    more = {owner for kind, owner in kept if kind == "link" or kind == "inertial"}
    kept_joints = kept_blocks(w, "joint", jnames, "    ")
    if not ks:
        return lambda origins: []
    if more.isdisjoint(fnames):  # bare links: the link's name is one more column
        return lambda origins: fill(
            _BARE_FRAME_PARTS, qf, qj, origins, parents, children, kept_joints
        )
    links = fill(("  <link name=", "/>"), qf)
    for i, fname in enumerate(fnames):
        if fname in more:  # a link kept with more than its name
            start = len(w.out)
            write_bare_link(w, fname)
            links[i] = "\n".join(w.out[start:])
            del w.out[start:]
    return lambda origins: fill(_FRAME_PARTS, links, qj, origins, parents, children, kept_joints)


_FRAME_PARTS = (
    "",
    "\n  <joint name=",
    ' type="fixed">\n    ',
    "\n    <parent link=",
    "/>\n    <child link=",
    "/>",
    "\n  </joint>",
)
"""The parts of a frame's text around its columns (:func:`_frame_blocks`)."""
_BARE_FRAME_PARTS = ("  <link name=", "/>" + _FRAME_PARTS[1], *_FRAME_PARTS[2:])
""":data:`_FRAME_PARTS` with the frame's link written bare, around its quoted name."""


def _frame_joint_names(w: Writer, fnames: list[str]) -> list[str]:
    """The URDF joint name of each frame of ``fnames``: ``<frame>_fixed_joint`` or its own.

    The default names are cut from one text (frame names are printable: none holds NUL);
    the names the document gave (``w.frame_joint``, usually none) then replace theirs.
    """
    if not fnames:
        return []
    jnames = ("_fixed_joint\0".join(fnames) + "_fixed_joint").split("\0")
    if len(jnames) != len(fnames):  # a name with NUL after all (a model built unchecked)
        jnames = [n + "_fixed_joint" for n in fnames]
    own = w.frame_joint
    if own:
        jnames = [own.get(n, d) for n, d in zip(fnames, jnames, strict=True)]
    return jnames
