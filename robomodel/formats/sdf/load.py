"""Reading SDFormat: ``load``/``loads`` and their report-returning forms.

The document is read in named phases: choose the model (a ``<model>`` at the root, or the one
of a ``<world>``), walk it and its nested models and includes into one pose graph of scoped
names (``outer::inner::link``), then build the links, joints, frames and sensors from the
graph, and put the model's lists in the order robomodel wrote them (``<robomodel:order>``) or
in document order.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from robomodel._internal.files import read_regular
from robomodel.errors import ModelError, SDFError, UnknownNameError
from robomodel.formats.report import ConversionReport, Loss
from robomodel.formats.sdf._joints import UNSUPPORTED_JOINTS, end_name, read_joint
from robomodel.formats.sdf._links import read_inertial, read_robot_material, read_shape
from robomodel.formats.sdf._poses import PoseGraph, read_pose
from robomodel.formats.sdf._sensors import read_ft, read_imu
from robomodel.formats.sdf._xml import Source, parse_document, rm, tag_of, verbatim
from robomodel.formats.sdf.options import LoadOptions
from robomodel.model.joints import Joint
from robomodel.model.record import Extension, Frame, Link, Model
from robomodel.model.sensors import Sensor
from robomodel.model.shapes import Material, SolidShape
from robomodel.model.spatial import SpatialInertia, Transform

__all__ = ["load", "load_with_report", "loads", "loads_with_report"]

_DEFAULT = LoadOptions()
_MODEL_TAGS = ("link", "joint", "frame", "model", "include", "pose")
MAX_INCLUDES = 1000
"""The most ``<include>`` elements one document may expand, counted over every level. A robot
or a world includes tens of models; a file including another ten times at each of nine levels
would otherwise expand a billion models (the SDF form of an XML entity bomb)."""


class _Walk:
    """The elements of one model and its nested models, registered in one pose graph."""

    def __init__(self, src: Source, dirs: list[str]) -> None:
        self.graph = PoseGraph(src)
        self.dirs = dirs
        self.including: list[str] = []  # the files being included, to refuse a cycle
        self.included = 0  # every include expanded so far, against MAX_INCLUDES
        self.links: list[tuple[str, Any, Source]] = []
        self.joints: list[tuple[str, Any, Source]] = []
        self.frames: list[tuple[str, Any, Source]] = []
        self.models: list[tuple[str, Any, Source]] = []
        self.extensions: list[tuple[int, Extension]] = []
        self.losses: list[Loss] = []
        self.canonical: dict[str, str] = {}
        self.materials: list[Material] = []

    def keep(self, el: Any, kind: str, owner: str) -> None:
        if el.tag == rm("extension"):  # robomodel's wrapper: the element and its owner
            inner = [ch for ch in el if isinstance(ch.tag, str)]
            if len(inner) != 1:
                self.graph.src.fail(el, "<robomodel:extension>", "must hold one element")
            kind, owner, el = el.get("owner_kind", kind), el.get("owner", owner), inner[0]
        ext = Extension(owner_kind=kind, owner=owner, xml=verbatim(el), tag=tag_of(el))
        self.extensions.append((len(self.extensions), ext))

    # ------------------------------------------------------------------ the walk
    def model(self, src: Source, el: Any, prefix: str, frame: str) -> None:
        """Register ``<model>`` ``el``'s frames under ``prefix`` (its model frame ``frame``)."""
        g = self.graph
        first_link: str | None = None
        for ch in el:
            tag = ch.tag
            if not isinstance(tag, str):
                continue
            g.scopes[ch] = (prefix, frame)
            name = ch.get("name", "")
            what = f"{tag} {name!r}"
            if tag in ("link", "joint", "frame", "model") and not name:
                src.fail(ch, f"<{tag}>", "has no name; give it one")
            if tag == "link":
                scoped = prefix + name
                first_link = first_link or scoped
                T, rel = _pose_of(src, ch, what)
                g.add(scoped, "link", g.scoped(ch, rel) if rel else frame, T, None, ch)
                self.links.append((scoped, ch, src))
            elif tag == "frame":
                scoped = prefix + name
                att = ch.get("attached_to") or ""
                attached = g.scoped(ch, att) if att else frame
                T, rel = _pose_of(src, ch, what)
                g.add(scoped, "frame", g.scoped(ch, rel) if rel else attached, T, attached, ch)
                self.frames.append((scoped, ch, src))
            elif tag == "joint":
                scoped = prefix + name
                child_el = ch.find("child")
                if not end_name(child_el):
                    src.fail(ch, what, "has no <child>; name the child link")
                child = g.scoped(ch, end_name(child_el))
                T, rel = _pose_of(src, ch, what)
                g.add(scoped, "joint", g.scoped(ch, rel) if rel else child, T, child, ch)
                self.joints.append((scoped, ch, src))
            elif tag == "model":
                self.nested(src, ch, prefix + name, frame, ch)
                first_link = first_link or self.canonical.get(prefix + name)
            elif tag == "include":
                inc_src, inc_el = self.include(src, ch)
                over = ch.find("name")
                name = (over.text or "").strip() if over is not None else inc_el.get("name", "")
                pose_el = ch.find("pose")
                g.scopes[inc_el] = (prefix, frame)
                self.including.append(inc_src.file)
                self.nested(inc_src, inc_el, prefix + name, frame, ch, pose_el)
                self.including.pop()
                first_link = first_link or self.canonical.get(prefix + name)
            elif tag in ("pose", rm("order")):
                pass
            elif tag == rm("material"):
                self.materials.append(read_robot_material(src, ch))
            else:
                self.keep(ch, "robot", "")
        canon = el.get("canonical_link")
        if canon:
            self.canonical[frame] = prefix + canon  # a name in this model's own scope
        elif first_link is not None:
            self.canonical[frame] = first_link

    def nested(
        self, src: Source, el: Any, scoped: str, frame: str, at: Any, pose_el: Any = None
    ) -> None:
        """Register nested model ``el`` as frame ``scoped`` and its contents under it."""
        g = self.graph
        what = f"model {scoped!r}"
        if pose_el is None:
            T, rel = _pose_of(src, el, what)
        else:
            T, rel = read_pose(src, pose_el, what)
        g.add(scoped, "model", g.scoped(at, rel) if rel else frame, T, None, at)
        self.models.append((scoped, el, src))
        self.model(src, el, scoped + "::", scoped)
        node = g.nodes[scoped]
        node.attached = self.canonical.get(scoped)
        if node.attached is None:
            src.fail(el, what, "has no link; a model needs at least one")
        placement = el.get("placement_frame") or (
            (at.findtext("placement_frame") or "").strip() if at is not el else ""
        )
        if placement:  # the pose places this frame, not the model frame
            g.reset()
            inner = g.between(scoped, g.check(scoped + "::" + placement, el, what))
            node.pose = node.pose @ inner.inverse()
            g.reset()

    def include(self, src: Source, el: Any) -> tuple[Source, Any]:
        """Return the source and ``<model>`` of ``<include>`` ``el``."""
        uri = (el.findtext("uri") or "").strip()
        path = _resolve(uri, self.dirs, src.folder)
        if path is None:
            src.fail(
                el,
                f"<include> {uri!r}",
                "not found in the package dirs (only model://, package:// and relative paths "
                "under the package dirs or the file's directory; no network)",
            )
        path = os.path.realpath(path)
        self.included += 1
        if self.included > MAX_INCLUDES:
            src.fail(
                el,
                f"<include> {uri!r}",
                f"more than {MAX_INCLUDES} includes expanded; a model that includes models "
                "this many times is refused (merge the included files)",
            )
        if path in self.including:
            src.fail(el, f"<include> {uri!r}", f"{path} includes itself (through {src.file})")
        data = read_regular(path)
        root, inc = parse_document(data, path)
        inc.folder = os.path.dirname(path)
        m = root.find("model")
        if m is None:
            src.fail(el, f"<include> {uri!r}", f"{path} holds no <model>")
        return inc, m


