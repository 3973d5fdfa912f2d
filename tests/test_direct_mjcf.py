"""Direct tests of MJCF conversions against MuJoCo's own compiled model.

Every oracle here is what MuJoCo compiles (``geom_size``, ``geom_type``, ``geom_contype``,
``qpos0``, ``eq_data``, the equality residual ``efc_pos``) from a document written by hand or by
robomodel's exporter; robomodel's reader is never used to judge robomodel's writer.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import robomodel as rm
from robomodel.formats import mjcf

mujoco = pytest.importorskip("mujoco")

_UNIT = rm.SpatialInertia.from_com(1.0, (0.0, 0.0, 0.0), 0.01 * np.eye(3))


def _one_link(shapes: list[rm.SolidShape], *, collision: bool) -> rm.Model:
    m = rm.add_link(rm.Model(name="r"), "base", rm.Link(_UNIT))
    m = rm.add_joint_and_link(
        m, "base", "j", rm.RevoluteJoint(link1="base", link2="arm"), "arm", rm.Link(_UNIT)
    )
    add = rm.with_collision_shapes if collision else rm.with_visual_shapes
    return add(m, "arm", shapes)


def _geoms(mm) -> dict[str, tuple[int, np.ndarray]]:
    out = {}
    for g in range(mm.ngeom):
        out[mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_GEOM, g)] = (
            int(mm.geom_type[g]),
            np.array(mm.geom_size[g]),
        )
    return out


@pytest.mark.parametrize("collision", [False, True], ids=["visual", "collision"])
def test_export_writes_the_sizes_mujoco_means(collision: bool) -> None:
    """MuJoCo's sizes are half-sizes: a box's half extents, a sphere's radius, a cylinder's radius
    and half-length (MuJoCo's XML reference). Compiled by MuJoCo from robomodel's text."""
    shapes = [
        rm.SolidShape(geometry=rm.Box(0.2, 0.4, 0.6), name="box"),
        rm.SolidShape(geometry=rm.Sphere(0.25), name="ball"),
        rm.SolidShape(geometry=rm.Cylinder(0.05, 0.8), name="rod"),
    ]
    text, _ = mjcf.dumps_with_report(_one_link(shapes, collision=collision))
    mm = mujoco.MjModel.from_xml_string(text)
    geoms = _geoms(mm)
    t = mujoco.mjtGeom
    assert geoms["box"][0] == t.mjGEOM_BOX
    np.testing.assert_allclose(geoms["box"][1], [0.1, 0.2, 0.3], rtol=0, atol=1e-15)
    assert geoms["ball"][0] == t.mjGEOM_SPHERE
    np.testing.assert_allclose(geoms["ball"][1][0], 0.25, rtol=0, atol=1e-15)
    assert geoms["rod"][0] == t.mjGEOM_CYLINDER
    np.testing.assert_allclose(geoms["rod"][1][:2], [0.05, 0.4], rtol=0, atol=1e-15)
    # The same through the geometry MuJoCo derives from the sizes: bounding-sphere radius.
    rbound = {
        mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_GEOM, g): mm.geom_rbound[g] for g in range(3)
    }
    assert rbound["rod"] == pytest.approx(math.hypot(0.05, 0.4))
    assert rbound["box"] == pytest.approx(math.sqrt(0.1**2 + 0.2**2 + 0.3**2))


def test_read_sizes_are_full_lengths() -> None:
    """The way in: MuJoCo half-sizes become robomodel's full box edges and cylinder length."""
    text = """<mujoco><worldbody><body name="b"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <freejoint/>
      <geom name="box" type="box" size="0.1 0.2 0.3"/>
      <geom name="rod" type="cylinder" size="0.05 0.4"/>
      <geom name="ball" type="sphere" size="0.25"/></body></worldbody></mujoco>"""
    m, _ = mjcf.loads_with_report(text)
    shapes = {s.name: s.geometry for link in m.collisions for s in link}
    assert shapes["box"] == rm.Box(0.2, 0.4, 0.6)
    assert shapes["rod"] == rm.Cylinder(0.05, 0.8)
    assert shapes["ball"] == rm.Sphere(0.25)


@pytest.mark.parametrize(("contype", "conaffinity"), [(0, 0), (0, 1), (1, 0), (1, 1), (4, 0)])
def test_reader_calls_a_geom_visual_exactly_when_mujoco_lets_it_touch_nothing(
    contype: int, conaffinity: int
) -> None:
    """MuJoCo: geoms a and b may collide when (contype_a & conaffinity_b) or (contype_b &
    conaffinity_a) is non-zero. A geom with either bit set can collide with some geom, so only
    contype = conaffinity = 0 is visual. Judged on MuJoCo's compiled numbers."""
    text = f"""<mujoco><worldbody><body name="b">
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><freejoint/>
      <geom name="g" type="sphere" size="0.1" contype="{contype}" conaffinity="{conaffinity}"/>
      </body></worldbody></mujoco>"""
    mm = mujoco.MjModel.from_xml_string(text)
    can_collide = bool(mm.geom_contype[0]) or bool(mm.geom_conaffinity[0])
    m, _ = mjcf.loads_with_report(text)
    visual_names = [s.name for link in m.visuals for s in link]
    collision_names = [s.name for link in m.collisions for s in link]
    if can_collide:
        assert (visual_names, collision_names) == ([], ["g"])
    else:
        assert (visual_names, collision_names) == (["g"], [])


def test_writer_visuals_touch_nothing_and_collisions_touch_each_other() -> None:
    """The writer's side of the same rule, on MuJoCo's compiled numbers."""
    m = _one_link([rm.SolidShape(geometry=rm.Sphere(0.1), name="v")], collision=False)
    m = rm.with_collision_shapes(m, "arm", [rm.SolidShape(geometry=rm.Sphere(0.1), name="c")])
    mm = mujoco.MjModel.from_xml_string(mjcf.dumps_with_report(m)[0])
    g = {mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_GEOM, i): i for i in range(mm.ngeom)}
    assert mm.geom_contype[g["v"]] == 0 and mm.geom_conaffinity[g["v"]] == 0
    assert mm.geom_contype[g["c"]] & mm.geom_conaffinity[g["c"]]


