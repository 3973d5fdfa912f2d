"""Joints: revolute, prismatic and fixed UsdPhysics joints, written and read.

``body0`` is the joint's parent in the tree seen from the base and ``body1`` its child. A
UsdPhysics joint moves along the X, Y or Z axis of its joint frame; robomodel's axis can point
anywhere, so the writer takes a joint frame whose X axis is the joint axis (placed on the axis
line, :func:`~robomodel.formats.usd._math.frame_with_x_along`) and writes its pose in each body
as ``localPos0``/``localRot0`` and ``localPos1``/``localRot1``, with ``physics:axis = "X"``. At
the zero configuration the two local frames coincide, and the joint position is robomodel's.

Revolute limits are in degrees (as the schema says), prismatic ones in metres. A finite effort
limit becomes a ``PhysicsDriveAPI`` (``angular`` or ``linear``) with that ``maxForce``, no
stiffness and no damping; the velocity limit, joint damping and friction and mimic relations
have no UsdPhysics schema and are ``robomodel:`` attributes, as are the exact doubles of the
joint (``robomodel:link1_H_link2``, ``robomodel:axis:direction``, ...), which the reader prefers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from robomodel.formats.report import Loss
from robomodel.formats.usd._math import (
    frame_with_x_along,
    matrix_from_quaternion,
    quaternion_from_matrix,
)
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import get, matrix_of, put, transform_of_matrix
from robomodel.model.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.spatial import Axis, Transform

__all__ = ["joint_losses", "read_joint", "write_joint", "write_world_joint"]

_UNIT = {"X": (1.0, 0.0, 0.0), "Y": (0.0, 1.0, 0.0), "Z": (0.0, 0.0, 1.0)}


def _set_frames(p: Any, joint: Any, parent_H_J: Transform, child_H_J: Transform) -> None:
    for k, T in ((0, parent_H_J), (1, child_H_J)):
        w, x, y, z = quaternion_from_matrix(T.rotation)
        getattr(joint, f"CreateLocalPos{k}Attr")(p.Gf.Vec3f(*T.position.tolist()))
        getattr(joint, f"CreateLocalRot{k}Attr")(p.Gf.Quatf(w, p.Gf.Vec3f(x, y, z)))


def write_joint(
    stage: Any, path: str, name: str, joint: Joint, parent: str, child: str, bodies: dict[str, str]
) -> Any:
    """Define the UsdPhysics joint of ``joint`` at ``path``, ``parent`` as body0; return the prim.

    Args:
        stage: the stage.
        path: the joint prim's path.
        name: the joint name.
        joint: the joint.
        parent: the end of the joint nearer the base (body0).
        child: the other end (body1).
        bodies: the body prim path of every link name.
    """
    p = pxr()
    match joint:
        case FixedJoint():
            usd = p.UsdPhysics.FixedJoint.Define(stage, path)
            child_H_J = Transform.identity()
        case RevoluteJoint() | PrismaticJoint():
            kind = p.UsdPhysics.RevoluteJoint if isinstance(joint, RevoluteJoint) else None
            usd = (kind or p.UsdPhysics.PrismaticJoint).Define(stage, path)
            a = joint.axis(child)
            child_H_J = frame_with_x_along(a.direction, a.origin)
            usd.CreateAxisAttr("X")
    prim = usd.GetPrim()
    usd.CreateBody0Rel().SetTargets([bodies[parent]])
    usd.CreateBody1Rel().SetTargets([bodies[child]])
    _set_frames(p, usd, joint.rest_transform(parent, child) @ child_H_J, child_H_J)
    put(prim, "name", "string", name)
    put(prim, "link1", "string", joint.link1)
    put(prim, "link2", "string", joint.link2)
    put(prim, "link1_H_link2", "matrix4d", matrix_of(joint.link1_H_link2))
    if not isinstance(joint, FixedJoint):
        _write_moving(p, usd, prim, joint)
    return prim


def _write_moving(p: Any, usd: Any, prim: Any, joint: RevoluteJoint | PrismaticJoint) -> None:
    revolute = isinstance(joint, RevoluteJoint)
    lim = joint.limits
    if lim.enabled:
        scale = 180.0 / math.pi if revolute else 1.0
        if math.isfinite(lim.lower):
            usd.CreateLowerLimitAttr(lim.lower * scale)
        if math.isfinite(lim.upper):
            usd.CreateUpperLimitAttr(lim.upper * scale)
    if math.isfinite(joint.effort_limit):
        drive = p.UsdPhysics.DriveAPI.Apply(prim, "angular" if revolute else "linear")
        drive.CreateMaxForceAttr(joint.effort_limit)
    a = joint.axis_in_link1
    put(prim, "axis:direction", "double3", p.Gf.Vec3d(*a.direction.tolist()))
    put(prim, "axis:origin", "double3", p.Gf.Vec3d(*a.origin.tolist()))
    put(prim, "limits:enabled", "bool", lim.enabled)
    put(prim, "limits:lower", "double", lim.lower)
    put(prim, "limits:upper", "double", lim.upper)
    put(prim, "effort_limit", "double", joint.effort_limit)
    put(prim, "velocity_limit", "double", joint.velocity_limit)
    d = joint.dynamics
    put(prim, "dynamics:kind", "string", d.kind)
    put(prim, "dynamics:damping", "double", d.damping)
    put(prim, "dynamics:static_friction", "double", d.static_friction)
    if joint.mimic is not None:
        put(prim, "mimic:joint", "string", joint.mimic.joint)
        put(prim, "mimic:multiplier", "double", joint.mimic.multiplier)
        put(prim, "mimic:offset", "double", joint.mimic.offset)


def joint_losses(name: str, joint: Joint) -> list[Loss]:
    """The report entries of what UsdPhysics has no schema for in ``joint``."""
    if isinstance(joint, FixedJoint):
        return []
    out = []
    if math.isfinite(joint.velocity_limit):
        out.append(("velocity limit", "robomodel:velocity_limit"))
    if joint.dynamics.damping or joint.dynamics.static_friction:
        out.append(("damping and friction", "robomodel:dynamics:*"))
    if joint.mimic is not None:
        out.append(("mimic relation", "robomodel:mimic:*"))
    return [
        Loss(
            action="note",
            kind="joint",
            name=name,
            detail=f"{what}: no UsdPhysics schema, written as the custom attribute {attr}",
        )
        for what, attr in out
    ]


def write_world_joint(stage: Any, path: str, name: str, base_body: str) -> Any:
    """Define the fixed joint welding ``base_body`` (a prim path) to the world; return the prim."""
    p = pxr()
    usd = p.UsdPhysics.FixedJoint.Define(stage, path)
    usd.CreateBody1Rel().SetTargets([base_body])
    prim = usd.GetPrim()
    put(prim, "name", "string", name)
    put(prim, "world_joint", "bool", True)
    return prim


def _targets(rel: Any) -> list[str]:
    return [str(t) for t in rel.GetTargets()] if rel else []


def joint_bodies(prim: Any) -> tuple[list[str], list[str]]:
    """Return the target paths of the ``body0`` and ``body1`` relationships of a joint prim."""
    usd = pxr().UsdPhysics.Joint(prim)
    return _targets(usd.GetBody0Rel()), _targets(usd.GetBody1Rel())


def read_joint(prim: Any, body0: str, body1: str, losses: list[Loss], name: str) -> Joint:
    """Return the joint of a revolute, prismatic or fixed joint prim between two bodies.

    ``body0`` and ``body1`` are the link names of its bodies. robomodel's exact doubles are read
    where the file has them; otherwise the joint is read from the UsdPhysics attributes (local
    frames, axis, limits in degrees for a revolute joint, the drive's ``maxForce``).
    """
    p = pxr()
    exact = get(prim, "link1_H_link2")
    if exact is not None:
        return _read_exact(p, prim, exact, losses, name)
    usd = p.UsdPhysics.Joint(prim)
    J0, J1 = (_local_frame(usd, k) for k in (0, 1))
    rest = J0 @ J1.inverse()
    if prim.IsA(p.UsdPhysics.FixedJoint):
        return FixedJoint(link1=body0, link2=body1, link1_H_link2=rest)
    revolute = prim.IsA(p.UsdPhysics.RevoluteJoint)
    typed = (p.UsdPhysics.RevoluteJoint if revolute else p.UsdPhysics.PrismaticJoint)(prim)
    token = str(typed.GetAxisAttr().Get() or "X")
    axis = Axis(J0.rotation @ np.array(_UNIT.get(token, _UNIT["X"])), J0.position)
    scale = math.pi / 180.0 if revolute else 1.0
    lower = typed.GetLowerLimitAttr().Get()
    upper = typed.GetUpperLimitAttr().Get()
    lo = -math.inf if lower is None else float(lower) * scale
    hi = math.inf if upper is None else float(upper) * scale
    enabled = math.isfinite(lo) or math.isfinite(hi)
    drive = p.UsdPhysics.DriveAPI.Get(prim, "angular" if revolute else "linear")
    effort = _authored(prim, "urdf:limit:effort", math.inf)
    if drive and drive.GetMaxForceAttr().HasAuthoredValue():
        effort = float(drive.GetMaxForceAttr().Get())
    # Newton's joint attributes (newton-usd-schemas) are per degree for a revolute joint.
    velocity = _authored(prim, "newton:velocityLimit", math.inf) * scale
    damping = _authored(prim, "newton:damping", 0.0) / scale
    cls = RevoluteJoint if revolute else PrismaticJoint
    return cls(
        link1=body0,
        link2=body1,
        link1_H_link2=rest,
        axis_in_link1=axis,
        limits=PositionLimits(enabled=enabled, lower=lo, upper=hi) if enabled else PositionLimits(),
        effort_limit=effort if math.isfinite(effort) and effort >= 0.0 else math.inf,
        velocity_limit=velocity if math.isfinite(velocity) and velocity >= 0.0 else math.inf,
        dynamics=JointDynamics(kind="urdf", damping=damping) if damping > 0.0 else JointDynamics(),
    )


def _authored(prim: Any, name: str, default: float) -> float:
    attr = prim.GetAttribute(name)
    if not attr or not attr.HasAuthoredValue():
        return default
    value = attr.Get()
    return float(value) if isinstance(value, (int, float)) else default


def _local_frame(usd: Any, k: int) -> Transform:
    pos = getattr(usd, f"GetLocalPos{k}Attr")().Get()
    rot = getattr(usd, f"GetLocalRot{k}Attr")().Get()
    position = np.zeros(3) if pos is None else np.array(pos, dtype=np.float64)
    if rot is None:
        return Transform(np.eye(3), position)
    imag = rot.GetImaginary()
    return Transform(matrix_from_quaternion(rot.GetReal(), imag[0], imag[1], imag[2]), position)


def _read_exact(p: Any, prim: Any, link1_H_link2: Any, losses: list[Loss], name: str) -> Joint:
    link1 = str(get(prim, "link1"))
    link2 = str(get(prim, "link2"))
    rest = transform_of_matrix(link1_H_link2)
    if prim.IsA(p.UsdPhysics.FixedJoint):
        return FixedJoint(link1=link1, link2=link2, link1_H_link2=rest)
    cls = RevoluteJoint if prim.IsA(p.UsdPhysics.RevoluteJoint) else PrismaticJoint
    mimic = None
    if get(prim, "mimic:joint") is not None:
        mimic = Mimic(
            joint=str(get(prim, "mimic:joint")),
            multiplier=float(get(prim, "mimic:multiplier")),
            offset=float(get(prim, "mimic:offset")),
        )
    return cls(
        link1=link1,
        link2=link2,
        link1_H_link2=rest,
        axis_in_link1=_exact_axis(
            np.array(get(prim, "axis:direction"), dtype=np.float64),
            np.array(get(prim, "axis:origin"), dtype=np.float64),
        ),
        limits=_exact_limits(p, prim, cls is RevoluteJoint, losses, name),
        effort_limit=float(get(prim, "effort_limit")),
        velocity_limit=float(get(prim, "velocity_limit")),
        dynamics=JointDynamics(
            kind=str(get(prim, "dynamics:kind")),  # type: ignore[arg-type]
            damping=float(get(prim, "dynamics:damping")),
            static_friction=float(get(prim, "dynamics:static_friction")),
        ),
        mimic=mimic,
    )


_F32_MAX = 3.4028234663852886e38
"""float32's largest finite number."""

_F32_TINY = 1e-37
"""Below float32's smallest normal number: a double this small may be written as 0."""


def _schema_limit(attr: Any, scale: float) -> float | None:
    """A UsdPhysics limit in robomodel's units, or ``None`` when there is none (unset or inf)."""
    if not attr.HasAuthoredValue():
        return None
    value = float(attr.Get())
    return value / scale if math.isfinite(value) else None


def _exact_limits(
    p: Any, prim: Any, revolute: bool, losses: list[Loss], name: str
) -> PositionLimits:
    """Return robomodel's exact limits, or UsdPhysics' where they were edited.

    UsdPhysics' limits that differ from the exact ones by more than float precision were edited
    after robomodel wrote them: they are read instead, with a report entry.
    """
    exact = PositionLimits(
        enabled=bool(get(prim, "limits:enabled")),
        lower=float(get(prim, "limits:lower")),
        upper=float(get(prim, "limits:upper")),
    )
    typed = (p.UsdPhysics.RevoluteJoint if revolute else p.UsdPhysics.PrismaticJoint)(prim)
    scale = 180.0 / math.pi if revolute else 1.0
    now = (
        _schema_limit(typed.GetLowerLimitAttr(), scale),
        _schema_limit(typed.GetUpperLimitAttr(), scale),
    )
    # What the writer wrote as a float: nothing for disabled or infinite limits, and nothing
    # either (an infinite float) beyond float32's range.
    written = tuple(
        v if exact.enabled and math.isfinite(v) and abs(v * scale) < _F32_MAX else None
        for v in (exact.lower, exact.upper)
    )
    if all(
        (a is None and b is None)
        or (a is not None and b is not None and abs(a - b) <= 1e-6 * abs(b) + _F32_TINY)
        for a, b in zip(now, written, strict=True)
    ):
        return exact
    losses.append(
        Loss(
            action="changed",
            kind="joint",
            name=name,
            detail="physics:lowerLimit or physics:upperLimit differs from robomodel:limits:* (the "
            "file was edited after robomodel wrote it): read UsdPhysics' limits",
        )
    )
    lower = -math.inf if now[0] is None else now[0]
    upper = math.inf if now[1] is None else now[1]
    if math.isfinite(lower) or math.isfinite(upper):
        return PositionLimits(enabled=True, lower=lower, upper=upper)
    return PositionLimits()


_EXACT = 1e-12
"""A stored direction this close to unit length keeps its bits: normalising it again could
change the last one, and ``loads(dumps(m)) == m`` holds bit for bit."""


def _exact_axis(direction: Any, origin: Any) -> Axis:
    n = math.hypot(*direction.tolist())
    if np.all(np.isfinite(direction)) and np.all(np.isfinite(origin)) and abs(n - 1.0) <= _EXACT:
        return Axis._raw(direction, origin)
    return Axis(direction, origin)
