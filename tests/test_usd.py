"""OpenUSD: the exact round trip, binary files, determinism, options and bad input."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import SLOW, decorated_models, models_with_sensors, unit_vectors

import robomodel as rm
from robomodel.data import example_path
from robomodel.errors import USDError
from robomodel.formats import urdf

pytest.importorskip("pxr")
from robomodel.formats import usd

NO_MESHES = usd.DumpOptions(meshes=False)


def _round_trip(m: rm.Model) -> rm.Model:
    text, _ = usd.dumps_with_report(m, options=NO_MESHES)
    back, _ = usd.loads_with_report(text)
    return back


@settings(max_examples=25)
@given(decorated_models(max_links=5))
def test_round_trip_is_exact(m: rm.Model) -> None:
    """usd.loads(usd.dumps(m)) == m, bit for bit (through the robomodel: doubles)."""
    back = _round_trip(m)
    assert back == m
    assert back.inertial_parameters().tobytes() == m.inertial_parameters().tobytes()
    for a, b in zip(m.joints, back.joints, strict=True):
        assert a.link1_H_link2.rotation.tobytes() == b.link1_H_link2.rotation.tobytes()


@settings(max_examples=15)
@given(models_with_sensors(max_links=5))
def test_round_trip_keeps_sensors(m: rm.Model) -> None:
    """Sensors (no UsdPhysics schema) come back exactly from their robomodel: attributes."""
    assert _round_trip(m) == m


@pytest.mark.slow
@SLOW
@given(decorated_models())
def test_round_trip_slow(m: rm.Model) -> None:
    """The exact round trip, with many more examples."""
    assert _round_trip(m) == m


def test_example_round_trip_and_same_bytes() -> None:
    m = urdf.load(example_path())
    text, report = usd.dumps_with_report(m)
    assert usd.loads(text) == m
    # Equal models write identical text (the principal axes are computed deterministically).
    assert usd.dumps_with_report(urdf.load(example_path()))[0] == text
    assert "metersPerUnit = 1" in text and 'upAxis = "Z"' in text
    # What has no UsdPhysics schema is in the report, each sensor by name.
    noted = {x.name for x in report.of("note") if x.kind == "sensor"}
    assert noted == {s.name for s in m.sensors}


@pytest.mark.parametrize("suffix", [".usda", ".usdc", ".usd"])
def test_dump_and_load_files(tmp_path: Path, suffix: str) -> None:
    m = urdf.load(example_path())
    path = tmp_path / f"robot{suffix}"
    usd.dump(m, path, options=NO_MESHES)  # the example has no mesh: nothing dropped, no warning
    data = path.read_bytes()
    assert data.startswith(b"PXR-USDC") == (suffix != ".usda")
    assert usd.load(path) == m
    assert usd.loads(data) == m
    # A second write of the same model gives the same bytes (no timestamps, no temp paths).
    again = tmp_path / f"again{suffix}"
    usd.dump(m, again, options=NO_MESHES)
    assert again.read_bytes() == data


def test_fixed_base_adds_a_world_joint_read_back_as_the_base() -> None:
    m = urdf.load(example_path())
    text, report = usd.dumps_with_report(m, options=usd.DumpOptions(fixed_base=True, meshes=False))
    assert [x.name for x in report.of("added")] == ["world_joint"]
    back, back_report = usd.loads_with_report(text)
    assert back == m
    assert not back_report.of("dropped")


def test_names_that_are_not_identifiers_survive() -> None:
    m = rm.add_link(rm.Model(name="my robot"), "base-link.1", rm.Link())
    m = rm.add_joint_and_link(
        m, "base-link.1", "1 joint", "joints", kind="prismatic", axis=(0, 1, 0)
    )
    m = rm.add_frame(m, "joints", "tip/frame")
    back = _round_trip(m)
    assert back == m


def test_missing_mesh_is_reported_and_kept_as_a_name() -> None:
    m = rm.add_link(rm.Model(name="r"), "base", rm.Link())
    shape = rm.SolidShape(geometry=rm.Mesh(filename="nowhere/x.stl", scale=(2.0, 2.0, 2.0)))
    m = rm.with_visual_shapes(m, "base", [shape])
    text, report = usd.dumps_with_report(m)
    (loss,) = report.of("dropped")
    assert loss.kind == "mesh" and "nowhere/x.stl" in loss.detail
    with pytest.warns(rm.RobomodelWarning, match="nowhere/x.stl"):
        usd.dumps(m)
    assert usd.loads(text) == m


def test_mesh_is_converted_with_its_scale(relative_mesh_urdf: Path) -> None:
    from pxr import Sdf, Usd, UsdGeom

    m = urdf.load(relative_mesh_urdf)
    text, report = usd.dumps_with_report(
        m, options=usd.DumpOptions(base_dir=str(relative_mesh_urdf.parent))
    )
    assert not report.of("dropped")
    layer = Sdf.Layer.CreateAnonymous(".usda")
    layer.ImportFromString(text)
    stage = Usd.Stage.Open(layer)
    (mesh,) = [p for p in stage.Traverse() if p.IsA(UsdGeom.Mesh)]
    points = np.array(UsdGeom.Mesh(mesh).GetPointsAttr().Get())
    lo, hi = points.min(0), points.max(0)
    assert np.allclose(hi - lo, [0.1, 0.2, 0.3], atol=1e-6)  # the box of the fixture, in metres
    assert usd.loads(text) == m


@pytest.mark.parametrize(
    "text",
    [
        "not usd at all",
        '#usda 1.0\ndef Xform "r" {}\n',  # no rigid body
        b"PXR-USDC garbage",
    ],
)
def test_bad_input_is_a_usd_error(text: str | bytes) -> None:
    with pytest.raises(USDError):
        usd.loads(text)


def test_joint_to_a_missing_prim_names_the_joint_prim() -> None:
    text = """#usda 1.0
