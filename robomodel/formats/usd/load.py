"""Reading OpenUSD articulations: :func:`load`, :func:`loads` and :func:`loads_with_report`.

The reader takes what UsdPhysics says and robomodel models: rigid bodies become links (their
``robomodel:`` exact inertia, else ``PhysicsMassAPI``), revolute, prismatic and fixed joints
become joints (their ``robomodel:`` exact values, else the local frames, axis, limits and drive),
and, in files robomodel wrote, the shapes, frames, sensors and robot-level values it keeps (in
other tools' files, plain ``Xform`` prims under a body as frames and boxes, spheres and Z
cylinders as shapes). Everything else (other joint kinds, joints to the world, meshes of other
tools' files, bodies without mass properties) is listed in the report.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from robomodel._internal.files import read_regular
from robomodel.errors import RobomodelError, USDError
from robomodel.formats.report import ConversionReport, Loss, warn_losses
from robomodel.formats.usd._attached import read_frame, read_sensor
from robomodel.formats.usd._bodies import read_inertia
from robomodel.formats.usd._geometry import read_material, read_shape
from robomodel.formats.usd._joints import joint_bodies, read_joint
from robomodel.formats.usd._layers import check_composed_files
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import array_of_matrix, get
from robomodel.model.joints import Joint
from robomodel.model.record import Extension, Frame, Link, Model
from robomodel.model.sensors import Sensor
from robomodel.model.shapes import Box, Cylinder, SolidShape, Sphere
from robomodel.model.spatial import Transform, proper_rotation

__all__ = ["load", "loads", "loads_with_report", "read_stage"]

_CRATE_MAGIC = b"PXR-USDC"


def _link_children(
    prim: Any, link: str, own: bool, losses: list[Loss]
) -> tuple[list[SolidShape], list[SolidShape], list[tuple[int, Frame]], list[tuple[int, Any]]]:
    p = pxr()
    visuals: list[SolidShape] = []
    collisions: list[SolidShape] = []
    frames: list[tuple[int, Frame]] = []
    sensors: list[tuple[int, Sensor]] = []
    skipped = 0
    for child in prim.GetChildren():
        role = get(child, "role") if own else None
        items = list(child.GetChildren())
        if role == "visuals":
            visuals += [read_shape(c) for c in items]
        elif role == "collisions":
            collisions += [read_shape(c) for c in items]
        elif role == "frames":
            frames += [read_frame(c, link) for c in items]
        elif role == "sensors":
            sensors += [read_sensor(c, link) for c in items]
        elif not child.HasAPI(p.UsdPhysics.RigidBodyAPI):
            shape = None if own else _foreign_shape(p, prim, child)
            if shape is not None:
                (collisions if child.HasAPI(p.UsdPhysics.CollisionAPI) else visuals).append(shape)
                continue
            shapes = sum(1 for d in p.Usd.PrimRange(child) if d.IsA(p.UsdGeom.Gprim))
            skipped += shapes
            if not own and not shapes and child.GetTypeName() == "Xform":
                frames.append((len(frames), _foreign_frame(p, prim, child, link, losses)))
    if skipped:
        losses.append(
            Loss(
                action="dropped",
                kind="link",
                name=link,
                detail=f"{skipped} geometry prim(s): robomodel reads the boxes, spheres and "
                "Z cylinders of other tools' files (meshes, other shapes and scaled "
                "ones it cannot express are left out)",
            )
        )
    return visuals, collisions, frames, sensors


_T = TypeVar("_T")


def _at(prim: Any, read: Callable[..., _T], *args: Any) -> _T:
    """Return ``read(*args)``, reading ``prim``.

    A value it cannot make (a malformed or mistyped attribute) is a :class:`USDError` naming
    ``prim``.
    """
    try:
        return read(*args)
    except USDError:
        raise
    except (RobomodelError, ValueError, TypeError, KeyError, IndexError) as e:
        raise USDError(f"cannot read this prim: {e}", prim=str(prim.GetPath())) from e


def _local(p: Any, body: Any, prim: Any) -> npt.NDArray[np.float64]:
    """``body_H_prim`` as a 4x4 matrix, from usd-core's world transforms (scale included)."""
    cache = p.UsdGeom.XformCache()
    world_H_body = array_of_matrix(cache.GetLocalToWorldTransform(body))
    world_H_prim = array_of_matrix(cache.GetLocalToWorldTransform(prim))
    return np.asarray(np.linalg.solve(world_H_body, world_H_prim), dtype=np.float64)


