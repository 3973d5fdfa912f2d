"""xacro documents: expanded through the xacro package, never read as plain URDF.

Oracles: the URDF the tests write by hand for what a xacro file means, and the output of the
``xacro`` command itself (a separate process) for the expansion and its line numbers.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import icub_models
import pytest

import robomodel.formats.urdf as ru
from robomodel.cli import main
from robomodel.errors import ArgumentError, RobomodelWarning, URDFError
from robomodel.formats.meshes import check_meshes, resolve_mesh
from robomodel.formats.urdf import URDFXacroError, XacroNotInstalledError
from robomodel.formats.urdf.report import load_result

pytest.importorskip("xacro")

NS = "http://www.ros.org/wiki/xacro"

ARM = """<?xml version="1.0"?>
<robot name="arm" xmlns:xacro="{ns}">
  <xacro:arg name="prefix" default="left_"/>
  <xacro:arg name="reach" default="0.5"/>
  <xacro:property name="length" value="$(arg reach)"/>
  <xacro:property name="density" value="4"/>
  <xacro:macro name="segment" params="name mass:=1 *geometry">
    <link name="${{name}}">
      <inertial><mass value="${{mass}}"/>
        <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
      <visual><xacro:insert_block name="geometry"/></visual>
    </link>
  </xacro:macro>
  <xacro:segment name="$(arg prefix)base" mass="2">
    <geometry><box size="0.1 0.1 0.1"/></geometry>
  </xacro:segment>
  <xacro:segment name="$(arg prefix)arm" mass="${{density * length}}">
    <geometry><cylinder radius="0.05" length="${{length}}"/></geometry>
  </xacro:segment>
  <joint name="$(arg prefix)elbow" type="revolute">
    <parent link="$(arg prefix)base"/><child link="$(arg prefix)arm"/>
    <origin xyz="0 0 ${{length}}"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
