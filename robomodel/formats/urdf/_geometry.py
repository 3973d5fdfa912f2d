"""``<visual>``, ``<collision>``, ``<geometry>`` and ``<material>``: each read beside written.

A shape's origin is read with the other origins of the document
(:mod:`robomodel.formats.urdf._origin`),
so :func:`read_shape` returns a :class:`RawShape` record that :func:`shape_values` turns into a
:class:`~robomodel.model.shapes.SolidShape` once the numbers are read. Unknown children of a shape
or a material are kept in that value's ``extensions`` and written back at its end.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from robomodel._internal.construct import make
from robomodel.formats.urdf._document import (
    Reader,
    Writer,
    fmt3,
    number,
    numbers,
    pick_children,
    q,
    required,
    strict_numbers,
)
from robomodel.formats.urdf._extensions import kept_texts
from robomodel.formats.urdf._origin import read_origin, write_origin
from robomodel.formats.urdf._records import RawShape
from robomodel.formats.urdf.errors import URDFReferenceError, URDFValueError
from robomodel.formats.urdf.numbers import format_float
from robomodel.model.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere

__all__ = [
    "read_geometry",
    "read_material",
    "read_materials",
    "read_shape",
    "shape_values",
    "write_material",
    "write_shape",
]

_MESH = make(Mesh)
_MATERIAL = make(Material)
_SOLID_SHAPE = make(SolidShape)
_SHAPE_CHILDREN = {"origin": 0, "geometry": 1, "material": 2}


# ---------------------------------------------------------------------- <material>
def read_materials(r: Reader, root: Any) -> tuple[dict[str, Material], list[Material]]:
    """Return the robot-level materials of ``root`` by name and in document order."""
    db: dict[str, Material] = {}
    materials: list[Material] = []
    for el in root.iterchildren("material"):
        name = required(r, el, "material", "name")
        if name in db:
            raise r.err(
                URDFReferenceError, el, f"material {name!r}", "defined twice at robot level"
            )
        mat = read_material(r, el, f"material {name!r}", None)
        db[name] = mat
        materials.append(mat)
    return db, materials


def read_material(r: Reader, el: Any, what: str, db: dict[str, Material] | None) -> Material:
    """Return the material of ``el``; a name-only reference resolves against ``db``."""
    name = el.get("name", "")
    if db is not None and len(el) == 1 and el[0].tag == "color":
        # A shape's material of one colour (the common form): read once per load.
        ch = el[0]
        key = (name, ch.get("rgba"))
        mat = r.colors.get(key)
        if mat is None:
            mat = r.colors[key] = _MATERIAL(name, numbers(r, ch, what, "rgba", 4), None, ())
        return mat
    rgba = texture = None
    others: list[Any] = []
    for ch in el:
        tag = ch.tag
        if tag == "color":
            rgba = numbers(r, ch, what, "rgba", 4)
        elif tag == "texture":
            texture = ch.get("filename", "")
        else:
            others.append(ch)
    kept = kept_texts(r, others)
    if rgba is None and texture is None and db is not None:
        # A reference to a robot-level material; an unknown name stays a name-only material
        # (iDynTree drops the shapes after it, which loses data). Children the reference holds
        # itself are kept after the referred material's.
        found = db.get(name)
        if found is not None:
            if not kept:
                return found
            return _MATERIAL(found.name, found.rgba, found.texture, found.extensions + kept)
    # Four finite floats (or none) and element texts: what Material's converters would check.
    return _MATERIAL(name, rgba, texture, kept)


def write_material(w: Writer, mat: Material, indent: str, top: bool) -> None:
    """Write ``mat``: in full at robot level (``top``), by name where that material is known."""
    out = w.out
    if not top and mat.name and w.materials.get(mat.name) == mat:
        out.append(f"{indent}<material name={q(mat.name)}/>")
        return
    kept = mat.extensions if w.options.write_extensions else ()
    if mat.rgba is None and mat.texture is None and not kept:
        out.append(f"{indent}<material name={q(mat.name)}/>")
        return
    out.append(f"{indent}<material name={q(mat.name)}>")
    if mat.rgba is not None:
        out.append(f'{indent}  <color rgba="{" ".join(format_float(v) for v in mat.rgba)}"/>')
    if mat.texture is not None:
        out.append(f"{indent}  <texture filename={q(mat.texture)}/>")
    out += [f"{indent}  {x}" for x in kept]
    out.append(f"{indent}</material>")


# ---------------------------------------------------------------------- <geometry>
def read_geometry(r: Reader, el: Any, what: str) -> Geometry | None:
    """Return the shape of ``<geometry>`` ``el``, ``None`` for a kind robomodel does not model."""
    g = el[0] if len(el) == 1 else None
    if g is None or not isinstance(g.tag, str):
        shapes = [ch for ch in el if isinstance(ch.tag, str)]
        count = len(shapes)
        g = shapes[0] if count == 1 else None
    if g is None:
        raise r.err(
            URDFValueError,
            el,
            what,
            f"<geometry> must hold exactly one shape (box, cylinder, sphere or mesh), got {count}",
        )
    tag = g.tag
    if tag == "mesh":
        filename = g.get("filename")
        if not filename or filename.isspace():
            filename = required(r, g, what, "filename")
        key = (filename, g.get("scale"))
        mesh = r.meshes.get(key)
        if mesh is None:
            scale = numbers(r, g, what, "scale", 3, (1.0, 1.0, 1.0))
            # Three finite floats: what Mesh's converter would check.
            mesh = r.meshes[key] = _MESH(filename, scale)
        return mesh
    if tag == "box":
        x, y, z = strict_numbers(r, g, what, "size", 3)
        dims: tuple[float, ...] = (x, y, z)
    elif tag == "cylinder":
        dims = (number(r, g, what, "radius"), number(r, g, what, "length"))
    elif tag == "sphere":
        dims = (number(r, g, what, "radius"),)
    else:
        return None  # not modelled: the caller keeps the whole element verbatim
    if any(d < 0.0 for d in dims):
        raise r.err(URDFValueError, g, what, f"<{tag}> dimensions must be >= 0, got {list(dims)}")
    # Finite floats >= 0: what the shapes' converters check.
    if tag == "box":
        return _BOX(*dims)
    if tag == "cylinder":
        return _CYLINDER(*dims)
    return _SPHERE(dims[0])


_BOX = make(Box)
_CYLINDER = make(Cylinder)
_SPHERE = make(Sphere)


def _write_geometry(out: list[str], g: Geometry) -> None:
    out.append("      <geometry>")
    match g:
        case Box():
            out.append(f'        <box size="{fmt3((g.x, g.y, g.z))}"/>')
        case Cylinder():
            out.append(
                f'        <cylinder radius="{format_float(g.radius)}" '
                f'length="{format_float(g.length)}"/>'
            )
        case Sphere():
            out.append(f'        <sphere radius="{format_float(g.radius)}"/>')
        case Mesh():
            out.append(f'        <mesh filename={q(g.filename)} scale="{fmt3(g.scale)}"/>')
    out.append("      </geometry>")


# ---------------------------------------------------------------------- <visual>, <collision>
def read_shape(r: Reader, el: Any, what: str, db: dict[str, Material]) -> RawShape | None:
    """Return the shape of ``<visual>`` or ``<collision>`` ``el``, ``None`` when not modelled."""
    (origin, geometry, material), others = pick_children(r, el, what, _SHAPE_CHILDREN)
    if geometry is None:
        raise r.err(URDFValueError, el, what, f"<{el.tag}> has no <geometry>; add one")
    g = read_geometry(r, geometry, what)
    if g is None:
        return None
    line = None
    if r.lines and isinstance(g, Mesh):  # where load_with_report says it was read
        mesh = geometry.find("mesh")  # its first <mesh> child, which read_geometry read
        line = None if mesh is None else mesh.sourceline
    raw = RawShape(g, el.get("name") or None, line)
    if origin is not None:
        read_origin(r, origin, what, raw)
    if material is not None:
        raw.material = read_material(r, material, what, db)
    raw.extensions = kept_texts(r, others)
    return raw


def shape_values(raws: Iterable[RawShape]) -> list[SolidShape]:
    """Return the shapes of ``raws`` once their origins are read."""
    # Every field was checked as SolidShape checks it (a geometry, a checked material).
    return [_SOLID_SHAPE(s.geometry, s.name, s.origin, s.material, s.extensions) for s in raws]


def write_shape(w: Writer, tag: str, s: SolidShape, origin: str | None = None) -> None:
    """Write ``s`` as a ``<visual>`` or ``<collision>`` (``tag``).

    ``origin``: its ``<origin>`` when already written (:func:`~robomodel.formats.urdf._origin.
    origin_texts`).
    """
    out = w.out
    out.append(f"    <{tag} name={q(s.name)}>" if s.name else f"    <{tag}>")
    if origin is None:
        origin = write_origin(s.link_H_geometry, memo=w.memo)
    out.append("      " + origin)
    _write_geometry(out, s.geometry)
    if s.material is not None:
        write_material(w, s.material, "      ", False)
    if w.options.write_extensions:
        out += ["      " + x for x in s.extensions]
    out.append(f"    </{tag}>")
