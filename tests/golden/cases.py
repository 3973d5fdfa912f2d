"""The golden cases: every output of the readers, writers and transformers, fingerprinted.

A *source* is a model input: the bundled example, each robot of the installed ``icub-models``
package, or a random model from :func:`random_model` (seeded numpy, so the same inputs on every
run and across code changes; Hypothesis would draw differently once the code changed). For each
source :func:`fingerprints` runs a fixed list of steps (the loaded model itself, then every
public transformer with arguments derived deterministically from the model), writes each step's
model with every exporter and reads every text back, and returns ``case id -> fingerprint``:

* ``<source>/<step>``: ``"new"`` (a new model), ``"same"`` (the transformer returned its input
  object; its outputs are then those of ``original`` and are not repeated), ``"data"`` (a query
  with no model) or ``"error:<exception class name>"``;
* ``<source>/<step>/data``: the digest of what a step returns beside or instead of a model
  (the report of ``explain``, a permutation, traversals, fake-link names);
* ``<source>/<step>/<format>``: the digest of the exporter's text or bytes;
* ``<source>/<step>/<format>>load``: the digest of the JSON export of the model read back from
  that text;
* any key with ``#warnings`` appended: the sorted warning classes the operation emitted (only
  present when it warned).

A fingerprint is the sha256 hex digest of the output bytes, cut to :data:`DIGEST_CHARS`
characters to keep the golden file small (64 bits: a changed output keeps its fingerprint with
probability 2**-64), or ``"error:" + the exception class name`` when the operation raised (the
class, not the message: messages may name modules). Every operation runs with all warnings
recorded, so a plain script and pytest's ``filterwarnings = error`` compute the same thing.
Pickles are fingerprinted through their opcode stream, with module names passed through
:data:`PICKLE_MODULE_ALIASES`, because a pickle names the module of every class it holds.

Every robomodel function and class this module uses is in the table below (methods and
attributes of the values aside), so that a restructure changes import paths in one place.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import pickle
import pickletools
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import icub_models
import numpy as np

import robomodel as rm
import robomodel.formats.json
import robomodel.formats.mjcf
import robomodel.formats.urdf
import robomodel.transformers as rt
from robomodel.data import example_path

# ------------------------------------------------------------------------------------------------
# The one table of library entry points. After a restructure, change the paths here only.
# ------------------------------------------------------------------------------------------------

EXAMPLE_PATH: Callable[[], Any] = example_path
LOAD_URDF_FILE: Callable[[Any], rm.Model] = robomodel.formats.urdf.load
TO_JSON: Callable[[rm.Model], str] = robomodel.formats.json.dumps

EXPORTERS: dict[str, Callable[[rm.Model], str | bytes]] = {
    "urdf": robomodel.formats.urdf.dumps,
    "json": robomodel.formats.json.dumps,
    # MJCF writing is plain XML (no MuJoCo); reading it back compiles it with MuJoCo.
    "mjcf": robomodel.formats.mjcf.dumps,
    "pickle": functools.partial(pickle.dumps, protocol=5),
}
LOADERS: dict[str, Callable[[Any], rm.Model]] = {
    "urdf": robomodel.formats.urdf.loads,
    "json": robomodel.formats.json.loads,
    "mjcf": robomodel.formats.mjcf.loads,
    "pickle": pickle.loads,
}
OPERATIONS: dict[str, Callable[..., Any]] = {
    "reduce_model": rt.reduce_model,
    "change_base": rt.change_base,
    "make_urdf_compatible": rt.make_urdf_compatible,
    "remove_fake_links": rt.remove_fake_links,
    "fake_links": rt.fake_links,
    "submodel_traversals": rt.submodel_traversals,
    "extract_submodel": rt.extract_submodel,
    "remove_additional_frames": rt.remove_additional_frames,
    "normalize_joint_order": rt.normalize_joint_order,
    "name_solid_shapes": rt.name_solid_shapes,
    "prefix": rt.prefix,
    "rename": rt.rename,
    "reorder_like": rt.reorder_like,
    "reorder_joints": rt.reorder_joints,
    "attach": rt.attach,
    "explain": rt.explain,
    "pipeline": rt.pipeline,
}
# The public builders and values the random models are made of.
BUILD: dict[str, Any] = {
    "Model": rm.Model,
    "Link": rm.Link,
    "SpatialInertia": rm.SpatialInertia,
    "Transform": rm.Transform,
    "Axis": rm.Axis,
    "FixedJoint": rm.FixedJoint,
    "RevoluteJoint": rm.RevoluteJoint,
    "PrismaticJoint": rm.PrismaticJoint,
    "PositionLimits": rm.PositionLimits,
    "JointDynamics": rm.JointDynamics,
    "Mimic": rm.Mimic,
    "SixAxisForceTorqueSensor": rm.SixAxisForceTorqueSensor,
    "Accelerometer": rm.Accelerometer,
    "Gyroscope": rm.Gyroscope,
    "SolidShape": rm.SolidShape,
    "Box": rm.Box,
    "Sphere": rm.Sphere,
    "Cylinder": rm.Cylinder,
    "Mesh": rm.Mesh,
    "Material": rm.Material,
    "add_link": rm.add_link,
    "add_joint": rm.add_joint,
    "add_joint_and_link": rm.add_joint_and_link,
    "add_frame": rm.add_frame,
    "add_sensor": rm.add_sensor,
    "with_visual_shapes": rm.with_visual_shapes,
    "with_collision_shapes": rm.with_collision_shapes,
}
# Pickles name the module of every class they hold; the golden file was made with robomodel 0.1's
# flat layout, so the layer folders' module names are read as the old ones (old pickles load
# through robomodel._internal.aliases: tests/test_old_paths.py).
PICKLE_MODULE_ALIASES: dict[str, str] = {
    "robomodel._internal.arrays": "robomodel._arrays",
    "robomodel._internal.construct": "robomodel._construct",
    "robomodel.model._pickling": "robomodel._pickling",
    "robomodel.model.record": "robomodel.model",
    "robomodel.model.spatial": "robomodel.spatial",
    "robomodel.model.joints": "robomodel.joints",
    "robomodel.model.shapes": "robomodel.shapes",
    "robomodel.model.sensors": "robomodel.sensors",
    "robomodel.model.mesh_files": "robomodel._mesh_files",
    "robomodel.formats.urdf._sourced": "robomodel.urdf._sourced",
}

# ------------------------------------------------------------------------------------------------
# Sources
# ------------------------------------------------------------------------------------------------

N_RANDOM = 100
ROBOTS: tuple[str, ...] = tuple(sorted(icub_models.get_robot_names()))
# The sources of the default (fast) run; the others are marked slow.
DEFAULT_ROBOTS = ("iCubGazeboV2_7", "iCubNancy01", "left_hand_mk3")
DEFAULT_RANDOM = 30


@dataclass(frozen=True)
class Source:
    """One input model: ``id`` names it in case ids, ``load`` makes it, ``slow`` sets its tier."""

    id: str
    load: Callable[[], rm.Model]
    slow: bool


def sources() -> list[Source]:
    """Return every source, in a fixed order."""
    out = [Source("example", lambda: LOAD_URDF_FILE(EXAMPLE_PATH()), slow=False)]
    for name in ROBOTS:
        path = icub_models.get_model_file(name)
        out.append(
            Source(
                f"icub/{name}",
                functools.partial(LOAD_URDF_FILE, path),
                slow=name not in DEFAULT_ROBOTS,
            )
        )
    for seed in range(N_RANDOM):
        out.append(
            Source(
                f"random/{seed:03d}",
                functools.partial(random_model, seed),
                slow=seed >= DEFAULT_RANDOM,
            )
        )
    return out


# ------------------------------------------------------------------------------------------------
# Random models
# ------------------------------------------------------------------------------------------------


class _Draw:
    """Uniform draws from ``default_rng(seed)``: only ``random()``, numpy's most stable stream."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)

    def u(self, lo: float = 0.0, hi: float = 1.0) -> float:
        return lo + (hi - lo) * float(self._rng.random())

    def chance(self, p: float) -> bool:
        return self.u() < p

    def index(self, n: int) -> int:
        return min(int(self.u() * n), n - 1)

    def choice(self, items: Any) -> Any:
        return items[self.index(len(items))]

    def vec(self, lo: float, hi: float) -> tuple[float, float, float]:
        return (self.u(lo, hi), self.u(lo, hi), self.u(lo, hi))

    def unit(self) -> tuple[float, float, float]:
        # Half of the axes are a coordinate axis (+-), as in most robots.
        if self.chance(0.5):
            v = [0.0, 0.0, 0.0]
            v[self.index(3)] = self.choice((1.0, -1.0))
            return (v[0], v[1], v[2])
        z = self.u(-1.0, 1.0)
        phi = self.u(0.0, 2.0 * math.pi)
        r = math.sqrt(1.0 - z * z)
        return (r * math.cos(phi), r * math.sin(phi), z)


