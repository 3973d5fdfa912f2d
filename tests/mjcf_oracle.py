"""MuJoCo as the oracle for robomodel.mjcf: compare a compiled MJCF with robomodel's numbers.

Shared by the MJCF test files. Every comparison reads MuJoCo's compiled ``MjModel``/``MjData``
only, never robomodel.mjcf, so a bug in the exporter cannot hide in the oracle.
"""

from __future__ import annotations

import numpy as np

import robomodel as rm
from robomodel.mjcf import ConversionReport

mujoco = __import__("pytest").importorskip("mujoco")


def effective_model(model: rm.Model, report: ConversionReport) -> rm.Model:
    """The model the MJCF is equivalent to: ``model`` with the report's written inertias."""
    for name, inertia in report.inertias.items():
        model = rm.with_link(model, name, rm.Link(inertia))
    return model


def _rot(q: np.ndarray) -> np.ndarray:
    R = np.zeros(9)
    mujoco.mju_quat2Mat(R, q)
    return R.reshape(3, 3)


def _name(mm, kind, i: int) -> str:
    return mujoco.mj_id2name(mm, kind, i)


def check_inertias(model: rm.Model, mm, *, atol: float = 1e-9) -> None:
    """Total mass and every body's mass, centre of mass and central inertia agree."""
    reached = {model.link_names[i] for i in model.traversal().links}
    expected_total = sum(model.link(n).mass for n in reached)
    assert abs(mm.body_mass.sum() - expected_total) <= atol * max(1.0, expected_total)
    for b in range(1, mm.nbody):
        link = model.link(_name(mm, mujoco.mjtObj.mjOBJ_BODY, b)).inertia
        scale = max(1.0, link.mass)
        assert abs(mm.body_mass[b] - link.mass) <= atol * scale
        if link.mass == 0.0:
            continue
        np.testing.assert_allclose(mm.body_ipos[b], link.com, rtol=0, atol=atol)
        R = _rot(mm.body_iquat[b])
        I_C = R @ np.diag(mm.body_inertia[b]) @ R.T
        tol = atol * max(1.0, float(np.abs(link.inertia_com).max()))
        np.testing.assert_allclose(I_C, link.inertia_com, rtol=0, atol=tol)


def qpos_of(model: rm.Model, mm, q: np.ndarray) -> np.ndarray:
    """MuJoCo's qpos for robomodel's positions ``q`` (joints matched by name)."""
    qpos = mm.qpos0.copy()
    for j, joint in enumerate(model.joints):
        if joint.n_pos_coords:
            jid = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_JOINT, model.joint_names[j])
            assert jid >= 0, model.joint_names[j]
            qpos[mm.jnt_qposadr[jid]] = q[joint.pos_coord_offset]
    return qpos


def dof_vector(model: rm.Model, mm, v: np.ndarray) -> np.ndarray:
    """MuJoCo's DOF-space vector for robomodel's DOF vector ``v``."""
    out = np.zeros(mm.nv)
    for j, joint in enumerate(model.joints):
        if joint.n_dofs:
            jid = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_JOINT, model.joint_names[j])
            out[mm.jnt_dofadr[jid]] = v[joint.dof_offset]
    return out


def check_poses(model: rm.Model, mm, q: np.ndarray, *, atol: float = 1e-9) -> None:
    """The world pose of every body and site at ``q`` equals robomodel's forward kinematics."""
    d = mujoco.MjData(mm)
    d.qpos[:] = qpos_of(model, mm, q)
    mujoco.mj_kinematics(mm, d)
    fk = rm.forward_kinematics(model, q)
    for b in range(1, mm.nbody):
        T = fk.base_H_frame(_name(mm, mujoco.mjtObj.mjOBJ_BODY, b))
        np.testing.assert_allclose(d.xpos[b], T.position, rtol=0, atol=atol)
        np.testing.assert_allclose(d.xmat[b].reshape(3, 3), T.rotation, rtol=0, atol=atol)
    frames = set(model.frame_names)
    for s in range(mm.nsite):
        name = _name(mm, mujoco.mjtObj.mjOBJ_SITE, s)
        if name not in frames:
            continue  # a sensor's own site: checked through the sensor readings
        T = fk.base_H_frame(name)
        np.testing.assert_allclose(d.site_xpos[s], T.position, rtol=0, atol=atol)
        np.testing.assert_allclose(d.site_xmat[s].reshape(3, 3), T.rotation, rtol=0, atol=atol)


def zero_passive(mm) -> None:
    """Zero damping, armature and friction, and switch constraints off (limits, equalities)."""
    mm.dof_damping[:] = 0.0
    mm.dof_armature[:] = 0.0
    mm.dof_frictionloss[:] = 0.0
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_CONSTRAINT)
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_SPRING)
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_DAMPER)


def check_torques(
    model: rm.Model, mm, q: np.ndarray, dq: np.ndarray, ddq: np.ndarray, *, atol: float = 1e-8
) -> dict[str, np.ndarray]:
    """``mj_inverse`` torques equal robomodel's inverse dynamics; returns MuJoCo's sensors."""
    zero_passive(mm)
    d = mujoco.MjData(mm)
    d.qpos[:] = qpos_of(model, mm, q)
    d.qvel[:] = dof_vector(model, mm, dq)
    d.qacc[:] = dof_vector(model, mm, ddq)
    mujoco.mj_inverse(mm, d)
    state = rm.JointState(q, dq, ddq)
    gravity = mm.opt.gravity.copy()
    ours = rm.inverse_dynamics(model, state, gravity=gravity).joint_torques
    theirs = d.qfrc_inverse
    scale = max(1.0, float(np.abs(ours).max(initial=0.0)))
    np.testing.assert_allclose(dof_vector(model, mm, ours), theirs, rtol=0, atol=atol * scale)
    return {
        _name(mm, mujoco.mjtObj.mjOBJ_SENSOR, k): d.sensordata[
            mm.sensor_adr[k] : mm.sensor_adr[k] + mm.sensor_dim[k]
        ].copy()
        for k in range(mm.nsensor)
    }


def check_names(model: rm.Model, mm) -> None:
    """Every reachable link is a body, every frame a site, every sensor MuJoCo sensors."""
    reached = {model.link_names[i] for i in model.traversal().links}
    for name in reached:
        assert mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, name) >= 0, name
    for f in model.frames:
        if f.link in reached:
            assert mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_SITE, f.name) >= 0, f.name
    for s in model.sensors:
        names = (
            [f"{s.name}_force", f"{s.name}_torque"]
            if isinstance(s, rm.SixAxisForceTorqueSensor)
            else [s.name]
        )
        for n in names:
            assert mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_SENSOR, n) >= 0, n
