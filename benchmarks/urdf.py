"""URDF load and export of iCubGazeboV2_7: robomodel against iDynTree, Pinocchio and yourdfpy.

Run ``python benchmarks/urdf.py``. The contenders take turns: in each of ``ROUNDS`` rounds every
one of them runs ``BLOCK`` times, so that all see the same machine conditions (on a shared
machine the speed of a core drifts by 10-20% within seconds, which a contender measured alone
would see and the others not). Every figure is the best time over all rounds; ratios are
robomodel's time divided by the peer's (below 1.0 means robomodel is faster). The per-round
load ratios against iDynTree are printed too, as a measure of the noise. ``--cpu`` times with
this process's CPU time instead of the wall clock.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import icub_models

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from robomodel.urdf import dump, load

ROBOT = "iCubGazeboV2_7"
ROUNDS = int(os.environ.get("ROBOMODEL_BENCH_ROUNDS", "10"))
BLOCK = int(os.environ.get("ROBOMODEL_BENCH_BLOCK", "20"))


CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


def best(fn: Callable[[], object], repeat: int = BLOCK) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = CLOCK()
        fn()
        times.append(CLOCK() - t)
    return min(times)


def main() -> None:
    path = str(icub_models.get_model_file(ROBOT))
    out_dir = tempfile.mkdtemp()

    model = load(path)
    contenders: dict[str, Callable[[], object]] = {
        "robomodel load": lambda: load(path),
        "robomodel export": lambda: dump(model, os.path.join(out_dir, "rm.urdf")),
    }

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import idyntree.bindings as idt

    def idt_load() -> object:
        loader = idt.ModelLoader()
        assert loader.loadModelFromFile(path)
        return loader

    keep = idt_load()
    exporter = idt.ModelExporter()
    exporter.init(keep.model())
    contenders["iDynTree load"] = idt_load
    contenders["iDynTree export"] = lambda: exporter.exportModelToFile(
        os.path.join(out_dir, "idt.urdf")
    )

    try:
        import pinocchio as pin

        contenders["Pinocchio load"] = lambda: pin.buildModelFromUrdf(path)
    except ImportError:
        pass
    try:
        import yourdfpy

        contenders["yourdfpy load"] = lambda: yourdfpy.URDF.load(
            path, load_meshes=False, build_scene_graph=False
        )
    except ImportError:
        pass

    results = dict.fromkeys(contenders, float("inf"))
    round_ratios = []
    for _ in range(ROUNDS):
        this_round = {name: best(fn) for name, fn in contenders.items()}
        round_ratios.append(this_round["robomodel load"] / this_round["iDynTree load"])
        for name, t in this_round.items():
            results[name] = min(results[name], t)

    clock = "CPU time" if "--cpu" in sys.argv else "wall-clock time"
    print(f"{ROBOT}: best of {ROUNDS} rounds x {BLOCK} runs, contenders taking turns ({clock})")
    for name, t in results.items():
        print(f"  {name:20s} {t * 1e3:8.2f} ms")
    load_t, export_t = results["robomodel load"], results["robomodel export"]
    print("ratios (robomodel / peer; target <= 1.0 against iDynTree):")
    for name, t in results.items():
        if name.startswith("robomodel"):
            continue
        ours = export_t if "export" in name else load_t
        print(f"  vs {name:20s} {ours / t:6.2f}x")
    print(
        "load vs iDynTree per round: "
        f"min {min(round_ratios):.2f}x, median {statistics.median(round_ratios):.2f}x, "
        f"max {max(round_ratios):.2f}x"
    )


if __name__ == "__main__":
    main()
