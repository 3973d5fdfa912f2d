"""Shapes, meshes and materials in MJCF, read and written side by side.

:class:`GeomWriter` and :class:`GeomReader` are the parts of the MJCF writer and reader that deal
with ``<geom>``, ``<mesh>`` and ``<material>``; the writer's and reader's classes inherit them.
"""

from __future__ import annotations

import os
import stat
import xml.etree.ElementTree as ET
from typing import Any

from robomodel._internal.files import atomic_path
from robomodel._internal.xml_text import Part, TextElement, attribute
from robomodel.formats.mjcf._common import FloatArray, NumberSlots, nums, pose, pose_attrs
from robomodel.formats.mjcf.options import DumpOptions, LoadOptions
from robomodel.formats.report import LossAction
from robomodel.model.builders import with_collision_shapes, with_visual_shapes
from robomodel.model.record import Model
from robomodel.model.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.model.spatial import Transform

__all__ = [
    "MESH_FORMATS",
    "GeomReader",
    "GeomWriter",
    "is_ascii_stl",
    "material_from_json",
    "material_json",
]

MESH_FORMATS = (".stl", ".obj", ".msh")
"""Mesh file suffixes MuJoCo reads; others are converted (``DumpOptions.mesh_dir``) or dropped."""


class GeomWriter:
    """Writes visual and collision shapes as geoms, with their mesh and material assets."""

    m: Model
    o: DumpOptions
    metadata: dict[str, Any]
    geom_names: set[str]
    meshes: dict[tuple[str, tuple[float, float, float]], str]
    mesh_names: set[str]
    mesh_elements: dict[str, ET.Element]
    material_assets: dict[tuple[object, ...], str]
    material_names: set[str]
    converted: dict[str, str]
    _root_asset: ET.Element
    slots: NumberSlots

    def note(self, action: LossAction, kind: str, name: str, detail: str = "") -> None:
        """Record one report entry (the writer's own)."""
        raise NotImplementedError

    def _shapes(self, body: TextElement, link: int) -> None:
        m, o = self.m, self.o
        lname = m.link_names[link]
        groups = (
            (m.visuals[link], "visual", o.visuals),
            (m.collisions[link], "collision", o.collisions),
        )
        for shapes, kind, wanted in groups:
            for k, shape in enumerate(shapes):
                label = shape.name or f"{lname} {kind} {k}"
                if not wanted:
                    self.note("dropped", kind, label, f"DumpOptions.{kind}s is False")
                    continue
                self._geom(body, shape, kind, label)

    def _geom(self, body: TextElement, shape: SolidShape, kind: str, label: str) -> None:
        g = shape.geometry
        add = self.slots.add
        # The attributes after the name: the geometry's type, then its size or mesh.
        typed: list[Part] = []
        match g:
            case Box():
                sizes: tuple[float, ...] = (g.x / 2, g.y / 2, g.z / 2)
                typed = [' type="box" size="', add(sizes), '"']
            case Sphere():
                sizes = (g.radius,)
                typed = [' type="sphere" size="', add(sizes), '"']
            case Cylinder():
                sizes = (g.radius, g.length / 2)
                typed = [' type="cylinder" size="', add(sizes), '"']
            case Mesh():
                sizes = (1.0,)
                mesh = self._mesh(g, kind, label)
                if mesh is None:
                    return
                typed = [' type="mesh"', attribute("mesh", mesh)]
        if min(sizes) <= 0.0:
            self.note("dropped", kind, label, "a zero size: MuJoCo needs positive geom sizes")
            return
        attrs: list[Part] = []
        if shape.name and shape.name not in self.geom_names:
            attrs.append(attribute("name", shape.name))
            self.geom_names.add(shape.name)
        elif shape.name:
            self.note("dropped", f"{kind} name", shape.name, "MuJoCo geom names must be unique")
        attrs += typed
        pose_attrs(attrs, shape.link_H_geometry, self.slots)
        if kind == "visual":
            attrs.append(' contype="0" conaffinity="0" group="2"')
        else:
            attrs.append(' group="3"')
        if shape.material is not None:
            attrs.append(attribute("material", self._material(shape.material, label)))
        body.add("geom", attrs)
        for x in shape.extensions:
            self.note("dropped", f"{kind} extension", label, x[:60])

    def _material(self, mat: Material, label: str) -> str:
        """Return the ``<material>`` asset of ``mat``, written once per distinct material.

        MuJoCo keeps colours in single precision, so the exact material (name, colour,
        texture) also goes to the metadata for the way back.
        """
        key = (mat.name, mat.rgba, mat.texture)
        name = self.material_assets.get(key)
        if name is not None:
            return name
        rgba, texture = mat.rgba, mat.texture
        if rgba is None and mat.name:
            for robot_mat in self.m.materials:
                if robot_mat.name == mat.name:
                    rgba, texture = robot_mat.rgba, texture or robot_mat.texture
                    break
        base = mat.name or "material"
        name, k = base, 1
        while name in self.material_names:
            k += 1
            name = f"{base}_{k}"
        self.material_names.add(name)
        self.material_assets[key] = name
        el = ET.SubElement(self._root_asset, "material", name=name)
        if rgba is not None:
            el.set("rgba", nums(rgba))
        if texture:
            self.note("dropped", "texture", label, f"{texture!r}: MuJoCo shows only the colour")
        self.metadata.setdefault("materials", {})[name] = material_json(mat)
        return name

    def _mesh(self, g: Mesh, kind: str, label: str) -> str | None:
        if not self.o.meshes:
            self.note("dropped", kind, label, f"mesh {g.filename!r}: DumpOptions.meshes is False")
            return None
        from robomodel.formats.urdf import resolve_uri
        from robomodel.formats.urdf.errors import URDFReferenceError

        try:
            # A relative path is relative to the URDF file's directory when the caller gives it
            # (a mesh value does not remember where it was read).
            path = os.path.abspath(resolve_uri(self.m, g, base_dir=self.o.base_dir))
        except URDFReferenceError:
            self.note(
                "dropped",
                kind,
                label,
                f"mesh {g.filename!r} is not found in the package dirs {list(self.m.package_dirs)}",
            )
            return None
        if "\0" in path or (os.path.exists(path) and not os.path.isfile(path)):
            # A NUL cannot be in a file name, and MuJoCo (or trimesh) would block reading a
            # FIFO or a device.
            self.note("dropped", kind, label, f"mesh {path!r} is not a regular file")
            return None
        suffix = os.path.splitext(path)[1].lower()
        ascii_stl = suffix == ".stl" and is_ascii_stl(path)
        if suffix not in MESH_FORMATS or ascii_stl:
            # MuJoCo reads only binary STL: an ASCII one is converted like other formats.
            why = "an ASCII STL (MuJoCo reads binary STL only)" if ascii_stl else None
            converted = self._converted(path, kind, label, g.filename, why=why)
            if converted is None:
                return None
            path = converted
        if not os.access(path, os.R_OK):
            relative = self.o.base_dir is None and _is_relative(g.filename)
            self.note(
                "dropped",
                kind,
                label,
                f"mesh {path!r} cannot be read"
                + (
                    f" ({g.filename!r} is relative: give DumpOptions(base_dir=...) the directory "
                    "of the file the model was read from)"
                    if relative
                    else ""
                ),
            )
            return None
        key = (path, g.scale)
        name = self.meshes.get(key)
        if name is None:
            stem = os.path.splitext(os.path.basename(path))[0] or "mesh"
            name, k = stem, 1
            while name in self.mesh_names:
                k += 1
                name = f"{stem}_{k}"
            self.mesh_names.add(name)
            self.meshes[key] = name
            el = ET.SubElement(self._root_asset, "mesh", name=name, file=path)
            self.mesh_elements[name] = el
            if g.filename != path:
                self.metadata.setdefault("mesh_uris", {})[name] = g.filename
            if g.scale != (1.0, 1.0, 1.0):
                el.set("scale", nums(g.scale))
        return name

    def _converted(
        self, path: str, kind: str, label: str, uri: str, *, why: str | None = None
    ) -> str | None:
        """Return a binary STL copy of a mesh MuJoCo cannot read, made with trimesh, or ``None``.

        ``why`` says what MuJoCo cannot read about it (by default: its format).
        """
        out_dir = self.o.mesh_dir
        if out_dir is None:
            what = why or f"MuJoCo reads only {MESH_FORMATS}"
            self.note(
                "dropped",
                kind,
                label,
                f"mesh {uri!r}: {what} (set DumpOptions.mesh_dir to convert it with trimesh)",
            )
            return None
        done = self.converted.get(path)
        if done is not None:
            return done
        stem = os.path.splitext(os.path.basename(path))[0]
        target = os.path.join(out_dir, f"{stem}.stl")
        k = 1
        while target in self.converted.values():
            k += 1
            target = os.path.join(out_dir, f"{stem}_{k}.stl")
        try:
            import trimesh

            mesh: Any = trimesh.load(path, force="mesh")
            os.makedirs(out_dir, exist_ok=True)
            with atomic_path(target) as tmp:
                mesh.export(tmp, file_type="stl")  # trimesh writes binary STL
        except Exception as exc:  # trimesh raises many kinds; any of them means "not converted"
            self.note("dropped", kind, label, f"mesh {uri!r} could not be converted: {exc}")
            return None
        self.converted[path] = target
        self.note("approximated", kind, label, f"mesh {uri!r} converted to {target!r}")
        return target


