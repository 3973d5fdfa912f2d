"""Tests of robomodel.physics.inertia: consistency checks, the nearest consistent inertia,
shapes."""

from __future__ import annotations

import icub_models
import numpy as np
import pytest
import trimesh
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import inertias

import robomodel as rm
import robomodel.formats.urdf
import robomodel.physics.inertia
from robomodel.data import example_path
from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.formats.urdf import load, load_with_report
from robomodel.physics.inertia import (
    consistency_problems,
    from_pseudo_inertia,
    inconsistent_links,
    nearest_consistent,
    pseudo_inertia,
    shape_inertia,
    shape_volume,
    solid_inertia,
    with_inertias_from_shapes,
)

finite = st.floats(-5.0, 5.0, allow_nan=False, allow_infinity=False)


@st.composite
def any_inertias(draw: st.DrawFn) -> rm.SpatialInertia:
    """Arbitrary (often inconsistent) inertias: any mass, first moment and symmetric I_O."""
    v = draw(st.lists(finite, min_size=10, max_size=10))
    return rm.SpatialInertia.from_vector(v)


# --------------------------------------------------------------------------- pseudo-inertia


@given(any_inertias())
def test_pseudo_inertia_round_trips(si):
    """from_pseudo_inertia(pseudo_inertia(I)) == I, for consistent and inconsistent inertias."""
    back = from_pseudo_inertia(pseudo_inertia(si))
    np.testing.assert_allclose(back.as_vector(), si.as_vector(), atol=1e-12)


def test_pseudo_inertia_is_the_second_moment_of_point_masses():
    """For point masses m_k at x_k, J = sum m_k [x; 1][x; 1]^T (the definition)."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 3))
    m = rng.uniform(0.1, 2.0, 5)
    total = rm.SpatialInertia.zero()
    J = np.zeros((4, 4))
    for mk, xk in zip(m, x, strict=True):
        total = total + rm.SpatialInertia.from_com(mk, xk)
        y = np.append(xk, 1.0)
        J += mk * np.outer(y, y)
    np.testing.assert_allclose(pseudo_inertia(total), J, atol=1e-12)
    assert consistency_problems(total) == ()


def test_from_pseudo_inertia_refuses_non_symmetric():
    """A non-symmetric or mis-shaped matrix is refused with a ModelError."""
    with pytest.raises(ModelError, match="symmetric"):
        from_pseudo_inertia(np.triu(np.ones((4, 4))))
    with pytest.raises(ModelError, match="4 x 4"):
        from_pseudo_inertia(np.eye(3))


# --------------------------------------------------------------------------- consistency


@given(inertias())
def test_consistent_inertias_have_no_problems(si):
    """Every inertia of the strategy (built from a mass, a centre and principal moments that
    obey the triangle inequality) passes."""
    assert consistency_problems(si) == ()


@pytest.mark.parametrize(
    ("inertia", "fragments"),
    [
        (rm.SpatialInertia(-1.0, (0, 0, 0), np.eye(3)), ["mass is negative: m = -1"]),
        (
            rm.SpatialInertia(0.0, (0.1, 0, 0), np.zeros((3, 3))),
            ["massless body has a first moment h = [0.1, 0, 0]"],
        ),
        (
            rm.SpatialInertia.from_com(1.0, (0, 0, 0), np.diag([-1.0, 2.0, 2.0])),
            ["not positive semi-definite: principal moments [-1, 2, 2]", "pseudo-inertia"],
        ),
        (
            rm.SpatialInertia.from_com(2.0, (1.0, 0, 0), np.diag([1.0, 2.0, 4.0])),
            ["break the triangle inequality: 1 + 2 = 3 < 4", "smallest eigenvalue -0.5"],
        ),
    ],
)
def test_each_problem_names_its_values(inertia, fragments):
    """Hand-made inconsistent inertias: each violated condition is reported with its numbers
    (central inertia diag(1, 2, 4): Sigma_c = diag(2.5, 1.5, -0.5))."""
    problems = consistency_problems(inertia)
    text = "\n".join(problems)
    for fragment in fragments:
        assert fragment in text
    assert not inertia.is_physically_consistent()


def test_round_off_at_the_boundary_passes():
    """A thin rod (a + b = c exactly, up to round-off) and the zero inertia are consistent."""
    rod = rm.SpatialInertia.from_com(3.0, (0.2, -0.1, 0.5), np.diag([1.0, 1.0, 0.0]) / 3.0)
    assert consistency_problems(rod) == ()
    assert consistency_problems(rm.SpatialInertia.zero()) == ()


def test_real_inertias():
    """The bundled model is consistent throughout; iCubNancy01's ankles (an Izz of 4.77 kg m^2
    in the shipped URDF, three orders above its other moments) are flagged, naming it."""
    assert inconsistent_links(load(example_path())) == {}
    nancy = load(icub_models.get_model_file("iCubNancy01"))
    bad = inconsistent_links(nancy)
    assert list(bad) == [n for n in nancy.link_names if n in ("l_ankle_1", "r_ankle_1")]
    assert bad["r_ankle_1"] == consistency_problems(nancy.link("r_ankle_1").inertia)
    assert "< 4.76593" in bad["l_ankle_1"][0]


# --------------------------------------------------------------------------- nearest


@given(any_inertias())
def test_nearest_consistent_passes_and_is_a_projection(si):
    """The result is consistent, projecting twice changes nothing, and a consistent input is
    returned as is."""
    near = nearest_consistent(si)
    assert consistency_problems(near) == ()
    assert nearest_consistent(near) is near or np.allclose(
        nearest_consistent(near).as_vector(), near.as_vector(), atol=1e-9
    )


@given(inertias())
def test_nearest_consistent_keeps_consistent_inertias(si):
    """A consistent inertia is its own nearest (the same object)."""
    assert nearest_consistent(si) is si


@settings(max_examples=15)
@given(any_inertias(), st.integers(0, 2**32 - 1))
def test_nearest_consistent_beats_a_brute_force_search(si, seed):
    """No consistent inertia found by random search (random pseudo-inertias L L^T, refined by
    random local steps) is nearer in the documented metric |J - J'|_F."""
    J = pseudo_inertia(si)
    best = float(np.linalg.norm(J - pseudo_inertia(nearest_consistent(si))))
    rng = np.random.default_rng(seed)
    scale = max(1.0, float(np.abs(J).max()))
    for _ in range(20):
        L = rng.normal(scale=np.sqrt(scale), size=(4, 4))
        d = float(np.linalg.norm(J - L @ L.T))
        for step in (0.3, 0.1, 0.03):
            for _ in range(40):
                trial = L + rng.normal(scale=step * np.sqrt(scale), size=(4, 4))
                dt = float(np.linalg.norm(J - trial @ trial.T))
                if dt < d:
                    L, d = trial, dt
        assert d >= best - 1e-9


