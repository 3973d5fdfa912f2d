"""Physical consistency of inertias, the nearest consistent inertia, and inertias of shapes.

A rigid body's inertia is *physically consistent* when some non-negative mass density produces
it. Wensing, Kim and Slotine (2017, "Linear matrix inequalities for physically consistent
inertial parameter identification") showed that this holds exactly when the 4 x 4
*pseudo-inertia*

    ``J = [[Sigma, h], [h^T, m]]``,  ``Sigma = 1/2 tr(I_O) 1 - I_O = integral of x x^T dm``,

is positive semi-definite (``I_O``: inertia about the frame origin, ``h = m c``). For ``m > 0``
that is the same as the familiar conditions: the rotational inertia about the centre of mass is
positive semi-definite and its principal moments obey the triangle inequalities
(``a + b >= c``). :func:`consistency_problems` reports every violated condition with its
values (:func:`inconsistent_links` for every link of a model); :func:`nearest_consistent`
projects ``J`` onto the positive semi-definite cone.

The inertia of a homogeneous solid shape (box, cylinder, sphere, or a closed mesh through
``trimesh`` when it is installed) follows from its dimensions and a mass or a density:
:func:`shape_inertia`, :func:`solid_inertia` and, for every link of a model,
:func:`with_inertias_from_shapes`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError, ModelError
from robomodel.model.builders import with_link
from robomodel.model.mesh_files import MeshError, readable, resolve_mesh
from robomodel.model.record import Link, Model
from robomodel.model.shapes import Box, Cylinder, Geometry, Mesh, SolidShape, Sphere
from robomodel.model.spatial import SpatialInertia
from robomodel.model.validation import check_choice

__all__ = [
    "consistency_problems",
    "from_pseudo_inertia",
    "inconsistent_links",
    "nearest_consistent",
    "pseudo_inertia",
    "shape_inertia",
    "shape_volume",
    "solid_inertia",
    "with_inertias_from_shapes",
]

FloatArray = npt.NDArray[np.float64]


# --------------------------------------------------------------------------- consistency


def pseudo_inertia(inertia: SpatialInertia) -> FloatArray:
    """Return the 4 x 4 pseudo-inertia ``[[Sigma, h], [h^T, m]]`` of an inertia.

    >>> J = pseudo_inertia(SpatialInertia.from_com(2.0, (0.5, 0, 0)))
    >>> J.round(12).tolist()  # a point mass: m x x^T, m x and m
    [[0.5, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 2.0]]
    """
    I_O = inertia.rotational_inertia
    J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(I_O) * np.eye(3) - I_O
    J[:3, 3] = J[3, :3] = inertia.first_moment
    J[3, 3] = inertia.mass
    return J


def from_pseudo_inertia(J: npt.ArrayLike) -> SpatialInertia:
    """Return the inertia of a symmetric 4 x 4 pseudo-inertia.

    The inverse of :func:`pseudo_inertia`: ``I_O = tr(Sigma) 1 - Sigma``.

    Raises:
        ModelError: ``J`` is not a finite symmetric 4 x 4 matrix.
    """
    arr = np.asarray(J, dtype=np.float64)
    if arr.shape != (4, 4) or not np.all(np.isfinite(arr)):
        raise ModelError(f"a pseudo-inertia must be a finite 4 x 4 matrix, got shape {arr.shape}")
    if not np.allclose(arr, arr.T, rtol=0.0, atol=1e-12 * max(1.0, float(np.abs(arr).max()))):
        raise ModelError("a pseudo-inertia must be symmetric; symmetrise it with (J + J.T) / 2")
    S = 0.5 * (arr[:3, :3] + arr[:3, :3].T)
    return SpatialInertia(
        float(arr[3, 3]), 0.5 * (arr[:3, 3] + arr[3, :3]), np.trace(S) * np.eye(3) - S
    )


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def _fmts(v: FloatArray) -> str:
    return "[" + ", ".join(_fmt(x) for x in v) + "]"


def consistency_problems(inertia: SpatialInertia, *, rtol: float = 1e-9) -> tuple[str, ...]:
    """Return every physical-consistency condition ``inertia`` violates, as messages.

    The conditions: a non-negative mass; no first moment or rotational inertia without mass;
    a positive semi-definite rotational inertia about the centre of mass whose principal
    moments obey the triangle inequalities; and a positive semi-definite pseudo-inertia
    (Wensing et al. 2017, which implies all the others). A violation smaller than ``rtol``
    times the inertia's scale (its largest pseudo-inertia eigenvalue) is round-off and passes.
    An empty tuple means consistent. As in the pseudo-inertia test, a massless body with no
    first moment and a consistent rotational inertia passes (the limit of a vanishing mass far
    from the origin); :meth:`~robomodel.SpatialInertia.is_physically_consistent` is stricter
    and also requires a positive mass.

    >>> thin = SpatialInertia.from_com(1.0, (0, 0, 0), np.diag([1.0, 1.0, 3.0]))
    >>> for problem in consistency_problems(thin):
    ...     print(problem)
    the principal moments about the centre of mass break the triangle inequality: 1 + 1 = 2 < 3
    the pseudo-inertia (Wensing et al. 2017) is not positive semi-definite: smallest eigenvalue -0.5
    """
    J = pseudo_inertia(inertia)
    ev_J = np.linalg.eigvalsh(J)
    scale = max(float(np.abs(ev_J).max()), float(np.abs(inertia.rotational_inertia).max()))
    if scale == 0.0:
        return ()
    tol = rtol * scale
    m = inertia.mass
    h = inertia.first_moment
    out: list[str] = []
    if m < -tol:
        out.append(f"the mass is negative: m = {_fmt(m)}")
    if abs(m) <= tol:
        if float(np.abs(h).max()) > tol:
            out.append(
                f"a massless body has a first moment h = {_fmts(h)}: "
                "give it a mass or set h to zero"
            )
        central = inertia.rotational_inertia
        where = "the origin (the body is massless)"
    else:
        central = inertia.rotational_inertia + (np.outer(h, h) - float(h @ h) * np.eye(3)) / m
        where = "the centre of mass"
    ev: FloatArray = np.linalg.eigvalsh(0.5 * (central + central.T)).astype(np.float64)
    if ev[0] < -tol:
        out.append(
            f"the rotational inertia about {where} is not positive semi-definite: "
            f"principal moments {_fmts(ev)}"
        )
    a, b, c = ev  # ascending, so a + b >= c is the only inequality that can fail
    if a + b < c - tol:
        out.append(
            f"the principal moments about {where} break the triangle inequality: "
            f"{_fmt(a)} + {_fmt(b)} = {_fmt(a + b)} < {_fmt(c)}"
        )
    if ev_J[0] < -tol:
        out.append(
            "the pseudo-inertia (Wensing et al. 2017) is not positive semi-definite: "
            f"smallest eigenvalue {_fmt(ev_J[0])}"
        )
    return tuple(out)


def inconsistent_links(model: Model, *, rtol: float = 1e-9) -> dict[str, tuple[str, ...]]:
    """Return the :func:`consistency_problems` of every link that has some, by link name.

    Links come in link-index order; an empty dict means every inertia is consistent.
    """
    out: dict[str, tuple[str, ...]] = {}
    for name, link in zip(model.link_names, model.links, strict=True):
        found = consistency_problems(link.inertia, rtol=rtol)
        if found:
            out[name] = found
    return out


def nearest_consistent(inertia: SpatialInertia) -> SpatialInertia:
    """Return the physically consistent inertia nearest to ``inertia``.

    "Nearest" is in the Frobenius norm of the pseudo-inertia, ``|J - J'|_F``: the result's
    pseudo-inertia is ``J`` with its negative eigenvalues set to zero (the projection onto the
    positive semi-definite cone). This metric weighs mass, first moment and second moments
    ``Sigma`` equally in the link's units; it leaves a consistent inertia unchanged (the
    same object is returned) and keeps what is consistent about an inconsistent one (e.g.
    the principal axes).

    >>> thin = SpatialInertia.from_com(1.0, (0, 0, 0), np.diag([1.0, 1.0, 3.0]))
    >>> nearest_consistent(thin).rotational_inertia.round(12).diagonal().tolist()
    [1.5, 1.5, 3.0]
    """
    if not consistency_problems(inertia):
        return inertia
    w, V = np.linalg.eigh(pseudo_inertia(inertia))
    J = (V * np.maximum(w, 0.0)) @ V.T
    J = 0.5 * (J + J.T)
    # A projection whose mass is round-off (within consistency_problems' tolerance) can keep a
    # first moment of the same order: PSD in exact arithmetic, but read as "a massless body with
    # a first moment". Dropping both keeps the Sigma block, which is PSD as a principal block of
    # a PSD matrix, and moves the result by no more than that tolerance.
    if J[3, 3] <= 1e-9 * max(float(w.max()), 0.0):
        J[3, :] = 0.0
        J[:, 3] = 0.0
    return from_pseudo_inertia(J)


# --------------------------------------------------------------------------- shapes


def shape_volume(
    geometry: Geometry,
    *,
    base_dir: str | Path | None = None,
    package_dirs: Iterable[str] = (),
) -> float:
    """Return the volume of a geometry (m^3); meshes need ``trimesh``, see :func:`shape_inertia`."""
    match geometry:
        case Box(x=x, y=y, z=z):
            return x * y * z
        case Cylinder(radius=r, length=length):
            return math.pi * r * r * length
        case Sphere(radius=r):
            return 4.0 / 3.0 * math.pi * r**3
        case Mesh():
            return float(_mesh(geometry, base_dir, package_dirs).volume)
    raise ArgumentError(f"expected a Box, Cylinder, Sphere or Mesh, but got {geometry!r}")


def _mesh(mesh: Mesh, base_dir: str | Path | None, package_dirs: Iterable[str]) -> Any:
    try:
        import trimesh
    except ImportError:
        raise ModelError(
            f"the inertia of mesh {mesh.filename!r} needs trimesh; install it with "
            "`pip install trimesh`, or give the link a primitive shape"
        ) from None
    # The meshes module's rules, so that a mesh found by the loader, the MJCF exporter and
    # check_meshes is found here too: package:// in the package directories, relative paths
    # below base_dir. A mesh value does not remember where it was read: without base_dir its
    # relative name is relative to the working directory, as any file name a program is given.
    if base_dir is None:
        base_dir = "."
    try:
        path = Path(
            resolve_mesh(
                mesh,
                package_dirs=package_dirs,
                base_dir=None if base_dir is None else str(base_dir),
            )
        )
    except MeshError as exc:
        raise ModelError(
            f"{exc}; pass package_dirs= for package:// URIs, or base_dir= for relative paths"
        ) from None
    if not path.exists():
        raise ModelError(
            f"mesh file {mesh.filename!r} was not found (looked for {str(path)!r}); pass "
            "base_dir= for relative paths, or package_dirs= for package:// URIs"
        )
    try:
        # A regular file below MAX_MESH_BYTES: a FIFO would block, a huge file exhaust memory.
        readable(mesh.filename, str(path))
        tm: Any = trimesh.load(str(path), force="mesh")
    except MeshError as exc:
        raise ModelError(str(exc)) from None
    except Exception as exc:  # trimesh raises many kinds (IndexError, MemoryError...) on bad data
        raise ModelError(
            f"mesh {mesh.filename!r}: {str(path)!r} is not a mesh trimesh reads "
            f"({type(exc).__name__}: {exc})"
        ) from exc
    if len(getattr(tm, "faces", ())) == 0:
        raise ModelError(f"mesh {mesh.filename!r}: {str(path)!r} holds no triangles")
    tm.apply_scale(mesh.scale)
    if not tm.is_watertight:
        raise ModelError(
            f"mesh {mesh.filename!r} is not closed (watertight), so it has no volume; "
            "repair it or use a primitive shape"
        )
    return tm


def _mass(volume: float, mass: float | None, density: float | None, what: str) -> float:
    if (mass is None) == (density is None):
        raise ArgumentError(f"{what}: give exactly one of mass= or density=")
    value = float(mass if mass is not None else density)  # type: ignore[arg-type]
    if not (math.isfinite(value) and value >= 0.0):
        raise ModelError(f"{what}: a mass or density must be finite and >= 0, got {value}")
    return value if mass is not None else value * volume


def shape_inertia(
    geometry: Geometry,
    *,
    mass: float | None = None,
    density: float | None = None,
    base_dir: str | Path | None = None,
    package_dirs: Iterable[str] = (),
) -> SpatialInertia:
    """Return the inertia of a homogeneous solid ``geometry``, in the geometry's own frame.

    Boxes, spheres and cylinders (axis z) are centred on their frame. Meshes are read with
    ``trimesh`` (when installed) from the file their name resolves to by
    :func:`robomodel.formats.meshes.resolve_mesh` (``package://`` URIs in ``package_dirs``, relative
    names below ``base_dir``, by default the working directory) and
    must be closed; their scale applies.

    >>> shape_inertia(Box(1.0, 2.0, 2.0), mass=12.0).rotational_inertia.diagonal().tolist()
    [8.0, 5.0, 5.0]

    Args:
        geometry: the shape.
        mass: its mass (kg); give this or ``density``.
        density: its density (kg/m^3).
        base_dir: the directory relative mesh file names are in.
        package_dirs: directories holding the packages ``package://`` URIs name.

    Raises:
        ArgumentError: neither or both of ``mass`` and ``density``.
        ModelError: a negative mass or density, or a mesh that cannot be read or is not closed.
    """
    volume = shape_volume(geometry, base_dir=base_dir, package_dirs=package_dirs)
    m = _mass(volume, mass, density, "shape_inertia")
    match geometry:
        case Box(x=x, y=y, z=z):
            d = m / 12.0 * np.array([y * y + z * z, x * x + z * z, x * x + y * y])
            return SpatialInertia(m, np.zeros(3), np.diag(d))
        case Cylinder(radius=r, length=length):
            side = m * (3.0 * r * r + length * length) / 12.0
            return SpatialInertia(m, np.zeros(3), np.diag([side, side, 0.5 * m * r * r]))
        case Sphere(radius=r):
            return SpatialInertia(m, np.zeros(3), 0.4 * m * r * r * np.eye(3))
    if not isinstance(geometry, Mesh):
        raise ArgumentError(f"expected a Box, Cylinder, Sphere or Mesh, but got {geometry!r}")
    tm = _mesh(geometry, base_dir, package_dirs)
    com = np.asarray(tm.center_mass, dtype=np.float64)
    # trimesh's moment_inertia is about the centre of mass for its own density (1 by default).
    unit = np.asarray(tm.moment_inertia, dtype=np.float64) / volume
    return SpatialInertia.from_com(m, com, m * unit)


def solid_inertia(
    shape: SolidShape,
    *,
    mass: float | None = None,
    density: float | None = None,
    base_dir: str | Path | None = None,
    package_dirs: Iterable[str] = (),
) -> SpatialInertia:
    """Return the inertia of a visual or collision shape in its link's frame.

    The geometry's inertia (:func:`shape_inertia`, which documents the arguments) moved by
    ``shape.link_H_geometry``.
    """
    return shape.link_H_geometry @ shape_inertia(
        shape.geometry, mass=mass, density=density, base_dir=base_dir, package_dirs=package_dirs
    )


def with_inertias_from_shapes(
    model: Model,
    *,
    density: float | None = None,
    masses: Mapping[str, float] | None = None,
    shapes: Literal["collision", "visual"] = "collision",
    links: Sequence[str] | None = None,
    base_dir: str | Path | None = None,
) -> Model:
    """Return ``model`` with link inertias computed from the links' shapes.

    Each link's shapes are taken as one homogeneous solid: with ``density``, each shape weighs
    ``density * volume``; with ``masses`` (by link name), the link's mass is shared among its
    shapes in proportion to their volumes. Overlaps between shapes are counted twice.

    Args:
        model: the model.
        density: one density for every link (kg/m^3); give this or ``masses``.
        masses: link masses by link name; only these links change.
        shapes: which shapes to use, ``"collision"`` (default) or ``"visual"``.
        links: the links to change (default: every link with a shape, or the keys of
            ``masses``). A link without shapes among them is an error.
        base_dir: the directory relative mesh file names are in (default: the working
            directory; the URDF's directory is ``urdf.load_with_report(path)[1].sources.base_dir``).
            ``package://`` URIs are looked up in the model's
            ``package_dirs``.

    Raises:
        ArgumentError: neither or both of ``density`` and ``masses``.
        UnknownNameError: a link does not exist.
        ModelError: a named link has no shapes of that kind, or its shapes have no volume.
    """
    check_choice(shapes, ("collision", "visual"), "shapes")
    if (density is None) == (masses is None):
        raise ArgumentError("with_inertias_from_shapes: give exactly one of density= or masses=")
    table = model.collisions if shapes == "collision" else model.visuals
    if links is not None:
        names = list(links)
    elif masses is not None:
        names = list(masses)
    else:
        names = [model.link_names[i] for i in range(model.n_links) if len(table[i])]
    out = model
    for name in names:
        i = model.link_index(name)
        solids = tuple(table[i])
        if not solids:
            other = "visual" if shapes == "collision" else "collision"
            raise ModelError(
                f"link {name!r} has no {shapes} shapes, so no inertia can be computed from them; "
                f"leave it out of links=, or use shapes={other!r}"
            )
        volumes = [
            shape_volume(s.geometry, base_dir=base_dir, package_dirs=model.package_dirs)
            for s in solids
        ]
        if masses is not None:
            if name not in masses:
                raise ModelError(f"masses has no entry for link {name!r}; give one per link")
            total = sum(volumes)
            if total <= 0.0:
                raise ModelError(f"the {shapes} shapes of link {name!r} have no volume")
            m = _mass(total, float(masses[name]), None, f"the mass of link {name!r}")
            parts = [m * v / total for v in volumes]
        else:
            parts = [_mass(v, None, density, "density") for v in volumes]
        inertia = SpatialInertia.zero()
        for shape, part in zip(solids, parts, strict=True):
            inertia = inertia + solid_inertia(
                shape, mass=part, base_dir=base_dir, package_dirs=model.package_dirs
            )
        out = with_link(out, name, Link(inertia))
    return out
