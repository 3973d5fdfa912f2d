"""What each remaining fast path buys on first calls: the figures of docs/architecture.md.

Run ``PYTHONPATH=. python benchmarks/fast_paths.py [--samples N] [PATH ...]``. For each fast
path (``trusted``, ``assemble``, ``memo``, ``pickle``, ``xml_text``, ``shortest``; all by
default) and each
user-facing row it touches, samples alternate between the library as it is and the library with
that one fast path replaced by its plain, checked path (patched in this process, for the
measurement only). Every sample is a *first call*: a freshly loaded iCubGazeboV2_7 (unpickled
from the URDF-loaded model, untimed), an untimed ``gc.collect()``, then one timed call. The
clock is this process's CPU time, so other processes on a shared machine do not count; the
table gives the fastest and the median sample of each side and ``off / on`` (above 1.0 the fast
path pays).

A cache that only helps a repeated call does not show here, by design: the rows are the calls
a user makes once on a model just loaded.
"""

from __future__ import annotations

import argparse
import copyreg
import gc
import pickle
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from typing import Any

import attrs
import icub_models

import robomodel.transformers as rt
from robomodel._internal import construct
from robomodel.formats import json as rj
from robomodel.formats import mjcf
from robomodel.formats.urdf import dumps as urdf_dumps
from robomodel.formats.urdf import load
from robomodel.model.record import Model

warnings.simplefilter("ignore")

_M0 = load(str(icub_models.get_model_file("iCubGazeboV2_7")))
_BLOB = pickle.dumps(_M0)
_MOVING = [n for n, j in zip(_M0.joint_names, _M0.joints, strict=True) if j.n_dofs]
_LEGS = [n for n in _MOVING if any(k in n for k in ("hip", "knee", "ankle"))]
_PARTS = rt.submodel_traversals(_M0, split_joints=_LEGS)
_TORSO = max(_PARTS, key=len)


def _fresh() -> Model:
    model: Model = pickle.loads(_BLOB)
    return model


def _from_foot() -> Model:
    return rt.change_base(_fresh(), "l_foot", urdf_compatible=False)


ROWS: dict[str, tuple[Callable[[], Model], Callable[[Model], object]]] = {
    "reduce, leg joints": (
        _fresh,
        lambda m: rt.reduce_model(m, keep_joints=_LEGS, lumped_sensors="drop"),
    ),
    "reduce, all moving joints": (
        _fresh,
        lambda m: rt.reduce_model(m, keep_joints=_MOVING, lumped_sensors="drop"),
    ),
    "change_base l_foot": (_fresh, lambda m: rt.change_base(m, "l_foot")),
    "make_urdf_compatible": (_from_foot, rt.make_urdf_compatible),
    "remove_fake_links": (_fresh, rt.remove_fake_links),
    "extract_submodel": (_fresh, lambda m: rt.extract_submodel(m, _TORSO)),
    "JSON round trip": (_fresh, lambda m: rj.loads(rj.dumps(m))),
    "pickle round trip": (_fresh, lambda m: pickle.loads(pickle.dumps(m))),
    "MJCF dumps": (
        _fresh,
        lambda m: mjcf.dumps(
            m, options=mjcf.DumpOptions(meshes=False, visuals=False, collisions=False)
        ),
    ),
    "URDF dumps": (_fresh, urdf_dumps),
}
"""Per user-facing row: a fresh model (untimed) and the one call timed on it."""


def _patch(pairs: list[tuple[Any, str, Any]]) -> Callable[[], None]:
    old = [(obj, name, getattr(obj, name)) for obj, name, _ in pairs]
    for obj, name, value in pairs:
        setattr(obj, name, value)

    def undo() -> None:
        for obj, name, value in old:
            setattr(obj, name, value)

    return undo


def _checked_maker(cls: type) -> Callable[..., Any]:
    init = [f.alias for f in attrs.fields(cls) if f.init]
    return lambda *fields: cls(**dict(zip(init, fields, strict=True)))


def _checked_replacer(cls: type, reset: object = ()) -> Callable[..., Any]:
    alias = {f.name: f.alias for f in attrs.fields(cls) if f.init}
    return lambda v, **ch: attrs.evolve(v, **{alias[k]: x for k, x in ch.items() if k in alias})


