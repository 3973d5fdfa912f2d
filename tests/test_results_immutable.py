"""Every record a public function returns is immutable all the way down, memoised or not.

A result that is memoised per model (base parameters, mimic maps) is handed to every caller:
writing into it would change what a later call computes. The property checked on each result: no
plain ``list``, ``dict``, ``set`` or ``bytearray`` is reachable from it, every array reachable
refuses ``setflags(write=True)`` (on itself and its bases), and no attribute can be set. Fresh
arrays a function computes for its caller alone (a regressor matrix) are the caller's and are not
results in this sense.
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
