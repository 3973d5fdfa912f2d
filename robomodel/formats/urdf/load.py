"""The URDF loader: ``load(path)`` and ``loads(text)`` return a :class:`~robomodel.model.Model`.

The loader reads what iDynTree's ``ModelLoader`` reads (links, inertials, visuals, collisions,
materials, fixed/revolute/continuous/prismatic joints, iDynTree's ``<sensor>`` dialect) and keeps
everything else verbatim in ``model.extensions``. Unlike iDynTree it is strict: every malformed
document raises a :class:`~robomodel.errors.URDFError` subclass naming ``file:line: element``,
and nothing is ever half-loaded.

Order (spec §7.7, deterministic instead of iDynTree's hash order): joints are connected moving
joints first, then fixed joints, each group in document order; massless leaf links on fixed
joints become frames; links are then numbered in traversal order from the root, joints as the
moving joints in traversal order followed by the fixed joints in traversal order. Frames are
grouped by link in traversal order: on each link the frames of its fake links (a fake root
first, then document order), then its sensor frames (F/T, accelerometers, gyroscopes).

A load has three steps: the element pass reads each element with its module's reader
(:mod:`robomodel.formats.urdf._link`, ``_joint``, ``_sensor``, ...), which checks it and
registers its origins, inertials and axes; :func:`_read_numbers` reads those numbers for the
whole document at once and hands each record its values;
:func:`robomodel.formats.urdf._tree.assemble` builds the model.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
from lxml import etree

from robomodel._internal.files import read_regular
from robomodel.errors import RobomodelError, URDFError
from robomodel.formats.meshes import MeshError, resolve_mesh
from robomodel.formats.urdf._document import DoubtError, Reader, parse_triples
from robomodel.formats.urdf._extensions import keep
from robomodel.formats.urdf._geometry import read_materials
from robomodel.formats.urdf._inertial import (
    InertiaOverflowError,
    check_inertias,
    inertial_values,
)
from robomodel.formats.urdf._joint import check_mimics, read_joint
from robomodel.formats.urdf._link import read_link
from robomodel.formats.urdf._origin import origin_values
from robomodel.formats.urdf._records import RawJoint, RawLink, RawSensor
from robomodel.formats.urdf._sensor import read_sensor
from robomodel.formats.urdf._sources import listening
from robomodel.formats.urdf._tree import Elements, assemble
from robomodel.formats.urdf._xacro import expand, should_expand, xacro_label
from robomodel.formats.urdf.errors import (
    URDFReferenceError,
    URDFSyntaxError,
    URDFValueError,
)
from robomodel.formats.urdf.options import LoadOptions
from robomodel.model import Model
from robomodel.model.shapes import Mesh

__all__ = ["load", "loads", "resolve_uri"]

_DEFAULT_OPTIONS = LoadOptions()


def _parser() -> Any:
    # A parser per document: lxml parsers must not be shared between threads, and building
    # one costs microseconds, so no module-level (per-thread) parser is kept.
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


# ---------------------------------------------------------------------- public API
def load(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
    resolver: Callable[[str], str] | None = None,
    xacro_args: Mapping[str, str] | None = None,
    xacro: bool | None = None,
) -> Model:
    """Read the URDF (or xacro) file ``path`` and return its model.

    A ``.xacro`` file, or any file when ``xacro=True``, is expanded through the ``xacro``
    package first (:mod:`robomodel.formats.urdf._xacro`). xacro runs Python code from the file, so
    expand only files you trust. A file that uses xacro and is not expanded is refused, never
    read as plain URDF; one that only declares the xacro namespace is plain URDF. Where each
    element was read (lines, the file's directory against which relative mesh filenames
    resolve) is not part of the model: :func:`robomodel.formats.urdf.load_with_report`
    returns it with the model.

    Args:
        path: the URDF or xacro file.
        options: see :class:`~robomodel.formats.urdf.options.LoadOptions`.
        package_dirs: directories searched for ``package://`` and ``model://`` URIs (and for
            xacro's ``$(find pkg)``); stored in ``model.package_dirs`` (mesh filenames stay
            verbatim). The environment is not read: add
            :func:`robomodel.formats.meshes.env_package_dirs` to search what it names.
        resolver: when given, every mesh filename is replaced by ``resolver(filename)`` (for
            example ``functools.partial(resolve_uri, dirs)``). Without it nothing is resolved.
        xacro_args: values of a xacro document's ``<xacro:arg>`` elements (``name:=value`` on
            the xacro command line).
        xacro: ``True`` expands the document through xacro when it uses xacro (or declares
            its namespace): only for a trusted file, since xacro runs the Python code in it.
            ``None`` (the default) expands only a file whose name ends in ``.xacro``;
            ``False`` expands nothing and refuses ``.xacro`` files too.

    Raises:
        URDFError: a subclass naming ``file:line: element`` for every malformed document;
            ``URDFXacroError`` when a xacro document cannot be expanded,
            ``XacroNotExpandedError`` when it uses xacro and is not expanded (naming the line
            and the first use), ``XacroNotInstalledError`` when the ``xacro`` package is
            missing.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    data = read_regular(name)
    dirs = [os.fspath(d) for d in package_dirs]
    base_dir = os.path.dirname(os.path.abspath(name))
    if should_expand(data, name, xacro=xacro):
        text = expand(None, path=name, file=name, xacro_args=xacro_args, package_dirs=dirs)
        label = xacro_label(name)
        return _load_bytes(text.encode("utf-8"), label, options, dirs, resolver, base_dir)
    _no_xacro_args(xacro_args, name)
    return _load_bytes(data, name, options, dirs, resolver, base_dir)


