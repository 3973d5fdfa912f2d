"""Inertial-parameter identification: regressors, base parameters, lumping, least squares.

Every function here works on robomodel's inertial-parameter vector
(:meth:`robomodel.Model.inertial_parameters`): 10 numbers per link, in link-index order, the
mass, the first moment ``m c`` and the upper triangle ``Ixx Ixy Ixz Iyy Iyz Izz`` of the inertia
about the link origin, all in the link frame.

* :func:`regressor` / :func:`regressor_batch`: ``Y`` with ``Y @ p`` the inverse-dynamics
  torques (and base wrench) of parameters ``p``; :func:`stack` stacks :class:`Samples`.
* :func:`base_parameters`: which combinations of ``p`` the torques can identify.
* :func:`lumping_matrix`: :func:`robomodel.transformers.reduce_model` as a matrix on ``p``.
* :func:`identify`: least squares on measured torques, returning a new model.

Physical consistency of inertias and inertias of shapes are in :mod:`robomodel.physics.inertia`.
"""

from robomodel.identification.estimate import Identification as Identification
from robomodel.identification.estimate import identify as identify
from robomodel.identification.identifiability import BaseParameters as BaseParameters
from robomodel.identification.identifiability import base_parameters as base_parameters
from robomodel.identification.identifiability import pivoted_qr as pivoted_qr
from robomodel.identification.lumping import lumping_matrix as lumping_matrix
from robomodel.identification.lumping import parameter_transform as parameter_transform
from robomodel.identification.regressors import regressor as regressor
from robomodel.identification.regressors import regressor_batch as regressor_batch
from robomodel.identification.samples import Samples as Samples
from robomodel.identification.samples import row_names as row_names
from robomodel.identification.samples import row_weights as row_weights
from robomodel.identification.samples import stack as stack

__all__ = [
    "BaseParameters",
    "Identification",
    "Samples",
    "base_parameters",
    "identify",
    "lumping_matrix",
    "parameter_transform",
    "pivoted_qr",
    "regressor",
    "regressor_batch",
    "row_names",
    "row_weights",
    "stack",
]
