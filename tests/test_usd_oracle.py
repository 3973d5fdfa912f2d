"""OpenUSD oracle: usd-core's own UsdPhysics parser and UsdGeom transforms read robomodel's files.

Nothing here calls robomodel's USD reader: the files robomodel writes are opened by usd-core,
parsed by ``UsdPhysics.UsdPhysicsLoadStageFromPrimRange`` (the parser simulators build on), and
compared with the robomodel model they were written from: the same bodies and joints, masses,
centres of mass and inertias (the exact doubles to 1e-9 relative, UsdPhysics' 32-bit floats to
float precision), body world poses equal to robomodel's forward kinematics at the zero
configuration, and joint frames that coincide at zero. Isaac's and Newton's documented
requirements for an articulation are checked on the parsed file too.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import models

import robomodel as rm
from robomodel.data import example_path
from robomodel.formats import urdf
from robomodel.physics.kinematics import forward_kinematics

pxr = pytest.importorskip("pxr")
from pxr import Gf, Sdf, Usd, UsdGeom, UsdPhysics  # noqa: E402

from robomodel.formats import usd  # noqa: E402

icub_models = pytest.importorskip("icub_models")

F32 = 2.0**-23  # float32 relative precision
ROBOTS = sorted(icub_models.get_robot_names())
DEFAULT_ROBOTS = ["iCubGazeboV2_7", "left_hand_mk3", "iCubErzelli02"]


@cache
def _model(name: str) -> rm.Model:
    path = example_path() if name == "example" else icub_models.get_model_file(name)
    # Some iCub files hold inconsistent inertias: they are written as they are, so read them so.
    return urdf.load(path, options=urdf.LoadOptions(inertia="ignore"))


def _stage(text: str) -> Usd.Stage:
    layer = Sdf.Layer.CreateAnonymous(".usda")
    assert layer.ImportFromString(text)
    return Usd.Stage.Open(layer)


def _written(name: str, **options: object) -> tuple[rm.Model, Usd.Stage, usd.ConversionReport]:
    m = _model(name)
    text, report = usd.dumps_with_report(m, options=usd.DumpOptions(meshes=False, **options))
    return m, _stage(text), report


def _by_name(stage: Usd.Stage) -> dict[str, Usd.Prim]:
    return {
        p.GetAttribute("robomodel:name").Get(): p
        for p in stage.Traverse()
        if p.HasAPI(UsdPhysics.RigidBodyAPI)
    }


def _H(position: Gf.Vec3f, rotation: Gf.Quatf) -> np.ndarray:
    H = np.eye(4)
    H[:3, :3] = np.array(Gf.Matrix3d().SetRotate(Gf.Quatd(rotation))).T
    H[:3, 3] = np.array(position)
    return H


def _com_inertia(inertia: rm.SpatialInertia) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, centre of mass and inertia about it, from robomodel's stored fields."""
    m = inertia.mass
    c = inertia.first_moment / m if m > 0 else np.zeros(3)
    I_C = inertia.rotational_inertia - m * (float(c @ c) * np.eye(3) - np.outer(c, c))
    return m, c, I_C


def _check_file(name: str) -> None:
    _check_model(*_written(name)[:2])


