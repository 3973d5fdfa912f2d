"""List the golden cases whose output changes between two revisions, and show why.

Run from the worktree root::

    python tests/golden/prove_urdf_rpy.py [--base REV] [--sources default|all|ID ...] [--show N]

Both sides compute every case of ``tests/golden/cases.py`` (the base revision from a
``git archive`` in a temporary directory, the other from this worktree), keeping the text of
each URDF output. For every case whose fingerprint differs, each changed URDF ``<origin>`` is
classified:

* ``same rotation``: both texts read back to the very same rotation (bit for bit), so the model
  read back is unchanged; the new text is equally short, shorter or longer (digits counted);
* ``rpy beside robomodel:rotation``: no ``rpy`` of doubles gives the rotation, so the writer
  states it exactly and writes the angles other tools read; shown with the matrix error of the
  old and of the new angles against that exact rotation, and the pitch's distance from ±90°;
* anything else is listed verbatim.

Other changed cases (not URDF text: a reloaded model, another format) are listed by key: any
there means a change beyond the URDF text. Exit status 0 when every change is a ``same
rotation`` change no longer than before or an ``rpy beside robomodel:rotation`` change that is
at least as accurate, else 1.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs inside a subprocess with one revision on the path: writes {key: [digest, urdf text]}.
_COLLECT = r"""
import json, sys, warnings
from golden import cases
texts = {}
real = cases._output_digest
def keep(fmt, value):
    digest = real(fmt, value)
    if fmt == "urdf":
        texts[digest] = value
    return digest
cases._output_digest = keep
wanted = sys.argv[2:]
out = {}
for source in cases.sources():
    if wanted == ["default"] and source.slow:
        continue
    if wanted not in (["default"], ["all"]) and source.id not in wanted:
        continue
    for key, value in cases.fingerprints(source).items():
        out[key] = [value, texts.get(value) if key.endswith("/urdf") else None]
    texts.clear()
with open(sys.argv[1], "w", encoding="utf-8") as fh:
    json.dump(out, fh)
"""

_ORIGIN = re.compile(r"<origin\b[^>]*/>")
_ATTR = re.compile(r'([\w:]+)="([^"]*)"')


def collect(root: Path, sources: list[str], dest: Path) -> dict[str, list[str | None]]:
    """Compute the cases with the robomodel under ``root``; return ``{key: [digest, text]}``."""
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{root / 'tests'}"}
    subprocess.run(
        [sys.executable, "-c", _COLLECT, str(dest), *sources],
        check=True,
        cwd=root,
        env=env,
    )
    data: dict[str, list[str | None]] = json.loads(dest.read_text(encoding="utf-8"))
    return data


def checkout(rev: str, into: Path) -> Path:
    """Extract revision ``rev`` of this repository into ``into`` (no worktree is made)."""
    archive = into / "base.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "archive", rev], check=True, cwd=ROOT, stdout=fh)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "base", filter="data")
    return into / "base"


def rotation(rpy: list[float]):  # type: ignore[no-untyped-def]
    """``Rz(y) Ry(p) Rx(r)`` with the loader's arithmetic (imported late: needs the path)."""
    from robomodel.formats.urdf._origin import origin_transform

    return origin_transform((0.0, 0.0, 0.0), (rpy[0], rpy[1], rpy[2])).rotation


def numbers(text: str) -> list[float]:
    """The numbers of an attribute's text."""
    return [float(v) for v in text.split()]


def digits(text: str) -> int:
    """Significant characters of a number list (what 'shorter' means)."""
    return sum(len(v.lstrip("-").replace(".", "")) for v in text.split())


ERRORS: dict[str, list[tuple[float, float]]] = {}
"""Per category of ``rpy beside robomodel:rotation`` changes: (old error, new error) pairs."""