def is_ascii_stl(path: str) -> bool:
    """Whether the STL file ``path`` is ASCII (MuJoCo decodes only binary STL).

    A binary STL is an 80-byte header, a 4-byte triangle count and 50 bytes per triangle; an
    ASCII one starts with ``solid`` and does not have that size (some binary headers start with
    ``solid`` too, so the size decides). Unreadable files count as binary: MuJoCo says why.
    """
    try:
        # Opened without blocking and judged by the descriptor: never a FIFO's endless wait.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                return False
            head, size = os.read(fd, 84), info.st_size
        finally:
            os.close(fd)
    except OSError:
        return False
    if len(head) == 84 and size == 84 + 50 * int.from_bytes(head[80:84], "little"):
        return False
    return head.lstrip()[:5].lower() == b"solid"


def material_json(mat: Material) -> dict[str, Any]:
    """Return a material as JSON data for the metadata (exact colours)."""
    return {
        "name": mat.name,
        "rgba": None if mat.rgba is None else list(mat.rgba),
        "texture": mat.texture,
        "extensions": list(mat.extensions),
    }


_GEOM_NAMES = {
    0: "plane",
    1: "hfield",
    2: "sphere",
    3: "capsule",
    4: "ellipsoid",
    5: "cylinder",
    6: "box",
    7: "mesh",
    8: "sdf",
}


