"""The polygons that :mod:`robomodel.tools.plot` draws for visual and collision shapes.

Boxes, cylinders and spheres become a few dozen polygons each; meshes are read with trimesh
(optional) and, when large, thinned by vertex clustering so that a figure of a whole humanoid
stays a few thousand polygons: matplotlib's 3D axes draw every polygon in Python.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from robomodel.errors import RobomodelError
from robomodel.model.shapes import Box, Cylinder, Geometry, Mesh, Sphere

__all__ = ["MAX_MESH_FACES", "MeshSkippedError", "geometry_polygons"]

Polygons = list[npt.NDArray[np.float64]]

MAX_MESH_FACES = 400
"""The most triangles a mesh is drawn with; larger meshes are thinned to at most this."""

_SEGMENTS = 24  # around a cylinder or a sphere


class MeshSkippedError(RobomodelError):
    """A mesh that cannot be drawn; the message says why (internal to the plot module)."""


def _box(g: Box) -> Polygons:
    h = 0.5 * np.array([g.x, g.y, g.z])
    c = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * h
    quads = ((0, 1, 3, 2), (4, 5, 7, 6), (0, 1, 5, 4), (2, 3, 7, 6), (0, 2, 6, 4), (1, 3, 7, 5))
    return [c[list(q)] for q in quads]


def _cylinder(g: Cylinder) -> Polygons:
    t = np.linspace(0.0, 2.0 * math.pi, _SEGMENTS, endpoint=False)
    ring = np.stack([g.radius * np.cos(t), g.radius * np.sin(t)], axis=1)
    bottom = np.column_stack([ring, np.full(_SEGMENTS, -0.5 * g.length)])
    top = np.column_stack([ring, np.full(_SEGMENTS, 0.5 * g.length)])
    sides = [
        np.array([bottom[k], bottom[(k + 1) % _SEGMENTS], top[(k + 1) % _SEGMENTS], top[k]])
        for k in range(_SEGMENTS)
    ]
    return [bottom, top, *sides]


def _sphere(g: Sphere) -> Polygons:
    lat = np.linspace(0.0, math.pi, _SEGMENTS // 2 + 1)
    lon = np.linspace(0.0, 2.0 * math.pi, _SEGMENTS + 1)

    def point(a: float, b: float) -> npt.NDArray[np.float64]:
        sa = math.sin(a)
        return g.radius * np.array([sa * math.cos(b), sa * math.sin(b), math.cos(a)])

    return [
        np.array([point(a0, b0), point(a0, b1), point(a1, b1), point(a1, b0)])
        for a0, a1 in itertools.pairwise(lat)
        for b0, b1 in itertools.pairwise(lon)
    ]


def thinned(
    vertices: npt.NDArray[np.float64], faces: npt.NDArray[np.int64], max_faces: int
) -> npt.NDArray[np.float64]:
    """Return at most ``max_faces`` triangles (``(n, 3, 3)``) approximating the mesh.

    Vertex clustering: vertices in one cell of a grid merge into their mean, and triangles
    that collapse are dropped. The grid is refined as far as the face budget allows.
    """
    if len(faces) <= max_faces:
        return vertices[faces]
    lo = vertices.min(axis=0)
    size = float((vertices.max(axis=0) - lo).max()) or 1.0
    best = np.zeros((0, 3, 3))
    for cells in (32, 24, 16, 12, 8, 6, 4, 2):
        cell = np.minimum(np.floor((vertices - lo) / (size / cells)).astype(np.int64), cells - 1)
        keys = cell[:, 0] + cells * (cell[:, 1] + cells * cell[:, 2])  # one integer per cell
        _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        centres = np.zeros((len(counts), 3))
        np.add.at(centres, inverse, vertices)
        centres /= counts[:, None]
        f = inverse[faces]
        alive = (f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])
        f = np.sort(f[alive], axis=1)
        n = len(counts)
        _, first = np.unique((f[:, 0] * n + f[:, 1]) * n + f[:, 2], return_index=True)
        f = f[np.sort(first)]  # each merged triangle once
        best = centres[f]
        if len(f) <= max_faces:
            break
    return best[:max_faces]


def _mesh(
    g: Mesh,
    dirs: Iterable[str],
    cache: dict[str, npt.NDArray[np.float64]],
    base_dir: str | None = None,
) -> Polygons:
    from robomodel.formats.urdf.load import resolve_uri

    try:
        # A relative path is relative to base_dir (the URDF file's directory, when given).
        path = resolve_uri(list(dirs), g, base_dir=base_dir)
    except RobomodelError:
        raise MeshSkippedError("not found in the package directories") from None
    if not os.path.isfile(path):
        raise MeshSkippedError("not found")
    if path not in cache:
        try:
            import trimesh
        except ImportError:
            raise MeshSkippedError("trimesh is not installed (pip install trimesh)") from None
        try:
            mesh: Any = trimesh.load(path, force="mesh", process=False)
        except Exception as e:  # trimesh raises many kinds for unreadable files
            raise MeshSkippedError(f"unreadable ({type(e).__name__})") from None
        vertices = np.asarray(mesh.vertices, dtype=np.float64)
        faces = np.asarray(mesh.faces, dtype=np.int64)
        if faces.size == 0:
            raise MeshSkippedError("it has no faces")
        cache[path] = thinned(vertices, faces, MAX_MESH_FACES)
    return list(cache[path] * np.asarray(g.scale))


def geometry_polygons(
    g: Geometry,
    dirs: Iterable[str],
    cache: dict[str, npt.NDArray[np.float64]],
    base_dir: str | None = None,
) -> Polygons:
    """Return the polygons of one geometry in its own frame (relative meshes in ``base_dir``).

    Raises:
        MeshSkippedError: a mesh that cannot be found or read (the message says why).
    """
    match g:
        case Box():
            return _box(g)
        case Cylinder():
            return _cylinder(g)
        case Sphere():
            return _sphere(g)
        case Mesh():
            return _mesh(g, dirs, cache, base_dir)
