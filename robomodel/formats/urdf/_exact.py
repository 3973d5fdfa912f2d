"""The numbers the exporter writes for a value: a function of the value alone.

Export must be a function of the value: two models that are ``==`` (one loaded, one unpickled,
deep-copied or read back from JSON) must give the same text. The numbers a value was read from
stay with the loader (:mod:`~robomodel.formats.urdf._records`), never in the values: equal
values can come from different texts (``xyz="-0 0 0"`` and ``xyz="0 0 0"``, a massless link's
centre of mass), and a loaded model holds the same plain values as one built in code.

Computing the text from the matrices alone loses an ulp here and there (``rpy`` from a rotation,
a centre of mass from a first moment), which would break ``loads(dumps(m)) == m``. So each
function here finds numbers that the loader turns back into the very same doubles, with the
fewest decimals: the numbers computed (an ``rpy`` by the well-conditioned rule of
:func:`~robomodel.model.spatial.rpy_from_rotation`) and, where they miss, a bounded correction
of an ulp or a few (the neighbouring doubles, then angle by angle from the matrix entries);
then those numbers rounded to 1, 2, ... 17 digits, the first rounding that still reads back
winning (so a document's ``0.1`` comes back as ``0.1``). The rounding is not a search over
every number of digits: a number is pinned within a few ulps by the entries it gives (or, for
an inertia, by the loader's formula), and :func:`_first_places` reads from the number's
``repr`` which roundings stay that close, skipping the others unexamined (tests check that the
full search finds the same numbers). Every check uses the loader's own arithmetic.

An export does not search value by value: its ``export_memo`` finds the numbers of all the
model's rotations, axes and inertias together, by the batch route of
:mod:`~robomodel.formats.urdf._exact_batch`
(whole-array roundings, the few candidates that can pass checked at once), which gives the
search's very numbers and leaves to the search only the values where a candidate is in doubt.
They go into the export's own memo (``Writer.memo``), where the functions below find them;
nothing is kept across exports (no process-wide cache). When no numbers reproduce the value (a
rotation no ``rpy`` of doubles gives, an axis a hair off a coordinate axis, an inertia the
parallel-axis formula cannot hit), the functions say so, and the writers add the exact value in
a robomodel-namespaced attribute beside the computed numbers (``docs/urdf.md``, "Round
trips"), which robomodel's loader prefers and other tools ignore.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from itertools import product, repeat
from typing import Any

import numpy as np

from robomodel.model.spatial import (
    Axis,
    SpatialInertia,
    Transform,
    rotation_from_rpy,
    rpy_from_rotation,
)

__all__ = [
    "axis_numbers",
    "computed_rpy",
    "inertial_numbers",
    "inverse_rpy",
    "inverse_xyz",
    "origin_numbers",
]

Vec3 = tuple[float, float, float]
_STEPS = (0, -1, 1)
_RADIUS_ULPS = 16
"""How far (in ulps) an angle of an exact ``rpy`` may move and still give the same rotation.

