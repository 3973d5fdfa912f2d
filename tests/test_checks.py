"""One verdict: ``info``, ``validate`` and ``robomodel.model.checks`` judge a model by the same
checks.

Oracles: the URDF text itself, read with ``xml.etree`` (which links are massless, how many
joints touch them), and inertia values written by the tests.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import icub_models
import pytest

import robomodel.formats.urdf
from robomodel import (
    Link,
    Model,
    ModelError,
    RevoluteJoint,
    add_joint_and_link,
    add_link,
    check_model,
)
from robomodel.cli import main
from robomodel.formats import check_file
from robomodel.formats.urdf import load_with_report
from robomodel.model.checks import (
    CHECKS,
    FILE_CHECKS,
    count_text,
    findings,
    locate,
    verdict,
)
from robomodel.model.joints import Mimic, PositionLimits
from robomodel.model.spatial import Axis, Transform
from robomodel.tools.textview import info_text

ROBOTS = icub_models.get_robot_names()
CHECK_NAMES = {c.name for c in (*CHECKS, *FILE_CHECKS)}
# "<element>[ (line N)]: <what, with the values> [<check>]", the element a kind and a quoted name
# (or "model"): "link 'sensor_mount_link' (line 3): inertia violates ... [inertia]".
FINDING = re.compile(r"^(model|[a-z/ ]+ '[^']+'(, '[^']+')*)( \(line \d+\))?: \S.* \[[a-z-]+\]$")


def massless_links(path: Path) -> dict[str, int]:
    """Massless URDF links and how many joints touch them, from the file text."""
    root = ET.parse(path).getroot()
    touching: dict[str, int] = {}
    for joint in root.iter("joint"):
        for end in ("parent", "child"):
            el = joint.find(end)
            if el is not None:
                touching[el.get("link", "")] = touching.get(el.get("link", ""), 0) + 1
    out = {}
    for link in root.iter("link"):
        mass = link.find("inertial/mass")
        if mass is None or float(mass.get("value", "0")) == 0.0:
            out[link.get("name", "")] = touching.get(link.get("name", ""), 0)
    return out


@pytest.mark.parametrize("name", ROBOTS)
def test_info_and_validate_give_one_verdict(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = icub_models.get_model_file(name)
    model, report = load_with_report(path)
    # validate and info also look at the mesh files (package:// here, so one warning that they
    # were not checked); the value's own verdict leaves files out.
    found = findings(model, files=True)
    status = main(["validate", str(path)])
    out = capsys.readouterr().out
    has_errors = any(f.severity == "error" for f in found)
    assert status == (1 if has_errors else 0)
    assert f"{'not valid' if has_errors else 'valid'} ({count_text(found)}" in out
    info = info_text(model)
    assert f"valid:       {'no' if has_errors else 'yes'} ({count_text(found)}" in info
    assert verdict(model).startswith("not valid" if has_errors else "valid")
    # The model's own verdict is the same list.
    assert model.problems() == tuple(f for f in found if f.severity == "error")
    assert model.is_valid() == (not has_errors)
    assert [f for f in found if f.check != "meshes"] == list(model.problems(severity="note"))
    if has_errors:
        with pytest.raises(ModelError, match="not valid"):
            check_model(model)
    else:
        assert check_model(model) is model
    # Every finding names its element, its line in the file when it is a link or a joint, the
    # values, and the check (the mass notes of massless links included).
    located = locate(found, report.sources.lines)
    assert check_file(path) == located
    for f in located:
        assert FINDING.match(str(f)), str(f)
        assert f.check in CHECK_NAMES
        kind, _, name = f.element.partition(" ")
        if kind in ("link", "joint"):
            assert (f.kind, f.name) == (kind, name.strip(chr(39)))
            assert f.line == text_line(path, f'<{kind} name="{name.strip(chr(39))}"'), str(f)
    for line in out.splitlines()[:-1]:
        assert any(line == f"{f.severity}: {f}" for f in located), line


def test_massless_links_in_the_middle_are_notes_not_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """iCubLisboa01 writes massless links between joints; they are notes, the model is valid."""
    path = icub_models.get_model_file("iCubLisboa01")
    inner = {n for n, k in massless_links(path).items() if k > 1}
    assert len(inner) >= 4
    model = robomodel.formats.urdf.load(path)
    found = findings(model)
    assert not model.problems()
    flagged = {f.element.split("'")[1] for f in found if f.check == "mass"}
    assert flagged == inner
    mass = [f for f in found if f.check == "mass"]  # the meshes check warns too (no package dir)
    notes = {f.element.split("'")[1] for f in mass if f.severity == "note"}
    # A massless link with rotational inertia is a warning instead (torso_1 and torso_2 here).
    warned = {f.element.split("'")[1] for f in mass if f.severity == "warning"}
    assert notes | warned == inner and not notes & warned
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "note:" not in out and "--show note lists every one" in out
    assert main(["validate", str(path), "--show", "note"]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("note: ") for line in out.splitlines()) == len(notes)
    assert "massless link between 2 links" in out and "[mass]" in out
    assert main(["validate", str(path), "--strict"]) == (1 if warned else 0)


def test_a_bad_inertia_names_the_check_the_link_and_the_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = icub_models.get_model_file("iCubNancy01")
    bad = [f for f in findings(robomodel.formats.urdf.load(path)) if f.severity == "error"]
    assert {f.element for f in bad} == {"link 'l_ankle_1'", "link 'r_ankle_1'"}
    assert all(f.check == "inertia" and "triangle inequality" in f.message for f in bad)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    line = text_line(path, '<link name="l_ankle_1"')
    assert f"error: link 'l_ankle_1' (line {line}): inertia violates the triangle inequality" in out
    assert "I1 + I2 = 0.0077623 < I3 = 4.76593 kg m^2 [inertia]" in out
    assert main(["info", str(path), "--no-tree"]) == 0  # info reports, it does not fail
    assert "valid:       no (2 errors," in capsys.readouterr().out


def text_line(path: Path, text: str) -> int:
    """The 1-based number of the first line of ``path`` that contains ``text``."""
    lines = path.read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def inertial_urdf(tmp_path: Path, ixx: float, iyy: float, izz: float, mass: float = 1.0) -> Path:
    path = tmp_path / "one.urdf"
    path.write_text(
        f'<robot name="one"><link name="sensor_mount_link"><inertial><mass value="{mass}"/>'
        f'<inertia ixx="{ixx}" ixy="0" ixz="0" iyy="{iyy}" iyz="0" izz="{izz}"/>'
        "</inertial></link></robot>"
    )
    return path


def test_triangle_inequality_on_a_written_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(inertial_urdf(tmp_path, 0.001, 0.001, 0.01))]) == 1
    out = capsys.readouterr().out
    assert (
        "error: link 'sensor_mount_link' (line 1): inertia violates the triangle inequality at "
        "the centre of mass: ixx + iyy = 0.002 < izz = 0.01 kg m^2 [inertia]"
    ) in out
    assert main(["validate", str(inertial_urdf(tmp_path, -0.01, 0.001, 0.001))]) == 1
    assert "not positive semi-definite: principal moments -0.01" in capsys.readouterr().out
    assert main(["validate", str(inertial_urdf(tmp_path, 1, 1, 1, mass=-2))]) == 1
    # The URDF reader refuses a negative mass itself (issue 15), naming the link.
    assert "<mass value=-2.0> is negative; a mass is >= 0" in capsys.readouterr().out
    assert main(["validate", str(inertial_urdf(tmp_path, 0.01, 0.01, 0.01))]) == 0


def test_joint_checks_are_warnings() -> None:
    m = add_link(Model(name="arm"), "base", Link())
    off_axis = RevoluteJoint(
        link1="base",
        link2="a",
        link1_H_link2=Transform.from_rpy_xyz([0, 0, 0], [0, 0, 0.3]),
        axis_in_link1=Axis((0, 0, 1), origin=(0.1, 0, 0)),
    )
    m = add_joint_and_link(m, "base", "j1", off_axis, "a", Link())
    stuck = RevoluteJoint(
        link1="a", link2="b", limits=PositionLimits(enabled=True, lower=0.5, upper=0.5)
    )
    m = add_joint_and_link(m, "a", "j2", stuck, "b", Link())
    by_check = {f.check: f for f in findings(m)}
    assert by_check["axis-through-origin"].severity == "warning"
    assert by_check["axis-through-origin"].element == "joint 'j1'"
    assert "passes 0.1 m from the origin of 'a'" in by_check["axis-through-origin"].message
    assert str(by_check["limits"]) == (
        "joint 'j2': its position limits allow no motion: lower = upper = 0.5 [limits]"
    )
    assert not m.problems()
    # Massless links: the base (fine for a fixed base) and 'a' between two joints are notes;
    # 'b' at the end of a moving joint is a warning.
    mass = {f.element: f.severity for f in findings(m) if f.check == "mass"}
    assert mass == {"link 'base'": "note", "link 'a'": "note", "link 'b'": "warning"}


def test_every_check_has_a_name_and_a_description() -> None:
    names = [c.name for c in CHECKS]
    assert len(set(names)) == len(names)
    assert all(c.description and c.name.islower() for c in CHECKS)
    docs = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text()
    for name in names:
        assert f"`{name}`" in docs, name


def test_problems_of_small_broken_models() -> None:
    """Disconnected links and a mimic of a missing joint are errors of problems(), in order."""
    m = add_link(Model(name="gripper"), "palm", Link())
    j = RevoluteJoint(link1="palm", link2="finger", mimic=Mimic(joint="nope"))
    m = add_joint_and_link(m, "palm", "j1", j, "finger", Link())
    assert m.is_valid() is False
    m = add_link(m, "island", Link())
    assert [(f.check, f.element) for f in m.problems()] == [
        ("connected", "model"),
        ("mimic", "joint 'j1'"),
    ]
    assert str(m.problems()[0]) == (
        "model: 1 link is not connected to the default base 'palm': 'island' [connected]"
    )
    assert "mimics 'nope', which is not a joint of the model" in str(m.problems()[1])
    with pytest.raises(ModelError) as info:
        check_model(m)
    assert str(info.value).splitlines()[1:] == [f"  - {f}" for f in m.problems()]
    # Warnings and notes do not make a model invalid: the empty model is valid, as in iDynTree.
    assert Model().is_valid() and Model().problems() == ()
    assert [f.severity for f in findings(Model())] == ["warning"]


def test_validate_names_the_line_of_a_written_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.urdf"
    path.write_text(
        '<robot name="two">\n'
        '  <link name="base"/>\n'
        '  <joint name="stuck" type="revolute">\n'
        '    <parent link="base"/><child link="tip"/>\n'
        '    <limit lower="0.5" upper="0.5" effort="1" velocity="1"/>\n'
        "  </joint>\n"
        '  <link name="tip"><inertial><mass value="1"/>\n'
        '    <inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.01"/>\n'
        "  </inertial></link>\n"
        "</robot>\n"
    )
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "error: link 'tip' (line 7): inertia violates the triangle inequality at the centre of "
        "mass: ixx + iyy = 0.002 < izz = 0.01 kg m^2 [inertia]"
    )
    assert out[1] == (
        "warning: joint 'stuck' (line 3): its position limits allow no motion: lower = upper = "
        "0.5 [limits]"
    )
    # A report without these elements gives no lines: the findings stay as they are.
    model = robomodel.formats.urdf.load(path)
    assert [f.line for f in locate(findings(model), {})] == [None] * len(findings(model))
    # The lines come from the structured fields, never from the message text.
    found = findings(model)
    assert {(f.kind, f.name) for f in found} >= {("link", "tip"), ("joint", "stuck")}
    lines = load_with_report(path)[1].sources.lines
    assert [f.line for f in locate(found, lines)] == [lines[f.kind, f.name] for f in found]


def test_problems_lists_down_to_a_severity() -> None:
    """problems() is the errors; severity="warning" and "note" add the lesser findings."""
    m = add_link(Model(), "base", Link())
    stuck = RevoluteJoint(link1="base", link2="tip", axis_in_link1=Axis((0, 0, 1)))
    m = add_joint_and_link(m, "base", "j", stuck, "tip", Link())
    assert m.problems() == ()
    assert [f.severity for f in m.problems(severity="warning")] == ["warning"]
    assert m.problems(severity="note") == findings(m)
    with pytest.raises(ModelError, match="severity"):
        m.problems(severity="fatal")  # type: ignore[arg-type]


def test_the_old_what_is_wrong_functions_warn_and_work() -> None:
    from robomodel.model.checks import errors
    from robomodel.tools.textview import find_problems

    m = add_link(add_link(Model(), "base", Link()), "island", Link())
    with pytest.warns(DeprecationWarning, match="problems"):
        assert errors(m) == m.problems()
    with pytest.warns(DeprecationWarning, match="problems"):
        assert find_problems(m) == ([str(f) for f in m.problems()], [])
