"""The URDF loader's fast paths agree with the checked paths they stand in for.

The loader builds values with trusted constructors, reads numbers in one batch after the element
pass (reading again eagerly, element by element, when a number does not read), serialises
childless kept elements itself and pauses the garbage collector. Each shortcut is compared here
with what it replaces.
"""

from __future__ import annotations

import math
import re
from typing import Any

import attrs
import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from strategies import joints
from test_urdf_roundtrip import urdf_models

from robomodel._internal.construct import make
from robomodel._internal.inertia_bound import unproven_inertias
from robomodel.formats.urdf import dumps, loads
from robomodel.formats.urdf._document import parse_triples
from robomodel.formats.urdf._extensions import leaf_xml
from robomodel.formats.urdf._inertial import inertial_values
from robomodel.formats.urdf._origin import origin_transform
from robomodel.formats.urdf.errors import URDFValueError
from robomodel.formats.urdf.options import DumpOptions, LoadOptions
from robomodel.model import spatial
from robomodel.model.joints import (
    FixedJoint,
    JointDynamics,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.record import Extension, Frame, Link, Model
from robomodel.model.sensors import Accelerometer, Gyroscope
from robomodel.model.shapes import Box, Cylinder, Material, Mesh, SolidShape, Sphere
from robomodel.model.spatial import Axis, SpatialInertia, Transform, rotations_from_rpy
from robomodel.physics.inertia import consistency_problems

T = Transform.from_rpy_xyz((0.1, -0.2, 0.3), (1.0, 2.0, 3.0))
INERTIA = SpatialInertia.from_com(2.0, (0.1, 0.0, 0.0), np.eye(3))

# Per class: the checked constructor's keyword arguments, in attrs field order.
CASES: list[tuple[type, dict[str, object]]] = [
    (Extension, {"owner_kind": "joint", "owner": "j", "xml": "<a/>", "tag": "a"}),
    (Mesh, {"filename": "m.stl", "scale": (1.0, 2.0, 3.0)}),
    (Box, {"x": 1.0, "y": 0.0, "z": 2.5}),
    (Cylinder, {"radius": 0.5, "length": 2.0}),
    (Sphere, {"radius": 0.25}),
    (
        Material,
        {"name": "red", "rgba": (1.0, 0.0, 0.0, 1.0), "texture": None, "extensions": ("<x/>",)},
    ),
    (
        SolidShape,
        {
            "geometry": Mesh("m.stl"),
            "name": "v",
            "link_H_geometry": T,
            "material": None,
            "extensions": ('<drake:a xmlns:drake="d"/>',),
        },
    ),
    (Frame, {"name": "f", "link": "l", "link_H_frame": T}),
    (Link, {"inertia": INERTIA}),
    (Accelerometer, {"name": "acc", "link": "l", "link_H_sensor": T}),
    (Gyroscope, {"name": "gyro", "link": "l", "link_H_sensor": T}),
    (
        FixedJoint,
        {"link1": "a", "link2": "b", "link1_H_link2": T, "pos_coord_offset": 3, "dof_offset": 3},
    ),
    (PositionLimits, {"enabled": True, "lower": -1.0, "upper": 2.0}),
    (JointDynamics, {"kind": "urdf", "damping": 0.5, "static_friction": 0.25}),
]


@pytest.mark.parametrize(("cls", "fields"), CASES, ids=[c.__name__ for c, _ in CASES])
def test_trusted_constructors_build_what_the_checked_ones_build(
    cls: type, fields: dict[str, object]
) -> None:
    checked = cls(**fields)
    fast = make(cls)(*fields.values())
    assert type(fast) is cls
    assert fast == checked
    if cls.__hash__ is not None:
        assert hash(fast) == hash(checked)
    for name in fields:
        assert getattr(fast, name) == getattr(checked, name), name


@pytest.mark.parametrize("cls", [RevoluteJoint, PrismaticJoint])
def test_trusted_moving_joints(cls: type) -> None:
    checked = cls.with_axis_in(
        "b",
        RevoluteJoint(link1="a", link2="b").axis_in_link1,
        link1="a",
        link2="b",
        link1_H_link2=T,
        limits=PositionLimits.between(-1.0, 1.0),
        effort_limit=3.0,
        velocity_limit=4.0,
        pos_coord_offset=2,
        dof_offset=2,
    )
    values = [getattr(checked, f.name) for f in attrs.fields(cls)]
    assert make(cls)(*values) == checked


@given(
    rpy=st.tuples(*[st.floats(-4.0, 4.0)] * 3),
    xyz=st.tuples(*[st.floats(-10.0, 10.0)] * 3),
    mass=st.floats(0.0, 10.0),
    inverted=st.booleans(),
)
def test_the_loaders_values_are_the_checked_plain_values(
    rpy: tuple[float, float, float], xyz: tuple[float, float, float], mass: float, inverted: bool
) -> None:
    """The loader's makers build what the checked constructors build, of the plain classes."""
    origin = origin_transform(xyz, rpy, inverted)
    checked = Transform.from_rpy_xyz(rpy, xyz)
    if inverted:
        checked = checked.inverse()
    assert type(origin) is Transform
    assert np.allclose(origin.rotation, checked.rotation, atol=1e-12)
    assert np.allclose(origin.position, checked.position, atol=1e-12)
    assert Transform(origin.rotation, origin.position) == origin
    assert hash(Transform(origin.rotation, origin.position)) == hash(origin)
    assert not origin.rotation.flags.writeable and not origin.position.flags.writeable

    six = (1.0, 0.1, 0.0, 2.0, 0.0, 3.0)
    (inertia,) = inertial_values([(mass, six)], [xyz], [rpy])
    I_C = np.array([[1.0, 0.1, 0.0], [0.1, 2.0, 0.0], [0.0, 0.0, 3.0]])
    R = Transform.from_rpy_xyz(rpy, xyz).rotation
    expected = SpatialInertia.from_com(mass, xyz, R @ I_C @ R.T)
    assert type(inertia) is SpatialInertia
    assert inertia == SpatialInertia(inertia.mass, inertia.first_moment, inertia.rotational_inertia)
    assert inertia.mass == mass
    assert np.allclose(inertia.first_moment, expected.first_moment, atol=1e-9)
    assert np.allclose(inertia.rotational_inertia, expected.rotational_inertia, atol=1e-9)


def test_trusted_refuses_classes_it_cannot_build() -> None:
    with pytest.raises(TypeError, match="caches its hash"):
        make(Model)

    class Plain:
        pass

    with pytest.raises(TypeError, match="not a slotted attrs class"):
        make(Plain)


# ---------------------------------------------------------------------- childless kept elements
_names = st.from_regex(r"[a-z_][a-z0-9_.-]{0,8}", fullmatch=True)
_values = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Co", "Cn", "Cc"))
    | st.sampled_from(list("<>&\"'\t\n\r ")),
    max_size=12,
)


