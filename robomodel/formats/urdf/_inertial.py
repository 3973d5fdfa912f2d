"""``<inertial>``: mass, centre of mass and inertia, read beside written.

A URDF gives the inertia about the centre of mass in the axes of ``<origin rpy>``; robomodel
stores a :class:`~robomodel.model.spatial.SpatialInertia` about the link origin in link axes. Like
origins, inertials are read in two steps: :func:`read_inertial` checks the element and registers
its numbers, :func:`inertial_values` computes every inertia of the document at once.
:func:`inertial_texts` writes the central inertia in link axes (iDynTree's layout), with numbers
computed from the inertia alone that read back to it (:mod:`robomodel.formats.urdf._exact`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import make
from robomodel._internal.inertia_bound import unproven_inertias
from robomodel.errors import warn
from robomodel.formats.urdf._document import (
    XMLNS,
    Reader,
    Writer,
    fill,
    fmt3,
    number,
    parse_numbers,
    pick_children,
    rm,
    strict_numbers,
)
from robomodel.formats.urdf._exact import inertial_numbers
from robomodel.formats.urdf._extensions import keep
from robomodel.formats.urdf._origin import ZERO3
from robomodel.formats.urdf._records import RawLink, Vec3
from robomodel.formats.urdf.errors import URDFValueError
from robomodel.formats.urdf.numbers import format_float
from robomodel.model.spatial import SpatialInertia, rotations_from_rpy
from robomodel.physics.inertia import consistency_problems

if TYPE_CHECKING:
    from robomodel.formats.urdf.options import InertiaPolicy

__all__ = [
    "InertiaOverflowError",
    "apply_exact_inertials",
    "central_inertias",
    "check_inertias",
    "inertial_texts",
    "inertial_values",
    "numbers_of_inertials",
    "read_inertial",
]

_INERTIA_ATTRS = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
_CHILDREN = {"origin": 0, "mass": 1, "inertia": 2}
# The six moments (ixx ixy ixz iyy iyz izz) laid out as a row-major 3x3 matrix (read-only: a
# list would be converted on every call).
_SYMMETRIC = np.array([0, 1, 2, 1, 3, 4, 2, 4, 5], dtype=np.intp)
_SYMMETRIC.flags.writeable = False
_RM_MOMENT = rm("first_moment")
_RM_ORIGIN = rm("about_origin")
# The inertias computed here: finite, symmetric, from checked numbers.
_INERTIA = make(SpatialInertia)
_PAIRS = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


def read_inertial(r: Reader, el: Any, raw: RawLink, what: str) -> None:
    """Check ``<inertial>`` ``el`` of link ``raw``; its inertia becomes ``raw.inertia``.

    The origin's numbers and the arrays come later, all at once (:func:`inertial_values`).
    """
    (origin, mass_el, inertia_el), others = pick_children(r, el, what, _CHILDREN)
    if others:  # kept inside the <inertial> (owner kind "inertial": the link's)
        kept = raw.inertial_exts if isinstance(raw.inertial_exts, list) else []
        raw.inertial_exts = kept
        for ch in others:
            keep(r, "inertial", raw.name, ch, kept)
    if mass_el is None:
        raise r.err(
            URDFValueError, el, what, "<inertial> has no <mass value=...>; add the link mass"
        )
    m = number(r, mass_el, what, "value")
    if m < 0.0:
        raise r.err(
            URDFValueError, mass_el, what, f"<mass value={m!r}> is negative; a mass is >= 0"
        )
    if origin is None:
        xs = rs = None
    else:
        xs = origin.get("xyz")
        rs = origin.get("rpy")
        if r.eager:
            strict_numbers(r, origin, what, "xyz", 3, ZERO3)
            strict_numbers(r, origin, what, "rpy", 3, ZERO3)
    if inertia_el is None:
        six: tuple[float, ...] = (0.0,) * 6
    else:
        if not r.plain and inertia_el.get(_RM_MOMENT) is not None:
            r.exact_inertials.append((raw, inertia_el))
        get = inertia_el.get
        parsed = parse_numbers(list(map(get, _INERTIA_ATTRS)))
        # The checked path names the culprit.
        six = (
            parsed
            if parsed is not None
            else tuple(number(r, inertia_el, what, a) for a in _INERTIA_ATTRS)
        )
    r.inertial_owners.append(raw)
    r.inertial_data.append((m, six))
    texts = r.inertial_texts
    texts.append("0 0 0" if xs is None else xs)
    texts.append("0 0 0" if rs is None else rs)


class InertiaOverflowError(ArithmeticError):
    """The inertia about the link origin of inertial ``index`` overflows (its numbers did not)."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.index = index


