"""What a transformer did: :class:`Change` records collected into a :class:`Report`.

Transformers return only the new model. To learn what one did, run it through
:func:`robomodel.transformers.explain`, which returns the same model together with a
:class:`Report` listing every link lumped, element moved or renamed, element dropped and element
added. Reports are plain values: :meth:`Report.summary` groups the changes (one line per step,
action and kind of element, with the first names), :meth:`Report.details` has one line per
change, and ``str(report)`` is the details of a short report and the summary of a long one.

Transformers report through :func:`record`, which adds to the recorder that :func:`explain` set
for the current context (see :func:`collecting`) and does nothing when none is set: each
transformer is one function, and running it outside ``explain`` costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal, TypeAlias

import attrs

__all__ = [
    "SHORT_REPORT",
    "Action",
    "Change",
    "Recorder",
    "Report",
    "collecting",
    "record",
    "recording",
]

Action: TypeAlias = Literal[
    "lumped", "moved", "renamed", "dropped", "added", "reordered", "rewrote"
]
"""The kinds of change a report lists."""


@attrs.frozen(kw_only=True)
class Change:
    """One thing a transformer did.

    Attributes:
        step: the transformer that did it (e.g. ``"reduce_model"``).
        action: ``"lumped"``, ``"moved"``, ``"renamed"``, ``"dropped"``, ``"added"`` or
            ``"reordered"`` (``"rewrote"`` for verbatim XML whose references were updated).
        kind: the kind of element (``"link"``, ``"frame"``, ``"sensor"``, ``"visual"``, ...).
        name: the element's name (its old name for a rename).
        detail: a readable explanation (where it went, its new name, why it was dropped).
    """

    step: str
    action: Action
    kind: str
    name: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.step}: {self.action} {self.kind} {self.name!r}" + (
            f": {self.detail}" if self.detail else ""
        )


@attrs.frozen
class Report:
    """Every :class:`Change` made by one transformer or a pipeline, in the order they happened.

    >>> r = Report((Change(step="s", action="dropped", kind="sensor", name="ft"),))
    >>> [c.name for c in r.dropped], len(r)
    (['ft'], 1)
    """

    changes: tuple[Change, ...] = ()

    def _of(self, action: str) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.action == action)

    @property
    def lumped(self) -> tuple[Change, ...]:
        """Links merged into another link (each became a frame of it)."""
        return self._of("lumped")

    @property
    def moved(self) -> tuple[Change, ...]:
        """Frames, shapes, sensors and link frames re-attached or re-expressed."""
        return self._of("moved")

    @property
    def renamed(self) -> tuple[Change, ...]:
        """Elements given a new name."""
        return self._of("renamed")

    @property
    def dropped(self) -> tuple[Change, ...]:
        """Elements that are not in the result."""
        return self._of("dropped")

    @property
    def added(self) -> tuple[Change, ...]:
        """Elements the result has and the input had not."""
        return self._of("added")

    @property
    def reordered(self) -> tuple[Change, ...]:
        """Changes of link or joint order."""
        return self._of("reordered")

    def __add__(self, other: Report) -> Report:
        if not isinstance(other, Report):
            return NotImplemented
        return Report(self.changes + other.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def summary(self, *, names: int = 6) -> str:
        """Return the changes grouped by step, action and kind, one line per group.

        Each line counts the group's elements and names the first ``names`` of them; a
        report of several steps starts each line with the step. Groups come in the order of
        their first change.

        >>> r = Report(tuple(Change(step="reduce_model", action="lumped", kind="link", name=n)
        ...                  for n in "abcdefgh"))
        >>> print(r.summary())
        lumped 8 links: a, b, c, d, e, f, ... (2 more)
        >>> print(r.summary(names=8))
        lumped 8 links: a, b, c, d, e, f, g, h

        Args:
            names: how many names each line shows at most.
        """
        if not self.changes:
            return "no changes"
        groups: dict[tuple[str, str, str], list[str]] = {}
        for c in self.changes:
            groups.setdefault((c.step, c.action, c.kind), []).append(c.name)
        several = len({step for step, _, _ in groups}) > 1
        lines = []
        for (step, action, kind), found in groups.items():
            head = f"{step}: " if several else ""
            lines.append(head + _group_line(action, kind, found, names))
        return "\n".join(lines)

    def details(self) -> str:
        """Return one line per change, in the order they happened (``step: action kind name``).

        >>> print(Report((Change(step="s", action="dropped", kind="sensor", name="ft",
        ...                      detail="its joint is lumped"),)).details())
        s: dropped sensor 'ft': its joint is lumped
        """
        return "\n".join(str(c) for c in self.changes) if self.changes else "no changes"

    def __str__(self) -> str:
        # Every change of a short report; the grouped summary of a long one (a Talos leg
        # reduction has 168 changes), which says how to see them all.
        if len(self.changes) <= SHORT_REPORT:
            return self.details()
        return f"{self.summary()}\n({len(self.changes)} changes; report.details() lists every one)"


SHORT_REPORT = 20
"""The longest report that ``str(report)`` prints in full; a longer one prints its summary."""


def _plural(kind: str, n: int) -> str:
    if n == 1:
        return kind
    return kind + "es" if kind.endswith(("s", "sh", "ch", "x")) else kind + "s"


def _group_line(action: str, kind: str, names: Sequence[str], shown: int) -> str:
    if not any(names):  # a change of the whole model, such as the joint order
        return f"{action} the {kind if kind.endswith('s') else _plural(kind, 2)}"
    listed = ", ".join(names[:shown])
    if len(names) > shown:
        listed += f", ... ({len(names) - shown} more)"
    return f"{action} {len(names)} {_plural(kind, len(names))}: {listed}"


class Recorder:
    """Collects the changes of one :func:`~robomodel.transformers.explain` call (internal)."""

    __slots__ = ("changes", "step")

    def __init__(self, step: str) -> None:
        self.step = step
        self.changes: list[Change] = []

    def add(self, action: Action, kind: str, name: str, detail: str = "") -> None:
        """Record one change."""
        self.changes.append(
            Change(step=self.step, action=action, kind=kind, name=name, detail=detail)
        )

    def report(self) -> Report:
        """Return the changes recorded so far."""
        return Report(tuple(self.changes))


# The recorder of the explain() call running in this context, if any. A context variable rather
# than a parameter: each transformer is written once, and code that has nothing to report (or
# runs outside explain) pays one lookup per record() call. Threads and asyncio tasks each see
# their own value, so concurrent explains never mix their reports.
_ACTIVE: ContextVar[Recorder | None] = ContextVar("robomodel_transformers_recorder", default=None)


def record(action: Action, kind: str, name: str, detail: str = "") -> None:
    """Add one change to the report being collected; a no-op outside :func:`explain`.

    Transformers call this for everything they lump, move, rename, drop or add. Build an
    expensive ``detail`` only when :func:`recording` says someone will read it.
    """
    rec = _ACTIVE.get()
    if rec is not None:
        rec.add(action, kind, name, detail)


def recording() -> bool:
    """Whether :func:`record` keeps what it is given (an :func:`explain` call is collecting)."""
    return _ACTIVE.get() is not None


@contextmanager
def collecting(rec: Recorder | None) -> Iterator[None]:
    """Send what is recorded in the block to ``rec``, or nowhere with ``None``.

    ``None`` is for a function that is not a robomodel transformer: what the transformers it
    calls do is not its report. The previous recorder is restored on exit, so explains nest.
    """
    token = _ACTIVE.set(rec)
    try:
        yield
    finally:
        _ACTIVE.reset(token)
