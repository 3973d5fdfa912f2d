"""chain_to_model and model_to_chain: DH chains and Model values describe the same kinematics."""

from __future__ import annotations

import itertools
import math

import attrs
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import dh_chains, transforms, unit_vectors

import robomodel as rm
from robomodel.errors import ModelError
from robomodel.formats.dh import (
    DHChain,
    block_link,
    chain_to_model,
    icub_arm,
    model_to_chain,
    release_link,
    set_angles,
)
from robomodel.model.spatial import Transform

try:  # Prefer the library's forward kinematics once it exists (written in parallel).
    from robomodel.physics.kinematics import relative_transform as _library_relative_transform
except ImportError:  # pragma: no cover - depends on the checkout
    _library_relative_transform = None


def _walk_relative_transform(
    model: rm.Model, q: np.ndarray, frame_a: str, frame_b: str
) -> Transform:
    """Oracle FK: compose joint transforms along the traversal from frame_a's link."""
    base = model.frame_link(frame_a)
    poses: dict[int, Transform] = {base: Transform.identity()}
    for el in model.traversal(base):
        if el.parent is None:
            continue
        j = model.joints[el.joint]
        qj = float(q[j.pos_coord_offset]) if j.n_pos_coords else 0.0
        step = j.transform(qj, model.link_names[el.parent], model.link_names[el.link])
        poses[el.link] = poses[el.parent] @ step
    a_H_base = model.frame_transform(frame_a).inverse()
    return a_H_base @ poses[model.frame_link(frame_b)] @ model.frame_transform(frame_b)


def relative_transform(model: rm.Model, q: np.ndarray, frame_a: str, frame_b: str) -> Transform:
    """``frame_a_H_frame_b`` at joint positions ``q`` (robomodel.physics.kinematics when
    available)."""
    if _library_relative_transform is not None:
        return _library_relative_transform(model, q, frame_a, frame_b)
    return _walk_relative_transform(model, q, frame_a, frame_b)


def free_all(chain: DHChain) -> DHChain:
    for i in range(chain.n_links):
        chain = release_link(chain, i)
    return chain


def random_within_limits(chain: DHChain, data: st.DataObject) -> np.ndarray:
    return np.array([data.draw(st.floats(lk.min, lk.max)) for lk in chain.links])


# ---------------------------------------------------------------------- chain_to_model
@given(dh_chains(), st.data())
def test_chain_to_model_fk_equals_chain_fk(chain: DHChain, data: st.DataObject) -> None:
    """For every q within the limits, base_frame -> distal_frame of the model is the chain's pose
    (1e-12), and so is every link frame: link k+1 carries DH frame k."""
    free = free_all(chain)
    q = random_within_limits(chain, data)
    moved, clamped = set_angles(free, q)
    np.testing.assert_array_equal(clamped, q)
    model = chain_to_model(chain)
    assert model.n_dofs == chain.n_links
    H = relative_transform(model, q, "base_frame", "distal_frame")
    np.testing.assert_allclose(H.as_matrix(), moved.end_effector_pose().as_matrix(), atol=1e-12)
    k = data.draw(st.integers(0, chain.n_links - 2)) if chain.n_links > 1 else None
    if k is not None:
        Hk = relative_transform(model, q, "base_frame", f"link{k + 1}")
        np.testing.assert_allclose(Hk.as_matrix(), moved.pose(k).as_matrix(), atol=1e-12)


def test_chain_to_model_structure() -> None:
    chain = icub_arm("right", "2.7")
    model = chain_to_model(chain)
    assert list(model.link_names) == [f"link{k}" for k in range(11)]
    assert list(model.joint_names) == [f"joint{k}" for k in range(10)]
    assert [f.name for f in model.frames] == ["base_frame", "distal_frame"]
    j = model.joint("joint3")
    assert isinstance(j, rm.RevoluteJoint)
    assert (j.limits.enabled, j.limits.lower, j.limits.upper) == (
        True,
        chain.links[3].min,
        chain.links[3].max,
    )
    assert all(model.link(k).mass == 1.0 for k in range(11))  # iDynTree gives every link 1 kg


