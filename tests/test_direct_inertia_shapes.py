"""Direct tests of :func:`robomodel.physics.inertia.with_inertias_from_shapes`.

Oracles: the closed-form volumes and central inertias of boxes, spheres and cylinders (any
mechanics handbook), trimesh's volume of a mesh file, and the parallel-axis theorem written out
here. With ``masses=``, a link's mass is shared among its shapes in proportion to their volumes.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError
from robomodel.physics.inertia import with_inertias_from_shapes


def _volume(g) -> float:
    if isinstance(g, rm.Box):
        return g.x * g.y * g.z
    if isinstance(g, rm.Sphere):
        return 4.0 / 3.0 * math.pi * g.radius**3
    return math.pi * g.radius**2 * g.length


def _central(g, m: float) -> np.ndarray:
    if isinstance(g, rm.Box):
        return m / 12.0 * np.diag([g.y**2 + g.z**2, g.x**2 + g.z**2, g.x**2 + g.y**2])
    if isinstance(g, rm.Sphere):
        return 0.4 * m * g.radius**2 * np.eye(3)
    side = m / 12.0 * (3 * g.radius**2 + g.length**2)
    return np.diag([side, side, 0.5 * m * g.radius**2])


def _expected(
    parts: list[tuple[object, np.ndarray, float]],
) -> tuple[float, np.ndarray, np.ndarray]:
    """Mass, first moment and inertia about the link origin of shapes (geometry, position,
    mass) translated (not rotated) to ``position``: the parallel-axis theorem."""
    mass = sum(m for _, _, m in parts)
    h = sum((m * p for _, p, m in parts), np.zeros(3))
    I_O = sum(
        (_central(g, m) + m * (float(p @ p) * np.eye(3) - np.outer(p, p)) for g, p, m in parts),
        np.zeros((3, 3)),
    )
    return mass, h, I_O


def _link_with(shapes: list[tuple[object, np.ndarray]], *, kind: str = "collision") -> rm.Model:
    m = rm.add_link(rm.Model(), "l")
    solids = [
        rm.SolidShape(geometry=g, link_H_geometry=rm.Transform.from_translation(p))
        for g, p in shapes
    ]
    add = rm.with_collision_shapes if kind == "collision" else rm.with_visual_shapes
    return add(m, "l", solids)


def _check(inertia: rm.SpatialInertia, mass: float, h: np.ndarray, I_O: np.ndarray) -> None:
    assert inertia.mass == pytest.approx(mass, rel=1e-12)
    np.testing.assert_allclose(inertia.first_moment, h, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(inertia.rotational_inertia, I_O, rtol=1e-10, atol=1e-14)


def test_mass_is_shared_by_volume_not_equally() -> None:
    """A 0.1 x 0.2 x 0.3 box (6e-3 m^3) and a 0.1 m ball (4.19e-3 m^3) a metre away: the ball
    takes 41 % of the mass, so the centre of mass is 0.411 m from the box, not 0.5 m."""
    box, ball = rm.Box(0.1, 0.2, 0.3), rm.Sphere(0.1)
    model = _link_with([(box, np.zeros(3)), (ball, np.array([1.0, 0.0, 0.0]))])
    out = with_inertias_from_shapes(model, masses={"l": 3.0})
    share = _volume(ball) / (_volume(box) + _volume(ball))
    assert out.link("l").inertia.com[0] == pytest.approx(share, rel=1e-12)
    assert share == pytest.approx(0.4111, abs=1e-4)
    _check(
        out.link("l").inertia,
        *_expected([(box, np.zeros(3), 3 * (1 - share)), (ball, np.array([1.0, 0, 0]), 3 * share)]),
    )


_geometries = st.one_of(
    st.builds(rm.Box, *[st.floats(0.01, 1.0)] * 3),
    st.builds(rm.Sphere, st.floats(0.01, 1.0)),
    st.builds(rm.Cylinder, st.floats(0.01, 1.0), st.floats(0.01, 1.0)),
)
_positions = st.builds(np.array, st.tuples(*[st.floats(-1.0, 1.0)] * 3))


@given(
    shapes=st.lists(st.tuples(_geometries, _positions), min_size=1, max_size=4),
    mass=st.floats(0.1, 50.0),
)
def test_masses_split_in_proportion_to_closed_form_volumes(shapes, mass: float) -> None:
    """Property: with masses=, shape i weighs mass * V_i / sum V, and the link's inertia is the
    parallel-axis sum of the shapes' closed-form inertias."""
    out = with_inertias_from_shapes(_link_with(shapes), masses={"l": mass})
    total = sum(_volume(g) for g, _ in shapes)
    _check(
        out.link("l").inertia, *_expected([(g, p, mass * _volume(g) / total) for g, p in shapes])
    )


