"""Turn massless leaf links into frames (iDynTree's ``removeFakeLinks``)."""

from __future__ import annotations

import itertools
import operator
from typing import NamedTuple

from robomodel.model.joints import FixedJoint
from robomodel.model.record import Model
from robomodel.model.validation import check_choice
from robomodel.transformers._parts import Split, split_of
from robomodel.transformers.engine import LUMPED_SENSORS, LumpedSensors, check_reachable, lump

__all__ = ["fake_links", "remove_fake_links"]

_STEP = "remove_fake_links"


class _Fakes(NamedTuple):
    """What the fake-link search finds.

    Attributes:
        removed: ``(link, anchor, joint)`` per fake link, round by round and in link order
            within a round: the link, the neighbour it was a leaf of, the joint between them.
        base: the name of the surviving default base (``None`` for an empty model).
    """

    removed: list[tuple[int, int, int]]
    base: str | None


def fake_links(model: Model, *, iterate: bool = False) -> list[str]:
    """Return the names of the links :func:`remove_fake_links` would remove, in link order.

    A link is *fake* when its mass is not positive, it has exactly one neighbour, and the joint
    to it is fixed (iDynTree's rule; the rotational inertia does not matter). With ``iterate``,
    links that become fake once their fake neighbours are gone count too.
    """
    removed = _fake(model, iterate).removed
    return [model.link_names[i] for i in sorted([i for i, _, _ in removed])]


def _fake(model: Model, iterate: bool) -> _Fakes:
    """Find the fake links, round by round (one round unless ``iterate``)."""
    n = model.n_links
    if n == 0:
        return _Fakes([], None)
    if not model._index.connected():
        check_reachable(model, model.traversal(), _STEP)  # raises, naming the links cut off
    # A leaf is a link with one live joint: degrees counted from the joints' link indices
    # (held by the index of a loaded or transformed model), so no adjacency and no traversal
    # is built; each round scans the joints still alive.
    one, two = model._index.joint_ends(model.joints)
    degree = [0] * n
    for a in one:
        degree[a] += 1
    for b in two:
        degree[b] += 1
    joints = model.joints
    links = model.links
    live = list(range(len(one)))  # the joints still alive
    base = model.default_base_index
    removed: list[tuple[int, int, int]] = []
    while True:
        fake: list[tuple[int, int, int]] = []  # (link, its neighbour, the joint to it)
        for j in live:
            a, b = one[j], two[j]
            # The shape first (a leaf on a fixed joint: a final class, so its exact type), the
            # mass only of such leaves: every other link's inertia is left unread.
            if (degree[a] != 1 and degree[b] != 1) or type(joints[j]) is not FixedJoint:
                continue
            if degree[a] == 1 and links[a].inertia.mass <= 0.0:
                fake.append((a, b, j))
            if degree[b] == 1 and links[b].inertia.mass <= 0.0:
                fake.append((b, a, j))
        fake.sort()  # in link order, as a scan of the links finds them
        fake_set = {i for i, _, _ in fake}
        # Two fake links that are each other's only neighbour are the whole model: iDynTree
        # fails there; keep the one that is the base.
        fake = [(i, a, j) for i, a, j in fake if not (a in fake_set and i == base)]
        if not fake:
            break
        gone = set()
        for i, anchor, j in fake:
            degree[i] = 0
            degree[anchor] -= 1
            gone.add(j)
            if i == base:
                base = anchor
        removed += fake
        if not iterate:
            break
        live = [j for j in live if j not in gone]
    return _Fakes(removed, model.link_names[base])


def _leaf_split(model: Model, removed: list[tuple[int, int, int]]) -> Split | None:
    """The parts of the lumping when each fake link is a leaf of a kept link, else ``None``.

    Every kept link starts a part, numbered in link order; its fake leaves follow it in joint
    order, which is where a traversal from any kept link discovers them (a link's children
    come in its adjacency order). A chain of fake links (``iterate``) needs the traversal.
    """
    # C-level passes over the columns of ``removed``: a fake-heavy model has hundreds.
    gone = set(map(_LINK, removed))
    if any(map(gone.__contains__, map(_ANCHOR, removed))):
        return None
    kept = list(itertools.filterfalse(gone.__contains__, range(model.n_links)))
    leaves = sorted(removed, key=_JOINT)
    none = [None] * len(kept)
    return split_of(
        model.n_links,
        kept + list(map(_LINK, leaves)),
        none + list(map(_ANCHOR, leaves)),
        none + list(map(_JOINT, leaves)),
    )


_LINK = operator.itemgetter(0)
_ANCHOR = operator.itemgetter(1)
_JOINT = operator.itemgetter(2)


def remove_fake_links(
    model: Model, *, iterate: bool = False, lumped_sensors: LumpedSensors = "warn"
) -> Model:
    """Return ``model`` with its fake links turned into frames of their neighbours.

    A link is *fake* when its mass is not positive, it is a leaf (one neighbour) and its joint
    is fixed (see :func:`fake_links`). Each is removed with its joint and replaced by a frame
    of the same name on the neighbour. The other links and joints keep their order and
    orientation; if the default base was fake, its neighbour becomes the default base.

    Differences from iDynTree (which drops them all): existing frames, shapes and sensors of
    fake links move, re-expressed, onto the neighbour; package dirs are kept; the inertia of a
    massless link with a non-zero rotational inertia (or a negative mass) is added to its
    neighbour rather than lost. With ``iterate=True``, chains of massless links collapse too
    (iDynTree issue #247). The frames of removed links come first, in link order, then the
    model's additional frames in their order.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0))))
    >>> m = rm.add_joint_and_link(m, "base", "j", rm.FixedJoint(link1="base", link2="tip"), "tip")
    >>> r = remove_fake_links(m)
    >>> r.link_names.tolist(), r.frame_names
    (['base'], ['tip'])

    Args:
        model: the model; every link must be connected to the default base.
        iterate: repeat until no fake link is left.
        lumped_sensors: for force/torque sensors in a removed joint, as in
            :func:`~robomodel.transformers.reduce_model`.

    Returns:
        The model without fake links (``model`` itself when it has none).

    Raises:
        TopologyError: a link is not connected to the default base.
        ModelError: a sensor is in a removed joint with ``lumped_sensors="raise"``.
    """
    policy = check_choice(lumped_sensors, LUMPED_SENSORS, "lumped_sensors", where=_STEP)
    removed, base = _fake(model, iterate)
    if not removed:
        return model
    # The joints of the removed links are exactly the joints at them: each removed link is a
    # leaf of the links still alive when it goes.
    removed_joints = {j for _, _, j in removed}
    kept = [jn for k, jn in enumerate(model.joint_names) if k not in removed_joints]
    return lump(
        model,
        kept=kept,
        step=_STEP,
        base=base,
        parts=_leaf_split(model, removed),
        link_order="input",
        frame_order="input",
        lumped_sensors=policy,
    )
