"""Rename links, joints, frames and sensors, and every reference to them.

A rename touches more than the names: joints refer to their links, frames and sensors to their
links and joints, mimic joints to their leader, the default base to a link, and the URDF elements
kept verbatim (``<gazebo reference=...>``, ``<transmission><joint name=...>``,
``<mimic joint=...>``) to links and joints. :func:`rename` rewrites all of them at once, so the
result is the same model with other names; :func:`prefix` is the common case of prefixing every
name (before merging two copies of a robot with :func:`robomodel.transformers.attach.attach`).

Both report to :func:`robomodel.transformers.explain`, which also returns a report listing
every rename. The rewriting of kept URDF XML is
:func:`robomodel.transformers._xml_names.rename_in_xml`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from xml.sax.saxutils import quoteattr

import attrs
from lxml import etree
from pyrsistent import pvector

from robomodel.errors import DuplicateNameError, ModelError, UnknownNameError
from robomodel.model.joints import FixedJoint, Joint, replace_joint
from robomodel.model.record import Extension, Frame, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.transformers._xml_names import rename_in_xml
from robomodel.transformers.report import record, recording

__all__ = ["prefix", "rename"]


NameMap = Mapping[str, str] | Callable[[str], str]
"""A rename: a mapping ``old -> new`` or a function of the old name."""


@attrs.frozen
class _Renamer:
    """The resolved renames, one function per namespace."""

    link: Callable[[str], str]
    joint: Callable[[str], str]
    sensor: Callable[[str], str]


def _as_function(m: NameMap | None) -> Callable[[str], str] | None:
    if m is None:
        return None
    if callable(m):
        return m
    d = dict(m)
    return lambda n: d.get(n, n)


def _namespace(
    general: Callable[[str], str] | None, specific: Callable[[str], str] | None
) -> Callable[[str], str]:
    if specific is not None and general is not None:
        g, s = general, specific

        def both(n: str) -> str:
            new = s(n)
            return new if new != n else g(n)

        return both
    return specific or general or (lambda n: n)


def _check_known(
    model: Model,
    mapping: NameMap | None,
    links: NameMap | None,
    joints: NameMap | None,
    frames: NameMap | None,
    sensors: NameMap | None,
) -> None:
    # A mapping key that names nothing is almost always a typo; refusing it beats a silent no-op.
    frame_like = list(model.link_names) + model.frame_names
    sensor_names = [s.name for s in model.sensors]
    checks: list[tuple[NameMap | None, str, list[str]]] = [
        (links, "link", list(model.link_names)),
        (joints, "joint", list(model.joint_names)),
        (frames, "frame", model.frame_names),
        (sensors, "sensor", sensor_names),
    ]
    for m, kind, names in checks:
        if m is None or callable(m):
            continue
        known = set(names)
        for old in m:
            if old not in known:
                raise UnknownNameError(kind, old, names)
    if mapping is not None and not callable(mapping):
        every = set(frame_like) | set(model.joint_names) | set(sensor_names)
        for old in mapping:
            if old not in every:
                raise UnknownNameError(
                    "link, frame, joint or sensor",
                    old,
                    frame_like + list(model.joint_names) + sensor_names,
                )


def _new_name(f: Callable[[str], str], old: str, kind: str) -> str:
    new = f(old)
    if not isinstance(new, str) or not new:
        raise ModelError(f"renaming {kind} {old!r}: the new name must be a non-empty string")
    return new


def rename(
    model: Model,
    mapping: NameMap | None = None,
    *,
    links: NameMap | None = None,
    joints: NameMap | None = None,
    frames: NameMap | None = None,
    sensors: NameMap | None = None,
) -> Model:
    """Return ``model`` with elements renamed and every reference to them rewritten.

    ``mapping`` applies to every namespace (an element of any kind with that name is renamed);
    ``links``, ``joints``, ``frames`` and ``sensors`` apply to one namespace and take precedence.
    Each is a mapping ``old -> new`` or a function of the old name. All renames happen at once,
    so ``{"a": "b", "b": "a"}`` swaps two names.

    Rewritten references: joint ends, frame links, sensor links and joints, the default base,
    mimic leaders (``joint.mimic.joint``), the owners of kept extensions and, inside kept XML,
    ``<gazebo reference>``, ``<transmission><joint name>`` and ``<mimic joint>``. Indices,
    numbers, shapes and the robot name do not change.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "base")
    >>> m = rm.add_joint_and_link(m, "base", "j", rm.FixedJoint(link1="base", link2="arm"), "arm")
    >>> r = rename(m, {"arm": "forearm", "j": "elbow"})
    >>> list(r.link_names), list(r.joint_names), r.joint("elbow").link2
    (['base', 'forearm'], ['elbow'], 'forearm')

    Args:
        model: the model.
        mapping: renames applied to every namespace.
        links: renames of links only.
        joints: renames of joints only.
        frames: renames of additional frames only.
        sensors: renames of sensors only.

    Returns:
        The renamed model (the input itself if nothing changes).

    Raises:
        UnknownNameError: a mapping key names no element of the model (or of its namespace).
        DuplicateNameError: two elements of one namespace would end up with the same name (links
            and additional frames share one namespace).
        ModelError: a new name is empty or not a string.
    """
    _check_known(model, mapping, links, joints, frames, sensors)
    general = _as_function(mapping)
    lf = _namespace(general, _as_function(links))
    ff = _namespace(general, _as_function(frames))
    jf = _namespace(general, _as_function(joints))
    sf = _namespace(general, _as_function(sensors))
    return apply_renames(model, lf, ff, jf, sf)


def prefix(model: Model, text: str) -> Model:
    """Return ``model`` with ``text`` put in front of every link, joint, frame and sensor name.

    Every reference is rewritten as by :func:`rename`.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "hand")
    >>> list(prefix(m, "left_").link_names), prefix(m, "left_").default_base
    (['left_hand'], 'left_hand')

    Args:
        model: the model.
        text: the prefix (the empty string changes nothing).

    Raises:
        ModelError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise ModelError(f"a prefix must be a string, got {text!r}")

    def f(n: str) -> str:
        return text + n

    return apply_renames(model, f, f, f, f)


