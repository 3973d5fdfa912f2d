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
* One numpy pass over all numbers and places (:func:`_roundings_all`) gives every rounding of
  the search's range, exactly as ``round`` gives it, the places the search examines (some
  number moves), and whether each lies within the radius (with a margin for the pass's own
  float arithmetic, so that only candidates beyond doubt are left out). Where numpy's
  rounding might not be ``round``'s (ties, places past 10**22), ``round`` makes it.
* The examined roundings are checked together, the first passing in place order winning
  (:func:`_first_passing`); then the search's short lists (the numbers' neighbouring doubles,
  in its order), all at once.
* What the batch cannot settle cheaply (a tiny number, whose pinning the radius does not
  bound) goes through the search itself.

tests/test_urdf_exact_batch.py checks, value by value, that both routes give the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import numpy as np

from robomodel.formats.urdf._exact import (
    _RADIUS_ULPS,
    _SCALE,
    _TINY,
    _difference_is,
    _exact_rpy_by_entries,
    _first_places,
    _fixed,
    _inertia_key,
    _newton_step,
    _product_is,
    _rpy,
    _search_axis,
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


def _gives_table(V: np.ndarray, idx: np.ndarray, T: np.ndarray) -> np.ndarray:
    """Whether the loader's rotation of each candidate ``rpy`` is the value's, exactly.

    ``V`` is ``(n, 3, m)``: per value and angle, ``m`` candidate numbers; ``idx`` is ``(c, 3)``:
    per candidate, which of them its roll, pitch and yaw are; ``T`` is ``(n, 9)``, the values'
    rotations (row-major). Returns ``(n, c)``. The formulas of :func:`_gives` elementwise in
    the same order (numpy's elementwise float64 products and sums round as Python's), with
    ``math``'s sine and cosine, once per number (numpy's own may differ in the last bit).
    """
    flat = V.ravel().tolist()
    S = np.array(list(map(math.sin, flat))).reshape(V.shape)
    K = np.array(list(map(math.cos, flat))).reshape(V.shape)
    sr, sp, sy = S[:, 0, idx[:, 0]], S[:, 1, idx[:, 1]], S[:, 2, idx[:, 2]]
    cr, cp, cy = K[:, 0, idx[:, 0]], K[:, 1, idx[:, 1]], K[:, 2, idx[:, 2]]
    t = [T[:, j, None] for j in range(9)]
    ok: np.ndarray = (-sp == t[6]) & (cp * sr == t[7]) & (cp * cr == t[8])
    ok &= (cy * cp == t[0]) & (sy * cp == t[3])
    ok &= (cy * sp * sr - sy * cr == t[1]) & (cy * sp * cr + sy * sr == t[2])
    ok &= (sy * sp * sr + cy * cr == t[4]) & (sy * sp * cr - cy * sr == t[5])
    return ok


def _steps(X: np.ndarray) -> np.ndarray:
    """``(n, 3, 3)``: each number of ``X`` ``(n, 3)``, the double below it and the one above.

    The order of ``_STEPS``, zeros unsigned as :func:`_step` ``+ 0.0`` gives them.
    """
    return np.stack([X, np.nextafter(X, -np.inf), np.nextafter(X, np.inf)], axis=2) + 0.0


def _roundings_all(
    X: np.ndarray, centre: np.ndarray, radius: np.ndarray, lowest: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The search's roundings of ``n`` values of ``k`` numbers ``X`` ``(n, k)``, all at once.

    For the places ``lowest + 0 .. lowest + 16`` of each value (its search's range): the
    roundings ``(n, k, 17)`` (``round(v, p)`` for every number); ``examine`` ``(n, 17)``: the
    places the search examines (some number moves: fewer places than its ``repr`` has) whose
    rounding may lie within ``radius`` of ``centre`` (else it is beyond doubt farther, and
    fails); ``unsure`` ``(n, 17)``: places where numpy's rounding may not be ``round``'s.

    ``rint(x * 10**p) / 10**p`` is ``round(x, p)`` (the double nearest the correctly rounded
    decimal) where ``10**p`` is exact (``0 <= p <= 22``), the product's integer is exact (below
    ``2**53``) and not within the product's round-off of a half (a tie, decided on the exact
    product); from ``10**16`` on, the decimal has 17 digits and reads back as ``x``. A
    rounding is ``x`` itself exactly where ``x`` has at most that many decimals (Python's
    ``repr`` is the shortest), except at a power of two whose ``repr`` is inexact (below
    ``2**-24``), which is left unsure.
    """
    P = lowest[:, None, None] + _OFFSETS
    x = X[:, :, None]
    with np.errstate(all="ignore"):
        scale = _POWERS[np.clip(P, -_POW_MAX, _POW_MAX) + _POW_MAX]
        y = x * scale
        N = np.rint(y)
        frac = y - N
        a = np.abs(y)
        # Near a half, the product's exact error decides (Dekker's product: x * 10**p is
        # y + err exactly): the correctly rounded integer is N moved by one where y + err lies
        # beyond the half; an exact half is a tie, left unsure. Elsewhere N is it.
        halfway = np.abs(frac) >= 0.5 - np.spacing(a)
        tie = np.zeros(y.shape, dtype=bool)
        if halfway.any():
            at = np.nonzero(halfway)
            f, s = frac[at], np.broadcast_to(scale, y.shape)[at]
            err = _product_error(np.broadcast_to(x, y.shape)[at], s, y[at])
            N[at] += (err > 0.5 - f).astype(np.float64) - (err < -0.5 - f)
            tie[at] = (err == 0.5 - f) | (err == -0.5 - f) | ~np.isfinite(err)
        rounded = N / scale
        long = (a >= 1e16) & (P >= 0) & (P <= 22)
        rounded = np.where(long, x, rounded) + 0.0
        unsure = ~long & ((P < 0) | (P > 22) | (a >= 2.0**53) | tie)
        m, _ = np.frexp(X)
        odd = ((np.abs(m) == 0.5) & (np.abs(X) < 2.0**-24) & (X != 0.0))[:, :, None]
        if odd.any():
            unsure |= odd & (np.abs(rounded - x) <= np.spacing(np.abs(x)))
        unsure = unsure.any(axis=1)
        slack = radius * (1.0 + 1e-9) + 4.0 * (np.spacing(np.abs(X)) + np.spacing(np.abs(centre)))
        near = np.abs(rounded - centre[:, :, None]) <= slack[:, :, None]
        near |= ~np.isfinite(rounded)  # (unsure) past 10**308
    examine = ((rounded != x).any(axis=1) | unsure) & near.all(axis=1)
    return rounded, examine, unsure


_OFFSETS = np.arange(17)[None, None, :]
_POW_MAX = 400
# 10.0 ** p for p in -400..400 (the same doubles: 10.0 ** p is pow's correctly rounded result
# where exact, and unsure beyond 10**22 anyway); past the range of doubles inf and 0.
_POWERS = np.array(
    [
        10.0**p if -324 < p < 309 else (math.inf if p > 0 else 0.0)
        for p in range(-_POW_MAX, _POW_MAX + 1)
    ]
)


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


def _rotation_check(T: np.ndarray) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``check`` for :func:`_first_passing`: candidate ``rpy`` rows against rotations ``T``."""
    return lambda rows, C: _gives_table(C[:, :, None], _ONE, T[rows])[:, 0]


def _first_passing(
    X: np.ndarray,
    lowest: np.ndarray,
    rounded: np.ndarray,
    examine: np.ndarray,
    unsure: np.ndarray,
    check: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> list[list[float] | None]:
    """Per value: the first examined rounding (fewest places first) that reads back, or ``None``.

    ``X``, ``lowest``: as given to :func:`_roundings_all`; ``rounded``, ``examine``, ``unsure``:
    as it returns them; ``check(rows, C)``: whether the candidates ``C`` ``(len(rows), k)`` read
    back for the values ``rows``. Every examined rounding is checked in one call (a value has
    one or two as a rule: one call costs less than rounds of calls). An unsure rounding is made
    by Python's ``round`` as the search makes it; one that moves no number is not a place the
    search examines.
    """
    n = len(X)
    out: list[list[float] | None] = [None] * n
    rows, places = np.nonzero(examine)  # row-major: each row's places in increasing order
    if not len(rows):
        return out
    C = rounded[rows, :, places]
    doubt = unsure[rows, places]
    ok = np.zeros(len(rows), dtype=bool)
    sure = np.flatnonzero(~doubt)
    ok[sure] = check(rows[sure], C[sure])
    # The unsure roundings, by Python's round, where they come before a row's first sure pass.
    first_sure = np.full(n, np.iinfo(np.intp).max)
    np.minimum.at(first_sure, rows[sure[ok[sure]]], places[sure[ok[sure]]])
    redo = np.flatnonzero(doubt & (places < first_sure[rows]))
    if len(redo):
        moved = np.ones(len(redo), dtype=bool)
        for k, i in enumerate(redo.tolist()):
            xs = X[rows[i]].tolist()
            C[i] = c = _search_rounding(xs, int(lowest[rows[i]] + places[i]))
            moved[k] = c != xs  # else not a place the search examines
        ok[redo] = check(rows[redo], C[redo]) & moved
    hits = np.flatnonzero(ok)
    # The first passing place of each row: the first hit of each row in row-major order.
    first_rows, first = np.unique(rows[hits], return_index=True)
    for r, i in zip(first_rows.tolist(), hits[first].tolist(), strict=True):
        out[r] = C[i].tolist()
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
_ONE = np.zeros((1, 3), dtype=np.intp)  # one candidate: the first number of each angle
_ROUNDED_THEN_NEIGHBOURS = np.vstack([np.full((1, 3), 3), _NEIGHBOURS])


def rpy_numbers_all(rotations: Any) -> list[list[float] | None]:
    """The ``rpy`` of each of ``rotations`` ``(n, 3, 3)``: what :func:`_rpy` gives for each.

    The batch route (see above), in the phases of :func:`_rpy`: the computed angles, checked;
    where they miss, the exact angles near them; the computed angles' rounding within reach of
    the exact ones, or their neighbours; then the exact angles' shortest rounding.
    """
    R = np.asarray(rotations, dtype=np.float64).reshape(-1, 3, 3) + 0.0
    n = len(R)
    T = R.reshape(n, 9)
    computed = _angles_all(T)
    out: list[Any] = [_SEARCH] * n
    if not n:
        return out
    C = np.array(computed)
    fits = _gives_table(C[:, :, None], _ONE, T)[:, 0]
    exact: dict[int, list[float]] = {r: computed[r] for r in np.flatnonzero(fits).tolist()}
    missed = np.flatnonzero(~fits).tolist()
    if missed:
        _exact_angles(T, missed, exact, out)
    _rounded_rpy_all(T, computed, missed, exact, out)
    return [_rpy(R[r]) if got is _SEARCH else got for r, got in enumerate(out)]


def _angles_all(T: np.ndarray, idyntree: bool = True) -> list[list[float]]:
    """:func:`rpy_from_rotation` of each row-major rotation of ``T``, zeros unsigned.

    Its rules phase by phase for all rotations at once, each formula through ``math``'s
    functions (``map`` over lists: the same doubles as the scalar function) and numpy's
    elementwise arithmetic (which rounds as Python's): iDynTree's angles, kept where the pitch
    is within 60 degrees of level or their rotation is within ``RPY_TOLERANCE``; elsewhere the
    well-conditioned angles.
    """
    n = len(T)
    out = np.empty((n, 3))
    todo = np.ones(n, dtype=bool)
    cos_pitch = np.array(list(map(math.hypot, T[:, 7].tolist(), T[:, 8].tolist())))
    if idyntree and n:
        out[:] = _idyntree_angles(T)
        s = T[:, 6]
        level = (s > -1.0) & (s < 1.0)
        kept = level & (cos_pitch >= RPY_IDYNTREE_MIN_COS)
        check = np.flatnonzero(~kept)
        if len(check):
            err = np.abs(_rotations(out[check]) - T[check]).max(axis=1)
            kept[check[err <= RPY_TOLERANCE]] = True
        todo = ~kept
    if todo.any():
        out[todo] = _conditioned_angles(T[todo], cos_pitch[todo])
    angles: list[list[float]] = (out + 0.0).tolist()
    return angles


def _idyntree_angles(T: np.ndarray) -> np.ndarray:
    """``(n, 3)``: iDynTree's ``asRPY`` angles of the rows of ``T`` (:func:`rpy_from_rotation`).

    ``atan2(R21, R22)``, ``asin(-R20)``, ``atan2(R10, R00)`` where ``-1 < R20 < 1``; else roll 0,
    pitch -+pi/2 and the yaw from ``R12``, ``R11`` (the scalar rule's branches, as masks).
    """
    s = T[:, 6]
    level = (s > -1.0) & (s < 1.0)
    up = s >= 1.0  # neither mask (the last branch) where R20 <= -1 (or is not a number)
    col = [T[:, j].tolist() for j in range(9)]
    roll = np.array(list(map(math.atan2, col[7], col[8])))
    pitch = np.array(list(map(math.asin, np.where(level, -s, 0.0).tolist())))
    yaw = np.array(list(map(math.atan2, col[3], col[0])))
    grip = np.array(list(map(math.atan2, (-T[:, 5]).tolist(), col[4])))
    return np.stack(
        [
            np.where(level, roll, 0.0),
            np.where(level, pitch, np.where(up, -math.pi / 2, math.pi / 2)),
            np.where(level, yaw, np.where(up, grip, -grip)),
        ],
        axis=1,
    )


def _conditioned_angles(T: np.ndarray, cos_pitch: np.ndarray) -> np.ndarray:
    """``(n, 3)``: the well-conditioned angles of the rows of ``T`` (:func:`rpy_from_rotation`).

    The roll ``atan2(R21, R22)`` (0 where ``cos_pitch < RPY_FLAT_COS``), then the yaw and the
    pitch from ``R @ Rx(roll)^T``; ``max(v, 0.0)`` as Python's (``v`` itself unless ``0.0 > v``:
    -0.0 and nan stay).
    """
    _, r01, r02, _, r11, r12, r20, r21, r22 = T.T
    flat = cos_pitch < RPY_FLAT_COS
    roll = np.array(list(map(math.atan2, r21.tolist(), r22.tolist())))
    roll = np.where(flat, 0.0, roll)
    rl = roll.tolist()
    c = np.where(flat, 1.0, np.array(list(map(math.cos, rl))))
    s = np.where(flat, 0.0, np.array(list(map(math.sin, rl))))
    yaw = list(map(math.atan2, (r02 * s - r01 * c).tolist(), (r11 * c - r12 * s).tolist()))
    level = r21 * s + r22 * c
    pitch = list(map(math.atan2, (-r20).tolist(), np.where(level < 0.0, 0.0, level).tolist()))
    return np.stack([roll, np.array(pitch), np.array(yaw)], axis=1)


def _rotations(A: np.ndarray) -> np.ndarray:
    """``(n, 9)``: the loader's rotations of the ``rpy`` rows of ``A`` (row-major)."""
    return rotations_from_rpy(A.ravel().tolist(), len(A)).reshape(-1, 9)


def _exact_angles(T: np.ndarray, rows: list[int], exact: dict[int, Any], out: list[Any]) -> None:
    """Fill ``exact`` for ``rows`` (whose computed angles miss): what :func:`_exact_rpy` finds.

    The well-conditioned angles, then their neighbours, then entry by entry; ``out`` is
    ``None`` for a row that none gives (no ``rpy`` of doubles gives its rotation).
    """
    X0 = np.array(_angles_all(T[rows], idyntree=False))
    # The well-conditioned angles first (they read back for most rotations), then their
    # neighbours, whose first candidate is those angles again: the same first passing.
    hit0 = _gives_table(X0[:, :, None], _ONE, T[rows])[:, 0]
    for k in np.flatnonzero(hit0).tolist():
        exact[rows[k]] = X0[k].tolist()
    left = np.flatnonzero(~hit0)
    if not len(left):
        return
    rows = [rows[k] for k in left.tolist()]
    V = _steps(X0[left])
    ok = _gives_table(V, _NEIGHBOURS, T[rows])
    hit: list[bool] = np.asarray(ok.any(axis=1)).tolist()
    first = ok.argmax(axis=1).tolist()
    for k, r in enumerate(rows):
        if hit[k]:
            exact[r] = V[k, _AXES3, _NEIGHBOURS[first[k]]].tolist()
        else:
            found = _exact_rpy_by_entries(T[r].tolist())
            if found is not None:
                exact[r] = found
            else:
                out[r] = None  # no rpy of doubles gives the rotation


_AXES3 = np.arange(3)


def _rounded_rpy_all(
    T: np.ndarray,
    computed: list[list[float]],
    missed: list[int],
    exact: dict[int, Any],
    out: list[Any],
) -> None:
    """The two rounding phases of :func:`_rpy` for every row of ``exact``, in one pass.

    Where the computed angles miss: :func:`_shortest` of them as :func:`_rpy` searches it
    (their roundings within the exact angles' radius, then their neighbours). Elsewhere, and
    where nothing of those passes: ``_shortest(exact, ok, radius, x0_ok=True)``. The roundings
    of both phases are made and checked together (one call each, where two rounds of calls
    cost more than the rows rounded for nothing: a row's exact roundings count only where its
    computed ones all fail). Rows whose numbers are tiny, or whose computed angles are zero
    where they miss, are left to the search.
    """
    first = [r for r in missed if r in exact]  # the computed angles' rounding phase
    if first:
        Cc = np.array([computed[r] for r in first])
        A = np.abs(np.array([exact[r] for r in first]))
        doubt = ((A < _TINY) & (A != 0.0)).any(axis=1) | (np.abs(Cc).max(axis=1) == 0.0)
        for k in np.flatnonzero(doubt).tolist():
            del exact[first[k]]  # and so out[r] stays the search's
        first = [r for r, d in zip(first, doubt.tolist(), strict=True) if not d]
    last = list(exact)  # the exact angles' rounding phase (where the first finds nothing)
    E = np.array([exact[r] for r in first + last]).reshape(-1, 3)
    A = np.abs(E)
    top = A.max(axis=1, initial=0.0)
    tiny = ((A < _TINY) & (A != 0.0)).any(axis=1)
    zero = [r for r, z in zip(last, (top[len(first) :] == 0.0).tolist(), strict=True) if z]
    live = np.flatnonzero(~tiny & (top != 0.0))
    live = live[live >= len(first)]
    rows = first + [last[k - len(first)] for k in live.tolist()]
    X = np.vstack([np.array([computed[r] for r in first]).reshape(-1, 3), E[live]])
    centre = np.vstack([E[: len(first)], E[live]])
    got: list[list[float] | None] = []
    if rows:
        lowest = _lowest_all(np.abs(X).max(axis=1))
        found = _roundings_all(X, centre, _RADIUS_ULPS * np.spacing(np.abs(centre)), lowest)
        got = _first_passing(X, lowest, *found, _rotation_check(T[rows]))
    # The computed angles' neighbours, in the search's order, where none of their roundings
    # reads back.
    rest = [k for k in range(len(first)) if got[k] is None]
    if rest:
        V = _steps(X[rest])
        ok = _gives_table(V, _NEIGHBOURS, T[[first[k] for k in rest]])
        hit: list[bool] = np.asarray(ok.any(axis=1)).tolist()
        pick = ok.argmax(axis=1).tolist()
        for i, k in enumerate(rest):
            if hit[i]:
                got[k] = V[i, _AXES3, _NEIGHBOURS[pick[i]]].tolist()
    for r, c in zip(first, got[: len(first)], strict=True):
        if c is not None:
            out[r] = c
    for r, c in zip(rows[len(first) :], got[len(first) :], strict=True):
        if out[r] is _SEARCH:
            out[r] = exact[r] if c is None else c
    for r in zero:
        if out[r] is _SEARCH:
            out[r] = [0.0, 0.0, 0.0]


def export_memo(model: Any) -> dict[bytes, Any]:
    """One export's memo (``Writer.memo``), holding the numbers of the model's values.

    The rotations of the joints, frames, shapes and sensors and the links' inertias, found
    together by the batch route (:func:`rpy_numbers_all`, :func:`inertial_numbers_all`) under
    the keys :func:`_rpy_of` and :func:`inertial_numbers` look up; the writer finds any other
    value (an inverted rotation) by the search.
    """
    rotations = [j.link1_H_link2.rotation for j in model.joints]
    rotations += [f.link_H_frame.rotation for f in model.frames]
    for shapes in (*model.visuals, *model.collisions):
        rotations += [s.link_H_geometry.rotation for s in shapes]
    for s in model.sensors:
        for name in ("link_H_sensor", "first_link_H_sensor", "second_link_H_sensor"):
            T = getattr(s, name, None)
            if isinstance(T, Transform):
                rotations.append(T.rotation)
    memo: dict[bytes, Any] = {}
    if rotations:
        # A model repeats rotations (most frames and shapes are not turned): the distinct
        # ones by their bytes (a value's arrays are float64), stacked from those bytes, then
        # keyed as _rpy_of keys them (-0.0 as 0.0), each key's first rotation kept.
        distinct = dict.fromkeys(map(np.ndarray.tobytes, rotations))
        R = np.frombuffer(b"".join(distinct), dtype=np.float64).reshape(-1, 3, 3) + 0.0
        index = {b"r" + r.tobytes(): i for i, r in enumerate(R)}
        memo.update(zip(index, rpy_numbers_all(R[list(index.values())]), strict=True))
    moving = [j for j in model.joints if not isinstance(j, FixedJoint)]
    axes = {
        b"a" + j.link1_H_link2.rotation.tobytes() + j.axis_in_link1.direction.tobytes(): j
        for j in moving
    }
    found_axes = axis_numbers_all(
        [j.link1_H_link2 for j in axes.values()], [j.axis_in_link1.direction for j in axes.values()]
    )
    memo.update(zip(axes, found_axes, strict=True))
    inertias = {_inertia_key(link.inertia): link.inertia for link in model.links}
    memo.update(zip(inertias, inertial_numbers_all(list(inertias.values())), strict=True))
    return memo


def _shortest1_all(
    x0: np.ndarray, radius: np.ndarray, ok: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> list[float | None]:
    """:func:`_shortest1` of each number of ``x0`` (the batch route), ``_SEARCH`` where in doubt.

    ``radius``: each number's, ``nan`` for none (those are left to the search). ``ok(rows,
    c)``: whether the numbers ``c`` read back for the numbers ``rows``, elementwise.
    """
    n = len(x0)
    out: list[Any] = [_SEARCH] * n
    live = np.flatnonzero((x0 != 0.0) & ~np.isnan(radius))
    zero = np.flatnonzero(x0 == 0.0)
    if len(zero):
        good = ok(zero, np.zeros(len(zero)))
        for k, g in zip(zero.tolist(), good.tolist(), strict=True):
            out[k] = 0.0 if g else None
    if not len(live):
        return out
    X = x0[live, None]
    lowest = _lowest_all(np.abs(x0[live]))
    rounded, examine, unsure = _roundings_all(X, X, radius[live, None], lowest)
    firsts = _first_passing(
        X, lowest, rounded, examine, unsure, lambda rows, c: ok(live[rows], c[:, 0])
    )
    got: list[Any] = [None if c is None else c[0] for c in firsts]
    # Where no rounding reads back: the number itself, then the doubles below and above it.
    rest = np.array([i for i, g in enumerate(got) if g is None], dtype=np.intp)
    if len(rest):
        rows = live[rest]
        base = x0[rows] + 0.0
        tries = [base, np.nextafter(base, -np.inf), np.nextafter(base, np.inf)]
        found = np.full(len(rest), np.nan)
        for t in reversed(tries):  # the first that reads back wins
            found = np.where(ok(rows, t), t, found)
        for i, v in zip(rest.tolist(), found.tolist(), strict=True):
            got[i] = None if math.isnan(v) else v
    for i, k in enumerate(live.tolist()):
        out[k] = got[i]
    return out


_PAIRS = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


def inertial_numbers_all(
    inertias: Sequence[SpatialInertia],
) -> list[tuple[float, list[float], list[float], bool]]:
    """:func:`_search_inertial` of each of ``inertias``, found together (the batch route).

    The loader's formula elementwise (``m * c == h``, then ``c - t == I_O`` with ``t`` from
    the ``h`` the numbers give), which numpy evaluates as Python does; each number's radius as
    the search's (:func:`_radius`).
    """
    n = len(inertias)
    if not n:
        return []
    m = np.array([float(i.mass) for i in inertias]) + 0.0
    H = np.array([np.asarray(i.first_moment) for i in inertias]).reshape(n, 3)
    I_O = np.array([np.asarray(i.rotational_inertia) for i in inertias]).reshape(n, 3, 3)
    massive = m != 0.0
    mm = np.repeat(m, 3)
    h = H.ravel()
    with np.errstate(all="ignore"):
        x0 = np.where(np.repeat(massive, 3), h / np.where(mm == 0.0, 1.0, mm), 0.0)
        bound = np.spacing(np.abs(h)) / mm + np.spacing(np.abs(x0))
    radius = _radii(bound, mm, h, x0)
    com = _shortest1_all(x0, radius, lambda rows, c: mm[rows] * c == h[rows])
    x0l, mml, hl, radl = x0.tolist(), mm.tolist(), h.tolist(), radius.tolist()
    com = [
        _shortest1(x0l[k], _product_is(mml[k], hl[k]), _radius1(radl[k])) if c is _SEARCH else c
        for k, c in enumerate(com)
    ]
    exact_com = [None not in com[3 * k : 3 * k + 3] for k in range(n)]
    C = np.array([x0l[k] + 0.0 if c is None else c for k, c in enumerate(com)]).reshape(n, 3)
    # The loader's h from the numbers written and its (h hᵀ - (hᵀh) 1) / m, entry by entry.
    with np.errstate(all="ignore"):
        h2 = m[:, None] * C
        hh = h2[:, 0] * h2[:, 0] + h2[:, 1] * h2[:, 1] + h2[:, 2] * h2[:, 2]
        safe = np.where(massive, m, 1.0)
        t = np.stack(
            [
                (h2[:, i] * h2[:, i] - hh) / safe if i == j else (h2[:, i] * h2[:, j]) / safe
                for i, j in _PAIRS
            ],
            axis=1,
        ).ravel()
        target = np.stack([I_O[:, i, j] for i, j in _PAIRS], axis=1).ravel()
        x1 = target + t
        bound1 = np.spacing(np.abs(target)) + np.spacing(np.abs(x1))
    radius1 = _radii(bound1, t, target, x1)
    six = _shortest1_all(x1, radius1, lambda rows, c: c - t[rows] == target[rows])
    x1l, tl, targetl, rad1l = x1.tolist(), t.tolist(), target.tolist(), radius1.tolist()
    six = [
        _shortest1(x1l[k], _difference_is(tl[k], targetl[k]), _radius1(rad1l[k]))
        if c is _SEARCH
        else c
        for k, c in enumerate(six)
    ]
    exact_six = [None not in six[6 * k : 6 * k + 6] for k in range(n)]
    S = [x1l[k] + 0.0 if c is None else c for k, c in enumerate(six)]
    out = []
    for k in range(n):
        if not massive[k]:
            zero = [float(I_O[k, i, j]) + 0.0 for i, j in _PAIRS]
            out.append((float(m[k]), [0.0, 0.0, 0.0], zero, True))
        else:
            out.append(
                (
                    float(m[k]),
                    C[k].tolist(),
                    S[6 * k : 6 * k + 6],
                    exact_com[k] and exact_six[k],
                )
            )
    return out


def _radii(bound: np.ndarray, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """:func:`_radius` elementwise, ``nan`` for ``None``."""
    tiny = np.zeros(bound.shape, dtype=bool)
    for v in (a, b, c):
        av = np.abs(v)
        tiny |= (av < _TINY) & (av != 0.0)
    return np.where(~(bound < np.inf) | tiny, np.nan, bound)


def _radius1(r: float) -> float | None:
    return None if math.isnan(r) else float(r)


def axis_numbers_all(
    rests: Sequence[Transform], directions: Sequence[Any]
) -> list[list[float] | None]:
    """:func:`_search_axis` of each joint (rest transform, link1 direction), found together.

    The batch route for the search's roundings (every place: an axis is normalised on reading,
    so no radius bounds its numbers) and then its numbers and their neighbours; an axis where
    none reads back goes through the search (its exact refinement).
    """
    n = len(rests)
    if not n:
        return []
    R = np.array([np.asarray(T.rotation) for T in rests]).reshape(n, 3, 3)
    target = np.array([np.asarray(d) for d in directions], dtype=np.float64).reshape(n, 3)
    # The search's numbers, axis by axis (the same matrix product as the search's).
    X = np.array([R[k].T @ (target[k] + 0.0) for k in range(n)]).reshape(n, 3) + 0.0
    out: list[Any] = [_SEARCH] * n
    top = np.abs(X).max(axis=1)
    live = np.flatnonzero(top != 0.0)
    if len(live):
        check = _direction_check(R[live], target[live], X[live])
        lowest = _lowest_all(top[live])
        inf = np.full((len(live), 3), np.inf)
        rounded, examine, unsure = _roundings_all(X[live], X[live], inf, lowest)
        # The search refuses at once a vector whose direction is farther than 1e-12 from the
        # numbers' (the roundings to few places): those beyond doubt are not examined.
        with np.errstate(all="ignore"):
            norms = np.sqrt((rounded * rounded).sum(axis=1))
            u0 = X[live] / np.sqrt((X[live] * X[live]).sum(axis=1))[:, None]
            dev = np.abs(rounded / norms[:, None, :] - u0[:, :, None]).max(axis=1)
        examine &= (norms > 0.0) & ~(dev > 1e-12 * (1.0 + 1e-6))
        got = _first_passing(X[live], lowest, rounded, examine, unsure, check)
        rest = [i for i, c in enumerate(got) if c is None]
        if rest:
            V = _steps(X[live[rest]])
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
            refined = _refined_all(R[at], target[at], check, missing)
            for i, c in zip(missing, refined, strict=True):
                got[i] = c
        for i, k in enumerate(live.tolist()):
            out[k] = got[i]
    return [_search_axis(rests[k], directions[k]) if c is _SEARCH else c for k, c in enumerate(out)]


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
    Ai = [[[_fixed(v) for v in r] for r in a] for a in A.tolist()]
    bi = [[_fixed(v) << _SCALE for v in row] for row in b.tolist()]
    x = [(a.T @ v).tolist() for a, v in zip(A, b, strict=True)]
    tried: list[Any] = [None] * k
    todo = list(range(k))
    for _ in range(3):
        for j in todo:
            x[j] = _newton_step(Ai[j], bi[j], x[j])
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
            dev = np.abs(C / norms[:, None] - u0[rows]).max(axis=1)
            D = (R[rows] @ (C / norms[:, None])[:, :, None])[:, :, 0]
            unit = np.abs((D * D).sum(axis=1) - 1.0) <= 1e-9
        plain = (norms >= 1e-12) & (norms < np.inf) & unit
        ok: np.ndarray = plain & (dev <= 1e-12 * (1 - 1e-6)) & (target[rows] == D).all(axis=1)
        unsure = plain & (np.abs(dev - 1e-12) <= 1e-12 * 1e-6) & (target[rows] == D).all(axis=1)
        for i in np.flatnonzero(unsure).tolist():
            c = C[i].tolist()
            nn = math.hypot(*c)
            ok[i] = not any(abs(v / nn - w) > 1e-12 for v, w in zip(c, u0l[rows[i]], strict=True))
        return ok & C.any(axis=1)

    return check
