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
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

from lxml import etree

from robomodel._construct import gc_paused
from robomodel.errors import RobomodelError, URDFError
from robomodel.model import Model
from robomodel.shapes import Material
from robomodel.urdf._assembly import Elements, assemble
from robomodel.urdf._elements import (
    _joint,
    _link,
    _material,
    _RawJoint,
    _RawLink,
    _RawSensor,
    _sensor,
)
from robomodel.urdf._reading import _Ctx, _DoubtError, _required
from robomodel.urdf.errors import (
    URDFReferenceError,
    URDFSyntaxError,
    URDFValueError,
)
from robomodel.urdf.options import LoadOptions

__all__ = ["load", "loads", "resolve_uri"]

_DEFAULT_OPTIONS = LoadOptions()
_local = threading.local()


def _parser() -> Any:
    # lxml parsers must not be shared between threads; one per thread, built once.
    p = getattr(_local, "parser", None)
    if p is None:
        p = etree.XMLParser(
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            huge_tree=False,
            remove_comments=True,
            remove_pis=True,
        )
        _local.parser = p
    return p


# ---------------------------------------------------------------------- public API
def load(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str] = (),
    resolver: Callable[[str], str] | None = None,
) -> Model:
    """Read the URDF file ``path`` and return its model.

    Args:
        path: the URDF file.
        options: see :class:`~robomodel.urdf.options.LoadOptions`.
        package_dirs: directories searched for ``package://`` and ``model://`` URIs; stored in
            ``model.package_dirs`` (mesh filenames stay verbatim).
        resolver: when given, every mesh filename is replaced by ``resolver(filename)`` (for
            example ``functools.partial(resolve_uri, dirs)``). Without it nothing is resolved.

    Raises:
        URDFError: a subclass naming ``file:line: element`` for every malformed document.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    with open(name, "rb") as fh:
        data = fh.read()
    return _load_bytes(data, name, options, package_dirs, resolver)


def loads(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT_OPTIONS,
    package_dirs: Iterable[str] = (),
    resolver: Callable[[str], str] | None = None,
) -> Model:
    """Read a URDF document from ``text`` and return its model (see :func:`load`).

    ``filename`` is only used in error messages.

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
    return _load_bytes(data, filename, options, package_dirs, resolver)


def resolve_uri(model_or_dirs: Model | Iterable[str], uri: str) -> str:
    """Return a local path for a mesh ``uri``, searching the given package directories.

    ``package://pkg/path`` and ``model://pkg/path`` are looked up as ``dir/pkg/path`` in each
    directory (the model's ``package_dirs`` when a model is given), ``file://`` URIs lose their
    scheme, and plain paths are returned unchanged. Only the directories given are searched;
    the environment is never consulted.

    Raises:
        URDFReferenceError: a ``package://`` or ``model://`` URI is not found in any directory.
    """
    dirs = list(model_or_dirs.package_dirs if isinstance(model_or_dirs, Model) else model_or_dirs)
    for scheme in ("package://", "model://"):
        if uri.startswith(scheme):
            rest = uri[len(scheme) :]
            for d in dirs:
                cand = os.path.normpath(os.path.join(d, rest))
                if os.path.exists(cand):
                    return cand
            raise URDFReferenceError(
                f"{uri!r} is not found in the package directories {dirs!r}; give the directory "
                "that contains the package folder",
                element="mesh",
            )
    if uri.startswith("file://"):
        return uri[len("file://") :]
    return uri


# ---------------------------------------------------------------------- the document
def _parse_xml(data: bytes, file: str) -> Any:
    if b"<!ENTITY" in data:
        raise URDFSyntaxError(
            "the document declares XML entities, which are refused (entity expansion attacks); "
            "remove the <!DOCTYPE> block",
            file=file,
            line=data[: data.find(b"<!ENTITY")].count(b"\n") + 1,
            element="<!DOCTYPE>",
        )
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as e:
        line = e.lineno if isinstance(e.lineno, int) and e.lineno > 0 else None
        msg = getattr(e, "msg", str(e))
        raise URDFSyntaxError(
            f"not well-formed XML ({msg}); fix the markup", file=file, line=line, element="xml"
        ) from None
    info = root.getroottree().docinfo
    dtd = info.internalDTD
    if info.system_url or info.public_id or (dtd is not None and any(dtd.iterentities())):
        raise URDFSyntaxError(
            "the document refers to an external DTD or declares entities, which are refused; "
            "remove the <!DOCTYPE> line",
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
) -> Model:
    with gc_paused():  # the document's tree is freed inside the pause too
        return _load_document(data, file, options, package_dirs, resolver)


def _load_document(
    data: bytes,
    file: str,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    root = _parse_xml(data, file)
    plain = b"xmlns" not in data
    ctx = _Ctx(file, options.keep_extensions, plain)
    try:
        try:
            model = _build(ctx, root, options, package_dirs, resolver)
        except _DoubtError:
            # A number did not read: build again checking every number where it is read, which
            # raises the precise error of the first bad one in document order.
            ctx = _Ctx(file, options.keep_extensions, plain, eager=True)
            model = _build(ctx, root, options, package_dirs, resolver)
    except URDFError:
        raise
    except (RobomodelError, ValueError, TypeError) as e:
        # A value the element parsers did not anticipate (the core constructors check more);
        # report it as a URDF problem instead of leaking a model-building error.
        raise URDFValueError(f"{e}", file=file, element="robot") from e
    return model


def _build(
    ctx: _Ctx,
    root: Any,
    options: LoadOptions,
    package_dirs: Iterable[str],
    resolver: Callable[[str], str] | None,
) -> Model:
    # Robot-level materials first: shapes may refer to a material defined after them.
    db: dict[str, Material] = {}
    materials: list[Material] = []
    for el in root.iterchildren("material"):
        name = _required(ctx, el, "material", "name")
        if name in db:
            raise ctx.err(
                URDFReferenceError, el, f"material {name!r}", "defined twice at robot level"
            )
        mat = _material(ctx, el, f"material {name!r}", None)
        db[name] = mat
        materials.append(mat)

    links: list[_RawLink] = []
    link_idx: dict[str, int] = {}
    joints: list[_RawJoint] = []
    joint_idx: dict[str, int] = {}
    sensors: list[_RawSensor] = []
    sensor_names: dict[str, _RawSensor] = {}
    for el in root:
        tag = el.tag
        if tag == "link":
            raw = _link(ctx, el, db)
            if raw.name in link_idx:
                raise ctx.err(
                    URDFReferenceError,
                    el,
                    f"link {raw.name!r}",
                    f"a second link with this name (the first is on line "
                    f"{links[link_idx[raw.name]].el.sourceline}); rename one",
                )
            link_idx[raw.name] = len(links)
            links.append(raw)
        elif tag == "joint":
            rj = _joint(ctx, el)
            if rj.name in joint_idx:
                raise ctx.err(
                    URDFReferenceError,
                    el,
                    f"joint {rj.name!r}",
                    f"a second joint with this name (the first is on line "
                    f"{joints[joint_idx[rj.name]].el.sourceline}); rename one",
                )
            joint_idx[rj.name] = len(joints)
            joints.append(rj)
        elif tag == "sensor":
            rs = _sensor(ctx, el)
            if rs is not None:
                if rs.name in sensor_names:
                    raise ctx.err(
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
            ctx.keep_ext("robot", "", el, ctx.exts)
    ctx.fill()

    read = Elements(materials, links, link_idx, joints, joint_idx, sensors)
    return assemble(ctx, root, options, package_dirs, resolver, read)