@given(
    tag=_names,
    attrs_=st.lists(st.tuples(_names, _values), max_size=4, unique_by=lambda kv: kv[0]),
)
def test_leaf_xml_is_what_lxml_writes_or_declines(tag: str, attrs_: list[tuple[str, str]]) -> None:
    el = etree.Element(tag)
    try:
        for k, v in attrs_:
            el.set(k, v)
    except ValueError:  # not an XML character: no document can hold it
        return
    # What the loader sees: the element as parsed back from its text.
    parsed = etree.fromstring(etree.tostring(el))
    fast = leaf_xml(parsed.tag, parsed.items())
    if fast is not None:
        assert fast == etree.tostring(parsed, encoding="unicode", with_tail=False)


def test_leaf_xml_declines_values_that_need_escaping() -> None:
    assert leaf_xml("a", [("b", "x&y")]) is None
    assert leaf_xml("a", [("b", "tab\there")]) is None
    assert leaf_xml("a", [("b", "ünï")]) is None
    assert leaf_xml("a", [("b", "1"), ("c", "2")]) == '<a b="1" c="2"/>'


# ---------------------------------------------------------------------- batched numbers
_number_texts = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1_0", "１", "0x10", "", ",", "1,2", "--1", "1e400"]),
)
_texts = st.lists(_number_texts, min_size=0, max_size=4).map(" ".join) | st.sampled_from(
    ["0 0 0", " 1  2\t3 ", "1 2", "1 2 3 4", "1 , 2", "a b c"]
)


def _one_by_one(texts: list[str]) -> list[float] | None:
    out: list[float] = []
    for text in texts:
        parts = text.split()
        if len(parts) != 3 or "_" in text or not text.isascii():
            return None
        try:
            values = [float(p) for p in parts]
        except ValueError:
            return None
        out += values
    return out


