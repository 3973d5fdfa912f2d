"""The URDF writer's place bounds and exact residuals, against their definitions in rationals.

``robomodel.formats.urdf._exact`` skips the decimal places whose rounding moves a number further
than its search radius (``_first_places``), and refines axes and inverted positions with exact
residuals held as integer multiples of ``2**-1074`` (``_fixed``). These properties check both
against ``fractions.Fraction``, which nobody here wrote: a skipped place never rounds within
the radius, ``stable`` is the number of decimals ``repr`` gives, and ``_fixed`` is the value
times ``2**1074`` exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from robomodel.formats.urdf import _exact

finite = st.floats(allow_nan=False, allow_infinity=False)
# Numbers as robots hold them: a few decimals, or any double near the angles and lengths.
decimals = st.builds(
    lambda digits, places, scale: round(digits * 10.0**-places, places) * 10.0**scale,
    st.integers(-(10**9), 10**9),
    st.integers(0, 9),
    st.integers(-20, 20),
)
numbers = st.one_of(finite, decimals, st.floats(-4.0, 4.0))


def decimals_of(x: float) -> int:
    """The decimal places of ``repr(x)`` (negative for trailing zeros of an integer)."""
    value = Fraction(repr(x))
    places = 0
    while value.denominator != 1:
        value *= 10
        places += 1
    if value == 0:
        return 0
    n = value.numerator
    while n % 10 == 0:
        n //= 10
        places -= 1
    return places


@settings(max_examples=400)
@given(numbers, st.sampled_from([0.5, 1.0, 16.0, 1000.0]), st.integers(-25, 25))
def test_first_places_never_skips_a_rounding_within_the_radius(
    x: float, ulps: float, lowest: int
) -> None:
    radius = ulps * math.ulp(x)
    first, stable = _exact._first_places(x, radius, lowest)
    if x != 0.0 and abs(x) > 1e-300:
        assert stable == max(decimals_of(x), lowest)
    assert lowest <= first <= max(stable, lowest)
    for places in range(lowest, min(first, lowest + 40)):
        rounded = round(x, places)
        if math.isfinite(rounded):
            assert abs(Fraction(rounded) - Fraction(x)) > Fraction(radius), places


@settings(max_examples=400)
@given(finite)
def test_fixed_is_the_value_in_units_of_the_smallest_double(x: float) -> None:
    assert Fraction(_exact._fixed(x), 2**1074) == Fraction(x)
