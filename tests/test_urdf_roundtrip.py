"""URDF round trips (icub-models and Hypothesis models) and the bad-input mutation test."""

from __future__ import annotations

import copy
import math
import warnings

import attrs
import icub_models
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from strategies import SLOW, models, names, solid_shapes, transforms

import robomodel as rm
from robomodel.errors import RobomodelWarning, URDFError
from robomodel.formats.urdf import DumpOptions, LoadOptions, dumps, load, loads

ICUB = sorted(icub_models.get_robot_names())
NO_FAKE_ROOT = DumpOptions(export_first_base_link_frame_as_fake_urdf_base=False)


def fields(m: rm.Model) -> dict[str, object]:
    return {
        f.name: getattr(m, f.name) for f in attrs.fields(rm.Model) if not f.name.startswith("_")
    }


# ---------------------------------------------------------------------------- icub-models
@pytest.fixture(scope="module", params=ICUB)
def icub(request: pytest.FixtureRequest) -> tuple[str, rm.Model]:
    return request.param, load(icub_models.get_model_file(request.param))


def test_icub_round_trip_is_exact(icub: tuple[str, rm.Model]) -> None:
    """loads(dumps(m)) == m exactly for a loaded model, with either fake-root option, and in
    iDynTree's element order without the fake root (the loader's own order rule gives a loaded
    model its indices back); dumps is a fixed point byte for byte.

    (In iDynTree's order the fake root is written as iDynTree writes it, inverted, where its
    inverse may read back an ulp off; index order writes such a frame as a child instead.)
    """
    _, m = icub
    for options in (
        DumpOptions(),
        NO_FAKE_ROOT,
        DumpOptions(order="idyntree", export_first_base_link_frame_as_fake_urdf_base=False),
    ):
        text = dumps(m, options=options)
        back = loads(text)
        assert back == m
        assert dumps(back, options=options) == text


# ---------------------------------------------------------------------------- Hypothesis models
@st.composite
def urdf_models(draw: st.DrawFn, max_links: int = 6) -> rm.Model:
    """Random trees URDF can express (each axis through the traversal child's origin), with
    shapes, materials, limits, effort/velocity, dynamics, mimic, sensors and extensions."""
    m = draw(models(max_links=max_links, max_frames=3))
    t = m.traversal()
    joints = []
    # A mimic names another moving joint that mimics none (the loader refuses the rest).
    leaders: list[str] = []
    for jn, j in zip(m.joint_names, m.joints, strict=True):
        if isinstance(j, (rm.RevoluteJoint, rm.PrismaticJoint)):
            _, child = m.joint_parent_child(jn, t)
            through = j.link1_H_link2.position if m.link_names[child] == j.link2 else (0, 0, 0)
            limit = st.one_of(st.just(math.inf), st.floats(0, 100))
            j = attrs.evolve(
                j,
                axis_in_link1=rm.Axis(j.axis_in_link1.direction, through),
                effort_limit=draw(limit),
                velocity_limit=draw(limit),
                dynamics=draw(
                    st.one_of(
                        st.just(rm.JointDynamics()),
                        st.builds(
                            rm.JointDynamics,
                            kind=st.just("urdf"),
                            damping=st.floats(0, 1),
                            static_friction=st.floats(0, 1),
                        ),
                    )
                ),
                mimic=draw(
                    st.one_of(st.none(), st.builds(rm.Mimic, joint=st.sampled_from(leaders)))
                    if leaders
                    else st.none()
                ),
            )
            if j.mimic is None:
                leaders.append(jn)
        joints.append(j)
    n = m.n_links
    shapes = st.lists(solid_shapes(), max_size=2)
    sensors: list[rm.Sensor] = []
    for k in range(draw(st.integers(0, 2))):
        cls = draw(st.sampled_from([rm.Accelerometer, rm.Gyroscope]))
        link = m.link_names[draw(st.integers(0, n - 1))]
        sensors.append(cls(name=f"s{k}", link=link, link_H_sensor=draw(transforms())))
    if joints and draw(st.booleans()):
        k = draw(st.integers(0, len(joints) - 1))
        j = joints[k]
        O_ = draw(transforms())
        sensors.append(
            rm.SixAxisForceTorqueSensor(
                name="ft",
                parent_joint=m.joint_names[k],
                first_link=j.link1,
                second_link=j.link2,
                first_link_H_sensor=j.link1_H_link2 @ O_,
                second_link_H_sensor=O_,
                applied_wrench_link=draw(st.sampled_from([j.link1, j.link2])),
            )
        )
    extensions = [
        rm.Extension(owner_kind="robot", owner="", tag="gazebo", xml="<gazebo><static/></gazebo>"),
        rm.Extension(
            owner_kind="link", owner="L0", tag="gazebo", xml='<gazebo><mu1 x="1">0.5</mu1></gazebo>'
        ),
        rm.Extension(owner_kind="inertial", owner="L0", tag="note", xml='<note k="v"/>'),
    ]
    if any(s.name == "ft" for s in sensors):
        extensions.append(
            rm.Extension(owner_kind="force_torque", owner="ft", tag="range", xml="<range>5</range>")
        )
    return rm.Model(
        **{
            **fields(m),
            "joints": joints,
            "visuals": [draw(shapes) for _ in range(n)],
            "collisions": [draw(shapes) for _ in range(n)],
            "sensors": sensors,
            "extensions": extensions,
            "name": draw(names),
            # Robot-level materials named apart from the shapes' (a name-only shape material
            # with a robot-level material's name refers to it in URDF: reads back resolved).
            "materials": draw(
                st.lists(
                    st.builds(
                        rm.Material,
                        name=names.map("R".__add__),
                        rgba=st.tuples(*[st.floats(0, 1)] * 4),
                    ),
                    max_size=2,
                    unique_by=lambda x: x.name,
                )
            ),
        }
    )


