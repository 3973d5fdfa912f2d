"""docs/idyntree-mapping.md covers every function of the seed API, and names only real calls.

The seeds are the five API pages in ``../shared/seeds`` (iDynTree's Model, ModelTransformers,
ModelExporter and SixAxisForceTorqueSensor, FARSA's KinematicLinkInfo). Every function declared in
one of them must appear in the first column of a table row in that seed's section of the mapping
page, and every name in the robomodel column of those sections must import.
"""

from __future__ import annotations

import builtins
import importlib
import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

import robomodel
from robomodel.formats.dh import DHChain, LinkGeometry, Rig
from robomodel.model.joints import RevoluteJoint
from robomodel.model.sensors import SixAxisForceTorqueSensor
from robomodel.model.traversal import Traversal
from robomodel.physics.kinematics import JointState

REPO = Path(__file__).parents[1]
# ../shared/seeds next to the repository; ROBOMODEL_SEEDS points elsewhere (a git worktree).
SEEDS = Path(os.environ.get("ROBOMODEL_SEEDS", Path(__file__).parents[2] / "shared" / "seeds"))
MAPPING = REPO / "docs" / "idyntree-mapping.md"

# Seed file -> the heading of its section in the mapping page.
SECTIONS = {
    "model.txt": "### `iDynTree::Model`",
    "model-transformers.txt": "## ModelTransformers",
    "model-exporter.txt": "## ModelExporter",
    "six-axis-ft-sensor.txt": "### SixAxisForceTorqueSensor",
    "kinematic-link-info.txt": "### KinematicLinkInfo",
}

# Robomodel names the mapping page may use before they exist (a change that documents a function
# in the same commit series that adds it); empty: every name the page uses resolves.
PENDING: set[str] = set()


# ---------------------------------------------------------------------- the seed declarations
_NAME = r"operator\s*=|~?[A-Za-z_]\w*"
# A declaration: optional return-type tokens, an optional Class:: qualifier, the name, "(".
_DECLARATION = re.compile(
    rf"^\s*(?P<ret>(?:[\w:<>,]+\s*[&*]*\s+)*?)(?:[A-Za-z_]\w*::)*(?P<name>{_NAME})[ \t]*\("
)
_TYPE_WORDS = {"auto", "void", "bool", "virtual", "const", "unsigned", "int", "real", "double"}
_TYPE_WORDS |= {"size_t", "inline", "static", "explicit", "float", "long", "char"}


def _is_type_token(token: str) -> bool:
    # Return types are keywords, qualified names (yarp::sig::Matrix) or CamelCase/camelCase type
    # names (LinkIndex, wVector); a lowercase English word means the line is prose.
    token = token.strip("&* \t")
    return (
        not token
        or token in _TYPE_WORDS
        or "::" in token
        or "<" in token
        or bool(re.fullmatch(r"[A-Z]\w*|[a-z]+[A-Z]\w*", token))
    )


def seed_functions(text: str) -> set[str]:
    """Return the names of the functions a seed page declares.

    A line declares a function when it reads ``[return type] [Class::]name(`` (the Doxygen
    summaries, ``auto name(...) -> type`` lines, constructors, ``~destructors`` and
    ``operator=``). Prose that mentions a call mid-sentence, "Referenced by" cross references
    and macros in capitals are not declarations.
    """
    names: set[str] = set()
    for line in text.splitlines():
        if line.lstrip().startswith(("Referenced by", "References")):
            continue
        match = _DECLARATION.match(line)
        if match is None:
            continue
        name = re.sub(r"\s+", "", match["name"])
        if name.isupper() or not all(_is_type_token(t) for t in match["ret"].split()):
            continue
        names.add(name)
    return names


