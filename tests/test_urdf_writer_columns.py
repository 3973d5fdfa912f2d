"""The URDF writer's column paths agree with the per-element rules they stand in for.

The writer formats the numbers of many elements at once, checks the axes of joints that go
through their child's origin together and writes every origin of the tree in one pass. Each
shortcut is compared here with the per-element rule (``format_float``, the per-joint axis,
``write_origin``).
"""

from __future__ import annotations

import icub_models
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_urdf_roundtrip import urdf_models

import robomodel as rm
from robomodel.formats.urdf import URDFExportError, dumps, load
from robomodel.formats.urdf._document import Pending, Writer, fill, quote, quote_names
from robomodel.formats.urdf._extensions import kept_by_owner
from robomodel.formats.urdf._joint import _axis_parts, _axis_xml_parts
from robomodel.formats.urdf._origin import origin_texts, write_origin
from robomodel.formats.urdf._tree import _frame_joint_names
from robomodel.formats.urdf.numbers import format_float, format_numbers
from robomodel.formats.urdf.options import DumpOptions
from robomodel.model.joints import FixedJoint

# The edges of the notation rule's ranges (numbers.py): 1e-6, 1e-4, 1e-3 and 1e4, the short
# texts below 1e-4 that the rule writes plainly, and the integers that need an exponent.
_EDGES = [
    1e-6,
    1.5e-6,
    2e-6,
    1e-5,
    1.5e-5,
    1.25e-5,
    9.99e-5,
    1e-4,
    1.2e-4,
    1.23e-4,
    1.234e-4,
    0.00012345678901234,
    9.999999999999999e-4,
    1e-3,
    1.5,
    12.0,
    9999.999999999998,
    1e4,
    12345.678,
    1e7,
    1e8,
    123456789.0,
    1e16,
    1.5e20,
    5e-324,
    0.0,
]


@given(st.lists(st.sampled_from(_EDGES), max_size=30), st.lists(st.booleans(), max_size=30))
def test_format_numbers_at_the_range_edges(values: list[float], signs: list[bool]) -> None:
    """At the edges of each notation range, under both signs, format_numbers is format_float."""
    xs = [-v if s else v for v, s in zip(values, signs + [False] * len(values), strict=False)]
    assert format_numbers(xs) == tuple(format_float(x) for x in xs)


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=40))
def test_format_numbers_is_format_float_of_each(values: list[float]) -> None:
    """Over any finite doubles (repeated, both zeros, integers), format_numbers is format_float
    of each, in order."""
    xs = values + values[::3] + [float(int(v)) for v in values[:5] if abs(v) < 1e15]
    assert format_numbers(xs) == tuple(format_float(x) for x in xs)


# Names with characters quote escapes or refuses, and printable ones beside them.
_NAME_CHARS = st.sampled_from(list("ab_1 é&<>\"'\t\n\x00\x07\x7f\u2028"))


@given(st.lists(st.text(_NAME_CHARS, max_size=6), max_size=8))
def test_quote_names_is_quote_of_each(names: list[str]) -> None:
    """quote_names gives quote of each name, or the error quote raises for the first bad one."""
    try:
        expected = [quote(s) for s in names]
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            quote_names(names)
        assert str(got.value) == str(e)
        return
    assert quote_names(names) == expected


@given(st.lists(st.tuples(st.text(max_size=4), st.text(max_size=4)), max_size=6), st.data())
def test_fill_is_the_concatenation_of_each_row(
    rows: list[tuple[str, str]], data: st.DataObject
) -> None:
    """fill(parts, *columns) is, per row, the parts and the row's texts in turn."""
    parts = data.draw(st.tuples(st.text(max_size=3), st.text(max_size=3), st.text(max_size=3)))
    left, right = [r[0] for r in rows], [r[1] for r in rows]
    got = fill(parts, left, right)
    assert got == [parts[0] + a + parts[1] + b + parts[2] for a, b in rows]


def test_frame_joint_names_are_the_default_or_the_documents() -> None:
    """A frame's joint is <frame>_fixed_joint unless the document named it otherwise."""
    m = load(str(icub_models.get_model_file("iCubGazeboV2_7")))
    w = _writer(m)
    w.frame_joint = {m.frames[1].name: "renamed"}
    names = [fr.name for fr in m.frames]
    expected = [w.frame_joint.get(n, n + "_fixed_joint") for n in names]
    assert _frame_joint_names(w, names) == expected
    assert _frame_joint_names(w, []) == []


