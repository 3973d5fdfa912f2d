"""The ``robomodel`` command: subcommands on the bundled model and an icub-models robot.

The error paths and exit statuses run the command in a subprocess (``python -m robomodel``), as
a user would; the other subcommands call ``robomodel.cli.main`` in-process, which is the same
entry point, to keep the suite fast. Results are checked by reloading what the command wrote
and, for the geometry, against iDynTree on the original URDF.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import icub_models
import numpy as np
import pytest

import robomodel.formats.urdf
from robomodel.cli import main
from robomodel.data import example_path
from robomodel.formats import json as rm_json

with warnings.catch_warnings():
    # SWIG's types warn (DeprecationWarning) while idyntree loads; with pytest's
    # filterwarnings=error that warning is raised inside the extension's init and crashes it.
    warnings.simplefilter("ignore", DeprecationWarning)
    import idyntree.bindings as idt

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = example_path()
ICUB = icub_models.get_model_file("iCubGazeboV2_5")

# Names written by hand in robomodel/data/example.urdf.
LEG_JOINTS = [
    f"{s}_{j}"
    for s in ("l", "r")
    for j in ("hip_pitch", "hip_roll", "hip_yaw", "knee", "ankle_pitch", "ankle_roll")
]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-m", "robomodel", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        env=env,
        timeout=120,
    )


def assert_one_line_error(p: subprocess.CompletedProcess[str], *words: str) -> None:
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert "Traceback" not in p.stderr
    errors = [line for line in lines if ": error: " in line]
    assert len(errors) == 1, p.stderr
    for w in words:
        assert w in errors[0], errors[0]


def idt_relative(path: Path | str, frame_a: str, frame_b: str, q: dict[str, float]) -> np.ndarray:
    """a_H_b from iDynTree on the URDF at ``path``, joints by name (others 0)."""
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(str(path))
    model = loader.model()
    kd = idt.KinDynComputations()
    assert kd.loadRobotModel(model)
    s = np.zeros(model.getNrOfPosCoords())
    for name, v in q.items():
        s[model.getJoint(model.getJointIndex(name)).getPosCoordsOffset()] = v
    kd.setJointPos(s)
    return kd.getRelativeTransform(frame_a, frame_b).asHomogeneousTransform().toNumPy()


# --------------------------------------------------------------------------- subprocess


def test_info_on_bundled_model_through_python_m() -> None:
    p = run("info")
    assert p.returncode == 0, p.stderr
    # Counts of robomodel/data/example.urdf after iDynTree-style fake-link removal: 32 URDF
    # links minus root_link, l/r_sole, l/r_hand_frame; 21 moving joints; 5 + 6 + 2 sensors... see
    # the file: 4 F/T, 6 accelerometers, 2 gyroscopes.
    assert "links:       27" in p.stdout
    assert "DOFs:        21" in p.stdout
    assert "4 SixAxisForceTorqueSensor, 6 Accelerometer, 2 Gyroscope" in p.stdout
    assert "l_ankle_roll (revolute, axis 1 0 0) ─ l_foot" in p.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("info", "no/such/model.urdf"), ("no such file",)),
        (("reduce", "--joints", "l_kneee"), ("l_kneee", "did you mean 'l_knee'")),
        (("reduce", "--joints", "l_knee", "--lock", "r_knee"), ("--lock", "JOINT=VALUE")),
        (("plot", "-o", "x.png", "--q", "l_knee=abc"), ("not a number",)),
        (("rebase", "--base", "l_fot"), ("l_fot", "l_foot")),
        (("tree", "example", "--model", str(EXAMPLE)), ("two models",)),
    ],
)
def test_bad_input_is_one_line_with_status_2(
    args: tuple[str, ...], words: tuple[str, ...], tmp_path: Path
) -> None:
    assert_one_line_error(run(*args, cwd=tmp_path), *words)


def test_malformed_urdf(tmp_path: Path) -> None:
    bad = tmp_path / "bad.urdf"
    bad.write_text('<robot name="r"><link name="a"></robot>')
    assert_one_line_error(run("draw", str(bad)), "bad.urdf")
    # validate reports it as a finding: status 1, on standard output.
    p = run("validate", str(bad))
    assert p.returncode == 1
    assert "error:" in p.stdout and "Traceback" not in p.stderr


def test_usage_errors_exit_2() -> None:
    assert run("no-such-command").returncode == 2
    assert run("reduce").returncode == 2  # --joints is required


@pytest.mark.reference
def test_demo_output_is_valid_and_moves_like_the_full_robot(tmp_path: Path) -> None:
    p = run("demo", "--svg", "--out", "demo", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    for step in ("remove_fake_links", "reduce_model", "normalize_joint_order", "make_urdf_compat"):
        assert step in p.stdout
    assert [f.name for f in tmp_path.iterdir()] == ["demo"]
    out = tmp_path / "demo" / "example_legs.urdf"
    model = robomodel.formats.urdf.load(out)
    assert model.is_valid()
    assert model.default_base == "l_foot"
    moving = [n for n in model.joint_names if model.joint(n).n_dofs]
    assert sorted(moving) == sorted(LEG_JOINTS)
    # The leg F/T sensors were kept (their fixed joints were kept), the arm ones dropped.
    assert {s.name for s in model.sensors if "ft" in s.name} == {"l_leg_ft", "r_leg_ft"}
    assert (tmp_path / "demo" / "example_legs_before.svg").exists()
    # Oracle: iDynTree on the original bundled URDF and on the exported one.
    rng = np.random.default_rng(7)
    q = {n: float(rng.uniform(-0.6, 0.6)) for n in LEG_JOINTS}
    # make_urdf_compatible moved base_link's origin onto the hip axes; its old frame is kept.
    for a, b, b_out in (
        ("l_sole", "r_sole", "r_sole"),
        ("r_sole", "r_leg_ft", "r_leg_ft"),
        ("l_sole", "base_link", "base_link_original_frame"),
    ):
        expected = idt_relative(EXAMPLE, a, b, q)
        got = idt_relative(out, a, b_out, q)
        np.testing.assert_allclose(got, expected, atol=1e-9)


@pytest.mark.reference
def test_icub_info_validate_and_reduce(tmp_path: Path) -> None:
    p = run("validate", ICUB)
    assert p.returncode == 0, p.stdout
    out = tmp_path / "legs.urdf"
    p = run("reduce", ICUB, "--joints", "l_hip_*", "l_knee", "l_ankle_*", "-o", str(out))
    assert p.returncode == 0, p.stderr
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(str(out))
    names = [loader.model().getJointName(i) for i in range(loader.model().getNrOfDOFs())]
    assert sorted(names) == sorted(
        ["l_hip_pitch", "l_hip_roll", "l_hip_yaw", "l_knee", "l_ankle_pitch", "l_ankle_roll"]
    )


@pytest.mark.skipif(shutil.which("robomodel") is None, reason="the package is not installed")
def test_console_script() -> None:
    p = subprocess.run(["robomodel", "--version"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("robomodel ")


# --------------------------------------------------------------------------- in-process


def test_tree_names_every_link_and_frame(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tree"]) == 0
    text = capsys.readouterr().out
    model = robomodel.formats.urdf.load(EXAMPLE)
    for name in model.link_names:
        assert f" {name}  " in text or text.startswith(f"{name}  ")
    for f in model.frames:
        assert f"frame {f.name}" in text
    assert text.count("sensor ") == len(model.sensors)


def test_tree_from_another_base(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tree", "--base", "r_foot", "--no-frames", "--no-sensors"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("r_foot ")
    assert len(lines) == robomodel.formats.urdf.load(EXAMPLE).n_links


def test_validate_finds_inconsistent_inertia(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # izz > ixx + iyy breaks the triangle inequality: no rigid body has this tensor.
    text = EXAMPLE.read_text().replace(
        'ixx="0.024" ixy="0" ixz="0" iyy="0.013333333" iyz="0" izz="0.027733333"',
        'ixx="0.024" ixy="0" ixz="0" iyy="0.013333333" iyz="0" izz="0.5"',
    )
    assert text != EXAMPLE.read_text()
    bad = tmp_path / "bad.urdf"
    bad.write_text(text)
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "error: link 'base_link'" in out
    assert main(["validate"]) == 0


def test_demo_writes_nothing_into_the_current_directory(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    p = run("demo", cwd=work)
    assert p.returncode == 0, p.stdout + p.stderr
    assert list(work.iterdir()) == []
    first = p.stdout.splitlines()[0]
    assert "Output in " in first
    where = Path(first.split("Output in ")[1])
    try:
        assert sorted(f.name for f in where.iterdir()) == ["example_legs.urdf"]
        assert f"robomodel info {where / 'example_legs.urdf'}" in p.stdout
    finally:
        shutil.rmtree(where)
    explicit = tmp_path / "legs.urdf"
    assert run("demo", "-o", str(explicit), cwd=work).returncode == 0
    assert explicit.exists() and list(work.iterdir()) == []
    assert_one_line_error(run("demo", "-o", "x.urdf", "--out", "d", cwd=work), "not both")
    (work / "file").write_text("")
    assert_one_line_error(run("demo", "--out", "file", cwd=work), "not a directory")


@pytest.mark.reference
def test_reduce_with_locked_joint_matches_idyntree(tmp_path: Path) -> None:
    out = tmp_path / "r.urdf"
    assert main(["reduce", "--joints", "l_*", "--lock", "r_knee=40deg", "-o", str(out)]) == 0
    reduced = robomodel.formats.urdf.load(out)
    full = robomodel.formats.urdf.load(EXAMPLE)
    assert set(reduced.joint_names) == {n for n in full.joint_names if n.startswith("l_")}
    # The locked right knee shows in the pose of the right sole in the reduced model.
    expected = idt_relative(EXAMPLE, "base_link", "r_sole", {"r_knee": np.deg2rad(40)})
    np.testing.assert_allclose(idt_relative(out, "base_link", "r_sole", {}), expected, atol=1e-9)


@pytest.mark.reference
def test_rebase_normalize_and_remove_fake_links(tmp_path: Path) -> None:
    rebased = tmp_path / "rebased.urdf"
    assert main(["rebase", "--base", "r_foot", "-o", str(rebased)]) == 0
    m = robomodel.formats.urdf.load(rebased)
    assert m.default_base == "r_foot"
    q = {"r_knee": 0.3, "l_hip_pitch": -0.2}
    np.testing.assert_allclose(
        idt_relative(rebased, "l_sole", "r_sole", q),
        idt_relative(EXAMPLE, "l_sole", "r_sole", q),
        atol=1e-9,
    )
    # JSON keeps the exact element order (a URDF reload would renumber the joints itself).
    normalized = tmp_path / "n.json"
    assert main(["normalize", "--base", "l_foot", "-o", str(normalized)]) == 0
    n = rm_json.loads(normalized.read_text())
    dofs = [bool(j.n_dofs) for j in n.joints]
    assert dofs == sorted(dofs, reverse=True)  # every moving joint before every fixed one
    # Traversal order from l_foot: the ankle comes first, up the left leg to the pelvis.
    assert list(n.joint_names[:4]) == ["l_ankle_roll", "l_ankle_pitch", "l_knee", "l_hip_yaw"]
    no_fake = tmp_path / "nf.json"
    assert main(["remove-fake-links", "-o", str(no_fake)]) == 0
    kept = rm_json.loads(no_fake.read_text())
    raw = robomodel.formats.urdf.load(
        EXAMPLE, options=robomodel.formats.urdf.LoadOptions(remove_fake_links=False)
    )
    assert raw.n_links == kept.n_links + 5
    for fake in ("root_link", "l_sole", "r_sole", "l_hand_frame", "r_hand_frame"):
        assert raw.is_link_name_used(fake)
        assert not kept.is_link_name_used(fake) and kept.is_frame_name_used(fake)
    assert kept.default_base == "base_link"


@pytest.mark.reference
def test_attach_prefix_rename(tmp_path: Path) -> None:
    out = tmp_path / "two.urdf"
    args = ["attach", "--other", "example", "--at", "l_hand_frame", "--prefix", "b_"]
    assert main([*args, "--xyz", "0", "0", "-0.1", "-o", str(out)]) == 0
    two = robomodel.formats.urdf.load(out)
    assert two.n_dofs == 42 and two.is_link_name_used("b_base_link")
    np.testing.assert_allclose(
        idt_relative(out, "l_hand_frame", "b_base_link", {})[:3, 3], [0, 0, -0.1], atol=1e-12
    )
    pre = tmp_path / "pre.urdf"
    assert main(["prefix", "--prefix", "left_", "-o", str(pre)]) == 0
    assert all(n.startswith("left_") for n in robomodel.formats.urdf.load(pre).link_names)
    ren = tmp_path / "ren.urdf"
    assert main(["rename", "--map", "torso=chest", "torso_yaw=waist", "-o", str(ren)]) == 0
    r = robomodel.formats.urdf.load(ren)
    assert r.is_link_name_used("chest") and r.joint("waist").link2 == "chest"


def test_diff_and_convert(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    js = tmp_path / "e.json"
    back = tmp_path / "e.urdf"
    assert main(["convert", "example", str(js)]) == 0
    assert main(["convert", str(js), str(back)]) == 0
    assert main(["diff", "example", str(js)]) == 0
    assert main(["diff", str(EXAMPLE), str(back)]) == 0
    capsys.readouterr()
    reduced = tmp_path / "r.urdf"
    assert main(["reduce", "--joints", "l_knee", "-o", str(reduced)]) == 0
    assert main(["diff", "example", str(reduced)]) == 1
    assert "link 'torso' only in a" in capsys.readouterr().out


def test_dh_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chain = tmp_path / "arm.ini"
    assert main(["to-dh", "--from", "torso", "--to", "l_hand_frame", "-o", str(chain)]) == 0
    arm = tmp_path / "arm.urdf"
    assert main(["from-dh", str(chain), "-o", str(arm)]) == 0
    m = robomodel.formats.urdf.load(arm)
    assert m.n_dofs == 4  # shoulder pitch, roll, yaw and elbow
    icub = tmp_path / "icub.urdf"
    assert main(["from-dh", "--icub", "arm", "right_v2.7", "-o", str(icub)]) == 0
    assert robomodel.formats.urdf.load(icub).n_dofs == 10  # iKin's iCubArm: 3 torso + 7 arm links


def test_plot_writes_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "pose.png"
    assert main(["plot", "-o", str(out), "--q", "l_knee=1", "r_elbow=-30deg"]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "command",
    [
        "info", "tree", "validate", "reduce", "rebase", "remove-fake-links", "normalize",
        "urdf-compatible", "attach", "prefix", "rename", "diff", "convert", "to-dh", "from-dh",
        "demo", "draw", "plot",
    ],
)  # fmt: skip
def test_every_subcommand_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    assert f"usage: robomodel {command}" in capsys.readouterr().out


def test_attach_reads_other_as_other_from(tmp_path: Path) -> None:
    # The other model as JSON under a name that says nothing: its content decides, and
    # --other-from json says the same; the attached model is the same either way.
    other = tmp_path / "other.model"
    assert main(["convert", "example", str(tmp_path / "other.json")]) == 0
    other.write_bytes((tmp_path / "other.json").read_bytes())
    outs = []
    for extra in ([], ["--other-from", "json"]):
        out = tmp_path / f"two{len(extra)}.urdf"
        args = ["attach", "--other", str(other), *extra, "--at", "l_hand_frame"]
        assert main([*args, "--prefix", "b_", "-o", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and b'link name="b_base_link"' in outs[0]


def test_attach_keeps_the_other_models_meshes_found(tmp_path: Path) -> None:
    # The other URDF's relative mesh filenames are relative to its own directory; in the
    # result they must name the same files relative to the first model's directory.
    (tmp_path / "a").mkdir()
    (tmp_path / "b" / "meshes").mkdir(parents=True)
    first = tmp_path / "a" / "first.urdf"
    assert main(["convert", "example", str(first)]) == 0
    (tmp_path / "b" / "grip.urdf").write_text(
        '<robot name="grip"><link name="palm">'
        '<visual><geometry><mesh filename="meshes/palm.stl"/></geometry></visual>'
        '<collision><geometry><mesh filename="package://grip/palm.stl"/></geometry></collision>'
        '<inertial><mass value="0.5"/><inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" '
        'ixz="0" iyz="0"/></inertial></link></robot>'
    )
    out = tmp_path / "out" / "two.urdf"
    out.parent.mkdir()
    args = ["attach", str(first), "--other", str(tmp_path / "b" / "grip.urdf")]
    assert main([*args, "--at", "l_hand_frame", "-o", str(out)]) == 0
    two = robomodel.formats.urdf.load(out)
    visual, collision = two.visual_shapes("palm")[0], two.collision_shapes("palm")[0]
    found = (tmp_path / "a" / visual.geometry.filename).resolve()
    assert found == (tmp_path / "b" / "meshes" / "palm.stl").resolve()
    assert collision.geometry.filename == "package://grip/palm.stl"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["info", "{dir}"], ("is a directory",)),
        (["info", "{dir}/bad.json"], ("not valid JSON",)),
        (["reduce", "--joints", "zz*"], ("matches no joint",)),
        (["convert", "example", "{dir}/missing/x.urdf"], ("No such file",)),
        (["from-dh"], ("iKin chain file",)),
        (["to-dh", "--from", "base_link", "--to", "nowhere"], ("no frame named 'nowhere'",)),
        (["attach", "--other", "example", "--at", "l_hand_frame"], ("already used",)),
        (
            ["attach", "--other", "example", "--other-from", "mjcf", "--at", "l_hand_frame"],
            ("mujoco",),
        ),
    ],
)
def test_more_bad_input_in_process(
    args: list[str], words: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.json").write_text("{bad")
    assert main([a.format(dir=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    for w in words:
        assert w in err[0]


# --------------------------------------------------------------------------- DH output


def test_to_dh_prints_no_rounding_noise(capsys: pytest.CaptureFixture[str]) -> None:
    icub = icub_models.get_model_file("iCubGazeboV2_7")
    assert main(["to-dh", str(icub), "--from", "chest", "--to", "r_hand"]) == 0
    text = capsys.readouterr().out
    # The extracted chain holds lengths like 4.2e-17 m and angles like 90.00000000000001 deg;
    # printed, they are 0 and 90 (robomodel.formats.dh.LENGTH_NOISE, ANGLE_NOISE).
    assert "e-1" not in text and "e-2" not in text and "e-3" not in text
    assert "90.00000000000" not in text and "89.9999999999" not in text
    assert "(min 15.0)" in text  # 15 degrees in the URDF, not 14.999999999999998
    assert main(["to-dh", str(icub), "--from", "chest", "--to", "r_hand", "--exact"]) == 0
    exact = capsys.readouterr().out
    assert "e-17" in exact or "e-18" in exact


def test_from_dh_mass_is_an_option_and_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "arm.urdf"
    assert main(["from-dh", "--icub", "arm", "right_v2.7", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "11 links weighs 1 kg" in err and "--mass" in err
    assert robomodel.formats.urdf.load(out).total_mass == pytest.approx(11.0)
    assert main(["from-dh", "--icub", "arm", "right_v2.7", "--mass", "0.5", "-o", str(out)]) == 0
    assert "11 links weighs 0.5 kg" in capsys.readouterr().err
    model = robomodel.formats.urdf.load(
        out, options=robomodel.formats.urdf.LoadOptions(remove_fake_links=False)
    )
    assert sorted({link.inertia.mass for link in model.links} - {0.0}) == [0.5]
    # Standard output carries the model; the remark still goes to standard error.
    assert main(["from-dh", "--icub", "leg", "left_v2.5", "--mass", "0", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert rm_json.loads(captured.out).total_mass == 0.0
    assert "7 links weighs 0 kg" in captured.err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--icub", "foo", "bar"], ("'foo'", "'bar'")),
        (["--icub", "arm", "rght_v2.x"], ("'rght'", "'2.x'")),
        (["--icub", "arm", "right_v2.7", "--mass", "-1"], ("--mass", ">= 0")),
        (["--icub", "arm", "right_v2.7", "--mass", "heavy"], ("--mass", "not a number")),
        (["{dir}/bad.ini"], ("bad.ini", "unknown key 'B'")),
    ],
)
def test_from_dh_reports_every_bad_name_at_once(
    args: list[str], words: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.ini").write_text("numLinks 1\nlink_0 (A 1) (B 2)\n")
    assert main(["from-dh", *(a.format(dir=tmp_path) for a in args)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    for w in words:
        assert w in err[0]


# --------------------------------------------------------------------------- bad files, safe writes

BAD_FILES = {
    "deep.json": "[" * 100_000,
    "utf8.json": b'{"format": "robomodel", "name": "\xff\xfe"}',
    "huge_number.json": '{"format": "robomodel", "version": 1, "x": ' + "9" * 400 + "}",
    "list.json": "[1, 2]",
    "empty.urdf": "",
    "binary.urdf": b"\x00\x01\xff\xfe garbage",
    "not_a_robot.urdf": "<foo/>",
    "deep.urdf": "<robot name='r'>" + "<a>" * 10_000 + "</a>" * 10_000 + "</robot>",
    "entities.urdf": '<!DOCTYPE robot [<!ENTITY x "y">]><robot name="r"><link name="a"/></robot>',
    "bad_utf8.ini": b"numLinks \xff",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_every_bad_file_is_one_line_with_status_2(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    data = BAD_FILES[name]
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    command = ["from-dh", str(path)] if name.endswith(".ini") else ["info", str(path)]
    assert main(command) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]
    assert name in err[0]


@pytest.mark.parametrize("name", sorted(n for n in BAD_FILES if not n.endswith(".ini")))
def test_validate_reports_a_bad_file_as_a_finding(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    data = BAD_FILES[name]
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("error: ") and f"{path}: not valid (1 error," in out


class _DiskFull:
    """A binary file that takes half of what it is given, then fails like a full disk."""

    def __init__(self, path: str | os.PathLike[str], mode: str) -> None:
        self._file = open(path, mode)  # noqa: SIM115 - closed in __exit__

    def __enter__(self) -> _DiskFull:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def write(self, data: bytes) -> int:
        self._file.write(data[: len(data) // 2])
        self._file.flush()
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_failing_write_leaves_the_input_byte_identical(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import robomodel._internal.files

    model = tmp_path / "a.urdf"
    shutil.copy(EXAMPLE, model)
    before = model.read_bytes()

    def half_then_full(fd: int, payload: bytes, mode: int) -> None:
        os.write(fd, payload[: len(payload) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    # Both ways the writer has: an unnamed file (Linux) and a named temporary file.
    monkeypatch.setattr(robomodel._internal.files, "_write_fd", half_then_full)
    monkeypatch.setattr(robomodel._internal.files, "open", _DiskFull, raising=False)
    assert main(["prefix", str(model), "--prefix", "left_", "-o", str(model)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0] and str(model) in err[0]
    assert model.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["a.urdf"]  # no temporary file left
    monkeypatch.undo()
    assert main(["prefix", str(model), "--prefix", "left_", "-o", str(model)]) == 0
    assert robomodel.formats.urdf.load(model).link_names[0].startswith("left_")


def test_a_failing_picture_leaves_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    out = tmp_path / "pose.png"
    out.write_bytes(b"the old picture")

    def half_then_fail(self: Figure, fname: Path, **kwargs: object) -> None:
        Path(fname).write_bytes(b"\x89PNG half")
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG), str(fname))

    monkeypatch.setattr(Figure, "savefig", half_then_fail)
    assert main(["plot", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(out) in err and ".tmp" not in err and "pose.png." not in err
    assert out.read_bytes() == b"the old picture"
    assert [p.name for p in tmp_path.iterdir()] == ["pose.png"]


def test_atomic_write_keeps_modes_and_names_the_target(tmp_path: Path) -> None:
    from robomodel._internal.files import atomic_write

    fresh = tmp_path / "new.txt"
    atomic_write(fresh, "héllo\n")
    assert fresh.read_bytes() == "héllo\n".encode()
    umask = os.umask(0o022)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask
    private = tmp_path / "private.bin"
    private.write_bytes(b"old")
    private.chmod(0o600)
    atomic_write(private, b"\x00new")
    assert private.read_bytes() == b"\x00new" and private.stat().st_mode & 0o777 == 0o600
    with pytest.raises(IsADirectoryError) as info:
        atomic_write(tmp_path, "x")
    assert info.value.filename == str(tmp_path)
    with pytest.raises(FileNotFoundError) as missing:
        atomic_write(tmp_path / "no" / "x.txt", "x")
    assert missing.value.filename == str(tmp_path / "no" / "x.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "private.bin"]


# --------------------------------------------------------------------------- meshes and xacro


def _mesh_robot(tmp_path: Path) -> tuple[Path, Path]:
    """A URDF with one package:// mesh, and the package directory that holds it."""
    pkgs = tmp_path / "pkgs"
    (pkgs / "demo_pkg" / "meshes").mkdir(parents=True)
    (pkgs / "demo_pkg" / "meshes" / "body.stl").write_text("solid\nendsolid\n")
    urdf = tmp_path / "robot.urdf"
    urdf.write_text(
        '<robot name="r"><link name="body"><visual><geometry>'
        '<mesh filename="package://demo_pkg/meshes/body.stl"/></geometry></visual></link></robot>'
    )
    return urdf, pkgs


