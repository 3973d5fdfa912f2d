"""Regular joint numbering from a base (iDynTree's ``createModelWithNormalizedJointNumbering``)."""

from __future__ import annotations

from robomodel.joints import FixedJoint
from robomodel.model import Model
from robomodel.transformers.engine import check_reachable, lump
from robomodel.transformers.report import record, recording

__all__ = ["normalize_joint_order"]

_STEP = "normalize_joint_order"


def normalize_joint_order(model: Model, *, base_link: str | None = None) -> Model:
    """Return ``model`` with its joints numbered regularly from ``base_link``.

    Joints are ordered as iDynTree orders them: first the moving joints in the order the
    traversal from ``base_link`` reaches them, then the fixed joints in that same order. So a
    moving joint's index is larger than that of every moving joint between it and the base.
    Links come in the order of the traversal from the model's *default* base (as in iDynTree;
    ``base_link`` only decides the joint order), and the default base is unchanged. Joints keep
    their link1/link2 orientation; nothing else changes.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "r")
    >>> m = rm.add_joint_and_link(m, "r", "fixed", rm.FixedJoint(link1="r", link2="f"), "f")
    >>> m = rm.add_joint_and_link(m, "r", "j", rm.RevoluteJoint(link1="r", link2="a"), "a")
    >>> normalize_joint_order(m).joint_names.tolist()
    ['j', 'fixed']

    Args:
        model: the model; every link must be connected to the default base.
        base_link: the link the numbering starts from (default: the default base).

    Returns:
        The renumbered model (``model`` itself when nothing changes).

    Raises:
        UnknownNameError: ``base_link`` is not a link.
        TopologyError: a link is not connected to the base.
    """
    if model.n_links == 0:
        return model
    if base_link is not None:
        model.link_index(base_link)
    trav = model.traversal(base_link)
    check_reachable(model, trav, _STEP)
    order = [j for j in trav.joints if j is not None]
    joints = model.joints
    moving = [j for j in order if not isinstance(joints[j], FixedJoint)]
    fixed = [j for j in order if isinstance(joints[j], FixedJoint)]
    kept = [model.joint_names[j] for j in moving + fixed]
    if recording() and kept != list(model.joint_names):
        record("reordered", "joints", "", ", ".join(kept))
    return lump(model, kept=kept, step=_STEP)
