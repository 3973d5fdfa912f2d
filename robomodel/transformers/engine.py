"""The shared engine of the model transformers: split a model along joints and lump each part.

:func:`reduce_model`, :func:`normalize_joint_order`, :func:`make_urdf_compatible`,
:func:`remove_additional_frames` and :func:`remove_fake_links` are all one call of :func:`lump`
with different inputs, as in iDynTree (``createReducedModelAndChangeLinkFrames``). It runs in
named phases, each a function of the values the previous ones returned:

1. **Split** the traversal from the base into parts (:func:`~robomodel.transformers._parts.split`):
   the base starts part 0; every link whose joint to its traversal parent is *kept* starts a
   new part; every other link joins its parent's part.
2. **Poses**: ``newLink_H_link`` of every old link, with the removed joints at their locked
   positions (:class:`~robomodel.transformers._link_poses.LinkPoses`). The new link frame is
   the old frame of the part's first link, optionally moved by ``moves``.
3. **Links**: each part becomes one link named after its first link, whose inertia is the
   composite rigid body of the part.
4. **Frames and shapes**: every lumped link becomes an additional frame of the new link, and
   every additional frame, visual and collision shape of a member is re-expressed on it.
5. **Joints**: the kept joints, in the order given, connect the new links; their rest transforms
   and axes are re-expressed in the new link frames (each keeps its link1/link2 order) and their
   position-coordinate and DOF offsets are the running totals in the new order.
6. **Sensors** follow their links by name; their poses are re-expressed like frames. An F/T
   sensor whose joint was lumped no longer measures anything: what happens to it is the caller's
   ``lumped_sensors`` choice, never a silent drop.
7. **Assemble** the model.

Differences from iDynTree, all deliberate: unreachable links, unknown or duplicate joint names and
wrongly sized locked positions raise; sensors on moved links are re-expressed (iDynTree bug B7);
package dirs, robot name, materials and extensions are carried (B11); the applied-wrench link of an
F/T sensor follows by name only (B6); the documented ``<link>_original_frame`` frames can be added
(B8).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Literal, TypeAlias

import numpy as np

from robomodel._internal.construct import replace
from robomodel.errors import TopologyError, UnknownNameError, warn
from robomodel.model.assembly import assemble
from robomodel.model.joints import FixedJoint, Joint
from robomodel.model.record import Extension, Frame, Link, Model
from robomodel.model.sensors import Sensor
from robomodel.model.spatial import FloatArray, Transform
from robomodel.model.topology import JointEnds
from robomodel.model.traversal import Traversal
from robomodel.transformers._attached import frames_and_shapes, moved_sensors
from robomodel.transformers._link_poses import LinkPoses, unchanged_by_massless
from robomodel.transformers._parts import NewLinks, Split, split
from robomodel.transformers.report import record, recording

__all__ = [
    "LUMPED_SENSORS",
    "LumpedSensors",
    "Split",
    "check_reachable",
    "lump",
    "split",
]

LumpedSensors: TypeAlias = Literal["warn", "raise", "drop"]
"""What to do with an F/T sensor whose joint is lumped away (see :func:`lump`)."""

LUMPED_SENSORS: tuple[LumpedSensors, ...] = ("warn", "raise", "drop")
"""The values of a ``lumped_sensors`` option, for ``check_choice``."""


def check_reachable(model: Model, traversal: Traversal, step: str) -> None:
    """Raise :class:`TopologyError` naming the links ``traversal`` does not reach."""
    if len(traversal) != model.n_links:
        missing = [n for i, n in enumerate(model.link_names) if not traversal.contains(i)]
        base = model.link_names[traversal.base]
        raise TopologyError(
            f"{step}: links {', '.join(map(repr, missing))} are not connected to the base "
            f"{base!r}; connect them with a joint, or take the connected part first with "
            "extract_submodel(model, model.traversal())"
        )


def lump(
    model: Model,
    *,
    kept: Sequence[str],
    step: str,
    positions: FloatArray | None = None,
    moves: Mapping[str, Transform] | None = None,
    base: str | None = None,
    parts: Split | None = None,
    keep_frames: Collection[str] | None = None,
    original_frames: bool = False,
    link_order: Literal["traversal", "input"] = "traversal",
    frame_order: Literal["traversal", "input"] = "traversal",
    lumped_sensors: LumpedSensors = "warn",
) -> Model:
    """Return ``model`` reduced to the joints ``kept`` (names, in that order).

    The options are the callers' checked values; what is done is recorded with
    :func:`~robomodel.transformers.report.record`.

    Args:
        model: the input model.
        kept: the joints of the result, in order, each once; the others are lumped.
        step: the transformer's name, used in messages.
        positions: joint positions in the model's coordinate order (from
            :func:`robomodel.physics.joint_state.joint_values`); lumped moving joints are rigid
            at them (``None``: at 0).
        moves: new link frames: link name -> ``newLink_H_oldLink`` (only part bases count;
            identities are ignored).
        base: the traversal base (default: the model's default base); the result's default base.
        parts: the split along ``kept`` from ``base``, when the caller knows it (it then also
            vouches that every link is connected and that something changes): no traversal
            is made. :func:`remove_fake_links` knows it from its fake links.
        keep_frames: if given, only additional frames with these names survive (link frames
            of lumped links included, as in iDynTree).
        original_frames: add a frame ``<link>_original_frame`` at the old pose of each moved
            link frame.
        link_order: ``"traversal"`` (iDynTree) or ``"input"`` (parts ordered by their base's
            input index).
        frame_order: ``"traversal"`` (per part, each member's frame then its additional
            frames, as iDynTree) or ``"input"`` (frames of lumped links in input link order,
            then the input's additional frames in input order).
        lumped_sensors: for F/T sensors whose joint is lumped: ``"warn"`` (drop and warn),
            ``"raise"`` or ``"drop"`` (quietly). Their pose stays as a frame named after them.

    Raises:
        TopologyError: a link is not connected to the base.
        UnknownNameError: a kept joint does not exist.
        ModelError: an F/T sensor is lumped and ``lumped_sensors == "raise"``; a frame name
            would be used twice.
    """
    # Normalise the options against the model.
    if model.n_links == 0:
        if kept:
            raise UnknownNameError("joint", kept[0], ())
        return model
    kept_idx = _joint_indices(model, kept)
    moves = {k: T for k, T in (moves or {}).items() if not _is_identity(T)}
    if keep_frames is not None and not isinstance(keep_frames, (set, frozenset)):
        keep_frames = frozenset(keep_frames)
    if parts is None:
        traversal = model.traversal(base)
        check_reachable(model, traversal, step)
        if _unchanged(model, traversal, kept_idx, moves, keep_frames, frame_order):
            return model
        # Split the links into parts along the kept joints: each part becomes one link.
        parts = split(model, frozenset(kept_idx), traversal)
        base = model.link_names[traversal.base]
    elif base is None:
        base = model.link_names[model.default_base_index]
    q = None if positions is None else positions.tolist()
    return _lumped(
        model,
        parts,
        base,
        kept,
        kept_idx,
        q,
        moves,
        keep_frames,
        original_frames,
        link_order,
        frame_order,
        lumped_sensors,
        step,
    )


def _lumped(
    model: Model,
    parts: Split,
    base: str,
    kept: Sequence[str],
    kept_idx: list[int],
    q: list[float] | None,
    moves: Mapping[str, Transform],
    keep_frames: Collection[str] | None,
    original_frames: bool,
    link_order: Literal["traversal", "input"],
    frame_order: Literal["traversal", "input"],
    lumped_sensors: LumpedSensors,
    step: str,
) -> Model:
    """The phases of :func:`lump` on its normalised options and split."""
    # Where every old link frame is in its new link.
    poses = LinkPoses.of_parts(model, parts, q, moves)
    del q, moves  # no longer needed: the poses hold their effect
    # One link per part, the composite rigid body of its members.
    links = _new_links(model, parts, poses, link_order)
    # Additional frames (lumped links become some) and shapes follow their links.
    attached = frames_and_shapes(
        model,
        links,
        poses,
        keep=keep_frames,
        original_frames=original_frames,
        frame_order=frame_order,
        step=step,
    )
    # The kept joints between the new links, with their offsets in the new order.
    joints, joint_ends = _kept_joints(model, links, poses, kept, kept_idx, step)
    # Sensors follow their links; those in lumped joints go by the lumped_sensors policy.
    sensors = moved_sensors(
        model,
        links,
        poses,
        kept=frozenset(kept_idx),
        policy=lumped_sensors,
        attached=attached,
        step=step,
    )
    del poses

    link_names = [links.names[s] for s in links.order]
    frames = [*attached.frames, *sensors.frames]
    # Assemble the result: every check of Model(...) holds by construction from a valid input.
    return assemble(
        link_names=link_names,
        links=links.links,
        joint_names=kept,
        joints=joints,
        frames=frames,
        default_base=base,
        visuals=attached.visuals,
        collisions=attached.collisions,
        sensors=sensors.sensors,
        package_dirs=model.package_dirs,
        name=model.name,
        materials=model.materials,
        extensions=_carried_extensions(model, link_names, kept, frames, sensors.sensors),
        like=model,
        joint_ends=joint_ends,
    )


def _carried_extensions(
    model: Model,
    link_names: Sequence[str],
    joint_names: Sequence[str],
    frames: Sequence[Frame],
    sensors: Sequence[Sensor],
) -> Sequence[Extension]:
    """The kept URDF extensions of a lumped model whose owners it still has.

    See :func:`carried_extensions`: a lumped joint's ``<dynamics>`` or ``<gazebo reference>``,
    the ``<inertial>`` extras of a link merged into another cannot follow. Only the owner
    kinds the model's extensions have are looked at (most of iCub's are the robot's and
    joints'), so the name sets of the others are never built.
    """
    extensions = model.extensions
    if not extensions:
        return extensions
    kind_of = _owner_kinds(extensions)
    kinds = set(kind_of)
    frame_names: set[str] = set()
    sensor_names: set[str] = set()
    if "link" in kinds or "frame" in kinds:
        frame_names = {f.name for f in frames}
    if "sensor" in kinds or "force_torque" in kinds:
        sensor_names = {s.name for s in sensors}
    whose: dict[str, Callable[[], Collection[str]]] = {
        "link": lambda: {*link_names, *frame_names},
        "inertial": lambda: set(link_names),
        "joint": lambda: set(joint_names),
        "frame": lambda: frame_names,
        "sensor": lambda: sensor_names,
        "force_torque": lambda: sensor_names,
    }
    owners = {kind: whose[kind]() for kind in kinds if kind in whose}
    return _carried(model, kind_of, owners, "its owner is lumped")


_OWNER_KIND = operator.attrgetter("owner_kind")


def _owner_kinds(extensions: Sequence[Extension]) -> list[str]:
    # One C-level pass over the extensions (a robot carries hundreds: a <gazebo> and a
    # <transmission> per joint), read once per call rather than grouped into a memo. The
    # owner names are read only for the kinds that can lose owners (on a first call each
    # read touches memory not yet in cache: the robot's own hundred are skipped).
    return list(map(_OWNER_KIND, extensions))


def carried_extensions(
    model: Model, owners: Mapping[str, Collection[str]], why: str
) -> Sequence[Extension]:
    """Return the kept extensions of ``model`` whose owner is in ``owners[owner_kind]``.

    Kinds missing from ``owners`` (the robot's own) are always kept. The others are dropped,
    each recorded in the report with ``why``: a model must not hold what its export could not
    write (its reload would differ). When every owner stays, the model's own vector is
    returned.
    """
    extensions = model.extensions
    if not extensions:
        return extensions
    return _carried(model, _owner_kinds(extensions), owners, why)


def _carried(
    model: Model,
    kind_of: Sequence[str],
    owners: Mapping[str, Collection[str]],
    why: str,
) -> Sequence[Extension]:
    """:func:`carried_extensions`, given the ``owner_kind`` of every extension."""
    extensions = model.extensions
    # One pass keeping what stays: the robot's own (a kind not in ``owners``) without reading
    # their owner, the others when their owner stays.
    kept = [
        e
        for e, kind in zip(extensions, kind_of, strict=True)
        if kind not in owners or e.owner in owners[kind]
    ]
    if len(kept) == len(extensions):
        return extensions
    if recording():
        for e, kind in zip(extensions, kind_of, strict=True):
            if kind in owners and e.owner not in owners[kind]:
                record("dropped", "extension", f"<{e.tag}> of {e.owner_kind} {e.owner!r}", why)
    return kept


def _joint_indices(model: Model, names: Sequence[str]) -> list[int]:
    """The indices of the joints ``names``; raise :class:`UnknownNameError` for an unknown one."""
    if len(names) == model.n_joints and model.joint_names == names:
        return list(range(len(names)))  # every joint, in its order (what most callers pass)
    index = model._j
    try:
        return [index[name] for name in names]
    except KeyError:
        return [model.joint_index(name) for name in names]  # raises, naming the joint


def _unchanged(
    model: Model,
    traversal: Traversal,
    kept: list[int],
    moves: Mapping[str, Transform],
    keep_frames: Collection[str] | None,
    frame_order: str,
) -> bool:
    # Every joint kept in place, links already in traversal order, nothing moved, every frame
    # kept and (unless the input order is asked for) already grouped in traversal order.
    if (
        moves
        or kept != list(range(model.n_joints))
        or traversal.links != tuple(range(model.n_links))
        or model.link_names[traversal.base] != model.default_base
        or (keep_frames is not None and not all(f.name in keep_frames for f in model.frames))
    ):
        return False
    if frame_order == "input":
        return True
    index = model._l
    order = [index[f.link] for f in model.frames]
    return all(a <= b for a, b in itertools.pairwise(order))


def _is_identity(T: Transform) -> bool:
    # Plain lists: an array comparison costs several numpy calls a move; -0.0 == 0.0 here too.
    same: bool = T.position.tolist() == _ZERO3 and T.rotation.tolist() == _EYE3
    return same


_ZERO3 = [0.0, 0.0, 0.0]
_EYE3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def _new_links(
    model: Model,
    parts: Split,
    poses: LinkPoses,
    link_order: Literal["traversal", "input"],
) -> NewLinks:
    """One link per part, in ``link_order``; a part that changes gets its composite inertia."""
    names = model.link_names
    new_names = tuple([names[m[0]] for m in parts.members])
    if recording():
        for s, mem in enumerate(parts.members):
            for link in mem[1:]:
                record("lumped", "link", names[link], f"into {new_names[s]!r}, kept as a frame")
    order = range(len(parts.members))
    if link_order == "input":
        order = sorted(order, key=lambda s: parts.members[s][0])  # type: ignore[assignment]
    # Only a part with a lumped member or a moved base changes, all summed in one pass; the
    # others keep their link object, and so does a part whose lumped members are massless and
    # whose base stays: its sum would be its base's inertia, bit for bit.
    members, moved = parts.members, poses.moved
    changed = [s for s in order if len(members[s]) > 1 or moved[members[s][0]]]
    same = _kept_by_massless(model, [s for s in changed if not moved[members[s][0]]], members)
    if same:
        changed = [s for s in changed if s not in same]
    inertia_of = poses.composite_inertias(
        model, [(s, link) for s in changed for link in parts.members[s]]
    )
    links: list[Link] = []
    for s in order:
        b = parts.members[s][0]
        inertia = inertia_of.get(s)
        links.append(model.links[b] if inertia is None else Link(inertia))
        if poses.moved[b] and recording():
            origin = np.round(poses[b].inverse().position, 9).tolist()
            record("moved", "link frame", names[b], f"new origin at {origin} of the old frame")
    of_link = tuple([new_names[s] for s in parts.part_of])
    return NewLinks(parts, tuple(order), new_names, tuple(links), of_link)


def _kept_by_massless(
    model: Model, parts: Sequence[int], members: Sequence[Sequence[int]]
) -> set[int]:
    """Of ``parts`` (unmoved bases), those whose sum is their base's inertia bit for bit.

    Their lumped members all have zero inertia and their base's inertia sums to itself
    (:func:`~robomodel.transformers._link_poses.unchanged_by_massless`). Each distinct inertia
    object is looked at once (massless links usually share one), in the same vectorised pass
    as the bases of ``parts``.
    """
    if not parts:
        return set()
    olds = model.links
    # The lumped members' inertias in C-level passes, then each distinct one checked once.
    lumped = list(
        map(
            _INERTIA,
            map(
                operator.getitem,
                itertools.repeat(olds),
                itertools.chain.from_iterable([members[s][1:] for s in parts]),
            ),
        )
    )
    if not lumped or all(map(operator.is_, lumped, itertools.repeat(lumped[0]))):
        # One inertia object shared by every lumped member (a loader's massless links): no
        # per-member bookkeeping.
        distinct = {id(i): i for i in lumped[:1]}
    else:
        distinct = dict(zip(map(id, lumped), lumped, strict=True))
    massless = [(k, i) for k, i in distinct.items() if i.mass == 0.0]  # arrays read only here
    if not massless:
        return set()
    # The lumped members' distinct inertias and every part's base inertia in one vectorised
    # pass (its fixed cost is most of it): the flags of an inertia do not depend on the others.
    n_massless = len(massless)
    zero_flags, itself = unchanged_by_massless(
        [i for _, i in massless] + [olds[members[s][0]].inertia for s in parts]
    )
    zero = {k for (k, _), z in zip(massless, zero_flags[:n_massless], strict=True) if z}
    itself = itself[n_massless:]
    if len(zero) == len(distinct):  # every lumped member is zero: every part is a candidate
        return {s for s, same in zip(parts, itself, strict=True) if same}
    out: set[int] = set()
    at = 0  # each part's lumped members are contiguous in ``lumped``
    for s, same in zip(parts, itself, strict=True):
        n = len(members[s]) - 1
        if same and all(map(zero.__contains__, map(id, lumped[at : at + n]))):
            out.add(s)
        at += n
    return out


_INERTIA = operator.attrgetter("inertia")


def _kept_joints(
    model: Model,
    links: NewLinks,
    poses: LinkPoses,
    kept: Sequence[str],
    kept_idx: list[int],
    step: str,
) -> tuple[list[Joint], JointEnds]:
    """The kept joints in order: between the new links, re-expressed, with their offsets.

    Also their ends as the result's link indices (``link1``s, then ``link2``s), for the
    result's index: its first traversal then reads no joint.
    """
    of_link = links.of_link
    kept_names: frozenset[str] | None = None
    joints = model.joints
    olds = [joints[j] for j in kept_idx]
    # The link indices of each kept joint's link1 and link2, from the index when it holds them
    # (a loaded or transformed model's does): a first call then reads no joint's link names.
    held = model._index._ends
    if held is not None:
        one, two = held
        ends = [(one[j], two[j]) for j in kept_idx]
    else:  # only the kept joints' names read
        index = model._l.table()  # a model's joints name its own links
        ends = [(index[j.link1], index[j.link2]) for j in olds]
    # A joint's ends are its link names, the model's own strings (compared by identity first).
    names = model.link_names
    changes_of: list[dict[str, object]] = []
    npos = ndof = 0
    for name, old, (o1, o2) in zip(kept, olds, ends, strict=True):
        n1, n2 = of_link[o1], of_link[o2]
        changes: dict[str, object] = {}
        if n1 != names[o1] or n2 != names[o2]:
            changes["link1"] = n1
            changes["link2"] = n2
        if old.pos_coord_offset != npos or old.dof_offset != ndof:
            changes["pos_coord_offset"] = npos
            changes["dof_offset"] = ndof
        mimic = None if type(old) is FixedJoint else old.mimic  # type: ignore[union-attr]
        if mimic is not None:
            if kept_names is None:
                kept_names = frozenset(kept)
            if mimic.joint not in kept_names:
                changes["mimic"] = None
                warn(
                    f"{step}: joint {name!r} mimics joint {mimic.joint!r}, which is lumped; the "
                    "mimic relation is dropped (keep both joints to keep it)"
                )
                record("dropped", "mimic", name, f"its leader {mimic.joint!r} is lumped")
        changes_of.append(changes)
        npos += old.n_pos_coords
        ndof += old.n_dofs
    # Every change of a joint at once: one copy per joint that changes, none that is replaced.
    for k, (rest, axis) in poses.joint_rests(model, kept_idx, ends).items():
        changes_of[k]["link1_H_link2"] = rest
        if axis is not None:
            changes_of[k]["axis_in_link1"] = axis
    new_index = [0] * len(links.order)  # part -> the new link's index
    for k, s in enumerate(links.order):
        new_index[s] = k
    part_of = links.parts.part_of
    new_ends = (
        tuple([new_index[part_of[o1]] for o1, _ in ends]),
        tuple([new_index[part_of[o2]] for _, o2 in ends]),
    )
    new_joints = [
        replace(type(old))(old, **changes) if changes else old
        for old, changes in zip(olds, changes_of, strict=True)
    ]
    return new_joints, new_ends
