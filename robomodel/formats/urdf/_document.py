"""One URDF document being read or written, and the attribute codecs every element shares.

:class:`Reader` carries what one load needs across elements: the file name for errors, the
kept elements, and the numbers read but not computed yet. Each element module registers its
``<origin>``, ``<inertial>`` and ``<axis>`` texts here with the record that will hold the
value; :func:`robomodel.formats.urdf.load` reads all of them at once after the element pass and
hands
each record its value. When one does not read, the loader reads the document again with an
eager reader that checks every number where it is read, so the error names the first bad number
in document order.

:class:`Writer` carries what one export needs: the output texts, the options and the kept
elements by owner. Below them are the attribute codecs: reading numbers and names with
``file:line: element`` errors, and writing names and numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from robomodel._internal.arrays import immutable
from robomodel._internal.construct import make
from robomodel.errors import URDFError
from robomodel.formats.urdf._exact_batch import export_memo
from robomodel.formats.urdf.errors import URDFExportError, URDFValueError
from robomodel.formats.urdf.numbers import format3, format_floats, format_numbers
from robomodel.formats.urdf.options import DumpOptions
from robomodel.model.record import Extension, Model
from robomodel.model.shapes import Material, Mesh
from robomodel.model.spatial import Transform

__all__ = [
    "NS",
    "XMLNS",
    "DoubtError",
    "Pending",
    "Reader",
    "Writer",
    "duplicate",
    "fill",
    "fmt3",
    "number",
    "numbers",
    "parse_numbers",
    "parse_triples",
    "pick_children",
    "q",
    "quote",
    "quote_names",
    "read_transform",
    "required",
    "rm",
    "strict_numbers",
    "transform_text",
]

_TRANSFORM = make(Transform)  # read_transform checks the numbers itself

NS = "urn:robomodel:urdf"
"""The namespace of robomodel's own attributes and elements in a URDF (docs/urdf.md, "Exact
round trips"): values standard URDF cannot state exactly, which robomodel's loader prefers and
other tools ignore. Declared on each element that uses it, never on ``<robot>``: lxml copies a
declaration in scope into every element kept verbatim, which would change them."""
XMLNS = f'xmlns:robomodel="{NS}"'
"""The declaration written on an element that carries robomodel attributes."""


def rm(name: str) -> str:
    """Return the qualified (Clark) name of robomodel's attribute or element ``name``."""
    return "{" + NS + "}" + name


class DoubtError(Exception):
    """A deferred number did not read: the loader reads the document again, eagerly."""


class Reader:
    """The state of one load (see the module docstring)."""

    __slots__ = (
        "axis_owners",
        "axis_texts",
        "base_dir",
        "colors",
        "eager",
        "exact_inertials",
        "exact_origins",
        "exts",
        "file",
        "inertial_data",
        "inertial_owners",
        "inertial_texts",
        "keep",
        "lines",
        "meshes",
        "origin_owners",
        "origin_texts",
        "plain",
    )

    def __init__(self, file: str, keep: bool, plain: bool = False, eager: bool = False) -> None:
        self.file = file
        self.keep = keep
        # No namespace declaration anywhere in the document: a childless element kept verbatim
        # serialises to what its attributes say (robomodel.formats.urdf._extensions.leaf_xml).
        self.plain = plain
        # Eager: every number is checked where it is read, so that the first bad one in
        # document order raises its precise error. The loader reads eagerly only after the
        # deferred pass found a number that does not read.
        self.eager = eager
        # Per (filename, scale text): visual and collision shapes share their mesh.
        self.meshes: dict[tuple[str, str | None], Mesh] = {}
        # Per (name, rgba text): the shapes' <material name><color rgba/></material> share
        # their material (documents repeat a few colours on every visual).
        self.colors: dict[tuple[str, str | None], Material] = {}
        # Whether a load_with_report listens: only then are the shapes' mesh lines gathered.
        self.lines = False
        # The directory relative mesh filenames are relative to (for the load's report).
        self.base_dir: str | None = None
        self.exts: list[Extension] = []  # the robot's own kept elements, in document order
        # Deferred numbers, in document order per kind. Per origin: the record whose
        # ``origin`` it becomes and its xyz and rpy texts; per inertial: the link record whose
        # ``inertia`` it becomes, its mass and six moments, and its origin's xyz and rpy texts;
        # per moving joint with an <axis xyz>: the joint record and the text.
        self.origin_owners: list[Any] = []
        self.origin_texts: list[str] = []
        self.inertial_owners: list[Any] = []
        self.inertial_data: list[tuple[float, tuple[float, ...]]] = []
        self.inertial_texts: list[str] = []
        self.axis_owners: list[Any] = []
        self.axis_texts: list[str] = []
        # Origins that carry robomodel's exact rotation: (record, element), applied once the
        # document's numbers are read (robomodel.formats.urdf._origin.apply_exact).
        self.exact_origins: list[tuple[Any, Any]] = []
        # Links whose <inertia> carries robomodel's exact inertia about the link origin
        # (robomodel.formats.urdf._inertial.apply_exact_inertials).
        self.exact_inertials: list[tuple[Any, Any]] = []

    def drop_deferred(self) -> None:
        """Forget the deferred numbers' texts, data and owners, once their records hold them."""
        self.origin_owners, self.origin_texts = [], []
        self.inertial_owners, self.inertial_data, self.inertial_texts = [], [], []
        self.axis_owners, self.axis_texts = [], []

    def err(self, cls: type[URDFError], el: Any, what: str, reason: str) -> URDFError:
        """Return the error ``cls`` for element ``el`` (described as ``what``) of this file."""
        line = el.sourceline if el is not None else None
        return cls(reason, file=self.file, line=line, element=what)


