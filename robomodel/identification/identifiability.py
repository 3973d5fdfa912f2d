"""Base parameters: the combinations of inertial parameters that joint torques can identify.

Torques never depend on every parameter separately: the inertia of a link about a fixed axis
cannot be told apart from the links that move with it, the base link of a fixed-base robot
does not appear at all, and so on. The regressor ``Y`` (rows stacked over many random states)
has rank ``r < 10 n_links``; with its columns permuted by a column-pivoted QR factorisation,
``Y P = Q [R11 R12]``, the first ``r`` columns (the *independent* parameters) are linearly
independent and the others (*dependent*) are combinations of them, ``Y_dep = Y_ind K`` with
``K = R11^-1 R12``. Then, for every ``p``,

    ``Y p = Y_ind beta``  with  ``beta = p_ind + K p_dep``,

and ``beta`` (the *base parameters*) is what least squares can estimate. This is the numerical
method of Gautier (1991); the structure depends only on the model's kinematics, not on its
inertias, so one random stack decides it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from robomodel._internal.arrays import frozen_copy
from robomodel._internal.memo import memoized
from robomodel.errors import ModelError
from robomodel.identification.regressors import FloatArray, IntArray, regressor_batch
from robomodel.model.record import Model
from robomodel.model.validation import STANDARD_GRAVITY, check_name_list, real_array, real_vector
from robomodel.physics.joint_state import link_index_of

__all__ = ["BaseParameters", "base_parameters", "pivoted_qr"]


@attrs.frozen(kw_only=True, eq=False)
class BaseParameters:
    """The identifiable combinations of a model's inertial parameters (see the module doc).

    Attributes:
        n_parameters: the number of full parameters, ``10 n_links``.
        independent: (count,) indices of the full parameters kept as base-parameter columns.
        dependent: indices of the others, whose effect is carried by the independent ones.
        coefficients: (count, len(dependent)) matrix ``K``: ``beta = p[independent] +
            K @ p[dependent]``.
        singular_values: singular values of the stacked regressor that decided the rank
            (descending), to judge how clear the gap is.
    """

    n_parameters: int
    independent: IntArray = attrs.field(converter=frozen_copy)
    dependent: IntArray = attrs.field(converter=frozen_copy)
    coefficients: FloatArray = attrs.field(converter=frozen_copy)
    singular_values: FloatArray = attrs.field(converter=frozen_copy)

    @property
    def count(self) -> int:
        """The number of base parameters (the rank of the stacked regressor)."""
        return int(self.independent.size)

    @property
    def permutation(self) -> IntArray:
        """The column permutation ``P``: the independent indices, then the dependent ones."""
        out: IntArray = np.concatenate([self.independent, self.dependent])
        return out

    @property
    def matrix(self) -> FloatArray:
        """The ``(count, n_parameters)`` matrix ``B`` with ``beta = B @ p``."""
        B = np.zeros((self.count, self.n_parameters))
        B[np.arange(self.count), self.independent] = 1.0
        B[:, self.dependent] = self.coefficients
        return B

    def from_full(self, p: npt.ArrayLike) -> FloatArray:
        """Return the base parameters ``beta`` of a full parameter vector ``p``."""
        v = real_vector(p, "p", size=self.n_parameters, count="10 * n_links")
        out: FloatArray = v[self.independent] + self.coefficients @ v[self.dependent]
        return out

    def to_full(self, beta: npt.ArrayLike, *, reference: npt.ArrayLike | None = None) -> FloatArray:
        """Return a full parameter vector whose base parameters are ``beta``.

        Every such vector gives the same torques. Without ``reference`` the dependent
        parameters are zero; with one, the result is the vector nearest to ``reference`` (in
        the Euclidean norm) among those with base parameters ``beta``, so that what the
        torques cannot see is kept from ``reference`` (e.g. a CAD model).
        """
        b = real_vector(beta, "beta", size=self.count, count="count")
        if reference is None:
            out = np.zeros(self.n_parameters)
            out[self.independent] = b
            return out
        p0 = real_vector(reference, "reference", size=self.n_parameters, count="10 * n_links")
        B = self.matrix
        correction = np.linalg.lstsq(B, b - B @ p0, rcond=None)[0]
        result: FloatArray = p0 + np.asarray(correction, dtype=np.float64)
        return result

    def regressor(self, Y: npt.ArrayLike) -> FloatArray:
        """Return the base regressor ``Y[..., independent]``: ``Y @ p == Y_base @ beta``."""
        arr = np.asarray(Y, dtype=np.float64)
        if arr.shape[-1] != self.n_parameters:
            raise ModelError(
                f"Y must have {self.n_parameters} columns (10 per link), got shape {arr.shape}"
            )
        out: FloatArray = arr[..., self.independent]
        return out

    def __repr__(self) -> str:
        return f"BaseParameters(count={self.count}, n_parameters={self.n_parameters})"


def pivoted_qr(A: npt.ArrayLike) -> tuple[FloatArray, IntArray]:
    """Return ``(R, perm)`` of a Householder QR factorisation with column pivoting.

    ``A[:, perm] = Q R`` with ``|R[0, 0]| >= |R[1, 1]| >= ...``: each step moves the remaining
    column of largest norm (orthogonal to those already chosen) to the front (Businger and
    Golub, 1965). numpy has no pivoted QR and robomodel does not depend on scipy.
    """
    R = np.array(A, dtype=np.float64)
    m, n = R.shape
    perm = np.arange(n)
    for k in range(min(m, n)):
        sub = R[k:, k:]
        j = k + int(np.argmax(np.einsum("ij,ij->j", sub, sub)))
        if j != k:
            R[:, [k, j]] = R[:, [j, k]]
            perm[[k, j]] = perm[[j, k]]
        x = R[k:, k]
        alpha = -math.copysign(float(np.linalg.norm(x)), float(x[0]) or 1.0)
        v = x.copy()
        v[0] -= alpha
        vv = float(v @ v)
        if vv == 0.0:
            continue
        R[k:, k:] -= np.outer(v, (2.0 / vv) * (v @ R[k:, k:]))
        R[k + 1 :, k] = 0.0
    return np.triu(R), perm


def base_parameters(
    model: Model,
    *,
    gravity: npt.ArrayLike = STANDARD_GRAVITY,
    base: str | int | None = None,
    floating: bool = False,
    n_samples: int | None = None,
    seed: int = 0,
    tolerance: float = 1e-9,
    sensors: Sequence[str] = (),
    torques: bool = True,
) -> BaseParameters:
    """Return the base parameters of ``model``: count, permutation and the map from ``p``.

    The regressor is stacked over ``n_samples`` random states (positions uniform in
    ``[-pi, pi]``, velocities and accelerations standard normal; with ``floating``, random base
    motion too) and factorised by :func:`pivoted_qr`. A diagonal entry of ``R`` below
    ``tolerance`` times the largest one ends the independent columns.

    Args:
        model: the model.
        gravity: gravity in the base frame (without it, mass and first moments of links that
            only move with constant velocity may not be identifiable).
        base: the base link; the model's default base if ``None``.
        floating: include the base-wrench rows (as measured by a floating-base robot).
        n_samples: how many random states (default: enough for twice as many rows as
            parameters).
        seed: the random seed, so that the choice of independent columns is reproducible.
        tolerance: the relative rank threshold.
        sensors: force/torque sensors whose rows are measured too (see
            :func:`~robomodel.identification.regressor`): a sensor in a fixed joint sees
            combinations that no joint torque does.
        torques: whether joint torques (and the base wrench) are measured; ``False`` with
            ``sensors`` for sensors alone.

    The result is memoised on the model (per base, gravity and options).

    Raises:
        ModelError: the model has no links, or ``tolerance`` is not in (0, 1).
    """
    b = link_index_of(model, base)
    g = tuple(float(x) for x in real_array(gravity, "gravity", shape=(3,)))
    names = tuple(check_name_list(sensors, "sensors"))
    key = ("base-parameters", b, floating, g, n_samples, seed, float(tolerance), names, torques)
    return memoized(
        model,
        key,
        lambda: _base_parameters(model, g, b, floating, n_samples, seed, tolerance, names, torques),
    )


def _base_parameters(
    model: Model,
    gravity: tuple[float, ...],
    base: int,
    floating: bool,
    n_samples: int | None,
    seed: int,
    tolerance: float,
    sensors: tuple[str, ...],
    torques: bool,
) -> BaseParameters:
    if model.n_links == 0:
        raise ModelError("the model has no links, so no inertial parameters; add a link first")
    if not 0.0 < tolerance < 1.0:
        raise ModelError(f"tolerance must be in (0, 1), got {tolerance}")
    P = 10 * model.n_links
    nt = model.n_dofs + (6 if floating else 0)
    rows = (nt if torques else 0) + 6 * len(sensors)
    if rows == 0:
        raise ModelError(
            "nothing is measured: the model has no joint and floating=False, and no sensors "
            "were given; no measurement depends on p"
        )
    N = n_samples if n_samples is not None else max(4, math.ceil(2 * P / rows))
    rng = np.random.default_rng(seed)
    Q = rng.uniform(-math.pi, math.pi, (N, model.n_pos_coords))
    DQ, DDQ = rng.normal(size=(2, N, model.n_dofs))
    V0 = A0 = None
    if floating:
        V0, A0 = rng.normal(size=(2, N, 6))
    Y = regressor_batch(
        model,
        Q,
        DQ,
        DDQ,
        gravity=gravity,
        base=base,
        floating=floating,
        base_velocity=V0,
        base_acceleration=A0,
        sensors=sensors,
    )[:, 0 if torques else nt :].reshape(-1, P)
    # Y and its triangular factor have the same column dependencies: pivot the small one.
    R0 = np.linalg.qr(Y, mode="r")
    R, perm = pivoted_qr(R0)
    d = np.abs(np.diag(R))
    scale = float(d[0]) if d.size else 0.0
    r = int(np.count_nonzero(d > tolerance * scale)) if scale > 0.0 else 0
    # Pivoting sorts the diagonal, so the independent columns are the first r.
    K: FloatArray = np.zeros((r, P - r))
    if r:
        K = np.asarray(np.linalg.solve(R[:r, :r], R[:r, r:]), dtype=np.float64)
    # Exact dependencies (a parameter that never appears) come out as round-off: clean them.
    K[np.abs(K) < 1e-10 * max(1.0, float(np.abs(K).max(initial=0.0)))] = 0.0
    sv = np.linalg.svd(R0, compute_uv=False)
    for arr in (perm, K, sv):
        arr.setflags(write=False)
    return BaseParameters(
        n_parameters=P,
        independent=perm[:r],
        dependent=perm[r:],
        coefficients=K,
        singular_values=sv,
    )