def loads(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
    resolver: Callable[[str], str] | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    xacro_args: Mapping[str, str] | None = None,
    xacro: bool | None = None,
) -> Model:
    """Read a URDF (or xacro) document from ``text`` and return its model (see :func:`load`).

    ``filename`` is used in error messages, and a name ending in ``.xacro`` has the document
    expanded as for :func:`load` (xacro runs the Python code in it: only for trusted text).
    ``base_dir`` is the directory relative mesh
    filenames (and a xacro document's includes) are relative to; without it relative meshes
    cannot be resolved and includes are relative to the current directory.

    >>> m = loads('''<robot name="r">
    ...   <link name="base"><inertial><mass value="1"/>
    ...     <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    ...   <link name="arm"><inertial><mass value="2"/>
    ...     <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    ...   <link name="tool"/>
    ...   <joint name="j" type="continuous"><parent link="base"/><child link="arm"/>
    ...     <axis xyz="0 0 1"/></joint>
    ...   <joint name="t" type="fixed"><parent link="arm"/><child link="tool"/></joint>
    ... </robot>''')
    >>> list(m.link_names), list(m.joint_names), m.frame_names, m.name
    (['base', 'arm'], ['j'], ['tool'], 'r')
    """
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    dirs = [os.fspath(d) for d in package_dirs]
    base = None if base_dir is None else os.path.abspath(os.fspath(base_dir))
    if should_expand(data, filename, xacro=xacro):
        # xacro resolves includes against the directory of the file it is told it reads.
        where = None if base is None else os.path.join(base, os.path.basename(filename))
        expanded = expand(data, path=where, file=filename, xacro_args=xacro_args, package_dirs=dirs)
        label = xacro_label(filename)
        return _load_bytes(expanded.encode("utf-8"), label, options, dirs, resolver, base)
    _no_xacro_args(xacro_args, filename)
    return _load_bytes(data, filename, options, dirs, resolver, base)


def _no_xacro_args(xacro_args: Mapping[str, str] | None, file: str) -> None:
    if xacro_args:
        raise URDFValueError(
            f"xacro_args {sorted(xacro_args)} were given, but this is not a xacro document "
            "(no .xacro name, no xacro elements, ${...} or $(...)) and is not expanded; "
            "leave them out",
            file=file,
            element="robot",
        )


def resolve_uri(
    model_or_dirs: Model | Iterable[str], uri: str | Mesh, *, base_dir: str | None = None
) -> str:
    """Return a local path for a mesh ``uri``, searching the given package directories.

    ``package://pkg/path`` and ``model://pkg/path`` (also ``package:///pkg/path``) are looked up
    as ``dir/pkg/path`` in each directory (the model's ``package_dirs`` when a model is given);
    the result never leaves the directory it was found in (``..`` steps, absolute parts and
    symbolic links pointing out are refused). ``file:///path`` and ``file://localhost/path``
    become ``/path``; ``%XX`` escapes are decoded in both kinds. Plain paths are returned
    unchanged, relative ones joined to ``base_dir`` when given. Only the directories given are
    searched; the environment is never consulted. The rules are
    :func:`robomodel.formats.meshes.resolve_mesh`'s.

    A :class:`~robomodel.model.shapes.Mesh` stands for its filename.

    Raises:
        URDFReferenceError: a ``package://`` or ``model://`` URI is not found in any directory,
            would leave it, or has no package name; a ``file://`` URI names another host; a
            URI of another scheme.
    """
    if isinstance(uri, Mesh):
        uri = uri.filename
    if not isinstance(uri, str):
        raise URDFReferenceError(
            f"a mesh URI must be a string, got {type(uri).__name__} {uri!r}", element="mesh"
        )
    dirs = list(model_or_dirs.package_dirs if isinstance(model_or_dirs, Model) else model_or_dirs)
    if base_dir is None and "://" not in uri:
        return uri
    try:
        return resolve_mesh(uri, package_dirs=dirs, base_dir=base_dir)
    except MeshError as e:
        raise URDFReferenceError(f"{uri!r}: {e.reason}", file="<string>", element="mesh") from None


