"""Big models as values: pickle and JSON round trips against URDF load, and memory per link.

Run from a checkout with ``PYTHONPATH=. python benchmarks/model_values.py [N] [--memory M]
[--idyntree]`` (defaults: N = 20000 links, M = 100000 links). The chain's links and joints all
differ (masses, centres of mass, rest angles and limits vary with the link), so that no sharing
of equal values can flatter a figure.

* Time: ROUNDS paired rounds; each loads the URDF text, then pickles and unpickles the loaded
  model (protocol 5), then writes and reads it as JSON (``robomodel.formats.json``), back to back,
  so
  that all see the same machine load. It prints the median per-link cost of each and the
  median of the per-round ratios ``pickle / load`` and ``JSON / load``. The same for
  iCubGazeboV2_7 (what multiprocessing users send to workers), in more rounds.
  Both the loader and the unpickler pause the cyclic garbage collector while they build, which
  leaves the scan of what they built to whatever runs next; a ``gc.collect()`` (not timed)
  before each of the two operations keeps one from paying for the other. The same figures
  without it (each paying the previous one's scan) are printed too.
* Memory (``tracemalloc``, for the M-link chain): the peak while loading, what the loaded model
  keeps, and the peak of a pickle round trip of it, each per link; and the growth of the peak
  resident set (``ru_maxrss``) of a fresh subprocess that only loads the chain.
* ``--cpu``: the paired rounds in CPU time (``time.process_time``) instead of the wall clock,
  steadier on a shared machine; ``--no-memory`` skips the memory figures.
* ``--idyntree``: one load of the N-link chain by iDynTree's ``ModelLoader`` and by robomodel,
  per link (iDynTree's loader is quadratic in the chain length: this takes minutes).
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

import _harness as h

import robomodel as rm

rm_json = h.rm_module("formats.json")
urdf = h.rm_module("formats.urdf")

ROUNDS = 5
CLOCK = time.perf_counter  # --cpu: time.process_time


def chain_urdf(n: int) -> str:
    """Return the URDF text of an ``n``-link chain of revolute joints, every element distinct."""
    parts = ['<robot name="chain">']
    for i in range(n):
        mass = 1.0 + i * 1e-4
        parts.append(
            f'<link name="l{i}"><inertial><mass value="{mass!r}"/>'
            f'<origin xyz="0 {i * 1e-5!r} 0.05"/>'
            f'<inertia ixx="0.01" iyy="{0.01 + i * 1e-7!r}" izz="0.01" ixy="0" ixz="0" iyz="0"/>'
            "</inertial></link>"
        )
        if i:
            parts.append(
                f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                f'<child link="l{i}"/><origin xyz="0 0 0.1" rpy="0 0 {0.1 + i * 1e-6!r}"/>'
                f'<axis xyz="0 0 1"/><limit lower="{-1.0 - i * 1e-6!r}" upper="1" effort="10" '
                f'velocity="{1.0 + i * 1e-6!r}"/></joint>'
            )
    parts.append("</robot>")
    return "\n".join(parts)


def _round_trip(m: rm.Model) -> rm.Model:
    copy: rm.Model = pickle.loads(pickle.dumps(m, protocol=5))
    return copy


def _json_trip(m: rm.Model) -> rm.Model:
    return rm_json.loads(rm_json.dumps(m))


def _paired(
    load: object, ops: dict[str, object], rounds: int, *, collect: bool
) -> dict[str, list[float]]:
    """Per round: ``load()``, then each op on the loaded model; the seconds of each."""
    clock = CLOCK
    times: dict[str, list[float]] = {"load": [], **{k: [] for k in ops}}
    for _ in range(rounds):
        if collect:
            gc.collect()
        t0 = clock()
        m = load()  # type: ignore[operator]
        times["load"].append(clock() - t0)
        for name, op in ops.items():
            if collect:
                gc.collect()
            t0 = clock()
            copy = op(m)  # type: ignore[operator]
            times[name].append(clock() - t0)
            if copy != m:
                raise SystemExit(f"the {name} copy differs from the model")
            del copy
        del m
    return times


def _report(times: dict[str, list[float]], per: int, unit: str) -> None:
    scale = 1e6 / per
    for name, ts in times.items():
        print(f"  {name:18s} {statistics.median(ts) * scale:9.1f} us/{unit}")
    for name, ts in times.items():
        if name != "load":
            ratio = statistics.median(t / lo for t, lo in zip(ts, times["load"], strict=True))
            print(f"  ratio {name} / load {ratio:8.3f}")


def time_rounds(n: int, *, collect: bool) -> None:
    """Print the paired load / pickle / JSON round-trip figures for an ``n``-link chain."""
    text = chain_urdf(n)
    times = _paired(
        lambda: urdf.loads(text),
        {"pickle round trip": _round_trip, "JSON round trip": _json_trip},
        ROUNDS,
        collect=collect,
    )
    how = "gc.collect() before each" if collect else "no collection between them"
    print(f"{n}-link chain, {ROUNDS} paired rounds ({how}), medians:")
    _report(times, n, "link")


def time_icub(rounds: int) -> None:
    """Print the paired figures for iCubGazeboV2_7, per model."""
    import icub_models

    path = str(icub_models.get_model_file("iCubGazeboV2_7"))
    times = _paired(
        lambda: urdf.load(path),
        {"pickle round trip": _round_trip, "JSON round trip": _json_trip},
        rounds,
        collect=True,
    )
    print(f"iCubGazeboV2_7, {rounds} paired rounds (gc.collect() before each), medians:")
    _report(times, 1, "model")


def time_idyntree(n: int) -> None:
    """Print one URDF load of an ``n``-link chain by iDynTree and by robomodel, per link."""
    import idyntree.bindings as idt

    text = chain_urdf(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "chain.urdf")
        with open(path, "w") as f:
            f.write(text)
        gc.collect()
        t0 = time.perf_counter()
        loader = idt.ModelLoader()
        if not loader.loadModelFromFile(path):
            raise SystemExit("iDynTree could not load the chain")
        t_idt = time.perf_counter() - t0
        del loader
        gc.collect()
        t0 = time.perf_counter()
        urdf.load(path)
        t_rm = time.perf_counter() - t0
    print(f"{n}-link chain, one URDF load from a file, per link:")
    print(f"  iDynTree  {t_idt / n * 1e6:9.1f} us/link")
    print(f"  robomodel {t_rm / n * 1e6:9.1f} us/link   ratio {t_rm / t_idt:.3f}")


# The child's peak is read from /proc/self/status (VmHWM) after resetting it: a forked child's
# ru_maxrss starts at its parent's resident set, which after the tracemalloc run above is far
# above the child's own, so the growth read from ru_maxrss came out as 0.
_RSS_CHILD = """
import resource, sys
import os, robomodel
if os.path.isdir(os.path.join(os.path.dirname(robomodel.__file__), "formats")):
    from robomodel.formats import urdf
