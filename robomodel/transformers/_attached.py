"""What is attached to a link follows it into its new link: two phases of the lumping engine.

:func:`frames_and_shapes` and :func:`moved_sensors` take the new links and the link poses of
:mod:`robomodel.transformers.engine` and return the additional frames, visual and collision
shapes and sensors of the lumped model, each re-expressed in its new link frame (all the poses
of one phase in one vectorised pass of :class:`~robomodel.transformers._link_poses.LinkPoses`).
"""

from __future__ import annotations

import itertools
import operator
import warnings
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Generic, Literal, NamedTuple, TypeVar

import attrs
from pyrsistent import PVector, pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._construct import trusted
from robomodel.errors import ModelError, RobomodelWarning
from robomodel.model import Frame, Model
from robomodel.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.shapes import SolidShape
from robomodel.spatial import Transform
from robomodel.transformers._link_poses import LinkPoses
from robomodel.transformers._parts import NewLinks
from robomodel.transformers.report import record, recording

__all__ = ["Attached", "Sensors", "frames_and_shapes", "moved_sensors"]

E = TypeVar("E", Frame, SolidShape)

_FRAME_LINK = operator.attrgetter("link")

# Frames re-expressed or made from lumped links: names of the input's frames and links, on a
# link of the result, at a pose just computed; Frame has no checks beyond its field types. The
# same holds for link sensors moved to a new link.
_FRAME = trusted(Frame)
_LINK_SENSOR: dict[type, Callable[..., Accelerometer | Gyroscope]] = {
    Accelerometer: trusted(Accelerometer),
    Gyroscope: trusted(Gyroscope),
}


@attrs.frozen
class Attached:
    """The additional frames and shapes of a lumped model.

    Attributes:
        frames: the additional frames, in the result's order.
        visuals: per new link (in the result's order), its visual shapes.
        collisions: per new link, its collision shapes.
    """

    frames: list[Frame]
    visuals: list[PVectorT[SolidShape]]
    collisions: list[PVectorT[SolidShape]]


@attrs.frozen
class Sensors:
    """The sensors of a lumped model.

    Attributes:
        sensors: the sensors, in input order.
        frames: frames keeping the poses of the F/T sensors dropped with their joints.
    """

    sensors: list[Sensor]
    frames: list[Frame]


class _Run(NamedTuple, Generic[E]):
    """Consecutive frames or shapes of one input link, bound for one new link.

    ``link`` is the input link whose pose re-expresses them, or ``None`` when they stay as
    they are (an unmoved link frame that is its own new link).
    """

    items: Sequence[E]
    link: int | None

    def batch(self) -> tuple[list[int], list[Transform]]:
        """The ``(links, poses)`` to re-express (none when the run stays as it is)."""
        if self.link is None:
            return [], []
        return [self.link] * len(self.items), [_pose(x) for x in self.items]


