"""Turn massless leaf links into frames (iDynTree's ``removeFakeLinks``)."""

from __future__ import annotations

from robomodel.model.joints import FixedJoint
from robomodel.model.record import Model
from robomodel.model.validation import check_choice
from robomodel.transformers.engine import LUMPED_SENSORS, LumpedSensors, check_reachable, lump

__all__ = ["fake_links", "remove_fake_links"]

_STEP = "remove_fake_links"


def fake_links(model: Model, *, iterate: bool = False) -> list[str]:
    """Return the names of the links :func:`remove_fake_links` would remove, in link order.

    A link is *fake* when its mass is not positive, it has exactly one neighbour, and the joint
    to it is fixed (iDynTree's rule; the rotational inertia does not matter). With ``iterate``,
    links that become fake once their fake neighbours are gone count too.
    """
    removed, _, _ = _fake(model, iterate)
    return [model.link_names[i] for i in sorted(removed)]


def _fake(model: Model, iterate: bool) -> tuple[set[int], set[int], str | None]:
    """Return (removed link indices, the indices of their joints, the surviving base name)."""
    n = model.n_links
    if n == 0:
        return set(), set(), None
    check_reachable(model, model.traversal(), _STEP)
    # The adjacency as flat rows (no object per entry: see robomodel.model.traversal.Links).
    start, neighbor, joint_of = model._index.flat_links(model.joints)
    joints = model.joints
    links = model.links
    alive = [True] * n
    base = model.default_base_index
    removed: set[int] = set()
    removed_joints: set[int] = set()
    first = True
    while True:
        fake: list[tuple[int, int, int]] = []  # (link, its neighbour, the joint to it)
        for i in range(n):
            if not alive[i]:
                continue
            # The row's entries to links still alive; on the first pass every link is alive.
            row = range(start[i], start[i + 1])
            live = row if first else [k for k in row if alive[neighbor[k]]]
            if len(live) == 1:
                k = live[0]
                other, joint = neighbor[k], joint_of[k]
                # The shape first (the adjacency and the joints were just read by the
                # traversal), the mass only of leaves on a fixed joint: on a first call each
                # other link's inertia would be a read of memory not yet in cache.
                if isinstance(joints[joint], FixedJoint) and links[i].inertia.mass <= 0.0:
                    fake.append((i, other, joint))
        first = False
        fake_set = {i for i, _, _ in fake}
        # Two fake links that are each other's only neighbour are the whole model: iDynTree
        # fails there; keep the one that is the base.
        fake = [(i, a, j) for i, a, j in fake if not (a in fake_set and i == base)]
        if not fake:
            break
        for i, anchor, j in fake:
            alive[i] = False
            removed.add(i)
            removed_joints.add(j)
            if i == base:
                base = anchor
        if not iterate:
            break
    return removed, removed_joints, model.link_names[base]


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
    removed, removed_joints, base = _fake(model, iterate)
    if not removed:
        return model
    # The joints of the removed links are exactly the joints at them: each removed link is a
    # leaf of the links still alive when it goes.
    kept = [jn for k, jn in enumerate(model.joint_names) if k not in removed_joints]
    return lump(
        model,
        kept=kept,
        step=_STEP,
        base=base,
        link_order="input",
        frame_order="input",
        lumped_sensors=policy,
    )
