"""Helpers for code that builds many values at once (the URDF loader above all).

:func:`trusted` builds frozen attrs values from fields the caller has already checked. A frozen
attrs class runs its converters, validators and ``__attrs_post_init__`` on every
construction, and stores each field through ``object.__setattr__``. That is the right default
for values users build, and most of the cost of loading a URDF, where the loader has already
parsed and checked every number and name. :func:`trusted` generates, once per class, a
positional constructor that stores the fields as given.

Only code that has checked the values exactly as the class would may call one; the tests
compare each trusted constructor with the checked one.

:func:`gc_paused` pauses Python's cyclic garbage collector around such a build.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import attrs

__all__ = ["gc_paused", "trusted"]

T = TypeVar("T")


def trusted(cls: type[T]) -> Callable[..., T]:
    """Return ``make(*fields) -> cls`` storing every field as given, in attrs field order.

    Raises:
        TypeError: ``cls`` is not a slotted attrs class, or it caches its hash (the cache slot
            would have to be reset too).
    """
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    if any("_attrs_cached_hash" in getattr(k, "__slots__", ()) for k in cls.__mro__):
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


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the duration of the block, if it is enabled.

    Building a model allocates thousands of containers (values, lists, tuples) that form no
    reference cycles, so a collection during the build frees nothing; but every 700 allocations
    CPython scans the young objects, and every tenth scan the older ones, which cost the URDF
    loader about 8% of its time. Reference counting still frees everything as usual.

    The collector is process-wide: while a block runs, no thread's cycles are collected (they
    are at the next collection after it). If the collector is already disabled it stays so.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
