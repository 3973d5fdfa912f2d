"""Run the benchmark set, and compare two checkouts of robomodel row by row.

``python benchmarks/run_all.py [--quick] [--cpu] [--rounds N] [--only NAME,...] [--json PATH]``
runs every benchmark of :data:`SET` in its own process (robomodel as installed or from
``PYTHONPATH``), prints their tables and writes all rows to ``--json``'s file.

``python benchmarks/run_all.py --checkouts OLD NEW [--reps R] [--figures PATH] ...`` times the
same set against two checkouts (each imported through ``PYTHONPATH=<checkout>``), interleaved:
for each benchmark, OLD, NEW, OLD, NEW, ... (``R`` runs each, default 2), so that both see the
same minutes of the machine. Each row's ratios robomodel / peer of all runs' rounds are pooled
per checkout; the figures file (markdown) gives per row the median and range of each
checkout's ratios and ``new/old``, the quotient of the medians (above 1.0 the new checkout is
slower against the same peer). A checkout is a directory holding the ``robomodel`` package: a
git work tree, or a snapshot of one commit (``git archive``) with the commit's line in a
``COMMIT`` file; a work tree in the middle of a merge cannot be timed. The benchmarks import
robomodel's modules through ``_harness.rm_module``, so they run against the flat layout before
the layer folders too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# The benchmarks whose rows the issue-27 requirements name, in the order they run.
SET = ("urdf", "transformers", "dynamics_batch", "mjcf", "round_trips", "sensors", "dh")
SLOWER = 1.10  # a row more than 10 % slower than the old checkout is flagged


def run_one(
    name: str, options: list[str], pythonpath: str | None, log: Path | None
) -> list[dict[str, Any]]:
    """Run one benchmark in its own process; return its rows (the output goes to ``log``)."""
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        out = os.path.join(tmp, "rows.json")
        cmd = [sys.executable, str(HERE / f"{name}.py"), *options, "--json", out]
        done = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True, check=False)
        if log is not None:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"$ PYTHONPATH={pythonpath} {' '.join(cmd)}\n{done.stdout}\n")
                f.write(f"[stderr, last 2000 characters]\n{done.stderr[-2000:]}\n")
        if done.returncode:
            raise SystemExit(f"{name} failed ({done.returncode}):\n{done.stderr[-3000:]}")
        print(done.stdout, flush=True)
        with open(out, encoding="utf-8") as f:
            rows: list[dict[str, Any]] = json.load(f)["rows"]
        return rows


def _commit(checkout: str) -> str:
    """The checkout's last commit, from git or from a ``COMMIT`` file (in a snapshot made
    with ``git archive``, which has no ``.git``)."""
    stamp = Path(checkout) / "COMMIT"
    if stamp.is_file():
        return stamp.read_text(encoding="utf-8").strip()[:100]
    got = subprocess.run(
        ["git", "-C", checkout, "log", "-1", "--format=%h %cI %s"],
        capture_output=True,
        text=True,
        check=False,
    )
    return got.stdout.strip()[:100] or "(not a git checkout)"


def _key(row: dict[str, Any]) -> tuple[str, str, str]:
    return row["benchmark"], row["name"], row["peer"]


def _pooled(runs: list[list[dict[str, Any]]]) -> dict[tuple[str, str, str], list[float]]:
    pooled: dict[tuple[str, str, str], list[float]] = {}
    for rows in runs:
        for row in rows:
            pooled.setdefault(_key(row), []).extend(row["ratios"])
    return pooled


def _cell(ratios: list[float] | None) -> str:
    if not ratios:
        return "-"
    return f"{statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]"


def figures(
    old: str,
    new: str,
    runs: dict[str, list[list[dict[str, Any]]]],
    options: list[str],
    started: str,
    reps: int,
) -> str:
    """Return the markdown comparison of the rows of both checkouts."""
    a, b = _pooled(runs["old"]), _pooled(runs["new"])
    keys = list(dict.fromkeys([*a, *b]))
    lines = [
        f"Benchmarks, old and new checkout interleaved ({reps} runs each, started {started}, "
        f"options `{' '.join(options) or '(none)'}`).",
        "",
        f"- old: `{old}` ({_commit(old)})",
        f"- new: `{new}` ({_commit(new)})",
        "",
        "Ratio = robomodel / peer (the peer is the same library in both columns), median "
        "[min-max] over all rounds of all runs; new/old = quotient of the medians (> 1: the new "
        f"checkout is slower; **bold** above {SLOWER:.2f}). Rows without 'repeated' time the "
        "first call on a freshly loaded model.",
        "",
        "| benchmark | row | peer | old ratio | new ratio | new/old |",
        "|---|---|---|---|---|---|",
    ]
    for key in keys:
        bench, name, peer = key
        ra, rb = a.get(key), b.get(key)
        if ra and rb:
            q = statistics.median(rb) / statistics.median(ra)
            change = f"**{q:.2f}**" if q > SLOWER else f"{q:.2f}"
        else:
            change = "-"
        lines.append(f"| {bench} | {name} | {peer} | {_cell(ra)} | {_cell(rb)} | {change} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="every benchmark in its short form")
    p.add_argument("--cpu", action="store_true", help="time with the processes' CPU time")
    p.add_argument("--rounds", type=int, help="paired rounds per row")
    p.add_argument("--only", help="comma-separated benchmarks (default: all of SET)")
    p.add_argument("--json", metavar="PATH", help="write every row (and run) as JSON")
    p.add_argument("--checkouts", nargs=2, metavar=("OLD", "NEW"), help="compare two checkouts")
    p.add_argument("--reps", type=int, default=2, help="runs per checkout (with --checkouts)")
    p.add_argument("--figures", metavar="PATH", help="write the comparison as markdown")
    p.add_argument("--log", metavar="PATH", help="append every run's output to PATH")
    args = p.parse_args()
    names = args.only.split(",") if args.only else list(SET)
    options = [o for o, on in (("--quick", args.quick), ("--cpu", args.cpu)) if on]
    if args.rounds:
        options += ["--rounds", str(args.rounds)]
    log = Path(args.log) if args.log else None
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if not args.checkouts:
        rows = [row for name in names for row in run_one(name, options, None, log)]
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"options": options, "started": started, "rows": rows}, f, indent=1)
        return
    old, new = (os.path.abspath(c) for c in args.checkouts)
    runs: dict[str, list[list[dict[str, Any]]]] = {"old": [], "new": []}
    for name in names:
        for _ in range(args.reps):
            for side, checkout in (("old", old), ("new", new)):
                print(f"== {name}, {side}: {checkout}", flush=True)
                runs[side].append(run_one(name, options, checkout, log))
    text = figures(old, new, runs, options, started, args.reps)
    print(text)
    if args.figures:
        with open(args.figures, "w", encoding="utf-8") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            doc = {"old": old, "new": new, "options": options, "started": started, "runs": runs}
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