def _check_model(m: rm.Model, stage: Usd.Stage) -> None:
    parsed = UsdPhysics.UsdPhysicsLoadStageFromPrimRange(stage, ["/"])
    T = UsdPhysics.ObjectType
    bodies = {str(d.primPath): d for d in parsed[T.RigidBody][1]}
    prims = _by_name(stage)
    assert set(prims) == set(m.link_names)
    assert {str(p.GetPath()) for p in prims.values()} == set(bodies)
    name_of = {str(p.GetPath()): n for n, p in prims.items()}

    # Joints: one UsdPhysics joint per robomodel joint, of the same kind, between the same links.
    kinds = {
        T.RevoluteJoint: rm.RevoluteJoint,
        T.PrismaticJoint: rm.PrismaticJoint,
        T.FixedJoint: rm.FixedJoint,
    }
    joints = {}
    for kind, cls in kinds.items():
        for d in parsed.get(kind, ((), ()))[1]:
            jname = stage.GetPrimAtPath(d.primPath).GetAttribute("robomodel:name").Get()
            joints[jname] = d
            j = m.joint(jname)
            assert type(j) is cls
            assert {name_of[str(d.body0)], name_of[str(d.body1)]} == {j.link1, j.link2}
    assert set(joints) == set(m.joint_names)

    # Masses, centres of mass and inertias.
    for lname, prim in prims.items():
        mass, com, I_C = _com_inertia(m.link(lname).inertia)
        api = UsdPhysics.MassAPI(prim)
        exact = prim.GetAttribute("robomodel:mass").Get()
        assert exact == pytest.approx(mass, rel=1e-9, abs=0)
        h = np.array(prim.GetAttribute("robomodel:first_moment").Get())
        np.testing.assert_allclose(h, m.link(lname).inertia.first_moment, rtol=1e-9, atol=0)
        assert api.GetMassAttr().Get() == pytest.approx(mass, rel=F32)
        scale = max(1.0, float(np.abs(com).max()))
        np.testing.assert_allclose(
            api.GetCenterOfMassAttr().Get(), com, rtol=0, atol=2 * F32 * scale
        )
        R = np.array(Gf.Matrix3d().SetRotate(Gf.Quatd(api.GetPrincipalAxesAttr().Get()))).T
        back = R @ np.diag(np.array(api.GetDiagonalInertiaAttr().Get(), dtype=float)) @ R.T
        # float32 precision, and round-off of the parallel-axis step for a zero inertia.
        np.testing.assert_allclose(back, I_C, rtol=0, atol=8 * F32 * np.abs(I_C).max() + 1e-15)

    # Body world poses: UsdGeom's transforms against robomodel's forward kinematics at zero.
    fk = forward_kinematics(m, np.zeros(m.n_pos_coords))
    cache_ = UsdGeom.XformCache()
    for lname, prim in prims.items():
        world = np.array(cache_.GetLocalToWorldTransform(prim)).T
        np.testing.assert_allclose(world, fk.base_H_link[m.link_index(lname)], rtol=0, atol=1e-12)

    # Joint frames coincide at zero, and the X axis of a moving joint is robomodel's axis.
    for jname, d in joints.items():
        b0, b1 = bodies[str(d.body0)], bodies[str(d.body1)]
        B0, B1 = _H(b0.position, b0.rotation), _H(b1.position, b1.rotation)
        J0 = B0 @ _H(d.localPose0Position, d.localPose0Orientation)
        J1 = B1 @ _H(d.localPose1Position, d.localPose1Orientation)
        np.testing.assert_allclose(J0, J1, rtol=0, atol=2e-6)
        j = m.joint(jname)
        if isinstance(j, rm.FixedJoint):
            continue
        assert d.axis == UsdPhysics.Axis.X
        link1 = m.link_index(j.link1)
        u = fk.base_H_link[link1][:3, :3] @ j.axis_in_link1.direction
        sign = 1.0 if name_of[str(d.body0)] == j.link1 else -1.0
        np.testing.assert_allclose(J0[:3, 0], sign * u, rtol=0, atol=1e-6)
        if j.limits.enabled and math.isfinite(j.limits.lower):
            factor = 180.0 / math.pi if isinstance(j, rm.RevoluteJoint) else 1.0
            assert d.limit.enabled
            assert d.limit.lower == pytest.approx(j.limits.lower * factor, rel=F32, abs=F32)
            assert d.limit.upper == pytest.approx(j.limits.upper * factor, rel=F32, abs=F32)
        if math.isfinite(j.effort_limit):
            assert d.drive.forceLimit == pytest.approx(j.effort_limit, rel=F32)

    # One articulation holding every body, rooted at the base body (floating base).
    (art,) = parsed[T.Articulation][1]
    assert [str(p) for p in art.rootPrims] == [str(prims[m.default_base].GetPath())]
    if m.n_joints:  # a lone body is no articulation to UsdPhysics
        assert {str(p) for p in art.articulatedBodies} == set(bodies)


def _positive(values: np.ndarray) -> bool:
    # Above round-off of a zero inertia (1e-15 kg m^2, MuJoCo's mjMINVAL too).
    return float(np.min(values)) > 1e-15


def _triangle(moments: np.ndarray) -> bool:
    a, b, c = sorted(float(x) for x in moments)
    return a + b >= c * (1.0 - 1e-6)  # float32 rounding of an equality (a thin rod, a disc)


def _simulator_violations(stage: Usd.Stage) -> set[str]:
    """What Isaac Sim, Isaac Lab and Newton ask of an articulation (SimReady's requirements
    BA.001 and NEWTON.BA.001: exactly one PhysicsArticulationRootAPI, with a boolean
    newton:selfCollisionEnabled; RB.007/RB.011 and RB.008: a positive mass on every rigid body,
    principal moments that meet the triangle inequality, a unit principalAxes quaternion), plus
    positive principal moments, and metres and Z up stated. Read from the file by usd-core;
    returns the names of the bodies whose mass properties break a rule."""
    roots = [p for p in stage.Traverse() if p.HasAPI(UsdPhysics.ArticulationRootAPI)]
    assert len(roots) == 1
    flag = roots[0].GetAttribute("newton:selfCollisionEnabled")
    assert flag.GetTypeName() == Sdf.ValueTypeNames.Bool and flag.HasAuthoredValue()
    assert UsdGeom.GetStageMetersPerUnit(stage) == 1.0
    assert UsdGeom.GetStageUpAxis(stage) == UsdGeom.Tokens.z
    parsed = UsdPhysics.UsdPhysicsLoadStageFromPrimRange(stage, ["/"])
    bad = set()
    for d in parsed[UsdPhysics.ObjectType.RigidBody][1]:
        prim = stage.GetPrimAtPath(d.primPath)
        api = UsdPhysics.MassAPI(prim)
        moments = np.array(api.GetDiagonalInertiaAttr().Get(), dtype=float)
        assert api.GetPrincipalAxesAttr().Get().GetLength() == pytest.approx(1.0, abs=1e-6)
        if not (api.GetMassAttr().Get() > 0.0 and _positive(moments) and _triangle(moments)):
            bad.add(prim.GetAttribute("robomodel:name").Get())
    return bad


