"""Transformers on iCubGazeboV2_7: robomodel.transformers against iDynTree's ModelTransformers.

Run ``python benchmarks/transformers.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed
in paired rounds by ``_harness``.

First-call rows (the one call a user makes after loading a robot): before every timed call
each library loads iCubGazeboV2_7 from its URDF with its own loader (not timed), so robomodel's
per-model caches (traversals, plans) are empty, as they are after a load; iDynTree keeps nothing
between calls anyway. Each row names iDynTree's function, called once per timed call (batch
size one, like robomodel's); its output goes into a new ``iDynTree.Model``.
``remove_fake_links`` runs on the model loaded with its fake links kept
(``LoadOptions(remove_fake_links=False)``; iDynTree gets the same model through
``robomodel.formats.to_idyntree``, not timed).

Rows saying "repeated" time many calls on one model after a warm-up (robomodel's per-model
caches full). ``--profile NAME`` prints a cProfile of 20 first calls (each as the harness times
it: module caches emptied, a fresh model, the garbage collector run) of the robomodel row whose
name starts so (sorted by ``tottime``, or by the ``SORT`` environment variable).
"""

from __future__ import annotations

import cProfile
import gc
import os
import pstats
import warnings
from collections.abc import Callable
from typing import Any

import _harness as h

import robomodel as rm
import robomodel.transformers as rt

urdf = h.rm_module("formats.urdf")
to_idyntree = h.rm_module("formats.interop").to_idyntree

FOOT = "l_foot"


