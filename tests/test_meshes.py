"""Mesh files: resolution (against Pinocchio and the file system), checks, trimesh shapes.

Oracles: Pinocchio's ``buildGeomFromUrdf`` (the absolute mesh paths it resolves), the files the
tests write and the URDF text itself (which line holds which ``<mesh>``), trimesh on the mesh
files directly, and Pinocchio's forward kinematics for the exported scene.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import icub_models
import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import robomodel as rm
import robomodel.formats.urdf as ru
from robomodel.cli import main
from robomodel.formats.meshes import (
    MeshError,
    check_meshes,
    env_package_dirs,
    export_scene,
    link_bounds,
    link_volume,
    load_mesh,
    resolve_mesh,
    shape_trimesh,
)
from robomodel.model.checks import findings

pin = pytest.importorskip("pinocchio")
trimesh = pytest.importorskip("trimesh")

WRIST = str(icub_models.get_model_file("left_wrist_mk2"))
ICUB = str(icub_models.get_model_file("iCubGazeboV2_5"))
# icub-models installs its meshes as <share>/iCub/meshes, the URDFs as <share>/iCub/robots/X/.
SHARE = str(Path(ICUB).parents[3])


def mesh_urdf(*filenames: str, name: str = "r") -> str:
    """A one-link robot whose visuals are the given mesh filenames, one per line."""
    visuals = "\n".join(
        f'    <visual><geometry><mesh filename="{f}"/></geometry></visual>' for f in filenames
    )
    return f'<robot name="{name}">\n  <link name="a">\n{visuals}\n  </link>\n</robot>\n'


def pinocchio_paths(urdf: str, dirs: list[str]) -> list[str]:
    model = pin.buildModelFromUrdf(urdf)
    geom = pin.buildGeomFromUrdf(model, urdf, pin.GeometryType.VISUAL, package_dirs=dirs)
    return [os.path.normpath(o.meshPath) for o in geom.geometryObjects]


def robomodel_paths(model: rm.Model, dirs: list[str]) -> list[str]:
    # Pinocchio lists geometries in its own link order; compare as sorted lists.
    return [
        os.path.normpath(resolve_mesh(s.geometry, package_dirs=dirs))
        for shapes in model.visuals
        for s in shapes
        if isinstance(s.geometry, rm.Mesh)
    ]


# --------------------------------------------------------------------------- resolution


@pytest.mark.reference
@pytest.mark.parametrize("robot", [WRIST, ICUB])
def test_icub_meshes_resolve_to_the_files_pinocchio_resolves(robot: str) -> None:
    model = ru.load(robot)
    ours = robomodel_paths(model, [SHARE])
    assert len(ours) > 0 and all(os.path.isfile(p) for p in ours)
    assert sorted(ours) == sorted(pinocchio_paths(robot, [SHARE]))


@pytest.mark.reference
def test_empty_host_and_absolute_paths_resolve_as_in_pinocchio(tmp_path: Path) -> None:
    """``package:///pkg/...`` (example-robot-data's Talos) and absolute paths, as Pinocchio."""
    text = Path(WRIST).read_text()
    files = [
        m.get("filename", "").removeprefix("package://") for m in ET.fromstring(text).iter("mesh")
    ]
    assert files
    empty_host = tmp_path / "empty_host.urdf"
    empty_host.write_text(text.replace('filename="package://', 'filename="package:///'))
    absolute = tmp_path / "absolute.urdf"
    absolute.write_text(text.replace('filename="package://', f'filename="{SHARE}/'))
    local = tmp_path / "file.urdf"
    local.write_text(text.replace('filename="package://', f'filename="file://{SHARE}/'))
    for urdf in (empty_host, absolute, local):
        model = ru.load(urdf)
        ours = robomodel_paths(model, [SHARE])
        assert sorted(ours) == sorted(pinocchio_paths(str(urdf), [SHARE]))
        assert set(ours) == {os.path.join(SHARE, f) for f in files}  # visuals and collisions


names = st.text(alphabet="abcXYZ019 _-.%+", min_size=1, max_size=8).filter(
    lambda s: s not in (".", "..")
)


