"""Reference tests: robomodel.transformers against iDynTree 15.1's ModelTransformers on icub-models.

Both libraries start from the same model (loaded by iDynTree's ModelLoader and converted, so the
comparison does not depend on robomodel's URDF loader). Names and orders must match exactly;
inertial parameters and transforms to 1e-9. Where the spec marks a DEVIATE, the difference is
asserted explicitly.
"""

from __future__ import annotations

import functools

import icub_models
import numpy as np
import pytest
from idyntree_oracle import idt, load_idt, model_from_idt, model_to_idt

import robomodel as rm
import robomodel.transformers as rt
from robomodel.physics.dynamics import inverse_dynamics
from robomodel.physics.kinematics import JointState, center_of_mass, forward_kinematics

pytestmark = pytest.mark.reference

ATOL = 1e-9
ALL_ROBOTS = sorted(icub_models.get_robot_names())


@functools.cache
def robot(name: str) -> tuple[idt.Model, rm.Model]:
    im = load_idt(str(icub_models.get_model_file(name)))
    return im, model_from_idt(im)


def close(a: rm.Transform, b: rm.Transform) -> bool:
    return bool(np.allclose(a.as_matrix(), b.as_matrix(), atol=ATOL, rtol=0))


def assert_same(
    ours: rm.Model, theirs: rm.Model, *, frames: bool = True, shapes: bool = True
) -> None:
    """Names and orders equal; inertias, joints, frames and shapes equal to 1e-9."""
    assert list(ours.link_names) == list(theirs.link_names)
    assert list(ours.joint_names) == list(theirs.joint_names)
    assert ours.default_base == theirs.default_base
    np.testing.assert_allclose(
        ours.inertial_parameters(), theirs.inertial_parameters(), atol=ATOL, rtol=0
    )
    for name, a, b in zip(ours.joint_names, ours.joints, theirs.joints, strict=True):
        assert (type(a), a.link1, a.link2) == (type(b), b.link1, b.link2), name
        assert close(a.link1_H_link2, b.link1_H_link2), name
        if not isinstance(a, rm.FixedJoint):
            np.testing.assert_allclose(
                a.axis_in_link1.direction, b.axis_in_link1.direction, atol=ATOL
            )
            assert a.axis_in_link1.distance(b.axis_in_link1.origin) < ATOL
            assert (a.limits, a.dynamics) == (b.limits, b.dynamics)
    if frames:
        assert ours.frame_names == theirs.frame_names
        for fa, fb in zip(ours.frames, theirs.frames, strict=True):
            assert fa.link == fb.link and close(fa.link_H_frame, fb.link_H_frame), fa.name
    for kind in ("visuals", "collisions") if shapes else ():
        for i, (va, vb) in enumerate(zip(getattr(ours, kind), getattr(theirs, kind), strict=True)):
            assert len(va) == len(vb), (kind, ours.link_names[i])
            for sa, sb in zip(va, vb, strict=True):
                assert sa.geometry == sb.geometry and close(sa.link_H_geometry, sb.link_H_geometry)


def assert_same_sensors(ours: rm.Model, theirs: rm.Model) -> None:
    """Same sensors (iDynTree lists them type by type; robomodel keeps one list in input order)."""
    assert sorted(s.name for s in ours.sensors) == sorted(s.name for s in theirs.sensors)
    for s in theirs.sensors:
        o = ours.sensor(s.name)
        if isinstance(s, rm.SixAxisForceTorqueSensor):
            assert (o.parent_joint, o.first_link, o.second_link, o.applied_wrench_link) == (
                s.parent_joint,
                s.first_link,
                s.second_link,
                s.applied_wrench_link,
            )
            assert close(o.first_link_H_sensor, s.first_link_H_sensor)
            assert close(o.second_link_H_sensor, s.second_link_H_sensor)
        else:
            assert o.link == s.link and close(o.link_H_sensor, s.link_H_sensor)


def moving_joints(m: rm.Model) -> list[str]:
    return [n for n, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs]


def leg_joints(m: rm.Model) -> list[str]:
    keys = ("hip", "knee", "ankle")
    return [n for n in moving_joints(m) if any(k in n for k in keys)]


def idt_reduced(
    im: idt.Model, joints: list[str], positions: dict[str, float] | None = None
) -> rm.Model:
    out = idt.Model()
    if positions is None:
        assert idt.createReducedModel(im, joints, out)
    else:
        assert idt.createReducedModel(im, joints, out, positions)
    return model_from_idt(out)


