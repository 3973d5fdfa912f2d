"""The test suite's iDynTree oracle: converters both ways and iDynTree's own computations.

Written against the iDynTree 15.1 Python bindings and independent of ``robomodel.formats.interop``
(whose conversions the suite checks against this module), so it uses only iDynTree's API and
robomodel's value constructors.

* :func:`model_to_idt`: robomodel Model -> ``idt.Model``: links, joints (fixed, revolute,
  prismatic; rest transforms, axes in link1, limits, effort/velocity limits, dynamics),
  additional frames, the default base, visual and collision shapes (without materials) and
  sensors, every one at the same index and with the same joint direction (link1/link2).
* :func:`model_from_idt`: ``idt.Model`` -> robomodel Model: the same, plus shape materials and
  package dirs.
* :func:`add_sensors_to_idt` and :func:`sensors_from_idt`: the sensor lists alone, both ways.
* :func:`kindyn`, :func:`idt_relative_transform`, :func:`idt_rnea`, :func:`idt_predict`:
  iDynTree's forward kinematics, inverse dynamics and sensor predictions on given inputs.
"""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any

import numpy as np

import robomodel as rm
import robomodel.model.shapes

with warnings.catch_warnings():
    # SWIG's types warn (DeprecationWarning) while idyntree loads; under pytest's
    # filterwarnings=error that warning is raised inside the extension's init and crashes it.
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

KINDS = (idt.SIX_AXIS_FORCE_TORQUE, idt.ACCELEROMETER, idt.GYROSCOPE)

# iDynTree has no infinite joint limits: robomodel's +-inf (unknown) goes over as this, and any
# limit at least this large comes back as +-inf.
_UNBOUNDED = 1e300


class OracleError(Exception):
    """iDynTree refused an input or a computation failed (a defect in the test, not the library)."""


def _check(ok: object, what: str) -> None:
    if not ok:
        raise OracleError(f"iDynTree: {what} failed")


# --------------------------------------------------------------------------- values


def transform_to_idt(T: rm.Transform) -> Any:
    """Return an ``idt.Transform`` equal to ``T``."""
    return idt.Transform(
        idt.Rotation(np.asarray(T.rotation)), idt.Position(*[float(x) for x in T.position])
    )


def transform_from_idt(T: Any) -> rm.Transform:
    """Return a robomodel Transform equal to an ``idt.Transform``."""
    return rm.Transform(T.getRotation().toNumPy(), T.getPosition().toNumPy())


def inertia_to_idt(inertia: rm.SpatialInertia) -> Any:
    """Return an ``idt.SpatialInertia`` with the same 10 inertial parameters."""
    out = idt.SpatialInertia()
    out.fromVector(idt.Vector10.FromPython([float(x) for x in inertia.as_vector()]))
    return out


def inertia_from_idt(inertia: Any) -> rm.SpatialInertia:
    """Return a robomodel SpatialInertia with the parameters of an ``idt.SpatialInertia``."""
    return rm.SpatialInertia.from_vector(inertia.asVector().toNumPy())


def _bounded(x: float) -> float:
    return math.copysign(_UNBOUNDED, x) if math.isinf(x) else x


def _unbounded(x: float) -> float:
    return math.copysign(math.inf, x) if abs(x) >= _UNBOUNDED else x


# --------------------------------------------------------------------------- robomodel -> idt


def _joint_to_idt(j: rm.Joint) -> Any:
    rest = transform_to_idt(j.link1_H_link2)
    match j:
        case rm.FixedJoint():
            return idt.FixedJoint(rest)
        case rm.RevoluteJoint() | rm.PrismaticJoint():
            out = idt.RevoluteJoint() if isinstance(j, rm.RevoluteJoint) else idt.PrismaticJoint()
            out.setRestTransform(rest)
            a = j.axis_in_link1
            # The one-argument setAxis takes the axis in link1 coordinates, as robomodel stores it.
            out.setAxis(
                idt.Axis(
                    idt.Direction(*[float(x) for x in a.direction]),
                    idt.Position(*[float(x) for x in a.origin]),
                )
            )
            out.setPosLimits(0, _bounded(j.limits.lower), _bounded(j.limits.upper))
            out.enablePosLimits(j.limits.enabled)
            out.setEffortLimit(0, j.effort_limit)
            out.setVelocityLimit(0, j.velocity_limit)
            if j.dynamics.kind == "urdf":
                out.setJointDynamicsType(idt.URDFJointDynamics)
            out.setDamping(0, j.dynamics.damping)
            out.setStaticFriction(0, j.dynamics.static_friction)
            return out


