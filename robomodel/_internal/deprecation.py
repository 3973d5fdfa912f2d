"""Old names of functions, classes and option values, kept working for one release.

A module lists its renamed attributes in one table and installs :func:`renamed_attributes` as
its module ``__getattr__`` (PEP 562): the old name is looked up only when it is not a real
attribute, so the warning fires once per access of an old name and costs nothing otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from robomodel.errors import deprecated

__all__ = ["renamed_attributes"]


def renamed_attributes(
    module: str, renamed: Mapping[str, tuple[str, Callable[[], object]]]
) -> Callable[[str], object]:
    """Return a module ``__getattr__`` answering the old names of ``module`` with a warning.

    Args:
        module: the module's name (for the messages).
        renamed: old attribute name -> (the new name users should write, a function returning
            the object). A function rather than the object: the new object may live in a module
            that imports this one.
    """

    def __getattr__(name: str) -> object:  # noqa: N807  (PEP 562 names it so)
        try:
            new, value = renamed[name]
        except KeyError:
            raise AttributeError(f"module {module!r} has no attribute {name!r}") from None
        deprecated(f"{module}.{name}", new)
        return value()

    return __getattr__
