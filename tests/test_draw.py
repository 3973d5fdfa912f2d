"""Pictures: the SVG tree drawn by robomodel.draw and the PNG pose drawn by robomodel.plot."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import icub_models
import pytest
from hypothesis import given
from strategies import models

import robomodel as rm
import robomodel.urdf
from robomodel.data import example_path
from robomodel.draw import tree_svg

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """The text of every <text> and <tspan> element (grouped frames are one <tspan> each)."""
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return [t.text or "" for t in root.iter() if t.tag in (f"{SVG}text", f"{SVG}tspan")]


def test_bundled_model_tree_names_links_joints_frames_sensors() -> None:
    m = robomodel.urdf.load(example_path())
    words = texts(tree_svg(m))
    for name in m.link_names:
        assert name in words
    root = ET.fromstring(tree_svg(m).encode("utf-8"))
    shown = {t.text: "".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    for k, name in enumerate(m.joint_names):
        assert shown[name] == f"{name} #{k}"  # the name and the joint index


def test_many_frames_share_one_box() -> None:
    m = robomodel.urdf.load(example_path())
    # base_link carries root_link, base_imu_acc and base_imu_gyro; add two more frames.
    m = rm.add_frame(rm.add_frame(m, "base_link", "extra_a"), "base_link", "extra_b")
    root = ET.fromstring(tree_svg(m).encode("utf-8"))
    counts = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "count"]
    assert "5 frames" in counts
    words = texts(tree_svg(m))
    for name in ("root_link", "base_imu_acc", "base_imu_gyro", "extra_a", "extra_b"):
        assert words.count(name) == 1
    for f in m.frames:
        assert f.name in words
    # Link sensors are boxes next to their link; F/T sensors are written on their joint.
    assert "acc base_imu_acc" in words and "gyro head_imu_gyro" in words
    assert "F/T l_leg_ft" in words
    # Joint type and axis in the child frame, as in the URDF (l_knee: axis 0 1 0, limits 0..2.3).
    assert "revolute  axis (0, 1, 0)  [0, 2.3]" in words


def test_icub_tree_parses() -> None:
    m = robomodel.urdf.load(icub_models.get_model_file("iCubGazeboV2_5"))
    words = set(texts(tree_svg(m, frames=False)))
    assert set(m.link_names) <= words


def test_other_base_and_options() -> None:
    m = robomodel.urdf.load(example_path())
    words = texts(tree_svg(m, base="l_foot", frames=False, sensors=False, title="legs"))
    assert words[0] == "legs"
    assert "l_sole" in texts(tree_svg(m, base="l_foot"))
    assert set(m.link_names) <= set(words)
    assert "l_sole" not in words and "F/T l_leg_ft" not in words


def test_empty_model_is_refused() -> None:
    with pytest.raises(rm.ModelError, match="empty"):
        tree_svg(rm.Model())


@given(models(max_links=8, max_frames=3))
def test_random_trees_draw_every_link_and_frame(m: rm.Model) -> None:
    """Every link and additional frame of any model appears as a text of a well-formed SVG."""
    words = texts(tree_svg(m))
    for name in m.link_names:
        assert name in words
    for f in m.frames:
        assert f.name in words


def test_plot_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from robomodel.plot import save_pose

    m = robomodel.urdf.load(example_path())
    out = save_pose(m, tmp_path / "pose.png", {"l_knee": 1.0}, base="l_foot")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    with pytest.raises(rm.ModelError, match="fixed"):
        save_pose(m, tmp_path / "x.png", {"l_leg_ft_joint": 1.0})
