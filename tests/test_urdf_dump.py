"""URDF exporter: iDynTree's layout and rules, the fixes, and the number formatting rule."""

from __future__ import annotations

import math
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import transforms

import robomodel as rm
from robomodel.formats.urdf import DumpOptions as _ExportOptions
from robomodel.formats.urdf import URDFExportError, dump, load, loads
from robomodel.formats.urdf import dumps as _dumps
from robomodel.formats.urdf.numbers import format3, format_float, format_numbers


# These tests pin iDynTree's layout: the exporter's iDynTree order (the default, index order,
# is tested in test_urdf_roundtrip.py and test_roundtrip_formats.py).
def DumpOptions(**kw: object) -> _ExportOptions:
    return _ExportOptions(order="idyntree", **kw)  # type: ignore[arg-type]


def dumps(m: rm.Model, *, options: _ExportOptions | None = None) -> str:
    return _dumps(m, options=DumpOptions() if options is None else options)


# ---------------------------------------------------------------------------- numbers
@pytest.mark.parametrize(
    ("value", "text"),
    [
        # Spec §6.6 (fpconv/Grisu2 in iDynTree 15.1) and the T8 export.
        (1.0, "1"),
        (1000000.0, "1000000"),
        (0.001, "0.001"),
        (0.020000000000000004, "0.020000000000000004"),
        (1e9, "1e+9"),
        (1e-7, "1e-7"),
        (1.5e20, "1.5e+20"),
        (0.0, "0"),
        (-0.0, "0"),  # iDynTree writes -0: robomodel's text is a function of the value
        (1.0394699999999019e-4, "1.0394699999999019e-4"),  # iCub export by iDynTree 15.1
        (-3.141592653589793, "-3.141592653589793"),
        (0.000001, "0.000001"),
        (1e16, "1e+16"),
    ],
)
def test_format_float_matches_idyntree(value: float, text: str) -> None:
    assert format_float(value) == text


@given(st.integers(0, 2**64 - 1))
def test_format_float_round_trips_every_double(bits: int) -> None:
    """For every finite double x, float(format_float(x)) == x with the same sign."""
    x = struct.unpack("<d", struct.pack("<Q", bits))[0]
    if not math.isfinite(x):
        with pytest.raises(ValueError):
            format_float(x)
        return
    y = float(format_float(x))
    assert y == x and math.copysign(1.0, y) == math.copysign(1.0, x)


@given(
    st.one_of(
        st.integers(0, 2**64 - 1).map(lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]),
        st.floats(-2e4, 2e4),
        st.sampled_from([1e-3, -1e-3, 1e4, -1e4, 9999.999999999998, 0.0009999999999999998]),
    ).filter(math.isfinite)
)
def test_format_float_fast_path_is_the_general_rule(x: float) -> None:
    """The formatter's shortcut for numbers in [1e-3, 1e4) writes what the notation rule does."""
    from robomodel.formats.urdf.numbers import _format, _format_general

    assert _format(x) == _format_general(x)
    assert format3(x, x, 1.0) == " ".join([_format_general(x), _format_general(x), "1"])


