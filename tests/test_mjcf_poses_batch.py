"""The MJCF writer's stacked pose numbers are those of its one-transform functions, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import models, rotations

import robomodel as rm
from robomodel._internal.xml_text import Part
from robomodel.errors import MJCFError
from robomodel.formats.mjcf._common import (
    NumberSlots,
    near_body_frame,
    nums,
    pose_attrs,
    poses_written,
    quat_from_rows,
    quats_from_rotations,
)
from robomodel.formats.mjcf.dump import _Writer
from robomodel.formats.mjcf.options import DumpOptions
from robomodel.model.spatial import Transform

# Rotations a model file holds: multiples of 90 degrees about the axes (each of Shepperd's
# branches, exact zeros and ones), half turns, and arbitrary ones.
_QUARTER = [
    np.array(r, dtype=float)
    for r in (
        [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
        [[0, 0, 1], [0, 1, 0], [-1, 0, 0]],
        [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
    )
]
_AXIS_ALIGNED = st.lists(st.sampled_from(_QUARTER), max_size=4).map(
    lambda ms: np.linalg.multi_dot([np.eye(3), np.eye(3), *ms])
)
ROTATIONS = st.one_of(rotations(), _AXIS_ALIGNED)
POSITIONS = st.one_of(
    st.just(np.zeros(3)),
    st.lists(st.floats(-2.0, 2.0), min_size=3, max_size=3).map(np.array),
    st.lists(st.floats(-1e-5, 1e-5), min_size=3, max_size=3).map(np.array),
)


@given(st.lists(ROTATIONS, min_size=1, max_size=8))
def test_stacked_quaternions_are_the_scalar_ones(Rs: list[np.ndarray]) -> None:
    """quats_from_rotations gives quat_from_rows of each rotation, bit for bit."""
    Q = quats_from_rotations(np.array(Rs))
    assert Q is not None
    for R, q in zip(Rs, Q.tolist(), strict=True):
        assert q == list(quat_from_rows(R.tolist()))


@given(st.lists(st.tuples(ROTATIONS, POSITIONS), min_size=1, max_size=8))
def test_stacked_poses_are_written_as_one_by_one(
    poses: list[tuple[np.ndarray, np.ndarray]],
) -> None:
    """poses_written gives the pos/quat texts pose_attrs writes, and near_body_frame's answer."""
    slots = NumberSlots()
    out = poses_written(np.array([R for R, _ in poses]), np.array([p for _, p in poses]), slots)
    assert out is not None
    one_by_one = NumberSlots()
    expected = []
    for R, p in poses:
        attrs: list[Part] = []
        near = near_body_frame(*pose_attrs(attrs, Transform(R, p), one_by_one))
        expected.append((_attribute(attrs, "pos"), _attribute(attrs, "quat"), near))
    texts, texts_one_by_one = slots.texts(), one_by_one.texts()

    def text(slots_texts: list[str], slot: int | None) -> str | None:
        return None if slot is None else slots_texts[slot]

    for (pos, quat, near), (pos1, quat1, near1) in zip(out, expected, strict=True):
        assert (text(texts, pos), text(texts, quat), near) == (
            text(texts_one_by_one, pos1),
            text(texts_one_by_one, quat1),
            near1,
        )


def _attribute(attrs: list[Part], name: str) -> int | None:
    """The slot of attribute ``name`` among text parts (``' name="'``, slot, ``'"'``)."""
    for k, part in enumerate(attrs):
        if isinstance(part, str) and part.endswith(f' {name}="'):
            slot = attrs[k + 1]
            assert isinstance(slot, int)
            return slot
    return None


def test_number_slots_are_the_plain_texts() -> None:
    """Every slot's text is what nums writes for the same numbers, whatever the slot sizes,
    zeros of either sign written "0.0"."""
    rng = np.random.default_rng(3)
    slots, groups = NumberSlots(), []
    for n in [1, 3, 4, 2, 3, 1, 4]:
        xs = [float(x) for x in rng.normal(size=n) * 10.0 ** rng.integers(-20, 20)]
        xs[0] = -0.0 if n == 2 else xs[0]
        groups.append((slots.add(xs), xs))
    rows = rng.normal(size=(3, 3))
    groups += [(slot, row) for slot, row in zip(slots.add_rows(rows), rows.tolist(), strict=True)]
    texts = slots.texts()
    for slot, xs in groups:
        assert texts[slot] == nums(xs)


def test_number_slots_refuse_non_finite_numbers() -> None:
    """A non-finite number is refused as nums refuses it, naming the first slot holding one."""
    slots = NumberSlots()
    slots.add([1.0, 2.0])
    slots.add([0.5, math.inf])
    slots.add([math.nan])
    with pytest.raises(MJCFError, match=r"non-finite numbers in '0\.5 inf'"):
        slots.texts()


@given(models(max_links=8), st.integers(0, 7))
def test_stacked_joint_axes_are_joint_axis(m: rm.Model, base: int) -> None:
    """The writer's axes of all joints at once are Joint.axis(child) of each, bit for bit,
    from any base (joints seen from link2 and reversed ones)."""
    writer = _Writer(m, DumpOptions(base=m.link_names[base % m.n_links]))
    writer.tr = m.traversal(base % m.n_links)
    axes = writer._child_axes()
    for e in writer.tr:
        if e.joint is not None and e.joint in axes:
            expected = m.joints[e.joint].axis(m.link_names[e.link])
            assert axes[e.joint].direction.tobytes() == expected.direction.tobytes()
            assert axes[e.joint].origin.tobytes() == expected.origin.tobytes()
