from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from strategies import SLOW, decorated_models

import robomodel as rm
import robomodel.formats
from robomodel.formats import SCHEMA_VERSION, JSONFormatError, to_dict
from robomodel.formats import json as rm_json
from robomodel.physics.kinematics import forward_kinematics


@settings(max_examples=30)
@given(decorated_models())
def test_json_round_trip_is_exact(m: rm.Model) -> None:
    """loads(dumps(m)) == m, bit for bit (floats, infinities, shapes, sensors, XML)."""
    text = rm_json.dumps(m)
    back = rm_json.loads(text)
    assert back == m
    assert rm_json.dumps(back) == text
    # Bit-exact arrays, not just ==: -0.0 and 0.0 compare equal, so compare bytes.
    for a, b in zip(m.joints, back.joints, strict=True):
        assert a.link1_H_link2.rotation.tobytes() == b.link1_H_link2.rotation.tobytes()
    assert back.inertial_parameters().tobytes() == m.inertial_parameters().tobytes()
    json.loads(text, parse_constant=_no_constants)  # strict JSON: no NaN/Infinity literals


@pytest.mark.slow
@SLOW
@given(decorated_models())
def test_json_round_trip_slow(m: rm.Model) -> None:
    """The exact round trip, with many more examples."""
    assert rm_json.loads(rm_json.dumps(m, indent=2)) == m


def _no_constants(name: str) -> None:
    raise AssertionError(f"non-standard JSON constant {name}")


@settings(max_examples=30)
@given(decorated_models())
def test_pickle_round_trip_is_exact_and_usable(m: rm.Model) -> None:
    """pickle.loads(pickle.dumps(m)) == m, and the copy answers queries like the original."""
    back = pickle.loads(pickle.dumps(m))
    assert back == m and hash(back) == hash(m)
    assert back.traversal() == m.traversal()
    q = np.linspace(-1, 1, m.n_pos_coords)
    assert np.array_equal(
        forward_kinematics(back, q).base_H_link, forward_kinematics(m, q).base_H_link
    )


def test_schema_fixed_example() -> None:
    # Hand-written expectation of the schema in docs/json-schema.md.
    m = rm.add_link(rm.Model(name="r"), "a", rm.Link(rm.SpatialInertia.from_com(2.0, (0, 0, 0.5))))
    j = rm.RevoluteJoint(link1="a", link2="b", axis_in_link1=rm.Axis((0, 0, 1)))
    m = rm.add_joint_and_link(m, "a", "j", j, "b")
    d = to_dict(m)
    assert d["format"] == "robomodel" and d["version"] == SCHEMA_VERSION == 1
    assert d["links"][0] == {
        "name": "a",
        "mass": 2.0,
        "first_moment": [0.0, 0.0, 1.0],
        "rotational_inertia": [[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 0.0]],
    }
    jd = d["joints"][0]
    assert jd["type"] == "revolute" and jd["axis"] == {
        "direction": [0.0, 0.0, 1.0],
        "origin": [0.0, 0.0, 0.0],
    }
    assert jd["limits"] == {"enabled": False, "lower": "-inf", "upper": "inf"}
    assert jd["effort_limit"] == "inf" and jd["mimic"] is None
    assert "pos_coord_offset" not in jd  # derived, recomputed on load
    assert d["default_base"] == "a" and d["visuals"] == [[], []]


def test_floats_are_written_with_repr() -> None:
    x = 0.1 + 0.2  # 0.30000000000000004: needs all 17 digits
    m = rm.add_link(rm.Model(), "a", rm.Link(rm.SpatialInertia(x, (0, 0, 0), np.zeros((3, 3)))))
    assert '"mass": 0.30000000000000004' in rm_json.dumps(m)
    assert rm_json.loads(rm_json.dumps(m)).link("a").mass == x
    # -0.0 is stored as 0.0 (values are canonical): nothing writes or reads back a "-0.0".
    f = rm.add_frame(m, "a", "f", rm.Transform.from_translation((-0.0, 0, 0)))
    assert "-0.0" not in rm_json.dumps(f)
    assert (
        math.copysign(1.0, rm_json.loads(rm_json.dumps(f)).frames[0].link_H_frame.position[0])
        == 1.0
    )


