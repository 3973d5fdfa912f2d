"""Numbers are canonical: a value stores ``-0.0`` as ``0.0``, so equal values look alike everywhere.

``-0.0 == 0.0``, so two models differing only in the sign of some zeros are equal; they must then
also hash alike, give the same bytes from every writer (URDF, MJCF, JSON, DH, pickle) and the same
derived quantities (``atan2(-0.0, -1)`` is ``-pi`` but ``atan2(0.0, -1)`` is ``pi``: a yaw of
``+pi`` for one and ``-pi`` for the other). The property draws one model template and builds it
twice with independently drawn zero signs; rotations are signed permutations (half their entries
are zeros, and their angles are multiples of pi/2, where the sign of a zero decides +-pi).
"""

from __future__ import annotations

import itertools
import math
import pickle
import re
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robomodel as rm
from robomodel._internal.arrays import frozen_bytes, immutable
from robomodel.errors import RobomodelError
from robomodel.formats import (
    dh,
    mjcf,  # its writer needs no MuJoCo
    urdf,
)
from robomodel.formats import json as rjson
from robomodel.formats.mjcf._common import quat_from_rotation
from robomodel.model.spatial import rpy_from_rotation

_PERMUTATIONS = [
    np.array(p, dtype=np.float64) * np.array(s, dtype=np.float64)[:, None]
    for p in itertools.permutations(np.eye(3))
    for s in itertools.product((1.0, -1.0), repeat=3)
]
ROTATIONS = [R for R in _PERMUTATIONS if np.linalg.det(R) > 0]  # the 24 proper ones
"""Rotations by multiples of pi/2: six zero entries each."""

_MAGNITUDES = st.sampled_from([0.0, 0.0, 0.0, 0.25, 1.0, 2.0])


def _signed(values: list[float], signs: list[bool]) -> Iterator[float]:
    """``values`` with each zero given the next sign of ``signs``; nonzero values unchanged."""
    for v, negative in zip(values, signs, strict=True):
        yield -0.0 if v == 0.0 and negative else v


def _rotation(k: int, numbers: Iterator[float]) -> np.ndarray:
    R = ROTATIONS[k].copy()
    for idx in np.argwhere(R == 0.0):
        R[tuple(idx)] = next(numbers) * 0.0  # a zero whose sign the drawn number decides
    return R


def _vec(numbers: Iterator[float]) -> tuple[float, float, float]:
    return (next(numbers), next(numbers), next(numbers))


def build(plan: list[tuple[int, int, bool]], numbers: Iterator[float]) -> rm.Model:
    """A chain of links, one joint and one frame each, from the template ``plan``.

    Every number (and the sign of every zero, including a rotation's zero entries) comes from
    ``numbers``: two streams equal but for the signs of zeros build two equal models.
    """
    m = rm.Model()
    for i, (rot, kind, shaped) in enumerate(plan):
        mass = abs(next(numbers)) + 1.0
        com = _vec(numbers)
        diag = [abs(next(numbers)) + 1.0 for _ in range(3)]
        inertia = rm.SpatialInertia.from_com(mass, com, np.diag(diag))
        name = f"l{i}"
        link = rm.Link(inertia)
        if i == 0:
            m = rm.add_link(m, name, link)
        else:
            pose = rm.Transform(_rotation(rot, numbers), _vec(numbers))
            R_axis = _rotation(rot, numbers)
            # Through the joint's origin, as URDF's <axis> is.
            axis = pose @ rm.Axis(R_axis[:, 2] + 0.0 * next(numbers), _vec(numbers)[:1] * 3)
            lower = next(numbers)
            limits = rm.PositionLimits(enabled=True, lower=lower - 1.0 + 1.0, upper=lower + 1.0)
            dynamics = rm.JointDynamics(
                kind="urdf", damping=abs(next(numbers)) * 1.0, static_friction=next(numbers) * 0.0
            )
            cls = rm.RevoluteJoint if kind == 0 else rm.PrismaticJoint
            joint: rm.Joint = (
                rm.FixedJoint(link1=f"l{i - 1}", link2=name, link1_H_link2=pose)
                if kind == 2
                else cls(
                    link1=f"l{i - 1}",
                    link2=name,
                    link1_H_link2=pose,
                    axis_in_link1=axis,
                    limits=limits,
                    dynamics=dynamics,
                    effort_limit=abs(next(numbers)) + 0.0 * next(numbers),
                    velocity_limit=abs(next(numbers)) + 1.0,
                )
            )
            m = rm.add_joint_and_link(m, f"l{i - 1}", f"j{i}", joint, name, link)
        frame = rm.Transform(_rotation((rot + 5) % 24, numbers), _vec(numbers))
        m = rm.add_frame(m, name, f"f{i}", frame)
        if shaped:
            box = rm.Box(abs(next(numbers)) + 0.5, 0.5, 0.0 * next(numbers))
            shape = rm.SolidShape(
                geometry=box, link_H_geometry=rm.Transform(_rotation(rot, numbers), _vec(numbers))
            )
            m = rm.with_visual_shapes(m, name, [shape])
    return m


@st.composite
def zero_sign_pairs(draw: st.DrawFn) -> tuple[rm.Model, rm.Model]:
    """Two models from one template whose zeros carry independently drawn signs."""
    n = draw(st.integers(1, 3))
    plan = [
        (draw(st.integers(0, 23)), draw(st.integers(0, 2)), draw(st.booleans())) for _ in range(n)
    ]
    values = draw(st.lists(_MAGNITUDES, min_size=60 * n, max_size=60 * n))
    signs = st.lists(st.booleans(), min_size=len(values), max_size=len(values))
    a = build(plan, _signed(values, draw(signs)))
    b = build(plan, _signed(values, draw(signs)))
    return a, b


_NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(?:\.0*)?(?:[eE][-+]?\d+)?(?![\w.])")


def _outputs(m: rm.Model) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {"json": rjson.dumps(m), "pickle": pickle.dumps(m)}
    writers = {"urdf": urdf.dumps, "mjcf": lambda m: mjcf.dumps_with_report(m)[0]}
    for fmt, write in writers.items():
        try:
            out[fmt] = write(m)
        except RobomodelError as exc:  # refused alike for both, or the test fails below
            out[fmt] = f"error: {exc}"
    return out


def _derived(m: rm.Model) -> list[str]:
    poses = [j.link1_H_link2 for j in m.joints] + [f.link_H_frame for f in m.frames]
    poses += [s.link_H_geometry for shapes in m.visuals for s in shapes]
    out = [" ".join(x.hex() for x in rpy_from_rotation(T.rotation)) for T in poses]
    return out + [" ".join(x.hex() for x in quat_from_rotation(T.rotation)) for T in poses]


@settings(max_examples=25, deadline=None)
@given(zero_sign_pairs())
def test_models_equal_but_for_zero_signs_are_identical_everywhere(
    pair: tuple[rm.Model, rm.Model],
) -> None:
    a, b = pair
    assert a == b and hash(a) == hash(b)
    outputs_a, outputs_b = _outputs(a), _outputs(b)
    for fmt, text in outputs_a.items():
        assert text == outputs_b[fmt], f"{fmt} output differs"
        if isinstance(text, str):
            assert not _NEGATIVE_ZERO.search(text), f"{fmt} writes a -0"
    assert _derived(a) == _derived(b)


def test_every_stored_number_is_canonical() -> None:
    """No constructor, converter or trusted path stores a -0.0 (checked bit for bit)."""
    R = ROTATIONS[7] * -1.0 * -1.0
    R[R == 0.0] = -0.0
    T = rm.Transform(R, (-0.0, 0.0, -0.0))
    assert not np.signbit(T.rotation[T.rotation == 0.0]).any()
    assert not np.signbit(T.position).any()
    assert not np.signbit(T.inverse().position).any()
    assert math.copysign(1.0, rm.SpatialInertia(-0.0).mass) == 1.0
    limits = rm.PositionLimits(enabled=True, lower=-0.0, upper=1.0)
    assert math.copysign(1.0, limits.lower) == 1.0
    dyn = rm.JointDynamics(kind="urdf", damping=-0.0, static_friction=-0.0)
    assert math.copysign(1.0, dyn.damping) == math.copysign(1.0, dyn.static_friction) == 1.0
    assert math.copysign(1.0, rm.Mimic(joint="j", offset=-0.0).offset) == 1.0
    assert math.copysign(1.0, rm.Box(-0.0, 1.0, 1.0).x) == 1.0
    # Readers: "-0" in a file is stored as 0.0 as well.
    text = urdf.dumps(rm.add_link(rm.Model(), "a", rm.Link(rm.SpatialInertia(1.0))))
    loaded = urdf.loads(text.replace('<mass value="1"/>', '<mass value="-0"/>'))
    assert math.copysign(1.0, loaded.links[0].mass) == 1.0
    # Pickled state holding a -0.0 (written by hand) is read back canonical.
    assert pickle.loads(pickle.dumps(T)) == T
    assert not np.signbit(pickle.loads(pickle.dumps(T)).position).any()


def test_the_sign_of_a_zero_no_longer_flips_an_angle() -> None:
    """The motivating case: yaw +pi for one transform and -pi for an equal one."""
    R = np.diag([-1.0, -1.0, 1.0])
    R_neg = R.copy()
    R_neg[1, 0] = -0.0
    a, b = rm.Transform(R), rm.Transform(R_neg)
    assert a == b and a.rpy() == b.rpy() and a.rpy()[2] == math.pi


def test_dh_chains_equal_but_for_zero_signs_write_alike() -> None:
    links = [dh.DHLink(-0.0, 0.1, -0.0, offset=-0.0), dh.DHLink(0.0, 0.1, 0.0, offset=0.0)]
    a = dh.DHChain(links=[links[0]], H0=rm.Transform(position=(-0.0, 0, 0)))
    b = dh.DHChain(links=[links[1]], H0=rm.Transform(position=(0.0, 0, 0)))
    assert a == b and dh.dumps(a) == dh.dumps(b) and pickle.dumps(a) == pickle.dumps(b)


@pytest.mark.parametrize("value", [-0.0, 0.0])
def test_results_are_canonical_too(value: float) -> None:
    from robomodel._internal.arrays import frozen_copy

    out = frozen_copy(np.array([value, math.nan, -math.inf]))
    assert not np.signbit(out[0]) and math.isnan(out[1]) and out[2] == -math.inf


@given(
    st.lists(st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, -2.5]), min_size=1, max_size=120)
)
def test_immutable_and_frozen_bytes_store_the_canonical_bits_at_every_size(
    values: list[float],
) -> None:
    """Small arrays go through a byte screen, large ones (above 256 bytes) through ``+ 0.0`` at
    once: both store exactly the bits of ``x + 0.0``, -0.0 folded, the rest unchanged."""
    arr = np.array(values)
    want = (arr + 0.0).tobytes()
    assert immutable(arr).tobytes() == want
    assert immutable(arr[::-1].copy()[::-1]).tobytes() == want
    assert frozen_bytes(arr.tobytes(), arr.shape).tobytes() == want
    assert not immutable(arr).flags.writeable
