"""SDFormat: robomodel's ``sdf.load`` against Drake's parser on the same files.

Run ``python benchmarks/sdf.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed in paired
rounds by ``_harness``. First-call rows: robomodel's ``sdf.load(path)`` (a new model from the
file, its module caches emptied) against Drake's ``Parser(MultibodyPlant(0.0)).AddModels(path)``
on a new plant and parser (made untimed; Drake's plant is left unfinalised, the parse alone is
timed, and no SceneGraph is registered, so neither side loads meshes), on

* robomodel's SDFormat export of iCubGazeboV2_7 (39 links, 233 frames, 83 sensors);
* Drake's own bundled ``planar_gripper.sdf`` (the largest model in the wheel) and
  ``Acrobot.sdf``.

The target: robomodel within 2x of Drake's parser. ``--table`` prints instead the peer table of
``docs/sdf.md``: for every icub-models robot, what robomodel's URDF -> SDFormat export keeps,
and what Drake reads of that export and of the URDF itself.
"""

from __future__ import annotations

import os
import sys
import tempfile
import warnings
from typing import Any

import _harness as h
import icub_models
import pydrake
from pydrake.multibody.parsing import Parser
from pydrake.multibody.plant import MultibodyPlant

import robomodel as rm

sdf = h.rm_module("formats.sdf")
urdf = h.rm_module("formats.urdf")

ROBOT = "iCubGazeboV2_7"
DRAKE = os.path.join(os.path.dirname(pydrake.__file__), "share", "drake", "examples")
ICUB_SHARE = os.path.dirname(icub_models.get_models_path())


def _parser() -> Any:
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().Add("iCub", ICUB_SHARE)
    return plant, parser  # the plant too: the parser does not keep it alive


def bench(argv: list[str], folder: str) -> None:
    s = h.settings(h.parser(__doc__).parse_args(argv), rounds=9, block=0.2)
    warnings.simplefilter("ignore")
    exported = os.path.join(folder, f"{ROBOT}.sdf")
    sdf.dump(h.load_icub(ROBOT), exported)
    files = [
        (f"{ROBOT} (robomodel's export)", exported),
        (
            "planar_gripper.sdf (Drake's)",
            os.path.join(DRAKE, "planar_gripper", "planar_gripper.sdf"),
        ),
        ("Acrobot.sdf (Drake's)", os.path.join(DRAKE, "acrobot", "Acrobot.sdf")),
    ]

    def nothing() -> None:
        return None

    cases: list[h.Case | h.Fresh] = [
        h.Fresh(
            f"SDFormat load, {label}",
            nothing,
            lambda _, path=path: sdf.load(path),
            "Drake `Parser(MultibodyPlant(0.0)).AddModels(path)`, a new plant each call",
            _parser,
            lambda pair, path=path: pair[1].AddModels(path),
        )
        for label, path in files
    ]
    h.header("SDFormat load against Drake's parser (target <= 2.0x)", s)
    h.finish("sdf", h.measure(cases, s), s)


def _drake_counts(
    names: list[str], *, path: str | None = None, text: str | None = None
) -> tuple[int, int, float]:
    """Drake's bodies, how many of the frame ``names`` it has (as a frame or a body), and the
    total mass, of a file or SDFormat text."""
    plant = MultibodyPlant(0.0)
    parser = Parser(plant)
    parser.package_map().Add("iCub", ICUB_SHARE)
    instances = parser.AddModels(path) if path else parser.AddModelsFromString(text, "sdf")
    bodies = [plant.get_body(b) for i in instances for b in plant.GetBodyIndices(i)]
    found = sum(any(plant.HasFrameNamed(n, i) for i in instances) for n in names)
    return len(bodies), found, sum(b.default_mass() for b in bodies)


def table() -> None:
    print(
        "| robot | URDF: links / frames / sensors / mass (kg) | robomodel SDF export, read back "
        "| Drake on the export: bodies / frames found / mass "
        "| Drake on the URDF: bodies / frames found / mass |"
    )
    print("|---|---|---|---|---|")
    warnings.simplefilter("ignore")
    for name in sorted(icub_models.get_robot_names()):
        path = str(icub_models.get_model_file(name))
        model = urdf.load(path)
        text = sdf.dumps(model)
        back = sdf.loads(text)
        same = "== (all kept)" if back == model else "differs"
        first = (
            f"{model.n_links} / {len(model.frames)} / {len(model.sensors)} / {model.total_mass:.3f}"
        )
        mine = (
            f"{back.n_links} / {len(back.frames)} / {len(back.sensors)} / "
            f"{back.total_mass:.3f}, {same}"
        )
        cells = []
        for kw in ({"text": text}, {"path": path}):
            try:
                names = [f.name for f in model.frames]
                n, f, m = _drake_counts(names, **kw)  # type: ignore[arg-type]
                cells.append(f"{n} / {f} / {m:.3f}")
            except RuntimeError as exc:
                cells.append("**refused**: " + str(exc).split("error: ")[-1].splitlines()[0][:60])
        print(f"| {name} | {first} | {mine} | {cells[0]} | {cells[1]} |")
    _ = rm


if __name__ == "__main__":
    if "--table" in sys.argv:
        table()
    else:
        with tempfile.TemporaryDirectory() as folder:
            bench(sys.argv[1:], folder)