def _pose_of(src: Source, el: Any, what: str) -> tuple[Transform, str | None]:
    p = el.find("pose")
    if p is None:
        return Transform.identity(), None
    return read_pose(src, p, what)


def _inside(path: str, root: str) -> bool:
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top + os.sep)


def _resolve(uri: str, dirs: list[str], base_dir: str | None) -> str | None:
    """The regular file an include names, only under ``dirs`` (or ``base_dir``)."""
    for scheme in ("model://", "package://"):
        if uri.startswith(scheme):
            rest, roots = uri[len(scheme) :], dirs
            break
    else:
        if "://" in uri or base_dir is None:
            return None
        rest, roots = uri, [base_dir]
    for d in roots:
        cand = os.path.join(d, rest)
        if not _inside(cand, d):
            continue
        if os.path.isdir(cand):
            found = _model_file(cand)
            if found is None or not _inside(found, d):
                continue
            cand = found
        if os.path.isfile(cand):
            return cand
    return None


def _model_file(folder: str) -> str | None:
    config = os.path.join(folder, "model.config")
    if os.path.isfile(config):
        from lxml import etree

        try:
            root = etree.fromstring(
                read_regular(config), etree.XMLParser(resolve_entities=False, no_network=True)
            )
            name = (root.findtext("sdf") or "").strip()
        except etree.XMLSyntaxError:
            name = ""
        if name:
            return os.path.join(folder, name)
    cand = os.path.join(folder, "model.sdf")
    return cand if os.path.isfile(cand) else None


