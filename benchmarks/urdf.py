"""URDF load and export of iCubGazeboV2_7: robomodel against iDynTree, Pinocchio and yourdfpy.

Run ``python benchmarks/urdf.py``. Every figure is the best of N runs in this process; ratios
are robomodel's time divided by the peer's time (below 1.0 means robomodel is faster).
"""

from __future__ import annotations

import os
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
REPEAT = int(os.environ.get("ROBOMODEL_BENCH_REPEAT", "40"))


def best(fn: Callable[[], object], repeat: int = REPEAT) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    path = str(icub_models.get_model_file(ROBOT))
    out_dir = tempfile.mkdtemp()
    results: dict[str, float] = {}

    model = load(path)
    results["robomodel load"] = best(lambda: load(path))
    results["robomodel export"] = best(lambda: dump(model, os.path.join(out_dir, "rm.urdf")))

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
    results["iDynTree load"] = best(idt_load)
    results["iDynTree export"] = best(
        lambda: exporter.exportModelToFile(os.path.join(out_dir, "idt.urdf"))
    )

    try:
        import pinocchio as pin

        results["Pinocchio load"] = best(lambda: pin.buildModelFromUrdf(path))
    except ImportError:
        pass
    try:
        import yourdfpy

        results["yourdfpy load"] = best(
            lambda: yourdfpy.URDF.load(path, load_meshes=False, build_scene_graph=False)
        )
    except ImportError:
        pass

    print(f"{ROBOT}: best of {REPEAT} runs")
    for name, t in results.items():
        print(f"  {name:20s} {t * 1e3:8.2f} ms")
    load_t, export_t = results["robomodel load"], results["robomodel export"]
    print("ratios (robomodel / peer; target <= 1.0 against iDynTree):")
    for name, t in results.items():
        if name.startswith("robomodel"):
            continue
        ours = export_t if "export" in name else load_t
        print(f"  vs {name:20s} {ours / t:6.2f}x")


if __name__ == "__main__":
    main()