def load_quietly(text: str) -> rm.Model:
    with warnings.catch_warnings():
        # A random sensor may share its name with a frame elsewhere (B22 warns).
        warnings.simplefilter("ignore", RobomodelWarning)
        return loads(text)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=40)
@given(urdf_models())
def test_loaded_models_are_fixed_points(m: rm.Model) -> None:
    """loads(dumps(m)) == m from the first cycle, with either fake-root option, and the text
    is a fixed point: dumps(loads(x)) == x for x = dumps(m)."""
    for options in (DumpOptions(), NO_FAKE_ROOT):
        x = dumps(m, options=options)
        back = load_quietly(x)
        assert back == m
        assert dumps(back, options=options) == x


def world_poses(m: rm.Model, q: dict[str, float], base: str) -> dict[str, rm.Transform]:
    t = m.traversal()
    W = {t.links[0]: rm.Transform()}
    for k in range(1, len(t)):
        p, c, j = t.parents[k], t.links[k], t.joints[k]
        assert p is not None and j is not None
        W[c] = W[p] @ m.joints[j].transform(
            q.get(m.joint_names[j], 0.0), m.link_names[p], m.link_names[c]
        )
    out = {m.link_names[i]: T for i, T in W.items()}
    for f in m.frames:
        out[f.name] = out[f.link] @ f.link_H_frame
    inv = out[base].inverse()
    return {n: inv @ T for n, T in out.items()}


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=40)
@given(urdf_models(), st.lists(st.floats(-2, 2), min_size=8, max_size=8))
def test_export_then_load_keeps_the_physics(m: rm.Model, qs: list[float]) -> None:
    """loads(dumps(m)) has every frame of m at the same pose for any q, the same masses and
    inertias, and the same sensors (up to link order and massless leaves becoming frames)."""
    L = load_quietly(dumps(m))
    q = dict(zip(m.joint_names, qs, strict=False))
    base = m.default_base
    assert base is not None
    a, b = world_poses(m, q, base), world_poses(L, q, base)
    assert set(a) <= set(b)
    assert set(b) - set(a) <= {s.name for s in m.sensors}  # sensor frames are added at load
    for name, T in a.items():
        np.testing.assert_allclose(b[name].as_matrix(), T.as_matrix(), atol=1e-9, err_msg=name)
    assert math.isclose(L.total_mass, m.total_mass, rel_tol=1e-12)
    for i, name in enumerate(m.link_names):
        if L.is_link_name_used(name):
            np.testing.assert_allclose(
                L.link(name).inertia.as_vector(), m.links[i].inertia.as_vector(), atol=1e-9
            )
        else:
            assert m.links[i].mass <= 0.0  # only massless leaves become frames
    assert sorted(s.name for s in L.sensors) == sorted(s.name for s in m.sensors)
    assert L.name == m.name


# ---------------------------------------------------------------------------- mutations
SEED = """<robot name="seed">
  <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
  <link name="base_footprint"/>
  <link name="base"><inertial><origin xyz="0 0 0.1" rpy="0 0 0"/><mass value="2"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual name="v"><origin xyz="0 0 1"/><geometry><box size="1 1 1"/></geometry>
      <material name="grey"/></visual>
    <collision><geometry><cylinder radius="0.1" length="1"/></geometry></collision></link>
  <link name="arm"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <visual><geometry><mesh filename="package://r/arm.stl" scale="1 1 1"/></geometry>
    </visual></link>
  <link name="hand"><inertial><mass value="0.5"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="tool"/>
  <joint name="jf" type="fixed"><origin xyz="0 0 0.5"/><parent link="base_footprint"/>
    <child link="base"/></joint>
  <joint name="j1" type="revolute"><origin xyz="0 0 1" rpy="0 0 0.3"/><axis xyz="0 0 1"/>
    <parent link="base"/><child link="arm"/>
    <limit lower="-1" upper="1" effort="10" velocity="2"/><dynamics damping="0.1"/></joint>
  <joint name="j2" type="prismatic"><origin xyz="1 0 0"/><axis xyz="1 0 0"/>
    <parent link="arm"/><child link="hand"/><limit lower="0" upper="0.2"/>
    <mimic joint="j1" multiplier="0.5"/></joint>
  <joint name="jt" type="fixed"><origin xyz="0.1 0 0"/><parent link="hand"/>
    <child link="tool"/></joint>
  <sensor name="ft" type="force_torque"><parent joint="j2"/><force_torque><frame>sensor</frame>
    <measure_direction>child_to_parent</measure_direction></force_torque>
    <origin xyz="0 0 0.1"/></sensor>
  <sensor name="imu" type="accelerometer"><parent link="tool"/><origin rpy="0 1 0"/></sensor>
  <sensor name="gyr" type="gyroscope"><parent link="arm"/></sensor>
  <gazebo reference="arm"><mu1>0.3</mu1></gazebo>
</robot>"""

