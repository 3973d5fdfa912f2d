"""Sensor values: six-axis force/torque sensors, accelerometers and gyroscopes (a closed union).

Sensors refer to links and joints **by name**; the model resolves names to indices, so sensors
never need iDynTree's ``updateIndices``. Everything here is a pure function of the sensor value
and plain numbers; predictions that need a model's kinematics or dynamics live in
:mod:`robomodel.physics.sensing`.

Wrenches are 6-vectors ``[f; tau]`` and twists ``[v; w]`` (linear part first), as in
:mod:`robomodel.model.spatial`.

>>> import math
>>> from robomodel.model.spatial import Transform
>>> ft = SixAxisForceTorqueSensor(
...     name="ft", parent_joint="j", first_link="b", second_link="tool",
...     first_link_H_sensor=Transform.from_rpy_xyz((0, 0, math.pi / 2), (0, 0.1, 1)),
...     second_link_H_sensor=Transform.from_translation((0.1, 0, 0)),
...     applied_wrench_link="b")
>>> ft.wrench_applied_on_link("tool", [1, 2, 3, 4, 5, 6]).round(12).tolist()
[-1.0, -2.0, -3.0, -4.0, -4.7, -6.2]
"""

from __future__ import annotations

from typing import TypeAlias

import attrs
import numpy as np
import numpy.typing as npt

from robomodel.errors import ArgumentError, ModelError
from robomodel.model.spatial import Transform, cross3, wrench_adjoint
from robomodel.model.validation import check_name, fixed_vector, read_only

__all__ = [
    "SENSOR_TYPE_ORDER",
    "Accelerometer",
    "Gyroscope",
    "LinkSensor",
    "Sensor",
    "SixAxisForceTorqueSensor",
    "measurement_size",
    "sensor_type_name",
]

FloatArray = npt.NDArray[np.float64]

_TWIST = "[v; w]"


def _name(value: str) -> str:
    return check_name(value, "sensor")


def _pose(value: Transform) -> Transform:
    if not isinstance(value, Transform):
        raise ArgumentError(
            f"a sensor pose must be a Transform (e.g. Transform.from_rpy_xyz(rpy, xyz)), but got "
            f"{value!r:.80}"
        )
    return value


def _num(v: float) -> str:
    # Round away float noise (a 90 degree rotation leaves 6e-17 behind) and print -0 as 0.
    return f"{round(float(v), 12) + 0.0:.6g}"


def move_wrench(A_H_B: Transform, w: FloatArray, sign: float) -> FloatArray:
    """Return ``sign * (A_H_B . w)``: ``f_A = R f``, ``tau_A = R tau + p x f_A``.

    ``w`` is a wrench ``[f; tau]`` in frame ``B``; the result is a new, writable array.
    """
    R = A_H_B.rotation
    f = sign * (R @ w[:3])
    out = np.empty(6)
    out[:3] = f
    out[3:] = sign * (R @ w[3:]) + cross3(A_H_B.position, f)
    return out


def _fmt(T: Transform) -> str:
    xyz = " ".join(_num(v) for v in T.position)
    rpy = " ".join(_num(v) for v in T.rpy())
    return f"xyz=({xyz}) rpy=({rpy})"


