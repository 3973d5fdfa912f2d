"""A bound that proves most inertias consistent before any eigenvalue is computed.

The URDF loader screens every inertia read with one batched eigenvalue call
(``robomodel.formats.urdf._inertial.check_inertias``). A small file's few dozen inertias make
that call's fixed cost a visible part of a load, and most real links pass a cheaper test:
a Gershgorin bound, six comparisons in Python floats. Only the inertias it cannot clear go on
to the eigenvalue screen, so the outcome (warnings and errors) is the same. Its measured gain
is listed in docs/architecture.md.
"""

from __future__ import annotations

import math

__all__ = ["unproven_inertias"]


def unproven_inertias(data: list[tuple[float, tuple[float, ...]]]) -> list[int]:
    """The inertials whose moments a Gershgorin bound does not prove consistent.

    An inertia ``I`` (principal moments ``l0 <= l1 <= l2``) is consistent when ``S = tr(I)/2 - I``
    is positive semidefinite: its eigenvalues are ``(l0 + l1 + l2)/2 - li``, the smallest
    ``(l0 + l1 - l2)/2`` (the triangle inequality), and each moment ``li`` is a sum of two of
    them. Every eigenvalue of ``S`` is at least ``S_ii`` minus the off-diagonal magnitudes of
    row ``i`` for some row: when that bound is >= 0 on every row (most real links, and every
    point mass with equal moments), the loader's eigenvalue test cannot flag the inertia (its
    tolerance is far above the round-off here), and it is not run on it. ``data``: per
    inertial, its mass and its six moments (ixx, ixy, ixz, iyy, iyz, izz).
    """
    out: list[int] = []
    for k, (_, (a, b, c, d, e, f)) in enumerate(data):
        half = (a + d + f) * 0.5
        ab, ac, ae = abs(b), abs(c), abs(e)
        # (A sum of moments that overflows proves nothing: half < inf.)
        if not (
            half - a >= ab + ac and half - d >= ab + ae and half - f >= ac + ae and half < math.inf
        ):
            out.append(k)
    return out
