from __future__ import annotations

import math
import sys
import warnings
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import decorated_models, models

import robomodel as rm
from robomodel.errors import OptionalDependencyError
from robomodel.formats import from_idyntree, to_idyntree, to_pinocchio
from robomodel.physics.kinematics import center_of_mass, forward_kinematics
from robomodel.testing import assert_models_close
from robomodel.transformers.change_base import change_base


def _q(data: st.DataObject, n: int) -> np.ndarray:
    return np.array([data.draw(st.floats(-2, 2)) for _ in range(n)])


@pytest.mark.reference
@settings(max_examples=30)
@given(models(max_links=7), st.data())
def test_to_idyntree_has_the_same_indices_kinematics_and_inertias(
    m: rm.Model, data: st.DataObject
) -> None:
    """to_idyntree(m): same link/joint/frame names at the same indices, the same inertial
    parameters, and iDynTree's KinDynComputations gives robomodel's FK for every frame."""
    import idyntree.bindings as idt

    im = to_idyntree(m)
    assert [im.getLinkName(i) for i in range(im.getNrOfLinks())] == list(m.link_names)
    assert [im.getJointName(i) for i in range(im.getNrOfJoints())] == list(m.joint_names)
    assert [im.getFrameName(i) for i in range(im.getNrOfFrames())] == list(
        m.link_names
    ) + m.frame_names
    assert im.getDefaultBaseLink() == m.default_base_index
    params = idt.VectorDynSize(10 * m.n_links)
    assert im.getInertialParameters(params)
    assert np.allclose(params.toNumPy(), m.inertial_parameters(), atol=1e-12)
    q = _q(data, m.n_pos_coords)
    kd = idt.KinDynComputations()
    assert kd.loadRobotModel(im)
    assert kd.setJointPos(q)
    fk = forward_kinematics(m, q)
    base = str(m.default_base)
    for f in range(m.n_frames):
        got = kd.getRelativeTransform(base, m.frame_name(f)).asHomogeneousTransform().toNumPy()
        assert np.allclose(got, fk.base_H_frame(f).as_matrix(), atol=1e-9)


@pytest.mark.reference
@settings(max_examples=30)
@given(models(max_links=7))
def test_from_idyntree_inverts_to_idyntree(m: rm.Model) -> None:
    """from_idyntree(to_idyntree(m)) is m (within float noise of iDynTree's own conversions)."""
    assert_models_close(from_idyntree(to_idyntree(m), name=m.name), m, atol=1e-12)


@pytest.mark.reference
def test_from_idyntree_of_an_idyntree_loaded_icub() -> None:
    """An iCub model loaded by iDynTree's own URDF loader, converted, has iDynTree's FK."""
    icub_models = pytest.importorskip("icub_models")
    import idyntree.bindings as idt

    path = str(icub_models.get_model_file("iCubGazeboV2_5"))
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(path)
    im = loader.model()
    m = from_idyntree(im)
    assert m.n_links == im.getNrOfLinks() and m.n_frames == im.getNrOfFrames()
    assert math.isclose(m.total_mass, im.getTotalMass(), rel_tol=1e-12)
    rng = np.random.default_rng(7)  # any configuration will do
    q = rng.uniform(-1, 1, m.n_pos_coords)
    kd = idt.KinDynComputations()
    kd.loadRobotModel(im)
    kd.setJointPos(q)
    fk = forward_kinematics(m, q)
    base = str(m.default_base)
    for f in range(0, m.n_frames, 3):
        got = kd.getRelativeTransform(base, m.frame_name(f)).asHomogeneousTransform().toNumPy()
        assert np.allclose(got, fk.base_H_frame(f).as_matrix(), atol=1e-9)


def _urdf_ready(m: rm.Model) -> rm.Model:
    # Disabled-but-finite limits of continuous joints are written in a form urdfdom rejects
    # (an exporter matter, reported); clear them so Pinocchio can read the text.
    joints = [
        j
        if isinstance(j, rm.FixedJoint) or j.limits.enabled
        else attrs.evolve(j, limits=rm.PositionLimits())
        for j in m.joints
    ]
    return change_base(attrs.evolve(m, joints=joints), str(m.default_base), original_frames=False)


@pytest.mark.reference
@settings(max_examples=25)
@given(models(max_links=7), st.data())
def test_to_pinocchio_has_the_same_kinematics_and_inertias(
    m: rm.Model, data: st.DataObject
) -> None:
    """to_pinocchio(m): Pinocchio's frame placements of every link equal robomodel's FK, and the
    total mass and centre of mass agree."""
    import pinocchio as pin

    c = _urdf_ready(m)
    pm = to_pinocchio(c)
    pd = pm.createData()
    q = _q(data, c.n_pos_coords)
    qp = pin.neutral(pm)
    for name, j in zip(c.joint_names, c.joints, strict=True):
        if j.n_pos_coords:
            jid = pm.getJointId(name)
            k = pm.joints[jid].idx_q
            if pm.nqs[jid] == 2:  # continuous joints are (cos, sin)
                qp[k], qp[k + 1] = math.cos(q[j.pos_coord_offset]), math.sin(q[j.pos_coord_offset])
            else:
                qp[k] = q[j.pos_coord_offset]
    pin.framesForwardKinematics(pm, pd, qp)
    fk = forward_kinematics(c, q)
    root = np.linalg.inv(pd.oMf[pm.getFrameId(str(c.default_base))].homogeneous)
    for name in c.link_names:
        got = root @ pd.oMf[pm.getFrameId(name)].homogeneous
        assert np.allclose(got, fk.base_H_frame(name).as_matrix(), atol=1e-9)
    total = sum(pm.inertias[i].mass for i in range(pm.njoints))
    assert math.isclose(total, c.total_mass, rel_tol=1e-9, abs_tol=1e-12)
    if c.total_mass > 1e-9:
        # Pinocchio's centerOfMass leaves out the inertia fixed to the universe (the root
        # link's), so sum the bodies, universe included, from its placements.
        world = (
            sum(
                pm.inertias[i].mass * (pd.oMi[i].act(pm.inertias[i].lever))
                for i in range(pm.njoints)
            )
            / total
        )
        com = root[:3, :3] @ world + root[:3, 3]
        assert np.allclose(com, center_of_mass(c, q), atol=1e-8)


