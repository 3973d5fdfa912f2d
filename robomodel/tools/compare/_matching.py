"""Which element of model a is which element of model b.

Elements are matched by name, after the caller's rename map and prefix rule. Links and
additional frames share one namespace here: a link of one model may be an additional frame of
the other (a link lumped by ``reduce_model``, a massless link merged into a MuJoCo body and
kept as a site), which is a difference of form, not of mechanism. A link frame moved by
``make_urdf_compatible`` or ``change_base`` is compared through the ``<link>_original_frame``
those transformers leave at its old pose.

Links of both models that belong to one rigid body (matched links, a link and the frame that
stands for it, a link fused into its neighbour through a fixed or locked joint) form one
*body*, whose mass and inertia are compared as a whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from robomodel.errors import ModelError, UnknownNameError
from robomodel.model.joints import FixedJoint
from robomodel.model.record import Model
from robomodel.model.sensors import SixAxisForceTorqueSensor
from robomodel.model.spatial import Transform
from robomodel.tools.compare.verdict import Discrepancy

__all__ = ["Matching", "is_world", "match", "name_map"]

_ORIGINAL = "_original_frame"
_WORLD = "world"


@attrs.frozen(kw_only=True)
class Matching:
    """Everything the comparison needs to know about which element is which.

    Attributes:
        frames: ``(a frame, b frame)`` pairs of frames (links or additional frames) at the
            same place of the same body, whose poses are compared.
        body_frames: per body (by index), one frame pair on it, or ``None``.
        bodies: per body, its label and its links in a and in b.
        group_a: the body index of each link of a (``-1``: in no body).
        group_b: the body index of each link of b.
        joints: ``(a joint, b joint)`` pairs moving in both.
        fixed_joints: ``(a joint, b joint)`` pairs fixed in both.
        locked_a: a's moving joints held still (not moving in b), with their positions.
        locked_b: b's moving joints held still, with their positions.
        sensors: ``(a sensor, b sensor)`` pairs of the same kind.
        reference: the reference link in a, in b, and ``b_link_H_frame`` of the frame of b
            that stands for a's reference link frame (identity when it is the link itself).
        differences: what one model has and the other lacks, and joints whose kind differs.
        understood: differences of form, one sentence each.
    """

    frames: tuple[tuple[str, str], ...]
    body_frames: tuple[tuple[str, str] | None, ...]
    bodies: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
    group_a: tuple[int, ...]
    group_b: tuple[int, ...]
    joints: tuple[tuple[str, str], ...]
    fixed_joints: tuple[tuple[str, str], ...]
    locked_a: Mapping[str, float]
    locked_b: Mapping[str, float]
    sensors: tuple[tuple[str, str], ...]
    reference: tuple[str, str, Transform]
    differences: tuple[Discrepancy, ...]
    understood: tuple[str, ...]


def name_map(rename: Mapping[str, str], prefix: tuple[str, str]) -> Callable[[str], str]:
    """Return the function from a name of a to the name b gives the same element."""
    pa, pb = prefix

    def to_b(name: str) -> str:
        if name in rename:
            return rename[name]
        if name.startswith(pa):
            return pb + name[len(pa) :]
        return name

    return to_b


class _Union:
    """Union-find over ("a" | "b", link index) nodes."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(self, x: tuple[str, int]) -> tuple[str, int]:
        root = x
        while self.parent.get(root, root) != root:
            root = self.parent[root]
        while self.parent.get(x, x) != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def join(self, x: tuple[str, int], y: tuple[str, int]) -> None:
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            self.parent[ry] = rx
            self.parent.setdefault(rx, rx)

    def known(self, x: tuple[str, int]) -> bool:
        return x in self.parent


def _frame_names(model: Model) -> list[str]:
    return [*model.link_names, *(f.name for f in model.frames)]


def _is_link(model: Model, name: str) -> bool:
    return model.is_link_name_used(name)


