"""Python's ``repr`` of a whole float64 array at once, computed by numpy.

``reprs(a) == [repr(x) for x in a.tolist()]`` for every float64 array: the same texts, bit for
bit. Exporters write thousands of computed numbers (rotations, centres of mass), and for a 16 or
17 digit number CPython's ``repr`` (David Gay's ``dtoa``) takes its big-integer path, some 6,000
to 8,000 instructions per number; here the digits of all numbers come from a few dozen array
operations and their texts from one gather of characters per layout (about 2,500 instructions a
number after a fixed cost of some 1,000,000: :func:`reprs` uses ``repr`` below :data:`FEW`
numbers).

What ``repr`` is: the correctly rounded ``p``-digit decimal of ``x`` for the smallest ``p`` (1 to
17) that reads back as ``x``, written plainly for ``1e-4 <= |x| < 1e16`` (an integral value with
``.0``) and as ``d.ddde-05`` / ``de+16`` otherwise. The fast path computes, for
``10**-6 <= |x| < 10**17`` (:func:`_digits`):

1. the decimal exponent ``E`` of the leading digit, by comparing ``|x|`` with the smallest
   doubles at or above each power of ten (exact, no logarithm);
2. ``|x| * 10**(16 - E)`` exactly, as the unevaluated sum ``hi + lo`` of two doubles (Dekker's
   error-free product; ``10**k`` is a double for ``k <= 22``). ``hi >= 10**16 > 2**53`` is an
   integer, so the 17-digit rounding ``q17 = hi + rint(lo)`` and the sign of the rest
   ``lo - rint(lo)`` are exact; every shorter rounding follows from ``q17`` and that sign by
   integer arithmetic;
3. whether the 15- and 16-digit roundings read back as ``x``: a quotient (or product) of an
   integer below ``2**53`` and an exact power of ten is correctly rounded by one IEEE
   operation (Clinger's fast path), so numpy's ``/`` is the reader. 17 digits always read back.

Why three candidates are enough: the numbers that read back as ``x`` form an interval of width
at most 22 units of the 17th digit, so it holds at most one decimal of 15 or fewer digits. If
the 15-digit rounding reads back, it is that decimal, and ``repr``'s digits are its digits
without the trailing zeros. Else ``repr`` has 16 digits if the 16-digit rounding reads back
(the nearest 16-digit decimal, so in the interval if any is: the interval is symmetric about
``x`` unless ``x`` is a power of two, left to ``repr``; a 16-digit rounding above ``2**53`` is
within half a unit of ``x`` where half an ulp is more, so it reads back), else 17.

An element the fast path cannot vouch for gets the plain ``repr`` (:func:`reprs_by_arrays`
names the cases: NaN, infinities, zero, magnitudes outside the range, exact powers of two, ties
between two candidates, integral values). ``tests/test_shortest_repr.py`` compares with
``repr`` bit for bit over random bit patterns, robot-like values and every fallback case.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

__all__ = ["FEW", "reprs", "reprs_by_arrays"]

# Decimal exponents of the leading digit handled by the fast path: 16 - E is a power of ten
# that is a double (at most 22).
_E_MIN, _E_MAX = -6, 16


def _at_or_above(e: int) -> float:
    """Return the smallest double at or above ``10**e``: ``|x| >= 10**e`` iff ``|x| >=`` it."""
    t = 10.0**e
    return t if Fraction(t) >= Fraction(10) ** e else float(np.nextafter(t, np.inf))


_POWER_STARTS = np.array([_at_or_above(e) for e in range(_E_MIN, _E_MAX + 2)])
_LOWEST, _BEYOND = float(_POWER_STARTS[0]), float(_POWER_STARTS[-1])
_POW10 = np.array([10.0**k for k in range(23)])  # exact doubles
_VELTKAMP = 134217729.0  # 2**27 + 1: splits a double into two 26-bit halves


def _split(v: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Veltkamp's split: ``v == high + low`` exactly, each with at most 26 significant bits."""
    c = _VELTKAMP * v
    high = c - (c - v)
    return high, v - high


_POW10_HIGH, _POW10_LOW = _split(_POW10)

# The texts are gathered from a table of bytes with one column per number: its 17 digits
# (spaces after the last significant one) in rows 0-8 and 10-17, then the characters its text
# may need.
_ZERO, _DOT, _E, _EXP_SIGN, _EXP_TENS, _EXP_ONES = range(18, 24)
_CONSTANT_CHARS = np.frombuffer(b"0.e", dtype=np.uint8)


