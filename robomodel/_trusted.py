"""Trusted constructors: frozen attrs values built from fields the caller has already checked.

A frozen attrs class runs its converters, validators and ``__attrs_post_init__`` on every
construction, and stores each field through ``object.__setattr__``. That is the right default
for values users build, and most of the cost of loading a URDF, where the loader has already
parsed and checked every number and name. :func:`trusted` generates, once per class, a
positional constructor that stores the fields as given.

Only code that has checked the values exactly as the class would may call one; the tests
compare each trusted constructor with the checked one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

__all__ = ["trusted"]

T = TypeVar("T")


def trusted(cls: type[T]) -> Callable[..., T]:
    """Return ``make(*fields) -> cls`` storing every field as given, in attrs field order.

    Raises:
        TypeError: ``cls`` is not a slotted attrs class, or it caches its hash (the cache slot
            would have to be reset too).
    """
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    if "__attrs_cached_hash__" in getattr(cls, "__slots__", ()):
        raise TypeError(f"{cls.__name__} caches its hash; build it with its constructor")
    names = [f.name for f in attrs.fields(cls)]
    args = ", ".join(names)
    # Each field is stored through its slot descriptor directly: what object.__setattr__ ends
    # up doing, without looking the name up along the class hierarchy on every call.
    scope: dict[str, Any] = {"cls": cls, "new_": object.__new__}
    for n in names:
        slot = next(k.__dict__[n] for k in cls.__mro__ if n in k.__dict__)
        scope[f"set_{n}"] = slot.__set__
    body = "".join(f"    set_{n}(new, {n})\n" for n in names)
    src = f"def make({args}):\n    new = new_(cls)\n{body}    return new\n"
    exec(src, scope)  # generated once per class, like attrs' own __init__
    make: Callable[..., T] = scope["make"]
    make.__doc__ = f"Build a {cls.__name__} from checked fields ({args}), skipping its checks."
    return make
