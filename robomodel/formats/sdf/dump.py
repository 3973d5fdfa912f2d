"""Writing SDFormat: ``dump``/``dumps`` and the report-returning form.

The model is written as one ``<model>`` whose canonical link is the default base. Links come in
index order, each posed relative to its parent in the tree (so the reader finds every rest
transform as written), then joints in index order (F/T sensors inside), then frames
(``<frame attached_to>``), then the model's kept extensions, and, when the document order of the
extensions differs from the model's, ``<robomodel:order>`` with the permutation.
"""

from __future__ import annotations

import os
from xml.sax.saxutils import quoteattr

from robomodel._internal.files import atomic_write
from robomodel.errors import SDFError
from robomodel.formats.report import ConversionReport, Loss
from robomodel.formats.sdf._joints import write_joint
from robomodel.formats.sdf._links import write_inertial, write_robot_material, write_shape
from robomodel.formats.sdf._poses import write_pose
from robomodel.formats.sdf._sensors import write_ft, write_imu
from robomodel.formats.sdf._xml import XMLNS, exact_transform_text
from robomodel.formats.sdf.options import DumpOptions
from robomodel.model.joints import FixedJoint
from robomodel.model.record import Extension, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, SixAxisForceTorqueSensor
from robomodel.model.spatial import SpatialInertia, Transform
from robomodel.physics.inertia import consistency_problems

__all__ = ["dump", "dumps", "dumps_with_report"]

_DEFAULT = DumpOptions()


def _tree(model: Model, base: str) -> tuple[dict[str, tuple[str, int]], list[str]]:
    """Return each link's (parent link, joint index) in the tree, and the roots.

    The tree is the traversal from ``base`` and from the first link of each part not connected
    to it.
    """
    parent_of: dict[str, tuple[str, int]] = {}
    roots: list[str] = []
    seen: set[str] = set()
    for start in [base, *model.link_names]:
        if start in seen:
            continue
        roots.append(start)
        t = model.traversal(start)
        for el in t:
            seen.add(model.link_names[el.link])
            if el.parent is not None and el.joint is not None:
                parent_of[model.link_names[el.link]] = (model.link_names[el.parent], el.joint)
    return parent_of, roots