def test_errors_name_the_place() -> None:
    m = rm.add_link(rm.Model(), "a")
    good = to_dict(m)
    with pytest.raises(JSONFormatError, match="not valid JSON"):
        rm_json.loads("{")
    with pytest.raises(JSONFormatError, match="not a robomodel model"):
        rm_json.loads(json.dumps({**good, "format": "other"}))
    with pytest.raises(JSONFormatError, match="newer than this robomodel"):
        rm_json.loads(json.dumps({**good, "version": SCHEMA_VERSION + 1}))
    missing = r"at \$\.links\[0\]: missing key 'rotational_inertia'"
    with pytest.raises(JSONFormatError, match=missing):
        rm_json.loads(json.dumps({**good, "links": [{"name": "a"}]}))
    bad_joint = {
        "name": "j",
        "type": "ball",
        "link1": "a",
        "link2": "b",
        "link1_H_link2": {"rotation": np.eye(3).tolist(), "position": [0, 0, 0]},
    }
    with pytest.raises(JSONFormatError, match=r"joints\[0\].*unknown joint type 'ball'"):
        rm_json.loads(json.dumps({**good, "joints": [bad_joint]}))
    with pytest.raises(JSONFormatError, match=r"not valid: .*'b'"):
        rm_json.loads(json.dumps({**good, "joints": [{**bad_joint, "type": "fixed"}]}))
    short = r"links\[0\].first_moment: expected a list of 3 numbers"
    with pytest.raises(JSONFormatError, match=short):
        rm_json.loads(json.dumps({**good, "links": [{**good["links"][0], "first_moment": [1, 2]}]}))
    assert issubclass(JSONFormatError, rm.ModelError)


def test_malformed_documents_raise_json_format_errors() -> None:
    """What the JSON parser or numpy would raise on their own (RecursionError,
    UnicodeDecodeError, OverflowError) and NaN literals are JSONFormatErrors with a path."""
    m = rm.add_link(rm.Model(), "a")
    good = to_dict(m)
    with pytest.raises(JSONFormatError, match="nested too deeply"):
        rm_json.loads("[" * 100_000)
    with pytest.raises(JSONFormatError, match="not valid JSON"):
        rm_json.loads(b'{"name": "\xff"}')
    link = good["links"][0]
    huge = "1" + "0" * 400
    text = json.dumps({**good, "links": [{**link, "mass": 0}]}).replace(
        '"mass": 0', f'"mass": {huge}'
    )
    with pytest.raises(JSONFormatError, match=r"links\[0\].mass: expected a number within"):
        rm_json.loads(text)
    text = json.dumps({**good, "links": [{**link, "first_moment": [0, 0, 0]}]})
    with pytest.raises(JSONFormatError, match=r"first_moment\[2\]: expected a number within"):
        rm_json.loads(text.replace('"first_moment": [0, 0, 0]', f'"first_moment": [0, 0, {huge}]'))
    with pytest.raises(JSONFormatError, match=r"links\[0\].mass: expected a finite number"):
        rm_json.loads(json.dumps({**good, "links": [{**link, "mass": math.nan}]}))


def _arm() -> rm.Model:
    m = rm.add_link(rm.Model(name="r"), "a", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0.1))))
    for k in (1, 2):
        j = rm.RevoluteJoint(link1="a", link2=f"b{k}", axis_in_link1=rm.Axis((0, 0, 1)))
        m = rm.add_joint_and_link(m, "a", f"j{k}", j, f"b{k}")
    return rm.add_joint_and_link(m, "a", "fix", rm.FixedJoint(link1="a", link2="c"), "c")


