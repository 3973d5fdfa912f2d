"""The public surface: what each public package exports in ``__all__``, and nothing private.

The API reference (``docs/api/``) is generated from these lists, so a name missing here is
missing from the docs, and a private helper listed here would be documented as API.
"""

from __future__ import annotations

import importlib
import types

import pytest

PACKAGES = [
    "robomodel",
    "robomodel.model",
    "robomodel.physics",
    "robomodel.transformers",
    "robomodel.identification",
    "robomodel.formats",
    "robomodel.formats.urdf",
    "robomodel.formats.mjcf",
    "robomodel.formats.sdf",
    "robomodel.formats.dh",
    "robomodel.tools",
    "robomodel.cli",
]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_export_exists_and_is_public(name: str) -> None:
    """Each name of ``__all__`` is bound in the package, public, and no module object."""
    package = importlib.import_module(name)
    exports = package.__all__
    assert len(exports) == len(set(exports)), name
    for export in exports:
        assert not export.startswith("_"), (name, export)
        value = getattr(package, export)
        assert not isinstance(value, types.ModuleType), (name, export)


@pytest.mark.parametrize("name", PACKAGES)
def test_exports_come_from_public_layers(name: str) -> None:
    """No package exports something defined in ``robomodel._internal`` (the unchecked paths)."""
    package = importlib.import_module(name)
    for export in package.__all__:
        module = getattr(getattr(package, export), "__module__", None) or ""
        assert not module.startswith("robomodel._internal"), (name, export, module)


def test_the_command_line_exports_only_main() -> None:
    import robomodel.cli

    assert robomodel.cli.__all__ == ["main"]


def test_internal_helpers_are_not_exported() -> None:
    import robomodel.model

    assert "memoized" not in robomodel.model.__all__
    assert not hasattr(robomodel.model, "memoized")


def test_the_top_package_re_exports_from_the_packages() -> None:
    """``robomodel``'s names are each exported by the package that documents them."""
    import robomodel

    homes = {
        export
        for name in ("robomodel.model", "robomodel.physics", "robomodel.errors")
        for export in importlib.import_module(name).__all__
    }
    assert set(robomodel.__all__) <= homes, set(robomodel.__all__) - homes
