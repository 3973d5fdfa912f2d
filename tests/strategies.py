"""Hypothesis strategies for robomodel values (one per value type, plural names).

Trees are drawn link by link, each link's parent drawn next to it, so that shrinking can drop a
link. Everything drawn is finite and well conditioned enough for 1e-9 comparisons.
"""

from __future__ import annotations

import math
import os

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

import robomodel as rm
import robomodel.model.joints
from robomodel.model.spatial import rotation_from_rpy

SLOW = settings(max_examples=int(os.environ.get("ROBOMODEL_SLOW_EXAMPLES", "500")), deadline=None)
"""Settings for tests marked ``slow`` (CI sets ROBOMODEL_SLOW_EXAMPLES lower)."""

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False)
angles = st.floats(-math.pi, math.pi, allow_nan=False, allow_infinity=False)
names = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)


# Strategies are built once here: building them inside composites on every draw was most of
# the cost of generating a model.
_unit_floats = st.floats(-1, 1)
_half = st.floats(-0.5, 0.5)
_half3 = st.tuples(_half, _half, _half)
_masses = st.floats(0.05, 5.0)
_moments = st.floats(0.01, 1.0)
_lower = st.floats(-3.0, 0.0)
_upper = st.floats(0.0, 3.0)
_kinds = st.sampled_from(["fixed", "revolute", "prismatic"])
_three_angles = st.tuples(angles, angles, angles)


@st.composite
def unit_vectors(draw: st.DrawFn) -> np.ndarray:
    v = np.array(draw(st.tuples(_unit_floats, _unit_floats, _unit_floats)))
    n = float(np.linalg.norm(v))
    if n < 1e-3:
        return np.array([0.0, 0.0, 1.0])
    return v / n


@st.composite
def rotations(draw: st.DrawFn) -> np.ndarray:
    return rotation_from_rpy(*draw(_three_angles))


_ROTATIONS = rotations()
_UNIT_VECTORS = unit_vectors()
_SCALED: dict[float, st.SearchStrategy[tuple[float, float, float]]] = {}


@st.composite
def transforms(draw: st.DrawFn, scale: float = 1.0) -> rm.Transform:
    R = draw(_ROTATIONS)
    coords = _SCALED.get(scale)
    if coords is None:
        f = st.floats(-scale, scale)
        coords = _SCALED[scale] = st.tuples(f, f, f)
    return rm.Transform(R, draw(coords))


_TRANSFORMS = transforms()


@st.composite
def inertias(draw: st.DrawFn, allow_zero: bool = True) -> rm.SpatialInertia:
    """Physically consistent inertias (and, if allowed, the zero inertia)."""
    if allow_zero and draw(st.booleans()) and draw(st.booleans()):
        return rm.SpatialInertia.zero()
    m = draw(_masses)
    c = draw(_half3)
    a, b = draw(_moments), draw(_moments)
    c3 = draw(st.floats(abs(a - b) + 0.001, a + b))
    R = draw(_ROTATIONS)
    I_C = R @ np.diag([a, b, c3]) @ R.T
    return rm.SpatialInertia.from_com(m, c, I_C)


_INERTIAS = inertias()


@st.composite
def joints(draw: st.DrawFn, link1: str = "a", link2: str = "b") -> rm.Joint:
    kind = draw(_kinds)
    rest = draw(_TRANSFORMS)
    if kind == "fixed":
        return rm.FixedJoint(link1=link1, link2=link2, link1_H_link2=rest)
    axis = rm.Axis(draw(_UNIT_VECTORS), draw(_half3))
    lo = draw(_lower)
    hi = draw(_upper)
    limits = rm.PositionLimits(enabled=draw(st.booleans()), lower=lo, upper=hi)
    cls = rm.RevoluteJoint if kind == "revolute" else rm.PrismaticJoint
    return cls(link1=link1, link2=link2, link1_H_link2=rest, axis_in_link1=axis, limits=limits)


_JOINTS = joints()


def _joint_between(draw: st.DrawFn, link1: str, link2: str) -> rm.Joint:
    # Draw with the shared strategy and relabel: same distribution, no strategy built per link.
    j = draw(_JOINTS)
    return rm.model.joints.replace_joint(j, link1=link1, link2=link2)