def _writer(m: rm.Model) -> Writer:
    return Writer(m, DumpOptions(), *kept_by_owner(m))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(urdf_models(), st.data())
def test_axes_checked_together_are_each_joints_axis(m: rm.Model, data: st.DataObject) -> None:
    """The axes of the moving joints, checked and written together, are each joint's own
    (written from either end)."""
    moving = [j for j in m.joints if not isinstance(j, FixedJoint)]
    names = [n for n, j in zip(m.joint_names, m.joints, strict=True) if j in moving]
    children = [data.draw(st.sampled_from([j.link1, j.link2])) for j in moving]
    try:
        expected = [
            _axis_xml_parts(_writer(m), n, j, c)
            for n, j, c in zip(names, moving, children, strict=True)
        ]
    except URDFExportError as e:  # an axis off its child's origin: the first one is named
        with pytest.raises(URDFExportError) as got:
            _axis_parts(_writer(m), names, moving, children)
        assert str(got.value) == str(e)
        return
    assert _axis_parts(_writer(m), names, moving, children) == expected


@pytest.mark.parametrize("robot", ["iCubGazeboV2_7", "left_hand_mk3"])
def test_origins_of_a_robot_are_write_origin_of_each(robot: str) -> None:
    """Every origin of a loaded robot (shapes, joints, frames, sensors, some inverted) written
    in one pass is write_origin of each."""
    m = load(str(icub_models.get_model_file(robot)))
    poses = [s.link_H_geometry for v in (*m.visuals, *m.collisions) for s in v]
    poses += [j.link1_H_link2 for j in m.joints] + [f.link_H_frame for f in m.frames]
    invert = [k % 7 == 3 for k in range(len(poses))]
    w = _writer(m)
    got = origin_texts(poses, invert, w.memo)
    assert got == [write_origin(T, inv, {}) for T, inv in zip(poses, invert, strict=True)]


def test_a_joint_off_its_axis_is_refused_among_many() -> None:
    """The first joint whose axis misses its child's origin is named, as one by one."""
    m = rm.add_link(rm.Model(), "a")
    for k in range(4):
        axis = rm.Axis((0, 0, 1), (0.0, 0.0, 0.0) if k != 2 else (0.5, 0.0, 0.0))
        j = rm.RevoluteJoint(
            link1="a",
            link2=f"b{k}",
            link1_H_link2=rm.Transform.from_translation((0.0, 0.0, 0.0)),
            axis_in_link1=axis,
        )
        m = rm.add_joint_and_link(m, "a", f"j{k}", j, f"b{k}")
    with pytest.raises(URDFExportError, match=r"joint 'j2'.*does not pass"):
        dumps(m)


def test_the_fake_roots_inverse_is_searched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An export whose base's first frame becomes the fake root (its inverse exact) searches
    that inverse once: the tree writer's check and the origin's text share it."""
    from robomodel.formats.urdf import _origin

    m = rm.add_link(rm.Model(), "base")
    m = rm.add_frame(m, "base", "root", rm.Transform.from_translation((0.5, 0.25, -1.0)))
    searched: list[bool] = []
    plain = _origin.inverse_xyz

    def counted(T: rm.Transform) -> object:
        searched.append(True)
        return plain(T)

    monkeypatch.setattr(_origin, "inverse_xyz", counted)
    text = dumps(m)
    assert '<link name="root"/>' in text and '<parent link="root"/>' in text
    assert searched.count(True) == 1


@given(
    st.lists(
        st.tuples(
            st.booleans(),
            st.booleans(),
            st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=12),
        ),
        max_size=6,
    )
)
def test_pending_blocks_as_arrays_or_lists(blocks: list[tuple[bool, bool, list[float]]]) -> None:
    """Numbers added to Pending as arrays give the texts of the same numbers added as lists.

    Each block is plain numbers or ``<origin>`` rows (cut to whole rows of six), added as a
    list to one Pending and as a list or a flat array to the other; the texts and the origins
    are the per-number rule's.
    """
    lists, mixed = Pending(), Pending()
    expected: list[float] = []
    for as_array, origins, values in blocks:
        if origins:
            values = values[: len(values) // 6 * 6]
        added = np.array(values, dtype=np.float64) if as_array else values
        assert (lists.add_origins if origins else lists.add)(values) == (
            mixed.add_origins if origins else mixed.add
        )(added)
        expected += values
    assert mixed.values == expected
    lists.format()
    mixed.format()
    assert mixed.texts == lists.texts == tuple(format_float(v) for v in expected)
    assert mixed.origins == lists.origins