def test_extractor_on_the_seed_formats() -> None:
    text = "\n".join(
        [
            "auto getNrOfLinks() const -> size_t: Get the number of links in the model.",
            "void setPackageDirs(const std::vector<std::string>& packageDirs)",
            "Model(const Model& other): Copy costructor.",
            "~Model() virtual: Destructor.",
            "const wVector &\tgetAxis () const",
            "virtual\t~KinematicLinkInfo ()",
            "KinematicLinkInfo &\toperator= (const KinematicLinkInfo &other)",
            "void setJoint\t(\tPhyJoint *\tjoint,",
            "bool iDynTree::ModelExporter::isValid()",
            "bool removeFakeLinks(const Model& modelWithFakeLinks, Model& modelWithoutFakeLinks)",
            # Not declarations:
            "explicit identifier, i.e. a getDOFName(DOFIndex dofIndex) method does not exist.",
            "Referenced by PhyiCub::PhyiCub().",
            'IDYNTREE_DEPRECATED_WITH_MSG(" Deprecated") bool init(const Model &model: ...',
            "All other joints are be removed by lumping (i.e. fusing together) the inertia",
            "The Six Axis Force Torque sensor measure the Force Torque (wrench) applied",
            "const SensorsList& sensors",
        ]
    )
    assert seed_functions(text) == {
        "getNrOfLinks",
        "setPackageDirs",
        "Model",
        "~Model",
        "getAxis",
        "~KinematicLinkInfo",
        "operator=",
        "setJoint",
        "isValid",
        "removeFakeLinks",
    }


# ---------------------------------------------------------------------- the mapping page
def _section(heading: str) -> str:
    text = MAPPING.read_text(encoding="utf-8")
    lines = text.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith(heading)]
    assert len(starts) == 1, f"docs/idyntree-mapping.md needs exactly one heading {heading!r}"
    level = len(heading) - len(heading.lstrip("#"))
    end = len(lines)
    for k in range(starts[0] + 1, len(lines)):
        hashes = len(lines[k]) - len(lines[k].lstrip("#"))
        if 0 < hashes <= level and lines[k][hashes : hashes + 1] == " ":
            end = k
            break
    return "\n".join(lines[starts[0] : end])


def _rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        if not line.startswith("|") or set(line) <= {"|", "-", " "}:
            continue
        # "\|" inside a cell is a literal bar, not a column separator.
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        rows.append(cells)
    return rows[1:]  # the header row


def _first_column_names(section: str) -> set[str]:
    names: set[str] = set()
    for cells in _rows(section):
        names.update(re.sub(r"\s+", "", n) for n in re.findall(_NAME, cells[0]))
    return names


def _seed_files() -> list[Path]:
    if not SEEDS.is_dir():
        pytest.skip(f"the seed pages are not checked out next to the repository ({SEEDS})")
    files = sorted(SEEDS.glob("*.txt"))
    assert {f.name for f in files} == set(SECTIONS), "a seed page without a mapping section"
    return files


@pytest.mark.parametrize("seed", sorted(SECTIONS))
def test_every_seed_function_has_a_row(seed: str) -> None:
    files = {f.name: f for f in _seed_files()}
    declared = seed_functions(files[seed].read_text(encoding="utf-8"))
    assert len(declared) >= 5, f"the extractor found almost nothing in {seed}: {declared}"
    missing = declared - _first_column_names(_section(SECTIONS[seed]))
    assert not missing, (
        f"docs/idyntree-mapping.md, section {SECTIONS[seed]!r}, has no row for {sorted(missing)}"
        " (add a row with the robomodel call, or '—' and why there is none)"
    )


# ---------------------------------------------------------------------- the robomodel column
# Receivers the page uses in calls such as `m.link(i)` or `s.first_link`.
_RECEIVERS: dict[str, Any] = {
    "m": robomodel.Model,
    "model": robomodel.Model,
    "t": Traversal,
    "chain": DHChain,
    "g": LinkGeometry,
    "rig": Rig,
    "s": SixAxisForceTorqueSensor,
    "joint": RevoluteJoint,
    "rm": robomodel,
    "robomodel": robomodel,
}
# The class a bare `.attribute` or method name refers to in each section.
_SUBJECT: dict[str, Any] = {
    "### `iDynTree::Model`": robomodel.Model,
    "## ModelTransformers": robomodel.Model,
    "## ModelExporter": robomodel.Model,
    "### SixAxisForceTorqueSensor": SixAxisForceTorqueSensor,
    "### KinematicLinkInfo": LinkGeometry,
}
_NAMESPACES = [
    "robomodel",
    "robomodel.transformers",
    "robomodel.formats.urdf",
    "robomodel.model.sensors",
]
_NAMESPACES += [
    "robomodel.physics.sensing",
    "robomodel.formats.dh",
    "robomodel.physics.kinematics",
    "robomodel.physics.dynamics",
]
_NOT_NAMES = {"None", "True", "False", "rm", "or", "and", "for", "in", "k", "i"}


