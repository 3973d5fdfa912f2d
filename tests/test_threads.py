"""No library call changes process-wide state, so calls from many threads agree bit for bit.

Eight threads share one model and run kinematics, dynamics, the batched calls, every
transformer and every writer on it; each result must equal, byte for byte, the one computed
alone before. Process-wide state the library could touch (the garbage collector, numpy's error
and print options, the warnings filters, the working directory, the umask) is compared before
and after each call.
"""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import os
import pickle
import threading
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

import numpy as np
import pytest

import robomodel.transformers as rt
from robomodel.data import example_path
from robomodel.formats import json as rjson
from robomodel.formats import sdf, urdf, usd
from robomodel.identification import regressor_batch
from robomodel.model.record import Model
from robomodel.physics.dynamics import inverse_dynamics, inverse_dynamics_batch
from robomodel.physics.joint_state import JointState
from robomodel.physics.kinematics import forward_kinematics, forward_kinematics_batch


def _bytes(value: Any) -> bytes:
    """A byte string that differs whenever ``value`` differs in any bit."""
    if isinstance(value, Model):
        return rjson.dumps(value).encode()
    if isinstance(value, np.ndarray):
        return value.tobytes() + str(value.shape).encode()
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, dict):
        return b"".join(k.encode() + _bytes(v) for k, v in sorted(value.items()))
    if isinstance(value, tuple):
        return b"|".join(_bytes(v) for v in value)
    return pickle.dumps(value)


def _calls(model: Model) -> dict[str, Callable[[], Any]]:
    rng = np.random.default_rng(7)
    n = model.n_dofs
    state = JointState(rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), rng.uniform(-1, 1, n))
    Q, DQ, DDQ = (rng.uniform(-1, 1, (16, n)) for _ in range(3))
    legs = [j for j in model.joint_names if any(k in j for k in ("hip", "knee", "ankle"))]
    other_base = model.link_names[-1]
    return {
        "fk": lambda: forward_kinematics(model, state.q).base_H_link,
        "fk_batch": lambda: forward_kinematics_batch(model, Q),
        "rnea": lambda: (
            inverse_dynamics(model, state).joint_torques,
            inverse_dynamics(model, state).base_wrench,
        ),
        "rnea_batch": lambda: inverse_dynamics_batch(model, Q, DQ, DDQ),
        "regressor_batch": lambda: regressor_batch(model, Q, DQ, DDQ),
        "reduce": lambda: rt.reduce_model(model, keep_joints=legs, lumped_sensors="drop"),
        "change_base": lambda: rt.change_base(model, other_base),
        "urdf_compatible": lambda: rt.make_urdf_compatible(rt.change_base(model, other_base)),
        "remove_fake_links": lambda: rt.remove_fake_links(model),
        "extract_submodel": lambda: rt.extract_submodel(
            model, rt.submodel_traversals(model, split_joints=legs[:2])[1]
        ),
        "normalize": lambda: rt.normalize_joint_order(model),
        "prefix": lambda: rt.prefix(model, "p_"),
        "explain": lambda: rt.explain(
            partial(rt.reduce_model, keep_joints=legs[:4], lumped_sensors="drop"), model
        )[1],
        "urdf": lambda: urdf.dumps(model),
        "json": lambda: rjson.dumps(model),
        "pickle": lambda: pickle.dumps(model),
        "sdf": lambda: sdf.dumps(model),
        **(
            {"usd": lambda: usd.dumps_with_report(model)[0]}
            if importlib.util.find_spec("pxr") is not None
            else {}
        ),
    }


def _process_state() -> tuple[Any, ...]:
    return (
        gc.isenabled(),
        gc.get_threshold(),
        tuple(sorted(np.geterr().items())),
        tuple(sorted(np.get_printoptions().items(), key=lambda kv: kv[0]).__repr__()),
        tuple(map(repr, warnings.filters)),
        os.getcwd(),
    )


def test_calls_leave_process_state_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """No call changes process-wide state, not even for its own duration (other threads run)."""
    model = urdf.load(example_path())
    touched: list[str] = []
    for owner, name in [
        (gc, "disable"),
        (gc, "freeze"),
        (gc, "set_threshold"),
        (np, "seterr"),
        (np, "set_printoptions"),
        (os, "chdir"),
        (os, "umask"),
        (warnings, "simplefilter"),
        (warnings, "filterwarnings"),
    ]:
        monkeypatch.setattr(owner, name, lambda *a, _n=name, **k: touched.append(_n))
    before = _process_state()
    for name, call in _calls(model).items():
        call()
        assert not touched, f"{name} called {touched}"
        assert _process_state() == before, name


def test_eight_threads_on_one_model_agree_bit_for_bit() -> None:
    model = urdf.load(example_path())
    calls = _calls(model)
    alone = {name: _bytes(call()) for name, call in calls.items()}
    # A fresh model of the same file for the threads: its per-model caches start empty, so the
    # threads race to build them.
    shared = urdf.load(example_path())
    calls = _calls(shared)
    names = sorted(calls) * 8
    start = threading.Barrier(8)

    def run(name: str) -> tuple[str, bytes]:
        with contextlib.suppress(threading.BrokenBarrierError):
            start.wait(timeout=5)
        return name, _bytes(calls[name]())

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, names))
    wrong = sorted({name for name, got in results if got != alone[name]})
    assert not wrong, f"results that differ under threads: {wrong}"


@pytest.mark.parametrize("name", ["urdf", "json"])
def test_writes_from_threads_are_whole(name: str, tmp_path: Any) -> None:
    """Eight threads writing the same file leave one complete file and no temporary one."""
    model = urdf.load(example_path())
    target = tmp_path / f"m.{name}"
    text = urdf.dumps(model) if name == "urdf" else rjson.dumps(model)

    def write(_: int) -> None:
        if name == "urdf":
            urdf.dump(model, target)
        else:
            from robomodel._internal.files import atomic_write

            atomic_write(target, text)

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(write, range(32)))
    assert target.read_text() == text
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
