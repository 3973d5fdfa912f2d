"""Prove that the realrobots branch changes golden outputs only as intended.

Run from the worktree root: ``PYTHONPATH=$PWD:tests python tests/golden/prove_realrobots.py``
(``--slow`` for every source, or source ids such as ``random/056`` for those only).
Every MJCF output is rewritten without what the branch adds on purpose (the ``<site>`` marking
a link with no body of its own, listed in the metadata's ``link_sites``, and that entry), and
every fingerprint of the default sources is then compared with golden.json: the script prints
the case ids that still differ (none expected) and how many MJCF outputs held such sites.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET

from test_outputs_unchanged import golden, mismatches

import robomodel.formats.mjcf
from golden import cases

CHANGED = {"n": 0}


def _without_link_sites(model: object) -> str:
    text = robomodel.formats.mjcf.dumps(model)  # type: ignore[arg-type]
    root = ET.fromstring(text)
    meta_el = root.find("./custom/text[@name='robomodel']")
    if meta_el is None:
        return text
    meta = json.loads(meta_el.get("data", "{}"))
    sites = set(meta.pop("link_sites", ()))
    if not sites:
        return text
    CHANGED["n"] += 1
    for parent in root.iter():
        for child in list(parent):
            if child.tag == "site" and child.get("name") in sites:
                parent.remove(child)
        if not len(parent):
            parent.text = None  # the indentation left by a removed only child
    if meta:
        meta_el.set("data", json.dumps(meta, sort_keys=True, separators=(",", ":")))
    else:
        custom = root.find("./custom")
        assert custom is not None
        root.remove(custom)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"


def main() -> int:
    cases.EXPORTERS["mjcf"] = _without_link_sites
    bad: list[str] = []
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for source in cases.sources():
        if source.slow and "--slow" not in sys.argv:
            continue
        if only and source.id not in only:
            continue
        expected = {k: v for k, v in golden().items() if cases_source(k) == source.id}
        bad += mismatches(expected, cases.fingerprints(source))
    print(f"{CHANGED['n']} MJCF outputs held link sites; {len(bad)} other differences")
    for line in bad:
        print(line)
    return 1 if bad else 0


def cases_source(key: str) -> str:
    head, _, rest = key.partition("/")
    return head if head == "example" else f"{head}/{rest.partition('/')[0]}"


if __name__ == "__main__":
    raise SystemExit(main())