# --------------------------------------------------------------------------- shapes


def mass_properties(mesh: trimesh.Trimesh, mass: float) -> tuple[np.ndarray, np.ndarray]:
    """trimesh's centre of mass and inertia about it, for a given total mass."""
    return np.asarray(mesh.center_mass), np.asarray(mesh.moment_inertia) * mass / mesh.volume


@pytest.mark.parametrize(
    ("geometry", "mesh", "rtol"),
    [
        (rm.Box(0.3, 0.5, 1.2), trimesh.creation.box(extents=(0.3, 0.5, 1.2)), 1e-12),
        (
            rm.Cylinder(radius=0.2, length=0.7),
            trimesh.creation.cylinder(radius=0.2, height=0.7, sections=512),
            1e-3,
        ),
        (rm.Sphere(radius=0.4), trimesh.creation.icosphere(subdivisions=5, radius=0.4), 2e-3),
    ],
)
def test_primitive_inertias_match_trimesh(geometry, mesh, rtol):
    """Box, cylinder and sphere formulas against trimesh's mass properties of the same solid
    as a (finely tessellated) mesh; volume and density give the same mass as mass= ."""
    si = shape_inertia(geometry, mass=2.5)
    com, inertia = mass_properties(mesh, 2.5)
    np.testing.assert_allclose(si.com, com, atol=1e-9)
    np.testing.assert_allclose(si.inertia_com, inertia, rtol=rtol, atol=1e-12)
    assert shape_volume(geometry) == pytest.approx(mesh.volume, rel=rtol)
    dense = shape_inertia(geometry, density=2.5 / shape_volume(geometry))
    np.testing.assert_allclose(dense.as_vector(), si.as_vector(), rtol=1e-12)


def test_mesh_inertia_with_trimesh(tmp_path):
    """A closed mesh file (an off-centre box written as STL, scaled) gives the box's inertia
    about its own centre; missing and open meshes are refused with what to do."""
    box = trimesh.creation.box(extents=(0.1, 0.2, 0.3))
    box.apply_translation((0.05, 0.0, -0.1))
    box.export(tmp_path / "box.stl")
    mesh = rm.Mesh("box.stl", scale=(2.0, 2.0, 2.0))
    si = shape_inertia(mesh, mass=3.0, base_dir=tmp_path)
    expected = shape_inertia(rm.Box(0.2, 0.4, 0.6), mass=3.0)
    np.testing.assert_allclose(si.com, (0.1, 0.0, -0.2), atol=1e-12)
    np.testing.assert_allclose(si.inertia_com, expected.inertia_com, atol=1e-12)
    with pytest.raises(ModelError, match="package://"):
        shape_inertia(rm.Mesh("package://robot/missing.stl"), mass=1.0)
    open_mesh = trimesh.Trimesh(box.vertices, box.faces[:-2])
    open_mesh.export(tmp_path / "open.stl")
    with pytest.raises(ModelError, match="watertight"):
        shape_inertia(rm.Mesh("open.stl"), mass=1.0, base_dir=tmp_path)