def _foreign_shape(p: Any, body: Any, prim: Any) -> SolidShape | None:
    """A box, sphere or Z cylinder of another tool's file as a shape of its body, else ``None``.

    The prim's transform in the body is a rotation times a per-axis scale (USD's translate,
    orient, scale); the scale becomes the shape's sizes. A shape robomodel cannot express (a
    mesh, a cone, a sphere scaled unevenly, a cylinder along X or Y) is ``None``.
    """
    if not prim.IsA(p.UsdGeom.Gprim) or prim.GetChildren():
        return None
    H = _local(p, body, prim)
    scale = np.linalg.norm(H[:3, :3], axis=0)
    if not np.all(scale > 0.0):
        return None
    R = H[:3, :3] / scale
    if np.abs(R.T @ R - np.eye(3)).max() > 1e-6 or np.linalg.det(R) < 0.0:
        return None  # a shear or a mirror
    g: Box | Sphere | Cylinder
    if prim.IsA(p.UsdGeom.Cube):
        size = float(p.UsdGeom.Cube(prim).GetSizeAttr().Get())
        g = Box(x=size * scale[0], y=size * scale[1], z=size * scale[2])
    elif prim.IsA(p.UsdGeom.Sphere) and np.ptp(scale) <= 1e-6 * scale.max():
        g = Sphere(radius=float(p.UsdGeom.Sphere(prim).GetRadiusAttr().Get()) * scale[0])
    elif prim.IsA(p.UsdGeom.Cylinder) and abs(scale[0] - scale[1]) <= 1e-6 * scale.max():
        c = p.UsdGeom.Cylinder(prim)
        if str(c.GetAxisAttr().Get()) != "Z":
            return None
        g = Cylinder(
            radius=float(c.GetRadiusAttr().Get()) * scale[0],
            length=float(c.GetHeightAttr().Get()) * scale[2],
        )
    else:
        return None
    name = prim.GetAttribute("urdf:name")
    return SolidShape(
        geometry=g,
        name=str(name.Get()) if name and name.HasAuthoredValue() else prim.GetName(),
        link_H_geometry=Transform(proper_rotation(R), H[:3, 3]),
    )


def _foreign_frame(p: Any, body: Any, prim: Any, link: str, losses: list[Loss]) -> Frame:
    """A plain ``Xform`` under a body of another tool's file: a frame of that link."""
    H = _local(p, body, prim)
    return Frame(prim.GetName(), link, Transform(H[:3, :3], H[:3, 3]))


