"""What is attached to a link follows it into its new link: two phases of the lumping engine.

:func:`frames_and_shapes` and :func:`moved_sensors` take the new links and the link poses of
:mod:`robomodel.transformers.engine` and return the additional frames, visual and collision
shapes and sensors of the lumped model, each re-expressed in its new link frame.

Everything fixed to one link (additional frames, shapes, accelerometers and gyroscopes) moves
with the pose of that link, so :func:`frames_and_shapes` re-expresses all of it in one
vectorised pass of :class:`~robomodel.transformers._link_poses.LinkPoses`; the sensors phase
then puts the moved link sensors in the sensor list, and places the F/T sensors, which sit in
joints, by their two links.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Collection, Sequence
from typing import Literal, TypeAlias

import attrs
from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._internal.construct import make, replace
from robomodel._internal.memo import memoized
from robomodel.errors import ModelError, warn
from robomodel.model.record import Frame, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.shapes import SolidShape
from robomodel.model.spatial import FloatArray, Transform
from robomodel.transformers._link_poses import LinkPoses, ReexpressPlan, stack
from robomodel.transformers._parts import NewLinks
from robomodel.transformers.report import record, recording

__all__ = ["Attached", "Sensors", "frames_and_shapes", "frames_by_link", "moved_sensors"]


# Trusted construction below: frames re-expressed or made from lumped links (names of the
# input's frames and links, on a link of the result, at a pose just computed; Frame has no checks
# beyond its field types), link sensors moved likewise, and shapes of the input at a pose just
# computed (their other fields were checked when they were built).


@attrs.frozen
class Attached:
    """The additional frames and shapes of a lumped model, and its moved link sensors.

    Attributes:
        frames: the additional frames, in the result's order.
        visuals: per new link (in the result's order), its visual shapes.
        collisions: per new link, its collision shapes.
        link_sensors: input sensor index -> the accelerometer or gyroscope on its new link,
            for those whose link moves or is lumped.
    """

    frames: list[Frame]
    visuals: list[PVectorT[SolidShape]]
    collisions: list[PVectorT[SolidShape]]
    link_sensors: dict[int, Accelerometer | Gyroscope]


@attrs.frozen
class Sensors:
    """The sensors of a lumped model.

    Attributes:
        sensors: the sensors, in input order.
        frames: frames keeping the poses of the F/T sensors dropped with their joints.
    """

    sensors: list[Sensor]
    frames: list[Frame]


_FrameRun: TypeAlias = tuple[Sequence[Frame], Sequence[int], int | None, str, int]
"""Consecutive frames of one input link, their rows in :class:`_Inputs`, the input link whose
pose re-expresses them (``None`` when they stay as they are), their new link and their kind for
the input order: :data:`_INPUT_FRAMES` (the input's frames, ranked by row),
:data:`_ADDED_FRAME` (a ``<link>_original_frame``, ranked last) or the index of the lumped
input link whose frame the run holds."""

_INPUT_FRAMES = -1
_ADDED_FRAME = -2

_MemberShapes: TypeAlias = list[tuple[Sequence[SolidShape], int | None, int]]
"""The shapes of one kind of the members of a part: one run per member that has some, with the
input link whose pose re-expresses it (``None`` when it stays) and the run's first row in
:class:`_Inputs`."""

_ShapeRuns: TypeAlias = "PVectorT[SolidShape] | _MemberShapes"
"""The shapes of one kind of a new link: an unmoved link's own vector, or its members' runs."""

_LinkSensor: TypeAlias = tuple[int, Accelerometer | Gyroscope, int, int]
"""A link sensor: its input index, itself, its input link index and its row in :class:`_Inputs`."""


@attrs.frozen(eq=False)
class _Inputs:
    """What the frames-and-shapes phase reads of an input model, derived once per model.

    Every frame, visual, collision and link sensor has an input row: frames in input order,
    then visuals and collisions link by link, then link sensors.

    Attributes:
        frames_of: link name -> its additional frames and their input indices (= rows).
        visual_row: per input link, the row of its first visual (then one past the last).
        collision_row: per input link, the row of its first collision shape (likewise).
        n_rows: the number of rows.
        link_sensors: the accelerometers and gyroscopes, in input order.
        ft_sensors: input index -> an F/T sensor, its joint's index, its links' indices and
            its row in ``ft_rotations`` and ``ft_positions``.
        ft_rotations: the rotations of the F/T sensors' ``second_link_H_sensor``, stacked.
        ft_positions: their positions, likewise.
        carries: per input link, whether anything above is on it (an additional frame, a
            shape or a link sensor): only those links have values to re-express.
        plans: per set of links whose values move (a tuple of link indices), the plan that
            re-expresses the poses of those values (filled as sets are met: a call stacks
            only the poses it moves, and a later call on the same links reuses them).
    """

    frames_of: dict[str, tuple[list[Frame], list[int]]]
    visual_row: tuple[int, ...]
    collision_row: tuple[int, ...]
    n_rows: int
    link_sensors: tuple[_LinkSensor, ...]
    ft_sensors: dict[int, tuple[SixAxisForceTorqueSensor, int, int, int, int]]
    ft_rotations: FloatArray
    ft_positions: FloatArray
    carries: tuple[bool, ...]
    plans: dict[tuple[int, ...], ReexpressPlan] = attrs.field(factory=dict)

    def plan(self, model: Model, links: Sequence[int]) -> ReexpressPlan:
        """The plan for the values on the input links ``links`` (memoised per set)."""
        key = tuple(links)
        plan = self.plans.get(key)
        if plan is None:
            # A first call computes every pose; the second groups equal ones (same link and
            # bits), so that it and later calls compute and build each distinct pose once.
            plan = self.plans[key] = self._make_plan(model, links)
        elif not plan.grouped:
            plan = self.plans[key] = plan.grouped_by_bits(self.n_rows)
        return plan

    def _make_plan(self, model: Model, links: Sequence[int]) -> ReexpressPlan:
        """An ungrouped plan from the poses of the values on ``links`` only, stacked."""
        names = model.link_names
        frames_of = self.frames_of
        visuals, collisions = model.visuals, model.collisions
        rows: list[int] = []
        owner: list[int] = []
        poses: list[Transform] = []
        for link in links:
            run = frames_of.get(names[link])
            if run is not None:
                rows += run[1]
                poses += [f.link_H_frame for f in run[0]]
                owner += [link] * len(run[1])
            for shapes, start in (
                (visuals[link], self.visual_row[link]),
                (collisions[link], self.collision_row[link]),
            ):
                if shapes:
                    rows += range(start, start + len(shapes))
                    poses += [sh.link_H_geometry for sh in shapes]
                    owner += [link] * len(shapes)
        wanted = set(links)
        # A loader keeps each link sensor's pose as a frame named after it, often as the same
        # Transform object: such a sensor takes that frame's new pose (the frame is in the
        # plan, on the same link), and the pose is re-expressed once for both.
        frames = model.frames
        frame_index = model._f.table()
        n_frames = len(frames)
        aliases: list[tuple[int, int]] = []
        for _, s, link, row in self.link_sensors:
            if link in wanted:
                f = frame_index.get(s.name)
                if f is not None and f < n_frames:
                    fr = frames[f]
                    if fr.link_H_frame is s.link_H_sensor and fr.link == s.link:
                        aliases.append((row, f))  # a frame's row is its index
                        continue
                rows.append(row)
                poses.append(s.link_H_sensor)
                owner.append(link)
        return ReexpressPlan.of(
            rows,
            owner,
            stack([t.rotation for t in poses], (3, 3)),
            stack([t.position for t in poses], (3,)),
            self.n_rows,
            aliases,
        )


def _inputs(model: Model) -> _Inputs:
    """The :class:`_Inputs` of ``model``, memoised on it."""
    return memoized(model, "transformers.lump-inputs", lambda: _derive_inputs(model))


def frames_by_link(model: Model) -> dict[str, tuple[list[Frame], list[int]]]:
    """Link name -> its additional frames and their indices, in input order.

    Memoised on the model: the lists are shared, so never change them.
    """
    return memoized(model, "transformers.frames-by-link", lambda: _frames_by_link(model))


def _frames_by_link(model: Model) -> dict[str, tuple[list[Frame], list[int]]]:
    # By runs of consecutive frames on one link (a loaded model lists a link's frames
    # together): one slice per run, found by C-level passes over the frames' links, instead of
    # two appends per frame.
    frames = list(model.frames)
    if not frames:
        return {}
    links = [f.link for f in frames]
    cuts = [0, *itertools.compress(range(1, len(links)), map(operator.ne, links[1:], links))]
    cuts.append(len(links))
    out: dict[str, tuple[list[Frame], list[int]]] = {}
    for start, stop in itertools.pairwise(cuts):
        link = links[start]
        run = out.get(link)
        if run is None:
            out[link] = (frames[start:stop], list(range(start, stop)))
        else:  # the link's frames are not all together
            run[0].extend(frames[start:stop])
            run[1].extend(range(start, stop))
    return out


def _derive_inputs(model: Model) -> _Inputs:
    n_visuals = list(map(len, model.visuals))
    n_collisions = list(map(len, model.collisions))
    visual_row = tuple(itertools.accumulate(n_visuals, initial=len(model.frames)))
    collision_row = tuple(itertools.accumulate(n_collisions, initial=visual_row[-1]))
    row = collision_row[-1]
    # The index's own dict (a model's sensors and frames name its own links): one plain lookup
    # per sensor, and no dict of every link built for it.
    index = model._l.table()
    sensors: list[_LinkSensor] = []
    ft: dict[int, tuple[SixAxisForceTorqueSensor, int, int, int, int]] = {}
    ft_poses: list[Transform] = []
    joint_index = model._j.table()  # a model's sensors name its own joints
    for k, s in enumerate(model.sensors):
        if type(s) is Accelerometer or type(s) is Gyroscope:
            sensors.append((k, s, index[s.link], row))
            row += 1
        elif isinstance(s, SixAxisForceTorqueSensor):
            i1, i2 = index[s.first_link], index[s.second_link]
            ft[k] = (s, joint_index[s.parent_joint], i1, i2, len(ft_poses))
            ft_poses.append(s.second_link_H_sensor)
    frames_of = frames_by_link(model)
    carries = list(map(bool, map(operator.or_, n_visuals, n_collisions)))
    for name in frames_of:
        carries[index[name]] = True
    for t in sensors:
        carries[t[2]] = True
    return _Inputs(
        frames_of,
        visual_row,
        collision_row,
        row,
        tuple(sensors),
        ft,
        stack([t.rotation for t in ft_poses], (3, 3)),
        stack([t.position for t in ft_poses], (3,)),
        tuple(carries),
    )


def frames_and_shapes(
    model: Model,
    links: NewLinks,
    poses: LinkPoses,
    *,
    keep: Collection[str] | None,
    original_frames: bool,
    frame_order: Literal["traversal", "input"],
    step: str,
) -> Attached:
    """The frames and shapes of the lumped model (see :func:`~robomodel.transformers.engine.lump`).

    Per new link, for each member in traversal order: the lumped member's own frame (a new
    additional frame), the member's additional frames, the ``<link>_original_frame`` of a moved
    part base; and the members' visual and collision shapes, concatenated. The accelerometers
    and gyroscopes of moved or lumped links are re-expressed in the same pass (they are fixed
    to a link like frames); :func:`moved_sensors` puts them in the sensor list.
    """
    names = model.link_names
    members = links.parts.members
    inputs = _inputs(model)
    frames_of = inputs.frames_of
    visual_row, collision_row = inputs.visual_row, inputs.collision_row
    reporting = recording()
    X, moved_links = poses.transforms, poses.moved
    if (
        frame_order == "input"
        and keep is None
        and not original_frames
        and not reporting
        and not any(map(moved_links.__getitem__, map(_BASE, members)))
    ):
        return _by_columns(model, links, poses, inputs)
    carries = inputs.carries
    frame = make(Frame)
    frame_runs: list[_FrameRun] = []
    shape_runs: list[tuple[_ShapeRuns, _ShapeRuns]] = []  # per new link: visuals, collisions
    for s in links.order:
        mem = members[s]
        nn = links.names[s]
        whole = len(mem) == 1 and not moved_links[mem[0]]  # a link that stays as it is
        visuals: _MemberShapes = []
        collisions: _MemberShapes = []
        for link in mem:
            ln = names[link]
            moved = moved_links[link]
            if link != mem[0]:
                if keep is None or ln in keep:
                    frame_runs.append(([frame(ln, nn, X[link])], (), None, nn, link))
                else:
                    record("dropped", "frame", ln, "not in the frames to keep")
            # A link that carries no frame, shape or sensor (most lumped links of a robot
            # whose frames were links) has nothing else to follow it.
            attached = carries[link]
            run = frames_of.get(ln) if attached else None
            if run is not None:
                frames, rows_of = run
                if keep is not None or reporting:
                    frames, rows_of = _kept(frames, rows_of, keep, ln, nn, moved)
                if frames:
                    at = link if moved or ln != nn else None
                    frame_runs.append((frames, rows_of, at, nn, _INPUT_FRAMES))
            if original_frames and link == mem[0] and moved:
                # After the link's own frames, so that frames stay grouped by link and a
                # second call finds nothing to do.
                fr = _original_frame(model, ln, X[link], step)
                frame_runs.append(([fr], (), None, nn, _ADDED_FRAME))
                if reporting:
                    record("added", "frame", fr.name, f"the old frame of link {ln!r}")
            if attached and not whole:
                at = link if moved else None
                own_vis, own_col = model.visuals[link], model.collisions[link]
                if reporting and link != mem[0]:
                    _report_shapes("visual", own_vis, visuals, ln, nn)
                    _report_shapes("collision", own_col, collisions, ln, nn)
                if own_vis:
                    visuals.append((own_vis, at, visual_row[link]))
                if own_col:
                    collisions.append((own_col, at, collision_row[link]))
        if whole:
            shape_runs.append((model.visuals[mem[0]], model.collisions[mem[0]]))
        else:
            shape_runs.append((visuals, collisions))

    # Every pose to re-express, in one vectorised pass: each distinct pose of the links whose
    # frames, shapes or sensors move (moved, or lumped into another link), once; links that
    # carry none of them (most fake links) are not looked at.
    sensors = _moving_link_sensors(model, inputs, links, poses)
    of_link = links.of_link
    todo = [k for k, n in enumerate(names) if carries[k] and (moved_links[k] or of_link[k] != n)]
    plan = inputs.plan(model, todo)
    new = poses.reexpress(plan)
    pose_of = plan.slot
    out_frames: list[Frame] = []
    for items, input_rows, at, nn, _ in frame_runs:
        if at is None:
            out_frames.extend(items)
        else:
            out_frames.extend(
                [frame(f.name, nn, new[pose_of[r]]) for f, r in zip(items, input_rows, strict=True)]
            )
    out_visuals: list[PVectorT[SolidShape]] = []
    out_collisions: list[PVectorT[SolidShape]] = []
    for vis, col in shape_runs:
        if type(vis) is list:
            out_visuals.append(_shapes(vis, new, pose_of))
            out_collisions.append(_shapes(col, new, pose_of))  # type: ignore[arg-type]
        else:
            out_visuals.append(vis)  # type: ignore[arg-type]
            out_collisions.append(col)  # type: ignore[arg-type]
    link_sensors = {
        k: make(type(s))(s.name, of_link[li], new[pose_of[row]]) for k, s, li, row in sensors
    }
    if frame_order == "input":
        out_frames = _in_input_order(model, out_frames, frame_runs)
    return Attached(out_frames, out_visuals, out_collisions, link_sensors)


def _by_columns(model: Model, links: NewLinks, poses: LinkPoses, inputs: _Inputs) -> Attached:
    """:func:`frames_and_shapes` in input frame order, every frame kept, no part base moved.

    What ``remove_fake_links`` asks for. The result is then made of columns, with no pass per
    link: the frames of the lumped links (those whose new link has another name) in link
    order, then the input's frames, re-expressed where their link is lumped; each new link
    keeps its base's shapes, followed by those of lumped members that carry some. Only the
    values on lumped links are looked at one by one (a fake link rarely carries any).
    """
    names, of_link = model.link_names, links.of_link
    X, moved_links, carries = poses.transforms, poses.moved, inputs.carries
    frame = make(Frame)
    # The lumped links, in link order, and their columns (C-level passes).
    is_lumped = list(map(operator.ne, of_link, names))
    lumped = list(itertools.compress(range(len(of_link)), is_lumped))
    frames: list[Frame] = list(
        map(
            frame,
            itertools.compress(names, is_lumped),
            itertools.compress(of_link, is_lumped),
            itertools.compress(X, is_lumped),
        )
    )
    # The values to re-express: those on lumped links (no other link moves).
    todo = list(itertools.compress(lumped, itertools.compress(carries, is_lumped)))
    plan = inputs.plan(model, todo)
    new = poses.reexpress(plan)
    pose_of = plan.slot
    frames_of = inputs.frames_of
    runs = [(k, frames_of.get(names[k])) for k in todo]
    if any(run is not None for _, run in runs):
        link_of: list[int | None] = [None] * len(model.frames)  # per row: its lumped link
        for k, run in runs:
            if run is not None:
                for r in run[1]:
                    link_of[r] = k
        frames += [
            f if k is None else frame(f.name, of_link[k], new[pose_of[r]])
            for r, (f, k) in enumerate(zip(model.frames, link_of, strict=True))
        ]
    else:
        frames += model.frames
    # Each new link's shapes: its base's, then those of its lumped members (in member order).
    parts = links.parts
    bases = list(map(_BASE, map(parts.members.__getitem__, links.order)))
    model_visuals, model_collisions = model.visuals, model.collisions
    out_visuals = [model_visuals[b] for b in bases]
    out_collisions = [model_collisions[b] for b in bases]
    if todo:
        position = {s: k for k, s in enumerate(links.order)}
        for s in sorted({parts.part_of[k] for k in todo}):
            visuals: _MemberShapes = []
            collisions: _MemberShapes = []
            for link in parts.members[s]:
                if not carries[link]:
                    continue
                at = link if moved_links[link] else None
                own_vis, own_col = model_visuals[link], model_collisions[link]
                if own_vis:
                    visuals.append((own_vis, at, inputs.visual_row[link]))
                if own_col:
                    collisions.append((own_col, at, inputs.collision_row[link]))
            out_visuals[position[s]] = _shapes(visuals, new, pose_of)
            out_collisions[position[s]] = _shapes(collisions, new, pose_of)
    sensors = _moving_link_sensors(model, inputs, links, poses)
    link_sensors = {
        k: make(type(s))(s.name, of_link[li], new[pose_of[row]]) for k, s, li, row in sensors
    }
    return Attached(frames, out_visuals, out_collisions, link_sensors)


_BASE = operator.itemgetter(0)


def _moving_link_sensors(
    model: Model, inputs: _Inputs, links: NewLinks, poses: LinkPoses
) -> list[_LinkSensor]:
    """The link sensors that must move: their link moves, or is lumped into another."""
    of_link, moved = links.of_link, poses.moved
    if not any(moved) and all(a == b for a, b in zip(of_link, model.link_names, strict=True)):
        return []  # every link stays where it is, as itself
    return [t for t in inputs.link_sensors if moved[t[2]] or of_link[t[2]] != t[1].link]


def _report_shapes(
    kind: str, shapes: Sequence[SolidShape], runs: _MemberShapes, ln: str, nn: str
) -> None:
    """Record the move of the shapes of lumped link ``ln`` onto ``nn``.

    Unnamed shapes are numbered after ``runs``, the new link's shapes so far.
    """
    k0 = sum(len(items) for items, _, _ in runs)
    for k, shape in enumerate(shapes, k0):
        record("moved", kind, shape.name or f"#{k}", f"{ln!r} -> {nn!r}")


def _kept(
    frames: list[Frame],
    rows: list[int],
    keep: Collection[str] | None,
    ln: str,
    nn: str,
    moved: bool,
) -> tuple[list[Frame], list[int]]:
    """The frames of input link ``ln`` that survive ``keep``, and their rows.

    Each frame dropped or moved is recorded.
    """
    out: list[Frame] = []
    out_rows: list[int] = []
    for f, row in zip(frames, rows, strict=True):
        if keep is not None and f.name not in keep:
            record("dropped", "frame", f.name, "not in the frames to keep")
            continue
        out.append(f)
        out_rows.append(row)
        if moved or ln != nn:
            where = f"from {ln!r} to {nn!r}" if ln != nn else f"with link {nn!r}"
            record("moved", "frame", f.name, where)
    return out, out_rows


def _shapes(runs: _MemberShapes, new: list[Transform], pose_of: list[int]) -> PVectorT[SolidShape]:
    """The shapes of one kind of a new link, with the new poses (by row) of those that move."""
    out: list[SolidShape] = []
    append = out.append
    moved = replace(SolidShape)
    for items, link, row in runs:
        if link is None:
            out.extend(items)
            continue
        # Most runs hold one shape, too few for a comprehension's setup.
        for k, sh in enumerate(items, row):
            append(moved(sh, link_H_geometry=new[pose_of[k]]))
    return pvector(out)


def _in_input_order(model: Model, frames: list[Frame], runs: list[_FrameRun]) -> list[Frame]:
    """Frames of lumped links in input link order, then the input's frames in their order.

    Frames the input did not have (``<link>_original_frame``) go last, in their order.
    ``frames`` are the frames of ``runs``, in order; each gets one integer rank from its run.
    """
    n_links = model.n_links
    last = n_links + model.n_frames
    rank: list[int] = []
    for items, rows, _, _, kind in runs:
        if kind == _INPUT_FRAMES:
            rank += [n_links + r for r in rows]
        elif kind == _ADDED_FRAME:
            rank += range(last + len(rank), last + len(rank) + len(items))
        else:
            rank.append(kind)
    return [frames[k] for k in sorted(range(len(frames)), key=rank.__getitem__)]


def _original_frame(model: Model, link: str, new_H_old: Transform, step: str) -> Frame:
    name = f"{link}_original_frame"
    if model.is_frame_name_used(name):
        raise ModelError(
            f"{step}: cannot add frame {name!r} for the old frame of link {link!r}: the name "
            "is taken; rename that frame or pass original_frames=False"
        )
    return Frame(name, link, new_H_old)


def moved_sensors(
    model: Model,
    links: NewLinks,
    poses: LinkPoses,
    *,
    kept: Collection[int],
    policy: Literal["warn", "raise", "drop"],
    attached: Attached,
    step: str,
) -> Sensors:
    """The sensors of the lumped model, in input order.

    Link sensors that move come from ``attached``; an F/T sensor follows its two links. One
    whose joint (an index) is not in ``kept`` measures nothing any more: it is dropped by
    ``policy`` and its pose kept as a frame named after it, unless that name is used by a new
    link or frame (of ``attached``) or by such a frame before it.
    """
    reporting = recording()
    inputs = _inputs(model)
    fts = inputs.ft_sensors
    # The input's sensors, each replaced below where it moves (by its input position).
    sensors: list[Sensor] = list(model.sensors)
    lost: dict[int, SixAxisForceTorqueSensor] = {}
    moved_link_sensors = attached.link_sensors
    for k in sorted([*fts, *moved_link_sensors]):  # in input order, as they are reported
        ft = fts.get(k)
        if ft is not None:
            sensor, joint, i1, i2, _ = ft
            if joint in kept:
                sensors[k] = _moved_ft(sensor, i1, i2, links, poses, reporting)
            else:
                lost[k] = sensor
            continue
        new = moved_link_sensors[k]
        sensors[k] = new
        if reporting:
            old = model.sensors[k]
            record("moved", "sensor", old.name, f"{old.link!r} -> {new.link!r}")  # type: ignore[union-attr]
    if not lost:
        return Sensors(sensors, [])
    sensors = [s for k, s in enumerate(sensors) if k not in lost]

    gone = list(lost.items())
    listed = ", ".join(f"{s.name!r} (joint {s.parent_joint!r})" for _, s in gone)
    if policy == "raise":
        raise ModelError(
            f"{step}: the force/torque sensors {listed} sit in joints that are lumped, so they "
            "would measure nothing; keep those joints, or pass lumped_sensors='drop' (or "
            "'warn') to drop the sensors"
        )
    if policy == "warn":
        warn(
            f"{step}: dropped force/torque sensors {listed}: their joints are lumped; their "
            "poses stay as frames (pass lumped_sensors='drop' to silence this)"
        )
    # The names of new links and frames that a kept pose would clash with (only those of the
    # dropped sensors are ever asked about).
    wanted = {s.name for _, s in gone}
    used = {n for n in links.names if n in wanted}
    used.update([f.name for f in attached.frames if f.name in wanted])
    kept_poses: list[tuple[str, int, int]] = []  # name, second link, row in inputs.ft_*
    for k, s in gone:
        if reporting:
            record("dropped", "sensor", s.name, f"its joint {s.parent_joint!r} is lumped")
        if s.name in used:
            continue
        # Keep the sensor pose where the URDF loader puts sensor frames: on the second link.
        # That link may itself be gone, so the pose is re-expressed on its new link.
        used.add(s.name)
        _, _, _, i2, row = fts[k]
        kept_poses.append((s.name, i2, row))
        record("added", "frame", s.name, "the pose of the dropped force/torque sensor")
    # All of them in one vectorised pass.
    at = [i2 for _, i2, _ in kept_poses]
    rows = [row for _, _, row in kept_poses]
    placed = poses.products(at, inputs.ft_rotations[rows], inputs.ft_positions[rows])
    of_link = links.of_link
    frames = [
        make(Frame)(name, of_link[i2], T)
        for (name, i2, _), T in zip(kept_poses, placed, strict=True)
    ]
    return Sensors(sensors, frames)


def _moved_ft(
    s: SixAxisForceTorqueSensor,
    i1: int,
    i2: int,
    links: NewLinks,
    poses: LinkPoses,
    reporting: bool,
) -> SixAxisForceTorqueSensor:
    # Both ends follow their link by name (B6: the applied link is resolved by name only) and
    # both poses are re-expressed in the new link frames (B7).
    n1, n2 = links.of_link[i1], links.of_link[i2]
    if not poses.moved[i1] and not poses.moved[i2] and n1 == s.first_link and n2 == s.second_link:
        return s
    if reporting:
        record(
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
        first_link_H_sensor=poses[i1] @ s.first_link_H_sensor,
        second_link_H_sensor=poses[i2] @ s.second_link_H_sensor,
        applied_wrench_link=n1 if s.applied_wrench_link == s.first_link else n2,
    )