def central_inertias(data: list[tuple[float, tuple[float, ...]]]) -> Any:
    """Return the ``(n, 3, 3)`` inertias at the centre of mass (in ``<origin rpy>`` axes)."""
    six = np.array([d[1] for d in data], dtype=np.float64).reshape(len(data), 6)
    return six[:, _SYMMETRIC].reshape(len(data), 3, 3)


def inertial_values(
    data: list[tuple[float, tuple[float, ...]]],
    xyz: list[Vec3],
    rpy: list[Vec3],
) -> list[SpatialInertia]:
    """Return the inertias of the registered inertials (mass and moments, origin numbers).

    ``SpatialInertia.from_com(m, c, R I Rᵀ)`` written elementwise, every sum left to right, so
    that the result does not depend on how many inertials a document has.

    The shift to the link origin is a few dozen scalar operations per inertial, done in Python
    floats (the operations and the order of stacked arrays, hence the same bits): numpy's cost
    per call, two dozen calls on a document's few dozen inertials, is far above the arithmetic.

    Raises:
        InertiaOverflowError: the first inertial whose inertia about the link origin is not finite.
    """
    n = len(data)
    rows = _rotated_moments(data, rpy)
    # Python floats overflow to inf silently, as numpy under errstate(all="ignore") does; a
    # zero mass keeps the moments as they are. A non-finite result is a URDFError naming the
    # link (robomodel.formats.urdf.load), not a warning.
    first: list[float] = []
    about: list[float] = []
    for (m, _), (x, y, z), (a, b, c, d, e, f, g, h, i) in zip(data, xyz, rows, strict=True):
        h0, h1, h2 = m * x, m * y, m * z
        if m != 0.0:
            hh = h0 * h0 + h1 * h1 + h2 * h2
            a, b, c = a - (h0 * h0 - hh) / m, b - h0 * h1 / m, c - h0 * h2 / m
            d, e, f = d - h1 * h0 / m, e - (h1 * h1 - hh) / m, f - h1 * h2 / m
            g, h, i = g - h2 * h0 / m, h - h2 * h1 / m, i - (h2 * h2 - hh) / m
        first += (h0, h1, h2)
        about += (
            0.5 * (a + a),
            0.5 * (b + d),
            0.5 * (c + g),
            0.5 * (d + b),
            0.5 * (e + e),
            0.5 * (f + h),
            0.5 * (g + c),
            0.5 * (h + f),
            0.5 * (i + i),
        )
    # A NaN or an infinity anywhere makes its sum one; a finite sum that overflows only sends
    # the check to the rows.
    if not math.isfinite(sum(first) + sum(about)):
        for k in range(n):
            if not all(map(math.isfinite, first[3 * k : 3 * k + 3] + about[9 * k : 9 * k + 9])):
                raise InertiaOverflowError(k)
    # Over immutable bytes: each inertia views these stacks, which nothing can make writable.
    moments = immutable(np.array(first).reshape(n, 3))
    inertias = immutable(np.array(about).reshape(n, 3, 3))
    return list(map(_INERTIA, [d[0] for d in data], moments, inertias))