class GeomReader:
    """Reads geoms as visual (non-colliding) and collision (colliding) shapes."""

    mj: Any
    mm: Any
    spec: Any
    meta: dict[str, Any]
    model: Model
    o: LoadOptions
    link_of_body: dict[int, str]
    geom_R: FloatArray

    def note(self, action: LossAction, kind: str, name: str, detail: str = "") -> None:
        """Record one report entry (the reader's own)."""
        raise NotImplementedError

    def name(self, obj: Any, i: int) -> str:
        """Return the name of MuJoCo object ``i`` of kind ``obj`` (the reader's own)."""
        raise NotImplementedError

    def _shapes(self, *, skip_world: bool) -> None:
        mj, mm = self.mj, self.mm
        visuals: dict[str, list[SolidShape]] = {}
        collisions: dict[str, list[SolidShape]] = {}
        for g in range(mm.ngeom):
            gname = self.name(mj.mjtObj.mjOBJ_GEOM, g)
            label = gname or f"geom{g}"
            body = int(mm.geom_bodyid[g])
            link = self.link_of_body[body]
            if body == 0 and skip_world:
                self.note("dropped", "geom", label, "world geometry of a floating-base model")
                continue
            kind = int(mm.geom_type[g])
            size = mm.geom_size[g]
            T = Transform(self.geom_R[g], mm.geom_pos[g])
            geometry: Geometry
            if kind == mj.mjtGeom.mjGEOM_BOX:
                geometry = Box(*(2.0 * float(x) for x in size))
            elif kind == mj.mjtGeom.mjGEOM_SPHERE:
                geometry = Sphere(float(size[0]))
            elif kind == mj.mjtGeom.mjGEOM_CYLINDER:
                geometry = Cylinder(float(size[0]), 2.0 * float(size[1]))
            elif kind == mj.mjtGeom.mjGEOM_MESH:
                mesh = int(mm.geom_dataid[g])
                file = self._mesh_file(mesh)
                if file is None:
                    self.note("dropped", "geom", label, "a mesh given without a file")
                    continue
                # MuJoCo moves a mesh to its inertial frame; put the file's frame back.
                offset = pose(mm.mesh_pos[mesh], mm.mesh_quat[mesh])
                T = T @ offset.inverse()
                geometry = Mesh(file, [float(x) for x in mm.mesh_scale[mesh]])
            else:
                self.note(
                    "dropped", "geom", label, f"a {_GEOM_NAMES.get(kind, kind)} has no URDF shape"
                )
                continue
            shape = SolidShape(
                geometry=geometry, name=gname or None, link_H_geometry=T, material=self._rgba(g)
            )
            visual = mm.geom_contype[g] == 0 and mm.geom_conaffinity[g] == 0
            (visuals if visual else collisions).setdefault(link, []).append(shape)
        for link, shapes in visuals.items():
            self.model = with_visual_shapes(self.model, link, shapes)
        for link, shapes in collisions.items():
            self.model = with_collision_shapes(self.model, link, shapes)

    def _rgba(self, g: int) -> Material | None:
        mj, mm = self.mj, self.mm
        mat = int(mm.geom_matid[g])
        if mat >= 0:
            name = self.name(mj.mjtObj.mjOBJ_MATERIAL, mat)
            exact = material_from_json(self.meta.get("materials", {}).get(name))
            if exact is not None:
                return exact
            return Material(name=name, rgba=tuple(float(x) for x in mm.mat_rgba[mat]))
        rgba = tuple(float(x) for x in mm.geom_rgba[g])
        # MuJoCo's default grey means "no colour given" (0.5 and 1 are exact in single precision).
        if rgba == (0.5, 0.5, 0.5, 1.0):
            return None
        return Material(rgba=rgba)

    def _mesh_file(self, mesh: int) -> str | None:
        uri = self.meta.get("mesh_uris", {}).get(self.name(self.mj.mjtObj.mjOBJ_MESH, mesh))
        if isinstance(uri, str):
            return uri
        spec_mesh = self.spec.meshes[mesh]
        file = str(spec_mesh.file or "")
        if not file:
            return None
        if os.path.isabs(file):
            return file
        base = str(self.spec.modelfiledir or "")
        meshdir = str(self.spec.meshdir or "")
        return os.path.normpath(os.path.join(base, meshdir, file))


def material_from_json(data: object) -> Material | None:
    """The exact material robomodel's exporter recorded, or ``None`` when there is none."""
    if not isinstance(data, dict):
        return None
    try:
        return Material(
            name=str(data.get("name") or ""),
            rgba=data.get("rgba"),
            texture=data.get("texture"),
            extensions=tuple(data.get("extensions") or ()),
        )
    except (TypeError, ValueError):
        return None


def _is_relative(filename: str) -> bool:
    """Whether a mesh filename is a relative path (no URI scheme, not absolute)."""
    return "://" not in filename and not os.path.isabs(filename)
