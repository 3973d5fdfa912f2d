"""xacro documents: expanded through the ``xacro`` package only when the caller says so.

xacro runs Python code from the document: ``${...}`` and ``$(eval ...)`` evaluate Python
expressions, and xacro's restrictions on the names they see do not stop an expression from
reaching ``os.system``. Expanding a document is running it, so only trusted files may be
expanded. The loader therefore expands a document only when the caller asks
(``xacro=True``, ``--xacro`` on the command line) or when the file name ends in ``.xacro``
(the default ``xacro=None``; ``xacro=False`` refuses even those). A document that uses xacro
(an element in the xacro namespace or named ``xacro:...``, or a ``${...}`` or ``$(...)``
outside comments) and is not expanded is refused with ``XacroNotExpandedError`` naming
the file, the line and the first such use; it is never read as plain URDF. A document that
merely declares the xacro namespace (``http://www.ros.org/wiki/xacro`` or
``http://ros.org/wiki/xacro``) without using it is plain URDF and is read without xacro.

An expansion goes through the ``xacro`` package (the ``xacro`` extra,
``pip install 'robomodel[xacro]'``) and the loader reads the text the ``xacro FILE`` command
prints; the file name in messages says ``(expanded by xacro)`` and line numbers are lines of
that expansion. xacro keeps its state in module globals, so expansions are serialised by a
lock. What xacro prints on standard error (its warnings) becomes
:class:`~robomodel.errors.RobomodelWarning` warnings.

What an expansion may reach. Its ``$(find pkg)`` normally asks ROS (``ament_index_python``);
here it is answered from the package directories given to the loader (``DIR/pkg`` for the
first ``DIR`` holding a folder ``pkg``), so that a model loads the same on every machine. ``pkg``
must be one plain path component (no slash or backslash, not ``.``, ``..`` or an absolute
path), and the folder found, symbolic links resolved, must lie inside ``DIR``; anything else is
a ``URDFXacroError``. ``$(env VAR)`` and ``$(optenv VAR)`` read environment variables and
``<xacro:include>`` reads any file the document names, as with the ``xacro`` command: these
stay, since an expansion is only made of a trusted document.
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

from robomodel.errors import (
    ArgumentError,
    URDFError,
    URDFXacroError,
    XacroNotExpandedError,
    XacroNotInstalledError,
    warn,
)

__all__ = [
    "XACRO_NAMESPACES",
    "URDFXacroError",
    "XacroNotExpandedError",
    "XacroNotInstalledError",
    "expand",
    "should_expand",
    "xacro_label",
]

XACRO_NAMESPACES = ("http://www.ros.org/wiki/xacro", "http://ros.org/wiki/xacro")
"""The namespace URIs of xacro."""

_lock = threading.Lock()


def xacro_label(file: str) -> str:
    """Return the name the loader gives the expansion of ``file`` in messages."""
    return f"{file} (expanded by xacro)"


def should_expand(data: bytes, file: str, *, xacro: bool | None) -> bool:
    """Whether the loader expands the document ``data`` (read from ``file``) through xacro.

    See the module docstring: ``xacro=True`` expands a document named ``.xacro``, declaring
    the xacro namespace or using xacro; ``None`` expands a document named ``.xacro``;
    ``False`` expands nothing. A document that is not expanded is read as plain URDF.

    Raises:
        XacroNotExpandedError: the document uses xacro (or is named ``.xacro``) and is not
            expanded.
        ArgumentError: ``xacro`` is not ``True``, ``False`` or ``None``.
    """
    if xacro is not None and not isinstance(xacro, bool):
        raise ArgumentError(
            f"xacro must be True, False or None, got {xacro!r}; pass xacro=True to expand "
            "xacro documents you trust"
        )
    named = file.endswith(".xacro")
    if named and xacro is not False:
        return True
    declared, use = _scan(data)
    if xacro:
        return named or declared or use is not None
    if use is None and not named:
        return False  # plain URDF, perhaps declaring the xacro namespace without using it
    line, element, what = use if use is not None else (None, "robot", "its name ends in .xacro")
    if xacro is None:
        why = "robomodel expands xacro only in a file named .xacro or when asked"
    else:
        why = "the loader was told not to expand xacro (xacro=False)"
    raise XacroNotExpandedError(
        f"this document uses xacro ({what}), and {why}: xacro runs the Python code in a "
        "document. If and only if you trust this file, load it with xacro=True (--xacro on "
        "the command line)",
        file=file,
        line=line,
        element=element,
    )


_Use = tuple[int | None, str, str]
"""Where a document first uses xacro: its line, the element and what it is, for messages."""

# A document holding none of these (in an ASCII-compatible encoding) uses no xacro; "&#" since
# a character reference ("&#36;{") reaches xacro as the character it stands for.
_MARKERS = (b"xacro", b"${", b"$(", b"&#")


def _has_marker(data: bytes) -> bool:
    # Whether data holds one of _MARKERS. A search for one byte is a memchr, some hundred times
    # faster than one for two (iCub's 170 kB: 2 us against 0.3 ms each): the two-byte markers
    # are looked for only in a document holding their first byte.
    return any(m in data for m in _MARKERS if m[:1] in data)


def _scan(data: bytes) -> tuple[bool, _Use | None]:
    """Whether ``data`` declares the xacro namespace, and where it first uses xacro."""
    ascii_compatible = b"\x00" not in data[:4] and not data.startswith((b"\xff\xfe", b"\xfe\xff"))
    if ascii_compatible and not _has_marker(data):
        return False, None  # the usual case, decided without parsing
    # Comments are text xacro leaves alone; recover=True keeps an element whose "xacro:"
    # prefix is not declared (xacro reads it as a xacro element) instead of failing on it.
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        recover=True,
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        root = None
    if root is None:  # nothing lxml can make a tree of: say where the bytes use xacro
        return b"ros.org/wiki/xacro" in data, _bytes_use(data)
    declared = False
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "end":
            found = _text_use(data, el.getparent(), el.tail, el.sourceline)
            if found is not None:
                return declared, found
            continue
        if not isinstance(el.tag, str):
            continue  # an entity reference left unresolved: the loader refuses those
        declared = declared or any(ns in XACRO_NAMESPACES for ns in el.nsmap.values())
        name, namespace = _name(el)
        if el.tag.startswith("xacro:") or namespace in XACRO_NAMESPACES:
            line = _line_from(data, el.sourceline, "", tag=name[:-1])
            return declared, (line, name, f"the element {name}")
        for key, value in el.attrib.items():
            at = _expression_at(value)
            if at >= 0:
                line = _line_from(data, el.sourceline, value[at : at + 2], tag=name[:-1])
                return declared, (line, name, f"{_snippet(value, at)} in the attribute {key}")
        found = _text_use(data, el, el.text, el.sourceline)
        if found is not None:
            return declared, found
    return declared, None


def _name(el: Any) -> tuple[str, str | None]:
    """The element as written (``<xacro:include>``) and its namespace URI."""
    tag: str = el.tag
    if not tag.startswith("{"):
        return f"<{tag}>", None
    namespace, _, local = tag[1:].partition("}")
    return (f"<{el.prefix}:{local}>" if el.prefix else f"<{local}>"), namespace


def _expression_at(text: str) -> int:
    """The index of the first ``${`` or ``$(`` in ``text``, or -1."""
    hits = [i for i in (text.find("${"), text.find("$(")) if i >= 0]
    return min(hits, default=-1)


def _text_use(data: bytes, el: Any, text: str | None, line: int | None) -> _Use | None:
    """Where the text ``text`` inside the element ``el`` uses xacro, if it does."""
    at = -1 if not text or el is None else _expression_at(text)
    if text is None or at < 0:
        return None
    found = _line_from(data, line, text[at : at + 2])
    return found, _name(el)[0], f"{_snippet(text, at)} in the text"


def _snippet(text: str, at: int) -> str:
    """The expression starting at ``text[at]``, shortened for a message."""
    close = "}" if text.startswith("${", at) else ")"
    end = text.find(close, at)
    expr = text[at : end + 1] if end >= 0 else text[at:]
    return repr(expr if len(expr) <= 60 else expr[:57] + "...")


def _line_from(data: bytes, line: int | None, token: str, *, tag: str = "") -> int | None:
    """The line of ``token`` in the start tag ``tag`` ending on ``line`` (or in text from it on).

    lxml gives the line where an element's start tag ends, which may span several lines: with
    ``tag`` (``"<link"``) the search starts at the line that opens it. ``line`` itself when the
    token is not found (written with character references).
    """
    if line is None:
        return None
    lines = data.split(b"\n")
    start = line - 1
    if tag:
        opening = tag.encode("utf-8")
        start = next((i for i in range(line - 1, -1, -1) if opening in lines[i]), start)
    if not token:
        return start + 1
    needle = token.encode("utf-8")
    return next((i + 1 for i in range(start, len(lines)) if needle in lines[i]), line)


def _bytes_use(data: bytes) -> _Use | None:
    hits = [i for i in (data.find(b"<xacro:"), data.find(b"${"), data.find(b"$(")) if i >= 0]
    if not hits:
        return None
    at = min(hits)
    token = data[at : at + 40].decode("utf-8", "replace")
    return data.count(b"\n", 0, at) + 1, "xml", repr(token)


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
) -> str:
    """Return the URDF text xacro makes of a document (called by the loader's load and loads).

    This runs the Python code in the document (see the module docstring): the loader calls it
    only for a document ``should_expand`` says to expand. Warnings go to the first caller
    outside robomodel (:func:`robomodel.errors.warn`).

    Args:
        data: the document, or ``None`` to let xacro read ``path``.
        path: the file the document is in (its includes are relative to its directory), or
            ``None`` for text (includes relative to the current directory).
        file: the name used in messages.
        xacro_args: values of the document's ``<xacro:arg>`` elements.
        package_dirs: where ``$(find pkg)`` looks for ``pkg``.

    Raises:
        URDFXacroError: the document cannot be expanded (naming ``file``), among others for a
            ``$(find pkg)`` that no package directory answers or that would leave it.
        XacroNotInstalledError: the xacro package is not installed.
    """
    mappings = _mappings(xacro_args)
    xacro = _xacro_module()
    dirs = [os.fspath(d) for d in package_dirs]
    refused: list[str] = []
    err = io.StringIO()
    with _lock, _find_in(dirs, refused), contextlib.redirect_stderr(err):
        try:
            if data is None:
                doc = xacro.process_file(path, mappings=mappings)
            else:
                doc = xacro.parse(data.decode("utf-8"))
                xacro.init_stacks(path)
                xacro.process_doc(doc, mappings=mappings)
            text: str = doc.toprettyxml(indent="  ")
        except Exception as e:  # xacro raises its own and Python's errors alike
            raise _error(e, xacro, file, refused) from e
    # xacro prints a warning and then where it was ("when processing file: ..."): one warning.
    said = " ".join(line.strip() for line in err.getvalue().splitlines() if line.strip())
    if said:
        warn(f"{file}: xacro: {said}")
    return text


@contextlib.contextmanager
def _find_in(dirs: list[str], refused: list[str]) -> Iterator[None]:
    """Answer xacro's ``$(find pkg)`` from ``dirs`` while the block runs.

    Why a ``pkg`` is refused goes to ``refused`` (xacro wraps the exception it is told in its
    own), for ``_error``.
    """
    sub: Any = importlib.import_module("xacro.substitution_args")

    def find(pkg: object) -> str:
        try:
            return _package_dir(pkg, dirs)
        except LookupError as e:
            refused.append(str(e))
            raise

    saved = sub._eval_find, sub._eval_dict.get("find")
    sub._eval_find = find
    sub._eval_dict["find"] = find
    try:
        yield
    finally:
        sub._eval_find = saved[0]
        sub._eval_dict["find"] = saved[1]


def _package_dir(pkg: object, dirs: list[str]) -> str:
    """``DIR/pkg`` for the first ``DIR`` of ``dirs`` holding a folder ``pkg``.

    ``pkg`` must be one plain path component, and the folder (symbolic links resolved) must
    lie inside ``DIR``: ``$(find pkg)`` never answers with a directory outside the package
    directories.

    Raises:
        LookupError: ``pkg`` is not a package name, or no ``DIR`` holds it, or its folder
            leaves ``DIR``; the message says which and what to do.
    """
    if (
        not isinstance(pkg, str)
        or pkg in ("", ".", "..")
        or "/" in pkg
        or "\\" in pkg
        or "\0" in pkg
        or os.path.isabs(pkg)
        or os.path.basename(pkg) != pkg
    ):
        raise LookupError(
            f"$(find {pkg!r}): not a package name; $(find) takes one package folder name (no "
            "'/', '\\', '.', '..' or absolute path) and answers only from the package "
            "directories; refer to the package as $(find NAME)/path"
        )
    for d in dirs:
        cand = os.path.join(d, pkg)
        if not os.path.isdir(cand):
            continue
        real_d, real = os.path.realpath(d), os.path.realpath(cand)
        if real == real_d or os.path.commonpath([real_d, real]) != real_d:
            raise LookupError(
                f"$(find {pkg}): {cand!r} leaves the package directory {d!r} (it is a "
                f"symbolic link to {real!r}); $(find) answers only with folders inside the "
                "package directories: give the directory that holds the package itself as "
                "--package-dir"
            )
        return cand
    raise LookupError(
        f"$(find {pkg}): no package directory holds a folder {pkg!r} (searched {dirs!r}); "
        "pass package_dirs=[DIR] (--package-dir DIR), DIR holding the package folder"
    )


def _error(e: Exception, xacro: Any, file: str, refused: list[str]) -> URDFError:
    if refused:
        return URDFXacroError(refused[-1], file=file, element="xacro")
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
