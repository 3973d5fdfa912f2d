"""Conversion to and from the peers: iDynTree models (both ways) and Pinocchio models.

The peers are optional: each function imports its library when called and raises
:class:`~robomodel.errors.OptionalDependencyError` saying what to install when it is absent.

* :func:`to_idyntree` builds an ``idyntree.bindings.Model`` element by element, with the same
  link, joint and frame indices: links (inertias), joints (type, link1/link2, rest transform,
  axis, limits, dynamics), additional frames, visual and collision shapes (geometry, name,
  pose, material colour and texture), sensors (F/T, accelerometers, gyroscopes, in the
  model's order), the default base and the package dirs.
* :func:`from_idyntree` reads those back into a :class:`~robomodel.model.record.Model`.
* :func:`to_pinocchio` goes through URDF text (:func:`robomodel.formats.urdf.dumps`) and
  ``pinocchio.buildModelFromXML``; Pinocchio numbers joints its own way (depth first from the
  root), so compare by name.

What iDynTree's ``Model`` cannot hold is reported, never silently dropped: :func:`to_idyntree`
warns (:class:`~robomodel.errors.RobomodelWarning`) when mimic relations, kept extensions (of the
model, its shapes or materials) or robot-level materials are left behind. iDynTree keeps its
sensors grouped by kind (F/T, then accelerometers, then gyroscopes), so a model whose sensors
are in another order comes back from :func:`from_idyntree` in that grouped order.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from robomodel._internal.deprecation import renamed_attributes
from robomodel.errors import ModelError, OptionalDependencyError, warn
from robomodel.model.joints import (
    FixedJoint,
    Joint,
    JointDynamics,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.record import Frame, Link, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.model.spatial import Axis, SpatialInertia, Transform

__all__ = ["from_idyntree", "to_idyntree", "to_pinocchio"]

__getattr__ = renamed_attributes(
    __name__,
    {
        "MissingDependencyError": (
            "robomodel.errors.OptionalDependencyError",
            lambda: OptionalDependencyError,
        )
    },
)


def _idyntree() -> Any:
    try:
        import idyntree.bindings as idt
    except ImportError:
        raise OptionalDependencyError(
            "this needs the idyntree Python bindings; install them with `pip install idyntree` "
            "(or conda install -c conda-forge idyntree)",
            package="idyntree",
        ) from None
    return idt


def _idt_transform(idt: Any, T: Transform) -> Any:
    return idt.Transform(idt.Rotation(np.array(T.rotation)), idt.Position(np.array(T.position)))


def _rm_transform(T: Any) -> Transform:
    H = T.asHomogeneousTransform().toNumPy()
    return Transform(H[:3, :3], H[:3, 3])


def _lost(model: Model) -> list[str]:
    lost: list[str] = []
    shapes = [s for group in (*model.visuals, *model.collisions) for s in group]
    kept = sum(len(s.extensions) + len(s.material.extensions if s.material else ()) for s in shapes)
    if kept:
        lost.append(f"{kept} kept children of shapes and their materials")
    mimics = [
        n
        for n, j in zip(model.joint_names, model.joints, strict=True)
        if not isinstance(j, FixedJoint) and j.mimic is not None
    ]
    if mimics:
        lost.append("the mimic relations of " + ", ".join(map(repr, mimics)))
    if model.extensions:
        lost.append(f"{len(model.extensions)} kept extensions")
    if model.materials:
        lost.append(f"{len(model.materials)} robot-level materials")
    return lost


def to_idyntree(model: Model) -> Any:
    """Return an ``idyntree.bindings.Model`` with the same links, joints, frames, shapes, sensors.

    Indices are preserved: link ``i``, joint ``j`` and frame ``f`` of the result are those of
    ``model``. Infinite (unknown) effort and velocity limits are left disabled.

    Args:
        model: the model.

    Returns:
        A new ``idyntree.bindings.Model``.

    Raises:
        OptionalDependencyError: idyntree is not installed.
        ModelError: iDynTree refused an element (the message names it).

    Warns:
        RobomodelWarning: the model has mimic relations, kept extensions (its own or inside
            shapes and materials) or robot-level materials, which this conversion does not
            carry.
    """
    idt = _idyntree()
    lost = _lost(model)
    if lost:
        warn("to_idyntree: iDynTree's Model does not receive " + "; ".join(lost))
    out = idt.Model()
    for name, link in zip(model.link_names, model.links, strict=True):
        lk = idt.Link()
        si = idt.SpatialInertia()
        si.fromVector(idt.Vector10(np.array(link.inertia.as_vector())))
        lk.setInertia(si)
        if out.addLink(name, lk) < 0:
            raise ModelError(f"to_idyntree: iDynTree refused link {name!r}")
    for name, j in zip(model.joint_names, model.joints, strict=True):
        ij = _idt_joint(idt, model, j)
        if out.addJoint(name, ij) < 0:
            raise ModelError(f"to_idyntree: iDynTree refused joint {name!r}")
    for f in model.frames:
        if not out.addAdditionalFrameToLink(f.link, f.name, _idt_transform(idt, f.link_H_frame)):
            raise ModelError(f"to_idyntree: iDynTree refused frame {f.name!r}")
    if model.default_base is not None:
        out.setDefaultBaseLink(model.default_base_index)
    if model.package_dirs:
        out.setPackageDirs(list(model.package_dirs))
    for shapes, store in (
        (model.visuals, out.visualSolidShapes()),
        (model.collisions, out.collisionSolidShapes()),
    ):
        for i, group in enumerate(shapes):
            for shape in group:
                store.addSingleLinkSolidShape(i, _idt_shape(idt, shape))
    sensors = out.sensors()
    for sensor in model.sensors:
        if sensors.addSensor(_idt_sensor(idt, out, sensor)) < 0:
            raise ModelError(f"to_idyntree: iDynTree refused sensor {sensor.name!r}")
    return out


def _idt_shape(idt: Any, s: SolidShape) -> Any:
    g = s.geometry
    match g:
        case Box():
            out = idt.Box()
            out.setX(g.x)
            out.setY(g.y)
            out.setZ(g.z)
        case Sphere():
            out = idt.Sphere()
            out.setRadius(g.radius)
        case Cylinder():
            out = idt.Cylinder()
            out.setRadius(g.radius)
            out.setLength(g.length)
        case Mesh():
            out = idt.ExternalMesh()
            out.setFilename(g.filename)
            out.setScale(idt.Vector3(list(g.scale)))
    if s.name is not None:
        out.setName(s.name)
    out.setLink_H_geometry(_idt_transform(idt, s.link_H_geometry))
    if s.material is not None:
        mat = idt.Material(s.material.name)
        if s.material.rgba is not None:
            mat.setColor(idt.Vector4(list(s.material.rgba)))
        if s.material.texture is not None:
            mat.setTexture(s.material.texture)
        out.setMaterial(mat)
    return out


def _idt_sensor(idt: Any, out: Any, s: Sensor) -> Any:
    match s:
        case SixAxisForceTorqueSensor():
            ft = idt.SixAxisForceTorqueSensor()
            ft.setName(s.name)
            ft.setParentJoint(s.parent_joint)
            ft.setParentJointIndex(out.getJointIndex(s.parent_joint))
            i1, i2 = out.getLinkIndex(s.first_link), out.getLinkIndex(s.second_link)
            ft.setFirstLinkName(s.first_link)
            ft.setSecondLinkName(s.second_link)
            ft.setFirstLinkSensorTransform(i1, _idt_transform(idt, s.first_link_H_sensor))
            ft.setSecondLinkSensorTransform(i2, _idt_transform(idt, s.second_link_H_sensor))
            ft.setAppliedWrenchLink(out.getLinkIndex(s.applied_wrench_link))
            return ft
        case Accelerometer() | Gyroscope():
            ls = (
                idt.AccelerometerSensor() if isinstance(s, Accelerometer) else idt.GyroscopeSensor()
            )
            ls.setName(s.name)
            ls.setParentLink(s.link)
            ls.setParentLinkIndex(out.getLinkIndex(s.link))
            ls.setLinkSensorTransform(_idt_transform(idt, s.link_H_sensor))
            return ls


def _idt_joint(idt: Any, model: Model, j: Joint) -> Any:
    i1, i2 = model.link_index(j.link1), model.link_index(j.link2)
    rest = _idt_transform(idt, j.link1_H_link2)
    if isinstance(j, FixedJoint):
        fj = idt.FixedJoint(i1, i2, rest)
        return fj
    ij = idt.RevoluteJoint() if isinstance(j, RevoluteJoint) else idt.PrismaticJoint()
    ij.setAttachedLinks(i1, i2)
    ij.setRestTransform(rest)
    a = j.axis_in_link1
    d, o = a.direction, a.origin
    ij.setAxis(idt.Axis(idt.Direction(*map(float, d)), idt.Position(*map(float, o))))
    ij.setPosLimits(0, _clip(j.limits.lower), _clip(j.limits.upper))
    ij.enablePosLimits(j.limits.enabled)
    if math.isfinite(j.effort_limit):
        ij.setEffortLimit(0, j.effort_limit)
        ij.enableEffortLimits(True)
    if math.isfinite(j.velocity_limit):
        ij.setVelocityLimit(0, j.velocity_limit)
        ij.enableVelocityLimits(True)
    if j.dynamics.kind == "urdf":
        ij.setJointDynamicsType(idt.URDFJointDynamics)
        ij.setDamping(0, j.dynamics.damping)
        ij.setStaticFriction(0, j.dynamics.static_friction)
    return ij


_DBL_MAX = float(np.finfo(np.float64).max)


def _clip(x: float) -> float:
    # iDynTree stores unknown limits as +-DBL_MAX, robomodel as +-inf.
    return max(-_DBL_MAX, min(_DBL_MAX, x))


def _unclip(x: float) -> float:
    return math.inf if x >= _DBL_MAX else -math.inf if x <= -_DBL_MAX else float(x)


def from_idyntree(idyn_model: Any, *, name: str = "") -> Model:
    """Return the robomodel :class:`~robomodel.model.Model` of an ``idyntree.bindings.Model``.

    Links, joints (fixed, revolute, prismatic), additional frames, visual and collision shapes,
    sensors, the default base and the package dirs are read, with the same indices.

    Args:
        idyn_model: an ``idyntree.bindings.Model``.
        name: the robot name to give the result (iDynTree models have none).

    Raises:
        OptionalDependencyError: idyntree is not installed.
        ModelError: a joint type robomodel does not model (spherical, revolute SO2), or a solid
            shape kind it does not model.
    """
    idt = _idyntree()
    m = idyn_model
    n = m.getNrOfLinks()
    link_names = [m.getLinkName(i) for i in range(n)]
    links = [
        Link(SpatialInertia.from_vector(m.getLink(i).getInertia().asVector().toNumPy()))
        for i in range(n)
    ]
    joint_names: list[str] = []
    joints: list[Joint] = []
    for k in range(m.getNrOfJoints()):
        jn = m.getJointName(k)
        joint_names.append(jn)
        joints.append(_rm_joint(idt, m, jn, m.getJoint(k), link_names))
    frames = [
        Frame(
            m.getFrameName(f), link_names[m.getFrameLink(f)], _rm_transform(m.getFrameTransform(f))
        )
        for f in range(n, m.getNrOfFrames())
    ]
    base = m.getDefaultBaseLink()
    return Model(
        name=name,
        link_names=link_names,
        links=links,
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=link_names[base] if 0 <= base < n else None,
        visuals=[[_rm_shape(s) for s in v] for v in m.visualSolidShapes().getLinkSolidShapes()],
        collisions=[
            [_rm_shape(s) for s in c] for c in m.collisionSolidShapes().getLinkSolidShapes()
        ],
        sensors=_rm_sensors(idt, m),
        package_dirs=list(m.getPackageDirs()),
    )


def _rm_shape(s: Any) -> SolidShape:
    geometry: Geometry
    if s.isBox():
        b = s.asBox()
        geometry = Box(b.getX(), b.getY(), b.getZ())
    elif s.isSphere():
        geometry = Sphere(s.asSphere().getRadius())
    elif s.isCylinder():
        c = s.asCylinder()
        geometry = Cylinder(c.getRadius(), c.getLength())
    elif s.isExternalMesh():
        e = s.asExternalMesh()
        sx, sy, sz = e.getScale().toNumPy().tolist()
        geometry = Mesh(e.getFilename(), (sx, sy, sz))
    else:
        raise ModelError(
            "from_idyntree: a solid shape of a kind robomodel does not model (only box, sphere, "
            "cylinder and mesh)"
        )
    material = None
    if s.isMaterialSet():
        mat = s.getMaterial()
        material = Material(
            name=mat.name(),
            rgba=tuple(mat.color().toNumPy().tolist()) if mat.hasColor() else None,
            texture=mat.texture() if mat.hasTexture() else None,
        )
    return SolidShape(
        geometry=geometry,
        name=s.getName() if s.isNameValid() else None,
        link_H_geometry=_rm_transform(s.getLink_H_geometry()),
        material=material,
    )


def _rm_sensors(idt: Any, m: Any) -> list[Sensor]:
    sl = m.sensors()
    out: list[Sensor] = []
    for k in range(sl.getNrOfSensors(idt.SIX_AXIS_FORCE_TORQUE)):
        s = sl.getSixAxisForceTorqueSensor(k)
        i1, i2 = s.getFirstLinkIndex(), s.getSecondLinkIndex()
        T1, T2 = idt.Transform(), idt.Transform()
        if not (s.getLinkSensorTransform(i1, T1) and s.getLinkSensorTransform(i2, T2)):
            raise ModelError(f"from_idyntree: F/T sensor {s.getName()!r} has no link transforms")
        out.append(
            SixAxisForceTorqueSensor(
                name=s.getName(),
                parent_joint=s.getParentJoint(),
                first_link=s.getFirstLinkName(),
                second_link=s.getSecondLinkName(),
                first_link_H_sensor=_rm_transform(T1),
                second_link_H_sensor=_rm_transform(T2),
                applied_wrench_link=m.getLinkName(s.getAppliedWrenchLink()),
            )
        )
    for kind, get, cls in (
        (idt.ACCELEROMETER, sl.getAccelerometerSensor, Accelerometer),
        (idt.GYROSCOPE, sl.getGyroscopeSensor, Gyroscope),
    ):
        for k in range(sl.getNrOfSensors(kind)):
            ls = get(k)
            out.append(
                cls(
                    name=ls.getName(),
                    link=ls.getParentLink(),
                    link_H_sensor=_rm_transform(ls.getLinkSensorTransform()),
                )
            )
    return out


def _rm_joint(idt: Any, m: Any, name: str, j: Any, names: list[str]) -> Joint:
    i1, i2 = j.getFirstAttachedLink(), j.getSecondAttachedLink()
    l1, l2 = names[i1], names[i2]
    rest = _rm_transform(j.getRestTransform(i1, i2))
    if j.isFixedJoint():
        return FixedJoint(link1=l1, link2=l2, link1_H_link2=rest)
    cls: type[RevoluteJoint] | type[PrismaticJoint]
    if j.isRevoluteJoint():
        ij, cls = j.asRevoluteJoint(), RevoluteJoint
    elif j.isPrismaticJoint():
        ij, cls = j.asPrismaticJoint(), PrismaticJoint
    else:
        raise ModelError(
            f"from_idyntree: joint {name!r} is of a type robomodel does not model (only fixed, "
            "revolute and prismatic joints)"
        )
    # getAxis(link1) is the stored link1 axis reversed (iDynTree semantics), so undo that.
    ax = ij.getAxis(i1)
    axis = Axis(ax.getDirection().toNumPy(), ax.getOrigin().toNumPy()).reversed()
    damping, friction = ij.getDamping(0), ij.getStaticFriction(0)
    # iDynTree keeps damping and friction beside NoJointDynamics (and its exporter then drops
    # them); robomodel's "none" carries no values, so values that are there say "urdf".
    dyn_kind: Literal["none", "urdf"] = (
        "urdf"
        if ij.getJointDynamicsType() == idt.URDFJointDynamics or damping or friction
        else "none"
    )
    return cls(
        link1=l1,
        link2=l2,
        link1_H_link2=rest,
        axis_in_link1=axis,
        limits=PositionLimits(
            enabled=bool(ij.hasPosLimits()),
            lower=_unclip(ij.getMinPosLimit(0)),
            upper=_unclip(ij.getMaxPosLimit(0)),
        ),
        effort_limit=ij.getEffortLimit(0) if ij.hasEffortLimits() else math.inf,
        velocity_limit=ij.getVelocityLimit(0) if ij.hasVelocityLimits() else math.inf,
        dynamics=JointDynamics(kind=dyn_kind, damping=damping, static_friction=friction),
    )


def to_pinocchio(model: Model, *, root_joint: Any = None) -> Any:
    """Return a ``pinocchio.Model`` built from the URDF text of ``model``.

    Args:
        model: the model; it must be exportable as URDF (see
            :func:`robomodel.transformers.change_base.change_base` to pick the root).
        root_joint: a Pinocchio joint model for the root (e.g. ``pinocchio.JointModelFreeFlyer()``);
            ``None`` for a fixed base.

    Raises:
        OptionalDependencyError: pinocchio is not installed.
    """
    try:
        import pinocchio as pin
    except ImportError:
        raise OptionalDependencyError(
            "this needs Pinocchio; install it with `pip install pin` "
            "(or conda install -c conda-forge pinocchio)",
            package="pinocchio",
        ) from None
    from robomodel.formats.urdf import dumps

    text = dumps(model)
    if root_joint is None:
        return pin.buildModelFromXML(text)
    return pin.buildModelFromXML(text, root_joint)
