"""Every output of the readers, writers and transformers is what it was when golden.json was made.

The cases and their fingerprints are defined in ``tests/golden/cases.py``; ``golden.json`` was
written by ``tests/golden/make_golden.py`` from the code before the package restructure (branch
``base-snapshot``). A failure lists every case id whose fingerprint changed, appeared or
disappeared for one source. Fingerprints are of exact bits: on a machine whose matrix
products round differently, ``arithmetic-<digest>.json`` (made from the same code) gives that
machine's own fingerprints where they differ. The default run covers the bundled example, three
robots and 30 random models; ``-m slow`` covers the other robots and random models.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from golden import cases

GOLDEN = Path(__file__).parent / "golden" / "golden.json"
SHOWN = 40
"""How many mismatching case ids a failure message lists in full."""
GOLDEN_ARITHMETIC = "03f6450efcc45f4e"
"""``cases.arithmetic()`` where golden.json was made (OpenBLAS's SkylakeX kernel: on any x86-64
machine with AVX-512, ``OPENBLAS_CORETYPE=SkylakeX`` reproduces golden.json itself)."""


@functools.cache
def golden() -> dict[str, str]:
    """golden.json, with this machine's arithmetic's own fingerprints over it where it has them.

    A machine whose matrix products round differently in the last bit (another OpenBLAS
    kernel) computes other bits from the same code; ``arithmetic-<digest>.json`` holds the
    fingerprints that differ on such a machine, made from the same code as golden.json
    (``make_golden.py --arithmetic``).
    """
    data: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    own = GOLDEN.with_name(f"arithmetic-{cases.arithmetic()}.json")
    if own.exists():
        data.update(json.loads(own.read_text(encoding="utf-8")))
    return data


def source_of(case_id: str) -> str:
    """The source id of a case id (``example/...``, ``icub/<robot>/...``, ``random/<n>/...``)."""
    head, _, rest = case_id.partition("/")
    return head if head == "example" else f"{head}/{rest.partition('/')[0]}"


@functools.cache
def golden_by_source() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for key, value in golden().items():
        if not key.startswith("env/"):
            out.setdefault(source_of(key), {})[key] = value
    return out


def environment_note() -> str:
    now = cases.environment()
    was = {k: v for k, v in golden().items() if k.startswith("env/")}
    changed = [
        f"{k.removeprefix('env/')} {was.get(k)} -> {now.get(k)}"
        for k in sorted(now.keys() | was.keys())
        if was.get(k) != now.get(k)
    ]
    arithmetic = cases.arithmetic()
    own = GOLDEN.with_name(f"arithmetic-{arithmetic}.json")
    if arithmetic != GOLDEN_ARITHMETIC and not own.exists():
        changed.append(
            f"this machine's float arithmetic ({arithmetic}) may not be golden.json's, and has "
            "no arithmetic-*.json of its own (tests/golden/make_golden.py --arithmetic)"
        )
    if not changed:
        return ""
    return "\nnote: the environment differs from the golden one: " + "; ".join(changed)


def _compared(key: str) -> bool:
    # A pickle's bytes are the layout of robomodel's compact form, which changed on purpose
    # (version 4: the URDF loader's number records are gone); the model it reads back is
    # compared through its JSON text (``.../pickle>load``), as for every other format.
    return not key.endswith("/pickle")


def mismatches(expected: dict[str, str], actual: dict[str, str]) -> list[str]:
    """One line per case id whose fingerprint differs, sorted."""
    lines = []
    for key in sorted(k for k in expected.keys() | actual.keys() if _compared(k)):
        was, now = expected.get(key, "<absent>"), actual.get(key, "<absent>")
        if was != now:
            lines.append(f"{key}: {was} -> {now}")
    return lines


SOURCES = cases.sources()


@pytest.mark.parametrize(
    "source",
    [pytest.param(s, id=s.id, marks=[pytest.mark.slow] if s.slow else []) for s in SOURCES],
)
def test_outputs_unchanged(source: cases.Source) -> None:
    """Every fingerprint of ``source``'s cases equals the golden one (all differences listed)."""
    expected = golden_by_source().get(source.id, {})
    assert expected, f"golden.json has no case of source {source.id!r}"
    lines = mismatches(expected, cases.fingerprints(source))
    if lines:
        shown = "\n".join(lines[:SHOWN])
        more = f"\n... and {len(lines) - SHOWN} more" if len(lines) > SHOWN else ""
        pytest.fail(
            f"{len(lines)} of {len(expected)} cases of {source.id} changed "
            f"(golden -> now):\n{shown}{more}{environment_note()}",
            pytrace=False,
        )


def test_golden_sources_are_the_enumerated_ones() -> None:
    """golden.json holds exactly the sources cases.sources() enumerates (none lost or added)."""
    assert sorted(golden_by_source()) == sorted(s.id for s in SOURCES)


def test_default_tier_is_meaningful() -> None:
    """The default run covers the example, three robots and 30 random models."""
    fast = [s.id for s in SOURCES if not s.slow]
    assert "example" in fast
    assert sum(i.startswith("icub/") for i in fast) == 3
    assert sum(i.startswith("random/") for i in fast) == 30