def _pose(x: Frame | SolidShape) -> Transform:
    return x.link_H_frame if isinstance(x, Frame) else x.link_H_geometry


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
    part base; and the members' visual and collision shapes, concatenated.
    """
    names = model.link_names
    members = links.parts.members
    by_link: dict[str, list[Frame]] = {}
    # Frames mostly come grouped by link: one dict operation per run, not per frame.
    for ln, group in itertools.groupby(model.frames, key=_FRAME_LINK):
        by_link.setdefault(ln, []).extend(group)
    reporting = recording()
    frame_runs: list[tuple[_Run[Frame], str]] = []  # (run, its new link)
    # Per new link, the runs of its visual and of its collision shapes.
    shape_runs: list[tuple[list[_Run[SolidShape]], list[_Run[SolidShape]]]] = []
    for s in links.order:
        mem = members[s]
        nn = links.names[s]
        visuals: list[_Run[SolidShape]] = []
        collisions: list[_Run[SolidShape]] = []
        for link in mem:
            ln = names[link]
            moved = poses.moved(link)
            if link != mem[0]:
                if keep is None or ln in keep:
                    frame_runs.append((_Run([_FRAME(ln, nn, poses[link])], None), nn))
                else:
                    record("dropped", "frame", ln, "not in the frames to keep")
            frames = by_link.get(ln)
            if frames is not None and (keep is not None or reporting):
                frames = _kept(frames, keep, ln, nn, moved)
            if frames:
                frame_runs.append((_Run(frames, link if moved or ln != nn else None), nn))
            if original_frames and link == mem[0] and moved:
                # After the link's own frames, so that frames stay grouped by link and a
                # second call finds nothing to do.
                fr = _original_frame(model, ln, poses[link], step)
                frame_runs.append((_Run([fr], None), nn))
                record("added", "frame", fr.name, f"the old frame of link {ln!r}")
            if not moved and len(mem) == 1:
                visuals.append(_Run(model.visuals[link], None))
                collisions.append(_Run(model.collisions[link], None))
                continue
            for src, runs, kind in (
                (model.visuals[link], visuals, "visual"),
                (model.collisions[link], collisions, "collision"),
            ):
                if not src:
                    continue
                if reporting and link != mem[0]:
                    before = sum(len(r.items) for r in runs)
                    for k, shape in enumerate(src):
                        record("moved", kind, shape.name or f"#{before + k}", f"{ln!r} -> {nn!r}")
                runs.append(_Run(src, link if moved else None))
        shape_runs.append((visuals, collisions))

    # Every pose to re-express, in one pass: one batch per run (empty when it stays), the
    # frame runs first, then per new link its visual runs and its collision runs.
    shape_batches = [r.batch() for vis, col in shape_runs for r in (*vis, *col)]
    done = poses.reexpress_many(*(r.batch() for r, _ in frame_runs), *shape_batches)
    frame_poses = done[: len(frame_runs)]
    shape_poses = iter(done[len(frame_runs) :])

    out_frames: list[Frame] = []
    for (run, nn), new in zip(frame_runs, frame_poses, strict=True):
        if run.link is None:
            out_frames.extend(run.items)
        else:
            out_frames.extend(_FRAME(f.name, nn, T) for f, T in zip(run.items, new, strict=True))
    # The shape runs follow in the batch, per new link its visuals then its collisions.
    out_visuals: list[PVectorT[SolidShape]] = []
    out_collisions: list[PVectorT[SolidShape]] = []
    for vis, col in shape_runs:
        out_visuals.append(_shapes(vis, [next(shape_poses) for _ in vis]))
        out_collisions.append(_shapes(col, [next(shape_poses) for _ in col]))
    if frame_order == "input":
        out_frames = _in_input_order(model, out_frames)
    return Attached(out_frames, out_visuals, out_collisions)


def _kept(
    frames: list[Frame], keep: Collection[str] | None, ln: str, nn: str, moved: bool
) -> list[Frame]:
    """The frames of input link ``ln`` that survive ``keep``; report each drop and move."""
    out: list[Frame] = []
    for f in frames:
        if keep is not None and f.name not in keep:
            record("dropped", "frame", f.name, "not in the frames to keep")
            continue
        out.append(f)
        if moved or ln != nn:
            where = f"from {ln!r} to {nn!r}" if ln != nn else f"with link {nn!r}"
            record("moved", "frame", f.name, where)
    return out


def _shapes(runs: list[_Run[SolidShape]], new: list[list[Transform]]) -> PVectorT[SolidShape]:
    """The shapes of one new link from its runs and each run's new poses."""
    if len(runs) == 1 and runs[0].link is None:
        items = runs[0].items
        if isinstance(items, PVector):
            return items  # an unmoved link's own shapes, as they are
    out: list[SolidShape] = []
    for run, poses in zip(runs, new, strict=True):
        if run.link is None:
            out.extend(run.items)
            continue
        for shape, T in zip(run.items, poses, strict=True):
            out.append(
                SolidShape(
                    geometry=shape.geometry,
                    name=shape.name,
                    link_H_geometry=T,
                    material=shape.material,
                    extensions=shape.extensions,
                )
            )
    return pvector(out)