def _shape_to_idt(s: rm.SolidShape) -> Any:
    match s.geometry:
        case rm.Box(x=x, y=y, z=z):
            out = idt.Box()
            out.setX(x)
            out.setY(y)
            out.setZ(z)
        case rm.Sphere(radius=r):
            out = idt.Sphere()
            out.setRadius(r)
        case rm.Cylinder(radius=r, length=length):
            out = idt.Cylinder()
            out.setRadius(r)
            out.setLength(length)
        case rm.Mesh(filename=filename, scale=scale):
            out = idt.ExternalMesh()
            out.setFilename(filename)
            out.setScale(idt.Vector3([float(x) for x in scale]))
    if s.name is not None:
        out.setName(s.name)
    out.setLink_H_geometry(transform_to_idt(s.link_H_geometry))
    return out


def add_sensors_to_idt(im: Any, model: rm.Model) -> Any:
    """Add ``model``'s sensors to the iDynTree model ``im`` (same link and joint names).

    Sensors already in ``im`` under the same name and kind are left as they are, so that adding
    the sensors of a model :func:`model_to_idt` made is a no-op. Returns ``im``.
    """
    sl = im.sensors()
    for s in model.sensors:
        match s:
            case rm.SixAxisForceTorqueSensor():
                kind = idt.SIX_AXIS_FORCE_TORQUE
                ft = idt.SixAxisForceTorqueSensor()
                ft.setName(s.name)
                ft.setParentJoint(s.parent_joint)
                ft.setParentJointIndex(im.getJointIndex(s.parent_joint))
                ft.setFirstLinkName(s.first_link)
                ft.setSecondLinkName(s.second_link)
                ft.setFirstLinkSensorTransform(
                    im.getLinkIndex(s.first_link), transform_to_idt(s.first_link_H_sensor)
                )
                ft.setSecondLinkSensorTransform(
                    im.getLinkIndex(s.second_link), transform_to_idt(s.second_link_H_sensor)
                )
                ft.setAppliedWrenchLink(im.getLinkIndex(s.applied_wrench_link))
                sensor: Any = ft
            case rm.Accelerometer() | rm.Gyroscope():
                if isinstance(s, rm.Accelerometer):
                    kind, sensor = idt.ACCELEROMETER, idt.AccelerometerSensor()
                else:
                    kind, sensor = idt.GYROSCOPE, idt.GyroscopeSensor()
                sensor.setName(s.name)
                sensor.setParentLink(s.link)
                sensor.setParentLinkIndex(im.getLinkIndex(s.link))
                sensor.setLinkSensorTransform(transform_to_idt(s.link_H_sensor))
        if sl.getSensorIndex(kind, s.name) >= 0:
            continue
        if sl.addSensor(sensor) < 0:
            raise OracleError(f"iDynTree refused sensor {s.name!r}")
    return im


def model_to_idt(model: rm.Model) -> Any:
    """Return the ``idt.Model`` equal to ``model`` (same indices everywhere).

    Shape materials are not carried (the oracle's writer leaves them to ``io.interop``).
    """
    out = idt.Model()
    for name, link in zip(model.link_names, model.links, strict=True):
        lk = idt.Link()
        lk.setInertia(inertia_to_idt(link.inertia))
        if out.addLink(name, lk) < 0:
            raise OracleError(f"iDynTree refused link {name!r}")
    for name, j in zip(model.joint_names, model.joints, strict=True):
        if out.addJoint(j.link1, j.link2, name, _joint_to_idt(j)) < 0:
            raise OracleError(f"iDynTree refused joint {name!r}")
    for f in model.frames:
        if not out.addAdditionalFrameToLink(f.link, f.name, transform_to_idt(f.link_H_frame)):
            raise OracleError(f"iDynTree refused frame {f.name!r}")
    if model.default_base is not None:
        out.setDefaultBaseLink(model.link_index(model.default_base))
    vis, col = out.visualSolidShapes(), out.collisionSolidShapes()
    for i in range(model.n_links):
        for s in model.visuals[i]:
            vis.addSingleLinkSolidShape(i, _shape_to_idt(s))
        for s in model.collisions[i]:
            col.addSingleLinkSolidShape(i, _shape_to_idt(s))
    return add_sensors_to_idt(out, model)