@st.composite
def models(
    draw: st.DrawFn, max_links: int = 8, min_links: int = 1, max_frames: int = 3
) -> rm.Model:
    """Random valid trees: link ``i`` hangs from a random earlier link, in either direction."""
    n = draw(st.integers(min_links, max_links))
    m = rm.add_link(rm.Model(), "L0", rm.Link(draw(_INERTIAS)))
    for i in range(1, n):
        parent = draw(st.integers(0, i - 1))
        reverse = draw(st.booleans())
        a, b = (f"L{i}", f"L{parent}") if reverse else (f"L{parent}", f"L{i}")
        m = rm.add_link(m, f"L{i}", rm.Link(draw(_INERTIAS)))
        m = rm.add_joint(m, f"J{i}", _joint_between(draw, a, b))
    for k in range(draw(st.integers(0, max_frames))):
        link = f"L{draw(st.integers(0, n - 1))}"
        m = rm.add_frame(m, link, f"F{k}", draw(_TRANSFORMS))
    return m


@st.composite
def model_steps(
    draw: st.DrawFn, max_links: int = 8, min_links: int = 1, max_frames: int = 3
) -> tuple[tuple[object, ...], ...]:
    """A recipe for a random valid tree, as builder steps (replay it with :func:`replay`).

    Steps are ``("link", name, Link)``, ``("joint", name, Joint)`` (between a new link and a
    random earlier one, in either direction) and ``("frame", link, name, Transform)``, with
    frames interleaved with links so that the frame-index shift rule is exercised.
    """
    n = draw(st.integers(min_links, max_links))
    steps: list[tuple[object, ...]] = [("link", "L0", rm.Link(draw(_INERTIAS)))]
    n_frames = 0
    for i in range(1, n):
        parent = draw(st.integers(0, i - 1))
        a, b = (f"L{i}", f"L{parent}") if draw(st.booleans()) else (f"L{parent}", f"L{i}")
        steps.append(("link", f"L{i}", rm.Link(draw(_INERTIAS))))
        steps.append(("joint", f"J{i}", _joint_between(draw, a, b)))
        if n_frames < max_frames and draw(st.booleans()):
            link = f"L{draw(st.integers(0, i))}"
            steps.append(("frame", link, f"F{n_frames}", draw(_TRANSFORMS)))
            n_frames += 1
    return tuple(steps)


def replay(steps: tuple[tuple[object, ...], ...], model: rm.Model | None = None) -> rm.Model:
    """Build a model from :func:`model_steps` with add_link / add_joint / add_frame."""
    m = rm.Model() if model is None else model
    for step in steps:
        match step:
            case ("link", str(name), rm.Link() as link):
                m = rm.add_link(m, name, link)
            case ("joint", str(name), joint):
                m = rm.add_joint(m, name, joint)  # type: ignore[arg-type]
            case ("frame", str(link), str(name), rm.Transform() as T):
                m = rm.add_frame(m, link, name, T)
    return m


def public_fields(m: rm.Model) -> dict[str, object]:
    """The public fields of a model, as keyword arguments of the bulk ``Model(...)``."""
    import attrs

    return {
        f.name: getattr(m, f.name) for f in attrs.fields(rm.Model) if not f.name.startswith("_")
    }


# ---------------------------------------------------------------------- DH chains
# (robomodel.formats.dh)
@st.composite
def dh_links(draw: st.DrawFn) -> object:
    """Random revolute DH links; lengths and twists favour 0 and right angles (degenerate axes)."""
    from robomodel.formats.dh import DHLink

    lengths = st.one_of(st.just(0.0), st.floats(-0.5, 0.5))
    # Nearly (anti)parallel consecutive axes make DH extraction ill-conditioned (docs/dh.md);
    # draw exact right angles or twists at least 1e-3 away from them.
    well_conditioned = angles.filter(lambda t: 1e-3 < abs(t) < math.pi - 1e-3)
    twists = st.one_of(st.sampled_from([0.0, math.pi / 2, -math.pi / 2, math.pi]), well_conditioned)
    lo = draw(st.floats(-math.pi, math.pi))
    hi = draw(st.floats(lo, math.pi))
    angle = draw(st.floats(lo, hi))
    return DHLink(
        draw(lengths),
        draw(lengths),
        draw(twists),
        draw(angles),
        lo,
        hi,
        angle=angle,
        blocked=draw(st.booleans()) and draw(st.booleans()),
    )


