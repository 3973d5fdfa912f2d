"""Griffe extension used by the docs build: show docstring doctests as Python code blocks.

robomodel's docstrings carry ``>>>`` examples in their text (pytest runs them). Markdown would
read them as nested quotes and their list outputs (``['a', 'b']``) as link references, so each
doctest block (a ``>>>`` line up to the next blank line) is fenced as ``pycon`` code.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Return ``text`` with every doctest block wrapped in a fenced ``pycon`` code block."""
    out: list[str] = []
    inside = False
    indent = ""
    fenced = False
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("```"):
            fenced = not fenced
        if not inside and not fenced and stripped.startswith(">>>"):
            inside = True
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the doctest blocks of every docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of each object as it is loaded."""
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