def dumps_with_report(
    model: Model, *, options: DumpOptions = _DEFAULT
) -> tuple[str, ConversionReport]:
    """Return ``model`` as SDFormat text and the report of what the text cannot hold.

    Raises:
        SDFError: the model has no links, or a link is named ``world`` or ``__model__``
            (reserved by SDFormat) other than a massless root.
    """
    if model.n_links == 0:
        raise SDFError("the model has no links; SDFormat needs at least one", file="<model>")
    losses: list[Loss] = []
    if model.package_dirs:
        losses.append(
            Loss(
                action="dropped",
                kind="package_dirs",
                name="",
                detail="directories of this machine, not part of the description; give them "
                "again to load(package_dirs=...)",
            )
        )
    base = options.base or model.default_base or model.link_names[0]
    parent_of, _ = _tree(model, base)
    # A massless, shapeless first link named "world" at the base is SDFormat's world.
    world = (
        model.link_names[0] == "world"
        and base == "world"
        and model.links[0].inertia == SpatialInertia.zero()
        and not model.visuals[0]
        and not model.collisions[0]
        and not any(getattr(s, "link", None) == "world" for s in model.sensors)
    )
    for bad in ("__model__", "world"):
        if model.is_frame_name_used(bad) and not (bad == "world" and world):
            raise SDFError(
                f"{bad!r} is a name SDFormat reserves; rename the link or frame",
                file="<model>",
            )
    # SDFormat links, joints and frames share one namespace; robomodel's joints and frames
    # have their own. A name taken is written with a suffix and robomodel:name.
    taken = set(model.link_names)
    joint_sdf = {n: _free(n, "_joint", taken) for n in model.joint_names}
    frame_sdf = {f.name: _free(f.name, "_frame", taken) for f in model.frames}
    for kind, names in (("joint", joint_sdf), ("frame", frame_sdf)):
        for n, written in names.items():
            if written != n:
                losses.append(
                    Loss(
                        action="renamed",
                        kind=kind,
                        name=n,
                        detail=f"written as {written!r} (SDFormat frames share one namespace); "
                        "robomodel:name keeps the name",
                    )
                )
    sensors_of_link: dict[str, list[tuple[int, Accelerometer | Gyroscope]]] = {}
    sensors_of_joint: dict[str, list[tuple[int, SixAxisForceTorqueSensor]]] = {}
    for k, s in enumerate(model.sensors):
        if isinstance(s, SixAxisForceTorqueSensor):
            sensors_of_joint.setdefault(s.parent_joint, []).append((k, s))
        else:
            sensors_of_link.setdefault(s.link, []).append((k, s))
    ext_by: dict[tuple[str, str], list[int]] = {}
    for k, e in enumerate(model.extensions):
        ext_by.setdefault((e.owner_kind, e.owner), []).append(k)
    doc_order: list[int] = []  # model extension indices, in the order the reader meets them
    wrapped: list[int] = []  # not SDFormat where they belong: kept at the model level

    def kept(kind: str, owner: str) -> list[str]:
        ks: list[int] = []
        for k in ext_by.get((kind, owner), []):
            (ks if native(model.extensions[k]) else wrapped).append(k)
        doc_order.extend(ks)
        return [model.extensions[k].xml for k in ks]

    out = [
        '<?xml version="1.0"?>',
        f'<sdf version="{options.version}" {XMLNS}>',
        f"  <model name={quoteattr(model.name or 'model')}"
        + ("" if world else f" canonical_link={quoteattr(base)}")
        + (' robomodel:unnamed="true">' if not model.name else ">"),
    ]

    def kept_quiet(kind: str, owner: str) -> list[str]:
        # Sensor children: the reader meets them last (see below), so they are not yet ordered.
        ks = ext_by.get((kind, owner), [])
        written = [k for k in ks if native(model.extensions[k])]
        wrapped.extend(k for k in ks if not native(model.extensions[k]))
        return [model.extensions[k].xml for k in written]

    robot_lines = ["    " + x for x in kept("robot", "")]

    # Links, each relative to its parent in the tree.
    sensor_ext_order: list[int] = []
    for li, name in enumerate(model.link_names):
        if world and li == 0:
            continue
        inertia = model.links[li].inertia
        if inertia.mass == 0.0 and inertia.rotational_inertia.any():
            losses.append(
                Loss(
                    action="note",
                    kind="link",
                    name=name,
                    detail="massless with moments of inertia; libsdformat (and Drake) read "
                    "such an inertial as the default 1 kg one",
                )
            )
        elif consistency_problems(inertia):
            losses.append(
                Loss(
                    action="note",
                    kind="link",
                    name=name,
                    detail="its inertia is physically inconsistent; Drake and other SDFormat "
                    "readers refuse it (robomodel.physics.inertia.nearest_consistent fixes it)",
                )
            )
        out.append(f"    <link name={quoteattr(name)}>")
        if name in parent_of:
            p, j = parent_of[name]
            joint = model.joints[j]
            rel = None if p == "world" else p  # the model frame is the world's (no pose)
            if joint.link1 == p:
                out.append(write_pose(joint.link1_H_link2, rel, "      "))
            else:  # the reader inverts this pose back; state the inverse exactly
                line = write_pose(joint.link1_H_link2.inverse(), rel, "      ")
                exact = exact_transform_text(joint.link1_H_link2)
                out.append(line.replace("<pose ", f'<pose robomodel:inverse="{exact}" ', 1))
        out.append(write_inertial(model.links[li].inertia, "      ", kept("inertial", name)))
        for tag, shapes in (("visual", model.visuals[li]), ("collision", model.collisions[li])):
            for k, shape in enumerate(shapes):
                out.append(write_shape(tag, shape, k, "      ", losses, name))
        out.extend("      " + x for x in kept("link", name))
        for k, imu in sensors_of_link.get(name, []):
            line = write_imu(imu, "      ", kept_quiet("sensor", imu.name))
            out.append(line.replace("<sensor ", f'<sensor robomodel:index="{k}" ', 1))
            sensor_ext_order.append(k)
        out.append("    </link>")

    # Joints, from the tree parent to the child, with their F/T sensors.
    for j, (jname, joint) in enumerate(zip(model.joint_names, model.joints, strict=True)):
        if joint.link2 in parent_of and parent_of[joint.link2][1] == j:
            parent, child = joint.link1, joint.link2
        else:
            parent, child = joint.link2, joint.link1
        fts = sensors_of_joint.get(jname, [])
        pose = None
        if fts and isinstance(joint, FixedJoint):  # the joint origin at the sensor's
            pose = Transform.from_translation(fts[0][1].link_H_sensor(child).position)
        lines = write_joint(
            joint_sdf[jname], joint, parent, child, options.version, "    ", losses, pose, joint_sdf
        )
        if joint_sdf[jname] != jname:
            lines[0] = lines[0].replace("<joint ", f"<joint robomodel:name={quoteattr(jname)} ", 1)
        out.extend(lines)
        for k, s in fts:
            text = write_ft(s, parent, child, "      ")
            text = text.replace("<sensor ", f'<sensor robomodel:index="{k}" ', 1)
            inner = "".join(kept_quiet("force_torque", s.name))
            text = text.replace("</force_torque>", inner + "</force_torque>", 1)
            out.append(text)
            out.extend("        " + x for x in kept_quiet("sensor", s.name))
            out.append("      </sensor>")
            if not isinstance(joint, FixedJoint):
                losses.append(
                    Loss(
                        action="note",
                        kind="sensor",
                        name=s.name,
                        detail="in a moving joint: other SDFormat readers take the moments "
                        "about the joint origin; robomodel:child_H_sensor keeps the exact pose",
                    )
                )
        out.extend("      " + x for x in kept("joint", jname))
        out.append("    </joint>")

    # The sensors' kept children come after the joints' in the reader's order.
    joint_sensors = [k for j in model.joint_names for k, _ in sensors_of_joint.get(j, [])]
    for k in sensor_ext_order + joint_sensors:
        s = model.sensors[k]
        kinds = (
            ("force_torque", "sensor") if isinstance(s, SixAxisForceTorqueSensor) else ("sensor",)
        )
        for kind in kinds:
            doc_order.extend(
                i for i in ext_by.get((kind, s.name), []) if native(model.extensions[i])
            )

    # Frames, then the model's extensions.
    for fr in model.frames:
        rn = "" if frame_sdf[fr.name] == fr.name else f" robomodel:name={quoteattr(fr.name)}"
        out.append(
            f"    <frame name={quoteattr(frame_sdf[fr.name])}{rn} attached_to={quoteattr(fr.link)}>"
        )
        out.append(write_pose(fr.link_H_frame, fr.link, "      "))
        out.append("    </frame>")
    out.extend(robot_lines)
    out.extend(write_robot_material(mat, "    ") for mat in model.materials)
    # Extensions of owners SDFormat has not (frames, joints that became frames) or that are
    # not SDFormat there (URDF's <gazebo>, a <dynamics> on a fixed joint): in robomodel's
    # element, which SDFormat readers skip.
    placed = set(doc_order)
    for k in range(len(model.extensions)):
        if k not in placed and k not in wrapped:
            wrapped.append(k)
    wrapped.sort()
    by_tag: dict[str, int] = {}
    for k in wrapped:
        e = model.extensions[k]
        by_tag[e.tag] = by_tag.get(e.tag, 0) + 1
        out.append(
            f"    <robomodel:extension owner_kind={quoteattr(e.owner_kind)} "
            f"owner={quoteattr(e.owner)}>{e.xml}</robomodel:extension>"
        )
    for tag_name, count in by_tag.items():  # kept for robomodel, unseen by others: say so
        losses.append(
            Loss(
                action="note",
                kind="extension",
                name=tag_name,
                detail=f"{count} element(s) that are not SDFormat where their owner is written, "
                "kept in <robomodel:extension>, which other SDFormat readers skip",
            )
        )
    if model.materials:
        losses.append(
            Loss(
                action="note",
                kind="material",
                name="",
                detail=f"{len(model.materials)} model-level material(s) (SDFormat has none), "
                "kept in <robomodel:material>",
            )
        )
    doc_order = (
        [k for k in doc_order if model.extensions[k].owner_kind == "robot"]
        + wrapped
        + [k for k in doc_order if model.extensions[k].owner_kind != "robot"]
    )
    if doc_order != list(range(len(model.extensions))):
        missing = sorted(set(range(len(model.extensions))) - set(doc_order))
        for k in missing:
            e = model.extensions[k]
            losses.append(
                Loss(
                    action="dropped",
                    kind="extension",
                    name=e.tag,
                    detail=f"owned by {e.owner_kind} {e.owner!r}, which SDFormat has not",
                )
            )
        if not missing:  # doc_order[p] is the model index of the p-th extension read
            perm = [doc_order.index(k) for k in range(len(model.extensions))]
            out.append(f'    <robomodel:order extensions="{" ".join(map(str, perm))}"/>')
    out += ["  </model>", "</sdf>", ""]
    return "\n".join(out), ConversionReport(losses=tuple(losses))