def test_blocked_as_fixed() -> None:
    """Blocked links become fixed joints at their blocked angle; the pose is unchanged."""
    chain = block_link(icub_arm("right", "2.7"), 5, 0.3)
    model = chain_to_model(chain, blocked_as_fixed=True)
    assert model.n_dofs == chain.n_dofs == 6
    q = chain.angles
    H = relative_transform(model, q, "base_frame", "distal_frame")
    np.testing.assert_allclose(H.as_matrix(), chain.end_effector_pose().as_matrix(), atol=1e-12)


# ---------------------------------------------------------------------- model_to_chain
@given(dh_chains(), st.data())
def test_model_to_chain_round_trip_reproduces_fk(chain: DHChain, data: st.DataObject) -> None:
    """model_to_chain(chain_to_model(c)) has the same pose as c at every q within the limits,
    with the same limits and the model's joint names."""
    back = model_to_chain(chain_to_model(chain), "base_frame", "distal_frame")
    assert back.n_links == chain.n_links
    assert [lk.name for lk in back.links] == [f"joint{k}" for k in range(chain.n_links)]
    assert [(lk.min, lk.max) for lk in back.links] == [(lk.min, lk.max) for lk in chain.links]
    q = random_within_limits(chain, data)
    a = set_angles(free_all(chain), q)[0].end_effector_pose()
    b = set_angles(back, q)[0].end_effector_pose()
    np.testing.assert_allclose(b.as_matrix(), a.as_matrix(), atol=1e-9)


@st.composite
def serial_models(draw: st.DrawFn) -> rm.Model:
    """Serial chains L0..Ln of revolute and fixed joints in random directions, axes anywhere;
    frames 'tip' on Ln and 'root' on L0 at random poses."""
    n = draw(st.integers(1, 6))
    m = rm.add_link(rm.Model(), "L0")
    for i in range(1, n + 1):
        m = rm.add_link(m, f"L{i}")
        a, b = (f"L{i}", f"L{i - 1}") if draw(st.booleans()) else (f"L{i - 1}", f"L{i}")
        rest = draw(transforms())
        if i > 1 and draw(st.booleans()) and draw(st.booleans()):
            joint: rm.Joint = rm.FixedJoint(link1=a, link2=b, link1_H_link2=rest)
        else:
            axis = rm.Axis(draw(unit_vectors()), [draw(st.floats(-0.5, 0.5)) for _ in range(3)])
            limits = rm.PositionLimits(enabled=draw(st.booleans()), lower=-2.0, upper=2.0)
            joint = rm.RevoluteJoint(
                link1=a, link2=b, link1_H_link2=rest, axis_in_link1=axis, limits=limits
            )
        m = rm.add_joint(m, f"J{i}", joint)
    m = rm.add_frame(m, "L0", "root", draw(transforms()))
    return rm.add_frame(m, f"L{n}", "tip", draw(transforms()))


def _axis_directions(model: rm.Model, names: list[str]) -> list[np.ndarray]:
    """Directions of the named revolute joints' axes in the root frame at q = 0."""
    q = np.zeros(model.n_pos_coords)
    out = []
    for name in names:
        j = model.joint(name)
        assert isinstance(j, rm.RevoluteJoint)
        H = _walk_relative_transform(model, q, "root", j.link1)
        out.append(H.rotation @ j.axis_in_link1.direction)
    return out


@given(serial_models(), st.data())
def test_model_to_chain_matches_model_fk(model: rm.Model, data: st.DataObject) -> None:
    """For a random serial revolute chain, the extracted DH chain's pose equals the model's
    root -> tip transform at random joint positions (joint signs and order preserved)."""
    revolute = [n for n, j in zip(model.joint_names, model.joints, strict=True) if j.n_dofs]
    # Nearly parallel consecutive axes are ill-conditioned by nature (see model_to_chain); keep
    # exactly parallel ones and pairs at least 1e-3 rad apart.
    directions = _axis_directions(model, revolute)
    for u, v in itertools.pairwise(directions):
        assume(not 1e-12 < float(np.linalg.norm(np.cross(u, v))) < 1e-3)
    chain = model_to_chain(model, "root", "tip", max_distance=1e6)
    assert [lk.name for lk in chain.links] == revolute
    q_dh = np.array([data.draw(st.floats(-math.pi, math.pi)) for _ in revolute])
    q = np.zeros(model.n_pos_coords)
    for name, v in zip(revolute, q_dh, strict=True):
        q[model.joint(name).pos_coord_offset] = v
    H = relative_transform(model, q, "root", "tip")
    got = set_angles(attrs.evolve(chain, constrained=False), q_dh)[0].end_effector_pose()
    np.testing.assert_allclose(got.as_matrix(), H.as_matrix(), atol=1e-9)
    # The reverse direction is a serial chain too.
    back = model_to_chain(model, "tip", "root", max_distance=1e6)
    assert [lk.name for lk in back.links] == revolute[::-1]


