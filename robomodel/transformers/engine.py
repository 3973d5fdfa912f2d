"""The shared engine of the model transformers: split a model along joints and lump each part.

:func:`reduce_model`, :func:`normalize_joint_order`, :func:`make_urdf_compatible`,
:func:`remove_additional_frames` and :func:`remove_fake_links` are all one call of :func:`lump`
with different inputs, as in iDynTree (``createReducedModelAndChangeLinkFrames``). What it does:

1. Walk the traversal from the base. The base starts part 0; every link whose joint to its
   traversal parent is *kept* starts a new part; every other link joins its parent's part.
2. Each part becomes one link, named after the part's first link. Its inertia is the composite
   rigid body of the part with the removed joints at their locked positions, expressed in the
   new link frame (the old frame of the part's first link, optionally moved by ``moves``).
3. Every lumped link becomes an additional frame of the new link, and every additional frame,
   visual and collision shape of a member link is re-expressed on the new link.
4. The kept joints, in the order given, connect the new links; their rest transforms and axes
   are re-expressed in the (possibly moved) new link frames; each keeps its link1/link2 order.
5. Sensors follow their links by name; their poses are re-expressed like frames. An F/T sensor
   whose joint was lumped no longer measures anything: what happens to it is the caller's
   ``lumped_sensors`` choice, never a silent drop.

Differences from iDynTree, all deliberate: unreachable links, unknown or duplicate joint names and
wrongly sized locked positions raise; sensors on moved links are re-expressed (iDynTree bug B7);
package dirs, robot name, materials and extensions are carried (B11); the applied-wrench link of an
F/T sensor follows by name only (B6); the documented ``<link>_original_frame`` frames can be added
(B8).
"""

from __future__ import annotations

import itertools
import math
import operator
import warnings
from collections.abc import Callable, Collection, Mapping, Sequence
from numbers import Real
from typing import Literal, TypeAlias, cast

import attrs
import numpy as np
from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._construct import trusted
from robomodel.errors import ModelError, RobomodelWarning, TopologyError, UnknownNameError
from robomodel.joints import Joint, replace_joint
from robomodel.model import Frame, Link, Model
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import SolidShape
from robomodel.spatial import Transform
from robomodel.transformers._batch import (
    _IDENTITY,
    _compose_rows,
    _inertia_sums,
    _reexpress_joints,
    _stack,
)
from robomodel.transformers.report import Recorder
from robomodel.traversal import Traversal

__all__ = [
    "LumpedSensors",
    "check_lumped_sensors",
    "check_name_list",
    "check_reachable",
    "locked_positions_of",
    "lump",
    "split",
]

LumpedSensors: TypeAlias = Literal["warn", "raise", "drop"]
"""What to do with an F/T sensor whose joint is lumped away (see :func:`lump`)."""

_EMPTY: PVectorT[SolidShape] = pvector()
_FRAME_LINK = operator.attrgetter("link")


# --------------------------------------------------------------------------- checks


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


def check_name_list(names: Sequence[str] | Collection[str], what: str, step: str) -> list[str]:
    """Return ``names`` as a list, raising on a non-string, a bare string or a duplicate."""
    if isinstance(names, str):
        raise ModelError(
            f"{step}: {what} must be a list of names, got the single string {names!r}; "
            f"write [{names!r}]"
        )
    out = list(names)
    seen: set[str] = set()
    for name in out:
        if not isinstance(name, str):
            raise ModelError(f"{step}: {what} must hold names (str), got {name!r}")
        if name in seen:
            raise ModelError(f"{step}: {name!r} appears twice in {what}; give each name once")
        seen.add(name)
    return out


def check_lumped_sensors(value: str, step: str) -> LumpedSensors:
    """Validate a ``lumped_sensors`` option."""
    if value not in ("warn", "raise", "drop"):
        raise ModelError(f"{step}: lumped_sensors must be 'warn', 'raise' or 'drop', got {value!r}")
    return value  # type: ignore[return-value]


