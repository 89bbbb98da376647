"""The package's imports, read with ``ast`` (imports inside functions too): no import cycle, and
no import that goes up a layer.

An import under ``if TYPE_CHECKING:`` names types for annotations and never runs: it must not
go up a layer either, but it makes no cycle.  A module is imported by name as well as by an
``import`` statement: a submodule reached as an attribute of an imported package (``fixes.declare``
after ``from jaxlint import fixes``: the package imports it on first use, jaxlint.on_demand) and a
string that names a module (what ``importlib.import_module`` is given) count as imports too.

Imports inside functions are few, and each says why it is there: a module that only some runs
need is loaded where it is used, and nothing else hides in a function.
"""

import ast
import os
import re
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

from clirun import ROOT
PACKAGE = "jaxlint"

# Bottom first: a module may import its own layer and the layers below.  A module belongs to the
# layer of the longest name that names it: the name itself or a package above it, except the
# packages whose parts are in several layers (BY_NAME_ONLY), which name only their ``__init__``.
LAYERS: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    # plain values and text, the standard library only: findings, paths, versions, source text
    # and its positions, fingerprints, selections, atomic writes, parse errors in words
    (
        "ground",
        (
            "jaxlint.findings",
            "jaxlint.paths",
            "jaxlint.versions",
            "jaxlint.source_text",
            "jaxlint.fingerprints",
            "jaxlint.selection",
            "jaxlint.atomic",
            "jaxlint.syntax_errors",
            "jaxlint.on_demand",
        ),
    ),
    # settings, selectors and suppression comments: the rule codes are given to them
    ("base", ("jaxlint.config", "jaxlint.selectors", "jaxlint.suppressions")),
    ("analysis.jax", ("jaxlint.analysis.jax",)),  # JAX and NumPy knowledge as data
    ("analysis.syntax", ("jaxlint.analysis", "jaxlint.analysis.syntax")),  # the one walk: scopes, bindings, syntax nodes
    ("analysis.model", ("jaxlint.analysis.model",)),  # names, classes, receivers, transforms, call targets
    ("analysis.host", ("jaxlint.analysis.host",)),  # values where code runs eagerly
    ("analysis.traced", ("jaxlint.analysis.traced",)),  # the lattice, the interpreter, its events
    ("analysis.facts", ("jaxlint.analysis.facts",)),  # per-module facts the rules ask for
    ("analysis.xmod", ("jaxlint.analysis.xmod",)),  # the cross-module phase over plain-data summaries
    # example arguments for the dynamic mode, read from the analysis; the engine derives a
    # finding's facts from them when --dynamic asks, so they sit below it
    ("dynamic.examples", ("jaxlint.dynamic.examples",)),
    ("fixes", ("jaxlint.fixes",)),  # fix builders: a node and its module in, edits out
    ("rules", ("jaxlint.rules",)),  # one rule per module, and the registry that finds them
    ("engine", ("jaxlint.engine",)),  # orchestration: discovery, the passes, the fix rounds, the cache
    ("reports", ("jaxlint.formats", "jaxlint.review")),  # output formats and review modes: functions of findings
    ("modes", ("jaxlint.dynamic", "jaxlint.runtime")),  # runs of the user's code under JAX that a face starts
    # faces: parse options, call the engine, print
    (
        "faces",
        (
            "jaxlint",
            "jaxlint.__main__",
            "jaxlint.cli",
            "jaxlint.fix_command",
            "jaxlint.output",
            "jaxlint.flake8_plugin",
            "jaxlint.server",
            "jaxlint.pytest_plugin",
        ),
    ),
)

BY_NAME_ONLY = ("jaxlint", "jaxlint.analysis")

# Imports inside function bodies, in the whole package, and the comment each must carry.
MAX_FUNCTION_IMPORTS = 15


class Import(NamedTuple):
    source: str  # the importing module
    target: str  # the imported module
    line: int
    type_checking: bool  # under ``if TYPE_CHECKING:``


def modules(root: str, package: str) -> Dict[str, str]:
    """Dotted name -> file of every module of ``package`` under ``root``."""
    out = {}
    base = os.path.join(root, *package.split("."))
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, root).split(os.sep)
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                name = rel if fn == "__init__.py" else rel + [fn[:-3]]
                out[".".join(name)] = os.path.join(dirpath, fn)
    return out


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _parse(path: str) -> ast.Module:
    with open(path, encoding="utf-8") as fh:
        return ast.parse(fh.read(), path)


def _imported_names(node: ast.AST, source: str, is_package: bool, mods: Dict[str, str]) -> List[Tuple[str, str]]:
    """(local name, dotted name) of what an import statement binds, the names relative
    imports resolved."""
    if isinstance(node, ast.Import):
        return [(a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0]) for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = source.split(".")[: len(source.split(".")) - node.level + (1 if is_package else 0)]
        base = ".".join(parts + ([node.module] if node.module else []))
    return [(a.asname or a.name, f"{base}.{a.name}") for a in node.names]