def test_model_to_chain_of_icub_arm_keeps_parameters_of_a_dh_model() -> None:
    """On a chain already in DH form the extracted a, d, alpha agree up to sign choices."""
    chain = icub_arm("left", "2.7")
    back = model_to_chain(chain_to_model(chain), "base_frame", "distal_frame")
    for x, y in zip(chain.links[1:-1], back.links[1:-1], strict=True):
        assert abs(x.a) == pytest.approx(abs(y.a), abs=1e-12)
        assert abs(math.sin(x.alpha)) == pytest.approx(abs(math.sin(y.alpha)), abs=1e-12)


def _two_joint_model(axis2: rm.Axis, second: type = rm.RevoluteJoint) -> rm.Model:
    m = rm.add_link(rm.add_link(rm.add_link(rm.Model(), "a"), "b"), "c")
    m = rm.add_joint(
        m, "j1", rm.RevoluteJoint(link1="a", link2="b", axis_in_link1=rm.Axis((0, 0, 1)))
    )
    return rm.add_joint(m, "j2", second(link1="b", link2="c", axis_in_link1=axis2))


def test_parallel_axes_are_handled() -> None:
    """Parallel axes: the ambiguous common normal is taken through the previous origin (d = 0)."""
    m = _two_joint_model(rm.Axis((0, 0, 1), (0.3, 0.0, 0.7)))
    chain = model_to_chain(m, "a", "c")
    assert chain.links[1].d == 0.0
    assert chain.links[0].a == pytest.approx(0.3)
    assert chain.links[0].alpha == pytest.approx(0.0)
    # Coincident axes work too.
    chain = model_to_chain(_two_joint_model(rm.Axis((0, 0, -1), (0.0, 0.0, 2.0))), "a", "c")
    assert chain.links[0].a == 0.0 and abs(chain.links[0].alpha) == pytest.approx(math.pi)


def test_nearly_parallel_skew_axes_are_explained() -> None:
    """Skew axes ~1e-7 rad from parallel have their common normal ~1e6 m away: an error naming
    the two joints; raising parallel_tolerance treats them as parallel."""
    tilt = 1e-7
    # Tilted towards the offset, so the closest approach is ~0.3 / tilt away along the axes.
    axis = rm.Axis((math.sin(tilt), 0.5 * math.sin(tilt), math.cos(tilt)), (0.3, 0.0, 0.0))
    m = _two_joint_model(axis)
    with pytest.raises(
        ModelError, match=r"joints 'j1' and 'j2' have nearly parallel axes, 1\.12e-07 rad apart"
    ):
        model_to_chain(m, "a", "c")
    chain = model_to_chain(m, "a", "c", parallel_tolerance=1e-6)
    assert chain.links[0].a == pytest.approx(0.3)


def test_model_to_chain_errors() -> None:
    with pytest.raises(ModelError, match=r"'j2' .* is prismatic"):
        model_to_chain(_two_joint_model(rm.Axis((1, 0, 0)), rm.PrismaticJoint), "a", "c")
    m = rm.add_link(rm.add_link(rm.Model(), "a"), "b")
    fixed = rm.add_joint(m, "f", rm.FixedJoint(link1="a", link2="b"))
    with pytest.raises(ModelError, match="no revolute joint"):
        model_to_chain(fixed, "a", "b")
    with pytest.raises(ModelError, match="no joint path connects"):
        model_to_chain(m, "a", "b")
    with pytest.raises(rm.UnknownNameError):
        model_to_chain(fixed, "a", "nowhere")
