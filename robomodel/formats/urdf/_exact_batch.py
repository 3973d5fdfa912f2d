"""The batch route of the exact numbers: every value of a model at once.

The search of :mod:`~robomodel.formats.urdf._exact` finds each value's numbers one by one, trying
candidate after candidate. This route finds the same numbers for all the values of a model at once:
in the phases of the search, it builds for every value the candidates of that search that can pass,
checks them together with the loader's arithmetic (``math``'s sine and cosine, numpy's elementwise
float64 operations, which round as Python's), and keeps the first that passes in the search's order,
which is the search's answer. Why the answers are the same:

* The search tries a fixed sequence of candidates and returns the first that reads back.
  A number that reads back lies within its pinning radius of the value's exact number (an
  angle within _RADIUS_ULPS ulps of the exact angles, which the search's own place skipping
  already relies on; a centre of mass within ulp(h)/m + ulp(h/m) of h/m; for an axis, a
  direction within 1e-12, the search's own early refusal), so a candidate with a number
  beyond it fails, and leaving it out changes nothing.
* One numpy pass over all numbers and places (:func:`_examined`) finds the places the search
  examines (some number moves) whose rounding may lie within the radius: a sieve of a few
  whole-array operations over every place (with a margin for its own float arithmetic, so
  that only candidates beyond doubt are left out), then the rounding itself, exactly as
  ``round`` gives it, on the few places kept. Where numpy's rounding might not be ``round``'s
  (ties, places past 10**22), ``round`` makes it. Rotations and axes share one pass, the
  inertias' single numbers another; the rows go in chunks whose arrays stay below glibc's
  mmap threshold.
* The examined roundings are checked together, a rounding equal to the row's last one once,
  the numbers themselves after them (the search's ``x0`` after its places), the first passing
  in place order winning (:func:`_first_passing`); then the search's short lists (the
  numbers' neighbouring doubles, in its order), all at once.
* What the batch cannot settle cheaply (a tiny number, whose pinning the radius does not
  bound) goes through the search itself.

tests/test_urdf_exact_batch.py checks, value by value, that both routes give the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any, NamedTuple

import numpy as np

from robomodel.formats.urdf._exact import (
    _RADIUS_ULPS,
    _TINY,
    _difference_is,
    _exact_rpy_by_entries,
    _first_places,
    _inertia_key,
    _newton_step,
    _product_is,
    _rpy,
    _search_axis,
    _search_inertial,
    _shortest1,
)
from robomodel.model.joints import FixedJoint
from robomodel.model.spatial import (
    RPY_FLAT_COS,
    RPY_IDYNTREE_MIN_COS,
    RPY_TOLERANCE,
    SpatialInertia,
    Transform,
    rotations_from_rpy,
)

__all__ = ["axis_numbers_all", "export_memo", "inertial_numbers_all", "rpy_numbers_all"]

_NEIGHBOURS = np.array(list(product((0, 1, 2), repeat=3)))  # product(_STEPS) order, as indices


def _sines_cosines(v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``math``'s sine and cosine of each number of ``v``, as arrays of its shape.

    ``math``'s, not numpy's (which may differ in the last bit from the loader's), gathered by
    ``fromiter`` with the count known: no list in between, no type discovery per number.
    """
    flat = v.ravel().tolist()
    n = len(flat)
    S = np.fromiter(map(math.sin, flat), np.float64, n).reshape(v.shape)
    K = np.fromiter(map(math.cos, flat), np.float64, n).reshape(v.shape)
    return S, K