"""


def arm_urdf(prefix: str, reach: float) -> str:
    """What ARM means, written out by hand."""

    def link(name: str, mass: float, geometry: str) -> str:
        return (
            f'<link name="{name}"><inertial><mass value="{mass}"/>'
            '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>'
            f"<visual>{geometry}</visual></link>"
        )

    return (
        '<robot name="arm">'
        + link(f"{prefix}base", 2, '<geometry><box size="0.1 0.1 0.1"/></geometry>')
        + link(
            f"{prefix}arm",
            4 * reach,
            f'<geometry><cylinder radius="0.05" length="{reach}"/></geometry>',
        )
        + f'<joint name="{prefix}elbow" type="revolute"><parent link="{prefix}base"/>'
        f'<child link="{prefix}arm"/><origin xyz="0 0 {reach}"/><axis xyz="0 1 0"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>'
    )


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("ns", [NS, "http://ros.org/wiki/xacro"])
def test_properties_macros_and_args_expand_to_the_urdf_they_mean(tmp_path: Path, ns: str) -> None:
    # A .urdf name: the namespace alone makes it xacro.
    path = write(tmp_path, "arm.urdf", ARM.format(ns=ns))
    assert ru.load(path) == ru.loads(arm_urdf("left_", 0.5))
    args = {"prefix": "r_", "reach": "0.25"}
    assert ru.load(path, xacro_args=args) == ru.loads(arm_urdf("r_", 0.25))
    assert ru.loads(ARM.format(ns=ns), xacro_args=args) == ru.loads(arm_urdf("r_", 0.25))
    model = ru.load(path)
    assert model.n_joints == 1 and model.n_dofs == 1 and not model.extensions


def xacro_command(path: Path, *args: str) -> str:
    exe = shutil.which("xacro")
    cmd = [exe] if exe else [sys.executable, "-m", "xacro"]
    return subprocess.run(
        [*cmd, str(path), *args], capture_output=True, text=True, check=True
    ).stdout


def test_the_expansion_is_what_the_xacro_command_prints(tmp_path: Path) -> None:
    path = write(tmp_path, "arm.urdf.xacro", ARM.format(ns=NS))
    printed = xacro_command(path, "prefix:=r_")
    assert ru.load(path, xacro_args={"prefix": "r_"}) == ru.loads(printed)
    # A URDF error in the expansion names the file as expanded and the line xacro printed.
    bad = write(tmp_path, "bad.urdf.xacro", ARM.format(ns=NS).replace("0 1 0", "0 0 0"))
    with pytest.raises(URDFError) as info:
        ru.load(bad)
    e = info.value
    assert e.file == f"{bad} (expanded by xacro)" and e.line is not None
    assert 'axis xyz="0 0 0"' in xacro_command(bad).splitlines()[e.line - 1]
    assert str(e).startswith(f"{bad} (expanded by xacro):{e.line}: joint 'left_elbow'")


def test_includes_find_and_meshes_relative_to_the_xacro_file(tmp_path: Path) -> None:
    (tmp_path / "pkgs" / "my_robot" / "meshes").mkdir(parents=True)
    (tmp_path / "pkgs" / "my_robot" / "meshes" / "hand.stl").write_text("solid\nendsolid\n")
    (tmp_path / "desc" / "meshes").mkdir(parents=True)
    (tmp_path / "desc" / "meshes" / "base.stl").write_text("solid\nendsolid\n")
    write(
        tmp_path / "desc",
        "parts.xacro",
        f'<robot xmlns:xacro="{NS}"><xacro:macro name="hand"><link name="hand"><visual>'
        '<geometry><mesh filename="$(find my_robot)/meshes/hand.stl"/></geometry></visual>'
        "</link></xacro:macro></robot>",
    )
    main_file = write(
        tmp_path / "desc",
        "robot.urdf.xacro",
        f'<robot name="r" xmlns:xacro="{NS}"><xacro:include filename="parts.xacro"/>'
        '<link name="base"><visual><geometry><mesh filename="meshes/base.stl"/></geometry>'
        '</visual></link><xacro:hand/><joint name="j" type="fixed"><parent link="base"/>'
        '<child link="hand"/></joint></robot>',
    )
    pkgs = str(tmp_path / "pkgs")
    # The load's report gives the xacro file's directory, against which relative meshes resolve.
    result = load_result(main_file, package_dirs=[pkgs])
    model, base_dir = result.model, result.sources.base_dir
    assert model == ru.load(main_file, package_dirs=[pkgs])
    assert not check_meshes(model, origins=result.sources)
    meshes = sorted(
        resolve_mesh(s.geometry, package_dirs=[pkgs], base_dir=base_dir)  # type: ignore[arg-type]
        for v in model.visuals
        for s in v
    )
    assert meshes == sorted(
        [
            str(tmp_path / "desc" / "meshes" / "base.stl"),
            str(tmp_path / "pkgs" / "my_robot" / "meshes" / "hand.stl"),
        ]
    )
    with pytest.raises(URDFXacroError, match=r"\$\(find my_robot\).*--package-dir DIR") as info:
        ru.load(main_file)
    assert info.value.file == str(main_file)
    # From a string, includes are relative to base_dir.
    text = main_file.read_text()
    assert ru.loads(text, base_dir=tmp_path / "desc", package_dirs=[pkgs]) == model


def test_xacro_errors_name_the_file(tmp_path: Path) -> None:
    undefined = write(tmp_path, "u.xacro", ARM.format(ns=NS).replace("density * length", "dens"))
    with pytest.raises(URDFXacroError) as info:
        ru.load(undefined)
    assert info.value.file == str(undefined) and "dens" in str(info.value)
    assert str(info.value).startswith(f"{undefined}: xacro: ")
    missing_arg = ARM.format(ns=NS).replace("$(arg prefix)base", "$(arg side)base")
    with pytest.raises(URDFXacroError, match="side") as info:
        ru.loads(missing_arg, filename="arm.xacro")
    assert info.value.file == "arm.xacro"
    with pytest.raises(URDFXacroError, match="not well-formed"):
        ru.loads(f'<robot xmlns:xacro="{NS}"><link name="a"></robot>', filename="x.xacro")
    with pytest.raises(ArgumentError):
        ru.loads(ARM.format(ns=NS), xacro_args={"reach": 1.0})  # type: ignore[dict-item]


def test_never_misread_and_refused_on_request(tmp_path: Path) -> None:
    text = ARM.format(ns=NS)
    with pytest.raises(URDFXacroError, match="xacro=False"):
        ru.loads(text, xacro=False)
    with pytest.raises(URDFXacroError, match="xacro=False"):
        ru.load(write(tmp_path, "a.xacro", text), xacro=False)
    # The namespace URI in a comment or an attribute value does not make a document xacro.
    plain = arm_urdf("l_", 1.0).replace("<robot name", f"<!-- not {NS} --><robot doc='{NS}' name")
    assert ru.loads(plain, xacro=False) == ru.loads(arm_urdf("l_", 1.0))
    with pytest.raises(URDFError, match="not a xacro document"):
        ru.loads(plain, xacro_args={"prefix": "x"})


def test_missing_xacro_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xacro", None)
    with pytest.raises(XacroNotInstalledError, match=r"pip install 'robomodel\[xacro\]'"):
        ru.loads(ARM.format(ns=NS))
    with pytest.raises(ImportError):
        ru.loads(ARM.format(ns=NS))
    assert ru.loads(arm_urdf("a", 1.0)).n_joints == 1  # plain URDF needs no xacro


def test_cli_xacro_args_and_package_dirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "arm.urdf.xacro", ARM.format(ns=NS))
    out = tmp_path / "arm.urdf"
    args = ["convert", str(path), str(out), "--xacro-arg", "prefix:=r_", "--xacro-arg", "reach:=2"]
    assert main(args) == 0
    assert ru.load(out) == ru.loads(arm_urdf("r_", 2.0))
    assert main(["info", str(path), "--no-tree", "--xacro-arg", "prefix:=q_"]) == 0
    assert "base:        q_base" in capsys.readouterr().out
    assert main(["tree", str(path), "--xacro-arg", "prefix:=q_"]) == 0
    assert "q_elbow" in capsys.readouterr().out
    assert main(["tree", str(path), "--xacro-arg", "prefix=q_"]) == 2
    assert "--xacro-arg expects NAME:=VALUE" in capsys.readouterr().err
    assert main(["validate", str(path), "--xacro-arg", "prefix:=a_"]) == 0
    broken = write(tmp_path, "b.xacro", ARM.format(ns=NS).replace("density * length", "nope"))
    assert main(["validate", str(broken)]) == 1
    assert f"error: {broken}: xacro: expansion failed" in capsys.readouterr().out


def test_icub_urdf_is_not_xacro() -> None:
    """The icub-models URDFs declare no xacro namespace: they load as plain URDF, unchanged."""
    path = icub_models.get_model_file("iCubGazeboV2_5")
    assert ru.load(path, xacro=False) == ru.load(path)


def test_xacro_warnings_become_robomodel_warnings_at_the_caller() -> None:
    text = ARM.format(ns=NS).replace(
        '<xacro:property name="density"',
        '<xacro:property name="pi" value="3"/>\n  <xacro:property name="density"',
    )
    with pytest.warns(RobomodelWarning, match="redefining global symbol: pi") as caught:
        model = ru.loads(text, filename="pi.xacro")
    assert model == ru.loads(arm_urdf("left_", 0.5))
    assert caught[0].filename == __file__
    assert str(caught[0].message).startswith("pi.xacro: xacro: ")
