"""Read MJCF through MuJoCo's own compiler into a model, with a report of what it could not carry.

MuJoCo parses and compiles the document (``MjSpec``), so ``<default>`` classes, ``<include>``,
angle units, ``eulerseq``, every orientation form, ``fromto`` and inertias computed from geoms
arrive exactly as MuJoCo simulates them. Names and structure come from the compiled model's name
tables and parent indices, numbers from its arrays (``body_pos``/``body_quat``, ``body_mass``,
``body_ipos``/``body_iquat``/``body_inertia``, ``jnt_axis``/``jnt_pos``/``jnt_range``, ...).

A body with several joints becomes a chain of links joined by one robomodel joint each (the
intermediate links are massless); a ball joint becomes three revolute joints about the body's
x, y and z axes; a free joint on the only root body makes that body the default base.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from typing import Any

import attrs
import numpy as np

from robomodel._internal.deprecation import renamed_attributes
from robomodel.errors import MJCFError, RobomodelError
from robomodel.formats.mjcf._common import (
    METADATA_NAME,
    merged_links,
    mujoco,
    rotations_from_quats,
)
from robomodel.formats.mjcf._files import check_opened_files, refuse_unless_regular
from robomodel.formats.mjcf._geoms import GeomReader, material_from_json
from robomodel.formats.mjcf._kept import PREFIX, keep
from robomodel.formats.mjcf.options import LoadOptions
from robomodel.formats.report import ConversionReport, Loss, LossAction, warn_losses
from robomodel.model.builders import (
    add_frame,
    add_joint,
    add_link,
    add_sensor,
)
from robomodel.model.joints import (
    FixedJoint,
    JointDynamics,
    Mimic,
    PositionLimits,
    PrismaticJoint,
    RevoluteJoint,
)
from robomodel.model.record import Link, Model
from robomodel.model.sensors import Accelerometer, Gyroscope, SixAxisForceTorqueSensor
from robomodel.model.spatial import Axis, SpatialInertia, Transform

__all__ = ["load", "load_with_report", "loads", "loads_with_report"]

_DEFAULT_OPTIONS = LoadOptions()


def loads_with_report(
    text: str, *, options: LoadOptions = _DEFAULT_OPTIONS, path: str | None = None
) -> tuple[Model, ConversionReport]:
    """Return the model of an MJCF document together with the report of what it lost.

    Args:
        text: the MJCF document.
        options: see :class:`~robomodel.formats.mjcf.options.LoadOptions`.
        path: the file the text came from: ``<include>`` and mesh paths resolve next to it.

    Raises:
        MJCFError: MuJoCo did not compile the document.

    Warns:
        UserWarning: MuJoCo's own compiler warnings (a deprecated attribute, ...), as MuJoCo
            raises them; filter them with ``warnings.filterwarnings`` where they are expected.

    >>> m, report = loads_with_report('''<mujoco><worldbody><body name="a">
    ...   <joint name="j" axis="0 0 1"/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    ...   </body></worldbody></mujoco>''')
    >>> list(m.link_names), list(m.joint_names), m.total_mass
    (['world', 'a'], ['j'], 1.0)
    """
    where = path if path is not None else "<string>"
    try:
        return _loads_with_report(text, options, path)
    except MJCFError as exc:
        raise exc.in_file(where) from exc.__cause__
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        # A hand-edited document whose robomodel metadata has the right shape but values no
        # phase expected: say which file, rather than let a bare TypeError out.
        if isinstance(exc, RobomodelError):
            raise
        raise MJCFError(
            f"robomodel could not read the document ({type(exc).__name__}: {exc}); its "
            f'<custom><text name="{METADATA_NAME}"> metadata may be damaged: remove it',
            file=where,
        ) from exc


def _loads_with_report(
    text: str, options: LoadOptions, path: str | None
) -> tuple[Model, ConversionReport]:
    _refuse_other_formats(text)
    mj = mujoco()
    # MuJoCo opens includes and asset files itself, with blocking reads: refuse FIFOs and
    # devices before it sees them.
    if path is not None:
        refuse_unless_regular(path, "")
    check_opened_files(text, path)
    # MuJoCo's compiler reports what it tolerates (a deprecated attribute, a non-rigid flex) as
    # Python UserWarnings of its own, raised inside ``compile``. They reach the caller as they
    # are: recording them would need ``warnings.catch_warnings``, which swaps the process-wide
    # filters and is not thread-safe, and MuJoCo offers no other way to read them.
    try:
        spec = mj.MjSpec.from_file(path) if path is not None else mj.MjSpec.from_string(text)
        mm = spec.compile()
    except ValueError as exc:
        # MuJoCo ends its message with the element and its line ("Element 'body', line 3"):
        # that goes where every robomodel error names its element, after the file.
        reason, found, element = str(exc).strip().partition("\nElement ")
        raise MJCFError(
            f"MuJoCo did not compile the MJCF: {reason}",
            element=f"element {element.strip()}" if found else "",
        ) from exc
    if path is not None:
        text = read_mjcf(path)
    return _Reader(mj, spec, mm, options, text).run()


def _refuse_other_formats(text: str) -> None:
    """Refuse a URDF or SDFormat document: MuJoCo compiles URDF too, into a different robot.

    MuJoCo's URDF import fuses links and drops what MJCF lacks, so a URDF file read here would
    load as another mechanism without a word.
    """
    from robomodel.formats.detect import ROOT_FORMATS, root_element

    root = root_element(text.encode("utf-8", "replace"))
    if root is not None and root != "mujoco" and root in ROOT_FORMATS:
        reader = {"robot": "robomodel.formats.urdf.load", "sdf": "robomodel.formats.sdf.load"}[root]
        why = (
            "MuJoCo would compile it into a different robot"
            if root == "robot"
            else "MuJoCo does not read it"
        )
        raise MJCFError(
            f"the document is <{root}> ({ROOT_FORMATS[root]}), not MJCF (<mujoco>); {why}: "
            f"read it with {reader}"
        )


def read_mjcf(path: str) -> str:
    """The text of the MJCF file ``path``: a regular file of UTF-8 text."""
    try:
        refuse_unless_regular(path, "")
        with open(path, "rb") as fh:
            data = fh.read()
        return data.decode("utf-8")
    except MJCFError as exc:
        raise exc.in_file(path) from None
    except UnicodeDecodeError as exc:
        raise MJCFError(
            f"not UTF-8 text (byte {exc.start}: {exc.reason}); save the file as UTF-8",
            file=path,
        ) from None


def loads(text: str, *, options: LoadOptions = _DEFAULT_OPTIONS) -> Model:
    """Return the model of an MJCF document (:func:`loads_with_report` also returns the report).

    Warns:
        RobomodelWarning: something was dropped or changed; the message lists every entry.
    """
    model, report = loads_with_report(text, options=options)
    _warn(report)
    return model


def load(path: str | os.PathLike[str], *, options: LoadOptions = _DEFAULT_OPTIONS) -> Model:
    """Read the MJCF file ``path`` (see :func:`loads`); includes and meshes resolve next to it."""
    name = os.fspath(path)
    text = read_mjcf(name)
    model, report = loads_with_report(text, options=options, path=name)
    _warn(report)
    return model


def load_with_report(
    path: str | os.PathLike[str], *, options: LoadOptions = _DEFAULT_OPTIONS
) -> tuple[Model, ConversionReport]:
    """Return :func:`load` of the MJCF file ``path`` and the report of what it lost."""
    name = os.fspath(path)
    return loads_with_report(read_mjcf(name), options=options, path=name)


def _warn(report: ConversionReport) -> None:
    warn_losses(report, what="import", full_report="robomodel.formats.mjcf.loads_with_report")


_TABLES = (
    "renamed_bodies",
    "fixed_joints",
    "merged",
    "limits",
    "effort_limits",
    "velocity_limits",
    "urdf_dynamics",
    "force_torque",
    "materials",
    "mesh_uris",
)
"""The metadata entries that are name -> value tables."""


def _number(value: object, default: float) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
        return float(value)
    return default


class _Reader(GeomReader):
    """One import: the phases read top to bottom in :meth:`run`."""

    def __init__(self, mj: Any, spec: Any, mm: Any, options: LoadOptions, text: str) -> None:
        self.mj, self.spec, self.mm, self.o = mj, spec, mm, options
        self.text = text
        self.losses: list[Loss] = []
        self.model = Model(name=spec.modelname or "")
        self.link_of_body: dict[int, str] = {}
        self.joints_of: dict[int, list[str]] = {}  # MuJoCo joint id -> robomodel joint names
        self.last_joint: dict[int, tuple[str, str]] = {}  # body -> (joint into it, previous link)
        # Every rotation at once: one vectorised conversion instead of one per element.
        self.body_R = rotations_from_quats(mm.body_quat)
        self.inertia_R = rotations_from_quats(mm.body_iquat)
        self.site_R = rotations_from_quats(mm.site_quat)
        self.geom_R = rotations_from_quats(mm.geom_quat)
        meta = self._metadata()
        self.meta: dict[str, Any] = meta

    def note(self, action: LossAction, kind: str, name: str, detail: str = "") -> None:
        self.losses.append(Loss(action=action, kind=kind, name=name, detail=detail))

    def name(self, obj: Any, i: int) -> str:
        return str(self.mj.mj_id2name(self.mm, obj, i) or "")

    def _metadata(self) -> dict[str, Any]:
        mm = self.mm
        for i in range(mm.ntext):
            if self.name(self.mj.mjtObj.mjOBJ_TEXT, i) == METADATA_NAME:
                adr, size = int(mm.text_adr[i]), int(mm.text_size[i])
                raw = bytes(mm.text_data[adr : adr + size]).split(b"\0")[0]
                try:
                    data = json.loads(raw.decode("utf-8"))
                except (ValueError, UnicodeDecodeError, RecursionError):
                    self.note("dropped", "metadata", METADATA_NAME, "not robomodel's JSON")
                    return {}
                if not isinstance(data, dict):
                    return {}
                # Keep only well-formed tables, so that a hand-edited document cannot crash
                # the reader (a bad entry simply loses what it would have restored).
                return {k: v for k, v in data.items() if k not in _TABLES or isinstance(v, dict)}
        return {}

    def run(self) -> tuple[Model, ConversionReport]:
        mm, mj = self.mm, self.mj
        # Normalise: which body is the base, and the link names of every body.
        roots = [b for b in range(1, mm.nbody) if mm.body_parentid[b] == 0]
        free = mj.mjtJoint.mjJNT_FREE
        floating = (
            len(roots) == 1
            and mm.body_jntnum[roots[0]] == 1
            and mm.jnt_type[mm.body_jntadr[roots[0]]] == free
        )
        # robomodel's exporter welds a fixed base with mass to the empty world: that body is
        # the base again, with no world link.
        welded_base = (
            len(roots) == 1
            and mm.body_jntnum[roots[0]] == 0
            and self.meta.get("base") == self.name(mj.mjtObj.mjOBJ_BODY, roots[0])
            and not any(mm.geom_bodyid == 0)
            and not any(mm.site_bodyid == 0)
        )
        taken: set[str] = set()
        for b in range(mm.nbody):
            base = self.name(mj.mjtObj.mjOBJ_BODY, b) or f"body{b}"
            if b == 0:
                world = self.meta.get("world")
                base = world if isinstance(world, str) and world else self.o.world_link
            renamed = self.meta.get("renamed_bodies", {})
            if isinstance(renamed, dict) and isinstance(renamed.get(base), str):
                base = renamed[base]
            name, k = base, 1
            while name in taken:
                k += 1
                name = f"{base}_{k}"
            if name != base and b != 0:
                self.note("renamed", "body", base, f"link {name!r}: the name is taken")
            taken.add(name)
            self.link_of_body[b] = name
        self.taken = taken

        # Links and joints, parents before children (MuJoCo numbers bodies depth-first).
        if welded_base:
            root = roots[0]
            self._link(root)
        elif floating:
            root = roots[0]
            jname = self.name(mj.mjtObj.mjOBJ_JOINT, int(mm.body_jntadr[root])) or "free joint"
            self.note(
                "note",
                "floating base",
                jname,
                f"the free joint of {self.link_of_body[root]!r} makes it the floating base "
                "(robomodel models have no joint to the world)",
            )
            self._link(root)
        else:
            self._link(0)
            self._world_notes()
        for b in range(1, mm.nbody):
            if (floating or welded_base) and b == root:
                continue
            self._body(b)

        # Elements that refer to links and joints.
        self._mimics()
        self._frames()
        self._sensors()
        if self.o.shapes:
            self._shapes(skip_world=floating)
        else:
            for g in range(self.mm.ngeom):
                label = self.name(self.mj.mjtObj.mjOBJ_GEOM, g) or f"geom{g}"
                self.note("dropped", "geom", label, "ImportOptions.shapes is False")
        self._unsupported()
        meta_name = self.meta.get("name")
        if isinstance(meta_name, str):
            self.model = attrs.evolve(self.model, name=meta_name)
        robot_materials = self.meta.get("robot_materials")
        if isinstance(robot_materials, list):
            mats = [material_from_json(x) for x in robot_materials]
            self.model = attrs.evolve(self.model, materials=[x for x in mats if x is not None])
        dirs = self.meta.get("package_dirs")
        if isinstance(dirs, list) and all(isinstance(d, str) for d in dirs):
            self.model = attrs.evolve(self.model, package_dirs=dirs)
        return self.model, ConversionReport(losses=tuple(self.losses))

    # ------------------------------------------------------------------ bodies
    def _link(self, b: int) -> None:
        mm = self.mm
        m = float(mm.body_mass[b])
        if m > 0.0:
            R = self.inertia_R[b]
            I_C = R @ np.diag(mm.body_inertia[b]) @ R.T
            inertia = SpatialInertia.from_com(m, mm.body_ipos[b], I_C)
        else:
            inertia = SpatialInertia.zero()
        self.model = add_link(self.model, self.link_of_body[b], Link(inertia))

    def _fresh(self, base: str) -> str:
        name, k = base, 1
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name

    def _world_notes(self) -> None:
        mj, mm = self.mj, self.mm
        for b in range(1, mm.nbody):
            if mm.body_parentid[b] != 0:
                continue
            for j in range(int(mm.body_jntadr[b]), int(mm.body_jntadr[b] + mm.body_jntnum[b])):
                if mm.jnt_type[j] == mj.mjtJoint.mjJNT_FREE:
                    self.note(
                        "changed",
                        "joint",
                        self.name(mj.mjtObj.mjOBJ_JOINT, j) or f"joint{j}",
                        f"free joint of {self.link_of_body[b]!r}: robomodel has no free joint "
                        "below the base, so the body is welded at its initial pose",
                    )

    def _body(self, b: int) -> None:
        mj, mm = self.mj, self.mm
        parent = self.link_of_body[int(mm.body_parentid[b])]
        child = self.link_of_body[b]
        P_H_B = Transform(self.body_R[b], mm.body_pos[b])
        # One robomodel joint per MuJoCo degree of freedom, in MuJoCo's order.
        steps: list[tuple[str, str, Axis, int, int]] = []  # (name, kind, axis in body, jid, k)
        for j in range(int(mm.body_jntadr[b]), int(mm.body_jntadr[b] + mm.body_jntnum[b])):
            jname = self.name(mj.mjtObj.mjOBJ_JOINT, j) or f"{child}_joint{j}"
            kind = int(mm.jnt_type[j])
            pos = mm.jnt_pos[j]
            if kind == mj.mjtJoint.mjJNT_HINGE:
                steps.append((jname, "revolute", Axis(mm.jnt_axis[j], pos), j, 0))
            elif kind == mj.mjtJoint.mjJNT_SLIDE:
                steps.append((jname, "prismatic", Axis(mm.jnt_axis[j], pos), j, 0))
            elif kind == mj.mjtJoint.mjJNT_BALL:
                self.note(
                    "approximated",
                    "joint",
                    jname,
                    "ball joint: three revolute joints about the body's x, y and z axes "
                    f"({jname}_x, {jname}_y, {jname}_z) with massless links between them; "
                    "MuJoCo's quaternion position has no three-angle equivalent at every pose",
                )
                for n, direction in enumerate(np.eye(3)):
                    steps.append(
                        (f"{jname}_{'xyz'[n]}", "revolute", Axis(direction, pos), j, n + 1)
                    )
            # Free joints below the base were reported by _world_notes and are welded.
        if not steps:
            self._link(b)
            given = self.meta.get("fixed_joints", {}).get(child)
            name = self._joint_name(given if isinstance(given, str) else f"{child}_weld")
            self.model = add_joint(
                self.model, name, FixedJoint(link1=parent, link2=child, link1_H_link2=P_H_B)
            )
            self.last_joint[b] = (name, parent)
            return
        # The links between the joints: the ones robomodel's exporter merged into this body come
        # back with their names and frames; others are new, with the body's frame at rest.
        between = merged_links(self.meta.get("merged", {}).get(child), len(steps) - 1, self.taken)
        prev, prev_H_B = parent, P_H_B
        for k, (jname, motion, axis, jid, sub) in enumerate(steps):
            if k == len(steps) - 1:
                self._link(b)
                nxt, B_H_next = child, Transform.identity()
            elif between is not None:
                nxt, B_H_next = between[k]
                self.taken.add(nxt)
                self.model = add_link(self.model, nxt, Link())
            else:
                nxt, B_H_next = self._fresh(f"{child}_{jname}"), Transform.identity()
                self.model = add_link(self.model, nxt, Link())
                self.note("added", "link", nxt, f"massless link between the joints of {child!r}")
            rest = prev_H_B @ B_H_next
            joint = self._joint(jname, motion, prev_H_B @ axis, jid, sub, prev, nxt, rest)
            name = self._joint_name(jname)
            self.model = add_joint(self.model, name, joint)
            self.joints_of.setdefault(jid, []).append(name)
            self.last_joint[b] = (name, prev)
            prev, prev_H_B = nxt, B_H_next.inverse()

    def _joint_name(self, base: str) -> str:
        name, k = base, 1
        while self.model.is_joint_name_used(name):
            k += 1
            name = f"{base}_{k}"
        return name

    def _joint(
        self,
        name: str,
        kind: str,
        axis: Axis,
        j: int,
        sub: int,
        link1: str,
        link2: str,
        rest: Transform,
    ) -> RevoluteJoint | PrismaticJoint:
        mm = self.mm
        dof = int(mm.jnt_dofadr[j]) + max(sub - 1, 0)
        ref = 0.0
        if sub == 0:
            ref = float(mm.qpos0[mm.jnt_qposadr[j]])
            if ref != 0.0:
                self.note(
                    "note",
                    "joint",
                    name,
                    f"MuJoCo's ref {ref!r}: robomodel's position is MuJoCo's qpos minus it",
                )
        limits = PositionLimits()
        if mm.jnt_limited[j] and sub == 0:
            lo, hi = (float(x) - ref for x in mm.jnt_range[j])
            limits = PositionLimits.between(lo, hi)
        elif mm.jnt_limited[j]:
            self.note("dropped", "limits", name, "a ball joint's cone limit")
        recorded = self.meta.get("limits", {}).get(name)
        if isinstance(recorded, list) and len(recorded) == 3 and sub == 0:
            with contextlib.suppress(TypeError, ValueError):
                limits = PositionLimits(
                    enabled=bool(recorded[0]), lower=float(recorded[1]), upper=float(recorded[2])
                )
        damping = float(mm.dof_damping[dof])
        friction = float(mm.dof_frictionloss[dof])
        zeros = self.meta.get("urdf_dynamics", {}).get(name) is True  # a <dynamics> of zeros
        dynamics = (
            JointDynamics(kind="urdf", damping=damping, static_friction=friction)
            if damping or friction or zeros
            else JointDynamics()
        )
        if mm.dof_armature[dof]:
            self.note("dropped", "armature", name, f"{float(mm.dof_armature[dof])!r}")
        if mm.jnt_stiffness[j]:
            self.note("dropped", "stiffness", name, f"{float(mm.jnt_stiffness[j])!r}")
        effort = math.inf
        if mm.jnt_actfrclimited[j]:
            lo, hi = (float(x) for x in mm.jnt_actfrcrange[j])
            effort = max(-lo, hi)
            if -lo != hi:
                self.note("approximated", "effort limit", name, f"[{lo}, {hi}] made symmetric")
        effort = _number(self.meta.get("effort_limits", {}).get(name), effort)
        velocity = _number(self.meta.get("velocity_limits", {}).get(name), math.inf)
        cls = RevoluteJoint if kind == "revolute" else PrismaticJoint
        return cls(
            link1=link1,
            link2=link2,
            link1_H_link2=rest,
            axis_in_link1=axis,
            limits=limits,
            dynamics=dynamics,
            effort_limit=effort,
            velocity_limit=velocity,
        )

    # ------------------------------------------------------------------ constraints
    def _mimics(self) -> None:
        mj, mm = self.mj, self.mm
        for e in range(mm.neq):
            ename = self.name(mj.mjtObj.mjOBJ_EQUALITY, e) or f"equality{e}"
            if mm.eq_type[e] != mj.mjtEq.mjEQ_JOINT:
                self.note("dropped", "equality", ename, "only joint equalities become mimic joints")
                continue
            j1, j2 = int(mm.eq_obj1id[e]), int(mm.eq_obj2id[e])
            coef = [float(x) for x in mm.eq_data[e][:5]]
            follower = self.joints_of.get(j1, [])
            leader = self.joints_of.get(j2, []) if j2 >= 0 else []
            if len(follower) != 1 or len(leader) != 1 or any(coef[2:]) or not mm.eq_active0[e]:
                why = (
                    "inactive"
                    if not mm.eq_active0[e]
                    else "not a polynomial of degree <= 1 between two hinge/slide joints"
                )
                self.note("dropped", "equality", ename, why)
                continue
            # MuJoCo's constraint is qpos1 - qpos0_1 = a0 + a1 (qpos2 - qpos0_2), with qpos0 the
            # joints' refs; robomodel positions are qpos minus ref, so the refs cancel.
            offset = coef[0]
            k = self.model.joint_index(follower[0])
            joint = self.model.joints[k]
            assert isinstance(joint, RevoluteJoint | PrismaticJoint)
            new = attrs.evolve(
                joint, mimic=Mimic(joint=leader[0], multiplier=coef[1], offset=offset)
            )
            self.model = attrs.evolve(self.model, joints=self.model.joints.set(k, new))

    # ------------------------------------------------------------------ frames and sensors
    def _sitepose(self, s: int) -> tuple[str, Transform]:
        mm = self.mm
        return self.link_of_body[int(mm.site_bodyid[s])], Transform(self.site_R[s], mm.site_pos[s])

    def _frames(self) -> None:
        mj, mm = self.mj, self.mm
        # Sites robomodel's exporter made only to carry sensors are not frames.
        listed = self.meta.get("sensor_sites", ())
        sensor_sites = (
            {x for x in listed if isinstance(x, str)} if isinstance(listed, list) else set()
        )
        # Sites marking links that had no body of their own (merged links, the world link):
        # the metadata brought the links back, so the sites are not frames. Without the
        # metadata (another tool's MJCF, or the entry removed) they are frames of that name.
        marks = self.meta.get("link_sites", ())
        link_sites = {x for x in marks if isinstance(x, str)} if isinstance(marks, list) else set()
        for s in range(mm.nsite):
            sname = self.name(mj.mjtObj.mjOBJ_SITE, s)
            if sname in sensor_sites:
                continue
            if sname in link_sites and self.model.is_link_name_used(sname):
                continue
            link, T = self._sitepose(s)
            if link not in self.model.link_names:
                self.note("dropped", "site", self.name(mj.mjtObj.mjOBJ_SITE, s), "in the world")
                continue
            base = self.name(mj.mjtObj.mjOBJ_SITE, s) or f"{link}_site{s}"
            name = self._fresh(base)
            if name != base:
                self.note("renamed", "site", base, f"frame {name!r}: the name is taken")
            self.model = add_frame(self.model, link, name, T)

    def _sensors(self) -> None:
        mj, mm = self.mj, self.mm
        st = mj.mjtSensor
        force_torque: dict[int, dict[str, str]] = {}
        for k in range(mm.nsensor):
            name = self.name(mj.mjtObj.mjOBJ_SENSOR, k) or f"sensor{k}"
            kind = int(mm.sensor_type[k])
            obj = int(mm.sensor_objid[k])
            if kind in (st.mjSENS_FORCE, st.mjSENS_TORQUE):
                part = "force" if kind == st.mjSENS_FORCE else "torque"
                force_torque.setdefault(obj, {})[part] = name
                continue
            if kind not in (st.mjSENS_ACCELEROMETER, st.mjSENS_GYRO):
                self.note("dropped", "sensor", name, f"MuJoCo sensor type {st(kind).name}")
                continue
            link, T = self._sitepose(obj)
            if link not in self.model.link_names:
                self.note("dropped", "sensor", name, "on a site of the world")
                continue
            cls = Accelerometer if kind == st.mjSENS_ACCELEROMETER else Gyroscope
            self.model = add_sensor(self.model, cls(name=name, link=link, link_H_sensor=T))
        for site, parts in force_torque.items():
            self._force_torque(site, parts)

    def _force_torque(self, site: int, parts: dict[str, str]) -> None:
        mm = self.mm
        f, t = parts.get("force"), parts.get("torque")
        if f and t and f.endswith("_force") and t.endswith("_torque") and f[:-6] == t[:-7]:
            name = f[:-6]
        else:
            name = f or t or "force_torque"
            if not (f and t):
                self.note(
                    "note", "sensor", name, "only one of force/torque: robomodel predicts both"
                )
        body = int(mm.site_bodyid[site])
        if body not in self.last_joint:
            self.note("dropped", "sensor", name, "a force/torque sensor on the world")
            return
        jname, prev = self.last_joint[body]
        child = self.link_of_body[body]
        _, B_H_S = self._sitepose(site)
        joint = self.model.joint(jname)
        meta = self.meta.get("force_torque", {}).get(name)
        meta = meta if isinstance(meta, dict) else {}
        first, second, applied = prev, child, child
        if {meta.get("first"), meta.get("second")} == {prev, child} and meta.get("applied") in (
            prev,
            child,
        ):
            first, second, applied = meta["first"], meta["second"], meta["applied"]

        def link_H_sensor(link: str) -> Transform:
            return B_H_S if link == child else joint.rest_transform(link, child) @ B_H_S

        sensor = SixAxisForceTorqueSensor(
            name=name,
            parent_joint=jname,
            first_link=first,
            second_link=second,
            first_link_H_sensor=link_H_sensor(first),
            second_link_H_sensor=link_H_sensor(second),
            applied_wrench_link=applied,
        )
        self.model = add_sensor(self.model, sensor)

    # ------------------------------------------------------------------ shapes
    # ------------------------------------------------------------------ the rest
    def _unsupported(self) -> None:
        mm = self.mm
        kept = keep(self.text) if self.o.keep_sections else []
        if kept:
            self.model = attrs.evolve(self.model, extensions=[*self.model.extensions, *kept])
            for ext in kept:
                self.note(
                    "note",
                    "kept",
                    ext.tag,
                    "kept verbatim as a robot extension; robomodel.formats.mjcf.dumps_with_report "
                    "writes it back",
                )
        kept_tags = {ext.tag[len(PREFIX) :] for ext in kept}
        for b in range(1, mm.nbody):
            link = self.link_of_body[b]
            if mm.body_mocapid[b] >= 0:
                self.note("changed", "body", link, "a mocap body: welded at its initial pose")
            if mm.body_gravcomp[b]:
                self.note("dropped", "gravity compensation", link, f"{mm.body_gravcomp[b]!r}")
        for what, section, count in (
            ("actuator", "actuator", mm.nu),
            ("tendon", "tendon", mm.ntendon),
            ("contact pair", "contact", mm.npair),
            ("contact exclusion", "contact", mm.nexclude),
            ("keyframe", "keyframe", mm.nkey),
            ("camera", "camera", mm.ncam),
            ("light", "light", mm.nlight),
        ):
            if count and section not in kept_tags:
                self.note("dropped", what, f"{count} element(s)", "no robomodel equivalent")


__getattr__ = renamed_attributes(
    __name__, {"parse": ("robomodel.formats.mjcf.loads_with_report", lambda: loads_with_report)}
)
