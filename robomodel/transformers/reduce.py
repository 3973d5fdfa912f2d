"""Reduce a model to some of its joints, lumping the rest (iDynTree's ``createReducedModel``)."""

from __future__ import annotations

from collections.abc import Sequence

from robomodel.model.record import Model
from robomodel.model.validation import check_choice, check_name_list
from robomodel.physics.joint_state import JointState, JointValues, joint_values
from robomodel.transformers.engine import LUMPED_SENSORS, LumpedSensors, lump
from robomodel.transformers.report import record, recording

__all__ = ["reduce_model"]

_STEP = "reduce_model"


def reduce_model(
    model: Model,
    *,
    keep_joints: Sequence[str],
    locked_positions: JointValues | JointState | None = None,
    lumped_sensors: LumpedSensors = "warn",
) -> Model:
    """Return ``model`` with only the joints ``keep_joints``, in that order; lump the others.

    Every other joint is locked at its ``locked_positions`` entry (0 when absent) and the links
    it connects are fused: each group of links joined by removed joints becomes one link, named
    after the group's link nearest the default base, whose inertia is the group's composite
    rigid body at the locked positions. Links come in the default base's traversal order. Each
    lumped link becomes an additional frame, and every frame, shape and link sensor of a lumped
    link moves, re-expressed, onto the new link. Kinematics and dynamics of the kept joints are
    those of the full model with the removed joints locked.

    A force/torque sensor whose joint is kept follows its links (an end that was lumped is
    re-attached to the new link). One whose joint is removed measures nothing any more:
    ``lumped_sensors`` says what to do with it, and its pose stays as a frame named after it.

    >>> import robomodel as rm
    >>> unit = rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0)))
    >>> m = rm.add_link(rm.Model(), "a", unit)
    >>> j = rm.RevoluteJoint(link1="a", link2="b",
    ...                      link1_H_link2=rm.Transform.from_translation((1, 0, 0)))
    >>> m = rm.add_joint_and_link(m, "a", "j", j, "b", unit)
    >>> r = reduce_model(m, keep_joints=[])
    >>> r.link_names.tolist(), r.frame_names, r.link("a").inertia.com.tolist()
    (['a'], ['b'], [0.5, 0.0, 0.0])

    Args:
        model: the full model; every link must be connected to the default base.
        keep_joints: the joints of the result, in the order they get (joint, DOF and position
            indices follow it). Fixed joints may be kept too.
        locked_positions: positions of removed joints, by name (a number, or a list with one
            number per position coordinate; joints left out are at 0), a vector of every
            joint position in coordinate order, a :class:`~robomodel.JointState` (its ``q``),
            or ``None`` (all at 0); see :mod:`robomodel.physics.joint_state`.
            Values for kept joints are ignored.
        lumped_sensors: for force/torque sensors in removed joints: ``"warn"`` (default: drop
            them and emit a :class:`~robomodel.errors.RobomodelWarning` naming each), ``"raise"``
            (a :class:`~robomodel.errors.ModelError` naming them) or ``"drop"`` (quietly).

    Returns:
        The reduced model (``model`` itself when nothing changes).

    Raises:
        UnknownNameError: a kept or locked joint does not exist.
        ArgumentError: ``keep_joints`` is not a list of names, a locked position is not a
            finite number, or ``lumped_sensors`` is not one of its values.
        ModelError: a joint is kept twice, a locked position has the wrong size or is given for
            a fixed joint, or a sensor is lumped with ``lumped_sensors="raise"``.
        TopologyError: a link is not connected to the default base.
    """
    kept = check_name_list(keep_joints, "keep_joints", where=_STEP)
    policy = check_choice(lumped_sensors, LUMPED_SENSORS, "lumped_sensors", where=_STEP)
    positions = None
    if locked_positions is not None:
        positions = joint_values(
            model, locked_positions, kind="positions", missing="zero", where=_STEP
        )
    if recording() and kept != list(model.joint_names):
        kept_set = set(kept)
        for j in model.joint_names:
            if j not in kept_set:
                record("dropped", "joint", j, "lumped")
    return lump(model, kept=kept, step=_STEP, positions=positions, lumped_sensors=policy)
