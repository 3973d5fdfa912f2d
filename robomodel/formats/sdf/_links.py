"""``<link>``: ``<inertial>``, ``<visual>``, ``<collision>`` and their geometry.

Read beside written.

An SDFormat inertial gives the mass, the pose of the inertia frame (its origin the centre of
mass) and the moments about the centre of mass in that frame; robomodel stores the spatial
inertia about the link origin. The inertia is computed with the URDF reader's arithmetic
(:func:`robomodel.formats.urdf._inertial.inertial_values`), so that the writer's search for
numbers that read back exactly (:func:`robomodel.formats.urdf._exact.inertial_numbers`) holds
here too; when none exist, ``robomodel:first_moment`` and ``robomodel:about_origin`` on
``<inertia>`` state the value exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from robomodel.formats.report import Loss
from robomodel.formats.sdf._poses import PoseGraph, read_pose, write_pose
from robomodel.formats.sdf._xml import Source, fmt, rm, tag_of, verbatim
from robomodel.formats.urdf.exact import inertial_numbers, inertial_values
from robomodel.model.record import Extension
from robomodel.model.shapes import Box, Cylinder, Geometry, Material, Mesh, SolidShape, Sphere
from robomodel.model.spatial import SpatialInertia, Transform

__all__ = [
    "read_inertial",
    "read_robot_material",
    "read_shape",
    "write_inertial",
    "write_robot_material",
    "write_shape",
]

_MOMENTS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


def _child(el: Any, tag: str) -> Any:
    return el.find(tag)


def read_inertial(
    src: Source, el: Any, link: str, graph: PoseGraph, kept: list[Extension]
) -> SpatialInertia:
    """Return the spatial inertia of ``<inertial>`` ``el`` about link ``link``'s origin."""
    what = f"link {link!r}"
    if el.get("auto", "false").strip() in ("true", "1"):
        src.fail(
            el,
            what,
            '<inertial auto="true"> (computed from the collision shapes) is not supported; '
            "give the mass and the moments",
        )
    mass_el = _child(el, "mass")
    m = 1.0 if mass_el is None else src.number(mass_el, what)  # SDFormat's default mass is 1
    if m < 0.0:
        src.fail(mass_el, what, f"<mass>{m!r}</mass> is negative; a mass is >= 0")
    six = [1.0, 0.0, 0.0, 1.0, 0.0, 1.0]  # SDFormat's default moments
    inertia_el = _child(el, "inertia")
    if inertia_el is not None:
        for k, tag in enumerate(_MOMENTS):
            sub = inertia_el.find(tag)
            if sub is not None:
                six[k] = src.number(sub, what)
    pose_el = _child(el, "pose")
    T = Transform.identity()
    if pose_el is not None:
        T, rel = read_pose(src, pose_el, what)
        if rel and rel != link:
            T = graph.between(link, graph.check(rel, pose_el, what)) @ T
    for ch in el:
        if ch.tag not in ("mass", "inertia", "pose"):
            kept.append(
                Extension(owner_kind="inertial", owner=link, xml=verbatim(ch), tag=tag_of(ch))
            )
    # The rotation of the inertia frame is applied by the URDF arithmetic: R I Rᵀ, then shift.
    rpy_free = [(T.rotation, T.position.tolist())]
    out = _inertia_from(m, six, rpy_free[0][0], rpy_free[0][1])
    exact = inertia_el.get(rm("first_moment")) if inertia_el is not None else None
    if exact is not None:
        about = src.numbers_attr(inertia_el, "about_origin", what, 6)
        h = src.numbers_attr(inertia_el, "first_moment", what, 3)
        got = SpatialInertia.from_vector([m, *h, *about])
        if not np.allclose(got.as_vector(), out.as_vector(), rtol=1e-6, atol=1e-9):
            src.fail(
                inertia_el,
                what,
                "robomodel:first_moment / robomodel:about_origin disagree with the moments; "
                "the document was edited after robomodel wrote it: remove them",
            )
        out = got
    return out