def _model_violations(m: rm.Model) -> set[str]:
    """The links of ``m`` without a positive mass and positive, consistent principal moments."""
    bad = set()
    for name, link in zip(m.link_names, m.links, strict=True):
        mass, _, I_C = _com_inertia(link.inertia)
        moments = np.linalg.eigvalsh(I_C)
        if not (mass > 0.0 and _positive(moments) and _triangle(moments)):
            bad.add(name)
    return bad


@pytest.mark.parametrize("name", ["example", *DEFAULT_ROBOTS])
def test_usdphysics_reads_what_robomodel_wrote(name: str) -> None:
    _check_file(name)


@settings(max_examples=20)
@given(models(max_links=6))
def test_usdphysics_reads_random_models(m: rm.Model) -> None:
    """UsdPhysics finds the bodies, joints, mass properties, poses and coinciding joint frames
    of random trees (joints stored parent-to-child or child-to-parent, any axis)."""
    text, _ = usd.dumps_with_report(m, options=usd.DumpOptions(meshes=False))
    _check_model(m, _stage(text))


@pytest.mark.slow
@pytest.mark.parametrize("name", ROBOTS)
def test_usdphysics_reads_every_icub(name: str) -> None:
    _check_file(name)


@pytest.mark.parametrize("name", ["example", *ROBOTS])
def test_simulator_requirements(name: str) -> None:
    """The file meets the simulators' requirements wherever the model does: the bodies without
    positive mass and inertia are exactly the model's own such links, each in the report."""
    m, stage, report = _written(name)
    bad = _simulator_violations(stage)
    assert bad == _model_violations(m)
    assert bad <= {x.name for x in report.of("note") if x.kind == "link"}


def test_fixed_base_roots_the_articulation_at_the_world_joint() -> None:
    m, stage, _ = _written("example", fixed_base=True)
    parsed = UsdPhysics.UsdPhysicsLoadStageFromPrimRange(stage, ["/"])
    (art,) = parsed[UsdPhysics.ObjectType.Articulation][1]
    (root,) = art.rootPrims
    joint = UsdPhysics.FixedJoint(stage.GetPrimAtPath(root))
    assert joint and not joint.GetBody0Rel().GetTargets()
    assert joint.GetBody1Rel().GetTargets()[0].name == m.default_base
    assert not _simulator_violations(stage)


@pytest.mark.slow
def test_meshes_become_usd_meshes_at_their_link() -> None:
    """With the iCub package directory, every mesh of one iCub becomes a UsdGeom.Mesh whose
    bounds (in the link frame, after the shape pose and scale) match trimesh's own reading."""
    trimesh = pytest.importorskip("trimesh")
    from robomodel.model.mesh_files import resolve_mesh

    share = str(icub_models.get_models_path().parent.parent)
    m = _model("iCubGazeboV2_7")
    text, report = usd.dumps_with_report(m, options=usd.DumpOptions(package_dirs=[share]))
    assert not report.of("dropped")
    stage = _stage(text)
    prims = _by_name(stage)
    cache_ = UsdGeom.XformCache()
    checked = 0
    for i, lname in enumerate(m.link_names):
        world_link = np.array(cache_.GetLocalToWorldTransform(prims[lname])).T
        meshes = [p for p in Usd.PrimRange(prims[lname].GetChild("visuals")) if p.IsA(UsdGeom.Mesh)]
        shapes = [s for s in m.visuals[i] if isinstance(s.geometry, rm.Mesh)]
        assert len(meshes) == len(shapes)
        for prim, s in zip(meshes, shapes, strict=True):
            tm = trimesh.load(resolve_mesh(s.geometry, package_dirs=[share]), force="mesh")
            pts = tm.vertices * np.array(s.geometry.scale)
            expected = (s.link_H_geometry.rotation @ pts.T).T + s.link_H_geometry.position
            world = np.array(cache_.GetLocalToWorldTransform(prim)).T
            local = np.linalg.solve(world_link, world)
            usd_pts = np.array(UsdGeom.Mesh(prim).GetPointsAttr().Get(), dtype=float)
            got = (local[:3, :3] @ usd_pts.T).T + local[:3, 3]
            np.testing.assert_allclose(got.min(0), expected.min(0), atol=1e-6)
            np.testing.assert_allclose(got.max(0), expected.max(0), atol=1e-6)
            checked += 1
    assert checked > 10
