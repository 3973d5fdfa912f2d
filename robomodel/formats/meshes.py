"""Mesh files: where a filename points, whether the file is there, and (with trimesh) its shape.

**Resolution.** A mesh filename is kept verbatim in the model
(:class:`~robomodel.model.shapes.Mesh`);
:func:`resolve_mesh` turns it into a path:

* ``package://pkg/path`` and ``model://pkg/path`` (also ``package:///pkg/path`` with an empty
  host, as example-robot-data writes them) are looked up as ``DIR/pkg/path`` in each package
  directory in turn, the first that exists wins. The result never leaves the directory it was
  found in: ``..`` steps, absolute parts and symbolic links leading out are refused.
* ``file:///path`` and ``file://localhost/path`` are the local file ``/path``; ``%XX`` escapes
  are decoded (in ``package://`` URIs too).
* An absolute path is itself; a relative path is relative to the ``base_dir`` given (the
  directory of the URDF file: a mesh value does not remember where it was read; the load's
  report, :func:`robomodel.formats.urdf.load_with_report`, does). ``..`` steps are fine here:
  the URDF's author chose them.

Only the directories given are searched. The environment (``ROS_PACKAGE_PATH``,
``AMENT_PREFIX_PATH``, ``GAZEBO_MODEL_PATH``) is consulted only through
:func:`env_package_dirs`, which the caller adds on purpose
(``load(path, package_dirs=[*mine, *env_package_dirs()])``, ``--env-package-dirs`` on the
command line), so that a model loads the same on every machine unless told otherwise.

**Checks.** :func:`check_meshes` returns a :class:`MeshProblem` for every mesh that cannot be
resolved, found or read, naming the link, the mesh and the URDF file and line it was read from;
``robomodel validate`` lists them (check ``meshes``).

**Shapes** (the ``meshes`` extra, ``pip install 'robomodel[meshes]'``, which installs trimesh):
:func:`load_mesh`, :func:`shape_trimesh`, :func:`link_bounds`, :func:`link_volume` and
:func:`export_scene` (the robot at a configuration as a GLB or OBJ file).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from robomodel.errors import MeshesNotInstalledError, ModelError
from robomodel.model.mesh_files import MeshError as MeshError
from robomodel.model.mesh_files import MeshOrigins as MeshOrigins
from robomodel.model.mesh_files import MeshProblem as MeshProblem
from robomodel.model.mesh_files import ShapeKind as ShapeKind
from robomodel.model.mesh_files import check_meshes as check_meshes
from robomodel.model.mesh_files import env_package_dirs as env_package_dirs
from robomodel.model.mesh_files import grouped_problems as grouped_problems
from robomodel.model.mesh_files import readable
from robomodel.model.mesh_files import resolve_mesh as resolve_mesh
from robomodel.model.record import Model
from robomodel.model.shapes import Box, Cylinder, Mesh, SolidShape, Sphere

__all__ = [
    "MeshError",
    "MeshOrigins",
    "MeshProblem",
    "MeshesNotInstalledError",
    "ShapeKind",
    "check_meshes",
    "env_package_dirs",
    "export_scene",
    "grouped_problems",
    "link_bounds",
    "link_volume",
    "load_mesh",
    "resolve_mesh",
    "shape_trimesh",
]


# --------------------------------------------------------------------------- shapes (trimesh)


def _trimesh() -> Any:
    try:
        import trimesh
    except ImportError as exc:
        raise MeshesNotInstalledError(
            "reading meshes needs trimesh; install it with pip install 'robomodel[meshes]'",
            package="trimesh",
            extra="meshes",
        ) from exc
    return trimesh


def load_mesh(mesh: Mesh, *, package_dirs: Iterable[str] = (), base_dir: str | None = None) -> Any:
    """Return the mesh file of ``mesh`` as a ``trimesh.Trimesh``, with the mesh's scale applied.

    Args:
        mesh: the mesh.
        package_dirs: directories for ``package://`` URIs (see :func:`resolve_mesh`).
        base_dir: the directory relative filenames are relative to.

    Raises:
        MeshError: the file cannot be resolved, found or read as a mesh.
        MeshesNotInstalledError: trimesh is not installed.
    """
    trimesh = _trimesh()
    path = resolve_mesh(mesh, package_dirs=package_dirs, base_dir=base_dir)
    readable(mesh.filename, path)
    try:
        tm = trimesh.load(path, force="mesh")
    except Exception as e:  # trimesh raises many kinds for a file it cannot parse
        raise MeshError(
            mesh.filename, f"{path!r} is not a mesh trimesh reads ({e})", kind="unreadable"
        ) from e
    if not isinstance(tm, trimesh.Trimesh) or len(tm.faces) == 0:
        raise MeshError(mesh.filename, f"{path!r} holds no triangles", kind="unreadable")
    tm.apply_scale(np.asarray(mesh.scale, dtype=np.float64))
    return tm


def shape_trimesh(
    shape: SolidShape, *, package_dirs: Iterable[str] = (), base_dir: str | None = None
) -> Any:
    """Return a visual or collision shape as a ``trimesh.Trimesh`` in its link's frame.

    Boxes, spheres and cylinders (axis z, centred, as in URDF) are triangulated by
    ``trimesh.creation``; meshes are read with :func:`load_mesh`. The shape's material colour,
    if any, colours the faces.

    Raises:
        MeshError: a mesh file cannot be resolved, found or read.
        MeshesNotInstalledError: trimesh is not installed.
    """
    trimesh = _trimesh()
    g = shape.geometry
    match g:
        case Box():
            tm = trimesh.creation.box(extents=(g.x, g.y, g.z))
        case Sphere():
            tm = trimesh.creation.icosphere(subdivisions=3, radius=g.radius)
        case Cylinder():
            tm = trimesh.creation.cylinder(radius=g.radius, height=g.length, sections=48)
        case _:
            tm = load_mesh(g, package_dirs=package_dirs, base_dir=base_dir)
    tm.apply_transform(shape.link_H_geometry.as_matrix())
    if shape.material is not None and shape.material.rgba is not None:
        rgba = np.round(np.clip(shape.material.rgba, 0.0, 1.0) * 255).astype(np.uint8)
        tm.visual.face_colors = np.tile(rgba, (len(tm.faces), 1))
    return tm


def _shapes(model: Model, link: str | int, kind: ShapeKind) -> tuple[str, list[SolidShape]]:
    if kind not in ("visual", "collision"):
        raise ModelError(f"kind must be 'visual' or 'collision', got {kind!r}")
    i = model._link_idx(link)
    shapes = model.visuals[i] if kind == "visual" else model.collisions[i]
    return model.link_names[i], list(shapes)


def link_bounds(
    model: Model,
    link: str | int,
    *,
    kind: ShapeKind = "visual",
    package_dirs: Iterable[str] = (),
    base_dir: str | None = None,
) -> Any:
    """Return the axis-aligned box around a link's shapes, in the link frame, as ``[min, max]``.

    Exact for boxes, spheres and cylinders (from their dimensions, without trimesh) and for
    meshes (their vertices, read with trimesh when the link has meshes).

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "a")
    >>> m = rm.with_visual_shapes(m, "a", [rm.SolidShape(geometry=rm.Box(1.0, 2.0, 4.0))])
    >>> link_bounds(m, "a").tolist()
    [[-0.5, -1.0, -2.0], [0.5, 1.0, 2.0]]

    Args:
        model: the model.
        link: the link (name or index).
        kind: ``"visual"`` or ``"collision"`` shapes.
        package_dirs: more package directories for ``package://`` meshes (the model's first).
        base_dir: the directory relative mesh filenames are relative to (a URDF's:
            ``robomodel.formats.urdf.load_with_report(path)[1].sources.base_dir``).

    Raises:
        ModelError: the link has no shapes of that kind.
        MeshError: a mesh file cannot be resolved, found or read.
    """
    name, shapes = _shapes(model, link, kind)
    if not shapes:
        raise ModelError(f"link {name!r} has no {kind} shapes, so it has no bounds")
    dirs = [*model.package_dirs, *package_dirs]
    lo, hi = np.full(3, np.inf), np.full(3, -np.inf)
    for s in shapes:
        R, p = s.link_H_geometry.rotation, s.link_H_geometry.position
        g = s.geometry
        match g:
            case Box():
                half = np.abs(R) @ (0.5 * np.array([g.x, g.y, g.z]))
                a, b = p - half, p + half
            case Sphere():
                a, b = p - g.radius, p + g.radius
            case Cylinder():
                # Along world axis i the disc reaches radius * |(R[i, 0], R[i, 1])|: computed from
                # those entries, not as sqrt(1 - R[i, 2]^2), which cancels to 0 for tilts near 1e-8.
                half = 0.5 * g.length * np.abs(R[:, 2]) + g.radius * np.hypot(R[:, 0], R[:, 1])
                a, b = p - half, p + half
            case _:
                v = load_mesh(g, package_dirs=dirs, base_dir=base_dir).vertices @ R.T + p
                a, b = v.min(axis=0), v.max(axis=0)
        lo, hi = np.minimum(lo, a), np.maximum(hi, b)
    return np.array([lo, hi])


def link_volume(
    model: Model,
    link: str | int,
    *,
    kind: ShapeKind = "collision",
    package_dirs: Iterable[str] = (),
    base_dir: str | None = None,
) -> float:
    """Return the summed volume (m^3) of a link's shapes; overlaps count twice.

    Exact for boxes, spheres and cylinders; a mesh must be closed (watertight) to have one.
    ``base_dir``: the directory relative mesh filenames are relative to.

    Raises:
        MeshError: a mesh file cannot be resolved, found or read, or it is not closed.
    """
    _, shapes = _shapes(model, link, kind)
    dirs = [*model.package_dirs, *package_dirs]
    total = 0.0
    for s in shapes:
        g = s.geometry
        match g:
            case Box():
                total += g.x * g.y * g.z
            case Sphere():
                total += 4.0 / 3.0 * math.pi * g.radius**3
            case Cylinder():
                total += math.pi * g.radius**2 * g.length
            case _:
                tm = load_mesh(g, package_dirs=dirs, base_dir=base_dir)
                if not tm.is_watertight:
                    raise MeshError(
                        g.filename,
                        "the mesh is not closed (watertight), so it has no volume",
                        kind="unreadable",
                    )
                total += float(abs(tm.volume))
    return total


_SCENE_TYPES = {".glb": "glb", ".gltf": "gltf", ".obj": "obj", ".ply": "ply", ".stl": "stl"}


def export_scene(
    model: Model,
    path: str | os.PathLike[str],
    q: Any = None,
    *,
    kind: ShapeKind = "visual",
    base: str | int | None = None,
    package_dirs: Iterable[str] = (),
    base_dir: str | None = None,
) -> Path:
    """Write the robot's shapes at configuration ``q`` as one 3D scene file (GLB, OBJ, ...).

    Each shape becomes one geometry (named ``link/visual/k``) placed at
    ``base_H_link @ link_H_geometry`` by :func:`robomodel.physics.kinematics.forward_kinematics`.
    The
    format follows the suffix: ``.glb`` (binary glTF, keeps the scene graph), ``.obj``, ``.ply``
    and ``.stl`` (one merged mesh). The file is written atomically.

    Args:
        model: the model.
        path: the output file.
        q: joint positions (vector, mapping or :class:`~robomodel.physics.joint_state.JointState`);
            ``None`` for all zeros, and the joints a mapping leaves out are at zero.
        kind: ``"visual"`` or ``"collision"`` shapes.
        base: the link at the origin (default: the default base).
        package_dirs: more package directories for ``package://`` meshes (the model's first).
        base_dir: the directory relative mesh filenames are relative to (a URDF's:
            ``robomodel.formats.urdf.load_with_report(path)[1].sources.base_dir``).

    Returns:
        The path written.

    Raises:
        MeshError: a mesh file cannot be resolved, found or read.
        ModelError: the suffix is not one of the formats above.
        MeshesNotInstalledError: trimesh is not installed.
    """
    from robomodel._internal.files import atomic_write
    from robomodel.physics.joint_state import positions_of
    from robomodel.physics.kinematics import forward_kinematics

    out = Path(path)
    file_type = _SCENE_TYPES.get(out.suffix.lower())
    if file_type is None:
        raise ModelError(
            f"{out}: cannot write {out.suffix or 'files without a suffix'!r} scenes; name the "
            f"file with one of {', '.join(_SCENE_TYPES)}"
        )
    trimesh = _trimesh()
    fk = forward_kinematics(model, positions_of(model, q, required=False), base=base)
    dirs = [*model.package_dirs, *package_dirs]
    scene = trimesh.Scene()
    for i, name in enumerate(model.link_names):
        H = fk.base_H_link[i]
        if np.isnan(H[0, 0]):
            continue  # not connected to the base: no pose to draw it at
        _, shapes = _shapes(model, i, kind)
        for k, s in enumerate(shapes):
            tm = shape_trimesh(s, package_dirs=dirs, base_dir=base_dir)
            label = f"{name}/{kind}/{k}"
            scene.add_geometry(tm, node_name=label, geom_name=label, transform=np.asarray(H))
    data = scene.export(file_type=file_type)
    return atomic_write(out, data if isinstance(data, (bytes, str)) else bytes(data))
