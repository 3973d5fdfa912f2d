"""The per-value cache of derived data (traversals, kinematics plans, mimic maps).

It lives apart from :mod:`robomodel.model.record` so that modules the model itself relies on (the
mimic map that :mod:`robomodel.model.checks` resolves, and through it ``Model.problems()``) can
cache
on a model without importing the module that defines it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

from robomodel._internal.construct import set_derived

__all__ = ["memoized"]

T = TypeVar("T")


class _Memoizing(Protocol):
    """A frozen value with a ``_memo`` slot (a :class:`~robomodel.model.record.Model`)."""

    @property
    def _memo(self) -> dict[Any, Any] | None: ...


def memoized(model: _Memoizing, key: Hashable, make: Callable[[], T]) -> T:
    """Return the value memoised on ``model`` under ``key``, computing it with ``make`` once.

    The per-model cache of derived data (traversals, kinematics plans): never part of ``==`` or
    the hash, never carried to a new value. Key it by link *index* (``("fk-plan", base)``), not
    by the raw argument a user gave, so that a name and its index share one entry.
    """
    memo = model._memo
    if memo is None:
        memo = {}
        set_derived(model, "_memo", memo)
    try:
        return memo[key]  # type: ignore[no-any-return]
    except KeyError:
        value = memo[key] = make()
        return value
