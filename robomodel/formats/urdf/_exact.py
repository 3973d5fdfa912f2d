"""The numbers the exporter writes for a value: a function of the value alone.

Export must be a function of the value: two models that are ``==`` (one loaded, one unpickled,
deep-copied or read back from JSON) must give the same text. The numbers a value was read from
stay with the loader (:mod:`~robomodel.formats.urdf._records`), never in the values: equal
values can come from different texts (``xyz="-0 0 0"`` and ``xyz="0 0 0"``, a massless link's
centre of mass), and a loaded model holds the same plain values as one built in code.

Computing the text from the matrices alone loses an ulp here and there (``rpy`` from a rotation,
a centre of mass from a first moment), which would break ``loads(dumps(m)) == m``. So each
function here searches for numbers that the loader turns back into the very same doubles: first
the value's own numbers rounded to 1, 2, ... 17 digits (the shortest text wins, so a document's
``0.1`` comes back as ``0.1``), then the neighbouring doubles of the computed numbers. Every
check uses the loader's own arithmetic. Nothing is memoised across calls (no process-wide
cache): each export computes its numbers afresh. When nothing within that search reproduces
the value (a rotation no ``rpy`` of doubles gives, an axis a hair off a coordinate axis, an
inertia the parallel-axis formula cannot hit), the functions say so, and the writers add the
exact value in a robomodel-namespaced attribute beside the computed numbers (``docs/urdf.md``,
"Round trips"), which robomodel's loader prefers and other tools ignore.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np

from robomodel.model.spatial import (
    Axis,
    SpatialInertia,
    Transform,
    rotation_from_rpy,
    rpy_from_rotation,
)

__all__ = ["axis_numbers", "inertial_numbers", "origin_numbers"]

Vec3 = tuple[float, float, float]
_STEPS = (0, -1, 1)


def _shortest(x0: Sequence[float], ok: Callable[[list[float]], bool]) -> list[float] | None:
    """Return the first of ``x0`` rounded to 1..17 digits, or a neighbour, that ``ok`` accepts."""
    top = max((abs(v) for v in x0), default=0.0)
    if top == 0.0:
        zeros = [0.0] * len(x0)
        return zeros if ok(zeros) else None
    lead = math.floor(math.log10(top))
    for digits in range(1, 18):
        cand = [round(v, digits - 1 - lead) + 0.0 for v in x0]
        if ok(cand):
            return cand
    base = [float(v) + 0.0 for v in x0]
    for steps in product(_STEPS, repeat=len(base)):
        cand = [_step(v, s) for v, s in zip(base, steps, strict=True)]
        if ok(cand):
            return cand
    return None


def _step(v: float, s: int) -> float:
    if s == 0:
        return v
    return math.nextafter(v, math.inf if s > 0 else -math.inf)


def _rotation(rpy: Sequence[float]) -> list[float]:
    """The loader's rotation of ``rpy``, row-major (``_origin`` evaluates the same formulas)."""
    r, p, y = rpy
    if r == 0.0 and p == 0.0 and y == 0.0:
        return [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    flat: list[float] = rotation_from_rpy(r, p, y).ravel().tolist()
    return flat


_WIDTH = 6  # doubles tried on either side of each computed angle


def _rpy(R: np.ndarray) -> list[float] | None:
    """The ``rpy`` whose loader rotation is ``R`` exactly, ``None`` when none is found."""
    R = R + 0.0  # -0.0 and 0.0 are equal values: the search must not tell them apart
    return _search_rpy(R)


def computed_rpy(R: np.ndarray) -> list[float]:
    """The angles of ``R`` by iDynTree's rule, zeros unsigned (when no exact ``rpy`` exists)."""
    return [a + 0.0 for a in rpy_from_rotation(R + 0.0)]  # atan2 tells -0.0 from 0.0


def _search_rpy(R: np.ndarray) -> list[float] | None:
    target = R.ravel().tolist()
    x0 = [a + 0.0 for a in rpy_from_rotation(R)]
    found = _shortest(x0, lambda c: _rotation(c) == target)
    if found is not None:
        return found
    # Entry by entry: R20 = -sin(p) fixes the pitch, (R21, R22) = cos(p) (sin r, cos r) the
    # roll, (R10, R00) = cos(p) (sin y, cos y) the yaw. Each angle's candidates are the doubles
    # near its computed value that give those entries exactly; the first triple that gives
    # the whole matrix wins.
    r20, r21, r22, r10, r00 = target[6], target[7], target[8], target[3], target[0]
    # Both branches (cos p > 0, and cos p < 0: a document may give a pitch beyond pi/2), each
    # estimate from well-conditioned atan2 (asin is flat near the gimbal singularity).
    for sign in (1.0, -1.0):
        p_est = math.atan2(-r20, sign * math.hypot(r21, r22))
        r_est = math.atan2(sign * r21, sign * r22)
        y_est = math.atan2(sign * r10, sign * r00)
        for p in _near(p_est, lambda p: -math.sin(p) == r20):
            cp = math.cos(p)
            rolls = _near(r_est, _fits(cp, r21, r22, roll=True))
            yaws = _near(y_est, _fits(cp, r00, r10, roll=False))
            for r in rolls:
                for y in yaws:
                    if _rotation([r, p, y]) == target:
                        return [r + 0.0, p + 0.0, y + 0.0]
    return None


def _fits(cp: float, a: float, b: float, roll: bool) -> Callable[[float], bool]:
    """The check of a roll or a yaw angle against two entries, in the loader's operand order.

    A roll: ``cp sin r == a`` and ``cp cos r == b``; a yaw: ``cos y cp == a``, ``sin y cp == b``.
    """
    if roll:
        return lambda r: cp * math.sin(r) == a and cp * math.cos(r) == b
    return lambda y: math.cos(y) * cp == a and math.sin(y) * cp == b


def _near(x: float, ok: Callable[[float], bool]) -> list[float]:
    """The doubles within ``_WIDTH`` steps of ``x`` that ``ok`` accepts, nearest first."""
    out = [x] if ok(x) else []
    lo = hi = x
    for _ in range(_WIDTH):
        lo = math.nextafter(lo, -math.inf)
        hi = math.nextafter(hi, math.inf)
        out += [v for v in (lo, hi) if ok(v)]
    return out


def origin_numbers(
    T: Transform, invert: bool = False
) -> tuple[list[float] | None, list[float] | None]:
    """Return the ``(xyz, rpy)`` of ``<origin>`` for ``T`` (for its inverse when ``invert``).

    Either is ``None`` when the search finds no numbers that read back to ``T`` exactly (the
    writer then states the rotation exactly in robomodel's attribute, or, for an inverted
    position, does not write ``T`` inverted).

    ``invert`` is the frame of a fake URDF root: the loader reads the origin and inverts it
    (``Rᵀ`` and ``-(Rᵀ @ xyz)``), so the numbers are searched through that inversion. The
    rotation written is then ``T.rotation.T`` (stated exactly if need be), whose transpose is
    ``T.rotation`` bit for bit.
    """
    if not invert:
        return [float(v) + 0.0 for v in T.position], _rpy(T.rotation)
    rpy = _rpy(T.rotation.T)
    Rt = T.rotation
    target = T.position.tolist()
    x0 = (-(Rt.T @ T.position)).tolist()

    def ok(c: list[float]) -> bool:
        return bool((-(Rt @ np.array(c))).tolist() == target)

    found = _shortest(x0, ok)
    if found is None:
        found = _refined(Rt, -T.position, ok)
    return found, rpy


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
    x0 = [v + 0.0 for v in (rest.rotation.T @ (direction + 0.0)).tolist()]

    R = rest.rotation

    def ok(c: list[float]) -> bool:
        if not any(c):
            return False
        # What Axis(c) and rest @ axis compute (normalise by the norm, rotate), without building
        # a checked Axis per candidate, which made this search most of the cost of an export.
        # Anything off the plain path (overflowing norms, a rest rotation that does not keep
        # unit length) goes through the values themselves; tests/test_urdf_* check the round
        # trips bit for bit, so a drift between the two would show there.
        arr = np.array(c, dtype=np.float64)
        n = float(np.linalg.norm(arr))
        if 1e-12 <= n < math.inf:
            d = R @ (arr / n)
            if abs(float(d @ d) - 1.0) <= 1e-9:
                return bool(d.tolist() == target)
        return bool((rest @ Axis(c)).direction.tolist() == target)

    found = _shortest(x0, ok)
    if found is None:
        found = _refined(rest.rotation, direction, ok, unit=True)
    return found


def _refined(
    A: np.ndarray, b: np.ndarray, ok: Callable[[list[float]], bool], unit: bool = False
) -> list[float] | None:
    """Search ``x`` with ``A @ x == b`` bit for bit (``A`` a rotation), by exact Newton steps.

    ``Aᵀ b`` rounded is off by a few ulps where ``b`` has tiny components (an axis a hair off a
    coordinate axis); the exact residual ``b - A x`` (in rationals) corrects it. ``unit``: the
    loader divides ``x`` by its computed norm, so ``x`` over its own norm is tried too (its norm
    may then compute to exactly 1).
    """
    Af = [[Fraction(v) for v in row] for row in A.tolist()]
    bf = [Fraction(v) for v in b.tolist()]
    x = (A.T @ b).tolist()
    for _ in range(3):
        xf = [Fraction(v) for v in x]
        res = [bf[i] - sum(Af[i][k] * xf[k] for k in range(3)) for i in range(3)]
        x = [float(xf[i] + sum(Af[k][i] * res[k] for k in range(3))) for i in range(3)]
        bases = [x]
        if unit:
            n = float(np.linalg.norm(x))
            bases.append([v / n for v in x])
        for base in bases:
            for steps in product(_STEPS, repeat=3):
                cand = [_step(v, s) + 0.0 for v, s in zip(base, steps, strict=True)]
                if ok(cand):
                    return cand
    return None


def inertial_numbers(
    inertia: SpatialInertia, memo: dict[bytes, Any] | None = None
) -> tuple[float, list[float], list[float], bool]:
    """Return the ``(mass, com xyz, six moments, exact)`` of ``<inertial>`` with ``rpy="0 0 0"``.

    The search treats -0.0 as 0.0; see :func:`_search_inertial`. ``memo``: one export's memo
    (``Writer.memo``).
    """
    if memo is None:
        return _search_inertial(inertia)
    key = (
        b"i"
        + inertia.first_moment.tobytes()
        + inertia.rotational_inertia.tobytes()
        + float(inertia.mass).hex().encode()
    )
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
        found = _shortest([x0], _product_is(m, hi))
        exact = exact and found is not None
        com.append(found[0] if found is not None else x0 + 0.0)
    # The loader's h from the numbers written (== the value's h when the search succeeded).
    hv = np.array([m])[:, None] * np.array([com])
    h2 = hv[0]
    hh = h2[0] * h2[0] + h2[1] * h2[1] + h2[2] * h2[2]
    outer = h2[:, None] * h2[None, :]
    outer[[0, 1, 2], [0, 1, 2]] -= hh
    t = outer / m
    six: list[float] = []
    for i, j in pairs:
        target = float(I_O[i, j])
        tij = float(t[i, j])
        x0 = target + tij
        found = _shortest([x0], _difference_is(tij, target))
        exact = exact and found is not None
        six.append(found[0] if found is not None else x0 + 0.0)
    return m, com, six, exact


def _product_is(m: float, h: float) -> Callable[[list[float]], bool]:
    return lambda c: m * c[0] == h


def _difference_is(t: float, target: float) -> Callable[[list[float]], bool]:
    return lambda c: c[0] - t == target
