"""An append-only name-to-index map with persistent semantics and O(1) updates.

Builders only ever append names (a new link gets index ``n``), so a model's name map is a prefix
of its successor's. All versions of one build history therefore share a single dict: a version
sees the entries whose index is below its own length. Appending from the newest version writes
into the shared dict; appending from an older version (a branch) copies the prefix first, so no
version ever observes another's names. This keeps ``add_link`` O(1) instead of the O(log n) pure
Python update of a ``PMap``, which dominated the cost of building large models.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Mapping


class _Table:
    __slots__ = ("d", "lock", "n")

    def __init__(self, d: dict[str, int], n: int) -> None:
        self.d = d
        self.n = n
        self.lock = threading.Lock()


class NameIndex:
    """A read-only view ``name -> index`` over the first ``len(self)`` appended names."""

    __slots__ = ("_n", "_t")

    def __init__(self, table: _Table, n: int) -> None:
        self._t = table
        self._n = n

    @classmethod
    def build(cls, names: Iterable[str]) -> NameIndex:
        """Return an index over ``names`` (which must be unique), in order."""
        d = {name: i for i, name in enumerate(names)}
        return cls(_Table(d, len(d)), len(d))

    @classmethod
    def wrap(cls, names: dict[str, int]) -> NameIndex:
        """Return an index over ``names``, a dict mapping each name to its index ``0..n-1``.

        The dict is taken over, not copied: the caller must not change it afterwards.
        """
        return cls(_Table(names, len(names)), len(names))

    def get(self, name: str, default: int | None = None) -> int | None:
        """Return the index of ``name``, or ``default``."""
        i = self._t.d.get(name)
        return i if i is not None and i < self._n else default

    def __contains__(self, name: object) -> bool:
        i = self._t.d.get(name)  # type: ignore[call-overload]
        return i is not None and i < self._n

    def __getitem__(self, name: str) -> int:
        i = self._t.d.get(name)
        if i is None or i >= self._n:
            raise KeyError(name)
        return i

    def __len__(self) -> int:
        return self._n

    def table(self) -> Mapping[str, int]:
        """The shared table under this view: its names, and names appended after them.

        Only for looking up names known to be in this view (a model's own link names), where
        the table's answer is the view's, without a Python-level call per name. Never change it.
        """
        return self._t.d

    def __iter__(self) -> Iterator[str]:
        return (k for k, v in list(self._t.d.items()) if v < self._n)

    def appended(self, name: str) -> NameIndex:
        """Return a new view in which ``name`` has index ``len(self)``."""
        t = self._t
        n = self._n
        with t.lock:
            if t.n == n:
                t.d[name] = n
                t.n = n + 1
                return NameIndex(t, n + 1)
            d = {k: v for k, v in t.d.items() if v < n}
        d[name] = n
        return NameIndex(_Table(d, n + 1), n + 1)
