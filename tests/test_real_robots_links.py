"""Every link survives every MJCF export as something MuJoCo can find by name.

A massless link between two moving joints has no body of its own in MJCF (MuJoCo refuses
massless moving bodies, so its joint moves into its child's body), and a massless fixed base is
MuJoCo's world body. Both used to leave no trace: iCub's ``l_wrist_1`` vanished. Now each is a
``<site>`` named after the link at its frame, and robomodel's reader gives the link back (from
the metadata) or, without the metadata, a frame of that name at that pose.
"""

from __future__ import annotations

import icub_models
import mujoco
import numpy as np
import pytest

import robomodel as rm
from robomodel.formats import mjcf, urdf
from robomodel.physics.kinematics import forward_kinematics

ICUB = "iCubGenova03"  # its wrists hold a massless link between two moving joints


@pytest.fixture(scope="module")
def icub() -> rm.Model:
    return urdf.load(icub_models.get_model_file(ICUB))


def _site_pose(mm: mujoco.MjModel, name: str) -> rm.Transform:
    d = mujoco.MjData(mm)
    mujoco.mj_kinematics(mm, d)
    s = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_SITE, name)
    assert s >= 0, f"no site {name!r}"
    return rm.Transform(d.site_xmat[s].reshape(3, 3), d.site_xpos[s])


def _at_rest(model: rm.Model, name: str) -> rm.Transform:
    return forward_kinematics(model, np.zeros(model.n_dofs)).base_H_frame(name)


def test_every_link_is_a_body_or_a_site_at_its_rest_pose(icub: rm.Model) -> None:
    text, report = mjcf.dumps_with_report(icub)
    mm = mujoco.MjModel.from_xml_string(text)
    merged = {x.name for x in report.losses if x.kind == "merged link"}
    assert {"l_wrist_1", "r_wrist_1"} <= merged
    for name in icub.link_names:
        body = mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_BODY, name)
        if body >= 0:
            continue
        # No body: a site of that name, where the link is at rest.
        # (MuJoCo's world is the base frame: the base body is welded at the origin.)
        expected = _at_rest(icub, name)
        got = _site_pose(mm, name)
        np.testing.assert_allclose(got.position, expected.position, atol=1e-12)
        np.testing.assert_allclose(got.rotation, expected.rotation, atol=1e-12)


def test_the_reader_gives_the_link_back_or_a_frame_of_its_name(icub: rm.Model) -> None:
    text, _ = mjcf.dumps_with_report(icub)
    back, _ = mjcf.loads_with_report(text)
    assert set(icub.link_names) <= set(back.link_names)
    assert "l_wrist_1" not in {f.name for f in back.frames}
    # Without robomodel's metadata (another tool wrote it, or it was removed), the site is a
    # frame of the link's name, at the link's rest pose.
    bare, _ = mjcf.dumps_with_report(icub, options=mjcf.DumpOptions(metadata=False))
    other, _ = mjcf.loads_with_report(bare)
    frames = {f.name: f for f in other.frames}
    for name in ("l_wrist_1", "r_wrist_1"):
        assert name in frames and name not in other.link_names
        ours, theirs = _at_rest(icub, name), _at_rest(other, name)
        np.testing.assert_allclose(theirs.position, ours.position, atol=1e-12)
        np.testing.assert_allclose(theirs.rotation, ours.rotation, atol=1e-12)


def test_a_massless_fixed_base_is_a_site_of_the_world() -> None:
    m = rm.add_link(rm.Model(name="r"), "base_link", rm.Link())
    arm = rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0.1), np.eye(3) * 0.01))
    j = rm.RevoluteJoint(
        link1="base_link",
        link2="arm",
        link1_H_link2=rm.Transform.from_rpy_xyz((0, 0, 0), (0, 0, 0.5)),
        axis_in_link1=rm.Axis((0, 0, 1)),
    )
    m = rm.add_joint_and_link(m, "base_link", "j", j, "arm", arm)
    text, report = mjcf.dumps_with_report(m)
    assert [x.name for x in report.losses if x.kind == "world link"] == ["base_link"]
    mm = mujoco.MjModel.from_xml_string(text)
    assert mm.site_bodyid[mujoco.mj_name2id(mm, mujoco.mjtObj.mjOBJ_SITE, "base_link")] == 0
    back, _ = mjcf.loads_with_report(text)
    assert back.link_names == m.link_names and not back.frames
