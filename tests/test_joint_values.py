"""The joint-value rule, checked row by row against the table in docs/concepts.md.

The table is the specification: this module reads it, calls every function it lists with every
form of joint values, and checks that the accepted forms agree and that the refused ones raise
the robomodel error the page names. A last test looks for public functions with joint-value
arguments that the table forgets.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import robomodel as rm
from robomodel.errors import ArgumentError, ModelError, RobomodelError, UnknownNameError
from robomodel.formats.meshes import export_scene
from robomodel.formats.urdf import load
from robomodel.identification import lumping_matrix, regressor, regressor_batch
from robomodel.model.validation import check_name, check_name_list
from robomodel.physics.dynamics import inverse_dynamics, inverse_dynamics_batch, link_motion_arrays
from robomodel.physics.joint_state import JointState
from robomodel.physics.kinematics import (
    center_of_mass,
    forward_kinematics,
    forward_kinematics_batch,
    relative_transform,
    total_spatial_inertia,
)
from robomodel.physics.sensing import (
    link_motion,
    predict_ft_measurement,
    predict_sensor_measurements,
)
from robomodel.transformers import reduce_model

ROOT = Path(__file__).resolve().parent.parent
MODEL = load(ROOT / "robomodel" / "data" / "example.urdf")
MOVING = [n for n, j in zip(MODEL.joint_names, MODEL.joints, strict=True) if j.n_dofs]
FIXED = next(n for n, j in zip(MODEL.joint_names, MODEL.joints, strict=True) if not j.n_dofs)
KEEP = MOVING[::2]  # reduce_model and lumping_matrix lock the others
HAND = "r_hand_frame"


def _table() -> list[dict[str, str]]:
    """The rows of the table under "## Joint values" in docs/concepts.md, by column title."""
    text = (ROOT / "docs" / "concepts.md").read_text(encoding="utf-8")
    section = text.split("## Joint values", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in section.splitlines() if ln.startswith("|")]
    cells = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines]
    head, rows = cells[0], cells[2:]
    return [dict(zip(head, row, strict=True)) for row in rows]


TABLE = _table()


def _function(row: dict[str, str]) -> str:
    """The function's name in a row: ``JointState.from_names``, ``forward_kinematics``."""
    match = re.match(r"`([\w.]+)\(", row["Function"])
    assert match, row
    return match.group(1)


# --------------------------------------------------------------------------- how to call each


def _scene(model: rm.Model, q: Any, tmp: Path) -> bytes:
    return export_scene(model, tmp / "scene.stl", q).read_bytes()


def _usd_scene(model: rm.Model, q: Any, tmp: Path) -> bytes:
    pytest.importorskip("pxr")
    from robomodel.formats.usd import dump_scene

    return dump_scene(model, tmp / "scene.usda", q).read_bytes()


def _figure(model: rm.Model, q: Any, tmp: Path) -> list[np.ndarray]:
    from robomodel.tools.plot import pose_figure

    ax = pose_figure(model, q, shapes=None, labels=False, title="").axes[0]
    return [np.asarray(c._segments3d) for c in ax.collections if hasattr(c, "_segments3d")]


def _picture(model: rm.Model, q: Any, tmp: Path) -> bytes:
    from robomodel.tools.plot import save_pose

    out = save_pose(model, tmp / "pose.png", q, dpi=20, shapes=None, labels=False, title="")
    return out.read_bytes()


def _sensor_readings(model: rm.Model, q: Any, tmp: Path) -> list[np.ndarray]:
    return list(predict_sensor_measurements(model, q).values())


def _reduced(model: rm.Model, q: Any, tmp: Path) -> rm.Model:
    return reduce_model(model, keep_joints=KEEP, locked_positions=q, lumped_sensors="drop")


def _state(model: rm.Model, q: Any, tmp: Path) -> list[np.ndarray]:
    # Positions only: a JointState given for velocities would give its own dq, not q.
    st = JointState.from_names(model, positions=q)
    return [st.q, st.dq, st.ddq]


