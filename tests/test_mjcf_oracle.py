"""MuJoCo as the oracle for robomodel.formats.mjcf: compare a compiled MJCF with robomodel's
numbers.

Shared by the MJCF test files. Every comparison reads MuJoCo's compiled ``MjModel``/``MjData``
only, never robomodel.formats.mjcf, so a bug in the exporter cannot hide in the oracle.
"""

from __future__ import annotations

import numpy as np

import robomodel as rm
from robomodel.formats.mjcf import ConversionReport

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


def check_poses(
    model: rm.Model, mm, q: np.ndarray, report: ConversionReport, *, atol: float = 1e-9
) -> None:
    """The world pose of every body and site at ``q`` equals robomodel's forward kinematics
    (sites the report says MuJoCo snaps to their body frame within 2e-6)."""
    snapped = {x.name for x in report.losses if x.kind == "site" and x.action == "approximated"}
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
        tol = 2e-5 if name in snapped else atol
        np.testing.assert_allclose(d.site_xpos[s], T.position, rtol=0, atol=tol)
        np.testing.assert_allclose(d.site_xmat[s].reshape(3, 3), T.rotation, rtol=0, atol=tol)


def zero_passive(mm) -> None:
    """Zero damping, armature and friction, and switch constraints off (limits, equalities)."""
    mm.dof_damping[:] = 0.0
    mm.dof_armature[:] = 0.0
    mm.dof_frictionloss[:] = 0.0
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_CONSTRAINT)
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_SPRING)
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_DAMPER)
    # MuJoCo derives constants from the armature at compile time: derive them again.
    mujoco.mj_setConst(mm, mujoco.MjData(mm))


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


def check_names(model: rm.Model, mm, report: ConversionReport) -> None:
    """Every reachable link is a body unless the report says where it went; every frame is a
    site and every sensor has its MuJoCo sensors."""
    reached = {model.link_names[i] for i in model.traversal().links}
    explained = {x.name for x in report.losses if x.kind in ("merged link", "world link")}
    for name in reached - explained:
        assert mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, name) >= 0, name
    for name in reached & explained:
        assert mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, name) < 0, name
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


def body_link_name(mm, b: int) -> str:
    """The link robomodel.formats.mjcf.loads_with_report makes of MuJoCo body ``b`` (names kept;
    unnamed: bodyN)."""
    return _name(mm, mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}"


def floating_root_joint(mm) -> int | None:
    """The free joint of the only root body, if that is all it has (robomodel's floating base)."""
    roots = [b for b in range(1, mm.nbody) if mm.body_parentid[b] == 0]
    if len(roots) == 1 and mm.body_jntnum[roots[0]] == 1:
        j = mm.body_jntadr[roots[0]]
        if mm.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            return int(j)
    return None


def _random_quat(rng) -> np.ndarray:
    quat = rng.normal(size=4)
    return quat / np.linalg.norm(quat)


def joint_name(mm, j: int) -> str:
    """The joint robomodel.formats.mjcf.loads_with_report makes of MuJoCo joint ``j`` (unnamed:
    <body>_jointN)."""
    name = _name(mm, mujoco.mjtObj.mjOBJ_JOINT, j)
    return name or f"{body_link_name(mm, mm.jnt_bodyid[j])}_joint{j}"


def random_qpos(mm, rng) -> np.ndarray:
    """Random positions for every hinge and slide joint (within their ranges when limited),
    ball joint and floating-base free joint; other free joints stay at their initial pose
    (robomodel welds them there)."""
    qpos = mm.qpos0.copy()
    floating = floating_root_joint(mm)
    for j in range(mm.njnt):
        a = mm.jnt_qposadr[j]
        if mm.jnt_type[j] in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
            lo, hi = mm.jnt_range[j] if mm.jnt_limited[j] else (-1.0, 1.0)
            qpos[a] = rng.uniform(lo, hi)
        elif mm.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
            qpos[a : a + 4] = _random_quat(rng)
        elif j == floating:
            qpos[a : a + 3] = rng.uniform(-1, 1, 3)
            qpos[a + 3 : a + 7] = _random_quat(rng)
    return qpos