def _pair_frames(
    a: Model, b: Model, to_b: Callable[[str], str]
) -> tuple[dict[str, str], list[str]]:
    """Pair frames of a with b's: by name; moved link frames through their original frames."""
    pairs: dict[str, str] = {}
    understood: list[str] = []
    b_names = set(_frame_names(b))
    a_names = set(_frame_names(a))
    for n in _frame_names(a):
        t = to_b(n)
        if t in b_names:
            pairs[n] = t
    # make_urdf_compatible / change_base move a link frame and keep its old pose as a frame.
    moved_a: list[str] = []
    moved_b: list[str] = []
    for n in list(a.link_names):
        t = to_b(n)
        if not _is_link(b, t):
            continue
        if t + _ORIGINAL in b_names and n + _ORIGINAL not in a_names:
            pairs[n] = t + _ORIGINAL
            moved_b.append(t)
        elif n + _ORIGINAL in a_names and t + _ORIGINAL not in b_names:
            pairs.pop(n, None)
            pairs[n + _ORIGINAL] = t
            moved_a.append(n)
    for side, moved in (("a", moved_a), ("b", moved_b)):
        if moved:
            understood.append(
                f"{side}'s link frames of {', '.join(moved)} were moved (make_urdf_compatible); "
                f"their old poses, the frames <link>{_ORIGINAL}, are compared"
            )
    return pairs, understood


def _neighbours(model: Model, locked: Mapping[str, float]) -> list[tuple[int, int, str]]:
    """(link, link, joint) of every joint that holds its links rigidly together here."""
    out = []
    for name, joint in zip(model.joint_names, model.joints, strict=True):
        if isinstance(joint, FixedJoint) or name in locked:
            out.append((model.link_index(joint.link1), model.link_index(joint.link2), name))
    return out


def _locked_joints(
    a: Model,
    b: Model,
    to_b: Callable[[str], str],
    locked: Mapping[str, float],
    out: list[Discrepancy],
    understood: list[str],
) -> tuple[list[tuple[str, str]], dict[str, float], dict[str, float]]:
    to_a = {to_b(n): n for n in a.joint_names}
    known = set(a.joint_names) | set(b.joint_names)
    for name in locked:
        if name not in known:
            raise UnknownNameError("joint", name, sorted(known)) from None
    pairs: list[tuple[str, str]] = []
    locked_a: dict[str, float] = {}
    locked_b: dict[str, float] = {}
    for n, ja in zip(a.joint_names, a.joints, strict=True):
        if not ja.n_dofs:
            continue
        t = to_b(n)
        jb = b.joint(t) if b.is_joint_name_used(t) else None
        if jb is not None and jb.n_dofs:
            pairs.append((n, t))
            continue
        value = locked.get(n, locked.get(t))
        if value is not None:
            locked_a[n] = float(value)
        else:
            locked_a[n] = 0.0
            out.append(_one_sided("joint", n, t, jb, "revolute or prismatic"))
    for t, jb in zip(b.joint_names, b.joints, strict=True):
        if not jb.n_dofs or (t in to_a and a.joint(to_a[t]).n_dofs):
            continue
        n = to_a.get(t, t)
        value = locked.get(t, locked.get(n))
        if value is not None:
            locked_b[t] = float(value)
        else:
            locked_b[t] = 0.0
            here = a.joint(n) if a.is_joint_name_used(n) else None
            d = _one_sided("joint", n, t, here, "revolute or prismatic")
            out.append(attrs.evolve(d, a=d.b, b=d.a))
    pinned = [
        f"{n}={locked.get(n, locked.get(t, 0.0)):g}" for n, t in pairs if n in locked or t in locked
    ]
    if pinned:
        understood.append("joints of both models held at the given positions: " + ", ".join(pinned))
    for side, held in (("a", locked_a), ("b", locked_b)):
        given = [f"{n}={v:g}" for n, v in held.items() if n in locked or to_b(n) in locked]
        if given:
            understood.append(
                f"joints moving in {side} only, held at the given positions: " + ", ".join(given)
            )
    return pairs, locked_a, locked_b


def _one_sided(kind: str, name: str, other: str, there: object, what: str) -> Discrepancy:
    if there is None:
        return Discrepancy(
            quantity="missing",
            kind=kind,
            name=name,
            other_name=other if other != name else "",
            a="present",
            b="absent",
            detail="a moving joint, held at 0; give its position in locked if the other model "
            "locked it",
        )
    return Discrepancy(
        quantity="joint type",
        kind=kind,
        name=name,
        other_name=other if other != name else "",
        a=what,
        b="fixed",
        detail="held at 0; give its locked position if it was locked on purpose",
    )


