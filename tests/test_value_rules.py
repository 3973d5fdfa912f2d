"""Values are what their types say, under the rules the readers enforce, written once.

The properties: a ``Transform`` holds a rotation (orthonormal to round-off, det +1) whatever it
is given within the stated tolerance, and refuses anything else; names, damping, friction,
effort and velocity limits and inertias near the largest double follow the readers' rules; and
every model that ``is_valid()`` reads back ``==`` from every writer's output (URDF, JSON,
pickle; MJCF for models within its subset, see the MJCF test's docstring), with Hypothesis
drawing the constructors' boundaries.
"""

from __future__ import annotations

import importlib.util
import math
import pickle

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from strategies import rotations

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError, URDFExportError
from robomodel.formats import json as rjson
from robomodel.formats import sdf, urdf
from robomodel.model.spatial import ROTATION_ROUNDOFF, ROTATION_TOLERANCE, orthonormality

_OFFSETS = [0.0, 1e-16, 1e-14, 1e-13, 2e-12, 1e-11, 1e-10, 5e-10, 2e-9, 1e-8, 1e-7]


@given(rotations(), st.sampled_from(_OFFSETS), st.integers(0, 8))
def test_a_transform_holds_a_rotation_or_refuses(R: np.ndarray, off: float, k: int) -> None:
    """Within the tolerance the stored matrix is a rotation (its own bits within round-off, the
    nearest rotation beyond); past it, a ModelError."""
    given_R = R.copy()
    given_R.flat[k] += off
    err, _ = orthonormality(given_R)
    if err > ROTATION_TOLERANCE:
        with pytest.raises(ModelError, match="not a rotation"):
            rm.Transform(given_R)
        return
    stored = rm.Transform(given_R).rotation
    assert orthonormality(stored)[0] <= ROTATION_ROUNDOFF and np.linalg.det(stored) > 0
    if err <= ROTATION_ROUNDOFF:  # its own bits, with -0.0 stored as 0.0
        assert stored.tobytes() == (given_R + 0.0).tobytes()
    assert np.abs(stored - given_R).max() <= 2 * ROTATION_TOLERANCE


def test_scalings_and_reflections_are_refused() -> None:
    for bad in (2 * np.eye(3), np.diag([1.0, 1.0, -1.0]), np.eye(3) * (1 + 1e-7)):
        with pytest.raises(ModelError, match="not a rotation"):
            rm.Transform(bad)


@pytest.mark.parametrize("name", ["", " ", "\t", "  \n", "a\x00b", "a\nb", "l\x7f"])
def test_names_every_format_cannot_hold_are_refused(name: str) -> None:
    with pytest.raises(ArgumentError, match="non-empty string of printable characters"):
        rm.add_link(rm.Model(), name)


@pytest.mark.parametrize("name", [" a", "a b", "é", "🦾", "x" * 300])
def test_odd_but_printable_names_round_trip(name: str) -> None:
    m = rm.add_link(rm.Model(), name)
    assert urdf.loads(urdf.dumps(m)) == m
    assert rjson.loads(rjson.dumps(m)) == m


@pytest.mark.parametrize(
    "dynamics", [dict(damping=-0.5), dict(static_friction=-1e-9), dict(damping=math.inf)]
)
def test_negative_damping_and_friction_are_refused(dynamics: dict[str, float]) -> None:
    with pytest.raises(ModelError, match=">= 0"):
        rm.JointDynamics(kind="urdf", **dynamics)


@pytest.mark.parametrize("limit", ["effort_limit", "velocity_limit"])
def test_negative_effort_and_velocity_limits_are_refused(limit: str) -> None:
    with pytest.raises(ModelError, match="magnitude"):
        rm.RevoluteJoint(link1="a", link2="b", **{limit: -1.0})
    assert getattr(rm.RevoluteJoint(link1="a", link2="b", **{limit: -0.0}), limit) == 0.0


def test_an_inertia_near_the_largest_double_stays_finite() -> None:
    inertia = rm.SpatialInertia.from_com(1.0, (0, 0, 0), 1e308 * np.eye(3))
    assert np.isfinite(inertia.rotational_inertia).all()
    assert inertia.rotational_inertia[0, 0] == 1e308


# ---------------------------------------------------------------- every valid model round-trips
_numbers = st.sampled_from([0.0, -0.0, 1e-300, -1e-300, 1e-17, 0.1, -2.5, 1e6, 1e150, -1e150])
_names = st.sampled_from(["a", " b", "c d", "é", "j-1", "0", "n" * 40])