@given(pkg=names, parts=st.lists(names, min_size=1, max_size=3))
def test_package_file_and_relative_forms_name_one_file(
    tmp_path_factory: pytest.TempPathFactory, pkg: str, parts: list[str]
) -> None:
    """Every way of writing one file (package://, package:///, file:// with %XX escapes,
    file://localhost, absolute, relative to the base directory) resolves to that file."""
    root = tmp_path_factory.mktemp("pkgs")
    target = root.joinpath(pkg, *parts)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"solid x\nendsolid x\n")
    rel = "/".join([pkg, *parts])
    escaped = "/".join(quote(p) for p in [pkg, *parts])
    dirs = [str(root)]
    expected = os.path.normpath(target)
    forms = [
        f"package://{escaped}",
        f"package:///{escaped}",
        f"model://{escaped}",
        f"file://{quote(str(target))}",
        f"file://localhost{quote(str(target))}",
        str(target),
    ]
    for form in forms:
        assert os.path.normpath(resolve_mesh(form, package_dirs=dirs)) == expected, form
    assert resolve_mesh(rel, base_dir=str(root)) == expected
    # The loader keeps the filename verbatim; its report, the URDF's directory for relative ones.
    urdf = root / "robot.urdf"
    urdf.write_text(mesh_urdf(forms[0], rel))
    model, report = ru.load_with_report(urdf, package_dirs=dirs)
    assert [s.geometry.filename for s in model.visuals[0]] == [forms[0], rel]  # type: ignore[union-attr]
    assert not check_meshes(model, origins=report.sources)


def test_nothing_resolves_outside_the_package_directories(tmp_path: Path) -> None:
    pkgs = tmp_path / "pkgs"
    (pkgs / "pkg").mkdir(parents=True)
    (tmp_path / "secret.stl").write_text("s")
    (pkgs / "pkg" / "out").symlink_to(tmp_path)
    for bad in (
        "package://pkg/../../secret.stl",
        "package:///../secret.stl",
        "package://pkg/%2E%2E/%2E%2E/secret.stl",
        "package://pkg/out/secret.stl",
        "model://pkg/out/secret.stl",
        "package://",
    ):
        with pytest.raises(MeshError) as info:
            resolve_mesh(bad, package_dirs=[str(pkgs)])
        assert info.value.kind in ("refused", "missing") and info.value.filename == bad
    with pytest.raises(MeshError, match="host 'elsewhere'"):
        resolve_mesh("file://elsewhere/x.stl")
    with pytest.raises(MeshError, match="https://"):
        resolve_mesh("https://example.com/x.stl")


def test_environment_only_on_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ros, ament, gazebo = tmp_path / "ros", tmp_path / "ament", tmp_path / "gz"
    (ros / "pkg" / "m").mkdir(parents=True)
    (ros / "pkg" / "m" / "a.stl").write_text("x")
    (ros / "pkg" / "package.xml").write_text("<package/>")
    (ament / "share").mkdir(parents=True)
    gazebo.mkdir()
    monkeypatch.setenv("ROS_PACKAGE_PATH", f"{ros / 'pkg'}{os.pathsep}{ros}")
    monkeypatch.setenv("AMENT_PREFIX_PATH", str(ament))
    monkeypatch.setenv("GAZEBO_MODEL_PATH", str(gazebo))
    # A package entry gives its parent (once), prefixes their share/, Gazebo paths as given.
    assert env_package_dirs() == [str(ros), str(ament / "share"), str(gazebo)]
    text = mesh_urdf("package://pkg/m/a.stl")
    model = ru.loads(text)
    assert [p.kind for p in check_meshes(model)] == ["unresolvable"]
    model = ru.loads(text, package_dirs=env_package_dirs())
    assert not check_meshes(model)
    assert resolve_mesh(model.visuals[0][0].geometry, package_dirs=model.package_dirs) == str(  # type: ignore[arg-type]
        ros / "pkg" / "m" / "a.stl"
    )


# --------------------------------------------------------------------------- where meshes were read


