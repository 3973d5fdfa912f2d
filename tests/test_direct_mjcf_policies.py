"""Direct tests of the MJCF exporter's policies at their boundaries, MuJoCo as the judge.

* MuJoCo refuses a moving body whose mass or principal inertias are not above ``mjMINVAL`` =
  1e-15 (``MJCF_MIN_VALUE``), and principal moments with ``A + B < C``. The exporter must
  leave alone what MuJoCo accepts (nothing in the report) and fix, and report, what it refuses;
  whether MuJoCo accepts is asked of MuJoCo, on a hand-written ``<inertial>``.
* Every option's other value: what it leaves out is listed in the report, one entry per shape.
"""

from __future__ import annotations

import numpy as np
import pytest

import robomodel as rm
from robomodel.formats import mjcf
from robomodel.formats.mjcf.options import MJCF_MIN_VALUE

mujoco = pytest.importorskip("mujoco")

_HEAVY = rm.SpatialInertia.from_com(1.0, (0.0, 0.0, 0.0), 0.1 * np.eye(3))


def _mujoco_accepts(mass: float, diag: tuple[float, float, float]) -> bool:
    """Whether MuJoCo compiles a hinged body with this mass and principal inertia."""
    text = f"""<mujoco><worldbody><body name="b"><joint type="hinge"/>
      <inertial pos="0 0 0" mass="{mass!r}" diaginertia="{diag[0]!r} {diag[1]!r} {diag[2]!r}"/>
      </body></worldbody></mujoco>"""
    try:
        mujoco.MjModel.from_xml_string(text)
    except ValueError:
        return False
    return True


def _hinged(inertia: rm.SpatialInertia) -> rm.Model:
    m = rm.add_link(rm.Model(name="r"), "base", rm.Link(_HEAVY))
    return rm.add_joint_and_link(
        m, "base", "j", rm.RevoluteJoint(link1="base", link2="b"), "b", rm.Link(inertia)
    )


@pytest.mark.parametrize(
    ("mass", "diag", "mujoco_accepts", "exporter"),
    [
        (1.0, (1.0, 2.0, 3.0), True, "keeps"),  # the triangle equality: a planar body
        (1.0, (0.5, 0.5, 1.0), True, "keeps"),
        (1.0, (1.0, 2.0, 3.0 + 1e-9), False, "changes"),  # a hair beyond
        (1.0, (1.0, 2.0, 3.0000000000000004), False, "changes"),  # one ulp beyond
        (2 * MJCF_MIN_VALUE, (2 * MJCF_MIN_VALUE,) * 3, True, "keeps"),  # just above mjMINVAL
        (0.5 * MJCF_MIN_VALUE, (1.0, 1.0, 1.0), False, "changes"),  # the mass below it
        (1.0, (0.5 * MJCF_MIN_VALUE, 1.0, 1.0), False, "changes"),  # a moment below it
        (1.0, (0.0, 1.0, 1.0), False, "changes"),
        # Exactly mjMINVAL: MuJoCo accepts it (it refuses values below); the exporter's
        # documented rule bounds "not above", so it may change it, but only with a report.
        (MJCF_MIN_VALUE, (1.0, 1.0, 1.0), True, "may change"),
        (1.0, (MJCF_MIN_VALUE, 1.0, 1.0), True, "may change"),
    ],
    ids=repr,
)
def test_export_changes_what_mujoco_refuses_and_keeps_what_it_accepts(
    mass: float, diag, mujoco_accepts: bool, exporter: str
) -> None:
    inertia = rm.SpatialInertia.from_com(mass, (0.0, 0.0, 0.0), np.diag(diag))
    assert _mujoco_accepts(mass, diag) is mujoco_accepts  # the oracle, asked directly
    text, report = mjcf.dumps_with_report(_hinged(inertia))
    mm = mujoco.MjModel.from_xml_string(text)  # whatever the policy did, MuJoCo accepts it
    changed = {x.name for x in report.losses if x.action == "changed"}
    b = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, "b")
    if exporter == "keeps" or (exporter == "may change" and "b" not in changed):
        assert "b" not in changed and "b" not in report.inertias
        assert mm.body_mass[b] == mass
        np.testing.assert_array_equal(np.sort(mm.body_inertia[b]), np.sort(diag))
    else:
        assert "b" in changed and "b" in report.inertias
        # The report's inertia is what MuJoCo compiled.
        assert mm.body_mass[b] == report.inertias["b"].mass
        with pytest.raises(mjcf.MJCFError):
            mjcf.dumps_with_report(
                _hinged(inertia),
                options=mjcf.DumpOptions(massless="raise", invalid_inertia="raise"),
            )


