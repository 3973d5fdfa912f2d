"""Cross-check of iKin's iCub tables against the iCubGazeboV2_7 URDF of icub-models.

The URDF's ``*_hand_dh_frame`` / ``*_foot_dh_frame`` frames are meant to coincide with iKin's
end-effector frames (ikin-dh.md Part B). Nobody here wrote either side: the URDF comes from CAD,
the tables from iKin. Joint mapping (DH link -> URDF joint): the DH chain runs torso pitch, roll,
yaw from the base (ikin-dh.md §3.2), then the seven arm joints; legs run hip pitch, hip roll, hip
yaw, knee, ankle pitch, ankle roll. Every joint has the same sign in both descriptions (the
rotations agree to 1e-6, which a sign error would break).

Measured (this file's sampling, 200 draws): arms within 9.1 mm / 2e-7 over their whole DH
limits; v2.x legs within 7.8 mm at angles within +-0.5 rad (10.7 mm over their full limits);
v1 legs are 2.5 cm off (they describe the older robot).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from robomodel.formats.dh import DHChain, icub_arm, icub_leg, release_link, set_angles

icub_models = pytest.importorskip("icub_models")

MODEL = "iCubGazeboV2_7"
TORSO = ["torso_pitch", "torso_roll", "torso_yaw"]
ARM = ["shoulder_pitch", "shoulder_roll", "shoulder_yaw", "elbow", "wrist_prosup", "wrist_pitch"]
ARM = [*ARM, "wrist_yaw"]
LEG = ["hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll"]

Oracle = Callable[[dict[str, float], str], np.ndarray]


def _robomodel_oracle(path: str) -> Oracle:
    from robomodel.formats.urdf import load
    from robomodel.physics.kinematics import relative_transform

    model = load(path)

    def pose(q: dict[str, float], frame: str) -> np.ndarray:
        s = np.zeros(model.n_pos_coords)
        for name, value in q.items():
            s[model.joint(name).pos_coord_offset] = value
        return relative_transform(model, s, "root_link", frame).as_matrix()

    return pose


def _idyntree_oracle(path: str) -> Oracle:
    idt = pytest.importorskip("idyntree.bindings")
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(path)
    # loader.model() is a reference into the loader: read what is needed while it is alive.
    model = loader.model()
    n = model.getNrOfPosCoords()
    offsets = {
        model.getJointName(j): model.getJoint(j).getPosCoordsOffset()
        for j in range(model.getNrOfJoints())
    }
    kd = idt.KinDynComputations()
    assert kd.loadRobotModel(model)

    def pose(q: dict[str, float], frame: str) -> np.ndarray:
        s = np.zeros(n)
        for name, value in q.items():
            s[offsets[name]] = value
        kd.setJointPos(s)
        return kd.getRelativeTransform("root_link", frame).asHomogeneousTransform().toNumPy()

    return pose


@pytest.fixture(scope="module")
def oracle() -> Oracle:
    path = str(icub_models.get_model_file(MODEL))
    try:  # The library's own loader and FK are the subject; iDynTree only stands in without them.
        return _robomodel_oracle(path)
    except ImportError:  # pragma: no cover - depends on the checkout
        return _idyntree_oracle(path)


def _worst(
    oracle: Oracle, chain: DHChain, joints: list[str], frame: str, span: float, seed: int
) -> tuple[float, float]:
    for i in range(chain.n_links):
        chain = release_link(chain, i)
    rng = np.random.default_rng(seed)
    worst_p = worst_r = 0.0
    for _ in range(200):
        q = np.array([rng.uniform(max(lk.min, -span), min(lk.max, span)) for lk in chain.links])
        moved, clamped = set_angles(chain, q)
        np.testing.assert_array_equal(clamped, q)  # drawn inside the limits: nothing clamped
        H_dh = moved.end_effector_pose().as_matrix()
        H_urdf = oracle(dict(zip(joints, q, strict=True)), frame)
        worst_p = max(worst_p, float(np.abs(H_dh[:3, 3] - H_urdf[:3, 3]).max()))
        worst_r = max(worst_r, float(np.abs(H_dh[:3, :3] - H_urdf[:3, :3]).max()))
    return worst_p, worst_r


@pytest.mark.reference
@pytest.mark.parametrize("side", ["right", "left"])
def test_arm_v2_matches_urdf_hand_dh_frame(oracle: Oracle, side: str) -> None:
    """iKin arm v2 vs root_link -> *_hand_dh_frame over the whole DH limits: 1 cm, 0.01."""
    s = side[0]
    joints = TORSO + [f"{s}_{j}" for j in ARM]
    p, r = _worst(oracle, icub_arm(side, "2.7"), joints, f"{s}_hand_dh_frame", np.inf, seed=1)
    assert p < 0.01 and r < 0.01, (p, r)


@pytest.mark.reference
@pytest.mark.parametrize("side", ["right", "left"])
def test_leg_v2_matches_urdf_foot_dh_frame(oracle: Oracle, side: str) -> None:
    """iKin leg v2.x vs root_link -> *_foot_dh_frame at angles within +-0.5 rad: 1 cm, 0.01."""
    s = side[0]
    joints = [f"{s}_{j}" for j in LEG]
    p, r = _worst(oracle, icub_leg(side, "2.7"), joints, f"{s}_foot_dh_frame", 0.5, seed=2)
    assert p < 0.01 and r < 0.01, (p, r)


@pytest.mark.reference
def test_a_wrong_torso_order_is_caught(oracle: Oracle) -> None:
    """The control-board order (yaw, roll, pitch) instead of the DH order misses by far more than
    the tolerance: the check above can fail."""
    joints = TORSO[::-1] + [f"r_{j}" for j in ARM]
    p, _ = _worst(oracle, icub_arm("right", "2.7"), joints, "r_hand_dh_frame", 0.5, seed=3)
    assert p > 0.05


@pytest.mark.reference
def test_model_to_chain_on_the_urdf_reproduces_its_fk() -> None:
    """model_to_chain on the real URDF (root_link -> r_hand_dh_frame, 10 revolute joints and
    several fixed ones) gives a DH chain whose pose equals the URDF's at random positions."""
    from robomodel.formats.dh import model_to_chain
    from robomodel.formats.urdf import load
    from robomodel.physics.kinematics import relative_transform

    model = load(str(icub_models.get_model_file(MODEL)))
    chain = model_to_chain(model, "root_link", "r_hand_dh_frame")
    # The URDF's own joint path confirms the DH order: torso pitch, roll, yaw from the base.
    assert [lk.name for lk in chain.links] == TORSO + [f"r_{j}" for j in ARM]
    rng = np.random.default_rng(4)
    for _ in range(20):
        q_dh = np.array([rng.uniform(lk.min, lk.max) for lk in chain.links])
        q = np.zeros(model.n_pos_coords)
        for lk, v in zip(chain.links, q_dh, strict=True):
            q[model.joint(lk.name).pos_coord_offset] = v
        H = relative_transform(model, q, "root_link", "r_hand_dh_frame").as_matrix()
        np.testing.assert_allclose(
            set_angles(chain, q_dh)[0].end_effector_pose().as_matrix(), H, atol=1e-9
        )
