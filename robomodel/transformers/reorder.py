"""Index orders: normalized joint numbering, and another model's or library's order.

:func:`normalize_joint_order` is iDynTree's ``createModelWithNormalizedJointNumbering``;
:func:`reorder_like` puts links, joints and frames in the order of another load of the model.
"""

from __future__ import annotations

from collections.abc import Sequence

from robomodel.errors import ArgumentError, ModelError
from robomodel.model.joints import FixedJoint
from robomodel.model.record import Model
from robomodel.model.validation import check_name_list
from robomodel.transformers.engine import check_reachable, lump
from robomodel.transformers.reorder_joints import _permutation, permute
from robomodel.transformers.report import record, recording

__all__ = ["normalize_joint_order", "reorder_like"]

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


_LIKE = "reorder_like"


def reorder_like(
    model: Model,
    other: Model | None = None,
    *,
    links: bool = True,
    joints: bool = True,
    frames: bool = True,
    link_names: Sequence[str] | None = None,
    joint_names: Sequence[str] | None = None,
    frame_names: Sequence[str] | None = None,
) -> Model:
    """Return ``model`` with its links, joints and additional frames in ``other``'s order.

    Indices fix the layout of every vector a library exchanges (``q``, torques, link wrenches,
    frame poses), and two loads of one URDF need not agree on them: robomodel keeps document
    order, iDynTree a hash-map order. After ``reorder_like(model, other)`` link, joint and
    frame ``k`` of the result are those of ``other``, so vectors computed with either can be
    used with the other index by index. Nothing else changes: joints keep their link1/link2
    orientation, position and DOF offsets are the running totals in the new order, and the
    kinematics and dynamics are those of ``model``.

    ``other`` is a model (e.g. ``robomodel.formats.from_idyntree(idyn_model)``); or give the orders
    as name lists, e.g. another library's, with ``link_names=``, ``joint_names=`` and
    ``frame_names=`` (additional frames only); an order not given is kept.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "b")
    >>> m = rm.add_joint_and_link(m, "b", "j1", rm.RevoluteJoint(link1="b", link2="c"), "c")
    >>> m = rm.add_joint_and_link(m, "b", "j2", rm.RevoluteJoint(link1="b", link2="d"), "d")
    >>> r = reorder_like(m, link_names=["d", "b", "c"], joint_names=["j2", "j1"])
    >>> r.link_names.tolist(), r.joint_names.tolist(), r.default_base
    (['d', 'b', 'c'], ['j2', 'j1'], 'b')

    Args:
        model: the model to reorder.
        other: the model whose order to take (its names must be those of ``model``).
        links: take ``other``'s link order.
        joints: take ``other``'s joint order.
        frames: take ``other``'s additional-frame order.
        link_names: every link name once, in the wanted order (instead of ``other``).
        joint_names: every joint name once, in the wanted order (instead of ``other``).
        frame_names: every additional frame name once, in the wanted order (instead of
            ``other``).

    Returns:
        The reordered model (``model`` itself when every order is already the wanted one).

    Raises:
        ArgumentError: both ``other`` and name lists are given, or neither; ``other`` is not a
            Model; a name list is not a list of names.
        ModelError: the wanted names are not those of ``model`` (the message lists the
            differences), or a name is listed twice.
    """
    lists = {"link_names": link_names, "joint_names": joint_names, "frame_names": frame_names}
    given = [k for k, v in lists.items() if v is not None]
    if other is not None:
        if given:
            raise ArgumentError(
                f"{_LIKE}: give either a model to copy the order of or name lists "
                f"({', '.join(given)}), not both"
            )
        if not isinstance(other, Model):
            raise ArgumentError(
                f"{_LIKE}: other must be a robomodel Model, but got {type(other).__name__}; "
                "convert an iDynTree model with robomodel.formats.from_idyntree, or pass "
                "link_names=/joint_names=/frame_names="
            )
        wanted = {
            "link_names": list(other.link_names) if links else None,
            "joint_names": list(other.joint_names) if joints else None,
            "frame_names": other.frame_names if frames else None,
        }
    elif not given:
        raise ArgumentError(
            f"{_LIKE}: give the model whose order to copy, or link_names=, joint_names= or "
            "frame_names="
        )
    else:
        wanted = {
            k: check_name_list(v, k, where=_LIKE) if v is not None else None
            for k, v in lists.items()
        }
    link_order = _order("link", list(model.link_names), wanted["link_names"])
    joint_order = _order("joint", list(model.joint_names), wanted["joint_names"])
    frame_order = _order("additional frame", model.frame_names, wanted["frame_names"])
    return permute(
        model,
        links=link_order,
        joints=None if joint_order is None else _permutation(model, joint_order),
        frames=frame_order,
    )


def _order(kind: str, have: list[str], want: list[str] | None) -> list[int] | None:
    """The old index of each name of ``want``; raise when the name sets differ."""
    if want is None:
        return None
    index = {name: k for k, name in enumerate(have)}
    if len(index) == len(want) == len(set(want)) and all(name in index for name in want):
        return [index[name] for name in want]
    repeated = sorted({n for n in want if want.count(n) > 1})
    if repeated:
        raise ModelError(
            f"{_LIKE}: the {kind} order lists {', '.join(map(repr, repeated))} more than once; "
            "list every name once"
        )
    wanted = set(want)
    only_model = [n for n in have if n not in wanted]
    only_other = [n for n in want if n not in index]
    parts = []
    if only_model:
        parts.append("only in the model: " + ", ".join(map(repr, only_model)))
    if only_other:
        parts.append("only in the order to copy: " + ", ".join(map(repr, only_other)))
    raise ModelError(
        f"{_LIKE}: the {kind} names differ ({'; '.join(parts)}); both must name the same "
        f"{kind}s (rename them first with robomodel.transformers.rename), or keep this "
        "order (links=/joints=/frames=False, or leave its name list out)"
    )