@st.composite
def dh_chains(draw: st.DrawFn, max_links: int = 8) -> object:
    """Random DH chains (1..max_links links, some blocked) with random H0 and HN."""
    from robomodel.formats.dh import DHChain

    links = draw(st.lists(dh_links(), min_size=1, max_size=max_links))
    return DHChain(links=links, H0=draw(transforms()), HN=draw(transforms(scale=0.3)))


# ---------------------------------------------------------------------- everything a model holds
@st.composite
def solid_shapes(draw: st.DrawFn) -> rm.SolidShape:
    """Random visual/collision shapes of every geometry kind, with or without name/material."""
    dims = st.floats(0.0, 2.0)
    geometry = draw(
        st.one_of(
            st.builds(rm.Box, dims, dims, dims),
            st.builds(rm.Sphere, dims),
            st.builds(rm.Cylinder, dims, dims),
            st.builds(
                rm.Mesh,
                st.sampled_from(["package://r/m.stl", "file:///tmp/x.dae"]),
                st.tuples(dims, dims, dims),
            ),
        )
    )
    material = draw(
        st.one_of(
            st.none(),
            st.builds(
                rm.Material,
                name=names,
                rgba=st.one_of(st.none(), st.tuples(*[st.floats(0, 1)] * 4)),
                texture=st.one_of(st.none(), st.just("t.png")),
                extensions=st.lists(st.sampled_from(MATERIAL_EXTRAS), max_size=1),
            ),
        )
    )
    return rm.SolidShape(
        geometry=geometry,
        name=draw(st.one_of(st.none(), names)),
        link_H_geometry=draw(transforms()),
        material=material,
        extensions=draw(st.lists(st.sampled_from(SHAPE_EXTRAS), max_size=2)),
    )


# Children of <visual>/<collision> and <material> robomodel does not model, written as lxml
# writes them (a round trip reproduces them exactly).
SHAPE_EXTRAS = [
    "<verbose/>",
    '<drake:proximity_properties xmlns:drake="http://drake.mit.edu">'
    '<drake:mu_dynamic value="0.5"/></drake:proximity_properties>',
]
MATERIAL_EXTRAS = ["<script><name>Gazebo/Grey</name></script>"]


