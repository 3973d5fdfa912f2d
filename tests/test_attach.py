from __future__ import annotations

import math
import warnings
from functools import partial

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SLOW, decorated_models, joints, models, transforms

import robomodel as rm
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState, forward_kinematics
from robomodel.transformers.attach import attach
from robomodel.transformers.rename import prefix

G = np.array([0.0, 0.0, -9.81])


def _frame_names(m: rm.Model) -> list[str]:
    return list(m.link_names) + m.frame_names


@st.composite
def attachments(draw: st.DrawFn, rich: bool = False) -> dict[str, object]:
    """Two random models, an attachment frame of each, and a fixed pose or a joint template."""
    a = draw(decorated_models(max_links=5) if rich else models(max_links=5))
    b = draw(decorated_models(max_links=5) if rich else models(max_links=5))
    at = draw(st.sampled_from(_frame_names(a)))
    ob = draw(st.sampled_from(_frame_names(b)))
    kw: dict[str, object] = {"at_frame": at, "other_base": ob, "prefix": "o_"}
    if draw(st.booleans()):
        kw["joint"] = draw(joints(at, "o_" + ob))
    else:
        kw["pose"] = draw(transforms())
    return {"a": a, "b": b, "kw": kw}


def _q(draw: st.DrawFn, m: rm.Model) -> np.ndarray:
    return np.array([draw(st.floats(-2, 2)) for _ in range(m.n_pos_coords)])


def _close(T1: rm.Transform, T2: rm.Transform) -> bool:
    return np.allclose(T1.as_matrix(), T2.as_matrix(), atol=1e-9)


def _scatter(
    r: rm.Model, part_model: rm.Model, imaps: object, q_part: np.ndarray, q: np.ndarray
) -> None:
    for name, k in imaps.pos_coords.items():  # type: ignore[attr-defined]
        q[k] = q_part[part_model.joint(name).pos_coord_offset]


def _connecting_joint(r: rm.Model, a: rm.Model, b: rm.Model) -> str:
    return r.joint_names[a.n_joints]


@settings(max_examples=40)
@given(attachments(), st.data())
def test_kinematics_and_mass_of_each_part_are_unchanged(case: dict, data: st.DataObject) -> None:
    """attach: FK of every frame of each part, relative to its own base, is unchanged; the
    attached base sits at at_frame_H_other_base = pose (or the joint template's transform); the
    total mass is the sum."""
    _check_kinematics(case, data)


@pytest.mark.slow
@SLOW
@given(attachments(), st.data())
def test_kinematics_slow(case: dict, data: st.DataObject) -> None:
    """The FK and mass property above, with many more examples."""
    _check_kinematics(case, data)


def _check_kinematics(case: dict, data: st.DataObject) -> None:
    a, b, kw = case["a"], case["b"], case["kw"]
    r, maps = attach(a, b, maps=True, **kw)
    qa, qb = _q(data.draw, a), _q(data.draw, b)
    qj = data.draw(st.floats(-2, 2))
    q = np.full(r.n_pos_coords, np.nan)
    _scatter(r, a, maps.model, qa, q)
    _scatter(r, b, maps.other, qb, q)
    conn = r.joint(_connecting_joint(r, a, b))
    if conn.n_pos_coords:
        q[conn.pos_coord_offset] = qj
    assert not np.isnan(q).any()

    fr, fa = forward_kinematics(r, q), forward_kinematics(a, qa)
    for name in _frame_names(a):
        assert maps.model.frames[name] == r.frame_index(name)
        assert _close(fr.base_H_frame(name), fa.base_H_frame(name))
    ob = kw["other_base"]
    b_link = b.link_names[b.frame_link(ob)]
    fb = forward_kinematics(b, qb, base=b_link)
    Bl_res = fr.base_H_frame("o_" + b_link)
    for name in _frame_names(b):
        got = Bl_res.inverse() @ fr.base_H_frame(maps.other.frames[name])
        assert _close(got, fb.base_H_frame(name))
    F_H_B = fr.base_H_frame(kw["at_frame"]).inverse() @ fr.base_H_frame("o_" + ob)
    tmpl = kw.get("joint")
    expected = kw["pose"] if tmpl is None else tmpl.transform(qj, tmpl.link1, tmpl.link2)
    assert _close(F_H_B, expected)
    assert math.isclose(r.total_mass, a.total_mass + b.total_mass, rel_tol=1e-12)