def _has(obj: Any, name: str) -> bool:
    if isinstance(obj, type) and attrs.has(obj) and name in attrs.fields_dict(obj):
        return True
    return hasattr(obj, name)


def _attr_path(obj: Any, parts: list[str], prefix: str) -> tuple[str, Any]:
    # Returns the whole dotted path and the object, None when a part is missing.
    full = ".".join([prefix, *parts])
    path = prefix
    for part in parts:
        path = f"{path}.{part}"
        if isinstance(obj, ModuleType) and not _has(obj, part):
            try:  # a submodule not imported yet
                importlib.import_module(path)
            except ImportError:
                return full, None
        if not _has(obj, part):
            return full, None
        obj = getattr(obj, part, None)
    return full, obj


def _owner(token: str, subject: Any, previous: Any) -> Any:
    # The class the next bare `.attribute` of the same cell belongs to: `Cls.a` / `.b` means Cls.b.
    head = token.lstrip(".").split(".")[0]
    if token.startswith(".") or (head in _RECEIVERS and head not in {"rm", "robomodel"}):
        return previous if token.startswith(".") else _RECEIVERS[head]
    for namespace in _NAMESPACES:
        obj = getattr(importlib.import_module(namespace), head, None)
        if isinstance(obj, type):
            return obj
    return previous


def _qualname(obj: Any) -> str:
    if isinstance(obj, ModuleType):
        return obj.__name__
    # Named as users import them: robomodel.Model, robomodel.physics.kinematics.JointState.
    module = {robomodel.Model: "robomodel", JointState: "robomodel.physics.kinematics"}.get(obj)
    return f"{module or obj.__module__}.{obj.__qualname__}"


def _resolve(token: str, subject: Any, previous: Any) -> tuple[str, Any]:
    """Return (dotted path, object or None) for one name of the robomodel column."""
    if token.startswith("."):
        owner = previous if isinstance(previous, type) else subject
        return _attr_path(owner, token[1:].split("."), _qualname(owner))
    head, *rest = token.split(".")
    if head in _RECEIVERS:
        owner = _RECEIVERS[head]
        return _attr_path(owner, rest, _qualname(owner))
    if head == "attrs" or hasattr(builtins, head):
        return token, builtins  # Python's own names, not robomodel's
    for namespace in _NAMESPACES:
        module = importlib.import_module(namespace)
        if _has(module, head):
            obj = getattr(module, head)
            prefix = _qualname(obj) if isinstance(obj, type) else f"{namespace}.{head}"
            return _attr_path(obj, rest, prefix)
    if _has(subject, head):
        return _attr_path(getattr(subject, head), rest, f"{_qualname(subject)}.{head}")
    return token, None


def _column_names(cell: str) -> list[str]:
    """Return the names a robomodel cell calls: dotted names in code, and bare names outside
    parentheses (a bare name inside them is an argument such as ``i`` or ``link``)."""
    names: list[str] = []
    for code in re.findall(r"`([^`]+)`", cell):
        code = re.sub(r"'[^']*'|\"[^\"]*\"", "", code)
        code = re.sub(r"\b\w+=", "", code)  # keyword-argument names
        depth = 0
        pattern = r"[()\[\]{}]|(?<![\w.])\.?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*"
        for match in re.finditer(pattern, code):
            text = match[0]
            if text in "([{":
                depth += 1
            elif text in ")]}":
                depth -= 1
            elif (depth == 0 or "." in text.lstrip(".")) and text not in _NOT_NAMES:
                names.append(text)
    return names


def test_every_robomodel_name_in_the_seed_tables_exists() -> None:
    unknown: list[str] = []
    pending_used: set[str] = set()
    for heading, subject in _SUBJECT.items():
        for cells in _rows(_section(heading)):
            previous: Any = None
            for name in _column_names(cells[1]):
                path, obj = _resolve(name, subject, previous)
                if path in PENDING:
                    pending_used.add(path)
                elif obj is None:
                    unknown.append(f"{heading}: `{name}` ({path}) in row {cells[0]}")
                previous = _owner(name, subject, previous)
    assert not unknown, "names in the robomodel column that do not exist:\n" + "\n".join(unknown)
    # The allow list holds only names the page really uses.
    assert pending_used == PENDING, f"PENDING names not in the page: {PENDING - pending_used}"