def _dotted(node: ast.AST) -> Optional[List[str]]:
    """``a.b.c`` as ["a", "b", "c"], for a chain of attributes on a name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id] + parts[::-1]


def _docstring_nodes(tree: ast.AST) -> Set[int]:
    """The string statements (docstrings) of ``tree``: text, not names of modules."""
    return {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
    }


def _names_module(value, source: str, mods: Dict[str, str]) -> bool:
    """Whether a string is the dotted name of a module of the package: not the package's own
    name (a word of messages), nor a package above ``source`` (imported before it anyway)."""
    return isinstance(value, str) and "." in value and value in mods and not source.startswith(value + ".")


def imports(root: str, package: str) -> List[Import]:
    """Every import of a module of the package by a module of the package: import statements,
    submodules reached as attributes of an imported package, and strings naming a module."""
    mods = modules(root, package)
    found = []

    def target(name: str) -> Optional[str]:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    for source, path in mods.items():
        is_package = path.endswith("__init__.py")
        tree = _parse(path)
        # What each local name stands for, where an import binds a module of the package to it.
        aliases = {}
        for node in ast.walk(tree):
            for local, name in _imported_names(node, source, is_package, mods):
                if name in mods:
                    aliases[local] = name
        docstrings = _docstring_nodes(tree)

        def add(name: str, line: int, tc: bool) -> None:
            t = target(name)
            if t is not None and t != source:
                found.append(Import(source, t, line, tc))

        def visit(node: ast.AST, type_checking: bool) -> None:
            for child in ast.iter_child_nodes(node):
                tc = type_checking or _type_checking_block(child)
                if isinstance(child, ast.Import):
                    for a in child.names:
                        add(a.name, child.lineno, tc)
                elif isinstance(child, ast.ImportFrom):
                    # ``from pkg import module`` imports the module; ``from module import name`` the module
                    for _, name in _imported_names(child, source, is_package, mods):
                        add(name if name in mods else name.rpartition(".")[0], child.lineno, tc)
                elif isinstance(child, ast.Attribute) and not isinstance(node, ast.Attribute):
                    parts = _dotted(child)
                    if parts and parts[0] in aliases:
                        base = aliases[parts[0]]
                        name = ".".join([base] + parts[1:])
                        t = target(name)
                        if t is not None and t != base:
                            add(t, child.lineno, tc)
                elif isinstance(child, ast.Constant) and _names_module(child.value, source, mods) and id(child) not in docstrings:
                    add(child.value, child.lineno, tc)
                visit(child, tc)

        visit(tree, False)
    return found


def layer_of(module: str) -> Optional[int]:
    """The index in LAYERS of the module's layer; None for a module no layer names."""
    best = None
    for i, (_, members) in enumerate(LAYERS):
        for m in members:
            if module == m or (m not in BY_NAME_ONLY and module.startswith(m + ".")):
                if best is None or len(m) > len(best[1]):
                    best = (i, m)
    return best[0] if best is not None else None


def upward(found: List[Import]) -> List[str]:
    return [
        f"{i.source}:{i.line} imports {i.target} ({LAYERS[layer_of(i.target)][0]} is above {LAYERS[layer_of(i.source)][0]})"
        for i in found
        if layer_of(i.target) is not None and layer_of(i.source) is not None and layer_of(i.target) > layer_of(i.source)
    ]