Each angle is pinned to within about 2 ulps by two entries it scales (the roll by
``R21 = cos p sin r`` and ``R22 = cos p cos r``, the yaw by ``R10``/``R00``, the pitch by
``R20 = -sin p`` and the size of ``cos p`` in those entries). Rounding a number to fewer places
moves it further than this only where no shorter number can work, so those places are skipped
without computing them. Entries near the underflow threshold lose that pinning: see
:data:`_TINY`.
"""
_TINY = 1e-250  # below this (and not zero) a number is searched without the pinning argument


# ---------------------------------------------------------------------- shortest decimals
def _first_places(x: float, radius: float, lowest: int) -> tuple[int, int]:
    """Return ``(first, stable)`` decimal places for rounding ``x`` (``round(x, places)``).

    ``stable``: from these places on, rounding gives ``x`` itself (its ``repr`` has that many
    decimals). ``first`` (at least ``lowest``): the fewest places at which the rounded number
    can be within ``radius`` of ``x``; fewer places move it further, so none of them can give a
    number that ``radius`` allows. The distance to the grid of each number of places is read
    from the exact digits of ``repr`` (within half an ulp of ``x``), in integers.
    """
    if x == 0.0:
        return lowest, lowest
    # repr's digits (the shortest that read back, without trailing zeros) and exponent:
    # |x| == digits * 10**exp.
    text = repr(x)
    whole, _, frac = text.partition(".")
    if frac != "0" and "e" not in text:
        # The usual form ("-1.5707963267948961"): repr never ends a fraction with a zero.
        exp = -len(frac)
        digit_text = (whole + frac).lstrip("-")
    else:
        mant, _, exp_text = text.partition("e")
        whole, _, frac = mant.partition(".")
        if frac == "0":
            frac = ""
        text = (whole + frac).lstrip("-").lstrip("0")
        digit_text = text.rstrip("0")
        exp = (int(exp_text) if exp_text else 0) - len(frac) + len(text) - len(digit_text)
    stable = -exp
    if stable <= lowest or not radius < math.inf or exp < -300:
        return lowest, max(stable, lowest)
    # The largest distance, in units of the last digit, that radius allows (half an ulp
    # added for repr's rounding, and a margin for this float arithmetic).
    cap = (radius + math.ulp(x)) * 1.0000001 * 10.0**-exp
    if cap < 1.0:
        return stable, stable
    digits = int(digit_text)
    # The distance to the grid of 10**-places grows as places fall (each grid holds the finer
    # ones' points), so the most digits dropped within cap are counted from one up: a radius
    # of a few ulps allows one or two.
    within, most = 0, stable - lowest
    while within < most:
        k = within + 1
        unit = _POW10[k] if k < len(_POW10) else 10**k
        rem = digits % unit
        if min(rem, unit - rem) > cap:
            break
        within = k
    return stable - within, stable


_POW10 = [10**k for k in range(40)]


def _shortest(
    x0: Sequence[float],
    ok: Callable[[list[float]], bool],
    radius: Sequence[float] | None = None,
    x0_ok: bool = False,
) -> list[float] | None:
    """Return the first of ``x0`` rounded to 1..17 digits, or a neighbour, that ``ok`` accepts.

    The digits count from the largest number's leading digit, so all numbers are rounded to
    the same decimal places. ``radius[i]``: no number within ``ok``'s reach lies farther than
    this from ``x0[i]``; places whose rounding moves a number further are skipped unexamined
    (``None``: every place is examined). Places at which every number rounds to itself give
    ``x0``, examined once (not at all when ``x0_ok`` says ``ok`` accepts it). The neighbours,
    examined when no rounding is accepted: every number moved by at most one double.
    """
    for cand, known in _shortest_candidates(x0, radius, x0_ok):
        if known or ok(cand):
            return cand
    return None


def _shortest_candidates(
    x0: Sequence[float], radius: Sequence[float] | None = None, x0_ok: bool = False
) -> Iterator[tuple[list[float], bool]]:
    """The candidates of :func:`_shortest` in its order, each with whether it is known to pass.

    Known: ``x0`` (or zeros) when ``x0_ok``, accepted without calling ``ok``.
    """
    top = max(map(abs, x0), default=0.0)
    if top == 0.0:
        yield [0.0] * len(x0), x0_ok
        return
    if radius is not None and _short(x0, radius):
        yield [v + 0.0 for v in x0], x0_ok
    lead = math.floor(math.log10(top))
    lowest, highest = -lead, 16 - lead
    rad = repeat(math.inf) if radius is None else radius
    places_of = list(map(_first_places, x0, rad, repeat(lowest, len(x0))))
    first = max([p for p, _ in places_of])
    stables = [s for _, s in places_of]
    stable = max(stables)
    previous: list[float] | None = None
    for places in range(first, min(highest, stable - 1) + 1):
        cand = [
            v + 0.0 if places >= s else round(v, places) + 0.0
            for v, s in zip(x0, stables, strict=True)
        ]
        if cand != previous:
            yield cand, False
        previous = cand
    base = [float(v) + 0.0 for v in x0]
    yield base, x0_ok
    # Every number moved by at most one double, in the order of product(_STEPS, ...).
    unmoved = tuple(base)
    for moved in product(*([_step(v, s) for s in _STEPS] for v in base)):
        if moved != unmoved:
            yield list(moved), False


def _short(x0: Sequence[float], radius: Sequence[float]) -> bool:
    """Whether rounding ``x0`` to fewer places moves every number out of its radius.

    True when each number has at most 14 significant digits (a ``repr`` of at most 15
    characters, no exponent below -99) and a radius of at most 16 ulps: then the largest
    distance allowed is under 0.4 units of its last digit (``cap`` in :func:`_first_places`),
    and ``x0`` is the first rounding :func:`_shortest` can accept. Most numbers are read from
    a document, and this saves the search of their places.
    """
    for v, r in zip(x0, radius, strict=True):
        text = repr(v)
        if len(text) > 15 or ("e-" in text and len(text.rpartition("e-")[2]) > 2):
            return False
        if not r <= _RADIUS_ULPS * math.ulp(v) or 0.0 < abs(v) < _TINY:
            return False
    return True


def _step(v: float, s: int) -> float:
    if s == 0:
        return v
    return math.nextafter(v, math.inf if s > 0 else -math.inf)


# ---------------------------------------------------------------------- rpy
def _rotation(rpy: Sequence[float]) -> list[float]:
    """The loader's rotation of ``rpy``, row-major (``_origin`` evaluates the same formulas)."""
    r, p, y = rpy
    if r == 0.0 and p == 0.0 and y == 0.0:
        return [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    flat: list[float] = rotation_from_rpy(r, p, y).ravel().tolist()
    return flat


def _gives(r: float, p: float, y: float, t: list[float]) -> bool:
    """Whether the loader's rotation of ``(r, p, y)`` is ``t`` (row-major) bit for bit.

    The formulas of :func:`robomodel.model.spatial.rotation_from_rpy` in the same operand
    order, entry by entry, stopping at the first entry that differs: most candidates fail at
    the pitch's entry, after one sine. (``rpy="0 0 0"``, which the loader reads as the exact
    identity, gives the identity here too.)
    """
    sp = math.sin(p)
    if -sp != t[6]:
        return False
    cp = math.cos(p)
    sr, cr = math.sin(r), math.cos(r)
    if cp * sr != t[7] or cp * cr != t[8]:
        return False
    sy, cy = math.sin(y), math.cos(y)
    return (
        cy * cp == t[0]
        and sy * cp == t[3]
        and cy * sp * sr - sy * cr == t[1]
        and cy * sp * cr + sy * sr == t[2]
        and sy * sp * sr + cy * cr == t[4]
        and sy * sp * cr - cy * sr == t[5]
    )


_WIDTH = 6  # doubles tried on either side of each computed angle


def _rpy_of(R: np.ndarray, memo: dict[bytes, Any] | None) -> list[float] | None:
    """:func:`_rpy`, through one export's memo (``Writer.memo``): a model repeats rotations."""
    if memo is None:
        return _rpy(R)
    key = b"r" + (np.asarray(R) + 0.0).tobytes()  # a plain view: no wrapping of the sum
    if key not in memo:
        memo[key] = _rpy(R)
    got: list[float] | None = memo[key]
    return got


def _rpy(R: np.ndarray) -> list[float] | None:
    """The shortest ``rpy`` whose loader rotation is ``R`` exactly, ``None`` when none is found.

    First an exact ``rpy`` near the computed angles (:func:`_exact_rpy`), then the fewest
    decimals: the computed angles (:func:`rpy_from_rotation`) rounded to the same places, from
    few to many, or moved by a double each, until the rotation is ``R``; where none is, the
    exact angles so rounded (themselves at worst).
    """
    R = np.asarray(R) + 0.0  # -0.0 and 0.0 are equal values: not told apart (atan2 would)
    target = R.ravel().tolist()
    computed = [a + 0.0 for a in rpy_from_rotation(R)]
    exact = _exact_rpy(R, target, computed)
    if exact is None:
        return None
    r, p, y = exact
    if min(abs(r) or 1.0, abs(p) or 1.0, abs(y) or 1.0) < _TINY:
        # An angle near underflow: the entries it gives (products with cos p >= 6e-17, as a
        # double is never nearer pi/2) may lose their precision, and the pinning with them.
        radius = None
    else:
        radius = [_RADIUS_ULPS * math.ulp(v) for v in exact]

    def ok(c: list[float]) -> bool:
        return _gives(c[0], c[1], c[2], target)

    if computed != exact:
        # Every exact rpy lies within the radius of the exact angles, so within the radius
        # and their distance of the computed ones.
        near = (
            None
            if radius is None
            else [a + abs(b - c) for a, b, c in zip(radius, computed, exact, strict=True)]
        )
        found = _shortest(computed, ok, near)
        if found is not None:
            return found
    found = _shortest(exact, ok, radius, x0_ok=True)
    assert found is not None  # x0_ok: the exact angles at worst
    return found


def computed_rpy(R: np.ndarray) -> list[float]:
    """The angles of ``R`` by :func:`rpy_from_rotation`, zeros unsigned (no exact ``rpy``)."""
    return [a + 0.0 for a in rpy_from_rotation(R + 0.0)]  # atan2 tells -0.0 from 0.0


def _exact_rpy(R: np.ndarray, target: list[float], computed: list[float]) -> list[float] | None:
    """An ``rpy`` whose loader rotation is ``target`` bit for bit, near the computed angles.

    The ``computed`` angles (:func:`rpy_from_rotation`), the well-conditioned angles
    (``idyntree=False``, within an ulp or so of the angles a rotation was computed from), those
    moved by one double each, then entry by entry.
    """
    if _gives(computed[0], computed[1], computed[2], target):
        return computed
    x0 = [a + 0.0 for a in rpy_from_rotation(R, idyntree=False)]
    if x0 != computed and _gives(x0[0], x0[1], x0[2], target):
        return x0
    # Each angle and the doubles on either side (in _STEPS order), pitches that miss R20 out.
    r_steps, p_steps, y_steps = ([_step(v, s) + 0.0 for s in _STEPS] for v in x0)
    p_fits = [-math.sin(p) == target[6] for p in p_steps]
    for r in r_steps:
        for p, fits in zip(p_steps, p_fits, strict=True):
            if fits:
                for y in y_steps:
                    if _gives(r, p, y, target):
                        return [r, p, y]
    return _exact_rpy_by_entries(target)


def _exact_rpy_by_entries(target: list[float]) -> list[float] | None:
    """The last phase of :func:`_exact_rpy`: each angle from the entries that pin it."""
    # Entry by entry: R20 = -sin(p) fixes the pitch, (R21, R22) = cos(p) (sin r, cos r) the
    # roll, (R10, R00) = cos(p) (sin y, cos y) the yaw. Each angle's candidates are the doubles
    # near its computed value that give those entries exactly; the first triple that gives
    # the whole matrix wins. The candidates and their sines and cosines are made as the loops
    # reach them (_Near): the first roll and yaw tried pass as a rule, and the other doubles
    # and their sines and cosines would cost more than the search.
    r20, r21, r22, r10, r00 = target[6], target[7], target[8], target[3], target[0]
    # Both branches (cos p > 0, and cos p < 0: a document may give a pitch beyond pi/2), each
    # estimate from well-conditioned atan2 (asin is flat near the gimbal singularity).
    for sign in (1.0, -1.0):
        p_est = math.atan2(-r20, sign * math.hypot(r21, r22))
        pitches = [p for p in _near(p_est) if -math.sin(p) == r20]
        if not pitches:
            continue
        rolls = _Near(math.atan2(sign * r21, sign * r22))
        yaws = _Near(math.atan2(sign * r10, sign * r00))
        for p in pitches:
            cp = math.cos(p)
            for r, sr, cr in rolls:
                if cp * sr != r21 or cp * cr != r22:
                    continue
                for y, sy, cy in yaws:
                    if cy * cp == r00 and sy * cp == r10 and _gives(r, p, y, target):
                        return [r + 0.0, p + 0.0, y + 0.0]
    return None


def _near(x: float) -> list[float]:
    """``x`` and the doubles within ``_WIDTH`` steps of it, nearest first."""
    out = [x]
    lo = hi = x
    for _ in range(_WIDTH):
        lo = math.nextafter(lo, -math.inf)
        hi = math.nextafter(hi, math.inf)
        out += [lo, hi]
    return out


class _Near:
    """:func:`_near` of ``x`` with each double's sine and cosine, made as far as iterated.

    Iterating yields ``(v, sin v, cos v)`` in :func:`_near`'s order; what an iteration made is
    kept for the next (a roll is tried again for each pitch).
    """

    __slots__ = ("hi", "lo", "made")

    def __init__(self, x: float) -> None:
        self.made = [(x, math.sin(x), math.cos(x))]
        self.lo = self.hi = x

    def __iter__(self) -> Iterator[tuple[float, float, float]]:
        made = self.made
        i = 0
        while i < 2 * _WIDTH + 1:
            if i == len(made):  # the next pair of doubles, made together
                lo = self.lo = math.nextafter(self.lo, -math.inf)
                hi = self.hi = math.nextafter(self.hi, math.inf)
                made += [(lo, math.sin(lo), math.cos(lo)), (hi, math.sin(hi), math.cos(hi))]
            yield made[i]
            i += 1


def origin_numbers(
    T: Transform, invert: bool = False, memo: dict[bytes, Any] | None = None
) -> tuple[list[float] | None, list[float] | None]:
    """Return the ``(xyz, rpy)`` of ``<origin>`` for ``T`` (for its inverse when ``invert``).

    Either is ``None`` when the search finds no numbers that read back to ``T`` exactly (the
    writer then states the rotation exactly in robomodel's attribute, or, for an inverted
    position, does not write ``T`` inverted).

    ``memo``: one export's memo (``Writer.memo``).

    ``invert`` is the frame of a fake URDF root: the loader reads the origin and inverts it
    (``Rᵀ`` and ``-(Rᵀ @ xyz)``), so the numbers are searched through that inversion. The
    rotation written is then ``T.rotation.T`` (stated exactly if need be), whose transpose is
    ``T.rotation`` bit for bit.
    """
    if not invert:
        x, y, z = T.position.tolist()
        return [x + 0.0, y + 0.0, z + 0.0], _rpy_of(T.rotation, memo)
    rpy = inverse_rpy(T, memo)
    return inverse_xyz(T), rpy


def inverse_rpy(T: Transform, memo: dict[bytes, Any] | None = None) -> list[float] | None:
    """The ``rpy`` of :func:`origin_numbers` with ``invert``: that of ``T.rotation.T``."""
    return _rpy_of(T.rotation.T, memo)


def inverse_xyz(T: Transform) -> list[float] | None:
    """The ``xyz`` of :func:`origin_numbers` with ``invert``: ``None`` when none is found.

    On its own so that a writer can skip the ``rpy`` search of an origin it will not write
    inverted (a fake root often has no exact inverse position).
    """
    Rt = np.asarray(T.rotation)
    x0 = (-(Rt.T @ np.asarray(T.position))).tolist()
    # The candidates of _shortest, then of _refined, each list checked in one numpy call (a
    # fake root often has no exact inverse, and ~125 calls of a check cost 2.5M instructions).
    found = _first_inverse([c for c, _ in _shortest_candidates(x0)], Rt, T.position)
    if found is None:
        found = _first_inverse(list(_refined_candidates(Rt, -T.position)), Rt, T.position)
    return found


def _first_inverse(
    cands: list[list[float]], R: np.ndarray, position: np.ndarray
) -> list[float] | None:
    """The first of ``cands`` that the loader inverts to ``position`` (``-(R @ c)``), exactly.

    One stacked product for all: numpy's matmul runs the very kernel of ``R @ c`` on each
    stacked vector (tests/test_urdf_exact_numbers.py compares the two bit for bit).
    """
    if not cands:
        return None
    C = np.array(cands, dtype=np.float64)
    gives = -(R @ C[:, :, None])[:, :, 0]
    hit = (gives == np.asarray(position)).all(axis=1)
    if not hit.any():
        return None
    return cands[int(hit.argmax())]


def axis_numbers(
    rest: Transform, direction: np.ndarray, memo: dict[bytes, Any] | None = None
) -> list[float] | None:
    """Return ``<axis xyz>`` in the child for the link1 ``direction`` of a joint at ``rest``.

    The loader computes ``(rest @ Axis(xyz)).direction``; the numbers are searched through it.
    ``None`` when none is found (the search treats -0.0 as 0.0, so equal values under two
    keys get the same numbers). ``memo``: one export's memo (``Writer.memo``).
    """
    if memo is None:
        return _search_axis(rest, direction)
    key = b"a" + rest.rotation.tobytes() + direction.tobytes()
    if key not in memo:
        memo[key] = _search_axis(rest, direction)
    got: list[float] | None = memo[key]
    return got


def _search_axis(rest: Transform, direction: np.ndarray) -> list[float] | None:
    target = direction.tolist()
    # Plain views of the frozen arrays: the same numbers and arithmetic, without the frozen
    # class's wrapping of every result (the checks below run numpy calls per candidate).
    R = np.asarray(rest.rotation)
    x0 = [v + 0.0 for v in (R.T @ (np.asarray(direction) + 0.0)).tolist()]

    n0 = math.hypot(*x0)
    u0 = [v / n0 for v in x0] if n0 > 0.0 else x0
    checked: dict[tuple[float, ...], bool] = {}  # the neighbour steps repeat candidates

    def ok(c: list[float]) -> bool:
        if not any(c):
            return False
        # A direction the loader reads back as ``direction`` is ``x0``'s to round-off: one
        # farther than 1e-12 cannot be, and is refused before the exact check below (which
        # costs microseconds of numpy calls).
        n = math.hypot(*c)
        if 1e-12 <= n < math.inf and any(
            abs(v / n - w) > 1e-12 for v, w in zip(c, u0, strict=True)
        ):
            return False
        key = tuple(c)
        got = checked.get(key)
        if got is None:
            got = checked[key] = _gives_direction(rest, R, c, target)
        return got

    found = _shortest(x0, ok)
    if found is None:
        found = _refined(rest.rotation, direction, ok, unit=True)
    return found


def _gives_direction(rest: Transform, R: np.ndarray, c: list[float], target: list[float]) -> bool:
    """Whether the loader reads ``<axis xyz=c>`` of a joint at ``rest`` as ``target``, exactly.

    What ``Axis(c)`` and ``rest @ axis`` compute (normalise by the norm, rotate), without
    building a checked Axis per candidate, which made this search most of the cost of an
    export: ``np.linalg.norm`` of a vector is ``sqrt(x.dot(x))``, and numpy's division is
    Python's. Anything off the plain path (overflowing norms, a rest rotation that does not
    keep unit length) goes through the values themselves; tests/test_urdf_* check the round
    trips bit for bit, so a drift between the two would show there.
    """
    arr = np.array(c, dtype=np.float64)
    n = math.sqrt(float(arr.dot(arr)))
    if 1e-12 <= n < math.inf:
        d = R @ (arr / n)
        if abs(float(d @ d) - 1.0) <= 1e-9:
            return bool(d.tolist() == target)
    return bool((rest @ Axis(c)).direction.tolist() == target)


def _refined(
    A: np.ndarray, b: np.ndarray, ok: Callable[[list[float]], bool], unit: bool = False
) -> list[float] | None:
    """Search ``x`` with ``A @ x == b`` bit for bit (``A`` a rotation), by exact Newton steps.

    ``Aᵀ b`` rounded is off by a few ulps where ``b`` has tiny components (an axis a hair off a
    coordinate axis); the exact residual ``b - A x`` (in rationals) corrects it. ``unit``: the
    loader divides ``x`` by its computed norm, so ``x`` over its own norm is tried too (its norm
    may then compute to exactly 1).
    """
    for cand in _refined_candidates(A, b, unit):
        if ok(cand):
            return cand
    return None


def _refined_candidates(A: np.ndarray, b: np.ndarray, unit: bool = False) -> Iterator[list[float]]:
    """The candidates of :func:`_refined`, in its order."""
    Al, bl = A.tolist(), b.tolist()
    x = (A.T @ b).tolist()
    tried = None
    for _ in range(3):
        x = _newton_step(Al, bl, x)
        if x == tried:
            break  # converged: this step would try the very candidates the last one tried
        tried = x
        bases = [x]
        if unit:
            n = float(np.linalg.norm(x))
            bases.append([v / n for v in x])
        for base in bases:
            for steps in product(_STEPS, repeat=3):
                yield [_step(v, s) + 0.0 for v, s in zip(base, steps, strict=True)]


def _newton_step(A: list[list[float]], b: list[float], x: list[float]) -> list[float]:
    """One exact Newton step of :func:`_refined` (``x + Aᵀ(b - A x)``, rounded once).

    Exact arithmetic in integers: every double is an integer multiple of ``2**-s`` for ``s``
    the most binary places any of the step's numbers has (at most 1074, the smallest
    double's), so each number is held as that multiple (products as multiples of
    ``2**-2s``, and so on). Integer division rounds correctly, as converting the equal
    Fraction does, at a fraction of its cost; the fewest places keep the integers short
    (a hundred bits or so for a unit axis, against 3,000 at ``2**-1074``).
    """
    ratios = [v.as_integer_ratio() for v in (*A[0], *A[1], *A[2], *b, *x)]  # d: powers of 2
    s = max(d.bit_length() for _, d in ratios) - 1
    k = [n << (s + 1 - d.bit_length()) for n, d in ratios]
    Ai, bi, xi = (k[0:3], k[3:6], k[6:9]), k[9:12], k[12:15]
    res = [
        (bi[i] << s) - (Ai[i][0] * xi[0] + Ai[i][1] * xi[1] + Ai[i][2] * xi[2]) for i in range(3)
    ]
    unit = 1 << 3 * s  # one, as a multiple of 2**-3s (an entry times a residual)
    return [
        ((xi[i] << 2 * s) + Ai[0][i] * res[0] + Ai[1][i] * res[1] + Ai[2][i] * res[2]) / unit
        for i in range(3)
    ]


def _inertia_key(inertia: SpatialInertia) -> bytes:
    """The key of ``inertia`` in one export's memo (:func:`inertial_numbers`)."""
    return (
        b"i"
        + inertia.first_moment.tobytes()
        + inertia.rotational_inertia.tobytes()
        + float(inertia.mass).hex().encode()
    )


def inertial_numbers(
    inertia: SpatialInertia, memo: dict[bytes, Any] | None = None
) -> tuple[float, list[float], list[float], bool]:
    """Return the ``(mass, com xyz, six moments, exact)`` of ``<inertial>`` with ``rpy="0 0 0"``.

    The search treats -0.0 as 0.0; see :func:`_search_inertial`. ``memo``: one export's memo
    (``Writer.memo``).
    """
    if memo is None:
        return _search_inertial(inertia)
    key = _inertia_key(inertia)
    if key not in memo:
        memo[key] = _search_inertial(inertia)
    got: tuple[float, list[float], list[float], bool] = memo[key]
    return got


def _search_inertial(inertia: SpatialInertia) -> tuple[float, list[float], list[float], bool]:
    """The search of :func:`inertial_numbers`.

    ``exact`` is false when some number was not found and the computed one is given instead.

    The loader computes ``h = m * c`` per component and ``I_O = I_C - (h hᵀ - (hᵀh) 1) / m``
    per entry (the matrices are symmetric, so its symmetrisation changes nothing); each number
    is searched through that formula on its own.
    """
    m = float(inertia.mass) + 0.0
    h = inertia.first_moment.tolist()
    I_O = inertia.rotational_inertia
    pairs = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))
    if m == 0.0:
        return m, [0.0, 0.0, 0.0], [float(I_O[i, j]) + 0.0 for i, j in pairs], True
    exact = True
    com: list[float] = []
    for hi in h:
        x0 = hi / m
        # |c - h/m| <= ulp(h) / 2m for every c with m * c == h (and x0 is h/m rounded).
        radius = _radius(math.ulp(hi) / m + math.ulp(x0), m, hi, x0)
        found = _shortest1(x0, _product_is(m, hi), radius)
        exact = exact and found is not None
        com.append(found if found is not None else x0 + 0.0)
    # The loader's h from the numbers written (== the value's h when the search succeeded),
    # and its (h hᵀ - (hᵀh) 1) / m entry by entry: each an elementwise float64 operation in
    # the loader, so the same operations on Python floats give the same doubles.
    h2 = [m * c for c in com]
    hh = h2[0] * h2[0] + h2[1] * h2[1] + h2[2] * h2[2]
    rows = I_O.tolist()
    six: list[float] = []
    for i, j in pairs:
        target = rows[i][j]
        tij = (h2[i] * h2[i] - hh) / m if i == j else (h2[i] * h2[j]) / m
        x0 = target + tij
        # |c - (target + t)| <= ulp(target) / 2 for every c with c - t == target.
        radius = _radius(math.ulp(target) + math.ulp(x0), tij, target, x0)
        found = _shortest1(x0, _difference_is(tij, target), radius)
        exact = exact and found is not None
        six.append(found if found is not None else x0 + 0.0)
    return m, com, six, exact


