"""The float formatting rule of the URDF exporter.

robomodel writes every number with the **shortest decimal digits that read back to the same
double** (Python's ``repr`` digits, which are always the shortest), laid out with the notation
rule of iDynTree's exporter (fpconv's Grisu2 ``emit_digits``). With digits ``d1..dn`` and decimal
exponent ``K`` (value = digits x 10**K):

* ``K >= 0`` and ``|K + n - 1| < n + 7``: an integer without a decimal point (``1``, ``1000000``);
* ``K < 0`` and (``K > -7`` or ``|K + n - 1| < 4``): plain decimal (``0.001``, ``123.25``);
* otherwise scientific notation with a signed, unpadded exponent (``1e+9``, ``1e-7``,
  ``1.5e+20``).

``0.0`` and ``-0.0`` are both ``0``: they are equal values, and export is a function of the value
(iDynTree writes ``-0``). NaN and infinities cannot be written. Because the
digits are the shortest round-trip digits, ``float(format_float(x)) == x`` for every finite
``x``. Grisu2 occasionally emits one digit more than the shortest; for those rare values
robomodel's text is one digit shorter than iDynTree's and reads back to the same double.

>>> [format_float(v) for v in (1.0, 1e9, 1e-7, 0.001, -0.0, 0.1 + 0.2, 1.5e20, 1234567.0)]
['1', '1e+9', '1e-7', '0.001', '0', '0.30000000000000004', '1.5e+20', '1234567']
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from robomodel._internal.shortest import reprs

__all__ = ["format3", "format_float", "format_floats", "format_numbers"]


def format_float(x: float) -> str:
    """Return the exporter's text for ``x``; raise ``ValueError`` for NaN or an infinity."""
    if not math.isfinite(x):
        raise ValueError(f"cannot write the non-finite number {x!r} in a URDF")
    return _format(float(x))


def _format(x: float) -> str:
    # Most numbers of a robot lie in [1e-3, 1e4): there ``repr`` is already plain decimal
    # notation (it uses an exponent only below 1e-4 and from 1e16 on), and the leading digit's
    # exponent K + n - 1 is in [-3, 3], so the rule writes ``repr``'s digits as they are, an
    # integer without its ".0". The general rule below gives the same text (tested).
    # Zero (most entries of a robot's rotations and axes) is "0" under both signs.
    a = -x if x < 0.0 else x
    if 1e-3 <= a < 1e4:
        r = repr(x)
        return r[:-2] if r.endswith(".0") else r
    if a == 0.0:
        return "0"
    return _format_general(x)


def _format_general(x: float) -> str:
    if x == 0.0:
        return "0"
    return _respelled(repr(x))


def _respelled(r: str) -> str:
    """The notation rule applied to ``r``, the ``repr`` of a nonzero finite double."""
    neg = r[0] == "-"
    if neg:
        r = r[1:]
    mant, _, exp_text = r.partition("e")
    exp10 = int(exp_text) if exp_text else 0
    whole, _, frac = mant.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    K = exp10 - len(frac)
    stripped = digits.rstrip("0")
    K += len(digits) - len(stripped)
    digits = stripped
    n = len(digits)
    e = abs(K + n - 1)
    if K >= 0 and e < n + 7:
        body = digits + "0" * K
    elif K < 0 and (K > -7 or e < 4):
        offset = n + K
        if offset <= 0:
            body = "0." + "0" * (-offset) + digits
        else:
            body = digits[:offset] + "." + digits[offset:]
    else:
        body = digits[0] + ("." + digits[1:] if n > 1 else "")
        body += "e" + ("-" if K + n - 1 < 0 else "+") + str(e)
    return "-" + body if neg else body