@given(st.lists(_texts, min_size=1, max_size=6))
def test_parse_triples_reads_what_reading_each_text_reads(texts: list[str]) -> None:
    batched = parse_triples(texts)
    expected = _one_by_one(texts)
    if expected is None:
        assert batched is None
    else:
        assert batched is not None
        assert [x.hex() for x in batched.ravel().tolist()] == [x.hex() for x in expected]


# ---------------------------------------------------------------------- stacked rotations
def _scalar_rotation(r: float, p: float, y: float) -> list[float]:
    """rotation_from_rpy's formulas on Python floats, row-major (the loader's reference)."""
    cr, sr, cp, sp, cy, sy = (
        math.cos(r),
        math.sin(r),
        math.cos(p),
        math.sin(p),
        math.cos(y),
        math.sin(y),
    )
    return [
        *(cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
        *(sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
        *(-sp, cp * sr, cp * cr),
    ]


_ANGLES = st.floats(-10.0, 10.0) | st.sampled_from(
    [0.0, -0.0, math.pi, -math.pi, math.pi / 2, 5e-324, 1e-300, 1e300, -1e300]
)


@given(st.lists(st.tuples(_ANGLES, _ANGLES, _ANGLES), min_size=1, max_size=40))
def test_stacked_rotations_are_the_scalar_formulas_bit_for_bit(
    rpys: list[tuple[float, ...]],
) -> None:
    """The loader's stacked rotations (a few gathered numpy operations over all the origins of
    a document) are, entry by entry and signed zeros included, the scalar formulas of
    ``rotation_from_rpy`` evaluated on Python floats."""
    got = rotations_from_rpy([a for rpy in rpys for a in rpy], len(rpys))
    for k, rpy in enumerate(rpys):
        expected = np.array(_scalar_rotation(*rpy))
        assert got[k].ravel().tobytes() == expected.tobytes()


@pytest.mark.parametrize("n", [1, 2, spatial._FEW_ROTATIONS, spatial._FEW_ROTATIONS + 1, 60])
def test_few_and_many_rotations_take_paths_with_the_same_bits(n: int) -> None:
    """Up to ``_FEW_ROTATIONS`` rows are computed in Python floats, more on stacked arrays:
    either path gives the other's bits (signed zeros included) on the same angles."""
    rng = np.random.default_rng(n)
    angles = rng.uniform(-4.0, 4.0, 3 * n).tolist()
    angles[: 3 * min(n, 3)] = [0.0, -0.0, math.pi, 0.0, 0.0, 0.0, -math.pi / 2, 1e-300, 0.0][
        : 3 * min(n, 3)
    ]
    few = spatial._FEW_ROTATIONS
    try:
        spatial._FEW_ROTATIONS = n
        scalar = rotations_from_rpy(angles, n)
        spatial._FEW_ROTATIONS = n - 1
        stacked = rotations_from_rpy(angles, n)
    finally:
        spatial._FEW_ROTATIONS = few
    assert scalar.shape == stacked.shape == (n, 3, 3)
    assert scalar.tobytes() == stacked.tobytes()


def _stacked_inertials(
    data: list[tuple[float, tuple[float, ...]]], xyz: list[Any], rpy: list[Any]
) -> tuple[Any, Any]:
    """The inertias about the link origin on stacked arrays (the loader's former numpy pass):
    first moments ``(n, 3)`` and rotational inertias ``(n, 3, 3)``, with -0.0 as 0.0."""
    n = len(data)
    m = np.array([d[0] for d in data])
    c = np.array(xyz, dtype=np.float64).reshape(n, 3)
    A = np.array([d[1] for d in data]).reshape(n, 6)[:, [0, 1, 2, 1, 3, 4, 2, 4, 5]]
    A = A.reshape(n, 3, 3)
    rotated = [k for k, a in enumerate(rpy) if tuple(a) != (0.0, 0.0, 0.0)]
    if rotated:
        R = rotations_from_rpy([a for k in rotated for a in rpy[k]], len(rotated))
        Ic = A[rotated]
        B = R[:, :, 0, None] * Ic[:, None, 0, :]
        B = B + R[:, :, 1, None] * Ic[:, None, 1, :]
        B = B + R[:, :, 2, None] * Ic[:, None, 2, :]
        Ar = B[:, :, None, 0] * R[:, None, :, 0]
        Ar = Ar + B[:, :, None, 1] * R[:, None, :, 1]
        Ar = Ar + B[:, :, None, 2] * R[:, None, :, 2]
        A[rotated] = Ar
    with np.errstate(all="ignore"):
        h = m[:, None] * c
        hh = h[:, 0] * h[:, 0] + h[:, 1] * h[:, 1] + h[:, 2] * h[:, 2]
        outer = h[:, :, None] * h[:, None, :]
        outer.reshape(n, 9)[:, ::4] -= hh[:, None]
        A = np.where((m != 0.0)[:, None, None], A - outer / m[:, None, None], A)
        I_O = 0.5 * (A + A.transpose(0, 2, 1))
    return h + 0.0, I_O + 0.0


_MOMENTS = st.floats(-2.0, 2.0) | st.sampled_from([0.0, 1e-20, 1e150])


@given(
    st.lists(
        st.tuples(
            st.floats(0.0, 10.0) | st.just(0.0),
            st.tuples(*[_MOMENTS] * 6),
            st.tuples(*[st.floats(-1.0, 1.0)] * 3),
            st.tuples(*[st.floats(-4.0, 4.0)] * 3) | st.just((0.0, 0.0, 0.0)),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_inertial_values_are_the_stacked_pass_bit_for_bit(
    inertials: list[tuple[float, tuple[float, ...], Any, Any]],
) -> None:
    """The loader shifts each inertia to the link origin in Python floats: the same operations
    in the same order as the stacked numpy pass, hence its bits, for every mass (zero
    included), centre of mass and rotation of the moments."""
    data = [(m, six) for m, six, _, _ in inertials]
    xyz = [c for _, _, c, _ in inertials]
    rpy = [a for _, _, _, a in inertials]
    got = inertial_values(data, xyz, rpy)
    h, I_O = _stacked_inertials(data, xyz, rpy)
    if not (np.isfinite(h).all() and np.isfinite(I_O).all()):
        return  # the loader raises for these (test_urdf's overflow test)
    for k, inertia in enumerate(got):
        assert inertia.first_moment.tobytes() == h[k].tobytes()
        assert inertia.rotational_inertia.tobytes() == I_O[k].tobytes()


# ---------------------------------------------------------------------- trusted assembly
def _checked_twin(m: Model) -> Model:
    """``m`` rebuilt by ``Model(...)``, which checks and derives everything again."""
    return Model(**{f.name: getattr(m, f.name) for f in attrs.fields(Model) if f.init})


def _assert_assembled_as_checked(m: Model) -> None:
    twin = _checked_twin(m)
    assert twin == m
    mine, theirs = m._index, twin._index
    for part in ("links", "joints", "frames", "sensors"):
        names, expected = getattr(mine, part), getattr(theirs, part)
        assert {k: names[k] for k in names} == {k: expected[k] for k in expected}
    assert mine.counts == theirs.counts
    assert [list(v) for v in m.visuals] == [list(v) for v in twin.visuals]


@pytest.mark.parametrize("robot", ["iCubGazeboV2_7", "iCubGenova03", "left_hand_mk3"])
def test_a_loaded_model_is_what_the_checked_constructor_builds(robot: str) -> None:
    """The loader assembles its model without ``Model(...)``'s checks: the same fields through
    the checked constructor give an equal model with the same name maps and counts."""
    m = loads(icub_models.get_model_file(robot).read_bytes())
    _assert_assembled_as_checked(m)
    _assert_assembled_as_checked(loads(dumps(m)))  # in index order, with <robomodel:order>


@given(urdf_models())
def test_loaded_random_models_are_what_the_checked_constructor_builds(m: Model) -> None:
    """Random trees URDF can express, with frames, shapes, sensors and extensions, written and
    read back (in index order and in iDynTree's layout): the trusted assembly agrees with
    ``Model(...)``."""
    _assert_assembled_as_checked(loads(dumps(m)))
    _assert_assembled_as_checked(loads(dumps(m, options=DumpOptions(order="idyntree"))))


# ---------------------------------------------------------------------- the inertia screen
_INERTIAL_ROBOT = """<robot name="r"><link name="l"><inertial><mass value="{mass!r}"/>
  <inertia ixx="{six[0]!r}" ixy="{six[1]!r}" ixz="{six[2]!r}" iyy="{six[3]!r}" iyz="{six[4]!r}"
    izz="{six[5]!r}"/></inertial></link></robot>"""


@given(
    mass=st.sampled_from([0.0, 1e-3, 1.0, 1e3]),
    exponent=st.integers(-30, 3),
    ab=st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 1.0)),
    excess=st.floats(-4e-6, 4e-6) | st.sampled_from([0.0, -1.0, 1.0]),
    rpy=st.tuples(*[st.floats(-math.pi, math.pi)] * 3),
)
def test_the_inertia_screen_passes_every_inertia_the_judge_flags(
    mass: float,
    exponent: int,
    ab: tuple[float, float],
    excess: float,
    rpy: tuple[float, float, float],
) -> None:
    """The loader's batched screen (eigenvalues against half the judge's tolerance) hands every
    inertia ``consistency_problems`` flags to it: an inertia raises under ``inertia="raise"``
    exactly when the judge, run on the numbers read, finds a problem. Drawn near the boundary
    (the triangle inequality broken or kept by about the tolerance) at scales from point masses
    rounded to 1e-30 to heavy links."""
    a, b = ab[0] * 10.0**exponent, ab[1] * 10.0**exponent
    c = (a + b) * (1.0 + excess)
    R = Transform.from_rpy_xyz(rpy, (0.0, 0.0, 0.0)).rotation
    I_C = R @ np.diag([a, b, c]) @ R.T
    six = tuple(float(I_C[i, j]) for i, j in ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)))
    read = np.array([six[k] for k in (0, 1, 2, 1, 3, 4, 2, 4, 5)]).reshape(3, 3)
    judged = consistency_problems(SpatialInertia.from_com(mass, (0.0, 0.0, 0.0), read), rtol=1e-6)
    text = _INERTIAL_ROBOT.format(mass=mass, six=six)
    if judged:
        with pytest.raises(URDFValueError, match="physically inconsistent"):
            loads(text, options=LoadOptions(inertia="raise"))
    else:
        loads(text, options=LoadOptions(inertia="raise"))


_SIX = st.floats(-1.0, 1.0) | st.sampled_from([0.0, 1e-20, -1e-20, 1.0, 1e300, 1.7e308])


@given(
    mass=st.sampled_from([0.0, 1e-3, 1.0]),
    diagonal=st.tuples(*[st.floats(0.0, 2.0) | st.sampled_from([0.0, 1e-20, 1.7e308])] * 3),
    off=st.tuples(*[_SIX] * 3),
    scale=st.sampled_from([1.0, 1e-3, 1e-12]),
)
def test_inertias_the_gershgorin_bound_clears_are_consistent(
    mass: float,
    diagonal: tuple[float, float, float],
    off: tuple[float, float, float],
    scale: float,
) -> None:
    """The loader runs the eigenvalue screen only on the inertias its Gershgorin bound does not
    clear: every inertia it clears has moments >= 0 that keep the triangle inequality, and
    ``consistency_problems`` finds nothing in it."""
    a, d, f = (x * scale for x in diagonal)
    b, c, e = (x * scale for x in off)
    six = (a, b, c, d, e, f)
    if unproven_inertias([(mass, six)]):
        return
    I_C = np.array([[a, b, c], [b, d, e], [c, e, f]])
    ev = np.linalg.eigvalsh(I_C)
    tol = 0.5e-6 * max(mass, float(np.abs(I_C).max()))
    assert ev[0] >= -tol
    assert ev[0] + ev[1] >= ev[2] - tol
    assert not consistency_problems(SpatialInertia.from_com(mass, (0.0, 0.0, 0.0), I_C), rtol=1e-6)


def test_the_gershgorin_bound_clears_real_links_and_nothing_doubtful() -> None:
    """The bound clears what real links have (so the property above is not vacuous) and never an
    inertia that breaks the triangle inequality, has a negative moment, or is not finite."""
    cleared = [
        (1.0, (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)),  # a point mass's equal moments
        (0.5, (2e-3, 1e-5, -2e-5, 3e-3, 1e-5, 4e-3)),  # an arm segment's
        (0.0, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)),  # a massless link
    ]
    doubtful = [
        (1.0, (1.0, 0.0, 0.0, 1.0, 0.0, 2.5)),  # 1 + 1 < 2.5
        (1.0, (-1e-3, 0.0, 0.0, 1.0, 0.0, 1.0)),  # a negative moment
        (1.0, (1.0, 0.0, 0.0, 1.0, 0.0, float("nan"))),
        (1.0, (1.7e308, 0.0, 0.0, 1.7e308, 0.0, 1.7e308)),  # the trace overflows
        (1.0, (1.0, 0.9, 0.9, 1.0, 0.9, 1.0)),  # consistent or not, the bound cannot tell
    ]
    assert unproven_inertias(cleared + doubtful) == [3, 4, 5, 6, 7]