def match(
    a: Model,
    b: Model,
    *,
    rename: Mapping[str, str],
    prefix: tuple[str, str],
    locked: Mapping[str, float],
) -> Matching:
    """Return the :class:`Matching` of models ``a`` and ``b``.

    Raises:
        UnknownNameError: ``locked`` names a joint neither model has.
        ModelError: the models have no link in common to measure poses from.
    """
    to_b = name_map(rename, prefix)
    out: list[Discrepancy] = []
    understood: list[str] = []

    # Frames: by name, moved link frames through their originals.
    pairs, moved = _pair_frames(a, b, to_b)
    understood += moved
    b_targets = set(pairs.values())
    unmatched_a = [n for n in a.link_names if n not in pairs and n + _ORIGINAL not in pairs]
    unmatched_b = [t for t in b.link_names if t not in b_targets and t + _ORIGINAL not in b_targets]
    # A root that one model merged into the world (MuJoCo fuses a fixed root into its world
    # body): the two unmatched default bases are the same body.
    ra, rb = a.default_base, b.default_base
    if (
        ra is not None
        and rb is not None
        and ra in unmatched_a
        and rb in unmatched_b
        and (is_world(a, ra) or is_world(b, rb))
    ):
        pairs[ra] = rb
        unmatched_a.remove(ra)
        unmatched_b.remove(rb)
        understood.append(
            f"a's root link {ra!r} and b's root link {rb!r} are compared as one body (a root "
            "merged into the world)"
        )

    # Joints: moving in both, or held still in one.
    joints, locked_a, locked_b = _locked_joints(a, b, to_b, locked, out, understood)

    # Bodies: links of both models that move as one rigid body.
    u = _Union()
    for fa, fb in pairs.items():
        u.join(("a", a.frame_link(fa)), ("b", b.frame_link(fb)))
    # A link only one model has, held by a fixed or locked joint, was fused into its
    # neighbour's body (MuJoCo's fusestatic, a lumping): its mass is counted there.
    for side, rigid in (("a", _neighbours(a, locked_a)), ("b", _neighbours(b, locked_b))):
        changed = True
        while changed:
            changed = False
            for i, k, _ in rigid:
                x, y = (side, i), (side, k)
                if u.known(x) and not u.known(y):
                    u.join(x, y)
                    changed = True
                elif u.known(y) and not u.known(x):
                    u.join(y, x)
                    changed = True
    roots: dict[tuple[str, int], int] = {}
    bodies: list[tuple[str, list[str], list[str]]] = []
    group_a: list[int] = []
    group_b: list[int] = []
    for side, model, groups in (("a", a, group_a), ("b", b, group_b)):
        for i, name in enumerate(model.link_names):
            if not u.known((side, i)):
                groups.append(-1)
                continue
            r = u.find((side, i))
            if r not in roots:
                roots[r] = len(bodies)
                bodies.append((name, [], []))
            k = roots[r]
            groups.append(k)
            (bodies[k][1] if side == "a" else bodies[k][2]).append(name)

    # What only one model has.
    fixed_root = _fixed_root(a), _fixed_root(b)
    for side, model, names, groups, root in (
        ("a", a, unmatched_a, group_a, fixed_root[0]),
        ("b", b, unmatched_b, group_b, fixed_root[1]),
    ):
        for n in names:
            mass = model.link(n).mass
            if n == root and mass == 0.0:
                understood.append(
                    f"{side}'s massless root {n!r}, fixed to the rest, is missing from the other "
                    "model (a world-merged root)"
                )
                continue
            fused = groups[model.link_index(n)] >= 0
            detail = f"mass {mass:g} kg" + (
                ", fused into a neighbour's body (counted there)" if fused and mass else ""
            )
            out.append(_missing(side, "link", n, detail))
    for side, model, matched in (("a", a, set(pairs)), ("b", b, set(pairs.values()))):
        for f in model.frames:
            if f.name not in matched and not f.name.endswith(_ORIGINAL):
                out.append(_missing(side, "frame", f.name, f"on link {f.link!r}"))

    # Sensors.
    sensors = _sensors(a, b, to_b, locked, out, understood)

    # One frame pair per body, link frames matched by their own names first.
    body_frames: list[tuple[str, str] | None] = [None] * len(bodies)
    for fa, fb in sorted(pairs.items(), key=lambda p: not (_is_link(a, p[0]) and p[0] == p[1])):
        k = group_a[a.frame_link(fa)]
        if body_frames[k] is None:
            body_frames[k] = (fa, fb)

    reference = _reference(a, b, pairs)
    return Matching(
        frames=tuple(pairs.items()),
        body_frames=tuple(body_frames),
        bodies=tuple((label, tuple(la), tuple(lb)) for label, la, lb in bodies),
        group_a=tuple(group_a),
        group_b=tuple(group_b),
        joints=tuple(joints),
        fixed_joints=tuple(
            (n, to_b(n))
            for n, j in zip(a.joint_names, a.joints, strict=True)
            if not j.n_dofs and b.is_joint_name_used(to_b(n)) and not b.joint(to_b(n)).n_dofs
        ),
        locked_a=locked_a,
        locked_b=locked_b,
        sensors=tuple(sensors),
        reference=reference,
        differences=tuple(out),
        understood=tuple(understood),
    )


