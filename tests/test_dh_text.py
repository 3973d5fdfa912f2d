"""How iKin text prints numbers, the mass of chain_to_model, and every bad iCub name at once.

``dumps`` prints the shortest text that reads back as the stored value, and prints rounding
noise as the value it stands for (0, multiples of 90 degrees, -1/0/1 rotation entries) only in
the text; ``exact=True`` prints every value as stored.
"""

from __future__ import annotations

import math
import re
import warnings

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import dh_chains

from robomodel.errors import ArgumentError, ModelError
from robomodel.formats import urdf
from robomodel.formats.dh import (
    ANGLE_NOISE,
    DEFAULT_LINK_MASS,
    LENGTH_NOISE,
    ROTATION_NOISE,
    DHChain,
    DHLink,
    chain_to_model,
    dumps,
    icub_arm,
    icub_chain,
    loads,
    model_to_chain,
    parse_limb_type,
    set_angles,
)
from robomodel.model.spatial import Transform

NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]\d+)?|-?\d+e[-+]\d+")


def numbers(text: str) -> list[float]:
    return [float(t) for t in NUMBER.findall(text)]


def link_values(chain: DHChain) -> list[list[float]]:
    return [
        [k.a, k.d, k.alpha, k.offset, k.min, k.max, k.angle if k.blocked else math.nan]
        for k in chain.links
    ]


# ---------------------------------------------------------------------- exact text
@given(dh_chains())
def test_exact_text_reads_back_every_stored_value(chain: DHChain) -> None:
    """loads(dumps(c, exact=True)) has exactly c's lengths, H0 and HN, and its angles
    to one rounding (degrees times pi / 180 do not reach every float)."""
    back = loads(dumps(chain, exact=True))
    for x, y in zip(link_values(back), link_values(chain), strict=True):
        assert x[:2] == y[:2]
        for got, want in zip(x[2:], y[2:], strict=True):
            assert got == want or abs(got - want) <= math.ulp(want) or math.isnan(want)
    assert [k.blocked for k in back.links] == [k.blocked for k in chain.links]
    np.testing.assert_array_equal(back.H0.as_matrix(), chain.H0.as_matrix())
    np.testing.assert_array_equal(back.HN.as_matrix(), chain.HN.as_matrix())


@given(dh_chains())
def test_default_text_moves_values_by_at_most_the_noise(chain: DHChain) -> None:
    """The default text reads back within LENGTH_NOISE (m), ANGLE_NOISE (deg), ROTATION_NOISE."""
    back = loads(dumps(chain))
    for x, y in zip(back.links, chain.links, strict=True):
        for length in ("a", "d"):
            assert abs(getattr(x, length) - getattr(y, length)) <= LENGTH_NOISE
        for angle in ("alpha", "offset", "min", "max") + (("angle",) if y.blocked else ()):
            got, want = math.degrees(getattr(x, angle)), math.degrees(getattr(y, angle))
            assert abs(got - want) <= ANGLE_NOISE * (1 + 1e-6)
    for a, b in ((back.H0, chain.H0), (back.HN, chain.HN)):
        assert np.max(np.abs(a.rotation - b.rotation)) <= ROTATION_NOISE
        assert np.max(np.abs(a.position - b.position)) <= LENGTH_NOISE


@given(st.integers(-36000, 36000), st.integers(0, 3))
def test_degrees_print_as_the_shortest_text_that_reads_back(hundredths: int, digits: int) -> None:
    """An angle read from d degrees prints as d, not as math.degrees' 29.999999999999996."""
    written = round(hundredths / 100, digits)
    text = f"numLinks 1\nlink_0 (A 1) (alpha {written!r}) (min -400) (max 400)"
    chain = loads(text)
    for exact in (False, True):
        printed = re.search(r"\(alpha (\S+)\)", dumps(chain, exact=exact))
        assert printed is not None
        assert float(printed.group(1)) == written
        assert len(printed.group(1)) <= len(repr(written))
        assert loads(dumps(chain, exact=exact)).links[0].alpha == chain.links[0].alpha


def test_rounding_noise_prints_as_what_it_stands_for() -> None:
    # The three values of issue 20: -1.93e-17 m, an offset of 179.99999999971945 degrees and a
    # 1.56e-39 rotation entry.
    H0 = np.eye(4)
    H0[0, 1], H0[1, 0] = 1.56e-39, -1.56e-39
    link = DHLink(0.25, -1.93e-17, math.pi / 2, math.radians(179.99999999971945), -1.0, 1.0)
    chain = DHChain(links=[link], H0=H0)
    text = dumps(chain)
    assert "(D 0.0)" in text and "(offset 180.0)" in text and "(alpha 90.0)" in text
    assert "H0 (1.0 0.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 0.0 1.0)" in text
    assert "e-" not in text and "-0.0" not in text
    # Only the text: the chain keeps its values, and exact=True prints them.
    assert chain.links[0].d == -1.93e-17 and chain.H0.rotation[0, 1] == 1.56e-39
    exact = dumps(chain, exact=True)
    assert "(D -1.93e-17)" in exact and "1.56e-39" in exact
    assert "(offset 179.99999999971" in exact