def format3(x: float, y: float, z: float) -> str:
    """Return three formatted numbers separated by spaces (the exporter's hot path)."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        bad = next(v for v in (x, y, z) if not math.isfinite(v))
        raise ValueError(f"cannot write the non-finite number {bad!r} in a URDF")
    return f"{_format(x)} {_format(y)} {_format(z)}"


def format_floats(values: Iterable[float]) -> str:
    """Return the numbers of ``values`` formatted and separated by single spaces."""
    return " ".join([format_float(v) for v in values])


def format_numbers(values: Sequence[float] | Any) -> tuple[str, ...]:
    """Return :func:`format_float` of every number of ``values`` (a sequence or an array).

    The exporter's bulk path: ``repr``'s text (the shortest digits) of every distinct number,
    computed for the whole array at once (:func:`robomodel._internal.shortest.reprs`, the
    same texts as ``repr`` without its big-integer cost per number), and the notation rule
    applied to whole runs of ``repr`` texts by C-level string maps instead of a Python call per
    number (:func:`_respelled_all`).

    Raises:
        ValueError: a number is NaN or infinite (the first one is named).
    """
    a = _as_array(values) + 0.0  # -0.0 becomes 0.0: both write "0"
    finite = np.isfinite(a)
    if not finite.all():
        bad = float(a[np.argmin(finite)])
        raise ValueError(f"cannot write the non-finite number {bad!r} in a URDF")
    # A robot repeats numbers (zeros, unit entries, the angles of right angles): one text
    # per distinct value, the distinct values in ascending order (np.unique's steps, without
    # its wrapper's fixed cost, which a call on a few hundred numbers notices).
    order = a.argsort()
    ascending = a[order]
    first = np.empty(len(a), dtype=bool)  # where a new value starts in ascending order
    first[:1] = True
    np.not_equal(ascending[1:], ascending[:-1], out=first[1:])
    distinct_array = ascending[first]
    distinct: list[float] = distinct_array.tolist()
    inverse = np.empty(len(a), dtype=np.intp)  # each number's position among the distinct
    inverse[order] = first.cumsum() - 1
    texts = _respelled_all(distinct, reprs(distinct_array), distinct_array)
    # Each number's text, gathered by numpy from an array of the distinct texts.
    gathered: list[str] = np.array(texts, dtype=object)[inverse].tolist()
    return tuple(gathered)


def _as_array(values: Sequence[float] | Any) -> Any:
    """``values`` as a flat float64 array; a list of numbers (the exporter's) by ``fromiter``.

    ``np.array`` first discovers a list's shape and type element by element, which costs more
    than the conversion itself on the thousands of numbers of an export.
    """
    if type(values) is list:
        try:
            return np.fromiter(values, np.float64, len(values))
        except (TypeError, ValueError):  # not flat numbers: np.array's rules
            pass
    return np.array(values, dtype=np.float64).ravel()


def _respelled_all(u: list[float], texts: list[str], ua: Any) -> list[str]:
    """The notation rule applied to the ``repr`` ``texts`` of ``u``, distinct and ascending.

    ``ua``: ``u`` as an array.

    By magnitude (the leading digit's exponent ``E``; ``n`` digits), where ``repr``'s
    notation differs from the rule:

    * ``[1e-3, 1e4)``: ``repr`` is the rule, an integer without its ``.0``; zero is ``0``;
    * ``[1e-4, 1e-3)``: ``repr`` writes ``0.000ddd``; the rule writes that for ``n <= 3``, else
      ``d.ddde-4``;
    * below ``1e-4``: ``repr`` writes ``d.ddde-05``; the rule drops the exponent's padding,
      except for ``E = -5, n <= 2`` and ``E = -6, n = 1``, which it writes plainly (short
      texts, sent to :func:`_respelled`);
    * from ``1e4`` on (rare in a robot): :func:`_respelled` one by one.
    """
    # u is sorted, so each magnitude range is a run of positions on either side of zero.
    big_neg = bisect_right(u, -1e4)
    mid_neg = bisect_right(u, -1e-3, big_neg)
    m4_neg = bisect_right(u, -1e-4, mid_neg)
    m6_neg = bisect_right(u, -1e-6, m4_neg)
    z0 = bisect_left(u, 0.0, m6_neg)
    z1 = bisect_right(u, 0.0, z0)
    m6_pos = bisect_left(u, 1e-6, z1)
    m4_pos = bisect_left(u, 1e-4, m6_pos)
    mid_pos = bisect_left(u, 1e-3, m4_pos)
    big_pos = bisect_left(u, 1e4, mid_pos)
    n = len(texts)
    for lo, hi in ((0, big_neg), (big_pos, n)):  # |x| >= 1e4
        texts[lo:hi] = map(_respelled, texts[lo:hi])
    # [1e-3, 1e4): only an integer's repr ends with ".0" (the shortest digits of any other
    # value have a nonzero last digit after the point), found by one pass of numpy over the
    # range (zero, an integer too, is written below).
    mid = ua[big_neg:big_pos]
    for i in np.flatnonzero(np.floor(mid) == mid).tolist():
        texts[big_neg + i] = texts[big_neg + i][:-2]
    texts[z0:z1] = ["0"] * (z1 - z0)  # at most one: 0.0 and -0.0 are one value
    for lo, hi, sign in ((mid_neg, m4_neg, "-"), (m4_pos, mid_pos, "")):  # [1e-4, 1e-3)
        k = len(sign)
        texts[lo:hi] = [
            t if len(t) <= 8 + k else f"{sign}{t[k + 5]}.{t[k + 6 :]}e-4" for t in texts[lo:hi]
        ]
    for lo, hi in ((m4_neg, z0), (z1, m4_pos)):  # below 1e-4
        texts[lo:hi] = map(str.replace, texts[lo:hi], repeat("e-0", hi - lo), repeat("e-", hi - lo))
    for lo, hi, k in ((m4_neg, m6_neg, 1), (m6_pos, m4_pos, 0)):  # [1e-6, 1e-4): the short
        for i in range(lo, hi):
            if len(texts[i]) <= 6 + k:
                texts[i] = _respelled(texts[i])
    return texts
