"""The module paths of robomodel 0.1 (a flat package) keep working for one release.

Old names give the very module objects of the new ones (so classes are identical, not copies),
warn with the new name, and pickles written by 0.1 load into values equal to today's.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import robomodel
from robomodel._internal.aliases import MOVED
from robomodel.data import example_path
from robomodel.formats import urdf
from robomodel.model.spatial import Axis, SpatialInertia, Transform
from robomodel.transformers import reduce_model

PICKLES = Path(__file__).parent / "data" / "pickles-0.1.0.pkl"


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_name_is_the_new_module(old: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        module = importlib.import_module(f"robomodel.{old}")
    assert module is importlib.import_module(f"robomodel.{MOVED[old]}")
    assert module.__name__ == f"robomodel.{MOVED[old]}"


def test_public_old_names_warn_with_the_new_name() -> None:
    sys.modules.pop("robomodel.kinematics", None)
    with pytest.warns(DeprecationWarning, match=r"robomodel\.physics\.kinematics"):
        from robomodel.kinematics import forward_kinematics
    from robomodel.physics.kinematics import forward_kinematics as new

    assert forward_kinematics is new


def test_old_submodules_are_the_new_ones() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from robomodel.io.json import dumps
        from robomodel.urdf.numbers import format_float  # noqa: F401

        old_load = importlib.import_module("robomodel.urdf.load")
    assert old_load is sys.modules["robomodel.formats.urdf.load"]
    assert dumps is robomodel.formats.json.dumps
    # Importing the old submodule did not replace the package's function by the module.
    assert callable(urdf.load) and urdf.load.__module__ == "robomodel.formats.urdf.load"


def test_pickles_of_0_1_load_equal() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        values = pickle.loads(PICKLES.read_bytes())
    model = urdf.load(example_path())
    legs = [j for j in model.joint_names if any(k in j for k in ("hip", "knee", "ankle"))]
    assert values["example"] == model
    assert values["legs"] == reduce_model(model, keep_joints=legs, lumped_sensors="drop")
    assert values["transform"] == Transform(np.eye(3), [1, 2, 3])
    assert values["axis"] == Axis([0, 0, 1], [0.1, 0, 0])
    assert values["inertia"] == SpatialInertia.from_com(2.0, (0.1, 0, 0), np.diag([0.1, 0.2, 0.3]))