def Xform "r" {
    def Xform "a" (prepend apiSchemas = ["PhysicsRigidBodyAPI"]) {}
    def PhysicsRevoluteJoint "j" { rel physics:body0 = </r/a>
        rel physics:body1 = </r/b>
    }
}
"""
    with pytest.raises(USDError, match=r"/r/j.*'/r/b'.*not a prim"):
        usd.loads(text)


def test_joint_to_a_prim_that_is_not_a_body_joins_the_world() -> None:
    """UsdPhysics: a joint end that is not a rigid body is the world; reported, not read."""
    text = """#usda 1.0
def Xform "r" {
    def Xform "a" (prepend apiSchemas = ["PhysicsRigidBodyAPI"]) {}
    def Xform "b" {}
    def PhysicsRevoluteJoint "j" { rel physics:body0 = </r/b>
        rel physics:body1 = </r/a>
    }
}
"""
    m, report = usd.loads_with_report(text)
    assert m.link_names == ["a"] and m.n_joints == 0 and m.default_base == "a"
    assert [(x.action, x.name) for x in report.losses if x.kind == "joint"] == [("dropped", "j")]


def test_not_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        usd.load(tmp_path)


def test_infinite_limits_and_effort() -> None:
    m = rm.add_link(rm.Model(name="r"), "a", rm.Link())
    m = rm.add_joint_and_link(m, "a", "j", "b", kind="revolute", axis=(0.0, 0.6, 0.8))
    j = m.joint("j")
    assert math.isinf(j.effort_limit)
    assert _round_trip(m) == m


def _cli(*args: str) -> int:
    from robomodel.cli import main

    return main(list(args))


def test_cli_converts_to_and_from_usd(tmp_path: Path) -> None:
    """`robomodel convert` writes .usda text and .usdc/.usd crate files and reads them back."""
    from robomodel.formats import json as rm_json

    m = urdf.load(example_path())
    for suffix in (".usda", ".usdc", ".usd"):
        out = tmp_path / f"r{suffix}"
        assert _cli("convert", str(example_path()), str(out)) == 0
        assert usd.load(out) == m
        back = tmp_path / f"back{suffix}.json"
        assert _cli("convert", str(out), str(back)) == 0
        assert rm_json.load(back) == m


def test_cli_usd_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli("convert", "example", "-", "--to", "usd") == 0
    text = capsys.readouterr().out
    assert text.startswith("#usda 1.0")
    assert usd.loads(text) == urdf.load(example_path())


def test_cli_scene_writes_usd_at_a_configuration(tmp_path: Path) -> None:
    """The scene's link poses are robomodel's forward kinematics at the given joint values."""
    from pxr import Sdf, Usd, UsdGeom

    from robomodel.physics.kinematics import forward_kinematics

    out = tmp_path / "scene.usda"
    assert _cli("scene", "-m", "example", "-o", str(out), "--q", "l_elbow=0.5") == 0
    m = urdf.load(example_path())
    q = np.zeros(m.n_pos_coords)
    q[m.joint("l_elbow").pos_coord_offset] = 0.5
    fk = forward_kinematics(m, q)
    stage = Usd.Stage.Open(Sdf.Layer.FindOrOpen(str(out)))
    assert not any(p.HasAPI("PhysicsRigidBodyAPI") for p in stage.Traverse())
    cache = UsdGeom.XformCache()
    forearm = stage.GetDefaultPrim().GetChild("l_forearm")
    world = np.array(cache.GetLocalToWorldTransform(forearm)).T
    np.testing.assert_allclose(world, fk.base_H_link[m.link_index("l_forearm")], atol=1e-12)
    assert any(p.IsA(UsdGeom.Gprim) for p in Usd.PrimRange(forearm))


@pytest.mark.parametrize(
    ("attribute", "bad"),
    [
        ("custom double robomodel:mass = 4", 'custom string robomodel:mass = "heavy"'),
        ("custom double robomodel:limits:lower = ", "custom double robomodel:limits:lower = 1e9 #"),
    ],
)
def test_corrupted_robomodel_attribute_is_a_usd_error_naming_the_prim(
    attribute: str, bad: str
) -> None:
    """A file robomodel wrote, then edited into nonsense, fails with the prim to look at."""
    text = usd.dumps_with_report(urdf.load(example_path()), options=NO_MESHES)[0]
    assert attribute in text
    start = text.index(attribute)
    end = text.index("\n", start)
    broken = text[:start] + bad + text[end:]
    with pytest.raises(USDError, match=r"^/example_humanoid/"):
        usd.loads(broken)


@given(unit_vectors())
def test_joint_frame_x_axis_is_the_joint_axis(u: np.ndarray) -> None:
    """The joint frame written for an axis is a rotation (to round-off) whose X axis is the axis,
    for every direction, those next to -X included (where a plain formula divides by ~0)."""
    from robomodel.formats.usd._math import frame_with_x_along

    for d in (u, -u, np.array([-1.0, 0.0, 0.0]) + 1e-9 * u):
        R = frame_with_x_along(d, np.zeros(3)).rotation
        np.testing.assert_allclose(R[:, 0], d / np.linalg.norm(d), rtol=0, atol=1e-15)
        np.testing.assert_allclose(R.T @ R, np.eye(3), rtol=0, atol=1e-15)
        assert np.linalg.det(R) > 0


def test_without_usd_core_an_optional_dependency_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """usd-core is imported on first use only; without it the error names the extra."""
    import subprocess
    import sys

    code = "import sys, robomodel.formats.usd; print('pxr' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    monkeypatch.setitem(sys.modules, "pxr", None)  # import pxr now raises ImportError
    with pytest.raises(rm.errors.OptionalDependencyError, match=r"robomodel\[usd\]") as info:
        usd.dumps(rm.add_link(rm.Model(), "base"))
    assert info.value.extra == "usd"


def test_an_edited_mass_wins_over_the_stale_exact_doubles() -> None:
    """Someone edits physics:mass in a simulator's editor: the reader takes the edit, says so."""
    m = urdf.load(example_path())
    text = usd.dumps_with_report(m, options=NO_MESHES)[0]
    start = text.index("float physics:mass = 8")  # the torso
    edited = text[:start] + "float physics:mass = 9" + text[start + len("float physics:mass = 8") :]
    back, report = usd.loads_with_report(edited)
    assert back.link("torso").mass == 9.0
    assert [(x.action, x.name) for x in report.of("changed")] == [("changed", "torso")]
    assert all(back.link(n) == m.link(n) for n in m.link_names if n != "torso")