# ---------------------------------------------------------------------- eager reading on doubt
_ROBOT = """<robot name="r">
  <link name="base"><inertial><origin xyz="{inertial}" rpy="0 0 0"/><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="arm"/>
  <link name="tool"/>
  <joint name="j" type="revolute"><origin xyz="{origin}" rpy="0 0 0"/>
    <parent link="base"/><child link="arm"/><axis xyz="{axis}"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="t" type="fixed"><origin xyz="0 0 0" rpy="{rpy}"/>
    <parent link="arm"/><child link="tool"/></joint>
</robot>"""
_GOOD = {"inertial": "0 0 0", "origin": "0 0 1", "axis": "0 0 1", "rpy": "0 0 0"}


@pytest.mark.parametrize(
    ("field", "text", "line", "element"),
    [
        ("inertial", "0 nan 0", 2, "link 'base'"),
        ("origin", "0 0", 6, "joint 'j'"),
        ("axis", "0 0 1_0", 7, "joint 'j'"),
        ("rpy", "0 0 x", 9, "joint 't'"),
    ],
)
def test_a_number_that_does_not_read_is_reported_where_it_is(
    field: str, text: str, line: int, element: str
) -> None:
    with pytest.raises(URDFValueError) as info:
        loads(_ROBOT.format(**{**_GOOD, field: text}), filename="r.urdf")
    assert info.value.line == line
    assert element in str(info.value)
    assert re.search(r"r\.urdf:\d+", str(info.value))


