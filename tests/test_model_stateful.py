"""A state machine builds models step by step against a plain dict/list oracle.

Every rule applies one builder to the current model (valid and invalid inputs alike) and the
same change to the oracle; invariants compare the two. A snapshot bundle keeps earlier models
with a frozen copy of their oracle: no later step, and no branch built from an old snapshot
(the NameIndex copy-on-branch path), may ever change them.
"""

from __future__ import annotations

import copy
import pickle
from dataclasses import dataclass, field

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    initialize,
    invariant,
    precondition,
    rule,
)
from strategies import SLOW, inertias, joints, transforms

import robomodel as rm
from robomodel.errors import DuplicateNameError, TopologyError, UnknownNameError

NAMES = st.sampled_from([f"n{i}" for i in range(12)])


@dataclass
class Oracle:
    """What a model should contain, in plain Python."""

    links: list[str] = field(default_factory=list)
    inertia: dict[str, rm.SpatialInertia] = field(default_factory=dict)
    joints: list[tuple[str, str, str, int]] = field(default_factory=list)  # name, a, b, ndof
    frames: list[tuple[str, str, rm.Transform]] = field(default_factory=list)
    sensors: list[str] = field(default_factory=list)
    base: str | None = None

    def frame_names(self) -> set[str]:
        return set(self.links) | {f[0] for f in self.frames}

    def component(self, link: str) -> set[str]:
        seen, todo = {link}, [link]
        while todo:
            x = todo.pop()
            for _, a, b, _ in self.joints:
                for u, v in ((a, b), (b, a)):
                    if u == x and v not in seen:
                        seen.add(v)
                        todo.append(v)
        return seen


@dataclass(frozen=True)
class Snapshot:
    model: rm.Model
    oracle: Oracle
    pickled: bytes
    hash: int