def test_package_dirs_reach_the_model_of_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    urdf, pkgs = _mesh_robot(tmp_path)
    out = tmp_path / "r.json"
    args = ["convert", str(urdf), str(out), "--package-dir", str(tmp_path), "--package-dir"]
    assert main([*args, str(pkgs)]) == 0
    assert list(rm_json.loads(out.read_text()).package_dirs) == [str(tmp_path), str(pkgs)]
    # A JSON model keeps its own directories; --package-dir adds more after them.
    again = tmp_path / "again.json"
    assert main(["convert", str(out), str(again), "--package-dir", "/extra"]) == 0
    assert list(rm_json.loads(again.read_text()).package_dirs) == [
        str(tmp_path),
        str(pkgs),
        "/extra",
    ]
    assert main(["validate", str(out), "--strict"]) == 0
    assert main(["convert", str(out), "-", "--xacro-arg", "a:=b"]) == 2
    assert "--xacro-arg is for xacro files" in capsys.readouterr().err
    assert main(["diff", str(urdf), str(out), "--package-dir", str(tmp_path)]) == 1
    assert "package dirs" in capsys.readouterr().out


def test_env_package_dirs_only_with_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    urdf, pkgs = _mesh_robot(tmp_path)
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(pkgs))
    assert main(["validate", str(urdf), "--strict"]) == 1
    assert "no package directory is given" in capsys.readouterr().out
    assert main(["validate", str(urdf), "--strict", "--env-package-dirs"]) == 0
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path))
    assert main(["validate", str(urdf), "--env-package-dirs"]) == 1
    assert "visual mesh 'package://demo_pkg/meshes/body.stl'" in (capsys.readouterr().out)


