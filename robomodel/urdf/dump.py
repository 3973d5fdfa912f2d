"""The URDF exporter: ``dumps(model)`` returns URDF text, ``dump(model, path)`` writes a file.

The layout is iDynTree's ``ModelExporter`` (spec §6): ``<?xml version="1.0"?>``, 2-space
indentation, the optional fake root frame first, then for each link of the traversal from the
base its parent joint and the link, then every other additional frame as a massless link on a
fixed joint ``<frame>_fixed_joint``. robomodel then writes what iDynTree cannot: the sensors in
the dialect the loader reads, effort/velocity limits, mimic relations, robot-level materials and
every element kept verbatim by the loader. Numbers use :func:`robomodel.urdf.numbers.format_float`.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections.abc import Callable
from typing import Any

from lxml import etree

from robomodel.errors import RobomodelWarning, suggest
from robomodel.joints import FixedJoint, Joint, Mimic, PrismaticJoint, RevoluteJoint
from robomodel.model import Extension, Model
from robomodel.sensors import Accelerometer, Gyroscope, SixAxisForceTorqueSensor
from robomodel.shapes import Box, Cylinder, Material, Mesh, SolidShape, Sphere
from robomodel.spatial import SpatialInertia, Transform
from robomodel.urdf.errors import URDFExportError
from robomodel.urdf.numbers import format3, format_float
from robomodel.urdf.options import DEFAULT_ROBOT_NAME, ExportOptions

__all__ = ["dump", "dumps"]

_DEFAULT_OPTIONS = ExportOptions()
_AXIS_TOLERANCE = 1e-7  # iDynTree's: a URDF axis must pass through the child origin
_BIG = "1e+9"  # iDynTree's stand-in for an unknown limit (issue #955)
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def dump(
    model: Model, path: str | os.PathLike[str], *, options: ExportOptions = _DEFAULT_OPTIONS
) -> None:
    """Write ``model`` as a URDF file at ``path`` (UTF-8); see :func:`dumps`."""
    text = dumps(model, options=options)
    with open(os.fspath(path), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def dumps(model: Model, *, options: ExportOptions = _DEFAULT_OPTIONS) -> str:
    """Return ``model`` as URDF text.

    Raises:
        URDFExportError: the base is not a link, some links are not reachable from the base, a
            moving joint's axis does not pass through its child's origin (URDF cannot express
            it), a number is not finite, a generated name clashes with an existing joint, an
            F/T sensor's two transforms disagree with its joint, or an XML blob is not XML.

    >>> from robomodel.urdf import loads
    >>> m = loads('<robot name="r"><link name="a"/></robot>')
    >>> print(dumps(m), end="")
    <?xml version="1.0"?>
    <robot name="r">
      <link name="a">
        <inertial>
          <mass value="0"/>
          <origin xyz="0 0 0" rpy="0 -0 0"/>
          <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/>
        </inertial>
      </link>
    </robot>
    """
    return _Writer(model, options).run()


def _fmt3(v: Any) -> str:
    return format3(float(v[0]), float(v[1]), float(v[2]))


_QUOTED: dict[str, str] = {}


def _q(s: str) -> str:
    q = _QUOTED.get(s)
    if q is not None:
        return q
    q = _quote(s)
    if len(_QUOTED) < 65536:
        _QUOTED[s] = q
    return q


def _quote(s: str) -> str:
    if _BAD_CHARS.search(s):
        raise ValueError(f"the name {s!r} holds control characters, which XML cannot carry")
    if "&" in s or "<" in s or ">" in s or '"' in s:
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return '"' + s + '"'


def _origin(T: Transform, invert: bool = False) -> str:
    src = getattr(T, "urdf_origin", None)
    if src is not None and src[2] == invert:
        xyz, rpy = src[0], src[1]
    else:
        U = T.inverse() if invert else T
        xyz, rpy = U.position, U.rpy()
        if rpy[1] == 0.0:
            # iDynTree's rotation products leave R20 == +0.0 for a zero pitch, so it writes
            # "-0"; robomodel's R20 may be -0.0. Write iDynTree's text (the same number).
            rpy = (rpy[0], -0.0, rpy[2])
    return f'<origin xyz="{_fmt3(xyz)}" rpy="{_fmt3(rpy)}"/>'


class _Writer:
    def __init__(self, model: Model, options: ExportOptions) -> None:
        self.m = model
        self.o = options
        self.out: list[str] = []
        self.ext: dict[tuple[str, str], list[Extension]] = {}
        self.frame_joint: dict[str, str] = {}
        for e in model.extensions:
            if e.owner_kind == "frame" and e.tag == "joint":
                name = etree.fromstring(e.xml).get("name")
                if name:
                    self.frame_joint[e.owner] = name
            else:
                self.ext.setdefault((e.owner_kind, e.owner), []).append(e)
        self.used_ext: set[tuple[str, str]] = set()
        self.materials = {mat.name: mat for mat in model.materials}

    def fail(self, element: str, reason: str) -> URDFExportError:
        return URDFExportError(reason, file="<export>", element=element)

    # ------------------------------------------------------------------ top level
    def run(self) -> str:
        m, o, out = self.m, self.o, self.out
        if not m.links:
            raise self.fail("robot", "the model has no links; add one before exporting")
        base = o.base_link if o.base_link is not None else m.default_base
        assert base is not None
        if not m.is_link_name_used(base):
            hint = (
                " (it is an additional frame; give the link it is attached to)"
                if m.is_frame_name_used(base)
                else suggest(base, m.link_names)
            )
            raise self.fail("robot", f"the base {base!r} is not a link of the model{hint}")
        t = m.traversal(base)
        if len(t) != m.n_links:
            missing = [n for i, n in enumerate(m.link_names) if not t.contains(i)]
            raise self.fail(
                "robot",
                f"links not reachable from the base {base!r}: "
                f"{', '.join(repr(x) for x in missing[:8])}; a URDF is one tree, connect them "
                "or remove them (e.g. with a sub-model) before exporting",
            )
        name = o.robot_name if o.robot_name is not None else (m.name or DEFAULT_ROBOT_NAME)
        out.append('<?xml version="1.0"?>')
        out.append(f"<robot name={self._name(name, 'robot')}>")
        for mat in m.materials:
            self._guard(f"material {mat.name!r}", self._material, mat, "  ", True)

        n = m.n_links
        root_frame = -1
        if o.export_first_base_link_frame_as_fake_urdf_base:
            base_frames = m.link_additional_frames(base)
            if base_frames:
                root_frame = base_frames[0] - n
        joint_names = set(m.joint_names)
        written_joints: set[str] = set()

        def frame_joint(fname: str) -> str:
            jn = self.frame_joint.get(fname, fname + "_fixed_joint")
            if jn in joint_names or jn in written_joints:
                raise self.fail(
                    f"frame {fname!r}",
                    f"the generated joint name {jn!r} is already used by another joint; "
                    "rename the frame or the joint",
                )
            written_joints.add(jn)
            return jn

        if root_frame >= 0:
            fr = m.frames[root_frame]
            jn = frame_joint(fr.name)
            self._guard(
                f"frame {fr.name!r}", self._frame, fr.name, jn, fr.link_H_frame, fr.name, base, True
            )

        names = m.link_names
        for k in range(len(t)):
            li = t.links[k]
            j = t.joints[k]
            if j is not None:
                p = t.parents[k]
                assert p is not None
                jname = m.joint_names[j]
                self._guard(
                    f"joint {jname!r}", self._joint, jname, m.joints[j], names[p], names[li]
                )
            self._guard(f"link {names[li]!r}", self._link, li)

        for k, fr in enumerate(m.frames):
            if k == root_frame:
                continue
            jn = frame_joint(fr.name)
            self._guard(
                f"frame {fr.name!r}",
                self._frame,
                fr.name,
                jn,
                fr.link_H_frame,
                fr.link,
                fr.name,
                False,
            )

        for s in m.sensors:
            self._guard(f"sensor {s.name!r}", self._sensor, s)

        if o.write_extensions:
            for e in self.ext.get(("robot", ""), ()):
                out.append("  " + e.xml)
            self.used_ext.add(("robot", ""))
            stale = [
                f"{e.owner_kind} {e.owner!r}: <{e.tag}>"
                for key, exts in self.ext.items()
                if key not in self.used_ext
                for e in exts
            ]
            if stale:
                warnings.warn(
                    f"{len(stale)} kept extension element(s) belong to elements the model no "
                    f"longer has and were not written: {'; '.join(stale[:5])}",
                    RobomodelWarning,
                    stacklevel=3,
                )
        for blob in o.xml_blobs:
            out.append("  " + self._blob(blob))
        out.append("</robot>")
        return "\n".join(out) + "\n"

    def _guard(self, element: str, fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except URDFExportError:
            raise
        except ValueError as e:
            raise self.fail(element, str(e)) from None

    def _name(self, s: str, element: str) -> str:
        try:
            return _q(s)
        except ValueError as e:
            raise self.fail(element, str(e)) from None

    def _extensions(self, kind: str, owner: str, indent: str, skip: str = "") -> None:
        if not self.o.write_extensions:
            return
        key = (kind, owner)
        exts = self.ext.get(key)
        self.used_ext.add(key)
        if exts:
            for e in exts:
                if e.tag != skip:
                    self.out.append(indent + e.xml)

    # ------------------------------------------------------------------ joints and frames
    def _frame(
        self, fname: str, jname: str, link_H_frame: Transform, parent: str, child: str, root: bool
    ) -> None:
        out = self.out
        self._bare_link(fname)
        out.append(
            f'  <joint name={_q(jname)} type="fixed">\n    {_origin(link_H_frame, invert=root)}'
            f"\n    <parent link={_q(parent)}/>\n    <child link={_q(child)}/>"
        )
        self._extensions("joint", jname, "    ")
        out.append("  </joint>")

    def _bare_link(self, fname: str) -> None:
        exts = self.ext.get(("link", fname)) if self.o.write_extensions else None
        kept = self.ext.get(("inertial", fname)) if self.o.write_extensions else None
        if exts or kept:
            self.out.append(f"  <link name={_q(fname)}>")
            if kept:  # a massless <inertial> (the link stays a frame) holding them
                self.out.append('    <inertial>\n      <mass value="0"/>')
                self._extensions("inertial", fname, "      ")
                self.out.append("    </inertial>")
            self._extensions("link", fname, "    ")
            self.out.append("  </link>")
        else:
            self.used_ext.add(("link", fname))
            self.out.append(f"  <link name={_q(fname)}/>")

    def _joint(self, jname: str, j: Joint, parent: str, child: str) -> None:
        out = self.out
        invert = parent != j.link1
        if isinstance(j, FixedJoint):
            out.append(f'  <joint name={_q(jname)} type="fixed">')
            out.append("    " + _origin(j.link1_H_link2, invert))
            out.append(f"    <parent link={_q(parent)}/>")
            out.append(f"    <child link={_q(child)}/>")
            self._extensions("joint", jname, "    ")
            out.append("  </joint>")
            return
        lim = j.limits
        if isinstance(j, RevoluteJoint):
            kind = "revolute" if lim.enabled else "continuous"
        else:
            kind = "prismatic"
        out.append(f"  <joint name={_q(jname)} type={_q(kind)}>")
        out.append("    " + _origin(j.link1_H_link2, invert))
        out.append(f'    <axis xyz="{self._axis(jname, j, child)}"/>')
        out.append(f"    <parent link={_q(parent)}/>")
        out.append(f"    <child link={_q(child)}/>")
        effort = _big(j.effort_limit)
        velocity = _big(j.velocity_limit)
        if lim.enabled:
            if not (math.isfinite(lim.lower) and math.isfinite(lim.upper)):
                raise URDFExportError(
                    f"enabled limits must be finite to be written, got [{lim.lower}, "
                    f"{lim.upper}]; disable them or give finite bounds",
                    file="<export>",
                    element=f"joint {jname!r}",
                )
            out.append(
                f'    <limit lower="{format_float(lim.lower)}" upper="{format_float(lim.upper)}" '
                f'effort="{effort}" velocity="{velocity}"/>'
            )
        elif isinstance(j, PrismaticJoint):
            # iDynTree always writes prismatic limits (PR #1232); +-1e9 stands for "none".
            out.append(
                f'    <limit lower="-{_BIG}" upper="{_BIG}" effort="{effort}" '
                f'velocity="{velocity}"/>'
            )
        else:
            parts = [
                f'{a}="{format_float(v)}"'
                for a, v in (("lower", lim.lower), ("upper", lim.upper))
                if math.isfinite(v)
            ]
            if parts or math.isfinite(j.effort_limit) or math.isfinite(j.velocity_limit):
                # URDF parsers (urdfdom, hence Pinocchio) reject a <limit> without effort and
                # velocity, so the 1e+9 stand-in fills whichever is unknown.
                parts += [f'effort="{effort}"', f'velocity="{velocity}"']
                out.append(f"    <limit {' '.join(parts)}/>")
        if j.dynamics.kind == "urdf":
            out.append(
                f'    <dynamics damping="{format_float(j.dynamics.damping)}" '
                f'friction="{format_float(j.dynamics.static_friction)}"/>'
            )
        skip = ""
        if j.mimic is not None:
            out.append("    " + self._mimic(jname, j.mimic))
            skip = "mimic"
        self._extensions("joint", jname, "    ", skip=skip)
        out.append("  </joint>")

    def _axis(self, jname: str, j: RevoluteJoint | PrismaticJoint, child: str) -> str:
        a = j.axis_in_link1
        src = getattr(a, "urdf_axis", None)
        if src is not None and child == j.link2 and src[1] is j.link1_H_link2:
            return _fmt3(src[0])
        axis = j.axis(child)
        if axis.distance((0.0, 0.0, 0.0)) > _AXIS_TOLERANCE:
            raise self.fail(
                f"joint {jname!r}",
                f"the motion axis does not pass through the origin of the child link {child!r} "
                f"(distance {axis.distance((0.0, 0.0, 0.0)):.3g}); URDF cannot express it, move "
                "the child link frame onto the axis first",
            )
        return _fmt3(axis.direction)

    def _mimic(self, jname: str, mimic: Mimic) -> str:
        for e in self.ext.get(("joint", jname), ()):
            if e.tag == "mimic":
                el = etree.fromstring(e.xml)
                try:
                    kept = Mimic(
                        joint=el.get("joint", ""),
                        multiplier=float(el.get("multiplier", "1")),
                        offset=float(el.get("offset", "0")),
                    )
                except ValueError:
                    break
                if kept == mimic:
                    return e.xml
                break
        return (
            f'<mimic joint={_q(mimic.joint)} multiplier="{format_float(mimic.multiplier)}" '
            f'offset="{format_float(mimic.offset)}"/>'
        )

    # ------------------------------------------------------------------ links
    def _link(self, li: int) -> None:
        m, out = self.m, self.out
        name = m.link_names[li]
        out.append(f"  <link name={_q(name)}>")
        self._inertial(name, m.links[li].inertia)
        for s in m.visuals[li]:
            self._shape("visual", s)
        for s in m.collisions[li]:
            self._shape("collision", s)
        self._extensions("link", name, "    ")
        out.append("  </link>")

    def _inertial(self, name: str, inertia: SpatialInertia) -> None:
        out = self.out
        src = getattr(inertia, "urdf_inertial", None)
        out.append("    <inertial>")
        if src is not None:
            mass, xyz, rpy, six = src
        else:
            mass = inertia.mass
            xyz = inertia.com
            rpy = (0.0, -0.0, 0.0)  # iDynTree writes the central inertia in link axes
            I_C = inertia.inertia_com
            six = (I_C[0, 0], I_C[0, 1], I_C[0, 2], I_C[1, 1], I_C[1, 2], I_C[2, 2])
        out.append(f'      <mass value="{format_float(float(mass))}"/>')
        out.append(f'      <origin xyz="{_fmt3(xyz)}" rpy="{_fmt3(rpy)}"/>')
        f = [format_float(float(v)) for v in six]
        out.append(
            f'      <inertia ixx="{f[0]}" ixy="{f[1]}" ixz="{f[2]}" iyy="{f[3]}" iyz="{f[4]}" '
            f'izz="{f[5]}"/>'
        )
        self._extensions("inertial", name, "      ")
        out.append("    </inertial>")

    def _shape(self, tag: str, s: SolidShape) -> None:
        out = self.out
        out.append(f"    <{tag} name={_q(s.name)}>" if s.name else f"    <{tag}>")
        out.append("      " + _origin(s.link_H_geometry))
        out.append("      <geometry>")
        g = s.geometry
        match g:
            case Box():
                out.append(f'        <box size="{_fmt3((g.x, g.y, g.z))}"/>')
            case Cylinder():
                out.append(
                    f'        <cylinder radius="{format_float(g.radius)}" '
                    f'length="{format_float(g.length)}"/>'
                )
            case Sphere():
                out.append(f'        <sphere radius="{format_float(g.radius)}"/>')
            case Mesh():
                out.append(f'        <mesh filename={_q(g.filename)} scale="{_fmt3(g.scale)}"/>')
        out.append("      </geometry>")
        if s.material is not None:
            self._material(s.material, "      ", False)
        if self.o.write_extensions:
            out += ["      " + x for x in s.extensions]
        out.append(f"    </{tag}>")

    def _material(self, mat: Material, indent: str, top: bool) -> None:
        out = self.out
        if not top and mat.name and self.materials.get(mat.name) == mat:
            out.append(f"{indent}<material name={_q(mat.name)}/>")
            return
        kept = mat.extensions if self.o.write_extensions else ()
        if mat.rgba is None and mat.texture is None and not kept:
            out.append(f"{indent}<material name={_q(mat.name)}/>")
            return
        out.append(f"{indent}<material name={_q(mat.name)}>")
        if mat.rgba is not None:
            out.append(f'{indent}  <color rgba="{" ".join(format_float(v) for v in mat.rgba)}"/>')
        if mat.texture is not None:
            out.append(f"{indent}  <texture filename={_q(mat.texture)}/>")
        out += [f"{indent}  {x}" for x in kept]
        out.append(f"{indent}</material>")

    # ------------------------------------------------------------------ sensors
    def _sensor(self, s: SixAxisForceTorqueSensor | Accelerometer | Gyroscope) -> None:
        out = self.out
        m = self.m
        if isinstance(s, SixAxisForceTorqueSensor):
            j = m.joint(s.parent_joint)
            p_i, c_i = m.joint_parent_child(s.parent_joint, m.traversal(self._base()))
            parent, child = m.link_names[p_i], m.link_names[c_i]
            P = j.rest_transform(parent, child)
            parent_H = s.first_link_H_sensor if parent == s.first_link else s.second_link_H_sensor
            child_H = s.first_link_H_sensor if child == s.first_link else s.second_link_H_sensor
            if child_H == Transform.identity() and parent_H == P:
                frame = "child"
            elif parent_H == Transform.identity() and child_H == P.inverse():
                frame = "parent"
            else:
                frame = "sensor"
                if not _close(parent_H, P @ child_H):
                    raise self.fail(
                        f"sensor {s.name!r}",
                        f"the sensor poses in {parent!r} and {child!r} disagree with the rest "
                        f"transform of joint {s.parent_joint!r}; the URDF dialect stores one "
                        "pose, fix the sensor",
                    )
            direction = "parent_to_child" if s.applied_wrench_link == child else "child_to_parent"
            out.append(f'  <sensor name={_q(s.name)} type="force_torque">')
            out.append(f"    <parent joint={_q(s.parent_joint)}/>")
            out.append("    <force_torque>")
            out.append(f"      <frame>{frame}</frame>")
            out.append(f"      <measure_direction>{direction}</measure_direction>")
            self._extensions("force_torque", s.name, "      ")
            out.append("    </force_torque>")
            if frame == "sensor":
                out.append("    " + _origin(child_H))
        else:
            kind = "accelerometer" if isinstance(s, Accelerometer) else "gyroscope"
            out.append(f"  <sensor name={_q(s.name)} type={_q(kind)}>")
            out.append(f"    <parent link={_q(s.link)}/>")
            out.append("    " + _origin(s.link_H_sensor))
        self._extensions("sensor", s.name, "    ")
        out.append("  </sensor>")

    def _base(self) -> str:
        base = self.o.base_link if self.o.base_link is not None else self.m.default_base
        assert base is not None
        return base

    def _blob(self, blob: str) -> str:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
        try:
            el = etree.fromstring(blob.encode("utf-8"), parser)
        except etree.XMLSyntaxError as e:
            raise self.fail("xml blob", f"not well-formed XML ({e}); fix the blob") from None
        return str(etree.tostring(el, encoding="unicode", with_tail=False))


def _big(v: float) -> str:
    return format_float(v) if math.isfinite(v) else _BIG


def _close(a: Transform, b: Transform) -> bool:
    scale = 1.0 + float(abs(a.position).max())
    return bool(
        abs(a.rotation - b.rotation).max() <= 1e-9
        and abs(a.position - b.position).max() <= 1e-9 * scale
    )