def _pick(src: Source, root: Any, options: LoadOptions) -> Any:
    """Return the ``<model>`` to read: the root's, or the chosen one of a ``<world>``."""
    models = root.findall("model")
    world = root.find("world")
    if world is not None:
        models = models + world.findall("model") + world.findall("include")
    if not models:
        raise SDFError("the document has no <model>", file=src.file, line=root.sourceline)

    def name_of(m: Any) -> str:
        return m.get("name") or (m.findtext("name") or "").strip() or (m.findtext("uri") or "")

    if options.model is not None:
        chosen = [m for m in models if name_of(m) == options.model]
        if not chosen:
            names = ", ".join(repr(name_of(m)) for m in models)
            raise SDFError(
                f"no model named {options.model!r}; the document has {names}", file=src.file
            )
        return chosen[0]
    if len(models) > 1:
        names = ", ".join(repr(name_of(m)) for m in models)
        raise SDFError(
            f"the document has {len(models)} models ({names}); choose one with "
            "LoadOptions(model=name)",
            file=src.file,
            line=models[1].sourceline,
        )
    return models[0]


def _read(
    data: bytes, file: str, options: LoadOptions, dirs: list[str], base_dir: str | None
) -> tuple[Model, ConversionReport]:
    # Choose the model, and walk it into one pose graph.
    root, src = parse_document(data, file)
    src.folder = base_dir
    top = _pick(src, root, options)
    w = _Walk(src, dirs)
    g = w.graph
    if top.tag == "include":
        src, top = w.include(src, top)
    name = "" if top.get(rm("unnamed")) == "true" else top.get("name", "")
    g.scopes[top] = ("", g.ROOT)
    world = any(end_name(j.find("parent")) == "world" for j in top.iter("joint"))
    if world:  # the world frame, seen from the model frame
        T, _ = _pose_of(src, top, f"model {name!r}")
        g.add("world", "link", g.ROOT, T.inverse(), None, None)
    w.model(src, top, "", g.ROOT)
    if not w.links:
        src.fail(top, f"model {name!r}", "has no link; a model needs at least one")
    g.nodes[g.ROOT].attached = w.canonical.get(g.ROOT)
    g.validate()

    # Links: inertia, shapes, link sensors; what robomodel does not model kept verbatim.
    link_names: list[str] = ["world"] if world else []
    links: list[Link] = [Link()] if world else []
    visuals: list[list[SolidShape]] = [[]] if world else []
    collisions: list[list[SolidShape]] = [[]] if world else []
    sensors: list[tuple[int, Sensor]] = []
    sensor_exts: list[Extension] = []
    for lname, el, lsrc in w.links:
        with _at(lsrc, el, f"link {lname!r}"):
            inertia = SpatialInertia.zero()
            vis: list[SolidShape] = []
            col: list[SolidShape] = []
            for ch in el:
                tag = ch.tag
                if tag == "inertial":
                    kept: list[Extension] = []
                    inertia = read_inertial(lsrc, ch, lname, g, kept)
                    w.extensions.extend((len(w.extensions), e) for e in kept)
                elif tag in ("visual", "collision"):
                    g.scopes[ch] = g.scopes[el]
                    shape = read_shape(lsrc, ch, lname, g)
                    if shape is None:
                        w.keep(ch, "link", lname)
                    else:
                        (vis if tag == "visual" else col).append(shape)
                elif tag == "sensor" and ch.get("type") == "imu":
                    g.scopes[ch] = g.scopes[el]
                    for s in read_imu(
                        lsrc, ch, g.scoped(el, ch.get("name", "")), lname, g, sensor_exts
                    ):
                        sensors.append((_order(ch, len(sensors)), s))
                elif tag != "pose":
                    w.keep(ch, "link", lname)
            if el.find("inertial") is None:
                # SDFormat's default inertial (1 kg, unit moments), as every SDFormat reader does.
                inertia = read_inertial(lsrc, el.makeelement("inertial", {}), lname, g, [])
            link_names.append(lname)
            links.append(Link(inertia))
            visuals.append(vis)
            collisions.append(col)

    # Joints, and the F/T sensors in them.
    joint_names: list[str] = []
    joints: list[Joint] = []
    renamed: dict[str, str] = {}  # SDFormat joint name -> robomodel's (robomodel:name)
    read_at: list[tuple[Any, Source]] = []  # each read joint's element
    for jname, el, jsrc in w.joints:
        with _at(jsrc, el, f"joint {jname!r}"):
            what = f"joint {jname!r}"
            kind = el.get("type", "")
            if kind in UNSUPPORTED_JOINTS or kind not in (
                "revolute",
                "prismatic",
                "continuous",
                "fixed",
            ):
                if options.unsupported_joints == "raise":
                    jsrc.fail(
                        el,
                        what,
                        f'type="{kind}" is not modelled by robomodel (it models fixed, revolute, '
                        "continuous and prismatic joints); LoadOptions(unsupported_joints='drop') "
                        "leaves it out and lists it in the report",
                    )
                w.losses.append(
                    Loss(action="dropped", kind="joint", name=jname, detail=f"type {kind}")
                )
                continue
            parent_txt = end_name(el.find("parent"))
            if not parent_txt:
                jsrc.fail(el, what, "has no <parent>; name the parent link")
            parent = g.attached_link(g.check(g.scoped(el, parent_txt), el, what))
            child = g.attached_link(g.check(g.nodes[jname].attached or "", el, what))
            joints.append(read_joint(jsrc, el, jname, g.scopes[el][1], parent, child, g, w.losses))
            joint_names.append(el.get(rm("name")) or jname)
            renamed[jname] = joint_names[-1]
            read_at.append((el, jsrc))
            for ch in el:
                if ch.tag == "sensor" and ch.get("type") == "force_torque":
                    g.scopes[ch] = g.scopes[el]
                    sname = g.scoped(el, ch.get("name", ""))
                    s = read_ft(jsrc, ch, sname, joint_names[-1], parent, child, g, sensor_exts)
                    sensors.append((_order(ch, len(sensors)), s))
                elif ch.tag not in ("parent", "child", "pose") and (
                    ch.tag != "axis" or el.get("type") == "fixed"
                ):
                    w.keep(ch, "joint", jname)

    # Frames: <frame> elements and nested model frames, on the links they are attached to.
    frames: list[Frame] = []
    for fname, el, _ in sorted(w.frames + w.models, key=lambda r: r[1].sourceline or 0):
        link = g.attached_link(fname)
        frames.append(Frame(el.get(rm("name")) or fname, link, g.between(link, fname)))
    for k, j in enumerate(joints):
        mimic = getattr(j, "mimic", None)
        if mimic is not None:
            el, jsrc = read_at[k]
            if mimic.joint not in renamed:
                jsrc.fail(
                    el.find("axis").find("mimic"),
                    f"joint {joint_names[k]!r}",
                    f"<mimic joint={mimic.joint!r}> names no joint of the model",
                )
            joints[k] = _renamed_mimic(j, renamed)

    # The model, its lists in robomodel's order when it wrote them.
    exts = [e for _, e in w.extensions] + sensor_exts
    order = top.find(rm("order"))
    ordered_sensors = [s for _, s in sorted(sensors, key=lambda p: p[0])]
    if order is not None and order.get("extensions"):
        perm = [int(k) for k in order.get("extensions", "").split() if k.isdigit()]
        if sorted(perm) != list(range(len(exts))):
            src.fail(order, "<robomodel:order>", "is not a permutation of the extensions")
        exts = [exts[k] for k in perm]
    canon = w.canonical.get(g.ROOT)
    try:
        model = Model(
            name=name,
            link_names=link_names,
            links=links,
            joint_names=joint_names,
            joints=joints,
            frames=frames,
            default_base="world" if world else canon,
            visuals=visuals,
            collisions=collisions,
            sensors=ordered_sensors,
            package_dirs=dirs,
            extensions=exts,
            materials=w.materials,
        )
    except (ValueError, KeyError) as e:
        raise SDFError(f"the model is not valid: {e}", file=src.file) from e
    return model, ConversionReport(losses=tuple(w.losses))