@attrs.frozen(kw_only=True)
class SixAxisForceTorqueSensor:
    """A six-axis force/torque sensor mounted in a joint.

    The measurement is the wrench that the other link applies on ``applied_wrench_link``,
    expressed in the sensor frame (sensor axes, moments about the sensor origin).

    "First" and "second" carry no built-in meaning; the URDF loader puts the traversal parent
    (from the default base) first. Construction checks what the value alone can check (two
    different links, the applied link is one of them);
    :func:`robomodel.physics.sensing.check_sensor`
    checks the sensor against a model.

    Attributes:
        name: sensor name.
        parent_joint: the joint the sensor sits in.
        first_link: one end of the joint (the URDF loader puts the traversal parent here).
        second_link: the other end.
        first_link_H_sensor: the sensor pose in ``first_link``.
        second_link_H_sensor: the sensor pose in ``second_link``.
        applied_wrench_link: ``first_link`` or ``second_link``.
    """

    name: str = attrs.field(converter=_name)
    parent_joint: str
    first_link: str
    second_link: str
    first_link_H_sensor: Transform = attrs.field(factory=Transform, converter=_pose)
    second_link_H_sensor: Transform = attrs.field(factory=Transform, converter=_pose)
    applied_wrench_link: str

    def __attrs_post_init__(self) -> None:
        where = f"force/torque sensor {self.name!r}"
        check_name(self.parent_joint, "parent joint", where=where)
        check_name(self.first_link, "first link", where=where)
        check_name(self.second_link, "second link", where=where)
        check_name(self.applied_wrench_link, "applied-wrench link", where=where)
        if self.first_link == self.second_link:
            raise ModelError(
                f"force/torque sensor {self.name!r}: first and second link are both "
                f"{self.first_link!r}; give the two ends of joint {self.parent_joint!r}"
            )
        if self.applied_wrench_link not in (self.first_link, self.second_link):
            raise ModelError(
                f"force/torque sensor {self.name!r}: the applied-wrench link "
                f"{self.applied_wrench_link!r} must be {self.first_link!r} or {self.second_link!r}"
            )

    @property
    def links(self) -> tuple[str, str]:
        """The two links, first then second."""
        return (self.first_link, self.second_link)

    # ------------------------------------------------------------------ queries
    def is_link_attached(self, link: str) -> bool:
        """Whether ``link`` is the first or the second link of the sensor."""
        return link == self.first_link or link == self.second_link

    def other_link(self, link: str) -> str:
        """Return the attached link that is not ``link``.

        Raises:
            ModelError: ``link`` is not attached to the sensor.
        """
        self._check_attached(link)
        return self.second_link if link == self.first_link else self.first_link

    def link_H_sensor(self, link: str) -> Transform:
        """Return the sensor pose in ``link`` (the first or the second link).

        Raises:
            ModelError: ``link`` is not attached to the sensor.
        """
        self._check_attached(link)
        return self.first_link_H_sensor if link == self.first_link else self.second_link_H_sensor

    def _sign(self, link: str) -> float:
        # The measurement is the wrench on the applied link; the other link receives its
        # opposite (Newton's third law).
        self._check_attached(link)
        return 1.0 if link == self.applied_wrench_link else -1.0

    def _check_attached(self, link: str) -> None:
        if link != self.first_link and link != self.second_link:
            raise ModelError(
                f"force/torque sensor {self.name!r}: link {link!r} is not attached to it; "
                f"use {self.first_link!r} or {self.second_link!r}"
            )

    def wrench_applied_on_link(self, link: str, measured: npt.ArrayLike) -> FloatArray:
        """Return the wrench the other link applies on ``link``, expressed in ``link``'s frame.

        ``measured`` is a sensor reading ``[f; tau]`` (sensor frame). The result is
        ``+link_H_sensor . measured`` when ``link`` is the applied-wrench link, its negation
        for the other link.

        Raises:
            ModelError: ``link`` is not attached, or ``measured`` is not a 6-vector.
        """
        sign = self._sign(link)
        w = fixed_vector(
            measured, f"the measured wrench of sensor {self.name!r}", size=6, layout="[f; tau]"
        )
        return read_only(move_wrench(self.link_H_sensor(link), w, sign))

    def wrench_applied_on_link_matrix(self, link: str) -> FloatArray:
        """Return the 6x6 ``M`` with ``M @ measured == wrench_applied_on_link(link, measured)``.

        It is ``+-[[R, 0], [S(p) R, R]]`` of ``link_H_sensor`` (same sign rule).

        Raises:
            ModelError: ``link`` is not attached to the sensor.
        """
        return read_only(self._sign(link) * wrench_adjoint(self.link_H_sensor(link)))

    def wrench_applied_on_link_inverse_matrix(self, link: str) -> FloatArray:
        """Return the inverse of :meth:`wrench_applied_on_link_matrix`.

        It maps the wrench applied on ``link`` (in ``link``'s frame) back to the measurement:
        ``+-`` the wrench adjoint of ``sensor_H_link``, with the same sign.

        Raises:
            ModelError: ``link`` is not attached to the sensor.
        """
        sign = self._sign(link)
        return read_only(sign * wrench_adjoint(self.link_H_sensor(link).inverse()))

    # ------------------------------------------------------------------ replacements
    def with_name(self, name: str) -> SixAxisForceTorqueSensor:
        """Return this sensor renamed."""
        return attrs.evolve(self, name=name)

    def with_parent_joint(self, joint: str) -> SixAxisForceTorqueSensor:
        """Return this sensor with another parent joint name (the links are unchanged)."""
        return attrs.evolve(self, parent_joint=joint)

    def with_first_link(
        self, link: str, link_H_sensor: Transform | None = None
    ) -> SixAxisForceTorqueSensor:
        """Return this sensor with its first link (and, if given, its pose there) replaced.

        The applied-wrench link follows the side: if it was the first link it becomes ``link``,
        so the measurement keeps its physical meaning when a link is renamed or lumped.

        Raises:
            ModelError: ``link`` is the second link.
        """
        applied = link if self.applied_wrench_link == self.first_link else self.second_link
        first_H = self.first_link_H_sensor if link_H_sensor is None else link_H_sensor
        return attrs.evolve(
            self, first_link=link, first_link_H_sensor=first_H, applied_wrench_link=applied
        )

    def with_second_link(
        self, link: str, link_H_sensor: Transform | None = None
    ) -> SixAxisForceTorqueSensor:
        """Return this sensor with its second link (and, if given, its pose there) replaced.

        The applied-wrench link follows the side, as in :meth:`with_first_link`.

        Raises:
            ModelError: ``link`` is the first link.
        """
        applied = link if self.applied_wrench_link == self.second_link else self.first_link
        second_H = self.second_link_H_sensor if link_H_sensor is None else link_H_sensor
        return attrs.evolve(
            self, second_link=link, second_link_H_sensor=second_H, applied_wrench_link=applied
        )

    def with_link_H_sensor(self, link: str, link_H_sensor: Transform) -> SixAxisForceTorqueSensor:
        """Return this sensor with the sensor pose in ``link`` (first or second) replaced.

        Raises:
            ModelError: ``link`` is not attached to the sensor.
        """
        self._check_attached(link)
        if link == self.first_link:
            return attrs.evolve(self, first_link_H_sensor=link_H_sensor)
        return attrs.evolve(self, second_link_H_sensor=link_H_sensor)

    def with_applied_wrench_link(self, link: str) -> SixAxisForceTorqueSensor:
        """Return this sensor measuring the wrench applied on ``link`` (first or second).

        Raises:
            ModelError: ``link`` is not attached to the sensor.
        """
        self._check_attached(link)
        return attrs.evolve(self, applied_wrench_link=link)

    # ------------------------------------------------------------------ text
    def describe(self) -> str:
        """Return a readable multi-line description.

        >>> print(SixAxisForceTorqueSensor(name="ft", parent_joint="j", first_link="a",
        ...       second_link="b", applied_wrench_link="b").describe())
        force/torque sensor 'ft' in joint 'j'
          measures the wrench that 'a' applies on 'b', in the sensor frame
          first link  'a': a_H_sensor xyz=(0 0 0) rpy=(0 0 0)
          second link 'b': b_H_sensor xyz=(0 0 0) rpy=(0 0 0)
        """
        other = self.other_link(self.applied_wrench_link)
        return "\n".join(
            [
                f"force/torque sensor {self.name!r} in joint {self.parent_joint!r}",
                f"  measures the wrench that {other!r} applies on "
                f"{self.applied_wrench_link!r}, in the sensor frame",
                f"  first link  {self.first_link!r}: {self.first_link}_H_sensor "
                + _fmt(self.first_link_H_sensor),
                f"  second link {self.second_link!r}: {self.second_link}_H_sensor "
                + _fmt(self.second_link_H_sensor),
            ]
        )


