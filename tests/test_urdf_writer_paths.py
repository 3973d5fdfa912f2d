"""The URDF writer's column paths against the plain per-element rules they replace.

The kept elements' order (``_extension_order``, which looks owners up in the model's own name
tables) and the shapes of links (``link_shapes``, by numpy repeats) are compared with direct
per-element versions on the bundled example with random kept elements added and shuffled.
"""

from __future__ import annotations

import random

import attrs
import pytest

from robomodel.data import example_path
from robomodel.formats import urdf
from robomodel.formats.urdf._link import link_shapes
from robomodel.formats.urdf._tree import _extension_order
from robomodel.model.record import Extension, Model


def _reference_order(m: Model) -> str:
    """The rule of ``_extension_order``, with a table per kind built for every call."""
    exts = m.extensions
    if len(exts) < 2:
        return ""
    frames = {fr.name: k for k, fr in enumerate(m.frames)}
    frame_joints = {fr.name + "_fixed_joint": k for k, fr in enumerate(m.frames)}
    for e in exts:
        if e.owner_kind == "frame" and e.tag == "joint":
            name = e.xml.split('name="')[1].split('"')[0]
            frame_joints[name] = frames.get(e.owner, -1)
    links = {name: i for i, name in enumerate(m.link_names)}
    joints = {name: i for i, name in enumerate(m.joint_names)}
    sensors = {s.name: k for k, s in enumerate(m.sensors)}

    def key(e: Extension) -> tuple[int, int, int]:
        kind, owner = e.owner_kind, e.owner
        if kind == "robot":
            return (0, 0, 0)
        if kind in ("link", "inertial"):
            sub = 0 if kind == "link" else 1
            return (1, links[owner], sub) if owner in links else (2, frames.get(owner, -1), sub)
        if kind == "frame":
            return (3, frames.get(owner, -1), 0)
        if kind == "joint":
            if owner in joints:
                return (4, joints[owner], 0 if e.tag == "mimic" else 1)
            return (5, frame_joints.get(owner, -1), 0)
        return (6, sensors.get(owner, -1), 0 if kind == "sensor" else 1)

    keys = [key(e) for e in exts]
    if keys == sorted(keys):
        return ""
    landing = sorted(range(len(exts)), key=keys.__getitem__)
    where = [0] * len(exts)
    for pos, i in enumerate(landing):
        where[i] = pos
    return " ".join(map(str, where))


@pytest.fixture(scope="module")
def example() -> Model:
    return urdf.load(example_path())


@pytest.mark.parametrize("seed", range(40))
def test_extension_order_matches_the_per_kind_tables(example: Model, seed: int) -> None:
    rng = random.Random(seed)
    frames = [f.name for f in example.frames]
    owners = {
        "robot": [""],
        "link": [*example.link_names, *frames, "gone"],
        "inertial": [*example.link_names, *frames, "gone"],
        "frame": [*frames, "gone"],
        "joint": [*example.joint_names, *(f + "_fixed_joint" for f in frames), "gone", "j2"],
        "sensor": [*(s.name for s in example.sensors), "gone"],
        "force_torque": [*(s.name for s in example.sensors), "gone"],
    }
    exts = list(example.extensions)
    for _ in range(rng.randrange(1, 25)):
        kind = rng.choice(list(owners))
        tag = rng.choice(["mimic", "dynamics", "extra"])
        owner = rng.choice(owners[kind])
        exts.append(Extension(owner_kind=kind, owner=owner, tag=tag, xml=f"<{tag}/>"))
    if frames and seed % 3 == 0:  # a frame whose joint the document named
        named = Extension(
            owner_kind="frame", owner=rng.choice(frames), tag="joint", xml='<joint name="j2"/>'
        )
        exts.append(named)
    if seed % 2:
        rng.shuffle(exts)
    m = attrs.evolve(example, extensions=exts)
    assert _extension_order(m) == _reference_order(m)


def test_link_shapes_match_a_loop_over_links(example: Model) -> None:
    for lis in (list(range(example.n_links)), list(range(example.n_links))[::-2], []):
        tags, shapes, owners = [], [], []
        for li in lis:
            for tag, group in (
                ("visual", example.visuals[li]),
                ("collision", example.collisions[li]),
            ):
                tags += [tag] * len(group)
                shapes += list(group)
                owners += [example.link_names[li]] * len(group)
        assert link_shapes(example, lis) == (tags, shapes, owners)
