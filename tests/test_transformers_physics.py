"""Physics invariants of the transformers, as Hypothesis properties on random trees.

The oracle is the full model itself, evaluated with robomodel.physics.kinematics /
robomodel.physics.dynamics:
a transformer must not change where any frame or sensor is, the mass distribution, or the joint
torques, once removed joints are held at their locked positions.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SLOW, models, public_fields, solid_shapes, transforms

import robomodel as rm
import robomodel.transformers as rt
from robomodel._internal.arrays import FrozenArray, immutable
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import (
    JointState,
    center_of_mass,
    forward_kinematics,
    total_spatial_inertia,
)
from robomodel.transformers._link_poses import _rows

ATOL = 1e-9
GRAVITY = (0.3, -0.2, -9.81)


@st.composite
def models_with_sensors(draw: st.DrawFn, max_links: int = 7) -> rm.Model:
    """Random trees with accelerometers, gyroscopes and F/T sensors on random links and joints."""
    m = draw(models(max_links=max_links, max_frames=3))
    for k in range(draw(st.integers(0, 3))):
        link = m.link_names[draw(st.integers(0, m.n_links - 1))]
        cls = draw(st.sampled_from([rm.Accelerometer, rm.Gyroscope]))
        m = rm.add_sensor(m, cls(name=f"s{k}", link=link, link_H_sensor=draw(transforms())))
    if m.n_joints:
        for k in range(draw(st.integers(0, 2))):
            jn = m.joint_names[draw(st.integers(0, m.n_joints - 1))]
            j = m.joint(jn)
            first, second = (j.link1, j.link2) if draw(st.booleans()) else (j.link2, j.link1)
            second_H_s = draw(transforms())
            m = rm.add_sensor(
                m,
                rm.SixAxisForceTorqueSensor(
                    name=f"ft{k}",
                    parent_joint=jn,
                    first_link=first,
                    second_link=second,
                    first_link_H_sensor=j.rest_transform(first, second) @ second_H_s,
                    second_link_H_sensor=second_H_s,
                    applied_wrench_link=draw(st.sampled_from([first, second])),
                ),
            )
    return m


def random_q(draw: st.DrawFn, n: int) -> np.ndarray:
    return np.array([draw(st.floats(-2.0, 2.0)) for _ in range(n)])


def frame_poses(m: rm.Model, q: np.ndarray, base: str | None = None) -> dict[str, np.ndarray]:
    fk = forward_kinematics(m, q, base=base)
    names = list(m.link_names) + m.frame_names
    return {n: fk.base_H_frame(n).as_matrix() for n in names}


def sensor_poses(m: rm.Model, q: np.ndarray, base: str | None = None) -> dict[str, np.ndarray]:
    fk = forward_kinematics(m, q, base=base)
    out = {}
    for s in m.sensors:
        if isinstance(s, rm.SixAxisForceTorqueSensor):
            for link, T in (
                (s.first_link, s.first_link_H_sensor),
                (s.second_link, s.second_link_H_sensor),
            ):
                out[f"{s.name}@{link == s.applied_wrench_link}"] = (
                    fk.base_H_frame(link) @ T
                ).as_matrix()
        else:
            out[s.name] = (fk.base_H_frame(s.link) @ s.link_H_sensor).as_matrix()
    return out


def assert_close(a: np.ndarray, b: np.ndarray, what: str) -> None:
    np.testing.assert_allclose(a, b, atol=ATOL, rtol=0, err_msg=what)


def positions_in(
    full: rm.Model, small: rm.Model, q_small: np.ndarray, locked: dict[str, float]
) -> np.ndarray:
    """The full model's q: kept joints from ``q_small``, removed ones at their locked values."""
    q = np.zeros(full.n_pos_coords)
    for name, j in zip(full.joint_names, full.joints, strict=True):
        if j.n_pos_coords == 0:
            continue
        if small.is_joint_name_used(name):
            q[j.pos_coord_offset] = q_small[small.joint(name).pos_coord_offset]
        else:
            q[j.pos_coord_offset] = locked.get(name, 0.0)
    return q


def dofs_in(full: rm.Model, small: rm.Model, v_small: np.ndarray) -> np.ndarray:
    v = np.zeros(full.n_dofs)
    for name, j in zip(full.joint_names, full.joints, strict=True):
        if j.n_dofs and small.is_joint_name_used(name):
            v[j.dof_offset] = v_small[small.joint(name).dof_offset]
    return v