def test_rotations_within_tolerance_are_kept_or_reorthonormalised_and_others_refused() -> None:
    good = to_dict(_arm())
    R = np.eye(3)
    for delta, kept in ((1e-14, True), (1e-10, False)):
        d = json.loads(json.dumps(good))
        d["joints"][0]["link1_H_link2"]["rotation"] = (R + delta * np.triu(np.ones(3))).tolist()
        got = rm.formats.from_dict(d).joints[0].link1_H_link2.rotation
        assert np.abs(got.T @ got - np.eye(3)).max() < 1e-15 or kept
        assert np.array_equal(got, R + delta * np.triu(np.ones(3))) == kept
    for bad, why in ((2 * R, "not orthonormal"), (np.diag([1.0, 1, -1]), "reflection")):
        d = json.loads(json.dumps(good))
        d["joints"][1]["link1_H_link2"]["rotation"] = bad.tolist()
        with pytest.raises(
            JSONFormatError, match=rf"\$\.joints\[1\]\.link1_H_link2\.rotation.*{why}"
        ):
            rm.formats.from_dict(d)


def test_axes_are_unit_vectors_within_tolerance() -> None:
    good = to_dict(_arm())
    d = json.loads(json.dumps(good))
    d["joints"][0]["axis"]["direction"] = [0.0, 0.0, 1 + 1e-10]
    assert rm.formats.from_dict(d).joints[0].axis_in_link1.direction.tolist() == [0.0, 0.0, 1.0]
    d["joints"][0]["axis"]["direction"] = [0.0, 0.0, 2.0]
    with pytest.raises(JSONFormatError, match=r"\$\.joints\[0\]\.axis\.direction: expected a unit"):
        rm.formats.from_dict(d)


@pytest.mark.parametrize(
    ("mimics", "match"),
    [
        ({0: "nope"}, r"joints\[0\]\.mimic\.joint: the model has no joint named 'nope'"),
        ({0: "j1"}, r"joints\[0\]\.mimic\.joint: joint 'j1' cannot mimic itself"),
        ({0: "fix"}, r"joints\[0\]\.mimic\.joint: joint 'fix' is fixed"),
        ({0: "j2", 1: "j1"}, r"mimic joints form a cycle: 'j1' -> 'j2' -> 'j1'"),
    ],
)
def test_bad_mimic_graphs_are_refused(mimics: dict[int, str], match: str) -> None:
    d = to_dict(_arm())
    for k, leader in mimics.items():
        d["joints"][k]["mimic"] = {"joint": leader, "multiplier": 1.0, "offset": 0.0}
    with pytest.raises(JSONFormatError, match=match):
        rm.formats.from_dict(d)
    d["joints"][1]["mimic"] = None
    if mimics == {0: "j2", 1: "j1"}:  # without the back edge it is a valid mimic
        assert rm.formats.from_dict(d).joints[0].mimic == rm.Mimic(joint="j2")


def test_types_keys_and_signs_are_checked_with_paths() -> None:
    good = to_dict(_arm())
    text = json.dumps(good)
    cases = [
        (text.replace('"name": "r"', '"name": "r", "name": "s"'), r"at \$: the key 'name' appears"),
        (json.dumps({**good, "nmae": 1}), r"at \$\.nmae: unknown key 'nmae'"),
        (text.replace('"mass": 1.0', '"mass": "1.0"'), r"links\[0\]\.mass: expected a number"),
        (text.replace('"mass": 1.0', '"mass": -1.0'), r"links\[0\]\.mass: expected a number >= 0"),
        (text.replace('"damping": 0.0', '"damping": NaN', 1), r"dynamics\.damping: expected a fin"),
        (text.replace('"lower": "-inf"', '"lower": NaN', 1), r"limits\.lower: expected a finite"),
        (
            text.replace('"position": [0.0', '"position": [true', 1),
            r"position\[0\]: expected a num",
        ),
        (text.replace('"effort_limit": "inf"', '"effort_limit": -1', 1), r"effort_limit: .* >= 0"),
    ]
    for bad, match in cases:
        with pytest.raises(JSONFormatError, match=match):
            rm_json.loads(bad)
    with pytest.raises(rm.errors.ArgumentError, match="from_dict"):
        rm_json.loads(good)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- documents