def test_the_first_bad_number_in_document_order_is_reported() -> None:
    text = _ROBOT.format(**{**_GOOD, "inertial": "1 2", "rpy": "0 0 x"})
    with pytest.raises(URDFValueError) as info:
        loads(text, filename="r.urdf")
    assert info.value.line == 2


def test_repeated_texts_share_numbers_not_mistakes() -> None:
    # The same xyz text on many origins is read once; every origin still gets its own value.
    m = loads(_ROBOT.format(**{**_GOOD, "origin": "0.1 0.2 0.3", "inertial": "0.1 0.2 0.3"}))
    assert m.joints[0].link1_H_link2.position.tolist() == [0.1, 0.2, 0.3]
    assert m.links[0].inertia.com.tolist() == [0.1, 0.2, 0.3]
    assert loads(dumps(m)) == m


def test_icub_load_is_deterministic_across_loads() -> None:
    path = str(icub_models.get_model_file("iCubGazeboV2_7"))
    with open(path, "rb") as fh:
        data = fh.read()
    a, b = loads(data), loads(data)
    assert a == b
    for fa, fb in zip(a.frames, b.frames, strict=True):
        assert fa.link_H_frame.rotation.tobytes() == fb.link_H_frame.rotation.tobytes()
    assert math.isfinite(sum(link.mass for link in a.links))