def check_reduce(name: str) -> None:
    im, m = robot(name)
    lumped_ft = {
        s.name
        for s in m.sensors
        if isinstance(s, rm.SixAxisForceTorqueSensor) and m.joint(s.parent_joint).n_dofs == 0
    }
    with pytest.warns(rm.RobomodelWarning) as caught:
        ours = rt.reduce_model(m, keep_joints=moving_joints(m))
    # DEVIATE: iDynTree drops the F/T sensors of lumped joints silently; robomodel names them.
    message = str(caught[0].message)
    assert all(repr(s) in message for s in lumped_ft)
    theirs = idt_reduced(im, moving_joints(m))
    assert_same(ours, theirs)
    assert_same_sensors(ours, theirs)
    assert ours.n_frames == m.n_frames  # every link and frame survives
    legs = leg_joints(m)
    locked = {n: 0.1 * (k + 1) for k, n in enumerate(moving_joints(m)) if n not in legs}
    ours = rt.reduce_model(m, keep_joints=legs, locked_positions=locked, lumped_sensors="drop")
    theirs = idt_reduced(im, legs, locked)
    assert_same(ours, theirs)
    assert_same_sensors(ours, theirs)
    # Physics: the lumped model is the full one with the removed joints locked.
    q = np.array([0.05 * (k % 7) for k in range(ours.n_pos_coords)])
    q_full = np.zeros(m.n_pos_coords)
    for jn, j in zip(m.joint_names, m.joints, strict=True):
        if j.n_pos_coords:
            q_full[j.pos_coord_offset] = (
                q[ours.joint(jn).pos_coord_offset] if jn in legs else locked.get(jn, 0.0)
            )
    np.testing.assert_allclose(center_of_mass(ours, q), center_of_mass(m, q_full), atol=ATOL)
    fk_a, fk_b = forward_kinematics(ours, q), forward_kinematics(m, q_full)
    for f in m.frame_names[::7] + list(m.link_names):
        assert close(fk_a.base_H_frame(f), fk_b.base_H_frame(f)), f
    dq = np.array([0.1 * ((k % 5) - 2) for k in range(ours.n_dofs)])
    ddq = np.array([0.2 * ((k % 3) - 1) for k in range(ours.n_dofs)])
    full_v, full_a = np.zeros(m.n_dofs), np.zeros(m.n_dofs)
    for jn in legs:
        full_v[m.joint(jn).dof_offset] = dq[ours.joint(jn).dof_offset]
        full_a[m.joint(jn).dof_offset] = ddq[ours.joint(jn).dof_offset]
    tau = inverse_dynamics(ours, JointState(q, dq, ddq)).joint_torques
    tau_full = inverse_dynamics(m, JointState(q_full, full_v, full_a)).joint_torques
    for jn in legs:
        assert abs(tau[ours.joint(jn).dof_offset] - tau_full[m.joint(jn).dof_offset]) < 1e-8, jn


def check_normalize(name: str) -> None:
    im, m = robot(name)
    base = m.link_names[m.traversal().links[-1]]
    ours = rt.normalize_joint_order(m, base_link=base)
    out = idt.Model()
    assert idt.createModelWithNormalizedJointNumbering(im, base, out)
    theirs = model_from_idt(out)
    assert_same(ours, theirs)
    assert_same_sensors(ours, theirs)
    assert list(ours.package_dirs) == list(m.package_dirs)


def check_move_frames(name: str) -> None:
    _, m = robot(name)
    # From a foot most link frames are off their (reversed) joint axes, so many links move.
    foot = next(n for n in m.link_names if n.endswith("foot"))
    ours = rt.make_urdf_compatible(m, base_link=foot)
    moved_in = rm.with_default_base_link(m, foot)
    out = idt.Model()
    assert idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink(model_to_idt(moved_in), out)
    theirs = model_from_idt(out)
    assert_same(ours, theirs, frames=False)
    # DEVIATE B8: robomodel adds <link>_original_frame for every moved link; otherwise the
    # frames are iDynTree's.
    originals = [f for f in ours.frame_names if f.endswith("_original_frame")]
    assert originals
    assert [f for f in ours.frame_names if f not in originals] == theirs.frame_names
    for f in originals:
        link = f.removesuffix("_original_frame")
        T = ours.frame_transform(f)
        assert (
            close(T, rm.Transform.from_translation(T.position))
            and ours.frames[ours.frame_names.index(f)].link == link
        )
    for fa in ours.frames:
        if fa.name in theirs.frame_names:
            fb = theirs.frames[theirs.frame_names.index(fa.name)]
            assert fa.link == fb.link and close(fa.link_H_frame, fb.link_H_frame)
    # DEVIATE B7: sensors on moved links are re-expressed (iDynTree leaves them unchanged, so
    # they shift with the moved frame): ours = newLink_H_oldLink @ theirs.
    moved = {f.removesuffix("_original_frame"): ours.frame_transform(f) for f in originals}
    shifted = 0
    for s in theirs.sensors:
        if isinstance(s, rm.SixAxisForceTorqueSensor):
            continue
        o = ours.sensor(s.name)
        expected = moved[s.link] @ s.link_H_sensor if s.link in moved else s.link_H_sensor
        assert close(o.link_H_sensor, expected), s.name
        shifted += s.link in moved
    if name == "iCubGazeboV2_7":  # it has accelerometers on links that move
        assert shifted > 0
    assert rt.make_urdf_compatible(ours, base_link=foot) is ours


