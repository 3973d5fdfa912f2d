"""Thin meshes and ASCII STL files survive an MJCF export instead of breaking the compile.

Stretch's stickers (mujoco_menagerie's hello_robot_stretch, stretch_3) are meshes too thin for a
volume; the source says ``inertia="shell"`` on the mesh (``shellinertia`` on the geom before
MuJoCo 3.3). robomodel writes every inertia explicitly, but
MuJoCo still computes each mesh's volume and refused the export ("mesh volume is too small ...
Try setting inertia to shell"), and the report blamed the kept sections. Now such a mesh is
written with ``inertia="shell"`` (reported), and an ASCII STL (which MuJoCo cannot decode) is
converted with trimesh or reported.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import mujoco
import numpy as np
import pytest
import trimesh

import robomodel as rm
from robomodel.formats import mjcf
from robomodel.formats.mjcf._geoms import is_ascii_stl


def _sticker(thickness: float) -> trimesh.Trimesh:
    """A 4 cm square sticker; at thickness 0 a sheet of two triangles, with no volume."""
    if thickness > 0:
        return trimesh.creation.box(extents=(0.04, 0.04, thickness))
    vertices = [[0, 0, 0], [0.04, 0, 0], [0.04, 0.04, 0], [0, 0.04, 0]]
    return trimesh.Trimesh(vertices=vertices, faces=[[0, 1, 2], [0, 2, 3]], process=False)


def _source(tmp_path: Path) -> Path:
    _sticker(0.0).export(tmp_path / "sticker.stl")
    text = f"""<mujoco model="stretch_like">
  <option timestep="0.004"/>
  <asset><mesh name="sticker" file="{tmp_path / "sticker.stl"}" inertia="shell"/></asset>
  <worldbody>
    <body name="base"><freejoint/>
      <geom type="box" size="0.1 0.1 0.1" mass="2"/>
      <body name="sticker_link" pos="0 0 0.1">
        <joint name="j" axis="0 0 1"/>
        <geom type="mesh" mesh="sticker" mass="3.6e-6"
              contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""
    path = tmp_path / "stretch_like.xml"
    path.write_text(text)
    return path


def _quiet_load(path: Path) -> rm.Model:
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        return mjcf.load(path)


def test_a_thin_mesh_is_written_with_shell_inertia(tmp_path: Path) -> None:
    source = _source(tmp_path)
    mm = mujoco.MjModel.from_xml_path(str(source))  # the source compiles
    model = _quiet_load(source)
    text, report = mjcf.dumps_with_report(model)
    compiled = mujoco.MjModel.from_xml_string(text)  # and so does the export
    assert 'inertia="shell"' in text
    changed = [x for x in report.losses if x.kind == "mesh" and x.action == "changed"]
    assert [x.name for x in changed] == ["sticker"] and "shell" in changed[0].detail
    # Same masses as the source (kept sections are not blamed; the option is written back).
    assert np.allclose(sorted(compiled.body_mass), sorted(mm.body_mass), rtol=1e-12, atol=0)
    assert not [x for x in report.losses if x.kind == "kept section"]
    back, _ = mjcf.loads_with_report(text)
    link = back.link_index("sticker_link")
    (shape,) = back.visuals[link]
    (was,) = model.visuals[model.link_index("sticker_link")]
    for a, b in ((shape.link_H_geometry, was.link_H_geometry),):
        np.testing.assert_allclose(a.position, b.position, atol=1e-9)
        np.testing.assert_allclose(a.rotation, b.rotation, atol=1e-9)


def _ascii_model(tmp_path: Path) -> rm.Model:
    path = tmp_path / "part.stl"
    path.write_bytes(
        trimesh.creation.box(extents=(0.1, 0.1, 0.1)).export(file_type="stl_ascii").encode()
    )
    assert is_ascii_stl(str(path))
    m = rm.add_link(
        rm.Model(name="r"),
        "base",
        rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.eye(3) * 0.01)),
    )
    shape = rm.SolidShape(geometry=rm.Mesh(str(path)))
    return rm.with_visual_shapes(m, "base", [shape])


def test_an_ascii_stl_is_reported_or_converted(tmp_path: Path) -> None:
    model = _ascii_model(tmp_path)
    text, report = mjcf.dumps_with_report(model)
    mujoco.MjModel.from_xml_string(text)
    (dropped,) = [x for x in report.losses if x.action == "dropped" and "ASCII STL" in x.detail]
    assert "mesh_dir" in dropped.detail
    out = tmp_path / "converted"
    text, report = mjcf.dumps_with_report(model, options=mjcf.DumpOptions(mesh_dir=str(out)))
    mm = mujoco.MjModel.from_xml_string(text)
    assert mm.nmesh == 1 and not is_ascii_stl(str(out / "part.stl"))
    assert [x.action for x in report.losses if "converted" in x.detail] == ["approximated"]


def test_a_binary_stl_whose_header_says_solid_is_binary(tmp_path: Path) -> None:
    data = bytearray(trimesh.creation.box().export(file_type="stl"))
    data[:5] = b"solid"
    path = tmp_path / "b.stl"
    path.write_bytes(bytes(data))
    assert not is_ascii_stl(str(path))
    assert not is_ascii_stl(str(tmp_path / "missing.stl"))


@pytest.mark.parametrize("thickness", [0.0, 1e-4])
def test_only_meshes_mujoco_refuses_change(tmp_path: Path, thickness: float) -> None:
    _sticker(thickness).export(tmp_path / "m.stl")
    m = rm.add_link(
        rm.Model(name="r"),
        "base",
        rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.eye(3) * 0.01)),
    )
    m = rm.with_visual_shapes(m, "base", [rm.SolidShape(geometry=rm.Mesh(str(tmp_path / "m.stl")))])
    text, report = mjcf.dumps_with_report(m)
    mujoco.MjModel.from_xml_string(text)
    shell = 'inertia="shell"' in text
    assert shell == any(x.kind == "mesh" for x in report.losses)
    assert shell == (thickness == 0.0)


def test_kept_sections_are_not_blamed_for_another_failure(tmp_path: Path) -> None:
    """A document MuJoCo refuses for a reason of its own (here a damaged binary STL) used to
    have every kept section dropped as "refused"; they are written back, and the report says
    that MuJoCo refuses the document without them."""
    bad = tmp_path / "damaged.stl"
    bad.write_bytes(b"\0" * 80 + (1000).to_bytes(4, "little") + b"\0" * 50)  # 1000 faces, 1 given
    source = tmp_path / "kept.xml"
    source.write_text(
        '<mujoco><option timestep="0.003"/><worldbody><body name="a"><joint name="j"/>'
        '<geom type="box" size="0.1 0.1 0.1"/></body></worldbody></mujoco>'
    )
    model = _quiet_load(source)
    mesh = rm.SolidShape(geometry=rm.Mesh(str(bad)))
    model = rm.with_visual_shapes(model, "a", [mesh])
    text, report = mjcf.dumps_with_report(model)
    assert '<option timestep="0.003"' in text
    assert not [x for x in report.losses if x.kind == "kept section" and x.action == "dropped"]
    (said,) = [x for x in report.losses if x.kind == "kept section"]
    assert "without them" in said.detail and "damaged.stl" in said.detail
