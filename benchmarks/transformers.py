"""Transformers on iCubGazeboV2_7: robomodel.transformers against iDynTree's ModelTransformers.

Run ``python benchmarks/transformers.py [--rounds N] [--quick] [--cpu]``. Both libraries
transform the same model (loaded by iDynTree and converted with ``robomodel.formats``, so the URDF
loader is not measured), timed in paired rounds by ``_harness``. Rows marked "first call" clear
the model's cache of derived data before each call: the cost of the one call a user makes on a
freshly loaded model (iDynTree keeps nothing between calls). ``--profile NAME`` prints a
cProfile of one robomodel transformer instead (sorted by ``tottime``, or by the ``SORT``
environment variable, e.g. ``SORT=cumtime``).
"""

from __future__ import annotations

import cProfile
import pstats
import warnings
from collections.abc import Callable

import _harness as h

import robomodel.transformers as rt
from robomodel._internal.construct import set_derived
from robomodel.formats import from_idyntree
from robomodel.model.builders import with_default_base_link
from robomodel.model.record import Model


def main() -> None:
    p = h.parser(__doc__)
    p.add_argument("--profile", metavar="NAME", help="profile the robomodel case starting so")
    args = p.parse_args()
    s = h.settings(args, rounds=9, block=0.04)
    warnings.simplefilter("ignore")
    idt = h.idyntree()
    im = h.load_idyntree(h.icub_path())
    m = from_idyntree(im)

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

    def idt_call(fn: Callable[..., bool], *inputs: object) -> Callable[[], object]:
        def run() -> object:
            out = idt.Model()
            assert fn(*inputs, out)
            return out

        return run

    def idt_reduce(joints: list[str]) -> Callable[[], object]:
        def run() -> object:
            out = idt.Model()
            assert idt.createReducedModel(im, joints, out)
            return out

        return run

    def case(label: str, ours: Callable[[], object], theirs: Callable[[], object]) -> h.Case:
        return h.Case(label, ours, "iDynTree", theirs)

    def first(model: Model, call: Callable[[], object]) -> Callable[[], object]:
        # The call a user makes once on a freshly loaded model: nothing derived is cached yet
        # (traversals, per-model tables), as iDynTree caches nothing between calls.
        def run() -> object:
            set_derived(model, "_memo", None)
            return call()

        return run

    cases = [
        case(
            "reduce, all moving joints",
            lambda: rt.reduce_model(m, keep_joints=moving, lumped_sensors="drop"),
            idt_reduce(moving),
        ),
        case(
            "reduce, leg joints",
            lambda: rt.reduce_model(m, keep_joints=legs, lumped_sensors="drop"),
            idt_reduce(legs),
        ),
        case(
            "reduce, all moving joints, first call",
            first(m, lambda: rt.reduce_model(m, keep_joints=moving, lumped_sensors="drop")),
            idt_reduce(moving),
        ),
        case(
            "reduce, leg joints, first call",
            first(m, lambda: rt.reduce_model(m, keep_joints=legs, lumped_sensors="drop")),
            idt_reduce(legs),
        ),
        case(
            "normalize (from l_foot)",
            lambda: rt.normalize_joint_order(m, base_link=foot),
            idt_call(idt.createModelWithNormalizedJointNumbering, im, foot),
        ),
        case(
            "move frames (base l_foot)",
            lambda: rt.make_urdf_compatible(m_foot),
            idt_call(idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink, im_foot),
        ),
        case(
            "move frames (base l_foot), first call",
            first(m_foot, lambda: rt.make_urdf_compatible(m_foot)),
            idt_call(idt.moveLinkFramesToBeCompatibleWithURDFWithGivenBaseLink, im_foot),
        ),
        case(
            "extract (torso part of the leg split)",
            lambda: rt.extract_submodel(m, parts[k]),
            idt_call(idt.extractSubModel, im, sub_t),
        ),
        case(
            "remove fake links (none left: a no-op)",
            lambda: rt.remove_fake_links(m),
            idt_call(idt.removeFakeLinks, im),
        ),
        case(
            "name solid shapes",
            lambda: rt.name_solid_shapes(m),
            idt_call(idt.addValidNamesToAllSolidShapes, im),
        ),
    ]
    if args.profile:
        f = next(c.ours for c in cases if c.label.startswith(args.profile))
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(200):
            f()
        prof.disable()
        pstats.Stats(prof).sort_stats(__import__("os").environ.get("SORT", "tottime")).print_stats(
            20
        )
        return
    size = f"{m.n_links} links, {m.n_joints} joints, {m.n_frames} frames"
    h.header(f"{h.ICUB}: {size}, {len(m.sensors)} sensors", s)
    h.run(cases, s)


if __name__ == "__main__":
    main()
