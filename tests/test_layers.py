"""The package's layers hold: each module imports only its own layer and the layers below, no import cycle, and the
wings stay on the jobs layer and the public API (PLAN: base < runtime < stages < api < jobs < wings < cli).

The imports are read from the source (ast), every one of them: at module level, inside functions, and under
``if TYPE_CHECKING:``. The checks are run on small made-up packages first, so that each is seen to fail.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pyxform"

#: The layers, bottom first. ``pyxform`` itself (``__init__``: the public names) is the API layer.
LAYERS = ("base", "runtime", "stages", "api", "jobs", "wings", "cli")
#: What a wing may import besides itself: the jobs layer and the public API (``pyxform``, ``pyxform.api``, and
#: ``pyxform.base`` for errors, limits, sources and fetching).
WING_MAY_IMPORT = ("pyxform.base", "pyxform.api", "pyxform.jobs")


def modules(package: Path) -> dict[str, Path]:
    """Every module of a package folder by dotted name (a package by its own name, for its ``__init__``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> Iterator[tuple[str, int]]:
    """``(imported module, line)`` for every import of the package's own modules in one module."""
    top = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == top:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != top:
                continue
            for alias in node.names:  # `from pkg import module` imports the module, else the package's name
                yield (f"{target}.{alias.name}" if f"{target}.{alias.name}" in known else target), node.lineno


def layer(name: str) -> int | None:
    """The layer of a module (an index into :data:`LAYERS`), or ``None`` for one that belongs to none."""
    parts = name.split(".")
    if len(parts) == 1:
        return LAYERS.index("api")
    if parts[1] == "__main__":
        return LAYERS.index("cli")
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else None


def graph(package: Path) -> dict[str, list[tuple[str, int]]]:
    found = modules(package)
    known = set(found)
    return {name: [(target, line) for target, line in imports(name, path, known) if target != name]
            for name, path in found.items()}


def violations(package: Path) -> list[str]:
    """Every module outside the layers, upward import, and import of a wing that leaves the jobs layer and the
    public API (another wing, the command line, the runtime, a stage)."""
    problems = []
    for name, targets in graph(package).items():
        if layer(name) is None:
            problems.append(f"{name} belongs to no layer ({', '.join(LAYERS)})")
            continue
        wing = ".".join(name.split(".")[:3]) if name.split(".")[1:2] == ["wings"] else None
        for target, line in targets:
            where = f"{name}:{line} imports {target}"
            if layer(target) is not None and layer(target) > layer(name):  # type: ignore[operator]
                problems.append(f"{where}, a layer above ({LAYERS[layer(target)]} > {LAYERS[layer(name)]})")  # type: ignore[index]
            elif wing and not (target == wing or target.startswith(wing + ".") or target == package.name
                               or any(target == allowed or target.startswith(allowed + ".")
                                      for allowed in WING_MAY_IMPORT)):
                problems.append(f"{where}: a wing imports only itself, pyxform.jobs and the public API")
    return problems


def cycles(package: Path) -> list[list[str]]:
    """The import cycles: each strongly connected set of modules of more than one (Tarjan)."""
    edges = {name: sorted({target for target, _ in targets}) for name, targets in graph(package).items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, []):
            if target not in edges:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in edges:
        if node not in index:
            visit(node)
    return found


# -- the checks fail where they should --------------------------------------------------------------------------------
def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = tmp_path / "pyxform" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "pyxform"


def test_an_upward_import_is_found_also_in_a_function_and_under_type_checking(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "", "base/__init__.py": "", "stages/__init__.py": "", "api/__init__.py": "",
        "base/errors.py": "def f():\n    from ..stages import normalize\n",
        "stages/normalize.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..api.convert import X\n",
        "api/convert.py": "from ..base.errors import E\nfrom pyxform.stages.normalize import grid\n",
    })
    assert violations(package) == [
        "pyxform.base.errors:2 imports pyxform.stages.normalize, a layer above (stages > base)",
        "pyxform.stages.normalize:3 imports pyxform.api.convert, a layer above (api > stages)"]