class Pending:
    """The numbers of one export, formatted together once every element has added its own.

    Python's shortest ``repr`` costs most on many numbers, and formatting them all at once costs
    less than kind by kind: one pass of the whole-array method
    (:func:`robomodel.formats.urdf.numbers.format_numbers`) and one dedupe for the document
    instead of one per kind of element. So an element first adds its numbers (:meth:`add`,
    which says where they start, or :meth:`add_origins` for ``<origin>`` rows of six numbers),
    the export then calls :meth:`format` once, and only then are the texts assembled from
    :attr:`texts` (and :attr:`origins`, one ``<origin>`` text per row added).

    The numbers are kept as the blocks added (lists, or arrays where an element computed
    them as one), stacked into one array by :meth:`format`: numbers computed by numpy go to
    the formatting without a Python float each.
    """

    __slots__ = ("_blocks", "_count", "_origin_blocks", "_rows", "origin_keys", "origins", "texts")

    def __init__(self) -> None:
        self._blocks: list[Any] = []  # lists of floats and flat float64 arrays, in order
        self._count = 0  # the numbers added so far
        self.texts: tuple[str, ...] = ()
        self.origins: list[str] = []
        # Per distinct <origin> asked for (by its numbers' bytes): its row
        # (robomodel.formats.urdf._origin.plan_origins).
        self.origin_keys: dict[bytes, int] = {}
        # Per add_origins call, where its numbers start and how many rows it added; per
        # add_origin_text call, the text.
        self._origin_blocks: list[tuple[int, int] | str] = []
        self._rows = 0  # the rows numbered so far

    @property
    def values(self) -> list[float]:
        """Every number added so far, in order."""
        return [
            v
            for block in self._blocks
            for v in (block.tolist() if isinstance(block, np.ndarray) else block)
        ]

    def add(self, values: list[float] | Any) -> int:
        """Add ``values`` (a list, or a flat float64 array); return their first text's position.

        The position is in :attr:`texts`. An array is kept as it is: it must not change until
        :meth:`format`.
        """
        start = self._count
        self._blocks.append(values)
        self._count += len(values)
        return start

    def add_origins(self, values: list[float] | Any) -> int:
        """Add ``<origin>`` rows (``xyz`` then ``rpy``, six numbers each); return the first row.

        ``values``: as :meth:`add`. Each row's text is ``origins[row]`` once formatted; rows
        are numbered in the order added.
        """
        first, n = self._rows, len(values) // 6
        self._origin_blocks.append((self.add(values), n))
        self._rows += n
        return first

    def add_origin_text(self, text: str) -> int:
        """Add an ``<origin>`` written already (one written alone); return its row."""
        self._origin_blocks.append(text)
        self._rows += 1
        return self._rows - 1

    def format(self) -> None:
        """Format every number added (one call), then the ``<origin>`` texts of the rows."""
        blocks = self._blocks
        if self._count:
            stacked = [
                block
                if isinstance(block, np.ndarray)
                else np.fromiter(block, np.float64, len(block))
                for block in blocks
            ]
            one = stacked[0] if len(stacked) == 1 else np.concatenate(stacked)
            self.texts = format_numbers(one)
        t = self.texts
        for block in self._origin_blocks:
            if isinstance(block, str):
                self.origins.append(block)
                continue
            start, n = block
            c = [t[start + i : start + 6 * n : 6] for i in range(6)]
            self.origins += fill(_ORIGIN_PARTS, *c) if n else []


