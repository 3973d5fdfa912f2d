"""Every warning robomodel emits points at the user's line that caused it, not into robomodel.

Each test calls one public function from this file and checks that the warning's ``filename``
is this file and its ``lineno`` the line of the call, however deep inside robomodel the warning
was noticed (the URDF sensor pass, the URDF writer, the lumping engine, ...).
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import attrs
import pytest

import robomodel as rm
import robomodel.formats.urdf
from robomodel.errors import warn
from robomodel.model.record import Extension
from robomodel.transformers import attach, pipeline, reduce_model

# A leg: a six-axis force/torque sensor in the fixed joint 'ft_joint', a gripper whose finger
# mimics another, a gyroscope whose frame name 'tip' is already a link elsewhere.
URDF = """<robot name="w">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="b"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="c"><inertial><mass value="1"/>
    <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="tip"/>
  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="ft_joint" type="fixed"><parent link="a"/><child link="b"/>
    <origin xyz="0 0 0.1"/></joint>
  <joint name="jc" type="revolute"><parent link="b"/><child link="c"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="ja" multiplier="2"/></joint>
  <joint name="jtip" type="fixed"><parent link="c"/><child link="tip"/>
    <origin xyz="0 0 0.2"/></joint>
  <sensor name="ft" type="force_torque"><parent joint="ft_joint"/>
    <force_torque><frame>child</frame><measure_direction>child_to_parent</measure_direction>
    </force_torque></sensor>
  <sensor name="tip" type="gyroscope"><parent link="base"/></sensor>
  <gazebo reference="c"><material>Gazebo/Red</material></gazebo>
</robot>
"""


@contextmanager
def warned_here(match: str) -> Iterator[int]:
    """Record the robomodel warnings of the block; yield the line after the ``with``.

    On exit, check that a warning matching ``match`` came and that every robomodel warning
    names this file and the block's first line: the call.
    """
    caller = inspect.currentframe()
    assert caller is not None and caller.f_back is not None and caller.f_back.f_back is not None
    line = caller.f_back.f_back.f_lineno + 1  # the line after ``with warned_here(...):``
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield line
    ours = [w for w in caught if issubclass(w.category, rm.RobomodelWarning)]
    assert any(match in str(w.message) for w in ours), [str(w.message) for w in caught]
    for w in ours:
        assert (w.filename, w.lineno) == (__file__, line), (w.filename, w.lineno, w.message)


def leg() -> rm.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rm.RobomodelWarning)
        return robomodel.formats.urdf.loads(URDF)


def test_urdf_loads_and_load_warn_at_the_call(tmp_path: Path) -> None:
    with warned_here("no sensor frame added for 'tip'"):
        robomodel.formats.urdf.loads(URDF)
    path = tmp_path / "w.urdf"
    path.write_text(URDF)
    with warned_here("no sensor frame added for 'tip'"):
        robomodel.formats.urdf.load(path)


def test_urdf_dumps_and_dump_warn_at_the_call(tmp_path: Path) -> None:
    """A kept element of a link the model does not have cannot be written: dumps says so."""
    m = leg()
    stale = attrs.evolve(
        m,
        extensions=[
            *m.extensions,
            Extension(owner_kind="link", owner="gone", xml="<gazebo/>", tag="gazebo"),
        ],
    )
    with warned_here("kept extension element"):
        robomodel.formats.urdf.dumps(stale)
    with warned_here("kept extension element"):
        robomodel.formats.urdf.dump(stale, tmp_path / "out.urdf")


def test_a_lumped_owners_extensions_are_dropped_with_a_report() -> None:
    """Reducing lumps joint 'jc': its kept <mimic> cannot follow, and the report says so."""
    from robomodel.transformers import explain

    reduced, report = explain(
        functools.partial(reduce_model, keep_joints=["ja"], lumped_sensors="drop"), leg()
    )
    assert "jc" not in reduced.joint_names
    assert not [e for e in reduced.extensions if e.owner == "jc"]
    assert any(
        ch.action == "dropped" and ch.kind == "extension" and "joint 'jc'" in ch.name
        for ch in report.changes
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        robomodel.formats.urdf.dumps(reduced)  # nothing stale left to warn about


def test_transformer_warnings_point_at_the_call() -> None:
    model = leg()
    with warned_here("dropped force/torque sensors 'ft'"):
        reduce_model(model, keep_joints=["ja", "jc"])
    with warned_here("mimics joint 'ja', which is lumped"):
        reduce_model(model, keep_joints=["jc"], lumped_sensors="drop")
    # Through a pipeline and a partial: the call of the pipeline is the user's line.
    step = pipeline(functools.partial(reduce_model, keep_joints=["ja", "jc"]))
    with warned_here("dropped force/torque sensors"):
        step(model)


def test_attach_warns_at_the_call() -> None:
    red = rm.Material(name="paint", rgba=(1, 0, 0, 1))
    blue = rm.Material(name="paint", rgba=(0, 0, 1, 1))
    arm = attrs.evolve(rm.add_link(rm.Model(name="arm"), "base"), materials=[red])
    hand = attrs.evolve(rm.add_link(rm.Model(name="hand"), "palm"), materials=[blue])
    with warned_here("material 'paint' differently"):
        attach(arm, hand, at_frame="base")


def test_to_idyntree_warns_at_the_call() -> None:
    pytest.importorskip("idyntree")
    from robomodel.formats.interop import to_idyntree

    with warned_here("does not receive"):
        to_idyntree(leg())


def test_mjcf_warns_at_the_call() -> None:
    pytest.importorskip("mujoco")
    from robomodel.formats import mjcf

    with warned_here("lost or changed"):
        mjcf.dumps(leg())


def test_the_helper_skips_every_robomodel_frame() -> None:
    """Called from here, ``warn`` names this line; robomodel frames above it are skipped."""
    with warned_here("direct"):
        warn("direct")