def apply_renames(
    model: Model,
    lf: Callable[[str], str],
    ff: Callable[[str], str],
    jf: Callable[[str], str],
    sf: Callable[[str], str],
) -> Model:
    """Rename with one function per namespace (links, frames, joints, sensors); record renames.

    The building block of :func:`rename`, :func:`prefix` and ``attach``.
    """
    lmap = {n: _new_name(lf, n, "link") for n in model.link_names}
    fmap = {f.name: _new_name(ff, f.name, "frame") for f in model.frames}
    jmap = {n: _new_name(jf, n, "joint") for n in model.joint_names}
    smap = {s.name: _new_name(sf, s.name, "sensor") for s in model.sensors}
    maps = (("link", lmap), ("frame", fmap), ("joint", jmap), ("sensor", smap))
    if all(o == n for _, m in maps for o, n in m.items()):
        return model
    _check_unique(lmap, fmap, jmap, smap)
    reporting = recording()
    for kind, m in maps if reporting else ():
        for o, n in m.items():
            if o != n:
                record("renamed", kind, o, f"now {n!r}")

    def ln(n: str) -> str:
        return lmap[n]

    new_joints = [_rename_joint(j, ln, jmap) for j in model.joints]
    new_frames = [Frame(fmap[f.name], lmap[f.link], f.link_H_frame) for f in model.frames]
    new_sensors = [_rename_sensor(s, lmap, jmap, smap) for s in model.sensors]
    new_ext = []
    # A frame written as a fake link has a URDF joint: <frame>_fixed_joint, or the name its
    # marker extension gives. Those names are in the joint namespace, so the joint renaming
    # applies to a marked one (prefix() prefixes it too: attaching a model to itself must not
    # write two joints of one name); an unmarked one follows its frame. Kept elements of that
    # joint (its <dynamics>) follow the new name either way.
    marks = {
        e.owner: _marker_joint(e.xml)
        for e in model.extensions
        if e.owner_kind == "frame" and e.tag == "joint"
    }
    ext_jmap = dict(jmap)
    for f in model.frames:
        marked = marks.get(f.name)
        if marked is None:
            old_joint, new_joint = f"{f.name}_fixed_joint", f"{fmap[f.name]}_fixed_joint"
        else:
            old_joint, new_joint = marked, _new_name(jf, marked, "joint")
        if old_joint not in jmap:
            ext_jmap[old_joint] = new_joint
    for e in model.extensions:
        ne = _rename_extension(e, lmap, fmap, ext_jmap, smap)
        if ne != e and reporting:
            record(
                "renamed",
                "extension",
                f"<{e.tag}> of {e.owner_kind} {e.owner!r}",
                "references rewritten",
            )
        new_ext.append(ne)
    return Model(
        link_names=[lmap[n] for n in model.link_names],
        links=model.links,
        joint_names=[jmap[n] for n in model.joint_names],
        joints=new_joints,
        frames=new_frames,
        default_base=None if model.default_base is None else lmap[model.default_base],
        visuals=model.visuals,
        collisions=model.collisions,
        sensors=new_sensors,
        package_dirs=model.package_dirs,
        name=model.name,
        materials=model.materials,
        extensions=pvector(new_ext),
    )


