"""The package's imports, read with ``ast`` (imports inside functions too): no import cycle, and
no import that goes up a layer of the analysis.

An import under ``if TYPE_CHECKING:`` names types for annotations and never runs: it must not
go up a layer either, but it makes no cycle.
"""

import ast
import os
from typing import Dict, List, NamedTuple, Optional, Set

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Bottom first: a module may import its own layer and the layers below.  A module belongs to the
# layer of the longest prefix that names it; everything else in the package sits on top.
LAYERS = (
    "jaxlint.analysis.jax",  # JAX and NumPy knowledge as data
    "jaxlint.analysis.syntax",  # the one walk: scopes, bindings, syntax nodes
    "jaxlint.analysis.model",  # names, classes, receivers, transforms, call targets
    "jaxlint.analysis.host",  # values where code runs eagerly
    "jaxlint.analysis.traced",  # the lattice, the interpreter, its events
    "jaxlint.analysis.facts",  # per-module facts the rules ask for
    "jaxlint.analysis.xmod",  # the cross-module phase over plain-data summaries
    "jaxlint",  # rules, engine, faces
)


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


def imports(root: str, package: str) -> List[Import]:
    """Every import of a module of the package by a module of the package."""
    mods = modules(root, package)
    found = []

    def target(name: str) -> Optional[str]:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    for source, path in mods.items():
        is_package = path.endswith("__init__.py")
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)

        def visit(node: ast.AST, type_checking: bool) -> None:
            for child in ast.iter_child_nodes(node):
                tc = type_checking or _type_checking_block(child)
                names = []
                if isinstance(child, ast.Import):
                    names = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        parts = source.split(".")[: len(source.split(".")) - child.level + (1 if is_package else 0)]
                        base = ".".join(parts + ([child.module] if child.module else []))
                    # ``from pkg import module`` imports the module; ``from module import name`` the module
                    names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in child.names]
                for name in names:
                    t = target(name)
                    if t is not None and t != source:
                        found.append(Import(source, t, child.lineno, tc))
                visit(child, tc)

        visit(tree, False)
    return found


def layer_of(module: str) -> int:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS.index(best)


def upward(found: List[Import]) -> List[str]:
    return [
        f"{i.source}:{i.line} imports {i.target} ({LAYERS[layer_of(i.target)]} is above {LAYERS[layer_of(i.source)]})"
        for i in found
        if layer_of(i.target) > layer_of(i.source)
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


def test_no_import_cycle():
    assert cycles(imports(ROOT, "jaxlint")) == []


def test_no_import_goes_up_a_layer():
    assert upward(imports(ROOT, "jaxlint")) == []


def test_every_analysis_module_is_in_a_layer():
    """A module directly in jaxlint/analysis/ would belong to no layer of the analysis."""
    loose = [m for m in modules(ROOT, "jaxlint.analysis") if m != "jaxlint.analysis" and layer_of(m) == len(LAYERS) - 1]
    assert loose == []


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
        "jaxlint.analysis.syntax.scopes:2 imports jaxlint.analysis.traced.calls"
        " (jaxlint.analysis.traced is above jaxlint.analysis.syntax)"
    ]