def _chain_document(n: int) -> dict[str, object]:
    m = rm.add_link(rm.Model(name="c"), "l0", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0.1))))
    for i in range(1, n):
        joint = rm.RevoluteJoint(
            link1="x",
            link2="y",
            link1_H_link2=rm.Transform.from_rpy_xyz((0.1 * i, 0.2, 0.3), (0, 0, 0.1)),
            axis_in_link1=rm.Axis((0.0, 0.6, 0.8)),
            limits=rm.PositionLimits.between(-1.0, 1.0),
        )
        m = rm.add_joint_and_link(m, f"l{i - 1}", f"j{i}", joint, f"l{i}")
    return to_dict(m)


def test_a_repeated_key_is_refused() -> None:
    text = json.dumps(_chain_document(3))
    bad = text.replace('"mass": ', '"mass": 1.0, "mass": ', 1)
    with pytest.raises(JSONFormatError, match="appears twice") as info:
        rm_json.loads(bad)
    assert info.value.path == "$.links[0]"


@settings(max_examples=40)
@given(decorated_models())
def test_to_json_writes_what_json_dumps_writes(m: rm.Model) -> None:
    # json.dumps of to_dict is the oracle.
    expected = json.dumps(to_dict(m), allow_nan=False, ensure_ascii=False)
    assert rm_json.dumps(m) == expected
    assert rm_json.dumps(m, indent=2) == json.dumps(
        to_dict(m), indent=2, allow_nan=False, ensure_ascii=False
    )


def test_to_json_on_names_to_escape_and_infinite_limits() -> None:
    m = rm.add_link(rm.Model(name='r"\\\u00e9\n'), 'a"\\\u00e9\u2603')
    joint = rm.RevoluteJoint(
        link1="x", link2="y", limits=rm.PositionLimits(enabled=False), effort_limit=math.inf
    )
    m = rm.add_joint_and_link(m, 'a"\\\u00e9\u2603', "j\u2603", joint, "b")
    m = rm.add_joint_and_link(m, "b", "f", rm.FixedJoint(link1="x", link2="y"), "c")
    assert rm_json.dumps(m) == json.dumps(to_dict(m), allow_nan=False, ensure_ascii=False)
    assert rm_json.loads(rm_json.dumps(m)) == m


def test_to_json_on_icub() -> None:
    from idyntree_oracle import load_icub

    m = load_icub("iCubGazeboV2_7")
    assert rm_json.dumps(m) == json.dumps(to_dict(m), allow_nan=False, ensure_ascii=False)


def test_damping_beside_no_dynamics_is_refused_where_it_is() -> None:
    """A hand-edited document giving damping to a joint of dynamics kind "none" (which no
    export could write) is a JSONFormatError at that joint's dynamics, on the bulk path (many
    uniform joints) as on the element path."""
    m = rm.add_link(rm.Model(), "l0")
    for k in range(40):
        j = rm.RevoluteJoint(link1=f"l{k}", link2=f"l{k + 1}")
        m = rm.add_joint_and_link(m, f"l{k}", f"j{k}", j, f"l{k + 1}")
    d = rm.formats.to_dict(m)
    d["joints"][17]["dynamics"]["static_friction"] = 0.25
    with pytest.raises(rm.formats.JSONFormatError, match=r"joints\[17\]\.dynamics.*kind='urdf'"):
        rm.formats.from_dict(d)
    d["joints"][17]["dynamics"]["kind"] = "urdf"
    assert rm.formats.from_dict(d).joint("j17").dynamics.static_friction == 0.25
