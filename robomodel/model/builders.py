"""The pure functions that build a model element by element.

Each returns a new :class:`~robomodel.model.record.Model` and leaves its input untouched. A builder
checks its arguments and the names it adds, then asks the model's
:class:`~robomodel.model.topology.ModelIndex` for the index one element larger (which also refuses
a
joint that would close a loop), so adding a link, joint or frame costs ``O(log n)``, not a copy of
the model. Also re-exported by the :mod:`robomodel` package.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Literal, NoReturn, overload

from robomodel._internal.construct import replace
from robomodel.errors import ArgumentError, DuplicateNameError, ModelError, UnknownNameError
from robomodel.model.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
    replace_joint,
)
from robomodel.model.record import Frame, Link, Model
from robomodel.model.sensors import Sensor
from robomodel.model.spatial import Axis, FloatArray, Transform
from robomodel.model.topology import EMPTY_SHAPES, JOINT_KINDS, sensor_problems

# The with_* functions used to live here; kept importable from this module.
from robomodel.model.updates import with_collision_shapes as with_collision_shapes
from robomodel.model.updates import with_default_base_link as with_default_base_link
from robomodel.model.updates import with_inertial_parameters as with_inertial_parameters
from robomodel.model.updates import with_link as with_link
from robomodel.model.updates import with_package_dirs as with_package_dirs
from robomodel.model.updates import with_visual_shapes as with_visual_shapes
from robomodel.model.validation import check_choice, check_name, real_vector

__all__ = [
    "JointKind",
    "add_frame",
    "add_joint",
    "add_joint_and_link",
    "add_link",
    "add_sensor",
    "discard_sensor",
    "insert_link_to_existing_joint",
    "iter_joints",
    "remove_sensor",
]


def add_link(model: Model, name: str, link: Link | None = None) -> Model:
    """Return ``model`` with a new link ``name`` (index ``n_links``).

    The name must not be used by a link or an additional frame. The first link becomes the
    default base. Every additional frame's index shifts by one.
    """
    name = check_name(name, "link")
    if model.is_frame_name_used(name):
        kind = "link" if model.is_link_name_used(name) else "additional frame"
        raise DuplicateNameError(kind, name, "links and frames share one namespace")
    lk = Link() if link is None else link
    if not isinstance(lk, Link):
        raise ModelError(f"add_link expects a Link, got {type(lk).__name__}")
    return replace(Model)(
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
    name = check_name(name, "joint")
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
    return replace(Model)(
        model,
        joint_names=model.joint_names.append(name),
        joints=model.joints.append(placed),
        _index=index,
    )


JointKind = Literal["fixed", "revolute", "prismatic"]
"""The joint kinds the builders accept by name (as
:func:`~robomodel.model.joints.joint_type_name`)."""

_MOVING_KINDS: dict[str, type[RevoluteJoint] | type[PrismaticJoint]] = {
    "revolute": RevoluteJoint,
    "prismatic": PrismaticJoint,
}


def _spec_joint(
    builder: str,
    kind: str | None,
    parent: str,
    child: str,
    parent_H_child: Transform | None,
    axis: Axis | Sequence[float] | FloatArray | None,
    moving: Mapping[str, object],
) -> Joint:
    """Build the joint a builder's keyword form describes, from ``parent`` to ``child``.

    ``axis`` is in the child's frame (a direction through the child's origin, or an
    :class:`Axis`), as URDF and iDynTree's ``setAxis(axis, child)`` give it; it is stored in
    link1 (the parent) coordinates. ``moving`` holds the one-DOF options the caller was given
    (``None`` when absent).
    """
    if kind is None:
        raise ArgumentError(
            f"{builder} needs a joint: give a Joint value, or kind='fixed', 'revolute' or "
            "'prismatic' with its parent_H_child and axis"
        )
    check_choice(kind, ("fixed", *_MOVING_KINDS), "kind", where=builder)
    rest = Transform.identity() if parent_H_child is None else parent_H_child
    if not isinstance(rest, Transform):
        raise ArgumentError(
            f"{builder}: parent_H_child must be a Transform, got {type(rest).__name__}"
        )
    given = {k: v for k, v in moving.items() if v is not None}
    if kind == "fixed":
        if axis is not None or given:
            extra = ", ".join(sorted(given.keys() | ({"axis"} if axis is not None else set())))
            raise ArgumentError(
                f"{builder}: a fixed joint has no {extra}; drop them or choose a moving kind"
            )
        return FixedJoint(link1=parent, link2=child, link1_H_link2=rest)
    if axis is None:
        line = Axis((1.0, 0.0, 0.0))  # URDF's default axis
    elif isinstance(axis, Axis):
        line = axis
    else:
        line = Axis(real_vector(axis, "axis", size=3))
    return _MOVING_KINDS[kind].with_axis_in(
        child, line, link1=parent, link2=child, link1_H_link2=rest, **given
    )


def _refuse_mixed_forms(builder: str, *keywords: object) -> NoReturn:
    """Raise for a builder given a joint value and some keyword options of the other form.

    ``keywords`` are the form-defining keywords (kind, parent_H_child, axis, link); when none
    is given, the culprits are the one-DOF options.
    """
    if any(k is not None for k in keywords):
        raise ArgumentError(
            f"{builder}: give either a joint value and the new link's name, or the new link's "
            "name and kind=..., parent_H_child=..., axis=..., link=...; not both"
        )
    raise ArgumentError(
        f"{builder}: with a joint value, its limits and dynamics are the value's; "
        "set them on the joint"
    )


@overload
def add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model: ...
@overload
def add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: str,
    *,
    kind: JointKind,
    parent_H_child: Transform | None = None,
    axis: Axis | Sequence[float] | FloatArray | None = None,
    link: Link | None = None,
    limits: PositionLimits | None = None,
    effort_limit: float | None = None,
    velocity_limit: float | None = None,
    dynamics: JointDynamics | None = None,
    mimic: Mimic | None = None,
) -> Model: ...


def add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: Joint | str,
    new_link_name: str | None = None,
    new_link: Link | None = None,
    *,
    kind: JointKind | None = None,
    parent_H_child: Transform | None = None,
    axis: Axis | Sequence[float] | FloatArray | None = None,
    link: Link | None = None,
    limits: PositionLimits | None = None,
    effort_limit: float | None = None,
    velocity_limit: float | None = None,
    dynamics: JointDynamics | None = None,
    mimic: Mimic | None = None,
) -> Model:
    """Add a new link and a joint ``joint_name`` from ``existing_link`` to it (``addJointAndLink``).

    Two forms. With the joint described by keywords, the fourth argument is the new link's
    name: ``kind`` (``"fixed"``, ``"revolute"`` or ``"prismatic"``), the rest pose
    ``parent_H_child`` (of the new link in ``existing_link``; identity by default), the motion
    ``axis`` in the *new link's* frame (a direction through its origin or an :class:`Axis`;
    URDF's ``(1, 0, 0)`` by default), and the one-DOF options ``limits``, ``effort_limit``,
    ``velocity_limit``, ``dynamics`` and ``mimic``; ``link`` is the new link (massless by
    default):

    >>> import robomodel as rm
    >>> T = rm.Transform.from_rpy_xyz((0, 0, 0), (0, 0, 0.5))
    >>> m = rm.add_link(rm.Model(), "base", rm.Link())
    >>> m = rm.add_joint_and_link(m, "base", "j1", "arm", kind="revolute",
    ...                           parent_H_child=T, axis=(0, 0, 1),
    ...                           limits=rm.PositionLimits.between(-1.0, 1.0))
    >>> m.n_links, m.n_dofs, m.joint("j1").link2
    (2, 1, 'arm')
    >>> m.joint("j1").axis("arm").direction.tolist()
    [0.0, 0.0, 1.0]

    Or a joint value whose ``link1``/``link2`` are set to ``(existing_link, new_link_name)``
    (its rest transform and stored axis are read relative to those), and the new link after
    its name: ``add_joint_and_link(m, "base", "j1", joint, "arm", link)``.

    Raises:
        UnknownNameError: ``existing_link`` is not a link of the model.
        DuplicateNameError: the joint name or the new link's name is used already.
        ArgumentError: the two forms are mixed, or a keyword does not fit the joint kind.
    """
    if isinstance(joint, str):
        if new_link_name is not None or new_link is not None:
            raise ArgumentError(
                "add_joint_and_link: with the new link's name in fourth place, give the link "
                "as link=... and the joint as kind=..., not positionally"
            )
        moving = {
            "limits": limits,
            "effort_limit": effort_limit,
            "velocity_limit": velocity_limit,
            "dynamics": dynamics,
            "mimic": mimic,
        }
        if type(existing_link) is not str or not existing_link:
            existing_link = check_name(existing_link, "link")
        if type(joint) is not str or not joint:
            joint = check_name(joint, "link")
        spec = _spec_joint(
            "add_joint_and_link", kind, existing_link, joint, parent_H_child, axis, moving
        )
        return _add_joint_and_link(model, existing_link, joint_name, spec, joint, link)
    # The joint-value form is the hot path of step-by-step builds: one test for all keywords.
    if not (
        kind is None
        and parent_H_child is None
        and axis is None
        and link is None
        and limits is None
        and effort_limit is None
        and velocity_limit is None
        and dynamics is None
        and mimic is None
    ):
        _refuse_mixed_forms("add_joint_and_link", kind, parent_H_child, axis, link)
    if new_link_name is None:
        raise ArgumentError("add_joint_and_link: the new link needs a name (after the joint)")
    return _add_joint_and_link(model, existing_link, joint_name, joint, new_link_name, new_link)


def _add_joint_and_link(
    model: Model,
    existing_link: str,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None,
) -> Model:
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
        joint_name = check_name(joint_name, "joint")
    if joint_name in index.joints:
        raise DuplicateNameError("joint", joint_name)
    if type(joint) not in JOINT_KINDS:
        raise ModelError(f"expected a FixedJoint, RevoluteJoint or PrismaticJoint, got {joint!r}")
    if type(new_link_name) is not str or not new_link_name:
        new_link_name = check_name(new_link_name, "link")
    if new_link_name in lmap or new_link_name in index.frames:
        raise DuplicateNameError("link or frame", new_link_name, "links and frames share names")
    lk = _DEFAULT_LINK if new_link is None else new_link
    if type(lk) is not Link and not isinstance(lk, Link):
        raise ModelError(f"add_joint_and_link expects a Link, got {type(lk).__name__}")
    npos, ndof = index.counts
    # The two link names are checked above: non-empty, and different (one is new).
    placed = replace(type(joint))(
        joint, link1=existing_link, link2=new_link_name, pos_coord_offset=npos, dof_offset=ndof
    )
    return replace(Model)(
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


@overload
def insert_link_to_existing_joint(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None = None,
) -> Model: ...
@overload
def insert_link_to_existing_joint(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: str,
    *,
    kind: JointKind,
    parent_H_child: Transform | None = None,
    axis: Axis | Sequence[float] | FloatArray | None = None,
    link: Link | None = None,
    limits: PositionLimits | None = None,
    effort_limit: float | None = None,
    velocity_limit: float | None = None,
    dynamics: JointDynamics | None = None,
    mimic: Mimic | None = None,
) -> Model: ...


def insert_link_to_existing_joint(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: Joint | str,
    new_link_name: str | None = None,
    new_link: Link | None = None,
    *,
    kind: JointKind | None = None,
    parent_H_child: Transform | None = None,
    axis: Axis | Sequence[float] | FloatArray | None = None,
    link: Link | None = None,
    limits: PositionLimits | None = None,
    effort_limit: float | None = None,
    velocity_limit: float | None = None,
    dynamics: JointDynamics | None = None,
    mimic: Mimic | None = None,
) -> Model:
    """Splice a new link into an existing joint (iDynTree's ``insertLinkToExistingJoint...``).

    Joint ``existing_joint`` between ``unmovable_link`` and a displaced link D becomes a joint
    between ``unmovable_link`` and the new link, with rest pose ``unmovable_H_new``; a new joint
    ``joint_name`` connects the new link (its link1, the parent side) to D. The existing joint
    keeps its name, index, type, limits and stored axis; when ``unmovable_link`` was its link2,
    the new link takes the link1 slot (rest inverted).

    As for :func:`add_joint_and_link`, the new joint is given in one of two forms. By keywords,
    with the new link's name in sixth place: ``kind``, ``parent_H_child`` (here ``new_H_D``),
    ``axis`` in D's frame, the one-DOF options, and ``link`` (the new link):

    >>> import robomodel as rm
    >>> T = rm.Transform.from_rpy_xyz((0, 0, 0), (0, 0, 1.0))
    >>> m = rm.add_link(rm.Model(), "base", rm.Link())
    >>> m = rm.add_joint_and_link(m, "base", "j1", "arm", kind="revolute", parent_H_child=T)
    >>> half = rm.Transform.from_rpy_xyz((0, 0, 0), (0, 0, 0.5))
    >>> m = rm.insert_link_to_existing_joint(m, "j1", "base", half, "j2", "elbow",
    ...                                      kind="fixed", parent_H_child=half)
    >>> m.link_names.tolist(), m.joint("j1").link2, m.joint("j2").link2
    (['base', 'arm', 'elbow'], 'elbow', 'arm')

    Or a joint value (its rest transform read as ``new_H_D``, its links overwritten) followed by
    the new link's name and the new link.

    Raises:
        UnknownNameError: the joint or the unmovable link does not exist.
        ModelError: ``unmovable_link`` is not an end of ``existing_joint``, or a name is used.
        ArgumentError: the two forms are mixed, or a keyword does not fit the joint kind.
    """
    if isinstance(joint, str):
        if new_link_name is not None or new_link is not None:
            raise ArgumentError(
                "insert_link_to_existing_joint: with the new link's name in sixth place, give "
                "the link as link=... and the joint as kind=..., not positionally"
            )
        old = model.joint(existing_joint)
        if type(joint) is not str or not joint:
            joint = check_name(joint, "link")
        spec = _spec_joint(
            "insert_link_to_existing_joint",
            kind,
            joint,
            old.other_link(unmovable_link),
            parent_H_child,
            axis,
            {
                "limits": limits,
                "effort_limit": effort_limit,
                "velocity_limit": velocity_limit,
                "dynamics": dynamics,
                "mimic": mimic,
            },
        )
        return _insert_link(
            model, existing_joint, unmovable_link, unmovable_H_new, joint_name, spec, joint, link
        )
    if not (
        kind is None
        and parent_H_child is None
        and axis is None
        and link is None
        and limits is None
        and effort_limit is None
        and velocity_limit is None
        and dynamics is None
        and mimic is None
    ):
        _refuse_mixed_forms("insert_link_to_existing_joint", kind, parent_H_child, axis, link)
    if new_link_name is None:
        raise ArgumentError(
            "insert_link_to_existing_joint: the new link needs a name (after the joint)"
        )
    return _insert_link(
        model,
        existing_joint,
        unmovable_link,
        unmovable_H_new,
        joint_name,
        joint,
        new_link_name,
        new_link,
    )


def _insert_link(
    model: Model,
    existing_joint: str,
    unmovable_link: str,
    unmovable_H_new: Transform,
    joint_name: str,
    joint: Joint,
    new_link_name: str,
    new_link: Link | None,
) -> Model:
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
    joint_name = check_name(joint_name, "joint")
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
    return replace(Model)(
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
    name = check_name(name, "frame")
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
    return replace(Model)(
        model,
        frames=model.frames.append(Frame(name, link, T)),
        _index=model._index.with_frame(name),
    )


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
    return replace(Model)(
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
    return replace(Model)(
        model, sensors=sensors, _index=model._index.with_sensors(s.name for s in sensors)
    )


def discard_sensor(model: Model, name: str) -> Model:
    """Return ``model`` without sensor ``name``; the model itself if there is none."""
    return remove_sensor(model, name) if model.is_sensor_name_used(name) else model


def iter_joints(model: Model) -> Iterator[tuple[str, Joint]]:
    """Yield ``(name, joint)`` pairs in joint-index order."""
    return zip(model.joint_names, model.joints, strict=True)
