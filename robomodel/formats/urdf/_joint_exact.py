"""robomodel's own attributes on a joint: what standard URDF cannot state exactly.

Written by :mod:`robomodel.formats.urdf._joint` only where the plain URDF numbers do not read back
to
the value, and read by it only from a document that declares robomodel's namespace
(:data:`robomodel.formats.urdf._document.NS`). Each one must agree with the plain numbers (which
other
tools read) within a small tolerance, so that robomodel and other tools read the same robot:

* ``<limit robomodel:lower|upper|effort|velocity="inf">`` beside iDynTree's ``1e+9`` stand-in,
  and ``robomodel:enabled="false"`` for a prismatic joint without limits (urdfdom needs the
  plain numbers, :func:`limit_xml`, :func:`exact_limits`);
* ``<axis robomodel:direction robomodel:origin>``: the direction in link1 where no ``xyz`` of
  doubles gives it, and the stored point of the line when it is not the child origin
  (:func:`exact_axis`);
* ``<child robomodel:link1_H_link2 robomodel:axis>``: a joint whose link1 is the URDF child
  (written against its direction), with its exact rest transform and axis
  (:func:`child_xml`, :func:`reversed_values`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import make
from robomodel.formats.urdf._document import (
    XMLNS,
    Reader,
    fmt3,
    q,
    read_transform,
    rm,
    strict_numbers,
    transform_text,
)
from robomodel.formats.urdf.errors import URDFValueError
from robomodel.model.joints import FixedJoint, Joint, PrismaticJoint, RevoluteJoint
from robomodel.model.spatial import Axis, Transform

__all__ = [
    "LIMIT_MARKS",
    "RM_DIRECTION",
    "RM_ORIGIN",
    "RM_REST",
    "child_xml",
    "exact_axis",
    "exact_limits",
    "limit_attributes",
    "limit_xml",
    "reversed_values",
]

_BIG = "1e+9"  # iDynTree's stand-in for an unknown limit (issue #955)
_LIMIT_ATTRS = ("lower", "upper", "effort", "velocity")
_RM_LIMITS = tuple(rm(a) for a in _LIMIT_ATTRS)
_RM_ENABLED = rm("enabled")
LIMIT_MARKS = (*_RM_LIMITS, _RM_ENABLED)
"""robomodel's attributes of ``<limit>``."""
RM_DIRECTION = rm("direction")
"""``<axis robomodel:direction>``: the exact direction in link1."""
RM_ORIGIN = rm("origin")
"""``<axis robomodel:origin>``: the exact point of the axis in link1."""
RM_REST = rm("link1_H_link2")
"""``<child robomodel:link1_H_link2>``: the joint's link1 is the URDF child (see above)."""
_RM_AXIS = rm("axis")
_AXIS = make(Axis)  # unit directions checked above


# ---------------------------------------------------------------------- reading
def reversed_values(
    r: Reader, el: Any, what: str, j: Joint, child: str, xyz: Any
) -> tuple[Transform, Axis | None]:
    """Return the rest transform and axis of joint ``j`` reversed (link1 = ``child``).

    ``j`` is the joint as read from its URDF parent to ``child``; the axis is ``None`` for a
    fixed joint.

    ``el`` is the ``<child>`` with ``robomodel:link1_H_link2`` (12 numbers) and, for a moving
    joint, ``robomodel:axis`` (the direction and a point in link1): the exact values, which
    must agree within ``1e-6`` with what the URDF numbers give.
    """
    T = read_transform(r, el, what, RM_REST, j.link1_H_link2.inverse())
    if isinstance(j, FixedJoint):
        return T, None
    near = j.axis(child)
    v = np.array(strict_numbers(r, el, what, _RM_AXIS, 6), dtype=np.float64)
    d, o = v[:3], v[3:]
    if not (
        abs(float(d @ d) - 1.0) <= 1e-12
        and np.abs(d + near.direction).max() <= 1e-6
        and np.abs(o - near.closest_point(o)).max() <= 1e-6 * (1.0 + float(np.abs(o).max()))
    ):
        raise r.err(
            URDFValueError,
            el,
            what,
            "robomodel:axis disagrees with the joint's <axis>; remove the robomodel attributes "
            "or fix them",
        )
    d = immutable(d)
    o = immutable(o)
    return T, _AXIS(d, o)


def exact_axis(r: Reader, el: Any, what: str, axis: Any) -> Axis:
    """Return ``axis`` with the direction and point of ``<axis>`` ``el``'s robomodel attributes.

    ``robomodel:direction`` (in link1) and ``robomodel:origin`` are each optional.

    The direction must be unit and within ``1e-6`` of what ``xyz`` gives (what other tools
    read), the point within ``1e-6`` of the line.
    """
    d = axis.direction
    o = axis.origin
    if el.get(RM_DIRECTION) is not None:
        d = np.array(strict_numbers(r, el, what, RM_DIRECTION, 3), dtype=np.float64)
    if el.get(RM_ORIGIN) is not None:
        o = np.array(strict_numbers(r, el, what, RM_ORIGIN, 3), dtype=np.float64)
    scale = 1.0 + float(np.abs(o).max())
    if not (
        abs(float(d @ d) - 1.0) <= 1e-12
        and np.abs(d - axis.direction).max() <= 1e-6
        and np.abs(o - axis.closest_point(o)).max() <= 1e-6 * scale
    ):
        raise r.err(
            URDFValueError,
            el,
            what,
            "robomodel:direction or robomodel:origin is not the axis that xyz gives in the "
            "parent link; remove the attributes or fix them",
        )
    d = d.copy()
    o = o.copy()
    d = immutable(d)
    o = immutable(o)
    return _AXIS(d, o)


