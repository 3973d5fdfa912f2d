"""Measurements for identification: :class:`Samples`, and their regressor stacked row by row."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import frozen_copy
from robomodel.errors import ModelError
from robomodel.identification.regressors import FloatArray, regressor_batch
from robomodel.model.record import Model
from robomodel.model.validation import STANDARD_GRAVITY, check_name_list, real_array, real_vector

__all__ = ["Samples", "row_names", "row_weights", "stack"]


def _q(value: npt.ArrayLike) -> FloatArray:
    return frozen_copy(real_array(value, "Samples.q", shape=(None, None)))


def _dq(value: npt.ArrayLike) -> FloatArray:
    return frozen_copy(real_array(value, "Samples.dq", shape=(None, None)))


def _ddq(value: npt.ArrayLike) -> FloatArray:
    return frozen_copy(real_array(value, "Samples.ddq", shape=(None, None)))


def _torques(value: npt.ArrayLike | None) -> FloatArray | None:
    if value is None:
        return None
    return frozen_copy(real_array(value, "Samples.torques", shape=(None, None)))


def _base_velocity(value: npt.ArrayLike | None) -> FloatArray | None:
    if value is None:
        return None
    return frozen_copy(real_array(value, "Samples.base_velocity", shape=(None, 6)))


def _base_acceleration(value: npt.ArrayLike | None) -> FloatArray | None:
    if value is None:
        return None
    return frozen_copy(real_array(value, "Samples.base_acceleration", shape=(None, 6)))


def _wrench_table(value: Mapping[str, npt.ArrayLike] | None) -> Mapping[str, FloatArray]:
    # A read-only view over a dict only the view holds: the samples' order, no way to change it.
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, Mapping):
        raise ModelError(
            f"Samples.wrenches must map sensor names to (N, 6) arrays, but got {value!r:.80}"
        )
    return MappingProxyType(
        {
            check_name_list([k], "sensors")[0]: frozen_copy(
                real_array(v, f"Samples.wrenches[{k!r}]", shape=(None, 6))
            )
            for k, v in value.items()
        }
    )


@attrs.frozen(kw_only=True, eq=False)
class Samples:
    """Measured motion and effort of a robot at N instants, the input of identification.

    Attributes:
        q: (N, n_pos_coords) joint positions.
        dq: (N, n_dofs) joint velocities.
        ddq: (N, n_dofs) joint accelerations.
        torques: (N, n_dofs) measured joint torques, or (N, 6 + n_dofs) with the base wrench
            first for a floating base (see :func:`regressor`); ``None`` to use only
            ``wrenches``.
        wrenches: measured force/torque sensor readings by sensor name, each (N, 6) in the
            sensor frame (``[f; tau]``, as
            :func:`robomodel.physics.sensing.predict_sensor_measurements`
            gives them).
        base_velocity: optional (N, 6) base twists (body-fixed, ``[v; w]``).
        base_acceleration: optional (N, 6) base accelerations.
    """

    q: FloatArray = attrs.field(converter=_q)
    dq: FloatArray = attrs.field(converter=_dq)
    ddq: FloatArray = attrs.field(converter=_ddq)
    torques: FloatArray | None = attrs.field(default=None, converter=_torques)
    wrenches: Mapping[str, FloatArray] = attrs.field(default=None, converter=_wrench_table)
    base_velocity: FloatArray | None = attrs.field(default=None, converter=_base_velocity)
    base_acceleration: FloatArray | None = attrs.field(default=None, converter=_base_acceleration)

    def __attrs_post_init__(self) -> None:
        n = self.q.shape[0]
        arrays = {"dq": self.dq, "ddq": self.ddq}
        if self.torques is not None:
            arrays["torques"] = self.torques
        arrays.update({f"wrenches[{k!r}]": v for k, v in self.wrenches.items()})
        for name in ("base_velocity", "base_acceleration"):
            value = getattr(self, name)
            if value is not None:
                arrays[name] = value
        for name, value in arrays.items():
            if value.shape[0] != n:
                raise ModelError(
                    f"Samples.{name} has {value.shape[0]} rows but Samples.q has "
                    f"{n}; give one row per sample in every array"
                )
        if self.torques is None and not self.wrenches:
            raise ModelError("Samples needs torques, wrenches or both: there is nothing to fit")

    def __len__(self) -> int:
        return int(self.q.shape[0])


def row_names(model: Model, samples: Samples, *, floating: bool = False) -> tuple[str, ...]:
    """Return the name of each row of one sample in :func:`stack`.

    Joint rows are named after the joints, base-wrench rows ``base_fx`` ... ``base_tz`` and
    sensor rows ``<sensor>_fx`` ... ``<sensor>_tz``.
    """
    out: list[str] = []
    if samples.torques is not None:
        if floating:
            out += [f"base_{c}" for c in _COMPONENTS]
        names = [""] * model.n_dofs
        for name, joint in zip(model.joint_names, model.joints, strict=True):
            if joint.n_dofs:
                names[joint.dof_offset] = name
        out += names
    for sensor in samples.wrenches:
        out += [f"{sensor}_{c}" for c in _COMPONENTS]
    return tuple(out)


_COMPONENTS = ("fx", "fy", "fz", "tx", "ty", "tz")


def stack(
    model: Model,
    samples: Samples,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    weights: npt.ArrayLike | Mapping[str, float] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Return the stacked regressor and measurements ``(Y, y)`` of ``samples``.

    Rows come sample by sample: for each sample, its joint torques (base wrench first with
    ``floating``) when ``samples.torques`` is given, then six rows per force/torque sensor of
    ``samples.wrenches``, in that order (:func:`row_names` names them). ``Y @ p`` is then the
    predicted measurements of parameters ``p``, and the least-squares estimate is
    ``argmin |Y p - y|``. A sensor's rows involve only the links it carries, so sensors alone
    identify the subtrees they measure.

    Args:
        model: the model.
        samples: the measurements.
        gravity: gravity in the base frame.
        base: the base link; the model's default base if ``None``.
        floating: whether ``samples.torques`` starts with the six base-wrench columns.
        weights: optional per-row weights: a vector with one weight per row of a sample, or a
            mapping from joint and sensor names (a sensor's weight applies to its six rows;
            rows not named weigh 1), e.g. the inverse noise standard deviations. Both ``Y``
            and ``y`` are multiplied by them.

    Raises:
        ModelError: the samples do not fit the model.
        UnknownNameError: a sensor or weighted joint does not exist.
    """
    nt = model.n_dofs + (6 if floating else 0)
    if samples.torques is not None and samples.torques.shape[1] != nt:
        have = samples.torques.shape[1]
        raise ModelError(
            f"Samples.torques has {have} columns but the model needs {nt} "
            + ("(6 base-wrench components, then n_dofs)" if floating else "(n_dofs)")
            + ("; pass floating=True if the base wrench is included" if have == nt + 6 else "")
        )
    sensors = list(samples.wrenches)
    Y = regressor_batch(
        model,
        samples.q,
        samples.dq,
        samples.ddq,
        gravity=gravity,
        base=base,
        floating=floating,
        base_velocity=samples.base_velocity,
        base_acceleration=samples.base_acceleration,
        sensors=sensors,
    )
    parts = [samples.wrenches[name] for name in sensors]
    if samples.torques is None:
        Y = Y[:, nt:]
    else:
        parts.insert(0, samples.torques)
    y = np.concatenate(parts, axis=1)
    if weights is not None:
        wv = row_weights(model, samples, weights, floating=floating)
        Y *= wv[None, :, None]
        y *= wv[None, :]
    return Y.reshape(-1, Y.shape[2]), y.reshape(-1)


def row_weights(
    model: Model,
    samples: Samples,
    weights: npt.ArrayLike | Mapping[str, float],
    *,
    floating: bool = False,
) -> FloatArray:
    """Return the weight of each row of one sample (see ``weights`` of :func:`stack`).

    Raises:
        ModelError: a vector of the wrong size, or a fixed joint named.
        UnknownNameError: a name is neither a moving joint nor a sensor of ``samples``.
    """
    names = row_names(model, samples, floating=floating)
    if not isinstance(weights, Mapping):
        return real_vector(weights, "weights", size=len(names), count="rows per sample")
    out = np.ones(len(names))
    position = {n: k for k, n in enumerate(names)}
    for name, value in weights.items():
        if name in samples.wrenches:
            k = position[f"{name}_fx"]
            out[k : k + 6] = float(value)
        elif name in position and name != "":
            out[position[name]] = float(value)
        else:
            joint = model.joint(name)  # an unknown name raises here
            raise ModelError(
                f"weights: {name!r} has no row"
                + (" (a fixed joint has no torque)" if joint.n_dofs == 0 else "")
                + "; name moving joints or sensors of the samples"
            )
    return out