# The SDFormat children an extension may be written as, by owner (and any namespaced
# element, such as Drake's <drake:...>); the others are kept in <robomodel:extension>.
_NATIVE = {
    "robot": {"static", "self_collide", "allow_auto_disable", "enable_wind", "plugin", "gripper"},
    "link": {
        "gravity",
        "enable_wind",
        "self_collide",
        "kinematic",
        "must_be_base_link",
        "velocity_decay",
        "sensor",
        "projector",
        "audio_sink",
        "audio_source",
        "battery",
        "light",
        "particle_emitter",
        "visual",
        "collision",
    },
    "joint": {"physics", "sensor", "gearbox_ratio", "gearbox_reference_body", "thread_pitch"},
    "inertial": {"fluid_added_mass", "auto_inertia_params"},
    "sensor": {
        "always_on",
        "update_rate",
        "visualize",
        "topic",
        "imu",
        "plugin",
        "enable_metrics",
        "frame_id",
    },
    "force_torque": {"force", "torque"},
}


def native(e: Extension) -> bool:
    """Whether ``e`` is SDFormat where its owner is written."""
    return ":" in e.tag or e.tag in _NATIVE.get(e.owner_kind, set())


def _free(name: str, suffix: str, taken: set[str]) -> str:
    """``name``, or ``name`` + ``suffix`` (+ a number) when taken; the result is then taken."""
    out, k = name, 1
    while out in taken:
        out = f"{name}{suffix}" if k == 1 else f"{name}{suffix}{k}"
        k += 1
    taken.add(out)
    return out


def dumps(model: Model, *, options: DumpOptions = _DEFAULT) -> str:
    """Return ``model`` as SDFormat text (see :func:`dumps_with_report`)."""
    return dumps_with_report(model, options=options)[0]


def dump(model: Model, path: str | os.PathLike[str], *, options: DumpOptions = _DEFAULT) -> None:
    """Write ``model`` to the SDFormat file ``path`` (replaced in one step)."""
    atomic_write(path, dumps(model, options=options))