@settings(max_examples=30)
@given(attachments(), st.data())
def test_inverse_dynamics_of_each_part_is_unchanged(case: dict, data: st.DataObject) -> None:
    """attach: with the receiving part at rest, the attached joints' torques are those of the
    attached model alone (its base fixed, gravity seen from it); with a massless attached part,
    the receiving joints' torques are those of the receiving model alone."""
    a, b, kw = case["a"], case["b"], case["kw"]
    r, maps = attach(a, b, maps=True, **kw)
    qa, qb = _q(data.draw, a), _q(data.draw, b)
    dqb = np.array([data.draw(st.floats(-2, 2)) for _ in range(b.n_dofs)])
    ddqb = np.array([data.draw(st.floats(-2, 2)) for _ in range(b.n_dofs)])
    q = np.zeros(r.n_pos_coords)
    dq, ddq = np.zeros(r.n_dofs), np.zeros(r.n_dofs)
    _scatter(r, a, maps.model, qa, q)
    _scatter(r, b, maps.other, qb, q)
    for name, k in maps.other.dofs.items():
        dq[k] = dqb[b.joint(name).dof_offset]
        ddq[k] = ddqb[b.joint(name).dof_offset]
    tau = inverse_dynamics(r, JointState(q, dq, ddq), gravity=G).joint_torques
    b_link = b.link_names[b.frame_link(kw["other_base"])]
    R = forward_kinematics(r, q).base_H_frame("o_" + b_link).rotation
    tau_b = inverse_dynamics(
        b, JointState(qb, dqb, ddqb), base=b_link, gravity=R.T @ G
    ).joint_torques
    for name, k in maps.other.dofs.items():
        assert math.isclose(tau[k], tau_b[b.joint(name).dof_offset], abs_tol=1e-7)

    massless = attrs.evolve(b, links=[rm.Link() for _ in b.links])
    r0, maps0 = attach(a, massless, maps=True, **kw)
    dqa = np.array([data.draw(st.floats(-2, 2)) for _ in range(a.n_dofs)])
    q0, dq0, ddq0 = np.zeros(r0.n_pos_coords), np.zeros(r0.n_dofs), np.zeros(r0.n_dofs)
    _scatter(r0, a, maps0.model, qa, q0)
    for name, k in maps0.model.dofs.items():
        dq0[k] = dqa[a.joint(name).dof_offset]
    tau0 = inverse_dynamics(r0, JointState(q0, dq0, ddq0), gravity=G).joint_torques
    tau_a = inverse_dynamics(a, JointState(qa, dqa, np.zeros(a.n_dofs)), gravity=G).joint_torques
    for name, k in maps0.model.dofs.items():
        assert math.isclose(tau0[k], tau_a[a.joint(name).dof_offset], abs_tol=1e-7)


@settings(max_examples=25)
@given(attachments(rich=True))
def test_everything_of_the_attached_model_comes_along(case: dict) -> None:
    """attach: shapes, sensors, frames, extensions, materials and dirs of both parts are in the
    result, with the attached part's names (and references in its XML) prefixed."""
    a, b, kw = case["a"], case["b"], case["kw"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RobomodelWarning)  # same-named materials
        r = attach(a, b, **kw)
    pb = prefix(b, "o_")
    assert list(r.link_names) == list(a.link_names) + list(pb.link_names)
    assert list(r.visuals) == list(a.visuals) + list(pb.visuals)
    assert list(r.collisions) == list(a.collisions) + list(pb.collisions)
    assert list(r.sensors) == list(a.sensors) + list(pb.sensors)
    assert list(r.frames) == list(a.frames) + list(pb.frames)
    assert list(r.extensions) == list(a.extensions) + list(pb.extensions)
    assert list(r.joint_names) == [*a.joint_names, r.joint_names[a.n_joints], *pb.joint_names]
    assert set(r.package_dirs) == set(a.package_dirs) | set(b.package_dirs)
    assert {m.name for m in r.materials} == {m.name for m in a.materials} | {
        m.name for m in b.materials
    }
    assert r.default_base == a.default_base and r.name == a.name


# --------------------------------------------------------------------------- examples