def _checked_resolver(resolver: Callable[[str], str]) -> Callable[[str], str]:
    """``resolver`` with its result checked: a mesh filename must stay a non-empty string."""

    def resolve(filename: str) -> str:
        out = resolver(filename)
        if not isinstance(out, str) or not out:
            raise URDFReferenceError(
                f"the resolver returned {out!r} for the mesh {filename!r}; it must return a "
                "non-empty path string",
                element="mesh",
            )
        return out

    return resolve


# ---------------------------------------------------------------------- the document
def _parse_xml(data: bytes, file: str) -> Any:
    # Decided on the parsed document, not by searching the bytes: a "<!ENTITY" inside a comment
    # or CDATA section is text, and the file is fine. The parser neither loads nor expands
    # anything, and any DTD is then refused: an internal <!ATTLIST> could otherwise supply
    # attribute defaults (a joint's missing type), an <!ENTITY> content.
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno if isinstance(e.lineno, int) and e.lineno > 0 else None
        msg = getattr(e, "msg", str(e))
        if "entit" in msg.lower():  # a reference to an entity declared in a DTD
            raise URDFSyntaxError(
                f"the document uses XML entities ({msg}), which are refused; remove the "
                "<!DOCTYPE> block and write the text itself",
                file=file,
                line=line,
                element="<!DOCTYPE>",
            ) from None
        raise URDFSyntaxError(
            f"not well-formed XML ({msg}); fix the markup", file=file, line=line, element="xml"
        ) from None
    info = root.getroottree().docinfo
    if info.internalDTD is not None or info.system_url or info.public_id or info.doctype:
        raise URDFSyntaxError(
            "the document has a <!DOCTYPE> (an external DTD, entities or attribute defaults), "
            "which is refused; remove the <!DOCTYPE> block",
            file=file,
            line=1,
            element="<!DOCTYPE>",
        )
    if root.tag != "robot":
        raise URDFValueError(
            f"the root element is <{root.tag}>, not <robot>; is this a URDF file?",
            file=file,
            line=root.sourceline,
            element=f"<{root.tag}>",
        )
    return root


def _load_bytes(
    data: bytes,
    file: str,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
    base_dir: str | None = None,
) -> Model:
    if resolver is not None:
        resolver = _checked_resolver(resolver)
    return _load_document(data, file, options, package_dirs, resolver, base_dir)


def _load_document(
    data: bytes,
    file: str,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
    base_dir: str | None,
) -> Model:
    root = _parse_xml(data, file)
    plain = b"xmlns" not in data
    r = Reader(file, options.keep_extensions, plain)
    r.base_dir = base_dir
    r.lines = listening()
    try:
        try:
            model = _build(r, root, options, package_dirs, resolver)
        except DoubtError:
            # A number did not read: build again checking every number where it is read, which
            # raises the precise error of the first bad one in document order.
            r = Reader(file, options.keep_extensions, plain, eager=True)
            r.base_dir = base_dir
            r.lines = listening()
            model = _build(r, root, options, package_dirs, resolver)
    except URDFError:
        raise
    except (RobomodelError, ValueError, TypeError) as e:
        # A value the element readers did not anticipate (the core constructors check more);
        # report it as a URDF problem instead of leaking a model-building error.
        raise URDFValueError(f"{e}", file=file, element="robot") from e
    return model


