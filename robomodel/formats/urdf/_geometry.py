"""``<visual>``, ``<collision>``, ``<geometry>`` and ``<material>``: each read beside written.

A shape's origin is read with the other origins of the document
(:mod:`robomodel.formats.urdf._origin`),
so :func:`read_shape` returns a :class:`RawShape` record that :func:`shape_values` turns into a
:class:`~robomodel.model.shapes.SolidShape` once the numbers are read. Unknown children of a shape
or a material are kept in that value's ``extensions`` and written back at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from robomodel._internal.construct import make
from robomodel.formats.urdf._document import (
    Reader,
    Writer,
    number,
    numbers,
    pick_children,
    q,
    quote,
    quote_names,
    required,
    strict_numbers,
)
from robomodel.formats.urdf._extensions import kept_texts
from robomodel.formats.urdf._origin import read_origin
from robomodel.formats.urdf._records import RawShape
from robomodel.formats.urdf.errors import URDFReferenceError, URDFValueError
from robomodel.formats.urdf.numbers import format_numbers
from robomodel.model.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere

__all__ = [
    "read_geometry",
    "read_material",
    "read_materials",
    "read_shape",
    "shape_blocks",
    "shape_values",
    "write_material",
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
    whole = _written_in_full(w, mat, top)
    numbers = format_numbers(mat.rgba) if whole and mat.rgba is not None else ()
    w.out.append(_material_xml(w, mat, indent, whole, iter(numbers)))


def _written_in_full(w: Writer, mat: Material, top: bool = False) -> bool:
    """Whether ``mat`` is written in full, else by name (a bare material, or a known one).

    A shape's material that the robot defines is written by name; ``top``: the robot's own.
    """
    if not top and mat.name and w.materials.get(mat.name) == mat:
        return False
    kept = mat.extensions if w.options.write_extensions else ()
    return not (mat.rgba is None and mat.texture is None and not kept)


def _material_xml(
    w: Writer, mat: Material, indent: str, whole: bool, numbers: Iterator[str]
) -> str:
    """The ``<material>`` of ``mat`` (``whole``: in full), its ``rgba`` from ``numbers``."""
    if not whole:
        return f"{indent}<material name={q(mat.name)}/>"
    lines = [f"{indent}<material name={q(mat.name)}>"]
    if mat.rgba is not None:
        rgba = " ".join([next(numbers) for _ in range(4)])
        lines.append(f'{indent}  <color rgba="{rgba}"/>')
    if mat.texture is not None:
        lines.append(f"{indent}  <texture filename={q(mat.texture)}/>")
    if w.options.write_extensions:
        lines += [f"{indent}  {x}" for x in mat.extensions]
    lines.append(f"{indent}</material>")
    return "\n".join(lines)


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


def _geometry_numbers(g: Geometry) -> list[float]:
    """The numbers :func:`_geometry_xml` writes for ``g``, in order."""
    if isinstance(g, Mesh):  # the common kind first
        return list(g.scale)
    if isinstance(g, Box):
        return [g.x, g.y, g.z]
    if isinstance(g, Cylinder):
        return [g.radius, g.length]
    return [g.radius]


def _geometry_xml(g: Geometry, numbers: Iterator[str]) -> str:
    """The element inside ``<geometry>`` for ``g``, its numbers from ``numbers`` in order."""
    if isinstance(g, Mesh):
        scale = f"{next(numbers)} {next(numbers)} {next(numbers)}"
        return f'<mesh filename={q(g.filename)} scale="{scale}"/>'
    if isinstance(g, Box):
        return f'<box size="{next(numbers)} {next(numbers)} {next(numbers)}"/>'
    if isinstance(g, Cylinder):
        return f'<cylinder radius="{next(numbers)}" length="{next(numbers)}"/>'
    return f'<sphere radius="{next(numbers)}"/>'


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


# ---------------------------------------------------------------------- many shapes at once
def shape_blocks(
    w: Writer,
    tags: Sequence[str],
    shapes: Sequence[SolidShape],
    owners: Sequence[str],
) -> Callable[[Sequence[str]], list[str]]:
    """Add the numbers of every shape to ``w.pending``; return a function of their texts.

    Once ``w.pending`` is formatted, the function returned gives the ``<visual>`` or
    ``<collision>`` of every shape, one text each, from each one's ``<origin>``.
    ``tags``: per shape, ``visual`` or ``collision``; ``owners``: its link, named by an error.
    Links share geometries and materials (a visual and its collision hold one mesh): each
    distinct one is written once, the numbers of all formatted with the export's.

    Raises:
        URDFExportError: a name or file name holds control characters (the first one, in
            document order).
    """
    # ------------------------------------------------------------------ distinct values
    geometries = list({id(s.geometry): s.geometry for s in shapes}.values())
    materials = list({id(s.material): s.material for s in shapes if s.material}.values())
    meshes = [g for g in geometries if type(g) is Mesh]
    strings = [s.name for s in shapes if s.name]
    strings += [g.filename for g in meshes]
    strings += [mat.name for mat in materials]
    strings += [mat.texture for mat in materials if mat.texture is not None]
    try:
        quoted = dict(zip(strings, quote_names(strings), strict=True))
    except ValueError:
        _raise_first_bad_string(w, shapes, owners)
        raise  # pragma: no cover (the line above raises)
    # ------------------------------------------------------------------ their numbers
    flat: list[float] = []
    for g in geometries:
        flat += _geometry_numbers(g)
    full = [_written_in_full(w, mat) for mat in materials]
    for mat, whole in zip(materials, full, strict=True):
        if whole and mat.rgba is not None:
            flat += mat.rgba
    start = w.pending.add(flat)

    def texts(origins: Sequence[str]) -> list[str]:
        t = iter(w.pending.texts[start : start + len(flat)])
        return _shape_texts(w, tags, shapes, origins, geometries, materials, full, quoted, t)

    return texts


def _shape_texts(
    w: Writer,
    tags: Sequence[str],
    shapes: Sequence[SolidShape],
    origins: Sequence[str],
    geometries: list[Geometry],
    materials: list[Material],
    full: list[bool],
    quoted: dict[str, str],
    t: Iterator[str],
) -> list[str]:
    """The texts of :func:`shape_blocks`, once their numbers' texts ``t`` are known."""
    geometry_text = {
        id(g): (
            f'<mesh filename={quoted[g.filename]} scale="{next(t)} {next(t)} {next(t)}"/>'
            if type(g) is Mesh
            else _geometry_xml(g, t)
        )
        for g in geometries
    }
    material_text = {
        id(mat): (
            f'\n      <material name={quoted[mat.name]}>\n        <color rgba="{next(t)} '
            f'{next(t)} {next(t)} {next(t)}"/>\n      </material>'
            if whole and mat.texture is None and mat.rgba is not None and not mat.extensions
            else "\n" + _material_xml(w, mat, "      ", whole, t)
        )
        for mat, whole in zip(materials, full, strict=True)
    }
    material_text[id(None)] = ""
    if w.options.write_extensions:
        tails = [
            material_text[id(s.material)] + "".join(["\n      " + x for x in s.extensions])
            for s in shapes
        ]
    else:
        tails = [material_text[id(s.material)] for s in shapes]
    return [
        f"    <{tag}{f' name={quoted[s.name]}' if s.name else ''}>\n      {origin}\n"
        f"      <geometry>\n        {geometry_text[id(s.geometry)]}\n      </geometry>{tail}"
        f"\n    </{tag}>"
        for tag, s, origin, tail in zip(tags, shapes, origins, tails, strict=True)
    ]


def _raise_first_bad_string(w: Writer, shapes: Sequence[SolidShape], owners: Sequence[str]) -> None:
    """Raise the export error of the first string of ``shapes`` XML cannot carry."""
    for s, owner in zip(shapes, owners, strict=True):
        texts = [s.name] if s.name else []
        if isinstance(s.geometry, Mesh):
            texts.append(s.geometry.filename)
        mat = s.material
        if mat is not None:
            texts.append(mat.name)
            if mat.texture is not None:
                texts.append(mat.texture)
        for text in texts:
            try:
                quote(text)
            except ValueError as e:
                raise w.fail(f"link {owner!r}", str(e)) from None
    raise AssertionError("quote_names fails only where quote does")  # pragma: no cover