@st.composite
def boundary_models(draw: st.DrawFn, numbers: st.SearchStrategy[float] = _numbers) -> rm.Model:
    """Chains whose numbers (drawn from ``numbers``) and names sit at the constructors'
    boundaries."""
    _numbers = numbers
    n = draw(st.integers(1, 4))
    names = draw(st.lists(_names, min_size=n, max_size=n, unique=True))
    m = rm.Model()
    for i, name in enumerate(names):
        mass = abs(draw(_numbers))
        com = draw(st.tuples(_numbers, _numbers, _numbers))
        moments = sorted(abs(draw(_numbers)) for _ in range(3))
        moments[2] = min(moments[2], moments[0] + moments[1])  # the triangle inequality
        try:
            inertia = rm.SpatialInertia.from_com(mass, com, np.diag(moments))
        except ModelError:
            inertia = rm.SpatialInertia.zero()
        if i == 0:
            m = rm.add_link(m, name, rm.Link(inertia))
            continue
        R = draw(rotations())
        R.flat[draw(st.integers(0, 8))] += draw(st.sampled_from([0.0, 1e-15, 1e-11, 2e-10]))
        pose = rm.Transform(R, draw(st.tuples(_numbers, _numbers, _numbers)))
        joint = rm.RevoluteJoint(
            link1=names[i - 1],
            link2=name,
            link1_H_link2=pose,
            axis_in_link1=pose @ rm.Axis((0.0, 0.0, 1.0)),
            effort_limit=abs(draw(_numbers)),
            velocity_limit=abs(draw(_numbers)),
            dynamics=rm.JointDynamics(
                kind="urdf", damping=abs(draw(_numbers)), static_friction=abs(draw(_numbers))
            ),
        )
        m = rm.add_joint_and_link(m, names[i - 1], f"j{i}", joint, name, rm.Link(inertia))
    return m


@settings(max_examples=80)
@given(boundary_models())
def test_every_valid_model_reads_back_equal_from_every_writer(m: rm.Model) -> None:
    """For a valid model: JSON, pickle, SDFormat, OpenUSD (with usd-core) and URDF (where URDF
    can say it) read back ``==``."""
    if not m.is_valid():
        return
    assert rjson.loads(rjson.dumps(m)) == m
    assert pickle.loads(pickle.dumps(m)) == m
    assert sdf.loads(sdf.dumps_with_report(m)[0]) == m
    if importlib.util.find_spec("pxr") is not None:
        from robomodel.formats import usd

        assert usd.loads(usd.dumps_with_report(m)[0]) == m
    try:
        text = urdf.dumps(m)
    except URDFExportError:
        return  # something URDF cannot say (the writer names it); no half-written text
    assert urdf.loads(text) == m


# ------------------------------------------------------- MJCF: the same property, in its subset
def _in_mujoco_ranges(m: rm.Model) -> bool:
    """Whether every inertia number is 0 or within [1e-12, 1e12] in magnitude.

    MuJoCo clamps what it reads to its own ranges (a moving body's mass and inertia at least
    ``mjMINVAL``, 1e-15) and computes in double precision with them: numbers near the ends of
    the double range (1e-300, 1e150) do not survive its compiler bit for bit.
    """
    for link in m.links:
        inertia = link.inertia
        numbers = [
            inertia.mass,
            *inertia.first_moment.tolist(),
            *inertia.rotational_inertia.ravel().tolist(),
        ]
        if any(x != 0.0 and not 1e-12 <= abs(x) <= 1e12 for x in numbers):
            return False
    return True


_mujoco_numbers = st.sampled_from([0.0, -0.0, 1e-9, 1e-3, 0.1, -2.5, 7.0, 1e6])
"""Boundaries inside MuJoCo's ranges: zeros of both signs, small, large and negative numbers."""


@settings(max_examples=100, deadline=None)
# MuJoCo's compiler warns (its own UserWarning) about the tiny inertias drawn here.
@pytest.mark.filterwarnings("ignore:Inertia matrix is too close to singular:UserWarning")
@given(boundary_models(numbers=_mujoco_numbers))
def test_every_valid_model_reads_back_equal_from_mjcf(m: rm.Model) -> None:
    """For a valid model within MJCF's subset, robomodel's MJCF reads back ``==``.

    MJCF's subset: inertias within MuJoCo's ranges (:func:`_in_mujoco_ranges`), and nothing
    in the writer's report but notes: whatever MJCF cannot carry (an effort limit, a massless
    link's inertia, joint dynamics) is listed there as dropped or changed, and such a model is
    not expected back equal. Everything else (names, positions, limits, inertias) comes back
    bit for bit, and rotations (and the axis directions they rotate) within 1e-14: MJCF writes
    quaternions.
    """
    pytest.importorskip("mujoco")
    from robomodel.formats import mjcf
    from robomodel.tools.diff import diff

    if not m.is_valid() or not _in_mujoco_ranges(m):
        event("outside MJCF's subset")
        return
    text, written = mjcf.dumps_with_report(m)
    lost = sorted({f"{x.kind} {x.action}" for x in written.losses if x.action != "note"})
    if lost:
        event(f"MJCF reports: {', '.join(lost)}")
        return
    event("compared")
    back, _ = mjcf.loads_with_report(text)
    # MJCF holds a rotation as a quaternion: it comes back within round-off, not bit for bit
    # (the report does not say so yet). Everything else comes back exactly.
    differences = diff(m, back).differences
    assert all("rotation" in d.field or "axis direction" in d.field for d in differences), (
        differences
    )
    assert all(d.delta is not None and d.delta <= 1e-14 for d in differences), differences
