"""Write a model as MJCF, MuJoCo's XML format, with a report of what MJCF cannot carry.

Every link reachable from the base becomes a ``<body>`` (links behind fixed joints become bodies
without joints, which MuJoCo welds to their parent, so no link is merged away), every additional
frame a ``<site>``, every sensor a site plus MuJoCo sensors, every mimic joint an
``<equality><joint>`` constraint, every shape a ``<geom>``. Numbers are written with Python's
shortest round-trip ``repr``, so MuJoCo reads back exactly the doubles robomodel holds. Inertias
are written as ``<inertial pos quat diaginertia>`` from robomodel's own eigen-decomposition of the
central inertia, so that the policies for inertias MuJoCo refuses (``DumpOptions.massless``,
``DumpOptions.invalid_inertia``) decide on exactly the numbers MuJoCo will check.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any, TypeAlias

import numpy as np

from robomodel._internal.deprecation import renamed_attributes
from robomodel._internal.files import atomic_write
from robomodel._internal.mesh_volume import surely_has_volume
from robomodel._internal.xml_text import Part, TextElement, attribute, element_text, indented_text
from robomodel.errors import MJCFError
from robomodel.formats.mjcf._common import (
    METADATA_NAME,
    SAME_FRAME,
    FloatArray,
    NumberSlots,
    Pose,
    moves,
    mujoco,
    near_body_frame,
    nums,
    pose_attrs,
    poses_written,
    set_pose,
    stacked,
)
from robomodel.formats.mjcf._geoms import MESH_FORMATS, GeomWriter, material_json
from robomodel.formats.mjcf._inertia import InertiaWriter, is_zero
from robomodel.formats.mjcf._kept import PREFIX, restore
from robomodel.formats.mjcf.options import DumpOptions
from robomodel.formats.report import (
    SERIOUS,
    ConversionReport,
    Loss,
    LossAction,
    warn_serious,
)
from robomodel.model.joints import PrismaticJoint, RevoluteJoint
from robomodel.model.record import Extension, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, SixAxisForceTorqueSensor
from robomodel.model.spatial import Axis, SpatialInertia, Transform
from robomodel.model.traversal import TraversalElement

__all__ = ["MESH_FORMATS", "compile_mjcf", "dump", "dumps", "dumps_with_report"]

_DEFAULT_OPTIONS = DumpOptions()


def dumps_with_report(
    model: Model, *, options: DumpOptions = _DEFAULT_OPTIONS
) -> tuple[str, ConversionReport]:
    """Return ``model`` as MJCF text together with the report of everything it lost or changed.

    Args:
        model: the model; its links reachable from ``options.base`` are written.
        options: see :class:`~robomodel.formats.mjcf.options.DumpOptions`.

    Raises:
        MJCFError: a policy is ``"raise"`` and a body needs it, or a number is not finite.
        UnknownNameError: ``options.base`` is not a link of the model.

    >>> import robomodel as rm
    >>> m = rm.add_link(rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0),
    ...     np.eye(3))))
    >>> j = rm.RevoluteJoint(link1="base", link2="arm", axis_in_link1=rm.Axis((0, 0, 1)))
    >>> m = rm.add_joint_and_link(m, "base", "j", j, "arm", rm.Link())
    >>> text, report = dumps_with_report(m)
    >>> print(report)  # doctest: +ELLIPSIS
    changed link 'arm': massless moving body: MuJoCo needs mass and inertia above 1e-15; ...
    """
    return _dumps_with_report(model, options, "<model>")


def _dumps_with_report(
    model: Model, options: DumpOptions, where: str
) -> tuple[str, ConversionReport]:
    text, writer = _written(model, options, where)
    return text, writer.report()


def _written(model: Model, options: DumpOptions, where: str) -> tuple[str, _Writer]:
    """The document and the writer that wrote it (which holds the report's entries)."""
    writer = _Writer(model, options)
    try:
        return writer.run(), writer
    except MJCFError as exc:
        # The writer's phases do not know the file; every MJCF error names one.
        raise exc.in_file(where) from exc.__cause__


def dumps(model: Model, *, options: DumpOptions = _DEFAULT_OPTIONS) -> str:
    """Return ``model`` as MJCF text (see :func:`dumps_with_report`, which also returns the report).

    Warns:
        RobomodelWarning: something was dropped or changed; the message lists every entry.
    """
    # The report is not returned: only the entries the warning lists are built.
    text, writer = _written(model, options, "<model>")
    count, first = writer.serious(_SHOWN)
    warn_serious(
        count,
        first,
        what="export",
        full_report="robomodel.formats.mjcf.dumps_with_report",
    )
    return text


def dump(
    model: Model, path: str | os.PathLike[str], *, options: DumpOptions = _DEFAULT_OPTIONS
) -> ConversionReport:
    """Write ``model`` as an MJCF file and return the report (see :func:`dumps_with_report`).

    The file is written whole or not at all (:func:`robomodel._internal.files.atomic_write`):
    a failed export never leaves a half-written file behind.
    """
    text, report = _dumps_with_report(model, options, os.fspath(path))
    atomic_write(path, text)
    return report


_SHOWN = 12
"""How many report entries a warning lists."""


def compile_mjcf(text: str) -> Any:
    """Compile MJCF text with MuJoCo and return the ``mujoco.MjModel``.

    Raises:
        MJCFError: MuJoCo refused the document (its message is kept).
        MujocoNotInstalledError: MuJoCo is not installed.
    """
    mj = mujoco()
    try:
        return mj.MjModel.from_xml_string(text)
    except ValueError as exc:
        raise MJCFError(f"MuJoCo did not compile the MJCF: {exc}", file="<string>") from exc


# ---------------------------------------------------------------------- numbers
# ---------------------------------------------------------------------- the writer
_Row: TypeAlias = tuple[LossAction, str, str, str]
"""A report entry not yet made a :class:`Loss`: its action, kind, name and detail."""

_Pending: TypeAlias = tuple[
    TextElement, Transform, list[tuple[int, Axis]], list[tuple[str, Transform]]
]
"""A merged link: its parent body, its pose there, the joints so far and the merged links."""


class _Writer(GeomWriter, InertiaWriter):
    """One export: the phases read top to bottom in :meth:`run`."""

    def __init__(self, model: Model, options: DumpOptions) -> None:
        self.m = model
        self.o = options
        # The report's entries as plain rows, made Loss values only when a report is asked
        # for (dumps builds none but the few its warning lists). The extensions MJCF cannot
        # hold, hundreds on some robots, are one column of rows placed at ``extensions_at``.
        self.losses: list[_Row] = []
        self.dropped_extensions: list[Extension] = []
        self.extensions_at = 0
        self.inertias: dict[str, SpatialInertia] = {}
        self.entries: list[TraversalElement] = []
        # The worldbody and its bodies, laid out as text with their numbers in slots; the rest
        # of the document (assets, sensors, kept sections) is an ElementTree.
        self.slots = NumberSlots()
        self.bodies: dict[str, TextElement] = {}
        self.worldbody_text = "<worldbody />"
        self.sensor_text = ""  # the <sensor> section's text, when it has elements
        self.site_names: set[str] = set()
        self.frame_sites: dict[str, tuple[str, Transform]] = {}
        self.geom_names: set[str] = set()
        self.meshes: dict[tuple[str, tuple[float, float, float]], str] = {}
        self.mesh_names: set[str] = set()
        self.mesh_elements: dict[str, ET.Element] = {}
        self.metadata: dict[str, Any] = {}
        self.principal: dict[int, tuple[FloatArray, FloatArray]] = {}
        self.principal_quats: dict[int, tuple[float, ...]] = {}
        self.inertial_numbers: dict[int, tuple[list[float], list[float]]] = {}
        self.material_assets: dict[tuple[object, ...], str] = {}
        self.material_names: set[str] = set()
        self.converted: dict[str, str] = {}

    def note(self, action: LossAction, kind: str, name: str, detail: str = "") -> None:
        self.losses.append((action, kind, name, detail))

    def _rows(self) -> Iterator[_Row]:
        """Every report entry as a row, in order."""
        at = self.extensions_at
        yield from self.losses[:at]
        for ext in self.dropped_extensions:
            detail = (f"<{ext.tag}>" if ext.tag else "an element") + (
                f" of {ext.owner_kind} {ext.owner!r}" if ext.owner else ""
            )
            yield ("dropped", "extension", ext.tag or "?", detail + " has no MJCF form")
        yield from self.losses[at:]

    def report(self) -> ConversionReport:
        """The conversion report of the document :meth:`run` wrote."""
        losses = tuple(
            Loss(action=action, kind=kind, name=name, detail=detail)
            for action, kind, name, detail in self._rows()
        )
        return ConversionReport(losses=losses, inertias=self.inertias)

    def serious(self, shown: int) -> tuple[int, list[Loss]]:
        """How many entries dropped, changed or approximated, and the first ``shown`` of them."""
        count = len(self.dropped_extensions)  # all "dropped"
        count += sum(row[0] in SERIOUS for row in self.losses)
        rows = (row for row in self._rows() if row[0] in SERIOUS)
        first = [
            Loss(action=action, kind=kind, name=name, detail=detail)
            for action, kind, name, detail in itertools.islice(rows, shown)
        ]
        return count, first

    def run(self) -> str:
        m, o = self.m, self.o
        root = ET.Element("mujoco", model=m.name or "robomodel")
        self.metadata["name"] = m.name
        # Angles in radians, and inertia only from <inertial>: geoms must not add mass.
        ET.SubElement(root, "compiler", angle="radian", inertiafromgeom="false")
        asset = ET.SubElement(root, "asset")
        self._root_asset = asset
        # An empty placeholder in the tree: the worldbody's text is spliced in (_document).
        ET.SubElement(root, "worldbody")
        world = TextElement("worldbody", [])
        if m.n_links == 0:
            raise MJCFError("the model has no links; add a link before exporting to MJCF")

        # Normalise: the tree from the base, and what is not in it.
        base = m.default_base_index if o.base is None else m.link_index(o.base)
        self.tr = m.traversal(base)
        # Its entries once: the phases below walk them several times.
        self.entries = list(self.tr)
        self.reached = set(self.tr.links)
        for i, name in enumerate(m.link_names):
            if i not in self.reached:
                self.note("dropped", "link", name, "not connected to the base")

        # Which links have no body of their own: a massless fixed base is the world body, and
        # a massless link between two moving joints hands its joint on to its child's body.
        root_inertia = m.links[base].inertia
        self.world_base = not o.floating_base and is_zero(root_inertia)
        self.merged = self._mergeable() if o.massless == "merge" else set()
        for i in sorted(self.merged):
            self.note(
                "note",
                "merged link",
                m.link_names[i],
                "massless link between two moving joints: its joint moves into its child's "
                "body (MuJoCo bodies may hold several joints); a site named after it on that "
                "body marks its frame (exact while the joints after it are at zero)",
            )

        # Inertias: apply the policies on exactly what will be written.
        written = self.written_inertias()

        # Bodies, joints, shapes and frames, parents before children. A massless fixed base is
        # MuJoCo's world body itself; a merged link's joints move on into its child's body.
        axes = self._child_axes()
        rests = {
            e.link: m.joints[e.joint].rest_transform(m.link_names[e.parent], m.link_names[e.link])
            for e in self.entries
            if e.parent is not None and e.joint is not None
        }
        # Every body's numbers at once, for the bodies placed by their joint's rest transform.
        poses = poses_written(
            stacked([T.rotation for T in rests.values()], 3, 3),
            stacked([T.position for T in rests.values()], 3),
            self.slots,
        )
        rest_pose = dict(zip(rests, poses, strict=True)) if poses is not None else {}
        pending: dict[int, _Pending] = {}
        for e in self.entries:
            name = m.link_names[e.link]
            if e.parent is None:
                if self.world_base:
                    self.bodies[name] = world
                    self.metadata["world"] = name
                    self.note(
                        "note",
                        "world link",
                        name,
                        "a massless fixed base: MuJoCo's world body, with a site named after it",
                    )
                    self._link_site(name, name, Transform.identity())
                    self._shapes(world, e.link)
                    continue
                body = world.add("body", [attribute("name", self._body_name(name))])
                self.metadata["base"] = name
                if o.floating_base:
                    body.add("freejoint", [attribute("name", o.free_joint_name)])
                    self.note("added", "joint", o.free_joint_name, "free joint of the root body")
            else:
                assert e.joint is not None  # a traversal gives every non-base link its joint
                joint = m.joints[e.joint]
                pname = m.link_names[e.parent]
                P_H_C = rests[e.link]
                own: list[tuple[int, Axis]] = [(e.joint, axes[e.joint])] if moves(joint) else []
                if not own:
                    self.metadata.setdefault("fixed_joints", {})[name] = m.joint_names[e.joint]
                if e.parent in pending:
                    parent_el, X_H_P, specs, between = pending.pop(e.parent)
                    C_H_P = P_H_C.inverse()
                    specs = [(j, C_H_P @ a) for j, a in specs] + own
                    X_H_C = X_H_P @ P_H_C
                else:
                    parent_el, specs, X_H_C, between = self.bodies[pname], own, P_H_C, []
                if e.link in self.merged:
                    pending[e.link] = (parent_el, X_H_C, specs, [*between, (name, X_H_C)])
                    continue
                body = parent_el.add("body", [attribute("name", self._body_name(name))])
                if X_H_C is P_H_C and e.link in rest_pose:
                    set_pose(body.attrs, rest_pose[e.link])
                else:
                    pose_attrs(body.attrs, X_H_C, self.slots)
                for j, axis in specs:
                    self._joint(body, j, axis)
                if between:
                    # The merged links' frames, relative to this body, for the way back.
                    C_H_X = X_H_C.inverse()
                    self.metadata.setdefault("merged", {})[name] = [
                        [lname, [*(C_H_X @ X_H_L).position, *(C_H_X @ X_H_L).rotation.ravel()]]
                        for lname, X_H_L in between
                    ]
            self.bodies[name] = body
            if e.parent is not None and between:
                C_H_X = X_H_C.inverse()
                for lname, X_H_L in between:
                    self._link_site(name, lname, C_H_X @ X_H_L)
            self.inertial(body, e.link, written[e.link])
            self._shapes(body, e.link)
        self._frames()

        # Elements outside the tree; the sensors' sites complete the worldbody, and its text is
        # written with every number of it formatted at once.
        equality = self._mimics()
        sensors = self._sensors()
        self.worldbody_text = element_text(world, self.slots.texts(), level=1)
        actuators = self._actuators()
        for el in (equality, actuators):
            if len(el):
                root.append(el)
        if sensors:
            # Its text, as ElementTree would write it, goes in an empty placeholder (_document).
            ET.SubElement(root, "sensor")
            self.sensor_text = "<sensor>" + "".join("\n    " + x for x in sensors) + "\n  </sensor>"
        if not len(asset):
            root.remove(asset)
        self._extensions()
        if m.package_dirs:
            self.metadata["package_dirs"] = list(m.package_dirs)
        if o.metadata and self.metadata:
            custom = ET.SubElement(root, "custom")
            data = json.dumps(self.metadata, sort_keys=True, separators=(",", ":"))
            ET.SubElement(custom, "text", name=METADATA_NAME, data=data)
        text = self._thin_meshes(root) if self.mesh_elements else self._document(root)
        kept = [x for x in m.extensions if x.tag.startswith(PREFIX) and x.owner_kind == "robot"]
        if kept:
            text = self._kept_sections(root, kept)
        return text

    def _thin_meshes(self, root: ET.Element) -> str:
        """Write ``inertia="shell"`` on the meshes MuJoCo finds too thin for a volume.

        robomodel writes every inertia explicitly, so a mesh's inertia only decides where
        MuJoCo centres it; but MuJoCo still computes a volume for each mesh and refuses a thin
        one (a sticker, a sheet: "mesh volume is too small"), which a source file had said
        with ``shellinertia`` or the mesh's ``inertia`` attribute. The document is compiled
        (when MuJoCo is installed) and each mesh MuJoCo names so is given the shell
        inertia, reported; nothing else changes. The compile is skipped when every mesh surely
        has a volume (:func:`robomodel._internal.mesh_volume.surely_has_volume`).
        """
        if all(surely_has_volume(path, scale) for path, scale in self.meshes):
            # Every mesh is a binary STL with a volume far above MuJoCo's minimum: the compile
            # would name none (robomodel._internal.mesh_volume), and costs what the user's own
            # compile costs next.
            return self._document(root)
        try:
            mj = mujoco()
        except ImportError:
            return self._document(root)
        for _ in range(len(self.mesh_elements)):
            error = _compiles(mj, self._document(root), full=True)
            name = _thin_mesh(error)
            el = self.mesh_elements.get(name or "")
            if el is None or el.get("inertia") == "shell":
                break
            el.set("inertia", "shell")
            self.note(
                "changed",
                "mesh",
                name or "",
                f"{el.get('file')}: MuJoCo finds its volume too small: written with "
                'inertia="shell" (the inertias are explicit, so only where MuJoCo centres the '
                "mesh changes)",
            )
        return self._document(root)

    def _kept_sections(self, root: ET.Element, kept: list[Extension]) -> str:
        """Write back the MJCF sections an import kept; keep only those MuJoCo accepts.

        They refer to joints, sites, geoms and classes by name, and the model may have changed
        since it was read, so the document is compiled with them (all at once, then one
        section at a time when that fails) and a refused section is dropped, with MuJoCo's
        message in the report. Without MuJoCo they are written unchecked.
        """
        place = 1  # after <compiler>
        try:
            mj = mujoco()
        except ImportError:
            mj = None
        sections = restore(kept)
        for el in sections:
            root.insert(place, el)
            place += 1
        text = self._document(root)
        if mj is None or _compiles(mj, text) is None:
            return text
        for el in sections:
            root.remove(el)
        base_error = _compiles(mj, self._document(root))
        if base_error is not None:
            # The document fails without them: the kept sections are not the cause, and
            # judging them against it would blame each. They are written back unchecked.
            place = 1
            for el in sections:
                root.insert(place, el)
                place += 1
            self.note(
                "note",
                "kept section",
                "all",
                f"written back unchecked: MuJoCo refuses the document without them ({base_error})",
            )
            return self._document(root)
        place = 1
        for el in sections:
            root.insert(place, el)
            error = _compiles(mj, self._document(root))
            if error is None:
                place += 1
                continue
            root.remove(el)
            self.note("dropped", "kept section", f"<{el.tag}>", f"MuJoCo refuses it now: {error}")
        return self._document(root)

    def _document(self, root: ET.Element) -> str:
        """The document's text: ``root``'s, the worldbody's and sensors' in their placeholders.

        Each placeholder is the only ``<worldbody />`` or ``<sensor />`` at depth one: any ``<``
        inside an attribute or a kept section's text is escaped, kept sections have other tags,
        and the worldbody's elements are deeper.
        """
        text = _text(root).replace("\n  <worldbody />", "\n  " + self.worldbody_text, 1)
        if self.sensor_text:
            text = text.replace("\n  <sensor />", "\n  " + self.sensor_text, 1)
        return text

    # ------------------------------------------------------------------ joints
    def _body_name(self, name: str) -> str:
        if name != "world":
            return name
        self.note("renamed", "body", name, "body 'world_link': MuJoCo reserves 'world'")
        self.metadata.setdefault("renamed_bodies", {})["world_link"] = name
        return "world_link"

    def _child_axes(self) -> dict[int, Axis]:
        """Return ``joint.axis(child)`` of every moving joint of the traversal, by joint index.

        A joint whose child is its link2 sees its axis through ``link1_H_link2.inverse()``:
        the products of that inverse and ``@``, stacked for all such joints at once. numpy's
        stacked product of contiguous 3 x 3 matrices gives the bits of one product per joint
        (a Hypothesis property in tests/test_mjcf_poses_batch.py holds it to ``Joint.axis``);
        a direction the product takes off the unit sphere, and every reversed joint, go through
        ``Joint.axis`` itself.
        """
        m = self.m
        out: dict[int, Axis] = {}
        forward: list[tuple[int, RevoluteJoint | PrismaticJoint]] = []
        for e in self.entries:
            if e.joint is None:
                continue
            joint = m.joints[e.joint]
            if not moves(joint):
                continue
            child = m.link_names[e.link]
            if child == joint.link2 and child != joint.link1:
                forward.append((e.joint, joint))
            else:
                out[e.joint] = joint.axis(child)
        if not forward:
            return out
        rests = [joint.link1_H_link2 for _, joint in forward]
        Rt = np.ascontiguousarray(stacked([T.rotation for T in rests], 3, 3).transpose(0, 2, 1))
        p = stacked([T.position for T in rests], 3)[:, :, None]
        u = stacked([joint.axis_in_link1.direction for _, joint in forward], 3)[:, :, None]
        o = stacked([joint.axis_in_link1.origin for _, joint in forward], 3)[:, :, None]
        direction = (Rt @ u)[:, :, 0]
        origin = (Rt @ o)[:, :, 0] + -(Rt @ p)[:, :, 0]
        squared = (direction[:, None, :] @ direction[:, :, None])[:, 0, 0].tolist()
        for k, (j, joint) in enumerate(forward):
            if abs(squared[k] - 1.0) > 1e-9:
                out[j] = joint.axis(joint.link2)  # renormalised there
            else:
                out[j] = Axis._raw(direction[k], origin[k])
        return out

    def _mergeable(self) -> set[int]:
        m, tr = self.m, self.tr
        children: dict[int, list[int]] = {}
        for link, parent in zip(tr.links, tr.parents, strict=True):
            if parent is not None:
                children.setdefault(parent, []).append(link)
        # Links that carry frames or sensors keep a body; by name, as the frames name them.
        used = {f.link for f in m.frames}
        for s in m.sensors:
            used.update(s.links if isinstance(s, SixAxisForceTorqueSensor) else (s.link,))
        out: set[int] = set()
        for link, j in zip(tr.links, tr.joints, strict=True):
            kids = children.get(link, [])
            if (
                j is None
                or not moves(m.joints[j])
                or len(kids) != 1
                or not is_zero(m.links[link].inertia)
                or m.link_names[link] in used
                or m.visuals[link]
                or m.collisions[link]
            ):
                continue
            k = tr.parent_joint_of(kids[0])
            if k is not None and moves(m.joints[k]):
                out.add(link)
        return out

    def _joint(self, body: TextElement, j: int, axis: Axis) -> None:
        """Write joint ``j`` into ``body``; ``axis`` is its motion axis in the body frame."""
        m = self.m
        add = self.slots.add
        joint = m.joints[j]
        jname = m.joint_names[j]
        assert isinstance(joint, RevoluteJoint | PrismaticJoint)
        attrs: list[Part] = [attribute("name", jname)]
        if isinstance(joint, RevoluteJoint):
            attrs.append(' type="hinge"')
            if axis.origin.any():  # a point off the body's origin (-0.0 counts as 0.0)
                attrs += (' pos="', add(axis.origin.tolist()), '"')
        else:
            attrs.append(' type="slide"')
        attrs += (' axis="', add(axis.direction.tolist()), '"')
        lim = joint.limits
        written = lim.enabled and math.isfinite(lim.lower) and lim.lower < lim.upper
        written = written and math.isfinite(lim.upper)
        if not written and (lim.enabled or (lim.lower, lim.upper) != (-math.inf, math.inf)):
            # What MJCF cannot hold (disabled bounds, empty or half-open ranges) travels in the
            # metadata; the JSON writer spells infinities "Infinity".
            self.metadata.setdefault("limits", {})[jname] = [lim.enabled, lim.lower, lim.upper]
        if lim.enabled and math.isfinite(lim.lower) and math.isfinite(lim.upper):
            if lim.lower < lim.upper:
                attrs += (' limited="true" range="', add((lim.lower, lim.upper)), '"')
            else:
                attrs.append(' limited="false"')
                self.note(
                    "dropped",
                    "limits",
                    jname,
                    f"empty range [{lim.lower}, {lim.upper}]: MuJoCo needs lower < upper",
                )
        else:
            attrs.append(' limited="false"')
            if lim.enabled:
                self.note("dropped", "limits", jname, "an infinite bound cannot be an MJCF range")
        if joint.dynamics.kind == "urdf":
            if joint.dynamics.damping:
                attrs += (' damping="', add((joint.dynamics.damping,)), '"')
            if joint.dynamics.static_friction:
                attrs += (' frictionloss="', add((joint.dynamics.static_friction,)), '"')
            if not (joint.dynamics.damping or joint.dynamics.static_friction):
                # MJCF's zero damping and friction loss are its defaults, not an element: that
                # the joint had a URDF <dynamics> of zeros travels in the metadata.
                self.metadata.setdefault("urdf_dynamics", {})[jname] = True
        if math.isfinite(joint.effort_limit) and joint.effort_limit > 0.0:
            effort = (-joint.effort_limit, joint.effort_limit)
            attrs += (' actuatorfrclimited="true" actuatorfrcrange="', add(effort), '"')
        elif math.isfinite(joint.effort_limit):
            # MuJoCo needs a non-empty force range: a zero limit travels in the metadata.
            self.metadata.setdefault("effort_limits", {})[jname] = joint.effort_limit
            self.note("dropped", "effort limit", jname, "MuJoCo refuses an empty force range")
        if math.isfinite(joint.velocity_limit):
            self.metadata.setdefault("velocity_limits", {})[jname] = joint.velocity_limit
            if not self.o.metadata:
                self.note("dropped", "velocity limit", jname, "MJCF has no velocity limit")
        body.add("joint", attrs)

    def _mimics(self) -> ET.Element:
        m = self.m
        eq = ET.Element("equality")
        for j, joint in enumerate(m.joints):
            name = m.joint_names[j]
            if not moves(joint) or joint.mimic is None or not self._has_joint(j):
                continue
            mim = joint.mimic
            leader = m.joint_index(mim.joint) if m.is_joint_name_used(mim.joint) else None
            if leader is None or not self._has_joint(leader) or not moves(m.joints[leader]):
                self.note("dropped", "mimic", name, f"its leader {mim.joint!r} is not exported")
                continue
            ET.SubElement(
                eq,
                "joint",
                joint1=name,
                joint2=mim.joint,
                polycoef=nums((mim.offset, mim.multiplier, 0.0, 0.0, 0.0)),
            )
        return eq

    def _has_joint(self, j: int) -> bool:
        joint = self.m.joints[j]
        return all(self.m.link_index(x) in self.reached for x in (joint.link1, joint.link2))

    def _actuators(self) -> ET.Element:
        act = ET.Element("actuator")
        if not self.o.actuators:
            return act
        m = self.m
        for j, joint in enumerate(m.joints):
            if not moves(joint) or not self._has_joint(j) or joint.mimic is not None:
                continue
            name = m.joint_names[j]
            el = ET.SubElement(act, "motor", name=name, joint=name)
            if math.isfinite(joint.effort_limit) and joint.effort_limit > 0.0:
                el.set("ctrllimited", "true")
                el.set("ctrlrange", nums((-joint.effort_limit, joint.effort_limit)))
        return act

    # ------------------------------------------------------------------ frames and sensors
    def _site(self, link: str, name: str, T: Transform, pose: Pose | None = None) -> str:
        """Write a site on ``link``'s body at ``T`` (``pose``: its texts, if computed already)."""
        unique = name
        k = 1
        while unique in self.site_names:
            unique = f"{name}_site" if k == 1 else f"{name}_site{k}"
            k += 1
        if unique != name:
            self.note("renamed", "site", name, f"site {unique!r}: the name is taken")
        attrs: list[Part] = [attribute("name", unique)]
        if pose is None:
            near = near_body_frame(*pose_attrs(attrs, T, self.slots))
        else:
            set_pose(attrs, pose)
            near = pose[2]
        self.bodies[link].add("site", attrs)
        if near:
            self._near_site(unique)
        self.site_names.add(unique)
        return unique

    def _near_site(self, name: str) -> None:
        self.note(
            "approximated",
            "site",
            name,
            f"within MuJoCo's same-frame tolerance ({SAME_FRAME}) of its body frame but not "
            "equal to it: MuJoCo places it exactly on the body frame",
        )

    def _link_site(self, body: str, link: str, T: Transform) -> None:
        """Mark a link that has no body of its own with a site named after it at its frame.

        So every link stays queryable by name in MuJoCo; robomodel's reader, which restores
        the link from the metadata, skips the site.
        """
        site = self._site(body, link, T)
        self.metadata.setdefault("link_sites", []).append(site)

    def _frames(self) -> None:
        m = self.m
        frames = []
        for f in m.frames:
            if f.link not in self.bodies:
                self.note("dropped", "frame", f.name, f"its link {f.link!r} is not exported")
                continue
            frames.append(f)
        # The numbers of every site at once: one stack of the poses, given slots as whole arrays.
        poses = poses_written(
            stacked([f.link_H_frame.rotation for f in frames], 3, 3),
            stacked([f.link_H_frame.position for f in frames], 3),
            self.slots,
        )
        for k, f in enumerate(frames):
            self._site(f.link, f.name, f.link_H_frame, None if poses is None else poses[k])
            self.frame_sites[f.name] = (f.link, f.link_H_frame)

    def _sensor_site(self, name: str, link: str, T: Transform) -> str:
        # iDynTree's loader adds one frame per sensor, named like it and at its pose: reuse it.
        same = self.frame_sites.get(name)
        if same is not None and same[0] == link and _close(same[1], T):
            return name
        site = self._site(link, name, T)
        self.metadata.setdefault("sensor_sites", []).append(site)
        return site

    def _sensors(self) -> list[str]:
        """The elements of the ``<sensor>`` section, as text (each sensor's site is added)."""
        m = self.m
        out: list[str] = []
        for s in m.sensors:
            match s:
                case SixAxisForceTorqueSensor():
                    if not m.is_joint_name_used(s.parent_joint) or not self._has_joint(
                        m.joint_index(s.parent_joint)
                    ):
                        self.note("dropped", "sensor", s.name, "its joint is not exported")
                        continue
                    j = m.joint_index(s.parent_joint)
                    _, c = m.joint_parent_child(j, self.tr)
                    child = m.link_names[c]
                    if moves(m.joints[j]):
                        self.note(
                            "note",
                            "sensor",
                            s.name,
                            "MuJoCo's force/torque sensors measure through a moving joint too; "
                            "the reading includes the joint's actuation",
                        )
                    site = self._sensor_site(s.name, child, s.link_H_sensor(child))
                    at = attribute("site", site)
                    out.append(f"<force{attribute('name', s.name + '_force')}{at} />")
                    out.append(f"<torque{attribute('name', s.name + '_torque')}{at} />")
                    applied_child = s.applied_wrench_link == child
                    self.metadata.setdefault("force_torque", {})[s.name] = {
                        "joint": s.parent_joint,
                        "first": s.first_link,
                        "second": s.second_link,
                        "applied": s.applied_wrench_link,
                    }
                    if not applied_child:
                        self.note(
                            "note",
                            "sensor",
                            s.name,
                            f"robomodel measures the wrench on {s.applied_wrench_link!r} (the "
                            f"parent body); MuJoCo's {s.name}_force/_torque read the wrench on "
                            f"{child!r}, the negation",
                        )
                case Accelerometer() | Gyroscope():
                    if s.link not in self.bodies:
                        self.note(
                            "dropped", "sensor", s.name, f"its link {s.link!r} is not exported"
                        )
                        continue
                    site = self._sensor_site(s.name, s.link, s.link_H_sensor)
                    tag = "accelerometer" if isinstance(s, Accelerometer) else "gyro"
                    out.append(f"<{tag}{attribute('name', s.name)}{attribute('site', site)} />")
        return out

    # ------------------------------------------------------------------ shapes
    # ------------------------------------------------------------------ the rest
    def _extensions(self) -> None:
        # One entry per extension (a robot's URDF may carry hundreds of <gazebo> elements),
        # kept as a column: their texts are written only for a report (_rows). Kept MJCF
        # sections are written back by _kept_sections.
        self.extensions_at = len(self.losses)
        self.dropped_extensions = [
            ext
            for ext in self.m.extensions
            if not (ext.tag.startswith(PREFIX) and ext.owner_kind == "robot")
        ]
        if self.m.materials:
            self.metadata["robot_materials"] = [material_json(x) for x in self.m.materials]


def _text(root: ET.Element) -> str:
    text = indented_text(root)
    if text is None:  # kept sections may carry text: ElementTree writes those
        ET.indent(root)
        text = ET.tostring(root, encoding="unicode")
    return text + "\n"


def _compiles(mj: Any, text: str, *, full: bool = False) -> str | None:
    """Return ``None`` when MuJoCo compiles ``text``, else its error (its first line, or all)."""
    try:
        mj.MjModel.from_xml_string(text)
    except ValueError as exc:
        return str(exc) if full else str(exc).splitlines()[0]
    return None


_THIN = re.compile(r"mesh volume is too small[^\n]*\n?.*?Element name '([^']*)'", re.DOTALL)


def _thin_mesh(error: str | None) -> str | None:
    """The mesh MuJoCo's error names as too thin for a volume, if that is the error."""
    if error is None:
        return None
    found = _THIN.search(error)
    return found.group(1) if found else None


def _close(a: Transform, b: Transform) -> bool:
    # The same pose read twice (a sensor and the frame iDynTree's loader made for it) is equal
    # to the bit: two byte comparisons settle it without a numpy call.
    if a is b or (
        a.rotation.tobytes() == b.rotation.tobytes()
        and a.position.tobytes() == b.position.tobytes()
    ):
        return True
    # numpy's test (the largest difference of each array within the tolerance) in Python
    # floats, the same subtractions: twelve numbers cost less than the numpy calls on them.
    ra, rb = a.rotation.tolist(), b.rotation.tolist()
    pairs = zip(
        [*ra[0], *ra[1], *ra[2], *a.position.tolist()],
        [*rb[0], *rb[1], *rb[2], *b.position.tolist()],
        strict=True,
    )
    return all(abs(x - y) <= 1e-12 for x, y in pairs)


__getattr__ = renamed_attributes(
    __name__, {"export": ("robomodel.formats.mjcf.dumps_with_report", lambda: dumps_with_report)}
)
