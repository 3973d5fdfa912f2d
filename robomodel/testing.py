"""Assertions for users' own tests, kept apart from ``==`` (which is exact).

>>> import robomodel as rm
>>> m = rm.add_link(rm.Model(), "base")
>>> assert_models_close(m, m)
"""

from __future__ import annotations

from robomodel.model.record import Model
from robomodel.tools.diff import diff

__all__ = ["assert_models_close"]


def assert_models_close(a: Model, b: Model, *, atol: float = 1e-9, order: bool = True) -> None:
    """Raise :class:`AssertionError` listing every difference if ``a`` and ``b`` differ.

    The comparison is :func:`robomodel.tools.diff.diff`: elements matched by name, numbers within
    ``atol``, joints compared by what they do.

    Args:
        a: the first model.
        b: the second model.
        atol: absolute tolerance for numbers.
        order: also require the same link, joint, frame and sensor orders (the same indices).

    Raises:
        AssertionError: the models differ; the message is the readable diff.
    """
    d = diff(a, b, atol=atol, order=order)
    if d:
        raise AssertionError(f"models differ:\n{d}")
