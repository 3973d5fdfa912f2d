"""Mutation test of the JSON reader: broken documents are JSONFormatErrors, nothing else.

Valid documents (``to_dict`` of Hypothesis models, decorated models and the bundled example) are
mutated by category: value types, non-finite and huge numbers, deep nesting, non-unit axes,
non-rotations, dropped, duplicated and unknown keys, bad mimic graphs and broken text. Every
mutant either loads to a model that passes ``check_model`` (but for its inertia check: JSON
carries whatever inertia a model holds, so a URDF link no rigid body has, loaded with a warning,
survives a JSON copy) and round-trips exactly, or raises
``JSONFormatError`` with a JSON path; mutations that can only be wrong must raise, and the ones
within the documented tolerances must load. Run with ``-s`` to see the counts per category.
"""

from __future__ import annotations

import collections
import json
import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import SLOW, decorated_models, models

import robomodel as rm
import robomodel.formats.urdf
from robomodel.data import example_path
from robomodel.formats import JSONFormatError, to_dict
from robomodel.formats import json as rm_json

COUNTS: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
"""Per category: mutants tried, JSONFormatErrors, models (printed at the end of the module)."""

_EXAMPLE = to_dict(robomodel.formats.urdf.load(example_path()))

_documents = st.one_of(
    models(max_links=5).map(to_dict),
    decorated_models(max_links=5).map(to_dict),
    st.just(_EXAMPLE),
)

ERROR, MODEL, EITHER = "error", "model", "either"
_TOKEN = "@@mutant@@"  # a string value replaced in the text by what json.dumps cannot write


def _copy(doc: dict[str, Any]) -> Any:
    return json.loads(json.dumps(doc))