def locked_positions_of(
    model: Model, positions: Mapping[str, float | Sequence[float]] | None, step: str
) -> dict[int, float]:
    """Validate locked joint positions; return ``joint index -> position``.

    Each value is a number or a sequence with one number per position coordinate of the joint.
    Unknown joints, fixed joints, wrong lengths and non-finite values raise.
    """
    out: dict[int, float] = {}
    if not positions:
        return out
    if not isinstance(positions, Mapping):
        raise ModelError(
            f"{step}: locked_positions must map joint names to positions, got "
            f"{type(positions).__name__}"
        )
    for name, value in positions.items():
        if not isinstance(name, str):
            raise ModelError(f"{step}: locked_positions keys must be joint names, got {name!r}")
        j = model.joint_index(name)
        joint = model.joints[j]
        if isinstance(value, (Real, np.floating, np.integer)) and not isinstance(value, bool):
            coords = [float(value)]
        elif isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, str):
            coords = [float(v) for v in value]
        else:
            raise ModelError(
                f"{step}: the locked position of joint {name!r} must be a number or a list of "
                f"numbers, got {value!r}"
            )
        if len(coords) != joint.n_pos_coords:
            if joint.n_pos_coords == 0:
                raise ModelError(
                    f"{step}: joint {name!r} is fixed and has no position; remove it from "
                    "locked_positions"
                )
            raise ModelError(
                f"{step}: joint {name!r} has {joint.n_pos_coords} position coordinate(s), but "
                f"locked_positions gives {len(coords)} value(s) for it"
            )
        if not all(math.isfinite(c) for c in coords):
            raise ModelError(f"{step}: the locked position of joint {name!r} must be finite")
        out[j] = coords[0]
    return out


# --------------------------------------------------------------------------- split


@attrs.frozen
class Split:
    """A model's links partitioned into parts along kept joints.

    Attributes:
        traversal: the traversal the split walked.
        part_of: part index of every link (by link index).
        members: per part, its links in traversal order (the first is the part's base).
        parents: per part, the traversal parent of each member (``None`` for the part's base).
        joints: per part, the joint to that parent (``None`` for the part's base).
    """

    traversal: Traversal
    part_of: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int | None, ...], ...]
    joints: tuple[tuple[int | None, ...], ...]


def split(model: Model, kept: Collection[int], traversal: Traversal) -> Split:
    """Split the links of ``traversal`` into parts along the joints (indices) in ``kept``."""
    part_of = [-1] * model.n_links
    members: list[list[int]] = []
    parents: list[list[int | None]] = []
    joints: list[list[int | None]] = []
    for link, parent, joint in zip(
        traversal.links, traversal.parents, traversal.joints, strict=True
    ):
        if parent is None or joint in kept:
            part_of[link] = len(members)
            members.append([link])
            parents.append([None])
            joints.append([None])
        else:
            s = part_of[parent]
            part_of[link] = s
            members[s].append(link)
            parents[s].append(parent)
            joints[s].append(joint)
    return Split(
        traversal,
        tuple(part_of),
        tuple(map(tuple, members)),
        tuple(map(tuple, parents)),
        tuple(map(tuple, joints)),
    )


# --------------------------------------------------------------------------- lump