class ModelMachine(RuleBasedStateMachine):
    snapshots = Bundle("snapshots")

    def __init__(self) -> None:
        super().__init__()
        self.model = rm.Model()
        self.oracle = Oracle()

    # ------------------------------------------------------------------ helpers
    def _check(self, m: rm.Model, o: Oracle) -> None:
        assert m.link_names.tolist() == o.links
        assert [m.link_index(n) for n in o.links] == list(range(len(o.links)))
        assert [lk.inertia for lk in m.links] == [o.inertia[n] for n in o.links]
        assert m.joint_names.tolist() == [j[0] for j in o.joints]
        for (name, a, b, _), joint in zip(o.joints, m.joints, strict=True):
            assert {joint.link1, joint.link2} == {a, b}, name
        dof = 0
        for (_, _, _, nd), joint in zip(o.joints, m.joints, strict=True):
            assert joint.dof_offset == dof
            dof += nd
        assert m.n_dofs == dof
        assert [(f.name, f.link, f.link_H_frame) for f in m.frames] == o.frames
        for k, (name, link, _) in enumerate(o.frames):
            assert m.frame_index(name) == len(o.links) + k
            assert m.frame_link(name) == o.links.index(link)
        assert [s.name for s in m.sensors] == o.sensors
        assert m.default_base == o.base
        assert m.n_frames == len(o.links) + len(o.frames)
        # Adjacency: each link lists its joints in joint order.
        for i, name in enumerate(o.links):
            expected = [
                (o.links.index(b if a == name else a), j)
                for j, (_, a, b, _) in enumerate(o.joints)
                if name in (a, b)
            ]
            assert [(nb.link, nb.joint) for nb in m.neighbors(i)] == expected
        if o.base is not None:
            reach = o.component(o.base)
            t = m.traversal()
            assert {m.link_name(i) for i in t.links} == reach
            assert len(t) == len(reach)

    def _apply(self, fn, *args):  # type: ignore[no-untyped-def]
        before = self.model
        out = fn(before, *args)
        assert before == self.model  # the input is untouched
        self.model = out
        return out

    # ------------------------------------------------------------------ rules
    @initialize(target=snapshots)
    def start(self) -> Snapshot:
        return self._snapshot()

    def _snapshot(self) -> Snapshot:
        m = self.model
        return Snapshot(m, copy.deepcopy(self.oracle), pickle.dumps(m), hash(m))

    @rule(target=snapshots)
    def snapshot(self) -> Snapshot:
        return self._snapshot()

    @rule(name=NAMES, inertia=inertias())
    def add_link(self, name: str, inertia: rm.SpatialInertia) -> None:
        o = self.oracle
        if name in o.frame_names():
            with pytest.raises(DuplicateNameError):
                rm.add_link(self.model, name, rm.Link(inertia))
            return
        self._apply(rm.add_link, name, rm.Link(inertia))
        o.links.append(name)
        o.inertia[name] = inertia
        o.base = o.base or name

    @precondition(lambda self: self.oracle.links)
    @rule(data=st.data(), jname=NAMES)
    def add_joint(self, data: st.DataObject, jname: str) -> None:
        o = self.oracle
        pool = [*o.links, "missing"]
        a = data.draw(st.sampled_from(pool))
        b = data.draw(st.sampled_from(pool))
        if a == b:
            with pytest.raises(TopologyError):
                data.draw(joints(a, b))
            return
        joint = data.draw(joints(a, b))
        if any(j[0] == jname for j in o.joints):
            with pytest.raises(DuplicateNameError):
                rm.add_joint(self.model, jname, joint)
        elif "missing" in (a, b):
            with pytest.raises(UnknownNameError, match="'missing'"):
                rm.add_joint(self.model, jname, joint)
        elif b in o.component(a):
            with pytest.raises(TopologyError):
                rm.add_joint(self.model, jname, joint)
        else:
            self._apply(rm.add_joint, jname, joint)
            o.joints.append((jname, a, b, joint.n_dofs))

    @precondition(lambda self: self.oracle.links)
    @rule(data=st.data(), jname=NAMES, lname=NAMES)
    def add_joint_and_link(self, data: st.DataObject, jname: str, lname: str) -> None:
        o = self.oracle
        existing = data.draw(st.sampled_from(o.links))
        joint = data.draw(joints("x", "y"))
        if any(j[0] == jname for j in o.joints) or lname in o.frame_names():
            with pytest.raises(DuplicateNameError):
                rm.add_joint_and_link(self.model, existing, jname, joint, lname)
            return
        self._apply(rm.add_joint_and_link, existing, jname, joint, lname)
        o.links.append(lname)
        o.inertia[lname] = rm.SpatialInertia.zero()
        o.joints.append((jname, existing, lname, joint.n_dofs))
        j = self.model.joint(jname)
        assert (j.link1, j.link2) == (existing, lname)

    @precondition(lambda self: self.oracle.joints)
    @rule(data=st.data(), jname=NAMES, lname=NAMES, T=transforms())
    def insert_link(self, data: st.DataObject, jname: str, lname: str, T: rm.Transform) -> None:
        o = self.oracle
        k = data.draw(st.integers(0, len(o.joints) - 1))
        old_name, a, b, nd = o.joints[k]
        unmovable = data.draw(st.sampled_from([a, b]))
        displaced = b if unmovable == a else a
        joint = data.draw(joints(lname, displaced)) if lname != displaced else None
        if joint is None or any(j[0] == jname for j in o.joints) or lname in o.frame_names():
            with pytest.raises(rm.ModelError):
                rm.insert_link_to_existing_joint(
                    self.model,
                    old_name,
                    unmovable,
                    T,
                    jname,
                    joint or rm.FixedJoint(link1="p", link2="q"),
                    lname,
                )
            return
        self._apply(rm.insert_link_to_existing_joint, old_name, unmovable, T, jname, joint, lname)
        o.links.append(lname)
        o.inertia[lname] = rm.SpatialInertia.zero()
        o.joints[k] = (old_name, unmovable, lname, nd)
        o.joints.append((jname, lname, displaced, joint.n_dofs))
        got = self.model.joint(old_name).rest_transform(unmovable, lname)
        assert got.as_matrix() == pytest.approx(T.as_matrix(), abs=1e-12)

    @precondition(lambda self: self.oracle.links)
    @rule(data=st.data(), fname=NAMES, T=transforms())
    def add_frame(self, data: st.DataObject, fname: str, T: rm.Transform) -> None:
        o = self.oracle
        link = data.draw(st.sampled_from([*o.links, *(f[0] for f in o.frames), "missing"]))
        if link not in o.links:
            with pytest.raises(UnknownNameError):
                rm.add_frame(self.model, link, fname, T)
        elif fname in o.frame_names():
            with pytest.raises(DuplicateNameError):
                rm.add_frame(self.model, link, fname, T)
        else:
            self._apply(rm.add_frame, link, fname, T)
            o.frames.append((fname, link, T))

    @precondition(lambda self: self.oracle.links)
    @rule(data=st.data())
    def with_default_base_link(self, data: st.DataObject) -> None:
        link = data.draw(st.sampled_from(self.oracle.links))
        self._apply(rm.with_default_base_link, link)
        self.oracle.base = link

    @precondition(lambda self: self.oracle.links)
    @rule(data=st.data(), sname=st.sampled_from(["s0", "s1", "s2"]))
    def add_sensor(self, data: st.DataObject, sname: str) -> None:
        link = data.draw(st.sampled_from(self.oracle.links))
        s = rm.Gyroscope(name=sname, link=link, link_H_sensor=rm.Transform())
        if sname in self.oracle.sensors:
            with pytest.raises(DuplicateNameError):
                rm.add_sensor(self.model, s)
            return
        self._apply(rm.add_sensor, s)
        self.oracle.sensors.append(sname)

    @rule(sname=st.sampled_from(["s0", "s1", "s2"]), strict=st.booleans())
    def remove_sensor(self, sname: str, strict: bool) -> None:
        present = sname in self.oracle.sensors
        if strict and not present:
            with pytest.raises(UnknownNameError):
                rm.remove_sensor(self.model, sname)
            return
        fn = rm.remove_sensor if strict else rm.discard_sensor
        self._apply(fn, sname)
        if present:
            self.oracle.sensors.remove(sname)

    @rule(snap=consumes(snapshots), name=NAMES)
    def branch_from_snapshot(self, snap: Snapshot, name: str) -> None:
        """Continue from an old snapshot: its successors must not see the branch's names."""
        o = copy.deepcopy(snap.oracle)
        if name in o.frame_names():
            return
        branched = rm.add_link(snap.model, name, rm.Link())
        assert branched.link_index(name) == len(o.links)
        assert not snap.model.is_link_name_used(name)
        o.links.append(name)
        o.inertia[name] = rm.SpatialInertia.zero()
        o.base = o.base or name
        self._check(branched, o)
        # The branch becomes the current model: later steps extend it.
        self.model, self.oracle = branched, o

    @rule(snap=snapshots)
    def snapshot_unchanged(self, snap: Snapshot) -> None:
        self._check(snap.model, snap.oracle)
        assert hash(snap.model) == snap.hash
        assert pickle.loads(snap.pickled) == snap.model

    @invariant()
    def matches_oracle(self) -> None:
        self._check(self.model, self.oracle)

    @invariant()
    def bulk_constructor_agrees(self) -> None:
        m = self.model
        fields = {
            "link_names": m.link_names,
            "links": m.links,
            "joint_names": m.joint_names,
            "joints": m.joints,
            "frames": m.frames,
            "default_base": m.default_base,
            "visuals": m.visuals,
            "collisions": m.collisions,
            "sensors": m.sensors,
        }
        assert rm.Model(**fields) == m


ModelMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
test_model_machine = ModelMachine.TestCase


class SlowModelMachine(ModelMachine):
    pass


SlowModelMachine.TestCase.settings = settings(SLOW, stateful_step_count=60)
test_model_machine_slow = pytest.mark.slow(SlowModelMachine.TestCase)