def _in_input_order(model: Model, frames: list[Frame]) -> list[Frame]:
    """Frames of lumped links in input link order, then the input's frames in their order.

    Frames the input did not have (``<link>_original_frame``) go last, in their order.
    """
    links = model._l
    inputs = model._f
    n = len(frames)

    def rank(k: int) -> tuple[int, int]:
        name = frames[k].name
        if name in links:
            return 0, links[name]
        if name in inputs:
            return 1, inputs[name]
        return 2, k

    return [frames[k] for k in sorted(range(n), key=rank)]


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
    taken: Iterable[str],
    step: str,
) -> Sensors:
    """The sensors of the lumped model, in input order; link sensors re-expressed in one pass.

    An F/T sensor whose joint (an index) is not in ``kept`` measures nothing any more: it is
    dropped by ``policy`` and its pose kept as a frame named after it, unless that name is in
    ``taken`` (the names of the new links and frames) or already used by such a frame.
    """
    index = model._l
    jindex = model._j
    ready: dict[int, Sensor] = {}
    moving: list[tuple[int, Accelerometer | Gyroscope, int]] = []  # (position, sensor, link)
    lost: list[SixAxisForceTorqueSensor] = []
    for k, sensor in enumerate(model.sensors):
        if isinstance(sensor, SixAxisForceTorqueSensor):
            if jindex[sensor.parent_joint] in kept:
                ready[k] = _moved_ft(model, sensor, links, poses)
            else:
                lost.append(sensor)
            continue
        li = index[sensor.link]
        nn = links.name_of(li)
        if not poses.moved(li) and nn == sensor.link:
            ready[k] = sensor
            continue
        moving.append((k, sensor, li))
        record("moved", "sensor", sensor.name, f"{sensor.link!r} -> {nn!r}")
    new_poses = poses.reexpress(
        [li for _, _, li in moving], [s.link_H_sensor for _, s, _ in moving]
    )
    for (k, sensor, li), T in zip(moving, new_poses, strict=True):
        ready[k] = _LINK_SENSOR[type(sensor)](sensor.name, links.name_of(li), T)
    sensors = [ready[k] for k in sorted(ready)]
    if not lost:
        return Sensors(sensors, [])

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
            stacklevel=3,
        )
    used = set(taken)
    frames: list[Frame] = []
    for s in lost:
        record("dropped", "sensor", s.name, f"its joint {s.parent_joint!r} is lumped")
        if s.name in used:
            continue
        # Keep the sensor pose where the URDF loader puts sensor frames: on the second link.
        # That link may itself be gone, so the pose is re-expressed on its new link.
        used.add(s.name)
        i2 = index[s.second_link]
        frames.append(Frame(s.name, links.name_of(i2), poses[i2] @ s.second_link_H_sensor))
        record("added", "frame", s.name, "the pose of the dropped force/torque sensor")
    return Sensors(sensors, frames)


def _moved_ft(
    model: Model, s: SixAxisForceTorqueSensor, links: NewLinks, poses: LinkPoses
) -> SixAxisForceTorqueSensor:
    # Both ends follow their link by name (B6: the applied link is resolved by name only) and
    # both poses are re-expressed in the new link frames (B7).
    i1, i2 = model.link_index(s.first_link), model.link_index(s.second_link)
    n1, n2 = links.name_of(i1), links.name_of(i2)
    if not poses.moved(i1) and not poses.moved(i2) and n1 == s.first_link and n2 == s.second_link:
        return s
    record(
        "moved", "sensor", s.name, f"ends ({s.first_link!r}, {s.second_link!r}) -> ({n1!r}, {n2!r})"
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
