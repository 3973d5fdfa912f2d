"""Shared pytest configuration: Hypothesis profiles and shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
)
settings.register_profile(
    "slow",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=int(os.environ.get("ROBOMODEL_SLOW_EXAMPLES", "500")),
)
settings.load_profile("default")


@pytest.fixture
def relative_mesh_urdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A URDF file ``robot/r.urdf`` whose one link shows ``meshes/b.stl`` (a 0.1 x 0.2 x 0.3 box,
    relative to the file), with the working directory moved elsewhere: what finds the mesh must
    find it next to the URDF, not in the working directory."""
    trimesh = pytest.importorskip("trimesh")
    (tmp_path / "robot" / "meshes").mkdir(parents=True)
    trimesh.creation.box(extents=(0.1, 0.2, 0.3)).export(tmp_path / "robot" / "meshes" / "b.stl")
    urdf = tmp_path / "robot" / "r.urdf"
    urdf.write_text(
        """<robot name="r"><link name="base"><inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
        <visual><geometry><mesh filename="meshes/b.stl"/></geometry></visual></link></robot>"""
    )
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    return urdf
