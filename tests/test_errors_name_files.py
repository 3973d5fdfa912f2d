"""Every reader's error names the file it read (and the line, for XML formats).

Broken files of each format are written to disk and read through the library's ``load``; the
error must be a robomodel error whose message holds the file's name, and for URDF and MJCF
(XML with lines) a ``name:line`` where the broken element is. Only the library's own reading is
exercised here, in this process; ``tests/test_hostile_files.py`` covers FIFOs, devices and
anything that could hang, each in a child process with a timeout.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from robomodel.errors import RobomodelError
from robomodel.formats import json as rjson
from robomodel.formats import urdf

_INERTIAL = (
    '<inertial><mass value="1"/>'
    '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'
)


def _urdf(body: str) -> str:
    return f'<?xml version="1.0"?>\n<robot name="r">\n{body}\n</robot>\n'


_LINK_A = f'<link name="a">{_INERTIAL}</link>'
_LINK_B = f'<link name="b">{_INERTIAL}</link>'

BROKEN_URDF: dict[str, tuple[str | bytes, int | None]] = {
    # name: (content, line of the broken element or None when there is no element)
    "truncated": (_urdf(_LINK_A)[:-12], None),
    "empty": ("", None),
    "not-utf8": (b'<robot name="r"><link name="\xff"/></robot>', None),
    "wrong-root": ('<?xml version="1.0"?>\n<model name="r"/>\n', None),
    "bad-number": (
        _urdf(f'{_LINK_A}\n<link name="b"><inertial><mass value="1.x"/></inertial></link>'),
        4,
    ),
    "nan-mass": (
        _urdf(f'{_LINK_A}\n<link name="b"><inertial><mass value="nan"/></inertial></link>'),
        4,
    ),
    "unknown-child": (
        _urdf(
            f'{_LINK_A}\n<joint name="j" type="fixed"><parent link="a"/><child link="zz"/></joint>'
        ),
        4,
    ),
    "duplicate-link": (_urdf(f"{_LINK_A}\n{_LINK_A}"), 4),
    "bad-joint-type": (
        _urdf(
            f'{_LINK_A}\n{_LINK_B}\n<joint name="j" type="twisty"><parent link="a"/>'
            '<child link="b"/></joint>'
        ),
        5,
    ),
    "zero-axis": (
        _urdf(
            f'{_LINK_A}\n{_LINK_B}\n<joint name="j" type="revolute"><parent link="a"/>'
            '<child link="b"/><axis xyz="0 0 0"/><limit effort="1" velocity="1"/></joint>'
        ),
        5,
    ),
    "rpy-count": (
        _urdf(
            f'{_LINK_A}\n{_LINK_B}\n<joint name="j" type="fixed"><parent link="a"/>'
            '<child link="b"/><origin rpy="0 0"/></joint>'
        ),
        5,
    ),
}


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _check(exc: BaseException, path: Path, line: int | None) -> None:
    assert isinstance(exc, RobomodelError), f"{type(exc).__name__}: {exc}"
    assert path.name in str(exc), str(exc)
    if line is not None:  # "file:LINE:" (robomodel's XML readers) or MuJoCo's "line LINE"
        where = rf"{re.escape(path.name)}:({line}\b|.*\bline {line}\b)"
        assert re.search(where, str(exc)), str(exc)


@pytest.mark.parametrize("case", sorted(BROKEN_URDF))
def test_urdf_errors_name_the_file_and_line(tmp_path: Path, case: str) -> None:
    content, line = BROKEN_URDF[case]
    path = _write(tmp_path, f"broken-{case}.urdf", content)
    with pytest.raises(Exception) as e:
        urdf.load(path)
    _check(e.value, path, line)


_BODY = (
    '<worldbody><body name="a"><joint name="j" axis="0 0 1"/>'
    '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody>'
)

BROKEN_MJCF: dict[str, tuple[str | bytes, int | None]] = {
    "truncated": (f"<mujoco>{_BODY}</mujo", None),
    "empty": ("", None),
    "not-utf8": (b"<mujoco><worldbody><body name='\xff'/></worldbody></mujoco>", None),
    "bad-number": (
        '<mujoco>\n<worldbody>\n<body name="a" pos="1 x 0">\n'
        '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>',
        3,
    ),
    "unknown-joint-type": (
        '<mujoco>\n<worldbody>\n<body name="a">\n<joint name="j" type="twisty"/>\n'
        '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>',
        4,
    ),
    "missing-include": ('<mujoco>\n<include file="nowhere.xml"/>\n</mujoco>', None),
    "negative-mass": (
        '<mujoco>\n<worldbody>\n<body name="a">\n<joint name="j"/>\n'
        '<inertial pos="0 0 0" mass="-1" diaginertia="1 1 1"/></body></worldbody></mujoco>',
        None,
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN_MJCF))
def test_mjcf_errors_name_the_file(tmp_path: Path, case: str) -> None:
    pytest.importorskip("mujoco")
    from robomodel.formats import mjcf

    content, line = BROKEN_MJCF[case]
    path = _write(tmp_path, f"broken-{case}.xml", content)
    with pytest.raises(Exception) as e:
        mjcf.load(path)
    _check(e.value, path, line)


def _good_json() -> dict[str, object]:
    import json

    import robomodel as rm

    m = rm.add_link(rm.Model(), "a", rm.Link(rm.SpatialInertia(1.0)))
    out: dict[str, object] = json.loads(rjson.dumps(m))
    return out


def _json_cases() -> dict[str, str | bytes]:
    import json

    good = _good_json()
    link = good["links"][0]  # type: ignore[index]
    return {
        "truncated": rjson.dumps(
            __import__("robomodel").add_link(__import__("robomodel").Model(), "a")
        )[:-5],
        "empty": "",
        "not-utf8": b'{"format": "\xff"}',
        "not-an-object": "[1, 2, 3]",
        "wrong-type": json.dumps({**good, "links": [{**link, "mass": "heavy"}]}),
        "missing-key": json.dumps({k: v for k, v in good.items() if k != "links"}),
        "nan": json.dumps({**good, "links": [{**link, "mass": float("nan")}]}),
        "future-version": json.dumps({**good, "version": 10**6}),
    }


@pytest.mark.parametrize("case", sorted(_json_cases()))
def test_json_errors_name_the_file(tmp_path: Path, case: str) -> None:
    path = _write(tmp_path, f"broken-{case}.json", _json_cases()[case])
    with pytest.raises(Exception) as e:
        rjson.load(path)
    _check(e.value, path, None)


def _stl_header(count: int) -> bytes:
    return b"\0" * 80 + struct.pack("<I", count)


BROKEN_MESHES: dict[str, tuple[str, bytes]] = {
    "garbage": ("bad.stl", b"garbage that is no mesh"),
    "cut-short": ("bad.stl", _stl_header(3) + b"\1" * 20),
    "empty": ("bad.stl", b""),
    "obj-index": ("bad.obj", b"v 0 0 0\nf 1 2 3\n"),
    "unknown-format": ("bad.xyz", b"0 0 0\n"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_MESHES))
def test_mesh_errors_name_the_file(tmp_path: Path, case: str) -> None:
    pytest.importorskip("trimesh")
    import robomodel as rm
    from robomodel.formats import meshes

    name, content = BROKEN_MESHES[case]
    path = _write(tmp_path, f"{case}-{name}", content)
    with pytest.raises(Exception) as e:
        meshes.load_mesh(rm.Mesh(filename=path.name), base_dir=str(tmp_path))
    _check(e.value, path, None)


BROKEN_DH = {
    "not-a-number": "numLinks 1\nlink_0 (A x) (D 0) (alpha 0) (offset 0) (min 0) (max 1)\n",
    "missing-link": "numLinks 2\nlink_0 (A 0) (D 0) (alpha 0) (offset 0) (min 0) (max 1)\n",
    "empty": "",
}


@pytest.mark.parametrize("case", sorted(BROKEN_DH))
def test_dh_errors_name_the_file(tmp_path: Path, case: str) -> None:
    from robomodel.formats import dh

    path = _write(tmp_path, f"broken-{case}.ini", BROKEN_DH[case])
    with pytest.raises(Exception) as e:
        dh.load(path)
    _check(e.value, path, None)