SINGLE: dict[str, Callable[[rm.Model, Any, Path], Any]] = {
    "forward_kinematics": lambda m, q, _: forward_kinematics(m, q).base_H_link,
    "relative_transform": lambda m, q, _: relative_transform(m, q, "l_sole", HAND).as_matrix(),
    "center_of_mass": lambda m, q, _: center_of_mass(m, q),
    "total_spatial_inertia": lambda m, q, _: total_spatial_inertia(m, q).as_vector(),
    "inverse_dynamics": lambda m, q, _: inverse_dynamics(m, q).joint_torques,
    "link_motion_arrays": lambda m, q, _: list(link_motion_arrays(m, q)),
    "link_motion": lambda m, q, _: [
        link_motion(m, q).velocities,
        link_motion(m, q).proper_accelerations,
    ],
    "predict_ft_measurement": lambda m, q, _: predict_ft_measurement(m, "l_leg_ft", q),
    "predict_sensor_measurements": _sensor_readings,
    "regressor": lambda m, q, _: regressor(m, q),
    "reduce_model": _reduced,
    "lumping_matrix": lambda m, q, _: lumping_matrix(m, keep_joints=KEEP, locked_positions=q),
    "export_scene": _scene,
    "dump_scene": _usd_scene,
    "pose_figure": _figure,
    "save_pose": _picture,
    "JointState.from_names": _state,
}

BATCH: dict[str, Callable[[rm.Model, Any], Any]] = {
    "forward_kinematics_batch": lambda m, Q: forward_kinematics_batch(m, Q, frames=[HAND]),
    "inverse_dynamics_batch": lambda m, Q: inverse_dynamics_batch(m, Q, Q, Q),
    "regressor_batch": lambda m, Q: regressor_batch(m, Q, Q, Q),
}


def assert_same(a: Any, b: Any) -> None:
    """Bit for bit: the forms are read into the same floats, so nothing may differ."""
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            assert_same(x, y)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            assert_same(a[k], b[k])
    elif isinstance(a, (rm.Model, bytes)):
        assert a == b
    else:
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


# --------------------------------------------------------------------------- the forms


def _vector(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, MODEL.n_pos_coords)


def _by_name(q: np.ndarray, names: list[str] | None = None) -> dict[str, float]:
    return {n: float(q[MODEL.joint(n).pos_coord_offset]) for n in names or MOVING}


def accepted_forms(q: np.ndarray) -> dict[str, Any]:
    """Every form of the positions ``q`` the rule accepts (a state: at rest at ``q``)."""
    names = np.array(MOVING)  # indexing it gives np.str_ names
    return {
        "vector": q,
        "list": q.tolist(),
        "mapping": _by_name(q),
        "mapping, reversed": dict(reversed(_by_name(q).items())),
        "mapping of lists": {n: [v] for n, v in _by_name(q).items()},
        "mapping with np.str_ keys": {names[k]: v for k, v in enumerate(_by_name(q).values())},
        "JointState": JointState(q, np.zeros(MODEL.n_dofs), np.zeros(MODEL.n_dofs)),
    }


REFUSED: dict[str, tuple[Any, type[RobomodelError]]] = {
    "a string": ("abc", ArgumentError),
    "a ragged list": ([[0.0], [0.0, 1.0]], ArgumentError),
    "a NaN": (np.full(MODEL.n_pos_coords, np.nan), ArgumentError),
    "complex numbers": (np.zeros(MODEL.n_pos_coords, complex), ArgumentError),
    "the wrong size": (np.zeros(MODEL.n_pos_coords + 1), ModelError),
    "a matrix": (np.zeros((2, MODEL.n_pos_coords)), ArgumentError),
    "an unknown joint": ({"no_such_joint": 0.0}, UnknownNameError),
    "a fixed joint": ({FIXED: 0.0}, ModelError),
    "a non-number": ({MOVING[0]: object()}, ArgumentError),
    "a non-string key": ({3: 0.0}, ArgumentError),
    "two values for one coordinate": ({MOVING[0]: [0.0, 1.0]}, ModelError),
    "a state of the wrong size": (JointState([0.0], [0.0], [0.0]), ModelError),
}

