"""plot: link names that scale with the robot and can be hidden; positions shown as typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import icub_models
import numpy as np
import pytest

import robomodel as rm
import robomodel.data
import robomodel.formats.urdf
from robomodel.cli import main
from robomodel.model.shapes import Box, Cylinder, Sphere
from robomodel.model.spatial import Transform
from robomodel.physics.kinematics import forward_kinematics

pytest.importorskip("matplotlib")

from robomodel.tools import plot

ICUB = icub_models.get_model_file("iCubGazeboV2_7")


def names_drawn(fig: Any) -> list[Any]:
    ax = fig.axes[0]
    return [t for t in ax.texts if t.get_text().startswith(" ")]


def test_labels_thin_out_and_shrink_on_a_large_robot() -> None:
    model = robomodel.formats.urdf.load(ICUB)
    every = names_drawn(plot.pose_figure(model, labels="all", frames=False, sensors=False))
    assert len(every) == model.n_links
    some = names_drawn(plot.pose_figure(model, frames=False, sensors=False))
    assert 5 <= len(some) < model.n_links
    # No two names left are closer than 1/25 of the robot's extent (the rule of the option).
    fk = forward_kinematics(model, np.zeros(model.n_pos_coords))
    everywhere = np.array([fk.base_H_frame(n).position for n in model.link_names])
    extent = float(np.max(np.ptp(everywhere, axis=0)))
    named = np.array([fk.base_H_frame(t.get_text().strip()).position for t in some])
    gaps = np.linalg.norm(named[:, None, :] - named[None, :, :], axis=-1)
    assert gaps[np.triu_indices(len(named), 1)].min() >= extent / 25
    # The heaviest link is always named.
    heaviest = max(model.link_names, key=lambda n: model.link(n).mass)
    assert heaviest in {t.get_text().strip() for t in some}
    sizes = {t.get_fontsize() for t in some}
    assert len(sizes) == 1 and 5.0 <= sizes.pop() < 8.0
    assert names_drawn(plot.pose_figure(model, labels=False)) == []
    big = names_drawn(plot.pose_figure(model, label_size=12, frames=False, sensors=False))
    assert {t.get_fontsize() for t in big} == {12}


def test_small_robot_gets_larger_names() -> None:
    model = robomodel.formats.urdf.load(icub_models.get_model_file("left_wrist_mk2"))
    texts = names_drawn(plot.pose_figure(model))
    assert texts
    assert {t.get_fontsize() for t in texts} == {8.0}


def test_cli_title_shows_degrees_as_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    real = plot.save_pose

    def spy(model: Any, path: Any, positions: Any = None, **options: Any) -> Path:
        seen.update(options, positions=positions)
        return real(model, path, positions, **options)

    monkeypatch.setattr(plot, "save_pose", spy)
    out = tmp_path / "pose.png"
    args = ["plot", "-o", str(out), "--q", "l_knee=1", "r_elbow=-30deg", "--no-labels"]
    assert main(args) == 0
    assert seen["title"] == "example_humanoid in base_link frame: l_knee=1, r_elbow=-30deg"
    assert seen["positions"]["r_elbow"] == pytest.approx(-np.pi / 6)
    assert seen["labels"] is False
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert main(["plot", "-o", str(out), "--all-labels", "--label-size", "7"]) == 0
    assert seen["labels"] == "all" and seen["label_size"] == 7.0
    assert seen["title"] == "example_humanoid in base_link frame at q = 0"


# ---------------------------------------------------------------------------- shapes
MESH_DIR = str(Path(icub_models.get_models_path()).parent.parent)  # holds iCub/meshes/...


def solids(fig: Any, kind: str = "visual") -> list[Any]:
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    ax = fig.axes[0]
    return [
        c
        for c in ax.collections
        if isinstance(c, Poly3DCollection) and (c.get_gid() or "").startswith(kind + " ")
    ]


def note(fig: Any) -> str:
    return " ".join(t.get_text() for t in fig.texts)


def test_icub_meshes_are_drawn_one_solid_per_shape() -> None:
    """With the mesh directory every visual mesh is a solid; without it, a note counts them."""
    pytest.importorskip("trimesh")
    model = robomodel.formats.urdf.load(ICUB)
    n_visual = sum(len(v) for v in model.visuals)
    n_boxes = sum(isinstance(s.geometry, Box) for v in model.collisions for s in v)
    fig = plot.pose_figure(model, package_dirs=[MESH_DIR], frames=False, sensors=False)
    drawn = solids(fig)
    assert len(drawn) == n_visual > 30 and note(fig) == ""
    assert {c.get_gid().split(" ", 1)[1] for c in drawn} == {
        n for n, v in zip(model.link_names, model.visuals, strict=True) if v
    }
    bare = plot.pose_figure(model, shapes="collision", frames=False, sensors=False)
    assert len(solids(bare, "collision")) == n_boxes == 2  # the boxes need no file
    n_meshes = sum(len(v) for v in model.collisions) - n_boxes
    assert note(bare) == f"meshes not drawn: {n_meshes} not found in the package directories"
    assert solids(plot.pose_figure(model, shapes=None, frames=False, sensors=False)) == []


def test_meshes_without_trimesh_are_noted(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "trimesh", None)  # import trimesh raises ImportError
    model = robomodel.formats.urdf.load(ICUB)
    fig = plot.pose_figure(model, package_dirs=[MESH_DIR], frames=False, sensors=False)
    assert solids(fig) == []
    assert "39 trimesh is not installed" in note(fig)


def primitive_model() -> robomodel.Model:
    """One link per primitive, each shape away from its link origin."""
    shapes = [Box(0.2, 0.4, 0.6), Cylinder(radius=0.1, length=0.5), Sphere(radius=0.25)]
    m = rm.add_link(rm.Model(name="prims"), "base")
    for k, g in enumerate(shapes):
        pose = Transform.from_rpy_xyz([0.3, 0.0, 0.0], [k, 0, 0.5])
        link = f"l{k}"
        joint = rm.RevoluteJoint(
            link1="base",
            link2=link,
            link1_H_link2=Transform.from_translation((0, k, 0)),
            axis_in_link1=rm.Axis((0, 0, 1), (0, k, 0)),
        )
        m = rm.add_joint_and_link(m, "base", f"j{k}", joint, link)
        m = rm.with_visual_shapes(m, link, [rm.SolidShape(geometry=g, link_H_geometry=pose)])
    return m


def test_primitives_are_drawn_where_and_as_large_as_they_are() -> None:
    from robomodel.tools._plot_shapes import geometry_polygons

    m = primitive_model()
    fig = plot.pose_figure(m)
    assert [c.get_gid() for c in solids(fig)] == ["visual l0", "visual l1", "visual l2"]
    # The sphere of l2 is centred at (2, 2, 0.5) (link at y = 2, shape 2 m along x): in view.
    ax = fig.axes[0]
    for (lo, hi), (want_lo, want_hi) in zip(
        (ax.get_xlim(), ax.get_ylim(), ax.get_zlim()),
        ((-0.1, 2.25), (-0.3, 2.25), (-0.3, 0.75)),
        strict=True,
    ):
        assert lo <= want_lo and hi >= want_hi
    box, cylinder, sphere = (m.visuals[m.link_index(f"l{k}")][0].geometry for k in range(3))
    corners = np.concatenate(geometry_polygons(box, [], {}))
    np.testing.assert_allclose(corners.min(axis=0), [-0.1, -0.2, -0.3])
    np.testing.assert_allclose(corners.max(axis=0), [0.1, 0.2, 0.3])
    rim = np.concatenate(geometry_polygons(cylinder, [], {}))
    np.testing.assert_allclose(np.hypot(rim[:, 0], rim[:, 1]), 0.1)
    np.testing.assert_allclose(sorted(set(np.round(rim[:, 2], 12))), [-0.25, 0.25])
    ball = np.concatenate(geometry_polygons(sphere, [], {}))
    np.testing.assert_allclose(np.linalg.norm(ball, axis=1), 0.25)


def test_thinned_meshes_stay_within_budget_and_bounds() -> None:
    trimesh = pytest.importorskip("trimesh")
    from robomodel.tools._plot_shapes import MAX_MESH_FACES, thinned

    mesh = trimesh.creation.icosphere(subdivisions=5, radius=2.0)  # 20480 faces
    tris = thinned(np.asarray(mesh.vertices), np.asarray(mesh.faces), MAX_MESH_FACES)
    assert 50 < len(tris) <= MAX_MESH_FACES
    r = np.linalg.norm(tris.reshape(-1, 3), axis=1)
    assert r.max() <= 2.0 + 1e-9 and r.min() > 1.5  # cluster means stay near the surface
    small = trimesh.creation.box()
    assert len(thinned(np.asarray(small.vertices), np.asarray(small.faces), 400)) == 12


def test_label_choices() -> None:
    model = robomodel.formats.urdf.load(ICUB)
    quick = {"frames": False, "sensors": False, "shapes": None}
    links = {t.get_text().strip() for t in names_drawn(plot.pose_figure(model, **quick))}
    assert links == {
        t.get_text().strip() for t in names_drawn(plot.pose_figure(model, labels="links", **quick))
    }
    assert links <= set(model.link_names)
    with_frames = {
        t.get_text().strip() for t in names_drawn(plot.pose_figure(model, labels="frames"))
    }
    assert with_frames - links and with_frames - links <= set(model.frame_names)
    assert names_drawn(plot.pose_figure(model, labels=None, **quick)) == []
    with pytest.raises(rm.ModelError, match="labels must be"):
        plot.pose_figure(model, labels="names", **quick)  # type: ignore[arg-type]


def test_degrees_given_in_python_are_shown_as_typed() -> None:
    """{"r_elbow": "-30deg"} poses the robot like -pi/6 rad, and the title keeps "-30deg"."""
    model = robomodel.formats.urdf.load(robomodel.data.example_path())
    typed = plot.pose_figure(model, {"r_elbow": "-30deg", "l_knee": 1, "r_knee": 0})
    title = typed.axes[0].get_title()
    assert title == "example_humanoid in base_link frame: r_elbow=-30deg, l_knee=1"
    radians = plot.pose_figure(model, {"r_elbow": -np.pi / 6, "l_knee": 1.0})
    assert radians.axes[0].get_title().endswith("r_elbow=-0.523599, l_knee=1")

    def spots(fig: Any) -> dict[str, Any]:
        return {t.get_text(): np.array(t.get_position_3d()) for t in names_drawn(fig)}

    a, b = spots(typed), spots(radians)
    assert a.keys() == b.keys() and " r_forearm" in a
    for name in a:
        np.testing.assert_allclose(a[name], b[name], atol=1e-12)
    with pytest.raises(rm.ModelError, match="'r_elbow': position 'thirty' is not a number"):
        plot.pose_figure(model, {"r_elbow": "thirty"})


def test_relative_meshes_are_drawn_from_any_directory(relative_mesh_urdf) -> None:
    """A mesh path relative to its URDF file is drawn whatever the working directory, given
    the URDF's directory (the load's report holds it)."""
    model, report = robomodel.formats.urdf.load_with_report(relative_mesh_urdf)
    fig = plot.pose_figure(model, frames=False, sensors=False, base_dir=report.sources.base_dir)
    assert len(solids(fig)) == 1 and note(fig) == ""