_ORIGIN_PARTS = ('<origin xyz="', " ", " ", '" rpy="', " ", " ", '"/>')
"""The parts of an ``<origin>`` around its six numbers (:meth:`Pending.format`)."""


class Writer:
    """The state of one export: the model, the options, the texts written so far.

    ``out`` holds the document's lines and whole elements (one text each, written by
    columns), joined with newlines at the end.

    ``kept`` holds the kept elements by ``(owner kind, owner)`` and ``frame_joint`` the URDF
    joint names of frames whose joint was not ``<frame>_fixed_joint``
    (:func:`robomodel.formats.urdf._extensions.kept_by_owner`); ``used`` the owners written so far.
    """

    __slots__ = (
        "frame_joint",
        "kept",
        "kept_texts",
        "materials",
        "memo",
        "model",
        "options",
        "order_line",
        "out",
        "pending",
        "used",
    )

    def __init__(
        self,
        model: Model,
        options: DumpOptions,
        kept: dict[tuple[str, str], list[Extension]],
        frame_joint: dict[str, str],
    ) -> None:
        self.model = model
        self.options = options
        self.out: list[str] = []
        self.kept = kept
        # Per (owner kind, indent): each owner's kept elements as text (_extensions.kept_blocks).
        self.kept_texts: dict[tuple[str, str], dict[str, str]] = {}
        self.frame_joint = frame_joint
        self.used: set[tuple[str, str]] = set()
        self.order_line = -1  # the line of <robomodel:order>, completed once all is written
        self.materials: dict[str, Material] = {mat.name: mat for mat in model.materials}
        # Texts and numbers computed for a value in this export, by the value's bytes: a model
        # repeats transforms and inertias, and each search costs far more than the lookup.
        # Scoped to the export (no process-wide cache): the next export starts empty.
        # The rpy of its rotations are found together up front (the batch route of _exact).
        self.memo: dict[bytes, Any] = export_memo(model)
        # The numbers of the elements planned so far, formatted together (Pending.format).
        self.pending = Pending()

    @property
    def base(self) -> str:
        """The link written as the URDF root."""
        base = self.options.base
        if base is None:
            base = self.model.default_base
        assert base is not None  # dumps checked the model has links
        return base

    def fail(self, element: str, reason: str) -> URDFExportError:
        """Return the export error for ``element``."""
        return URDFExportError(reason, file="<export>", element=element)

    def guard(self, element: str, fn: Callable[..., None], *args: Any) -> None:
        """Call ``fn(self, *args)``; a ``ValueError`` becomes an export error of ``element``."""
        try:
            fn(self, *args)
        except URDFExportError:
            raise
        except ValueError as e:
            raise self.fail(element, str(e)) from None

    def name(self, s: str, element: str) -> str:
        """Return ``s`` quoted as an attribute value; a name XML cannot carry fails ``element``."""
        try:
            return q(s)
        except ValueError as e:
            raise self.fail(element, str(e)) from None


# ---------------------------------------------------------------------- reading attributes
def strict_numbers(r: Reader, el: Any, what: str, attr: str, n: int, default: Any = None) -> Any:
    """Return the ``n`` numbers of attribute ``attr`` (``default`` when absent), or raise."""
    text = el.get(attr)
    if text is None:
        if default is None:
            raise r.err(
                URDFValueError, el, what, f"<{el.tag}> needs the attribute {attr!r} ({n} numbers)"
            )
        return default
    parts = text.split()
    if len(parts) != n:
        raise r.err(
            URDFValueError,
            el,
            what,
            f"<{el.tag} {attr}={text!r}> must hold {n} number{'s' if n > 1 else ''}, "
            f"got {len(parts)}",
        )
    try:
        if "_" in text or not text.isascii():
            raise ValueError
        vals = tuple([float(t) + 0.0 for t in parts])  # canonical: "-0" reads as 0.0
    except ValueError:
        raise r.err(
            URDFValueError,
            el,
            what,
            f"<{el.tag} {attr}={text!r}> is not {n} decimal number{'s' if n > 1 else ''}",
        ) from None
    for v in vals:
        if not math.isfinite(v):
            raise r.err(
                URDFValueError,
                el,
                what,
                f"<{el.tag} {attr}={text!r}> holds a non-finite number; give finite values",
            )
    return vals


