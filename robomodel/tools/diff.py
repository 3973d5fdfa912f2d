"""A readable, structured difference between two models.

:func:`diff` matches elements by name (links, joints, additional frames, sensors) and reports
what only one model has and what differs, with numbers. Numbers are compared with an absolute
tolerance; joints are compared by what they do, not by how they are stored, so a joint written
from the other end (``link1``/``link2`` swapped, rest transform inverted, axis re-expressed) is
the same joint.

>>> import robomodel as rm
>>> a = rm.add_link(rm.Model(), "base", rm.Link(rm.SpatialInertia.from_com(1.0, (0, 0, 0))))
>>> b = rm.with_link(a, "base", rm.Link(rm.SpatialInertia.from_com(1.5, (0, 0, 0))))
>>> d = diff(a, b)
>>> bool(d), bool(diff(a, a))
(True, False)
>>> print(d)
1 difference (atol=0):
  ~ link 'base' mass: 1 -> 1.5 (|delta| 0.5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import numpy as np

from robomodel.model.joints import FixedJoint, Joint, joint_type_name
from robomodel.model.record import Model
from robomodel.model.sensors import Accelerometer, Gyroscope, Sensor, SixAxisForceTorqueSensor
from robomodel.model.shapes import Box, Cylinder, Mesh, SolidShape, Sphere
from robomodel.model.spatial import Axis, SpatialInertia, Transform

__all__ = ["Difference", "ModelDiff", "diff"]


@attrs.frozen
class Difference:
    """One difference between two models.

    Attributes:
        change: ``"added"`` (only in b), ``"removed"`` (only in a) or ``"changed"``.
        kind: ``"link"``, ``"joint"``, ``"frame"``, ``"sensor"``, ``"visual"``, ``"collision"``,
            ``"model"``, ...
        name: the element's name.
        field: what differs (``"mass"``, ``"rest transform"``, ...); ``""`` for added/removed.
        a: the value in a (readable text), or ``""``.
        b: the value in b, or ``""``.
        delta: the largest absolute numeric difference, or ``None`` for non-numeric fields.
    """

    change: str
    kind: str
    name: str
    field: str = ""
    a: str = ""
    b: str = ""
    delta: float | None = None

    def __str__(self) -> str:
        if self.change == "added":
            return f"+ {self.kind} {self.name!r} only in b"
        if self.change == "removed":
            return f"- {self.kind} {self.name!r} only in a"
        text = f"~ {self.kind} {self.name!r} {self.field}"
        if self.a or self.b:
            text += f": {self.a} -> {self.b}"
        if self.delta is not None:
            text += f" (|delta| {self.delta:.3g})"
        return text


@attrs.frozen
class ModelDiff:
    """All differences between model ``a`` and model ``b``.

    ``bool(d)`` is false when the models agree within ``atol``; ``str(d)`` lists one difference
    per line (``-`` only in a, ``+`` only in b, ``~`` changed).

    Attributes:
        differences: every :class:`Difference`, grouped by kind.
        atol: the absolute tolerance used for numbers.
    """

    differences: tuple[Difference, ...]
    atol: float

    def __bool__(self) -> bool:
        return bool(self.differences)

    def __len__(self) -> int:
        return len(self.differences)

    @property
    def added(self) -> tuple[Difference, ...]:
        """Elements only in b."""
        return tuple(d for d in self.differences if d.change == "added")

    @property
    def removed(self) -> tuple[Difference, ...]:
        """Elements only in a."""
        return tuple(d for d in self.differences if d.change == "removed")

    @property
    def changed(self) -> tuple[Difference, ...]:
        """Elements in both that differ."""
        return tuple(d for d in self.differences if d.change == "changed")

    def __str__(self) -> str:
        n = len(self.differences)
        if not n:
            return f"the models are equal (atol={self.atol:g})"
        head = f"{n} difference{'' if n == 1 else 's'} (atol={self.atol:g}):"
        return "\n".join([head] + [f"  {d}" for d in self.differences])


def diff(a: Model, b: Model, *, atol: float = 0.0, order: bool = True) -> ModelDiff:
    """Return the differences between models ``a`` and ``b``.

    Links, joints, additional frames and sensors are matched by name. For each, the numbers
    (inertias, transforms, axes, limits, ...) are compared with the absolute tolerance ``atol``
    (``0`` means exact); the rest (types, link names, ...) exactly. Joints are compared by their
    effect: rest transform and motion axis as seen from the same ends. Shapes are compared per
    link, in list order. The default base, robot name, package dirs, materials and extensions
    are compared too.

    Args:
        a: the first model.
        b: the second model.
        atol: the absolute tolerance for numbers.
        order: also report different link, joint, frame or sensor orders (which change indices).

    Returns:
        A :class:`ModelDiff`; false when the models agree.
    """
    out: list[Difference] = []
    c = _Cmp(out, atol)
    _model_level(c, a, b)
    # Links and frames.
    _matched(c, "link", list(a.link_names), list(b.link_names), order)
    for name in [n for n in a.link_names if b.is_link_name_used(n)]:
        c.inertia("link", name, a.link(name).inertia, b.link(name).inertia)
        for kind, sa, sb in (
            ("visual", a.visual_shapes(name), b.visual_shapes(name)),
            ("collision", a.collision_shapes(name), b.collision_shapes(name)),
        ):
            _shapes(c, kind, name, sa, sb)
    fa, fb = {f.name: f for f in a.frames}, {f.name: f for f in b.frames}
    _matched(c, "frame", list(fa), list(fb), order)
    for name in [n for n in fa if n in fb]:
        c.text("frame", name, "link", fa[name].link, fb[name].link)
        c.transform("frame", name, "link_H_frame", fa[name].link_H_frame, fb[name].link_H_frame)
    # Joints.
    _matched(c, "joint", list(a.joint_names), list(b.joint_names), order)
    for name in [n for n in a.joint_names if b.is_joint_name_used(n)]:
        _joint(c, name, a.joint(name), b.joint(name))
    # Sensors.
    sens_a = {s.name: s for s in a.sensors}
    sens_b = {s.name: s for s in b.sensors}
    _matched(c, "sensor", list(sens_a), list(sens_b), order)
    for name in [n for n in sens_a if n in sens_b]:
        _sensor(c, name, sens_a[name], sens_b[name])
    return ModelDiff(tuple(out), float(atol))


class _Cmp:
    def __init__(self, out: list[Difference], atol: float) -> None:
        self.out = out
        self.atol = float(atol)

    def add(self, *args: Any, **kw: Any) -> None:
        self.out.append(Difference(*args, **kw))

    def text(self, kind: str, name: str, field: str, a: object, b: object) -> None:
        if a != b:
            self.add("changed", kind, name, field, repr(a), repr(b))

    def number(self, kind: str, name: str, field: str, a: float, b: float) -> None:
        if a == b:
            return
        d = abs(a - b) if np.isfinite(a) and np.isfinite(b) else float("inf")
        if not d <= self.atol:
            self.add("changed", kind, name, field, f"{a:.6g}", f"{b:.6g}", d)

    def array(self, kind: str, name: str, field: str, a: Any, b: Any) -> None:
        x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        if x.shape != y.shape:
            self.add("changed", kind, name, field, f"shape {x.shape}", f"shape {y.shape}")
            return
        if np.array_equal(x, y):
            return
        d = float(np.max(np.abs(x - y))) if x.size else 0.0
        if not d <= self.atol:
            self.add("changed", kind, name, field, _short(x), _short(y), d)

    def transform(self, kind: str, name: str, field: str, a: Transform, b: Transform) -> None:
        self.array(kind, name, f"{field} rotation", a.rotation, b.rotation)
        self.array(kind, name, f"{field} position", a.position, b.position)

    def inertia(self, kind: str, name: str, a: SpatialInertia, b: SpatialInertia) -> None:
        self.number(kind, name, "mass", a.mass, b.mass)
        self.array(kind, name, "first moment (mass * com)", a.first_moment, b.first_moment)
        self.array(kind, name, "inertia about origin", a.rotational_inertia, b.rotational_inertia)


def _short(x: Any) -> str:
    arr = np.asarray(x, dtype=float)
    if arr.size == 1:
        return f"{float(arr.reshape(-1)[0]):.6g}"
    return "[" + ", ".join(f"{float(v) + 0.0:.6g}" for v in arr.reshape(-1)) + "]"


def _matched(c: _Cmp, kind: str, a: Sequence[str], b: Sequence[str], order: bool) -> None:
    sb, sa = set(b), set(a)
    for n in a:
        if n not in sb:
            c.add("removed", kind, n)
    for n in b:
        if n not in sa:
            c.add("added", kind, n)
    if order:
        common_a = [n for n in a if n in sb]
        common_b = [n for n in b if n in sa]
        if common_a != common_b:
            moved = [n for n, m in zip(common_a, common_b, strict=True) if n != m]
            c.add(
                "changed",
                kind,
                "*",
                f"order ({len(moved)} of {len(common_a)} elements at other positions)",
                _names(common_a),
                _names(common_b),
            )


def _names(names: Iterable[str], limit: int = 8) -> str:
    ns = list(names)
    text = ", ".join(ns[:limit])
    return f"[{text}{', ...' if len(ns) > limit else ''}]"


def _model_level(c: _Cmp, a: Model, b: Model) -> None:
    c.text("model", a.name or "", "name", a.name, b.name)
    c.text("model", a.name or "", "default base", a.default_base, b.default_base)
    c.text("model", a.name or "", "package dirs", list(a.package_dirs), list(b.package_dirs))
    c.text("model", a.name or "", "materials", list(a.materials), list(b.materials))
    ea = [(e.owner_kind, e.owner, e.tag, e.xml) for e in a.extensions]
    eb = [(e.owner_kind, e.owner, e.tag, e.xml) for e in b.extensions]
    if ea != eb:
        only_a = [f"<{t}> of {k} {o!r}" for k, o, t, x in ea if (k, o, t, x) not in eb]
        only_b = [f"<{t}> of {k} {o!r}" for k, o, t, x in eb if (k, o, t, x) not in ea]
        c.add(
            "changed",
            "model",
            a.name or "",
            f"extensions ({len(ea)} vs {len(eb)})",
            "only in a: " + (", ".join(only_a) or "none"),
            "only in b: " + (", ".join(only_b) or "none"),
        )


def _joint(c: _Cmp, name: str, a: Joint, b: Joint) -> None:
    ta, tb = joint_type_name(a), joint_type_name(b)
    if ta != tb:
        c.add("changed", "joint", name, "type", ta, tb)
        return
    if {a.link1, a.link2} != {b.link1, b.link2}:
        c.add("changed", "joint", name, "links", f"{a.link1}<->{a.link2}", f"{b.link1}<->{b.link2}")
        return
    # Compare what the joint does, read in a's orientation: b may store it from the other end.
    c.transform(
        "joint",
        name,
        "rest transform",
        a.link1_H_link2,
        b.rest_transform(a.link1, a.link2),
    )
    if isinstance(a, FixedJoint) or isinstance(b, FixedJoint):
        return
    child = a.link2
    xa, xb = a.axis(child), b.axis(child)
    c.array("joint", name, "axis direction (in link2)", xa.direction, xb.direction)
    if ta == "revolute":
        _line(c, name, xa, xb)
    c.text("joint", name, "limits enabled", a.limits.enabled, b.limits.enabled)
    c.number("joint", name, "lower limit", a.limits.lower, b.limits.lower)
    c.number("joint", name, "upper limit", a.limits.upper, b.limits.upper)
    c.number("joint", name, "effort limit", a.effort_limit, b.effort_limit)
    c.number("joint", name, "velocity limit", a.velocity_limit, b.velocity_limit)
    c.text("joint", name, "dynamics kind", a.dynamics.kind, b.dynamics.kind)
    c.number("joint", name, "damping", a.dynamics.damping, b.dynamics.damping)
    c.number(
        "joint", name, "static friction", a.dynamics.static_friction, b.dynamics.static_friction
    )
    c.text("joint", name, "mimic", a.mimic, b.mimic)


def _line(c: _Cmp, name: str, a: Axis, b: Axis) -> None:
    # Two origins on the same line are the same axis: compare the distance between the lines.
    d = max(a.distance(b.origin), b.distance(a.origin))
    if not d <= c.atol:
        c.add(
            "changed",
            "joint",
            name,
            "axis line (distance between the axes' points)",
            _short(a.origin),
            _short(b.origin),
            d,
        )


def _shapes(
    c: _Cmp, kind: str, link: str, a: Sequence[SolidShape], b: Sequence[SolidShape]
) -> None:
    if len(a) != len(b):
        c.add("changed", kind, link, "number of shapes", str(len(a)), str(len(b)))
        return
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        label = f"{link}[{k}]"
        c.text(kind, label, "name", x.name, y.name)
        c.text(kind, label, "material", x.material, y.material)
        c.text(kind, label, "extensions", x.extensions, y.extensions)
        c.transform(kind, label, "link_H_geometry", x.link_H_geometry, y.link_H_geometry)
        gx, gy = x.geometry, y.geometry
        # A loaded mesh is a subclass of Mesh (it remembers where it was read): same kind.
        if not isinstance(gx, type(gy)) and not isinstance(gy, type(gx)):
            c.add("changed", kind, label, "geometry", type(gx).__name__, type(gy).__name__)
            continue
        match gx:
            case Box():
                assert isinstance(gy, Box)
                c.array(kind, label, "box size", (gx.x, gx.y, gx.z), (gy.x, gy.y, gy.z))
            case Sphere():
                assert isinstance(gy, Sphere)
                c.number(kind, label, "radius", gx.radius, gy.radius)
            case Cylinder():
                assert isinstance(gy, Cylinder)
                c.number(kind, label, "radius", gx.radius, gy.radius)
                c.number(kind, label, "length", gx.length, gy.length)
            case Mesh():
                assert isinstance(gy, Mesh)
                c.text(kind, label, "mesh file", gx.filename, gy.filename)
                c.array(kind, label, "mesh scale", gx.scale, gy.scale)


def _sensor(c: _Cmp, name: str, a: Sensor, b: Sensor) -> None:
    if type(a) is not type(b):
        c.add("changed", "sensor", name, "type", type(a).__name__, type(b).__name__)
        return
    match a:
        case SixAxisForceTorqueSensor():
            assert isinstance(b, SixAxisForceTorqueSensor)
            c.text("sensor", name, "parent joint", a.parent_joint, b.parent_joint)
            c.text(
                "sensor", name, "applied wrench link", a.applied_wrench_link, b.applied_wrench_link
            )
            # Compare the sensor pose seen from each link, whichever is stored first.
            pa = {a.first_link: a.first_link_H_sensor, a.second_link: a.second_link_H_sensor}
            pb = {b.first_link: b.first_link_H_sensor, b.second_link: b.second_link_H_sensor}
            if set(pa) != set(pb):
                c.text("sensor", name, "links", sorted(pa), sorted(pb))
                return
            for link in (a.first_link, a.second_link):
                c.transform("sensor", name, f"{link}_H_sensor", pa[link], pb[link])
        case Accelerometer() | Gyroscope():
            assert isinstance(b, (Accelerometer, Gyroscope))
            c.text("sensor", name, "link", a.link, b.link)
            c.transform("sensor", name, "link_H_sensor", a.link_H_sensor, b.link_H_sensor)
