"""plot: link names that scale with the robot and can be hidden; positions shown as typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import icub_models
import numpy as np
import pytest

import robomodel.urdf
from robomodel.cli import main
from robomodel.kinematics import forward_kinematics

pytest.importorskip("matplotlib")

from robomodel import plot

ICUB = icub_models.get_model_file("iCubGazeboV2_7")


def names_drawn(fig: Any) -> list[Any]:
    ax = fig.axes[0]
    return [t for t in ax.texts if t.get_text().startswith(" ")]


def test_labels_thin_out_and_shrink_on_a_large_robot() -> None:
    model = robomodel.urdf.load(ICUB)
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
    model = robomodel.urdf.load(icub_models.get_model_file("left_wrist_mk2"))
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
