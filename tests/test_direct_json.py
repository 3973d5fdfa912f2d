"""Direct tests of the JSON reader against the rules of ``docs/json-schema.md``.

The reader has two paths: a column-wise one for documents of ``to_json``'s uniform form (floats
everywhere) and an element-by-element one for anything else (integers written as ``1``, say).
Every rule is checked on both: the same document once with float numbers and once with the
numbers that are whole written as JSON integers. The oracle is the schema page: "version:
Readers refuse newer versions"; "rotational_inertia ... (symmetric)"; masses ``>= 0``; missing,
unknown and repeated keys are errors; the error's ``path`` names the offending value.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import robomodel as rm
from robomodel.formats.json import SCHEMA_VERSION, JSONFormatError
from robomodel.formats.json import dumps as to_json
from robomodel.formats.json import loads as from_json


def _document() -> dict[str, Any]:
    inertia = rm.SpatialInertia.from_com(2.0, (0.1, 0.0, 0.0), np.diag([0.1, 0.2, 0.25]))
    m = rm.add_link(rm.Model(name="r"), "a", rm.Link(inertia))
    m = rm.add_joint_and_link(
        m, "a", "j", rm.RevoluteJoint(link1="a", link2="b"), "b", rm.Link(inertia)
    )
    return json.loads(to_json(m))


def _as_integers(x: Any) -> Any:
    """Whole floats written as JSON integers (what a hand-written document does)."""
    if isinstance(x, float) and x.is_integer():
        return int(x)
    if isinstance(x, list):
        return [_as_integers(v) for v in x]
    if isinstance(x, dict):
        return {k: _as_integers(v) for k, v in x.items()}
    return x


SPELLINGS = [lambda d: d, _as_integers]
SPELLING_IDS = ["floats", "integers"]


def test_both_spellings_read_the_same_model() -> None:
    d = _document()
    assert from_json(json.dumps(_as_integers(d))) == from_json(json.dumps(d))


@pytest.mark.parametrize("spell", SPELLINGS, ids=SPELLING_IDS)
@pytest.mark.parametrize(("i", "j"), [(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)])
def test_an_asymmetric_inertia_is_refused(spell, i: int, j: int) -> None:
    d = _document()
    d["links"][1]["rotational_inertia"][i][j] = 0.5  # its mirror (j, i) stays as it was
    with pytest.raises(JSONFormatError, match="not symmetric") as err:
        from_json(json.dumps(spell(d)))
    assert err.value.path == "$.links[1].rotational_inertia"


@given(st.floats(-1.0, 1.0).filter(lambda x: x != 0.0), st.integers(0, 2), st.integers(0, 2))
def test_any_change_of_one_off_diagonal_entry_is_refused(delta: float, i: int, j: int) -> None:
    """Property: the symmetry check is exact (the round trip stores the inertia as written)."""
    if i == j:
        return
    d = _document()
    row = d["links"][0]["rotational_inertia"][i]
    row[j] = row[j] + delta
    if row[j] == d["links"][0]["rotational_inertia"][j][i]:
        return  # the change was lost to rounding
    with pytest.raises(JSONFormatError, match="not symmetric"):
        from_json(json.dumps(d))


@pytest.mark.parametrize("spell", SPELLINGS, ids=SPELLING_IDS)
@pytest.mark.parametrize("version", [0, -1, SCHEMA_VERSION + 1, True, 1.0, "1", None], ids=repr)
def test_versions_outside_1_to_the_readers_are_refused(spell, version) -> None:
    d = spell(_document())
    d["version"] = version
    with pytest.raises(JSONFormatError) as err:
        from_json(json.dumps(d))
    assert err.value.path == "$.version"


def test_every_version_up_to_the_readers_is_read() -> None:
    for version in range(1, SCHEMA_VERSION + 1):
        d = _document()
        d["version"] = version
        assert from_json(json.dumps(d)).link_names == ["a", "b"]


def test_a_missing_version_is_refused() -> None:
    d = _document()
    del d["version"]
    with pytest.raises(JSONFormatError):
        from_json(json.dumps(d))


@pytest.mark.parametrize("spell", SPELLINGS, ids=SPELLING_IDS)
def test_negative_mass_unknown_missing_and_repeated_keys(spell) -> None:
    d = _document()
    d["links"][1]["mass"] = -1.0
    with pytest.raises(JSONFormatError) as err:
        from_json(json.dumps(spell(d)))
    assert err.value.path.startswith("$.links[1]")
    d = _document()
    d["links"][0]["colour"] = "red"
    with pytest.raises(JSONFormatError, match="colour"):
        from_json(json.dumps(spell(d)))
    d = _document()
    del d["links"][0]["first_moment"]
    with pytest.raises(JSONFormatError, match="first_moment"):
        from_json(json.dumps(spell(d)))
    text = json.dumps(spell(_document()))
    repeated = text.replace('"mass": ', '"mass": 1.0, "mass": ', 1)
    assert repeated != text
    with pytest.raises(JSONFormatError):
        from_json(repeated)


@pytest.mark.parametrize("spell", SPELLINGS, ids=SPELLING_IDS)
def test_mimic_cycles_and_non_moving_leaders_are_refused(spell) -> None:
    """Mimic: the leader is another moving joint of the document, and there is no cycle."""
    d = _document()
    d["joints"][0]["mimic"] = {"joint": "j", "multiplier": 1.0, "offset": 0.0}
    with pytest.raises(JSONFormatError):
        from_json(json.dumps(spell(d)))
    d = copy.deepcopy(_document())
    d["joints"][0]["mimic"] = {"joint": "nope", "multiplier": 1.0, "offset": 0.0}
    with pytest.raises(JSONFormatError):
        from_json(json.dumps(spell(d)))


@pytest.mark.parametrize(
    ("stretch", "outcome"),
    [(0.4e-12, "kept"), (0.4e-10, "nearest"), (0.45e-9, "nearest"), (0.55e-9, "refused")],
)
def test_rotation_tolerances_of_the_schema(stretch: float, outcome: str) -> None:
    """R = diag(1, 1, 1 + s): max |R^T R - I| = 2 s + s^2. Within 1e-12 the bits are kept,
    up to 1e-9 (ROTATION_TOLERANCE) the nearest rotation (the identity) replaces it, beyond
    it the document is refused."""
    d = _document()
    d["joints"][0]["link1_H_link2"]["rotation"] = [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0, 0, 1 + stretch],
    ]
    text = json.dumps(d)
    if outcome == "refused":
        with pytest.raises(JSONFormatError) as err:
            from_json(text)
        assert err.value.path == "$.joints[0].link1_H_link2.rotation"
        return
    R = from_json(text).joint("j").link1_H_link2.rotation
    expected = np.diag([1.0, 1.0, 1 + stretch]) if outcome == "kept" else np.eye(3)
    if outcome == "kept":
        np.testing.assert_array_equal(R, expected)
    else:
        np.testing.assert_allclose(R, expected, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("stretch", "outcome"),
    [(0.9e-12, "kept"), (0.5e-9, "normalised"), (0.9e-9, "normalised"), (1.1e-9, "refused")],
)
def test_axis_tolerances_of_the_schema(stretch: float, outcome: str) -> None:
    """A direction (0, 0, 1 + s): | |d| - 1 | = s, against 1e-12 (kept) and AXIS_TOLERANCE 1e-9."""
    d = _document()
    d["joints"][0]["axis"]["direction"] = [0.0, 0.0, 1.0 + stretch]
    text = json.dumps(d)
    if outcome == "refused":
        with pytest.raises(JSONFormatError) as err:
            from_json(text)
        assert err.value.path.startswith("$.joints[0].axis")
        return
    direction = from_json(text).joint("j").axis_in_link1.direction
    assert direction[2] == (1.0 + stretch if outcome == "kept" else 1.0)