@contextmanager
def _at(src: Source, el: Any, what: str) -> Iterator[None]:
    """Name ``el`` (file, line) in a model error raised while building its values."""
    try:
        yield
    except (ModelError, UnknownNameError) as e:
        src.fail(el, what, str(e))


def _renamed_mimic(j: Joint, renamed: dict[str, str]) -> Joint:
    from robomodel.model.joints import replace_joint

    mimic = getattr(j, "mimic", None)
    if mimic is None:
        return j
    leader = renamed.get(mimic.joint, mimic.joint)
    if leader == mimic.joint:
        return j
    return replace_joint(j, mimic=attrs.evolve(mimic, joint=leader))


def _order(el: Any, fallback: int) -> int:
    k = el.get(rm("index"))
    return int(k) if k is not None and k.isdigit() else 1_000_000 + fallback


def loads_with_report(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
) -> tuple[Model, ConversionReport]:
    """Read SDFormat text; return the model and the report of what the read dropped.

    Args:
        text: the document.
        filename: the name errors give.
        options: see :class:`~robomodel.formats.sdf.options.LoadOptions`.
        package_dirs: directories searched for ``model://`` and ``package://`` includes,
            stored in ``model.package_dirs``.

    Raises:
        SDFError: naming ``file:line: element`` for a malformed document.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    dirs = [os.fspath(d) for d in package_dirs]
    return _read(data, filename, options, dirs, None)


def loads(
    text: str | bytes,
    *,
    filename: str = "<string>",
    options: LoadOptions = _DEFAULT,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
) -> Model:
    """Read SDFormat text and return its model (see :func:`loads_with_report`)."""
    return loads_with_report(text, filename=filename, options=options, package_dirs=package_dirs)[0]


def load_with_report(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
) -> tuple[Model, ConversionReport]:
    """Read the SDFormat file ``path`` (a ``<model>`` or a ``<world>``), with the report.

    Includes resolve under ``package_dirs`` (``model://name`` is the folder ``name`` of one of
    them, its ``model.config`` naming the file) and, for relative paths, the file's directory;
    only regular files inside those directories are opened, nothing from the network.

    Raises:
        SDFError: naming ``file:line: element`` for a malformed document.
        OSError: the file cannot be read.
    """
    name = os.fspath(path)
    data = read_regular(name)
    dirs = [os.fspath(d) for d in package_dirs]
    return _read(data, name, options, dirs, os.path.dirname(os.path.abspath(name)))


def load(
    path: str | os.PathLike[str],
    *,
    options: LoadOptions = _DEFAULT,
    package_dirs: Iterable[str | os.PathLike[str]] = (),
) -> Model:
    """Read the SDFormat file ``path`` and return its model (see :func:`load_with_report`)."""
    return load_with_report(path, options=options, package_dirs=package_dirs)[0]
