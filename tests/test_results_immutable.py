"""Every record a public function returns is immutable all the way down, memoised or not.

A result that is memoised per model (base parameters, mimic maps) is handed to every caller:
writing into it would change what a later call computes. The property checked on each result: no
plain ``list``, ``dict``, ``set`` or ``bytearray`` is reachable from it, every array reachable
refuses ``setflags(write=True)`` (on itself and its bases), and no attribute can be set. Fresh
arrays a function computes for its caller alone (a regressor matrix) are the caller's and are not
results in this sense: for those, two calls must share nothing writable.

Every class and function of every public ``__all__`` is enumerated: each is a frozen class, or a
function whose return annotation names only immutable types, or a function with an entry in the
tables below (a call whose result is checked, or a stated reason it returns no robomodel data).
A new public name in none of them fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType
from typing import Any

import attrs
import numpy as np
import pytest
from pyrsistent import PMap, PVector

from robomodel.data import example_path
from robomodel.formats import urdf
from robomodel.identification import Samples, base_parameters, identify, regressor_batch
from robomodel.model.mimic import mimic_map
from robomodel.model.record import Model

_LEAVES = (str, int, float, bool, complex, bytes, type(None), np.generic, type)


def _reachable(value: Any, path: str = "result") -> Iterator[tuple[str, Any]]:
    """Every object reachable from ``value`` through fields, items and array bases."""
    seen: set[int] = set()
    stack = [(path, value)]
    while stack:
        where, v = stack.pop()
        if id(v) in seen or isinstance(v, (*_LEAVES, Model)):
            continue  # models are checked by tests/test_immutability.py
        seen.add(id(v))
        yield where, v
        if attrs.has(type(v)):
            stack.extend((f"{where}.{f.name}", getattr(v, f.name)) for f in attrs.fields(type(v)))
        elif isinstance(v, (tuple, frozenset, PVector, list, set)):
            stack.extend((f"{where}[{i}]", x) for i, x in enumerate(v))
        elif isinstance(v, (MappingProxyType, PMap, dict)):
            stack.extend((f"{where}[{k!r}]", x) for k, x in v.items())


def assert_deeply_immutable(value: Any) -> None:
    for where, v in _reachable(value):
        assert not isinstance(v, (list, dict, set, bytearray)), f"{where} is a {type(v).__name__}"
        if isinstance(v, np.ndarray):
            a: Any = v
            while isinstance(a, np.ndarray):
                try:
                    a.setflags(write=True)
                except ValueError:
                    a = a.base
                else:
                    raise AssertionError(f"{where} (or its base) can be made writable")
        elif attrs.has(type(v)):
            field = attrs.fields(type(v))[0].name
            try:
                setattr(v, field, None)
            except (AttributeError, TypeError):
                pass
            else:
                raise AssertionError(f"{where}.{field} can be assigned")


@pytest.fixture(scope="module")
def model() -> Model:
    return urdf.load(example_path())


@pytest.fixture(scope="module")
def samples(model: Model) -> Samples:
    rng = np.random.default_rng(0)
    n = 40
    q = rng.uniform(-1, 1, (n, model.n_pos_coords))
    dq = rng.uniform(-1, 1, (n, model.n_dofs))
    ddq = rng.uniform(-1, 1, (n, model.n_dofs))
    Y = regressor_batch(model, q, dq, ddq)
    torques = Y @ model.inertial_parameters()
    return Samples(q=q, dq=dq, ddq=ddq, torques=torques.reshape(n, -1))


def test_samples_are_immutable(samples: Samples) -> None:
    assert_deeply_immutable(samples)
    sensor = Samples(
        q=samples.q, dq=samples.dq, ddq=samples.ddq, wrenches={"s": np.zeros((len(samples.q), 6))}
    )
    assert_deeply_immutable(sensor)
    with pytest.raises(TypeError):
        sensor.wrenches["s"] = np.ones((len(samples.q), 6))  # type: ignore[index]


def test_memoised_base_parameters_are_immutable(model: Model) -> None:
    first = base_parameters(model)
    assert_deeply_immutable(first)
    assert base_parameters(model) is first  # the memoised one, shared


def test_identification_results_are_immutable(model: Model, samples: Samples) -> None:
    result = identify(model, samples)
    assert_deeply_immutable(result)
    # What a second identification computes does not depend on anything the first handed out.
    np.testing.assert_array_equal(identify(model, samples).beta, result.beta)


def test_mimic_maps_are_immutable(model: Model) -> None:
    assert_deeply_immutable(mimic_map(model))


def test_the_check_itself_finds_a_writable_array() -> None:
    @attrs.frozen
    class Leaky:
        values: np.ndarray

    with pytest.raises(AssertionError):
        assert_deeply_immutable(Leaky(np.zeros(3)))
    with pytest.raises(AssertionError):
        assert_deeply_immutable((1, [2]))


def test_reports_findings_and_queries_are_immutable(model: Model) -> None:
    from functools import partial

    from robomodel.formats import meshes, mjcf
    from robomodel.physics.kinematics import forward_kinematics
    from robomodel.tools.diff import diff
    from robomodel.transformers import explain, reduce_model

    legs = [j for j in model.joint_names if "knee" in j or "hip" in j]
    reduced, report = explain(partial(reduce_model, keep_joints=legs, lumped_sensors="drop"), model)
    assert_deeply_immutable(report)
    assert_deeply_immutable(diff(model, reduced))
    assert_deeply_immutable(model.problems())
    q = np.zeros(model.n_pos_coords)
    assert_deeply_immutable(forward_kinematics(model, q))
    assert_deeply_immutable(meshes.check_meshes(model))
    pytest.importorskip("mujoco")
    text, written = mjcf.dumps_with_report(model)
    assert_deeply_immutable(written)
    assert_deeply_immutable(mjcf.loads_with_report(text)[1])


# ------------------------------------------------ every public function and class is covered
# Every callable in an ``__all__`` of a public robomodel module is enumerated below; each must be
# (a) a frozen class (or an exception, warning or enum class), (b) a function whose return
# annotation names only immutable types (str, numbers, tuples, frozen robomodel records, Model),
# or (c) listed in one of the tables that follow, with a call that the tests make. A new public
# function that fits none of them fails ``test_every_public_callable_is_covered``.

_IMMUTABLE_NAMES = {
    "str",
    "bytes",
    "int",
    "float",
    "bool",
    "None",
    "tuple",
    "frozenset",
    "Literal",
    "Model",
    "NoReturn",
}


def _public_modules() -> list[Any]:
    import importlib
    import pkgutil

    import robomodel

    names = ["robomodel"] + [
        m.name
        for m in pkgutil.walk_packages(robomodel.__path__, "robomodel.")
        if not any(part.startswith("_") for part in m.name.split(".")[1:])
        and not m.name.startswith("robomodel.cli")  # the command line: its output is text
    ]
    return [importlib.import_module(n) for n in names]


def public_callables() -> dict[str, Any]:
    """``"module.name" -> object`` for every class and function in a public ``__all__``."""
    import inspect

    out: dict[str, Any] = {}
    seen: set[int] = set()
    for mod in _public_modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
                continue  # type aliases (Literal[...] and unions) are not callables
            seen.add(id(obj))
            out[f"{mod.__name__}.{name}"] = obj
    return out


def _frozen_class(cls: type) -> bool:
    import enum

    if issubclass(cls, (BaseException, enum.Enum, tuple)):
        return True  # errors, enums and named tuples
    if getattr(cls, "_is_protocol", False):
        return True  # a typing.Protocol: a type for annotations, never instantiated
    return attrs.has(cls) and cls.__setattr__ is not object.__setattr__


def _immutable_annotation(fn: Any) -> bool:
    import inspect
    import re

    ann = inspect.signature(fn).return_annotation
    text = ann if isinstance(ann, str) else getattr(ann, "__name__", str(ann))
    if ann is inspect.Signature.empty:
        return False
    classes = {n: c for n, c in _named_classes().items()}
    for token in re.findall(r"[A-Za-z_][\w.]*", text):
        name = token.rsplit(".", 1)[-1]
        if name in _IMMUTABLE_NAMES:
            continue
        cls = classes.get(name)
        if cls is None or not _frozen_class(cls):
            return False
    return True


def _named_classes() -> dict[str, type]:
    import inspect
    import typing

    out: dict[str, type] = {}
    for mod in _public_modules():
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                out[name] = obj
            elif typing.get_origin(obj) is not None and all(
                inspect.isclass(a) and _frozen_class(a) for a in typing.get_args(obj)
            ):
                out[name] = _FrozenUnion  # a union of frozen classes (Joint, Sensor, Geometry)
    return out


@attrs.frozen
class _FrozenUnion:
    """Stands for a type alias that is a union of frozen classes."""


# Results a function computes for its caller alone: checked to be fresh (a second call does not
# hand out the same mutable object, and writing into the first result does not change what the
# second call returns). Each entry: the call, given the example model.
def _q(m: Model) -> Any:
    return np.linspace(-0.5, 0.5, m.n_pos_coords)


def _fresh_calls() -> dict[str, Any]:
    import robomodel as rm
    from robomodel import identification as ident
    from robomodel.formats import dh, meshes
    from robomodel.formats.urdf import exact
    from robomodel.model import mesh_files, topology, validation
    from robomodel.model import spatial as sp
    from robomodel.physics import dynamics, joint_state, sensing
    from robomodel.tools import tree_lines
    from robomodel.transformers import fake_links

    R = sp.rotation_from_rpy(0.1, 0.2, 0.3)
    T = rm.Transform(R, (0.1, 0.2, 0.3))
    chain = dh.DHChain(links=[dh.DHLink(0.1, 0.0, 0.5)])
    Qb = np.tile(np.linspace(-0.5, 0.5, 21), (3, 1))

    def samples(m: Model) -> Any:
        Y = ident.regressor_batch(m, Qb, Qb, Qb)
        return ident.Samples(
            q=Qb, dq=Qb, ddq=Qb, torques=(Y @ m.inertial_parameters()).reshape(3, -1)
        )

    return {
        "robomodel.center_of_mass": lambda m: rm.center_of_mass(m, _q(m)),
        "robomodel.formats.dh.axis_angle": lambda m: dh.axis_angle(R),
        "robomodel.formats.dh.euler_xyz": lambda m: dh.euler_xyz(R),
        "robomodel.formats.dh.set_angles": lambda m: dh.set_angles(chain, [0.2])[1],
        "robomodel.formats.meshes.env_package_dirs": lambda m: meshes.env_package_dirs({}),
        "robomodel.formats.urdf.exact.computed_rpy": lambda m: exact.computed_rpy(R),
        "robomodel.formats.urdf.exact.origin_numbers": lambda m: exact.origin_numbers(T),
        "robomodel.formats.urdf.exact.inertial_numbers": lambda m: exact.inertial_numbers(
            m.links[1].inertia
        ),
        "robomodel.formats.urdf.exact.inertial_values": lambda m: exact.inertial_values(
            [(1.0, (1.0, 0.0, 0.0, 2.0, 0.0, 3.0))], [(0.1, 0.2, 0.3)], [(0.1, 0.2, 0.3)]
        ),
        "robomodel.formats.meshes.grouped_problems": lambda m: meshes.grouped_problems(
            meshes.check_meshes(m)
        ),
        "robomodel.formats.to_dict": lambda m: rm.formats.to_dict(m),
        "robomodel.forward_kinematics_batch": lambda m: rm.forward_kinematics_batch(m, Qb),
        "robomodel.identification.lumping_matrix": lambda m: ident.lumping_matrix(
            m, keep_joints=list(m.joint_names[:3])
        ),
        "robomodel.identification.parameter_transform": lambda m: ident.parameter_transform(T),
        "robomodel.identification.pivoted_qr": lambda m: ident.pivoted_qr(np.eye(3) + R),
        "robomodel.identification.regressor": lambda m: ident.regressor(m, _q(m)),
        "robomodel.identification.regressor_batch": lambda m: ident.regressor_batch(m, Qb, Qb, Qb),
        "robomodel.identification.row_weights": lambda m: ident.row_weights(
            m, samples(m), np.ones(21)
        ),
        "robomodel.identification.stack": lambda m: ident.stack(m, samples(m)),
        "robomodel.inverse_dynamics_batch": lambda m: rm.inverse_dynamics_batch(m, Qb, Qb, Qb),
        "robomodel.joint_vector_permutation": lambda m: rm.joint_vector_permutation(m, m),
        "robomodel.model.mesh_files.grouped_by_link": lambda m: mesh_files.grouped_by_link(
            meshes.check_meshes(m)
        ),
        "robomodel.model.rotation_from_rpy": lambda m: sp.rotation_from_rpy(0.1, 0.2, 0.3),
        "robomodel.model.spatial.rotations_from_rpy": lambda m: sp.rotations_from_rpy(
            [0.1, 0.2, 0.3, -0.3, 0.2, 0.1], 2
        ),
        "robomodel.model.spatial.cross": lambda m: sp.cross(R, R),
        "robomodel.model.spatial.cross3": lambda m: sp.cross3(R[0], R[1]),
        "robomodel.model.spatial.proper_rotation": lambda m: sp.proper_rotation(R + 1e-11),
        "robomodel.model.spatial.skew": lambda m: sp.skew((1.0, 2.0, 3.0)),
        "robomodel.model.spatial.twist_adjoint": lambda m: sp.twist_adjoint(T),
        "robomodel.model.spatial.wrench_adjoint": lambda m: sp.wrench_adjoint(T),
        "robomodel.model.topology.sensor_problems": lambda m: topology.sensor_problems(
            m.sensors[0], m._index.links, m._index.joints, m.joints
        ),
        "robomodel.model.validation.check_name_list": lambda m: validation.check_name_list(
            ["a", "b"], "names"
        ),
        "robomodel.model.validation.fixed_vector": lambda m: validation.fixed_vector(
            [1.0, 2.0, 3.0], "v", size=3
        ),
        "robomodel.model.validation.real_array": lambda m: validation.real_array(
            [[1.0, 2.0]], "a", shape=(None, 2)
        ),
        "robomodel.model.validation.real_vector": lambda m: validation.real_vector([1.0], "v"),
        "robomodel.physics.dynamics.link_motion_arrays": lambda m: dynamics.link_motion_arrays(
            m, _q(m)
        ),
        "robomodel.physics.inconsistent_links": lambda m: rm.physics.inconsistent_links(m),
        "robomodel.physics.joint_state.positions_of": lambda m: joint_state.positions_of(m, _q(m)),
        "robomodel.physics.joint_values": lambda m: rm.physics.joint_values(m, _q(m)),
        "robomodel.physics.predict_measurement": lambda m: sensing.predict_measurement(
            m.sensors[0],
            m,
            m.traversal(),
            rm.inverse_dynamics(m, _q(m)).internal_wrenches,
        ),
        "robomodel.physics.pseudo_inertia": lambda m: rm.physics.pseudo_inertia(m.links[1].inertia),
        "robomodel.predict_ft_measurement": lambda m: rm.predict_ft_measurement(
            m, m.sensors[0].name, _q(m)
        ),
        "robomodel.predict_sensor_measurements": lambda m: rm.predict_sensor_measurements(m, _q(m)),
        "robomodel.tools.tree_lines": lambda m: tree_lines(m),
        "robomodel.transformers.fake_links": lambda m: fake_links(m),
    }


# Callables whose result is not robomodel data, each with the reason.
NOT_RESULTS = {
    "robomodel.data.example_path": "a pathlib.Path (immutable) to a bundled file",
    "robomodel.tools.find_problems": "deprecated: model.problems() (checked above)",
    "robomodel.formats.meshes.export_scene": "writes a file; returns its Path",
    "robomodel.formats.usd.dump": "writes a file; returns its Path",
    "robomodel.formats.usd.dump_scene": "writes a file; returns its Path",
    "robomodel.formats.usd.stage_of": "(a new usd-core Usd.Stage per call: foreign, the "
    "caller's to edit; a frozen ConversionReport)",
    "robomodel.tools.save_pose": "writes a file; returns its Path",
    "robomodel.formats.meshes.link_bounds": "trimesh's arrays, computed per call (foreign type)",
    "robomodel.formats.meshes.load_mesh": "a trimesh.Trimesh, a new foreign object per call",
    "robomodel.formats.meshes.shape_trimesh": "a trimesh.Trimesh, a new foreign object per call",
    "robomodel.formats.mjcf.compile_mjcf": "a mujoco.MjModel, a new foreign object per call",
    "robomodel.formats.to_idyntree": "an iDynTree model, a new foreign object per call",
    "robomodel.formats.to_pinocchio": "a Pinocchio model, a new foreign object per call",
    "robomodel.tools.pose_figure": "a new matplotlib figure",
    "robomodel.formats.urdf.report.recording": "a context manager (the list is the caller's)",
    "robomodel.transformers.report.collecting": "a context manager",
    "robomodel.model.validation.check_choice": "returns its argument (a check)",
    "robomodel.model.validation.check_type": "returns its argument (a check)",
    "robomodel.model.validation.read_only": "marks the caller's own array read-only",
    "robomodel.model.validation.keyword_options": "a decorator",
    "robomodel.model.topology.pv": "a pyrsistent PVector (immutable)",
    "robomodel.model.topology.derive": "a frozen record of persistent collections (Model's)",
    "robomodel.model.builders.iter_joints": "an iterator over the model's frozen joints",
    "robomodel.model.joints.replace_joint": "a joint: a frozen record (Joint is a union)",
    "robomodel.physics.sensing.check_sensor": "a sensor: a frozen record (Sensor is a union)",
    "robomodel.formats.dh.set_rig_chain_angles": "(Rig, angles): like set_angles",
    "robomodel.transformers.attach": "a Model, or (Model, AttachMaps): frozen records",
}


def test_every_public_callable_is_covered() -> None:
    fresh = _fresh_calls()
    uncovered = []
    for key, obj in public_callables().items():
        if isinstance(obj, type):
            if not _frozen_class(obj) and key not in NOT_RESULTS and key not in _MUTABLE_CLASSES:
                uncovered.append(f"{key}: a class whose instances can be assigned to")
        elif not (_immutable_annotation(obj) or key in fresh or key in NOT_RESULTS):
            uncovered.append(f"{key}: no entry in _fresh_calls or NOT_RESULTS")
    assert not uncovered, "\n".join(uncovered)
    stale = (set(fresh) | set(NOT_RESULTS)) - set(public_callables())
    assert not stale, f"entries for names that are not public: {sorted(stale)}"


_MUTABLE_CLASSES: dict[str, str] = {
    "robomodel.BatchPoses": "reusable output memory the caller passes as out= (its purpose)",
    "robomodel.transformers.report.Recorder": "collects one explain() call's changes (internal)",
}
"""Public classes whose instances are not frozen records, each with the reason."""


@pytest.mark.parametrize("key", sorted(_fresh_calls()))
def test_fresh_results_are_the_callers_alone(key: str, model: Model) -> None:
    """Two calls share nothing writable: what one caller writes, no other call sees.

    Read-only arrays may be shared only when they cannot be made writable (immutable memory).
    """
    call = _fresh_calls()[key]
    first, second = call(model), call(model)
    mutable = (list, dict, set, bytearray)
    mine = {id(v) for _, v in _reachable(first) if isinstance(v, (*mutable, np.ndarray))}
    for where, v in _reachable(second):
        if id(v) not in mine:
            continue
        assert not isinstance(v, mutable), f"{where} is handed to both calls"
        if isinstance(v, np.ndarray):
            with pytest.raises(ValueError):  # shared, so it must be frozen for good
                v.setflags(write=True)


def test_inverse_dynamics_results_are_immutable(model: Model) -> None:
    from robomodel.physics.dynamics import inverse_dynamics

    result = inverse_dynamics(model, np.zeros(model.n_pos_coords))
    assert_deeply_immutable(result)
    with pytest.raises(ValueError):
        result.joint_torques.setflags(write=True)