def numbers(r: Reader, el: Any, what: str, attr: str, n: int, default: Any = None) -> Any:
    """The hot path of :func:`strict_numbers`: any doubt goes to it for the message."""
    text = el.get(attr)
    if text is None and default is not None:
        return default
    parts = None if text is None else text.split()
    read = parse_numbers(parts) if parts is not None and len(parts) == n else None
    return read if read is not None else strict_numbers(r, el, what, attr, n, default)


def number(r: Reader, el: Any, what: str, attr: str, default: float | None = None) -> float:
    """Return the finite number of attribute ``attr`` (``default`` when absent), or raise."""
    text = el.get(attr)
    if text is None and default is not None:
        return default
    try:
        v = float(text)
    except (TypeError, ValueError):
        v = math.nan
    if v - v != 0.0 or "_" in text or not text.isascii():
        checked: float = strict_numbers(r, el, what, attr, 1)[0]  # raises a precise message
        return checked
    return v + 0.0  # canonical: "-0" reads as 0.0, so equal values are stored alike


def required(r: Reader, el: Any, what: str, attr: str) -> str:
    """Return the non-empty attribute ``attr``, or raise."""
    v = el.get(attr)
    if v is None or not v.strip():
        raise r.err(URDFValueError, el, what, f"<{el.tag}> needs a non-empty {attr!r} attribute")
    return str(v)


def duplicate(r: Reader, el: Any, what: str) -> URDFError:
    """Return the error for ``el``, a second child with a tag given at most once."""
    tag = el.tag
    return r.err(
        URDFValueError, el, what, f"a second <{tag}>; give at most one <{tag}> per element"
    )


def pick_children(
    r: Reader, el: Any, what: str, slots: dict[str, int]
) -> tuple[list[Any], list[Any]]:
    """Return the children with the tags of ``slots`` (else None) and the others, in order.

    A second child with one of those tags is an error.
    """
    found: list[Any] = [None] * len(slots)
    others: list[Any] = []
    for ch in el:
        k = slots.get(ch.tag)
        if k is None:
            others.append(ch)
        elif found[k] is not None:
            raise duplicate(r, ch, what)
        else:
            found[k] = ch
    return found, others


def parse_numbers(texts: list[Any]) -> tuple[float, ...] | None:
    """Return the finite decimal numbers of attribute ``texts`` (one each), or ``None``."""
    try:
        v = tuple([float(t) + 0.0 for t in texts])  # canonical: "-0" reads as 0.0
    except (TypeError, ValueError):  # an absent attribute or not a number
        return None
    joined = "".join(texts)
    if not all(map(math.isfinite, v)) or "_" in joined or not joined.isascii():
        return None
    return v


def parse_triples(texts: list[str]) -> Any:
    """Return the numbers of ``texts`` as an ``(n, 3)`` array, or ``None`` for a doubt.

    Three decimal numbers each, read by ``float`` in one pass over all the tokens: the texts
    are joined with a ``,`` token between them, which a number never is, and every fourth
    token must be that separator, so each text held exactly three tokens. ``None`` when a token
    is not a number (or a form ``float`` accepts and C parsers do not: ``1_0``, non-ASCII
    digits); non-finite values are the caller's check. Canonical (``-0`` reads as ``0.0``):
    one ``+ 0.0`` over the array.
    """
    n = len(texts)
    joined = " , ".join(texts)
    if "_" in joined or not joined.isascii():
        return None
    tokens = joined.split()
    if len(tokens) != 4 * n - 1 or tokens[3::4].count(",") != n - 1:
        return None
    del tokens[3::4]
    try:
        values = list(map(float, tokens))
    except ValueError:
        return None
    return np.array(values).reshape(n, 3) + 0.0