else:  # the flat layout before the layer folders
    from robomodel import urdf

def peak():
    try:
        with open("/proc/self/status") as f:
            return int(next(x for x in f if x.startswith("VmHWM")).split()[1])
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

with open(sys.argv[1], "rb") as f:
    text = f.read()
try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the peak to the present resident set
except OSError:
    pass
before = peak()
model = urdf.loads(text)
print(before, peak())
"""


def rss(n: int) -> None:
    """Print the growth of a fresh process's peak resident set while it loads the chain.

    The text is written here and read by the child as bytes, so that the child's peak before
    loading is the text itself (building it takes more than the text).
    """
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "chain.urdf")
        with open(path, "w") as f:
            f.write(chain_urdf(n))
        out = subprocess.run(
            [sys.executable, "-c", _RSS_CHILD, path],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
    before, after = int(out[0]), int(out[1])  # KB on Linux
    print(f"{n}-link chain, fresh process, peak RSS growth while loading (text excluded):")
    print(f"  {(after - before) / n:6.2f} KB a link")


def memory(n: int) -> None:
    """Print tracemalloc's figures per link for an ``n``-link chain."""
    text = chain_urdf(n)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    m = urdf.loads(text)
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    copy = _round_trip(m)
    copy_kept, trip_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    if copy != m:
        raise SystemExit("the pickled copy differs from the model")
    print(f"{n}-link chain, tracemalloc, per link (the URDF text itself excluded):")
    print(f"  peak while loading        {(peak - before) / n / 1024:6.2f} KB")
    print(f"  kept by the loaded model  {(kept - before) / n / 1024:6.2f} KB")
    print(
        f"  peak of a pickle round trip (above the model) {(trip_peak - base) / n / 1024:6.2f} KB"
    )
    print(
        f"  kept by the unpickled copy                     {(copy_kept - base) / n / 1024:6.2f} KB"
    )


def main() -> None:
    """Parse the sizes and run both measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=20000, help="links for the timing")
    parser.add_argument("--memory", type=int, default=100000, help="links for tracemalloc")
    parser.add_argument("--quick", action="store_true", help="a 300-link chain, one round")
    parser.add_argument("--idyntree", action="store_true", help="also iDynTree's load of N links")
    parser.add_argument("--cpu", action="store_true", help="time the rounds in CPU time")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory figures")
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    if args.quick:
        global ROUNDS
        ROUNDS = 1
        args.n, args.memory = 300, 300
    time_rounds(args.n, collect=True)
    time_rounds(args.n, collect=False)
    time_icub(1 if args.quick else 4 * ROUNDS)
    if args.memory and not args.no_memory:
        memory(args.memory)
        rss(args.memory)
    if args.idyntree:
        time_idyntree(args.n)


if __name__ == "__main__":
    main()
