"""DH chains: robomodel.dh against iDynTree's DH bridge, measured in one run.

Run with ``python benchmarks/dh.py``. Prints per-call times and the ratio robomodel / iDynTree
(below 1 means robomodel is faster).

1. End-effector pose of the iCub right arm (10 links) at new angles: robomodel's
   ``set_angles`` + ``end_effector_pose`` vs iDynTree ``KinDynComputations.setJointPos`` +
   ``getRelativeTransform`` on the model built by ``CreateModelFromDHChain``.
2. ``chain_to_model`` vs iDynTree ``CreateModelFromDHChain``.
3. ``model_to_chain`` on iCubGazeboV2_7 (root_link -> r_hand_dh_frame) vs iDynTree
   ``ExtractDHChainFromModel``.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

import icub_models
import idyntree.bindings as idt
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from robomodel.dh import (
    chain_to_model,
    icub_arm,
    model_to_chain,
    release_link,
    set_angles,
)
from robomodel.urdf import load


def best(fn: object, number: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=5)) / number  # type: ignore[arg-type]


def idyntree_chain(chain: object) -> object:
    dh = idt.DHChain()
    dh.setNrOfDOFs(chain.n_links)  # type: ignore[attr-defined]
    dh.setH0(idt.Transform(chain.H0.as_matrix()))  # type: ignore[attr-defined]
    dh.setHN(idt.Transform(chain.HN.as_matrix()))  # type: ignore[attr-defined]
    for k, lk in enumerate(chain.links):  # type: ignore[attr-defined]
        link = dh(k)
        link.A, link.D, link.Alpha, link.Offset = lk.a, lk.d, lk.alpha, lk.offset
        link.Min, link.Max = lk.min, lk.max
        dh.setDOFName(k, f"joint{k}")  # iDynTree names the joints after these; empty ones clash
    return dh


def main() -> None:
    chain = icub_arm("right", "2.7")
    for i in range(3):
        chain = release_link(chain, i)
    rng = np.random.default_rng(0)
    qs = [np.array([rng.uniform(lk.min, lk.max) for lk in chain.links]) for _ in range(64)]

    dh = idyntree_chain(chain)
    model = idt.Model()
    assert idt.CreateModelFromDHChain(dh, model)
    kd = idt.KinDynComputations()
    assert kd.loadRobotModel(model)

    it = iter(range(10**9))

    def rm_fk() -> None:
        q = qs[next(it) % 64]
        set_angles(chain, q)[0].end_effector_pose()

    def idt_fk() -> None:
        q = qs[next(it) % 64]
        kd.setJointPos(q)
        kd.getRelativeTransform("baseFrame", "distalFrame")

    rows = []
    rows.append(("end-effector pose, iCub arm (10 links)", best(rm_fk, 2000), best(idt_fk, 2000)))

    def rm_build() -> None:
        chain_to_model(chain)

    def idt_build() -> None:
        idt.CreateModelFromDHChain(dh, idt.Model())

    rows.append(
        ("chain_to_model vs CreateModelFromDHChain", best(rm_build, 500), best(idt_build, 500))
    )

    path = str(icub_models.get_model_file("iCubGazeboV2_7"))
    rm_model = load(path)
    loader = idt.ModelLoader()
    assert loader.loadModelFromFile(path)
    idt_model = loader.model().copy()

    def rm_extract() -> None:
        model_to_chain(rm_model, "root_link", "r_hand_dh_frame")

    def idt_extract() -> None:
        idt.ExtractDHChainFromModel(idt_model, "root_link", "r_hand_dh_frame", idt.DHChain())

    rows.append(
        (
            "model_to_chain vs ExtractDHChainFromModel (iCub)",
            best(rm_extract, 200),
            best(idt_extract, 200),
        )
    )

    print(f"{'operation':52s} {'robomodel':>12s} {'iDynTree':>12s} {'ratio':>7s}")
    for name, a, b in rows:
        print(f"{name:52s} {a * 1e6:10.1f}us {b * 1e6:10.1f}us {a / b:7.2f}")


if __name__ == "__main__":
    main()
