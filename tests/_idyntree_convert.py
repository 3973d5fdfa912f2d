"""Converters between iDynTree models and robomodel models, for the transformer reference tests.

Written against the iDynTree 15.1 Python bindings. Only what the transformer tests compare is
converted: links, joints (fixed, revolute, prismatic, with limits and dynamics), additional
frames, the default base, visual and collision shapes, sensors and package dirs.
"""

from __future__ import annotations

import warnings

from _sensors_bridge import add_sensors_to_idyntree

import robomodel as rm

with warnings.catch_warnings():
    # SWIG's types warn (DeprecationWarning) while idyntree loads; under pytest's
    # filterwarnings=error that warning is raised inside the extension's init and crashes it.
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

# --------------------------------------------------------------------------- idt -> robomodel


def transform_from_idt(T: idt.Transform) -> rm.Transform:
    return rm.Transform(T.getRotation().toNumPy(), T.getPosition().toNumPy())


def transform_to_idt(T: rm.Transform) -> idt.Transform:
    return idt.Transform(idt.Rotation(T.rotation), idt.Position(*[float(x) for x in T.position]))


def inertia_from_idt(inertia: idt.SpatialInertia) -> rm.SpatialInertia:
    return rm.SpatialInertia.from_vector(inertia.asVector().toNumPy())


def _joint_from_idt(m: idt.Model, j: idt.IJoint) -> rm.Joint:
    l1, l2 = j.getFirstAttachedLink(), j.getSecondAttachedLink()
    n1, n2 = m.getLinkName(l1), m.getLinkName(l2)
    rest = transform_from_idt(j.getRestTransform(l1, l2))
    if j.getNrOfDOFs() == 0:
        return rm.FixedJoint(link1=n1, link2=n2, link1_H_link2=rest)
    if j.isRevoluteJoint():
        concrete = j.asRevoluteJoint()
        cls: type[rm.RevoluteJoint] | type[rm.PrismaticJoint] = rm.RevoluteJoint
    else:
        concrete = j.asPrismaticJoint()
        cls = rm.PrismaticJoint
    ax = concrete.getAxis(l1)
    # getAxis(link1) is the stored axis reversed (iDynTree's convention): reverse it back.
    axis = rm.Axis(-ax.getDirection().toNumPy(), ax.getOrigin().toNumPy())
    limits = rm.PositionLimits(
        enabled=bool(j.hasPosLimits()), lower=j.getMinPosLimit(0), upper=j.getMaxPosLimit(0)
    )
    dynamics = rm.JointDynamics(
        kind="urdf" if j.getJointDynamicsType() == idt.URDFJointDynamics else "none",
        damping=j.getDamping(0),
        static_friction=j.getStaticFriction(0),
    )
    return cls(
        link1=n1,
        link2=n2,
        link1_H_link2=rest,
        axis_in_link1=axis,
        limits=limits,
        effort_limit=j.getEffortLimit(0),
        velocity_limit=j.getVelocityLimit(0),
        dynamics=dynamics,
    )


def _shape_from_idt(s: idt.SolidShape) -> rm.SolidShape:
    if s.isBox():
        b = s.asBox()
        geometry: rm.shapes.Geometry = rm.Box(b.getX(), b.getY(), b.getZ())
    elif s.isSphere():
        geometry = rm.Sphere(s.asSphere().getRadius())
    elif s.isCylinder():
        c = s.asCylinder()
        geometry = rm.Cylinder(c.getRadius(), c.getLength())
    else:
        e = s.asExternalMesh()
        geometry = rm.Mesh(e.getFilename(), tuple(e.getScale().toNumPy()))
    material = None
    if s.isMaterialSet():
        mat = s.getMaterial()
        material = rm.Material(
            name=mat.name(), rgba=tuple(mat.color().toNumPy()) if mat.hasColor() else None
        )
    return rm.SolidShape(
        geometry=geometry,
        name=s.getName() if s.isNameValid() else None,
        link_H_geometry=transform_from_idt(s.getLink_H_geometry()),
        material=material,
    )


def model_from_idt(m: idt.Model) -> rm.Model:
    """Return the robomodel model equal to an iDynTree model (same indices everywhere)."""
    n = m.getNrOfLinks()
    link_names = [m.getLinkName(i) for i in range(n)]
    links = [rm.Link(inertia_from_idt(m.getLink(i).getInertia())) for i in range(n)]
    joint_names = [m.getJointName(i) for i in range(m.getNrOfJoints())]
    joints = [_joint_from_idt(m, m.getJoint(i)) for i in range(m.getNrOfJoints())]
    frames = [
        rm.Frame(
            m.getFrameName(f),
            m.getLinkName(m.getFrameLink(f)),
            transform_from_idt(m.getFrameTransform(f)),
        )
        for f in range(n, m.getNrOfFrames())
    ]
    visuals = [[_shape_from_idt(s) for s in v] for v in m.visualSolidShapes().getLinkSolidShapes()]
    collisions = [
        [_shape_from_idt(s) for s in v] for v in m.collisionSolidShapes().getLinkSolidShapes()
    ]
    sl = m.sensors()
    sensors: list[rm.Sensor] = []
    for k in range(sl.getNrOfSensors(idt.SIX_AXIS_FORCE_TORQUE)):
        s = sl.getSixAxisForceTorqueSensor(k)
        T1, T2 = idt.Transform(), idt.Transform()
        s.getLinkSensorTransform(s.getFirstLinkIndex(), T1)
        s.getLinkSensorTransform(s.getSecondLinkIndex(), T2)
        sensors.append(
            rm.SixAxisForceTorqueSensor(
                name=s.getName(),
                parent_joint=s.getParentJoint(),
                first_link=s.getFirstLinkName(),
                second_link=s.getSecondLinkName(),
                first_link_H_sensor=transform_from_idt(T1),
                second_link_H_sensor=transform_from_idt(T2),
                applied_wrench_link=m.getLinkName(s.getAppliedWrenchLink()),
            )
        )
    for k in range(sl.getNrOfSensors(idt.ACCELEROMETER)):
        a = sl.getAccelerometerSensor(k)
        sensors.append(
            rm.Accelerometer(
                name=a.getName(),
                link=a.getParentLink(),
                link_H_sensor=transform_from_idt(a.getLinkSensorTransform()),
            )
        )
    for k in range(sl.getNrOfSensors(idt.GYROSCOPE)):
        g = sl.getGyroscopeSensor(k)
        sensors.append(
            rm.Gyroscope(
                name=g.getName(),
                link=g.getParentLink(),
                link_H_sensor=transform_from_idt(g.getLinkSensorTransform()),
            )
        )
    base = m.getDefaultBaseLink()
    return rm.Model(
        link_names=link_names,
        links=links,
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=link_names[base] if base >= 0 else None,
        visuals=visuals,
        collisions=collisions,
        sensors=sensors,
        package_dirs=list(m.getPackageDirs()),
    )