def _inertia_from(m: float, six: list[float], R: np.ndarray, c: list[float]) -> SpatialInertia:
    if np.array_equal(R, np.eye(3)):
        got: SpatialInertia = inertial_values(
            [(m, tuple(six))], [(c[0], c[1], c[2])], [(0.0, 0.0, 0.0)]
        )[0]
        return got
    I_frame = np.array(six)[[0, 1, 2, 1, 3, 4, 2, 4, 5]].reshape(3, 3)
    return SpatialInertia.from_com(m, c, R @ I_frame @ R.T)


def write_inertial(inertia: SpatialInertia, indent: str, kept: list[str]) -> str:
    """Return ``<inertial>`` for ``inertia`` (moments in link axes at the centre of mass)."""
    m, com, six, exact = inertial_numbers(inertia)
    extra = ""
    if not exact:
        I_O = inertia.rotational_inertia + 0.0
        about = [I_O[0, 0], I_O[0, 1], I_O[0, 2], I_O[1, 1], I_O[1, 2], I_O[2, 2]]
        extra = (
            f' robomodel:first_moment="{fmt(inertia.first_moment)}"'
            f' robomodel:about_origin="{fmt(about)}"'
        )
    moments = "".join(f"<{t}>{fmt([v])}</{t}>" for t, v in zip(_MOMENTS, six, strict=True))
    i2 = indent + "  "
    return (
        f"{indent}<inertial>\n{i2}<pose>{fmt([*com, 0, 0, 0])}</pose>\n"
        f"{i2}<mass>{fmt([m])}</mass>\n{i2}<inertia{extra}>{moments}</inertia>\n"
        + "".join(f"{i2}{x}\n" for x in kept)
        + f"{indent}</inertial>"
    )


# ---------------------------------------------------------------------- visual and collision
def _geometry(src: Source, el: Any, what: str) -> Geometry | None:
    g = [ch for ch in el if isinstance(ch.tag, str)]
    if len(g) != 1:
        return None  # none, or several (polylines): kept verbatim
    s = g[0]
    if s.tag == "box":
        size = s.find("size")
        x, y, z = [1.0, 1.0, 1.0] if size is None else src.numbers(size, what, 3)
        return Box(x, y, z)
    if s.tag == "sphere":
        r = s.find("radius")
        return Sphere(1.0 if r is None else src.number(r, what))
    if s.tag == "cylinder":
        r, length = s.find("radius"), s.find("length")
        return Cylinder(
            1.0 if r is None else src.number(r, what),
            1.0 if length is None else src.number(length, what),
        )
    if s.tag == "mesh":
        uri = s.find("uri")
        if uri is None or not (uri.text or "").strip():
            src.fail(s, what, "<mesh> has no <uri>; give the mesh file")
        scale = s.find("scale")
        sc = (1.0, 1.0, 1.0) if scale is None else tuple(src.numbers(scale, what, 3))
        if any(ch.tag not in ("uri", "scale") for ch in s):
            return None  # a submesh: kept whole
        return Mesh((uri.text or "").strip(), sc)  # type: ignore[arg-type]
    return None


def _material(src: Source, el: Any, what: str) -> Material:
    rgba = None
    kept: list[str] = []
    for ch in el:
        if ch.tag == "diffuse":
            v = src.numbers(ch, what)
            if len(v) not in (3, 4):
                src.fail(ch, what, "<diffuse> must hold r g b [a]")
            rgba = (v[0], v[1], v[2], v[3] if len(v) == 4 else 1.0)
        else:
            kept.append(verbatim(ch))
    return Material(
        name=el.get(rm("name"), ""), rgba=rgba, texture=el.get(rm("texture")), extensions=kept
    )


def read_robot_material(src: Source, el: Any) -> Material:
    """Return robomodel's model-level ``<robomodel:material>`` (SDFormat has none)."""
    return _material(src, el, "<robomodel:material>")


def write_robot_material(mat: Material, indent: str) -> str:
    """Return ``<robomodel:material>`` for a model-level (URDF ``<robot>``) material."""
    from xml.sax.saxutils import quoteattr

    nm = f" robomodel:name={quoteattr(mat.name)}"
    if mat.texture is not None:
        nm += f" robomodel:texture={quoteattr(mat.texture)}"
    inner = "" if mat.rgba is None else f"<diffuse>{fmt(mat.rgba)}</diffuse>"
    inner += "".join(mat.extensions)
    return f"{indent}<robomodel:material{nm}>{inner}</robomodel:material>"