def read_stage(stage: Any) -> tuple[Model, ConversionReport]:
    """Return the model of the articulation on ``stage`` and the report of what was skipped.

    Raises:
        USDError: the stage has no rigid body, a joint names a prim that is not a body, or the
            bodies and joints do not make a valid model.
    """
    p = pxr()
    losses: list[Loss] = []
    root = stage.GetDefaultPrim()
    if not root:  # no defaultPrim: the first root prim names the robot
        roots = list(stage.GetPseudoRoot().GetChildren())
        root = roots[0] if roots else stage.GetPseudoRoot()
    own = get(root, "format_version") is not None

    # Bodies: every prim with PhysicsRigidBodyAPI, in namespace order.
    bodies = [prim for prim in stage.Traverse() if prim.HasAPI(p.UsdPhysics.RigidBodyAPI)]
    if not bodies:
        raise USDError("no prim has PhysicsRigidBodyAPI: not an articulation to read")
    name_of: dict[str, str] = {}
    for prim in bodies:
        name = str(get(prim, "name", prim.GetName()))
        if name in name_of.values():
            raise USDError(f"a second body named {name!r}", prim=str(prim.GetPath()))
        name_of[str(prim.GetPath())] = name
    link_names = list(name_of.values())
    links = [Link(_at(b, read_inertia, b, losses, name_of[str(b.GetPath())])) for b in bodies]

    # Joints: the revolute, prismatic and fixed ones between two bodies.
    joint_names: list[str] = []
    joints: list[Joint] = []
    world_bodies: list[str] = []
    for prim in stage.Traverse():
        if not prim.IsA(p.UsdPhysics.Joint):
            continue
        read = _joint(p, prim, name_of, world_bodies, losses)
        if read is not None:
            joint_names.append(read[0])
            joints.append(read[1])

    # What hangs off the links.
    visuals, collisions, frames, sensors = [], [], [], []
    for prim in bodies:
        v, c, f, s = _at(prim, _link_children, prim, name_of[str(prim.GetPath())], own, losses)
        visuals.append(v)
        collisions.append(c)
        frames += f
        sensors += s
    frames += [read_frame(c, str(get(c, "link"))) for c in _scoped(root, "frames")] if own else []

    default_base = _default_base(p, stage, root, own, name_of, world_bodies)
    try:
        model = Model(
            name=str(get(root, "name", "" if root.IsPseudoRoot() else root.GetName())),
            link_names=link_names,
            links=links,
            joint_names=joint_names,
            joints=joints,
            frames=[f for _, f in sorted(frames, key=lambda x: x[0])],
            default_base=default_base,
            visuals=visuals,
            collisions=collisions,
            sensors=[s for _, s in sorted(sensors, key=lambda x: x[0])],
            package_dirs=list(get(root, "package_dirs", ())) if own else [],
            materials=[read_material(m, "") for m in _scoped(root, "materials")] if own else [],
            extensions=_extensions(root) if own else [],
        )
    except RobomodelError as e:
        raise USDError(f"the bodies and joints do not make a valid model: {e}") from e
    return model, ConversionReport(losses=tuple(losses))


def _scoped(root: Any, name: str) -> list[Any]:
    prim = root.GetChild(name)
    return list(prim.GetChildren()) if prim and prim.IsValid() else []


def _extensions(root: Any) -> list[Extension]:
    fields = [list(get(root, f"extensions:{f}", ())) for f in ("owner_kind", "owner", "tag", "xml")]
    return [
        Extension(owner_kind=k, owner=o, tag=t, xml=x) for k, o, t, x in zip(*fields, strict=True)
    ]


def _joint(
    p: Any, prim: Any, name_of: dict[str, str], world_bodies: list[str], losses: list[Loss]
) -> tuple[str, Joint] | None:
    name = str(get(prim, "name", prim.GetName()))
    where = str(prim.GetPath())
    b0, b1 = joint_bodies(prim)
    stage = prim.GetStage()
    for target in (*b0, *b1):
        if not stage.GetPrimAtPath(target):
            raise USDError(
                f"joint {name!r} names {target!r}, which is not a prim of the stage", prim=where
            )
    # UsdPhysics: a joint end that is not a rigid body is fixed in the world.
    b0 = [t for t in b0 if t in name_of]
    b1 = [t for t in b1 if t in name_of]
    if not b0 or not b1:
        body = name_of[(b0 or b1)[0]] if (b0 or b1) else None
        if body is not None:
            world_bodies.append(body)
        if get(prim, "world_joint") is None:
            losses.append(
                Loss(
                    action="dropped",
                    kind="joint",
                    name=name,
                    detail=f"joins {body!r} to the world: a robomodel model has no world; "
                    f"{body!r} is read as the base",
                )
            )
        return None
    kinds = (p.UsdPhysics.RevoluteJoint, p.UsdPhysics.PrismaticJoint, p.UsdPhysics.FixedJoint)
    if not any(prim.IsA(k) for k in kinds):
        losses.append(
            Loss(
                action="dropped",
                kind="joint",
                name=name,
                detail=f"a {prim.GetTypeName()}: robomodel models revolute, prismatic and fixed "
                "joints only",
            )
        )
        return None
    return name, _at(prim, read_joint, prim, name_of[b0[0]], name_of[b1[0]], losses, name)