def cycles(found: List[Import]) -> List[List[str]]:
    """The strongly connected components of more than one module, over imports that run."""
    graph: Dict[str, Set[str]] = {}
    for i in found:
        if not i.type_checking:
            graph.setdefault(i.source, set()).add(i.target)
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    out: List[List[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
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
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return out


class FunctionImport(NamedTuple):
    module: str
    line: int
    why: Optional[str]  # the comment that says why it is there


_PRAGMA = re.compile(r"#\s*(noqa|type:|pragma)\b")


def _reason(lines: List[str], lineno: int) -> Optional[str]:
    """The comment on the import's own line (a pragma such as ``# noqa`` gives no reason), else the
    block of comment lines right above it; None when there is neither."""
    own = lines[lineno - 1]
    if "#" in own and not _PRAGMA.match(own[own.index("#") :]):
        return own[own.index("#") :]
    block: List[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        block.insert(0, lines[i].strip())
        i -= 1
    return " ".join(block) or None


def function_imports(root: str, package: str) -> List[FunctionImport]:
    """Every import statement inside a function body, of any module, with the comment that says
    why it is there (None when there is none)."""
    out = []
    for module, path in modules(root, package).items():
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        tree = _parse(path)

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                    out.append(FunctionImport(module, child.lineno, _reason(lines, child.lineno)))
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(tree, False)
    return out


def function_import_problems(found: List[FunctionImport], most: int) -> List[str]:
    problems = [f"{i.module}:{i.line}: an import inside a function without a comment that says why" for i in found if not i.why]
    if len(found) > most:
        places = ", ".join(f"{i.module}:{i.line}" for i in found)
        problems.append(f"{len(found)} imports inside functions, at most {most}: {places}")
    return problems


def test_no_import_cycle():
    assert cycles(imports(ROOT, PACKAGE)) == []


def test_no_import_goes_up_a_layer():
    assert upward(imports(ROOT, PACKAGE)) == []


def test_every_module_is_in_a_layer():
    assert [m for m in modules(ROOT, PACKAGE) if layer_of(m) is None] == []


def test_few_imports_inside_functions_and_each_says_why():
    assert function_import_problems(function_imports(ROOT, PACKAGE), MAX_FUNCTION_IMPORTS) == []


def _package(tmp_path, files: Dict[str, str]) -> str:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(tmp_path)


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path):
    root = _package(
        tmp_path,
        {
            "jaxlint/__init__.py": "",
            "jaxlint/analysis/__init__.py": "",
            "jaxlint/analysis/model/__init__.py": "",
            "jaxlint/analysis/model/a.py": "from jaxlint.analysis.model import b\n",
            "jaxlint/analysis/model/b.py": "def f():\n    from .a import g\n",
            "jaxlint/analysis/model/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from jaxlint.analysis.model.a import g\n",
        },
    )
    found = imports(root, "jaxlint")
    assert cycles(found) == [["jaxlint.analysis.model.a", "jaxlint.analysis.model.b"]]
    assert Import("jaxlint.analysis.model.c", "jaxlint.analysis.model.a", 3, True) in found


def test_an_import_up_a_layer_is_found(tmp_path):
    root = _package(
        tmp_path,
        {
            "jaxlint/__init__.py": "",
            "jaxlint/analysis/__init__.py": "",
            "jaxlint/analysis/syntax/__init__.py": "",
            "jaxlint/analysis/syntax/scopes.py": "def f():\n    from jaxlint.analysis.traced.calls import Analyzer\n",
            "jaxlint/analysis/traced/__init__.py": "",
            "jaxlint/analysis/traced/calls.py": "from jaxlint.analysis.syntax.scopes import f\n",
        },
    )
    assert upward(imports(root, "jaxlint")) == [
        "jaxlint.analysis.syntax.scopes:2 imports jaxlint.analysis.traced.calls (analysis.traced is above analysis.syntax)"
    ]


def test_modules_loaded_by_name_are_imports(tmp_path):
    """A submodule reached through its package, and a module named by a string, go up a layer
    and close a cycle as an import statement would."""
    root = _package(
        tmp_path,
        {
            "jaxlint/__init__.py": "",
            "jaxlint/config.py": 'import importlib\n\ndef codes():\n    return importlib.import_module("jaxlint.rules.registry")\n',
            "jaxlint/findings.py": "from jaxlint import engine\n\ndef lint():\n    return engine.run.lint_files\n",
            "jaxlint/engine/__init__.py": '"""jaxlint.engine.run"""\n',
            "jaxlint/engine/run.py": "import jaxlint.findings\n",
            "jaxlint/rules/__init__.py": "",
            "jaxlint/rules/registry.py": "",
        },
    )
    found = imports(root, "jaxlint")
    assert upward(found) == [
        "jaxlint.config:4 imports jaxlint.rules.registry (rules is above base)",
        "jaxlint.findings:1 imports jaxlint.engine (engine is above ground)",
        "jaxlint.findings:4 imports jaxlint.engine.run (engine is above ground)",
    ]
    assert cycles(found) == [["jaxlint.engine.run", "jaxlint.findings"]]


def test_a_module_no_layer_names_is_found():
    assert layer_of("jaxlint.analysis.loose") is None
    assert layer_of("jaxlint.newface") is None
    assert layer_of("jaxlint.analysis.traced.calls") == [n for n, _ in LAYERS].index("analysis.traced")


def test_imports_inside_functions_are_counted_and_need_a_reason(tmp_path):
    root = _package(
        tmp_path,
        {
            "jaxlint/__init__.py": "import os\n",
            "jaxlint/cli.py": (
                "def run():\n"
                "    # imported on use: a plain run does not load the fixes\n"
                "    from jaxlint import fixes\n"
                "    import json  # only for --format json\n"
                "    import sys  # noqa: F401\n"
                "    return lambda: __import__('os')\n"
            ),
            "jaxlint/engine.py": "class Cache:\n    def get(self):\n        import hashlib\n\n        return hashlib\n",
        },
    )
    found = function_imports(root, "jaxlint")
    assert sorted((i.module, i.line, i.why) for i in found) == [
        ("jaxlint.cli", 3, "# imported on use: a plain run does not load the fixes"),
        ("jaxlint.cli", 4, "# only for --format json"),
        ("jaxlint.cli", 5, None),
        ("jaxlint.engine", 3, None),
    ]
    assert function_import_problems(found, 4) == [
        "jaxlint.cli:5: an import inside a function without a comment that says why",
        "jaxlint.engine:3: an import inside a function without a comment that says why",
    ]
    assert function_import_problems(found, 3)[-1] == (
        "4 imports inside functions, at most 3: jaxlint.cli:3, jaxlint.cli:4, jaxlint.cli:5, jaxlint.engine:3"
    )