def _rotated_moments(
    data: list[tuple[float, tuple[float, ...]]], rpy: list[Vec3]
) -> list[list[float]]:
    """Per inertial, its inertia at the centre of mass in link axes (``R I Rᵀ``), row-major.

    The six numbers as read where ``rpy`` is zero (``"0 -0 0"`` is not rotated); the rotated
    ones in one stacked pass, each sum left to right.
    """
    rotated = [k for k, a in enumerate(rpy) if a != ZERO3]
    if not rotated:
        return [[a, b, c, b, d, e, c, e, f] for _, (a, b, c, d, e, f) in data]
    I_C = central_inertias(data)
    A = I_C.copy()
    R = rotations_from_rpy([a for k in rotated for a in rpy[k]], len(rotated))
    Ic = I_C[rotated]
    B = R[:, :, 0, None] * Ic[:, None, 0, :]
    B = B + R[:, :, 1, None] * Ic[:, None, 1, :]
    B = B + R[:, :, 2, None] * Ic[:, None, 2, :]
    Ar = B[:, :, None, 0] * R[:, None, :, 0]
    Ar = Ar + B[:, :, None, 1] * R[:, None, :, 1]
    Ar = Ar + B[:, :, None, 2] * R[:, None, :, 2]
    A[rotated] = Ar
    rows: list[list[float]] = A.reshape(len(data), 9).tolist()
    return rows


def apply_exact_inertials(r: Reader) -> None:
    """Give each link whose ``<inertia>`` has robomodel's attributes that exact inertia.

    ``robomodel:first_moment`` (``m c``) and ``robomodel:about_origin`` (the six moments about
    the link origin in link axes) must agree within ``1e-9`` (relative) with what the plain
    numbers give, so that robomodel and other tools read the same body.
    """
    for raw, el in r.exact_inertials:
        what = f"link {raw.name!r}"
        got = raw.inertia
        h = np.array(strict_numbers(r, el, what, _RM_MOMENT, 3), dtype=np.float64)
        six = strict_numbers(r, el, what, _RM_ORIGIN, 6)
        I_O = np.array([six[k] for k in (0, 1, 2, 1, 3, 4, 2, 4, 5)], dtype=np.float64)
        I_O = I_O.reshape(3, 3)
        scale = 1.0 + float(np.abs(got.rotational_inertia).max()) + float(np.abs(h).max())
        if not (
            np.abs(h - got.first_moment).max() <= 1e-9 * scale
            and np.abs(I_O - got.rotational_inertia).max() <= 1e-9 * scale
        ):
            raise r.err(
                URDFValueError,
                el,
                what,
                "robomodel:first_moment and robomodel:about_origin disagree with the plain "
                "inertial numbers; remove them or fix them",
            )
        raw.inertia = _INERTIA(got.mass, immutable(h), immutable(I_O))


# Relative to the inertia's scale in consistency_problems (its largest pseudo-inertia eigenvalue:
# here the larger of the mass and the largest moment, in SI units usually the mass, which makes
# the tolerance looser still for light moments). Exporters print inertias rounded, often to 6
# significant digits, which moves a body on the boundary (a rod with a zero moment, a lamina
# with izz = ixx + iyy) by up to 5e-7 of its largest number: not an inconsistency. Real defects
# are far larger: the two flagged iCub links break the triangle inequality by 99.8 %, and the
# icub-models counts are the same for any rtol from 1e-12 to 1e-3.
_RTOL = 1e-6


