"""The pure functions that build a model element by element.

Each returns a new :class:`~robomodel.model.Model` and leaves its input untouched. A builder
checks its arguments and the names it adds, then asks the model's
:class:`~robomodel._topology.ModelIndex` for the index one element larger (which also refuses a
joint that would close a loop), so adding a link, joint or frame costs ``O(log n)``, not a copy of
the model. Also re-exported by the :mod:`robomodel` package.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np
from pyrsistent import pvector
from pyrsistent.typing import PVector as PVectorT

from robomodel._topology import EMPTY_SHAPES, JOINT_KINDS, check_name, sensor_problems
from robomodel.errors import DuplicateNameError, ModelError, UnknownNameError
from robomodel.joints import _PLACE, Joint, replace_joint
from robomodel.model import Frame, Link, Model, _evolve
from robomodel.sensors import Sensor
from robomodel.shapes import SolidShape
from robomodel.spatial import FloatArray, SpatialInertia, Transform

__all__ = [
    "add_frame",
    "add_joint",
    "add_joint_and_link",
    "add_link",
    "add_sensor",
    "discard_sensor",
    "insert_link_to_existing_joint",
    "iter_joints",
    "remove_sensor",
    "with_collision_shapes",
    "with_default_base_link",
    "with_inertial_parameters",
    "with_link",
    "with_package_dirs",
    "with_visual_shapes",
]


def add_link(model: Model, name: str, link: Link | None = None) -> Model:
    """Return ``model`` with a new link ``name`` (index ``n_links``).

    The name must not be used by a link or an additional frame. The first link becomes the
    default base. Every additional frame's index shifts by one.
    """
    check_name(name, "link")
    if model.is_frame_name_used(name):
        kind = "link" if model.is_link_name_used(name) else "additional frame"
        raise DuplicateNameError(kind, name, "links and frames share one namespace")
    lk = Link() if link is None else link
    if not isinstance(lk, Link):
        raise ModelError(f"add_link expects a Link, got {type(lk).__name__}")
    return _evolve(
        model,
        link_names=model.link_names.append(name),
        links=model.links.append(lk),
        default_base=name if model.default_base is None else model.default_base,
        visuals=model.visuals.append(EMPTY_SHAPES),
        collisions=model.collisions.append(EMPTY_SHAPES),
        _index=model._index.with_link(name),
    )


def _link_of(model: Model, name: str, joint_name: str) -> int:
    i = model._index.links.get(name)
    if i is None:
        raise UnknownNameError(
            "link",
            name,
            model.link_names,
            hint=f"joint {joint_name!r} needs it; add the link first",
        )
    return i


def add_joint(model: Model, name: str, joint: Joint) -> Model:
    """Return ``model`` with ``joint`` added as joint ``name`` between its ``link1`` and ``link2``.

    The joint's offsets are set to the model's running position-coordinate and DOF totals.
    Raises if the name is used by another joint, if a link is missing, or if the joint would
    connect two links that are already connected (a second joint or a loop).
    """
    check_name(name, "joint")
    if not isinstance(joint, JOINT_KINDS):
        raise ModelError(
            f"add_joint expects a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}"
        )
    if model.is_joint_name_used(name):
        raise DuplicateNameError("joint", name)
    l1 = _link_of(model, joint.link1, name)
    l2 = _link_of(model, joint.link2, name)
    index = model._index.with_joint(
        name, joint, l1, l2, joints=model.joints, joint_names=model.joint_names
    )
    npos, ndof = model._index.counts
    placed = replace_joint(joint, pos_coord_offset=npos, dof_offset=ndof)
    return _evolve(
        model,
        joint_names=model.joint_names.append(name),
        joints=model.joints.append(placed),
        _index=index,
    )


def add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model:
    """Add link ``new_link_name`` and then ``joint`` between ``existing_link`` and it.

    The joint's ``link1``/``link2`` are set to ``(existing_link, new_link_name)``; its rest
    transform and axis are read relative to those, as iDynTree's ``addJointAndLink`` does.
    """
    # This is the hot path of every loader and of step-by-step builds: the checks below are
    # those of add_link + add_joint, inlined (no property or helper calls).
    index = model._index
    lmap = index.links
    e = lmap.get(existing_link)
    if e is None:
        raise UnknownNameError(
            "link", existing_link, model.link_names, hint=f"joint {joint_name!r} needs it"
        )
    if type(joint_name) is not str or not joint_name:
        check_name(joint_name, "joint")
    if joint_name in index.joints:
        raise DuplicateNameError("joint", joint_name)
    place = _PLACE.get(type(joint))
    if place is None:
        raise ModelError(f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}")
    if type(new_link_name) is not str or not new_link_name:
        check_name(new_link_name, "link")
    if new_link_name in lmap or new_link_name in index.frames:
        raise DuplicateNameError("link or frame", new_link_name, "links and frames share names")
    lk = _DEFAULT_LINK if new_link is None else new_link
    if type(lk) is not Link and not isinstance(lk, Link):
        raise ModelError(f"add_joint_and_link expects a Link, got {type(lk).__name__}")
    npos, ndof = index.counts
    # The two link names are checked above: non-empty, and different (one is new).
    placed = place(joint, existing_link, new_link_name, npos, ndof)
    return _evolve(
        model,
        link_names=model.link_names.append(new_link_name),
        links=model.links.append(lk),
        visuals=model.visuals.append(EMPTY_SHAPES),
        collisions=model.collisions.append(EMPTY_SHAPES),
        joint_names=model.joint_names.append(joint_name),
        joints=model.joints.append(placed),
        _index=index.with_leaf(new_link_name, joint_name, joint, e),
    )


_DEFAULT_LINK = Link()


def insert_link_to_existing_joint(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model:
    """Splice a new link into an existing joint (iDynTree's ``insertLinkToExistingJoint...``).

    Joint ``existing_joint`` between ``unmovable_link`` and a displaced link D becomes a joint
    between ``unmovable_link`` and the new link, with rest pose ``unmovable_H_new``; ``joint``
    (named ``joint_name``, its rest transform read as ``new_H_D``) connects the new link to D.
    The existing joint keeps its name, index, type, limits and stored axis; when
    ``unmovable_link`` was its link2, the new link takes the link1 slot (rest inverted).
    """
    ji = model.joint_index(existing_joint)
    u = model.link_index(unmovable_link)
    old = model.joints[ji]
    if unmovable_link not in (old.link1, old.link2):
        raise ModelError(
            f"link {unmovable_link!r} is not attached to joint {existing_joint!r} "
            f"({old.link1!r}, {old.link2!r})"
        )
    displaced = old.other_link(unmovable_link)
    m = add_link(model, new_link_name, new_link)
    check_name(joint_name, "joint")
    if m.is_joint_name_used(joint_name):
        raise DuplicateNameError("joint", joint_name)
    if not isinstance(joint, JOINT_KINDS):
        raise ModelError(f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}")
    if unmovable_link == old.link1:
        moved = replace_joint(old, link2=new_link_name, link1_H_link2=unmovable_H_new)
    else:
        moved = replace_joint(old, link1=new_link_name, link1_H_link2=unmovable_H_new.inverse())
    npos, ndof = model._index.counts
    placed = replace_joint(
        joint, link1=new_link_name, link2=displaced, pos_coord_offset=npos, dof_offset=ndof
    )
    # Adjacency follows from the joint list (the moved joint keeps its index, so U's entry keeps
    # its place and D's entry moves to the end, as in iDynTree).
    return _evolve(
        m,
        joint_names=m.joint_names.append(joint_name),
        joints=model.joints.set(ji, moved).append(placed),
        _index=model._index.with_spliced_link(new_link_name, u, joint_name, joint),
    )


def add_frame(model: Model, link: str, name: str, link_H_frame: Transform | None = None) -> Model:
    """Return ``model`` with an additional frame ``name`` fixed to ``link`` at ``link_H_frame``.

    Frames attach to links only (not to other frames). The name must not be used by a link or
    frame. The frame gets index ``n_frames`` of the result.
    """
    check_name(name, "frame")
    if not model.is_link_name_used(link):
        hint = (
            "; frames attach to links, not to other frames"
            if model.is_frame_name_used(link)
            else ""
        )
        raise UnknownNameError(
            "link", link, model.link_names, hint=f"cannot attach frame {name!r} to it{hint}"
        ) from None
    if model.is_frame_name_used(name):
        raise DuplicateNameError("link or frame", name, "links and frames share one namespace")
    T = Transform.identity() if link_H_frame is None else link_H_frame
    return _evolve(
        model,
        frames=model.frames.append(Frame(name, link, T)),
        _index=model._index.with_frame(name),
    )


def with_default_base_link(model: Model, link: str | int) -> Model:
    """Return ``model`` with ``link`` (name or index) as default base."""
    name = model.link_names[model._link_idx(link)]
    if name == model.default_base:
        return model
    return _evolve(model, default_base=name)


def with_link(model: Model, link: str | int, new: Link) -> Model:
    """Return ``model`` with one link's inertia replaced."""
    i = model._link_idx(link)
    if model.links[i] == new:
        return model
    return _evolve(model, links=model.links.set(i, new))


def with_inertial_parameters(model: Model, params: Sequence[float] | FloatArray) -> Model:
    """Return ``model`` with every link's inertia set from iDynTree's parameter vector.

    Accepts the flat ``10 * n_links`` vector of :meth:`Model.inertial_parameters` or an
    ``(n_links, 10)`` array. No physical-consistency check is made (as in iDynTree).
    """
    p = np.asarray(params, dtype=np.float64)
    n = len(model.links)
    if p.shape not in ((10 * n,), (n, 10)):
        raise ModelError(
            f"expected {10 * n} inertial parameters (10 per link for {n} links), "
            f"got shape {p.shape}"
        )
    rows = p.reshape(n, 10)
    return _evolve(model, links=pvector(Link(SpatialInertia.from_vector(r)) for r in rows))


def with_package_dirs(model: Model, dirs: Iterable[str]) -> Model:
    """Return ``model`` with the given package directories."""
    return _evolve(model, package_dirs=pvector(str(d) for d in dirs))


def with_visual_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's visual shapes replaced."""
    i = model._link_idx(link)
    return _evolve(model, visuals=model.visuals.set(i, _shapes(shapes)))


def with_collision_shapes(model: Model, link: str | int, shapes: Iterable[SolidShape]) -> Model:
    """Return ``model`` with a link's collision shapes replaced."""
    i = model._link_idx(link)
    return _evolve(model, collisions=model.collisions.set(i, _shapes(shapes)))


def _shapes(shapes: Iterable[SolidShape]) -> PVectorT[SolidShape]:
    out = pvector(shapes)
    for s in out:
        if not isinstance(s, SolidShape):
            raise ModelError(f"expected SolidShape values, got {type(s).__name__}")
    return out


def add_sensor(model: Model, sensor: Sensor) -> Model:
    """Return ``model`` with ``sensor`` appended.

    Sensor names are unique across all sensor kinds; the links and joint a sensor refers to
    must exist (an F/T sensor's two links must be its joint's two ends).
    """
    if model.is_sensor_name_used(sensor.name):
        raise DuplicateNameError("sensor", sensor.name)
    bad = sensor_problems(sensor, model._index.links, model._index.joints, model.joints)
    if bad:
        raise ModelError(bad[0] + "; fix the sensor or add the missing element first")
    return _evolve(
        model,
        sensors=model.sensors.append(sensor),
        _index=model._index.with_sensor(sensor.name),
    )


def remove_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; raise if there is none."""
    k = model._index.sensors.get(name)
    if k is None:
        raise UnknownNameError("sensor", name, [s.name for s in model.sensors])
    sensors = model.sensors.delete(k)
    return _evolve(
        model, sensors=sensors, _index=model._index.with_sensors(s.name for s in sensors)
    )


def discard_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; the model itself if there is none."""
    return remove_sensor(model, name) if model.is_sensor_name_used(name) else model


def iter_joints(model: Model) -> Iterator[tuple[str, Joint]]:
    """Yield ``(name, joint)`` pairs in joint-index order."""
    return zip(model.joint_names, model.joints, strict=True)