def _build(
    r: Reader,
    root: Any,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    # Robot-level materials first: shapes may refer to a material defined after them.
    db, materials = read_materials(r, root)

    # ------------------------------------------------------------------ the elements
    links: list[RawLink] = []
    link_idx: dict[str, int] = {}
    joints: list[RawJoint] = []
    joint_idx: dict[str, int] = {}
    sensors: list[RawSensor] = []
    sensor_names: dict[str, RawSensor] = {}
    for el in root:
        tag = el.tag
        if tag == "link":
            raw = read_link(r, el, db)
            if raw.name in link_idx:
                raise r.err(
                    URDFReferenceError,
                    el,
                    f"link {raw.name!r}",
                    f"a second link with this name (the first is on line "
                    f"{links[link_idx[raw.name]].el.sourceline}); rename one",
                )
            link_idx[raw.name] = len(links)
            links.append(raw)
        elif tag == "joint":
            rj = read_joint(r, el)
            if rj.name in joint_idx:
                raise r.err(
                    URDFReferenceError,
                    el,
                    f"joint {rj.name!r}",
                    f"a second joint with this name (the first is on line "
                    f"{joints[joint_idx[rj.name]].el.sourceline}); rename one",
                )
            joint_idx[rj.name] = len(joints)
            joints.append(rj)
        elif tag == "sensor":
            rs = read_sensor(r, el)
            if rs is not None:
                if rs.name in sensor_names:
                    raise r.err(
                        URDFReferenceError,
                        el,
                        f"sensor {rs.name!r}",
                        f"a second sensor with this name (the first is on line "
                        f"{sensor_names[rs.name].el.sourceline}); rename one",
                    )
                sensor_names[rs.name] = rs
                sensors.append(rs)
        elif tag == "material":
            pass
        else:
            keep(r, "robot", "", el, r.exts)

    check_mimics(r, joints, joint_idx)

    # ------------------------------------------------------------------ the numbers
    _read_numbers(r)
    check_inertias(r, options.inertia)
    r.drop_deferred()  # each record holds its values now; the lists would only add to the peak

    read = Elements(materials, links, link_idx, joints, joint_idx, sensors)
    return assemble(r, root, options, package_dirs, resolver, read)


def _read_numbers(r: Reader) -> None:
    """Read every deferred number and hand each record its origin, inertia or axis.

    Per element, building small arrays costs far more than the arithmetic: the texts are parsed
    in one pass and the values computed in one pass per kind
    (:func:`~robomodel.formats.urdf._origin.origin_values`,
    :func:`~robomodel.formats.urdf._inertial.inertial_values`), each value getting read-only
    views into a few shared arrays.

    Raises:
        DoubtError: a deferred text is not three finite decimal numbers.
    """
    n, m = len(r.origin_owners), len(r.inertial_owners)
    texts = r.origin_texts + r.inertial_texts + r.axis_texts
    if not texts:
        return
    # Documents repeat texts (a visual and its collision, common angles): each distinct text
    # is parsed once, and each distinct rpy becomes a rotation once. One dict both finds the
    # distinct texts and numbers them in order of first use (hashing each text once).
    index: dict[str, int] = {}
    ix = [index.setdefault(t, len(index)) for t in texts]  # per text, its row of U
    U = parse_triples(list(index))
    # One screen over every number of the document: NaN fails the comparison, and so does a
    # number beyond _MAX_POSITION (the bound for origin positions: those are looked at below).
    big = U is None or not float(np.abs(U).max()) <= _MAX_POSITION
    if big and (U is None or not np.isfinite(U).all()):
        if r.eager:
            raise AssertionError("unreachable: parse_triples refused texts strict_numbers accepts")
        raise DoubtError
    if n and big:
        _check_positions(r, U, ix[0 : 2 * n : 2], texts)
    # As Python triples: the numbers of the inertials' origins and of the axes (the origins'
    # go to origin_values as rows of U), from their rows only.
    read = list(map(tuple, U[ix[2 * n :]].tolist())) if len(ix) > 2 * n else []
    if n:
        for owner, value in zip(r.origin_owners, origin_values(U, ix[: 2 * n]), strict=True):
            owner.origin = value
    if m:
        try:
            inertias = inertial_values(r.inertial_data, read[0 : 2 * m : 2], read[1 : 2 * m : 2])
        except InertiaOverflowError as e:
            owner = r.inertial_owners[e.index]
            raise r.err(
                URDFValueError,
                owner.el,
                f"link {owner.name!r}",
                "the <inertial> numbers are finite but the inertia about the link origin they "
                "give is not (mass times centre of mass overflows); give realistic values",
            ) from None
        for owner, inertia in zip(r.inertial_owners, inertias, strict=True):
            owner.inertia = inertia
    for owner, axis in zip(r.axis_owners, read[2 * m :], strict=True):
        owner.axis = axis


# Beyond this (in metres) the squares and products that kinematics, dynamics and export compute
# from positions (inverses, compositions, |p|^2 in shifted inertias) overflow: no robot's origin
# is there, and a model holding one would give inf from finite numbers.
_MAX_POSITION = 1e150


def _check_positions(r: Reader, U: Any, rows: list[int], texts: list[str]) -> None:
    """Raise a URDFError for the first ``<origin xyz>`` beyond :data:`_MAX_POSITION`."""
    big = np.flatnonzero(np.abs(U[rows]).max(axis=1) > _MAX_POSITION)
    if big.size:
        k = int(big[0])
        raise r.err(
            URDFValueError,
            getattr(r.origin_owners[k], "el", None),
            f'<origin xyz="{texts[2 * k]}">',
            f"a position beyond {_MAX_POSITION:g} m: finite, but the transforms computed from "
            "it overflow to infinity; give realistic values",
        )
