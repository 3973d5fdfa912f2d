"""``<pose>`` and the pose graph: every frame's pose relative to the frame it names.

SDFormat 1.7+ (the pose frame semantics): each ``<pose relative_to="F">`` states an element's
pose in frame ``F``, and the defaults depend on the element: a link's, a nested model's and a
frame's pose (without ``attached_to``) are relative to the enclosing model frame, a joint's to
its child link, a frame's to its ``attached_to``, and the poses inside a link (inertial, visual,
collision, sensor) to the link. 1.4-1.6 have no ``relative_to``: the same defaults.

:class:`PoseGraph` holds one node per named frame (scoped names ``outer::inner::link``) and its
direct pose; :meth:`PoseGraph.between` composes the chain between two frames. A pose written
relative to the very frame asked for is returned as written (no product, so no rounding), which
is what lets the writer state every rest transform bit for bit.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import quoteattr

import numpy as np

from robomodel.formats.sdf._xml import Source, exact_transform_text, fmt, rm
from robomodel.formats.urdf.exact import computed_rpy, origin_numbers
from robomodel.model.spatial import Transform, rotation_from_rpy

__all__ = ["PoseGraph", "read_pose", "write_pose"]


def _quat_rotation(x: float, y: float, z: float, w: float) -> np.ndarray:
    n = math.sqrt(x * x + y * y + z * z + w * w)
    if n == 0.0:
        raise ValueError("zero quaternion")
    x, y, z, w = x / n, y / n, z / n, w / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


def read_pose(src: Source, el: Any, what: str) -> tuple[Transform, str | None]:
    """Return the transform of ``<pose>`` ``el`` and its ``relative_to`` (``None``: default).

    Reads ``degrees="true"`` and ``rotation_format="quat_xyzw"`` (SDFormat 1.9+), and
    robomodel's exact ``robomodel:rotation`` when present.
    """
    frame = el.get("frame")
    if frame:  # 1.5/1.6 had a "frame" attribute no reader implemented; refuse, never guess
        src.fail(el, what, f'<pose frame="{frame}"> is not supported; use relative_to (1.7+)')
    rel = el.get("relative_to") or None
    fmt_ = el.get("rotation_format", "euler_rpy")
    degrees = el.get("degrees", "false").strip() in ("true", "1")
    if not (el.text or "").strip():
        vals = [0.0] * 6
    elif fmt_ == "quat_xyzw":
        vals = src.numbers(el, what, 7)
    elif fmt_ == "euler_rpy":
        vals = src.numbers(el, what, 6)
    else:
        src.fail(el, what, f'rotation_format="{fmt_}" must be euler_rpy or quat_xyzw')
    xyz = vals[:3]
    if fmt_ == "quat_xyzw":
        if degrees:
            src.fail(el, what, 'degrees="true" does not apply to rotation_format="quat_xyzw"')
        try:
            R = _quat_rotation(*vals[3:])
        except ValueError:
            src.fail(el, what, "the quaternion is zero; give a unit quaternion x y z w")
    else:
        r, p, y = vals[3:]
        if degrees:
            r, p, y = (math.radians(a) for a in (r, p, y))
        # The rotation of plain rpy is the URDF reader's, so the writer's rpy search holds.
        R = rotation_from_rpy(r, p, y) if (r, p, y) != (0.0, 0.0, 0.0) else np.eye(3)
    T = Transform(R, xyz)
    exact = src.exact(el, "transform", what, T)
    return (T if exact is None else exact), rel


def write_pose(T: Transform, relative_to: str | None = None, indent: str = "") -> str:
    """Return the ``<pose>`` element of ``T`` (empty when ``T`` is the identity, no frame).

    The ``rpy`` is searched so that the reader's arithmetic gives ``T.rotation`` exactly; when
    none does, ``robomodel:transform`` states ``T`` exactly beside the computed angles.
    """
    rel = f" relative_to={quoteattr(relative_to)}" if relative_to else ""
    xyz, rpy = origin_numbers(T)
    if rpy is None:
        text = fmt([*(xyz or []), *computed_rpy(T.rotation)])
        return f'{indent}<pose{rel} robomodel:transform="{exact_transform_text(T)}">{text}</pose>'
    return f"{indent}<pose{rel}>{fmt([*(xyz or []), *rpy])}</pose>"


class _Node:
    __slots__ = ("attached", "el", "inverse", "kind", "pose", "rel")

    def __init__(
        self, kind: str, rel: str | None, pose: Transform, attached: str | None, el: Any
    ) -> None:
        self.kind = kind
        self.rel = rel
        self.pose = pose
        self.attached = attached
        self.el = el
        self.inverse: Transform | None = None


class PoseGraph:
    """The frames of one document's model: scoped name -> direct pose and attachment."""

    ROOT = "__model__"

    def __init__(self, src: Source) -> None:
        self.src = src
        self.nodes: dict[str, _Node] = {self.ROOT: _Node("model", None, Transform(), None, None)}
        self._to_root: dict[str, Transform] = {self.ROOT: Transform.identity()}
        # The scope of each element read: the prefix of its names ("" or "outer::inner::")
        # and the frame of its model (ROOT or the nested model's name).
        self.scopes: dict[Any, tuple[str, str]] = {}

    def scoped(self, el: Any, ref: str) -> str:
        """Return the scoped name of ``ref`` as written in ``el`` (``__model__`` included)."""
        prefix, model = self.scopes[el]
        if ref == "__model__":
            return model
        if ref == "world" and "world" in self.nodes:
            return "world"
        return prefix + ref

    def reset(self) -> None:
        """Forget the composed poses (after a nested model's pose was set)."""
        self._to_root = {self.ROOT: Transform.identity()}

    def add(
        self, name: str, kind: str, rel: str, pose: Transform, attached: str | None, el: Any
    ) -> None:
        """Add frame ``name`` whose pose ``pose`` is relative to frame ``rel``."""
        if name in self.nodes:
            self.src.fail(el, f"{kind} {name!r}", f"the name {name!r} is taken in this model")
        self.nodes[name] = _Node(kind, rel, pose, attached, el)
        pose_el = el.find("pose") if el is not None else None
        if pose_el is not None and pose_el.get(rm("inverse")) is not None:
            near = pose.inverse()
            inv = self.src.exact(pose_el, "inverse", f"{kind} {name!r}", near)
            self.nodes[name].inverse = inv

    def check(self, name: str, el: Any, what: str) -> str:
        """Return ``name`` if it is a frame of the graph, else raise naming ``el``.

        ``outer::inner::__model__`` is the frame of the nested model ``outer::inner`` (unless a
        flattened document names a frame so).
        """
        if name not in self.nodes and name.endswith("::__model__"):
            name = name[: -len("::__model__")]
        if name not in self.nodes:
            known = ", ".join(sorted(n for n in self.nodes if n != self.ROOT)[:12])
            self.src.fail(el, what, f"no frame named {name!r} in the model (frames: {known})")
        return name

    def validate(self) -> None:
        """Check that every ``relative_to`` names a frame and the poses form no cycle."""
        for name, node in self.nodes.items():
            if node.rel is not None:
                self.check(node.rel, node.el, f"{node.kind} {name!r}: relative_to")
        for name in self.nodes:
            self.to_root(name)

    def to_root(self, name: str) -> Transform:
        """Return the pose of frame ``name`` in the top model frame."""
        got = self._to_root.get(name)
        if got is not None:
            return got
        chain: list[str] = []
        cur = name
        while cur not in self._to_root:
            if cur in chain:
                node = self.nodes[name]
                self.src.fail(node.el, f"{node.kind} {name!r}", "the poses form a cycle")
            chain.append(cur)
            rel = self.nodes[cur].rel
            cur = self.check(rel or self.ROOT, self.nodes[cur].el, f"frame {cur!r}")
        T = self._to_root[cur]
        for n in reversed(chain):
            T = T @ self.nodes[n].pose
            self._to_root[n] = T
        return T

    def between(self, a: str, b: str) -> Transform:
        """Return ``a_H_b``: as written when one is given relative to the other."""
        a, b = self._plain(a), self._plain(b)
        if a == b:
            return Transform.identity()
        nb, na = self.nodes[b], self.nodes[a]
        if nb.rel == a:
            return nb.pose
        if na.rel == b:
            return na.inverse if na.inverse is not None else na.pose.inverse()
        return self.to_root(a).inverse() @ self.to_root(b)

    def _plain(self, name: str) -> str:
        # The world of a model posed at the identity is its model frame: a link posed in the
        # model frame is then posed in the world as written.
        if name == "world" and self.nodes["world"].pose.is_identity(0.0):
            return self.ROOT
        return name

    def attached_link(self, name: str) -> str:
        """Return the link frame ``name`` is rigidly attached to."""
        seen: list[str] = []
        cur = name
        while self.nodes[cur].kind != "link":
            if cur in seen:
                node = self.nodes[name]
                self.src.fail(node.el, f"frame {name!r}", "attached_to forms a cycle")
            seen.append(cur)
            nxt = self.nodes[cur].attached
            if nxt is None:
                node = self.nodes[name]
                self.src.fail(node.el, f"frame {name!r}", "is attached to no link")
            cur = self.check(nxt, self.nodes[cur].el, f"frame {cur!r}: attached_to")
        return cur