def test_a_cycle_is_found_within_a_layer_and_through_a_package(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "", "jobs/__init__.py": "from .page import run_page\n",
        "jobs/page.py": "from . import options\n", "jobs/options.py": "from .page import x\n",
        "jobs/worker.py": "import pyxform.jobs\n", "jobs/loop.py": "from .worker import W\n",
    })
    assert violations(package) == []
    assert cycles(package) == [["pyxform.jobs.options", "pyxform.jobs.page"]]
    (package / "jobs" / "__init__.py").write_text("from .worker import W\n")
    assert sorted(cycles(package)) == [["pyxform.jobs", "pyxform.jobs.worker"],
                                       ["pyxform.jobs.options", "pyxform.jobs.page"]]


def test_a_wing_keeps_to_the_jobs_layer_and_the_public_api(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "", "wings/__init__.py": "", "wings/crawl/__init__.py": "", "wings/batch/__init__.py": "",
        "wings/crawl/loop.py": ("import pyxform\nfrom pyxform.jobs import Worker\nfrom pyxform.base.errors import E\n"
                                "from pyxform.api.convert import convert\nfrom . import store\n"),
        "wings/crawl/store.py": ("from ..batch import names\nfrom ...cli import main\nfrom ...stages import headers\n"
                                 "from ...runtime.saxon import S\n"),
        "stray.py": "",
    })
    assert violations(package) == [
        "pyxform.stray belongs to no layer (base, runtime, stages, api, jobs, wings, cli)",
        "pyxform.wings.crawl.store:1 imports pyxform.wings.batch: a wing imports only itself, pyxform.jobs and the "
        "public API",
        "pyxform.wings.crawl.store:2 imports pyxform.cli, a layer above (cli > wings)",
        "pyxform.wings.crawl.store:3 imports pyxform.stages: a wing imports only itself, pyxform.jobs and the public "
        "API",
        "pyxform.wings.crawl.store:4 imports pyxform.runtime.saxon: a wing imports only itself, pyxform.jobs and the "
        "public API"]


# -- the package --------------------------------------------------------------------------------------------------------
def test_every_module_imports_only_its_layer_and_those_below() -> None:
    assert violations(PACKAGE) == []


def test_no_import_cycle() -> None:
    assert cycles(PACKAGE) == []


def test_the_layers_are_folders() -> None:
    folders = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert {"base", "runtime", "stages", "api", "jobs", "cli"} <= folders <= set(LAYERS)
    assert {path.name for path in PACKAGE.glob("*.py")} == {"__init__.py", "__main__.py"}


def test_every_package_is_installed() -> None:
    """pyproject.toml lists each package (setuptools installs only those): a new one is not forgotten."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    packages = {".".join(path.parent.relative_to(ROOT).parts) for path in PACKAGE.rglob("__init__.py")}
    assert packages <= listed


@pytest.mark.parametrize("name", sorted(modules(PACKAGE)))
def test_modules_are_small(name: str) -> None:
    """A module holds one job: under ~500 lines (a command-line module under ~400), or its docstring says why."""
    path = modules(PACKAGE)[name]
    text = path.read_text(encoding="utf-8")
    limit = 400 if name.startswith("pyxform.cli") else 500
    docstring = ast.get_docstring(ast.parse(text)) or ""
    assert len(text.splitlines()) <= limit or "lines because" in docstring, f"{path}: {len(text.splitlines())} lines"


@pytest.mark.parametrize("path", sorted((ROOT / "stylesheets").rglob("*.xsl")), ids=lambda path: path.name)
def test_stylesheet_modules_are_small(path: Path) -> None:
    """A stylesheet module holds one mode or one family of functions: under ~500 lines, as a Python module."""
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500, f"{path}: split it by mode or by function family"