def test_loaded_meshes_are_plain_and_the_load_report_says_where_they_were_read(
    tmp_path: Path,
) -> None:
    """Copies of one URDF in two directories load equal and export the same text; each load's
    report resolves its relative meshes in its own directory and names each mesh's line."""
    text = mesh_urdf("meshes/a.stl", "package://p/b.stl")
    results = []
    for d in ("one", "two"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "robot.urdf").write_text(text)
        results.append(ru.load_with_report(tmp_path / d / "robot.urdf"))
    a, b = (model for model, _ in results)
    assert a == b and hash(a) == hash(b) and ru.dumps(a) == ru.dumps(b)
    assert a == ru.loads(text) == ru.loads(ru.dumps(a)) == ru.load(tmp_path / "one" / "robot.urdf")
    mesh = a.visuals[0][0].geometry
    assert type(mesh) is rm.Mesh and mesh == rm.Mesh("meshes/a.stl")
    src = results[0][1].sources
    assert (src.file, src.mesh_lines["a", "visual", 0]) == (str(tmp_path / "one" / "robot.urdf"), 3)
    assert resolve_mesh(mesh, base_dir=src.base_dir) == str(tmp_path / "one" / "meshes" / "a.stl")
    assert resolve_mesh(mesh, base_dir=results[1][1].sources.base_dir) == str(
        tmp_path / "two" / "meshes" / "a.stl"
    )
    problems = check_meshes(a, origins=src)
    assert [(p.filename, p.file, p.line) for p in problems] == [
        ("meshes/a.stl", src.file, 3),
        ("package://p/b.stl", src.file, 4),
    ]
    # A model built in code with plain meshes is the loaded one.
    built = rm.add_link(rm.Model(name="r"), "a")
    shapes = [
        rm.SolidShape(geometry=rm.Mesh("meshes/a.stl")),
        rm.SolidShape(geometry=rm.Mesh("package://p/b.stl")),
    ]
    built = rm.with_visual_shapes(built, "a", shapes)
    assert built == a and a == built and hash(built) == hash(a)


def test_relative_meshes_of_a_string_need_a_base_dir(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "a b.stl").write_text("x")
    text = mesh_urdf("m/a b.stl", "../elsewhere/c.stl")
    problems = check_meshes(ru.loads(text))
    assert [(p.severity, p.kind) for p in problems] == [("warning", "unresolvable")] * 2
    assert "base_dir" in problems[0].reason
    model, report = ru.loads_with_report(text, base_dir=tmp_path)
    problems = check_meshes(model, origins=report.sources)
    assert [(p.filename, p.path, p.severity) for p in problems] == [
        ("../elsewhere/c.stl", str(tmp_path.parent / "elsewhere" / "c.stl"), "error")
    ]
    assert [(p.filename, p.path) for p in check_meshes(ru.loads(text), base_dir=str(tmp_path))] == [
        (p.filename, p.path) for p in problems
    ]


# --------------------------------------------------------------------------- checks


def mesh_lines(path: str) -> list[tuple[str, int]]:
    """(filename, line) of every <mesh> in a visual or collision, from the URDF text."""
    out = []
    for k, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if "<mesh " in line:
            out.append((line.split('filename="')[1].split('"')[0], k))
    return out


@pytest.mark.parametrize("name", ["iCubGazeboV2_5", "iCubLisboa01", "left_hand_mk3"])
def test_icub_meshes_are_all_found_and_all_missing_with_a_wrong_dir(
    name: str, tmp_path: Path
) -> None:
    path = str(icub_models.get_model_file(name))
    assert not check_meshes(ru.load(path, package_dirs=[SHARE]))
    assert not [
        f for f in findings(ru.load(path, package_dirs=[SHARE]), files=True) if f.check == "meshes"
    ]
    model, report = ru.load_with_report(path, package_dirs=[str(tmp_path)])
    problems = check_meshes(model, origins=report.sources)
    expected = mesh_lines(path)
    assert len(problems) == len(expected) > 0
    assert sorted((p.filename, p.line) for p in problems) == sorted(expected)
    assert {(p.severity, p.kind, p.file) for p in problems} == {("error", "missing", path)}
    # Without package directories the meshes cannot be checked: one warning, not one per mesh.
    found = [f for f in findings(ru.load(path), files=True) if f.check == "meshes"]
    assert [f.severity for f in found] == ["warning"]
    assert f"{len(expected)} meshes with package:// URIs not checked" in found[0].message


def test_validate_reports_a_broken_mesh_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "ok.stl").write_text("solid\nendsolid\n")
    (tmp_path / "meshes" / "dir.stl").mkdir()
    path = tmp_path / "robot.urdf"
    path.write_text(mesh_urdf("meshes/ok.stl", "meshes/missing.stl", "meshes/dir.stl"))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        f"error: link 'a' (line 2): visual mesh 'meshes/missing.stl' ({path}:4): no such file "
        f"'{tmp_path / 'meshes' / 'missing.stl'}' [meshes]"
    ) in out
    assert f"visual mesh 'meshes/dir.stl' ({path}:5): " in out and "is a directory" in out
    assert "meshes/ok.stl" not in out and "not valid (2 errors" in out


