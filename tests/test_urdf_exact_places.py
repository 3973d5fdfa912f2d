"""The URDF writer's place bounds and exact residuals, against their definitions in rationals.

``robomodel.formats.urdf._exact`` skips the decimal places whose rounding moves a number further
than its search radius (``_first_places``), and refines axes and inverted positions with exact
Newton steps in integers (``_newton_step``). These properties check both against
``fractions.Fraction``, which nobody here wrote: a skipped place never rounds within the radius,
``stable`` is the number of decimals ``repr`` gives, and a Newton step is ``x + Aᵀ(b - A x)``
computed in rationals and rounded once.
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


entries = st.one_of(
    finite,
    st.floats(-1.0, 1.0),
    st.builds(lambda k: 2.0**k, st.integers(-1074, 0)),  # subnormals: the most places
    st.just(0.0),
)


@settings(max_examples=400)
@given(st.lists(entries, min_size=15, max_size=15))
def test_newton_step_is_the_step_in_rationals(v: list[float]) -> None:
    """A step holds every number as an integer multiple of ``2**-s`` (``s`` the most binary
    places among them): the result is the exact ``x + Aᵀ(b - A x)`` rounded once."""
    A, b, x = [v[0:3], v[3:6], v[6:9]], v[9:12], v[12:15]
    F = [[Fraction(e) for e in row] for row in A]
    res = [Fraction(b[i]) - sum(F[i][j] * Fraction(x[j]) for j in range(3)) for i in range(3)]
    exact = [Fraction(x[i]) + sum(F[j][i] * res[j] for j in range(3)) for i in range(3)]
    try:
        want = [float(e) for e in exact]
    except OverflowError:
        return
    assert _exact._newton_step(A, b, x) == want