def _no_trusted() -> Callable[[], None]:
    # The registry's makers and replacers become the checked constructor and attrs.evolve
    # (the generated ones are kept aside, so that switching back does not generate them again).
    makers, replacers = dict(construct._MAKERS), dict(construct._REPLACERS)
    undo = _patch(
        [
            (construct, "_generate_maker", _checked_maker),
            (construct, "_generate_replacer", _checked_replacer),
        ]
    )
    construct._MAKERS.clear()
    construct._REPLACERS.clear()

    def restore() -> None:
        undo()
        construct._MAKERS.clear()
        construct._REPLACERS.clear()
        construct._MAKERS.update(makers)
        construct._REPLACERS.update(replacers)

    return restore


def _no_assemble() -> Callable[[], None]:
    # The transformers' result goes through Model(...), which re-derives and re-validates it.
    import robomodel.model.assembly as assembly
    import robomodel.transformers.engine as engine
    import robomodel.transformers.submodel as submodel

    trusted = assembly.assemble

    def checked(*args: Any, **kwargs: Any) -> Model:
        out = trusted(*args, **kwargs)
        return Model(**{f.alias: getattr(out, f.name) for f in attrs.fields(Model) if f.init})

    return _patch([(engine, "assemble", checked), (submodel, "assemble", checked)])


def _no_memo() -> Callable[[], None]:
    # Every per-model memo computes afresh: what is reused within one call is recomputed.
    import robomodel._internal.memo as memo

    users = [m for m in list(sys.modules.values()) if getattr(m, "memoized", None) is memo.memoized]
    return _patch([(m, "memoized", lambda model, key, make: make()) for m in users])


def _no_compact_pickle() -> Callable[[], None]:
    # The field-by-field form (Model.__getstate__/__setstate__, through the checked constructor).
    reduce = copyreg.dispatch_table.pop(Model)
    return lambda: copyreg.pickle(Model, reduce)


def _no_xml_text() -> Callable[[], None]:
    # The MJCF writer's text through ET.indent + ET.tostring, its plain twin.
    import importlib

    dump = importlib.import_module("robomodel.formats.mjcf.dump")
    return _patch([(dump, "indented_text", lambda root, space="  ": None)])


def _no_shortest() -> Callable[[], None]:
    # The URDF writer's shortest decimals by repr, one number at a time.
    import importlib

    numbers = importlib.import_module("robomodel.formats.urdf.numbers")
    return _patch([(numbers, "reprs", lambda a: [repr(v) for v in a.tolist()])])


PATHS: dict[str, tuple[Callable[[], Callable[[], None]], list[str]]] = {
    "trusted": (_no_trusted, list(ROWS)[:8]),
    "assemble": (_no_assemble, list(ROWS)[:6]),
    "memo": (_no_memo, list(ROWS)[:8]),
    "pickle": (_no_compact_pickle, ["pickle round trip"]),
    "xml_text": (_no_xml_text, ["MJCF dumps"]),
    "shortest": (_no_shortest, ["URDF dumps"]),
}
"""Per fast path: how to switch it off (returning how to switch it back on), and its rows."""


def _sample(row: str) -> float:
    setup, call = ROWS[row]
    model = setup()
    gc.collect()
    t = time.process_time()
    call(model)
    return time.process_time() - t


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("paths", nargs="*", help=f"fast paths to measure: {', '.join(PATHS)} (all)")
    p.add_argument("--samples", type=int, default=30, help="paired samples per row")
    p.add_argument("--quick", action="store_true", help="2 samples a row: a check that it runs")
    args = p.parse_args()
    print(
        f"{'fast path':10s} {'row':26s} {'on: min / median ms':>22s} {'off: min / median ms':>22s}"
        "   off / on (min, median)"
    )
    unknown = set(args.paths) - PATHS.keys()
    if unknown:
        p.error(f"unknown fast path {', '.join(sorted(unknown))}; choose from {', '.join(PATHS)}")
    for name in args.paths or list(PATHS):
        switch_off, rows = PATHS[name]
        for row in rows:
            on: list[float] = []
            off: list[float] = []
            for k in range(2 if args.quick else args.samples):
                for fast in (True, False) if k % 2 else (False, True):
                    undo = None if fast else switch_off()
                    try:
                        (on if fast else off).append(_sample(row))
                    finally:
                        if undo is not None:
                            undo()
            a, b = statistics.median(on), statistics.median(off)
            print(
                f"{name:10s} {row:26s} {min(on) * 1e3:10.2f} / {a * 1e3:9.2f} "
                f"{min(off) * 1e3:10.2f} / {b * 1e3:9.2f}   {min(off) / min(on):.2f}, {b / a:.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
