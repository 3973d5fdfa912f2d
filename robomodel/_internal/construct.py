"""Trusted construction: the one place where robomodel builds values without their checks.

Every robomodel value is a frozen attrs class whose constructor converts and checks each field.
That is the right default for values users build, and most of the cost of code that builds
thousands of values whose fields it has already checked or computed itself (the URDF loader,
the lumping engine, the builders). This module generates, once per class, the fast paths such
code uses instead, the way attrs keeps its own code generation in one helper:

* :func:`make` -- ``make(cls)`` is the class's maker, ``maker(*fields)`` storing every field as
  given, in attrs field order;
* :func:`replace` -- ``replace(cls)`` is the class's replacer, ``replacer(value, **changes)``, a
  copy with some fields replaced;
* :func:`set_derived` -- fills a derived slot (a cache, excluded from ``==``) of a frozen value;
* :func:`finish` -- stores the fields a value's own ``__attrs_post_init__`` normalised or derived;
* :func:`restore` -- fills a value's slots from a pickled state (``__setstate__``).

Makers and replacers are made on first request and cached here, one per class (and per
``reset`` for replacers): callers ask for them where they use them (``make(Transform)(R, p)``)
rather than keeping their own module-level copies, so this registry is the one list of every
unchecked path. Their code is generated from the class's attrs fields, and compiled ahead of
time in ``_construct_code`` for every value class (see :func:`module_source`): compiling it
on request cost a first call in a process about a million instructions per class.
Nothing else in robomodel calls ``object.__new__`` or ``object.__setattr__``.
The contract of every generated function is the same: the caller passes fields that already
satisfy the class's converters and validators (read-only float64 arrays of the right shape,
persistent vectors, checked names); the one thing a maker does itself is store each ``float``
field canonical (``-0.0`` as ``0.0``, one addition), as the checked converters do.
Each fills its new value as a writable twin of the class (:func:`_writable`) and then gives it
its class, which is cheaper than calling every slot's ``__set__``.
``tests/test_construct.py`` compares each one with the checked constructor on random inputs;
:data:`MADE` lists those generated so far for that test.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import attrs

from robomodel._internal._construct_code import FACTORIES

__all__ = [
    "MADE",
    "finish",
    "make",
    "module_source",
    "replace",
    "restore",
    "set_derived",
]

T = TypeVar("T")

MADE: list[tuple[str, type, Callable[..., Any]]] = []
"""Every fast path generated so far: ``(kind, class, function)``, kind ``"trusted"`` or
``"replacer"``; each is generated once, on its first request through :func:`make` or
:func:`replace`."""

_set = object.__setattr__
_HASH_SLOT = "_attrs_cached_hash"


def _fields(cls: type) -> tuple[attrs.Attribute, ...]:  # type: ignore[type-arg]
    return tuple(attrs.fields(cls))


def _check_slotted(cls: type) -> list[str]:
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted attrs class")
    return [f.name for f in _fields(cls)]


def _caches_hash(cls: type) -> bool:
    return any(_HASH_SLOT in getattr(k, "__slots__", ()) for k in cls.__mro__)


def _writable(cls: type) -> type:
    """A subclass of ``cls`` with the same layout whose instances take plain assignments.

    A value is built as this twin, its slots filled by ordinary attribute stores (the
    interpreter's own slot store, where the frozen class's ``__setattr__`` refuses and a slot
    descriptor's ``__set__`` packs an argument tuple per field), then given its real class by
    one ``__class__`` assignment, which Python allows between classes of the same layout. The
    twin adds no slot, so the layouts are the same; it never escapes the generated function.
    Its ``__init__`` is ``object.__init__``, so ``twin()`` makes an empty instance through the
    type's own slots (cheaper than ``object.__new__(twin)``, a method call that checks its
    argument's bases).
    """
    return type(
        f"_Writable{cls.__name__}",
        (cls,),
        {
            "__slots__": (),
            "__module__": __name__,
            "__init__": object.__init__,
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
        },
    )


def _float_fields(cls: type) -> set[str]:
    # Fields declared ``float``: stored as ``x + 0.0``, which folds -0.0 into 0.0 as every
    # checked converter does (robomodel._internal.arrays.canonical); arrays come canonical
    # from ``immutable``, by the callers' contract.
    return {f.name for f in _fields(cls) if f.type in ("float", float)}


# ------------------------------------------------------------------ the generated code
# Each fast path is the source of one function (``make`` or ``replace``) and the names it reads
# besides its arguments (its scope: the class, its twin, defaults). The function is made by a
# factory, ``factory(scope)``, whose source wraps it: the scope's names bound first, the
# function returned. Compiling a factory costs some 10^6 instructions (the parser, mostly: a
# first call in a process would pay it for every class it builds), so the factories of every
# value class are kept compiled in ``_construct_code`` (generated ahead of time by
# :func:`module_source`, found by a digest of their source); a class whose source is not there
# (a new field, a new class) has its factory compiled here, the same code either way.


def _maker_source(cls: type) -> tuple[str, dict[str, Any]]:
    # The maker of :func:`make`, generated from the class's attrs fields.
    _check_slotted(cls)
    if _caches_hash(cls):
        raise TypeError(f"{cls.__name__} caches its hash; use replace() to copy one")
    init = [f.name for f in _fields(cls) if f.init]
    rest = [f for f in _fields(cls) if not f.init]
    scope: dict[str, Any] = {"cls": cls}
    floats = _float_fields(cls)
    body = "".join(
        f"    new.{n} = {n} + 0.0\n" if n in floats else f"    new.{n} = {n}\n" for n in init
    )
    for f in rest:
        if isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]
            raise TypeError(f"{cls.__name__}.{f.name} has a factory default; give it a value")
        scope[f"default_{f.name}"] = f.default
        body += f"    new.{f.name} = default_{f.name}\n"
    args = ", ".join(init)
    # Built as the writable twin, then given its class (see _writable).
    head = f"def make({args}):\n    new = twin()\n"
    return f"{head}{body}    new.__class__ = cls\n    return new\n", scope


def _replacer_source(cls: type, reset: tuple[tuple[str, Any], ...]) -> tuple[str, dict[str, Any]]:
    # The replacer of :func:`replace`, generated from the class's attrs fields.
    names = _check_slotted(cls)
    fixed = {
        f.name: f.default
        for f in _fields(cls)
        if not f.init
        and f.default is not attrs.NOTHING
        and not isinstance(f.default, attrs.Factory)  # type: ignore[arg-type]
    }
    fixed.update(reset)
    copied = [n for n in names if n not in fixed]
    scope: dict[str, Any] = {"cls": cls, "_KEEP": _KEEP}
    params = ", ".join(f"{n}=_KEEP" for n in copied)
    lines = [f"def replace(value, *, {params}):" if params else "def replace(value):"]
    lines.append("    new = twin()")
    floats = _float_fields(cls)
    for n in copied:
        given = f"{n} + 0.0" if n in floats else n  # canonical, as the converters store it
        lines.append(f"    new.{n} = value.{n} if {n} is _KEEP else {given}")
    for n, v in fixed.items():
        scope[f"reset_{n}"] = v
        lines.append(f"    new.{n} = reset_{n}")
    if _caches_hash(cls):
        lines.append(f"    new.{_HASH_SLOT} = None")
    lines.append("    new.__class__ = cls")
    lines.append("    return new")
    return "\n".join(lines) + "\n", scope


_KEEP = object()
"""A replacer's default for a field left as it is."""


def _factory_source(src: str, scope: Mapping[str, Any]) -> str:
    # ``factory(scope)``: binds the names the function reads (and its twin), then defines it.
    binds = "".join(f"    {n} = scope[{n!r}]\n" for n in sorted([*scope, "twin"]))
    body = "".join(f"    {line}\n" if line else "\n" for line in src.splitlines())
    name = src[4 : src.index("(")]
    return f"def factory(scope):\n{binds}{body}    return {name}\n"


def _digest(factory_src: str) -> str:
    return hashlib.blake2b(factory_src.encode(), digest_size=8).hexdigest()


def _build(cls: type, src: str, scope: dict[str, Any]) -> Callable[..., Any]:
    # The function of ``src``: from its precompiled factory when there is one, else compiled.
    factory_src = _factory_source(src, scope)
    factory = FACTORIES.get(_digest(factory_src))
    if factory is None:
        namespace: dict[str, Any] = {}
        exec(factory_src, namespace)  # generated once per class, like attrs' own __init__
        factory = namespace["factory"]
    fn: Callable[..., Any] = factory({**scope, "twin": _writable(cls)})
    return fn


def module_source(classes: Iterable[type]) -> str:
    """Return the text of ``_construct_code``: the factories of these classes' fast paths.

    One factory per distinct source (classes with the same fields share one), each under the
    digest :func:`make` and :func:`replace` look it up by. ``tests/test_construct.py`` checks
    that the module is this text for every value class (``python tests/test_construct.py``
    rewrites it).
    """
    sources: dict[str, str] = {}
    for cls in classes:
        made = []
        with contextlib.suppress(TypeError):  # it caches its hash: only a replacer copies it
            made.append(_maker_source(cls))
        made.append(_replacer_source(cls, ()))
        for src, scope in made:
            factory_src = _factory_source(src, scope)
            digest = _digest(factory_src)
            sources[digest] = factory_src.replace("def factory(", f"def _{digest}(", 1)
    entries = "".join(f'    "{d}": _{d},\n' for d in sorted(sources))
    return (
        _MODULE_HEAD
        + "\n\n".join(sources[d] for d in sorted(sources))
        + f"\n\nFACTORIES = {{\n{entries}}}\n"
    )


_MODULE_HEAD = '''"""The fast paths of robomodel._internal.construct, compiled ahead of time.

Generated by ``robomodel._internal.construct.module_source`` (``python tests/test_construct.py``
writes it; ``tests/test_construct.py`` checks it is current): do not edit.
"""

# mypy: ignore-errors
# ruff: noqa: E501
# fmt: off


'''


def _generate_maker(cls: type[T]) -> Callable[..., T]:
    # The maker of :func:`make` (a generated function), registered in MADE.
    src, scope = _maker_source(cls)
    fn = _build(cls, src, scope)
    fn.__doc__ = f"Build a {cls.__name__} from checked fields, skipping its checks."
    MADE.append(("trusted", cls, fn))
    return fn


def _generate_replacer(cls: type[T], reset: tuple[tuple[str, Any], ...]) -> Callable[..., T]:
    # The replacer of :func:`replace` (a generated function), registered in MADE.
    src, scope = _replacer_source(cls, reset)
    fn = _build(cls, src, scope)
    fn.__doc__ = f"Copy a {cls.__name__} with some fields replaced, skipping its checks."
    MADE.append(("replacer", cls, fn))
    return fn


_MAKERS: dict[type, Callable[..., Any]] = {}
_REPLACERS: dict[tuple[type, tuple[tuple[str, Any], ...]], Callable[..., Any]] = {}


def make(cls: type[T]) -> Callable[..., T]:
    """Return the maker of ``cls``: ``maker(*fields) -> cls`` storing every field as given.

    The fields go in attrs field order; fields declared ``init=False`` are set to their default
    (they must have a plain default). Generated on the first request, then cached: ask for it
    where it is used (bind it to a local name before a loop).

    Raises:
        TypeError: ``cls`` is not a slotted attrs class, or it caches its hash.
    """
    try:
        return _MAKERS[cls]
    except KeyError:
        fn = _MAKERS[cls] = _generate_maker(cls)
        return fn


def replace(cls: type[T], *, reset: Mapping[str, Any] | None = None) -> Callable[..., T]:
    """Return the replacer of ``cls``: ``replacer(value, **changes) -> cls``, a changed copy.

    The keyword names are the attrs field names (private fields keep their underscore). Derived
    fields (``init=False``) with a plain default are reset to it in every copy, and so are the
    fields named in ``reset`` (to the given hashable value): caches that must not carry over to
    a new value. A cached hash is always reset. Generated on the first request per class and
    ``reset``, then cached.

    Raises:
        TypeError: ``cls`` is not a slotted attrs class.
    """
    key = (cls, tuple(sorted(reset.items())) if reset else ())
    try:
        return _REPLACERS[key]
    except KeyError:
        fn = _REPLACERS[key] = _generate_replacer(cls, key[1])
        return fn


def set_derived(value: object, name: str, derived: object) -> None:
    """Store ``derived`` in slot ``name`` of a frozen value.

    Only for slots excluded from ``==`` and ``hash`` that hold data computed from the value's
    own fields (adjacency, memoised traversals): filling them never changes what the value is.
    Computing one twice in two threads is harmless, so no lock is taken.
    """
    _set(value, name, derived)


def finish(value: object, **fields: object) -> None:
    """Store ``fields`` in a frozen value from inside its own ``__attrs_post_init__``.

    For fields the value derives from the others as a whole (a model's placed joints and its
    index), which no per-field converter can compute. Only while the value is being built: once
    it is handed out, it must not change.
    """
    for name, v in fields.items():
        _set(value, name, v)


def restore(value: T, source: T) -> T:
    """Copy every slot of ``source`` into ``value`` (both of one class) and return ``value``.

    For ``__setstate__``: the unpickled shell takes the fields of a value built through the
    checked constructor. A cached hash is reset rather than copied.
    """
    cls = type(source)
    for f in _fields(cls):
        _set(value, f.name, getattr(source, f.name))
    if _caches_hash(cls):
        _set(value, _HASH_SLOT, None)
    return value
