"""xacro documents: recognised, expanded through the ``xacro`` package, never read as plain URDF.

A document is xacro when its file name ends in ``.xacro`` or when it declares the xacro
namespace (``http://www.ros.org/wiki/xacro`` or ``http://ros.org/wiki/xacro``) anywhere, whether
it comes from a file or a string. The loader then hands it to the ``xacro`` package (the
``xacro`` extra, ``pip install 'robomodel[xacro]'``) and reads the expansion, which is the text
the ``xacro FILE`` command prints; the file name in messages says ``(expanded by xacro)``
and line numbers are lines of that expansion.

xacro keeps its state in module globals, so expansions are serialised by a lock. Its
``$(find pkg)`` normally asks ROS (``ament_index_python``); during an expansion it is answered
from the package directories given to the loader instead (``DIR/pkg`` for the first ``DIR``
holding a folder ``pkg``), so that a model loads the same on every machine. What xacro prints
on standard error (its warnings) becomes :class:`~robomodel.errors.RobomodelWarning` warnings.

A xacro document is a program: ``${...}`` evaluates Python expressions (xacro restricts the
names they see). ``xacro=False`` on the loader refuses xacro documents instead of expanding
them, for input that is not trusted.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from lxml import etree

from robomodel.errors import ArgumentError, URDFError, URDFXacroError, XacroNotInstalledError, warn

__all__ = [
    "XACRO_NAMESPACES",
    "URDFXacroError",
    "XacroNotInstalledError",
    "expand",
    "is_xacro",
    "xacro_label",
]

XACRO_NAMESPACES = ("http://www.ros.org/wiki/xacro", "http://ros.org/wiki/xacro")
"""The namespace URIs that make a document xacro."""

_lock = threading.Lock()


def xacro_label(file: str) -> str:
    """Return the name the loader gives the expansion of ``file`` in messages."""
    return f"{file} (expanded by xacro)"


def is_xacro(data: bytes, file: str) -> bool:
    """Whether the document ``data`` (read from ``file``) is xacro (see the module docstring)."""
    if file.endswith(".xacro"):
        return True
    if b"ros.org/wiki/xacro" not in data:
        return False  # the usual case, decided without parsing
    # The URI may be text (a comment, an attribute value); only a declaration makes it xacro.
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return True  # mentions xacro and is not plain XML: let xacro say what is wrong
    return any(ns in XACRO_NAMESPACES for el in root.iter() for ns in el.nsmap.values())


def _xacro_module() -> Any:
    try:
        import xacro  # type: ignore[import-untyped]
    except ImportError as exc:
        raise XacroNotInstalledError(
            "this is a xacro document, and expanding it needs the xacro package; install it "
            "with pip install 'robomodel[xacro]' (or expand it with the xacro command first)"
        ) from exc
    return xacro


def _mappings(args: Mapping[str, str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in (args or {}).items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise ArgumentError(
                f"xacro_args must map argument names to strings, got {k!r}: {v!r}; write "
                "values as text (xacro:arg values are strings)"
            )
        out[k] = v
    return out


def expand(
    data: bytes | None,
    *,
    path: str | None,
    file: str,
    xacro_args: Mapping[str, str] | None,
    package_dirs: Iterable[str],
    allowed: bool,
) -> str:
    """Return the URDF text xacro makes of a document (called by the loader's load and loads).

    Warnings go to the first caller outside robomodel (:func:`robomodel.errors.warn`).

    Args:
        data: the document, or ``None`` to let xacro read ``path``.
        path: the file the document is in (its includes are relative to its directory), or
            ``None`` for text (includes relative to the current directory).
        file: the name used in messages.
        xacro_args: values of the document's ``<xacro:arg>`` elements.
        package_dirs: where ``$(find pkg)`` looks for ``pkg``.
        allowed: ``False`` to refuse instead of expanding.

    Raises:
        URDFXacroError: the document cannot be expanded (naming ``file``), or ``allowed`` is
            false.
        XacroNotInstalledError: the xacro package is not installed.
    """
    if not allowed:
        raise URDFXacroError(
            "this is a xacro document, and the loader was told not to expand xacro "
            "(xacro=False); expand it with the xacro command, or load it with xacro=True",
            file=file,
            element="robot",
        )
    mappings = _mappings(xacro_args)
    xacro = _xacro_module()
    dirs = [os.fspath(d) for d in package_dirs]
    missing: list[str] = []
    err = io.StringIO()
    with _lock, _find_in(xacro, dirs, missing), contextlib.redirect_stderr(err):
        try:
            if data is None:
                doc = xacro.process_file(path, mappings=mappings)
            else:
                doc = xacro.parse(data.decode("utf-8"))
                xacro.init_stacks(path)
                xacro.process_doc(doc, mappings=mappings)
            text: str = doc.toprettyxml(indent="  ")
        except Exception as e:  # xacro raises its own and Python's errors alike
            raise _error(e, xacro, file, dirs, missing) from e
    # xacro prints a warning and then where it was ("when processing file: ..."): one warning.
    said = " ".join(line.strip() for line in err.getvalue().splitlines() if line.strip())
    if said:
        warn(f"{file}: xacro: {said}")
    return text


@contextlib.contextmanager
def _find_in(xacro: Any, dirs: list[str], missing: list[str]) -> Iterator[None]:
    """Answer xacro's ``$(find pkg)`` from ``dirs`` while the block runs."""
    sub: Any = importlib.import_module("xacro.substitution_args")

    def find(pkg: str) -> str:
        for d in dirs:
            cand = os.path.join(d, pkg)
            if os.path.isdir(cand):
                return cand
        missing.append(pkg)
        raise LookupError(f"package {pkg!r} not found")

    saved = sub._eval_find, sub._eval_dict.get("find")
    sub._eval_find = find
    sub._eval_dict["find"] = find
    try:
        yield
    finally:
        sub._eval_find = saved[0]
        sub._eval_dict["find"] = saved[1]


def _error(e: Exception, xacro: Any, file: str, dirs: list[str], missing: list[str]) -> URDFError:
    if missing:
        return URDFXacroError(
            f"$(find {missing[-1]}): no package directory holds a folder {missing[-1]!r} "
            f"(searched {dirs!r}); pass package_dirs=[DIR] (--package-dir DIR), DIR holding "
            "the package folder",
            file=file,
            element="xacro",
        )
    text = " ".join(str(e).split()) or type(e).__name__
    where = []
    for m in reversed(getattr(xacro, "macrostack", None) or []):
        with contextlib.suppress(Exception):
            where.append(f"in macro {m.body.getAttribute('name')!r}")
    stack = [f for f in getattr(xacro, "filestack", None) or [] if f]
    if len(stack) > 1:
        where.append(f"in the included file {stack[-1]}")
    detail = f" ({'; '.join(where)})" if where else ""
    kind = "not well-formed XML" if type(e).__name__ == "ExpatError" else "expansion failed"
    return URDFXacroError(f"{kind}: {text}{detail}", file=file, element="xacro")