@given(
    shapes=st.lists(st.tuples(_geometries, _positions), min_size=1, max_size=4),
    density=st.floats(1.0, 8000.0),
)
def test_density_weighs_each_shape_by_its_volume(shapes, density: float) -> None:
    """Property: with density=, shape i weighs density * V_i."""
    out = with_inertias_from_shapes(
        _link_with(shapes, kind="visual"), density=density, shapes="visual"
    )
    _check(out.link("l").inertia, *_expected([(g, p, density * _volume(g)) for g, p in shapes]))


def test_mesh_volume_is_trimeshs(tmp_path: Path) -> None:
    """A mesh's share follows trimesh's volume of the file, with the mesh's scale applied."""
    trimesh = pytest.importorskip("trimesh")
    path = tmp_path / "ball.stl"
    trimesh.creation.icosphere(subdivisions=2, radius=0.2).export(path)
    v_mesh = float(trimesh.load(path).volume) * 2.0  # scaled by 2 along y
    box = rm.Box(0.1, 0.1, 0.1)
    model = _link_with([(box, np.zeros(3))])
    mesh = rm.SolidShape(
        geometry=rm.Mesh(str(path), (1.0, 2.0, 1.0)),
        link_H_geometry=rm.Transform.from_translation((0.0, 0.0, 1.0)),
    )
    model = rm.with_collision_shapes(model, "l", [*model.collisions[0], mesh])
    out = with_inertias_from_shapes(model, masses={"l": 2.0})
    share = v_mesh / (v_mesh + _volume(box))
    assert out.link("l").inertia.com[2] == pytest.approx(share, rel=1e-9)


def test_options_select_links_and_shape_kinds() -> None:
    """links= limits which links change; shapes= picks the table; a named link without such
    shapes, a missing mass entry, or both/neither of density and masses are refused."""
    m = rm.add_link(rm.Model(), "a")
    m = rm.add_joint_and_link(m, "a", "j", rm.FixedJoint(link1="a", link2="b"), "b", rm.Link())
    m = rm.with_collision_shapes(m, "a", [rm.SolidShape(geometry=rm.Sphere(0.1))])
    m = rm.with_collision_shapes(m, "b", [rm.SolidShape(geometry=rm.Sphere(0.2))])
    m = rm.with_visual_shapes(m, "b", [rm.SolidShape(geometry=rm.Box(1.0, 1.0, 1.0))])
    only_b = with_inertias_from_shapes(m, density=1000.0, links=["b"])
    assert only_b.link("a").mass == 0.0
    assert only_b.link("b").mass == pytest.approx(1000.0 * _volume(rm.Sphere(0.2)))
    visual = with_inertias_from_shapes(m, density=1000.0, shapes="visual")
    assert visual.link("a").mass == 0.0 and visual.link("b").mass == pytest.approx(1000.0)
    with pytest.raises(ModelError, match="no visual shapes"):
        with_inertias_from_shapes(m, density=1.0, shapes="visual", links=["a"])
    with pytest.raises(ModelError, match="no entry for link 'a'"):
        with_inertias_from_shapes(m, masses={"b": 1.0}, links=["a"])
    with pytest.raises(ArgumentError):
        with_inertias_from_shapes(m, density=1.0, masses={"a": 1.0})
    with pytest.raises(ArgumentError):
        with_inertias_from_shapes(m)
    with pytest.raises(ModelError, match="finite and >= 0"):
        with_inertias_from_shapes(m, masses={"a": -1.0})
