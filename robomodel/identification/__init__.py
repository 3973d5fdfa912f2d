"""Inertial-parameter identification: regressors, base parameters, lumping, least squares.

Every function here works on robomodel's inertial-parameter vector
(:meth:`robomodel.Model.inertial_parameters`): 10 numbers per link, in link-index order, the
mass, the first moment ``m c`` and the upper triangle ``Ixx Ixy Ixz Iyy Iyz Izz`` of the inertia
about the link origin, all in the link frame.

* :func:`regressor` / :func:`regressor_batch`: ``Y`` with ``Y @ p`` the inverse-dynamics
  torques (and base wrench) of parameters ``p``; :func:`stack` stacks samples.
* :func:`base_parameters`: which combinations of ``p`` the torques can identify.
* :func:`lumping_matrix`: :func:`robomodel.transformers.reduce_model` as a matrix on ``p``.
* :func:`identify`: least squares on measured torques, returning a new model.
"""

from robomodel.identification.regressor import Samples as Samples
from robomodel.identification.regressor import regressor as regressor
from robomodel.identification.regressor import regressor_batch as regressor_batch
from robomodel.identification.regressor import stack as stack

__all__ = ["Samples", "regressor", "regressor_batch", "stack"]
