"""Hostile files: each route a file takes gives a robomodel error naming it, never a hang.

Each hostile load runs in a fresh interpreter with a timeout, so that a regression (a FIFO read
again, a parser recursing forever) fails the test instead of hanging the run. The child prints
the exception's class names and message as JSON; the tests check that the error is a
:class:`~robomodel.errors.RobomodelError` and that its message names the file.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mujoco")

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 20.0

_CHILD = """
import json, sys, warnings
warnings.simplefilter("ignore")
try:
    result = None
{body}
    print(json.dumps({{"ok": True, "result": result}}))
except BaseException as e:
    print(json.dumps({{"ok": False, "mro": [c.__name__ for c in type(e).__mro__], "msg": str(e)}}))
"""


def attempt(body: str, cwd: Path) -> dict[str, Any]:
    """Run ``body`` in a fresh interpreter (timeout ``TIMEOUT``); return what it printed."""
    code = _CHILD.format(body=textwrap.indent(textwrap.dedent(body), "    "))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung for more than {TIMEOUT} s:\n{body}")
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr
    out: dict[str, Any] = json.loads(lines[-1])
    return out


def refused(body: str, cwd: Path, *names: str) -> str:
    """Assert that ``body`` raises a robomodel error whose message contains every ``names``."""
    out = attempt(body, cwd)
    assert not out["ok"], out
    assert "RobomodelError" in out["mro"], out
    for name in names:
        assert name in out["msg"], out
    msg: str = out["msg"]
    return msg


URDF_MESH = """<robot name="r"><link name="a"><inertial><mass value="1"/>
<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry><mesh filename="{mesh}"/></geometry></collision></link></robot>"""

MJCF_BODY = """<worldbody><body name="a"><joint name="j" axis="0 0 1"/>
<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody>"""


def mjcf(inner: str = "", *, head: str = "") -> str:
    return f"<mujoco>{head}{inner}{MJCF_BODY}</mujoco>"


# ----------------------------------------------------------------------------- FIFOs


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    path = tmp_path / "pipe.stl"
    os.mkfifo(path)
    return path


def test_fifo_mesh_in_load_mesh(tmp_path: Path, fifo: Path) -> None:
    """load_mesh refuses a FIFO named as a mesh instead of blocking on it."""
    (tmp_path / "r.urdf").write_text(URDF_MESH.format(mesh="pipe.stl"))
    refused(
        """
        import robomodel.formats.urdf as u, robomodel.formats.meshes as me
        m = u.load("r.urdf")
        me.load_mesh(m.collision_shapes("a")[0].geometry, base_dir=".")
        """,
        tmp_path,
        "pipe.stl",
        "regular file",
    )


def test_fifo_mesh_in_check_meshes_and_cli(tmp_path: Path, fifo: Path) -> None:
    """check_meshes reports a FIFO mesh as a problem; validate and info end."""
    (tmp_path / "r.urdf").write_text(URDF_MESH.format(mesh="pipe.stl"))
    out = attempt(
        """
        import robomodel.formats.meshes as me
        from robomodel.formats.urdf import load_with_report
        model, report = load_with_report("r.urdf")
        result = [str(p) for p in me.check_meshes(model, origins=report.sources)]
        """,
        tmp_path,
    )
    assert out["ok"] and len(out["result"]) == 1 and "regular file" in out["result"][0], out
    for command in ("validate", "info"):
        code = f"from robomodel.cli import main; main([{command!r}, 'r.urdf'])"
        attempt(code, tmp_path)  # any outcome but a hang


def test_fifo_mesh_in_inertia(tmp_path: Path, fifo: Path) -> None:
    """with_inertias_from_shapes refuses a FIFO mesh with a ModelError naming it."""
    pytest.importorskip("trimesh")
    (tmp_path / "r.urdf").write_text(URDF_MESH.format(mesh="pipe.stl"))
    refused(
        """
        import robomodel.formats.urdf as u
        from robomodel.physics.inertia import with_inertias_from_shapes
        with_inertias_from_shapes(u.load("r.urdf"), density=1000.0)
        """,
        tmp_path,
        "pipe.stl",
    )


@pytest.mark.parametrize(
    ("head", "element"),
    [
        ('<include file="pipe.stl"/>', "<include file='pipe.stl'>"),
        ('<asset><mesh name="m" file="pipe.stl"/></asset>', "<mesh file='pipe.stl'>"),
        (
            '<compiler meshdir="sub/.."/><asset><mesh name="m" file="pipe.stl"/></asset>',
            "<mesh file='pipe.stl'>",
        ),
        ('<asset><texture name="t" type="2d" file="pipe.stl"/></asset>', "<texture file="),
        ('<asset><hfield name="h" file="pipe.stl"/></asset>', "<hfield file="),
    ],
)
def test_fifo_opened_by_mujoco(tmp_path: Path, fifo: Path, head: str, element: str) -> None:
    """A FIFO MuJoCo would open is refused before MuJoCo sees the document."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "m.xml").write_text(mjcf(head=head))
    msg = refused("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, element, "FIFO")
    assert msg.startswith("m.xml: ")


def test_fifo_include_from_a_string_and_an_absolute_path(tmp_path: Path, fifo: Path) -> None:
    """A string document resolves includes in the working directory; absolute paths too."""
    text = mjcf(head=f'<include file="{fifo}"/>')
    msg = refused(f"import robomodel.formats.mjcf as x; x.loads({text!r})", tmp_path, "FIFO")
    assert msg.startswith("<string>: ")


def test_fifo_nested_include(tmp_path: Path, fifo: Path) -> None:
    """An include of an include is checked too (the directory is the main file's)."""
    (tmp_path / "inner.xml").write_text('<mujoco><include file="pipe.stl"/></mujoco>')
    (tmp_path / "m.xml").write_text(mjcf(head='<include file="inner.xml"/>'))
    refused("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, "m.xml", "FIFO")


def test_fifo_as_the_mjcf_file(tmp_path: Path, fifo: Path) -> None:
    refused("import robomodel.formats.mjcf as x; x.load('pipe.stl')", tmp_path, "pipe.stl")


def test_directory_as_mesh_and_include(tmp_path: Path) -> None:
    (tmp_path / "d.stl").mkdir()
    for head in ('<include file="d.stl"/>', '<asset><mesh name="m" file="d.stl"/></asset>'):
        (tmp_path / "m.xml").write_text(mjcf(head=head))
        refused("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, "m.xml", "d.stl")


def test_device_as_mesh(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    (tmp_path / "m.xml").write_text(mjcf(head='<asset><mesh name="m" file="/dev/zero"/></asset>'))
    refused("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, "m.xml", "device")


# ----------------------------------------------------------------------------- bytes and names


def test_non_utf8_mjcf(tmp_path: Path) -> None:
    (tmp_path / "m.xml").write_bytes(mjcf().encode() + b"<!-- \xff\xfe -->")
    refused("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, "m.xml", "UTF-8")


def test_mujoco_errors_name_the_file(tmp_path: Path) -> None:
    """Errors of MuJoCo's compiler carry the file too (a missing include, a broken document)."""
    (tmp_path / "m.xml").write_text(mjcf(head='<include file="missing.xml"/>'))
    msg = refused("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, "missing.xml")
    assert msg.startswith("m.xml: ")
    (tmp_path / "b.xml").write_text("<mujoco><worldbody>")
    msg = refused("import robomodel.formats.mjcf as x; x.load('b.xml')", tmp_path)
    assert msg.startswith("b.xml: ")


def test_nul_in_mesh_uri_on_export(tmp_path: Path) -> None:
    """A NUL in a mesh URI drops the mesh with a report entry instead of a bare ValueError."""
    (tmp_path / "r.urdf").write_text(URDF_MESH.format(mesh="file:///x%00.stl"))
    out = attempt(
        """
        import robomodel.formats.urdf as u, robomodel.formats.mjcf as x
        text, report = x.dumps_with_report(u.load("r.urdf"))
        result = [str(loss) for loss in report.losses]
        """,
        tmp_path,
    )
    assert out["ok"], out
    assert any("is not a regular file" in loss for loss in out["result"]), out


def test_includes_outside_the_model_directory_are_allowed(tmp_path: Path) -> None:
    """MuJoCo's semantics, documented in docs/mjcf.md: ``..`` and absolute includes are read."""
    (tmp_path / "shared.xml").write_text('<mujoco><option timestep="0.001"/></mujoco>')
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "m.xml").write_text(mjcf(head='<include file="../shared.xml"/>'))
    out = attempt(
        "import robomodel.formats.mjcf as x; result = list(x.load('model/m.xml').joint_names)",
        tmp_path,
    )
    assert out == {"ok": True, "result": ["j"]}


# ----------------------------------------------------------------------------- metadata


def _with_metadata(data: str) -> str:
    value = data.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return mjcf(head=f'<custom><text name="robomodel" data="{value}"/></custom>')


@pytest.mark.parametrize(
    "data",
    [
        '{"sensor_sites": [[1]]}',
        '{"sensor_sites": 3}',
        '{"force_torque": {"s": {"first": [], "second": {}}}}',
        '{"robot_materials": [1, [2], {"rgba": "x"}]}',
        '{"limits": {"j": [[], {}, 3]}}',
        '{"package_dirs": [1]}',
        '{"world": 3, "base": [], "name": {}}',
        '{"merged": {"a": [["x", [1, 2]]]}}',
        "[" * 100000 + "]" * 100000,
        '{"a": ' * 50000 + "1" + "}" * 50000,
        "not json",
    ],
    ids=lambda data: data[:40],
)
def test_hostile_metadata_loads_or_names_the_file(tmp_path: Path, data: str) -> None:
    """Wrong-typed or deeply nested metadata loads (the entry is dropped) or names the file."""
    (tmp_path / "m.xml").write_text(_with_metadata(data))
    out = attempt("import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path)
    if not out["ok"]:
        assert "RobomodelError" in out["mro"] and out["msg"].startswith("m.xml: "), out


def test_scaling_transform_in_metadata_is_refused(tmp_path: Path) -> None:
    """A merged link's frame whose rotation is a scaling is refused, naming file and element."""
    text = """<mujoco><worldbody><body name="b">
    <joint name="j1" axis="0 0 1"/><joint name="j2" axis="0 1 0"/>
    <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>"""
    data = json.dumps({"merged": {"b": [["mid", [0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2]]]}})
    value = data.replace('"', "&quot;")
    text = text.replace(
        "<worldbody>", f'<custom><text name="robomodel" data="{value}"/></custom><worldbody>'
    )
    (tmp_path / "m.xml").write_text(text)
    msg = refused(
        "import robomodel.formats.mjcf as x; x.load('m.xml')", tmp_path, "m.xml", "merged", "mid"
    )
    assert "rigid" in msg


# ----------------------------------------------------------------------------- broken meshes


def _binary_stl_header(count: int) -> bytes:
    return b"\0" * 80 + struct.pack("<I", count)


_PLY = (
    b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
    b"property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
    b"0 0 0\n3 0 5 9\n"
)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("bad.stl", b"garbage that is no mesh"),
        ("bad.stl", _binary_stl_header(2**31) + b"\0" * 50),  # claims two billion triangles
        ("bad.stl", _binary_stl_header(3) + b"\1" * 20),  # cut short
        ("bad.stl", b"solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\nendloop\nendsolid\n"),
        ("bad.stl", b""),
        ("bad.obj", b"v 0 0 0\nf 1 2 3\n"),  # faces past the vertices: IndexError in trimesh
        ("bad.ply", _PLY),  # the same in PLY
    ],
    ids=["garbage", "huge-count", "cut-short", "ascii-broken", "empty", "obj-index", "ply-index"],
)
def test_broken_mesh_in_inertia(tmp_path: Path, name: str, content: bytes) -> None:
    """with_inertias_from_shapes gives a ModelError naming a mesh it cannot read."""
    pytest.importorskip("trimesh")
    (tmp_path / name).write_bytes(content)
    (tmp_path / "r.urdf").write_text(URDF_MESH.format(mesh=name))
    refused(
        """
        import robomodel.formats.urdf as u
        from robomodel.physics.inertia import with_inertias_from_shapes
        with_inertias_from_shapes(u.load("r.urdf"), density=1000.0)
        """,
        tmp_path,
        name,
    )


def test_mesh_larger_than_the_bound(tmp_path: Path) -> None:
    """A mesh file above MAX_MESH_BYTES is refused before it is read (a sparse file)."""
    from robomodel.model.mesh_files import MAX_MESH_BYTES

    with open(tmp_path / "big.stl", "wb") as fh:
        fh.truncate(MAX_MESH_BYTES + 1)
    (tmp_path / "r.urdf").write_text(URDF_MESH.format(mesh="big.stl"))
    refused(
        """
        import robomodel.formats.urdf as u, robomodel.formats.meshes as me
        m = u.load("r.urdf")
        me.load_mesh(m.collision_shapes("a")[0].geometry, base_dir=".")
        """,
        tmp_path,
        "big.stl",
        "MAX_MESH_BYTES",
    )


def test_fifo_as_the_model_file_of_the_cli(tmp_path: Path, fifo: Path) -> None:
    """``robomodel validate``/``info`` on a FIFO say so instead of blocking on it."""
    os.rename(fifo, tmp_path / "r.urdf")
    for command in ("validate", "info"):
        code = f"from robomodel.cli import main; result = main([{command!r}, 'r.urdf'])"
        # main reports the CLIError as one line and returns (or exits with) a failure status.
        out = attempt(code, tmp_path)
        assert out.get("result") in (1, 2) or out.get("mro", [""])[0] == "SystemExit", out


def test_export_errors_name_the_file(tmp_path: Path) -> None:
    """A writer error names the target file of ``dump`` and ``<model>`` for ``dumps``."""
    body = """
        import robomodel as rm, robomodel.formats.mjcf as x
        x.{call}
        """
    msg = refused(body.format(call="dumps(rm.Model())"), tmp_path, "no links")
    assert msg.startswith("<model>: ")
    msg = refused(body.format(call="dump(rm.Model(), 'out.xml')"), tmp_path, "no links")
    assert msg.startswith("out.xml: ")


def test_convert_of_a_hostile_mjcf(tmp_path: Path, fifo: Path) -> None:
    """``convert`` reads the MJCF source through the same checks as ``load``."""
    (tmp_path / "bad.xml").write_bytes(b"<mujoco>\xff</mujoco>")
    body = "import robomodel.formats.mjcf as x; x.convert({src!r}, 'out.urdf', to='urdf')"
    refused(body.format(src="bad.xml"), tmp_path, "bad.xml", "UTF-8")
    refused(body.format(src="pipe.stl"), tmp_path, "pipe.stl", "FIFO")
    text = mjcf()
    refused(
        f"import robomodel.formats.mjcf as x; x.loads_with_report({text!r}, path='pipe.stl')",
        tmp_path,
        "pipe.stl",
        "FIFO",
    )


@pytest.mark.parametrize("reader", ["urdf", "json", "dh"])
def test_library_readers_refuse_a_fifo_without_blocking(tmp_path: Path, reader: str) -> None:
    """The library's load() of every format refuses a FIFO (not only the command line)."""
    os.mkfifo(tmp_path / "pipe.model")
    code = f"""
        from robomodel.errors import NotARegularFileError
        from robomodel.formats import {reader} as fmt
        try:
            fmt.load("pipe.model")
        except NotARegularFileError as e:
            result = str(e)
        """
    out = attempt(code, tmp_path)
    assert out["ok"] and "pipe.model" in out["result"] and "regular file" in out["result"], out


def test_json_errors_name_the_file(tmp_path: Path) -> None:
    """A JSON document that is no robomodel model is refused naming its file and the path in it."""
    from robomodel.errors import JSONFormatError
    from robomodel.formats import json as rjson

    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "robomodel", "version": 0}')
    with pytest.raises(JSONFormatError, match=r"bad\.json: robomodel JSON, at \$") as e:
        rjson.load(bad)
    assert e.value.file == str(bad) and e.value.path.startswith("$")
    with pytest.raises(JSONFormatError) as e:
        rjson.loads(bad.read_text())
    assert e.value.file is None


# ------------------------------------------------------------------- USD composition arcs
USD_NAMING = """#usda 1.0
(
    {arcs}
)
def Xform "robot" {prim}
{{
}}
"""


@pytest.mark.parametrize(
    ("arcs", "prim"),
    [
        ("subLayers = [@./pipe.stl@]", ""),
        ("", "(\n    references = @./pipe.stl@\n)"),
        ("", "(\n    payload = @./pipe.stl@\n)"),
        ("subLayers = [@./ok.usda@]", ""),  # a regular layer that itself names the FIFO
        ("subLayers = [@./ok.usda@]", "(\n    references = </other>\n)"),  # and one inside
    ],
    ids=["sublayer", "reference", "payload", "nested", "nested-and-internal"],
)
def test_usd_layers_naming_a_fifo_are_refused(
    tmp_path: Path, fifo: Path, arcs: str, prim: str
) -> None:
    """usd-core would block opening a FIFO a layer names: robomodel checks every composed file
    first. Text given to ``loads`` may not name other files at all."""
    pytest.importorskip("pxr")
    (tmp_path / "ok.usda").write_text(USD_NAMING.format(arcs="subLayers = [@./pipe.stl@]", prim=""))
    (tmp_path / "r.usda").write_text(USD_NAMING.format(arcs=arcs, prim=prim))
    refused("import robomodel.formats.usd as x; x.load('r.usda')", tmp_path, "r.usda", "pipe.stl")
    refused(
        "import robomodel.formats.usd as x; x.loads(open('r.usda').read())",
        tmp_path,
        "<string>",
        "usd.load",
    )