# ---------------------------------------------------------------------- writing
def child_xml(j: Joint, child: str, reversed_: bool) -> str:
    """Return ``<child>``; with robomodel's attributes when ``reversed_``.

    A joint written against its direction (link1 is the URDF child) carries its exact values,
    read by :func:`reversed_values`.
    """
    if not reversed_:
        return f"<child link={q(child)}/>"
    extra = f' robomodel:link1_H_link2="{transform_text(j.link1_H_link2)}"'
    if not isinstance(j, FixedJoint):
        a = j.axis_in_link1
        extra += f' robomodel:axis="{fmt3(a.direction + 0.0)} {fmt3(a.origin + 0.0)}"'
    return f"<child link={q(child)} {XMLNS}{extra}/>"


def limit_attributes(j: RevoluteJoint | PrismaticJoint) -> list[tuple[str, float]] | None:
    """Return the attributes of the ``<limit>`` of a moving joint (``None``: it needs none).

    urdfdom (hence Pinocchio) refuses a ``<limit>`` without effort and velocity, and a revolute
    or prismatic joint without ``<limit>``; iDynTree's ``1e+9`` stands in there for an unknown
    (infinite) number, and for the bounds of a prismatic joint without limits. robomodel states
    what the stand-in means in its own attributes (``robomodel:effort="inf"``,
    ``robomodel:enabled="false"``), which its loader reads and other tools ignore, so that the
    joint reads back exactly (:func:`limit_xml`). A continuous joint needs none unless it keeps
    a finite bound, effort or velocity.
    """
    lim = j.limits
    attrs_: list[tuple[str, float]] = []
    if lim.enabled or isinstance(j, PrismaticJoint):
        attrs_ += [("lower", lim.lower), ("upper", lim.upper)]
    else:  # continuous: the bounds it keeps, if any
        attrs_ += [
            (a, v) for a, v in (("lower", lim.lower), ("upper", lim.upper)) if math.isfinite(v)
        ]
        if not attrs_ and not (math.isfinite(j.effort_limit) or math.isfinite(j.velocity_limit)):
            return None
    attrs_ += [("effort", j.effort_limit), ("velocity", j.velocity_limit)]
    return attrs_


def limit_xml(attributes: list[tuple[str, float]], numbers: Iterator[str], disabled: bool) -> str:
    """Return the ``<limit>`` of :func:`limit_attributes` ``attributes``.

    ``numbers`` yields the texts of the finite values, in order; ``disabled``: the joint is
    prismatic without limits (``robomodel:enabled="false"``).
    """
    plain: list[str] = []
    marks: list[str] = []
    for a, v in attributes:
        if math.isfinite(v):
            plain.append(f'{a}="{next(numbers)}"')
        else:
            plain.append(f'{a}="{"-" if v < 0 else ""}{_BIG}"')
            marks.append(f'robomodel:{a}="{"-" if v < 0 else ""}inf"')
    if disabled:
        marks.append('robomodel:enabled="false"')
    if marks:
        plain += [XMLNS, *marks]
    return f"<limit {' '.join(plain)}/>"


def exact_limits(
    r: Reader, lim: Any, what: str, values: list[float], enabled: bool
) -> tuple[list[float], bool]:
    """Apply robomodel's attributes of ``<limit>`` (see :func:`limit_xml`).

    ``values`` are the lower, upper, effort and velocity read, ``enabled`` whether the limits
    apply.
    """
    get = lim.get
    out = list(values)
    for k, a in enumerate(_LIMIT_ATTRS):
        text = get(_RM_LIMITS[k])
        if text is not None:
            if text not in ("inf", "-inf") or (k >= 2 and text != "inf"):
                raise r.err(
                    URDFValueError,
                    lim,
                    what,
                    f"<limit robomodel:{a}={text!r}> must be 'inf'"
                    + (" or '-inf'" if k < 2 else "")
                    + "; remove it or give the number in the plain attribute",
                )
            out[k] = float(text)
    flag = get(_RM_ENABLED)
    if flag is not None:
        if flag not in ("true", "false"):
            raise r.err(
                URDFValueError,
                lim,
                what,
                f"<limit robomodel:enabled={flag!r}> must be 'true' or 'false'",
            )
        enabled = flag == "true"
    if out[0] > out[1]:
        raise r.err(URDFValueError, lim, what, "robomodel's bounds give lower > upper; fix them")
    return out, enabled