ROWS = [pytest.param(row, id=_function(row)) for row in TABLE if _function(row) in SINGLE]
BATCH_ROWS = [pytest.param(row, id=_function(row)) for row in TABLE if _function(row) in BATCH]


def test_every_row_has_a_check():
    """The table and the checks below name the same functions, each once."""
    names = [_function(row) for row in TABLE]
    assert len(names) == len(set(names))
    assert set(names) == SINGLE.keys() | BATCH.keys()
    for row in TABLE:
        assert row["`None`"] in {"refused", "all zero"}, row
        assert ("(N," in row["Accepts"]) == (_function(row) in BATCH), row


@pytest.mark.parametrize("row", ROWS)
def test_accepted_forms_agree(row, tmp_path):
    """Every accepted form of the same positions gives the same result as the vector."""
    call = SINGLE[_function(row)]
    q = _vector(1)
    want = call(MODEL, q, tmp_path)
    for form, value in accepted_forms(q).items():
        try:
            assert_same(call(MODEL, value, tmp_path), want)
        except AssertionError as e:
            raise AssertionError(f"{form}: {e}") from None
    whole = np.round(q * 4)  # small integers, exactly representable
    assert_same(call(MODEL, whole.astype(int), tmp_path), call(MODEL, whole, tmp_path))


