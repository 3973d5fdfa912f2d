"""No library call changes process-wide state: a scan of the package's code for the calls that do.

``warnings.catch_warnings``/``simplefilter``/``filterwarnings`` swap the process-wide warning
filters (not thread-safe: another thread's warnings are caught or lost meanwhile);
``np.seterr``/``np.set_printoptions`` change numpy's global state; ``gc`` switches, ``os.chdir``
and ``sys.setrecursionlimit`` are process-wide too. ``np.errstate`` is allowed: numpy keeps its
error state per thread (in a context variable since numpy 2.0, in thread-local storage before),
so it changes nothing another thread sees. The command line (``robomodel/cli``) is the program
itself, which owns its process: its ``main`` turns warnings into stderr lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "robomodel"

FORBIDDEN = {
    ("warnings", "catch_warnings"),
    ("warnings", "simplefilter"),
    ("warnings", "filterwarnings"),
    ("warnings", "resetwarnings"),
    ("np", "seterr"),
    ("numpy", "seterr"),
    ("np", "seterrcall"),
    ("np", "set_printoptions"),
    ("numpy", "set_printoptions"),
    ("gc", "disable"),
    ("gc", "enable"),
    ("gc", "freeze"),
    ("gc", "set_threshold"),
    ("os", "chdir"),
    ("sys", "setrecursionlimit"),
    ("sys", "setswitchinterval"),
}


def _library_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "cli" not in p.relative_to(PACKAGE).parts)


def calls(path: Path) -> list[str]:
    """``module.function`` of every forbidden call (or reference) in ``path``'s code."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.value.id, node.attr) in FORBIDDEN
        ):
            found.append(f"{path}:{node.lineno}: {node.value.id}.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in {"warnings", "gc", "os", "sys"}:
            found += [
                f"{path}:{node.lineno}: from {node.module} import {a.name}"
                for a in node.names
                if (node.module, a.name) in FORBIDDEN
            ]
    return found


def test_no_library_module_changes_process_wide_state() -> None:
    offending = [c for p in _library_files() for c in calls(p)]
    assert not offending, "\n".join(offending)


def test_the_scan_finds_a_forbidden_call(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import warnings\nimport numpy as np\nfrom os import chdir\n"
        "with warnings.catch_warnings():\n    np.seterr(all='ignore')\n"
        "with np.errstate(all='ignore'):\n    pass\n"
    )
    found = sorted(c.rsplit(": ", 1)[1] for c in calls(probe))
    assert found == ["from os import chdir", "np.seterr", "warnings.catch_warnings"]


def test_mjcf_load_leaves_the_warning_filters_alone() -> None:
    """The MJCF reader once swapped the filters around MuJoCo's compiler."""
    pytest.importorskip("mujoco")
    import warnings

    from robomodel.formats import mjcf

    before = list(warnings.filters)
    shown = warnings.showwarning
    mjcf.loads_with_report(
        '<mujoco><worldbody><body name="a"><joint name="j" axis="0 0 1"/>'
        '<inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body></worldbody></mujoco>'
    )
    assert warnings.filters == before and warnings.showwarning is shown
