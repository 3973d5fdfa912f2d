"""Mutation paths stay closed (issue 15): no public operation changes a model or a shared constant.

A Hypothesis state machine collects values (random trees with frames, shapes and sensors from
``tests/strategies.py``, icub-models robots, the outputs of transformers, the shared constants
``Transform.identity()``, ``SpatialInertia.zero()`` and the defaults built on them, and
forward-kinematics results), takes an exact snapshot of each (every array's bytes, dtype, shape
and flags; floats by ``repr``, so ``-0.0`` counts), and then tries every public way to change one:

* writing an array it holds, directly or through ``.base``, a view, a reshape, ``as_strided``,
  ``memoryview``, ``fill``, ``copyto``, an in-place operator or ``resize``; re-enabling writes with
  ``setflags(write=True)`` or ``flags.writeable`` (on the array, its base or a view);
* assigning or deleting an attribute of any value reachable from it (no ``object.__setattr__``);
* item assignment on its persistent vectors and maps;
* ``attrs.evolve`` of a model with changed ``link_names``, ``links``, ``joint_names``, ``frames``
  or ``default_base``, which must either raise a robomodel error or give a valid model whose
  ``link_index`` / ``joint_index`` / ``frame_index`` tell the truth.

Each attempt must raise, and the value must equal its snapshot afterwards.

The machine's array attempts target the arrays of every value it holds (built, loaded,
transformed, constants, FK results). Stored arrays are ``robomodel._internal.arrays.FrozenArray``
over
``bytes``: ``setflags(write=True)`` fails, and so do in-place changes of ``shape``, ``dtype``,
``strides``, ``__setstate__`` and ``resize`` (tested at the end of the file). What stays open is
raw memory access (``ctypes`` on ``a.ctypes.data``), which can change any Python object.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import icub_models
import numpy as np
import pytest
import strategies
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    multiple,
    rule,
    run_state_machine_as_test,
)
from pyrsistent import PMap, PVector

import robomodel as rm
import robomodel.transformers as rt
from robomodel.errors import RobomodelError, RobomodelWarning
from robomodel.formats.urdf import load
from robomodel.physics.kinematics import ForwardKinematics, forward_kinematics
from robomodel.transformers.change_base import change_base

ICUB = sorted(icub_models.get_robot_names())
REFUSED = (ValueError, TypeError, AttributeError)


@functools.cache
def icub(name: str) -> rm.Model:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RobomodelWarning)
        return load(icub_models.get_model_file(name))


# ------------------------------------------------------------------ reaching and snapshots
def _children(obj: object) -> Iterator[tuple[str, object]]:
    """The public parts of a value: its public attrs fields, and collection items.

    Private fields (a model's name index and memo) are no public path; the index is checked
    through the public lookups instead (:func:`assert_truthful`).
    """
    if isinstance(obj, (PVector, list, tuple)):
        yield from ((f"[{i}]", v) for i, v in enumerate(obj))
    elif isinstance(obj, (PMap, dict)):
        yield from ((f"[{k!r}]", v) for k, v in obj.items())
    elif attrs.has(type(obj)):
        for f in attrs.fields(type(obj)):
            if not f.name.startswith("_"):
                yield f".{f.name}", getattr(obj, f.name)


def reachable(obj: object, path: str = "") -> Iterator[tuple[str, object]]:
    """Every object reachable from ``obj`` through :func:`_children`, with its path."""
    seen: set[int] = set()
    stack = [(path, obj)]
    while stack:
        where, item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield where, item
        if not isinstance(item, np.ndarray):
            stack.extend((where + k, v) for k, v in _children(item))


def arrays_of(obj: object) -> list[tuple[str, np.ndarray]]:
    return [(p, a) for p, a in reachable(obj) if isinstance(a, np.ndarray)]


def snapshot(obj: object) -> object:
    """An exact, independent record of a value (compared with ``==`` after each attempt)."""
    if isinstance(obj, np.ndarray):
        return ("ndarray", obj.dtype.str, obj.shape, obj.tobytes(), bool(obj.flags.writeable))
    if isinstance(obj, float):
        return ("float", repr(obj))
    if isinstance(obj, (PVector, list, tuple)):
        return ("seq", tuple(snapshot(v) for v in obj))
    if isinstance(obj, (PMap, dict)):
        return ("map", tuple(sorted((repr(k), snapshot(v)) for k, v in obj.items())))
    if attrs.has(type(obj)):
        return (type(obj).__name__, tuple(snapshot(v) for _, v in _children(obj)))
    return obj


def assert_truthful(m: rm.Model) -> None:
    """The model's name lookups agree with its lists, and the model has no structural problem.

    (iCubNancy01's file gives two links inertias no rigid body has; those stay errors. Renaming
    joints by evolve can point a mimic at a fixed joint: the mimic check reports that, which is
    the check working, not a lie of the value's indices.)
    """
    assert [m.link_index(n) for n in m.link_names] == list(range(m.n_links))
    assert [m.joint_index(n) for n in m.joint_names] == list(range(m.n_joints))
    for k, frame in enumerate(m.frames):
        assert m.frame_index(frame.name) == m.n_links + k
    assert all(f.check in ("inertia", "mimic") for f in m.problems()), m.problems()


# ---------------------------------------------------------------------------- the attempts
def _write_item(a: np.ndarray) -> None:
    a[(0,) * a.ndim] = 1.0


ARRAY_ATTEMPTS: dict[str, Callable[[np.ndarray], object]] = {
    "a[i] = x": _write_item,
    "a[...] = x": lambda a: a.__setitem__(Ellipsis, 0.0),
    "a += 1": lambda a: a.__iadd__(1.0),
    "np.add(a, 1, out=a)": lambda a: np.add(a, 1.0, out=a),
    "a.fill(0)": lambda a: a.fill(0.0),
    "np.copyto(a, 0)": lambda a: np.copyto(a, 0.0),
    "a.setflags(write=True)": lambda a: a.setflags(write=True),
    "a.flags.writeable = True": lambda a: setattr(a.flags, "writeable", True),
    "a.base.setflags(write=True)": lambda a: a.base.setflags(write=True),  # type: ignore[union-attr]
    "a.base[...] = 0": lambda a: a.base.__setitem__(Ellipsis, 0),  # type: ignore[union-attr]
    "a.view().setflags(write=True)": lambda a: a.view().setflags(write=True),
    "a.view()[i] = x": lambda a: _write_item(a.view()),
    # copy=False: a reshape that would need a copy raises instead of writing elsewhere.
    "a.reshape(-1)[0] = x": lambda a: a.reshape(-1, copy=False).__setitem__(0, 1.0),
    "a.T[i] = x": lambda a: _write_item(a.T),
    "as_strided(a)[i] = x": lambda a: _write_item(np.lib.stride_tricks.as_strided(a)),
    "memoryview(a) write": lambda a: memoryview(a).cast("B").__setitem__(0, 1),
    "a.resize(n + 1)": lambda a: a.resize(a.size + 1, refcheck=False),
}


class Immutability(RuleBasedStateMachine):
    """Collect values, attack them through every public path, compare with the snapshots."""

    #: Which values' arrays the array attempts may pick (every kind the machine collects).
    ARRAY_KINDS: frozenset[str] = frozenset({"built", "constant", "loaded", "transformed", "fk"})

    values = Bundle("values")
    models = Bundle("models")

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[tuple[str, object, object]] = []  # (kind, value, snapshot)

    def _keep(self, kind: str, value: object) -> object:
        self.kept.append((kind, value, snapshot(value)))
        return value

    def _kind(self, value: object) -> str:
        return next(k for k, v, _ in self.kept if v is value)

    def _check(self, value: object, attempt: str) -> None:
        for kind, kept, snap in self.kept:
            if kept is value:
                assert snapshot(kept) == snap, f"{attempt} changed a {kind} value"

    def _refused(self, attempt: str, where: str, action: Callable[[], object]) -> None:
        try:
            action()
        except REFUSED:
            return
        pytest.fail(f"{attempt} on {where} did not raise: this mutation path is open")

    # -- sources -------------------------------------------------------------------------
    @initialize(target=values)
    def constants(self) -> object:
        inertia = rm.SpatialInertia.zero()
        return multiple(
            *(
                self._keep("constant", v)
                for v in (
                    rm.Transform.identity(),
                    inertia,
                    rm.Transform(),
                    rm.Link(),
                    rm.Frame("f", "a"),
                    rm.RevoluteJoint(link1="a", link2="b"),
                )
            )
        )

    @rule(targets=(models, values), m=strategies.models_with_sensors(max_links=5))
    def built_with_sensors(self, m: rm.Model) -> rm.Model:
        return self._keep("built", m)  # type: ignore[return-value]

    @rule(targets=(models, values), m=strategies.decorated_models(max_links=5))
    def built_with_shapes(self, m: rm.Model) -> rm.Model:
        return self._keep("built", m)  # type: ignore[return-value]

    @rule(targets=(models, values), name=st.sampled_from(ICUB))
    def loaded(self, name: str) -> rm.Model:
        return self._keep("loaded", icub(name))  # type: ignore[return-value]

    @rule(targets=(models, values), m=models, data=st.data())
    def transformed(self, m: rm.Model, data: st.DataObject) -> rm.Model:
        moving = [
            n
            for n, j in zip(m.joint_names, m.joints, strict=True)
            if not isinstance(j, rm.FixedJoint)
        ]
        keep = (
            data.draw(st.lists(st.sampled_from(moving), unique=True, max_size=4)) if moving else []
        )
        steps: dict[str, Callable[[rm.Model], rm.Model]] = {
            "reduce_model": functools.partial(
                rt.reduce_model, keep_joints=keep, lumped_sensors="drop"
            ),
            "make_urdf_compatible": rt.make_urdf_compatible,
            "remove_fake_links": functools.partial(rt.remove_fake_links, lumped_sensors="drop"),
            "normalize_joint_order": rt.normalize_joint_order,
            "name_solid_shapes": rt.name_solid_shapes,
            "change_base": lambda m: change_base(m, m.link_names[-1]),
        }
        step = data.draw(st.sampled_from(sorted(steps)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RobomodelWarning)
            try:
                out = steps[step](m)
            except RobomodelError:
                out = m
        self._check(m, step)  # the input is untouched
        return self._keep("transformed", out)  # type: ignore[return-value]

    @rule(target=values, m=models)
    def kinematics(self, m: rm.Model) -> ForwardKinematics:
        return self._keep("fk", forward_kinematics(m, np.zeros(m.n_pos_coords)))  # type: ignore[return-value]

    # -- attempts ------------------------------------------------------------------------
    @rule(v=values, data=st.data())
    def write_an_array(self, v: object, data: st.DataObject) -> None:
        if self._kind(v) not in self.ARRAY_KINDS:
            return
        found = arrays_of(v)
        if not found:
            return
        where, a = data.draw(st.sampled_from(found), label="array")
        # Every attempt on the drawn array: each must raise on its own.
        for attempt, action in ARRAY_ATTEMPTS.items():
            if attempt.startswith("a.base") and not isinstance(a.base, np.ndarray):
                # Over immutable bytes (or owning its memory): there is no array to write there.
                assert a.base is None or isinstance(a.base, bytes), type(a.base)
                continue
            self._refused(attempt, f"{self._kind(v)} {where}", functools.partial(action, a))
        self._check(v, "writing an array")

    @rule(v=values, data=st.data())
    def assign_an_attribute(self, v: object, data: st.DataObject) -> None:
        found = [(p, o) for p, o in reachable(v) if attrs.has(type(o))]
        where, obj = data.draw(st.sampled_from(found), label="object")
        names = [f.name for f in attrs.fields(type(obj))]
        name = data.draw(st.sampled_from([*names, "not_a_field"]), label="attribute")
        value = data.draw(st.sampled_from([None, 0.0, "x", getattr(obj, name, None)]))
        self._refused(f"{where}.{name} = {value!r}", where, lambda: setattr(obj, name, value))
        if name in names:
            self._refused(f"del {where}.{name}", where, lambda: delattr(obj, name))
        self._check(v, f"assigning {name}")

    @rule(v=values, data=st.data())
    def assign_an_item(self, v: object, data: st.DataObject) -> None:
        found = [(p, c) for p, c in reachable(v) if isinstance(c, (PVector, PMap)) and len(c)]
        if not found:
            return
        where, c = data.draw(st.sampled_from(found), label="collection")
        key = 0 if isinstance(c, PVector) else next(iter(c))
        self._refused(f"{where}[{key!r}] = None", where, lambda: c.__setitem__(key, None))
        self._refused(f"del {where}[{key!r}]", where, lambda: c.__delitem__(key))
        # The persistent updates return new collections and leave this one as it was.
        c.set(key, None)
        self._check(v, "persistent update")

    @rule(m=models, data=st.data())
    def evolve(self, m: rm.Model, data: st.DataObject) -> None:
        names = list(m.link_names)
        fresh = data.draw(st.sampled_from(["", "L0", "nope", *names[:2]]), label="name")
        changes: dict[str, Any] = data.draw(
            st.sampled_from(
                [
                    {"link_names": data.draw(st.permutations(names), label="order")},
                    {"link_names": [fresh, *names[1:]]} if names else {"default_base": fresh},
                    {"links": m.links[:-1]},
                    {"links": m.links.append(rm.Link())},
                    {"default_base": fresh},
                    {"joint_names": list(reversed(m.joint_names))},
                    {"joint_names": [fresh, *m.joint_names[1:]]},
                    {"frames": list(reversed(m.frames))},
                ]
            ),
            label="changes",
        )
        try:
            out = attrs.evolve(m, **changes)
        except RobomodelError:
            pass
        else:
            for field, value in changes.items():
                if field == "default_base":
                    assert out.default_base == value
                else:
                    assert list(getattr(out, field)) == list(value)
            assert_truthful(out)
        self._check(m, f"attrs.evolve(model, {', '.join(changes)}=...)")

    def teardown(self) -> None:
        for kind, kept, snap in self.kept:
            assert snapshot(kept) == snap, f"a {kind} value changed"
        assert rm.Transform().rotation.tolist() == np.eye(3).tolist()
        assert rm.Link().inertia == rm.SpatialInertia.zero()


_SETTINGS = settings(
    max_examples=25,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_mutation_paths_stay_closed() -> None:
    """Every attempt raises, and every value equals its snapshot afterwards."""
    run_state_machine_as_test(Immutability, settings=_SETTINGS)


def test_models_survive_evolve_and_transformers_on_every_icub_robot() -> None:
    """On each icub-models robot: evolve keeps the lookups truthful, attempts leave it equal."""
    for name in ICUB:
        m = icub(name)
        before = snapshot(m)
        permuted = attrs.evolve(m, link_names=list(reversed(m.link_names)))
        assert_truthful(permuted)
        with pytest.raises(RobomodelError):
            attrs.evolve(m, links=m.links[:-1])
        with pytest.raises(RobomodelError):
            attrs.evolve(m, default_base="no_such_link")
        with pytest.raises(AttributeError):
            m.link_names = permuted.link_names  # type: ignore[misc]
        assert snapshot(m) == before


# ---------------------------------------------------------------------------- still open
def _refuses_writes(a: np.ndarray) -> bool:
    """Whether neither ``a`` nor its base can be made writable (checked on a fresh value)."""
    for target in (a, a.base):
        if isinstance(target, np.ndarray):
            try:
                target.setflags(write=True)
            except ValueError:
                continue
            return False
    return True


@pytest.mark.parametrize("name", ICUB)
def test_loaded_arrays_cannot_be_made_writable(name: str) -> None:
    """No array of a loaded robot (nor its base) can be made writable again."""
    m = icub.__wrapped__(name)  # a fresh load: an attempt that gets through corrupts no cache
    open_paths = [where for where, a in arrays_of(m) if not _refuses_writes(a)]
    assert not open_paths, f"{len(open_paths)} writable arrays, e.g. {open_paths[:3]}"


def _chain() -> rm.Model:
    """A small model built in Python (so closed as built), with masses, a frame and a sensor."""
    heavy = rm.Link(rm.SpatialInertia(1.0, (0.0, 0.0, 0.1), np.diag([0.1, 0.2, 0.25])))
    m = rm.add_link(rm.Model(), "a", heavy)
    for k, (prev, link) in enumerate([("a", "b"), ("b", "c"), ("c", "d")]):
        T = rm.Transform.from_rpy_xyz((0.1 * k, 0.2, 0.3), (0.0, 0.1 * k, 0.5))
        joint = rm.RevoluteJoint(link1=prev, link2=link, link1_H_link2=T)
        m = rm.add_joint_and_link(m, prev, f"j{k}", joint, link, heavy)
    m = rm.add_frame(m, "d", "tool", rm.Transform.from_translation((0.0, 0.0, 0.1)))
    sensor = rm.Accelerometer(
        name="acc", link="c", link_H_sensor=rm.Transform.from_translation((0.1, 0.0, 0.0))
    )
    return rm.add_sensor(m, sensor)


TRANSFORMERS: dict[str, Callable[[rm.Model], rm.Model]] = {
    "reduce_model": functools.partial(rt.reduce_model, keep_joints=["j1"]),
    "make_urdf_compatible": functools.partial(rt.make_urdf_compatible, base_link="b"),
    "change_base": lambda m: change_base(m, "c"),
    "normalize_joint_order": functools.partial(rt.normalize_joint_order, base_link="c"),
    "remove_additional_frames": rt.remove_additional_frames,
}
_OPEN_TRANSFORMERS: set[str] = set()  # every transformer output is closed now


@pytest.mark.parametrize(
    "step",
    [
        pytest.param(
            name,
            marks=pytest.mark.xfail(
                strict=True,
                reason=(
                    "open: the transformers' batched arrays (robomodel/transformers/_batch.py) "
                    "are only setflags(write=False), so setflags(write=True) re-enables writes"
                ),
            ),
        )
        if name in _OPEN_TRANSFORMERS
        else name
        for name in sorted(TRANSFORMERS)
    ],
)
def test_transformer_outputs_cannot_be_made_writable(step: str) -> None:
    """Every array of a transformer's output refuses ``setflags(write=True)``, and its base too."""
    m = _chain()
    out = TRANSFORMERS[step](m)
    assert out is not m
    open_paths = [where for where, a in arrays_of(out) if not _refuses_writes(a)]
    assert not open_paths, f"{len(open_paths)} writable arrays, e.g. {open_paths[:3]}"
    assert snapshot(m) == snapshot(_chain())


def test_forward_kinematics_arrays_cannot_be_made_writable() -> None:
    """The arrays of an FK result refuse writes for good, like the values they came from."""
    fk = forward_kinematics(_chain(), np.zeros(3))
    with pytest.raises(ValueError):
        fk.base_H_link.setflags(write=True)


def _stored_arrays() -> list[np.ndarray]:
    """Arrays stored in fresh values (not the shared constants: an attempt may get through)."""
    T = rm.Transform.from_rpy_xyz((0.1, 0.2, 0.3), (1.0, 2.0, 3.0))
    m = rm.add_link(rm.Model(), "a", rm.Link())
    m = rm.add_joint_and_link(
        m, "a", "j", rm.RevoluteJoint(link1="a", link2="b", link1_H_link2=T), "b"
    )
    return [T.rotation, m.joints[0].link1_H_link2.position]


IN_PLACE = {
    "a.shape = (1, a.size)": lambda a: setattr(a, "shape", (1, a.size)),
    "a.dtype = int64": lambda a: setattr(a, "dtype", np.int64),
    "a.strides = (0, ...)": lambda a: setattr(a, "strides", (0,) * a.ndim),
    "a.T.shape = (a.size,)": lambda a: setattr(a.T, "shape", (a.size,)),
    "a.__setstate__(...)": lambda a: a.__setstate__(
        (1, a.shape, np.dtype(np.float64), False, np.zeros(a.shape).tobytes())
    ),
    "a.resize(a.shape)": lambda a: a.resize(a.shape),
    "np.ndarray.__setitem__(a.view(), 0, x)": lambda a: np.ndarray.__setitem__(a.view(), 0, 1.0),
    "as_strided(a, writeable=True)[0] = x": lambda a: _write_item(
        np.lib.stride_tricks.as_strided(a, writeable=True)
    ),
    "memoryview(a.data) write": lambda a: a.data.cast("B").__setitem__(0, 1),
}


@pytest.mark.parametrize("attempt", sorted(IN_PLACE))
def test_in_place_metadata_changes_are_refused(attempt: str) -> None:
    """Reshaping, re-typing or re-loading a stored array in place raises, and nothing changes."""
    for a in _stored_arrays():
        before = snapshot(a)
        with pytest.raises(REFUSED):
            IN_PLACE[attempt](a)
        assert snapshot(a) == before


def test_joint_states_and_mimic_maps_refuse_writes_for_good() -> None:
    """A JointState's vectors and a (memoized, shared) mimic map's arrays are frozen too."""
    from robomodel.model.mimic import mimic_map

    state = rm.JointState(q=[0.1, 0.2], dq=[0.0, 0.0], ddq=[1.0, 2.0])
    mm = mimic_map(icub(ICUB[0]))
    for a in (state.q, state.dq, state.ddq, mm.matrix, mm.offset):
        before = snapshot(a)
        for attempt in ("a.setflags(write=True)", "a.base.setflags(write=True)"):
            if attempt.startswith("a.base") and not isinstance(a.base, np.ndarray):
                continue
            with pytest.raises(REFUSED):
                ARRAY_ATTEMPTS[attempt](a)
        for attempt in sorted(IN_PLACE):
            with pytest.raises(REFUSED):
                IN_PLACE[attempt](a)
        assert snapshot(a) == before


@pytest.mark.parametrize("way", ["pickle", "deepcopy", "json"])
def test_copied_models_keep_their_arrays_frozen(way: str) -> None:
    """A model after pickle, deepcopy or JSON refuses in-place reshaping of its arrays too."""
    import copy
    import pickle

    from robomodel.formats import json as rm_json

    m = icub(ICUB[0])
    copied = {
        "pickle": lambda: pickle.loads(pickle.dumps(m)),
        "deepcopy": lambda: copy.deepcopy(m),
        "json": lambda: rm_json.loads(rm_json.dumps(m)),
    }[way]()
    assert copied == m
    for where, a in arrays_of(copied):
        for attempt in ("a.shape = (1, a.size)", "a.dtype = int64", "a.__setstate__(...)"):
            with pytest.raises(REFUSED):
                IN_PLACE[attempt](a)
        assert _refuses_writes(a), where