def lump(
    model: Model,
    *,
    kept: Sequence[str],
    step: str,
    positions: Mapping[int, float] | None = None,
    moves: Mapping[str, Transform] | None = None,
    base: str | None = None,
    keep_frames: Collection[str] | None = None,
    original_frames: bool = False,
    link_order: Literal["traversal", "input"] = "traversal",
    frame_order: Literal["traversal", "input"] = "traversal",
    lumped_sensors: LumpedSensors = "warn",
    rec: Recorder | None = None,
) -> Model:
    """Return ``model`` reduced to the joints ``kept`` (names, in that order).

    Args:
        model: the input model.
        kept: the joints of the result, in order; the others are lumped.
        step: the transformer's name, used in messages and reports.
        positions: joint index -> position for lumped moving joints (others at 0).
        moves: new link frames: link name -> ``newLink_H_oldLink`` (only part bases count).
        base: the traversal base (default: the model's default base); the result's default base.
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
        rec: where to record what was done, or ``None``.

    Raises:
        TopologyError: a link is not connected to the base.
        UnknownNameError: a kept joint does not exist.
        ModelError: a kept joint is listed twice; an F/T sensor is lumped and
            ``lumped_sensors == "raise"``; a frame name would be used twice.
    """
    names = model.link_names
    n = len(names)
    if n == 0:
        if kept:
            raise UnknownNameError("joint", kept[0], ())
        return model
    trav = model.traversal(base)
    check_reachable(model, trav, step)
    kept_names = check_name_list(kept, "the kept joints", step)
    kept_idx = [model.joint_index(name) for name in kept_names]
    kept_set = set(kept_idx)
    pos = positions or {}
    mv = {k: T for k, T in (moves or {}).items() if not _is_identity(T)}
    base_name = names[trav.base]
    frames = model.frames
    if keep_frames is not None and not isinstance(keep_frames, (set, frozenset)):
        keep_frames = frozenset(keep_frames)

    # No-op: every joint kept in place, links already in traversal order, nothing moved,
    # every frame kept and already grouped in traversal order.
    if (
        not mv
        and kept_idx == list(range(model.n_joints))
        and trav.links == tuple(range(n))
        and base_name == model.default_base
        and (keep_frames is None or all(f.name in keep_frames for f in frames))
    ):
        lidx = model._l
        order = [lidx[f.link] for f in frames]
        if frame_order == "input" or all(a <= b for a, b in itertools.pairwise(order)):
            return model

    sp = split(model, kept_set, trav)
    parts = range(len(sp.members))
    if link_order == "input":
        parts = sorted(parts, key=lambda s: sp.members[s][0])  # type: ignore[assignment]
    new_name = [names[m[0]] for m in sp.members]  # part -> new link name
    # X[l] = newLink_H_l for every link l, with the lumped joints at their locked positions.
    X: list[Transform] = [_IDENTITY] * n
    joints = model.joints
    for s, (mem, par, jts) in enumerate(zip(sp.members, sp.parents, sp.joints, strict=True)):
        b = mem[0]
        X[b] = mv.get(names[b], _IDENTITY)
        for link, parent, j in zip(mem[1:], par[1:], jts[1:], strict=True):
            joint = joints[j]  # type: ignore[index]
            q = pos.get(j, 0.0)  # type: ignore[arg-type]
            pn = names[parent]  # type: ignore[index]
            if q:
                P = joint.transform(q, pn, names[link])
            elif pn == joint.link1:  # joint.rest_transform(pn, link), without the call
                P = joint.link1_H_link2
            else:
                P = joint.link1_H_link2.inverse()
            Xpar = X[parent]  # type: ignore[index]
            if Xpar is _IDENTITY:
                X[link] = P
            else:
                R = Xpar.rotation
                X[link] = Transform._raw(R @ P.rotation, R @ P.position + Xpar.position)
        if rec is not None:
            for link in mem[1:]:
                rec.add("lumped", "link", names[link], f"into {new_name[s]!r}, kept as a frame")

    # Every X stacked once; the vectorised passes below index these rows.
    XR = _stack([t.rotation for t in X], (3, 3))
    Xp = _stack([t.position for t in X], (3,))

    # Links: composite rigid body of each part that changes (a lumped link or a moved base),
    # summed in one vectorised pass; the other parts keep their link object.
    changed = [s for s in parts if len(sp.members[s]) > 1 or X[sp.members[s][0]] is not _IDENTITY]
    inertia_of = _inertia_sums(
        model, XR, Xp, [(s, link) for s in changed for link in sp.members[s]]
    )
    links: list[Link] = []
    out_names: list[str] = []
    for s in parts:
        b = sp.members[s][0]
        Xb = X[b]
        inertia = inertia_of.get(s)
        links.append(model.links[b] if inertia is None else Link(inertia))
        out_names.append(new_name[s])
        if rec is not None and Xb is not _IDENTITY:
            rec.add(
                "moved",
                "link frame",
                names[b],
                f"new origin at {np.round(Xb.inverse().position, 9).tolist()} of the old frame",
            )

    # Frames, visuals and collisions.
    by_link: dict[str, list[Frame]] = {}
    # Frames mostly come grouped by link: one dict operation per run, not per frame.
    for ln, run in itertools.groupby(frames, key=_FRAME_LINK):
        by_link.setdefault(ln, []).extend(run)
    out_frames: list[Frame | None] = []  # None: re-expressed below, in one batch
    lumped_frames: list[tuple[int, int]] = []  # (input link index, position in out_frames)
    moved_frames: dict[str, int] = {}  # additional frame name -> position in out_frames
    # Poses to re-express, (link index, link_H_element), all composed in one pass below.
    pending: list[tuple[int, str, str, int, Transform]] = []
    pending_shapes: list[tuple[list[SolidShape], int, SolidShape, int]] = []
    visuals: list[PVectorT[SolidShape]] = []
    collisions: list[PVectorT[SolidShape]] = []
    # Frame groups (position in out_frames, new link, link index, frames), re-expressed whole.
    frame_groups: list[tuple[int, str, int, list[Frame]]] = []
    keep = keep_frames
    # Without a filter, a report or an input-order reshuffle, a link's frames go through as one
    # group: no per-frame bookkeeping.
    simple = keep is None and rec is None and frame_order == "traversal"
    for s in parts:
        mem = sp.members[s]
        nn = new_name[s]
        vis: list[SolidShape] = []
        col: list[SolidShape] = []
        for link in mem:
            ln = names[link]
            Xl = X[link]
            if link != mem[0]:
                if keep is None or ln in keep:
                    lumped_frames.append((link, len(out_frames)))
                    out_frames.append(_FRAME(ln, nn, Xl))
                elif rec is not None:
                    rec.add("dropped", "frame", ln, "not in the frames to keep")
            fl = by_link.get(ln)
            if fl is None:
                pass
            elif simple and Xl is _IDENTITY and ln == nn:
                out_frames.extend(fl)
                fl = None
            elif simple:
                # Placeholders, replaced once the group is re-expressed with the batch below.
                frame_groups.append((len(out_frames), nn, link, fl))
                out_frames.extend(fl)
                fl = None
            for f in fl or ():
                if keep is not None and f.name not in keep:
                    if rec is not None:
                        rec.add("dropped", "frame", f.name, "not in the frames to keep")
                    continue
                moved_frames[f.name] = len(out_frames)
                if Xl is _IDENTITY and ln == nn:
                    out_frames.append(f)
                    continue
                pending.append((len(out_frames), f.name, nn, link, f.link_H_frame))
                out_frames.append(None)
                if rec is not None:
                    where = f"from {ln!r} to {nn!r}" if ln != nn else f"with link {nn!r}"
                    rec.add("moved", "frame", f.name, where)
            if original_frames and link == mem[0] and Xl is not _IDENTITY:
                # After the link's own frames, so that frames stay grouped by link and a
                # second call finds nothing to do.
                fr = _original_frame(model, ln, Xl, step)
                moved_frames[fr.name] = len(out_frames)
                out_frames.append(fr)
                if rec is not None:
                    rec.add("added", "frame", fr.name, f"the old frame of link {ln!r}")
            if Xl is _IDENTITY and len(mem) == 1:
                vis = model.visuals[link]  # type: ignore[assignment]
                col = model.collisions[link]  # type: ignore[assignment]
                continue
            for src, dst, kind in (
                (model.visuals[link], vis, "visual"),
                (model.collisions[link], col, "collision"),
            ):
                for shape in src:
                    if Xl is not _IDENTITY:
                        pending_shapes.append((dst, len(dst), shape, link))
                    dst.append(shape)
                    if rec is not None and link != mem[0]:
                        rec.add(
                            "moved", kind, shape.name or f"#{len(dst) - 1}", f"{ln!r} -> {nn!r}"
                        )
        visuals.append(vis)  # type: ignore[arg-type]
        collisions.append(col)  # type: ignore[arg-type]
    index = model._l
    part_of = sp.part_of
    # Joints, in the order given.
    out_joints: list[Joint] = []
    moved_joints: list[tuple[int, int, int]] = []  # (position, link1 index, link2 index)
    kept_name_set = frozenset(kept_names)
    for jn, j in zip(kept_names, kept_idx, strict=True):
        old = joints[j]
        o1, o2 = index[old.link1], index[old.link2]
        n1, n2 = new_name[part_of[o1]], new_name[part_of[o2]]
        changes: dict[str, object] = {}
        if n1 != old.link1 or n2 != old.link2:
            changes["link1"] = n1
            changes["link2"] = n2
        if X[o1] is not _IDENTITY or X[o2] is not _IDENTITY:
            moved_joints.append((len(out_joints), o1, o2))
        mimic = getattr(old, "mimic", None)
        if mimic is not None and mimic.joint not in kept_name_set:
            changes["mimic"] = None
            warnings.warn(
                f"{step}: joint {jn!r} mimics joint {mimic.joint!r}, which is lumped; the "
                "mimic relation is dropped (keep both joints to keep it)",
                RobomodelWarning,
                stacklevel=3,
            )
            if rec is not None:
                rec.add("dropped", "mimic", jn, f"its leader {mimic.joint!r} is lumped")
        out_joints.append(replace_joint(old, **changes) if changes else old)
    if moved_joints:
        _reexpress_joints(out_joints, moved_joints, X, XR, Xp)

    # Sensors, in input order; link sensors re-expressed in the same batch as frames and shapes.
    out_sensors: list[Sensor | None] = []
    moved_sensors: list[tuple[int, Accelerometer | Gyroscope, str, int]] = []
    lost: list[SixAxisForceTorqueSensor] = []
    jindex = model._j
    for sensor in model.sensors:
        if isinstance(sensor, SixAxisForceTorqueSensor):
            if jindex[sensor.parent_joint] not in kept_set:
                lost.append(sensor)
                continue
            out_sensors.append(_moved_ft(model, sensor, X, sp, new_name, rec))
        else:
            li = index[sensor.link]
            nn = new_name[part_of[li]]
            if X[li] is _IDENTITY and nn == sensor.link:
                out_sensors.append(sensor)
                continue
            moved_sensors.append((len(out_sensors), sensor, nn, li))
            out_sensors.append(None)
            if rec is not None:
                rec.add("moved", "sensor", sensor.name, f"{sensor.link!r} -> {nn!r}")

    rows = [t[3] for t in pending_shapes] + [t[3] for t in pending]
    poses_in = [t[2].link_H_geometry for t in pending_shapes] + [t[4] for t in pending]
    for _, _, link, fl in frame_groups:
        rows += [link] * len(fl)
        poses_in += [f.link_H_frame for f in fl]
    rows += [t[3] for t in moved_sensors]
    poses_in += [t[1].link_H_sensor for t in moved_sensors]
    poses = _compose_rows(XR, Xp, rows, poses_in)
    k0 = len(pending_shapes)
    for (dst, k, shape, _), T in zip(pending_shapes, poses[:k0], strict=True):
        dst[k] = SolidShape(
            geometry=shape.geometry,
            name=shape.name,
            link_H_geometry=T,
            material=shape.material,
            extensions=shape.extensions,
        )
    k1 = k0 + len(pending)
    for (k, fname, nn, _, _), T in zip(pending, poses[k0:k1], strict=True):
        out_frames[k] = _FRAME(fname, nn, T)
    for start, nn, _, fl in frame_groups:
        k0, k1 = k1, k1 + len(fl)
        out_frames[start : start + len(fl)] = [
            _FRAME(f.name, nn, T) for f, T in zip(fl, poses[k0:k1], strict=True)
        ]
    for (k, sensor, nn, _), T in zip(moved_sensors, poses[k1:], strict=True):
        out_sensors[k] = _link_sensor_at(sensor, nn, T)
    visuals = [v if isinstance(v, type(_EMPTY)) else pvector(v) for v in visuals]
    collisions = [c if isinstance(c, type(_EMPTY)) else pvector(c) for c in collisions]
    if frame_order == "input":
        lumped_frames.sort(key=lambda t: t[0])
        order = [k for _, k in lumped_frames] + [
            moved_frames[f.name] for f in frames if f.name in moved_frames
        ]
        # Frames the input did not have (<link>_original_frame) go last.
        order += sorted(set(moved_frames.values()) - set(order))
        out_frames = [out_frames[k] for k in order]
    final_frames = cast(list[Frame], out_frames)
    if lost:
        used = set(out_names)
        used.update(f.name for f in final_frames)
        final_frames.extend(
            _lost_sensors(model, lost, lumped_sensors, step, X, sp, new_name, used, rec)
        )

    return Model(
        link_names=out_names,
        links=links,
        joint_names=kept_names,
        joints=out_joints,
        frames=final_frames,
        default_base=base_name,
        visuals=visuals,
        collisions=collisions,
        sensors=cast(list[Sensor], out_sensors),
        package_dirs=model.package_dirs,
        name=model.name,
        materials=model.materials,
        extensions=model.extensions,
    )


