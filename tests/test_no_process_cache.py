"""No process-wide cache: what robomodel computes for one model never stays behind in a module.

A model keeps what it computed (traversals, plans) in its own per-value memo, which goes away
with the model; a module-level container that grows with the models a process handles is a
memory leak in a long-running process and makes a first call's cost depend on what ran before.
The test walks every imported ``robomodel`` module, records the size of each module-level
``dict``, ``list``, ``set`` and the fill of each ``functools`` cache, loads, exports and
transforms ten different models, and checks that none of them grew.

Registries keyed by class (the trusted makers of :mod:`robomodel._internal.construct`) are
bounded by the number of classes: a first round on other models fills them before the
sizes are recorded, so only growth with the number of models shows.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable

import icub_models
import numpy as np
import pytest

import robomodel as rm
import robomodel.transformers as rt
from robomodel.formats import json as rm_json
from robomodel.formats import mjcf, urdf
from robomodel.identification import regressor_batch
from robomodel.physics.dynamics import inverse_dynamics_batch
from robomodel.physics.kinematics import forward_kinematics_batch

# The distinct robot files of icub-models (iCub variants, a hand, a wrist): the last ten are the
# models whose traces are looked for; the others and robomodel's bundled example warm up what is
# bounded by class.
ROBOTS = sorted(icub_models.get_robot_names())


def _sizes() -> dict[str, int]:
    """Module attribute -> its size, for every container held at module level by robomodel."""
    out: dict[str, int] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("robomodel") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            key = f"{name}.{attr}"
            info = getattr(value, "cache_info", None)
            if callable(info) and callable(getattr(value, "cache_clear", None)):
                out[key] = info().currsize
            elif isinstance(value, (dict, list, set)):
                out[key] = len(value)
    return out


def _exercise(path: str) -> None:
    """Load one robot and do what users do with it: export, transform, compute."""
    model = urdf.load(path)
    with_fakes = urdf.load(path, options=urdf.LoadOptions(remove_fake_links=False))
    moving = [n for n, j in zip(model.joint_names, model.joints, strict=True) if j.n_dofs]
    half = moving[: len(moving) // 2]
    last = model.link_names[-1]
    steps: list[Callable[[], object]] = [
        lambda: urdf.loads(urdf.dumps(model)),
        lambda: rm_json.loads(rm_json.dumps(model)),
        lambda: mjcf.dumps(model),
        lambda: rt.reduce_model(model, keep_joints=half, lumped_sensors="drop"),
        lambda: rt.change_base(model, last),
        lambda: rt.make_urdf_compatible(rm.with_default_base_link(model, last)),
        lambda: rt.remove_fake_links(with_fakes),
        lambda: rt.normalize_joint_order(model, base_link=last),
        lambda: rt.name_solid_shapes(model),
        lambda: rt.extract_submodel(model, rt.submodel_traversals(model, split_joints=half)[0]),
    ]
    for step in steps:
        step()
    rng = np.random.default_rng(len(path))
    Q, DQ, DDQ = (rng.uniform(-1, 1, (3, model.n_dofs)) for _ in range(3))
    if model.n_pos_coords == model.n_dofs:
        forward_kinematics_batch(model, Q)
        inverse_dynamics_batch(model, Q, DQ, DDQ)
        regressor_batch(model, Q, DQ, DDQ)


@pytest.mark.filterwarnings("ignore::robomodel.errors.RobomodelWarning")
def test_no_module_level_container_grows_with_the_models_handled() -> None:
    """After a warm-up on other robots, ten robots leave every module container as it was."""
    from robomodel.data import example_path

    assert len(ROBOTS) >= 14, ROBOTS
    paths = [str(icub_models.get_model_file(r)) for r in ROBOTS]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path in [str(example_path()), *paths[:-10]]:
            _exercise(path)
        before = _sizes()
        for path in paths[-10:]:
            _exercise(path)
    after = _sizes()
    grown = {
        k: (before.get(k, 0), n)
        for k, n in after.items()
        if n > before.get(k, 0) and k in before  # a module first imported now starts anew
    }
    new_modules = sorted({k.rsplit(".", 1)[0] for k in after.keys() - before.keys()})
    assert not grown, f"module-level containers grew (before, after): {grown}"
    # Modules imported only by the second round would escape the comparison: there are none.
    assert not new_modules, new_modules


def test_the_size_walk_sees_module_containers_and_functools_caches() -> None:
    """The walk finds a module-level dict and a functools cache, and sees them grow."""
    import functools
    import types

    module = types.ModuleType("robomodel._probe_for_test")

    @functools.cache
    def cached(x: int) -> int:
        return x

    module.table = {}  # type: ignore[attr-defined]
    module.cached = cached  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    try:
        before = _sizes()
        module.table["k"] = 1  # type: ignore[attr-defined]
        cached(1)
        after = _sizes()
    finally:
        del sys.modules[module.__name__]
    assert after["robomodel._probe_for_test.table"] == before["robomodel._probe_for_test.table"] + 1
    assert after["robomodel._probe_for_test.cached"] == 1