def test_huge_axis_components_still_give_the_direction() -> None:
    # |xyz|^2 overflows above ~1e154; the direction must not silently become zero.
    from robomodel.model.spatial import Axis

    assert Axis((1e200, 0.0, 0.0)).direction.tolist() == [1.0, 0.0, 0.0]
    d = Axis((1e200, 1e200, 0.0)).direction
    assert np.allclose(d, [2**-0.5, 2**-0.5, 0.0])
    m = loads(_ROBOT.format(**{**_GOOD, "axis": "0 0 1e200"}))
    assert m.joints[0].axis_in_link1.direction.tolist() == [0.0, 0.0, 1.0]
    assert loads(dumps(m)) == m


@given(
    joints(),
    st.sampled_from(["a", "b"]),
    st.floats(min_value=1 - 1e-10, max_value=1 + 1e-10),
    st.integers(min_value=0, max_value=8),
    st.booleans(),
)
def test_axis_check_of_the_exporter_is_the_axis_methods_bit_for_bit(
    j: object, child: str, scale: float, entry: int, through_link2: bool
) -> None:
    # The exporter's check that an axis passes through the child origin, on plain arrays, must
    # give the very bits of ``j.axis(child)`` and its ``distance``: one flipped last bit could
    # turn an export into an error. A slightly scaled entry is within the rotation tolerance: the
    # transform stores the nearest rotation, whose last bits differ from the drawn one's.
    from robomodel.formats.urdf._joint import _axis_in_child

    if isinstance(j, FixedJoint):
        return
    assert isinstance(j, RevoluteJoint | PrismaticJoint)
    R = j.link1_H_link2.rotation.copy()
    R.flat[entry] *= scale
    j = attrs.evolve(j, link1_H_link2=Transform(R, j.link1_H_link2.position))
    if through_link2:  # the axis line through link2's origin, as the loader stores it
        a = Axis(j.axis_in_link1.direction, j.link1_H_link2.position)
        j = attrs.evolve(j, axis_in_link1=a)
    axis = j.axis(child)
    fast = _axis_in_child(j, child)
    if fast is None:  # only where the general path renormalises the direction
        u = j.link1_H_link2.rotation.T @ j.axis_in_link1.direction
        assert child == "b" and abs(float(u @ u) - 1.0) > 1e-9
        return
    direction, distance = fast
    # Values store -0.0 as 0.0 (canonical numbers); the exporter prints both as 0.
    assert (direction + 0.0).tobytes() == axis.direction.tobytes()
    assert np.float64(distance).tobytes() == np.float64(axis.distance((0.0, 0.0, 0.0))).tobytes()


