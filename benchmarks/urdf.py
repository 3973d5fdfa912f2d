"""URDF load and export of iCubGazeboV2_7 (and load of the bundled example model): robomodel
against iDynTree, Pinocchio and yourdfpy.

Run ``python benchmarks/urdf.py [--rounds N] [--quick] [--cpu]``. Each pair (robomodel's load
or export and a peer's) is timed in paired rounds by ``_harness``: the two take turns within
every round, so that both see the same machine conditions. Peers that are not installed
(Pinocchio, yourdfpy) are left out.
"""

from __future__ import annotations

import os
import tempfile
import warnings

import _harness as h

from robomodel.formats.urdf import dump, load


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=10, block=0.2)
    path = h.icub_path()
    out_dir = tempfile.mkdtemp()
    model = load(path)

    def rm_load() -> object:
        return load(path)

    def rm_export() -> object:
        return dump(model, os.path.join(out_dir, "rm.urdf"))

    idt = h.idyntree()

    def idt_load() -> object:
        loader = idt.ModelLoader()
        assert loader.loadModelFromFile(path)
        return loader

    keep = idt_load()  # the exporter refers to the loader's model: keep it alive
    exporter = idt.ModelExporter()
    exporter.init(keep.model())
    cases = [
        h.Case("load", rm_load, "iDynTree", idt_load),
        h.Case(
            "export",
            rm_export,
            "iDynTree",
            lambda: exporter.exportModelToFile(os.path.join(out_dir, "idt.urdf")),
        ),
    ]
    try:
        import pinocchio as pin
    except ImportError:
        pass
    else:
        cases.append(h.Case("load", rm_load, "Pinocchio", lambda: pin.buildModelFromUrdf(path)))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import yourdfpy
    except ImportError:
        pass
    else:
        cases.append(
            h.Case(
                "load",
                rm_load,
                "yourdfpy",
                lambda: yourdfpy.URDF.load(path, load_meshes=False, build_scene_graph=False),
            )
        )
    example = h.example_path()
    cases.append(
        h.Case(
            "load (bundled example)",
            lambda: load(example),
            "iDynTree",
            lambda: idt.ModelLoader().loadModelFromFile(example),
        )
    )
    h.header(f"{h.ICUB}: URDF load and export (target <= 1.0x against iDynTree)", s)
    h.run(cases, s)


if __name__ == "__main__":
    main()