_EYE3 = np.eye(3)


def _is_identity(T: Transform) -> bool:
    return not T.position.any() and bool((T.rotation == _EYE3).all())


def _link_sensor_at(
    sensor: Accelerometer | Gyroscope, link: str, pose: Transform
) -> Accelerometer | Gyroscope:
    """Return ``sensor`` on ``link`` at ``pose``, skipping the constructor's checks.

    Its name was checked when it was built, and ``link`` is a link name of the model.
    """
    return _LINK_SENSOR[type(sensor)](sensor.name, link, pose)


# Frames re-expressed or made from lumped links: names of the input's frames and links, on a
# link of the result, at a pose just computed; Frame has no checks beyond its field types.
_FRAME = trusted(Frame)
_LINK_SENSOR: dict[type, Callable[..., Accelerometer | Gyroscope]] = {
    Accelerometer: trusted(Accelerometer),
    Gyroscope: trusted(Gyroscope),
}


def _original_frame(model: Model, link: str, new_H_old: Transform, step: str) -> Frame:
    name = f"{link}_original_frame"
    if model.is_frame_name_used(name):
        raise ModelError(
            f"{step}: cannot add frame {name!r} for the old frame of link {link!r}: the name "
            "is taken; rename that frame or pass original_frames=False"
        )
    return Frame(name, link, new_H_old)


