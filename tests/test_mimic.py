"""Mimic joints: the actuated joints, the affine map to all joints and back, and what is shown.

The coupled hand is icub-models' ``left_hand_mk3`` with ``<mimic>`` elements written into it by
the tests (its distal joints follow the proximal ones, the pinky follows the middle finger:
chains of two). Expected values are computed by hand from the relations the tests write.
"""

from __future__ import annotations

import re
from pathlib import Path

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import robomodel.formats.urdf
from robomodel.cli import main
from robomodel.errors import ArgumentError, ModelError
from robomodel.model.mimic import MimicRelation, dof_counts, mimic_map, mimic_relations
from robomodel.tools.draw import tree_svg

HAND = icub_models.get_model_file("left_hand_mk3")

# follower: (leader, multiplier, offset), as written into the hand's URDF.
COUPLING = {
    "l_hand_index_distal_joint": ("l_hand_index_proximal_joint", 1.0, 0.0),
    "l_hand_medium_distal_joint": ("l_hand_medium_proximal_joint", 1.0, 0.0),
    "l_hand_thumb_distal_joint": ("l_hand_thumb_proximal_joint", 0.5, 0.1),
    "l_hand_pinky_proximal_joint": ("l_hand_medium_proximal_joint", -2.0, 0.25),
    "l_hand_pinky_distal_joint": ("l_hand_pinky_proximal_joint", 1.5, -0.05),
}


def coupled_hand_text(coupling: dict[str, tuple[str, float, float]] = COUPLING) -> str:
    text = HAND.read_text()
    for follower, (leader, m, o) in coupling.items():
        pattern = re.compile(rf'(<joint name="{follower}"[^>]*>)')
        assert pattern.search(text), follower
        mimic = f'<mimic joint="{leader}" multiplier="{m}" offset="{o}"/>'
        text = pattern.sub(lambda g, mimic=mimic: g.group(1) + mimic, text, count=1)
    return text


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mimic") / "coupled_hand.urdf"
    path.write_text(coupled_hand_text())
    return path


def test_chains_resolve_to_actuated_leaders(hand: Path) -> None:
    model = robomodel.formats.urdf.load(hand)
    mm = mimic_map(model)
    assert mm.n_full == model.n_dofs == 11
    assert set(mm.mimic_names) == set(COUPLING)
    assert mm.n_actuated == 6 and not set(mm.actuated_names) & set(COUPLING)
    resolved = {r.follower: r for r in mm.relations}
    # pinky distal = 1.5 * (-2 * medium + 0.25) - 0.05 = -3 * medium + 0.325
    assert resolved["l_hand_pinky_distal_joint"] == MimicRelation(
        follower="l_hand_pinky_distal_joint",
        leader="l_hand_medium_proximal_joint",
        multiplier=-3.0,
        offset=pytest.approx(0.325),
    )
    assert [r.follower for r in mimic_relations(model)] == [
        n for n in model.joint_names if n in COUPLING
    ]
    assert mimic_map(model) is mm  # once per model value


def test_full_positions_follow_every_relation(hand: Path) -> None:
    model = robomodel.formats.urdf.load(hand)
    mm = mimic_map(model)
    rng = np.random.default_rng(7)
    actuated = rng.uniform(-1, 1, mm.n_actuated)
    q = mm.full_positions(actuated)
    assert q.shape == (model.n_pos_coords,)
    value = {n: q[model.joint(n).pos_coord_offset] for n in mm.full_names}
    for k, name in enumerate(mm.actuated_names):
        assert value[name] == actuated[k]
    for follower, (leader, m, o) in COUPLING.items():
        assert value[follower] == pytest.approx(m * value[leader] + o, abs=1e-12)
    v = mm.full_velocities(actuated)
    vel = {n: v[model.joint(n).dof_offset] for n in mm.full_names}
    for follower, (leader, m, _) in COUPLING.items():
        assert vel[follower] == pytest.approx(m * vel[leader], abs=1e-12)
    assert np.array_equal(mm.actuated_positions(q, atol=1e-12), actuated)
    assert np.array_equal(mm.actuated_velocities(v, atol=1e-12), actuated)


@given(st.lists(st.floats(-3, 3), min_size=6, max_size=6), st.integers(1, 4))
def test_round_trip_on_batches(values: list[float], n: int) -> None:
    """actuated -> full -> actuated is the identity, for one vector and for a batch."""
    mm = mimic_map(robomodel.formats.urdf.loads(coupled_hand_text()))
    batch = np.tile(values, (n, 1)) * np.arange(1, n + 1)[:, None]
    full = mm.full_positions(batch)
    assert full.shape == (n, mm.n_full)
    assert np.array_equal(mm.actuated_positions(full, atol=1e-9), batch)
    assert np.array_equal(full[0], mm.full_positions(batch[0]))