@attrs.frozen(kw_only=True)
class Accelerometer:
    """A three-axis accelerometer rigidly attached to ``link`` at ``link_H_sensor``.

    It reads the proper acceleration of the sensor origin (its acceleration minus gravity) in
    sensor axes: at rest under gravity ``(0, 0, -9.81)`` with z up it reads ``(0, 0, +9.81)``.
    """

    name: str = attrs.field(converter=_name)
    link: str
    link_H_sensor: Transform = attrs.field(factory=Transform, converter=_pose)

    def __attrs_post_init__(self) -> None:
        _check_link(self, "accelerometer")

    def with_name(self, name: str) -> Accelerometer:
        """Return this sensor renamed."""
        return attrs.evolve(self, name=name)

    def with_link(self, link: str, link_H_sensor: Transform | None = None) -> Accelerometer:
        """Return this sensor attached to ``link`` (at ``link_H_sensor`` if given)."""
        T = self.link_H_sensor if link_H_sensor is None else link_H_sensor
        return attrs.evolve(self, link=link, link_H_sensor=T)

    def with_link_H_sensor(self, link_H_sensor: Transform) -> Accelerometer:
        """Return this sensor moved to ``link_H_sensor`` on the same link."""
        return attrs.evolve(self, link_H_sensor=link_H_sensor)

    def predict_measurement(
        self, link_velocity: npt.ArrayLike, link_proper_acceleration: npt.ArrayLike
    ) -> FloatArray:
        """Return the reading from the parent link's motion, both in the link frame.

        ``link_velocity`` is the link twist ``[v; w]`` (velocity of the link origin and angular
        velocity, in link axes). ``link_proper_acceleration`` is the time derivative of that
        body twist with gravity subtracted from the linear part, as
        :func:`robomodel.physics.sensing.link_motion` computes it. The reading is the linear part
        of the
        acceleration moved to the sensor frame plus ``w x v`` there, which turns a body
        acceleration into the acceleration of the sensor origin.

        >>> Accelerometer(name="a", link="l").predict_measurement(
        ...     [0, 0, 0, 0, 0, 0], [0, 0, 9.81, 0, 0, 0]).tolist()
        [0.0, 0.0, 9.81]
        """
        v = fixed_vector(link_velocity, "the link velocity", size=6, layout=_TWIST)
        a = fixed_vector(
            link_proper_acceleration, "the link proper acceleration", size=6, layout=_TWIST
        )
        # In link axes, the sensor origin r moves with v + w x r and accelerates with
        # a + alpha x r + w x (v + w x r); rotate that into sensor axes.
        r, w = self.link_H_sensor.position, v[3:]
        lin = a[:3] + cross3(a[3:], r) + cross3(w, v[:3] + cross3(w, r))
        return read_only(self.link_H_sensor.rotation.T @ lin)

    def describe(self) -> str:
        """Return a one-line description."""
        where = _fmt(self.link_H_sensor)
        return f"accelerometer {self.name!r} on link {self.link!r}: {self.link}_H_sensor {where}"


