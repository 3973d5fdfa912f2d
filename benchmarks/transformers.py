"""Transformers on iCubGazeboV2_7: robomodel.transformers against iDynTree's ModelTransformers.

Run ``python benchmarks/transformers.py``. Both libraries transform the same model (loaded by
iDynTree and converted, so the URDF loader is not measured). The two take turns in rounds; it
prints the median time per call of each, the median of the per-round ratios robomodel /
iDynTree and their range (a measure of the machine's noise), all measured in this run.
``--profile NAME`` prints a cProfile of one robomodel transformer instead.
"""

from __future__ import annotations

import cProfile
import pstats
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import icub_models

_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(_ROOT), str(_ROOT / "tests")]
from _idyntree_convert import idt, load_idt, model_from_idt  # noqa: E402

import robomodel.transformers as rt  # noqa: E402
from robomodel.builders import with_default_base_link  # noqa: E402

ROBOT = "iCubGazeboV2_7"


def calls_per_block(f: Callable[[], object], block: float) -> int:
    """How many calls of ``f`` take about ``block`` seconds."""
    f()
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            f()
        if time.perf_counter() - t > block / 4:
            return max(1, int(n * block / (time.perf_counter() - t)))
        n *= 2


def per_call(f: Callable[[], object], n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n


def paired_times(
    ours: Callable[[], object],
    theirs: Callable[[], object],
    *,
    rounds: int = 9,
    block: float = 0.04,
) -> tuple[float, float, list[float]]:
    """Per-call medians of ``ours`` and ``theirs`` and the per-round ratios.

    The two take turns, a block of about ``block`` seconds each per round, so both see the
    same machine conditions (on a shared machine a core's speed drifts by 10-20% within
    seconds, which one measured after the other would see and the other not).
    """
    na, nb = calls_per_block(ours, block), calls_per_block(theirs, block)
    a, b = [], []
    for _ in range(rounds):
        a.append(per_call(ours, na))
        b.append(per_call(theirs, nb))
    return statistics.median(a), statistics.median(b), [x / y for x, y in zip(a, b, strict=True)]


def main() -> None:
    warnings.simplefilter("ignore")
    im = load_idt(str(icub_models.get_model_file(ROBOT)))
    m = model_from_idt(im)
    moving = [n for n, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs]
    legs = [n for n in moving if any(k in n for k in ("hip", "knee", "ankle"))]
    foot = "l_foot"
    # From a foot many link frames are off their joint axes, so make_urdf_compatible has work.
    im_foot = idt.Model(im)
    im_foot.setDefaultBaseLink(im_foot.getLinkIndex(foot))
    m_foot = with_default_base_link(m, foot)
    tr = idt.Traversal()
    im.computeFullTreeTraversal(tr)
    sd = idt.SubModelDecomposition()
    sd.splitModelAlongJoints(im, tr, legs)
    parts = rt.submodel_traversals(m, split_joints=legs)
    k = max(range(len(parts)), key=lambda i: len(parts[i]))  # the torso part, the largest
    sub_t = sd.getTraversal(k)

    def idt_call(fn: Callable[..., bool], *args: object) -> Callable[[], object]:
        def run() -> object:
            out = idt.Model()
            assert fn(*args, out)
            return out

        return run

    def idt_reduce(joints: list[str]) -> Callable[[], object]:
        def run() -> object:
            out = idt.Model()
            assert idt.createReducedModel(im, joints, out)
            return out

        return run

    cases: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (
            "reduce, all moving joints",
            lambda: rt.reduce_model(m, keep_joints=moving, lumped_sensors="drop"),
            idt_reduce(moving),
        ),
        (
            "reduce, leg joints",
            lambda: rt.reduce_model(m, keep_joints=legs, lumped_sensors="drop"),
            idt_reduce(legs),
        ),
        (
            "normalize (from l_foot)",
            lambda: rt.normalize_joint_order(m, base_link=foot),
            idt_call(idt.createModelWithNormalizedJointNumbering, im, foot),
        ),
        (
            "move frames (base l_foot)",
            lambda: rt.make_urdf_compatible(m_foot),
            idt_call(idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink, im_foot),
        ),
        (
            "extract (torso part of the leg split)",
            lambda: rt.extract_submodel(m, parts[k]),
            idt_call(idt.extractSubModel, im, sub_t),
        ),
        (
            "remove fake links (none left: a no-op)",
            lambda: rt.remove_fake_links(m),
            idt_call(idt.removeFakeLinks, im),
        ),
        (
            "name solid shapes",
            lambda: rt.name_solid_shapes(m),
            idt_call(idt.addValidNamesToAllSolidShapes, im),
        ),
    ]
    if len(sys.argv) > 2 and sys.argv[1] == "--profile":
        f = next(c[1] for c in cases if c[0].startswith(sys.argv[2]))
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(200):
            f()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)
        return
    size = f"{m.n_links} links, {m.n_joints} joints, {m.n_frames} frames"
    print(f"{ROBOT}: {size}, {len(m.sensors)} sensors")
    print(f"{'transformer':42s} {'robomodel':>11s} {'iDynTree':>11s} {'ratio':>7s}  per round")
    for name, ours, theirs in cases:
        a, b, ratios = paired_times(ours, theirs)
        print(
            f"{name:42s} {a * 1e3:8.3f} ms {b * 1e3:8.3f} ms {statistics.median(ratios):6.2f}x"
            f"  {min(ratios):.2f}-{max(ratios):.2f}x"
        )


if __name__ == "__main__":
    main()
