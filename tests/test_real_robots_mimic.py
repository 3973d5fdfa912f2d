"""A ``<mimic>`` that cannot mean anything is ignored with a warning, not refused.

Talos' URDFs (example-robot-data) carry a ``<mimic>`` on a fixed joint, and one names a joint
the document does not have; Pinocchio and MuJoCo load them. robomodel loads them too, warning
with the file, the line and what it ignored; what is ambiguous (a joint mimicking itself or a
fixed leader, a cycle) stays an error.
"""

from __future__ import annotations

from pathlib import Path

import mujoco
import numpy as np
import pinocchio
import pytest

from robomodel.errors import RobomodelWarning, URDFError
from robomodel.formats import urdf

INERTIAL = (
    '<inertial><mass value="1"/>'
    '<inertia ixx="0.1" iyy="0.1" izz="0.1" ixy="0" ixz="0" iyz="0"/></inertial>'
)


def _gripper(follower_mimic: str, fixed_mimic: str) -> str:
    links = "".join(
        f'<link name="{n}">{INERTIAL}</link>' for n in ("base", "motor", "finger", "tip")
    )
    limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
    return f"""<?xml version="1.0"?>
<robot name="talos_like">
  {links}
  <joint name="gripper_joint" type="revolute"><parent link="base"/><child link="motor"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>{limit}</joint>
  <joint name="finger_joint" type="revolute"><parent link="motor"/><child link="finger"/>
    <origin xyz="0.1 0 0"/><axis xyz="0 1 0"/>{limit}
    {follower_mimic}</joint>
  <joint name="tip_joint" type="fixed"><parent link="finger"/><child link="tip"/>
    <origin xyz="0.05 0 0"/>
    {fixed_mimic}</joint>
</robot>
"""


@pytest.mark.parametrize(
    ("follower", "fixed", "words"),
    [
        (
            "",
            '<mimic joint="gripper_joint" multiplier="-1"/>',
            ["tip_joint", "fixed joint"],
        ),
        (
            '<mimic joint="gripper_motor_joint"/>',
            "",
            ["finger_joint", "gripper_motor_joint"],
        ),
    ],
)
def test_peers_load_it_and_so_does_robomodel(
    tmp_path: Path, follower: str, fixed: str, words: list[str]
) -> None:
    path = tmp_path / "talos_like.urdf"
    document = _gripper(follower, fixed)
    path.write_text(document)
    line = next(k for k, t in enumerate(document.splitlines(), 1) if "<mimic" in t)
    with pytest.warns(RobomodelWarning) as said:
        model = urdf.load(path)
    text = " ".join(str(w.message) for w in said)
    assert f"{path}:{line}:" in text and "ignored" in text and all(w in text for w in words), text
    # The oracles read the same mechanism: Pinocchio (mimic tags ignored by default) and MuJoCo.
    pin = pinocchio.buildModelFromUrdf(str(path))
    assert pin.nq == model.n_pos_coords == 2
    assert sum(i.mass for i in pin.inertias) == pytest.approx(model.total_mass)
    mm = mujoco.MjModel.from_xml_path(str(path))
    assert mm.nq == model.n_pos_coords
    assert all(getattr(j, "mimic", None) is None for j in model.joints)
    again = urdf.loads(urdf.dumps(model))
    assert again == model


def test_what_is_ambiguous_stays_an_error() -> None:
    selfish = _gripper('<mimic joint="finger_joint"/>', "")
    with pytest.raises(URDFError, match="itself"):
        urdf.loads(selfish)
    fixed_leader = _gripper('<mimic joint="tip_joint"/>', "")
    with pytest.raises(URDFError, match="fixed"):
        urdf.loads(fixed_leader)
    assert np.isfinite(urdf.loads(_gripper("", "")).total_mass)
