"""Lumping as a linear map: the inertial parameters of a reduced model are ``L @ p``.

Re-expressing an inertia in another frame is linear in its 10 parameters (first moment and
inertia about the origin, no centre of mass needed):

    ``m_A = m``,  ``h_A = R h + m p``,
    ``I_A = R I R^T - S(R h) S(p) - S(p) S(R h) - m S(p)^2``

for ``A_H_B = (R, p)``. :func:`robomodel.transformers.reduce_model` gives each new link the sum
of its group's inertias moved into the new link frame at the locked positions, so for a fixed
structure and locked configuration it is a matrix ``L`` on the parameter vector, built here
from the model's kinematics alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from robomodel.errors import TopologyError
from robomodel.identification.regressors import FloatArray
from robomodel.model.record import Model
from robomodel.model.spatial import Transform, skew
from robomodel.model.validation import check_name_list, keyword_options
from robomodel.physics.joint_state import JointState, JointValues, joint_values
from robomodel.physics.kinematics import forward_kinematics

__all__ = ["lumping_matrix", "parameter_transform"]


def _moved(R: FloatArray, t: FloatArray, P: FloatArray) -> FloatArray:
    """Return the parameter rows ``P`` (k, 10) of inertias in B re-expressed in A = (R, t)."""
    m = P[:, 0]
    h = P[:, 1:4]
    i = P[:, 4:]
    I_B = np.stack(
        [
            np.stack([i[:, 0], i[:, 1], i[:, 2]], axis=1),
            np.stack([i[:, 1], i[:, 3], i[:, 4]], axis=1),
            np.stack([i[:, 2], i[:, 4], i[:, 5]], axis=1),
        ],
        axis=1,
    )
    Rh = h @ R.T
    St = skew(t)
    SRh = np.array([skew(x) for x in Rh]).reshape(-1, 3, 3)
    I_A = R @ I_B @ R.T - SRh @ St - St @ SRh - m[:, None, None] * (St @ St)
    out = np.empty_like(P)
    out[:, 0] = m
    out[:, 1:4] = Rh + m[:, None] * t
    out[:, 4:] = I_A[:, [0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]
    return out


def parameter_transform(A_H_B: Transform) -> FloatArray:
    """Return the 10 x 10 matrix that re-expresses inertial parameters from frame B in A.

    ``T @ inertia_B.as_vector() == (A_H_B @ inertia_B).as_vector()`` for every inertia,
    physical or not.

    >>> from robomodel.model.spatial import SpatialInertia
    >>> X = Transform.from_rpy_xyz((0.1, 0.2, 0.3), (1.0, 0.0, 0.5))
    >>> I = SpatialInertia.from_com(2.0, (0.1, 0.0, 0.0), np.diag([1.0, 2.0, 2.5]))
    >>> bool(np.allclose(parameter_transform(X) @ I.as_vector(), (X @ I).as_vector()))
    True
    """
    out: FloatArray = _moved(A_H_B.rotation, A_H_B.position, np.eye(10)).T
    return out


@keyword_options("keep_joints", "locked_positions")
def lumping_matrix(
    model: Model,
    *,
    keep_joints: Sequence[str],
    locked_positions: JointValues | JointState | None = None,
) -> FloatArray:
    """Return ``L`` with ``reduce_model(m_p, ...).inertial_parameters() == L @ p``.

    Here ``m_p = with_inertial_parameters(model, p)`` and ``reduce_model`` gets the same
    ``keep_joints`` and ``locked_positions``; the identity holds for every ``p``. Row block
    ``r`` belongs to link ``r`` of the reduced model (groups of links joined by removed joints,
    in the default base's traversal order of their first links), column block ``l`` to link
    ``l`` of ``model``. A consequence: the reduced model's regressor satisfies
    ``Y_reduced @ (L @ p) == Y_full @ p`` at states with the removed joints at their locked
    positions (and not moving).

    Args:
        model: the full model; every link must be connected to the default base.
        keep_joints: the joints the reduced model keeps (their order does not matter here).
        locked_positions: positions of the removed joints, as for ``reduce_model``: by name
            (joints left out are at 0), a full position vector, a :class:`JointState` (its
            ``q``) or ``None`` (all at 0). Values of kept joints are ignored.

    ``keep_joints`` and ``locked_positions`` are keyword-only, as for ``reduce_model``;
    passing them by position still works for one release, with a :class:`DeprecationWarning`.

    Raises:
        UnknownNameError: a kept or locked joint does not exist.
        ModelError: a joint is kept twice, or a locked position has the wrong size.
        TopologyError: a link is not connected to the default base.
    """
    kept = {model.joint_index(name) for name in check_name_list(keep_joints, "keep_joints")}
    q = joint_values(model, locked_positions, missing="zero", what="locked_positions")
    t = model.traversal()
    if len(t) != model.n_links:
        missing = [model.link_names[i] for i in range(model.n_links) if not t.contains(i)]
        raise TopologyError(
            f"links {missing} are not connected to the default base "
            f"{model.link_names[t.base]!r}; join them or take a submodel first"
        )
    # Walk the traversal: a kept joint starts a new part, a removed one joins its parent's.
    part_of: dict[int, int] = {t.base: 0}
    first = [t.base]
    for link, parent, joint in zip(t.links[1:], t.parents[1:], t.joints[1:], strict=True):
        if joint in kept:
            part_of[link] = len(first)
            first.append(link)
        else:
            part_of[link] = part_of[parent]  # type: ignore[index]
    H = forward_kinematics(model, q, base=t.base).base_H_link
    L = np.zeros((10 * len(first), 10 * model.n_links))
    for link in range(model.n_links):
        r = part_of[link]
        X = np.linalg.solve(H[first[r]], H[link])  # new_H_link
        L[10 * r : 10 * r + 10, 10 * link : 10 * link + 10] = _moved(
            X[:3, :3], X[:3, 3], np.eye(10)
        ).T
    return L
