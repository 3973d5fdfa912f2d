"""Hypothesis strategies for robomodel values (one per value type, plural names).

Trees are drawn link by link, each link's parent drawn next to it, so that shrinking can drop a
link. Everything drawn is finite and well conditioned enough for 1e-9 comparisons.
"""

from __future__ import annotations

import math
import os

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

import robomodel as rm
from robomodel.spatial import rotation_from_rpy

SLOW = settings(
    max_examples=int(os.environ.get("ROBOMODEL_SLOW_EXAMPLES", "500")), deadline=None
)
"""Settings for tests marked ``slow`` (CI sets ROBOMODEL_SLOW_EXAMPLES lower)."""

finite = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False)
angles = st.floats(-math.pi, math.pi, allow_nan=False, allow_infinity=False)
names = st.text("abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)


@st.composite
def unit_vectors(draw: st.DrawFn) -> np.ndarray:
    v = np.array([draw(st.floats(-1, 1)) for _ in range(3)])
    n = float(np.linalg.norm(v))
    if n < 1e-3:
        return np.array([0.0, 0.0, 1.0])
    return v / n


@st.composite
def rotations(draw: st.DrawFn) -> np.ndarray:
    return rotation_from_rpy(draw(angles), draw(angles), draw(angles))


@st.composite
def transforms(draw: st.DrawFn, scale: float = 1.0) -> rm.Transform:
    R = draw(rotations())
    p = [draw(st.floats(-scale, scale)) for _ in range(3)]
    return rm.Transform(R, p)


@st.composite
def inertias(draw: st.DrawFn, allow_zero: bool = True) -> rm.SpatialInertia:
    """Physically consistent inertias (and, if allowed, the zero inertia)."""
    if allow_zero and draw(st.booleans()) and draw(st.booleans()):
        return rm.SpatialInertia.zero()
    m = draw(st.floats(0.05, 5.0))
    c = [draw(st.floats(-0.5, 0.5)) for _ in range(3)]
    a, b = draw(st.floats(0.01, 1.0)), draw(st.floats(0.01, 1.0))
    c3 = draw(st.floats(abs(a - b) + 0.001, a + b))
    R = draw(rotations())
    I_C = R @ np.diag([a, b, c3]) @ R.T
    return rm.SpatialInertia.from_com(m, c, I_C)


@st.composite
def joints(draw: st.DrawFn, link1: str = "a", link2: str = "b") -> rm.Joint:
    kind = draw(st.sampled_from(["fixed", "revolute", "prismatic"]))
    rest = draw(transforms())
    if kind == "fixed":
        return rm.FixedJoint(link1=link1, link2=link2, link1_H_link2=rest)
    axis = rm.Axis(draw(unit_vectors()), [draw(st.floats(-0.5, 0.5)) for _ in range(3)])
    lo = draw(st.floats(-3.0, 0.0))
    hi = draw(st.floats(0.0, 3.0))
    limits = rm.PositionLimits(enabled=draw(st.booleans()), lower=lo, upper=hi)
    cls = rm.RevoluteJoint if kind == "revolute" else rm.PrismaticJoint
    return cls(link1=link1, link2=link2, link1_H_link2=rest, axis_in_link1=axis, limits=limits)


@st.composite
def models(
    draw: st.DrawFn, max_links: int = 8, min_links: int = 1, max_frames: int = 3
) -> rm.Model:
    """Random valid trees: link ``i`` hangs from a random earlier link, in either joint direction."""
    n = draw(st.integers(min_links, max_links))
    m = rm.add_link(rm.Model(), "L0", rm.Link(draw(inertias())))
    for i in range(1, n):
        parent = draw(st.integers(0, i - 1))
        reverse = draw(st.booleans())
        a, b = (f"L{i}", f"L{parent}") if reverse else (f"L{parent}", f"L{i}")
        m = rm.add_link(m, f"L{i}", rm.Link(draw(inertias())))
        m = rm.add_joint(m, f"J{i}", draw(joints(a, b)))
    for k in range(draw(st.integers(0, max_frames))):
        link = f"L{draw(st.integers(0, n - 1))}"
        m = rm.add_frame(m, link, f"F{k}", draw(transforms()))
    return m
