"""Sub-models: split a model along joints and extract one part (iDynTree's ``extractSubModel``)."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence

from robomodel._internal.construct import replace
from robomodel._internal.memo import memoized
from robomodel.errors import ModelError, warn
from robomodel.model.assembly import assemble
from robomodel.model.joints import Joint
from robomodel.model.record import Extension, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.traversal import Traversal
from robomodel.model.validation import check_name_list
from robomodel.transformers._attached import frames_by_link
from robomodel.transformers._parts import split
from robomodel.transformers.engine import carried_extensions, check_reachable
from robomodel.transformers.report import record, recording

__all__ = ["extract_submodel", "submodel_traversals"]


def _has_mimic(model: Model) -> bool:
    return any(getattr(j, "mimic", None) is not None for j in model.joints)


def _without_outside_leader(joint: Joint, name: str, inside: Collection[str]) -> Joint:
    """``joint``, without its mimic relation when the leader is not among ``inside``."""
    mimic = getattr(joint, "mimic", None)
    if mimic is None or mimic.joint in inside:
        return joint
    # A relation to a joint the sub-model does not have could not be written (a URDF <mimic>
    # must name a joint of the document): the joint moves on its own.
    warn(
        f"extract_submodel: joint {name!r} mimics joint {mimic.joint!r}, which is outside the "
        "sub-model; the mimic relation is dropped (put both joints in one part to keep it)"
    )
    record("dropped", "mimic", name, f"its leader {mimic.joint!r} is outside the sub-model")
    return replace(type(joint))(joint, mimic=None)


def submodel_traversals(
    model: Model, *, split_joints: Sequence[str], base_link: str | None = None
) -> tuple[Traversal, ...]:
    """Return the traversals of the parts of ``model`` separated by the joints ``split_joints``.

    The traversal from ``base_link`` (default: the default base) is cut at each split joint:
    part 0 starts at the base, and each split joint's child starts a new part, numbered in
    traversal order (iDynTree's ``SubModelDecomposition::splitModelAlongJoints``). Each
    traversal uses the model's link and joint indices; pass it to :func:`extract_submodel`.

    Raises:
        UnknownNameError: a split joint does not exist.
        ModelError: a split joint is listed twice.
        TopologyError: a link is not connected to the base.
    """
    step = "submodel_traversals"
    names = check_name_list(split_joints, "split_joints", where=step)
    kept = {model.joint_index(n) for n in names}
    if model.n_links == 0:
        return ()
    trav = model.traversal(base_link)
    check_reachable(model, trav, step)
    sp = split(model, kept, trav)
    return tuple(
        Traversal(mem, par, jts)
        for mem, par, jts in zip(sp.members, sp.parents, sp.joints, strict=True)
    )


def extract_submodel(model: Model, traversal: Traversal) -> Model:
    """Return the model made of the links and joints of ``traversal`` (a part of ``model``).

    Links come in traversal order with their own inertia (nothing is lumped); joints come in
    traversal order (the joint to each non-base element's parent), each keeping its stored
    link1/link2 orientation, rest transform and axis. The traversal base is the default base.
    The additional frames, shapes and sensors of the member links come along (an F/T sensor
    when its joint is inside); package dirs, robot name, materials and robot-level extensions
    are kept, and extensions of elements left outside are not. A joint that mimics a joint
    left outside moves on its own in the sub-model (a warning and the report say so).

    Difference from iDynTree: iDynTree relabels each joint as (traversal parent, child) without
    inverting it, which breaks kinematics when the traversal runs against a joint's direction
    (bug B9); it also drops shapes, sensors and package dirs.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "a")
    >>> m = rm.add_joint_and_link(m, "a", "j", rm.RevoluteJoint(link1="a", link2="b"), "b")
    >>> sub = extract_submodel(m, m.traversal("b"))
    >>> sub.link_names.tolist(), sub.joint("j").link1
    (['b', 'a'], 'a')

    Args:
        model: the full model.
        traversal: a traversal of ``model`` (from :meth:`Model.traversal` or
            :func:`submodel_traversals`).

    Returns:
        The sub-model (``model`` itself when the traversal covers it in its own order).

    Raises:
        ModelError: the traversal does not belong to ``model``.
    """
    _check_traversal(model, traversal)
    t = traversal
    names = model.link_names
    jidx = [j for j in t.joints if j is not None]
    if (
        t.links == tuple(range(model.n_links))
        and jidx == list(range(model.n_joints))
        and names[t.base] == model.default_base
    ):
        lidx = [model.link_index(f.link) for f in model.frames]
        if all(a <= b for a, b in itertools.pairwise(lidx)):
            return model
    inside = {names[i] for i in t.links}
    joint_names = [model.joint_names[j] for j in jidx]
    inside_joints = set(joint_names)
    by_link = frames_by_link(model)
    frames = [f for i in t.links if names[i] in by_link for f in by_link[names[i]][0]]
    # The offsets are the running totals in the sub-model's order; set them here, so that the
    # model constructor finds them right instead of copying each joint again.
    joints: list[Joint] = []
    npos = ndof = 0
    # Most models have no mimic joint: the check below then costs nothing per joint.
    has_mimic = memoized(model, "transformers.has-mimic", lambda: _has_mimic(model))
    for jname, j in zip(joint_names, jidx, strict=True):
        joint = model.joints[j]
        if joint.pos_coord_offset != npos or joint.dof_offset != ndof:
            joint = replace(type(joint))(joint, pos_coord_offset=npos, dof_offset=ndof)
        if has_mimic:
            joint = _without_outside_leader(joint, jname, inside_joints)
        joints.append(joint)
        npos += joint.n_pos_coords
        ndof += joint.n_dofs
    reporting = recording()
    sensors: list[Sensor] = []
    for s in model.sensors:
        match s:
            case SixAxisForceTorqueSensor():
                ok = s.parent_joint in inside_joints
            case Accelerometer() | Gyroscope():
                ok = s.link in inside
        if ok:
            sensors.append(s)
        elif reporting:
            record("dropped", "sensor", s.name, "outside the sub-model")
    extensions: Sequence[Extension] = model.extensions
    if extensions:  # the owners' name sets only for a model that has extensions
        kept_sensors = {s.name for s in sensors}
        owners = {
            "link": inside,
            "inertial": inside,
            # A frame goes with its link: what a frame outside owns would be written nowhere.
            "frame": {f.name for f in frames},
            "joint": inside_joints,
            "sensor": kept_sensors,
            "force_torque": kept_sensors,
        }
        extensions = carried_extensions(model, owners, "its owner is outside the sub-model")
    if reporting:
        for ln in names:
            if ln not in inside:
                record("dropped", "link", ln, "outside the sub-model")
        for jn in model.joint_names:
            if jn not in inside_joints:
                record("dropped", "joint", jn, "outside the sub-model")
        for f in model.frames:
            if f.link not in inside:
                record("dropped", "frame", f.name, "on a link outside the sub-model")
    # Every check of Model(...) holds by construction: a checked traversal of a valid model.
    return assemble(
        link_names=[names[i] for i in t.links],
        links=[model.links[i] for i in t.links],
        joint_names=joint_names,
        joints=joints,
        frames=frames,
        default_base=names[t.base],
        visuals=[model.visuals[i] for i in t.links],
        collisions=[model.collisions[i] for i in t.links],
        sensors=sensors,
        package_dirs=model.package_dirs,
        name=model.name,
        materials=model.materials,
        extensions=extensions,
        like=model,
    )


def _check_traversal(model: Model, t: Traversal) -> None:
    step = "extract_submodel"
    if not isinstance(t, Traversal):
        raise ModelError(f"{step}: expected a Traversal, got {type(t).__name__}")
    n, nj = model.n_links, model.n_joints
    seen: set[int] = set()
    for k, (link, parent, joint) in enumerate(zip(t.links, t.parents, t.joints, strict=True)):
        if not 0 <= link < n or link in seen:
            raise ModelError(
                f"{step}: traversal element {k} names link {link}, which is "
                + (
                    "visited twice"
                    if link in seen
                    else f"not a link index of the model (0..{n - 1})"
                )
            )
        seen.add(link)
        if k == 0:
            if parent is not None or joint is not None:
                raise ModelError(f"{step}: the traversal base must have no parent and no joint")
            continue
        if parent is None or joint is None or parent not in seen or not 0 <= joint < nj:
            raise ModelError(
                f"{step}: traversal element {k} (link {model.link_names[link]!r}) needs a parent "
                "visited before it and a joint index of the model"
            )
        j = model.joints[joint]
        if {j.link1, j.link2} != {model.link_names[link], model.link_names[parent]}:
            raise ModelError(
                f"{step}: traversal element {k}: joint {model.joint_names[joint]!r} does not "
                f"connect {model.link_names[parent]!r} and {model.link_names[link]!r}; the "
                "traversal is not one of this model"
            )