def _gives_table(V: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Whether the loader's rotation of each candidate ``rpy`` is the value's, exactly.

    ``V`` is ``(n, 3, 3)``: per value and angle, three candidate numbers; the candidates are
    each roll, pitch and yaw of them, in the order of :data:`_NEIGHBOURS`; ``T`` is ``(n, 9)``,
    the values' rotations (row-major). Returns ``(n, 27)``. The formulas of :func:`_gives`
    elementwise in the same order (numpy's elementwise float64 products and sums round as
    Python's), with ``math``'s sine and cosine, once per number (numpy's own may differ in
    the last bit), gathered per candidate (broadcasting the grid instead measured slower).
    """
    S, K = _sines_cosines(V)
    idx = _NEIGHBOURS
    sr, sp, sy = S[:, 0, idx[:, 0]], S[:, 1, idx[:, 1]], S[:, 2, idx[:, 2]]
    cr, cp, cy = K[:, 0, idx[:, 0]], K[:, 1, idx[:, 1]], K[:, 2, idx[:, 2]]
    t = [T[:, j, None] for j in range(9)]
    ok: np.ndarray = (-sp == t[6]) & (cp * sr == t[7]) & (cp * cr == t[8])
    ok &= (cy * cp == t[0]) & (sy * cp == t[3])
    ok &= (cy * sp * sr - sy * cr == t[1]) & (cy * sp * cr + sy * sr == t[2])
    ok &= (sy * sp * sr + cy * cr == t[4]) & (sy * sp * cr - cy * sr == t[5])
    return ok


def _gives_rows(C: np.ndarray, T: np.ndarray) -> np.ndarray:
    """:func:`_gives_table` of one candidate per value: ``C`` ``(n, 3)`` against ``T`` ``(n, 9)``.

    As :func:`_gives` stops at the pitch's entry, the pitch's sine is computed first, and the
    other five sines and cosines only for the candidates that give that entry (of iCub's
    rounded candidates, four in ten fail there).
    """
    ok = np.zeros(len(C), dtype=bool)
    sp = np.fromiter(map(math.sin, C[:, 1].tolist()), np.float64, len(C))
    at = np.flatnonzero(-sp == T[:, 6])
    if len(at):
        C, T, sp = C[at], T[at], sp[at]
        S, K = _sines_cosines(C)
        sr, sy, cr, cp, cy = S[:, 0], S[:, 2], K[:, 0], K[:, 1], K[:, 2]
        t = T.T
        got = (cp * sr == t[7]) & (cp * cr == t[8])
        got &= (cy * cp == t[0]) & (sy * cp == t[3])
        got &= (cy * sp * sr - sy * cr == t[1]) & (cy * sp * cr + sy * sr == t[2])
        got &= (sy * sp * sr + cy * cr == t[4]) & (sy * sp * cr - cy * sr == t[5])
        ok[at] = got
    return ok


def _steps(X: np.ndarray) -> np.ndarray:
    """``(n, 3, 3)``: each number of ``X`` ``(n, 3)``, the double below it and the one above.

    The order of ``_STEPS``, zeros unsigned as :func:`_step` ``+ 0.0`` gives them.
    """
    return np.stack([X, np.nextafter(X, -np.inf), np.nextafter(X, np.inf)], axis=2) + 0.0


class _Rows(NamedTuple):
    """One kind of value's rows for the shared rounding pass (:func:`_first_roundings`).

    ``X``: ``(n, 3)`` numbers per row (a kind of single numbers pads them with zeros, which
    round to themselves); ``centre``, ``radius``: ``(n, 3)``, a rounding farther than
    ``radius`` from ``centre`` cannot read back; ``lowest``: ``(n,)``, the search's first
    places. ``check(rows, C)``: whether the candidates ``C`` ``(len(rows), 3)`` read back for
    the kind's rows ``rows``; ``refuse(rows, C)`` (or ``None``): the candidates the kind's
    search refuses before its check (their roundings are not examined). ``base``: whether
    the numbers themselves are the next candidate after the roundings (the search's ``x0``
    after its places), checked with them.
    """

    X: np.ndarray
    centre: np.ndarray
    radius: np.ndarray
    lowest: np.ndarray
    check: Callable[[np.ndarray, np.ndarray], np.ndarray]
    refuse: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    base: bool = False


def _no_rows(check: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> _Rows:
    empty = np.zeros((0, 3))
    return _Rows(empty, empty, empty, np.zeros(0, dtype=np.intp), check)


def _first_roundings(kinds: Sequence[_Rows]) -> list[list[list[float] | None]]:
    """Per kind, per row: the first rounding the search examines that reads back, or ``None``.

    The rows of the kinds with as many numbers per row (rotations and axes; inertias' single
    numbers) go through one rounding pass (:func:`_examined`) and one check of all their
    examined roundings (:func:`_first_passing`), each kind checking its own rows: numpy's
    cost per call, not the arithmetic, is what a model's few hundred rows cost.
    """
    found: list[list[list[float] | None]] = [[] for _ in kinds]
    for k in sorted({kind.X.shape[1] for kind in kinds}):
        group = [i for i, kind in enumerate(kinds) if kind.X.shape[1] == k]
        for i, got in zip(group, _first_roundings_of([kinds[i] for i in group]), strict=True):
            found[i] = got
    return found


def _first_roundings_of(kinds: Sequence[_Rows]) -> list[list[list[float] | None]]:
    """:func:`_first_roundings` of kinds with as many numbers per row."""
    bounds = np.cumsum([0, *(len(k.X) for k in kinds)]).tolist()
    if not bounds[-1]:
        return [[] for _ in kinds]
    if len(kinds) == 1:
        (kind,) = kinds
        X, centre, radius, lowest = kind.X, kind.centre, kind.radius, kind.lowest
    else:
        X = np.concatenate([k.X for k in kinds])
        centre = np.concatenate([k.centre for k in kinds])
        radius = np.concatenate([k.radius for k in kinds])
        lowest = np.concatenate([k.lowest for k in kinds])
    rows, places, C, doubt = _examined(X, centre, radius, lowest)
    # The kinds' own early refusals (rows are sorted: each kind's are one slice).
    cut = np.searchsorted(rows, bounds).tolist()
    keep = None
    for i, kind in enumerate(kinds):
        if kind.refuse is not None and cut[i] < cut[i + 1]:
            if keep is None:
                keep = np.ones(len(rows), dtype=bool)
            at = slice(cut[i], cut[i + 1])
            keep[at] = ~kind.refuse(rows[at] - bounds[i], C[at])
    if keep is not None:
        rows, places, C, doubt = rows[keep], places[keep], C[keep], doubt[keep]
    # The numbers themselves after the roundings (place 17), each row's after its own.
    based = [np.arange(bounds[i], bounds[i + 1]) for i, kind in enumerate(kinds) if kind.base]
    if based:
        extra = np.concatenate(based)
        rows = np.concatenate([rows, extra])
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
        places = np.concatenate([places, np.full(len(extra), 17)])[order]
        C = np.concatenate([C, X[extra] + 0.0])[order]
        doubt = np.concatenate([doubt, np.zeros(len(extra), dtype=bool)])[order]

    def check(r: np.ndarray, c: np.ndarray) -> np.ndarray:
        if len(kinds) == 1:
            return kinds[0].check(r, c)
        ok = np.zeros(len(r), dtype=bool)
        at = np.searchsorted(r, bounds).tolist()
        for i, kind in enumerate(kinds):
            if at[i] < at[i + 1]:
                s = slice(at[i], at[i + 1])
                ok[s] = kind.check(r[s] - bounds[i], c[s])
        return ok

    got = _first_passing(X, lowest, rows, places, C, doubt, check)
    return [got[bounds[i] : bounds[i + 1]] for i in range(len(kinds))]


def _examined(
    X: np.ndarray, centre: np.ndarray, radius: np.ndarray, lowest: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The roundings the search examines of ``n`` rows of ``k`` numbers ``X``, all at once.

    Of the places ``lowest + 0 .. lowest + 16`` of each row (its search's range), the places
    the search examines (some number moves: fewer places than its ``repr`` has) whose
    rounding may lie within ``radius`` of ``centre`` (else it is beyond doubt farther, and
    fails), in row-major order: ``rows``, ``places`` (offsets from ``lowest``), the roundings
    ``C`` ``(m, k)`` (``round(v, p)`` of every number) and ``doubt`` ``(m,)``, where numpy's
    rounding may not be ``round``'s.

    Two steps. A sieve over every number and place, a few whole-array operations: the
    product's nearest integer, and whether it lies farther than the radius allows (with a
    margin for the float arithmetic, so the sieve keeps every place the exact test keeps),
    whether it moves the number and whether it is near a half or past the exact range. Then
    :func:`_rounding_at` on the few places kept, as ``round`` makes them.
    """
    step = max(1, _CHUNK // (17 * max(1, X.shape[1])))
    if len(X) > step:
        parts = [
            _examined(
                X[i : i + step], centre[i : i + step], radius[i : i + step], lowest[i : i + step]
            )
            for i in range(0, len(X), step)
        ]
        offsets = range(0, len(X), step)
        return (
            np.concatenate([p[0] + i for p, i in zip(parts, offsets, strict=True)]),
            np.concatenate([p[1] for p in parts]),
            np.concatenate([p[2] for p in parts]),
            np.concatenate([p[3] for p in parts]),
        )
    # Numbers, rows, places: each number of the rows (first numbers, second numbers, ...)
    # is one contiguous block of (row, place) pairs, so that every operation is one flat loop
    # (a row's 17 places and a number's rows each as an inner loop cost numpy's iterator a
    # step per row: more than the arithmetic); the place scales broadcast over the numbers
    # (a step per number). A (row, place) pair's k numbers are gathered by ``take`` on flat
    # indices (numpy's mixed fancy indexing costs far more per call).
    n, k = X.shape
    places_n = _PLACES.shape[1]
    P = lowest[:, None] + _PLACES
    # 10.0 ** P, a row's 17 at once (rows of the table's sliding windows: lowest is within
    # -308..324, so a row's places lie within the table).
    scale = _POWER_WINDOWS[lowest + _POW_MAX]
    with np.errstate(all="ignore"):
        # Four ulps of x and of centre at least (an ulp of v is at most |v| * 2**-52, or the
        # least double): a wider slack only keeps more places, each checked exactly.
        slack = radius * (1.0 + 1e-9) + ((np.abs(X) + np.abs(centre)) * 2.0**-50 + 2.0**-1071)
        # A rounding within slack of centre is within reach of x, in units of the place: the
        # nearest integer N is no farther from y than the correctly rounded one.
        reach = (slack + np.abs(X - centre)) * (1.0 + 1e-6)
        Xw = _by_places(X)
        y = Xw * scale
        N = np.rint(y)
        d = np.abs(y - N)
        a = np.abs(y)
        far = d > _by_places(reach) * scale + a * 1e-15  # nan (past 10**308): kept
        moves = N / scale != Xw
        # Where the exact step may move N or doubt it: near a half (within the product's
        # round-off, below 2**-10 under 2**42), a large product, a place out of 0..22.
        maybe = _any_first((d >= 0.5 - 2.0**-10) | (a >= 2.0**42) | moves)
        maybe |= (P < 0) | (P > 22)
        if n:  # every place of a row with a tiny power of two
            m, _ = np.frexp(X)
            maybe[_any_column((np.abs(m) == 0.5) & (np.abs(X) < 2.0**-24) & (X != 0.0))] = True
    rows, places = np.nonzero(maybe & ~_any_first(far))
    at = (rows * places_n + places)[:, None] + np.arange(k)[None, :] * (n * places_n)
    x = X.take(rows, axis=0)
    C, unsure, near = _rounding_at(
        x,
        centre.take(rows, axis=0),
        slack.take(rows, axis=0),
        P.take(rows * places_n + places),
        y.take(at),
        N.take(at),
    )
    examine = (_any_column(x != C) | unsure) & near
    rows, places, C, unsure = rows[examine], places[examine], C[examine], unsure[examine]
    # A sure rounding equal to the row's previous one is checked once (the search skips it).
    same = np.zeros(len(rows), dtype=bool)
    if len(rows) > 1:
        same[1:] = (rows[1:] == rows[:-1]) & _all_column(C[1:] == C[:-1])
        same[1:] &= ~unsure[1:] & ~unsure[:-1]
    if same.any():
        rows, places, C, unsure = rows[~same], places[~same], C[~same], unsure[~same]
    return rows, places, C, unsure


def _rounding_at(
    x: np.ndarray,
    centre: np.ndarray,
    slack: np.ndarray,
    P: np.ndarray,
    y: np.ndarray,
    N: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``round(v, p)`` of each number of the rows ``x`` ``(m, k)`` at its row's place ``P``.

    ``y``: ``x * 10**P`` (rounded), ``N``: ``rint(y)``. Returns the roundings, where they may
    not be ``round``'s (``unsure``, per row) and whether they lie within ``slack`` of
    ``centre`` (``near``, per row).

    ``rint(x * 10**p) / 10**p`` is ``round(x, p)`` (the double nearest the correctly rounded
    decimal) where ``10**p`` is exact (``0 <= p <= 22``), the product's integer is exact (below
    ``2**53``) and not within the product's round-off of a half (a tie, decided on the exact
    product); from ``10**16`` on, the decimal has 17 digits and reads back as ``x``. A
    rounding is ``x`` itself exactly where ``x`` has at most that many decimals (Python's
    ``repr`` is the shortest), except at a power of two whose ``repr`` is inexact (below
    ``2**-24``), which is left unsure.

    Above ``2**53`` a place's unit ``10**-p`` is less than ``x``'s ulp (``x * 10**p > 2**53``
    and ``x < 2**(e+1)`` give ``ulp(x) * 10**p > 1``), so the correctly rounded decimal lies
    within half a unit of the place of ``x``, less than half an ulp, and reads back as ``x``
    wherever ``x``'s rounding interval is symmetric (``x`` not a power of two): the rounding is
    ``x`` itself there too, whatever ``p``, without the exact product (so the search's ``x``
    past its ``repr``'s places is not left unsure).
    """
    # The place and its scale for each number (the same shape as x: an operand broadcast
    # along a row's few numbers costs numpy's iterator a step per row).
    k = x.shape[1]
    Pc = np.repeat(P, k).reshape(-1, k)
    scale = np.repeat(_POWERS.take(P + _POW_MAX, mode="clip"), k).reshape(-1, k)
    with np.errstate(all="ignore"):
        N = N.copy()
        frac = y - N
        a = np.abs(y)
        m, _ = np.frexp(x)
        power_of_two = np.abs(m) == 0.5
        # From 10**16 on (long), the rounding is x itself, whatever N is; so it is above 2**53
        # (the margin covers an inexact 10**p) where x is not a power of two.
        long = ((a >= 1e16) & (Pc <= 22)) | ((a > _ABOVE_2_53) & ~power_of_two)
        long &= Pc >= 0
        # Near a half, the product's exact error decides (Dekker's product: x * 10**p is
        # y + err exactly): the correctly rounded integer is N moved by one where y + err lies
        # beyond the half; an exact half is a tie, left unsure. Elsewhere N is it. (From 2**51
        # on every product is within its round-off of a half: the long ones need no error.)
        # (a * 2**-52 is at least the product's ulp, or below the least double: then 0.5 - it
        # rounds to 0.5 as 0.5 - the ulp does.)
        halfway = (np.abs(frac) >= 0.5 - a * 2.0**-52) & ~long
        tie = np.zeros(y.shape, dtype=bool)
        if halfway.any():
            at = np.nonzero(halfway)
            f, s = frac[at], scale[at]
            err = _product_error(x[at], s, y[at])
            N[at] += (err > 0.5 - f).astype(np.float64) - (err < -0.5 - f)
            tie[at] = (err == 0.5 - f) | (err == -0.5 - f) | ~np.isfinite(err)
        rounded = N / scale
        rounded = np.where(long, x, rounded) + 0.0
        unsure = ~long & ((Pc < 0) | (Pc > 22) | (a >= 2.0**53) | tie)
        odd = power_of_two & (np.abs(x) < 2.0**-24) & (x != 0.0)
        if odd.any():
            unsure |= odd & (np.abs(rounded - x) <= np.spacing(np.abs(x)))
        near = (np.abs(rounded - centre) <= slack) | ~np.isfinite(rounded)  # (unsure) past 10**308
    return rounded, _any_column(unsure), _all_column(near)


def _any_column(b: np.ndarray) -> np.ndarray:
    """``b.any(axis=-1)`` of a boolean array with a short last axis, as ``|`` of its columns.

    numpy reduces a short axis element by element through its buffered iterator (~250,000
    instructions for iCub's sieve, against ~30,000 for the slices' ``|``).
    """
    out = b[..., 0]
    for j in range(1, b.shape[-1]):
        out = out | b[..., j]
    return out


def _any_first(b: np.ndarray) -> np.ndarray:
    """``b.any(axis=0)`` of a boolean ``(k, n, m)`` array, ``k`` short (:func:`_any_column`)."""
    out: np.ndarray = b[0]
    for j in range(1, b.shape[0]):
        out = out | b[j]
    return out


def _by_places(A: np.ndarray) -> np.ndarray:
    """``(k, n, 17)``: each number of ``A`` ``(n, k)`` repeated for the 17 places of its row."""
    n, k = A.shape
    places_n = _PLACES.shape[1]
    return np.repeat(A.T, places_n, axis=1).reshape(k, n, places_n)


def _max_column(A: np.ndarray) -> np.ndarray:
    """``A.max(axis=-1)`` of an array with a short last axis (:func:`_any_column`); nan wins."""
    out = A[..., 0]
    for j in range(1, A.shape[-1]):
        out = np.maximum(out, A[..., j])
    return out


def _all_column(b: np.ndarray) -> np.ndarray:
    """``b.all(axis=-1)`` of a boolean array with a short last axis (:func:`_any_column`)."""
    out = b[..., 0]
    for j in range(1, b.shape[-1]):
        out = out & b[..., j]
    return out


_PLACES = np.arange(17)[None, :]
# Numbers times places the sieve takes at once (120 KiB a temporary): its temporaries stay below
# glibc's mmap threshold (128 KiB), over which each is mapped afresh and its pages faulted in
# (measured alone: four operations on 1,140 numbers' places took 258 us, on 900 numbers' 35 us).
# iCub's rotations and axes fit in one chunk.
_CHUNK = 15_000


_POW_MAX = 400
_ABOVE_2_53 = 2.0**53 * (1.0 + 2.0**-40)  # above 2**53 even through an inexact 10**p
# 10.0 ** p for p in -400..400 (the same doubles: 10.0 ** p is pow's correctly rounded result
# where exact, and unsure beyond 10**22 anyway); past the range of doubles inf and 0.
_POWERS = np.array(
    [
        10.0**p if -324 < p < 309 else (math.inf if p > 0 else 0.0)
        for p in range(-_POW_MAX, _POW_MAX + 1)
    ]
)


_POWER_WINDOWS = np.lib.stride_tricks.sliding_window_view(_POWERS, _PLACES.shape[1])


def _product_error(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``a * b - p`` exactly, for ``p = a * b`` rounded (Dekker's product, Veltkamp's split).

    Exact unless a product underflows or overflows (numbers here are far from both).
    """
    ah, al = _split(a)
    bh, bl = _split(b)
    e: np.ndarray = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return e


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _first_passing(
    X: np.ndarray,
    lowest: np.ndarray,
    rows: np.ndarray,
    places: np.ndarray,
    C: np.ndarray,
    doubt: np.ndarray,
    check: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> list[list[float] | None]:
    """Per row: the first examined rounding (fewest places first) that reads back, or ``None``.

    ``X``, ``lowest``: as given to :func:`_examined`; ``rows``, ``places``, ``C``, ``doubt``:
    as it returns them; ``check(rows, C)``: whether the candidates ``C`` ``(len(rows), k)``
    read back for the rows ``rows`` (sorted). Every examined rounding is checked in one call
    (a row has one or two as a rule: one call costs less than rounds of calls). An unsure
    rounding is made by Python's ``round`` as the search makes it; one that moves no number
    is not a place the search examines.
    """
    n = len(X)
    out: list[list[float] | None] = [None] * n
    if not len(rows):
        return out
    ok = np.zeros(len(rows), dtype=bool)
    sure = np.flatnonzero(~doubt)
    ok[sure] = check(rows[sure], C[sure])
    redo = np.flatnonzero(doubt)
    if len(redo):
        # The unsure roundings, by Python's round, where they come before a row's first sure
        # pass.
        first_sure = np.full(n, np.iinfo(np.intp).max)
        passed = sure[ok[sure]]
        np.minimum.at(first_sure, rows[passed], places[passed])
        redo = redo[places[redo] < first_sure[rows[redo]]]
    if len(redo):
        at = rows[redo]
        Xl = X[at].tolist()
        redone = list(map(_search_rounding, Xl, (lowest[at] + places[redo]).tolist()))
        C = C.copy()
        C[redo] = redone
        # One that moves no number is not a place the search examines.
        moved = np.array([c != xs for c, xs in zip(redone, Xl, strict=True)], dtype=bool)
        ok[redo] = check(at, C[redo]) & moved
    hits = np.flatnonzero(ok)
    # The first passing place of each row: the first hit of each row in row-major order.
    first = hits[np.flatnonzero(np.diff(rows[hits], prepend=-1))]
    for r, c in zip(rows[first].tolist(), C[first].tolist(), strict=True):
        out[r] = c
    return out


def _search_rounding(xs: list[float], places: int) -> list[float]:
    """The search's rounding of ``xs`` to ``places`` (:func:`_shortest`), by ``round``.

    The search keeps a number whose ``repr`` has at most ``places`` decimals, and ``round``
    gives that number too: its ``repr`` lies on the grid of ``places``, so the grid's nearest
    point to the number is no farther from it, within its half-ulp interval, which is
    symmetric except at a power of two. Only there is the ``repr`` read, as the search does.
    """
    return [
        v + 0.0
        if abs(math.frexp(v)[0]) == 0.5 and places >= _first_places(v, math.inf, -(10**6))[1]
        else round(v, places) + 0.0
        for v in xs
    ]


def _lowest(top: float) -> int:
    """The search's first places for numbers whose largest magnitude is ``top`` (not zero)."""
    return -math.floor(math.log10(top))


def _lowest_all(top: np.ndarray) -> np.ndarray:
    """:func:`_lowest` of each of ``top`` (finite, not zero), as integers.

    numpy's ``log10`` and ``math``'s are each within a few ulps (below ``1e-13`` here) of the
    true logarithm, so their floors agree wherever numpy's lies farther than ``1e-9`` from an
    integer; nearer (a number at or next to a power of ten), ``math.log10`` decides, as the
    search's.
    """
    with np.errstate(divide="ignore"):
        logs = np.log10(top)
    lowest: np.ndarray = -np.floor(logs).astype(np.intp)
    near = np.flatnonzero(~(np.abs(logs - np.rint(logs)) > 1e-9))
    for i in near.tolist():
        lowest[i] = _lowest(float(top[i]))
    return lowest


_SEARCH: Any = object()  # a value the batch route leaves to the search


def rpy_numbers_all(rotations: Any) -> list[list[float] | None]:
    """The ``rpy`` of each of ``rotations`` ``(n, 3, 3)``: what :func:`_rpy` gives for each.

    The batch route (see above), in the phases of :func:`_rpy`: the computed angles, checked;
    where they miss, the exact angles near them; the computed angles' rounding within reach of
    the exact ones, or their neighbours; then the exact angles' shortest rounding.
    """
    plan = _RpyPlan(rotations)
    return plan.finish(_first_roundings([plan.rows])[0])


class _RpyPlan:
    """The batch route of :func:`rpy_numbers_all`: ``rows`` to round, then :meth:`finish`.

    Built: the computed angles (:func:`rpy_from_rotation`), checked; where they miss, the
    exact angles near them (:func:`_exact_angles`). ``rows``: the roundings of both rounding
    phases of :func:`_rpy`, made and checked together (where two rounds of calls cost more
    than the rows rounded for nothing: a row's exact roundings count only where its computed
    ones all fail). Where the computed angles miss: :func:`_shortest` of them as :func:`_rpy`
    searches it (their roundings within the exact angles' radius, then their neighbours).
    Elsewhere, and where nothing of those passes: ``_shortest(exact, ok, radius,
    x0_ok=True)``. Rows whose numbers are tiny, or whose computed angles are zero where they
    miss, are left to the search.
    """

    def __init__(self, rotations: Any) -> None:
        self.R = R = np.asarray(rotations, dtype=np.float64).reshape(-1, 3, 3) + 0.0
        n = len(R)
        self.T = T = R.reshape(n, 9)
        self.out: list[Any] = [_SEARCH] * n
        if not n:
            self.rows = _no_rows(_rotation_check(T))
            self.first: list[int] = []
            self.last_rows: list[int] = []
            self.zero: list[int] = []
            self.exact = np.zeros((0, 3))
            self.near: dict[int, list[float]] = {}
            return
        # The computed angles, and the exact ones where they miss (rows as arrays, not lists:
        # an array from a list of lists costs a type discovery per number).
        Cc, X0 = _both_angles(T)
        fits = _gives_rows(Cc, T)
        exact, found = Cc.copy(), fits.copy()  # the exact angles, where found
        missed = np.flatnonzero(~fits)
        # Per missed row, the first of the computed angles' neighbours that reads back (the
        # search's try after their roundings), checked in one table with the exact angles'.
        self.near = {}
        if len(missed):
            self.near = _exact_angles(T, X0, Cc, missed, exact, found, self.out)
        # The rows of the computed angles' rounding phase (first), then the exact angles'.
        first = missed[found[missed]]
        if len(first):
            A = np.abs(exact[first])
            doubt = _any_column((A < _TINY) & (A != 0.0)) | (_max_column(np.abs(Cc[first])) == 0.0)
            found[first[doubt]] = False  # and so out[r] stays the search's
            first = first[~doubt]
        last = np.flatnonzero(found)
        A = np.abs(exact[last])
        top = _max_column(A)
        tiny = _any_column((A < _TINY) & (A != 0.0))
        self.zero = last[top == 0.0].tolist()
        live = last[~tiny & (top != 0.0)]
        self.first = first.tolist()
        self.last_rows = live.tolist()
        self.exact = exact
        rows = np.concatenate([first, live])
        X = np.concatenate([Cc[first], exact[live]])
        centre = exact[rows]
        lowest = _lowest_all(_max_column(np.abs(X)))
        radius = _RADIUS_ULPS * np.spacing(np.abs(centre))
        self.rows = _Rows(X, centre, radius, lowest, _rotation_check(T[rows]))

    def finish(self, got: list[list[float] | None]) -> list[list[float] | None]:
        """The rows' first passing roundings ``got`` -> each rotation's ``rpy``."""
        out, first = self.out, self.first
        # The computed angles' neighbours, in the search's order, where none of their
        # roundings reads back.
        near = self.near
        for k, r in enumerate(first):
            if got[k] is None:
                got[k] = near.get(r)
        for r, c in zip(first, got[: len(first)], strict=True):
            if c is not None:
                out[r] = c
        exact = self.exact[self.last_rows].tolist()
        for r, c, e in zip(self.last_rows, got[len(first) :], exact, strict=True):
            if out[r] is _SEARCH:
                out[r] = e if c is None else c
        for r in self.zero:
            if out[r] is _SEARCH:
                out[r] = [0.0, 0.0, 0.0]
        return [_rpy(self.R[r]) if c is _SEARCH else c for r, c in enumerate(out)]


def _rotation_check(T: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``check`` for :func:`_first_passing`: candidate ``rpy`` rows against rotations ``T``."""
    return lambda rows, C: _gives_rows(C, T[rows])


def _angles_all(T: np.ndarray, idyntree: bool = True) -> list[list[float]]:
    """:func:`rpy_from_rotation` of each row-major rotation of ``T``, zeros unsigned."""
    computed, conditioned = _both_angles(T)
    angles: list[list[float]] = (computed if idyntree else conditioned).tolist()
    return angles


def _both_angles(T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`rpy_from_rotation` of the rows of ``T``, ``idyntree=True`` and ``False``.

    Each ``(n, 3)``, zeros unsigned. Its rules phase by phase for all rotations at once, each
    formula through ``math``'s functions (``map`` over lists: the same doubles as the scalar
    function) and numpy's elementwise arithmetic (which rounds as Python's): iDynTree's
    angles, kept where the pitch is within 60 degrees of level or their rotation is within
    ``RPY_TOLERANCE``; elsewhere the well-conditioned angles, which are made for every row
    (the exact angles start from them where the first miss).
    """
    n = len(T)
    if not n:
        return np.zeros((0, 3)), np.zeros((0, 3))
    col = [T[:, j].tolist() for j in range(9)]
    cos_pitch = _floats(map(math.hypot, col[7], col[8]), n)
    roll = _floats(map(math.atan2, col[7], col[8]), n)  # both rules' roll (before the flat 0)
    conditioned = _conditioned_angles(T, cos_pitch, roll) + 0.0
    out = _idyntree_angles(T, col, roll)
    s = T[:, 6]
    level = (s > -1.0) & (s < 1.0)
    kept = level & (cos_pitch >= RPY_IDYNTREE_MIN_COS)
    check = np.flatnonzero(~kept)
    if len(check):
        err = np.abs(_rotations(out[check]) - T[check]).max(axis=1)
        kept[check[err <= RPY_TOLERANCE]] = True
    computed = np.where(kept[:, None], out, conditioned) + 0.0
    return computed, conditioned


def _floats(values: Any, n: int) -> np.ndarray:
    """The ``n`` floats of the iterable ``values`` as an array, with no list in between."""
    return np.fromiter(values, np.float64, n)


def _idyntree_angles(T: np.ndarray, col: list[list[float]], roll: np.ndarray) -> np.ndarray:
    """``(n, 3)``: iDynTree's ``asRPY`` angles of the rows of ``T`` (:func:`rpy_from_rotation`).

    ``atan2(R21, R22)`` (``roll``), ``asin(-R20)``, ``atan2(R10, R00)`` where ``-1 < R20 < 1``;
    else roll 0, pitch -+pi/2 and the yaw from ``R12``, ``R11`` (the scalar rule's branches, as
    masks; that yaw made only for those rows). ``col``: the columns of ``T`` as lists.
    """
    n = len(T)
    s = T[:, 6]
    level = (s > -1.0) & (s < 1.0)
    up = s >= 1.0  # neither mask (the last branch) where R20 <= -1 (or is not a number)
    pitch = _floats(map(math.asin, np.where(level, -s, 0.0).tolist()), n)
    yaw = _floats(map(math.atan2, col[3], col[0]), n)
    locked = np.flatnonzero(~level)
    if len(locked):
        grip = np.array(list(map(math.atan2, (-T[locked, 5]).tolist(), T[locked, 4].tolist())))
        yaw[locked] = np.where(up[locked], grip, -grip)
    return np.stack(
        [
            np.where(level, roll, 0.0),
            np.where(level, pitch, np.where(up, -math.pi / 2, math.pi / 2)),
            yaw,
        ],
        axis=1,
    )


def _conditioned_angles(T: np.ndarray, cos_pitch: np.ndarray, roll: np.ndarray) -> np.ndarray:
    """``(n, 3)``: the well-conditioned angles of the rows of ``T`` (:func:`rpy_from_rotation`).

    The roll ``atan2(R21, R22)`` (given: ``roll``; 0 where ``cos_pitch < RPY_FLAT_COS``), then
    the yaw and the pitch from ``R @ Rx(roll)^T``; ``max(v, 0.0)`` as Python's (``v`` itself
    unless ``0.0 > v``: -0.0 and nan stay).
    """
    n = len(T)
    _, r01, r02, _, r11, r12, r20, r21, r22 = T.T
    flat = cos_pitch < RPY_FLAT_COS
    roll = np.where(flat, 0.0, roll)
    rl = roll.tolist()
    c = np.where(flat, 1.0, _floats(map(math.cos, rl), n))
    s = np.where(flat, 0.0, _floats(map(math.sin, rl), n))
    yaw = _floats(map(math.atan2, (r02 * s - r01 * c).tolist(), (r11 * c - r12 * s).tolist()), n)
    level = r21 * s + r22 * c
    pitch = _floats(map(math.atan2, (-r20).tolist(), np.where(level < 0.0, 0.0, level).tolist()), n)
    return np.stack([roll, pitch, yaw], axis=1)


def _rotations(A: np.ndarray) -> np.ndarray:
    """``(n, 9)``: the loader's rotations of the ``rpy`` rows of ``A`` (row-major)."""
    return rotations_from_rpy(A.ravel().tolist(), len(A)).reshape(-1, 9)


def _exact_angles(
    T: np.ndarray,
    X0: np.ndarray,
    Cc: np.ndarray,
    rows: np.ndarray,
    exact: np.ndarray,
    found: np.ndarray,
    out: list[Any],
) -> dict[int, list[float]]:
    """Fill ``exact`` and ``found`` for ``rows`` (whose computed angles miss): :func:`_exact_rpy`.

    The well-conditioned angles ``X0`` (of every row), then their neighbours, then entry by
    entry; ``out`` is ``None`` for a row that none gives (no ``rpy`` of doubles gives its
    rotation). The angles and their neighbours are one table: its first candidate is the
    angles themselves, so its first passing is the search's. Checked in the same table (one
    round of calls), the neighbours of the computed angles ``Cc``: returned, per row, the
    first that reads back, where one does.
    """
    n = len(rows)
    V = np.concatenate([_steps(X0[rows]), _steps(Cc[rows])])
    ok = _gives_table(V, np.concatenate([T[rows], T[rows]]))
    hit = ok.any(axis=1)
    at = np.flatnonzero(hit)
    first = V[at[:, None], _AXES3, _NEIGHBOURS[ok[at].argmax(axis=1)]]
    mine = at < n
    exact[rows[at[mine]]] = first[mine]
    found[rows[at[mine]]] = True
    near = dict(zip(rows[at[~mine] - n].tolist(), first[~mine].tolist(), strict=True))
    # Entry by entry, rotation by rotation (a few gimbal-locked ones on a robot: as tables,
    # their candidates' triples cost more than the search's loop, which stops at the first;
    # measured: 2.9M instructions against 1.2M for iCub's 12, its filters broadcast).
    missing = np.flatnonzero(~hit)
    for r in rows[missing[missing < n]].tolist():
        got = _exact_rpy_by_entries(T[r].tolist())
        if got is not None:
            exact[r] = got
            found[r] = True
        else:
            out[r] = None  # no rpy of doubles gives the rotation
    return near


_AXES3 = np.arange(3)


def export_memo(model: Any) -> dict[bytes, Any]:
    """One export's memo (``Writer.memo``), holding the numbers of the model's values.

    The rotations of the joints, frames, shapes and sensors, the moving joints' axes and the
    links' inertias, found together by the batch route (one rounding pass and one check for
    all of them, :func:`_first_roundings`) under the keys :func:`_rpy_of`,
    :func:`axis_numbers` and :func:`inertial_numbers` look up; the writer finds any other
    value (an inverted rotation) by the search.
    """
    # Collect: the distinct values of each kind, under their memo keys.
    rotations = [j.link1_H_link2.rotation for j in model.joints]
    rotations += [f.link_H_frame.rotation for f in model.frames]
    for shapes in (*model.visuals, *model.collisions):
        rotations += [s.link_H_geometry.rotation for s in shapes]
    for s in model.sensors:
        for name in ("link_H_sensor", "first_link_H_sensor", "second_link_H_sensor"):
            T = getattr(s, name, None)
            if isinstance(T, Transform):
                rotations.append(T.rotation)
    # A model repeats rotations (most frames and shapes are not turned): the distinct ones by
    # their bytes (a value's arrays are float64), stacked from those bytes, then keyed as
    # _rpy_of keys them (-0.0 as 0.0), each key's first rotation kept.
    distinct = dict.fromkeys(map(np.ndarray.tobytes, rotations))
    R = np.frombuffer(b"".join(distinct), dtype=np.float64).reshape(-1, 3, 3) + 0.0
    flat = R.tobytes()
    index = {b"r" + flat[i : i + 72]: i // 72 for i in range(0, len(flat), 72)}
    moving = [j for j in model.joints if not isinstance(j, FixedJoint)]
    axes = {
        b"a" + j.link1_H_link2.rotation.tobytes() + j.axis_in_link1.direction.tobytes(): j
        for j in moving
    }
    inertias = {_inertia_key(link.inertia): link.inertia for link in model.links}
    # Find: each kind's phases before the roundings, the roundings of all, each kind's rest.
    rpy = _RpyPlan(R[list(index.values())])
    axis = _AxisPlan(
        [j.link1_H_link2 for j in axes.values()], [j.axis_in_link1.direction for j in axes.values()]
    )
    inertial = _InertialPlan(list(inertias.values()))
    got_rpy, got_axis, got_inertial = _first_roundings([rpy.rows, axis.rows, inertial.rows])
    memo: dict[bytes, Any] = dict(zip(index, rpy.finish(got_rpy), strict=True))
    memo.update(zip(axes, axis.finish(got_axis), strict=True))
    memo.update(zip(inertias, inertial.finish(got_inertial), strict=True))
    return memo


_PAIRS = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


def inertial_numbers_all(
    inertias: Sequence[SpatialInertia],
) -> list[tuple[float, list[float], list[float], bool]]:
    """:func:`_search_inertial` of each of ``inertias``, found together (the batch route)."""
    plan = _InertialPlan(inertias)
    return plan.finish(_first_roundings([plan.rows])[0])


class _InertialPlan:
    """The batch route of :func:`inertial_numbers_all`: ``rows`` to round, then :meth:`finish`.

    Every number of the massive inertias (three of the centre of mass, six moments) is one
    row, checked with the loader's formula elementwise (``m * c == h``, then ``c - t == I_O``
    with ``t`` from the ``h`` the numbers give), which numpy evaluates as Python does; each
    number's radius as the search's (:func:`_radius`). The moments' ``t`` is computed from the
    value's own ``h``, which the loader gives back wherever the centre of mass is found (the
    check is ``m * c == h``), so both are found in the one pass; an inertia whose centre of
    mass is not found (its ``t`` then comes from the numbers written instead) goes through
    the search.
    """

    def __init__(self, inertias: Sequence[SpatialInertia]) -> None:
        self.inertias = inertias
        self.m = m = np.array([float(i.mass) for i in inertias], dtype=np.float64) + 0.0
        self.massive = massive = np.flatnonzero(m != 0.0)
        mk = m[massive]
        some = [inertias[k] for k in massive.tolist()]
        H = np.array([np.asarray(i.first_moment) for i in some]).reshape(-1, 3)
        I_O = np.array([np.asarray(i.rotational_inertia) for i in some]).reshape(-1, 3, 3)
        mm = np.repeat(mk, 3)
        h = H.ravel()
        with np.errstate(all="ignore"):
            x0 = h / mm
            bound = np.spacing(np.abs(h)) / mm + np.spacing(np.abs(x0))
            # The loader's (h hᵀ - (hᵀh) 1) / m, entry by entry, for the value's h.
            hh = H[:, 0] * H[:, 0] + H[:, 1] * H[:, 1] + H[:, 2] * H[:, 2]
            t = np.stack(
                [
                    (H[:, i] * H[:, i] - hh) / mk if i == j else (H[:, i] * H[:, j]) / mk
                    for i, j in _PAIRS
                ],
                axis=1,
            ).ravel()
            target = np.stack([I_O[:, i, j] for i, j in _PAIRS], axis=1).ravel()
            x1 = target + t
            bound1 = np.spacing(np.abs(target)) + np.spacing(np.abs(x1))
        # The numbers: the centres of mass, then the moments; the check's operands.
        self.x = x = np.concatenate([x0, x1])
        self.radius = radius = np.concatenate(
            [_radii(bound, mm, h, x0), _radii(bound1, t, target, x1)]
        )
        self.a = np.concatenate([mm, t])
        self.b = np.concatenate([h, target])
        self.is_com = np.arange(len(x)) < len(x0)
        self.live = live = np.flatnonzero((x != 0.0) & ~np.isnan(radius))
        X = x[live, None]
        self.rows = _Rows(
            X,
            X,
            radius[live, None],
            _lowest_all(np.abs(x[live])),
            lambda rows, C: self._ok(live[rows], C[:, 0]),
            base=True,
        )

    def _ok(self, k: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Whether the numbers ``c`` read back for the numbers ``k``, elementwise."""
        a, b = self.a[k], self.b[k]
        ok: np.ndarray = np.where(self.is_com[k], a * c == b, c - a == b)
        return ok

    def finish(
        self, got: list[list[float] | None]
    ) -> list[tuple[float, list[float], list[float], bool]]:
        """The rows' first passing roundings ``got`` -> each inertia's numbers."""
        x, live = self.x, self.live
        val = np.full(len(x), np.nan)
        # Zeros, as the search takes them; the live numbers' roundings.
        zero = np.flatnonzero(x == 0.0)
        val[zero[self._ok(zero, np.zeros(len(zero)))]] = 0.0
        at = [i for i, c in enumerate(got) if c is not None]
        val[live[at]] = [got[i][0] for i in at]  # type: ignore[index]
        # Where no rounding reads back: the number itself, then the doubles below and above.
        rest = live[np.isnan(val[live])]
        if len(rest):
            base = x[rest] + 0.0
            tries = [base, np.nextafter(base, -np.inf), np.nextafter(base, np.inf)]
            found = np.full(len(rest), np.nan)
            for t in reversed(tries):  # the first that reads back wins
                found = np.where(self._ok(rest, t), t, found)
            val[rest] = found
        vals: list[Any] = val.tolist()
        for k in np.flatnonzero(np.isnan(val)).tolist():
            vals[k] = None
        # Numbers whose radius the pinning does not bound: the search's own.
        xl = x.tolist()
        for k in np.flatnonzero((x != 0.0) & np.isnan(self.radius)).tolist():
            a, b = float(self.a[k]), float(self.b[k])
            ok = _product_is(a, b) if self.is_com[k] else _difference_is(a, b)
            vals[k] = _shortest1(xl[k], ok, None)
        # Per inertia.
        out: list[tuple[float, list[float], list[float], bool]] = []
        m = self.m.tolist()
        place = dict(zip(self.massive.tolist(), range(len(self.massive)), strict=True))
        moments = 3 * len(self.massive)
        for k, inertia in enumerate(self.inertias):
            j = place.get(k)
            if j is None:
                I_O = inertia.rotational_inertia
                zero_com = [float(I_O[i, jj]) + 0.0 for i, jj in _PAIRS]
                out.append((m[k], [0.0, 0.0, 0.0], zero_com, True))
                continue
            com = vals[3 * j : 3 * j + 3]
            if None in com:  # the moments' t comes from the numbers written: the search's
                out.append(_search_inertial(inertia))
                continue
            six = vals[moments + 6 * j : moments + 6 * j + 6]
            exact = None not in six
            six = [xl[moments + 6 * j + i] + 0.0 if c is None else c for i, c in enumerate(six)]
            out.append((m[k], com, six, exact))
        return out


def _radii(bound: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """:func:`_radius` elementwise, ``nan`` for ``None``."""
    tiny = np.zeros(bound.shape, dtype=bool)
    for v in (a, b, c):
        av = np.abs(v)
        tiny |= (av < _TINY) & (av != 0.0)
    return np.where(~(bound < np.inf) | tiny, np.nan, bound)


def axis_numbers_all(
    rests: Sequence[Transform], directions: Sequence[Any]
) -> list[list[float] | None]:
    """:func:`_search_axis` of each joint (rest transform, link1 direction), found together."""
    plan = _AxisPlan(rests, directions)
    return plan.finish(_first_roundings([plan.rows])[0])


class _AxisPlan:
    """The batch route of :func:`axis_numbers_all`: ``rows`` to round, then :meth:`finish`.

    The search's roundings (every place: an axis is normalised on reading, so no radius
    bounds its numbers, but the search refuses at once a vector whose direction is farther
    than 1e-12 from the numbers', and those beyond doubt are not examined), then its numbers
    and their neighbours; an axis where none reads back goes through the exact refinement,
    all such axes together.
    """

    def __init__(self, rests: Sequence[Transform], directions: Sequence[Any]) -> None:
        self.rests, self.directions = rests, directions
        n = len(rests)
        self.R = R = np.array([np.asarray(T.rotation) for T in rests]).reshape(n, 3, 3)
        target = np.array([np.asarray(d) for d in directions], dtype=np.float64).reshape(n, 3)
        self.target = target
        # The search's numbers, axis by axis (the same matrix product as the search's).
        X = np.array([R[k].T @ (target[k] + 0.0) for k in range(n)]).reshape(n, 3) + 0.0
        self.live = live = np.flatnonzero(_max_column(np.abs(X)) != 0.0)
        self.X = XL = X[live]
        self.check = check = _direction_check(R[live], target[live], XL)
        with np.errstate(all="ignore"):
            u0 = XL / np.sqrt((XL * XL).sum(axis=1))[:, None]

        def refuse(rows: np.ndarray, C: np.ndarray) -> np.ndarray:
            with np.errstate(all="ignore"):
                norms = np.sqrt((C * C).sum(axis=1))
                dev = _max_column(np.abs(C / norms[:, None] - u0[rows]))
            refused: np.ndarray = ~(norms > 0.0) | (dev > 1e-12 * (1.0 + 1e-6))
            return refused

        inf = np.full(XL.shape, np.inf)
        self.rows = _Rows(XL, XL, inf, _lowest_all(_max_column(np.abs(XL))), check, refuse, True)

    def finish(self, got: list[list[float] | None]) -> list[list[float] | None]:
        """The rows' first passing roundings ``got`` -> each axis's numbers."""
        live, check = self.live, self.check
        rest = [i for i, c in enumerate(got) if c is None]
        if rest:
            V = _steps(self.X[rest])
            C = V[:, _AXES3[None, :], _NEIGHBOURS[:, :]].reshape(-1, 3)
            rows = np.repeat(np.array(rest, dtype=np.intp), len(_NEIGHBOURS))
            ok = check(rows, C).reshape(len(rest), len(_NEIGHBOURS))
            hit: list[bool] = np.asarray(ok.any(axis=1)).tolist()
            first = ok.argmax(axis=1).tolist()
            for i, k in enumerate(rest):
                if hit[i]:
                    got[k] = V[i, _AXES3, _NEIGHBOURS[first[i]]].tolist()
        # Where neither reads back: the exact refinement, all such axes together.
        missing = [i for i, c in enumerate(got) if c is None]
        if missing:
            at = live[missing]
            refined = _refined_all(self.R[at], self.target[at], check, missing)
            for i, c in zip(missing, refined, strict=True):
                got[i] = c
        out: list[Any] = [_SEARCH] * len(self.rests)
        for i, k in enumerate(live.tolist()):
            out[k] = got[i]
        return [
            _search_axis(self.rests[k], self.directions[k]) if c is _SEARCH else c
            for k, c in enumerate(out)
        ]


def _refined_all(
    A: np.ndarray,
    b: np.ndarray,
    check: Callable[[np.ndarray, np.ndarray], np.ndarray],
    rows: list[int],
) -> list[list[float] | None]:
    """:func:`_refined` of axes (``unit``): rotations ``A`` ``(k, 3, 3)``, directions ``b``.

    ``rows``: each axis's row for ``check``. Each step's exact Newton correction is made axis
    by axis (in integers, as :func:`_refined`), and the step's candidates of all the axes still
    searched are checked together; an axis stops at its first passing candidate (in the
    search's order), or when its step repeats the last.
    """
    k = len(rows)
    found: list[list[float] | None] = [None] * k
    Al, bl = A.tolist(), b.tolist()
    x = [(a.T @ v).tolist() for a, v in zip(A, b, strict=True)]
    tried: list[Any] = [None] * k
    todo = list(range(k))
    for _ in range(3):
        for j in todo:
            x[j] = _newton_step(Al[j], bl[j], x[j])
        todo = [j for j in todo if x[j] != tried[j]]  # converged: the same candidates again
        if not todo:
            break
        for j in todo:
            tried[j] = x[j]
        bases = []
        for j in todo:
            nx = float(np.linalg.norm(x[j]))
            bases += [x[j], [v / nx for v in x[j]]]
        V = _steps(np.array(bases))
        C = V[:, _AXES3[None, :], _NEIGHBOURS].reshape(-1, 3)
        per = 2 * len(_NEIGHBOURS)
        ok = check(np.repeat(np.array([rows[j] for j in todo], dtype=np.intp), per), C)
        ok = ok.reshape(len(todo), per)
        hit: list[bool] = np.asarray(ok.any(axis=1)).tolist()
        first = ok.argmax(axis=1).tolist()
        for i, j in enumerate(todo):
            if hit[i]:
                found[j] = C[i * per + first[i]].tolist()
        todo = [j for i, j in enumerate(todo) if not hit[i]]
        if not todo:
            break
    return found


def _direction_check(
    R: np.ndarray, target: np.ndarray, x0: np.ndarray
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``check`` for :func:`_first_passing`: whether ``<axis xyz=c>`` reads back as ``target``.

    What the search's ``ok`` decides: a zero vector fails; a vector whose direction is farther
    than ``1e-12`` from ``x0``'s fails (the search's early refusal: here computed in numpy and
    decided in Python where numpy's figure lies within its round-off of the bound); else the
    loader's arithmetic (``robomodel.formats.urdf._joint._moving_axes``, stacked) gives the
    direction, compared bit for bit. Candidates off the loader's plain path (a norm below
    ``1e-12``, a rotation that does not keep unit length) fail here, which only the search's
    own check could pass: tests check both routes agree.
    """
    u0 = x0 / np.sqrt((x0 * x0).sum(axis=1))[:, None]
    u0l = [[v / math.hypot(*row) for v in row] for row in x0.tolist()]

    def check(rows: np.ndarray, C: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            norms = np.sqrt((C[:, None, :] @ C[:, :, None])[:, 0, 0])
            dev = _max_column(np.abs(C / norms[:, None] - u0[rows]))
            D = (R[rows] @ (C / norms[:, None])[:, :, None])[:, :, 0]
            unit = np.abs((D * D).sum(axis=1) - 1.0) <= 1e-9
        plain = (norms >= 1e-12) & (norms < np.inf) & unit
        same = _all_column(target[rows] == D)
        ok: np.ndarray = plain & (dev <= 1e-12 * (1 - 1e-6)) & same
        unsure = plain & (np.abs(dev - 1e-12) <= 1e-12 * 1e-6) & same
        for i in np.flatnonzero(unsure).tolist():
            c = C[i].tolist()
            nn = math.hypot(*c)
            ok[i] = not any(abs(v / nn - w) > 1e-12 for v, w in zip(c, u0l[rows[i]], strict=True))
        got: np.ndarray = ok & _any_column(C != 0.0)
        return got

    return check