def check_extract(name: str) -> None:
    im, m = robot(name)
    legs = leg_joints(m)
    parts = rt.submodel_traversals(m, split_joints=legs)
    tr = idt.Traversal()
    assert im.computeFullTreeTraversal(tr)
    sd = idt.SubModelDecomposition()
    assert sd.splitModelAlongJoints(im, tr, legs)
    assert sd.getNrOfSubModels() == len(parts)
    for k, t in enumerate(parts):
        out = idt.Model()
        assert idt.extractSubModel(im, sd.getTraversal(k), out)
        theirs = model_from_idt(out)
        ours = rt.extract_submodel(m, t)
        # DEVIATE: iDynTree drops shapes and sensors (B11); robomodel carries them.
        assert all(len(v) == 0 for v in theirs.visuals) and not theirs.sensors
        ours_bare = rm.Model(
            link_names=ours.link_names,
            links=ours.links,
            joint_names=ours.joint_names,
            joints=ours.joints,
            frames=ours.frames,
        )
        assert_same(ours_bare, theirs)
        inside = set(ours.link_names)
        assert [s.name for s in ours.sensors] == [
            s.name
            for s in m.sensors
            if (
                s.parent_joint in ours.joint_names
                if isinstance(s, rm.SixAxisForceTorqueSensor)
                else s.link in inside
            )
        ]
        assert sum(map(len, ours.visuals)) == sum(len(m.visuals[m.link_index(n)]) for n in inside)


def check_remove_fake_links(name: str) -> None:
    _, m = robot(name)
    # Hang massless fixed leaves on three links, one carrying a frame, a shape and a sensor.
    hosts = list(m.link_names)[1:4]
    for k, host in enumerate(hosts):
        T = rm.Transform.from_rpy_xyz((0.1 * k, 0.2, 0.3), (0.01, 0.02 * k, 0.03))
        m = rm.add_joint_and_link(
            m,
            host,
            f"fake_joint{k}",
            rm.FixedJoint(link1=host, link2=f"fake{k}", link1_H_link2=T),
            f"fake{k}",
        )
    m = rm.add_frame(m, "fake0", "on_fake0", rm.Transform.from_translation((0, 0, 0.1)))
    m = rm.add_sensor(m, rm.Accelerometer(name="acc_on_fake0", link="fake0"))
    m = rm.with_visual_shapes(m, "fake0", [rm.SolidShape(geometry=rm.Sphere(0.01), name="s")])
    out = idt.Model()
    assert idt.removeFakeLinks(model_to_idt(m), out)
    theirs = model_from_idt(out)
    ours = rt.remove_fake_links(m)
    assert_same(ours, theirs, frames=False, shapes=False)
    assert all(len(v) == 0 for v in theirs.visuals)  # DEVIATE B11: iDynTree drops shapes
    for link in ours.link_names:
        extra = 1 if link == hosts[0] else 0
        assert ours.visual_shapes(link)[: len(m.visual_shapes(link))] == m.visual_shapes(link)
        assert len(ours.visual_shapes(link)) == len(m.visual_shapes(link)) + extra
    # iDynTree keeps only the fake-link frames; they come first in robomodel too, followed by
    # the model's own frames (DEVIATE B11: iDynTree drops those, and shapes and sensors).
    n = len(theirs.frames)
    assert ours.frame_names[:n] == theirs.frame_names == [f"fake{k}" for k in range(3)]
    for fa, fb in zip(ours.frames[:n], theirs.frames, strict=True):
        assert fa.link == fb.link and close(fa.link_H_frame, fb.link_H_frame)
    assert ours.frame_names[n:] == m.frame_names
    assert not theirs.sensors and len(ours.sensors) == len(m.sensors)
    assert ours.sensor("acc_on_fake0").link == hosts[0]
    assert [s.name for s in ours.visual_shapes(hosts[0])][-1] == "s"
    np.testing.assert_allclose(
        forward_kinematics(ours, np.zeros(ours.n_pos_coords)).base_H_frame("on_fake0").as_matrix(),
        forward_kinematics(m, np.zeros(m.n_pos_coords)).base_H_frame("on_fake0").as_matrix(),
        atol=ATOL,
    )


CHECKS = [check_reduce, check_normalize, check_move_frames, check_extract, check_remove_fake_links]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("name", ALL_ROBOTS)
def test_against_idyntree(name, check):
    _, m = robot(name)
    if not leg_joints(m) and check in (check_reduce, check_extract, check_move_frames):
        pytest.skip(f"{name} has no legs")
    check(name)
