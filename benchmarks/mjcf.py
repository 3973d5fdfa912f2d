"""MJCF export and import of iCubGazeboV2_7 against MuJoCo compiling the URDF itself.

Run ``python benchmarks/mjcf.py``. Contenders take turns (``ROUNDS`` rounds of ``BLOCK`` runs
each, the best time kept), as in ``benchmarks/urdf.py``:

- MuJoCo's own URDF import: ``mujoco.MjModel.from_xml_string`` on the URDF text with its
  ``package://`` URIs replaced by the directory that holds them (MuJoCo 4.0 does not resolve
  them);
- robomodel's export plus MuJoCo's compile of the MJCF it writes (the target: within 2x);
- robomodel's import of that MJCF (MuJoCo's compile plus building the model).

Both sides load the same meshes; ``--no-meshes`` times both without them. ``--table`` prints
instead the peer table of ``docs/mjcf.md``: for every icub-models robot, what MuJoCo's URDF
import and robomodel's export keep.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import icub_models
import mujoco

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import robomodel as rm
from robomodel.formats import mjcf
from robomodel.formats.urdf import load

ROBOT = "iCubGazeboV2_7"
ROUNDS = 1 if "--quick" in sys.argv else int(os.environ.get("ROBOMODEL_BENCH_ROUNDS", "5"))
BLOCK = int(os.environ.get("ROBOMODEL_BENCH_BLOCK", "3"))
CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


def share_dir(urdf: str) -> str:
    """The directory holding the ``iCub`` package folder of an icub-models URDF."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(urdf))))


def mujoco_urdf_text(urdf: str, *, meshes: bool = True) -> str:
    """The URDF text MuJoCo can compile: package URIs made absolute, or shapes removed."""
    with open(urdf, encoding="utf-8") as fh:
        text = fh.read()
    if meshes:
        return text.replace("package://", share_dir(urdf) + "/")
    import re

    return re.sub(r"<(visual|collision)\b.*?</\1>", "", text, flags=re.S)


def best_of_rounds(contenders: dict[str, Callable[[], object]]) -> dict[str, float]:
    best = dict.fromkeys(contenders, float("inf"))
    for fn in contenders.values():
        fn()
    for _ in range(ROUNDS):
        for name, fn in contenders.items():
            for _ in range(BLOCK):
                t = CLOCK()
                fn()
                best[name] = min(best[name], CLOCK() - t)
    return best


def bench() -> None:
    meshes = "--no-meshes" not in sys.argv
    path = str(icub_models.get_model_file(ROBOT))
    model = rm.with_package_dirs(load(path), [share_dir(path)])
    options = mjcf.DumpOptions(meshes=meshes, visuals=meshes, collisions=meshes)
    text, _ = mjcf.dumps_with_report(model, options=options)
    urdf_text = mujoco_urdf_text(path, meshes=meshes)

    def ours_export() -> object:
        return mjcf.compile_mjcf(mjcf.dumps_with_report(model, options=options)[0])

    contenders: dict[str, Callable[[], object]] = {
        "MuJoCo compiles the URDF": lambda: mujoco.MjModel.from_xml_string(urdf_text),
        "robomodel export + MuJoCo compile": ours_export,
        "robomodel export alone": lambda: mjcf.dumps_with_report(model, options=options),
        "robomodel import of the MJCF": lambda: mjcf.loads_with_report(text),
    }
    t = best_of_rounds(contenders)
    peer = t["MuJoCo compiles the URDF"]
    print(f"{ROBOT}, meshes {'on' if meshes else 'off'}; best of {ROUNDS}x{BLOCK} runs")
    for name, v in t.items():
        print(f"  {name:36s} {v * 1e3:9.2f} ms   ratio {v / peer:5.2f}")
    ratio = t["robomodel export + MuJoCo compile"] / peer
    print(f"target: export + compile within 2x of MuJoCo's URDF compile -> {ratio:.2f}x")


def table() -> None:
    print(
        "| robot | mass (kg) | MuJoCo URDF import: compiles / mass kept / sensors / frames "
        "| robomodel export: compiles / mass kept / sensors / frames / changed |"
    )
    print("|---|---|---|---|")
    for name in sorted(icub_models.get_robot_names()):
        path = str(icub_models.get_model_file(name))
        model = rm.with_package_dirs(load(path), [share_dir(path)])
        n_sensors = sum(
            2 if isinstance(s, rm.SixAxisForceTorqueSensor) else 1 for s in model.sensors
        )
        n_frames = model.n_frames - model.n_links
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                peer = mujoco.MjModel.from_xml_string(mujoco_urdf_text(path))
            theirs = (
                f"yes / {peer.body_mass.sum():.2f} / {peer.nsensor} of {n_sensors} / "
                f"{peer.nsite} of {n_frames}"
            )
        except ValueError as exc:
            theirs = "**no**: " + str(exc).splitlines()[0].removeprefix("Error: ")[:60]
        text, report = mjcf.dumps_with_report(model)
        ours = mjcf.compile_mjcf(text)
        frames = sum(
            mujoco.mj_name2id(ours, mujoco.mjtObj.mjOBJ_SITE, f.name) >= 0 for f in model.frames
        )
        mine = (
            f"yes / {ours.body_mass.sum():.2f} / {ours.nsensor} of {n_sensors} / "
            f"{frames} of {n_frames} / {len(report.of('changed'))}"
        )
        print(f"| {name} | {model.total_mass:.2f} | {theirs} | {mine} |")


if __name__ == "__main__":
    table() if "--table" in sys.argv else bench()