def is_world(model: Model, link: str) -> bool:
    """A massless link called world: what MJCF readers call MuJoCo's world body."""
    return link == _WORLD and model.link(link).mass == 0.0


def _missing(side: str, kind: str, name: str, detail: str) -> Discrepancy:
    here, there = ("present", "absent") if side == "a" else ("absent", "present")
    return Discrepancy(quantity="missing", kind=kind, name=name, a=here, b=there, detail=detail)


def _fixed_root(model: Model) -> str | None:
    """The default base when it is held to the rest of the model by fixed joints only."""
    base = model.default_base
    if base is None:
        return None
    around = model.neighbors(base)
    if around and all(isinstance(model.joints[n.joint], FixedJoint) for n in around):
        return base
    return None


def _sensors(
    a: Model,
    b: Model,
    to_b: Callable[[str], str],
    locked: Mapping[str, float],
    out: list[Discrepancy],
    understood: list[str],
) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    held: list[str] = []
    b_sensors = {s.name: s for s in b.sensors}
    taken: set[str] = set()
    for s in a.sensors:
        t = to_b(s.name)
        other = b_sensors.get(t)
        if other is None:
            if _held_ft(s, to_b, locked):
                held.append(s.name)
            else:
                out.append(_missing("a", "sensor", s.name, type(s).__name__))
            continue
        taken.add(t)
        if type(other) is not type(s):
            out.append(
                Discrepancy(
                    quantity="sensor type",
                    kind="sensor",
                    name=s.name,
                    other_name=t if t != s.name else "",
                    a=type(s).__name__,
                    b=type(other).__name__,
                )
            )
            continue
        pairs.append((s.name, t))
    for s in b.sensors:
        if s.name in taken:
            continue
        if _held_ft(s, _inverse(a, to_b), locked):
            held.append(s.name)
        else:
            out.append(_missing("b", "sensor", s.name, type(s).__name__))
    if held:
        understood.append(
            f"force/torque sensors on locked joints, in one model only: {', '.join(held)}"
        )
    return pairs


def _inverse(a: Model, to_b: Callable[[str], str]) -> Callable[[str], str]:
    back = {to_b(n): n for n in a.joint_names}
    return lambda name: back.get(name, name)


def _held_ft(sensor: object, other_name: Callable[[str], str], locked: Mapping[str, float]) -> bool:
    """A force/torque sensor on a joint the caller says was locked (or lumped)."""
    if not isinstance(sensor, SixAxisForceTorqueSensor):
        return False
    return sensor.parent_joint in locked or other_name(sensor.parent_joint) in locked


def _reference(a: Model, b: Model, pairs: Mapping[str, str]) -> tuple[str, str, Transform]:
    """The link of a poses are measured from, its link in b, and where its frame is on it."""
    candidates = [n for n in a.link_names if n in pairs]
    if not candidates:
        raise ModelError(
            "the two models have no link in common (by name, after renames); give a rename map "
            "(rename={'a_name': 'b_name'}, --rename A=B) or a prefix rule"
        )
    base_a = a.default_base
    base_b = b.default_base
    by_b = {v: k for k, v in pairs.items()}

    def rank(n: str) -> tuple[int, int]:
        fb = pairs[n]
        identity = _is_link(b, fb)
        order = 0 if n == base_a else 1 if by_b.get(base_b or "") == n else 2
        return (0 if identity else 1, order)

    best = min(candidates, key=lambda n: (rank(n), a.link_index(n)))
    fb = pairs[best]
    link_b = b.link_names[b.frame_link(fb)]
    return best, link_b, b.frame_transform(fb) if not _is_link(b, fb) else Transform.identity()
