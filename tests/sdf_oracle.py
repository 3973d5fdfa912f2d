"""Drake as the oracle for robomodel.formats.sdf: Drake's MultibodyPlant of an SDFormat file
against robomodel's model of it (total mass, body poses, inverse-dynamics torques).

Every number on the Drake side comes from pydrake's own parser (libsdformat) and
MultibodyPlant, never from robomodel.formats.sdf, so a bug in the reader cannot hide in the
oracle.
"""

from __future__ import annotations

import numpy as np
import pytest

import robomodel as rm
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.joint_state import JointState
from robomodel.physics.kinematics import forward_kinematics

pytest.importorskip("pydrake")
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import MultibodyPlant
from pydrake.multibody.tree import MultibodyForces

_DRAKE_ROOT = "<drake root>"


def roots(model: rm.Model) -> list[str]:
    """The default base, then the first link of every part of the forest not connected to it."""
    out: list[str] = []
    seen: set[int] = set()
    for start in [model.default_base_index, *range(model.n_links)]:
        if start not in seen:
            out.append(model.link_names[start])
            seen.update(model.traversal(start).links)
    return out


def drake_plant(
    *, path: str | None = None, text: str | None = None, roots: list[str], packages=()
) -> tuple[MultibodyPlant, dict[str, object], dict[str, object]]:
    """Drake's plant of a file or text, its base body welded to the world at the identity when
    the model is not already attached to the world; bodies and joints by robomodel name."""
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    for name, folder in packages:
        parser.package_map().Add(name, folder)
    if path is not None:
        instances = parser.AddModels(path)
    else:
        instances = parser.AddModelsFromString(text, "sdf")
    top = plant.GetModelInstanceName(instances[0])
    bodies: dict[str, object] = {}
    for inst in instances:
        iname = plant.GetModelInstanceName(inst)
        prefix = "" if iname == top else iname[len(top) + 2 :] + "::"
        for bi in plant.GetBodyIndices(inst):
            b = plant.get_body(bi)
            bodies[prefix + b.name()] = b
    # Frames (<frame> elements) by robomodel's scoped name, next to the bodies.
    for inst in instances:
        iname = plant.GetModelInstanceName(inst)
        prefix = "" if iname == top else iname[len(top) + 2 :] + "::"
        for fi in plant.GetFrameIndices(inst):
            fr = plant.get_frame(fi)
            key = "frame:" + prefix + fr.name()
            if fr.name() and not fr.name().startswith("_") and (prefix + fr.name()) not in bodies:
                bodies[key] = fr
    bodies["world"] = plant.world_body()
    # Joints by the robomodel names of the two bodies they connect (Drake files a joint of a
    # nested model under the instance of its child, so instance prefixes do not name it).
    by_index = {b.index(): n for n, b in bodies.items()}
    joints: dict[str, object] = {}
    for ji in plant.GetJointIndices():
        j = plant.get_joint(ji)
        ends = (by_index[j.parent_body().index()], by_index[j.child_body().index()])
        joints[ends] = joints[ends[::-1]] = j  # type: ignore[index]
    # Weld the root of each part in Drake's tree (the body without a parent joint; SDFormat's
    # parent/child may point the other way than robomodel's base) at the identity.
    parent_of = {}
    for ji in plant.GetJointIndices():
        joint = plant.get_joint(ji)
        parent_of[joint.child_body().index()] = joint.parent_body()
    for base in roots:
        body = bodies[base]
        while body.index() in parent_of:
            body = parent_of[body.index()]
        if body.index() != plant.world_body().index():
            plant.WeldFrames(plant.world_frame(), body.body_frame())
        if base == roots[0]:
            by_index = {b.index(): n for n, b in bodies.items()}
            bodies[_DRAKE_ROOT] = by_index[body.index()]  # type: ignore[assignment]
    plant.Finalize()
    return plant, bodies, joints


