"""xacro documents: expanded through the xacro package on request or for a .xacro name only.

xacro runs the Python code in a document, so a document that uses xacro is expanded only when
the caller asks (``xacro=True``, ``--xacro``) or its name ends in ``.xacro``; otherwise it is
refused, never run and never read as plain URDF.

Oracles: the URDF the tests write by hand for what a xacro file means, the output of the
``xacro`` command itself (a separate process) for the expansion and its line numbers, and
sentinel files the payloads would create and xacro entry points that fail when called, for
what is not run.
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
from robomodel.formats.urdf import URDFXacroError, XacroNotExpandedError, XacroNotInstalledError

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
    # A .urdf name: expanded because the caller asks.
    path = write(tmp_path, "arm.urdf", ARM.format(ns=ns))
    assert ru.load(path, xacro=True) == ru.loads(arm_urdf("left_", 0.5))
    args = {"prefix": "r_", "reach": "0.25"}
    assert ru.load(path, xacro_args=args, xacro=True) == ru.loads(arm_urdf("r_", 0.25))
    text = ARM.format(ns=ns)
    assert ru.loads(text, xacro_args=args, xacro=True) == ru.loads(arm_urdf("r_", 0.25))
    model = ru.load(write(tmp_path, "arm.xacro", text))  # a .xacro name: expanded by default
    assert model == ru.loads(arm_urdf("left_", 0.5))
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
    model, report = ru.load_with_report(main_file, package_dirs=[pkgs])
    base_dir = report.sources.base_dir
    assert model == ru.load(main_file, package_dirs=[pkgs])
    assert not check_meshes(model, origins=report.sources)
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
    assert ru.loads(text, base_dir=tmp_path / "desc", package_dirs=[pkgs], xacro=True) == model


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
        ru.loads(ARM.format(ns=NS), xacro_args={"reach": 1.0}, xacro=True)  # type: ignore[dict-item]


def test_never_misread_and_refused_on_request(tmp_path: Path) -> None:
    text = ARM.format(ns=NS)
    with pytest.raises(XacroNotExpandedError, match=r"xacro=False.*xacro=True") as info:
        ru.loads(text, xacro=False)
    assert (info.value.line, info.value.element) == (3, "<xacro:arg>")
    with pytest.raises(XacroNotExpandedError, match="xacro=False"):
        ru.load(write(tmp_path, "a.xacro", text), xacro=False)
    # xacro=False refuses a .xacro name even without xacro in it.
    with pytest.raises(XacroNotExpandedError, match=r"name ends in \.xacro.*xacro=False"):
        ru.loads(arm_urdf("l_", 1.0), filename="plain.urdf.xacro", xacro=False)
    # The namespace URI in a comment or an attribute value does not make a document xacro.
    plain = arm_urdf("l_", 1.0).replace("<robot name", f"<!-- not {NS} --><robot doc='{NS}' name")
    assert ru.loads(plain, xacro=False) == ru.loads(arm_urdf("l_", 1.0))
    with pytest.raises(URDFError, match="not a xacro document"):
        ru.loads(plain, xacro_args={"prefix": "x"})
    with pytest.raises(ArgumentError, match="xacro must be True, False or None"):
        ru.loads(plain, xacro="yes")  # type: ignore[arg-type]


def test_missing_xacro_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xacro", None)
    with pytest.raises(XacroNotInstalledError, match=r"pip install 'robomodel\[xacro\]'"):
        ru.loads(ARM.format(ns=NS), xacro=True)
    with pytest.raises(ImportError):
        ru.loads(ARM.format(ns=NS), filename="arm.xacro")
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


def test_cli_expands_a_urdf_using_xacro_with_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "arm.urdf", ARM.format(ns=NS))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"robomodel validate: error: {path}:3: <xacro:arg>: ")
    assert "If and only if you trust this file" in err and err.count("\n") == 1
    assert main(["validate", str(path), "--xacro"]) == 0
    out = tmp_path / "out.urdf"
    args = ["convert", str(path), str(out), "--xacro", "--xacro-arg", "prefix:=r_"]
    assert main(args) == 0
    assert ru.load(out) == ru.loads(arm_urdf("r_", 0.5))
    capsys.readouterr()
    # attach: --xacro is for the other model too.
    attached = tmp_path / "attached.json"
    args = ["attach", "--other", str(path), "--at", "l_hand_frame", "--prefix", "arm_", "-o"]
    assert main([*args, str(attached)]) == 2
    assert main([*args, str(attached), "--xacro"]) == 0
    assert "arm_left_elbow" in attached.read_text()


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


# --------------------------------------------------------------------------- no code from data

# Expressions that escape xacro's restricted names and run a shell command; {sentinel} is the
# file the command creates. The first is the reproducer of issue 28 (xacro 2.1 refuses its
# dunder names when it evaluates it); the second names no dunder and runs on xacro 2.1.1.
PAYLOADS = {
    "issue-28": (
        "${{[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "
        "'catch_warnings'][0]()._module.__builtins__['__import__']('os')"
        ".system('touch {sentinel}')}}"
    ),
    "no-dunder": (
        "${{[c for c in python.vars(python.type)['__subclasses__'](python.type(1).mro()[-1]) "
        "if 'catch_warnings' in str(c)][0]()._module.sys.modules['os']"
        ".system('touch {sentinel}')}}"
    ),
}


def test_a_requested_expansion_runs_the_code_in_the_file(tmp_path: Path) -> None:
    """Why expanding is opt-in: xacro's restricted names do not stop a payload. This also
    shows that the payloads below are live, so that their sentinel proves something."""
    sentinel = tmp_path / "pwned"
    link = f'<link name="{PAYLOADS["no-dunder"].format(sentinel=sentinel)}"/>'
    path = write(tmp_path, "evil.urdf", f'<robot name="r" xmlns:xacro="{NS}">{link}</robot>')
    ru.load(path, xacro=True)
    if not sentinel.exists():
        pytest.skip("this xacro version blocks the payload; the tests below still hold")


@pytest.fixture
def xacro_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make xacro's entry points fail, recording each call: a test asserts none happened."""
    import xacro

    calls: list[str] = []

    def refuse(name: str) -> object:
        def called(*args: object, **kwargs: object) -> None:
            calls.append(name)
            raise AssertionError(f"xacro.{name} was called")

        return called

    for name in ("process_file", "process_doc", "parse"):
        monkeypatch.setattr(xacro, name, refuse(name))
    return calls


