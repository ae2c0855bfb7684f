"""The package's layout holds (docs/ARCHITECTURE.md): small modules, a short top level, no
import circle, one public path per name, and the command line over the public faces only.

Read from the source (``ast``) and from import-linter's graph (``grimp``), so nothing here
depends on which extras are installed.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import grimp
import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "emprivacy"
MAX_LINES = 500
MAX_TOP_LEVEL_MODULES = 10


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(parts), path


def _is_package(module: str) -> bool:
    return (SRC.joinpath(*module.split(".")) / "__init__.py").is_file()


def test_no_module_over_500_lines() -> None:
    long = {name: n for name, path in _modules()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines (split them by concern): {long}"


def test_top_level_holds_few_modules_besides_packages() -> None:
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(modules) <= MAX_TOP_LEVEL_MODULES, modules


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v) & modules:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return found


def test_no_import_circle_type_only_imports_included() -> None:
    graph = grimp.build_graph("emprivacy", exclude_type_checking_imports=False)
    # a package's __init__ importing its own submodules is not a circle of concepts
    modules = {m for m in graph.modules if not _is_package(m)}
    assert _cycles(graph, modules) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    class Graph:
        edges: ClassVar[dict[str, set[str]]] = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

        def find_modules_directly_imported_by(self, module: str) -> set[str]:
            return self.edges[module]

    assert _cycles(Graph(), {"a", "b", "c", "d"}) == [["a", "b", "c"]]  # type: ignore[arg-type]


def _public_names(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if (isinstance(node, ast.Assign | ast.AnnAssign)
                and any(isinstance(t, ast.Name) and t.id == "__all__"
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
                and isinstance(node.value, ast.List | ast.Tuple)):
            return [e.value for e in node.value.elts if isinstance(e, ast.Constant)]
    return []


def _sources(module: str, tree: ast.Module) -> dict[str, set[str]]:
    """Where each name of ``module`` comes from: ``module`` itself, the module of a
    ``from X import name`` (anywhere, ``TYPE_CHECKING`` blocks included), or the submodule of
    a lazy export (``_EXPORTS = {name: "sub"}``)."""
    package = module if _is_package(module) else module.rpartition(".")[0]
    found: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], node.module])
            for alias in node.names:
                found.setdefault(alias.asname or alias.name, set()).add(base)
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if (any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in targets)
                    and isinstance(node.value, ast.Dict)):
                for key, value in zip(node.value.keys, node.value.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                        found.setdefault(key.value, set()).add(f"{package}.{value.value}")
    for node in _module_level(tree.body):
        if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            found.setdefault(node.name, set()).add(module)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for name in ast.walk(t):
                    if isinstance(name, ast.Name):
                        found.setdefault(name.id, set()).add(module)
    return found


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements run at import: the module's, and those inside its ``if``/``try``."""
    for node in body:
        yield node
        if isinstance(node, ast.If | ast.Try):
            for part in (node.body, node.orelse, *([node.finalbody]
                         + [h.body for h in node.handlers] if isinstance(node, ast.Try) else [])):
                yield from _module_level(part)


def second_public_paths() -> list[str]:
    """Public names that a module re-exports from a module that is not below it: a second
    import path to one thing (``emprivacy.pandas`` beside ``emprivacy.tables.pandas``)."""
    problems = []
    for module, path in _modules():
        if any(part.startswith("_") for part in module.split(".")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        sources = _sources(module, tree)
        if any(isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
               for n in ast.walk(tree)):
            problems.append(f"{module}: a star import re-exports another module's names")
        for name in _public_names(tree):
            origins = sources.get(name, set())
            if not origins:
                problems.append(f"{module}.{name}: in __all__ but not defined or imported")
            elif not any(o == module or o.startswith(module + ".") for o in origins):
                problems.append(f"{module}.{name}: re-exported from {sorted(origins)}, "
                                "which is not below it")
    return problems


def test_one_public_path_per_name() -> None:
    assert second_public_paths() == []


@pytest.mark.parametrize(("module", "source", "name", "bad"), [
    ("emprivacy.tables", "from emprivacy.tables.batch import privatize_texts", "privatize_texts",
     False),
    ("emprivacy.tables", "from emprivacy.io.corpus import Document", "Document", True),
    ("emprivacy.tables", "_EXPORTS = {'f': 'batch'}", "f", False),
    ("emprivacy.tables", "x = 1", "x", False),
])
def test_a_second_public_path_is_recognised(module: str, source: str, name: str,
                                            bad: bool) -> None:
    origins = _sources(module, ast.parse(source))[name]
    assert (not any(o == module or o.startswith(module + ".") for o in origins)) is bad


def _faces() -> set[str]:
    """What the command line may import: the package's top-level face, the face of each of
    its packages (their ``__init__``), ``emprivacy.exceptions``, and the command line's own
    modules."""
    faces = {"emprivacy", "emprivacy.exceptions"}
    faces |= {m for m, _ in _modules() if _is_package(m) and m.count(".") == 1}
    return faces


def test_cli_imports_only_the_public_faces() -> None:
    faces = _faces()
    offending = []
    for module, path in _modules():
        if not module.startswith("emprivacy.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                target = node.module
                if (target.startswith("emprivacy") and not target.startswith("emprivacy.cli")
                        and target not in faces):
                    offending.append(f"{module} imports {target}")
                if target in faces and target != "emprivacy.cli":
                    offending += [f"{module} imports the private {target}.{a.name}"
                                  for a in node.names if a.name.startswith("_")]
    assert offending == []


def _faces_of_packages() -> list[str]:
    return [m for m, _ in _modules() if _is_package(m)]


@pytest.mark.parametrize("package", _faces_of_packages())
def test_every_name_of_a_package_face_resolves(package: str) -> None:
    """A lazy export that names the wrong submodule fails only when it is looked up: look
    each one up."""
    module = importlib.import_module(package)
    missing = [name for name in getattr(module, "__all__", []) if not hasattr(module, name)]
    assert missing == []


def _architecture_sections() -> dict[str, str]:
    """docs/ARCHITECTURE.md's ``### `pkg/` `` sections: package -> its text."""
    text = (SRC.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    sections: dict[str, str] = {}
    for chunk in text.split("\n### `")[1:]:
        name, _, body = chunk.partition("`")
        sections[name.rstrip("/")] = body.split("\n## ")[0]
    return sections


def test_architecture_names_every_package_and_module() -> None:
    """Each first-level package has its section, which names each of its modules and
    sub-packages; no section names a package that is not there."""
    sections = _architecture_sections()
    packages = {p.name for p in PACKAGE.iterdir()
                if (p / "__init__.py").is_file()}
    assert set(sections) == packages
    missing = []
    for package in sorted(packages):
        for path in sorted((PACKAGE / package).rglob("*.py")):
            name = path.stem if path.stem != "__init__" else path.parent.name
            if name == package:
                continue
            if f"`{name}`" not in sections[package] and f"`{name}/`" not in sections[package]:
                missing.append(f"{package}/{path.relative_to(PACKAGE / package)}")
    assert missing == []