def test_mapping_input_and_bad_values(hand: Path) -> None:
    mm = mimic_map(robomodel.formats.urdf.load(hand))
    q = mm.full_positions({"l_hand_medium_proximal_joint": 0.2})
    assert q[mm.full_names.index("l_hand_pinky_proximal_joint")] == pytest.approx(-0.15)
    with pytest.raises(ModelError, match="follows another joint, give its leader"):
        mm.full_positions({"l_hand_pinky_distal_joint": 0.2})
    with pytest.raises(ModelError, match="did you mean 'l_hand_thumb_rotation_joint'"):
        mm.full_positions({"l_hand_thumb_rotatoin_joint": 0.2})
    with pytest.raises(ModelError, match="give 6 values"):
        mm.full_positions([0.0] * 11)
    with pytest.raises(ArgumentError):
        mm.full_positions([float("nan")] * 6)
    off = mm.full_positions(np.zeros(6)).copy()
    off[mm.full_names.index("l_hand_thumb_distal_joint")] += 0.01
    with pytest.raises(ModelError, match=r"'l_hand_thumb_distal_joint' is 0\.11 but its relation"):
        mm.actuated_positions(off, atol=1e-6)
    assert mm.actuated_positions(off).shape == (6,)  # without atol, no check


def test_cycles_are_refused_and_dangling_leaders_ignored() -> None:
    cycle = dict(COUPLING)
    cycle["l_hand_medium_proximal_joint"] = ("l_hand_pinky_distal_joint", 1.0, 0.0)
    # The URDF reader refuses both itself (issue 15), naming the joints.
    with pytest.raises(robomodel.errors.URDFError, match=r"l_hand_medium_proximal_joint.* cycle"):
        robomodel.formats.urdf.loads(coupled_hand_text(cycle))
    # A leader that is no joint of the document is ignored with a warning naming it (as
    # Pinocchio and MuJoCo ignore it): the joint moves on its own.
    dangling = {"l_hand_index_distal_joint": ("l_hand_index_proximal_jiont", 1.0, 0.0)}
    with pytest.warns(robomodel.errors.RobomodelWarning, match=r"proximal_jiont.*names no joint"):
        m = robomodel.formats.urdf.loads(coupled_hand_text(dangling))
    assert m.joint("l_hand_index_distal_joint").mimic is None


@pytest.mark.parametrize("name", icub_models.get_robot_names())
def test_robots_without_mimic_are_all_actuated(name: str) -> None:
    model = robomodel.formats.urdf.load(icub_models.get_model_file(name))
    mm = mimic_map(model)
    assert mm.n_mimic == 0 and mm.n_actuated == model.n_dofs
    assert np.array_equal(mm.matrix, np.eye(model.n_dofs))
    q = np.linspace(-1, 1, model.n_dofs)
    assert np.array_equal(mm.full_positions(q), q)
    assert dof_counts(model) == f"{model.n_dofs} DOFs"


def test_info_tree_and_draw_show_the_relations(
    hand: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["info", str(hand)]) == 0
    out = capsys.readouterr().out
    assert "DOFs:        11 (6 actuated, 5 mimic; position coordinates: 11)" in out
    assert "mimic:       5 joints follow another one\n" in out
    stripped = [line.strip() for line in out.splitlines()]
    assert "l_hand_pinky_proximal_joint = -2 * l_hand_medium_proximal_joint + 0.25" in stripped
    assert "... 1 more (robomodel tree shows each)" in out
    # The tree shows the relation as written on each joint.
    assert "l_hand_pinky_distal_joint (revolute, axis" in out
    assert "mimics l_hand_pinky_proximal_joint x 1.5 - 0.05)" in out
    assert "mimics l_hand_index_proximal_joint)" in out
    svg = tree_svg(robomodel.formats.urdf.load(hand))
    assert "11 DOFs (6 actuated, 5 mimic)" in svg
    assert svg.count('class="edge revolute mimic"') == 5
    assert "mimics l_hand_thumb_proximal_joint x 0.5 + 0.1" in svg
    assert main(["convert", str(hand), "-"]) == 0
    back = robomodel.formats.urdf.loads(capsys.readouterr().out)
    assert mimic_relations(back) == mimic_relations(robomodel.formats.urdf.load(hand))
