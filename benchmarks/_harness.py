"""The one timing harness every benchmark in this directory uses.

A benchmark is a list of :class:`Case` values: robomodel's callable and a peer's (iDynTree,
Pinocchio, ...) doing the same work on the same inputs. :func:`run` times each case in paired
rounds: in every round robomodel and the peer take turns, each running a block of calls of
about ``block`` seconds, so both see the same machine conditions (on a shared machine a core's
speed drifts by 10-20% within seconds, which a contender measured alone would see and the other
not). A case's figures are the median time per call of each side and the median and range of
the per-round ratios robomodel / peer (below 1.0 robomodel is faster); the range is the
machine's noise made visible.

Every benchmark takes the same options (:func:`parser`): ``--rounds N``, ``--quick`` (three
short rounds, to check that it runs) and ``--cpu`` (this process's CPU time instead of the wall
clock, steadier when the machine is shared). Models come from :func:`icub_path` /
:func:`load_icub` (icub-models) or :func:`example_path` (the model bundled with robomodel).

Benchmarks import robomodel as installed or from ``PYTHONPATH``; run them from a checkout with
``PYTHONPATH=. python benchmarks/<name>.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
    if args.cpu:
        return Settings(rounds, block, time.process_time, "CPU time", args.quick)
    return Settings(rounds, block, time.perf_counter, "wall-clock time", args.quick)


# --------------------------------------------------------------------------- models


def icub_path(robot: str = ICUB) -> str:
    """Return the URDF file of an ``icub-models`` robot."""
    import icub_models

    return str(icub_models.get_model_file(robot))


def example_path() -> str:
    """Return the URDF file of the model bundled with robomodel."""
    from robomodel.data import example_path as bundled

    return str(bundled())


def load_robomodel(path: str) -> rm.Model:
    """Return robomodel's model of a URDF file."""
    from robomodel.formats.urdf import load

    return load(path)


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


# --------------------------------------------------------------------------- timing


@dataclass(frozen=True)
class Case:
    """One comparison: robomodel's callable and a peer's, doing the same work."""

    label: str
    ours: Callable[[], object]
    peer: str
    theirs: Callable[[], object]


@dataclass(frozen=True)
class Result:
    """A case's per-call times (seconds), one per round for each side."""

    case: Case
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


def time_case(case: Case, s: Settings) -> Result:
    """Warm both callables up, then time them in paired rounds."""
    na = calls_per_block(case.ours, s.block, s.clock)
    nb = calls_per_block(case.theirs, s.block, s.clock)
    a, b = paired(
        lambda: per_call(case.ours, na, s.clock),
        lambda: per_call(case.theirs, nb, s.clock),
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


def table(results: Sequence[Result]) -> None:
    """Print one row per case: both medians, the median ratio and the ratios' range."""
    width = max([len(r.case.label) for r in results] + [4])
    peer = max([len(r.case.peer) for r in results] + [4])
    print(
        f"{'case':<{width}}  {'robomodel':>10}  {'peer':<{peer}}  {'peer time':>10}  "
        f"{'ratio':>7}  range"
    )
    for r in results:
        print(
            f"{r.case.label:<{width}}  {duration(r.ours_median):>10}  {r.case.peer:<{peer}}  "
            f"{duration(r.theirs_median):>10}  {r.ratio:6.2f}x  "
            f"{min(r.ratios):.2f}-{max(r.ratios):.2f}x"
        )


def run(cases: Sequence[Case], s: Settings) -> list[Result]:
    """Time every case and print the table; return the results (for extra lines)."""
    results = [time_case(c, s) for c in cases]
    table(results)
    return results