def _marker_joint(xml: str) -> str | None:
    """The joint name a frame's marker extension (``<joint name="..."/>``) gives."""
    name = etree.fromstring(xml).get("name")
    return None if name is None else str(name)


def _check_unique(
    lmap: dict[str, str], fmap: dict[str, str], jmap: dict[str, str], smap: dict[str, str]
) -> None:
    spaces = (
        # Links and additional frames share one namespace, so their old names never collide.
        ("link or frame", {**lmap, **fmap}),
        ("joint", jmap),
        ("sensor", smap),
    )
    for kind, m in spaces:
        seen: dict[str, str] = {}
        for old, new in m.items():
            if new in seen:
                raise DuplicateNameError(
                    kind, new, f"both {seen[new]!r} and {old!r} would be renamed to it"
                )
            seen[new] = old


def _rename_joint(j: Joint, ln: Callable[[str], str], jmap: dict[str, str]) -> Joint:
    changes: dict[str, object] = {"link1": ln(j.link1), "link2": ln(j.link2)}
    if not isinstance(j, FixedJoint) and j.mimic is not None:
        # A leader outside the model (a dangling mimic) keeps its name: nothing renames it.
        leader = jmap.get(j.mimic.joint, j.mimic.joint)
        if leader != j.mimic.joint:
            changes["mimic"] = attrs.evolve(j.mimic, joint=leader)
    return replace_joint(j, **changes)


def _rename_sensor(
    s: Sensor, lmap: dict[str, str], jmap: dict[str, str], smap: dict[str, str]
) -> Sensor:
    match s:
        case SixAxisForceTorqueSensor():
            return attrs.evolve(
                s,
                name=smap[s.name],
                parent_joint=jmap[s.parent_joint],
                first_link=lmap[s.first_link],
                second_link=lmap[s.second_link],
                applied_wrench_link=lmap[s.applied_wrench_link],
            )
        case Accelerometer() | Gyroscope():
            return attrs.evolve(s, name=smap[s.name], link=lmap[s.link])


def _rename_extension(
    e: Extension,
    lmap: dict[str, str],
    fmap: dict[str, str],
    jmap: dict[str, str],
    smap: dict[str, str],
) -> Extension:
    owner = e.owner
    if e.owner_kind == "link" or e.owner_kind == "inertial":
        owner = lmap.get(owner, fmap.get(owner, owner))
    elif e.owner_kind == "joint":
        owner = jmap.get(owner, owner)
    elif e.owner_kind == "frame":
        owner = fmap.get(owner, owner)
        if e.tag == "joint":  # the marker of a fake link's joint name: renamed as a joint
            old = _marker_joint(e.xml)
            new = jmap.get(old, old) if old is not None else None
            if new is not None and new != old:
                return attrs.evolve(e, owner=owner, xml=f"<joint name={quoteattr(new)}/>")
    elif e.owner_kind == "sensor" or e.owner_kind == "force_torque":
        owner = smap.get(owner, owner)
    xml = rename_in_xml(e.xml, links={**lmap, **fmap}, joints=jmap, prefer=e.owner_kind)
    if owner == e.owner and xml == e.xml:
        return e
    return attrs.evolve(e, owner=owner, xml=xml)
