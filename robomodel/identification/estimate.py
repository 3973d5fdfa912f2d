"""Least-squares identification of a model's inertial parameters from measured torques."""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import frozen_copy
from robomodel.errors import ModelError
from robomodel.identification.identifiability import BaseParameters, base_parameters
from robomodel.identification.regressors import FloatArray
from robomodel.identification.samples import Samples, row_names, row_weights, stack
from robomodel.model.builders import with_inertial_parameters
from robomodel.model.record import Model
from robomodel.model.spatial import SpatialInertia
from robomodel.model.validation import STANDARD_GRAVITY
from robomodel.physics.inertia import nearest_consistent

__all__ = ["Identification", "identify"]


@attrs.frozen(kw_only=True, eq=False)
class Identification:
    """The result of :func:`identify`.

    Attributes:
        model: the input model with the identified inertial parameters.
        parameters: its full parameter vector (``model.inertial_parameters()``).
        base: the base-parameter structure used (:func:`base_parameters`).
        beta: the least-squares estimate of the base parameters.
        covariance: the estimated covariance of ``beta``, ``s^2 (Yb^T Yb)^-1`` with ``s^2``
            the (weighted) residual variance; ``None`` with no redundant rows.
        residuals: (N, rows) measured minus predicted torques and sensor wrenches of
            ``model`` (unweighted).
        row_names: the name of each row (:func:`~robomodel.identification.row_names`): the
            joints (``base_fx`` ... ``base_tz`` first for a floating base), then
            ``<sensor>_fx`` ... ``<sensor>_tz`` per force/torque sensor.
    """

    model: Model
    parameters: FloatArray = attrs.field(converter=frozen_copy)
    base: BaseParameters
    beta: FloatArray = attrs.field(converter=frozen_copy)
    covariance: FloatArray | None = attrs.field(converter=attrs.converters.optional(frozen_copy))
    residuals: FloatArray = attrs.field(converter=frozen_copy)
    row_names: tuple[str, ...]

    @property
    def rms(self) -> dict[str, float]:
        """The root-mean-square residual of each measured row (joint, base or sensor), by name."""
        values = np.sqrt(np.mean(self.residuals**2, axis=0))
        return {n: float(v) for n, v in zip(self.row_names, values, strict=True)}

    def report(self) -> str:
        """Return a plain-text table of the residuals per measured row (joint or sensor axis)."""
        width = max((len(n) for n in self.row_names), default=11)
        lines = [f"{'measurement':<{width}}  {'rms residual':>12}  {'max |residual|':>14}"]
        worst = np.abs(self.residuals).max(axis=0, initial=0.0)
        for (name, rms), w in zip(self.rms.items(), worst, strict=True):
            lines.append(f"{name:<{width}}  {rms:12.4g}  {w:14.4g}")
        lines.append(f"{self.base.count} base parameters from {len(self.residuals)} samples")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Identification(base_parameters={self.base.count}, samples={len(self.residuals)})"


def identify(
    model: Model,
    samples: Samples,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    weights: npt.ArrayLike | Mapping[str, float] | None = None,
    structure: BaseParameters | None = None,
    consistent: bool = False,
) -> Identification:
    """Estimate the base parameters of ``model`` from ``samples`` by (weighted) least squares.

    The estimate ``beta`` minimises ``|W (Y_b beta - y)|`` over the base parameters (the only
    combinations the torques determine). The returned model's full parameters are the ones
    nearest to ``model``'s own with base parameters ``beta`` (:meth:`BaseParameters.to_full`
    with ``model`` as the reference), so what the data cannot see is kept from the input.

    Args:
        model: the model, its inertias the prior (e.g. from CAD).
        samples: measured positions, velocities, accelerations, and torques or
            force/torque sensor wrenches (or both).
        gravity: gravity in the base frame during the measurements.
        base: the base link; the model's default base if ``None``.
        floating: whether the torques start with the six base-wrench components.
        weights: per-row weights (see :func:`stack`), e.g. inverse noise levels.
        structure: precomputed :func:`base_parameters` for the same base, ``floating`` and
            measurements (the default computes it for the rows of ``samples``: torques
            and/or the sensors of ``samples.wrenches``).
        consistent: then project every link onto the nearest physically consistent inertia
            (:func:`robomodel.physics.inertia.nearest_consistent`). The projection can move the base
            parameters away from the least-squares optimum; the residuals are those of the
            projected model.

    Raises:
        ModelError: the samples do not fit the model, or there are fewer rows than base
            parameters.
    """
    bp = (
        structure
        if structure is not None
        else base_parameters(
            model,
            gravity=gravity,
            base=base,
            floating=floating,
            sensors=list(samples.wrenches),
            torques=samples.torques is not None,
        )
    )
    if bp.n_parameters != 10 * model.n_links:
        raise ModelError(
            f"structure has {bp.n_parameters} parameters but the model has {10 * model.n_links}; "
            "compute it with base_parameters() on this model"
        )
    Y, y = stack(model, samples, gravity=gravity, base=base, floating=floating)
    names = row_names(model, samples, floating=floating)
    rows = len(names)
    w = (
        np.ones(rows)
        if weights is None
        else row_weights(model, samples, weights, floating=floating)
    )
    wr = np.tile(w, len(samples))
    Yb = bp.regressor(Y) * wr[:, None]
    if Yb.shape[0] < bp.count:
        raise ModelError(
            f"{Yb.shape[0]} torque rows cannot determine {bp.count} base parameters; "
            "give more samples"
        )
    beta: FloatArray = np.asarray(np.linalg.lstsq(Yb, y * wr, rcond=None)[0], dtype=np.float64)
    dof = Yb.shape[0] - bp.count
    covariance = None
    if dof > 0:
        s2 = float(np.sum((Yb @ beta - y * wr) ** 2)) / dof
        covariance = s2 * np.linalg.pinv(Yb.T @ Yb)
    p = bp.to_full(beta, reference=model.inertial_parameters())
    new = with_inertial_parameters(model, p)
    if consistent:
        rows_p = [
            nearest_consistent(SpatialInertia.from_vector(r)).as_vector() for r in p.reshape(-1, 10)
        ]
        p = np.concatenate(rows_p) if rows_p else p
        new = with_inertial_parameters(model, p)
    p = new.inertial_parameters()
    residuals = (y - Y @ p).reshape(len(samples), rows)
    for arr in (beta, residuals):
        arr.setflags(write=False)
    return Identification(
        model=new,
        parameters=p,
        base=bp,
        beta=beta,
        covariance=covariance,
        residuals=residuals,
        row_names=names,
    )