def _rotation(rpy: tuple[float, float, float]) -> np.ndarray:
    """URDF's ``Rz(yaw) Ry(pitch) Rx(roll)``, computed here rather than by the library."""
    r, p, y = rpy
    cr, sr, cp, sp = math.cos(r), math.sin(r), math.cos(p), math.sin(p)
    cy, sy = math.cos(y), math.sin(y)
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def _pose(d: _Draw, *, identity: float = 0.15) -> tuple[np.ndarray, np.ndarray]:
    if d.chance(identity):
        return np.eye(3), np.zeros(3)
    if d.chance(0.3):  # a pure translation
        return np.eye(3), np.array(d.vec(-0.5, 0.5))
    return _rotation(d.vec(-math.pi, math.pi)), np.array(d.vec(-0.5, 0.5))


def _transform(R: np.ndarray, p: np.ndarray) -> Any:
    return BUILD["Transform"](rotation=R, position=p)


def _inverse(R: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return R.T, -(R.T @ p)


def _random_link(d: _Draw) -> Any:
    if d.chance(0.15):
        return BUILD["Link"]()
    mass = d.u(0.05, 5.0)
    # Second moments of the mass distribution along the principal axes: the principal moments
    # made from them satisfy the triangle inequalities, so the inertia is physically valid.
    s1, s2, s3 = d.vec(1e-4, 0.05)
    principal = np.diag([mass * (s2 + s3), mass * (s1 + s3), mass * (s1 + s2)])
    R = _rotation(d.vec(-math.pi, math.pi))
    inertia = BUILD["SpatialInertia"].from_com(mass, d.vec(-0.2, 0.2), R @ principal @ R.T)
    return BUILD["Link"](inertia=inertia)


def _random_shape(d: _Draw, k: int) -> Any:
    kind = d.index(4)
    if kind == 0:
        x, y, z = d.vec(0.01, 0.5)
        geometry = BUILD["Box"](x=x, y=y, z=z)
    elif kind == 1:
        geometry = BUILD["Sphere"](radius=d.u(0.01, 0.3))
    elif kind == 2:
        geometry = BUILD["Cylinder"](radius=d.u(0.01, 0.2), length=d.u(0.01, 0.6))
    else:
        scale = (0.001, 0.001, 0.001) if d.chance(0.5) else d.vec(0.5, 2.0)
        geometry = BUILD["Mesh"](filename=f"package://random_pkg/meshes/part{k}.stl", scale=scale)
    material = None
    if d.chance(0.4):
        material = BUILD["Material"](name=f"mat{k}", rgba=(d.u(), d.u(), d.u(), 1.0))
    R, p = _pose(d, identity=0.4)
    name = f"shape{k}" if d.chance(0.5) else None
    return BUILD["SolidShape"](
        geometry=geometry, name=name, link_H_geometry=_transform(R, p), material=material
    )


def _random_joint(
    d: _Draw,
    kind: str,
    link1: str,
    link2: str,
    R: np.ndarray,
    p: np.ndarray,
    leaders: list[str],
    *,
    child_is_link2: bool,
) -> Any:
    """A joint from ``link1`` to ``link2`` at rest pose ``(R, p)`` (``link1_H_link2``)."""
    T = _transform(R, p)
    if kind == "fixed":
        return BUILD["FixedJoint"](link1=link1, link2=link2, link1_H_link2=T)
    # The axis is drawn in the child (of the traversal from link0) and goes through its origin,
    # as URDF requires, except for some joints whose axis line is elsewhere
    # (make_urdf_compatible's business). It is stored in link1.
    direction = np.array(d.unit())
    origin = np.array(d.vec(-0.1, 0.1)) if d.chance(0.03) else np.zeros(3)
    if child_is_link2:
        direction, origin = R @ direction, R @ origin + p
    options: dict[str, Any] = {}
    if d.chance(0.6):
        lower = d.u(-3.0, 0.0)
        options["limits"] = BUILD["PositionLimits"].between(lower, lower + d.u(0.0, 4.0))
    if d.chance(0.5):
        options["effort_limit"] = d.u(1.0, 100.0)
        options["velocity_limit"] = d.u(0.5, 10.0)
    if d.chance(0.3):
        options["dynamics"] = BUILD["JointDynamics"](
            kind="urdf", damping=d.u(0.0, 1.0), static_friction=d.u(0.0, 0.5)
        )
    if leaders and d.chance(0.1):
        options["mimic"] = BUILD["Mimic"](
            joint=d.choice(leaders), multiplier=d.u(-2.0, 2.0), offset=d.u(-0.5, 0.5)
        )
    cls = BUILD["RevoluteJoint"] if kind == "revolute" else BUILD["PrismaticJoint"]
    return cls(
        link1=link1,
        link2=link2,
        link1_H_link2=T,
        axis_in_link1=BUILD["Axis"](direction=direction, origin=origin),
        **options,
    )


def random_model(seed: int) -> rm.Model:
    """Return the random model number ``seed``: a tree of 1 to 15 links, always the same.

    Links have physically valid inertias (some are massless); joints are revolute, prismatic or
    fixed with random rest poses, axes, limits, dynamics and a few mimics, some stored from
    child to parent; some additional frames, shapes, force/torque sensors (with consistent
    poses on both links), accelerometers and gyroscopes. Names are iCub-like for some joints so
    that the leg reduction keeps something.
    """
    d = _Draw(seed)
    n_links = 1 + d.index(15)
    model = BUILD["add_link"](BUILD["Model"](name=f"random_{seed:03d}"), "link0", _random_link(d))
    joints: list[tuple[str, str, str, np.ndarray, np.ndarray]] = []
    leaders: dict[str, list[str]] = {"revolute": [], "prismatic": []}
    for k in range(1, n_links):
        parent, child = f"link{d.index(k)}", f"link{k}"
        kind = d.choice(("revolute", "revolute", "prismatic", "fixed"))
        if d.chance(0.3):
            name = f"{d.choice('lr')}_{d.choice(('hip', 'knee', 'ankle', 'elbow'))}_{k}"
        else:
            name = f"joint{k}"
        R, p = _pose(d)
        link = _random_link(d)
        if d.chance(0.2):  # stored from child to parent
            Ri, pi = _inverse(R, p)
            joint = _random_joint(
                d, kind, child, parent, Ri, pi, leaders.get(kind, []), child_is_link2=False
            )
            model = BUILD["add_joint"](BUILD["add_link"](model, child, link), name, joint)
            joints.append((name, child, parent, Ri, pi))
        else:
            joint = _random_joint(
                d, kind, parent, child, R, p, leaders.get(kind, []), child_is_link2=True
            )
            model = BUILD["add_joint_and_link"](model, parent, name, joint, child, link)
            joints.append((name, parent, child, R, p))
        if kind != "fixed" and getattr(joint, "mimic", None) is None:
            leaders[kind].append(name)
    for k in range(d.index(4)):
        R, p = _pose(d)
        model = BUILD["add_frame"](model, f"link{d.index(n_links)}", f"frame{k}", _transform(R, p))
    for k in range(n_links):
        if d.chance(0.4):
            shapes = [_random_shape(d, 10 * k + i) for i in range(1 + d.index(2))]
            model = BUILD["with_visual_shapes"](model, f"link{k}", shapes)
        if d.chance(0.3):
            model = BUILD["with_collision_shapes"](
                model, f"link{k}", [_random_shape(d, 10 * k + 5)]
            )
    if joints and d.chance(0.5):
        # In iDynTree's dialect F/T sensors sit in fixed joints; prefer one.
        fixed = [j for j in joints if model.joint(j[0]).n_dofs == 0]
        name, link1, link2, R, p = d.choice(fixed or joints)
        R1, p1 = _pose(d)
        # link2_H_sensor = link2_H_link1 @ link1_H_sensor (at rest).
        Ri, pi = _inverse(R, p)
        sensor = BUILD["SixAxisForceTorqueSensor"](
            name=f"{name}_ft",
            parent_joint=name,
            first_link=link1,
            second_link=link2,
            first_link_H_sensor=_transform(R1, p1),
            second_link_H_sensor=_transform(Ri @ R1, Ri @ p1 + pi),
            applied_wrench_link=d.choice((link1, link2)),
        )
        model = BUILD["add_sensor"](model, sensor)
    for k in range(d.index(3)):
        cls = BUILD["Accelerometer"] if d.chance(0.5) else BUILD["Gyroscope"]
        R, p = _pose(d)
        sensor = cls(name=f"imu{k}", link=f"link{d.index(n_links)}", link_H_sensor=_transform(R, p))
        model = BUILD["add_sensor"](model, sensor)
    return model


# ------------------------------------------------------------------------------------------------
# Steps: every transformer with arguments derived from the model
# ------------------------------------------------------------------------------------------------

LEG_WORDS = ("hip", "knee", "ankle", "leg")
Step = Callable[[rm.Model], Any]


def _call(operation: str, *args: Any, **kwargs: Any) -> Step:
    """``model -> OPERATIONS[operation](model, *args, **kwargs)``."""
    function = OPERATIONS[operation]
    return lambda model: function(model, *args, **kwargs)


def steps(model: rm.Model) -> list[tuple[str, Step]]:
    """Return ``(step name, step)`` pairs; a step returns a model, or ``(model or None, data)``."""
    links = list(model.link_names)
    joints = list(model.joint_names)
    frames = list(model.frame_names)
    sensors = [s.name for s in model.sensors]
    moving = [j for j in joints if model.joint(j).n_dofs > 0]
    legs = [j for j in moving if any(w in j for w in LEG_WORDS)]
    locked = {j: 0.1 * ((k % 7) - 3) for k, j in enumerate(moving) if j not in legs}
    middle, last = links[len(links) // 2], links[-1]
    split = joints[len(joints) // 2 : len(joints) // 2 + 1]
    renames = {
        "links": {links[0]: links[0] + "_renamed"},
        "joints": {j: j + "_renamed" for j in joints[:2]},
        "frames": {f: f + "_renamed" for f in frames[:1]},
        "sensors": {s: s + "_renamed" for s in sensors[:1]},
    }
    pose = BUILD["Transform"](rotation=np.eye(3), position=(0.1, 0.2, 0.3))
    return [
        ("reduce_every_other", _call("reduce_model", keep_joints=moving[::2])),
        (
            "reduce_legs",
            _call("reduce_model", keep_joints=legs, locked_positions=locked, lumped_sensors="drop"),
        ),
        ("reduce_reversed", _call("reduce_model", keep_joints=moving[::-1])),
        ("reduce_all_joints", _call("reduce_model", keep_joints=joints)),
        ("change_base", _call("change_base", middle)),
        (
            "change_base_raw",
            _call("change_base", last, urdf_compatible=False, original_frames=False),
        ),
        ("make_urdf_compatible", _call("make_urdf_compatible")),
        (
            "make_urdf_compatible_base",
            _call("make_urdf_compatible", base_link=last, original_frames=False),
        ),
        ("remove_fake_links", _call("remove_fake_links")),
        (
            "remove_fake_links_iterate",
            _call("remove_fake_links", iterate=True, lumped_sensors="drop"),
        ),
        ("fake_links", _fake_links),
        ("submodel_traversals", functools.partial(_traversals, split=split)),
        ("extract_submodel_0", functools.partial(_extract_part, split=split, part=0)),
        ("extract_submodel_1", functools.partial(_extract_part, split=split, part=1)),
        ("extract_submodel_from_last", functools.partial(_extract_from, base=last)),
        ("remove_additional_frames", _call("remove_additional_frames")),
        ("remove_additional_frames_keep", _call("remove_additional_frames", keep=frames[:1])),
        ("normalize_joint_order", _call("normalize_joint_order")),
        ("normalize_joint_order_base", _call("normalize_joint_order", base_link=last)),
        ("name_solid_shapes", _call("name_solid_shapes")),
        ("prefix", _call("prefix", "p_")),
        ("rename", _call("rename", **renames)),
        (
            "reorder_like",
            _call(
                "reorder_like",
                link_names=links[::-1],
                joint_names=joints[::-1],
                frame_names=frames[::-1],
            ),
        ),
        ("reorder_joints", functools.partial(_reorder_joints, order=joints[::-1])),
        ("attach", functools.partial(_attach_to_itself, at=last, pose=pose)),
        ("explain_pipeline", functools.partial(_explain, keep=moving[::2])),
    ]


def _fake_links(model: rm.Model) -> Any:
    fake = OPERATIONS["fake_links"]
    return None, [fake(model), fake(model, iterate=True)]


def _traversals(model: rm.Model, *, split: list[str]) -> Any:
    parts = OPERATIONS["submodel_traversals"](model, split_joints=split)
    return None, [[list(t.links), list(t.parents), list(t.joints)] for t in parts]


def _extract_part(model: rm.Model, *, split: list[str], part: int) -> Any:
    parts = OPERATIONS["submodel_traversals"](model, split_joints=split)
    if part >= len(parts):
        return None, "no such part"
    return OPERATIONS["extract_submodel"](model, parts[part])


def _extract_from(model: rm.Model, *, base: str) -> Any:
    return OPERATIONS["extract_submodel"](model, model.traversal(base))


def _reorder_joints(model: rm.Model, *, order: list[str]) -> Any:
    new, perm = OPERATIONS["reorder_joints"](model, order)
    return new, [list(perm.joints), list(perm.pos_coords), list(perm.dofs)]


def _attach_to_itself(model: rm.Model, *, at: str, pose: Any) -> Any:
    return OPERATIONS["attach"](model, model, at_frame=at, prefix="b_", pose=pose)


def _explain(model: rm.Model, *, keep: list[str]) -> Any:
    steps = OPERATIONS["pipeline"](
        functools.partial(OPERATIONS["reduce_model"], keep_joints=keep),
        OPERATIONS["remove_fake_links"],
        OPERATIONS["make_urdf_compatible"],
    )
    new, report = OPERATIONS["explain"](steps, model)
    return new, [[c.step, c.action, c.kind, c.name, c.detail] for c in report.changes]


# ------------------------------------------------------------------------------------------------
# Fingerprints
# ------------------------------------------------------------------------------------------------


DIGEST_CHARS = 16


def digest(data: bytes) -> str:
    """Return the sha256 hex digest of ``data``, its first :data:`DIGEST_CHARS` characters."""
    return hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]


def _pickle_stream(data: bytes) -> bytes:
    """The opcodes and arguments of a pickle, without frame sizes, module names aliased."""
    ops = []
    for opcode, arg, _pos in pickletools.genops(data):
        if opcode.name == "FRAME":
            continue  # a frame's size follows from the rest
        if isinstance(arg, str):
            arg = PICKLE_MODULE_ALIASES.get(arg, arg)
            if opcode.name == "GLOBAL":
                module, _, qualname = arg.partition(" ")
                arg = f"{PICKLE_MODULE_ALIASES.get(module, module)} {qualname}"
        ops.append(f"{opcode.name} {arg!r}")
    return "\n".join(ops).encode()


def _output_digest(fmt: str, value: str | bytes) -> str:
    if fmt == "pickle":
        assert isinstance(value, bytes)
        return digest(_pickle_stream(value))
    return digest(value.encode("utf-8") if isinstance(value, str) else value)


def _attempt(thunk: Callable[[], Any]) -> tuple[Any, str | None, str | None]:
    """Run ``thunk``: ``(value, error fingerprint or None, warning classes or None)``."""
    # Set explicitly so that pytest's filterwarnings=error and a plain script agree.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = thunk(), None
        except Exception as exc:
            value, error = None, f"error:{type(exc).__name__}"
    warned = sorted({w.category.__name__ for w in caught})
    return value, error, ",".join(warned) if warned else None


def _put(out: dict[str, str], key: str, value: str, warned: str | None) -> None:
    out[key] = value
    if warned is not None:
        out[key + "#warnings"] = warned


def _model_outputs(out: dict[str, str], prefix: str, model: rm.Model) -> None:
    for fmt, export in EXPORTERS.items():
        text, error, warned = _attempt(functools.partial(export, model))
        _put(out, f"{prefix}/{fmt}", error or _output_digest(fmt, text), warned)
        if error is not None:
            continue
        loaded, error, warned = _attempt(lambda t=text, f=fmt: TO_JSON(LOADERS[f](t)))
        _put(out, f"{prefix}/{fmt}>load", error or digest(loaded.encode("utf-8")), warned)


def fingerprints(source: Source) -> dict[str, str]:
    """Return ``case id -> fingerprint`` for every step and output of ``source``."""
    out: dict[str, str] = {}
    model, error, warned = _attempt(source.load)
    _put(out, f"{source.id}/original", error or "new", warned)
    if error is not None:
        return out
    _model_outputs(out, f"{source.id}/original", model)
    for name, step in steps(model):
        key = f"{source.id}/{name}"
        result, error, warned = _attempt(functools.partial(step, model))
        if error is not None:
            _put(out, key, error, warned)
            continue
        new, data = result if isinstance(result, tuple) else (result, None)
        if data is not None:
            out[f"{key}/data"] = digest(json.dumps(data, sort_keys=True).encode())
        if new is None:
            _put(out, key, "data", warned)
        elif new is model:
            _put(out, key, "same", warned)
        else:
            _put(out, key, "new", warned)
            _model_outputs(out, key, new)
    return out


def arithmetic() -> str:
    """A fingerprint of this machine's float64 arithmetic as robomodel's outputs meet it.

    numpy's matrix products and eigen-decompositions go through OpenBLAS, whose kernel is chosen
    for the CPU at run time (an AVX-512 machine may run other kernels than an AVX2 one): a 3x3
    product can round differently, in the last bit, from one machine to another, and a golden
    fingerprint is of exact bits. This digest of a few products and an eigen-decomposition on
    fixed inputs tells those kernels apart, so that each machine compares against fingerprints
    made with its own kernel (see ``arithmetic-*.json``). numpy's own elementwise ``sin`` and
    ``arctan2`` are left out: their vectorised paths also differ between AVX2 and AVX-512
    machines, yet the outputs made on one of each (both running OpenBLAS's Haswell kernel) were
    the same bits, so probing them would only split one set of fingerprints in two.
    """
    rng = np.random.default_rng(20261202)
    a, b = rng.uniform(-1, 1, (64, 3, 3)), rng.uniform(-1, 1, (64, 3, 3))
    v = rng.uniform(-1, 1, (64, 3))
    sym = a @ a.transpose(0, 2, 1)
    probes = [
        np.stack([x @ y @ x.T for x, y in zip(a, b, strict=True)]),
        np.stack([x.T @ p for x, p in zip(a, v, strict=True)]),
        np.matmul(a, b),
        rng.uniform(-1, 1, (6, 6)) @ rng.uniform(-1, 1, (6, 6)),
        np.linalg.eigh(sym)[0],
    ]
    digest = hashlib.sha256(b"".join(np.ascontiguousarray(x).tobytes() for x in probes))
    return digest.hexdigest()[:DIGEST_CHARS]


def environment() -> dict[str, str]:
    """Versions the fingerprints depend on besides robomodel (stored with the golden data)."""
    from importlib.metadata import version

    return {
        f"env/{name}": version(name) for name in ("numpy", "mujoco", "icub-models", "lxml", "attrs")
    }
