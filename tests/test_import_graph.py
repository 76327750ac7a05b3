"""The project's import graph, read from the source with :mod:`ast`: the layers hold (``rules``
imports nothing of the other packages, ``vision`` only ``rules``, ``hardware`` and
``firmware_bridge`` never ``tabletop``), and the modules of ``tabletop/benchmarks/`` and of
``tabletop/session/`` import one another without a cycle.

What counts as an import: every ``import`` and ``from ... import`` statement in a module,
at module level *and* inside functions, classes, ``try`` and ``if`` blocks, since a function's
import runs as soon as the function does. Left out:

* imports under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``): they never run, they only
  name types for mypy (their ``else:`` branch does run, and counts);
* imports in docstring examples (doctests are text, not code);
* imports by name at run time (``importlib.import_module(f"...{name}")``): the game registry and
  ``tabletop bench`` find their modules that way, by design.

``tests/test_layer_contracts.py`` checks the same layers by importing every module.
"""

from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass
from typing import Iterable, Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "vision", "hardware", "firmware_bridge", "tabletop")

#: package -> the project's packages it must never import (each package's docstring says so)
LAYERS = {
    "rules": ("vision", "hardware", "firmware_bridge", "tabletop"),
    "vision": ("hardware", "firmware_bridge", "tabletop"),          # ``rules`` only
    "hardware": ("rules", "vision", "firmware_bridge", "tabletop"),
    "firmware_bridge": ("vision", "hardware", "tabletop"),
}

BENCHMARKS = "tabletop.benchmarks"
#: the benchmark modules every other one may import (shared helpers: statistics, scenes, answered photos);
#: they import no benchmark module themselves
BENCHMARK_HELPERS = {f"{BENCHMARKS}.stats", f"{BENCHMARKS}.scenes", f"{BENCHMARKS}.answered"}
#: the benchmarks made of parts, and the parts each runs (a part never imports its whole)
BENCHMARK_PARTS = {
    f"{BENCHMARKS}.vision": {f"{BENCHMARKS}.{part}"
                             for part in ("answers", "chips", "dice", "farboards", "glare", "hands", "outsider", "taps", "tiles",
                                          "ukrainian")},
    f"{BENCHMARKS}.rules": {f"{BENCHMARKS}.questique_moves"},
    f"{BENCHMARKS}.tiles": {f"{BENCHMARKS}.tile_photos"},
    f"{BENCHMARKS}.dice": {f"{BENCHMARKS}.plaindice", f"{BENCHMARKS}.piece_photos"},
    f"{BENCHMARKS}.chips": {f"{BENCHMARKS}.piece_photos"},
    f"{BENCHMARKS}.piece_photos": {f"{BENCHMARKS}.plaindice"},
}


@dataclass(frozen=True)
class Import:
    """One import statement's edge: ``source`` imports ``target`` at ``line``."""

    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} (line {self.line})"


def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    """``tabletop/benchmarks/stats.py`` -> ``tabletop.benchmarks.stats``; a package's
    ``__init__.py`` is the package.

    >>> module_name(ROOT / "tabletop" / "session" / "__init__.py")
    'tabletop.session'
    """
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: pathlib.Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, pathlib.Path]:
    """Every module of ``packages`` under ``root``, by name (firmware build output left out)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "build" not in path.relative_to(root).parts:
                found[module_name(path, root)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
           (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, in functions too, but not under ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for branch in child.orelse:
                yield from _import_nodes(ast.Module(body=[branch], type_ignores=[]))
        else:
            yield from _import_nodes(child)


def imports_of(name: str, source: str, modules: Iterable[str], is_package: bool = False) -> list[Import]:
    """The project modules ``name`` imports (of ``modules``), from its ``source``.

    ``from p import m`` imports the module ``p.m`` when there is one, else ``p``; a relative
    import is resolved against ``name``'s package.

    >>> src = "import a.b\\nfrom a import c, f\\nif TYPE_CHECKING:\\n    import a.d\\ndef g():\\n    from .e import x\\n"
    >>> [str(i) for i in imports_of("a.m", src, ["a", "a.b", "a.c", "a.d", "a.e"])]
    ['a.m -> a.b (line 1)', 'a.m -> a.c (line 2)', 'a.m -> a (line 2)', 'a.m -> a.e (line 6)']
    """
    known = set(modules)
    package = name if is_package else name.rpartition(".")[0]
    found: list[Import] = []

    def owner(dotted: str) -> str | None:
        """The longest name of a project module that ``dotted`` is or lies in."""
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    for node in _import_nodes(ast.parse(source)):
        targets: list[str | None] = []
        if isinstance(node, ast.Import):
            targets = [owner(alias.name) for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in known else owner(base))
        for target in dict.fromkeys(targets):
            if target is not None and target != name:
                found.append(Import(name, target, node.lineno))
    return found


def import_graph(root: pathlib.Path = ROOT) -> list[Import]:
    """Every import edge among the project's modules."""
    modules = project_modules(root)
    edges: list[Import] = []
    for name, path in modules.items():
        edges += imports_of(name, path.read_text(encoding="utf-8"), modules, path.name == "__init__.py")
    return edges