def read_shape(src: Source, el: Any, link: str, graph: PoseGraph) -> SolidShape | None:
    """Return the shape of ``<visual>``/``<collision>`` ``el``.

    ``None`` for a geometry robomodel does not model (a plane, capsule, heightmap, submesh,
    ...), which the caller keeps verbatim.
    """
    what = f"{el.tag} {el.get('name', '')!r} of link {link!r}"
    geom_el = el.find("geometry")
    if geom_el is None:
        return None  # SDFormat allows it (a material alone): kept verbatim
    geom = _geometry(src, geom_el, what)
    if geom is None:
        return None
    T = Transform.identity()
    material = None
    kept: list[str] = []
    for ch in el:
        if ch.tag == "pose":
            T, rel = read_pose(src, ch, what)
            if rel and rel != link:
                T = graph.between(link, graph.check(rel, ch, what)) @ T
        elif (ch.tag == "material" and el.tag == "visual") or ch.tag == rm("material"):
            material = _material(src, ch, what)
        elif ch.tag != "geometry":
            kept.append(verbatim(ch))
    name = None if el.get(rm("unnamed")) == "true" else el.get("name")
    return SolidShape(
        geometry=geom, name=name, link_H_geometry=T, material=material, extensions=kept
    )


def _write_geometry(g: Geometry) -> str:
    match g:
        case Box():
            return f"<box><size>{fmt([g.x, g.y, g.z])}</size></box>"
        case Sphere():
            return f"<sphere><radius>{fmt([g.radius])}</radius></sphere>"
        case Cylinder():
            return f"<cylinder><radius>{fmt([g.radius])}</radius><length>{fmt([g.length])}</length></cylinder>"  # noqa: E501
        case Mesh():
            from xml.sax.saxutils import escape

            return f"<mesh><uri>{escape(g.filename)}</uri><scale>{fmt(g.scale)}</scale></mesh>"


def write_shape(
    tag: str, shape: SolidShape, k: int, indent: str, losses: list[Loss], link: str
) -> str:
    """Return ``<visual>``/``<collision>`` for ``shape`` (the ``k``-th of its kind)."""
    from xml.sax.saxutils import quoteattr

    name = shape.name if shape.name else f"{tag}_{k}"
    unnamed = ' robomodel:unnamed="true"' if shape.name is None else ""
    if shape.name == "":
        losses.append(
            Loss(
                action="renamed",
                kind=tag,
                name=name,
                detail=f"an empty name on link {link!r}; SDFormat needs one",
            )
        )
    i2 = indent + "  "
    out = [f"{indent}<{tag} name={quoteattr(name)}{unnamed}>"]
    if not shape.link_H_geometry.is_identity(0.0):
        out.append(write_pose(shape.link_H_geometry, None, i2))
    out.append(f"{i2}<geometry>{_write_geometry(shape.geometry)}</geometry>")
    mat = shape.material
    if mat is not None and tag == "visual":
        nm = f" robomodel:name={quoteattr(mat.name)}" if mat.name else ""
        if mat.texture is not None:
            nm += f" robomodel:texture={quoteattr(mat.texture)}"
        inner = "" if mat.rgba is None else f"<diffuse>{fmt(mat.rgba)}</diffuse>"
        inner += "".join(mat.extensions)
        out.append(f"{i2}<material{nm}>{inner}</material>")
        if mat.texture:
            losses.append(
                Loss(
                    action="note",
                    kind="material",
                    name=mat.name,
                    detail=f"texture {mat.texture!r} kept in robomodel:texture, which other "
                    "SDFormat readers ignore",
                )
            )
    elif mat is not None:  # SDFormat collisions have no material: robomodel's element keeps it
        out.append(write_robot_material(mat, i2))
        losses.append(
            Loss(
                action="note",
                kind="collision",
                name=name,
                detail=f"its material (link {link!r}) kept in <robomodel:material>, which other "
                "SDFormat readers skip",
            )
        )
    out.extend(i2 + x for x in shape.extensions)
    out.append(f"{indent}</{tag}>")
    return "\n".join(out)