@pytest.mark.parametrize(
    ("body", "line", "element", "what"),
    [
        pytest.param(
            '<link name="a"/>\n<link name="{p}"/>', 4, "<link>", "attribute name", id="attr"
        ),
        pytest.param("<gazebo>\n  {p}\n</gazebo>", 4, "<gazebo>", "in the text", id="text"),
        pytest.param(
            '<xacro:property name="x"\n  value="{p}"/>', 3, "<xacro:property>", "element", id="prop"
        ),
    ],
)
@pytest.mark.parametrize("how", ["load", "loads", "no-namespace"])
@pytest.mark.parametrize("payload", sorted(PAYLOADS))
def test_the_reproducer_does_nothing_without_the_flag(
    tmp_path: Path, body: str, line: int, element: str, what: str, how: str, payload: str
) -> None:
    """An expression that runs a shell command, in a .urdf or a string: refused, never run."""
    sentinel = tmp_path / "pwned"
    inner = body.format(p=PAYLOADS[payload].format(sentinel=sentinel))
    ns = "" if how == "no-namespace" else f' xmlns:xacro="{NS}"'
    text = f'<?xml version="1.0"?>\n<robot name="r"{ns}>\n{inner}\n</robot>\n'
    path = write(tmp_path, "evil.urdf", text)
    with pytest.raises(XacroNotExpandedError) as info:
        if how == "loads":
            ru.loads(text, filename="evil.urdf")
        else:
            ru.load(path)
    assert not sentinel.exists()
    e = info.value
    assert isinstance(e, URDFXacroError) and isinstance(e, URDFError)
    assert (e.file, e.line, e.element) == (
        str(path) if how != "loads" else "evil.urdf",
        line,
        element,
    )
    assert what in str(e) and "If and only if you trust this file" in str(e)
    assert "xacro=True (--xacro on the command line)" in str(e)
    assert str(e).startswith(f"{e.file}:{line}: {element}: this document uses xacro (")