def compare(
    model: rm.Model,
    plant: MultibodyPlant,
    bodies: dict[str, object],
    joints: dict[str, object],
    *,
    rounds: int = 3,
    seed: int = 0,
    skip_frames: tuple[str, ...] = (),
) -> list[str]:
    """Total mass (1e-9), body and frame poses relative to the base at random q (1e-9) and
    inverse-dynamics torques at random (q, v, vdot) under gravity (1e-8) agree.

    Returns:
        The names of the frames compared (those Drake has under the same name).
    """
    mass = model.total_mass
    drake_mass = sum(bodies[n].default_mass() for n in model.link_names if n != "world")
    # Inverse dynamics needs the same fixed body on both sides: Drake's root.
    id_base = str(bodies[_DRAKE_ROOT])
    if not model.is_link_name_used(id_base):  # a static model: Drake welds it to the world
        id_base = model.default_base
    assert abs(mass - drake_mass) <= 1e-9 * max(1.0, mass)
    assert plant.num_positions() == model.n_pos_coords
    assert plant.num_velocities() == model.n_dofs
    parts = roots(model)
    connected = len(parts) == 1
    frames_compared: list[str] = []
    rng = np.random.default_rng(seed)
    ctx = plant.CreateDefaultContext()
    g = plant.gravity_field().gravity_vector()
    for _ in range(rounds):
        q = rng.uniform(-1, 1, model.n_pos_coords)
        v = rng.uniform(-1, 1, model.n_dofs)
        a = rng.uniform(-1, 1, model.n_dofs)
        qd, vd, ad = np.zeros_like(q), np.zeros_like(v), np.zeros_like(a)
        for joint in model.joints:
            if joint.n_dofs:
                dj = joints[(joint.link1, joint.link2)]
                qd[dj.position_start()] = q[joint.pos_coord_offset]
                vd[dj.velocity_start()] = v[joint.dof_offset]
                ad[dj.velocity_start()] = a[joint.dof_offset]
        plant.SetPositions(ctx, qd)
        plant.SetVelocities(ctx, vd)
        for base in parts:
            fk = forward_kinematics(model, q, base=base)
            X_WB0 = plant.EvalBodyPoseInWorld(ctx, bodies[base])
            reached = {model.link_names[i] for i in model.traversal(base).links}
            for n in reached:
                X = X_WB0.inverse() @ plant.EvalBodyPoseInWorld(ctx, bodies[n])
                np.testing.assert_allclose(
                    fk.base_H_frame(n).as_matrix(), X.GetAsMatrix4(), rtol=0, atol=1e-9, err_msg=n
                )
            # The additional frames Drake has under the same name (<frame> elements).
            for fr in model.frames:
                drake_frame = bodies.get("frame:" + fr.name)
                if drake_frame is None or fr.link not in reached or fr.name in skip_frames:
                    continue
                X = X_WB0.inverse() @ drake_frame.CalcPoseInWorld(ctx)
                np.testing.assert_allclose(
                    fk.base_H_frame(fr.name).as_matrix(),
                    X.GetAsMatrix4(),
                    rtol=0,
                    atol=1e-9,
                    err_msg=fr.name,
                )
                frames_compared.append(fr.name)
        X_WB0 = plant.EvalBodyPoseInWorld(ctx, bodies[id_base])
        if not connected:
            continue
        forces = MultibodyForces(plant)
        tau_d = plant.CalcInverseDynamics(ctx, ad, forces) - plant.CalcGravityGeneralizedForces(ctx)
        R = X_WB0.rotation().matrix()
        state = JointState(q, v, a)
        tau = inverse_dynamics(model, state, base=id_base, gravity=R.T @ g).joint_torques
        for name, joint in zip(model.joint_names, model.joints, strict=True):
            if joint.n_dofs:
                got = tau[joint.dof_offset]
                want = tau_d[joints[(joint.link1, joint.link2)].velocity_start()]
                assert abs(got - want) <= 1e-8 * max(1.0, abs(want)), (name, got, want)
    return sorted(set(frames_compared))