# ---------------------------------------------------------------------- writing attributes
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def q(s: str) -> str:
    """Return ``s`` quoted as an attribute value (see :func:`quote`)."""
    return quote(s)


def quote(s: str) -> str:
    """Return ``s`` escaped and quoted; raise ``ValueError`` for control characters."""
    # Most names are ASCII identifiers ("l_hip_1"), which need neither check.
    if s.isidentifier() and s.isascii():
        return '"' + s + '"'
    if _BAD_CHARS.search(s):
        raise ValueError(f"the name {s!r} holds control characters, which XML cannot carry")
    if "&" in s or "<" in s or ">" in s or '"' in s:
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return '"' + s + '"'


def quote_names(names: Sequence[str]) -> list[str]:
    """Return :func:`quote` of every name of ``names``, checked in one pass when none needs it.

    Where no name holds a control character or one of ``&<>"`` (model names are printable,
    check_name), :func:`quote` only adds the quotes. ASCII text (the usual names) is checked
    as bytes: deleting those characters leaves it as long as it was (a C-level pass, where
    ``str.isprintable`` looks each character up in the Unicode database).
    """
    joined = "".join(names)
    if joined.isascii():
        data = joined.encode("ascii")
        plain = len(data.translate(None, _SPECIAL_BYTES)) == len(data)
    else:
        plain = joined.isprintable() and not (
            "&" in joined or "<" in joined or ">" in joined or '"' in joined
        )
    if not plain:
        return [quote(s) for s in names]
    if not names:
        return []
    # Each name between quotes, cut from one text: NUL, a control character, is in none.
    return ('"' + '"\0"'.join(names) + '"').split("\0")


# The ASCII characters quote rejects or escapes (and the others below space: a name holding
# one goes through quote, which keeps tabs and newlines).
_SPECIAL_BYTES = bytes(range(0x20)) + b'&<>"'


def fill(parts: Sequence[str], *columns: Sequence[str]) -> list[str]:
    """Return per element ``parts[0] + c0 + parts[1] + c1 + ... + parts[-1]`` (a column each).

    ``columns`` hold one text per element each, and ``parts`` one more text than there are
    columns. The texts of a whole column of elements: each one ``str.join`` of a zipped row,
    C-level, where an f-string per element runs the interpreter for every piece.

    >>> fill(("<a x=", " y=", "/>"), ["1", "2"], ["3", "4"])
    ['<a x=1 y=3/>', '<a x=2 y=4/>']
    """
    if len(parts) != len(columns) + 1 or not columns:
        raise ValueError("fill needs a column, and one part more than columns")
    if len({len(column) for column in columns}) > 1:
        raise ValueError("fill needs columns of one length")
    row: list[Iterable[str]] = [repeat(parts[0])]
    for column, part in zip(columns, parts[1:], strict=False):
        row += (column, repeat(part))
    return list(map("".join, zip(*row, strict=False)))  # the parts repeat without end


def fmt3(v: Any) -> str:
    """Return the three numbers of ``v`` formatted (the exporter's number rule)."""
    return format3(float(v[0]), float(v[1]), float(v[2]))


def transform_text(T: Any) -> str:
    """Return the 12 numbers of transform ``T`` (rotation row-major, then position), exact."""
    return format_floats([*(T.rotation + 0.0).ravel().tolist(), *(T.position + 0.0).tolist()])


def read_transform(r: Reader, el: Any, what: str, attr: str, near: Any) -> Any:
    """Return the transform of the 12 numbers of attribute ``attr`` (see :func:`transform_text`).

    It must be within ``1e-6`` of transform ``near`` (what the plain URDF numbers give, which
    other tools read).
    """
    v = strict_numbers(r, el, what, attr, 12)
    R = np.array(v[:9], dtype=np.float64).reshape(3, 3)
    p = np.array(v[9:], dtype=np.float64)
    scale = 1.0 + float(np.abs(p).max())
    if not (
        np.abs(R - near.rotation).max() <= 1e-6 and np.abs(p - near.position).max() <= 1e-6 * scale
    ):
        raise r.err(
            URDFValueError,
            el,
            what,
            f"{attr.split('}')[-1]} disagrees with the pose the URDF numbers give; remove the "
            "robomodel attribute or fix it",
        )
    R = immutable(R)
    p = immutable(p)
    return _TRANSFORM(R, p)
