"""The module paths of the flat layout (``robomodel.urdf``, ...), importing for one release.

robomodel's modules live in layer folders (``model/``, ``physics/``, ``formats/``, ``tools/``,
``cli/``). Code and pickles written against the earlier flat layout name modules such as
``robomodel.urdf.load`` or ``robomodel._pickling``; :data:`MOVED` says where each went.

An old name must give the very module object of its new name: a second copy would hold second
copies of every class, and ``isinstance`` and ``==`` would fail between them. So the finder
answers an old package name by importing its new package together with all of its submodules
and entering each under its old name too, before the import system could look for them
itself. Importing an old public path warns with a ``DeprecationWarning`` naming the new one;
the private paths only old pickles name load silently.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import pkgutil
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "AliasFinder"]

MOVED: dict[str, str] = {
    "spatial": "model.spatial",
    "joints": "model.joints",
    "shapes": "model.shapes",
    "sensors": "model.sensors",
    "traversal": "model.traversal",
    "builders": "model.builders",
    "updates": "model.updates",
    "mimic": "model.mimic",
    "checks": "model.checks",
    "validation": "model.validation",
    "joint_state": "physics.joint_state",
    "kinematics": "physics.kinematics",
    "dynamics": "physics.dynamics",
    "sensing": "physics.sensing",
    "inertia": "physics.inertia",
    "urdf": "formats.urdf",
    "mjcf": "formats.mjcf",
    "dh": "formats.dh",
    "io": "formats",
    "meshes": "formats.meshes",
    "diff": "tools.diff",
    "draw": "tools.draw",
    "plot": "tools.plot",
    "textview": "tools.textview",
    "commands": "cli._commands",
    "demo": "cli._demo",
    # Named by pickles made before the move (Model's reduce function, the values' classes).
    "_pickling": "model._pickling",
    "_construct": "_internal.construct",
    "_arrays": "_internal.arrays",
    "_mesh_files": "model.mesh_files",
}
"""Old module name (below ``robomodel.``) -> new module name (below ``robomodel.``)."""

_SUBMODULES = {"io.json": "formats.json", "io.interop": "formats.interop"}


class _Existing(importlib.abc.Loader):
    """A loader whose module is one that is already imported under its new name."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module
        self._spec = module.__spec__

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self._module

    def exec_module(self, module: ModuleType) -> None:
        # The import system has just stamped the old name's spec on the module; the module
        # keeps its own, so that it still knows where it lives.
        module.__spec__ = self._spec


class AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``robomodel.<old>`` for each old name of :data:`MOVED`."""

    def find_spec(
        self,
        fullname: str,
        path: object = None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        prefix, _, old = fullname.partition(".")
        if prefix != "robomodel" or old not in MOVED:
            return None
        new = "robomodel." + MOVED[old]
        if not old.startswith("_"):
            warnings.warn(
                f"{fullname} is now {new}; the old name goes in robomodel 0.3",
                DeprecationWarning,
                stacklevel=2,
            )
        module = importlib.import_module(new)
        _enter_submodules(fullname, module)
        return importlib.machinery.ModuleSpec(fullname, _Existing(module))


def _enter_submodules(old: str, package: ModuleType) -> None:
    """Enter every submodule of ``package`` in ``sys.modules`` under ``old``'s name as well."""
    extra = {
        "robomodel." + k: "robomodel." + v
        for k, v in _SUBMODULES.items()
        if "robomodel." + k.partition(".")[0] == old
    }
    for old_name, new_name in extra.items():
        sys.modules.setdefault(old_name, importlib.import_module(new_name))
    if not hasattr(package, "__path__"):
        return
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        sys.modules.setdefault(old + info.name[len(package.__name__) :], module)
