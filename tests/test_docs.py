"""The documentation: its examples run, the site builds strictly, and a browser shows the API.

* Every ``python`` code block with ``>>>`` prompts in ``docs/*.md`` is a doctest; the blocks of
  one page share their names, in page order.
* ``mkdocs build --strict`` (Material theme, mkdocstrings) must pass; it needs the ``docs``
  extra and is skipped without it.
* The built API page, opened in headless Chromium (Debian's ``chromium`` package), must list
  ``reduce_model``; skipped when no Chromium is installed.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_docs_exist() -> None:
    assert (DOCS / "index.md").is_file() and (ROOT / "mkdocs.yml").is_file()
    nav = re.findall(r":\s*([\w-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    missing = [page for page in nav if not (DOCS / page).is_file()]
    assert not missing, f"pages in the mkdocs nav that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_examples_in_docs_run(page: Path) -> None:
    """Every ``>>>`` example of the page gives the output written under it."""
    blocks = FENCE.findall(page.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    names: dict[str, object] = {"__name__": f"docs.{page.stem}"}
    for k, block in enumerate(blocks):
        if ">>>" not in block:
            continue
        test = parser.get_doctest(block, names, f"{page.name}[block {k}]", str(page), 0)
        runner.run(test, clear_globs=False)
        names = test.globs
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} failing example(s) in {page.name} (see above)"


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            pytest.skip(f"{module} is not installed (pip install -e '.[docs]')")
        if "." in module and importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    p = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert p.returncode == 0, p.stdout + p.stderr
    return out


def test_mkdocs_build_strict(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "robomodel" in index
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="robomodel.transformers.reduce.reduce_model"' in api


def test_api_page_in_headless_chromium(site: Path, tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    dom: dict[str, str] = {}
    for page in ("index.html", "api/index.html"):
        p = subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                f"--user-data-dir={tmp_path / 'profile'}",
                "--dump-dom",
                (site / page).as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert p.returncode == 0, p.stderr[-2000:]
        dom[page] = p.stdout
    # The browser ran the page: Material's script fills the header and the search box.
    assert "<title>robomodel</title>" in dom["index.html"]
    assert "Getting started" in dom["index.html"]
    api = dom["api/index.html"]
    assert 'id="robomodel.transformers.reduce.reduce_model"' in api
    assert "reduce_model" in re.sub(r"<[^>]+>", " ", api)


def test_readme_quick_start_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's quick-start snippet runs as written and writes the file it says."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -e . && robomodel demo" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    snippet = FENCE.findall(readme)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "README.md", "exec"), {"__name__": "readme"})
    assert (tmp_path / "legs.urdf").stat().st_size > 0