@st.composite
def decorated_models(draw: st.DrawFn, max_links: int = 6) -> rm.Model:
    """Random trees carrying shapes, sensors, mimic joints, extensions, materials and dirs.

    Extensions reference links and joints the way URDF does (``<gazebo reference>``,
    ``<transmission><joint name>``), so renaming tests can check they follow.
    """
    import attrs

    m = draw(models(max_links=max_links))
    n = m.n_links
    joints_ = list(m.joints)
    moving = [k for k, j in enumerate(joints_) if not isinstance(j, rm.FixedJoint)]
    if len(moving) >= 2 and draw(st.booleans()):
        follower, leader = moving[0], moving[1]
        joints_[follower] = attrs.evolve(
            joints_[follower],
            mimic=rm.Mimic(joint=m.joint_names[leader], multiplier=draw(finite), offset=0.5),
            dynamics=rm.JointDynamics(kind="urdf", damping=0.1, static_friction=0.2),
            effort_limit=draw(st.one_of(st.just(math.inf), st.floats(0, 100))),
        )
    visuals = [draw(st.lists(solid_shapes(), max_size=2)) for _ in range(n)]
    collisions = [draw(st.lists(solid_shapes(), max_size=1)) for _ in range(n)]
    sensors: list[rm.Sensor] = []
    link = m.link_names[draw(st.integers(0, n - 1))]
    if draw(st.booleans()):
        sensors.append(rm.Accelerometer(name="acc", link=link, link_H_sensor=draw(transforms())))
    if draw(st.booleans()):
        sensors.append(rm.Gyroscope(name="gyro", link=link, link_H_sensor=draw(transforms())))
    if joints_ and draw(st.booleans()):
        k = draw(st.integers(0, len(joints_) - 1))
        j = joints_[k]
        sensors.append(
            rm.SixAxisForceTorqueSensor(
                name="ft",
                parent_joint=m.joint_names[k],
                first_link=j.link1,
                second_link=j.link2,
                first_link_H_sensor=draw(transforms()),
                second_link_H_sensor=draw(transforms()),
                applied_wrench_link=j.link2,
            )
        )
    extensions = [
        rm.Extension(
            owner_kind="link",
            owner=link,
            tag="gazebo",
            xml=f'<gazebo reference="{link}"><mu1>0.5</mu1></gazebo>',
        ),
        rm.Extension(owner_kind="robot", owner="", tag="gazebo", xml="<gazebo><static/></gazebo>"),
    ]
    if joints_:
        jn = m.joint_names[0]
        extensions.append(
            rm.Extension(
                owner_kind="robot",
                owner="",
                tag="transmission",
                xml=(
                    f'<transmission name="t_{jn}"><joint name="{jn}"><hardwareInterface>E'
                    f'</hardwareInterface></joint><actuator name="m_{jn}"/></transmission>'
                ),
            )
        )
    fields = public_fields(m)
    fields.update(
        joints=joints_,
        visuals=visuals,
        collisions=collisions,
        sensors=sensors,
        extensions=extensions,
        name=draw(names),
        package_dirs=draw(st.lists(st.sampled_from(["/a", "/b/c"]), unique=True)),
        materials=draw(st.lists(st.builds(rm.Material, name=names), max_size=2)),
    )
    return rm.Model(**fields)


@st.composite
def models_with_sensors(draw: st.DrawFn, max_links: int = 6) -> rm.Model:
    """Random trees with one joint made fixed and carrying an F/T sensor ``"ft"``, plus an
    accelerometer ``"acc"`` and a gyroscope ``"gyr"`` on random links at random poses.

    The F/T sensor's first and second links are the joint's ends in random order, its two poses
    agree with the joint's rest transform, and its applied link is either end.
    """
    m = draw(models(max_links=max_links, min_links=2, max_frames=0))
    k = draw(st.integers(0, m.n_joints - 1))
    old = m.joints[k]
    joints_ = list(m.joints)
    joints_[k] = rm.FixedJoint(link1=old.link1, link2=old.link2, link1_H_link2=old.link1_H_link2)
    first, second = draw(st.permutations([old.link1, old.link2]))
    first_H_sensor = draw(transforms())
    ft = rm.SixAxisForceTorqueSensor(
        name="ft",
        parent_joint=m.joint_names[k],
        first_link=first,
        second_link=second,
        first_link_H_sensor=first_H_sensor,
        second_link_H_sensor=joints_[k].rest_transform(second, first) @ first_H_sensor,
        applied_wrench_link=draw(st.sampled_from([first, second])),
    )
    links = list(m.link_names)
    acc = rm.Accelerometer(
        name="acc", link=draw(st.sampled_from(links)), link_H_sensor=draw(transforms())
    )
    gyr = rm.Gyroscope(
        name="gyr", link=draw(st.sampled_from(links)), link_H_sensor=draw(transforms())
    )
    return rm.Model(
        link_names=m.link_names,
        links=m.links,
        joint_names=m.joint_names,
        joints=joints_,
        default_base=m.default_base,
        visuals=m.visuals,
        collisions=m.collisions,
        sensors=[ft, acc, gyr],
    )


# Angles as a document writes them (a few decimals: pi/2 as 1.5707963 and the like), or any
# double of a turn.
decimal_angles = st.builds(
    lambda digits, places: round(digits * 10.0**-places, places),
    st.integers(-31415926, 31415926),
    st.integers(0, 7),
).filter(lambda a: abs(a) <= math.pi + 1e-6)
double_angles = st.floats(-math.pi, math.pi)