def test_bound_options_accept_values_above_mjminval_only() -> None:
    mjcf.DumpOptions(bound_mass=2 * MJCF_MIN_VALUE, bound_inertia=2 * MJCF_MIN_VALUE)
    for bad in (MJCF_MIN_VALUE, 0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="bound_mass"):
            mjcf.DumpOptions(bound_mass=bad)
        with pytest.raises(ValueError, match="bound_inertia"):
            mjcf.DumpOptions(bound_inertia=bad)


def test_bound_policy_writes_the_bound_values() -> None:
    """massless="bound" on a massless moving leaf: MuJoCo's body has exactly bound_mass and
    bound_inertia, and the report holds that inertia."""
    opts = mjcf.DumpOptions(massless="bound", bound_mass=1e-3, bound_inertia=1e-5)
    text, report = mjcf.dumps_with_report(_hinged(rm.SpatialInertia.zero()), options=opts)
    mm = mujoco.MjModel.from_xml_string(text)
    b = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, "b")
    assert mm.body_mass[b] == 1e-3
    np.testing.assert_allclose(mm.body_inertia[b], [1e-5] * 3, rtol=1e-12)
    assert report.inertias["b"].mass == 1e-3


def _shapely(mesh: str) -> rm.Model:
    m = _hinged(_HEAVY)
    m = rm.with_visual_shapes(
        m,
        "b",
        [
            rm.SolidShape(geometry=rm.Box(0.1, 0.1, 0.1), name="v0"),
            rm.SolidShape(geometry=rm.Mesh(mesh, (1, 1, 1)), name="v1"),
        ],
    )
    return rm.with_collision_shapes(
        m,
        "b",
        [
            rm.SolidShape(geometry=rm.Sphere(0.1), name="c0"),
            rm.SolidShape(geometry=rm.Mesh(mesh, (2, 2, 2)), name="c1"),
        ],
    )


@pytest.mark.parametrize(
    ("option", "dropped"),
    [
        ({"visuals": False}, {"v0", "v1"}),
        ({"collisions": False}, {"c0", "c1"}),
        ({"meshes": False}, {"v1", "c1"}),
        ({"visuals": False, "collisions": False}, {"v0", "v1", "c0", "c1"}),
        ({}, set()),
    ],
    ids=repr,
)
def test_shape_options_report_every_shape_they_leave_out(
    option, dropped: set[str], tmp_path
) -> None:
    trimesh = pytest.importorskip("trimesh")
    mesh = str(tmp_path / "m.stl")
    trimesh.creation.box(extents=(0.1, 0.1, 0.1)).export(mesh)
    text, report = mjcf.dumps_with_report(_shapely(mesh), options=mjcf.DumpOptions(**option))
    mm = mujoco.MjModel.from_xml_string(text)
    written = {mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_GEOM, g) for g in range(mm.ngeom)}
    assert written == {"v0", "v1", "c0", "c1"} - dropped
    assert {x.name for x in report.of("dropped")} == dropped


def test_zero_sized_shapes_are_reported_not_written() -> None:
    m = rm.with_collision_shapes(
        _hinged(_HEAVY), "b", [rm.SolidShape(geometry=rm.Box(0.0, 0.1, 0.1), name="flat")]
    )
    text, report = mjcf.dumps_with_report(m)
    assert mujoco.MjModel.from_xml_string(text).ngeom == 0
    assert [x.name for x in report.of("dropped")] == ["flat"]


_SECTIONS = """<mujoco><worldbody><body name="b"><joint name="h" type="hinge"/>
  <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
  <geom name="g1" type="sphere" size="0.1"/><geom name="g2" type="box" size="0.1 0.1 0.1"
  contype="0" conaffinity="0"/></body></worldbody>
  <actuator><motor joint="h"/></actuator></mujoco>"""


def test_import_options_report_what_they_leave_out() -> None:
    """ImportOptions' other values: shapes=False and keep_sections=False each list, in the
    report, every element they leave out (the geoms, the actuator)."""
    m, report = mjcf.loads_with_report(_SECTIONS, options=mjcf.LoadOptions(shapes=False))
    assert not any(m.visuals) and not any(m.collisions)
    assert {x.name for x in report.of("dropped") if x.kind == "geom"} == {"g1", "g2"}
    m, report = mjcf.loads_with_report(_SECTIONS, options=mjcf.LoadOptions(keep_sections=False))
    assert not m.extensions
    assert [x.kind for x in report.of("dropped")] == ["actuator"]
    m, report = mjcf.loads_with_report(_SECTIONS)
    assert [x.tag for x in m.extensions] == ["mjcf:actuator"]
    assert {s.name for s in m.collisions[m.link_index("b")]} == {"g1"}
    assert not report.of("dropped")