def test_scene_has_help_and_refuses_unknown_joints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["scene", "--help"])
    assert exit_.value.code == 0 and "--package-dir DIR" in capsys.readouterr().out
    out = tmp_path / "x.glb"
    assert main(["scene", "-o", str(out), "--q", "l_knea=1"]) == 2
    assert "did you mean 'l_knee'" in capsys.readouterr().err and not out.exists()
    assert main(["scene", "-o", str(tmp_path / "x.fbx")]) == 2


def test_xacro_in_a_urdf_is_refused_in_one_line_without_running_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 28: a .urdf using xacro is neither expanded nor read without --xacro, whatever
    the command; the payload (a shell command escaping xacro's restricted names, live on
    xacro 2.1.1) never runs, and the error is one line saying to pass --xacro if trusted."""
    sentinel = tmp_path / "pwned"
    payload = (
        "${[c for c in python.vars(python.type)['__subclasses__'](python.type(1).mro()[-1]) "
        "if 'catch_warnings' in str(c)][0]()._module.sys.modules['os']"
        f".system('touch {sentinel}')}}"
    )
    evil = tmp_path / "evil.urdf"
    evil.write_text(
        '<?xml version="1.0"?>\n<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        f'  <link name="a"/>\n  <link name="{payload}"/>\n</robot>\n'
    )
    out = tmp_path / "out.urdf"
    words = (f"{evil}:4: <link>: this document uses xacro", "If and only if you trust", "--xacro")
    for args in (["validate", str(evil)], ["info", str(evil)], ["convert", str(evil), str(out)]):
        p = run(*args)
        assert_one_line_error(p, f"robomodel {args[0]}: error: ", *words)
        assert len(p.stderr.strip().splitlines()) == 1 and p.stdout == ""
    assert not sentinel.exists() and not out.exists()
    in_process = (
        ["tree", str(evil)],
        ["validate", str(evil), "--strict"],
        ["reduce", str(evil), "--joints", "j"],
        ["diff", str(evil), str(evil)],
        ["attach", "--other", str(evil), "--at", "l_hand_frame"],
        ["convert", str(evil), str(out), "--xacro-arg", "a:=b"],
    )
    for args in in_process:
        assert main(args) == 2, args
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1, captured
        assert f"robomodel {args[0]}: error: {evil}:4: <link>: " in captured.err
    assert not sentinel.exists() and not out.exists()


def test_every_command_that_reads_a_model_offers_xacro(capsys: pytest.CaptureFixture[str]) -> None:
    """--xacro on every subcommand that reads a model; its help says xacro runs Python code."""
    import argparse

    from robomodel.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    commands = sorted(set(sub.choices) - {"demo", "from-dh"})  # the two that read no model file
    assert {"info", "validate", "convert", "diff", "attach", "to-dh", "scene"} <= set(commands)
    for command in commands:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "--xacro " in text and "xacro runs the Python code in a file" in text, command
        assert "only for files you trust" in text, command