def check_same_physics(
    full: rm.Model, small: rm.Model, draw: st.DrawFn, locked: dict[str, float]
) -> None:
    """Everything measurable on ``small`` equals the same thing on ``full`` with locked joints."""
    q = random_q(draw, small.n_pos_coords)
    dq = random_q(draw, small.n_dofs)
    ddq = random_q(draw, small.n_dofs)
    q_full = positions_in(full, small, q, locked)
    assert small.default_base == full.default_base
    assert abs(small.total_mass - full.total_mass) < ATOL
    if full.total_mass > 1e-6:
        assert_close(center_of_mass(small, q), center_of_mass(full, q_full), "centre of mass")
    assert_close(
        total_spatial_inertia(small, q).as_matrix(),
        total_spatial_inertia(full, q_full).as_matrix(),
        "total spatial inertia",
    )
    big = frame_poses(full, q_full)
    fk_full = forward_kinematics(full, q_full)
    for name, H in frame_poses(small, q).items():
        if name not in big:
            # The frame keeping the pose of a dropped F/T sensor (on its second link).
            s = full.sensor(name)
            assert isinstance(s, rm.SixAxisForceTorqueSensor)
            assert not small.is_sensor_name_used(name)
            pose = fk_full.base_H_frame(s.second_link) @ s.second_link_H_sensor
            assert_close(H, pose.as_matrix(), f"pose of dropped sensor {name!r}")
            continue
        assert_close(H, big[name], f"pose of frame {name!r}")
    big_s = sensor_poses(full, q_full)
    for name, H in sensor_poses(small, q).items():
        assert_close(H, big_s[name], f"pose of sensor {name!r}")
    r_small = inverse_dynamics(small, JointState(q, dq, ddq), gravity=GRAVITY)
    r_full = inverse_dynamics(
        full,
        JointState(q_full, dofs_in(full, small, dq), dofs_in(full, small, ddq)),
        gravity=GRAVITY,
    )
    for name, j in zip(small.joint_names, small.joints, strict=True):
        if j.n_dofs:
            np.testing.assert_allclose(
                r_small.joint_torques[j.dof_offset],
                r_full.joint_torques[full.joint(name).dof_offset],
                atol=1e-7,
                rtol=1e-9,
                err_msg=f"torque of joint {name!r}",
            )


@st.composite
def reductions(draw: st.DrawFn) -> tuple[rm.Model, list[str], dict[str, float]]:
    m = draw(models_with_sensors())
    order = draw(st.permutations(list(m.joint_names)))
    kept = order[: draw(st.integers(0, len(order)))]
    removed = [n for n in m.joint_names if n not in kept and m.joint(n).n_pos_coords]
    locked = {n: draw(st.floats(-2.0, 2.0)) for n in removed if draw(st.booleans())}
    return m, kept, locked


def check_reduction(case, data):
    m, kept, locked = case
    r = rt.reduce_model(m, keep_joints=kept, locked_positions=locked, lumped_sensors="drop")
    assert list(r.joint_names) == kept
    assert r.n_frames == m.n_frames + len(
        [f for f in r.frame_names if f not in m.frame_names and not m.is_link_name_used(f)]
    )
    assert set(m.link_names) | set(m.frame_names) <= set(r.link_names) | set(r.frame_names)
    trav_order = [m.link_names[i] for i in m.traversal().links]
    assert list(r.link_names) == [n for n in trav_order if r.is_link_name_used(n)]
    check_same_physics(m, r, data.draw, locked)


@given(case=reductions(), data=st.data())
def test_reduce_model_preserves_physics(case, data):
    """reduce_model keeps the mass, COM, total inertia, every frame and sensor pose, and the
    kept joints' inverse-dynamics torques of the full model with the removed joints locked;
    it keeps exactly the given joints in order, links in traversal order, and every frame."""
    check_reduction(case, data)


@pytest.mark.slow
@settings(SLOW)
@given(case=reductions(), data=st.data())
def test_reduce_model_preserves_physics_slow(case, data):
    """The reduce_model property, with more examples."""
    check_reduction(case, data)


