"""Write ``golden.json``: the fingerprint of every golden case, computed by the current code.

Run from the repository root, with the robomodel to freeze first on the path::

    PYTHONPATH=. python tests/golden/make_golden.py

Only rewrite the file when an output is meant to change, and say which in the commit.

Fingerprints are of exact bits, and a machine whose matrix products round differently (another
OpenBLAS kernel for another CPU: ``cases.arithmetic()`` tells them apart) gives other bits for
the same code. ``--arithmetic`` writes, for this machine's arithmetic, the fingerprints that
differ from ``golden.json`` into ``arithmetic-<digest>.json``, which the test reads over
``golden.json`` on such machines. Run it with the code ``golden.json`` was made from (an output
that changed since then would be frozen as right).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden.json")


def write(data: dict[str, str], path: Path = GOLDEN) -> None:
    """Write ``data`` as JSON with sorted keys, one entry per line (small, readable diffs)."""
    text = json.dumps(data, indent=0, sort_keys=True, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")


def main() -> None:
    """Compute every case and write the golden file (or this arithmetic's differences)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from golden import cases

    start = time.perf_counter()
    data = cases.environment()
    for source in cases.sources():
        data.update(cases.fingerprints(source))
    if "--arithmetic" in sys.argv[1:]:
        base = json.loads(GOLDEN.read_text(encoding="utf-8"))
        own = {k: v for k, v in data.items() if base.get(k) != v and not k.startswith("env/")}
        own = {k: v for k, v in own.items() if not k.endswith("/pickle")}  # not compared
        path = GOLDEN.with_name(f"arithmetic-{cases.arithmetic()}.json")
        write(own, path)
        print(f"{len(own)} entries differ from golden.json on this arithmetic -> {path}")
        return
    write(data)
    seconds = time.perf_counter() - start
    print(f"{len(data)} entries from {len(cases.sources())} sources in {seconds:.1f} s -> {GOLDEN}")


if __name__ == "__main__":
    main()