# --------------------------------------------------------------------------- idt -> robomodel


def _joint_from_idt(m: Any, j: Any) -> rm.Joint:
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
    # getAxis(link1) gives the motion of link1 with respect to link2: the stored axis reversed.
    axis = rm.Axis(-ax.getDirection().toNumPy(), ax.getOrigin().toNumPy())
    limits = rm.PositionLimits(
        enabled=bool(j.hasPosLimits()),
        lower=_unbounded(j.getMinPosLimit(0)),
        upper=_unbounded(j.getMaxPosLimit(0)),
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


def _shape_from_idt(s: Any) -> rm.SolidShape:
    if s.isBox():
        b = s.asBox()
        geometry: rm.model.shapes.Geometry = rm.Box(b.getX(), b.getY(), b.getZ())
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


def sensors_from_idt(im: Any) -> list[rm.Sensor]:
    """Return iDynTree's sensors as robomodel values, kind by kind in iDynTree's enum order."""
    sl = im.sensors()
    out: list[rm.Sensor] = []
    for k in range(sl.getNrOfSensors(idt.SIX_AXIS_FORCE_TORQUE)):
        s = sl.getSixAxisForceTorqueSensor(k)
        l1, l2 = s.getFirstLinkIndex(), s.getSecondLinkIndex()
        T1, T2 = idt.Transform(), idt.Transform()
        _check(s.getLinkSensorTransform(l1, T1), f"first link transform of {s.getName()!r}")
        _check(s.getLinkSensorTransform(l2, T2), f"second link transform of {s.getName()!r}")
        out.append(
            rm.SixAxisForceTorqueSensor(
                name=s.getName(),
                parent_joint=s.getParentJoint(),
                first_link=s.getFirstLinkName(),
                second_link=s.getSecondLinkName(),
                first_link_H_sensor=transform_from_idt(T1),
                second_link_H_sensor=transform_from_idt(T2),
                applied_wrench_link=im.getLinkName(s.getAppliedWrenchLink()),
            )
        )
    for kind, getter, cls in (
        (idt.ACCELEROMETER, "getAccelerometerSensor", rm.Accelerometer),
        (idt.GYROSCOPE, "getGyroscopeSensor", rm.Gyroscope),
    ):
        for k in range(sl.getNrOfSensors(kind)):
            s = getattr(sl, getter)(k)
            out.append(
                cls(
                    name=s.getName(),
                    link=s.getParentLink(),
                    link_H_sensor=transform_from_idt(s.getLinkSensorTransform()),
                )
            )
    return out


def model_from_idt(m: Any) -> rm.Model:
    """Return the robomodel Model equal to an ``idt.Model`` (same indices everywhere)."""
    n = m.getNrOfLinks()
    link_names = [m.getLinkName(i) for i in range(n)]
    frames = [
        rm.Frame(
            m.getFrameName(f),
            m.getLinkName(m.getFrameLink(f)),
            transform_from_idt(m.getFrameTransform(f)),
        )
        for f in range(n, m.getNrOfFrames())
    ]
    base = m.getDefaultBaseLink()
    return rm.Model(
        link_names=link_names,
        links=[rm.Link(inertia_from_idt(m.getLink(i).getInertia())) for i in range(n)],
        joint_names=[m.getJointName(i) for i in range(m.getNrOfJoints())],
        joints=[_joint_from_idt(m, m.getJoint(i)) for i in range(m.getNrOfJoints())],
        frames=frames,
        default_base=link_names[base] if 0 <= base < n else None,
        visuals=[
            [_shape_from_idt(s) for s in v] for v in m.visualSolidShapes().getLinkSolidShapes()
        ],
        collisions=[
            [_shape_from_idt(s) for s in v] for v in m.collisionSolidShapes().getLinkSolidShapes()
        ],
        sensors=sensors_from_idt(m),
        package_dirs=list(m.getPackageDirs()),
    )


def load_idt(path: str) -> Any:
    """Return iDynTree's model of a URDF file (its own loader)."""
    loader = idt.ModelLoader()
    _check(loader.loadModelFromFile(str(path)), f"loading {path}")
    return loader.model().copy()


def idt_link_names(m: Any) -> list[str]:
    """Return an ``idt.Model``'s link names in index order."""
    return [m.getLinkName(i) for i in range(m.getNrOfLinks())]


def idt_joint_names(m: Any) -> list[str]:
    """Return an ``idt.Model``'s joint names in index order."""
    return [m.getJointName(i) for i in range(m.getNrOfJoints())]


def idt_frame_names(m: Any) -> list[str]:
    """Return an ``idt.Model``'s additional frame names in index order."""
    return [m.getFrameName(i) for i in range(m.getNrOfLinks(), m.getNrOfFrames())]


@functools.cache
def load_icub(name: str) -> rm.Model:
    """Return the ``icub-models`` robot ``name`` through robomodel's URDF loader (cached)."""
    import icub_models

    from robomodel.formats.urdf import load

    return load(str(icub_models.get_model_file(name)))


# --------------------------------------------------------------------------- computations


def kindyn(im: Any, q: np.ndarray, base: str) -> Any:
    """Return a KinDynComputations on ``im``, base ``base`` at rest in the world, joints at q."""
    kd = idt.KinDynComputations()
    _check(kd.loadRobotModel(im), "KinDynComputations.loadRobotModel")
    _check(kd.setFloatingBase(base), f"setFloatingBase({base!r})")
    n = im.getNrOfDOFs()
    s = idt.VectorDynSize.FromPython([float(x) for x in q]) if n else idt.VectorDynSize(0)
    ok = kd.setRobotState(
        idt.Transform.Identity(),
        s,
        idt.Twist.Zero(),
        idt.VectorDynSize(n),
        idt.Vector3.FromPython([0.0, 0.0, -9.81]),
    )
    _check(ok, "setRobotState")
    return kd


def idt_relative_transform(kd: Any, a: str, b: str) -> np.ndarray:
    """Return iDynTree's ``a_H_b`` as a 4x4 array."""
    return np.asarray(kd.getRelativeTransform(a, b).asHomogeneousTransform().toNumPy())


def _kinematic_inputs(
    im: Any,
    base: int,
    q: np.ndarray,
    dq: np.ndarray,
    ddq: np.ndarray,
    base_acceleration: np.ndarray,
    base_velocity: np.ndarray | None,
) -> tuple[Any, Any, Any, Any]:
    """Traversal from ``base`` and the free-floating position, velocity, acceleration."""
    trav = idt.Traversal()
    _check(im.computeFullTreeTraversal(trav, base), "computeFullTreeTraversal")
    pos = idt.FreeFloatingPos(im)
    pos.worldBasePos = idt.Transform.Identity()
    vel = idt.FreeFloatingVel(im)
    acc = idt.FreeFloatingAcc(im)
    for i in range(im.getNrOfPosCoords()):
        pos.jointPos.setVal(i, float(q[i]))
    for i in range(im.getNrOfDOFs()):
        vel.jointVel.setVal(i, float(dq[i]))
        acc.jointAcc.setVal(i, float(ddq[i]))
    vel.baseVel.zero()
    if base_velocity is not None:
        for i in range(6):
            vel.baseVel.setVal(i, float(base_velocity[i]))
    base_acc = acc.baseAcc  # a reference into acc
    for i in range(6):
        base_acc.setVal(i, float(base_acceleration[i]))
    return trav, pos, vel, acc


def idt_rnea(
    im: Any,
    base: int,
    q: np.ndarray,
    dq: np.ndarray,
    ddq: np.ndarray,
    *,
    base_acceleration: np.ndarray,
    gravity: np.ndarray,
    external: dict[int, np.ndarray] | None = None,
    base_velocity: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Run iDynTree's ForwardPosVelAccKinematics + RNEADynamicPhase from ``base`` (at rest, or
    with the body-fixed twist ``base_velocity``).

    Returns (joint torques, internal wrenches (n_links, 6), base wrench).
    """
    # Gravity enters as an upward (proper) acceleration of the base.
    proper = np.concatenate([base_acceleration[:3] - gravity, base_acceleration[3:]])
    trav, pos, vel, acc = _kinematic_inputs(im, base, q, dq, ddq, proper, base_velocity)
    link_pos = idt.LinkPositions(im)
    link_vel = idt.LinkVelArray(im)
    link_acc = idt.LinkAccArray(im)
    ok = idt.ForwardPosVelAccKinematics(im, trav, pos, vel, acc, link_pos, link_vel, link_acc)
    _check(ok, "ForwardPosVelAccKinematics")
    ext = idt.LinkWrenches(im)
    ext.zero()
    for link, w in (external or {}).items():
        target = ext(link)  # a reference into the array
        for i in range(6):
            target.setVal(i, float(w[i]))
    internal = idt.LinkWrenches(im)
    tau = idt.FreeFloatingGeneralizedTorques(im)
    ok = idt.RNEADynamicPhase(im, trav, pos.jointPos, link_vel, link_acc, ext, internal, tau)
    _check(ok, "RNEADynamicPhase")
    wrenches = np.array([internal(i).toNumPy() for i in range(im.getNrOfLinks())])
    return tau.jointTorques().toNumPy(), wrenches, tau.baseWrench().toNumPy()


def idt_predict(
    im: Any,
    base: int,
    q: np.ndarray,
    dq: np.ndarray,
    ddq: np.ndarray,
    *,
    gravity: np.ndarray,
    base_acceleration: np.ndarray,
    base_velocity: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Run iDynTree's ``predictSensorsMeasurements`` with the base at rest in the world (or
    moving with the body-fixed twist ``base_velocity``).

    Returns every sensor's measurement by name.
    """
    trav, pos, vel, acc = _kinematic_inputs(im, base, q, dq, ddq, base_acceleration, base_velocity)
    ext = idt.LinkWrenches(im)
    ext.zero()
    sl = im.sensors()
    meas = idt.SensorsMeasurements(sl)
    ok = idt.predictSensorsMeasurements(
        im,
        sl,
        trav,
        pos,
        vel,
        acc,
        idt.GeomVector3(*[float(x) for x in gravity]),
        ext,
        idt.FreeFloatingAcc(im),
        idt.LinkPositions(im),
        idt.LinkVelArray(im),
        idt.LinkAccArray(im),
        idt.LinkWrenches(im),
        idt.FreeFloatingGeneralizedTorques(im),
        meas,
    )
    _check(ok, "predictSensorsMeasurements")
    out: dict[str, np.ndarray] = {}
    for kind in KINDS:
        size = 6 if kind == idt.SIX_AXIS_FORCE_TORQUE else 3
        for k in range(sl.getNrOfSensors(kind)):
            # LinAcceleration and AngVelocity are typedefs of GeomVector3 in the bindings.
            v = idt.Wrench() if size == 6 else idt.GeomVector3()
            _check(meas.getMeasurement(kind, k, v), "getMeasurement")
            out[sl.getSensor(kind, k).getName()] = v.toNumPy()
    return out


__all__ = [
    "KINDS",
    "OracleError",
    "add_sensors_to_idt",
    "idt",
    "idt_frame_names",
    "idt_joint_names",
    "idt_link_names",
    "idt_predict",
    "idt_relative_transform",
    "idt_rnea",
    "inertia_from_idt",
    "inertia_to_idt",
    "kindyn",
    "load_icub",
    "load_idt",
    "model_from_idt",
    "model_to_idt",
    "sensors_from_idt",
    "transform_from_idt",
    "transform_to_idt",
]