@pytest.mark.parametrize(
    ("text", "line", "element", "shown"),
    [
        pytest.param('<link name="$(env HOME)"/>', 2, "<link>", "'$(env HOME)'", id="env"),
        pytest.param(
            '<xacro:include filename="/etc/passwd"/>',
            2,
            "<xacro:include>",
            "<xacro:include>",
            id="include-absolute",
        ),
        pytest.param(
            '<link name="a"><visual><geometry>\n<mesh filename="$(find /etc)/passwd"/>'
            "</geometry></visual></link>",
            3,
            "<mesh>",
            "'$(find /etc)'",
            id="find-absolute",
        ),
        pytest.param(
            '<link name="a"><visual><geometry><mesh filename="$(find ..)/x.stl"/>'
            "</geometry></visual></link>",
            2,
            "<mesh>",
            "'$(find ..)'",
            id="find-parent",
        ),
        pytest.param('<link name="$(eval 1 + 1)"/>', 2, "<link>", "'$(eval 1 + 1)'", id="eval"),
        pytest.param(
            '<link name="a">\n  <visual>\n    <origin xyz="0 0 0"\n      rpy="${pi} 0 0"/>'
            "<geometry><box size='1 1 1'/></geometry></visual></link>",
            5,
            "<origin>",
            "'${pi}' in the attribute rpy",
            id="attribute-on-a-later-line",
        ),
        pytest.param(
            '<link name="a">\n  <visual>\n    <origin xyz="${a} 0 0"\n      rpy="0 0 0"/>'
            "<geometry><box size='1 1 1'/></geometry></visual></link>",
            4,
            "<origin>",
            "'${a}' in the attribute xyz",
            id="attribute-on-the-first-line-of-a-tag",
        ),
        pytest.param(
            '<link name="a"/><gazebo reference="a">x ${y} z</gazebo>',
            2,
            "<gazebo>",
            "'${y}'",
            id="text",
        ),
        pytest.param(
            '<link name="a"/><gazebo reference="a"><x/>\n\n tail $(arg t)</gazebo>',
            4,
            "<gazebo>",
            "'$(arg t)' in the text",
            id="tail",
        ),
    ],
)
def test_xacro_in_a_urdf_is_refused_before_xacro_is_called(
    tmp_path: Path, xacro_calls: list[str], text: str, line: int, element: str, shown: str
) -> None:
    path = write(tmp_path, "robot.urdf", f'<robot name="r" xmlns:xacro="{NS}">\n{text}\n</robot>')
    with pytest.raises(XacroNotExpandedError) as info:
        ru.load(path)
    assert (info.value.file, info.value.line, info.value.element) == (str(path), line, element)
    assert shown in info.value.reason and "xacro=True" in info.value.reason
    with pytest.raises(XacroNotExpandedError, match="xacro=False"):
        ru.load(path, xacro=False)
    # Without the namespace declaration too (xacro expands ${...} and $(...) anyway).
    bare = f'<robot name="r">\n{text.replace("xacro:include", "include")}\n</robot>'
    if "xacro:" not in text:
        with pytest.raises(XacroNotExpandedError) as info:
            ru.loads(bare)
        assert (info.value.line, info.value.element) == (line, element)
    assert xacro_calls == []


def test_an_undeclared_xacro_prefix_is_xacro_too(tmp_path: Path, xacro_calls: list[str]) -> None:
    # xacro reads <xacro:...> elements by their name; plain XML would fail on the prefix.
    text = '<robot name="r">\n<link name="a"/>\n<xacro:include filename="/etc/passwd"/></robot>'
    with pytest.raises(XacroNotExpandedError) as info:
        ru.load(write(tmp_path, "r.urdf", text))
    assert (info.value.line, info.value.element) == (3, "<xacro:include>")
    assert xacro_calls == []


def test_a_plain_urdf_declaring_the_namespace_loads_without_xacro(
    tmp_path: Path, xacro_calls: list[str]
) -> None:
    """A URDF that declares the xacro namespace and uses no xacro (as talos, panda and anymal
    are shipped) is plain URDF: read without calling xacro, whatever ``xacro`` says."""
    plain = arm_urdf("l_", 1.0)
    text = (
        '<?xml version="1.0"?>\n<!-- made by xacro from ${file}: $(arg x) in a comment -->\n'
        + plain.replace('<robot name="arm">', f'<robot name="arm" xmlns:xacro="{NS}">')
    )
    path = write(tmp_path, "talos.urdf", text)
    expected = ru.loads(plain)
    assert ru.load(path) == expected
    assert ru.load(path, xacro=False) == expected
    assert ru.loads(text) == expected
    assert xacro_calls == []


