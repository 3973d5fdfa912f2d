"""The parts every SDFormat element shares: parsing, errors with lines, numbers, exact values.

robomodel's own attributes live in the namespace ``urn:robomodel:sdf`` (prefix ``robomodel``),
which SDFormat readers accept as custom attributes and ignore. The writer adds one only where
the plain SDFormat numbers cannot state a value bit for bit (a rotation no ``rpy`` of doubles
gives, the inverse of a link pose, a sensor pose both links must keep); the reader prefers it
after checking that it agrees with the plain numbers.
"""

from __future__ import annotations

import copy
import math
from typing import Any, NoReturn

import numpy as np
from lxml import etree

from robomodel.errors import SDFError
from robomodel.formats.urdf.numbers import format_float
from robomodel.model.spatial import Transform

__all__ = [
    "NS",
    "XMLNS",
    "Source",
    "exact_transform_text",
    "fmt",
    "parse_document",
    "rm",
    "tag_of",
    "verbatim",
]

NS = "urn:robomodel:sdf"
XMLNS = f'xmlns:robomodel="{NS}"'


def rm(name: str) -> str:
    """Return the Clark name of robomodel's attribute ``name``."""
    return "{" + NS + "}" + name


def fmt(values: Any) -> str:
    """Return numbers as the shortest text that reads back to the same doubles."""
    return " ".join(format_float(float(v) + 0.0) for v in values)


def exact_transform_text(T: Transform) -> str:
    """Return the twelve numbers (rotation row-major, then position) stating ``T`` exactly."""
    return fmt([*(T.rotation + 0.0).ravel().tolist(), *(T.position + 0.0).tolist()])


class Source:
    """One document being read: its file name (for errors) and SDFormat version."""

    def __init__(self, file: str, version: tuple[int, int]) -> None:
        self.file = file
        self.version = version
        # The directory relative includes of this document resolve in (None: text given as a
        # string, which has none).
        self.folder: str | None = None

    def fail(self, el: Any, what: str, reason: str) -> NoReturn:
        """Raise an :class:`SDFError` naming the file, ``el``'s line and ``what``."""
        line = getattr(el, "sourceline", None)
        raise SDFError(reason, file=self.file, line=line, element=what)

    def numbers(
        self, el: Any, what: str, size: int | None = None, *, infinite: bool = False
    ) -> list[float]:
        """Return the numbers of ``el``'s text (``size`` of them when given).

        All must be finite; with ``infinite``, infinities are allowed (joint limits).
        """
        text = (el.text or "").split()
        try:
            vals = [float(t) for t in text]
        except ValueError:
            self.fail(el, what, f"<{el.tag}> must hold numbers, got {el.text!r:.60}")
        if size is not None and len(vals) != size:
            self.fail(el, what, f"<{el.tag}> must hold {size} numbers, got {len(vals)}")
        if not all(math.isfinite(v) or (infinite and not math.isnan(v)) for v in vals):
            self.fail(el, what, f"<{el.tag}> holds a NaN or an infinity: {el.text!r:.60}")
        return vals

    def number(self, el: Any, what: str, *, infinite: bool = False) -> float:
        """Return the one number of ``el``'s text."""
        return self.numbers(el, what, 1, infinite=infinite)[0]

    def numbers_attr(self, el: Any, attr: str, what: str, size: int) -> list[float]:
        """Return the ``size`` finite numbers of robomodel's attribute ``attr`` of ``el``."""
        text = el.get(rm(attr)) or ""
        try:
            v = [float(t) for t in text.split()]
        except ValueError:
            v = []
        if len(v) != size or not all(math.isfinite(x) for x in v):
            self.fail(el, what, f"robomodel:{attr} must be {size} finite numbers, got {text!r:.60}")
        return v

    def exact(self, el: Any, attr: str, what: str, near: Transform | None) -> Transform | None:
        """Return robomodel's exact transform in ``el``'s attribute ``attr``, ``None`` without.

        ``near``: the transform the plain numbers give; the exact one must agree with it within
        1e-6 (a document edited by hand after robomodel wrote it), else the attribute is stale.
        """
        text = el.get(rm(attr))
        if text is None:
            return None
        try:
            v = [float(t) for t in text.split()]
        except ValueError:
            v = []
        if len(v) != 12 or not all(math.isfinite(x) for x in v):
            self.fail(el, what, f"robomodel:{attr} must be 12 finite numbers, got {text!r:.60}")
        T = Transform(np.array(v[:9]).reshape(3, 3), v[9:])
        if near is not None:
            gap = max(
                float(np.abs(T.rotation - near.rotation).max()),
                float(np.abs(T.position - near.position).max()),
            )
            if gap > 1e-6:
                self.fail(
                    el,
                    what,
                    f"robomodel:{attr} disagrees with the element's own numbers (by {gap:.3g}); "
                    "the document was edited after robomodel wrote it: remove the attribute",
                )
        return T


def _parser() -> Any:
    # No entities, no DTD, no network: a model file is data, never instructions to fetch more.
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_document(data: bytes, file: str) -> tuple[Any, Source]:
    """Return the ``<sdf>`` root of ``data`` and the document's :class:`Source`.

    Raises:
        SDFError: not well-formed XML, a DOCTYPE (refused), no ``<sdf>`` root or no version.
    """
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise SDFError("the document declares a DOCTYPE or entities; remove them", file=file)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        raise SDFError(f"not well-formed XML: {e}", file=file, line=e.lineno) from None
    if root.tag != "sdf":
        raise SDFError(
            f"the root element is <{root.tag}>, not <sdf>; is this an SDFormat file?",
            file=file,
            line=root.sourceline,
        )
    text = root.get("version", "")
    try:
        major, minor = (int(p) for p in text.split("."))
    except ValueError:
        raise SDFError(
            f'<sdf version="{text}"> is not a version such as "1.7"',
            file=file,
            line=root.sourceline,
        ) from None
    if (major, minor) < (1, 4) or (major, minor) > (1, 12):
        raise SDFError(
            f"SDFormat {text} is not supported; robomodel reads SDFormat 1.4 to 1.11",
            file=file,
            line=root.sourceline,
        )
    return root, Source(file, (major, minor))


def tag_of(el: Any) -> str:
    """Return ``el``'s tag as written (``drake:joint``, not lxml's ``{uri}joint``)."""
    q = etree.QName(el)
    return f"{el.prefix}:{q.localname}" if el.prefix else q.localname


def verbatim(el: Any) -> str:
    """Return ``el``'s XML text, without its tail, declaring only the namespaces it uses.

    A namespace declared on an ancestor (``xmlns:drake`` on ``<sdf>``) travels with an element
    that uses it and no other, so that the text is the same wherever the element was read.
    """
    c = copy.deepcopy(el)
    c.tail = None
    etree.cleanup_namespaces(c)
    return str(etree.tostring(c, encoding="unicode", with_tail=False))
