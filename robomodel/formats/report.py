"""What a conversion could not carry: :class:`Loss` records collected in a report.

The report-returning verbs of every format (``loads_with_report`` and ``dumps_with_report``
of :mod:`robomodel.formats.urdf`, :mod:`robomodel.formats.mjcf` and
:mod:`robomodel.formats.json`) return their result together with a report; ``str(report)``
prints one line per entry. Nothing is dropped or changed without an entry here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, TypeAlias

import attrs
from pyrsistent import PMap, pmap

from robomodel.errors import warn
from robomodel.model.spatial import SpatialInertia

__all__ = ["ConversionReport", "Loss", "LossAction", "warn_losses"]

LossAction: TypeAlias = Literal["dropped", "changed", "renamed", "added", "approximated", "note"]
"""The kinds of entry a report lists."""


@attrs.frozen(kw_only=True)
class Loss:
    """One thing the conversion could not carry exactly.

    Attributes:
        action: ``"dropped"``, ``"changed"`` (a value was altered, e.g. an inertia bounded),
            ``"renamed"``, ``"added"`` (the result has an element the input had not),
            ``"approximated"`` or ``"note"`` (a convention the reader must know).
        kind: the kind of element (``"link"``, ``"joint"``, ``"sensor"``, ``"geom"``, ...).
        name: the element's name.
        detail: a readable explanation.
    """

    action: LossAction
    kind: str
    name: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.action} {self.kind} {self.name!r}" + (
            f": {self.detail}" if self.detail else ""
        )


def _inertias(v: Mapping[str, SpatialInertia]) -> PMap[str, SpatialInertia]:
    return v if isinstance(v, PMap) else pmap(v)


@attrs.frozen(kw_only=True)
class ConversionReport:
    """Every :class:`Loss` of one conversion, in the order they happened.

    Attributes:
        losses: the entries.
        inertias: for an export, the inertia actually written for every link whose inertia a
            policy changed (by link name); applying them with :func:`robomodel.with_link`
            gives the model the MJCF is exactly equivalent to.

    >>> r = ConversionReport(losses=(Loss(action="dropped", kind="sensor", name="s"),))
    >>> print(r)
    dropped sensor 's'
    >>> [x.name for x in r.of("dropped")]
    ['s']
    """

    losses: tuple[Loss, ...] = ()
    inertias: PMap[str, SpatialInertia] = attrs.field(factory=pmap, converter=_inertias)

    def of(self, action: LossAction) -> tuple[Loss, ...]:
        """Return the entries of one action."""
        return tuple(x for x in self.losses if x.action == action)

    def __len__(self) -> int:
        return len(self.losses)

    def __str__(self) -> str:
        return "\n".join(str(x) for x in self.losses) if self.losses else "nothing lost"


def warn_losses(
    report: ConversionReport, *, what: str, full_report: str, shown: int = 12, fmt: str = "MJCF"
) -> None:
    """Warn with the first ``shown`` entries of ``report`` that dropped, changed or approximated.

    Args:
        report: the conversion report.
        what: ``"export"`` or ``"import"``, for the message.
        full_report: the function that returns the whole report, named in the message.
        shown: how many entries the message lists.
        fmt: the format's name, for the message.
    """
    serious = [x for x in report.losses if x.action in SERIOUS]
    warn_serious(len(serious), serious[:shown], what=what, full_report=full_report, fmt=fmt)


SERIOUS: tuple[LossAction, ...] = ("dropped", "changed", "approximated")
"""The actions a warning lists (the others are notes a reader of the report may want)."""


def warn_serious(
    count: int, first: Sequence[Loss], *, what: str, full_report: str, fmt: str = "MJCF"
) -> None:
    """:func:`warn_losses` given how many entries are serious and the first ones to list.

    For a writer that returns no report (``dumps``): it need not build every entry to warn.

    Args:
        count: how many entries dropped, changed or approximated.
        first: the first of them (as many as the message lists).
        what: ``"export"`` or ``"import"``, for the message.
        full_report: the function that returns the whole report, named in the message.
        fmt: the format's name, for the message.
    """
    if not count:
        return
    lines = [str(x) for x in first]
    if count > len(first):
        lines.append(f"... and {count - len(first)} more")
    text = "\n  ".join(lines)
    warn(
        f"the {fmt} {what} lost or changed {count} element(s); call {full_report} for "
        f"the full report:\n  {text}"
    )
