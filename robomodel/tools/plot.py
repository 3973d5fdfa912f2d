"""Draw a model's link, frame and sensor frames in 3D at a joint configuration (matplotlib).

matplotlib is an optional dependency (``pip install 'robomodel[plot]'``); it is imported only
when a figure is made, so ``import robomodel.tools.plot`` works without it.

Each link frame is drawn as an x/y/z triad (red, green, blue) joined to its traversal parent by a
grey segment; additional frames get thinner, shorter triads; sensors are orange markers (squares
for force/torque sensors, triangles for accelerometers and gyroscopes). The links' visual (or
collision) shapes are drawn as translucent solids: boxes, cylinders and spheres always, meshes
when trimesh is installed and the mesh file is found (``package_dirs``); a note at the bottom
of the figure counts the meshes left out and says why.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from robomodel._internal.files import atomic_path
from robomodel.errors import ArgumentError, ModelError
from robomodel.model.record import Model
from robomodel.model.sensors import SixAxisForceTorqueSensor
from robomodel.model.spatial import Transform
from robomodel.tools._plot_shapes import MeshSkippedError, geometry_polygons

if TYPE_CHECKING:
    from robomodel.physics.joint_state import JointState

__all__ = ["Labels", "Position", "Shapes", "pose_figure", "save_pose"]

Labels = bool | Literal["links", "frames", "all"] | None
"""Which names :func:`pose_figure` writes (see its ``labels`` option)."""

Shapes = Literal["visual", "collision"] | None
"""Which shapes :func:`pose_figure` draws."""

_AXIS_COLORS = ("#d62728", "#2ca02c", "#1f77b4")


def _import_figure() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - depends on the environment
        raise ModelError(
            "drawing a 3D pose needs matplotlib; install it with pip install 'robomodel[plot]'"
        ) from None
    return Figure


Position = float | str
"""A joint position: a number (rad or m), or text such as ``"30deg"``, ``"-0.5"``."""


def _value(name: str, value: Position) -> float:
    if not isinstance(value, str):
        return float(value)
    text = value.strip()
    try:
        if text.endswith("deg"):
            return math.radians(float(text[: -len("deg")]))
        return float(text)
    except ValueError:
        # ArgumentError, as for any joint value that is not a number (still a ModelError).
        raise ArgumentError(
            f"joint {name!r}: position {value!r} is not a number; write e.g. 0.5 or '30deg'"
        ) from None


Positions: TypeAlias = "Mapping[str, Position] | npt.ArrayLike | JointState | None"
"""Joint positions of a drawing: a mapping from joint names (numbers or text, joints left out
at 0), a vector in coordinate order, a :class:`~robomodel.JointState`, or ``None`` (all 0)."""


def _positions(model: Model, positions: Positions) -> npt.NDArray[np.float64]:
    from robomodel.physics.joint_state import positions_of

    if isinstance(positions, Mapping):
        # Text values ("30deg") are this module's addition to the joint-value rule.
        numbers: dict[str, Any] = {
            name: _value(name, value) if isinstance(value, str) else value
            for name, value in positions.items()
        }
        return positions_of(model, numbers, what="positions", required=False)
    return positions_of(model, positions, what="positions", required=False)


def _typed(model: Model, positions: Positions, q: npt.NDArray[np.float64]) -> str:
    """The non-zero positions as the user gave them: ``"l_knee=1, r_elbow=-30deg"``."""
    shown = []
    named: Iterable[tuple[str, object]] = (
        positions.items()
        if isinstance(positions, Mapping)
        else ((name, None) for name in model.joint_names)
    )
    for name, value in named:
        joint = model.joint(name)
        x = q[joint.pos_coord_offset : joint.pos_coord_offset + joint.n_pos_coords]
        if x.any():
            text = value.strip() if isinstance(value, str) else ", ".join(f"{v:g}" for v in x)
            shown.append(f"{name}={text}")
    return ", ".join(shown)


class _Triads:
    """Collects x/y/z segments of many triads and draws them as three line collections.

    One ``ax.plot`` per segment costs matplotlib a re-scaling of the axes each; a humanoid has
    a thousand segments.
    """

    def __init__(self) -> None:
        self.segments: list[list[npt.NDArray[np.float64]]] = [[], [], []]
        self.widths: list[list[float]] = [[], [], []]

    def add(self, T: Transform, length: float, width: float) -> None:
        o = T.position
        for k in range(3):
            self.segments[k].append(np.array([o, o + length * T.rotation[:, k]]))
            self.widths[k].append(width)

    def draw(self, ax: Any) -> None:
        from mpl_toolkits.mplot3d.art3d import Line3DCollection  # type: ignore[import-untyped]

        for k in range(3):
            if self.segments[k]:
                lines = Line3DCollection(
                    self.segments[k], colors=_AXIS_COLORS[k], linewidths=self.widths[k]
                )
                lines.set_gid("triads")
                ax.add_collection3d(lines, autolim=False)


_CROWDED = 1.0 / 25.0  # labels closer than this fraction of the extent are left out


def _label_size(n: int) -> float:
    return float(min(8.0, max(5.0, 8.0 * math.sqrt(12.0 / max(n, 1)))))


def _labelled(
    candidates: list[tuple[str, npt.NDArray[np.float64], float]], extent: float, *, every: bool
) -> list[tuple[str, npt.NDArray[np.float64]]]:
    """The names to write: all, or heavier first, each far enough from those already named.

    ``candidates`` are ``(name, position, weight)`` in drawing order; links weigh their mass,
    additional frames less than any link, so a frame is named only where no link is.
    """
    if every:
        return [(n, p) for n, p, _ in candidates]
    order = sorted(range(len(candidates)), key=lambda k: -candidates[k][2])
    chosen: list[int] = []
    for k in order:
        p = candidates[k][1]
        if all(float(np.linalg.norm(p - candidates[c][1])) >= _CROWDED * extent for c in chosen):
            chosen.append(k)
    return [(candidates[k][0], candidates[k][1]) for k in sorted(chosen)]


def _draw_shapes(
    ax: Any,
    model: Model,
    poses: Mapping[int, Transform],
    which: Literal["visual", "collision"],
    dirs: Iterable[str],
    corners: list[npt.NDArray[np.float64]],
    base_dir: str | None,
) -> dict[str, int]:
    """Draw each link's shapes; return the meshes left out, counted by reason.

    The lowest and highest corner of each shape drawn are appended to ``corners``.
    """
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    cache: dict[str, npt.NDArray[np.float64]] = {}
    skipped: dict[str, int] = {}
    dirs = list(dirs)
    for link, base_H_link in poses.items():
        shapes = model.visuals[link] if which == "visual" else model.collisions[link]
        for shape in shapes:
            try:
                polygons = geometry_polygons(shape.geometry, dirs, cache, base_dir)
            except MeshSkippedError as e:
                skipped[str(e)] = skipped.get(str(e), 0) + 1
                continue
            T = base_H_link @ shape.link_H_geometry
            R, o = T.rotation, T.position
            placed = [poly @ R.T + o for poly in polygons]
            every = np.concatenate(placed)
            corners += [every.min(axis=0), every.max(axis=0)]
            rgba = shape.material.rgba if shape.material and shape.material.rgba else None
            colour = rgba[:3] if rgba else (0.62, 0.66, 0.7)
            solid = Poly3DCollection(
                placed, facecolor=(*colour, 0.35), edgecolor=(*colour, 0.5), linewidth=0.2
            )
            solid.set_gid(f"{which} {model.link_name(link)}")
            ax.add_collection3d(solid, autolim=False)  # the limits are set at the end
    return skipped


def pose_figure(
    model: Model,
    positions: Positions = None,
    *,
    base: str | None = None,
    frames: bool = True,
    sensors: bool = True,
    shapes: Shapes = "visual",
    package_dirs: Iterable[str] = (),
    base_dir: str | None = None,
    labels: Labels = True,
    label_size: float | None = None,
    axis_length: float | None = None,
    title: str | None = None,
) -> Any:
    """Return a matplotlib ``Figure`` with the model's frames at the given joint positions.

    Args:
        model: the model to draw.
        positions: joint name to position: a number (rad or m) or text with a ``deg`` suffix
            for degrees (``{"r_elbow": "-30deg"}``); joints not named stay at 0. Or, as
            everywhere, a vector in coordinate order or a :class:`~robomodel.JointState`;
            ``None`` is all 0. The default title shows the non-zero positions.
        base: the link drawn at the origin; the default base by default.
        frames: draw the additional frames.
        sensors: draw the sensor frames.
        shapes: draw the links' ``"visual"`` shapes (the default), their ``"collision"``
            shapes, or none (``None``). Each shape is one translucent solid in the link's
            material colour. Meshes need trimesh and a file found through the model's and
            ``package_dirs``' package directories; large meshes are drawn thinned to a few
            hundred triangles. A note at the bottom counts the meshes left out.
        package_dirs: more directories to look for ``package://`` meshes in, after the
            model's own ``package_dirs``.
        base_dir: the directory relative mesh filenames are relative to (for a model loaded
            from a URDF file, ``robomodel.formats.urdf.load_with_report(path)[1]
            .sources.base_dir``); the working directory by default.
        labels: write names next to the frames' origins: ``True`` or ``"links"`` names the
            links that are not crowded (a link closer than 1/25 of the model's extent to a
            named one is left out, so a hand is one name, not five on top of each other),
            ``"frames"`` the same among links and drawn additional frames (links first),
            ``"all"`` names every link, ``False`` or ``None`` nothing.
        label_size: the font size of the names, in points; by default it shrinks with the
            number of names, from 8 points for a dozen to 5 for a hundred.
        axis_length: the length of a link triad; a tenth of the model's extent by default.
        title: the figure title; the model name and the non-zero positions by default.

    Returns:
        A ``matplotlib.figure.Figure`` (not attached to pyplot, so nothing is shown).

    Raises:
        UnknownNameError: a joint in ``positions`` or ``base`` is not in the model.
        ModelError: a named joint is fixed, a vector has the wrong size, the model is empty,
            or matplotlib is missing.
        ArgumentError: a position is not a finite number.
    """
    from robomodel.physics.kinematics import forward_kinematics

    if model.n_links == 0:
        raise ModelError("cannot draw an empty model; add a link first")
    Figure = _import_figure()
    q = _positions(model, positions)
    fk = forward_kinematics(model, q, base=base)
    trav = model.traversal(base)
    poses = {link: fk.base_H_frame(link) for link in trav.links}
    points = np.array([T.position for T in poses.values()])
    extent = float(np.max(np.ptp(points, axis=0))) if len(points) > 1 else 1.0
    extent = extent if extent > 0 else 1.0
    length = axis_length if axis_length is not None else 0.1 * extent

    fig = Figure(figsize=(7.5, 7.5))
    ax = fig.add_subplot(projection="3d")
    for el in trav:
        if el.parent is None:
            continue
        a, b = poses[el.parent].position, poses[el.link].position
        ax.plot([a[0], b[0]], [a[1], b[1]], [a[2], b[2]], color="#8c959f", linewidth=2.0)
    triads = _Triads()
    for T in poses.values():
        triads.add(T, length, 2.0)
    corners: list[npt.NDArray[np.float64]] = []
    dirs = [*model.package_dirs, *package_dirs]
    skipped = _draw_shapes(ax, model, poses, shapes, dirs, corners, base_dir) if shapes else {}
    drawn = [f for f in model.frames if frames and trav.contains(model.link_index(f.link))]
    for f in drawn:
        triads.add(fk.base_H_frame(f.name), 0.5 * length, 0.8)
    if labels not in (True, False, None, "links", "frames", "all"):
        raise ModelError(
            f"labels must be True, False, None, 'links', 'frames' or 'all', got {labels!r}"
        )
    if labels:
        candidates = [
            (model.link_name(k), T.position, model.links[k].mass) for k, T in poses.items()
        ]
        if labels == "frames":
            candidates += [(f.name, fk.base_H_frame(f.name).position, -1.0) for f in drawn]
        shown = _labelled(candidates, extent, every=labels == "all")
        size = label_size if label_size is not None else _label_size(len(shown))
        for name, p in shown:
            ax.text(p[0], p[1], p[2], " " + name, fontsize=size, color="#1b1f24")
    if sensors:
        for s in model.sensors:
            if isinstance(s, SixAxisForceTorqueSensor):
                owner, link_H_sensor, marker = s.second_link, s.second_link_H_sensor, "s"
            else:
                owner, link_H_sensor, marker = s.link, s.link_H_sensor, "^"
            if not trav.contains(model.link_index(owner)):
                continue
            T = fk.base_H_frame(owner) @ link_H_sensor
            triads.add(T, 0.6 * length, 1.0)
            p = T.position
            ax.scatter([p[0]], [p[1]], [p[2]], color="#d9730d", marker=marker, s=30)
    triads.draw(ax)
    # Equal scale on the three axes, so that right angles look right; the shapes fit in.
    everything = np.vstack([points, *corners])
    low, high = everything.min(axis=0), everything.max(axis=0)
    centre = 0.5 * (low + high)
    half = 0.5 * max(extent, float(np.max(high - low))) + length
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_zlim(centre[2] - half, centre[2] + half)
    ax.set_box_aspect((1.0, 1.0, 1.0))
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    if title is None:
        moved = _typed(model, positions, q)
        title = (
            f"{model.name or 'model'} in {model.link_name(trav.base)} frame"
            f"{': ' + moved if moved else ' at q = 0'}"
        )
    ax.set_title(title, fontsize=9)
    if skipped:
        why = "; ".join(f"{n} {reason}" for reason, n in skipped.items())
        fig.text(0.01, 0.01, f"meshes not drawn: {why}", fontsize=7, color="#57606a")
    return fig


def save_pose(
    model: Model,
    path: str | Path,
    positions: Positions = None,
    *,
    dpi: int = 120,
    **options: Any,
) -> Path:
    """Draw the model with :func:`pose_figure` and write the picture to ``path``.

    The format follows the file extension (``.png``, ``.svg``, ``.pdf``, ...). The picture is
    written to a temporary file beside ``path`` and renamed over it when complete, so a failure
    leaves an existing file as it was.

    Args:
        model: the model to draw.
        path: the output file.
        positions: joint positions, as for :func:`pose_figure`; joints not named stay at 0.
        dpi: resolution of raster formats.
        **options: keyword options of :func:`pose_figure`.

    Returns:
        The path written.
    """
    out = Path(path)
    fig = pose_figure(model, positions, **options)
    with atomic_path(out) as tmp:
        fig.savefig(tmp, dpi=dpi)
    return out