def _double(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


_DOUBLES = st.one_of(
    st.integers(0, 2**64 - 1).map(_double),  # every double, subnormals and huge exponents
    st.integers(0, 2**52 - 1).map(_double),  # subnormals (and zero)
    st.floats(-2e4, 2e4),
    st.floats(-1e-2, 1e-2),
    st.integers(-(10**17), 10**17).map(float),
    st.sampled_from([1e-3, -1e-3, 1e4, -1e4, 1e8, 1e16, -0.0, 5e-324, 1.7976931348623157e308]),
).filter(math.isfinite)


@given(st.lists(_DOUBLES, max_size=40))
def test_format_numbers_is_format_float_on_each(values: list[float]) -> None:
    """The bulk formatter writes every finite double as format_float does, in order."""
    assert format_numbers(values) == tuple(format_float(v) for v in values)
    assert format_numbers(np.array(values, dtype=np.float64)) == tuple(
        format_float(v) for v in values
    )


@given(st.lists(_DOUBLES, max_size=5), st.sampled_from([math.nan, math.inf, -math.inf]))
def test_format_numbers_refuses_non_finite_numbers(values: list[float], bad: float) -> None:
    """A NaN or an infinity anywhere is a ValueError naming it, as format_float raises."""
    with pytest.raises(ValueError, match="non-finite number"):
        format_numbers([*values, bad, *values])


@given(
    st.lists(st.tuples(transforms(), st.booleans()), max_size=6).map(lambda xs: xs + xs[:2]),
)
def test_origin_texts_are_write_origin_of_each(poses: list[tuple[rm.Transform, bool]]) -> None:
    """Writing many origins at once (repeats written once) gives write_origin of each, in order."""
    from robomodel.formats.urdf._origin import origin_texts, write_origin

    Ts = [T for T, _ in poses]
    inv = [i for _, i in poses]
    assert origin_texts(Ts, inv, {}) == [write_origin(T, i, {}) for T, i in poses]
    assert origin_texts(Ts) == [write_origin(T) for T in Ts]


@given(st.lists(st.text(st.characters(codec="utf-8"), max_size=6), max_size=6))
def test_quote_names_is_quote_of_each(names: list[str]) -> None:
    """Quoting many names at once gives quote of each, or the ValueError quote raises first."""
    from robomodel.formats.urdf._document import quote, quote_names

    try:
        expected = [quote(n) for n in names]
    except ValueError as e:
        with pytest.raises(ValueError, match="control characters"):
            quote_names(names)
        assert "control characters" in str(e)
        return
    assert quote_names(names) == expected


# ---------------------------------------------------------------------------- layout
def t8_model() -> rm.Model:
    # T8 (spec §11, iDynTree 15.1 run).
    m = rm.add_link(rm.Model(), "root", rm.Link(rm.SpatialInertia.from_com(2.0, (0.1, 0, 0))))
    rest = rm.Transform.from_rpy_xyz((0, 0, 0.3), (1, 0, 0))
    j1 = rm.RevoluteJoint(
        link1="root", link2="l1", link1_H_link2=rest, axis_in_link1=rm.Axis((0, 0, 1), (1, 0, 0))
    )
    m = rm.add_joint_and_link(m, "root", "j1", j1, "l1", rm.Link(rm.SpatialInertia(1.0)))
    m = rm.add_frame(m, "root", "base_frame", rm.Transform.from_rpy_xyz((0, 0, 0.5), (0, 0.2, 0)))
    m = rm.add_frame(m, "root", "other")
    return rm.add_frame(m, "l1", "tip", rm.Transform.from_translation((1e9, 1e-7, 0.001)))


def test_t8_export_layout() -> None:
    text = dumps(t8_model())
    lines = text.splitlines()
    assert lines[:8] == [
        '<?xml version="1.0"?>',
        # The model's own (empty) name: iDynTree writes iDynTreeURDFModelExportModelName.
        '<robot name="">',
        '  <link name="base_frame"/>',
        '  <joint name="base_frame_fixed_joint" type="fixed">',
        # B13 fixed: the origin is frame_H_root, the inverse of root_H_base_frame (spec T8
        # gives p = (-0.0959, -0.1755, 0), yaw -0.5 for it).
        # -0.0 is written 0 (export is a function of the value; iDynTree writes -0).
        '    <origin xyz="-0.0958851077208406 -0.17551651237807456 0" rpy="0 0 -0.5"/>',
        '    <parent link="base_frame"/>',
        '    <child link="root"/>',
        "  </joint>",
    ]
    order = [ln.strip() for ln in lines if ln.startswith("  <link") or ln.startswith("  <joint")]
    assert order == [
        '<link name="base_frame"/>',
        '<joint name="base_frame_fixed_joint" type="fixed">',
        '<link name="root">',
        '<joint name="j1" type="continuous">',
        '<link name="l1">',
        '<link name="other"/>',
        '<joint name="other_fixed_joint" type="fixed">',
        '<link name="tip"/>',
        '<joint name="tip_fixed_joint" type="fixed">',
    ]
    assert '    <origin xyz="1 0 0" rpy="0 0 0.3"/>\n    <axis xyz="0 0 1"/>' in text
    assert '<origin xyz="1e+9 1e-7 0.001" rpy="0 0 0"/>' in text
    assert '      <origin xyz="0.1 0 0" rpy="0 0 0"/>' in text
    # Reloading gives the frame back where it was (iDynTree's B13 gives yaw -0.5 instead).
    back = loads(text)
    T = back.frame_transform("base_frame")
    np.testing.assert_allclose(T.position, [0, 0.2, 0], atol=1e-15)
    np.testing.assert_allclose(T.rpy(), [0, 0, 0.5], atol=1e-15)
    assert back.default_base == "root"


def test_export_options_base_and_fake_root_and_name() -> None:
    m = t8_model()
    text = dumps(m, options=DumpOptions(export_first_base_link_frame_as_fake_urdf_base=False))
    assert text.splitlines()[2] == '  <link name="root">'
    # Another base reverses j1; its axis (z through both link origins) stays valid.
    m2 = rm.add_link(rm.Model(), "root", rm.Link(rm.SpatialInertia(1.0)))
    j1 = rm.RevoluteJoint(
        link1="root",
        link2="l1",
        link1_H_link2=rm.Transform.from_rpy_xyz((0, 0, 0.3), (0, 0, 1)),
        axis_in_link1=rm.Axis((0, 0, 1)),
        limits=rm.PositionLimits.between(-1, 2),
    )
    m2 = rm.add_joint_and_link(m2, "root", "j1", j1, "l1", rm.Link(rm.SpatialInertia(1.0)))
    m2 = rm.add_frame(m2, "l1", "tip", rm.Transform.from_translation((1, 0, 0)))
    text = dumps(m2, options=DumpOptions(base="l1", robot_name="bot"))
    assert text.splitlines()[1] == '<robot name="bot">'
    assert text.splitlines()[2] == '  <link name="tip"/>'  # l1's first frame
    back = loads(text)
    assert back.default_base == "l1"
    j = back.joint("j1")
    # Written against its direction, the joint keeps its links (robomodel's <child> attributes).
    assert j == m2.joint("j1")
    for q in (0.0, 0.7):
        np.testing.assert_allclose(
            j.transform(q, "root", "l1").as_matrix(),
            m2.joint("j1").transform(q, "root", "l1").as_matrix(),
            atol=1e-15,
        )
    named = rm.Model(**{**_fields(m), "name": "robo"})
    assert dumps(named).splitlines()[1] == '<robot name="robo">'


def _fields(m: rm.Model) -> dict[str, object]:
    import attrs

    return {
        f.name: getattr(m, f.name) for f in attrs.fields(rm.Model) if not f.name.startswith("_")
    }


def test_export_refuses_unreachable_links_and_bad_base() -> None:
    m = rm.add_link(rm.add_link(rm.Model(), "a"), "b")
    with pytest.raises(URDFExportError, match=r"links not reachable from the base 'a': 'b'"):
        dumps(m)
    m = t8_model()
    with pytest.raises(URDFExportError, match="is an additional frame"):
        dumps(m, options=DumpOptions(base="tip"))
    with pytest.raises(URDFExportError, match="did you mean 'root'"):
        dumps(m, options=DumpOptions(base="rot"))


def test_export_refuses_axis_off_the_child_origin() -> None:
    m = rm.add_link(rm.Model(), "a")
    j = rm.RevoluteJoint(link1="a", link2="b", axis_in_link1=rm.Axis((0, 0, 1), (0, 1, 0)))
    m = rm.add_joint_and_link(m, "a", "j", j, "b")
    with pytest.raises(URDFExportError, match=r"joint 'j'.*does not pass through the origin"):
        dumps(m)


def test_export_refuses_non_finite_numbers_and_bad_blobs() -> None:
    m = rm.add_link(rm.Model(), "a")
    j = rm.RevoluteJoint(
        link1="a",
        link2="b",
        axis_in_link1=rm.Axis((0, 0, 1)),
        limits=rm.PositionLimits(enabled=True),
    )
    m = rm.add_joint_and_link(m, "a", "j", j, "b")
    # Infinite bounds are written as iDynTree's 1e+9 with robomodel's exact "inf" beside them.
    assert loads(dumps(m)) == m
    ok = rm.add_link(rm.Model(), "a")
    with pytest.raises(URDFExportError, match="xml blob"):
        dumps(ok, options=DumpOptions(xml_blobs=("<gazebo>",)))
    text = dumps(ok, options=DumpOptions(xml_blobs=("<gazebo><static>1</static></gazebo>",)))
    assert "  <gazebo><static>1</static></gazebo>\n</robot>" in text


def test_limits_effort_velocity_and_dynamics_are_written() -> None:
    m = rm.add_link(rm.Model(), "a")
    z = rm.Axis((0, 0, 1))
    m = rm.add_joint_and_link(
        m,
        "a",
        "rev",
        rm.RevoluteJoint(
            link1="a",
            link2="b",
            axis_in_link1=z,
            limits=rm.PositionLimits.between(-1, 1),
            effort_limit=3,
            dynamics=rm.JointDynamics(kind="urdf", damping=0.5, static_friction=0.1),
        ),
        "b",
    )
    m = rm.add_joint_and_link(
        m,
        "b",
        "cont",
        rm.RevoluteJoint(link1="b", link2="c", axis_in_link1=z, velocity_limit=2),
        "c",
    )
    m = rm.add_joint_and_link(
        m, "c", "pri", rm.PrismaticJoint(link1="c", link2="d", axis_in_link1=z), "d"
    )
    text = dumps(m)
    rm_ns = 'xmlns:robomodel="urn:robomodel:urdf"'
    assert (
        f'<limit lower="-1" upper="1" effort="3" velocity="1e+9" {rm_ns} robomodel:velocity="inf"/>'
        in text
    )
    assert '<dynamics damping="0.5" friction="0.1"/>' in text
    assert '<joint name="cont" type="continuous">' in text
    # urdfdom rejects a <limit> lacking effort or velocity, so the unknown one is 1e+9.
    assert f'<limit effort="1e+9" velocity="2" {rm_ns} robomodel:effort="inf"/>' in text
    # iDynTree parity (PR #1232, B15): a prismatic joint always gets limits, +-1e9 when none.
    assert (
        f'<limit lower="-1e+9" upper="1e+9" effort="1e+9" velocity="1e+9" {rm_ns} '
        'robomodel:lower="-inf" robomodel:upper="inf" robomodel:effort="inf" '
        'robomodel:velocity="inf" robomodel:enabled="false"/>'
    ) in text
    back = loads(text)
    assert back == m  # robomodel reads its attributes: the infinities and disabled limits
    rev = back.joint("rev")
    assert (rev.effort_limit, rev.velocity_limit) == (3.0, math.inf)  # type: ignore[union-attr]
    assert back.joint("cont").velocity_limit == 2  # type: ignore[union-attr]


def test_unnamed_robot_reads_back_unnamed() -> None:
    m = rm.add_link(rm.Model(), "a")
    assert loads(dumps(m)).name == ""


def test_sensors_mimic_and_extensions_are_written_back() -> None:
    text = """<robot name="r">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j" type="fixed"><origin xyz="0 0 1" rpy="0 0 0.5"/><parent link="a"/>
    <child link="b"/></joint>
  <joint name="k" type="continuous"><parent link="b"/><child link="c"/>
    <mimic joint="l" multiplier="2"/><calibration rising="1"/></joint>
  <link name="d"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="l" type="continuous"><parent link="c"/><child link="d"/></joint>
  <sensor name="ft" type="force_torque"><parent joint="j"/><force_torque><frame>parent</frame>
    <measure_direction>child_to_parent</measure_direction></force_torque><always_on>1</always_on></sensor>
  <sensor name="acc" type="accelerometer"><parent link="c"/><origin xyz="0 0 0.1"/></sensor>
  <sensor name="gyr" type="gyroscope"><parent link="b"/></sensor>
  <sensor name="cam" type="camera"><parent link="c"/></sensor>
  <gazebo reference="c"><mu1>1</mu1></gazebo>
</robot>"""
    m = loads(text)
    out = dumps(m)
    assert '<mimic joint="l" multiplier="2"/>' in out
    assert '<calibration rising="1"/>' in out
    assert "<frame>parent</frame>" in out and "<always_on>1</always_on>" in out
    assert '<sensor name="cam" type="camera"><parent link="c"/></sensor>' in out
    assert '<gazebo reference="c"><mu1>1</mu1></gazebo>' in out
    back = loads(out)
    assert back == m
    assert list(back.sensors) == list(m.sensors)
    # A changed mimic is written from the data, not from the stale kept text.
    import attrs

    k = m.joint("k")
    changed = rm.Model(
        **{
            **_fields(m),
            "joints": m.joints.set(
                m.joint_index("k"),
                attrs.evolve(k, mimic=rm.Mimic(joint="l", offset=0.5)),  # type: ignore[arg-type]
            ),
        }
    )
    assert '<mimic joint="l" multiplier="1" offset="0.5"/>' in dumps(changed)


def test_inconsistent_ft_sensor_is_refused() -> None:
    m = rm.add_link(rm.Model(), "a")
    m = rm.add_joint_and_link(m, "a", "j", rm.FixedJoint(link1="a", link2="b"), "b")
    s = rm.SixAxisForceTorqueSensor(
        name="s",
        parent_joint="j",
        first_link="a",
        second_link="b",
        first_link_H_sensor=rm.Transform.from_translation((1, 0, 0)),
        second_link_H_sensor=rm.Transform(),
        applied_wrench_link="a",
    )
    with pytest.raises(URDFExportError, match=r"sensor 's'.*disagree"):
        dumps(rm.add_sensor(m, s))


def test_dump_writes_a_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    m = t8_model()
    path = tmp_path / "m.urdf"
    dump(m, path, options=DumpOptions())
    assert path.read_text() == dumps(m)
    assert load(path) == loads(dumps(m))


def test_frames_keep_their_original_joint_name_and_kept_elements() -> None:
    """A fake link's fixed joint keeps its name (not <frame>_fixed_joint) and its elements."""
    text = """<robot name="r">
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="tool"><gazebo_marker/></link>
  <link name="tip"/>
  <joint name="a_to_tool" type="fixed"><origin xyz="0 0 1"/><parent link="a"/>
    <child link="tool"/><dynamics damping="0.1"/></joint>
  <joint name="tip_fixed_joint" type="fixed"><parent link="a"/><child link="tip"/></joint>
</robot>"""
    m = loads(text)
    assert m.frame_names == ["tool", "tip"]
    out = dumps(m, options=DumpOptions(export_first_base_link_frame_as_fake_urdf_base=False))
    assert '<joint name="a_to_tool" type="fixed">' in out
    assert '<link name="tool">\n    <gazebo_marker/>\n  </link>' in out
    assert '<dynamics damping="0.1"/>' in out
    assert '<joint name="tip_fixed_joint" type="fixed">' in out
    assert loads(out) == m


def test_dump_writes_through_a_temporary_file(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A write that fails half-way leaves the existing file byte-identical."""
    from robomodel.formats.urdf import dump

    target = tmp_path / "a.urdf"
    target.write_text("original")
    real_fsync = __import__("os").fsync

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full_disk)
    with pytest.raises(OSError):
        dump(rm.add_link(rm.Model(), "a"), target)
    monkeypatch.setattr("os.fsync", real_fsync)
    assert target.read_text() == "original"
    assert [p.name for p in tmp_path.iterdir()] == ["a.urdf"]


def test_export_problems_lists_what_dumps_refuses() -> None:
    """export_problems is empty exactly when dumps succeeds, and names dumps' reason otherwise."""
    from robomodel.formats.urdf import export_problems

    good = rm.add_link(rm.Model(), "base")
    assert export_problems(good) == ()
    dumps(good)
    for bad in (rm.Model(), rm.add_frame(good, "base", "tool")):
        options = DumpOptions(base="tool") if bad.frames else None
        kwargs = {} if options is None else {"options": options}
        problems = export_problems(bad, **kwargs)
        assert len(problems) == 1
        with pytest.raises(URDFExportError) as e:
            dumps(bad, **kwargs)
        assert problems == (str(e.value),)