def cycles(edges: Iterable[Import], within: str) -> list[list[Import]]:
    """The import cycles among the modules under ``within`` (a package name): one cycle for each
    group of modules that import one another round (Tarjan's strongly connected components),
    as the edges that close it.

    >>> e = [Import("p.a", "p.b", 1), Import("p.b", "p.c", 2), Import("p.c", "p.a", 3), Import("p.c", "p.d", 4)]
    >>> [[str(i) for i in cycle] for cycle in cycles(e, "p")]
    [['p.a -> p.b (line 1)', 'p.b -> p.c (line 2)', 'p.c -> p.a (line 3)']]
    >>> cycles(e[:2], "p")
    []
    """
    def under(module: str) -> bool:
        return module == within or module.startswith(within + ".")

    inside = [e for e in edges if under(e.source) and under(e.target)]
    out: dict[str, list[Import]] = {}
    for e in inside:
        out.setdefault(e.source, []).append(e)
        out.setdefault(e.target, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for e in out[node]:
            if e.target not in index:
                visit(e.target)
                low[node] = min(low[node], low[e.target])
            elif e.target in stack:
                low[node] = min(low[node], index[e.target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(out):
        if node not in index:
            visit(node)
    return [_one_cycle(sorted(groups_members), out) for groups_members in sorted(groups)]


def _one_cycle(group: list[str], out: dict[str, list[Import]]) -> list[Import]:
    """A shortest round of imports from the group's first module back to it, within the group."""
    start, members = group[0], set(group)
    paths: dict[str, list[Import]] = {start: []}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for e in out[node]:
                if e.target == start:
                    return paths[node] + [e]
                if e.target in members and e.target not in paths:
                    paths[e.target] = paths[node] + [e]
                    following.append(e.target)
        frontier = following
    raise AssertionError(f"{group} is not a cycle")


def readable(found: list[list[Import]]) -> str:
    return "\n".join("import cycle:\n  " + "\n  ".join(str(e) for e in cycle) for cycle in found)


@pytest.fixture(scope="module")
def graph() -> list[Import]:
    return import_graph()


def test_the_graph_is_read_from_every_package(graph):
    sources = {e.source.split(".")[0] for e in graph}
    assert {"rules", "vision", "tabletop"} <= sources
    assert any(e.source == f"{BENCHMARKS}.vision" and e.target == f"{BENCHMARKS}.stats" for e in graph)
    # an import inside a function counts (bench rules' measure_letter_dice imports the game there)
    assert any(e.source == f"{BENCHMARKS}.rules" and e.target == "rules.letter_dice" for e in graph)


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_a_layer_imports_nothing_above_it(graph, package):
    wrong = [str(e) for e in graph
             if e.source.split(".")[0] == package and e.target.split(".")[0] in LAYERS[package]]
    assert not wrong, f"{package} must not import {', '.join(LAYERS[package])}:\n  " + "\n  ".join(wrong)


def test_the_benchmarks_import_one_another_without_a_cycle(graph):
    found = cycles(graph, BENCHMARKS)
    assert not found, readable(found)


def test_a_benchmark_imports_only_the_helpers_and_its_own_parts(graph):
    wrong = []
    for e in graph:
        if not (e.source.startswith(BENCHMARKS + ".") and e.target.startswith(BENCHMARKS + ".")):
            continue
        allowed = set() if e.source in BENCHMARK_HELPERS else BENCHMARK_HELPERS | BENCHMARK_PARTS.get(e.source, set())
        if e.target not in allowed:
            wrong.append(str(e))
    assert not wrong, "benchmark modules import only stats, scenes, answered and their declared parts:\n  " + "\n  ".join(wrong)


def test_the_session_imports_its_modules_without_a_cycle(graph):
    found = cycles(graph, "tabletop.session")
    assert not found, readable(found)


def test_the_application_imports_its_modules_without_a_cycle(graph):
    found = cycles(graph, "tabletop")
    assert not found, readable(found)


#: the application's layers, each above those it may import: running a table (tabletop.table) is
#: above the room of tables (which rebuilds games with the session's helpers and serves its own
#: page), the room above the pages, the pages above the session, the session above the games, the games above
#: the simulated players; nothing below imports what is above it
APP_LAYERS = ["tabletop.table", "tabletop.room", "tabletop.web", "tabletop.session", "tabletop.games", "tabletop.players"]


@pytest.mark.parametrize("lower", APP_LAYERS[1:])
def test_a_part_of_the_application_imports_nothing_above_it(graph, lower):
    above = APP_LAYERS[:APP_LAYERS.index(lower)]
    wrong = [str(e) for e in graph if (e.source == lower or e.source.startswith(lower + "."))
             and any(e.target == a or e.target.startswith(a + ".") for a in above)]
    assert not wrong, f"{lower} must not import {', '.join(above)}:\n  " + "\n  ".join(wrong)


def test_a_cycle_would_be_found_and_shown(tmp_path):
    """The checks can fail: a toy package whose modules import each other from inside a
    function, and one whose only import of the other is for the type checker."""
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from toy import b\n")
    (pkg / "b.py").write_text("def late():\n    from . import a\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy.a import x\n")
    modules = {module_name(p, tmp_path): p for p in sorted(pkg.glob("*.py"))}
    edges = [e for name, path in modules.items()
             for e in imports_of(name, path.read_text(), modules, path.name == "__init__.py")]
    assert readable(cycles(edges, "toy")) == "import cycle:\n  toy.a -> toy.b (line 1)\n  toy.b -> toy.a (line 2)"
    assert not [e for e in edges if e.source == "toy.c"]
