"""The documentation: its examples run, the site builds strictly, and a browser shows the API.

* Every ``python`` code block of ``docs/*.md`` and ``README.md`` runs as pasted; the blocks of
  one page share their names, in page order; blocks with ``>>>`` prompts are doctests.
* ``mkdocs build --strict`` (Material theme, mkdocstrings) must pass; it needs the ``docs``
  extra and is skipped without it.
* The API reference is one page per public package (``docs/api/``), generated from the
  package's ``__all__``: every exported name has its entry there.
* The built transformers page, opened in headless Chromium (Debian's ``chromium`` package), must
  list ``reduce_model``; skipped when no Chromium is installed.
* The docstrings' Sphinx roles (``:class:`Model```) become links on the API pages
  (``docs/griffe_roles.py``); none is left as text.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from robomodel.errors import RobomodelWarning

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
EXAMPLE_PAGES = [*PAGES, ROOT / "README.md"]
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_docs_exist() -> None:
    assert (DOCS / "index.md").is_file() and (ROOT / "mkdocs.yml").is_file()
    nav = re.findall(r":\s*([\w./-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    missing = [page for page in nav if not (DOCS / page).is_file()]
    assert not missing, f"pages in the mkdocs nav that do not exist: {missing}"


#: Pages whose examples are known to fail, with the reason; the lead removes an entry once the
#: page's owner has fixed it. Every other page must run as pasted.
KNOWN_FAILING: dict[str, str] = {}


def _blocks(page: Path) -> list[tuple[int, str]]:
    """The page's ``python`` blocks, each with the page line its code starts on."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m[1]) for m in FENCE.finditer(text)]


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=[p.name for p in EXAMPLE_PAGES])
def test_examples_in_docs_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ``python`` block of the page runs as pasted, in page order, in one namespace.

    Blocks with ``>>>`` prompts are doctests and must also print what is written under them;
    other blocks are executed. They run in an empty directory, so whatever they write is
    temporary, and on the models they load themselves (the bundled model or icub-models).
    """
    if page.name in KNOWN_FAILING:
        pytest.skip(KNOWN_FAILING[page.name])
    monkeypatch.chdir(tmp_path)
    names: dict[str, object] = {"__name__": f"docs.{page.stem}"}
    parser = doctest.DocTestParser()
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    with warnings.catch_warnings():
        # A page may show a warning to its reader (a dropped sensor); anything else is an error.
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", RobomodelWarning)
        # iDynTree's SWIG bindings warn while their extension initialises; raised as an error
        # there, the interpreter crashes instead (see pyproject's filterwarnings).
        warnings.filterwarnings("ignore", "builtin type [Ss]wig", DeprecationWarning)
        for line, block in _blocks(page):
            where = f"{page.name}:{line}"
            if ">>>" in block:
                test = parser.get_doctest(block, names, where, str(page), line - 1)
                failed = runner.run(test, out=report.append, clear_globs=False).failed
                assert not failed, f"{where}: {failed} failing doctest(s)\n" + "".join(report)
                names = test.globs
                continue
            try:
                exec(compile(block, where, "exec"), names)
            except Exception as error:
                pytest.fail(f"{where}: the example raised {type(error).__name__}: {error}")


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
    (out / "build.log").write_text(p.stdout + p.stderr, encoding="utf-8")
    return out


RAW_ROLE = re.compile(r":(?:class|func|mod|meth|attr|data|exc|obj):`")


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


#: The public packages, each with its API page (``docs/api/<page>.md``).
API_PAGES = {
    "robomodel.model": "model",
    "robomodel.physics": "physics",
    "robomodel.transformers": "transformers",
    "robomodel.identification": "identification",
    "robomodel.formats": "formats",
    "robomodel.formats.urdf": "formats.urdf",
    "robomodel.formats.mjcf": "formats.mjcf",
    "robomodel.formats.sdf": "formats.sdf",
    "robomodel.formats.usd": "formats.usd",
    "robomodel.formats.dh": "formats.dh",
    "robomodel.tools": "tools",
    "robomodel.errors": "errors",
    "robomodel.testing": "testing",
    "robomodel.cli": "cli",
}


def _api_pages(site: Path) -> dict[str, str]:
    return {
        page.parent.name: page.read_text(encoding="utf-8")
        for page in sorted((site / "api").glob("*/index.html"))
    }


def test_mkdocs_build_strict(site: Path) -> None:
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "robomodel" in index
    api = (site / "api" / "transformers" / "index.html").read_text(encoding="utf-8")
    assert 'id="robomodel.transformers.reduce_model"' in api


def test_api_pages_show_every_export(site: Path) -> None:
    """Each public package's page has an entry for every name of its ``__all__``; the top
    package's names are each exported by one of the packages whose page documents them."""
    import importlib

    import robomodel

    pages = _api_pages(site)
    assert set(pages) == {*API_PAGES.values(), "robomodel"}
    for package, page in API_PAGES.items():
        module = importlib.import_module(package)
        missing = []
        for name in module.__all__:
            obj = getattr(module, name)
            # A function sharing its name with a module of the package is shown at its home.
            home = f"{getattr(obj, '__module__', package)}.{name}"
            if f'id="{package}.{name}"' not in pages[page] and f'id="{home}"' not in pages[page]:
                missing.append(name)
        assert not missing, f"docs/api/{page}.md does not show {package}'s {missing}"
    homes = {
        name
        for package in ("robomodel.model", "robomodel.physics", "robomodel.errors")
        for name in importlib.import_module(package).__all__
    }
    assert set(robomodel.__all__) <= homes, set(robomodel.__all__) - homes


