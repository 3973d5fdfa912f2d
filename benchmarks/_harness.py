"""The one timing harness every benchmark in this directory uses.

A benchmark is a list of :class:`Fresh` and :class:`Case` values: robomodel's callable and a
peer's (iDynTree, Pinocchio, ...) doing the same work on the same inputs.

Speed is judged on the FIRST call on a freshly loaded model, which is what users do (load a
robot, call one thing): a :class:`Fresh` case makes a new input before every timed call
(untimed: a model loaded, unpickled or rebuilt, so its per-model caches are empty) after
emptying robomodel's module-level caches (:func:`cold`, as in a new process), runs the garbage
collector, then times that one call. A :class:`Case` times repeated calls on one input; its
label must say "repeated". Benchmarks list their first-call rows first.

:func:`run` times each case in paired rounds: in every round robomodel and the peer take turns
(a block of about ``block`` seconds of calls each), so both see the same machine conditions
(on a shared machine a core's speed drifts by 10-20% within seconds, which a contender
measured alone would see and the other not). A case's figures are the median time per call of
each side and the median and range of the per-round ratios robomodel / peer (below 1.0
robomodel is faster); the range is the machine's noise made visible.

Every benchmark takes the same options (:func:`parser`): ``--rounds N``, ``--quick`` (three
short rounds, to check that it runs), ``--cpu`` (this process's CPU time instead of the wall
clock, steadier when the machine is shared) and ``--json PATH`` (write the rows, with every
round's ratio, for ``run_all.py`` to compare checkouts). Each row names the peer's call or loop
and its batch size, in the cheapest form that gives the same output. Models come from
:func:`icub_path` / :func:`load_icub` (icub-models) or :func:`example_path` (the model bundled
with robomodel).

Benchmarks import robomodel as installed or from ``PYTHONPATH``; run them from a checkout with
``PYTHONPATH=. python benchmarks/<name>.py``. They import robomodel's modules through
:func:`rm_module`, which also finds them in the flat layout of releases before the layer
folders (``robomodel.urdf`` for ``robomodel.formats.urdf``), so that one set of benchmarks can
time an older checkout against a newer one.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import json
import os
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import robomodel as rm

ICUB = "iCubGazeboV2_7"
QUICK_ROUNDS = 3


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Settings:
    """How to time: rounds, seconds per block, the clock and its name."""

    rounds: int
    block: float
    clock: Callable[[], float]
    clock_name: str
    quick: bool
    json: str | None = None


def parser(description: str | None) -> argparse.ArgumentParser:
    """Return an argument parser with the options every benchmark shares.

    A benchmark may add its own arguments before calling :func:`settings` on the result.
    """
    p = argparse.ArgumentParser(description=(description or "").split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=None, help="paired rounds per case")
    p.add_argument(
        "--quick", action="store_true", help=f"{QUICK_ROUNDS} short rounds, to check it runs"
    )
    p.add_argument(
        "--cpu", action="store_true", help="time with this process's CPU time, not the wall clock"
    )
    p.add_argument("--json", metavar="PATH", help="also write the rows as JSON to PATH")
    return p


def settings(args: argparse.Namespace, *, rounds: int = 9, block: float = 0.05) -> Settings:
    """Return the timing settings of parsed arguments (``rounds`` and ``block`` are the
    benchmark's defaults; ``--quick`` shortens both, ``--rounds`` overrides the count)."""
    if args.quick:
        rounds, block = QUICK_ROUNDS, block / 5
    if args.rounds is not None:
        if args.rounds < 1:
            raise SystemExit("--rounds must be at least 1")
        rounds = args.rounds
    out = getattr(args, "json", None)
    if args.cpu:
        return Settings(rounds, block, time.process_time, "CPU time", args.quick, out)
    return Settings(rounds, block, time.perf_counter, "wall-clock time", args.quick, out)


# --------------------------------------------------------------------------- robomodel's modules

# New module path (below ``robomodel.``) -> its path in the flat layout before the layer folders.
FLAT: dict[str, str] = {
    "formats": "io",
    "formats.json": "io.json",
    "formats.interop": "io.interop",
    "formats.urdf": "urdf",
    "formats.mjcf": "mjcf",
    "formats.dh": "dh",
    "physics.dynamics": "dynamics",
    "physics.kinematics": "kinematics",
    "physics.sensing": "sensing",
    "model.builders": "builders",
    "_internal.construct": "_construct",
}


def rm_module(name: str) -> ModuleType:
    """Return ``robomodel.<name>``, or its flat-layout module in an older checkout.

    The new path is used when the imported ``robomodel`` package holds it, so that a checkout
    with the layer folders never goes through its deprecated aliases (which warn). The test
    looks at the package's own folder, not at what an import would find: an editable install
    of another checkout answers for module names the package lacks (setuptools' finder maps
    ``robomodel.formats`` to its own tree even when ``PYTHONPATH`` gives an older
    ``robomodel``), which would mix two checkouts in one process.
    """
    root = Path(rm.__file__).parent
    here = root.joinpath(*name.split("."))
    if name in FLAT and not (here.is_dir() or here.with_suffix(".py").is_file()):
        name = FLAT[name]
    module = importlib.import_module(f"robomodel.{name}")
    if not str(module.__file__).startswith(str(root)):
        raise SystemExit(f"robomodel.{name} comes from {module.__file__}, outside {root}")
    return module


# Module-level caches of robomodel (the URDF reader's parsed-number tables, the writer's
# formatted numbers): a new process starts with them empty, so a first call empties them.
_CACHE_NAME = re.compile(r"cache|memo|^_TEXTS$|^_QUOTED$", re.IGNORECASE)


def _is_cache(attr: str, value: object) -> bool:
    if isinstance(value, dict):
        return bool(_CACHE_NAME.search(attr))
    return callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info")


def _module_caches() -> list[tuple[str, Any]]:
    return [
        (f"{name}.{attr}", value)
        for name, module in sorted(sys.modules.items())
        if name.startswith("robomodel") and module is not None
        for attr, value in list(vars(module).items())
        if _is_cache(attr, value)
    ]


def cold() -> None:
    """Empty robomodel's module-level caches, as a new process has them."""
    for _, cache in _module_caches():
        if isinstance(cache, dict):
            cache.clear()
        else:
            cache.cache_clear()


def cache_names() -> list[str]:
    """The module-level caches :func:`cold` empties, as ``module.name`` (for the header)."""
    return [name for name, _ in _module_caches()]


# --------------------------------------------------------------------------- models


def icub_path(robot: str = ICUB) -> str:
    """Return the URDF file of an ``icub-models`` robot."""
    import icub_models

    return str(icub_models.get_model_file(robot))


def example_path() -> str:
    """Return the URDF file of the model bundled with robomodel."""
    from robomodel.data import example_path as bundled

    return str(bundled())


def load_robomodel(path: str, **kwargs: Any) -> rm.Model:
    """Return robomodel's model of a URDF file (``kwargs`` go to the loader)."""
    model: rm.Model = rm_module("formats.urdf").load(path, **kwargs)
    return model


def load_icub(robot: str = ICUB) -> rm.Model:
    """Return an ``icub-models`` robot through robomodel's URDF loader."""
    return load_robomodel(icub_path(robot))


def idyntree() -> Any:
    """Return ``idyntree.bindings``, imported without its SWIG deprecation warnings."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import idyntree.bindings as idt
    return idt


def load_idyntree(path: str) -> Any:
    """Return iDynTree's model of a URDF file (its own loader)."""
    loader = idyntree().ModelLoader()
    if not loader.loadModelFromFile(path):
        raise SystemExit(f"iDynTree could not load {path}")
    return loader.model().copy()


@contextlib.contextmanager
def stderr_closed() -> Iterator[None]:
    """Send this process's standard error (C++ libraries' warnings) to ``/dev/null`` inside."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


# --------------------------------------------------------------------------- timing


@dataclass(frozen=True)
class Case:
    """One comparison of repeated calls: robomodel's callable and a peer's, doing the same work
    on the same input again and again (the label says "repeated")."""

    label: str
    ours: Callable[[], object]
    peer: str
    theirs: Callable[[], object]


@dataclass(frozen=True)
class Fresh:
    """One comparison of first calls: before each timed call, ``make_ours()`` /
    ``make_theirs()`` give a new input (a freshly loaded model, untimed) and robomodel's
    module-level caches are emptied; then ``ours(input)`` / ``theirs(input)`` is timed alone.

    ``peer`` names the peer's call or loop, its batch size and what it writes into;
    ``max_rounds`` caps the rounds of a slow case.
    """

    label: str
    make_ours: Callable[[], Any]
    ours: Callable[[Any], object]
    peer: str
    make_theirs: Callable[[], Any]
    theirs: Callable[[Any], object]
    max_rounds: int | None = None


@dataclass(frozen=True)
class Result:
    """A case's per-call times (seconds), one per round for each side."""

    case: Case | Fresh
    ours: list[float]
    theirs: list[float]

    @property
    def ratios(self) -> list[float]:
        """Per-round ratios robomodel / peer."""
        return [a / b for a, b in zip(self.ours, self.theirs, strict=True)]

    @property
    def ours_median(self) -> float:
        """Median time per call of robomodel's callable (seconds)."""
        return statistics.median(self.ours)

    @property
    def theirs_median(self) -> float:
        """Median time per call of the peer's callable (seconds)."""
        return statistics.median(self.theirs)

    @property
    def ratio(self) -> float:
        """Median of the per-round ratios robomodel / peer."""
        return statistics.median(self.ratios)


def calls_per_block(f: Callable[[], object], block: float, clock: Callable[[], float]) -> int:
    """How many calls of ``f`` take about ``block`` seconds (``f`` runs at least once, which
    is also its warm-up: per-model caches get built outside the timed rounds)."""
    f()
    n = 1
    while True:
        t = clock()
        for _ in range(n):
            f()
        elapsed = clock() - t
        if elapsed > block / 4:
            return max(1, round(n * block / elapsed))
        n *= 2


def per_call(f: Callable[[], object], n: int, clock: Callable[[], float]) -> float:
    """Mean time of ``n`` calls of ``f`` (seconds)."""
    t = clock()
    for _ in range(n):
        f()
    return (clock() - t) / n


def paired(
    ours: Callable[[], float], theirs: Callable[[], float], rounds: int
) -> tuple[list[float], list[float]]:
    """Alternate two measurements ``rounds`` times; return each one's samples.

    The lowest-level pairing: ``ours()`` and ``theirs()`` each measure once and return a
    figure (for a benchmark whose measurement is not "time a callable", e.g. per-step costs).
    """
    a, b = [], []
    for _ in range(rounds):
        a.append(ours())
        b.append(theirs())
    return a, b


def first_call(
    make: Callable[[], Any], f: Callable[[Any], object], clock: Callable[[], float]
) -> float:
    """Time one call of ``f`` on a new input from ``make()``, as in a new process: robomodel's
    module-level caches emptied, then the input made (untimed: a load fills the caches as it
    would in a new process), the garbage collector run (so that no call pays for the
    collection of what the previous one or the input's maker left)."""
    cold()
    x = make()
    gc.collect()
    t = clock()
    f(x)
    elapsed = clock() - t
    del x
    return elapsed


def first_calls(
    make: Callable[[], Any], f: Callable[[Any], object], n: int, clock: Callable[[], float]
) -> float:
    """Mean time of ``n`` first calls, each on its own new input (seconds)."""
    return sum(first_call(make, f, clock) for _ in range(n)) / n


# At most this many first calls per side and round: each needs a freshly loaded model.
MAX_FIRST_CALLS = 5


def time_case(case: Case | Fresh, s: Settings) -> Result:
    """Warm both sides up (imports, code paths), then time them in paired rounds.

    A :class:`Fresh` case's rounds run ``n`` first calls per side, ``n`` chosen so that they
    take about ``s.block`` seconds (at most :data:`MAX_FIRST_CALLS`, at least one).
    """
    if isinstance(case, Fresh):
        fresh = case
        ta = first_call(fresh.make_ours, fresh.ours, s.clock)
        tb = first_call(fresh.make_theirs, fresh.theirs, s.clock)
        na, nb = (max(1, min(MAX_FIRST_CALLS, round(s.block / max(t, 1e-9)))) for t in (ta, tb))
        a, b = paired(
            lambda: first_calls(fresh.make_ours, fresh.ours, na, s.clock),
            lambda: first_calls(fresh.make_theirs, fresh.theirs, nb, s.clock),
            min(s.rounds, fresh.max_rounds or s.rounds),
        )
        return Result(case, a, b)
    if "repeated" not in case.label:
        raise ValueError(f"a Case times repeated calls: its label must say so ({case.label!r})")
    na = calls_per_block(case.ours, s.block, s.clock)
    nb = calls_per_block(case.theirs, s.block, s.clock)
    rep = case
    a, b = paired(
        lambda: per_call(rep.ours, na, s.clock),
        lambda: per_call(rep.theirs, nb, s.clock),
        s.rounds,
    )
    return Result(case, a, b)


# --------------------------------------------------------------------------- output


def duration(seconds: float) -> str:
    """Format a duration with a unit chosen for it (``12.3 us``, ``4.56 ms``, ``1.23 s``)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def header(title: str, s: Settings, *, blocks: bool = True) -> None:
    """Print a benchmark's title and how it is timed (``blocks``: whether rounds run blocks of
    calls of ``s.block`` seconds, as :func:`time_case` does)."""
    print(title)
    block = f", blocks of ~{s.block * 1e3:.0f} ms" if blocks else ""
    print(f"{s.rounds} paired rounds ({s.clock_name}{block})")
    print("ratio = robomodel / peer, median and range over the rounds (< 1: robomodel faster)")
    print(
        "first-call rows: one call on a freshly loaded model (load not timed), robomodel's "
        "module caches emptied; rows saying 'repeated': calls on one model after a warm-up"
    )


def table(results: Sequence[Result]) -> None:
    """Print one row per case: both medians, the median ratio and the ratios' range, and what
    the peer ran."""
    width = max([len(r.case.label) for r in results] + [4])
    print(
        f"{'case':<{width}}  {'robomodel':>10}  {'peer':>10}  {'ratio':>7}  {'range':<11}  "
        "peer's call"
    )
    for r in results:
        spread = f"{min(r.ratios):.2f}-{max(r.ratios):.2f}x"
        print(
            f"{r.case.label:<{width}}  {duration(r.ours_median):>10}  "
            f"{duration(r.theirs_median):>10}  {r.ratio:6.2f}x  {spread:<11}  {r.case.peer}"
        )


def measure(cases: Sequence[Case | Fresh], s: Settings) -> list[Result]:
    """Time every case (see :func:`finish` to print and write the results)."""
    return [time_case(c, s) for c in cases]


def run(cases: Sequence[Case | Fresh], s: Settings) -> list[Result]:
    """Time every case and print the table; return the results (for extra lines)."""
    results = measure(cases, s)
    table(results)
    return results


def write_json(benchmark: str, results: Sequence[Result], s: Settings) -> None:
    """Write the rows to ``s.json`` (if given): name, peer, the median, min and max of the
    per-round ratios robomodel / peer, every round's ratio, and both sides' median times."""
    if not s.json:
        return
    rows = [
        {
            "benchmark": benchmark,
            "name": r.case.label,
            "peer": r.case.peer,
            "first_call": isinstance(r.case, Fresh),
            "ratio_median": r.ratio,
            "ratio_min": min(r.ratios),
            "ratio_max": max(r.ratios),
            "ratios": r.ratios,
            "ours_median_s": r.ours_median,
            "peer_median_s": r.theirs_median,
        }
        for r in results
    ]
    doc = {"clock": s.clock_name, "rounds": s.rounds, "quick": s.quick, "rows": rows}
    with open(s.json, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)


def finish(benchmark: str, results: Sequence[Result], s: Settings) -> None:
    """Print the table of ``results`` and write them to ``--json``'s file if given."""
    table(results)
    write_json(benchmark, results, s)