def test_solid_inertia_applies_the_shape_pose():
    """A shape away from the link origin: its inertia is moved by link_H_geometry."""
    pose = rm.Transform.from_rpy_xyz((0.3, 0.0, 0.5), (0.0, 0.2, 0.1))
    shape = rm.SolidShape(geometry=rm.Box(0.1, 0.2, 0.3), link_H_geometry=pose)
    si = solid_inertia(shape, mass=2.0)
    np.testing.assert_allclose(si.com, (0.0, 0.2, 0.1), atol=1e-12)
    R = pose.rotation
    local = shape_inertia(rm.Box(0.1, 0.2, 0.3), mass=2.0).inertia_com
    np.testing.assert_allclose(si.inertia_com, R @ local @ R.T, atol=1e-12)


def test_with_inertias_from_shapes_reproduces_the_bundled_model():
    """The bundled model's inertias are those of its primitive visuals: recomputing them from
    the shapes with each link's own mass gives the model back (to the URDF's rounding)."""
    m = load(example_path())
    names = [n for n, link in zip(m.link_names, m.links, strict=True) if link.mass > 0]
    masses = {n: m.link(n).mass for n in names}
    again = with_inertias_from_shapes(m, masses=masses, shapes="visual")
    np.testing.assert_allclose(again.inertial_parameters(), m.inertial_parameters(), atol=1e-9)
    dense = with_inertias_from_shapes(m, density=1000.0, shapes="visual")
    link = names[0]
    volume = sum(shape_volume(s.geometry) for s in m.visual_shapes(link))
    assert dense.link(link).mass == pytest.approx(1000.0 * volume)


def test_with_inertias_from_shapes_refuses_bad_arguments():
    """Neither or both of density and masses, a link without shapes, an unknown link."""
    m = load(example_path())
    with pytest.raises(ArgumentError, match="exactly one"):
        with_inertias_from_shapes(m)
    with pytest.raises(ArgumentError, match="exactly one"):
        with_inertias_from_shapes(m, density=1.0, masses={})
    bare = rm.add_link(rm.Model(), "bare")
    with pytest.raises(ModelError, match="no collision shapes"):
        with_inertias_from_shapes(bare, masses={"bare": 1.0})
    with pytest.raises(UnknownNameError):
        with_inertias_from_shapes(m, masses={"nope": 1.0})
    with pytest.raises(ModelError, match=">= 0"):
        shape_inertia(rm.Box(1, 1, 1), mass=-1.0)


def test_mesh_inertias_resolve_like_the_loader(tmp_path, monkeypatch):
    """with_inertias_from_shapes finds a loaded model's meshes where the loader does: relative
    paths next to the URDF file (the load's report gives its directory), package:// URIs in the
    model's package directories, from any working directory."""
    pkg = tmp_path / "share" / "robot" / "meshes"
    pkg.mkdir(parents=True)
    trimesh.creation.box(extents=(0.1, 0.2, 0.3)).export(pkg / "box.stl")
    urdf = tmp_path / "share" / "robot" / "r.urdf"
    inertial = """<inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>"""
    urdf.write_text(
        f"""<robot name="r">
        <link name="a">{inertial}<collision><geometry><mesh filename="meshes/box.stl"/>
        </geometry></collision></link>
        <link name="b">{inertial}<collision><geometry>
        <mesh filename="package://robot/meshes/box.stl"/></geometry></collision></link>
        <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>"""
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    m, report = load_with_report(urdf, package_dirs=[str(tmp_path / "share")])
    out = rm.physics.inertia.with_inertias_from_shapes(
        m, masses={"a": 3.0, "b": 3.0}, base_dir=report.sources.base_dir
    )
    expected = shape_inertia(rm.Box(0.1, 0.2, 0.3), mass=3.0)
    for name in ("a", "b"):
        np.testing.assert_allclose(out.link(name).inertia.inertia_com, expected.inertia_com)
    # Without the package directory the package:// mesh is refused with what to do.
    bare = rm.formats.urdf.load(urdf)
    with pytest.raises(ModelError, match="package_dirs="):
        rm.physics.inertia.with_inertias_from_shapes(bare, masses={"b": 1.0})
