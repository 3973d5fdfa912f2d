"""Griffe extension used by the docs build: turn Sphinx cross-reference roles into links.

robomodel's docstrings name other objects with Sphinx roles (``:class:`Model```,
``:func:`~robomodel.formats.urdf.load```), which mkdocstrings would show as raw text. Once the
package is loaded, every role is resolved the way Python would resolve the name from the docstring's
object (its members, then the enclosing class and modules, their imports, then a unique public name
of the package) and rewritten as an mkdocs-autorefs link
``[`Model`][robomodel.model.record.Model]``.

A link is only written to an object the API pages render (a package or module that a page of
``docs/api/`` names in a ``::: path`` directive, a name its ``__all__`` exports, or an object a
directive names, with their public documented members); any other reference (the standard library,
private helpers, modules that only define what a package exports) becomes code text, so ``mkdocs
build --strict`` never meets a dangling link. The unresolved references are counted in
:data:`UNRESOLVED` and reported once in the build log.
"""

from __future__ import annotations

import functools
import logging
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import griffe

ROLE = re.compile(
    r":(?:py:)?(?P<role>class|func|mod|meth|attr|data|exc|obj|const):`(?P<body>[^`]+)`"
)
TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$")
API_PAGE = Path(__file__).with_name("api")

#: References the last build could not link, by their text (read by the docs test and the log).
UNRESOLVED: Counter[str] = Counter()

_log = logging.getLogger("mkdocs.plugins.griffe_roles")


def documented_modules(pages: Path = API_PAGE) -> frozenset[str]:
    """Return the modules the API pages render (their ``::: module`` directives)."""
    return frozenset(
        name
        for page in sorted(pages.glob("*.md"))
        for name in re.findall(r"^:::\s*([\w.]+)\s*$", page.read_text(encoding="utf-8"), re.M)
    )


def _final(obj: griffe.Object | griffe.Alias) -> griffe.Object | None:
    """Return the object an alias points to, or ``None`` when it lies outside the loaded tree."""
    try:
        return obj.final_target if isinstance(obj, griffe.Alias) else obj
    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
        return None


def _walk(start: griffe.Object | griffe.Alias, parts: list[str]) -> griffe.Object | None:
    """Follow dotted ``parts`` through members from ``start``, resolving aliases on the way."""
    obj = _final(start)
    for part in parts:
        if obj is None or part not in obj.members:
            return None
        obj = _final(obj.members[part])
    return obj


class CrossReferences(griffe.Extension):
    """Rewrite the Sphinx roles of every docstring of the package as autorefs links."""

    def __init__(self, api_pages: str | None = None) -> None:
        """Read the rendered paths from the pages in ``api_pages`` (default ``docs/api/``)."""
        super().__init__()
        self.modules = documented_modules(Path(api_pages) if api_pages else API_PAGE)
        self.module_roots: set[str] = set()
        self.object_roots: set[str] = set()

    def _find_roots(self, pkg: griffe.Module) -> None:
        """The modules the pages render, and the objects they render with their members."""
        for path in self.modules:
            parts = path.split(".")
            obj = _walk(pkg, parts[1:]) if parts[0] == pkg.name else None
            if obj is None:
                continue
            if not obj.is_module:
                self.object_roots.add(obj.path)
                continue
            self.module_roots.add(obj.path)
            exports = obj.exports
            names = (
                [str(name) for name in exports]
                if exports is not None
                else [name for name in obj.members if not name.startswith("_")]
            )
            for name in names:
                target = _final(obj.members[name]) if name in obj.members else None
                # A name shared with a submodule is the submodule to griffe; the page names
                # the function itself in a directive of its own.
                if target is not None and not target.is_module:
                    self.object_roots.add(target.path)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Resolve and rewrite the roles once the whole package is loaded."""
        self._find_roots(pkg)
        by_name: dict[str, set[str]] = {}
        objects = list(self._objects(pkg))
        for obj in objects:
            if self._rendered(obj):
                by_name.setdefault(obj.name, set()).add(obj.path)
        shown = [0, 0]  # roles in docstrings the pages show: all of them, those left as code
        for obj in objects:
            docstring = obj.docstring
            if docstring is not None and ":" in docstring.value:
                link = functools.partial(self._link, where=obj, pkg=pkg, by_name=by_name)
                before = sum(UNRESOLVED.values())
                docstring.value, n = ROLE.subn(link, docstring.value)
                if self._rendered(obj):
                    shown[0] += n
                    shown[1] += sum(UNRESOLVED.values()) - before
        _log.info(
            "griffe_roles: %d of the %d reference(s) in rendered docstrings shown as code",
            shown[1],
            shown[0],
        )
        if UNRESOLVED:
            _log.info(
                "griffe_roles: %d reference(s) shown as code, not links: %s",
                sum(UNRESOLVED.values()),
                ", ".join(sorted(UNRESOLVED)),
            )

    def _objects(self, root: griffe.Object) -> Iterator[griffe.Object]:
        """Yield every object defined (not imported) in the tree under ``root``."""
        yield root
        for member in root.members.values():
            if not isinstance(member, griffe.Alias):
                yield from self._objects(member)

    def _rendered(self, obj: griffe.Object) -> bool:
        """Whether an API page shows ``obj``.

        That is a rendered module, or a public documented member of (or itself) an object a page
        renders.
        """
        if obj.is_module:
            return obj.path in self.module_roots
        inner: list[str] = []
        scope: griffe.Object | None = obj
        while scope is not None and not scope.is_module:
            if scope.path in self.object_roots:
                return all(not p.startswith("_") for p in inner) and obj.docstring is not None
            inner.append(scope.name)
            scope = scope.parent
        return False

    def _resolve(
        self, name: str, where: griffe.Object, pkg: griffe.Module, by_name: dict[str, set[str]]
    ) -> griffe.Object | None:
        """Find the object ``name`` means in the docstring of ``where``."""
        parts = name.split(".")
        if parts[0] == pkg.name:
            return _walk(pkg, parts[1:])
        scope: griffe.Object | None = where
        while scope is not None:
            if parts[0] in scope.members:
                return _walk(scope.members[parts[0]], parts[1:])
            scope = scope.parent
        candidates = by_name.get(parts[-1], set())
        matching = [p for p in candidates if p.endswith("." + name)]
        if len(matching) == 1:
            return _walk(pkg, matching[0].split(".")[1:])
        return None

    def _link(
        self,
        match: re.Match[str],
        *,
        where: griffe.Object,
        pkg: griffe.Module,
        by_name: dict[str, set[str]],
    ) -> str:
        """Return the link (or, when it cannot be linked, the code text) for one role."""
        body = match["body"].strip()
        titled = TITLED.match(body)
        if titled:
            title, target = titled["title"], titled["target"]
        else:
            target = body.lstrip("~").removesuffix("()")
            title = target.rsplit(".", 1)[-1] if body.startswith("~") else target
            # As Sphinx does, a function's name is shown with parentheses.
            if match["role"] in ("func", "meth"):
                title += "()"
        obj = self._resolve(target, where, pkg, by_name)
        if obj is not None and obj.is_module and obj.name in obj.members:
            # ``robomodel.formats.urdf.load``: griffe finds the module, the package exports the
            # function of the same name.
            named = _final(obj.members[obj.name])
            if named is not None and self._rendered(named):
                obj = named
        if obj is None or not self._rendered(obj):
            UNRESOLVED[target] += 1
            return f"`{title}`"
        return f"[`{title}`][{obj.path}]"