@given(m=models_with_sensors(), data=st.data())
def test_make_urdf_compatible_changes_no_physics(m, data):
    """make_urdf_compatible puts every moving joint's axis through its child's origin for the
    chosen base, moves no frame, sensor or mass, changes no torque, and is idempotent."""
    base = data.draw(st.sampled_from(list(m.link_names)))
    u = rt.make_urdf_compatible(m, base_link=base)
    assert u.default_base == base
    t = u.traversal()
    for link, j in zip(t.links, t.joints, strict=True):
        if j is not None and u.joints[j].n_dofs:
            assert u.joints[j].axis(u.link_names[link]).distance(np.zeros(3)) <= 1e-7
    q = random_q(data.draw, m.n_pos_coords)
    dq = random_q(data.draw, m.n_dofs)
    ddq = random_q(data.draw, m.n_dofs)
    old = frame_poses(m, q, base)
    new = frame_poses(u, q, base)
    for name, H in old.items():
        moved = f"{name}_original_frame"
        if moved in new:
            assert_close(new[moved], H, f"frame {moved!r}")
        else:
            assert_close(new[name], H, f"frame {name!r}")
    old_s, new_s = sensor_poses(m, q, base), sensor_poses(u, q, base)
    for name, H in old_s.items():
        assert_close(new_s[name], H, f"sensor {name!r}")
    assert_close(
        total_spatial_inertia(u, q, base=base).as_matrix(),
        total_spatial_inertia(m, q, base=base).as_matrix(),
        "total inertia",
    )
    state = JointState(q, dq, ddq)
    np.testing.assert_allclose(
        inverse_dynamics(u, state, gravity=GRAVITY).joint_torques,
        inverse_dynamics(m, state, base=base, gravity=GRAVITY).joint_torques,
        atol=1e-7,
        rtol=1e-9,
    )
    assert rt.make_urdf_compatible(u, base_link=base) is u


@given(m=models_with_sensors(), data=st.data())
def test_normalize_joint_order_permutes_torques(m, data):
    """normalize_joint_order only renumbers: same physics, moving joints before fixed ones,
    each moving joint after the moving joints between it and the chosen base."""
    base = data.draw(st.sampled_from(list(m.link_names)))
    out = rt.normalize_joint_order(m, base_link=base)
    check_same_physics(m, out, data.draw, {})
    kinds = [j.n_dofs > 0 for j in out.joints]
    assert kinds == sorted(kinds, reverse=True)
    t = out.traversal(base)
    for link, j in zip(t.links, t.joints, strict=True):
        if j is None or not out.joints[j].n_dofs:
            continue
        up = t.parent_of(link)
        while up != t.base:
            pj = t.parent_joint_of(up)
            if out.joints[pj].n_dofs:
                assert pj < j
            up = t.parent_of(up)
    # Not idempotent: the new joint order changes the adjacency order, hence the traversal
    # from ``base`` and the link order (as in iDynTree), so only the numbering rule is checked.


@st.composite
def models_with_fake_links(draw: st.DrawFn) -> rm.Model:
    """Random trees plus massless fixed leaves (and leaves on leaves)."""
    m = draw(models_with_sensors(max_links=5))
    for k in range(draw(st.integers(0, 4))):
        anchor = m.link_names[draw(st.integers(0, m.n_links - 1))]
        j = rm.FixedJoint(link1=anchor, link2=f"fake{k}", link1_H_link2=draw(transforms()))
        if draw(st.booleans()):
            j = rm.FixedJoint(link1=f"fake{k}", link2=anchor, link1_H_link2=draw(transforms()))
        m = rm.add_link(m, f"fake{k}")
        m = rm.add_joint(m, f"jfake{k}", j)
        if draw(st.booleans()):
            m = rm.add_frame(m, f"fake{k}", f"on_fake{k}", draw(transforms()))
        if draw(st.booleans()):
            m = rm.add_sensor(m, rm.Accelerometer(name=f"acc_fake{k}", link=f"fake{k}"))
    return m


@given(m=models_with_fake_links(), data=st.data())
def test_remove_fake_links_by_columns_equals_the_general_path(m, data):
    """remove_fake_links builds its frames and shapes by columns (no part base moves); under
    ``explain`` the lumping engine takes its general per-link path: the two give equal models,
    with shapes, frames and sensors on the fake links."""
    fields = public_fields(m)
    n = m.n_links
    fields.update(
        visuals=[data.draw(st.lists(solid_shapes(), max_size=2)) for _ in range(n)],
        collisions=[data.draw(st.lists(solid_shapes(), max_size=1)) for _ in range(n)],
    )
    m = rm.Model(**fields)
    for iterate in (False, True):
        step = partial(rt.remove_fake_links, iterate=iterate, lumped_sensors="drop")
        general, _ = rt.explain(step, m)
        assert step(m) == general


