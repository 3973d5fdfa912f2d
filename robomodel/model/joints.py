"""Joint values: fixed, revolute and prismatic joints (a closed union).

Joints are undirected, as in iDynTree: a joint connects ``link1`` and ``link2`` (link names) and
stores their rest pose ``link1_H_link2`` (at ``q = 0``). The motion axis of a moving joint is
stored in link1 coordinates. Which side is the parent is decided by a traversal, never by the
joint. ``transform(q, a, b)`` returns ``a_H_b(q)`` for either order of the two ends.

Position-coordinate and DOF offsets are assigned by :func:`robomodel.model.builders.add_joint`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal, Self, TypeAlias

import attrs

from robomodel._internal.arrays import canonical
from robomodel._internal.construct import replace
from robomodel.errors import ArgumentError, ModelError, TopologyError
from robomodel.model.spatial import Axis, Transform

__all__ = [
    "JOINT_KINDS",
    "FixedJoint",
    "Joint",
    "JointDynamics",
    "Mimic",
    "PositionLimits",
    "PrismaticJoint",
    "RevoluteJoint",
    "joint_type_name",
    "replace_joint",
]


def _limit_value(v: float) -> float:
    f = float(v)
    if math.isnan(f):
        raise ModelError("a joint limit must not be NaN")
    return f + 0.0  # -0.0 is stored as 0.0: equal limits write equal text


def _magnitude(v: float) -> float:
    # Effort and velocity limits are magnitudes, as URDF's <limit effort velocity> (and every
    # reader) says: a negative one means nothing a simulator could apply.
    f = _limit_value(v)
    if f < 0.0:
        raise ModelError(f"an effort or velocity limit is a magnitude >= 0, got {f}")
    return f


@attrs.frozen(kw_only=True)
class PositionLimits:
    """Position limits of a one-DOF joint.

    Attributes:
        enabled: whether the limits apply (iDynTree's ``hasPosLimits``).
        lower: the lower bound (rad or m); ``-inf`` when unknown.
        upper: the upper bound; ``+inf`` when unknown.
    """

    enabled: bool = False
    lower: float = attrs.field(default=-math.inf, converter=_limit_value)
    upper: float = attrs.field(default=math.inf, converter=_limit_value)

    def __attrs_post_init__(self) -> None:
        if self.lower > self.upper:
            raise ModelError(
                f"joint limits must satisfy lower <= upper, got lower={self.lower}, "
                f"upper={self.upper}; swap them"
            )

    @classmethod
    def between(cls, lower: float, upper: float) -> PositionLimits:
        """Return enabled limits ``[lower, upper]``."""
        return cls(enabled=True, lower=lower, upper=upper)


@attrs.frozen(kw_only=True)
class JointDynamics:
    """URDF ``<dynamics>`` data of a one-DOF joint.

    Attributes:
        kind: ``"none"`` (no ``<dynamics>``) or ``"urdf"`` (iDynTree's URDFJointDynamics).
        damping: viscous damping coefficient.
        static_friction: static (Coulomb) friction.
    """

    kind: Literal["none", "urdf"] = "none"
    damping: float = attrs.field(default=0.0, converter=canonical)
    static_friction: float = attrs.field(default=0.0, converter=canonical)

    def __attrs_post_init__(self) -> None:
        if self.kind not in ("none", "urdf"):
            raise ModelError(f"JointDynamics kind must be 'none' or 'urdf', got {self.kind!r}")
        if not (0.0 <= self.damping < math.inf and 0.0 <= self.static_friction < math.inf):
            raise ModelError(
                f"joint damping and static friction are finite magnitudes >= 0, got damping="
                f"{self.damping}, static_friction={self.static_friction}"
            )
        # "none" is a joint without a <dynamics> element: values beside it would be written
        # nowhere and lost on the first export, so a value that carries them says "urdf".
        if self.kind == "none" and (self.damping or self.static_friction):
            raise ModelError(
                f"JointDynamics(kind='none') has no damping or friction, got damping="
                f"{self.damping}, static_friction={self.static_friction}; use kind='urdf' "
                "to give them"
            )


@attrs.frozen(kw_only=True)
class Mimic:
    """A URDF ``<mimic>`` relation: ``q = multiplier * q_leader + offset``."""

    joint: str
    multiplier: float = attrs.field(default=1.0, converter=canonical)
    offset: float = attrs.field(default=0.0, converter=canonical)


_X_AXIS = Axis((1.0, 0.0, 0.0))
_NO_LIMITS = PositionLimits()
_NO_DYNAMICS = JointDynamics()


def _check_links(link1: str, link2: str) -> None:
    if not link1 or not link2:
        raise ModelError("a joint needs two non-empty link names")
    if link1 == link2:
        # A self loop is a topology problem (TopologyError refines ModelError, so callers
        # catching ModelError still see it).
        raise TopologyError(
            f"a joint cannot connect link {link1!r} to itself; give two different links"
        )


@attrs.frozen(kw_only=True)
class FixedJoint:
    """A rigid connection between ``link1`` and ``link2``: 0 position coordinates, 0 DOFs."""

    link1: str
    link2: str
    link1_H_link2: Transform = attrs.field(factory=Transform.identity)
    pos_coord_offset: int = 0
    dof_offset: int = 0

    n_pos_coords = 0
    n_dofs = 0

    def __attrs_post_init__(self) -> None:
        _check_links(self.link1, self.link2)

    def rest_transform(self, a: str, b: str) -> Transform:
        """Return ``a_H_b`` at rest; ``a`` and ``b`` are this joint's two links."""
        return _oriented(self, self.link1_H_link2, a, b)

    def transform(self, q: float, a: str, b: str) -> Transform:
        """Return ``a_H_b``; a fixed joint ignores ``q``."""
        return _oriented(self, self.link1_H_link2, a, b)

    def other_link(self, link: str) -> str:
        """Return the end of the joint that is not ``link``."""
        return _other(self, link)


@attrs.frozen(kw_only=True)
class _MovingJoint:
    link1: str
    link2: str
    link1_H_link2: Transform = attrs.field(factory=Transform.identity)
    axis_in_link1: Axis = _X_AXIS
    limits: PositionLimits = _NO_LIMITS
    effort_limit: float = attrs.field(default=math.inf, converter=_magnitude)
    velocity_limit: float = attrs.field(default=math.inf, converter=_magnitude)
    dynamics: JointDynamics = _NO_DYNAMICS
    mimic: Mimic | None = None
    pos_coord_offset: int = 0
    dof_offset: int = 0

    n_pos_coords = 1
    n_dofs = 1

    def __attrs_post_init__(self) -> None:
        _check_links(self.link1, self.link2)

    @classmethod
    def with_axis_in(
        cls, child: str, axis: Axis, *, link1: str, link2: str, link1_H_link2: Transform, **kw: Any
    ) -> Self:
        """Build a joint whose axis is given in ``child``'s frame (URDF gives it in the child).

        The axis is converted into link1 with the rest transform, as iDynTree's
        ``setAxis(axis, child)`` does.
        """
        if child == link1:
            stored = axis.reversed()
        elif child == link2:
            stored = link1_H_link2 @ axis
        else:
            raise ModelError(f"the axis frame {child!r} is not {link1!r} or {link2!r}")
        return cls(
            link1=link1, link2=link2, link1_H_link2=link1_H_link2, axis_in_link1=stored, **kw
        )

    def axis(self, child: str) -> Axis:
        """Return the motion axis seen from ``child``, expressed in ``child``'s frame.

        For ``child == link1`` this is the stored axis reversed (still in link1); for link2 it is
        the stored axis expressed in link2, constant in ``q``.
        """
        if child == self.link1:
            return self.axis_in_link1.reversed()
        if child == self.link2:
            return self.link1_H_link2.inverse_apply(self.axis_in_link1)
        raise ModelError(f"{child!r} is not an end of this joint ({self.link1!r}, {self.link2!r})")

    def rest_transform(self, a: str, b: str) -> Transform:
        """Return ``a_H_b`` at ``q = 0``."""
        return _oriented(self, self.link1_H_link2, a, b)

    def motion(self, q: float) -> Transform:
        """Return the displacement applied in link1 before the rest transform."""
        raise NotImplementedError

    def transform(self, q: float, a: str, b: str) -> Transform:
        """Return ``a_H_b(q)``: ``link1_H_link2(q) = motion(q) @ link1_H_link2`` or its inverse."""
        return _oriented(self, self.motion(q) @ self.link1_H_link2, a, b)

    def other_link(self, link: str) -> str:
        """Return the end of the joint that is not ``link``."""
        return _other(self, link)


@attrs.frozen(kw_only=True)
class RevoluteJoint(_MovingJoint):
    """A one-DOF rotation about ``axis_in_link1`` (a line in link1 coordinates).

    ``link1_H_link2(q) = Rot(axis, q) @ link1_H_link2``.
    """

    def motion(self, q: float) -> Transform:
        """Return the rotation by ``q`` about the axis line, in link1."""
        return self.axis_in_link1.rotation(float(q))


@attrs.frozen(kw_only=True)
class PrismaticJoint(_MovingJoint):
    """A one-DOF translation along ``axis_in_link1``: ``link1_H_link2(q) = (I, u q) @ rest``."""

    def motion(self, q: float) -> Transform:
        """Return the translation by ``q`` along the axis, in link1."""
        return self.axis_in_link1.translation(float(q))


Joint: TypeAlias = FixedJoint | RevoluteJoint | PrismaticJoint
"""Every joint kind robomodel models."""

MovingJoint: TypeAlias = RevoluteJoint | PrismaticJoint


def replace_joint(joint: Joint, **changes: Any) -> Joint:
    """Return ``joint`` with some fields replaced: ``attrs.evolve`` without its generic overhead.

    The replaced fields go through the same converters and link-name checks as the constructor
    (which does not check the types of its other fields either), so the result is what
    ``attrs.evolve(joint, **changes)`` builds.

    Raises:
        ArgumentError: ``joint`` is not one of the joint kinds, or a change names no field.
        ModelError: the link names are empty or equal, or a limit is NaN.
    """
    cls = type(joint)
    if cls not in JOINT_KINDS:
        raise ArgumentError(
            "replace_joint expects a FixedJoint, RevoluteJoint or PrismaticJoint, "
            f"got {cls.__name__}"
        )
    unknown = changes.keys() - _FIELDS[cls]
    if unknown:
        raise ArgumentError(
            f"{cls.__name__} has no field {', '.join(sorted(unknown))}; "
            f"its fields are {', '.join(_FIELDS[cls])}"
        )
    converters = _CONVERTERS[cls]
    for name in changes.keys() & converters.keys():
        changes[name] = converters[name](changes[name])
    new: Joint = replace(cls)(joint, **changes)
    _check_links(new.link1, new.link2)
    return new


JOINT_KINDS = (FixedJoint, RevoluteJoint, PrismaticJoint)
"""Every joint class (exactly these: subclasses are not joint kinds)."""
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in attrs.fields(cls)) for cls in JOINT_KINDS
}
# Changing a field that has a converter (the limits) runs it, as the constructor would.
_CONVERTERS: dict[type, dict[str, Callable[[Any], Any]]] = {
    cls: {f.name: f.converter for f in attrs.fields(cls) if callable(f.converter)}
    for cls in JOINT_KINDS
}


def joint_type_name(joint: Joint) -> str:
    """Return ``"fixed"``, ``"revolute"`` or ``"prismatic"``."""
    match joint:
        case FixedJoint():
            return "fixed"
        case RevoluteJoint():
            return "revolute"
        case PrismaticJoint():
            return "prismatic"


def _oriented(
    joint: FixedJoint | _MovingJoint, link1_H_link2: Transform, a: str, b: str
) -> Transform:
    if a == joint.link1 and b == joint.link2:
        return link1_H_link2
    if a == joint.link2 and b == joint.link1:
        return link1_H_link2.inverse()
    raise ModelError(
        f"({a!r}, {b!r}) are not the two ends of a joint between "
        f"{joint.link1!r} and {joint.link2!r}"
    )


def _other(joint: FixedJoint | _MovingJoint, link: str) -> str:
    if link == joint.link1:
        return joint.link2
    if link == joint.link2:
        return joint.link1
    raise ModelError(f"{link!r} is not an end of the joint ({joint.link1!r}, {joint.link2!r})")