def main() -> None:
    p = h.parser(__doc__)
    p.add_argument("--profile", metavar="NAME", help="profile the robomodel row starting so")
    args = p.parse_args()
    s = h.settings(args, rounds=9, block=0.02)
    warnings.simplefilter("ignore")
    idt = h.idyntree()
    path = h.icub_path()
    m = urdf.load(path)
    moving = [n for n, j in zip(m.joint_names, m.joints, strict=True) if j.n_dofs]
    legs = [n for n in moving if any(k in n for k in ("hip", "knee", "ankle"))]
    with_fakes = urdf.LoadOptions(remove_fake_links=False)
    n_fake = len(rt.fake_links(urdf.load(path, options=with_fakes)))

    def rm_load() -> Any:
        return urdf.load(path)

    def rm_load_from_foot() -> Any:
        return rm.with_default_base_link(urdf.load(path), FOOT)

    def rm_load_with_fakes() -> Any:
        return urdf.load(path, options=with_fakes)

    def idt_load() -> Any:
        return h.load_idyntree(path)

    def idt_load_from_foot() -> Any:
        im = h.load_idyntree(path)
        assert im.setDefaultBaseLink(im.getLinkIndex(FOOT))
        return im

    def idt_load_with_fakes() -> Any:
        return to_idyntree(urdf.load(path, options=with_fakes))

    def idt_into(fn: Callable[..., bool], *inputs: object) -> Callable[[Any], object]:
        def run(im: Any) -> object:
            out = idt.Model()
            assert fn(im, *inputs, out)
            return out

        return run

    def idt_change_base(im: Any) -> object:
        assert im.setDefaultBaseLink(im.getLinkIndex(FOOT))
        out = idt.Model()
        assert idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink(im, out)
        return out

    # The torso: the largest part of the split along the leg joints (the same in both).
    parts = rt.submodel_traversals(m, split_joints=legs)
    k = max(range(len(parts)), key=lambda i: len(parts[i]))

    def rm_extract(model: Any) -> object:
        return rt.extract_submodel(model, rt.submodel_traversals(model, split_joints=legs)[k])

    def idt_extract(im: Any) -> object:
        tr = idt.Traversal()
        assert im.computeFullTreeTraversal(tr)
        sd = idt.SubModelDecomposition()
        assert sd.splitModelAlongJoints(im, tr, legs)
        out = idt.Model()
        assert idt.extractSubModel(im, sd.getTraversal(k), out)
        return out

    def fresh(
        label: str,
        make_ours: Callable[[], Any],
        ours: Callable[[Any], object],
        peer: str,
        make_theirs: Callable[[], Any],
        theirs: Callable[[Any], object],
    ) -> h.Fresh:
        return h.Fresh(label, make_ours, ours, f"iDynTree {peer}, one call", make_theirs, theirs)

    first = [
        fresh(
            f"reduce_model, leg joints ({len(legs)} of {len(moving)})",
            rm_load,
            lambda model: rt.reduce_model(model, keep_joints=legs, lumped_sensors="drop"),
            "`createReducedModel`",
            idt_load,
            idt_into(idt.createReducedModel, legs),
        ),
        fresh(
            f"reduce_model, all {len(moving)} moving joints",
            rm_load,
            lambda model: rt.reduce_model(model, keep_joints=moving, lumped_sensors="drop"),
            "`createReducedModel`",
            idt_load,
            idt_into(idt.createReducedModel, moving),
        ),
        fresh(
            f"change_base to {FOOT}",
            rm_load,
            lambda model: rt.change_base(model, FOOT),
            "`setDefaultBaseLink` + `moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink`",
            idt_load,
            idt_change_base,
        ),
        fresh(
            f"make_urdf_compatible, default base {FOOT}",
            rm_load_from_foot,
            rt.make_urdf_compatible,
            "`moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink`",
            idt_load_from_foot,
            idt_into(idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink),
        ),
        fresh(
            f"remove_fake_links ({n_fake} fake links)",
            rm_load_with_fakes,
            rt.remove_fake_links,
            "`removeFakeLinks`",
            idt_load_with_fakes,
            idt_into(idt.removeFakeLinks),
        ),
        fresh(
            "submodel_traversals + extract_submodel (torso of the leg split)",
            rm_load,
            rm_extract,
            "`SubModelDecomposition.splitModelAlongJoints` + `extractSubModel`",
            idt_load,
            idt_extract,
        ),
        fresh(
            f"normalize_joint_order from {FOOT}",
            rm_load,
            lambda model: rt.normalize_joint_order(model, base_link=FOOT),
            "`createModelWithNormalizedJointNumbering`",
            idt_load,
            idt_into(idt.createModelWithNormalizedJointNumbering, FOOT),
        ),
        fresh(
            "name_solid_shapes",
            rm_load,
            rt.name_solid_shapes,
            "`addValidNamesToAllSolidShapes`",
            idt_load,
            idt_into(idt.addValidNamesToAllSolidShapes),
        ),
    ]
    m_foot, im, im_foot = rm_load_from_foot(), idt_load(), idt_load_from_foot()
    tr = idt.Traversal()
    assert im.computeFullTreeTraversal(tr)
    sd = idt.SubModelDecomposition()
    assert sd.splitModelAlongJoints(im, tr, legs)
    torso = sd.getTraversal(k)

    def repeated(label: str, ours: Callable[[], object], peer: str, theirs: Any) -> h.Case:
        return h.Case(f"{label}, repeated on one model", ours, f"iDynTree {peer}, one call", theirs)

    again = [
        repeated(
            "reduce_model, leg joints",
            lambda: rt.reduce_model(m, keep_joints=legs, lumped_sensors="drop"),
            "`createReducedModel`",
            lambda: idt_into(idt.createReducedModel, legs)(im),
        ),
        repeated(
            "reduce_model, all moving joints",
            lambda: rt.reduce_model(m, keep_joints=moving, lumped_sensors="drop"),
            "`createReducedModel`",
            lambda: idt_into(idt.createReducedModel, moving)(im),
        ),
        repeated(
            f"make_urdf_compatible, default base {FOOT}",
            lambda: rt.make_urdf_compatible(m_foot),
            "`moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink`",
            lambda: idt_into(idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink)(im_foot),
        ),
        repeated(
            "extract_submodel (torso of the leg split, traversal given)",
            lambda: rt.extract_submodel(m, parts[k]),
            "`extractSubModel`, decomposition given",
            lambda: idt_into(idt.extractSubModel, torso)(im),
        ),
    ]
    if args.profile:
        case = next(c for c in first if c.label.startswith(args.profile))
        prof = cProfile.Profile()
        for _ in range(20):  # each a first call, as the harness times it
            h.cold()
            x = case.make_ours()
            gc.collect()
            prof.enable()
            case.ours(x)
            prof.disable()
        pstats.Stats(prof).sort_stats(os.environ.get("SORT", "tottime")).print_stats(20)
        return
    size = f"{m.n_links} links, {m.n_joints} joints, {m.n_frames} frames"
    h.header(f"{h.ICUB}: {size}, {len(m.sensors)} sensors", s)
    h.finish("transformers", h.measure(first + again, s), s)


if __name__ == "__main__":
    main()