GARBAGE = [
    "",
    "nan",
    "inf",
    "1 2",
    "abc",
    "1e400",
    "-1",
    "0 0 0",
    "1 2 3",
    "1_0",
    "base",
    "arm",
    "hand",
    "tool",
    "j1",
    "floating",
    "continuous",
    "fixed",
    "child",
    "parent",
    "-1e9",
]


@st.composite
def mutants(draw: st.DrawFn) -> str:
    root = etree.fromstring(SEED)
    for _ in range(draw(st.integers(1, 3))):
        elements = list(root.iter())
        el = draw(st.sampled_from(elements))
        action = draw(
            st.sampled_from(
                [
                    "drop_attr",
                    "set_attr",
                    "swap_names",
                    "remove",
                    "duplicate",
                    "cycle",
                    "retag",
                    "text",
                ]
            )
        )
        if action == "drop_attr" and el.attrib:
            del el.attrib[draw(st.sampled_from(sorted(el.attrib)))]
        elif action == "set_attr":
            key = draw(st.sampled_from(sorted(el.attrib) or ["name"]))
            el.set(key, draw(st.sampled_from(GARBAGE)))
        elif action == "swap_names":
            named = [e for e in elements if e.get("name") is not None]
            a, b = draw(st.sampled_from(named)), draw(st.sampled_from(named))
            na, nb = a.get("name"), b.get("name")
            a.set("name", nb)
            b.set("name", na)
        elif action == "remove" and el is not root:
            el.getparent().remove(el)
        elif action == "duplicate" and el is not root:
            el.getparent().append(copy.deepcopy(el))
        elif action == "cycle":
            # Point a joint's child at a link higher up the tree, or its parent at a descendant.
            js = root.findall("joint")
            if js:
                j = draw(st.sampled_from(js))
                slot = draw(st.sampled_from(["parent", "child"]))
                target = j.find(slot)
                if target is not None:
                    target.set(
                        "link",
                        draw(st.sampled_from(["base_footprint", "base", "arm", "hand", "tool"])),
                    )
        elif action == "retag" and el is not root:
            el.tag = draw(st.sampled_from(["link", "joint", "sensor", "origin", "foo", "visual"]))
        elif action == "text":
            el.text = draw(st.sampled_from(GARBAGE))
    return str(etree.tostring(root, encoding="unicode"))


def check_mutant(text: str) -> None:
    # The strict inertia policy: by default an inertia no rigid body has loads with a warning
    # (the model then fails check_model, as it should); the property is about what loads
    # without complaint.
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RobomodelWarning)
            m = loads(text, options=LoadOptions(inertia="raise"))
    except URDFError:
        return
    rm.check_model(m)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RobomodelWarning)
            dumps(m)
    except URDFError:
        pass


def test_seed_is_valid() -> None:
    m = loads(SEED)
    assert list(m.link_names) == ["base", "arm", "hand"]
    # Grouped by link in traversal order: fake-link frames, then sensor frames.
    assert m.frame_names == ["base_footprint", "gyr", "tool", "ft", "imu"]
    assert loads(dumps(loads(dumps(m)))) == loads(dumps(m))


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150, deadline=5000)
@given(mutants())
def test_mutated_urdf_loads_valid_or_raises_urdf_error(text: str) -> None:
    """Every mutant of a valid URDF either loads to a model passing check_model() or raises a
    URDFError (never another exception, never a hang: each example has a 5 s deadline)."""
    check_mutant(text)


@pytest.mark.slow
@SLOW
@given(mutants())
def test_mutated_urdf_slow(text: str) -> None:
    """The mutation property with many more examples."""
    check_mutant(text)


@pytest.mark.slow
@SLOW
@given(urdf_models(max_links=10))
def test_loaded_models_are_fixed_points_slow(m: rm.Model) -> None:
    """The fixed-point property on larger models with many more examples."""
    for options in (DumpOptions(), NO_FAKE_ROOT):
        x = dumps(m, options=options)
        back = load_quietly(x)
        assert back == m
        assert dumps(back, options=options) == x