@given(m=models_with_fake_links(), iterate=st.booleans(), data=st.data())
def test_remove_fake_links_preserves_physics(m, iterate, data):
    """remove_fake_links keeps every frame's pose (fake links become frames), every sensor, the
    mass distribution and the torques; with iterate=True no fake link is left and it is
    idempotent."""
    r = rt.remove_fake_links(m, iterate=iterate, lumped_sensors="drop")
    assert list(r.link_names) == [n for n in m.link_names if r.is_link_name_used(n)]
    removed = [n for n in m.link_names if not r.is_link_name_used(n)]
    if m.default_base in removed:
        base = r.default_base
    else:
        base = m.default_base
        assert r.default_base == base
    q = random_q(data.draw, r.n_pos_coords)
    q_full = positions_in(m, r, q, {})
    old = frame_poses(m, q_full, base)
    new = frame_poses(r, q, base)
    for name, H in old.items():
        assert_close(new[name], H, f"frame {name!r}")
    ft_removed = {
        s.name
        for s in m.sensors
        if isinstance(s, rm.SixAxisForceTorqueSensor) and not r.is_joint_name_used(s.parent_joint)
    }
    assert {s.name for s in r.sensors} == {s.name for s in m.sensors} - ft_removed
    assert set(new) == set(old) | ft_removed  # a dropped sensor's pose stays as a frame
    assert abs(r.total_mass - m.total_mass) < ATOL
    if iterate:
        assert rt.fake_links(r) == []
        assert rt.remove_fake_links(r, iterate=True) is r


@given(m=models_with_sensors(), data=st.data())
def test_extract_submodel_keeps_kinematics(m, data):
    """Every part of a split, extracted, has the full model's relative poses between its
    frames and carries exactly the frames, shapes and sensors of its links."""
    split = [n for n in m.joint_names if data.draw(st.booleans())]
    base = data.draw(st.sampled_from(list(m.link_names)))
    parts = rt.submodel_traversals(m, split_joints=split, base_link=base)
    assert sorted(i for t in parts for i in t.links) == list(range(m.n_links))
    q = random_q(data.draw, m.n_pos_coords)
    full = frame_poses(m, q, base)
    for t in parts:
        sub = rt.extract_submodel(m, t)
        assert sub.default_base == m.link_names[t.base]
        q_sub = np.array(
            [
                q[m.joint(n).pos_coord_offset]
                for n, j in zip(sub.joint_names, sub.joints, strict=True)
                if j.n_pos_coords
            ]
        )
        poses = frame_poses(sub, q_sub)
        base_H = np.linalg.inv(full[sub.default_base])
        for name, H in poses.items():
            assert_close(H, base_H @ full[name], f"frame {name!r}")
        inside = set(sub.link_names)
        assert sub.frame_names == [
            f.name
            for f in sorted(
                (f for f in m.frames if f.link in inside),
                key=lambda f: (t.position(m.link_index(f.link)), m.frame_names.index(f.name)),
            )
        ]


@given(m=models_with_sensors())
def test_pipeline_is_composition(m):
    """pipeline(f, g)(m) == g(f(m))."""
    f = partial(rt.reduce_model, keep_joints=list(m.joint_names)[::2], lumped_sensors="drop")
    g = rt.make_urdf_compatible
    assert rt.pipeline(f, g)(m) == g(f(m))


@given(m=models_with_sensors(), data=st.data())
def test_make_urdf_compatible_output_exports_for_any_base(m, data):
    """For any base link, the output of make_urdf_compatible is writable as URDF (the exporter
    refuses axes off the child origin), and reading it back gives the same frames' poses."""
    from robomodel.formats import urdf

    base = data.draw(st.sampled_from(list(m.link_names)))
    u = rt.make_urdf_compatible(m, base_link=base)
    # Keep massless leaves as links: the base itself may be one, and FK is taken from it.
    back = urdf.loads(urdf.dumps(u), options=urdf.LoadOptions(remove_fake_links=False))
    assert set(back.link_names) | set(back.frame_names) >= set(u.link_names)
    q = random_q(data.draw, u.n_pos_coords)
    ours = frame_poses(u, q)
    q_back = np.zeros(back.n_pos_coords)
    for name, j in zip(u.joint_names, u.joints, strict=True):
        if j.n_pos_coords:
            q_back[back.joint(name).pos_coord_offset] = q[j.pos_coord_offset]
    theirs = forward_kinematics(back, q_back, base=base)
    for name in u.link_names:
        np.testing.assert_allclose(
            theirs.base_H_frame(name).as_matrix(), ours[name], atol=1e-6, err_msg=name
        )


@given(st.integers(0, 6), st.sampled_from([(3,), (3, 3)]))
def test_stack_rows_are_the_rows_of_iteration(n: int, shape: tuple[int, ...]) -> None:
    """The lumping engine's row views of a frozen stack are ``list(stack)``: same bits, frozen."""
    stacked = immutable(np.arange(n * int(np.prod(shape)), dtype=np.float64).reshape(n, *shape))
    rows = _rows(stacked)
    assert len(rows) == n
    for got, want in zip(rows, list(stacked), strict=True):
        assert type(got) is FrozenArray
        assert got.shape == shape
        assert got.tobytes() == want.tobytes()
        assert not got.flags.writeable