def test_info_checks_relative_meshes_next_to_the_urdf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """info judges mesh files as validate does: relative paths next to the URDF file (the
    load's report gives its directory), from any working directory."""
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "ok.stl").write_text("solid\nendsolid\n")
    path = tmp_path / "robot.urdf"
    path.write_text(mesh_urdf("meshes/ok.stl", "meshes/missing.stl"))
    assert main(["info", str(path), "--no-tree"]) == 0
    assert "valid:       no (1 error, 0 warnings" in capsys.readouterr().out


def test_validate_finds_package_meshes_with_package_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pkgs" / "talos_data" / "meshes").mkdir(parents=True)
    (tmp_path / "pkgs" / "talos_data" / "meshes" / "a.stl").write_text("x")
    path = tmp_path / "robot.urdf"
    path.write_text(mesh_urdf("package:///talos_data/meshes/a.stl"))
    assert main(["validate", str(path), "--strict"]) == 1
    assert "pass package_dirs=[DIR] (--package-dir DIR)" in capsys.readouterr().out
    pkgs = str(tmp_path / "pkgs")
    assert main(["validate", str(path), "--strict", "--package-dir", pkgs]) == 0
    assert main(["validate", str(path), "--package-dir", str(tmp_path)]) == 1
    assert "not found in the package directories" in capsys.readouterr().out


# --------------------------------------------------------------------------- trimesh


rotations = st.lists(st.floats(-3.2, 3.2), min_size=3, max_size=3)
positions = st.lists(st.floats(-1.0, 1.0), min_size=3, max_size=3)
sizes = st.floats(0.01, 2.0)


@given(rpy=rotations, xyz=positions, a=sizes, b=sizes, c=sizes)
# A tilt whose cosine rounds to 1: the disc's reach must not cancel to 0.
@example(rpy=[0.0, 1e-9, 0.0], xyz=[0.0, 0.0, 1.0], a=1.0, b=2.0, c=1.0)
def test_primitive_bounds_are_exact(
    rpy: list[float], xyz: list[float], a: float, b: float, c: float
) -> None:
    """The bounds of a placed box equal those of its triangulation (same corners); a placed
    cylinder's contain its triangulation's and exceed them by at most the polygon's gap."""
    T = rm.Transform.from_rpy_xyz(rpy, xyz)
    for geometry in (rm.Box(a, b, c), rm.Cylinder(a, b), rm.Sphere(a)):
        shape = rm.SolidShape(geometry=geometry, link_H_geometry=T)
        m = rm.with_visual_shapes(rm.add_link(rm.Model(), "l"), "l", [shape])
        exact = link_bounds(m, "l")
        tri = shape_trimesh(shape).bounds
        if isinstance(geometry, rm.Box):
            np.testing.assert_allclose(exact, tri, atol=1e-9)
        else:
            gap = a * (1 - np.cos(np.pi / 24)) + 1e-12
            assert np.all(exact[0] <= tri[0] + 1e-9) and np.all(exact[1] >= tri[1] - 1e-9)
            assert np.all(tri[0] - exact[0] <= gap * 2) and np.all(exact[1] - tri[1] <= gap * 2)


def test_volumes_of_primitives_and_a_real_mesh() -> None:
    shapes = [
        rm.SolidShape(geometry=rm.Box(0.1, 0.2, 0.3)),
        rm.SolidShape(geometry=rm.Sphere(0.5)),
        rm.SolidShape(geometry=rm.Cylinder(0.1, 2.0)),
    ]
    m = rm.with_collision_shapes(rm.add_link(rm.Model(), "l"), "l", shapes)
    assert link_volume(m, "l") == pytest.approx(0.006 + 4 / 3 * np.pi * 0.125 + np.pi * 0.02)
    box = trimesh.creation.box(extents=(0.1, 0.2, 0.3))
    assert box.volume == pytest.approx(0.006)  # the triangulated box: the same number
    # A real mesh: trimesh on the file directly, scaled by hand.
    model = ru.load(WRIST, package_dirs=[SHARE])
    for i, shapes in enumerate(model.collisions):
        for s in shapes:
            g = s.geometry
            assert isinstance(g, rm.Mesh)
            raw = trimesh.load(resolve_mesh(g, package_dirs=[SHARE]), force="mesh")
            raw.apply_scale(g.scale)
            np.testing.assert_allclose(load_mesh(g, package_dirs=[SHARE]).bounds, raw.bounds)
            placed = raw.copy()
            placed.apply_transform(s.link_H_geometry.as_matrix())
            if len(shapes) == 1:
                np.testing.assert_allclose(
                    link_bounds(model, i, kind="collision"), placed.bounds, atol=1e-12
                )
                if raw.is_watertight:
                    assert link_volume(model, i) == pytest.approx(abs(raw.volume))
                else:
                    with pytest.raises(MeshError, match="not closed"):
                        link_volume(model, i)