@pytest.mark.parametrize("row", ROWS)
def test_none_and_left_out_joints(row, tmp_path):
    """``None`` and the joints a mapping leaves out mean what the table says."""
    call = SINGLE[_function(row)]
    zero = np.zeros(MODEL.n_pos_coords)
    if row["`None`"] == "all zero":
        assert_same(call(MODEL, None, tmp_path), call(MODEL, zero, tmp_path))
    else:
        with pytest.raises(ArgumentError, match="None"):
            call(MODEL, None, tmp_path)
    q = _vector(2)
    some = MOVING[: len(MOVING) // 2]
    partial = _by_name(q, some)
    if row["Joints left out of a mapping"] == "zero":
        filled = zero.copy()
        for name, value in partial.items():
            filled[MODEL.joint(name).pos_coord_offset] = value
        assert_same(call(MODEL, partial, tmp_path), call(MODEL, filled, tmp_path))
        assert_same(call(MODEL, {}, tmp_path), call(MODEL, zero, tmp_path))
    else:
        assert row["Joints left out of a mapping"].startswith("refused"), row
        with pytest.raises(ModelError, match="missing for joints") as info:
            call(MODEL, partial, tmp_path)
        assert MOVING[-1] in str(info.value)


@pytest.mark.parametrize("row", ROWS)
@pytest.mark.parametrize("form", REFUSED)
def test_refused_forms(row, form, tmp_path):
    """Each refused form raises the robomodel error of its kind, never a foreign exception."""
    value, error = REFUSED[form]
    with pytest.raises(error):
        SINGLE[_function(row)](MODEL, value, tmp_path)


@pytest.mark.parametrize("row", BATCH_ROWS)
def test_batch_forms(row):
    """Batch functions take an (N, n) array or nested lists, and refuse every other form."""
    call = BATCH[_function(row)]
    Q = np.stack([_vector(3), _vector(4)])
    assert_same(call(MODEL, Q.tolist()), call(MODEL, Q))
    refused: dict[str, tuple[Any, type[RobomodelError]]] = {
        "None": (None, ArgumentError),
        "a mapping": (_by_name(Q[0]), ArgumentError),
        "a JointState": (JointState.zeros(MODEL), ArgumentError),
        "one vector": (Q[0], ArgumentError),
        "a string": ("abc", ArgumentError),
        "the wrong width": (np.zeros((2, MODEL.n_pos_coords + 1)), ModelError),
        "a NaN": (np.full_like(Q, np.nan), ArgumentError),
    }
    for form, (value, error) in refused.items():
        with pytest.raises(error):
            call(MODEL, value)
        assert form


def test_positional_options_still_work_with_a_warning():
    """``frames`` and ``lumping_matrix``'s options are keyword-only; by position they warn."""
    Q = np.zeros((2, MODEL.n_pos_coords))
    want = forward_kinematics_batch(MODEL, Q, frames=[HAND])
    with pytest.warns(DeprecationWarning, match=r"frames=\.\.\."):
        got = forward_kinematics_batch(MODEL, Q, [HAND])  # type: ignore[misc]
    assert_same(got, want)
    locked = {MOVING[1]: 0.3}
    want_L = lumping_matrix(MODEL, keep_joints=KEEP, locked_positions=locked)
    with pytest.warns(DeprecationWarning, match="keep_joints, locked_positions"):
        got_L = lumping_matrix(MODEL, KEEP, locked)  # type: ignore[misc]
    assert_same(got_L, want_L)
    with pytest.raises(TypeError, match="multiple values"):
        forward_kinematics_batch(MODEL, Q, [HAND], frames=[HAND])  # type: ignore[misc]
    with pytest.raises(TypeError, match="positional arguments"):
        forward_kinematics_batch(MODEL, Q, [HAND], None)  # type: ignore[misc]


# --------------------------------------------------------------------------- names


def test_names_may_be_numpy_strings():
    """A ``str`` subclass is a name everywhere, and what is stored is a plain ``str``."""
    links = np.array(MODEL.link_names)
    joints = np.array(MODEL.joint_names)
    assert type(check_name(links[0], "link")) is str
    assert [type(n) for n in check_name_list(joints[:3], "joints")] == [str] * 3
    assert MODEL.link_index(links[4]) == 4
    assert MODEL.joint(joints[2]) == MODEL.joints[2]
    assert MODEL.frame_index(links[5]) == 5
    assert MODEL.link(links[3]) == MODEL.links[3]
    grown = rm.add_link(MODEL, np.str_("extra"))
    grown = rm.add_frame(grown, links[0], np.str_("spot"))
    assert type(grown.link_names[-1]) is str and type(grown.frames[-1].name) is str
    kept = joints[:4]
    assert reduce_model(MODEL, keep_joints=kept, lumped_sensors="drop") == reduce_model(
        MODEL, keep_joints=[str(n) for n in kept], lumped_sensors="drop"
    )
    with pytest.raises(UnknownNameError) as info:
        MODEL.link_index(np.str_("nope"))
    assert "np.str_" not in str(info.value) and "'nope'" in str(info.value)
    with pytest.raises(ArgumentError):
        check_name(np.str_(""), "link")


# --------------------------------------------------------------------------- completeness

ARGUMENT_NAMES = {"q", "state", "positions", "locked_positions", "Q", "DQ", "DDQ"}
PACKAGES = ["physics", "identification", "transformers", "formats", "tools"]
NOT_JOINT_VALUES = {
    # The rule itself.
    "positions_of": "robomodel.physics.joint_state",
    "state_of": "robomodel.physics.joint_state",
    # The lumping engine behind the transformers, handed their already-read positions.
    "lump": "robomodel.transformers.engine",
    # DH chains are not Models: their angles are a vector in DOF order (docs/concepts.md).
    "set_angles": "robomodel.formats.dh.chain",
    "set_rig_chain_angles": "robomodel.formats.dh.rig",
}


def _public_functions() -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for package in PACKAGES:
        root = importlib.import_module(f"robomodel.{package}")
        for info in pkgutil.walk_packages(root.__path__, f"robomodel.{package}."):
            if any(part.startswith("_") for part in info.name.split(".")):
                continue
            try:
                module = importlib.import_module(info.name)
            except ImportError:  # an optional dependency (idyntree, pinocchio) is missing
                continue
            for name in getattr(module, "__all__", ()):
                obj = getattr(module, name)
                if inspect.isfunction(obj) and obj.__module__ == module.__name__:
                    found[name] = obj
    return found


def test_the_table_lists_every_function_taking_joint_values():
    """A public function with an argument named like joint values is in the table."""
    listed = {_function(row) for row in TABLE}
    takes = {
        name
        for name, f in _public_functions().items()
        if ARGUMENT_NAMES & inspect.signature(f).parameters.keys()
    }
    assert takes - listed == NOT_JOINT_VALUES.keys()
    functions = _public_functions()
    for name, module in NOT_JOINT_VALUES.items():
        assert functions[name].__module__ == module
