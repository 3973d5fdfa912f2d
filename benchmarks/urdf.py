"""URDF load and export: robomodel against iDynTree (and Pinocchio's URDF parser).

Run ``python benchmarks/urdf.py [--rounds N] [--quick] [--cpu] [--json PATH] [--only TEXT]``
(``--only 'URDF load,'``: the first-call load rows alone). Each pair is
timed in paired rounds by ``_harness`` (the two take turns within every round).

First-call rows (what a user does: load a robot, or load it and write it once):

* URDF load of iCubGazeboV2_7 and of plainer URDFs of 12-39 links (the model bundled with
  robomodel, icub-models' iCubGenova03 and left_hand_mk3, and Drake's ``quadrotor/office.urdf``
  of 16 links, shipped in the ``drake`` wheel, when installed), each against iDynTree's
  ``ModelLoader().loadModelFromFile`` on the same file; iCubGazeboV2_7 also against
  ``pin.buildModelFromUrdf``. robomodel's module-level caches (the reader's parsed-number
  tables) are emptied before each load, as in a new process.
* The first URDF export of a freshly loaded iCubGazeboV2_7 (the load not timed) to a file:
  ``robomodel.formats.urdf.dump`` against iDynTree's ``ModelExporter`` (``init`` on a freshly
  loaded model, then ``exportModelToFile``; its ``exportModelToString`` is not callable from
  Python). Both write into one directory of ``/dev/shm`` when there is one, so that the disk's
  flush times do not blur the figures (robomodel's writer syncs its file).

iDynTree's C++ warnings about the bundled example's textures go to a closed standard error while
the rows are timed.

Rows saying "repeated" time many calls on one model after a warm-up.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import _harness as h

urdf = h.rm_module("formats.urdf")

PLAIN = ("iCubGenova03", "left_hand_mk3")


def shipped() -> list[tuple[str, str]]:
    """Plain URDFs of 10-60 links that installed pip packages ship (name, path)."""
    out = []
    try:
        import pydrake
    except ImportError:
        return out
    office = Path(pydrake.__file__).parent / "share/drake/examples/quadrotor/office.urdf"
    if office.is_file():
        out.append(("Drake's quadrotor/office.urdf", str(office)))
    return out


def main() -> None:
    p = h.parser(__doc__)
    p.add_argument(
        "--only",
        metavar="TEXT",
        help="time only the rows whose label contains TEXT (e.g. 'URDF load,')",
    )
    args = p.parse_args()
    s = h.settings(args, rounds=9, block=0.15)
    idt = h.idyntree()

    def idt_load(path: str) -> Any:
        loader = idt.ModelLoader()
        if not loader.loadModelFromFile(path):
            raise SystemExit(f"iDynTree could not load {path}")
        return loader

    out_dir = tempfile.mkdtemp(
        prefix="bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None
    )
    rm_out, idt_out = os.path.join(out_dir, "rm.urdf"), os.path.join(out_dir, "idt.urdf")

    def rm_export(model: Any) -> object:
        return urdf.dump(model, rm_out)

    def idt_export(loader: Any) -> object:
        exporter = idt.ModelExporter()
        assert exporter.init(loader.model())
        assert exporter.exportModelToFile(idt_out)
        return exporter

    def nothing() -> None:
        return None

    icub = h.icub_path()
    n_links = urdf.load(icub).n_links
    cases: list[h.Case | h.Fresh] = [
        h.Fresh(
            f"URDF load, {h.ICUB} ({n_links} links)",
            nothing,
            lambda _: urdf.load(icub),
            "iDynTree `ModelLoader().loadModelFromFile`, one file",
            nothing,
            lambda _: idt_load(icub),
        )
    ]
    others = [("bundled example", h.example_path())]
    others += [(name, h.icub_path(name)) for name in PLAIN]
    others += [(name, path) for name, path in shipped()]
    for name, path in others:
        n = urdf.load(path).n_links
        cases.append(
            h.Fresh(
                f"URDF load, {name} ({n} links)",
                nothing,
                lambda _, p=path: urdf.load(p),
                "iDynTree `ModelLoader().loadModelFromFile`, one file",
                nothing,
                lambda _, p=path: idt_load(p),
            )
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import pinocchio as pin
    except ImportError:
        pass
    else:
        cases.append(
            h.Fresh(
                f"URDF load, {h.ICUB} ({n_links} links)",
                nothing,
                lambda _: urdf.load(icub),
                "Pinocchio `pin.buildModelFromUrdf`, one file",
                nothing,
                lambda _: pin.buildModelFromUrdf(icub),
            )
        )
    cases.append(
        h.Fresh(
            f"first URDF export to a file, {h.ICUB}",
            lambda: urdf.load(icub),
            rm_export,
            "iDynTree `ModelExporter`: `init` on a freshly loaded model + `exportModelToFile`",
            lambda: idt_load(icub),
            idt_export,
        )
    )
    model = urdf.load(icub)
    loader = idt_load(icub)
    cases += [
        h.Case(
            f"URDF load, {h.ICUB}, repeated (module caches warm)",
            lambda: urdf.load(icub),
            "iDynTree `ModelLoader().loadModelFromFile`, one file",
            lambda: idt_load(icub),
        ),
        h.Case(
            f"URDF export to a file, {h.ICUB}, repeated on one model",
            lambda: rm_export(model),
            "iDynTree `ModelExporter` `init` + `exportModelToFile`",
            lambda: idt_export(loader),
        ),
    ]
    if args.only:
        cases = [c for c in cases if args.only in c.label]
    h.header(f"URDF load and export (target <= 1.0x against iDynTree); {h.ICUB}", s)
    with h.stderr_closed():
        results = h.measure(cases, s)
    h.finish("urdf", results, s)
    for name in (rm_out, idt_out):
        if os.path.exists(name):
            os.remove(name)
    os.rmdir(out_dir)


if __name__ == "__main__":
    main()
