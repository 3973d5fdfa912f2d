"""Visual and collision shapes: ``UsdGeom`` prims under their link, written and read.

A link's visuals are in its ``visuals`` scope and its collision shapes in ``collisions`` (those
carry ``PhysicsCollisionAPI``; a collision mesh also ``PhysicsMeshCollisionAPI`` with the
``convexHull`` approximation, which PhysX needs for a moving body). Each shape is one prim
placed by an ``xformOp:transform`` (the exact ``link_H_geometry``):

* a box is a ``Cube`` of size 1 scaled by its three sides (``xformOp:scale``);
* a sphere a ``Sphere``, a cylinder a ``Cylinder`` along Z (``radius``, ``height``);
* a mesh a ``Mesh`` of the file's triangles as trimesh reads them, in the file's units, scaled by
  the mesh's scale (``xformOp:scale``); its file name and scale are ``robomodel:filename`` and
  ``robomodel:scale``. A mesh file that cannot be read is an empty ``Xform`` naming its file,
  listed in the report.

The shape's name, material (``robomodel:material:*``; its colour also as ``displayColor``) and
the XML extensions robomodel keeps are ``robomodel:`` attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from robomodel.errors import MeshError, OptionalDependencyError
from robomodel.formats.report import Loss
from robomodel.formats.usd._pxr import pxr
from robomodel.formats.usd._stage import Names, get, matrix_of, put, transform_of_matrix
from robomodel.model.shapes import Box, Cylinder, Material, Mesh, SolidShape, Sphere

__all__ = ["MeshSource", "read_material", "read_shape", "write_material", "write_shapes"]


class MeshSource:
    """Where the writer finds mesh files: whether to read them, package dirs and base dir."""

    __slots__ = ("base_dir", "enabled", "package_dirs")

    def __init__(self, enabled: bool, package_dirs: Sequence[str], base_dir: str | None):
        self.enabled = enabled
        self.package_dirs = tuple(package_dirs)
        self.base_dir = base_dir


def write_shapes(
    stage: Any,
    link_path: str,
    role: str,
    shapes: Sequence[SolidShape],
    meshes: MeshSource,
    losses: list[Loss],
    link: str,
) -> None:
    """Write the shapes of one link and ``role`` (``"visuals"`` or ``"collisions"``)."""
    if not shapes:
        return
    p = pxr()
    scope = p.UsdGeom.Scope.Define(stage, f"{link_path}/{role}").GetPrim()
    put(scope, "role", "token", role)
    names = Names()
    kind = role[:-1]
    for k, s in enumerate(shapes):
        path = f"{link_path}/{role}/{names.take(s.name or f'{kind}_{k}')}"
        prim = _write_geometry(p, stage, path, s, meshes, losses, f"{link}/{kind}/{k}")
        if role == "collisions" and prim.IsA(p.UsdGeom.Gprim):  # not an unread mesh
            p.UsdPhysics.CollisionAPI.Apply(prim)
            if prim.IsA(p.UsdGeom.Mesh):
                api = p.UsdPhysics.MeshCollisionAPI.Apply(prim)
                api.CreateApproximationAttr(p.UsdPhysics.Tokens.convexHull)
        if s.name is not None:
            put(prim, "name", "string", s.name)
        if s.material is not None:
            write_material(prim, s.material, "material:")
            if s.material.rgba is not None:
                rgb = p.Gf.Vec3f(*s.material.rgba[:3])
                if prim.IsA(p.UsdGeom.Gprim):
                    p.UsdGeom.Gprim(prim).CreateDisplayColorAttr([rgb])
        if s.extensions:
            put(prim, "extensions", "string[]", list(s.extensions))


def _write_geometry(
    p: Any,
    stage: Any,
    path: str,
    s: SolidShape,
    meshes: MeshSource,
    losses: list[Loss],
    label: str,
) -> Any:
    g = s.geometry
    scale: tuple[float, float, float] | None = None
    match g:
        case Box():
            cube = p.UsdGeom.Cube.Define(stage, path)
            cube.CreateSizeAttr(1.0)
            scale = (g.x, g.y, g.z)
            xf = cube
        case Sphere():
            xf = p.UsdGeom.Sphere.Define(stage, path)
            xf.CreateRadiusAttr(g.radius)
        case Cylinder():
            xf = p.UsdGeom.Cylinder.Define(stage, path)
            xf.CreateRadiusAttr(g.radius)
            xf.CreateHeightAttr(g.length)
            xf.CreateAxisAttr("Z")
        case Mesh():
            xf = _write_mesh(p, stage, path, g, meshes, losses, label)
            scale = g.scale
    double = p.UsdGeom.XformOp.PrecisionDouble
    xf.AddTransformOp(double).Set(matrix_of(s.link_H_geometry))
    if scale is not None:
        xf.AddScaleOp(double).Set(p.Gf.Vec3d(*scale))
    return xf.GetPrim()


def _write_mesh(
    p: Any, stage: Any, path: str, g: Mesh, meshes: MeshSource, losses: list[Loss], label: str
) -> Any:
    tm, why = None, "mesh conversion is off (DumpOptions(meshes=False))"
    if meshes.enabled:
        from robomodel.formats.meshes import load_mesh

        try:
            tm = load_mesh(
                Mesh(filename=g.filename),
                package_dirs=meshes.package_dirs,
                base_dir=meshes.base_dir,
            )
        except (MeshError, OptionalDependencyError) as e:
            why = str(e)
    if tm is None:
        xf = p.UsdGeom.Xform.Define(stage, path)
        losses.append(
            Loss(
                action="dropped",
                kind="mesh",
                name=label,
                detail=f"{g.filename}: not converted ({why}); written as an empty Xform naming "
                "the file",
            )
        )
    else:
        xf = p.UsdGeom.Mesh.Define(stage, path)
        vertices = np.ascontiguousarray(tm.vertices, dtype=np.float32)
        faces = np.ascontiguousarray(tm.faces, dtype=np.int32)
        xf.CreatePointsAttr(p.Vt.Vec3fArray.FromNumpy(vertices))
        xf.CreateFaceVertexCountsAttr(p.Vt.IntArray.FromNumpy(np.full(len(faces), 3, np.int32)))
        xf.CreateFaceVertexIndicesAttr(p.Vt.IntArray.FromNumpy(faces.reshape(-1)))
        xf.CreateSubdivisionSchemeAttr(p.UsdGeom.Tokens.none)
        lo, hi = vertices.min(axis=0), vertices.max(axis=0)
        xf.CreateExtentAttr(p.Vt.Vec3fArray([p.Gf.Vec3f(*lo.tolist()), p.Gf.Vec3f(*hi.tolist())]))
    prim = xf.GetPrim()
    put(prim, "filename", "string", g.filename)
    put(prim, "scale", "double3", p.Gf.Vec3d(*g.scale))
    return xf


def write_material(prim: Any, m: Material, prefix: str) -> None:
    """Write a material as ``robomodel:<prefix>name``, ``rgba``, ``texture``, ``extensions``."""
    p = pxr()
    put(prim, prefix + "name", "string", m.name)
    if m.rgba is not None:
        put(prim, prefix + "rgba", "double4", p.Gf.Vec4d(*m.rgba))
    if m.texture is not None:
        put(prim, prefix + "texture", "string", m.texture)
    if m.extensions:
        put(prim, prefix + "extensions", "string[]", list(m.extensions))


def read_material(prim: Any, prefix: str) -> Material | None:
    """Return the material :func:`write_material` wrote on ``prim``, or ``None``."""
    name = get(prim, prefix + "name")
    if name is None:
        return None
    rgba = get(prim, prefix + "rgba")
    texture = get(prim, prefix + "texture")
    return Material(
        name=str(name),
        rgba=None if rgba is None else tuple(float(v) for v in rgba),
        texture=None if texture is None else str(texture),
        extensions=tuple(get(prim, prefix + "extensions", ())),
    )


def _ops(prim: Any) -> dict[str, Any]:
    p = pxr()
    out = {}
    for op in p.UsdGeom.Xformable(prim).GetOrderedXformOps():
        out[str(op.GetOpType())] = op.Get()
    return out


def read_shape(prim: Any) -> SolidShape:
    """Return the shape of a prim :func:`write_shapes` wrote."""
    p = pxr()
    ops = _ops(prim)
    T = ops.get(str(p.UsdGeom.XformOp.TypeTransform))
    scale = ops.get(str(p.UsdGeom.XformOp.TypeScale))
    sx, sy, sz = (1.0, 1.0, 1.0) if scale is None else (float(v) for v in scale)
    g: Box | Sphere | Cylinder | Mesh
    filename = get(prim, "filename")
    if filename is not None:
        g = Mesh(filename=str(filename), scale=[float(v) for v in get(prim, "scale")])
    elif prim.IsA(p.UsdGeom.Cube):
        size = float(p.UsdGeom.Cube(prim).GetSizeAttr().Get())
        g = Box(x=size * sx, y=size * sy, z=size * sz)
    elif prim.IsA(p.UsdGeom.Sphere):
        g = Sphere(radius=float(p.UsdGeom.Sphere(prim).GetRadiusAttr().Get()))
    elif prim.IsA(p.UsdGeom.Cylinder):
        c = p.UsdGeom.Cylinder(prim)
        g = Cylinder(radius=float(c.GetRadiusAttr().Get()), length=float(c.GetHeightAttr().Get()))
    else:
        raise ValueError(f"a {prim.GetTypeName()} prim is not a shape robomodel writes")
    name = get(prim, "name")
    return SolidShape(
        geometry=g,
        name=None if name is None else str(name),
        link_H_geometry=transform_of_matrix(T)
        if T is not None
        else transform_of_matrix(p.Gf.Matrix4d(1.0)),
        material=read_material(prim, "material:"),
        extensions=tuple(get(prim, "extensions", ())),
    )
