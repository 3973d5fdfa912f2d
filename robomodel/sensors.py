"""Sensor values: six-axis force/torque sensors, accelerometers and gyroscopes (a closed union).

Sensors refer to links and joints **by name**; the model resolves names to indices, so sensors
never need iDynTree's ``updateIndices``.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from robomodel.errors import ModelError
from robomodel.spatial import Transform

__all__ = [
    "Accelerometer",
    "Gyroscope",
    "LinkSensor",
    "Sensor",
    "SixAxisForceTorqueSensor",
    "sensor_type_name",
]


def _name(value: str) -> str:
    if not isinstance(value, str) or not value:
        raise ModelError(f"a sensor name must be a non-empty string, got {value!r}")
    return value


@attrs.frozen(kw_only=True)
class SixAxisForceTorqueSensor:
    """A six-axis force/torque sensor mounted in a joint.

    The measurement is the wrench that the other link applies on ``applied_wrench_link``,
    expressed in the sensor frame (sensor axes, moments about the sensor origin).

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
    first_link_H_sensor: Transform = attrs.field(factory=Transform)
    second_link_H_sensor: Transform = attrs.field(factory=Transform)
    applied_wrench_link: str

    def __attrs_post_init__(self) -> None:
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


@attrs.frozen(kw_only=True)
class Accelerometer:
    """A three-axis accelerometer rigidly attached to ``link`` at ``link_H_sensor``."""

    name: str = attrs.field(converter=_name)
    link: str
    link_H_sensor: Transform = attrs.field(factory=Transform)


@attrs.frozen(kw_only=True)
class Gyroscope:
    """A three-axis gyroscope rigidly attached to ``link`` at ``link_H_sensor``."""

    name: str = attrs.field(converter=_name)
    link: str
    link_H_sensor: Transform = attrs.field(factory=Transform)


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