def test_values_just_above_the_noise_are_printed_as_stored() -> None:
    link = DHLink(2 * LENGTH_NOISE, -3e-6, math.radians(90 + 3 * ANGLE_NOISE), 0.0, -1.0, 1.0)
    text = dumps(DHChain(links=[link]))
    assert f"(A {2 * LENGTH_NOISE!r})" in text and "(D -3e-06)" in text
    back = loads(text).links[0]
    assert (back.a, back.d, back.alpha) == (link.a, link.d, link.alpha)


@pytest.mark.parametrize(
    ("robot", "base", "end"),
    [("iCubGazeboV2_7", "chest", "r_hand"), ("iCubGazeboV2_7", "root_link", "l_hand")],
)
def test_icub_extraction_prints_no_noise(robot: str, base: str, end: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = urdf.load(icub_models.get_model_file(robot))
    chain = model_to_chain(model, base, end)
    stored = [v for row in link_values(chain) for v in row[:2]]
    assert any(0 < abs(v) < LENGTH_NOISE for v in stored)  # the noise is there in the values
    text = dumps(chain)
    for v in numbers(text):
        assert v == 0 or abs(v) >= LENGTH_NOISE
        assert abs(v) == 0 or abs(abs(v) - 1) == 0 or abs(abs(v) - 1) > ROTATION_NOISE
    for angle in re.findall(r"\((?:alpha|offset|min|max) (\S+)\)", text):
        d = float(angle)
        assert d == 90 * round(d / 90) or abs(d - 90 * round(d / 90)) > ANGLE_NOISE
    # The text still describes the same chain: poses agree to the noise.
    back = loads(text)
    for q in np.random.default_rng(0).uniform(-0.3, 0.3, (5, chain.n_dofs)):
        a = set_angles(chain, q)[0].end_effector_pose().as_matrix()
        b = set_angles(back, q)[0].end_effector_pose().as_matrix()
        np.testing.assert_allclose(a, b, atol=1e-8)


# ---------------------------------------------------------------------- chain_to_model mass
def test_link_mass_default_is_idyntrees_one_kilogram() -> None:
    chain = icub_arm("right", "2.7")
    model = chain_to_model(chain)
    assert DEFAULT_LINK_MASS == 1.0
    assert [link.inertia.mass for link in model.links] == [1.0] * (chain.n_links + 1)


@pytest.mark.parametrize("mass", [0.0, 0.25, 3])
def test_link_mass_is_given_to_every_link_at_its_origin(mass: float) -> None:
    chain = icub_arm("left", "2.0")
    model = chain_to_model(chain, link_mass=mass)
    for link in model.links:
        assert link.inertia.mass == mass
        np.testing.assert_array_equal(link.inertia.com, np.zeros(3))
    assert model.total_mass == pytest.approx(mass * (chain.n_links + 1))


@pytest.mark.parametrize(
    ("mass", "error"),
    [
        (-1.0, ModelError),
        (math.nan, ModelError),
        (math.inf, ModelError),
        ("1", ArgumentError),
        (True, ArgumentError),
        (None, ArgumentError),
    ],
)
def test_bad_link_mass_is_an_error(mass: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="link_mass"):
        chain_to_model(icub_arm("right", "2.7"), link_mass=mass)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- iCub names
def test_every_bad_part_of_an_icub_name_is_reported_at_once() -> None:
    with pytest.raises(ModelError) as info:
        icub_chain("foo", "bar")
    assert "'foo'" in str(info.value) and "'bar'" in str(info.value)
    with pytest.raises(ModelError) as info:
        parse_limb_type("lft_v2.x")
    assert "'lft'" in str(info.value) and "'2.x' is not an iCub version" in str(info.value)
    with pytest.raises(ModelError) as info:
        icub_chain("head", "left_v3")
    assert "'head'" in str(info.value)
    with pytest.raises(ModelError, match=r"versions below 3\.0"):
        icub_chain("leg", "left_v3")
    assert icub_chain("arm", "left_v2.10").limb_type == "left_v2.10"


def test_transform_identity_prints_exactly() -> None:
    text = dumps(DHChain(links=[DHLink(0.0, 0.0, 0.0)], HN=Transform.identity()))
    assert "HN (1.0 0.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 0.0 1.0)" in text