def xyz_angles(quat: np.ndarray) -> tuple[float, float, float]:
    """Angles (a, b, c) with ``R(quat) = Rx(a) Ry(b) Rz(c)``: a ball joint as robomodel's three
    revolute joints about x, y and z (independent of robomodel.formats.mjcf)."""
    R = _rot(quat)
    b = float(np.arcsin(np.clip(R[0, 2], -1.0, 1.0)))
    a = float(np.arctan2(-R[1, 2], R[2, 2]))
    c = float(np.arctan2(-R[0, 1], R[0, 0]))
    return a, b, c


def robomodel_q(model: rm.Model, mm, qpos: np.ndarray) -> np.ndarray:
    """robomodel's positions for MuJoCo's ``qpos``: hinge and slide joints by name, minus ref."""
    q = np.zeros(model.n_pos_coords)
    for j in range(mm.njnt):
        name = joint_name(mm, j)
        a = mm.jnt_qposadr[j]
        if mm.jnt_type[j] in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
            q[model.joint(name).pos_coord_offset] = qpos[a] - mm.qpos0[a]
        elif mm.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
            for axis, angle in zip("xyz", xyz_angles(qpos[a : a + 4]), strict=True):
                q[model.joint(f"{name}_{axis}").pos_coord_offset] = angle
    return q


def check_imported_poses(model: rm.Model, mm, qpos: np.ndarray, *, atol: float = 1e-9) -> None:
    """Every body's world pose from MuJoCo's mj_kinematics equals robomodel's at the same q."""
    d = mujoco.MjData(mm)
    d.qpos[:] = qpos
    mujoco.mj_kinematics(mm, d)
    base = model.default_base
    b0 = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, base)
    W_H_base = rm.Transform(d.xmat[b0].reshape(3, 3), d.xpos[b0]) if b0 > 0 else rm.Transform()
    fk = rm.forward_kinematics(model, robomodel_q(model, mm, qpos))
    for b in range(1, mm.nbody):
        T = W_H_base @ fk.base_H_frame(body_link_name(mm, b))
        np.testing.assert_allclose(d.xpos[b], T.position, rtol=0, atol=atol)
        np.testing.assert_allclose(d.xmat[b].reshape(3, 3), T.rotation, rtol=0, atol=atol)
    for s in range(mm.nsite):
        name = _name(mm, mujoco.mjtObj.mjOBJ_SITE, s)
        # A site named like a link became a renamed frame (reported); skip it.
        links = set(model.link_names)
        if name and name not in links and model.is_frame_name_used(name) and mm.site_bodyid[s] > 0:
            T = W_H_base @ fk.base_H_frame(name)
            np.testing.assert_allclose(d.site_xpos[s], T.position, rtol=0, atol=atol)


def _joint_map(mm1, mm2) -> list[tuple[int, int]]:
    """Pairs of joint ids with the same name (the floating base's free joint pairs with the
    other's free joint; a ball joint pairs with its x-y-z revolute joints, listed apart)."""
    free2 = [j for j in range(mm2.njnt) if mm2.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE]
    floating = floating_root_joint(mm1)
    out = []
    for j in range(mm1.njnt):
        if mm1.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            if j == floating and free2:
                out.append((j, free2[0]))
            continue
        if mm1.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
            continue
        k = mujoco.mj_name2id(mm2, mujoco.mjtObj.mjOBJ_JOINT, joint_name(mm1, j))
        assert k >= 0, joint_name(mm1, j)
        out.append((j, k))
    return out