def _arm() -> rm.Model:
    m = rm.add_link(
        rm.Model(name="arm"), "base", rm.Link(rm.SpatialInertia.from_com(2.0, (0, 0, 0.1)))
    )
    j = rm.RevoluteJoint(
        link1="base",
        link2="link1",
        axis_in_link1=rm.Axis((0, 0, 1)),
        link1_H_link2=rm.Transform.from_translation((0, 0, 0.5)),
    )
    m = rm.add_joint_and_link(
        m, "base", "j1", j, "link1", rm.Link(rm.SpatialInertia.from_com(1.0, (0.2, 0, 0)))
    )
    return rm.add_frame(m, "link1", "tool0", rm.Transform.from_translation((0.4, 0, 0)))


def _gripper() -> rm.Model:
    m = rm.add_link(
        rm.Model(name="gripper"), "palm", rm.Link(rm.SpatialInertia.from_com(0.5, (0, 0, 0.05)))
    )
    j = rm.PrismaticJoint(link1="palm", link2="finger", axis_in_link1=rm.Axis((0, 1, 0)))
    m = rm.add_joint_and_link(
        m, "palm", "slide", j, "finger", rm.Link(rm.SpatialInertia.from_com(0.1, (0, 0, 0)))
    )
    m = rm.add_frame(m, "palm", "tcp", rm.Transform.from_translation((0, 0, 0.12)))
    return rm.add_sensor(m, rm.Accelerometer(name="imu", link="palm"))


def test_maps_give_new_indices_of_both_parts() -> None:
    r, maps = attach(_arm(), _gripper(), at_frame="tool0", maps=True)
    # Receiving model: links/joints keep their index; its frame 'tool0' shifts by 2 links.
    assert dict(maps.model.links) == {"base": 0, "link1": 1}
    assert maps.model.frames["tool0"] == 4 == r.frame_index("tool0")
    assert dict(maps.other.links) == {"palm": 2, "finger": 3}
    assert dict(maps.other.joints) == {"slide": 2}  # after j1 and the connecting joint
    assert dict(maps.other.dofs) == {"slide": 1}
    assert maps.other.frames["tcp"] == 5
    assert dict(maps.other.sensors) == {"imu": 0}
    assert r.joint_names[1] == "tool0_to_palm"


def test_attach_by_a_non_default_base_keeps_joint_orientation() -> None:
    g = _gripper()
    r = attach(_arm(), g, at_frame="tool0", other_base="finger", prefix="g_")
    assert r.joint("g_slide") == attrs.evolve(
        g.joint("slide"), link1="g_palm", link2="g_finger", dof_offset=1, pos_coord_offset=1
    )
    # The attached frame is the finger: the connecting joint goes to it.
    conn = r.joint("tool0_to_g_finger")
    assert (conn.link1, conn.link2) == ("link1", "g_finger")


def test_on_conflict_prefix_renames_only_clashes() -> None:
    arm = _arm()
    r = attach(arm, _arm(), at_frame="tool0", on_conflict="prefix", joint_name="mount")
    assert list(r.link_names) == ["base", "link1", "arm_base", "arm_link1"]
    assert r.frame_names == ["tool0", "arm_tool0"]
    r2 = attach(arm, _gripper(), at_frame="tool0", on_conflict="prefix", prefix="x_")
    assert list(r2.link_names) == ["base", "link1", "palm", "finger"]  # nothing clashed


def test_attach_with_a_revolute_joint_template() -> None:
    tmpl = rm.RevoluteJoint(
        link1="tool0",
        link2="palm",
        axis_in_link1=rm.Axis((1, 0, 0)),
        limits=rm.PositionLimits.between(-1, 1),
    )
    r = attach(_arm(), _gripper(), at_frame="tool0", joint=tmpl, joint_name="wrist")
    w = r.joint("wrist")
    assert isinstance(w, rm.RevoluteJoint) and w.limits == tmpl.limits
    assert (w.link1, w.link2) == ("link1", "palm")
    assert np.allclose(w.link1_H_link2.position, (0.4, 0, 0))
    assert r.n_dofs == 3