def _product_is(m: float, h: float) -> Callable[[float], bool]:
    return lambda c: m * c == h


def _difference_is(t: float, target: float) -> Callable[[float], bool]:
    return lambda c: c - t == target


def _radius(bound: float, a: float, b: float, c: float) -> float | None:
    """Return ``bound`` as one number's search radius, or ``None`` (search every place).

    ``None`` when any of ``a, b, c`` is near underflow or the bound is not finite, where the
    bound's ulps do not hold.
    """
    if not bound < math.inf or 0.0 < min(abs(a) or 1.0, abs(b) or 1.0, abs(c) or 1.0) < _TINY:
        return None
    return bound


def _shortest1(x0: float, ok: Callable[[float], bool], radius: float | None) -> float | None:
    """:func:`_shortest` of one number (the same answer), in plain float operations.

    The writer searches hundreds of single numbers (an inertia's centre of mass and moments),
    and list-wrapping each costs more than the search.
    """
    if x0 == 0.0:
        return 0.0 if ok(0.0) else None
    base = x0 + 0.0
    if radius is not None and _short([x0], [radius]) and ok(base):
        return base
    lead = math.floor(math.log10(abs(x0)))
    lowest, highest = -lead, 16 - lead
    first, stable = _first_places(x0, math.inf if radius is None else radius, lowest)
    previous = None
    for places in range(first, min(highest, stable - 1) + 1):
        cand = round(x0, places) + 0.0
        if cand != previous and ok(cand):
            return cand
        previous = cand
    if ok(base):
        return base
    for cand in (math.nextafter(base, -math.inf), math.nextafter(base, math.inf)):
        if ok(cand):
            return cand
    return None