def test_an_edited_limit_wins_over_the_stale_exact_doubles() -> None:
    m = urdf.load(example_path())
    j = m.joint("l_elbow")
    text = usd.dumps_with_report(m, options=NO_MESHES)[0]
    prim = text.index('PhysicsRevoluteJoint "l_elbow"')
    start = text.index("float physics:upperLimit = ", prim)
    end = text.index("\n", start)
    edited = text[:start] + "float physics:upperLimit = 45" + text[end:]
    back, report = usd.loads_with_report(edited)
    assert back.joint("l_elbow").limits.upper == pytest.approx(math.radians(45.0))
    assert back.joint("l_elbow").limits.lower == pytest.approx(j.limits.lower, rel=1e-6)
    assert [(x.action, x.name) for x in report.of("changed")] == [("changed", "l_elbow")]


@pytest.mark.parametrize("bound", [1e-300, 1e39, 1e300])
def test_limits_beyond_float32_round_trip(bound: float) -> None:
    """Limits float32 cannot hold (written as 0 or as no limit) still come back exactly."""
    j = rm.RevoluteJoint(link1="a", link2="b", limits=rm.PositionLimits.between(-bound, bound))
    m = rm.add_joint_and_link(rm.add_link(rm.Model(name="r"), "a"), "a", "j", j, "b")
    back, report = usd.loads_with_report(usd.dumps_with_report(m)[0])
    assert back == m and not report.of("changed")


def _icub_names() -> list[str]:
    try:
        import icub_models
    except ImportError:
        return []
    return sorted(icub_models.get_robot_names())


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=() if n in ("iCubGazeboV2_7", "left_hand_mk3") else pytest.mark.slow)
        for n in _icub_names()
    ],
)
def test_icub_round_trip_is_exact(name: str) -> None:
    """Every icub-models robot comes back from USD equal to the model read from its URDF."""
    import icub_models

    m = urdf.load(icub_models.get_model_file(name), options=urdf.LoadOptions(inertia="ignore"))
    text, _ = usd.dumps_with_report(m, options=NO_MESHES)
    assert usd.loads(text) == m


def test_a_mass_beyond_float32_reads_back_exactly() -> None:
    """physics:mass is a float: 1e150 is written as inf there, and the exact double beside it is
    still read back (the float is what the double becomes, not an edit)."""
    heavy = rm.SpatialInertia(1e150, np.zeros(3), np.zeros((3, 3)))
    m = rm.Model(link_names=["a", "b"], links=[rm.Link(), rm.Link(heavy)])
    m = rm.add_joint(
        m,
        "j",
        rm.RevoluteJoint(
            link1="a", link2="b", link1_H_link2=rm.Transform(), axis_in_link1=rm.Axis((0, 0, 1))
        ),
    )
    text, _ = usd.dumps_with_report(m)
    assert "float physics:mass = inf" in text
    back, report = usd.loads_with_report(text)
    assert back == m
    assert not [x for x in report.losses if x.action == "changed"]