# ---------------------------------------------------------------------- shared texts, one document
# A small pool, so that documents repeat texts (the loader reads each distinct text once and
# lets origins with the same text share one frozen rotation or position); odd spellings and
# signed zeros included.
_XYZ = st.sampled_from(["0 0 0", "-0 0 -0.0", "0.1 0.2 0.3", "+1 1e-3 .5", "0.5 0 -0.25"])
_RPY = st.sampled_from(["0 0 0", "0 -0 0", "1.5707963267948966 0 0", "0.3 -0.2 1e-1", "3 2 1"])
_COLORS = st.sampled_from([("red", "1 0 0 1"), ("red", "1 0 0 0.5"), ("blue", "0 0 1 1")])


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(float(t) + 0.0 for t in text.split())


@given(
    st.lists(st.tuples(_XYZ, _RPY, _XYZ, _RPY, _COLORS, _XYZ), min_size=1, max_size=6),
)
def test_origins_axes_and_materials_of_a_document_are_each_their_own_numbers(
    rows: list[tuple[str, str, str, str, tuple[str, str], str]],
) -> None:
    """Every origin of a document is, bit for bit, ``origin_transform`` of its own numbers, and
    every axis passes exactly through its joint's position, whatever else the document holds;
    each shape's one-colour material is its own name and colour (shapes that repeat one share
    it), even where another material of the same name has another colour."""
    parts = ['<robot name="r"><link name="l0"/>']
    for k, (jxyz, jrpy, vxyz, vrpy, (color, rgba), axis) in enumerate(rows, 1):
        axis = axis if axis.replace("0", "").strip(" -+.") else "0 0 1"  # not a zero axis
        parts.append(
            f'<link name="l{k}"><visual><origin xyz="{vxyz}" rpy="{vrpy}"/>'
            '<geometry><box size="1 1 1"/></geometry>'
            f'<material name="{color}"><color rgba="{rgba}"/></material></visual></link>'
            f'<joint name="j{k}" type="revolute"><parent link="l{k - 1}"/><child link="l{k}"/>'
            f'<origin xyz="{jxyz}" rpy="{jrpy}"/><axis xyz="{axis}"/></joint>'
        )
    m = loads("".join(parts) + "</robot>")
    for k, (jxyz, jrpy, vxyz, vrpy, (color, rgba), _) in enumerate(rows, 1):
        joint = m.joints[m.joint_index(f"j{k}")]
        for got, (xyz, rpy) in (
            (joint.link1_H_link2, (jxyz, jrpy)),
            (m.visuals[m.link_index(f"l{k}")][0].link_H_geometry, (vxyz, vrpy)),
        ):
            expected = origin_transform(_numbers(xyz), _numbers(rpy))  # type: ignore[arg-type]
            assert got.rotation.tobytes() == expected.rotation.tobytes()
            assert got.position.tobytes() == expected.position.tobytes()
        axis_origin = joint.axis_in_link1.origin  # type: ignore[union-attr]
        assert axis_origin.tobytes() == joint.link1_H_link2.position.tobytes()
        material = m.visuals[m.link_index(f"l{k}")][0].material
        assert material == Material(name=color, rgba=_numbers(rgba))
