"""Where a mesh filename points and whether its file is there (the core of ``formats.meshes``).

Kept apart from the trimesh part so that the URDF loader and ``robomodel validate`` use it
without importing more; :mod:`robomodel.formats.meshes` re-exports every public name (documented
there).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Literal, Protocol
from urllib.parse import unquote

import attrs

from robomodel.errors import MeshError
from robomodel.model.shapes import Mesh
from robomodel.model.view import ModelView

__all__ = [
    "MAX_MESH_BYTES",
    "MeshError",
    "MeshOrigins",
    "MeshProblem",
    "ShapeKind",
    "check_meshes",
    "env_package_dirs",
    "grouped_by_link",
    "grouped_problems",
    "readable",
    "resolve_mesh",
]

ShapeKind = Literal["visual", "collision"]

MAX_MESH_BYTES = 256 * 1024 * 1024
"""The largest mesh file robomodel reads (256 MiB; about 5 million triangles of binary STL)."""


# --------------------------------------------------------------------------- where meshes were read


class MeshOrigins(Protocol):
    """Where a loader read a model's meshes: its report, kept apart from the values.

    :class:`robomodel.formats.urdf.report.Sources` is one.

    Attributes:
        file: the file name as given to the loader.
        base_dir: the directory relative filenames are relative to, or ``None`` when unknown.
        mesh_lines: the line of each mesh's element by ``(link, "visual" or "collision",
            index)``.
    """

    @property
    def file(self) -> str: ...  # noqa: D102

    @property
    def base_dir(self) -> str | None: ...  # noqa: D102

    @property
    def mesh_lines(self) -> Mapping[tuple[str, str, int], int]: ...  # noqa: D102


# --------------------------------------------------------------------------- resolution


def env_package_dirs(environ: Mapping[str, str] | None = None) -> list[str]:
    """Return the package directories the conventional environment variables name.

    In this order, without duplicates: the entries of ``ROS_PACKAGE_PATH`` (an entry that is
    itself a package, holding a ``package.xml``, gives its parent, which holds the package
    folder), the ``share`` directory of each entry of ``AMENT_PREFIX_PATH``, and the entries of
    ``GAZEBO_MODEL_PATH`` (folders holding ``model://`` models). Nothing reads the environment
    unless a caller adds these to ``package_dirs`` itself.

    >>> env_package_dirs({"AMENT_PREFIX_PATH": "/opt/ros/jazzy", "GAZEBO_MODEL_PATH": "/m:"})
    ['/opt/ros/jazzy/share', '/m']

    Args:
        environ: the environment to read (default ``os.environ``).
    """
    env = os.environ if environ is None else environ
    out: list[str] = []

    def entries(name: str) -> Iterator[str]:
        yield from (e for e in env.get(name, "").split(os.pathsep) if e)

    for e in entries("ROS_PACKAGE_PATH"):
        is_package = os.path.isfile(os.path.join(e, "package.xml"))
        out.append(os.path.dirname(os.path.normpath(e)) if is_package else e)
    out += [os.path.join(e, "share") for e in entries("AMENT_PREFIX_PATH")]
    out += list(entries("GAZEBO_MODEL_PATH"))
    return list(dict.fromkeys(out))


def resolve_mesh(
    mesh: Mesh | str, *, package_dirs: Iterable[str] = (), base_dir: str | None = None
) -> str:
    """Return the path of the file a mesh filename names (see the module docstring).

    The file of a ``package://`` URI must exist (that is how its directory is chosen); other
    paths are returned whether or not the file exists (:func:`check_meshes` says).

    Args:
        mesh: a mesh or a filename.
        package_dirs: directories searched for ``package://`` and ``model://`` URIs, each
            holding package folders.
        base_dir: the directory relative paths are relative to (a loader's report gives the
            directory of the file it read: ``robomodel.formats.urdf.report``).

    Raises:
        MeshError: the filename cannot be resolved (see :attr:`MeshError.kind`).
    """
    uri = mesh.filename if isinstance(mesh, Mesh) else mesh
    for scheme in ("package://", "model://"):
        if uri.startswith(scheme):
            return _in_packages(uri, scheme, list(package_dirs))
    if uri.startswith("file://"):
        host, slash, path = uri[len("file://") :].partition("/")
        if host not in ("", "localhost"):
            raise MeshError(
                uri,
                f"names the host {host!r}; only local files (file:///path or "
                "file://localhost/path) can be resolved",
                kind="refused",
            )
        return unquote(slash + path)
    if "://" in uri:
        scheme = uri.partition("://")[0]
        raise MeshError(
            uri, f"robomodel does not read {scheme}:// URIs; download the file", kind="unresolvable"
        )
    if os.path.isabs(uri):
        return uri
    if base_dir is None:
        raise MeshError(
            uri,
            "a relative path, and no base directory is given; pass base_dir=DIR (the "
            "directory of the URDF file: robomodel.formats.urdf.load_with_report(path) "
            "gives it)",
            kind="unresolvable",
        )
    return os.path.normpath(os.path.join(base_dir, uri))


def _in_packages(uri: str, scheme: str, dirs: list[str]) -> str:
    # ``package:///pkg/path`` (an empty host) means ``package://pkg/path``, as in Pinocchio.
    rest = unquote(uri[len(scheme) :]).lstrip("/")
    parts = rest.split("/")
    if not parts[0] or "\0" in rest or os.path.isabs(rest) or ".." in parts:
        raise MeshError(
            uri,
            "does not name a file inside a package (an empty package name, an absolute path or "
            f"'..' steps); write {scheme}<package>/<path>",
            kind="refused",
        )
    if not dirs:
        raise MeshError(
            uri,
            f"not found: no package directory is given to look for package {parts[0]!r} in; pass "
            "package_dirs=[DIR] (--package-dir DIR), DIR holding the package folder",
            kind="unresolvable",
        )
    left = False
    for d in dirs:
        root = os.path.realpath(d)
        cand = os.path.realpath(os.path.join(root, rest))
        if os.path.commonpath([root, cand]) != root:
            left = True  # a symbolic link leading out of the directory
            continue
        if os.path.exists(cand):
            return os.path.normpath(os.path.join(d, rest))
    if left:
        raise MeshError(
            uri,
            "leads out of its package directory through a symbolic link; meshes must be "
            "inside the package directories given",
            kind="refused",
        )
    raise MeshError(
        uri,
        f"not found in the package directories {dirs!r}; give the directory that contains the "
        f"package folder {parts[0]!r}",
        kind="missing",
    )


# --------------------------------------------------------------------------- checks


@attrs.frozen(kw_only=True)
class MeshProblem:
    """A mesh of a model that cannot be resolved, found or read.

    Attributes:
        severity: ``"error"`` for a missing, unreadable or refused file (the robot package is
            broken), ``"warning"`` for a mesh that could not be checked (no package directory,
            no base directory, a remote URI).
        kind: the :attr:`MeshError.kind`.
        link: the link the shape belongs to.
        shape: ``"visual"`` or ``"collision"``.
        index: the shape's position among the link's visuals or collisions.
        filename: the mesh filename as written.
        path: the path it resolved to, or ``None``.
        reason: what is wrong and what to do.
        file: the URDF file the mesh was read from, or ``None`` (a mesh built in code).
        line: the line of its ``<mesh>`` element, or ``None``.
    """

    severity: Literal["error", "warning"]
    kind: str
    link: str
    shape: ShapeKind
    index: int
    filename: str
    path: str | None
    reason: str
    file: str | None = None
    line: int | None = None

    @property
    def where(self) -> str:
        """``"file:line"``, ``"file"`` or ``""``: where the mesh was read."""
        if self.file is None:
            return ""
        return self.file if self.line is None else f"{self.file}:{self.line}"

    def __str__(self) -> str:
        at = f" ({self.where})" if self.where else ""
        return f"link {self.link!r}: {self.shape} mesh {self.filename!r}{at}: {self.reason}"


def _mesh_shapes(model: ModelView) -> Iterator[tuple[str, ShapeKind, int, Mesh]]:
    for name, visuals, collisions in zip(
        model.link_names, model.visuals, model.collisions, strict=True
    ):
        for kind, shapes in (("visual", visuals), ("collision", collisions)):
            for k, s in enumerate(shapes):
                if isinstance(s.geometry, Mesh):
                    yield name, kind, k, s.geometry  # type: ignore[misc]


def _problem(
    link: str,
    shape: ShapeKind,
    k: int,
    mesh: Mesh,
    e: MeshError,
    path: str | None,
    origins: MeshOrigins | None,
) -> MeshProblem:
    return MeshProblem(
        severity="warning" if e.kind == "unresolvable" else "error",
        kind=e.kind,
        link=link,
        shape=shape,
        index=k,
        filename=mesh.filename,
        path=path,
        reason=e.reason,
        file=None if origins is None else origins.file,
        line=None if origins is None else origins.mesh_lines.get((link, shape, k)),
    )


def check_meshes(
    model: ModelView,
    *,
    package_dirs: Iterable[str] = (),
    base_dir: str | None = None,
    origins: MeshOrigins | None = None,
) -> tuple[MeshProblem, ...]:
    """Return a :class:`MeshProblem` for every mesh of ``model`` that cannot be found or read.

    Every visual and collision mesh is resolved (:func:`resolve_mesh`, searching the model's
    ``package_dirs`` and then ``package_dirs``) and its file opened. Problems come in link
    order, visuals before collisions.

    Args:
        model: the model.
        package_dirs: more package directories to search.
        base_dir: the directory relative filenames are relative to (default: that of
            ``origins``).
        origins: where the meshes were read (a loader's report): problems then name the file
            and the line of each mesh.
    """
    if base_dir is None and origins is not None:
        base_dir = origins.base_dir
    dirs = [*model.package_dirs, *package_dirs]
    out: list[MeshProblem] = []
    for link, shape, k, mesh in _mesh_shapes(model):
        path = None
        try:
            path = resolve_mesh(mesh, package_dirs=dirs, base_dir=base_dir)
            readable(mesh.filename, path)
        except MeshError as e:
            out.append(_problem(link, shape, k, mesh, e, path, origins))
    return tuple(out)


def readable(filename: str, path: str) -> None:
    """Raise :class:`MeshError` unless ``path`` (the file ``filename`` names) can be read."""
    if not os.path.exists(path):
        raise MeshError(filename, f"no such file {path!r}", kind="missing")
    if os.path.isdir(path):
        raise MeshError(filename, f"{path!r} is a directory, not a mesh file", kind="unreadable")
    # Reading a FIFO or a device blocks or never ends; a mesh past the bound exhausts memory.
    if not os.path.isfile(path) or os.path.getsize(path) > MAX_MESH_BYTES:
        why = "is not a regular file" if not os.path.isfile(path) else "exceeds MAX_MESH_BYTES"
        raise MeshError(filename, f"{path!r} {why}", kind="unreadable")
    try:
        with open(path, "rb") as fh:
            fh.read(1)
    except OSError as e:
        raise MeshError(
            filename, f"{path!r} cannot be read ({e.strerror})", kind="unreadable"
        ) from None


def grouped_problems(
    problems: Iterable[MeshProblem],
) -> list[tuple[Literal["error", "warning"], str, str]]:
    """Return ``(severity, element, message)`` per error and per kind of unchecked mesh.

    Errors stay one per mesh; the warnings of meshes that could not be checked for one reason
    (no package directory for ``package://`` URIs, ...) become one line with their count, so
    that a robot with a hundred meshes loaded without ``--package-dir`` gets one warning.
    """
    return [
        (severity, "model" if link is None else f"link {link!r}", message)
        for severity, link, message in grouped_by_link(problems)
    ]


def grouped_by_link(
    problems: Iterable[MeshProblem],
) -> list[tuple[Literal["error", "warning"], str | None, str]]:
    """:func:`grouped_problems` naming the link of each error by its name (``None``: the model)."""
    out: list[tuple[Literal["error", "warning"], str | None, str]] = []
    unchecked: dict[str, list[MeshProblem]] = {}
    for p in problems:
        if p.severity == "error":
            at = f" ({p.where})" if p.where else ""
            out.append(("error", p.link, f"{p.shape} mesh {p.filename!r}{at}: {p.reason}"))
        else:
            key = p.filename.partition("://")[0] if "://" in p.filename else "relative"
            unchecked.setdefault(key, []).append(p)
    for key, ps in unchecked.items():
        what = "relative paths" if key == "relative" else f"{key}:// URIs"
        first = ps[0]
        out.append(
            (
                "warning",
                None,
                f"{len(ps)} mesh{'es' * (len(ps) > 1)} with {what} not checked (the first: "
                f"{first.filename!r} of link {first.link!r}): {first.reason}",
            )
        )
    return out