def _moved_ft(
    model: Model,
    s: SixAxisForceTorqueSensor,
    X: list[Transform],
    sp: Split,
    new_name: list[str],
    rec: Recorder | None,
) -> SixAxisForceTorqueSensor:
    # Both ends follow their link by name (B6: the applied link is resolved by name only) and
    # both poses are re-expressed in the new link frames (B7).
    i1, i2 = model.link_index(s.first_link), model.link_index(s.second_link)
    n1, n2 = new_name[sp.part_of[i1]], new_name[sp.part_of[i2]]
    X1, X2 = X[i1], X[i2]
    if X1 is _IDENTITY and X2 is _IDENTITY and n1 == s.first_link and n2 == s.second_link:
        return s
    if rec is not None:
        rec.add(
            "moved",
            "sensor",
            s.name,
            f"ends ({s.first_link!r}, {s.second_link!r}) -> ({n1!r}, {n2!r})",
        )
    return SixAxisForceTorqueSensor(
        name=s.name,
        parent_joint=s.parent_joint,
        first_link=n1,
        second_link=n2,
        first_link_H_sensor=X1 @ s.first_link_H_sensor,
        second_link_H_sensor=X2 @ s.second_link_H_sensor,
        applied_wrench_link=n1 if s.applied_wrench_link == s.first_link else n2,
    )