def _layout(exponent: int, n_digits: int | None = None) -> npt.NDArray[np.intp]:
    """Return the table rows of a text after its sign.

    Plain text with the leading digit's ``exponent`` (``-4 <= exponent < 16``) and up to 17
    digits (the spaces after the last one end the text), or scientific with ``n_digits`` digits.
    """
    digits = [*range(9), *range(10, 18)]  # the table rows of the 17 digits (row 9 is spare)
    if n_digits is not None:
        mantissa = [0, _DOT, *digits[1:n_digits]] if n_digits > 1 else [0]
        body = [*mantissa, _E, _EXP_SIGN, _EXP_TENS, _EXP_ONES]
    elif exponent >= 0:
        body = [*digits[: exponent + 1], _DOT, *digits[exponent + 1 :]]
    else:
        body = [_ZERO, _DOT, *[_ZERO] * (-exponent - 1), *digits]
    return np.array(body, dtype=np.intp)


# Layout i: plain text of exponent i - 4 for i < 20, scientific with i - 19 digits from 20 on.
_LAYOUTS = tuple(_layout(i - 4) if i < 20 else _layout(0, i - 19) for i in range(20 + 17))
_WIDTH = 1 + max(len(cols) for cols in _LAYOUTS) + 1  # sign, text, a space at least


def reprs(values: npt.ArrayLike) -> list[str]:
    """Return ``[repr(x) for x in values]`` for the float64 numbers of ``values``, flattened.

    Texts identical to ``repr``'s. Below :data:`FEW` numbers, ``repr`` itself is cheaper (the
    array method's fixed cost is some 1,000,000 instructions and 150-200 us, then about 2,500
    instructions a number against ``repr``'s 2,000-8,000); from there on,
    :func:`reprs_by_arrays`.

    >>> reprs([0.1 + 0.2, -1.5e-05, 2.0, float("nan"), 123.456])
    ['0.30000000000000004', '-1.5e-05', '2.0', 'nan', '123.456']
    """
    a = np.asarray(values, dtype=np.float64).ravel()
    if len(a) < FEW:
        return [repr(v) for v in a.tolist()]
    return reprs_by_arrays(a)


FEW = 500
"""The number of numbers from which :func:`reprs` computes them by arrays. Measured on iCub's
URDF export: 320 numbers cost 2.10 M instructions by ``repr`` and 2.05 M by arrays, but 184 us
against 249 us of CPU time; 1,080 numbers 7.85 M against 3.41 M and 439 us against 256 us."""


def reprs_by_arrays(values: npt.ArrayLike) -> list[str]:
    """:func:`reprs` computed by numpy arrays whatever the number of numbers.

    Elements the array method does not cover (NaN, infinities, zeros, ``|x| < 1e-6``,
    ``|x| >= 1e17``, integral values, exact powers of two that need 16 or 17 digits, and ties
    of two shortest candidates) are written by ``repr`` itself.

    >>> reprs_by_arrays([0.1 + 0.2, -1.5e-05, 2.0, float("nan"), 123.456])
    ['0.30000000000000004', '-1.5e-05', '2.0', 'nan', '123.456']
    """
    a = np.asarray(values, dtype=np.float64).ravel()
    x = np.abs(a)
    fast = np.flatnonzero((x >= _LOWEST) & (x < _BEYOND))  # not NaN
    x = x[fast]
    digits, exponent, vouched = _digits(x)
    # An integral value's text pads with zeros and ends in ".0": repr writes it cheaply.
    vouched &= np.floor(x) != x
    keep = np.flatnonzero(vouched)
    rows = fast[keep]
    texts = _texts(digits[keep], exponent[keep], np.signbit(a[rows]), rows, len(a))
    if len(rows) < len(a):  # the other rows' texts are placeholders: repr writes them
        slow = np.ones(len(a), dtype=bool)
        slow[rows] = False
        where = np.flatnonzero(slow).tolist()
        for i, v in zip(where, a[where].tolist(), strict=True):
            texts[i] = repr(v)
    return texts