def _nodes(v: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) below the root; a path is the keys and indices leading there."""
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
    for k, x in items:
        yield (*path, k), x
        yield from _nodes(x, (*path, k))


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _text(doc: Any, replacement: str | None = None) -> str:
    text = json.dumps(doc)  # allow_nan: NaN and Infinity literals are part of the mutation
    return text if replacement is None else text.replace(json.dumps(_TOKEN), replacement, 1)


def _rotations(doc: Any) -> list[tuple[Any, ...]]:
    return [p for p, _ in _nodes(doc) if p[-1] == "rotation"]


def _moving(doc: Any) -> list[int]:
    return [k for k, j in enumerate(doc["joints"]) if j["type"] != "fixed"]


# --------------------------------------------------------------------------- mutations


def _types(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    path, _ = draw(st.sampled_from(list(_nodes(doc))))
    new = draw(st.sampled_from([None, True, 0, 1.5, "x", "inf", [], {}, [1.0, 2.0, 3.0], {"a": 1}]))
    _set(doc, path, new)
    # Some replacements are still valid (0 for a float, null for an optional name).
    return _text(doc), EITHER


def _numbers(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    leaves = [p for p, x in _nodes(doc) if isinstance(x, (int, float)) and not isinstance(x, bool)]
    if not leaves:
        return _text(doc), MODEL
    path = draw(st.sampled_from(leaves))
    new = draw(
        st.sampled_from(
            [math.nan, math.inf, -math.inf, "1" + "0" * 400, "1e400", 1e308, -0.0, 5e-324]
        )
    )
    if isinstance(new, str):  # numbers json.dumps cannot write: spliced into the text
        _set(doc, path, _TOKEN)
        return _text(doc, new), ERROR
    _set(doc, path, new)
    return _text(doc), ERROR if not math.isfinite(new) else EITHER


def _nesting(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    path, _ = draw(st.sampled_from(list(_nodes(doc))))
    depth = draw(st.sampled_from([3, 50, 1000, 100_000]))
    _set(doc, path, _TOKEN)
    # Three levels of lists fit nowhere in the schema (visuals are two levels deep).
    return _text(doc, "[" * depth + "]" * depth), ERROR


def _axes(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    moving = _moving(doc)
    if not moving:
        return _text(doc), MODEL
    k = draw(st.sampled_from(moving))
    d = np.array(doc["joints"][k]["axis"]["direction"])
    scale, expect = draw(
        st.sampled_from(
            [
                (1 + 1e-13, MODEL),
                (1 - 1e-10, MODEL),
                (1 + 1e-6, ERROR),
                (2.0, ERROR),
                (0.0, ERROR),
                (1e300, ERROR),
                (-1.0, MODEL),
            ]
        )
    )
    doc["joints"][k]["axis"]["direction"] = (d * scale).tolist()
    return _text(doc), expect


_REFLECTION = np.diag([1.0, 1.0, -1.0])
_ODD_PERMUTATION = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])


def _rotation_mutants(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    rotations = _rotations(doc)
    if not rotations:
        return _text(doc), MODEL
    path = draw(st.sampled_from(rotations))
    R = np.array(_get(doc, path))
    noise = np.array(draw(st.lists(st.floats(-1, 1), min_size=9, max_size=9))).reshape(3, 3)
    new, expect = draw(
        st.sampled_from(
            [
                (2 * np.eye(3), ERROR),
                (R @ _REFLECTION, ERROR),
                (-R, ERROR),
                (_ODD_PERMUTATION, ERROR),
                (np.zeros((3, 3)), ERROR),
                (R + 1e-6 * noise, ERROR if np.abs(noise).max() > 0.01 else EITHER),
                (R + 1e-14 * noise, MODEL),
                (R + 1e-11 * noise, MODEL),
                (R.T, MODEL),
            ]
        )
    )
    _set(doc, path, new.tolist())
    return _text(doc), expect


def _keys(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    objects = [(p, x) for p, x in _nodes(doc) if isinstance(x, dict) and x] + [((), doc)]
    path, obj = draw(st.sampled_from(objects))
    key = draw(st.sampled_from(sorted(obj)))
    how = draw(st.sampled_from(["drop", "duplicate", "unknown"]))
    target = _get(doc, path) if path else doc
    if how == "drop":
        del target[key]
        # Only the shapes' and materials' "extensions" lists are optional.
        return _text(doc), EITHER if key == "extensions" else ERROR
    if how == "unknown":
        target[key + "_"] = target[key]
        return _text(doc), ERROR
    target[_TOKEN] = target[key]
    return _text(doc, json.dumps(key)), ERROR


def _mimics(draw: st.DrawFn, doc: Any) -> tuple[str, str]:
    moving = _moving(doc)
    if not moving:
        return _text(doc), MODEL
    joints = doc["joints"]
    k = draw(st.sampled_from(moving))
    fixed = [j["name"] for j in joints if j["type"] == "fixed"]
    others = [joints[i]["name"] for i in moving if i != k]
    choices: list[tuple[str, str]] = [("no_such_joint", ERROR), (joints[k]["name"], ERROR)]
    choices += [(n, ERROR) for n in fixed[:1]] + [(n, EITHER) for n in others[:2]]
    leader, expect = draw(st.sampled_from(choices))
    multiplier = draw(st.sampled_from([1.0, -2.5, math.nan]))
    joints[k]["mimic"] = {"joint": leader, "multiplier": multiplier, "offset": 0.0}
    if math.isnan(multiplier):
        expect = ERROR
    elif expect == EITHER and draw(st.booleans()):
        # Close the loop: the leader mimics the follower (possibly through a third joint).
        back = next(i for i in moving if joints[i]["name"] == leader)
        joints[back]["mimic"] = {"joint": joints[k]["name"], "multiplier": 1.0, "offset": 0.0}
        expect = ERROR
    return _text(doc), expect


def _bytes(draw: st.DrawFn, doc: Any) -> tuple[str | bytes, str]:
    raw = _text(doc).encode()
    at = draw(st.integers(0, len(raw) - 1))
    how = draw(st.sampled_from(["truncate", "invalid utf-8"]))
    if how == "truncate":
        return raw[:at], ERROR
    return raw[:at] + b"\xff" + raw[at:], ERROR


_MUTATIONS = {
    "types": _types,
    "numbers": _numbers,
    "nesting": _nesting,
    "axes": _axes,
    "rotations": _rotation_mutants,
    "keys": _keys,
    "mimic": _mimics,
    "text": _bytes,
}


@st.composite
def mutants(draw: st.DrawFn) -> tuple[str, str | bytes, str]:
    """A (category, JSON text, expected outcome) triple."""
    category = draw(st.sampled_from(sorted(_MUTATIONS)))
    text, expect = _MUTATIONS[category](draw, _copy(draw(_documents)))
    return category, text, expect


def _check(category: str, text: str | bytes, expect: str) -> None:
    COUNTS[category]["tried"] += 1
    try:
        m = rm_json.loads(text)
    except JSONFormatError as err:
        COUNTS[category]["JSONFormatError"] += 1
        assert err.path.startswith("$"), err
        assert expect != MODEL, f"refused a mutant within tolerance: {err}"
        return
    COUNTS[category]["model"] += 1
    assert expect != ERROR, f"{category}: accepted {str(text)[:300]!r}"
    problems = [str(f) for f in m.problems() if f.check != "inertia"]
    assert not problems, problems
    assert rm_json.loads(rm_json.dumps(m)) == m
    for j in m.joints:  # whatever was accepted is exactly a rotation and a unit axis
        R = j.link1_H_link2.rotation
        assert np.abs(R.T @ R - np.eye(3)).max() <= 1e-12 and np.linalg.det(R) > 0
        if not isinstance(j, rm.FixedJoint):
            assert abs(np.linalg.norm(j.axis_in_link1.direction) - 1.0) <= 1e-12


_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _scaled_axis(scale: float, expect: str) -> tuple[str, str, str]:
    # The bundled example's first moving axis scaled: a fixed mutant of each outcome, so that
    # the coverage check below does not depend on what the random draws reach.
    doc = _copy(_EXAMPLE)
    axis = doc["joints"][_moving(doc)[0]]["axis"]
    axis["direction"] = [scale * x for x in axis["direction"]]
    return "axes", _text(doc), expect


@_SETTINGS
@given(mutants())
@example(_scaled_axis(2.0, ERROR))
@example(_scaled_axis(1 + 1e-13, MODEL))
def test_every_mutant_loads_exactly_or_is_a_json_format_error(
    mutant: tuple[str, str | bytes, str],
) -> None:
    _check(*mutant)


@pytest.mark.slow
@SLOW
@given(mutants())
def test_mutants_slow(mutant: tuple[str, str | bytes, str]) -> None:
    """The same property, with many more examples."""
    _check(*mutant)


def test_every_category_produced_both_outcomes_or_only_errors() -> None:
    """The mutation test above reached every category (runs after it, in file order)."""
    if not COUNTS:
        pytest.skip("run together with the mutation test")
    print("\nJSON mutants per category (tried, JSONFormatError, model):")
    for category in sorted(_MUTATIONS):
        c = COUNTS[category]
        print(f"  {category:10s} {c['tried']:5d} {c['JSONFormatError']:5d} {c['model']:5d}")
        assert c["tried"] > 0 and c["JSONFormatError"] > 0, category
