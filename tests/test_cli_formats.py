"""Honest formats: the command writes a format only under an extension that stands for it.

``convert a.urdf out.dae`` used to write URDF text into ``out.dae`` and exit 0. Now the format
comes from ``--to`` or the extension, an extension robomodel cannot write is refused (status 2,
one line) before anything is read or written, and a new format is one entry of
``robomodel.formats.table.FORMATS``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import icub_models
import pytest
from test_cli import assert_one_line_error, run

import robomodel.formats.urdf
from robomodel.cli import main
from robomodel.formats import json as rm_json
from robomodel.formats import table as _formats
from robomodel.testing import assert_models_close

ICUB = icub_models.get_model_file("iCubGazeboV2_7")


def test_convert_refuses_an_extension_it_cannot_write(tmp_path: Path) -> None:
    out = tmp_path / "out.dae"
    p = run("convert", str(ICUB), str(out))
    assert_one_line_error(p, "out.dae", "'.dae'", ".urdf", ".json", "--to")
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left either


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["convert", "example", "{dir}/robot.dae"], ("'.dae'",)),
        (["convert", "example", "{dir}/robot"], ("without an extension",)),
        (["convert", "example", "{dir}/robot.json", "--to", "urdf"], ("says json", "--to")),
        (["convert", "example", "{dir}/robot.urdf", "--to", "json"], ("says urdf",)),
        (["reduce", "--joints", "l_knee", "-o", "{dir}/leg.obj"], ("'.obj'",)),
        (["from-dh", "--icub", "arm", "right_v2.7", "-o", "{dir}/arm.dae"], ("'.dae'",)),
    ],
)
def test_every_model_writer_refuses_wrong_formats(
    tmp_path: Path, args: list[str], words: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([a.format(dir=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and all(w in err[0] for w in words), err
    assert list(tmp_path.iterdir()) == []


def test_unknown_format_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["convert", "example", "-", "--to", "dae"])
    assert e.value.code == 2
    assert "invalid choice: 'dae'" in capsys.readouterr().err


def test_to_chooses_the_format_for_any_other_name(tmp_path: Path) -> None:
    out = tmp_path / "robot.txt"
    assert main(["convert", str(ICUB), str(out), "--to", "json"]) == 0
    assert json.loads(out.read_text())["format"] == "robomodel"
    assert_models_close(rm_json.loads(out.read_text()), robomodel.formats.urdf.load(ICUB))
    urdf_out = tmp_path / "robot.model"
    assert main(["convert", str(ICUB), str(urdf_out), "--to", "urdf"]) == 0
    assert_models_close(robomodel.formats.urdf.load(urdf_out), robomodel.formats.urdf.load(ICUB))


def test_the_reader_follows_the_content(tmp_path: Path) -> None:
    """A file no format claims is read as what it holds: JSON text in robot.txt is JSON; text
    that is no model at all is bad input naming the file."""
    out = tmp_path / "robot.txt"
    assert main(["convert", "example", str(out), "--to", "json"]) == 0
    p = run("info", str(out))
    assert p.returncode == 0 and not p.stderr, p.stderr
    out.write_text("not a model")
    assert_one_line_error(run("info", str(out)), "robot.txt")


@pytest.mark.parametrize("name", ["iCubGazeboV2_7", "left_hand_mk3"])
def test_extensions_choose_the_format_both_ways(name: str, tmp_path: Path) -> None:
    src = icub_models.get_model_file(name)
    js, back = tmp_path / f"{name}.JSON", tmp_path / f"{name}.urdf"
    assert main(["convert", str(src), str(js)]) == 0
    assert js.read_text().startswith('{"format": "robomodel"')
    assert main(["convert", str(js), str(back)]) == 0
    assert back.read_text().lstrip().startswith("<?xml")
    assert_models_close(robomodel.formats.urdf.load(back), robomodel.formats.urdf.load(src))


def test_a_new_format_is_one_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A format registered in FORMATS is offered by --to, chosen by its extension, read back."""
    (tmp_path / "fakefmt.py").write_text(
        "from robomodel.formats import json as rm_json\n"
        "def dumps(model):\n    return 'FAKE ' + rm_json.dumps(model)\n"
        "def loads(text):\n    return rm_json.loads(text.removeprefix('FAKE '))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    entry = _formats.ModelFormat(
        name="fake", extensions=(".fk",), module="fakefmt", description="a test format"
    )
    monkeypatch.setattr(_formats, "FORMATS", (*_formats.FORMATS, entry))
    out = tmp_path / "robot.fk"
    assert main(["convert", str(ICUB), str(out)]) == 0
    assert out.read_text().startswith("FAKE {")
    assert main(["convert", str(out), "-", "--to", "json"]) == 0
    assert_models_close(rm_json.loads(capsys.readouterr().out), robomodel.formats.urdf.load(ICUB))
    with pytest.raises(SystemExit):
        main(["convert", "--help"])
    assert ".fk" in capsys.readouterr().out
    sys.modules.pop("fakefmt", None)
