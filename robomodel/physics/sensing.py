"""Sensor predictions and model-level sensor checks: what each sensor of a model would read.

The pieces, from the bottom up:

* :func:`link_motion`: every link's twist and proper acceleration (gravity folded in as an
  upward acceleration of the base, as iDynTree does), in link frames, for a joint state;
* :func:`predict_measurement`: a force/torque sensor's reading from the internal wrenches of
  :func:`robomodel.physics.dynamics.inverse_dynamics` and the traversal they were computed with
  (iDynTree's ``SixAxisForceTorqueSensor::predictMeasurement``);
* :meth:`robomodel.model.sensors.Accelerometer.predict_measurement` and
  :meth:`robomodel.model.sensors.Gyroscope.predict_measurement` from the parent link's motion;
* :func:`predict_sensor_measurements`: every sensor of a model at once, by name (iDynTree's
  ``predictSensorsMeasurements``, the base at rest or moving with a body-fixed twist);
* :func:`predict_ft_measurement`: one force/torque sensor of a model, by name, in one call
  (the dynamics pass and the traversal that :func:`predict_measurement` needs are done inside).

``STANDARD_GRAVITY`` is :data:`robomodel.model.validation.STANDARD_GRAVITY`, the one default gravity
of every kinematics, dynamics and sensing function, re-exported here where it has always been.

All spatial vectors put the linear part first: twists ``[v; w]``, wrenches ``[f; tau]``.

>>> import numpy as np
>>> import robomodel as rm
>>> from robomodel.physics.kinematics import JointState
>>> m = rm.add_link(rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(2.0, (0, 0, 0))))
>>> j = rm.FixedJoint(link1="base", link2="tool")
>>> tool = rm.Link(rm.SpatialInertia.from_com(2.0, (0, 0, 0)))
>>> m = rm.add_joint_and_link(m, "base", "j", j, "tool", tool)
>>> ft = rm.SixAxisForceTorqueSensor(name="ft", parent_joint="j", first_link="base",
...                                  second_link="tool", applied_wrench_link="tool")
>>> m = rm.add_sensor(m, ft)
>>> m = rm.add_sensor(m, rm.Accelerometer(name="acc", link="tool"))
>>> out = predict_sensor_measurements(m, JointState.zeros(m))
>>> out["ft"].round(9).tolist(), out["acc"].round(9).tolist()
([0.0, 0.0, 19.62, 0.0, 0.0, 0.0], [0.0, 0.0, 9.81])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.memo import memoized
from robomodel.errors import ArgumentError, ModelError
from robomodel.model.record import Model
from robomodel.model.sensors import (
    Accelerometer,
    Gyroscope,
    Sensor,
    SixAxisForceTorqueSensor,
    move_wrench,
)
from robomodel.model.spatial import cross, wrench_adjoint
from robomodel.model.traversal import Traversal
from robomodel.model.validation import (
    STANDARD_GRAVITY,
    check_tolerance,
    check_type,
    read_only,
    real_array,
)
from robomodel.physics._kinematic_tree import require_complete, tree_of
from robomodel.physics.dynamics import inverse_dynamics, link_motion_arrays
from robomodel.physics.joint_state import Configuration, link_index_of

__all__ = [
    "STANDARD_GRAVITY",
    "LinkMotion",
    "check_sensor",
    "link_motion",
    "predict_ft_measurement",
    "predict_measurement",
    "predict_sensor_measurements",
    "sensor_problems",
]

FloatArray = npt.NDArray[np.float64]


# --------------------------------------------------------------------------- model-level checks


def sensor_problems(model: Model, sensor: Sensor, *, atol: float = 1e-9) -> tuple[str, ...]:
    """Return what is wrong with ``sensor`` in ``model`` (empty when it fits).

    A force/torque sensor needs its joint, its two links as that joint's two ends, and sensor
    poses that agree with the joint's rest transform (``first_link_H_sensor @
    inverse(second_link_H_sensor) == first_link_H_second_link`` within ``atol``, which every
    URDF sensor satisfies). An accelerometer or gyroscope needs its link.

    Raises:
        ArgumentError: ``sensor`` is not a sensor, or ``atol`` not a number ``>= 0``.
    """
    atol = check_tolerance(atol)
    match sensor:
        case SixAxisForceTorqueSensor():
            kind = f"force/torque sensor {sensor.name!r}"
            if not model.is_joint_name_used(sensor.parent_joint):
                return (
                    f"{kind}: the model has no joint {sensor.parent_joint!r}; give the joint the "
                    "sensor is mounted in",
                )
            bad = tuple(
                f"{kind}: the model has no link {link!r}"
                for link in sensor.links
                if not model.is_link_name_used(link)
            )
            if bad:
                return bad
            joint = model.joint(sensor.parent_joint)
            if {joint.link1, joint.link2} != set(sensor.links):
                return (
                    f"{kind}: links {sensor.first_link!r} and {sensor.second_link!r} are not the "
                    f"two ends of joint {sensor.parent_joint!r} ({joint.link1!r}, "
                    f"{joint.link2!r})",
                )
            rest = joint.rest_transform(sensor.first_link, sensor.second_link)
            implied = sensor.first_link_H_sensor @ sensor.second_link_H_sensor.inverse()
            err = max(
                float(np.abs(implied.rotation - rest.rotation).max()),
                float(np.abs(implied.position - rest.position).max()),
            )
            if err > atol:
                return (
                    f"{kind}: first_link_H_sensor @ inverse(second_link_H_sensor) differs from "
                    f"the rest transform of joint {sensor.parent_joint!r} by {err:.3g}; the two "
                    "poses must describe the same sensor frame",
                )
            return ()
        case Accelerometer() | Gyroscope():
            if not model.is_link_name_used(sensor.link):
                kind = "accelerometer" if isinstance(sensor, Accelerometer) else "gyroscope"
                hint = (
                    f"; {sensor.link!r} is an additional frame: attach the sensor to its link "
                    "with link_H_frame @ frame_H_sensor"
                    if model.is_frame_name_used(sensor.link)
                    else ""
                )
                return (f"{kind} {sensor.name!r}: the model has no link {sensor.link!r}{hint}",)
            return ()
        case _:
            raise ArgumentError(
                "sensor must be a SixAxisForceTorqueSensor, Accelerometer or Gyroscope, but got "
                f"{sensor!r:.80}"
            )


def check_sensor(model: Model, sensor: Sensor, *, atol: float = 1e-9) -> Sensor:
    """Return ``sensor`` if :func:`sensor_problems` finds nothing, else raise.

    This is iDynTree's ``isValid`` plus ``isConsistent(model)``, raising a message that says
    what to fix instead of returning ``false``.

    Raises:
        ModelError: the sensor does not fit the model.
    """
    found = sensor_problems(model, sensor, atol=atol)
    if found:
        raise ModelError("; ".join(found))
    return sensor


# --------------------------------------------------------------------------- link motion


@attrs.frozen(eq=False, repr=False)
class LinkMotion:
    """The twist and proper acceleration of every link, in link frames.

    Attributes:
        model: the model.
        traversal: the traversal the motion was propagated along.
        velocities: (n_links, 6) by link index: the link twist ``[v; w]`` (velocity of the link
            origin and angular velocity, link axes).
        proper_accelerations: (n_links, 6) by link index: the time derivative of that twist
            with gravity subtracted from the linear part (iDynTree's proper acceleration). An
            accelerometer at the link origin would read ``a[:3] + w x v``.
    """

    model: Model
    traversal: Traversal
    velocities: FloatArray
    proper_accelerations: FloatArray

    def velocity(self, link: str | int) -> FloatArray:
        """Return one link's twist ``[v; w]`` in its frame."""
        i = link_index_of(self.model, link, what="link", allow_none=False)
        out: FloatArray = self.velocities[i]
        return out

    def proper_acceleration(self, link: str | int) -> FloatArray:
        """Return one link's proper acceleration in its frame."""
        i = link_index_of(self.model, link, what="link", allow_none=False)
        out: FloatArray = self.proper_accelerations[i]
        return out

    def __repr__(self) -> str:
        return f"LinkMotion(base={self.model.link_names[self.traversal.base]!r})"


class _Plan:
    """Per model and base: the traversal and the sensors' constant data, grouped by kind."""

    def __init__(self, model: Model, base: int) -> None:
        t = model.traversal(base)
        require_complete(tree_of(model, base), model, "sensor prediction")
        self.traversal = t
        # Sensors, grouped by kind so that each kind is one vectorised product, by link index.
        self.names = [s.name for s in model.sensors]
        acc = [s for s in model.sensors if isinstance(s, Accelerometer)]
        gyr = [s for s in model.sensors if isinstance(s, Gyroscope)]
        self.acc_names = [s.name for s in acc]
        self.acc_idx = np.array([model.link_index(s.link) for s in acc], dtype=np.intp)
        self.acc_Rt = np.array([s.link_H_sensor.rotation.T for s in acc]).reshape(-1, 3, 3)
        self.acc_p = np.array([s.link_H_sensor.position for s in acc]).reshape(-1, 3)
        self.gyr_names = [s.name for s in gyr]
        self.gyr_idx = np.array([model.link_index(s.link) for s in gyr], dtype=np.intp)
        self.gyr_Rt = np.array([s.link_H_sensor.rotation.T for s in gyr]).reshape(-1, 3, 3)
        # F/T: reading = X @ internal_wrench[child], X = +-wrench adjoint of sensor_H_child.
        self.ft: list[tuple[str, int, FloatArray]] = []
        for s in model.sensors:
            if isinstance(s, SixAxisForceTorqueSensor):
                check_sensor(model, s, atol=np.inf)
                ci = _child(s, model, t)
                cname = model.link_names[ci]
                sign = 1.0 if s.applied_wrench_link == cname else -1.0
                X = sign * wrench_adjoint(s.link_H_sensor(cname).inverse())
                self.ft.append((s.name, ci, X))
        self.ft_by_name = {name: (ci, X) for name, ci, X in self.ft}


def _child(sensor: SixAxisForceTorqueSensor, model: Model, traversal: Traversal) -> int:
    # iDynTree's rule: the child is link1 when link2 is its traversal parent, else link2.
    first, second = model.link_index(sensor.first_link), model.link_index(sensor.second_link)
    if traversal.is_parent_of(second, first):
        return first
    if traversal.is_parent_of(first, second):
        return second
    raise ModelError(
        f"force/torque sensor {sensor.name!r}: links {sensor.first_link!r} and "
        f"{sensor.second_link!r} are not parent and child in the traversal from "
        f"{model.link_names[traversal.base]!r}; use a traversal of the same model"
    )


def _plan(model: Model, base: object) -> _Plan:
    b = link_index_of(check_type(model, Model, "model"), base)
    return memoized(model, ("sensing-plan", b), lambda: _Plan(model, b))


def link_motion(
    model: Model,
    state: Configuration,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    base_velocity: npt.ArrayLike | None = None,
) -> LinkMotion:
    """Return every link's twist and proper acceleration for a joint state.

    The base moves with the twist ``base_velocity`` (``[v; w]`` in the base frame) and its time
    derivative ``base_acceleration`` (``[a; alpha]``), both zero by default; gravity, expressed
    in the base frame, is subtracted from the base's linear acceleration, so the result is what
    accelerometers feel.
    Each link moves like its parent plus its joint's motion subspace (``joint.axis(child)``)
    times the joint rate; the sums run in base coordinates and are then moved into link frames.

    ``state`` is a :class:`~robomodel.physics.joint_state.JointState`, or joint positions alone (a
    vector or a mapping naming every moving joint) for the model at rest there.

    Raises:
        ArgumentError: a value is not real numbers of the right form, or ``base`` not a link.
        ModelError: a size does not match the model, or a link is not connected to the base.
    """
    plan = _plan(model, base)
    V, A = link_motion_arrays(
        model,
        state,
        base=plan.traversal.base,
        base_acceleration=base_acceleration,
        gravity=gravity,
        base_velocity=base_velocity,
    )
    return LinkMotion(model, plan.traversal, V, A)


# --------------------------------------------------------------------------- force/torque


def predict_measurement(
    sensor: SixAxisForceTorqueSensor,
    model: Model,
    traversal: Traversal,
    internal_wrenches: npt.ArrayLike,
) -> FloatArray:
    """Return what a force/torque sensor reads, from a model's internal wrenches.

    ``internal_wrenches`` is ``(n_links, 6)`` by link index: the wrench each link's traversal
    parent applies on it, in the link frame, computed along ``traversal``
    (:attr:`robomodel.physics.dynamics.InverseDynamics.internal_wrenches`). Of the sensor's two
    links
    the child is the one whose traversal parent is the other; the reading is that child's
    internal wrench moved into the sensor frame, negated when the sensor measures the wrench
    applied on the parent.

    Raises:
        ModelError: the sensor's links are not adjacent in ``traversal``, or the array has the
            wrong shape.
        UnknownNameError: a link of the sensor is not in the model.
    """
    if not isinstance(sensor, SixAxisForceTorqueSensor):
        raise ArgumentError(
            f"sensor must be a SixAxisForceTorqueSensor, but got {sensor!r:.80}; accelerometers "
            "and gyroscopes have their own predict_measurement"
        )
    check_type(model, Model, "model")
    if not isinstance(traversal, Traversal):
        raise ArgumentError(
            f"traversal must be a Traversal (model.traversal(base)), but got {traversal!r:.80}"
        )
    W = real_array(internal_wrenches, "internal_wrenches", shape=(None, 6), copy=False)
    if W.shape[0] != model.n_links:
        raise ModelError(
            f"internal_wrenches must have shape ({model.n_links}, 6) (one wrench per link "
            f"index), got {W.shape}"
        )
    child = _child(sensor, model, traversal)
    child_name = model.link_names[child]
    sign = 1.0 if sensor.applied_wrench_link == child_name else -1.0
    return read_only(move_wrench(sensor.link_H_sensor(child_name).inverse(), W[child], sign))


def predict_ft_measurement(
    model: Model,
    sensor: str,
    state: Configuration,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    base_velocity: npt.ArrayLike | None = None,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None = None,
) -> FloatArray:
    """Return what the force/torque sensor named ``sensor`` reads, ``[f; tau]`` in its frame.

    The one-call form of :func:`predict_measurement`: the inverse dynamics with ``base`` and
    the traversal from it are computed here. The arguments mean what they mean for
    :func:`predict_sensor_measurements`, whose entry for ``sensor`` this equals; to read several
    sensors of one state, that function shares one dynamics pass among them.

    Raises:
        ArgumentError: ``sensor`` is not a name, or names an accelerometer or gyroscope; a
            value is not real numbers of the right form.
        UnknownNameError: the model has no sensor ``sensor``, or a link named by ``base`` or
            ``external_wrenches`` does not exist.
        ModelError: a size does not match the model, a link is not connected to the base, or a
            sensor does not fit the model.
    """
    if not isinstance(sensor, str):
        raise ArgumentError(
            f"sensor must be the name of a force/torque sensor, but got {sensor!r:.80}"
        )
    found = check_type(model, Model, "model").sensor(sensor)
    if not isinstance(found, SixAxisForceTorqueSensor):
        kind = "an accelerometer" if isinstance(found, Accelerometer) else "a gyroscope"
        raise ArgumentError(
            f"sensor {sensor!r} is {kind}; predict_ft_measurement reads force/torque sensors "
            "(use predict_sensor_measurements for every sensor)"
        )
    plan = _plan(model, base)
    child, X = plan.ft_by_name[sensor]
    dyn = inverse_dynamics(
        model,
        state,
        base=plan.traversal.base,
        base_acceleration=base_acceleration,
        base_velocity=base_velocity,
        gravity=gravity,
        external_wrenches=external_wrenches,
    )
    return read_only(X @ dyn.internal_wrenches[child])


# --------------------------------------------------------------------------- every sensor


def predict_sensor_measurements(
    model: Model,
    state: Configuration,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    base_acceleration: npt.ArrayLike | None = None,
    external_wrenches: Mapping[str | int, npt.ArrayLike] | None = None,
    base_velocity: npt.ArrayLike | None = None,
) -> dict[str, FloatArray]:
    """Return every sensor's predicted measurement, by sensor name, in the model's sensor order.

    Force/torque sensors give a 6-vector ``[f; tau]`` in the sensor frame, accelerometers the
    proper acceleration of the sensor origin (its acceleration minus gravity) and gyroscopes
    the angular velocity, both 3-vectors in sensor axes. The base moves with the twist
    ``base_velocity`` (``[v; w]`` in the base frame) and its time derivative
    ``base_acceleration`` (``[a; alpha]``), both zero by default,
    ``gravity`` is expressed in the base frame, and ``external_wrenches`` (by link, each in that
    link's frame) act on the links. ``state`` is a
    :class:`~robomodel.physics.joint_state.JointState`,
    or joint positions alone (a vector or a mapping naming every moving joint) for the model
    at rest there.

    Raises:
        ArgumentError: a value is not real numbers of the right form, or ``base`` not a link.
        ModelError: a size does not match the model, a link is not connected to the base, or a
            sensor does not fit the model.
        UnknownNameError: a sensor or an external wrench names an unknown link or joint.
    """
    plan = _plan(model, base)
    out: dict[str, FloatArray] = {}
    kw: dict[str, Any] = {
        "base": plan.traversal.base,
        "base_acceleration": base_acceleration,
        "base_velocity": base_velocity,
        "gravity": gravity,
    }
    if plan.ft:
        # One dynamics pass gives both the internal wrenches and the link motion.
        dyn = inverse_dynamics(model, state, external_wrenches=external_wrenches, **kw)
        for name, child, X in plan.ft:
            out[name] = read_only(X @ dyn.internal_wrenches[child])
        V, A = dyn.velocities, dyn.proper_accelerations
    elif plan.acc_names or plan.gyr_names:
        V, A = link_motion_arrays(model, state, **kw)
    if plan.acc_names or plan.gyr_names:
        if plan.acc_names:
            # Acceleration of the sensor origin r: a + alpha x r + w x (v + w x r), in sensor axes.
            vl, wl = V[plan.acc_idx, :3], V[plan.acc_idx, 3:]
            al, alpha = A[plan.acc_idx, :3], A[plan.acc_idx, 3:]
            r = plan.acc_p
            lin = al + cross(alpha, r) + cross(wl, vl + cross(wl, r))
            reading = np.einsum("kij,kj->ki", plan.acc_Rt, lin)
            for name, row in zip(plan.acc_names, reading, strict=True):
                out[name] = read_only(row)
        if plan.gyr_names:
            reading = np.einsum("kij,kj->ki", plan.gyr_Rt, V[plan.gyr_idx, 3:])
            for name, row in zip(plan.gyr_names, reading, strict=True):
                out[name] = read_only(row)
    return {name: out[name] for name in plan.names}
