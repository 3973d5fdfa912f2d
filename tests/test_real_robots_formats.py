"""The reader is chosen by what a file holds, not by its name.

A URDF file named ``.xml`` used to be compiled by MuJoCo as MJCF (MuJoCo accepts URDF and
fuses it into another robot). Now the root element decides (``<robot>`` URDF, ``<mujoco>``
MJCF, ``<sdf>`` SDFormat), ``--from FORMAT`` overrides it, and an extension that says another
format is a warning naming the file.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import icub_models
import pytest
from hypothesis import given
from hypothesis import strategies as st

from robomodel.cli import main
from robomodel.errors import CLIError, MJCFError, RobomodelWarning
from robomodel.formats import detect, mjcf, table, urdf
from robomodel.formats import json as rm_json

ICUB = Path(icub_models.get_model_file("iCubGazeboV2_7"))
PROLOGS = [
    "",
    '<?xml version="1.0" encoding="utf-8"?>\n',
    "<!-- a licence\n<robot> inside a comment -->\n",
    '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n',
    "<?xml-stylesheet href='x'?>  \n\t",
]


@given(
    st.sampled_from(["", "\ufeff"]),
    st.lists(st.sampled_from(PROLOGS), max_size=4),
    st.sampled_from(sorted(detect.ROOT_FORMATS)),
)
def test_root_element_skips_every_prolog(bom: str, prolog: list[str], root: str) -> None:
    # The byte order mark may only come first.
    data = (bom + "".join(prolog) + f'<{root} name="x"><link/></{root}>').encode()
    assert detect.root_element(data) == root
    assert detect.content_format(data) == detect.ROOT_FORMATS[root]


def test_root_element_expands_no_entity_and_reads_no_external_document() -> None:
    # A billion-laughs document and an external entity: scanning the prolog touches neither.
    laughs = "".join(f'<!ENTITY l{i} "{f"&l{i - 1};" * 10}">' for i in range(1, 10))
    external = '<!ENTITY x SYSTEM "/dev/zero">'
    data = f'<!DOCTYPE m [<!ENTITY l0 "lol">{laughs}{external}]><mujoco>&l9;&x;</mujoco>'
    assert detect.content_format(data.encode()) == "mjcf"
    assert detect.content_format(b"<!-- never closed <robot>") is None
    assert detect.content_format(b"\x00\x01binary") is None


def _warned(path: Path, requested: str | None = None) -> tuple[str, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        name = table.format_for_input(path, requested).name
    return name, [str(w.message) for w in caught if issubclass(w.category, RobomodelWarning)]


def test_a_urdf_named_xml_is_read_as_urdf_with_a_warning(tmp_path: Path) -> None:
    xml = tmp_path / "icub.xml"
    shutil.copy(ICUB, xml)
    name, said = _warned(xml)
    assert name == "urdf"
    assert len(said) == 1 and str(xml) in said[0] and "'.xml'" in said[0] and "mjcf" in said[0]
    # The right extension: no warning; an extension no format claims (.xacro, .txt): none.
    assert _warned(ICUB) == ("urdf", [])
    txt = tmp_path / "icub.txt"
    shutil.copy(ICUB, txt)
    assert _warned(txt) == ("urdf", [])
    # --from wins without a word.
    assert _warned(xml, "urdf") == ("urdf", [])
    assert _warned(xml, "mjcf") == ("mjcf", [])


def test_the_command_reads_a_urdf_named_xml_as_the_same_robot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xml = tmp_path / "icub.xml"
    shutil.copy(ICUB, xml)
    out = tmp_path / "out.json"
    assert main(["convert", str(xml), str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and str(xml) in err
    assert rm_json.load(out) == urdf.load(ICUB)
    # Forced through MuJoCo's reader, the URDF is refused with the file named, not fused.
    assert main(["info", str(xml), "--from", "mjcf"]) == 2
    err = capsys.readouterr().err
    assert str(xml) in err and "<robot>" in err


def test_mjcf_json_and_sdf_content_under_other_names(tmp_path: Path) -> None:
    text = (
        '<mujoco><worldbody><body name="a"><joint name="j"/><geom size="0.1"/></body>'
        "</worldbody></mujoco>"
    )
    wrong = tmp_path / "model.urdf"
    wrong.write_text(text)
    name, said = _warned(wrong)
    assert name == "mjcf" and len(said) == 1 and str(wrong) in said[0]
    js = tmp_path / "model.xml"
    js.write_text(rm_json.dumps(urdf.load(ICUB)))
    assert _warned(js)[0] == "json"
    sdf = tmp_path / "model.sdf"
    sdf.write_text('<?xml version="1.0"?><sdf version="1.9"><model name="m"/></sdf>')
    if any(f.name == "sdf" for f in table.FORMATS):
        assert _warned(sdf)[0] == "sdf"
    else:
        with pytest.raises(CLIError, match=r"model\.sdf.*<sdf>"):
            table.format_for_input(sdf)


def test_the_mjcf_reader_refuses_urdf_text() -> None:
    with pytest.raises(MJCFError, match="<robot>"):
        mjcf.loads(ICUB.read_text())


def test_to_dh_takes_the_long_spelling(capsys: pytest.CaptureFixture[str]) -> None:
    # to-dh's --from is the chain's root frame; the format is --from-format there.
    assert (
        main(
            [
                "to-dh",
                str(ICUB),
                "--from-format",
                "urdf",
                "--from",
                "r_shoulder_1",
                "--to",
                "r_hand",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out