def _default_base(
    p: Any, stage: Any, root: Any, own: bool, name_of: dict[str, str], world_bodies: list[str]
) -> str:
    if own and get(root, "default_base") is not None:
        return str(get(root, "default_base"))
    for prim in stage.Traverse():
        if prim.HasAPI(p.UsdPhysics.ArticulationRootAPI) and str(prim.GetPath()) in name_of:
            return name_of[str(prim.GetPath())]
    if world_bodies:
        return world_bodies[0]
    return next(iter(name_of.values()))


def _tf_message(e: BaseException) -> str:
    """The useful part of a usd-core error: its last line, without the C++ function and file."""
    lines = [x.strip() for x in str(e).strip().splitlines() if x.strip()]
    last = lines[-1] if lines else type(e).__name__
    return last.split(" : ", 1)[-1].strip("'")


def _open_text(text: str | bytes) -> Any:
    p = pxr()
    crate = isinstance(text, bytes) and text.startswith(_CRATE_MAGIC)
    what, where = ("a USD crate file", "<bytes>") if crate else ("USD text", "<string>")
    try:
        if crate:
            with tempfile.TemporaryDirectory(prefix="robomodel-usd-") as d:
                tmp = os.path.join(d, "stage.usdc")
                Path(tmp).write_bytes(text)  # type: ignore[arg-type]
                layer = p.Sdf.Layer.CreateAnonymous(".usdc")
                ok = layer.Import(tmp)
        else:
            source = text.decode("utf-8") if isinstance(text, bytes) else text
            layer = p.Sdf.Layer.CreateAnonymous(".usda")
            ok = layer.ImportFromString(source)
    except p.Tf.ErrorException as e:
        raise USDError(f"not {what} usd-core can read ({_tf_message(e)})", file=where) from e
    except UnicodeDecodeError as e:
        raise USDError(f"not USD text: not UTF-8 ({e})", file=where) from e
    if not ok:
        raise USDError(f"not {what} usd-core can read", file=where)
    check_composed_files(p, layer, where)
    return p.Usd.Stage.Open(layer)


def loads_with_report(text: str | bytes) -> tuple[Model, ConversionReport]:
    """Read a model from USDA text (or the bytes of a ``.usdc`` file), with the report.

    Raises:
        USDError: the text is not USD, or not an articulation robomodel reads.
        OptionalDependencyError: usd-core is not installed.
    """
    return read_stage(_open_text(text))


def loads(text: str | bytes) -> Model:
    """Read a model from USDA text (or ``.usdc`` bytes); warn with what was skipped.

    See :func:`loads_with_report`.
    """
    model, report = loads_with_report(text)
    warn_losses(report, what="import", full_report="usd.loads_with_report", fmt="USD")
    return model


def load(path: str | os.PathLike[str]) -> Model:
    """Read the model in the USD file ``path`` (``.usda``, ``.usdc`` or ``.usd``).

    The stage is opened by usd-core, which composes the layers the file names (sublayers,
    references, payloads) relative to its directory, as the files other tools write need; each
    of those must be a regular file (checked before usd-core opens any).

    Raises:
        USDError: the file is not USD, or not an articulation robomodel reads (the message
            names the file).
        NotARegularFileError: ``path`` is not a regular file.
        OptionalDependencyError: usd-core is not installed.
    """
    return load_with_report(path)[0]


def load_with_report(path: str | os.PathLike[str]) -> tuple[Model, ConversionReport]:
    """:func:`load`, and the report of what was skipped."""
    p = pxr()
    read_regular(path)  # refuses a FIFO, a device or a directory before usd-core opens it
    try:
        layer = p.Sdf.Layer.FindOrOpen(str(path))
        if layer is None:
            raise USDError("not a USD file usd-core can read", file=str(path))
        check_composed_files(p, layer, str(path))
        stage = p.Usd.Stage.Open(layer)
    except p.Tf.ErrorException as e:
        raise USDError(
            f"not a USD file usd-core can read ({_tf_message(e)})", file=str(path)
        ) from e
    if stage is None:
        raise USDError("not a USD file usd-core can read", file=str(path))
    try:
        model, report = read_stage(stage)
    except USDError as e:
        raise USDError(e.reason, file=str(path), prim=e.prim) from e
    warn_losses(report, what="import", full_report="usd.load_with_report", fmt="USD")
    return model, report