def check_inertias(r: Reader, policy: InertiaPolicy) -> None:
    """Apply the inertia ``policy`` to every ``<inertial>`` read (see ``LoadOptions.inertia``).

    Whether an inertia is consistent depends on its six numbers alone (the inertia at the centre
    of mass; neither the mass, if positive, nor the ``rpy`` rotation changes it). A bound
    computed from the six numbers clears most inertias at once
    (:func:`robomodel._internal.inertia_bound.unproven_inertias`); one batched
    eigenvalue pass over the others picks those at or past the boundary, and
    :func:`robomodel.physics.inertia.consistency_problems` decides on those, with a relative
    tolerance.
    """
    data = r.inertial_data
    if policy == "ignore":
        return
    doubtful = unproven_inertias(data)
    if not doubtful:
        return
    I_C = central_inertias([data[k] for k in doubtful])
    with np.errstate(all="ignore"):
        ev = np.linalg.eigvalsh(I_C)  # ascending
        # A superset of what consistency_problems flags. Its tolerance is rtol times a scale
        # at least the mass and the largest moment (the pseudo-inertia of a body with its
        # centre of mass at the origin has the mass as an eigenvalue), and its pseudo-inertia
        # test is the triangle inequality's halved; half that tolerance here leaves room for
        # the round-off between the two eigenvalue computations. Files rounding a point mass
        # to moments of 1e-20 and less are common, and each check costs a tenth of a load.
        masses = np.array([data[k][0] for k in doubtful])
        tol = (0.5 * _RTOL) * np.maximum(masses, np.abs(I_C).max(axis=(1, 2)))
        suspects = np.flatnonzero((ev[:, 0] < -tol) | (ev[:, 0] + ev[:, 1] < ev[:, 2] - tol))
    for j in suspects.tolist():
        k = doubtful[j]
        mass, numbers = data[k]
        problems = consistency_problems(SpatialInertia.from_com(mass, ZERO3, I_C[j]), rtol=_RTOL)
        if not problems:
            continue
        raw = r.inertial_owners[k]
        el = raw.el.find("inertial/inertia")
        values = ", ".join(
            f"{a}={format_float(v)}" for a, v in zip(_INERTIA_ATTRS, numbers, strict=True)
        )
        err = r.err(
            URDFValueError,
            raw.el if el is None else el,
            f"link {raw.name!r}",
            f"the inertia at the centre of mass ({values}; mass {format_float(mass)}) is "
            f"physically inconsistent: {'; '.join(problems)}. Fix the numbers "
            "(robomodel.physics.inertia.nearest_consistent gives the nearest consistent inertia); "
            "LoadOptions(inertia='raise', 'warn' or 'ignore'), or the command line's --inertia, "
            "chooses what loading does",
        )
        if policy == "raise":
            raise err
        warn(str(err))


def numbers_of_inertials(
    inertias: list[SpatialInertia], memo: dict[bytes, Any] | None
) -> list[tuple[float, list[float], list[float], bool]]:
    """:func:`inertial_numbers` of every inertia: the one place the writer asks for them.

    A batch search can replace this loop without changing its callers.
    """
    return [inertial_numbers(inertia, memo) for inertia in inertias]


_INERTIAL_PARTS = (
    '      <mass value="',
    '"/>\n      <origin xyz="',
    " ",
    " ",
    '" rpy="0 0 0"/>\n      <inertia ixx="',
    '" ixy="',
    '" ixz="',
    '" iyy="',
    '" iyz="',
    '" izz="',
    '"',
)


def inertial_texts(w: Writer, inertias: list[SpatialInertia]) -> Callable[[], list[str]]:
    """Add the numbers of every inertia to ``w.pending``; return a function of their texts.

    Once ``w.pending`` is formatted, the function returned gives the ``<inertial>`` body of
    every inertia (``<mass>`` to ``<inertia`` unclosed). A function of the value alone
    (robomodel.formats.urdf._exact): the central inertia in link axes (iDynTree's layout), with
    numbers that read back to this very inertia; where none do, the numbers computed, and the
    exact inertia in robomodel's attributes. The numbers are formatted with the export's.
    """
    found = numbers_of_inertials(inertias, w.memo)
    flat: list[float] = []
    for mass, xyz, six, _ in found:
        flat.append(mass)
        flat += xyz
        flat += six
    start = w.pending.add(flat)

    def texts() -> list[str]:
        t = w.pending.texts[start : start + len(flat)]
        out = fill(_INERTIAL_PARTS, *(t[i::10] for i in range(10))) if inertias else []
        for k, (_, _, _, exact) in enumerate(found):
            inertia = inertias[k]
            if not exact:
                I_O = inertia.rotational_inertia
                about = " ".join(format_float(float(I_O[i, j])) for i, j in _PAIRS)
                out[k] += (
                    f' {XMLNS} robomodel:first_moment="{fmt3(inertia.first_moment + 0.0)}" '
                    f'robomodel:about_origin="{about}"'
                )
        return out

    return texts