@attrs.frozen(kw_only=True)
class Gyroscope:
    """A three-axis gyroscope rigidly attached to ``link`` at ``link_H_sensor``.

    It reads the angular velocity of its link in sensor axes.
    """

    name: str = attrs.field(converter=_name)
    link: str
    link_H_sensor: Transform = attrs.field(factory=Transform, converter=_pose)

    def __attrs_post_init__(self) -> None:
        _check_link(self, "gyroscope")

    def with_name(self, name: str) -> Gyroscope:
        """Return this sensor renamed."""
        return attrs.evolve(self, name=name)

    def with_link(self, link: str, link_H_sensor: Transform | None = None) -> Gyroscope:
        """Return this sensor attached to ``link`` (at ``link_H_sensor`` if given)."""
        T = self.link_H_sensor if link_H_sensor is None else link_H_sensor
        return attrs.evolve(self, link=link, link_H_sensor=T)

    def with_link_H_sensor(self, link_H_sensor: Transform) -> Gyroscope:
        """Return this sensor moved to ``link_H_sensor`` on the same link."""
        return attrs.evolve(self, link_H_sensor=link_H_sensor)

    def predict_measurement(self, link_velocity: npt.ArrayLike) -> FloatArray:
        """Return the angular velocity in sensor axes, from the link twist ``[v; w]`` (link frame).

        >>> import math
        >>> g = Gyroscope(name="g", link="l",
        ...               link_H_sensor=Transform.from_rpy_xyz((0, 0, math.pi / 2)))
        >>> g.predict_measurement([0, 0, 0, 1, 0, 0]).round(12).tolist()
        [0.0, -1.0, 0.0]
        """
        w = fixed_vector(link_velocity, "the link velocity", size=6, layout=_TWIST)[3:]
        return read_only(self.link_H_sensor.rotation.T @ w)

    def describe(self) -> str:
        """Return a one-line description."""
        where = _fmt(self.link_H_sensor)
        return f"gyroscope {self.name!r} on link {self.link!r}: {self.link}_H_sensor {where}"


def _check_link(s: Accelerometer | Gyroscope, kind: str) -> None:
    check_name(s.link, "link", where=f"{kind} {s.name!r}")


LinkSensor: TypeAlias = Accelerometer | Gyroscope
"""Sensors attached to one link."""

Sensor: TypeAlias = SixAxisForceTorqueSensor | Accelerometer | Gyroscope
"""Every sensor kind robomodel models."""

SENSOR_TYPE_ORDER: tuple[type, ...] = (SixAxisForceTorqueSensor, Accelerometer, Gyroscope)
"""iDynTree's sensor-type enumeration order (FT, accelerometer, gyroscope)."""


def sensor_type_name(sensor: Sensor) -> str:
    """Return ``"force_torque"``, ``"accelerometer"`` or ``"gyroscope"`` (the URDF type names)."""
    match sensor:
        case SixAxisForceTorqueSensor():
            return "force_torque"
        case Accelerometer():
            return "accelerometer"
        case Gyroscope():
            return "gyroscope"


def measurement_size(sensor: Sensor) -> int:
    """Return the size of a sensor's measurement: 6 for a force/torque sensor, else 3."""
    return 6 if isinstance(sensor, SixAxisForceTorqueSensor) else 3