_REF_XML = """<mujoco><compiler angle="radian"/><worldbody>
  <body name="a"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    <joint name="lead" type="{kind}" axis="0 0 1" ref="{ref_l}"/>
    <body name="b" pos="1 0 0"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <joint name="fol" type="{kind}" axis="0 1 0" ref="{ref_f}"/></body></body></worldbody>
  <equality><joint joint1="fol" joint2="lead" polycoef="{a0} {a1} 0 0 0"/></equality></mujoco>"""


@pytest.mark.parametrize(
    ("kind", "ref_l", "ref_f", "a0", "a1"),
    [
        ("hinge", 0.3, -0.2, 0.1, 2.0),
        ("hinge", 0.0, 0.7, 0.0, -1.0),
        ("hinge", -0.4, 0.0, 0.25, 0.5),
        ("slide", 0.05, 0.02, -0.01, 3.0),
    ],
)
def test_mimic_from_a_joint_equality_holds_where_mujocos_constraint_holds(
    kind: str, ref_l: float, ref_f: float, a0: float, a1: float
) -> None:
    """robomodel's positions are MuJoCo's qpos minus qpos0 (the joints' ``ref``). At every pair
    of positions the mimic relation allows, MuJoCo's equality residual ``efc_pos`` is zero."""
    text = _REF_XML.format(kind=kind, ref_l=ref_l, ref_f=ref_f, a0=a0, a1=a1)
    mm = mujoco.MjModel.from_xml_string(text)
    np.testing.assert_array_equal(mm.qpos0, [ref_l, ref_f])
    np.testing.assert_array_equal(mm.eq_data[0][:2], [a0, a1])
    m, _ = mjcf.loads_with_report(text)
    mimic = m.joint("fol").mimic
    assert mimic is not None and mimic.joint == "lead"
    d = mujoco.MjData(mm)
    for q_lead in (-0.3, 0.0, 0.45):
        q_fol = mimic.multiplier * q_lead + mimic.offset
        d.qpos[:] = mm.qpos0 + np.array([q_lead, q_fol])
        mujoco.mj_forward(mm, d)
        (row,) = np.flatnonzero(d.efc_type == mujoco.mjtConstraint.mjCNSTR_EQUALITY)
        assert d.efc_pos[row] == pytest.approx(0.0, abs=1e-12)


# ---------------------------------------------------------------------- merging
def _chain_with_massless_middle(*, middle_shapes: str) -> rm.Model:
    heavy = rm.SpatialInertia.from_com(0.5, (0.1, 0.0, 0.0), np.diag([0.01, 0.02, 0.025]))
    m = rm.add_link(rm.Model(name="r"), "base", rm.Link(heavy))
    j = rm.RevoluteJoint(
        link1="base", link2="mid", link1_H_link2=rm.Transform.from_translation((0, 0, 0.3))
    )
    m = rm.add_joint_and_link(m, "base", "j1", j, "mid", rm.Link(rm.SpatialInertia.zero()))
    k = rm.RevoluteJoint(
        link1="mid",
        link2="tip",
        link1_H_link2=rm.Transform.from_translation((0.2, 0, 0)),
        axis_in_link1=rm.Axis((0, 1, 0), (0.2, 0, 0)),
    )
    m = rm.add_joint_and_link(m, "mid", "j2", k, "tip", rm.Link(heavy))
    shape = [rm.SolidShape(geometry=rm.Box(0.1, 0.1, 0.1), name="mid_shape")]
    if middle_shapes == "collision":
        return rm.with_collision_shapes(m, "mid", shape)
    if middle_shapes == "visual":
        return rm.with_visual_shapes(m, "mid", shape)
    return m


@pytest.mark.parametrize("kind", ["collision", "visual"])
def test_massless_link_with_shapes_keeps_its_geoms_or_reports_them(kind: str) -> None:
    """Reported, never dropped: a massless link between two moving joints that carries shapes
    either keeps a body holding them or the report names each geom it lost."""
    m = _chain_with_massless_middle(middle_shapes=kind)
    text, report = mjcf.dumps_with_report(m, options=mjcf.DumpOptions(massless="merge"))
    mm = mujoco.MjModel.from_xml_string(text)
    names = {mujoco.mj_id2name(mm, mujoco.mjtObj.mjOBJ_GEOM, g) for g in range(mm.ngeom)}
    reported = {x.name for x in report.losses if x.action == "dropped"}
    assert "mid_shape" in names or "mid_shape" in reported
    if "mid_shape" in names:
        g = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_GEOM, "mid_shape")
        # ... and sits where the link was: 0.3 m above the base at q = 0.
        d = mujoco.MjData(mm)
        mujoco.mj_kinematics(mm, d)
        np.testing.assert_allclose(d.geom_xpos[g], [0.0, 0.0, 0.3], atol=1e-12)


def test_massless_link_without_shapes_is_merged() -> None:
    """The other side of the same rule: without shapes the middle body goes (2 bodies + world)."""
    text, report = mjcf.dumps_with_report(_chain_with_massless_middle(middle_shapes="none"))
    assert mujoco.MjModel.from_xml_string(text).nbody == 3
    assert [x.name for x in report.losses if x.kind == "merged link"] == ["mid"]
