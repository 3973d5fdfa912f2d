"""Relative mesh filenames of a URDF survive its conversion to MJCF, from any working directory.

A model value does not remember the file it was read from, and URDF mesh filenames are relative
to that file's directory. The MJCF writer reads the meshes, so it needs that directory: the
command line (``convert`` and every command writing a model) and ``mjcf.convert`` give it from
the input file; ``mjcf.dumps`` takes it as ``DumpOptions.base_dir`` and, without it, says so in
the report entry of each mesh it cannot find. The oracle is MuJoCo compiling the written file
(its mesh count) and the file system layout the test builds.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from robomodel.cli import main
from robomodel.data import example_path
from robomodel.formats import mjcf, urdf

trimesh = pytest.importorskip("trimesh")

# Links of the bundled example that get a mesh, each its own file under "meshes/".
MESHED = ("base_link", "torso", "l_hip_1")


@pytest.fixture
def meshed_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the bundled example in ``robot/`` with a visual ``meshes/<link>.stl``
    (relative to the file) on each link of ``MESHED``; the working directory is elsewhere."""
    robot = tmp_path / "robot"
    (robot / "meshes").mkdir(parents=True)
    doc = ET.parse(example_path())
    for name in MESHED:
        trimesh.creation.box(extents=(0.1, 0.2, 0.3)).export(robot / "meshes" / f"{name}.stl")
        link = doc.getroot().find(f"link[@name='{name}']")
        assert link is not None
        visual = ET.SubElement(link, "visual")
        ET.SubElement(ET.SubElement(visual, "geometry"), "mesh", filename=f"meshes/{name}.stl")
    path = robot / "example.urdf"
    doc.write(path)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    return path


def _mesh_files(text: str) -> list[str]:
    return sorted(re.findall(r'<mesh name="[^"]*" file="([^"]*)"', text))


def _expected(path: Path) -> list[str]:
    return sorted(str(path.parent / "meshes" / f"{name}.stl") for name in MESHED)


@pytest.mark.parametrize("command", [["convert"], ["rebase", "--base", "l_hip_1"]])
def test_the_command_line_finds_the_meshes_next_to_the_urdf(
    meshed_example: Path, tmp_path: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.xml"
    if command[0] == "convert":
        args = [*command, str(meshed_example), str(out)]
    else:
        args = [*command, str(meshed_example), "-o", str(out)]
    assert main(args) == 0
    assert "dropped visual" not in capsys.readouterr().err
    text = out.read_text()
    assert _mesh_files(text) == _expected(meshed_example)
    assert mjcf.compile_mjcf(text).nmesh == len(MESHED)


def test_the_bundled_example_converts_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bundled model, given by name, has no meshes: no shape is dropped."""
    out = tmp_path / "example.xml"
    assert main(["convert", "example", str(out)]) == 0
    assert "dropped visual" not in capsys.readouterr().err
    assert mjcf.loads(out.read_text()).n_links > 0


def test_mjcf_convert_finds_the_meshes_next_to_the_urdf(
    meshed_example: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.xml"
    report = mjcf.convert(meshed_example, out)
    assert not [x for x in report.of("dropped") if x.kind == "visual"]
    assert _mesh_files(out.read_text()) == _expected(meshed_example)


def test_dumps_takes_the_directory_and_says_when_it_is_missing(meshed_example: Path) -> None:
    model = urdf.load(meshed_example)
    _, report = mjcf.dumps_with_report(model)
    dropped = [x for x in report.of("dropped") if x.kind == "visual"]
    assert len(dropped) == len(MESHED)
    assert all("DumpOptions(base_dir=...)" in x.detail for x in dropped)
    options = mjcf.DumpOptions(base_dir=str(meshed_example.parent))
    text, report = mjcf.dumps_with_report(model, options=options)
    assert not [x for x in report.of("dropped") if x.kind == "visual"]
    assert _mesh_files(text) == _expected(meshed_example)


def test_an_mjcf_inputs_meshes_stay_where_mujoco_found_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The URDF rule is not applied to MJCF input: its reader already gives each mesh where
    MuJoCo found it (``meshdir`` included), also for a path given relative to the working
    directory."""
    (tmp_path / "robot" / "parts").mkdir(parents=True)
    trimesh.creation.box(extents=(0.1, 0.2, 0.3)).export(tmp_path / "robot" / "parts" / "b.stl")
    (tmp_path / "robot" / "m.xml").write_text(
        """<mujoco><compiler meshdir="parts"/><asset><mesh name="b" file="b.stl"/></asset>
        <worldbody><body name="a"><joint name="j" axis="0 0 1"/><geom type="mesh" mesh="b"/>
        </body></worldbody></mujoco>"""
    )
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "robot/m.xml", "out.xml"]) == 0
    assert "cannot be read" not in capsys.readouterr().err
    text = (tmp_path / "out.xml").read_text()
    assert _mesh_files(text) == [str(tmp_path / "robot" / "parts" / "b.stl")]
    assert mjcf.compile_mjcf(text).nmesh == 1