# --------------------------------------------------------------------------- robomodel -> idt


def _shape_to_idt(s: rm.SolidShape) -> idt.SolidShape:
    g = s.geometry
    if isinstance(g, rm.Box):
        out = idt.Box()
        out.setX(g.x)
        out.setY(g.y)
        out.setZ(g.z)
    elif isinstance(g, rm.Sphere):
        out = idt.Sphere()
        out.setRadius(g.radius)
    elif isinstance(g, rm.Cylinder):
        out = idt.Cylinder()
        out.setRadius(g.radius)
        out.setLength(g.length)
    else:
        out = idt.ExternalMesh()
        out.setFilename(g.filename)
        out.setScale(idt.Vector3(list(g.scale)))
    if s.name is not None:
        out.setName(s.name)
    out.setLink_H_geometry(transform_to_idt(s.link_H_geometry))
    return out


def model_to_idt(m: rm.Model) -> idt.Model:
    """Return the iDynTree model equal to a robomodel model (same indices everywhere)."""
    out = idt.Model()
    for name, link in zip(m.link_names, m.links, strict=True):
        lk = idt.Link()
        inertia = idt.SpatialInertia()
        inertia.fromVector(idt.Vector10(link.inertia.as_vector()))
        lk.setInertia(inertia)
        out.addLink(name, lk)
    for name, j in zip(m.joint_names, m.joints, strict=True):
        rest = transform_to_idt(j.link1_H_link2)
        if isinstance(j, rm.FixedJoint):
            ij: idt.IJoint = idt.FixedJoint(rest)
        else:
            ij = idt.RevoluteJoint() if isinstance(j, rm.RevoluteJoint) else idt.PrismaticJoint()
            ij.setRestTransform(rest)
            a = j.axis(j.link2)  # setAxis takes the axis in the child's frame
            l1 = m.link_index(j.link1)
            l2 = m.link_index(j.link2)
            ij.setAttachedLinks(l1, l2)
            ij.setAxis(
                idt.Axis(
                    idt.Direction(*[float(x) for x in a.direction]),
                    idt.Position(*[float(x) for x in a.origin]),
                ),
                l2,
                l1,
            )
            ij.enablePosLimits(j.limits.enabled)
            ij.setPosLimits(0, j.limits.lower, j.limits.upper)
            ij.setEffortLimit(0, j.effort_limit)
            ij.setVelocityLimit(0, j.velocity_limit)
            if j.dynamics.kind == "urdf":
                ij.setJointDynamicsType(idt.URDFJointDynamics)
            ij.setDamping(0, j.dynamics.damping)
            ij.setStaticFriction(0, j.dynamics.static_friction)
        assert out.addJoint(j.link1, j.link2, name, ij) >= 0, name
    for f in m.frames:
        assert out.addAdditionalFrameToLink(f.link, f.name, transform_to_idt(f.link_H_frame))
    if m.default_base is not None:
        out.setDefaultBaseLink(m.link_index(m.default_base))
    vis = out.visualSolidShapes()
    col = out.collisionSolidShapes()
    for i in range(m.n_links):
        for s in m.visuals[i]:
            vis.addSingleLinkSolidShape(i, _shape_to_idt(s))
        for s in m.collisions[i]:
            col.addSingleLinkSolidShape(i, _shape_to_idt(s))
    # One conversion of sensors for every test bridge.
    add_sensors_to_idyntree(out, m)
    return out


def load_idt(path: str) -> idt.Model:
    ml = idt.ModelLoader()
    assert ml.loadModelFromFile(str(path))
    return ml.model().copy()


def idt_joint_names(m: idt.Model) -> list[str]:
    return [m.getJointName(i) for i in range(m.getNrOfJoints())]


def idt_link_names(m: idt.Model) -> list[str]:
    return [m.getLinkName(i) for i in range(m.getNrOfLinks())]


def idt_frame_names(m: idt.Model) -> list[str]:
    return [m.getFrameName(i) for i in range(m.getNrOfLinks(), m.getNrOfFrames())]


__all__ = [
    "idt",
    "idt_frame_names",
    "idt_joint_names",
    "idt_link_names",
    "inertia_from_idt",
    "load_idt",
    "model_from_idt",
    "model_to_idt",
    "transform_from_idt",
    "transform_to_idt",
]