def test_errors() -> None:
    arm, grip = _arm(), _gripper()
    with pytest.raises(rm.UnknownNameError, match="did you mean 'tool0'"):
        attach(arm, grip, at_frame="tool")
    with pytest.raises(rm.UnknownNameError, match="palmm"):
        attach(arm, grip, at_frame="tool0", other_base="palmm")
    with pytest.raises(rm.DuplicateNameError, match="prefix="):
        attach(arm, arm, at_frame="tool0")
    with pytest.raises(rm.DuplicateNameError, match="connecting joint"):
        attach(arm, grip, at_frame="tool0", joint_name="j1")
    with pytest.raises(rm.ModelError, match="on_conflict"):
        attach(arm, grip, at_frame="tool0", on_conflict="rename")  # type: ignore[call-overload]
    with pytest.raises(rm.ModelError, match="not both"):
        attach(
            arm,
            grip,
            at_frame="tool0",
            pose=rm.Transform(),
            joint=rm.FixedJoint(link1="tool0", link2="palm"),
        )
    with pytest.raises(rm.ModelError, match="write it from at_frame"):
        attach(arm, grip, at_frame="tool0", joint=rm.FixedJoint(link1="link1", link2="palm"))
    with pytest.raises(rm.ModelError, match="no links"):
        attach(arm, rm.Model(), at_frame="tool0")
    # A prefix that still clashes is refused too, in either mode.
    once = attach(arm, grip, at_frame="tool0", prefix="p_")
    with pytest.raises(rm.DuplicateNameError, match="'p_finger'"):
        attach(once, grip, at_frame="tool0", prefix="p_", joint_name="m2")
    clash = rm.add_link(grip, "gripper_palm")  # 'palm' clashes and becomes 'gripper_palm' too
    with pytest.raises(rm.DuplicateNameError, match="gripper_palm"):
        attach(
            attach(arm, grip, at_frame="tool0"),
            clash,
            at_frame="tool0",
            on_conflict="prefix",
            joint_name="m3",
        )


def test_conflicting_material_warns_and_keeps_the_receiving_one() -> None:
    red = rm.Material(name="c", rgba=(1, 0, 0, 1))
    blue = rm.Material(name="c", rgba=(0, 0, 1, 1))
    a = attrs.evolve(_arm(), materials=[red])
    b = attrs.evolve(_gripper(), materials=[blue, rm.Material(name="d")])
    with pytest.warns(rm.RobomodelWarning, match="material 'c'"):
        r = attach(a, b, at_frame="tool0")
    assert list(r.materials) == [red, rm.Material(name="d")]


def test_explain_reports_what_was_added() -> None:
    from robomodel.transformers import explain

    step = partial(attach, other=_gripper(), at_frame="tool0", prefix="g_")
    out, report = explain(step, _arm())
    assert out == step(_arm())
    text = str(report)
    assert "added joint 'tool0_to_g_palm'" in text
    assert "renamed link 'palm': now 'g_palm'" in text
    assert "added sensor 'g_imu'" in text


@pytest.mark.reference
def test_same_kinematics_as_pinocchio_append_model() -> None:
    """attach(arm, gripper) exported as URDF gives, in Pinocchio, the link poses that
    pinocchio.appendModel computes from the two models loaded separately."""
    import pinocchio as pin

    from robomodel.formats import to_pinocchio

    pose = rm.Transform.from_rpy_xyz((0.3, -0.2, 0.1), (0.01, 0.02, 0.03))  # arbitrary
    arm, grip = _arm(), _gripper()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RobomodelWarning)
        merged = to_pinocchio(attach(arm, grip, at_frame="tool0", pose=pose))
        pa, pg = to_pinocchio(arm), to_pinocchio(grip)
    # The exporter writes the gripper base's first additional frame ('tcp') as a fake URDF root
    # (iDynTree's default), so Pinocchio's gripper universe is 'tcp', not 'palm'.
    universe = pose @ grip.frame_transform("tcp")
    se3 = pin.SE3(np.array(universe.rotation), np.array(universe.position))
    appended = pin.appendModel(pa, pg, pa.getFrameId("tool0"), se3)
    q = {"j1": 0.7, "slide": 0.05}
    poses = []
    for pm in (merged, appended):
        pd = pm.createData()
        qp = pin.neutral(pm)
        for name, v in q.items():
            jid = pm.getJointId(name)
            k = pm.joints[jid].idx_q
            if pm.nqs[jid] == 2:
                qp[k], qp[k + 1] = math.cos(v), math.sin(v)
            else:
                qp[k] = v
        pin.framesForwardKinematics(pm, pd, qp)
        poses.append(
            {n: pd.oMf[pm.getFrameId(n)].homogeneous for n in ("link1", "palm", "finger", "tcp")}
        )
    for n in poses[0]:
        assert np.allclose(poses[0][n], poses[1][n], atol=1e-12), n