def _digits(
    x: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """The shortest round-trip digits of each ``x`` in ``[_LOWEST, _BEYOND)``.

    Returns the digits as a 17-digit integer (the shortest digits, then zeros), the decimal
    exponent of the leading digit, and whether the fast path vouches for the element.
    """
    # The exponent of the leading digit, exactly.
    e = np.searchsorted(_POWER_STARTS, x, side="right") + (_E_MIN - 1)
    k = 16 - e
    # x * 10**k == hi + lo exactly (Dekker's product), with 10**16 <= x * 10**k < 10**17.
    p = _POW10[k]
    x_high, x_low = _split(x)
    p_high, p_low = _POW10_HIGH[k], _POW10_LOW[k]
    hi = x * p
    lo = ((x_high * p_high - hi) + x_high * p_low + x_low * p_high) + x_low * p_low
    # hi >= 2**53 is an integer: the 17-digit rounding and the rest are exact.
    lo_int = np.rint(lo)
    rest = lo - lo_int
    q17 = hi.astype(np.int64) + lo_int.astype(np.int64)
    above = rest > 0.0  # x * 10**k - q17 > 0: decides a rounding that drops exactly "5000..."
    # The 15- and 16-digit roundings, and whether they read back as x (Clinger).
    (q15, q16), (q15_reads_back, q16_reads_back) = _shorter(q17, above, k, x)
    q16_reads_back |= q16 > 2**53  # then |q16 - x * 10**(k-1)| <= 0.5 < half an ulp
    # The digits, padded with zeros to 17. A rounding up to the next power of ten
    # ("99..9.5" -> "100..0") moves the leading digit.
    digits = np.where(q15_reads_back, q15 * 100, np.where(q16_reads_back, q16 * 10, q17))
    carry = digits == 10**17
    exponent = e + carry
    digits[carry] = 10**16
    # What the fast path cannot vouch for:
    # * at 16 or 17 digits, the one nearest decimal may miss an interval that is narrower below
    #   x than above it (x a power of two) while the other neighbour hits it;
    # * a tie: x exactly halfway between two candidates of the chosen length.
    power_of_two = (x.view(np.uint64) & np.uint64((1 << 52) - 1)) == 0
    tie16 = (q17 % 10 == 5) & (rest == 0.0)
    tie17 = np.abs(rest) == 0.5
    vouched = q15_reads_back | ~(power_of_two | np.where(q16_reads_back, tie16, tie17))
    return digits, exponent, vouched


def _shorter(
    q17: npt.NDArray[np.int64],
    above: npt.NDArray[np.bool_],
    k: npt.NDArray[np.intp],
    x: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Round ``x * 10**(k - 2)`` and ``x * 10**(k - 1)`` to integers; say which read back.

    Two rows: the roundings, and whether each reads back as ``x``.

    ``x * 10**k`` is ``q17`` plus a rest of at most one half, positive where ``above``: the
    dropped digits decide the rounding, and the rest only when they are exactly ``"50..0"``.
    """
    kept, dropped = np.divmod(q17, _DROPPED_UNITS)
    half = _DROPPED_UNITS // 2
    q = kept + ((dropped > half) | ((dropped == half) & above))
    # q * 10**-n, n = k - drop, correctly rounded: one IEEE operation with an exact power of ten
    # while q <= 2**53 (n < 0 only for x >= 1e15).
    n = k - _DROPPED
    power = _POW10[np.abs(n)]
    qf = q.astype(np.float64)
    reads_back: npt.NDArray[np.bool_] = np.where(n >= 0, qf / power, qf * power) == x
    return q, reads_back


_DROPPED = np.array([[2], [1]])
_DROPPED_UNITS = 10**_DROPPED


def _texts(
    digits: npt.NDArray[np.int64],
    exponent: npt.NDArray[np.intp],
    negative: npt.NDArray[np.bool_],
    rows: npt.NDArray[np.intp],
    n: int,
) -> list[str]:
    """Return ``n`` texts, ``repr``'s at ``rows`` and a placeholder elsewhere.

    The number at ``rows[i]`` is ``(-1)**negative * 0.ddd... * 10**(exponent + 1)``, ``ddd...``
    the 17 ``digits`` (trailing zeros not written).

    Each text's characters after its sign are gathered from its number's column of a table of
    bytes (its digits, the characters ``0 . e``, its exponent's sign and digits) in one of the
    layouts of :data:`_LAYOUTS` (plain text by exponent, scientific by number of digits). The
    numbers are sorted by layout, so that each layout is one gather of table rows; the texts,
    padded with spaces (a positive number's sign is a space too), are decoded and split at the
    spaces by ``str.split`` in C.
    """
    m = len(rows)
    # Phase 1: each number's layout; the numbers sorted by layout.
    scientific = (exponent < -4) | (exponent >= 16)
    layout = exponent + 4
    if scientific.any():
        sci = np.flatnonzero(scientific)
        trailing_zeros = (digits[sci] % _POW10_INT[1:17, None] == 0).sum(axis=0)
        layout[sci] = 36 - trailing_zeros
    order = np.argsort(layout, kind="stable")
    layout = layout[order]
    exponent = exponent[order]
    # Phase 2: the table of bytes, one column per number in that order.
    table = np.empty((_EXP_ONES + 1, m), dtype=np.uint8)
    table[:18] = _digit_chars(digits[order])
    table[_ZERO:_EXP_SIGN] = _CONSTANT_CHARS[:, None]
    table[_EXP_SIGN] = np.where(exponent < 0, ord("-"), ord("+"))
    np.divmod(np.abs(exponent), 10, out=(table[_EXP_TENS], table[_EXP_ONES]), casting="unsafe")
    table[_EXP_TENS:] += ord("0")
    # Phase 3: one gather of table rows per layout.
    text = np.full((_WIDTH, m), ord(" "), dtype=np.uint8)
    text[0] = np.where(negative[order], ord("-"), ord(" "))
    starts = np.flatnonzero(np.diff(layout, prepend=-1))
    ends = [*starts[1:].tolist(), m]
    for start, end, i in zip(starts.tolist(), ends, layout[starts].tolist(), strict=False):
        columns = _LAYOUTS[i]
        text[1 : 1 + len(columns), start:end] = table[columns, start:end]
    # Phase 4: one text per row of the result (a placeholder "?" where there is none), split
    # at the spaces.
    out = np.full((n, _WIDTH), ord(" "), dtype=np.uint8)
    out[:, 0] = ord("?")
    out[rows[order]] = text.T
    return out.tobytes().decode("ascii").split()


def _digit_chars(digits: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
    """Return the ASCII digits of 17-digit integers, one number per column.

    Spaces after the last nonzero digit; digits 0-8 in rows 0-8, digits 9-16 in rows 10-17,
    row 9 a spare space.
    """
    # Two halves of 9 and 8 digits, each exactly a double, where floor(h / 10**i) is exact;
    # a half's digit i is floor(h / 10**i) - 10 * floor(h / 10**(i+1)). Row 0 and row 10 are
    # zeros (nothing above each half's first digit).
    high, low = np.divmod(digits, 10**8)
    floors = np.empty((19, len(digits)))
    floors[0] = floors[10] = 0.0
    np.divide(high.astype(np.float64), _DIGIT_UNITS[:9, None], out=floors[1:10])
    np.divide(low.astype(np.float64), _DIGIT_UNITS[9:, None], out=floors[11:])
    np.floor(floors, out=floors)
    values = floors[:-1] * -10.0
    values += floors[1:]
    values[9] = 0.0  # the spare row (10 * floor(high) subtracted from nothing)
    chars = values.astype(np.uint8)
    # How many digits up to the last nonzero one (a number's digits are never all zero); the
    # digits, and spaces after them.
    length = ((chars != 0).view(np.uint8) * _DIGIT_NUMBERS).max(axis=0)
    chars |= ord(" ")
    chars += (length >= _DIGIT_NUMBERS).view(np.uint8) * np.uint8(16)  # " " + 16 == "0"
    chars[9] = ord(" ")
    return chars


_DIGIT_UNITS = np.array([10.0**i for i in (*range(8, -1, -1), *range(7, -1, -1))])
_DIGIT_NUMBERS = np.array([*range(1, 10), 0, *range(10, 18)], dtype=np.uint8)[:, None]
_POW10_INT = np.array([10**i for i in range(18)], dtype=np.int64)

# The tables are constants of the module: nothing may write them (a written table would change
# every text formatted afterwards, in the whole process).
for _table in (
    _POWER_STARTS,
    _POW10,
    _POW10_HIGH,
    _POW10_LOW,
    *_LAYOUTS,
    _DROPPED,
    _DROPPED_UNITS,
    _DIGIT_UNITS,
    _DIGIT_NUMBERS,
    _POW10_INT,
):
    _table.setflags(write=False)
del _table
