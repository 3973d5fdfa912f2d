"""Link-frame and additional-frame transformers.

:func:`make_urdf_compatible` is iDynTree's ``moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink``
and :func:`remove_additional_frames` its ``removeAdditionalFramesFromModel``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from robomodel._internal.memo import memoized
from robomodel.errors import ModelError, UnknownNameError
from robomodel.model.joints import FixedJoint
from robomodel.model.record import Model
from robomodel.model.spatial import Transform
from robomodel.model.traversal import Traversal
from robomodel.model.validation import check_name_list
from robomodel.transformers._link_poses import joint_stacks
from robomodel.transformers.engine import check_reachable, lump

__all__ = ["URDF_AXIS_TOLERANCE", "make_urdf_compatible", "remove_additional_frames"]

URDF_AXIS_TOLERANCE = 1e-7
"""Largest distance (m) between a joint axis and its child link origin that URDF tolerates.

The same threshold as iDynTree's exporter and ``moveLinkFrames...``.
"""


def make_urdf_compatible(
    model: Model, *, base_link: str | None = None, original_frames: bool = True
) -> Model:
    """Return ``model`` with link frames moved so that it can be written as URDF from ``base_link``.

    URDF puts each child link's origin on the axis of its (moving) parent joint; robomodel, like
    iDynTree, does not require it. For every moving joint of the traversal from ``base_link``
    whose axis passes farther than :data:`URDF_AXIS_TOLERANCE` from the child link's origin,
    the child's frame is translated (not rotated) to the point of the axis closest to its old
    origin. Inertias, shapes, additional frames, sensors and both joints' rest transforms and
    axes are re-expressed in the moved frames, so kinematics and dynamics are unchanged.

    Differences from iDynTree: with ``original_frames`` (the default) each moved link gets the
    frame ``<link>_original_frame`` at its old pose, as iDynTree documents but does not do;
    sensors on moved links are re-expressed (iDynTree leaves them, so they shift); package
    dirs are kept. Links come in the traversal order from ``base_link``, which becomes the
    default base.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "A")
    >>> j = rm.RevoluteJoint(link1="A", link2="B",
    ...                      link1_H_link2=rm.Transform.from_translation((1, 0, 0)),
    ...                      axis_in_link1=rm.Axis((0, 0, 1), (1, 1, 0)))
    >>> m = rm.add_joint_and_link(m, "A", "j", j, "B")
    >>> u = make_urdf_compatible(m)
    >>> u.joint("j").link1_H_link2.position.tolist(), u.frame_names
    ([1.0, 1.0, 0.0], ['B_original_frame'])

    Args:
        model: the model; every link must be connected to ``base_link``.
        base_link: the URDF root (default: the default base).
        original_frames: add ``<link>_original_frame`` frames for moved links.

    Returns:
        The compatible model (``model`` itself when nothing changes).

    Raises:
        UnknownNameError: ``base_link`` is not a link.
        TopologyError: a link is not connected to the base.
        ModelError: a ``<link>_original_frame`` name is already taken.
    """
    step = "make_urdf_compatible"
    if model.n_links == 0:
        return model
    if base_link is not None:
        model.link_index(base_link)
    trav = model.traversal(base_link)
    check_reachable(model, trav, step)
    # The moves depend on the base only: memoised per base (shared: never changed).
    moves = memoized(model, ("transformers.urdf-moves", trav.base), lambda: _moves(model, trav))
    return lump(
        model,
        kept=list(model.joint_names),
        step=step,
        moves=moves,
        base=base_link,
        original_frames=original_frames,
    )


def _moves(model: Model, trav: Traversal) -> dict[str, Transform]:
    """Child link name -> its move onto the axis of its moving joint in ``trav``, where needed.

    A move is the translation (no rotation) to the point of the axis closest to the child's
    old origin, for an axis farther than :data:`URDF_AXIS_TOLERANCE` from it. The axes are
    expressed in their child link and measured from its origin in one vectorised pass.
    """
    names = model.link_names
    joints = model.joints
    todo = [
        (link, j)
        for link, j in zip(trav.links, trav.joints, strict=True)
        if j is not None and not isinstance(joints[j], FixedJoint)
    ]
    moves: dict[str, Transform] = {}
    if not todo:
        return moves
    # Rows of the model's memoised joint stacks (the same values as the joints' own arrays).
    rest_R, rest_p, directions, origins = joint_stacks(model)
    js = np.array([j for _, j in todo], dtype=np.intp)
    u = directions[js]
    o = origins[js]
    # A child that is link2 sees the axis through inverse(link1_H_link2): u' = R^T u,
    # o' = R^T (o - p). A child that is link1 sees the reversed axis, the same line.
    second = [k for k, (link, j) in enumerate(todo) if names[link] != joints[j].link1]
    if second:
        rows = js[second]
        Rt = rest_R[rows].transpose(0, 2, 1)
        u[second] = (Rt @ u[second][:, :, None])[:, :, 0]
        o[second] = (Rt @ (o[second] - rest_p[rows])[:, :, None])[:, :, 0]
    # The point of each axis closest to the child origin.
    p = o - u * (o * u).sum(axis=1)[:, None]
    far = np.sqrt((p * p).sum(axis=1)) > URDF_AXIS_TOLERANCE
    for k in np.flatnonzero(far).tolist():
        moves[names[todo[k][0]]] = Transform._raw(np.eye(3), -p[k])
    return moves


def remove_additional_frames(model: Model, *, keep: Sequence[str] = ()) -> Model:
    """Return ``model`` without its additional frames, except those named in ``keep``.

    Link frames are not affected. As in iDynTree (``removeAdditionalFramesFromModel``), links
    come in the default base's traversal order in the result.

    >>> import robomodel as rm
    >>> m = rm.add_frame(rm.add_frame(rm.add_link(rm.Model(), "a"), "a", "f"), "a", "g")
    >>> remove_additional_frames(m, keep=["g"]).frame_names
    ['g']

    Args:
        model: the model; every link must be connected to the default base.
        keep: names of additional frames to keep.

    Returns:
        The model without the other frames (``model`` itself when nothing changes).

    Raises:
        UnknownNameError: a name in ``keep`` is not an additional frame.
        ModelError: a name appears twice in ``keep``, or is a link.
        TopologyError: a link is not connected to the default base.
    """
    step = "remove_additional_frames"
    names = check_name_list(keep, "keep", where=step)
    frame_names = model.frame_names
    known = set(frame_names)
    for name in names:
        if name not in known:
            if model.is_link_name_used(name):
                raise ModelError(
                    f"{step}: {name!r} is a link, not an additional frame; link frames are "
                    "always kept"
                )
            raise UnknownNameError("additional frame", name, frame_names)
    return lump(model, kept=list(model.joint_names), step=step, keep_frames=set(names))