def test_missing_trimesh_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "trimesh", None)
    with pytest.raises(rm.errors.RobomodelError, match=r"pip install 'robomodel\[meshes\]'"):
        load_mesh(rm.Mesh("/x.stl"))
    with pytest.raises(ImportError):
        shape_trimesh(rm.SolidShape(geometry=rm.Box(1, 1, 1)))


@pytest.mark.reference
def test_exported_glb_holds_every_shape_at_its_pinocchio_pose(tmp_path: Path) -> None:
    model = ru.load(WRIST, package_dirs=[SHARE])
    rng = np.random.default_rng(7)
    q = rng.uniform(-1, 1, model.n_pos_coords)
    out = export_scene(model, tmp_path / "wrist.glb", q)
    scene = trimesh.load(out, force="scene")
    labels = [
        (name, k)
        for name, shapes in zip(model.link_names, model.visuals, strict=True)
        for k in range(len(shapes))
    ]
    assert len(scene.geometry) == len(labels) > 0
    # Pinocchio's poses of the link frames, at the same joint positions (by joint name).
    pm = pin.buildModelFromUrdf(WRIST)
    qp = pin.neutral(pm)
    for name, j in zip(model.joint_names, model.joints, strict=True):
        if j.n_pos_coords:
            qp[pm.joints[pm.getJointId(name)].idx_q] = q[j.pos_coord_offset]
    data = pm.createData()
    pin.framesForwardKinematics(pm, data, qp)
    base = data.oMf[pm.getFrameId(model.default_base)].homogeneous
    for name, k in labels:
        H, _ = scene.graph[f"{name}/visual/{k}"]
        expected = np.linalg.inv(base) @ data.oMf[pm.getFrameId(name)].homogeneous
        np.testing.assert_allclose(H, expected, atol=1e-9)
    # The geometry itself is the mesh placed in its link frame.
    shape = model.visuals[model.link_index(labels[0][0])][labels[0][1]]
    geom = scene.geometry[scene.graph[f"{labels[0][0]}/visual/0"][1]]
    np.testing.assert_allclose(geom.bounds, shape_trimesh(shape, package_dirs=[SHARE]).bounds)
    obj = export_scene(model, tmp_path / "wrist.obj", q)
    merged = trimesh.load(obj, force="mesh")
    np.testing.assert_allclose(merged.bounds, scene.bounds, atol=1e-6)
    with pytest.raises(rm.errors.ModelError, match=r"cannot write '\.fbx'"):
        export_scene(model, tmp_path / "wrist.fbx", q)


def test_scene_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.glb"
    args = ["scene", WRIST, "-o", str(out), "--package-dir", SHARE, "--collision"]
    assert main(args) == 0
    assert len(trimesh.load(out, force="scene").geometry) == sum(
        map(len, ru.load(WRIST).collisions)
    )
    assert main(["scene", WRIST, "-o", str(out)]) == 2
    assert "not found: no package directory" in capsys.readouterr().err


def test_resolve_uri_of_a_loaded_mesh_uses_the_reports_directory(tmp_path: Path) -> None:
    """A loaded mesh is a plain value: its URDF's directory comes from the load's report."""
    path = tmp_path / "robot.urdf"
    path.write_text(mesh_urdf("meshes/a.stl", "package://nowhere/b.stl"))
    model, report = ru.load_with_report(path)
    rel, pkg = (s.geometry for s in model.visuals[0])
    assert ru.resolve_uri(model, rel, base_dir=report.sources.base_dir) == str(  # type: ignore[arg-type]
        tmp_path / "meshes" / "a.stl"
    )
    assert ru.resolve_uri(model, rel) == "meshes/a.stl"  # type: ignore[arg-type]
    assert ru.resolve_uri(model, "meshes/a.stl") == "meshes/a.stl"  # a bare string: unchanged
    with pytest.raises(ru.URDFReferenceError) as info:
        ru.resolve_uri(model, pkg)  # type: ignore[arg-type]
    assert str(info.value).startswith("<string>: mesh: 'package://nowhere/b.stl': not found")