def test_xacro_files_expand_by_default_and_other_files_on_request(tmp_path: Path) -> None:
    text = ARM.format(ns=NS)
    expected = ru.loads(arm_urdf("left_", 0.5))
    assert ru.load(write(tmp_path, "arm.urdf.xacro", text)) == expected
    assert ru.loads(text, filename="arm.xacro") == expected
    urdf = write(tmp_path, "arm.urdf", text)
    with pytest.raises(XacroNotExpandedError, match=r"arm\.urdf:3: <xacro:arg>: "):
        ru.load(urdf)
    assert ru.load(urdf, xacro=True) == expected
    assert ru.loads(text, xacro=True) == expected
    # No namespace declaration: xacro still expands ${...} and $(arg) when asked.
    bare = '<robot name="$(arg n)"><link name="${2 * 3}"/></robot>'
    with pytest.raises(XacroNotExpandedError, match=r"'\$\(arg n\)' in the attribute name"):
        ru.loads(bare)
    model = ru.loads(bare, xacro=True, xacro_args={"n": "six"})
    assert (model.name, list(model.link_names)) == ("six", ["6"])


def test_env_substitutions_work_in_a_requested_expansion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROBOMODEL_TEST_SIDE", "left")
    monkeypatch.delenv("ROBOMODEL_TEST_UNSET", raising=False)
    text = (
        f'<robot name="r" xmlns:xacro="{NS}"><link name="$(env ROBOMODEL_TEST_SIDE)_a"/>'
        '<link name="$(optenv ROBOMODEL_TEST_UNSET b)"/><joint name="j" type="fixed">'
        '<parent link="left_a"/><child link="b"/></joint></robot>'
    )
    path = write(tmp_path, "env.urdf", text)
    with pytest.raises(XacroNotExpandedError, match="ROBOMODEL_TEST_SIDE"):
        ru.load(path)
    model = ru.load(path, xacro=True, options=ru.LoadOptions(remove_fake_links=False))
    assert list(model.link_names) == ["left_a", "b"]


@pytest.mark.parametrize(
    ("pkg", "why"),
    [
        ("$(find /etc)", "not a package name"),
        ("$(find ..)", "not a package name"),
        ("$(find .)", "not a package name"),
        ("$(find good/..)", "not a package name"),
        ("$(find good/../..)", "not a package name"),
        ("$(find a\\b)", "not a package name"),
        ("$(find out)", "leaves the package directory"),
    ],
)
def test_find_answers_only_with_folders_inside_the_package_dirs(
    tmp_path: Path, pkg: str, why: str
) -> None:
    pkgs = tmp_path / "pkgs"
    (pkgs / "good" / "meshes").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (pkgs / "out").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    text = (
        f'<robot name="r" xmlns:xacro="{NS}"><link name="a"><visual><geometry>'
        f'<mesh filename="{pkg}/x.stl"/></geometry></visual></link></robot>'
    )
    path = write(tmp_path, "r.urdf.xacro", text)
    with pytest.raises(URDFXacroError, match=why) as info:
        ru.load(path, package_dirs=[pkgs])
    assert info.value.file == str(path) and "$(find" in str(info.value)
    # A package folder inside the directory is found, also through a link that stays inside.
    (pkgs / "alias").symlink_to(pkgs / "good", target_is_directory=True)
    for name in ("good", "alias"):
        ok = text.replace(pkg, f"$(find {name})")
        model = ru.loads(ok, filename="ok.xacro", package_dirs=[pkgs])
        mesh = model.visuals[0][0].geometry
        assert mesh.filename == f"{pkgs / name}/x.stl"  # type: ignore[union-attr]


def test_find_refuses_what_is_not_one_path_component(tmp_path: Path) -> None:
    """What ``$(find)`` cannot pass through xacro's parser (an empty name, a non-string)."""
    from robomodel.formats.urdf._xacro import _package_dir

    (tmp_path / "pkg").mkdir()
    assert _package_dir("pkg", [str(tmp_path)]) == str(tmp_path / "pkg")
    for bad in ("", ".", "..", "/", "/etc", "a/b", "a\\b", "pkg\0", 1, None):
        with pytest.raises(LookupError, match="not a package name"):
            _package_dir(bad, [str(tmp_path)])


def test_xacro_written_with_references_or_in_utf16_is_found(xacro_calls: list[str]) -> None:
    """xacro sees a character reference as its character, and reads any XML encoding."""
    reference = '<robot name="r">\n<link name="&#36;{1 + 1}"/></robot>'
    with pytest.raises(XacroNotExpandedError, match=r"'\${1 \+ 1}' in the attribute name"):
        ru.loads(reference)
    utf16 = '<?xml version="1.0" encoding="UTF-16"?>\n<robot name="r">\n<link name="${2}"/></robot>'
    with pytest.raises(XacroNotExpandedError) as info:
        ru.loads(utf16.encode("utf-16"))
    assert (info.value.line, info.value.element) == (3, "<link>")
    assert xacro_calls == []
