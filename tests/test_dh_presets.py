"""iCub DH presets, iKin version parsing and iKin's text format."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from strategies import dh_chains

from robomodel.errors import ModelError, UnknownNameError
from robomodel.formats.dh import (
    ICUB_PRESETS,
    DHChain,
    IKinVersion,
    dumps,
    icub_arm,
    icub_chain,
    icub_leg,
    icub_preset,
    icub_torso,
    loads,
    parse_limb_type,
)


# ---------------------------------------------------------------------- versions
def test_versions_compare_as_integer_pairs() -> None:
    # ikin-dh.md §3.2: "2.10 > 2.7, and 2.10 != 2.1" (old releases used strtod, 2.10 == 2.1).
    v = IKinVersion.parse
    assert v("2.10") > v("2.7")
    assert v("2.10") != v("2.1")
    assert v("2") == v("2.0") == IKinVersion(2, 0)
    assert v("v1.7") == IKinVersion(1, 7)
    assert str(v("2.10")) == "2.10"


@pytest.mark.parametrize("text", ["", "two", "2.", "2.x", "-1", "2.5.1"])
def test_bad_version_text_is_an_error(text: str) -> None:
    with pytest.raises(ModelError, match="is not an iCub version"):
        IKinVersion.parse(text)


def test_limb_type_parsing() -> None:
    assert parse_limb_type("left_v2.10") == ("left", IKinVersion(2, 10))
    assert parse_limb_type("right") == ("right", IKinVersion(1, 0))
    with pytest.raises(ModelError, match="side must be 'left' or 'right'"):
        parse_limb_type("centre_v2")  # iKin silently builds the left limb here
    with pytest.raises(ModelError, match=r"_v<major>\.<minor>"):
        parse_limb_type("right_2.5")


# ---------------------------------------------------------------------- tables
def test_right_leg_v2_is_not_the_left_leg() -> None:
    # ikin-dh.md §3.4 regression trap: old iKin matched exact strings, so "right_v2" fell through
    # to the final else and became left_v2.5. Here it is the right v2.x table.
    chain = icub_chain("leg", "right_v2")
    assert chain.H0.position[1] == 0.0681
    assert chain.links[2].d == 0.234545
    assert chain.links[0].alpha == math.pi / 2


def test_version_thresholds_pick_the_right_rows() -> None:
    # ikin-dh.md §3.4: D7 = -0.1373 below 1.7 (else -0.1413); D9 = 0.016 below 2.0 (else 0.02598).
    assert icub_arm("right", "1.6").links[7].d == -0.1373
    assert icub_arm("right", "1.7").links[7].d == -0.1413
    assert icub_arm("right", "1.9").links[9].d == 0.016
    assert icub_arm("right", "2.0").links[9].d == 0.02598
    assert icub_arm("left", "1.0").links[7].d == 0.1373
    assert icub_arm("left", "2.10").links[9].d == -0.02598
    # Legs: v1 below 2.0, the former "v2.5" table for 2.x.
    assert icub_leg("right", "1.9").links[3].a == -0.213
    assert icub_leg("right", "2.0").links[3].a == -0.2005
    assert icub_leg("left", "2.7").links[5].d == -0.0035


@pytest.mark.parametrize(
    "make",
    [lambda: icub_arm("right", "3.0"), lambda: icub_leg("left", "3.1"), lambda: icub_torso("3")],
)
def test_v3_is_an_error_not_a_fallback(make: object) -> None:
    with pytest.raises(ModelError, match=r"versions below 3\.0"):
        make()  # type: ignore[operator]


def test_named_presets() -> None:
    assert len(ICUB_PRESETS) == 11  # arm l/r x (v1, v1.7, v2), leg l/r x (v1, v2), torso
    assert icub_preset("right_arm_v1.7") == icub_arm("right", "1.7")
    assert icub_preset("torso") == icub_torso("2")
    with pytest.raises(UnknownNameError, match="did you mean 'right_leg_v2'"):
        icub_preset("right_leg_v2.5")


def test_unknown_side_and_limb_are_errors() -> None:
    with pytest.raises(ModelError, match="'left' or 'right'"):
        icub_arm("middle", "2.0")
    with pytest.raises(ModelError, match="unknown iCub limb 'head'"):
        icub_chain("head", "right_v2")


def test_torso_shares_two_rows_with_the_arms() -> None:
    # ikin-dh.md §3.4: same H0 as the arm and links 0-1 identical; link 2 differs.
    torso = icub_torso("2.5")
    for side in ("left", "right"):
        arm = icub_arm(side, "2.5")
        assert arm.H0 == torso.H0
        for k in (0, 1):
            a, t = arm.links[k], torso.links[k]
            assert (a.a, a.d, a.alpha, a.offset, a.min, a.max) == (
                t.a,
                t.d,
                t.alpha,
                t.offset,
                t.min,
                t.max,
            )
        assert arm.links[2].d != torso.links[2].d


# ---------------------------------------------------------------------- iKin text format
def assert_chains_close(a: DHChain, b: DHChain) -> None:
    assert a.n_links == b.n_links
    np.testing.assert_allclose(a.H0.as_matrix(), b.H0.as_matrix(), atol=1e-15)
    np.testing.assert_allclose(a.HN.as_matrix(), b.HN.as_matrix(), atol=1e-15)
    for x, y in zip(a.links, b.links, strict=True):
        assert x.blocked == y.blocked
        np.testing.assert_allclose(
            [x.a, x.d, x.alpha, x.offset, x.min, x.max],
            [y.a, y.d, y.alpha, y.offset, y.min, y.max],
            atol=1e-14,
        )
        if x.blocked:
            assert x.angle == pytest.approx(y.angle, abs=1e-14)


@given(dh_chains())
def test_text_round_trip(chain: DHChain) -> None:
    """loads(dumps(c, exact=True)) gives back the parameters, limits, H0, HN and blocked
    angles (the default text prints rounding noise as 0 or multiples of 90: test_dh_text.py)."""
    assert_chains_close(loads(dumps(chain, exact=True)), chain)


def test_text_preset_round_trip_keeps_type() -> None:
    chain = icub_arm("right", "2.7")
    back = loads(dumps(chain))
    assert back.limb_type == "right_v2.7"
    assert_chains_close(back, chain)


def test_text_is_in_degrees_with_ikin_defaults() -> None:
    text = """
    // two links, the second blocked; written by hand
    type left
    numLinks 2
    H0 (0 -1 0 0   0 0 -1 0   1 0 0 0   0 0 0 1)
    link_0 (A 0.032) (D 0) (alpha 90) (offset 0) (min -22) (max 84)
    [link_1]
    D -0.0055
    offset -90
    blocked 10
    """
    chain = loads(text)
    assert chain.limb_type == "left"
    first, second = chain.links
    assert first.alpha == pytest.approx(math.pi / 2)
    assert (first.min, first.max) == (math.radians(-22), math.radians(84))
    assert (second.a, second.d, second.alpha) == (0.0, -0.0055, 0.0)
    assert (second.min, second.max) == (-math.pi, math.pi)  # iKin defaults -180..180
    assert second.blocked and second.angle == pytest.approx(math.radians(10))
    assert chain.H0 == icub_arm("left", "2.0").H0
    assert chain.HN.is_identity()


def test_property_form_on_one_line() -> None:
    chain = loads("(numLinks 1) (link_0 (A 0.5) (alpha 180))")
    assert chain.links[0].a == 0.5 and chain.links[0].alpha == pytest.approx(math.pi)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("link_0 (A 1)", "'numLinks' is missing"),
        ("numLinks 0", "positive integer"),
        ("numLinks 2\nlink_0 (A 1)", "link_1 is missing"),
        ("numLinks 1\nlink_0 (A 1) (B 2)", "unknown key 'B'"),
        ("numLinks 1\nlink_0 (A x)", "must be a number"),
        ("numLinks 1\nlink_0 (A 1)\nH0 (1 0 0)", "H0 needs 16 numbers"),
        ("numLinks 1\nlink_0 (A 1)\nspeed 3", "unknown keys \\['speed'\\]"),
        ("numLinks 1\nlink_0 (A 1", "unbalanced"),
    ],
)
def test_text_errors(text: str, message: str) -> None:
    with pytest.raises(ModelError, match=message):
        loads(text)
