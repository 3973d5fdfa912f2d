"""Tests of forward_kinematics_batch's reusable workspace (BatchPoses, ``out=``).

The oracle is the fresh call (no ``out``) on the same inputs: a workspace changes where the
results live, never their values, so they must agree bit for bit.
"""

from __future__ import annotations

import icub_models
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import models, transforms

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError, UnknownNameError
from robomodel.formats import urdf
from robomodel.physics.kinematics import BatchPoses, forward_kinematics_batch


def assert_same_bits(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> None:
    """Same names in the same order, same shapes and layout, the same bytes."""
    assert list(got) == list(want)
    for name in want:
        a, b = got[name], want[name]
        assert a.shape == b.shape and a.strides == b.strides, name
        assert a.tobytes() == b.tobytes(), name
        assert not a.flags.writeable, name


@st.composite
def requests(draw: st.DrawFn):
    """A random tree with extra frames (some at the identity, several on one link), a base,
    a frame list (None, or names and indices mixed, possibly repeated) and two batches."""
    m = draw(models(max_links=7))
    for k in range(draw(st.integers(0, 5))):
        link = draw(st.integers(0, m.n_links - 1))
        T = rm.Transform.identity() if draw(st.booleans()) else draw(transforms())
        m = rm.add_frame(m, m.link_names[link], f"X{k}", T)
    base = draw(st.integers(0, m.n_links - 1))
    frames = draw(
        st.none()
        | st.lists(
            st.integers(0, m.n_frames - 1).flatmap(lambda i: st.sampled_from([i, m.frame_name(i)])),
            max_size=12,
        )
    )
    n = draw(st.integers(0, 6))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    Q1, Q2 = (rng.uniform(-4.0, 4.0, (n, m.n_pos_coords)) for _ in range(2))
    return m, base, frames, Q1, Q2


@given(requests())
def test_workspace_results_equal_fresh_results_bit_for_bit(req):
    """With out=BatchPoses(...), every call returns exactly the fresh call's arrays' contents,
    as the same array objects each time (the second call overwrites the first's results), and
    fresh results taken before stay untouched."""
    m, base, frames, Q1, Q2 = req
    ws = BatchPoses(m, len(Q1), frames, base=base)
    fresh1 = forward_kinematics_batch(m, Q1, frames=frames, base=base)
    kept = {k: v.copy() for k, v in fresh1.items()}
    first = forward_kinematics_batch(m, Q1, frames=frames, base=base, out=ws)
    assert_same_bits(first, fresh1)
    second = forward_kinematics_batch(m, Q2, frames=frames, base=base, out=ws)
    assert_same_bits(second, forward_kinematics_batch(m, Q2, frames=frames, base=base))
    assert all(first[k] is second[k] for k in second)
    for k, v in fresh1.items():
        np.testing.assert_array_equal(v, kept[k])
        assert not np.shares_memory(v, second[k])
    assert ws.frames == tuple(second)
    assert ws.n == len(Q1) and ws.base == m.link_index(m.link_names[base]) and ws.model is m


def test_workspace_on_icub_matches_fresh_and_is_reused():
    """iCub's 273 frames from the default base, a subset from another base: the workspace
    results equal the fresh ones bit for bit over repeated calls."""
    model = urdf.load(str(icub_models.get_model_file("iCubGazeboV2_7")))
    rng = np.random.default_rng(19)
    ws = BatchPoses(model, 300)
    subset = ["l_hand", "r_sole", model.frame_names[7], 0, "r_sole"]
    ws_sub = BatchPoses(model, 300, subset, base="l_foot")
    previous = None
    for _ in range(3):
        Q = rng.uniform(-1.5, 1.5, (300, model.n_pos_coords))
        got = forward_kinematics_batch(model, Q, out=ws)
        assert_same_bits(got, forward_kinematics_batch(model, Q))
        if previous is not None:
            assert all(got[k] is previous[k] for k in got)
        previous = got
        sub = forward_kinematics_batch(model, Q, frames=subset, base="l_foot", out=ws_sub)
        assert_same_bits(sub, forward_kinematics_batch(model, Q, frames=subset, base="l_foot"))
    assert len(ws.frames) == model.n_frames == 273


def test_results_of_a_workspace_are_read_only_and_do_not_follow_the_returned_dict():
    m = _chain()
    ws = BatchPoses(m, 2)
    out = forward_kinematics_batch(m, np.zeros((2, 1)), out=ws)
    with pytest.raises(ValueError):
        out["tip"][0, 0, 0] = 2.0
    del out["tip"]
    again = forward_kinematics_batch(m, np.ones((2, 1)), out=ws)
    assert list(again) == list(ws.frames) == ["base", "arm", "tip"]


def test_equivalent_requests_are_accepted():
    """Frames by index or by name, an equal (not identical) model, the base by name or index:
    the same request, so the same workspace serves it."""
    m = _chain()
    ws = BatchPoses(m, 3, ["tip", "arm"], base="base")
    Q = np.random.default_rng(1).uniform(-1, 1, (3, 1))
    twin = _chain()
    assert twin == m and twin is not m
    want = forward_kinematics_batch(m, Q, frames=["tip", "arm"])
    for frames, model, base in (
        ([2, 1], m, 0),
        (("tip", "arm", "tip"), m, None),
        (["tip", 1], twin, "base"),
    ):
        assert_same_bits(forward_kinematics_batch(model, Q, frames=frames, base=base, out=ws), want)


def test_mismatched_workspaces_are_refused_with_what_to_do():
    m = _chain()
    ws = BatchPoses(m, 2, ["tip"])
    Q = np.zeros((2, 1))
    cases = [
        (dict(out="workspace"), "out must be a BatchPoses"),
        (dict(out=forward_kinematics_batch(m, Q, frames=["tip"])), "out must be a BatchPoses"),
        (dict(frames=None), "frames"),
        (dict(frames=["arm"]), "frames"),
        (dict(frames=["tip", "arm"]), "frames"),
        (dict(base="arm"), "base 'base', but this call's base is 'arm'"),
        (dict(Q=np.zeros((3, 1))), "out holds 2 configurations, but Q has 3 rows"),
        (dict(model=rm.add_frame(m, "arm", "extra", rm.Transform.identity())), "another model"),
    ]
    for change, message in cases:
        args = dict(model=m, Q=Q, frames=["tip"], base=None, out=ws) | change
        with pytest.raises(ArgumentError, match=message) as info:
            forward_kinematics_batch(
                args["model"], args["Q"], frames=args["frames"], base=args["base"], out=args["out"]
            )
        if change.get("out") is None:
            assert "BatchPoses(model, n, frames, base=...)" in str(info.value)
    # The request itself is checked first, as without a workspace.
    with pytest.raises(UnknownNameError):
        forward_kinematics_batch(m, Q, frames=["nope"], out=ws)
    with pytest.raises(ArgumentError, match="wrap a single name"):
        forward_kinematics_batch(m, Q, frames="tip", out=ws)
    # Memory a caller made read-only through a result's base is refused, not half written.
    out = forward_kinematics_batch(m, Q, frames=["tip"], out=ws)
    out["tip"].base.setflags(write=False)
    with pytest.raises(ArgumentError, match="read-only"):
        forward_kinematics_batch(m, Q, frames=["tip"], out=ws)


def test_bad_workspace_arguments():
    m = _chain()
    for n in (-1, 2.0, True, "3", None):
        with pytest.raises(ArgumentError, match="n must be a non-negative int"):
            BatchPoses(m, n)  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError):
        BatchPoses(m, 2, ["nope"])
    with pytest.raises(UnknownNameError):
        BatchPoses(m, 2, base="nope")
    with pytest.raises(ArgumentError, match="wrap a single name"):
        BatchPoses(m, 2, "tip")
    island = rm.add_link(m, "island")
    with pytest.raises(ModelError, match="not connected to the base"):
        BatchPoses(island, 2, ["island"])
    ws = BatchPoses(m, np.int64(4), [2])
    assert ws.n == 4 and ws.frames == ("tip",)
    assert repr(ws) == "BatchPoses(n=4, frames=1, base='base')"
    assert rm.BatchPoses is BatchPoses


def test_empty_and_single_configuration_workspaces():
    m = _chain()
    for n in (0, 1):
        ws = BatchPoses(m, n)
        Q = np.full((n, 1), 0.5)
        assert_same_bits(forward_kinematics_batch(m, Q, out=ws), forward_kinematics_batch(m, Q))


def _chain() -> rm.Model:
    """base -(revolute z, 1 m along x)- arm, with a frame 'tip' 0.5 m along the arm's y."""
    m = rm.add_link(rm.Model(), "base")
    j = rm.RevoluteJoint(
        link1="base",
        link2="arm",
        axis_in_link1=rm.Axis((0, 0, 1)),
        link1_H_link2=rm.Transform.from_translation((1, 0, 0)),
    )
    m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
    return rm.add_frame(m, "arm", "tip", rm.Transform.from_translation((0, 0.5, 0)))