def check_same_physics(mm1, mm2, rng, *, atol: float = 1e-8) -> None:
    """Two compiled models (MJCF and its round trip) have the same masses, body poses at random
    positions and ``mj_inverse`` forces (joints and bodies matched by name)."""
    assert abs(mm1.body_mass.sum() - mm2.body_mass.sum()) <= 1e-9 * max(1, mm1.body_mass.sum())
    pairs = _joint_map(mm1, mm2)
    qpos1 = random_qpos(mm1, rng)
    qpos2 = mm2.qpos0.copy()
    qvel1 = rng.uniform(-1, 1, mm1.nv)
    qacc1 = rng.uniform(-1, 1, mm1.nv)
    qvel2, qacc2 = np.zeros(mm2.nv), np.zeros(mm2.nv)
    for j1, j2 in pairs:
        a1, a2 = mm1.jnt_qposadr[j1], mm2.jnt_qposadr[j2]
        d1, d2 = mm1.jnt_dofadr[j1], mm2.jnt_dofadr[j2]
        if mm1.jnt_type[j1] == mujoco.mjtJoint.mjJNT_FREE:
            qpos2[a2 : a2 + 7] = qpos1[a1 : a1 + 7]
            qvel2[d2 : d2 + 6] = qvel1[d1 : d1 + 6]
            qacc2[d2 : d2 + 6] = qacc1[d1 : d1 + 6]
        else:
            qpos2[a2] = qpos1[a1] - mm1.qpos0[a1] + mm2.qpos0[a2]
            qvel2[d2], qacc2[d2] = qvel1[d1], qacc1[d1]
    # Ball joints: the same pose through three angles, at rest (their rates are another basis).
    for j in range(mm1.njnt):
        if mm1.jnt_type[j] != mujoco.mjtJoint.mjJNT_BALL:
            continue
        a1, d1 = mm1.jnt_qposadr[j], mm1.jnt_dofadr[j]
        qvel1[d1 : d1 + 3] = qacc1[d1 : d1 + 3] = 0.0
        name = joint_name(mm1, j)
        for axis, angle in zip("xyz", xyz_angles(qpos1[a1 : a1 + 4]), strict=True):
            k = mujoco.mj_name2id(mm2, mujoco.mjtObj.mjOBJ_JOINT, f"{name}_{axis}")
            qpos2[mm2.jnt_qposadr[k]] = angle
    # Free joints robomodel welded: at their initial pose and at rest.
    floating = floating_root_joint(mm1)
    for j in range(mm1.njnt):
        if mm1.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE and j != floating:
            d1 = mm1.jnt_dofadr[j]
            qvel1[d1 : d1 + 6] = qacc1[d1 : d1 + 6] = 0.0
    mm2.opt.gravity[:] = mm1.opt.gravity
    datas = []
    for mm, qpos, qvel, qacc in ((mm1, qpos1, qvel1, qacc1), (mm2, qpos2, qvel2, qacc2)):
        zero_passive(mm)
        d = mujoco.MjData(mm)
        d.qpos[:], d.qvel[:], d.qacc[:] = qpos, qvel, qacc
        mujoco.mj_inverse(mm, d)
        datas.append(d)
    d1, d2 = datas
    for b in range(1, mm1.nbody):
        b2 = mujoco.mj_name2id(mm2, mujoco.mjtObj.mjOBJ_BODY, body_link_name(mm1, b))
        assert b2 >= 0, body_link_name(mm1, b)
        np.testing.assert_allclose(d1.xpos[b], d2.xpos[b2], rtol=0, atol=1e-9)
        np.testing.assert_allclose(d1.xmat[b], d2.xmat[b2], rtol=0, atol=1e-9)
    scale = max(1.0, float(np.abs(d1.qfrc_inverse).max(initial=0.0)))
    for j1, j2 in pairs:
        n = 6 if mm1.jnt_type[j1] == mujoco.mjtJoint.mjJNT_FREE else 1
        f1 = d1.qfrc_inverse[mm1.jnt_dofadr[j1] : mm1.jnt_dofadr[j1] + n]
        f2 = d2.qfrc_inverse[mm2.jnt_dofadr[j2] : mm2.jnt_dofadr[j2] + n]
        np.testing.assert_allclose(f1, f2, rtol=0, atol=atol * scale)
