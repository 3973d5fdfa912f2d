"""Big models as values: pickle round trip against URDF load, and memory per link.

Run from a checkout with ``PYTHONPATH=. python benchmarks/model_values.py [N] [--memory M]``
(defaults: N = 20000 links, M = 100000 links). The chain's links and joints all differ (masses,
centres of mass, rest angles and limits vary with the link), so that no sharing of equal values
can flatter a figure.

* Time: ROUNDS paired rounds; each loads the URDF text and then pickles and unpickles the
  loaded model (protocol 5), back to back, so that both see the same machine load. It prints the
  median per-link cost of each and the median of the per-round ratios ``pickle / load``.
  Both the loader and the unpickler pause the cyclic garbage collector while they build, which
  leaves the scan of what they built to whatever runs next; a ``gc.collect()`` (not timed)
  before each of the two operations keeps one from paying for the other. The same figures
  without it (each paying the previous one's scan) are printed too.
* Memory (``tracemalloc``, for the M-link chain): the peak while loading, what the loaded model
  keeps, and the peak of a pickle round trip of it, each per link.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import statistics
import time
import tracemalloc

import robomodel as rm
from robomodel import urdf

ROUNDS = 5


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


def time_rounds(n: int, *, collect: bool) -> None:
    """Print the paired load / pickle round-trip figures for an ``n``-link chain."""
    text = chain_urdf(n)
    clock = time.perf_counter
    loads, trips = [], []
    for _ in range(ROUNDS):
        if collect:
            gc.collect()
        t0 = clock()
        m = urdf.loads(text)
        t1 = clock()
        if collect:
            gc.collect()
        t2 = clock()
        copy = _round_trip(m)
        t3 = clock()
        if copy != m:
            raise SystemExit("the pickled copy differs from the model")
        loads.append(t1 - t0)
        trips.append(t3 - t2)
        del m, copy
    ratio = statistics.median(t / lo for t, lo in zip(trips, loads, strict=True))
    how = "gc.collect() before each" if collect else "no collection between them"
    print(f"{n}-link chain, {ROUNDS} paired rounds ({how}), medians:")
    print(f"  URDF load           {statistics.median(loads) / n * 1e6:8.1f} us/link")
    print(f"  pickle round trip   {statistics.median(trips) / n * 1e6:8.1f} us/link")
    print(f"  ratio pickle / load {ratio:8.3f}")


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
    args = parser.parse_args()
    if args.quick:
        global ROUNDS
        ROUNDS = 1
        args.n, args.memory = 300, 300
    time_rounds(args.n, collect=True)
    time_rounds(args.n, collect=False)
    if args.memory:
        memory(args.memory)


if __name__ == "__main__":
    main()