def classify(old: str, new: str) -> tuple[str, str]:
    """The category of one changed ``<origin>`` and a line explaining it."""
    a, b = dict(_ATTR.findall(old)), dict(_ATTR.findall(new))
    if a.get("xyz") != b.get("xyz") or "rpy" not in a or "rpy" not in b:
        return "other", f"{old}\n      -> {new}"
    ra, rb = numbers(a["rpy"]), numbers(b["rpy"])
    exact_a, exact_b = a.get("robomodel:rotation"), b.get("robomodel:rotation")
    if exact_a is None and exact_b is None:
        same = bool((rotation(ra) == rotation(rb)).all())
        if not same:
            return "other", f"{old}\n      -> {new}"
        da, db = digits(a["rpy"]), digits(b["rpy"])
        kind = "equally short" if da == db else ("shorter" if db < da else "LONGER")
        return f"same rotation, {kind}", f"rpy {a['rpy']!r} -> {b['rpy']!r}"
    exact = exact_b or exact_a
    assert exact is not None
    import numpy as np

    R = np.array(numbers(exact)).reshape(3, 3)
    if exact_a is not None and exact_b is not None and exact_a != exact_b:
        return "other", f"{old}\n      -> {new}"
    ea = float(np.abs(rotation(ra) - R).max())
    eb = float(np.abs(rotation(rb) - R).max())
    pitch = math.asin(max(-1.0, min(1.0, -R[2, 0])))
    gap = math.pi / 2 - abs(pitch)
    if exact_a is None or exact_b is None:
        which = "now exact rpy" if exact_b is None else "now needs robomodel:rotation"
        return (
            f"rpy beside robomodel:rotation, {which}",
            f"rpy {a['rpy']!r} -> {b['rpy']!r}: error {ea:.2g} -> {eb:.2g}, pitch {gap:.2g} "
            "from ±90°",
        )
    kind = "as accurate or better" if eb <= max(ea, 4e-15) else "LESS ACCURATE"
    ERRORS.setdefault(f"rpy beside robomodel:rotation, {kind}", []).append((ea, eb))
    return (
        f"rpy beside robomodel:rotation, {kind}",
        f"rpy {a['rpy']!r} -> {b['rpy']!r}: error {ea:.2g} -> {eb:.2g}, pitch {gap:.2g} from ±90°",
    )


def compare(old: dict[str, list[str | None]], new: dict[str, list[str | None]], show: int) -> bool:
    """Print the changed cases and their classification; return whether all are benign."""
    changed = sorted(
        k for k in old.keys() | new.keys() if old.get(k, [None])[0] != new.get(k, [None])[0]
    )
    urdf = [k for k in changed if k.endswith("/urdf")]
    rest = [k for k in changed if not k.endswith("/urdf") and not k.endswith("/pickle")]
    print(f"{len(changed)} changed cases: {len(urdf)} URDF texts, {len(rest)} others")
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for key in urdf:
        a, b = old[key][1] or "", new[key][1] or ""
        oa, ob = _ORIGIN.findall(a), _ORIGIN.findall(b)
        if len(oa) != len(ob) or _ORIGIN.sub("", a) != _ORIGIN.sub("", b):
            counts["other (beyond <origin>)"] += 1
            examples.setdefault("other (beyond <origin>)", []).append(key)
            continue
        for x, y in zip(oa, ob, strict=True):
            if x != y:
                kind, why = classify(x, y)
                counts[kind] += 1
                examples.setdefault(kind, []).append(f"{key}: {why}")
    for kind, n in sorted(counts.items()):
        print(f"\n{n:5d} x {kind}")
        if kind in ERRORS:
            olds, news = zip(*ERRORS[kind], strict=True)
            print(
                f"      matrix error of the rpy against the exact rotation: old "
                f"{min(olds):.2g}..{max(olds):.2g}, new {min(news):.2g}..{max(news):.2g}"
            )
        for line in examples[kind][:show]:
            print(f"      {line}")
    if rest:
        print("\nother changed cases:")
        for key in rest[:show]:
            print(f"      {key}")
    bad = [k for k in counts if "LONGER" in k or "LESS" in k or k.startswith("other")]
    return not bad and not rest


def main() -> None:
    """Compare the two revisions' outputs and print the classification."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--base", default="main", help="the revision to compare against (main)")
    p.add_argument("--sources", nargs="+", default=["default"], help="default, all, or ids")
    p.add_argument("--show", type=int, default=8, help="examples shown per category")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="golden-diff-") as tmp:
        t = Path(tmp)
        base = checkout(args.base, t)
        old = collect(base, args.sources, t / "old.json")
        new = collect(ROOT, args.sources, t / "new.json")
        sys.path.insert(0, str(ROOT))
        ok = compare(old, new, args.show)
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