def test_api_roles_are_links(site: Path) -> None:
    """No Sphinx role is left as text; roles in prose became autorefs links to their target."""
    for name, html in _api_pages(site).items():
        assert not RAW_ROLE.findall(_text(html)), (name, RAW_ROLE.findall(_text(html))[:5])
    api = (site / "api" / "transformers" / "index.html").read_text(encoding="utf-8")
    # ":func:`pipeline`" in robomodel/transformers/pipeline.py's docstring, resolved in its module.
    assert re.search(
        r'<a class="autorefs autorefs-internal"[^>]*href="#robomodel\.transformers\.pipeline'
        r'\.pipeline"[^>]*><code>pipeline\(\)</code></a>',
        api,
    )
    # ":class:`~robomodel.model.record.Model`": the tilde shows the last component only; the
    # link leads to the model page, where robomodel.model exports it.
    assert re.search(
        r'<a class="autorefs autorefs-internal"[^>]*href="\.\./model/#robomodel\.model\.Model"'
        r"[^>]*><code>Model</code></a>",
        _api_pages(site)["formats"],
    )
    log = (site / "build.log").read_text(encoding="utf-8")
    counts = re.search(r"griffe_roles: (\d+) of the (\d+) reference\(s\) in rendered", log)
    assert counts, log[-2000:]
    shown_as_code, rendered = int(counts[1]), int(counts[2])
    # Most roles the pages show name public, rendered objects; only private helpers, modules
    # without a page of their own and the standard library stay code.
    assert rendered > 100 and shown_as_code < rendered / 4, (shown_as_code, rendered)


def test_role_rewriting_rules() -> None:
    """The extension's rules on the real package: scope lookup, ``~``, titles, fallbacks."""
    import griffe

    sys.path.insert(0, str(DOCS))
    try:
        import griffe_roles
    finally:
        sys.path.remove(str(DOCS))
    ext = griffe_roles.CrossReferences()
    pkg = griffe.load("robomodel", search_paths=[str(ROOT)], resolve_aliases=False)
    fn = pkg["transformers.pipeline.pipeline"]
    fn.docstring = griffe.Docstring(
        ":func:`explain` :class:`~robomodel.model.record.Model` :func:`functools.partial` "
        ":meth:`the problems <robomodel.model.record.Model.problems>` "
        ":mod:`robomodel.formats.urdf` :mod:`robomodel.formats.urdf.errors` "
        ":class:`robomodel.model.topology.ModelIndex` :class:`ModelError`",
        parent=fn,
    )
    griffe_roles.UNRESOLVED.clear()
    ext.on_package(pkg=pkg)
    assert fn.docstring.value == (
        "[`explain()`][robomodel.transformers.pipeline.explain] "
        "[`Model`][robomodel.model.record.Model] "
        "`functools.partial()` [`the problems`][robomodel.model.record.Model.problems] "
        "[`robomodel.formats.urdf`][robomodel.formats.urdf] `robomodel.formats.urdf.errors` "
        "`robomodel.model.topology.ModelIndex` "
        "[`ModelError`][robomodel.errors.ModelError]"
    )
    # Counted (the package's own docstrings add their references to the same counter).
    assert griffe_roles.UNRESOLVED["functools.partial"] >= 1
    assert griffe_roles.UNRESOLVED["robomodel.model.topology.ModelIndex"] >= 1
    # A module that only defines what its package exports has no page of its own.
    assert griffe_roles.UNRESOLVED["robomodel.formats.urdf.errors"] >= 1
    assert "robomodel.model.record.Model" not in griffe_roles.UNRESOLVED


def test_api_page_in_headless_chromium(site: Path, tmp_path: Path) -> None:
    browser = _chromium()
    if browser is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    dom: dict[str, str] = {}
    for page in ("index.html", "api/transformers/index.html"):
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
    api = dom["api/transformers/index.html"]
    assert 'id="robomodel.transformers.reduce_model"' in api
    assert "reduce_model" in _text(api)
    assert not RAW_ROLE.findall(_text(api))


def test_readme_quick_start_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's quick-start snippet runs as written and writes the file it says."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install -e . && robomodel demo" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    snippet = FENCE.findall(readme)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, "README.md", "exec"), {"__name__": "readme"})
    assert (tmp_path / "legs.urdf").stat().st_size > 0
