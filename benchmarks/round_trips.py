"""Pickle and JSON round trips of robot models: robomodel against Pinocchio's serialization.

Run ``python benchmarks/round_trips.py [--rounds N] [--quick] [--cpu] [--json PATH]``; timed in
paired rounds by ``_harness``. iDynTree's models do not pickle and have no text form besides
URDF, so the peer is Pinocchio's model of the same URDF (``pin.buildModelFromUrdf``).

First-call rows (before each timed call both libraries load the URDF, not timed, so the round
trip starts from a freshly loaded model): for iCubGazeboV2_7 and the model bundled with
robomodel,

* a pickle round trip (``pickle.loads(pickle.dumps(model, protocol=5))``) against the same of
  Pinocchio's ``Model``;
* a JSON round trip (``robomodel.formats.json``: ``from_json(to_json(model))``) against
  Pinocchio's text serialization round trip (``Model.saveToString`` +
  ``Model().loadFromString``), its nearest text form.

Rows saying "repeated" time many round trips of one model after a warm-up. The larger study of
round trips against URDF load, per link and in memory, is ``benchmarks/model_values.py``.
"""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import _harness as h

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import pinocchio as pin

urdf = h.rm_module("formats.urdf")
rm_json = h.rm_module("formats.json")


def pickle_trip(model: Any) -> object:
    return pickle.loads(pickle.dumps(model, protocol=5))


def json_trip(model: Any) -> object:
    return rm_json.from_json(rm_json.to_json(model))


def text_trip(model: Any) -> object:
    copy = pin.Model()
    copy.loadFromString(model.saveToString())
    return copy


def main() -> None:
    s = h.settings(h.parser(__doc__).parse_args(), rounds=9, block=0.1)
    warnings.simplefilter("ignore")
    robots = [(h.ICUB, h.icub_path())]
    if not s.quick:
        robots.append(("bundled example", h.example_path()))
    cases: list[h.Case | h.Fresh] = []
    for name, path in robots:

        def rm_load(path: str = path) -> Any:
            return urdf.load(path)

        def pin_load(path: str = path) -> Any:
            return pin.buildModelFromUrdf(path)

        cases += [
            h.Fresh(
                f"pickle round trip, {name}",
                rm_load,
                pickle_trip,
                "Pinocchio: `pickle` round trip of its `Model`",
                pin_load,
                pickle_trip,
            ),
            h.Fresh(
                f"JSON round trip, {name}",
                rm_load,
                json_trip,
                "Pinocchio: `Model.saveToString` + `Model().loadFromString`",
                pin_load,
                text_trip,
            ),
        ]
    model, pm = urdf.load(h.icub_path()), pin.buildModelFromUrdf(h.icub_path())
    cases += [
        h.Case(
            f"pickle round trip, {h.ICUB}, repeated on one model",
            lambda: pickle_trip(model),
            "Pinocchio: `pickle` round trip of its `Model`",
            lambda: pickle_trip(pm),
        ),
        h.Case(
            f"JSON round trip, {h.ICUB}, repeated on one model",
            lambda: json_trip(model),
            "Pinocchio: `Model.saveToString` + `Model().loadFromString`",
            lambda: text_trip(pm),
        ),
    ]
    h.header("Model round trips: robomodel against Pinocchio", s)
    h.finish("round_trips", h.measure(cases, s), s)


if __name__ == "__main__":
    main()