def _as_idyntree_holds(m: rm.Model) -> rm.Model:
    """``m`` as an iDynTree model can hold it: no mimic relations, kept extensions, robot-level
    materials or children kept in shapes and materials, sensors grouped by kind."""
    kinds = (rm.SixAxisForceTorqueSensor, rm.Accelerometer, rm.Gyroscope)

    def bare(s: rm.SolidShape) -> rm.SolidShape:
        mat = None if s.material is None else attrs.evolve(s.material, extensions=())
        return attrs.evolve(s, extensions=(), material=mat)

    joints = [j if isinstance(j, rm.FixedJoint) else attrs.evolve(j, mimic=None) for j in m.joints]
    return attrs.evolve(
        m,
        joints=joints,
        visuals=[[bare(s) for s in v] for v in m.visuals],
        collisions=[[bare(s) for s in c] for c in m.collisions],
        sensors=sorted(m.sensors, key=lambda s: kinds.index(type(s))),
        extensions=[],
        materials=[],
    )


@pytest.mark.reference
@settings(max_examples=25)
@given(decorated_models())
def test_shapes_and_sensors_go_to_idyntree_and_back(m: rm.Model) -> None:
    """to_idyntree carries shapes (geometry, name, pose, material) and sensors: the test suite's
    own iDynTree reader finds them, and from_idyntree reads back what the suite's own iDynTree
    writer wrote; both agree with the model as iDynTree can hold it."""
    from idyntree_oracle import model_from_idt, model_to_idt

    expected = _as_idyntree_holds(m)

    def shapes_and_sensors_of(other: rm.Model, material: Any) -> tuple[rm.Model, rm.Model]:
        # The suite's bridges have their own conventions for unknown joint limits and package
        # dirs, and carry less of a material (its reader no texture, its writer nothing): take
        # only shapes and sensors from the model they produced, and compare them with the
        # expected shapes with their materials as the bridge carries them.
        def seen(s: rm.SolidShape) -> rm.SolidShape:
            return attrs.evolve(s, material=material(s.material))

        want = attrs.evolve(
            expected,
            visuals=[[seen(s) for s in v] for v in expected.visuals],
            collisions=[[seen(s) for s in c] for c in expected.collisions],
        )
        got = attrs.evolve(
            expected, visuals=other.visuals, collisions=other.collisions, sensors=other.sensors
        )
        return got, want

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RobomodelWarning)  # what it cannot carry
        im = to_idyntree(m)
    assert_models_close(from_idyntree(im, name=m.name), expected, atol=1e-12)
    got, want = shapes_and_sensors_of(
        model_from_idt(im), lambda x: None if x is None else attrs.evolve(x, texture=None)
    )
    assert_models_close(got, want, atol=1e-12)
    got, want = shapes_and_sensors_of(from_idyntree(model_to_idt(expected)), lambda x: None)
    assert_models_close(got, want, atol=1e-12)


@settings(max_examples=10)
@given(decorated_models())
def test_to_idyntree_warns_about_what_it_leaves_behind(m: rm.Model) -> None:
    """to_idyntree warns (and names them) when shapes, sensors or extensions are not carried."""
    pytest.importorskip("idyntree")
    with pytest.warns(rm.RobomodelWarning, match="does not receive .*kept extensions"):
        to_idyntree(m)


def test_missing_peer_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    m = rm.add_link(rm.Model(), "a")
    monkeypatch.setitem(sys.modules, "idyntree", None)
    monkeypatch.setitem(sys.modules, "idyntree.bindings", None)
    monkeypatch.setitem(sys.modules, "pinocchio", None)
    with pytest.raises(OptionalDependencyError, match="pip install idyntree"):
        to_idyntree(m)
    with pytest.raises(OptionalDependencyError, match="pip install idyntree"):
        from_idyntree(object())
    with pytest.raises(OptionalDependencyError, match="pip install pin"):
        to_pinocchio(m)
    assert issubclass(OptionalDependencyError, ImportError)


def test_from_idyntree_keeps_damping_set_without_a_dynamics_type() -> None:
    """iDynTree holds damping beside NoJointDynamics; robomodel keeps the values as kind "urdf"
    (its "none" carries none), and a joint with neither stays "none"."""
    idt = pytest.importorskip("idyntree.bindings")
    m = rm.add_link(rm.Model(), "a")
    m = rm.add_joint_and_link(m, "a", "j", rm.RevoluteJoint(link1="a", link2="b"), "b")
    m = rm.add_joint_and_link(m, "b", "k", rm.RevoluteJoint(link1="b", link2="c"), "c")
    im = to_idyntree(m)
    j = im.getJoint(im.getJointIndex("j")).asRevoluteJoint()
    assert j.getJointDynamicsType() == idt.NoJointDynamics
    j.setDamping(0, 0.5)
    back = from_idyntree(im)
    assert back.joint("j").dynamics == rm.JointDynamics(kind="urdf", damping=0.5)
    assert back.joint("k").dynamics == rm.JointDynamics()