def _lost_sensors(
    model: Model,
    lost: list[SixAxisForceTorqueSensor],
    policy: LumpedSensors,
    step: str,
    X: list[Transform],
    sp: Split,
    new_name: list[str],
    used: set[str],
    rec: Recorder | None,
) -> list[Frame]:
    """Apply the lumped-sensor policy; return the frames that keep the lost sensors' poses."""
    listed = ", ".join(f"{s.name!r} (joint {s.parent_joint!r})" for s in lost)
    if policy == "raise":
        raise ModelError(
            f"{step}: the force/torque sensors {listed} sit in joints that are lumped, so they "
            "would measure nothing; keep those joints, or pass lumped_sensors='drop' (or "
            "'warn') to drop the sensors"
        )
    if policy == "warn":
        warnings.warn(
            f"{step}: dropped force/torque sensors {listed}: their joints are lumped; their "
            "poses stay as frames (pass lumped_sensors='drop' to silence this)",
            RobomodelWarning,
            stacklevel=4,
        )
    out: list[Frame] = []
    for s in lost:
        if rec is not None:
            rec.add("dropped", "sensor", s.name, f"its joint {s.parent_joint!r} is lumped")
        if s.name in used:
            continue
        # Keep the sensor pose where the URDF loader puts sensor frames: on the second link.
        # That link may itself be gone, so the pose is re-expressed on its new link.
        used.add(s.name)
        i2 = model.link_index(s.second_link)
        out.append(Frame(s.name, new_name[sp.part_of[i2]], X[i2] @ s.second_link_H_sensor))
        if rec is not None:
            rec.add("added", "frame", s.name, "the pose of the dropped force/torque sensor")
    return out
