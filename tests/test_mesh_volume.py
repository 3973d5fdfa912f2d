"""The MJCF writer's shortcut past MuJoCo's thin-mesh compile: it must never answer wrongly.

``surely_has_volume`` lets the writer skip compiling the document to find meshes MuJoCo
refuses as too thin ("mesh volume is too small"). Its "yes" must mean MuJoCo compiles the mesh
with its default (legacy) inertia; its "no" only means "compile to find out". The oracle is
MuJoCo itself, on boxes, flattened boxes, open and inside-out meshes, scaled in every way.
"""

from __future__ import annotations

import os
from pathlib import Path

import mujoco
import numpy as np
import pytest
import trimesh
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robomodel._internal.mesh_volume import surely_has_volume

_SCALES = st.tuples(*[st.sampled_from([1.0, 0.001, 2.5, -1.0, 1e-6, 0.0])] * 3)


def _mujoco_refuses_volume(path: Path, scale: tuple[float, float, float]) -> bool:
    text = f"""<mujoco><asset><mesh name="m" file="{path}" scale="{" ".join(map(repr, scale))}"/>
      </asset><worldbody><body><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <geom type="mesh" mesh="m" contype="0" conaffinity="0"/></body></worldbody></mujoco>"""
    try:
        mujoco.MjModel.from_xml_string(text)
    except ValueError as exc:
        return "volume is too small" in str(exc)
    return False


@st.composite
def meshes(draw: st.DrawFn) -> trimesh.Trimesh:
    """Boxes of any thickness (down to flat), moved away from the origin, possibly opened (faces
    dropped) or turned inside out."""
    extents = draw(st.tuples(*[st.sampled_from([1.0, 0.04, 1e-4, 1e-7, 0.0])] * 3))
    mesh = trimesh.creation.box(extents=[max(e, 1e-300) for e in extents])
    vertices = np.array(mesh.vertices) * (np.array(extents) > 0)
    vertices += draw(st.sampled_from([0.0, 5.0, 1e3]))
    faces = np.array(mesh.faces)
    keep = draw(st.integers(min_value=1, max_value=len(faces)))
    faces = faces[:keep]
    if draw(st.booleans()):
        faces = faces[:, ::-1]
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=False)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mesh=meshes(), scale=_SCALES)
def test_a_sure_volume_is_one_mujoco_accepts(
    tmp_path: Path, mesh: trimesh.Trimesh, scale: tuple[float, float, float]
) -> None:
    """Whenever ``surely_has_volume`` says yes, MuJoCo does not refuse the mesh as too thin."""
    path = tmp_path / "m.stl"
    mesh.export(path)
    if surely_has_volume(str(path), scale):
        assert not _mujoco_refuses_volume(path, scale)


@pytest.mark.parametrize("scale", [(1.0, 1.0, 1.0), (0.001, 0.001, 0.001), (1.0, -2.0, 0.5)])
def test_an_ordinary_closed_mesh_needs_no_compile(
    tmp_path: Path, scale: tuple[float, float, float]
) -> None:
    """The shortcut answers for ordinary parts (a box, a sphere, far from the origin; sizes in
    millimetres, as the scale 0.001 of many robot meshes says)."""
    for k, mesh in enumerate(
        [trimesh.creation.box(extents=(40.0, 20.0, 10.0)), trimesh.creation.icosphere()]
    ):
        mesh.apply_translation((3.0, -2.0, 1.0))
        path = tmp_path / f"{k}.stl"
        mesh.export(path)
        assert surely_has_volume(str(path), scale)


def test_what_it_cannot_read_is_left_to_mujoco(tmp_path: Path) -> None:
    """Missing, truncated, ASCII and empty files answer "cannot tell"."""
    ascii_stl = tmp_path / "a.stl"
    ascii_stl.write_text(trimesh.creation.box().export(file_type="stl_ascii"))
    binary = trimesh.creation.box().export(file_type="stl")
    truncated = tmp_path / "t.stl"
    truncated.write_bytes(binary[:-10])
    empty = tmp_path / "e.stl"
    empty.write_bytes(bytes(84))
    for path in (tmp_path / "missing.stl", ascii_stl, truncated, empty):
        assert not surely_has_volume(str(path), (1.0, 1.0, 1.0))


def test_a_fifo_or_a_directory_is_not_opened(tmp_path: Path) -> None:
    """A FIFO named as a mesh answers "cannot tell" at once instead of waiting for a writer."""
    fifo = tmp_path / "f.stl"
    os.mkfifo(fifo)
    for path in (fifo, tmp_path):
        assert not surely_has_volume(str(path), (1.0, 1.0, 1.0))
