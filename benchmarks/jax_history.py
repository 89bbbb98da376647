"""Compute jaxlint's table of removed and deprecated JAX APIs from JAX's own releases.

Every JAX release from 0.4.0 to the newest is read statically (``ast``; nothing is imported or
run): its public modules (every ``jax/**.py`` outside ``_src``), each module's attributes (defs,
classes, assignments, imports from jax or jaxlib, star imports followed, ``del`` honoured), the
``_deprecations`` registries with their messages, and module-level ``DeprecationWarning``s.
Releases are taken from the wheels (``pip download jax==V --no-deps --only-binary=:all:``, pure
Python, no jaxlib); a release the package index does not serve (0.4.0 to 0.4.15 are missing
from some mirrors) is read from a JAX git clone at its ``jax-vV`` tag when ``--git`` names one.
The 0.3 releases are read too (``--since``), from the same sources, so that names JAX
removed before 0.4 (``jax.tree_multimap``, ``jax.ops.index_update``,
``jax.experimental.optimizers``) are known.

The table (``jaxlint/analysis/jax/jax_history.json``) lists, for every public name or module that a
release deprecated or removed: the release that deprecated it (the first one whose
``_deprecations`` entry still holds the object, or whose module warns on import), the release
that removed it (the first one without it, or whose registry entry holds ``None``), JAX's own
message, the replacement named by that message (when it names one that exists in the newest
release), the first release that has the replacement, and whether the replacement is the same
object (then the rewrite is a safe fix).  It also lists which public submodules ``import jax``
loads in the newest release (the import closure of ``jax/__init__.py``), and which exist.

The committed table was made with::

    python benchmarks/jax_history.py --cache /tmp/jax-wheels --git /path/to/jax-clone \\
        --out jaxlint/analysis/jax/jax_history.json

``--cache`` is the download folder (keep it outside the repository).  ``--versions`` takes an
explicit list instead of asking the package index (``pip index versions jax``).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from typing import Dict, List, Optional, Set, Tuple

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from jaxlint.analysis.jax.jax_api_migrations import names_text  # noqa: E402

Version = Tuple[int, ...]

SINCE_DEFAULT = "0.3.0"
PY_FOR_INDEX = "3.12"  # newer JAX wheels need Python >= 3.12; the wheels are pure Python anyway


def vkey(v: str) -> Version:
    return tuple(int(p) for p in v.split("."))


# -- sources -------------------------------------------------------------------------------


def index_versions() -> List[str]:
    out = subprocess.run(
        [sys.executable, "-m", "pip", "index", "versions", "jax", "--python-version", PY_FOR_INDEX],
        capture_output=True,
        text=True,
    ).stdout
    m = re.search(r"Available versions: (.*)", out)
    return [v.strip() for v in m.group(1).split(",")] if m else []


def wheel_path(cache: str, version: str) -> Optional[str]:
    """The cached wheel of a release, downloaded on first use (None: the index has none; that is
    remembered in the cache's ``no-wheel`` file, so a rerun does not ask again)."""
    name = f"jax-{version}-py3-none-any.whl"
    path = os.path.join(cache, name)
    if os.path.exists(path):
        return path
    marker = os.path.join(cache, "no-wheel")
    known = open(marker).read().split() if os.path.exists(marker) else []
    if version in known:
        return None
    subprocess.run(
        [
            sys.executable, "-m", "pip", "download", f"jax=={version}", "--no-deps", "--only-binary=:all:",
            "--python-version", PY_FOR_INDEX, "-d", cache, "-q",
        ],
        capture_output=True,
    )
    if os.path.exists(path):
        return path
    with open(marker, "a") as fh:
        fh.write(version + "\n")
    return None


def files_from_wheel(path: str) -> Dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n.startswith("jax/") and n.endswith(".py")}


def files_from_git(repo: str, version: str) -> Optional[Dict[str, bytes]]:
    tag = f"jax-v{version}"
    ls = subprocess.run(["git", "--git-dir", repo, "ls-tree", "-r", "--name-only", tag, "jax/"], capture_output=True, text=True)
    if ls.returncode != 0:
        return None
    names = [n for n in ls.stdout.split("\n") if n.endswith(".py")]
    batch = "".join(f"{tag}:{n}\n" for n in names).encode()
    out = subprocess.run(["git", "--git-dir", repo, "cat-file", "--batch"], input=batch, capture_output=True).stdout
    files: Dict[str, bytes] = {}
    buf = io.BytesIO(out)
    for n in names:
        header = buf.readline().split()
        size = int(header[2])
        files[n] = buf.read(size)
        buf.read(1)
    return files


# -- one release ---------------------------------------------------------------------------


def module_name(path: str) -> str:
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def is_public(mod: str) -> bool:
    parts = mod.split(".")
    return not any(p.startswith("_") or p in ("tests", "examples", "benchmarks") for p in parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _const_str(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{...}" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _const_str(node.left), _const_str(node.right)
        return a + b if a is not None and b is not None else None
    return None


_DEF = re.compile(rb"^(?:async\s+)?(def|class)\s+(\w+)")


_STATEMENT = re.compile(
    rb"^(?:import |from |if |elif |else|try|except|finally|with |for |while |del |async |"
    rb"[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*(?:[-+*/|&]?=[^=]|:\s*[\w\[\]., \"']+(?:=|$)|\(|,))"
)


def _skeleton(data: bytes) -> bytes:
    """The module with every top-level ``def``/``class`` body (and decorator) replaced by
    ``pass``: what the API reading needs, at a fraction of the parsing cost."""
    out = []
    skipping = False
    for line in data.split(b"\n"):
        first = line[:1]
        if first in (b" ", b"\t", b"") or first == b"#":
            if not skipping:
                out.append(line)
            continue
        if line.startswith(b"@"):
            skipping = True
            continue
        m = _DEF.match(line)
        if m:
            skipping = True
            out.append(m.group(1) + b" " + m.group(2) + (b"(): pass" if m.group(1) == b"def" else b": pass"))
            continue
        if skipping and not _STATEMENT.match(line):
            continue  # a column-0 line inside a skipped body or decorator (a string's text)
        skipping = False
        out.append(line)
    return b"\n".join(out)


def _parse_top_level(data: bytes) -> Optional[ast.Module]:
    """The top level of a module; the full parse when the skeleton does not parse (a string at
    column 0 inside a function, for instance)."""
    try:
        return ast.parse(_skeleton(data))
    except (SyntaxError, ValueError):
        pass
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError):
        return None


class Release:
    """The public API of one JAX release, read from its files."""

    def __init__(self, version: str, files: Dict[str, bytes], parsed: Optional[dict] = None):
        self.version = version
        self.parsed: Dict[bytes, Optional[ast.Module]] = parsed if parsed is not None else {}
        self.sources: Dict[str, bytes] = {}
        self.packages: Set[str] = set()
        for path, data in files.items():
            mod = module_name(path)
            self.sources[mod] = data
            if path.endswith("__init__.py"):
                self.packages.add(mod)
        self._trees: Dict[str, Optional[ast.Module]] = {}
        self._ns: Dict[str, Dict[str, tuple]] = {}
        self._busy: Set[str] = set()
        self._deleted: Dict[str, Dict[str, tuple]] = {}
        self.public_modules = sorted(m for m in self.sources if is_public(m) and m.startswith("jax"))

    def tree(self, mod: str) -> Optional[ast.Module]:
        if mod not in self._trees:
            data = self.sources.get(mod)
            tree = None
            if data is not None:
                # Most files do not change from one release to the next: parse each text once.
                tree = self.parsed.get(data)
                if tree is None and data not in self.parsed:
                    tree = _parse_top_level(data)
                self.parsed[data] = tree
            self._trees[mod] = tree
        return self._trees[mod]

    def _absolute(self, mod: str, level: int, target: Optional[str]) -> str:
        if level == 0:
            return target or ""
        base = mod.split(".") if mod in self.packages else mod.split(".")[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([target] if target else []))

    def namespace(self, mod: str) -> Dict[str, tuple]:
        """name -> binding: ("def", origin) | ("import", module, name) | ("module", module) |
        ("deprecated", message, value-node) | ("gone", message)."""
        if mod in self._ns:
            return self._ns[mod]
        if mod in self._busy:
            return {}
        self._busy.add(mod)
        ns: Dict[str, tuple] = {}
        deprecations: Dict[str, tuple] = {}
        self.module_warning: Dict[str, str] = getattr(self, "module_warning", {})
        tree = self.tree(mod)
        if tree is not None:
            self._walk(mod, tree.body, ns, deprecations)
        for name, (msg, value) in deprecations.items():
            if value is None:
                ns[name] = ("gone", msg)
            else:
                ns[name] = ("deprecated", msg, value)
        self._busy.discard(mod)
        self._ns[mod] = ns
        return ns

    def _walk(self, mod: str, body, ns, deprecations) -> None:
        for st in body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                ns[st.name] = ("def", f"{mod}.{st.name}")
            elif isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        ns[a.asname] = ("module", a.name)
                    else:
                        top = a.name.split(".")[0]
                        ns[top] = ("module", top)
                        # `import jax.numpy` inside jax binds the submodule on its package
            elif isinstance(st, ast.ImportFrom):
                src = self._absolute(mod, st.level, st.module)
                for a in st.names:
                    if a.name == "*":
                        for n, b in self.namespace(src).items():
                            if not n.startswith("_") and b[0] != "gone":
                                ns.setdefault(n, b)
                        continue
                    sub = f"{src}.{a.name}"
                    # ``from numpy import inf as inf``: the explicit re-export idiom.
                    reexport = a.asname == a.name
                    ns[a.asname or a.name] = ("module", sub) if sub in self.sources else ("import", src, a.name, reexport)
            elif isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            if n.id == "_deprecations" and isinstance(st.value, ast.Dict):
                                self._read_deprecations(st.value, deprecations)
                            else:
                                ns[n.id] = ("def", f"{mod}.{n.id}", st.value if isinstance(st, ast.Assign) else None)
            elif isinstance(st, ast.Delete):
                for t in st.targets:
                    if isinstance(t, ast.Name) and t.id in ns:
                        # Gone from the module, but the values bound earlier still refer to it.
                        self._deleted.setdefault(mod, {})[t.id] = ns.pop(t.id)
            elif isinstance(st, ast.If):
                if _is_type_checking(st.test):
                    self._walk(mod, st.orelse, ns, deprecations)
                else:
                    self._walk(mod, st.body, ns, deprecations)
                    self._walk(mod, st.orelse, ns, deprecations)
            elif isinstance(st, ast.Try):
                self._walk(mod, st.body, ns, deprecations)
                for h in st.handlers:
                    self._walk(mod, h.body, ns, deprecations)
                self._walk(mod, st.orelse, ns, deprecations)
                self._walk(mod, st.finalbody, ns, deprecations)
            elif isinstance(st, (ast.With,)):
                self._walk(mod, st.body, ns, deprecations)
            elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
                self._module_warning(mod, st.value)

    def _read_deprecations(self, d: ast.Dict, out) -> None:
        for k, v in zip(d.keys, d.values):
            key = _const_str(k) if k is not None else None
            if key is None or not isinstance(v, ast.Tuple) or len(v.elts) != 2:
                continue
            msg = _const_str(v.elts[0]) or ""
            value = v.elts[1]
            out[key] = (msg, None if isinstance(value, ast.Constant) and value.value is None else value)

    def _module_warning(self, mod: str, call: ast.Call) -> None:
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr == "warn") and not (isinstance(f, ast.Name) and f.id == "warn"):
            return
        cats = [a for a in call.args[1:]] + [k.value for k in call.keywords if k.arg == "category"]
        if not any(isinstance(c, (ast.Name, ast.Attribute)) and (getattr(c, "id", None) or getattr(c, "attr", "")) == "DeprecationWarning" for c in cats):
            return
        msg = _const_str(call.args[0]) if call.args else None
        self.module_warning[mod] = msg or "deprecated"

    # -- what a public name is -----------------------------------------------------------

    def origin(self, mod: str, name: str, depth: int = 0) -> Optional[str]:
        """The definition a module attribute is bound to (``jax._src.tree_util.tree_map``)."""
        if depth > 20:
            return None
        b = self.namespace(mod).get(name) or self._deleted.get(mod, {}).get(name)
        if b is None:
            sub = f"{mod}.{name}"
            return sub if sub in self.sources else None
        kind = b[0]
        if kind == "def":
            value = b[2] if len(b) > 2 else None
            if value is not None and isinstance(value, (ast.Name, ast.Attribute)):
                got = self.origin_of_expr(mod, value, depth + 1)
                if got is not None:
                    return got
            return b[1]
        if kind == "module":
            return b[1]
        if kind == "import":
            if b[1] in self.sources:
                return self.origin(b[1], b[2], depth + 1)
            return f"{b[1]}.{b[2]}"
        if kind == "deprecated":
            return self.origin_of_expr(mod, b[2], depth + 1)
        return None

    def origin_of_expr(self, mod: str, node: ast.expr, depth: int = 0) -> Optional[str]:
        if isinstance(node, ast.Name):
            return self.origin(mod, node.id, depth)
        if isinstance(node, ast.Attribute):
            base = self.origin_of_expr(mod, node.value, depth)
            if base is None:
                return None
            if base in self.sources:
                return self.origin(base, node.attr, depth + 1)
            return f"{base}.{node.attr}"
        return None

    def public_names(self, mod: str) -> Dict[str, tuple]:
        """Public attributes of a public module: name -> binding (jax/jaxlib things only)."""
        out = {}
        for name, b in self.namespace(mod).items():
            if name.startswith("_"):
                continue
            if b[0] == "module" and not b[1].startswith(("jax", "jaxlib")):
                continue
            if b[0] == "import" and not b[1].startswith(("jax", "jaxlib")) and not (len(b) > 3 and b[3]):
                continue
            out[name] = b
        for m in self.sources:
            if m.startswith(mod + ".") and "." not in m[len(mod) + 1 :] and is_public(m):
                out.setdefault(m[len(mod) + 1 :], ("module", m))
        return out

    def exists(self, dotted: str) -> bool:
        """Whether ``jax.a.b`` resolves (without a deprecation error) in this release."""
        if dotted in self.sources:
            return True
        mod, _, name = dotted.rpartition(".")
        if mod not in self.sources:
            return False
        b = self.namespace(mod).get(name)
        return b is not None and b[0] != "gone"

    def loaded_by_import_jax(self) -> Set[str]:
        """Modules that ``import jax`` runs: the closure of the top-level imports (over-approximated:
        both branches of every if/try, function bodies excluded)."""
        seen: Set[str] = set()
        todo = ["jax"]
        while todo:
            mod = todo.pop()
            if mod in seen or mod not in self.sources:
                continue
            seen.add(mod)
            # A package's __init__ runs first when any module below it is imported.
            parts = mod.split(".")
            for i in range(1, len(parts)):
                todo.append(".".join(parts[:i]))
            tree = self.tree(mod)
            if tree is None:
                continue
            for st in _top_level_statements(tree.body):
                if isinstance(st, ast.Import):
                    for a in st.names:
                        todo.append(a.name)
                elif isinstance(st, ast.ImportFrom):
                    src = self._absolute(mod, st.level, st.module)
                    todo.append(src)
                    for a in st.names:
                        todo.append(f"{src}.{a.name}")
        return seen

    def lazy_packages(self) -> Set[str]:
        """Packages whose module ``__getattr__`` is more than the deprecation hook (it may import
        submodules on first access)."""
        out = set()
        for mod in self.packages:
            tree = self.tree(mod)
            if tree is None:
                continue
            for st in _top_level_statements(tree.body):
                if isinstance(st, ast.FunctionDef) and st.name == "__getattr__":
                    out.add(mod)
                elif isinstance(st, ast.Assign) and any(
                    isinstance(n, ast.Name) and n.id == "__getattr__" for t in st.targets for n in ast.walk(t)
                ):
                    v = st.value
                    f = v.func if isinstance(v, ast.Call) else None
                    fname = getattr(f, "id", None) or getattr(f, "attr", None)
                    if fname not in ("_deprecation_getattr", "deprecation_getattr"):
                        out.add(mod)
        return out


def _top_level_statements(body):
    for st in body:
        if isinstance(st, ast.If):
            yield from _top_level_statements(st.body)
            yield from _top_level_statements(st.orelse)
        elif isinstance(st, ast.Try):
            yield from _top_level_statements(st.body)
            for h in st.handlers:
                yield from _top_level_statements(h.body)
            yield from _top_level_statements(st.orelse)
            yield from _top_level_statements(st.finalbody)
        elif isinstance(st, ast.With):
            yield from _top_level_statements(st.body)
        else:
            yield st


# -- the history ---------------------------------------------------------------------------

_USE = re.compile(r"(?:^|[\s:;,(])(?:[Uu]sed?|[Rr]eplaced by|in favou?r of|moved to)\s+(?:the\s+)?`?((?:jax|jnp|jax\.numpy|numpy)(?:\.\w+)+)`?")


_OR = re.compile(r"\bor\s+`?((?:jax|jnp|jax\.numpy)(?:\.\w+)+)`?")


def replacements_in(message: str, old: str, newest: Release) -> List[str]:
    """The APIs JAX's message tells the reader to use instead that exist in ``newest``, in the
    message's order."""
    out: List[str] = []
    found = list(_USE.finditer(message or ""))
    if found:  # "use jax.tree.map (v0.4.25 or newer) or jax.tree_util.tree_map (any JAX version)"
        found += list(_OR.finditer(message))
    for m in found:
        cand = m.group(1).rstrip(".")
        if cand.startswith("jnp."):
            cand = "jax.numpy." + cand[4:]
        if cand.endswith("()"):
            cand = cand[:-2]
        if cand != old and cand.startswith("jax") and newest.exists(cand) and cand not in out:
            out.append(cand)
    return out


def clean(message: str) -> str:
    return " ".join((message or "").split())


class History:
    """What the releases, read oldest first, say about each public name."""

    def __init__(self):
        self.order: List[str] = []
        self.alive: Dict[str, str] = {}  # name -> the last release that has it
        self.first: Dict[str, str] = {}  # name -> the first release that has it
        self.dep_start: Dict[str, Optional[str]] = {}  # the first release of its current deprecated run
        self.message: Dict[str, str] = {}  # the last message JAX gives for it
        self.dep_message: Dict[str, str] = {}  # the first deprecation message
        self.origin: Dict[str, Optional[str]] = {}  # what it is bound to, when deprecated
        self.is_module: Set[str] = set()
        self.module_in: Dict[str, Set[str]] = {}  # module -> the releases where it is a module
        self.parsed: Dict[bytes, Optional[ast.Module]] = {}

    def add(self, r: Release) -> None:
        prev = self.order[-1] if self.order else None
        self.order.append(r.version)
        r.module_warning = {}
        for mod in r.public_modules:
            r.namespace(mod)
        states: Dict[str, tuple] = {}
        for mod in r.public_modules:
            states[mod] = ("deprecated", r.module_warning[mod], None) if mod in r.module_warning else ("present", "", None)
            self.is_module.add(mod)
            self.module_in.setdefault(mod, set()).add(r.version)
            for name, b in r.public_names(mod).items():
                full = f"{mod}.{name}"
                if b[0] == "module" and b[1] == full:
                    continue  # the submodule itself: recorded as a module
                if b[0] == "gone":
                    st = ("gone", b[1], None)
                elif b[0] == "deprecated":
                    st = ("deprecated", b[1], (mod, b[2]))
                else:
                    st = ("present", "", None)
                if full not in states or states[full][0] == "present":
                    states[full] = st
        for name, (kind, msg, value) in states.items():
            if msg:
                self.message[name] = clean(msg)
            if kind == "gone":
                continue
            self.first.setdefault(name, r.version)
            if kind == "deprecated":
                if not (self.alive.get(name) == prev and self.dep_start.get(name)):
                    self.dep_start[name] = r.version
                self.dep_message.setdefault(name, clean(msg))
                if value is not None:
                    try:
                        self.origin[name] = r.origin_of_expr(value[0], value[1])
                    except RecursionError:
                        self.origin[name] = None
            else:
                self.dep_start[name] = None
            self.alive[name] = r.version

    def table(self, newest: Release) -> dict:
        order = self.order
        index = {v: i for i, v in enumerate(order)}
        entries = {}
        for name, last in self.alive.items():
            i = index[last]
            removed = order[i + 1] if i + 1 < len(order) else None
            deprecated = self.dep_start.get(name)
            if removed is None and deprecated is None:
                continue
            parent = name.rpartition(".")[0]
            if (
                removed is not None
                and parent in self.alive
                and index[self.alive[parent]] >= index[removed]
                and removed not in self.module_in.get(parent, ())
            ):
                # The parent is still there but no longer a module jaxlint can read (``jax.memory``
                # became a namespace object): whether the name is gone is unknown.
                continue
            if removed is not None and parent in self.alive and parent != "jax" and name not in self.is_module:
                # Inside a module that is itself gone with it: the module's entry covers it.
                if self.alive[parent] == last:
                    continue
            message = self.message.get(name, "")
            dep_message = self.dep_message.get(name, "") if deprecated else ""
            candidates = replacements_in(dep_message, name, newest) + replacements_in(message, name, newest)
            old_origin = self.origin.get(name)
            same = [c for c in candidates if old_origin and _origin_in(newest, c) == old_origin]
            # A replacement that is the same object is preferred ("use jax.tree.map (newer JAX) or
            # jax.tree_util.tree_map (any JAX)": the second is jax.tree_map itself).
            new = same[0] if same else (candidates[0] if candidates else None)
            entry = {
                "added": self.first.get(name),
                "deprecated": deprecated,
                "removed": removed,
                "last": last,
                "message": dep_message or message,
            }
            if message and message != entry["message"]:
                entry["removal_message"] = message
            if name in self.is_module:
                entry["module"] = True
            if new is not None:
                entry["new"] = new
                entry["new_since"] = self.first.get(new, newest.version)
                entry["same_object"] = bool(same)
            entries[name] = entry
        loaded = sorted(m for m in newest.loaded_by_import_jax() if is_public(m))
        return {
            "releases": order,
            "newest": newest.version,
            "entries": dict(sorted(entries.items())),
            "modules": newest.public_modules,
            "loaded_by_import_jax": loaded,
            "lazy_packages": sorted(m for m in newest.lazy_packages() if is_public(m)),
        }


def _origin_in(r: Release, dotted: str) -> Optional[str]:
    if dotted in r.sources:
        return dotted
    mod, _, name = dotted.rpartition(".")
    if mod not in r.sources:
        return None
    try:
        return r.origin(mod, name)
    except RecursionError:
        return None


def sizes(table: dict) -> List[Tuple[str, int, int]]:
    """Per release: (release, names removed there or before, names deprecated there)."""
    out = []
    for v in table["releases"]:
        k = vkey(v)
        removed = sum(1 for e in table["entries"].values() if e["removed"] and vkey(e["removed"]) <= k)
        deprecated = sum(
            1
            for e in table["entries"].values()
            if e["deprecated"] and vkey(e["deprecated"]) <= k and not (e["removed"] and vkey(e["removed"]) <= k)
        )
        out.append((v, removed, deprecated))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", required=True, help="folder for the downloaded wheels (outside the repository)")
    ap.add_argument("--git", help="a JAX git directory, for releases the package index does not serve")
    ap.add_argument("--since", default=SINCE_DEFAULT, help=f"the oldest release read (default {SINCE_DEFAULT})")
    ap.add_argument("--versions", help="comma-separated releases instead of asking the package index")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    os.makedirs(args.cache, exist_ok=True)
    # The releases the package index lists (yanked ones are not listed); git is only a second
    # source for their files.
    versions = args.versions.split(",") if args.versions else index_versions()
    versions = sorted({v for v in versions if re.fullmatch(r"\d+\.\d+\.\d+(\.\d+)?", v) and vkey(v) >= vkey(args.since)}, key=vkey)
    history = History()
    source = {}
    newest = None
    for v in versions:
        path = wheel_path(args.cache, v)
        files = files_from_wheel(path) if path else (files_from_git(args.git, v) if args.git else None)
        if not files:
            print(f"{v}: no wheel and no tag; skipped", file=sys.stderr)
            continue
        source[v] = "wheel" if path else "git tag"
        print(f"{v}: {source[v]}, {len(files)} files", file=sys.stderr)
        # Parsed texts are kept from one release to the next only.
        newest = Release(v, files, history.parsed)
        history.add(newest)
        history.parsed = {data: newest.parsed[data] for data in newest.sources.values() if data in newest.parsed}
    table = history.table(newest)
    table["sources"] = source
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(table, fh, indent=1, sort_keys=False)
        fh.write("\n")
    # The old names alone, which the linter reads first (most modules name none of them).
    with open(os.path.join(os.path.dirname(args.out), "jax_history_names.txt"), "w", encoding="utf-8") as fh:
        fh.write(names_text(table["entries"]))
    for v, removed, deprecated in sizes(table):
        print(f"{v:10s} removed {removed:5d}  deprecated {deprecated:4d}")
    print(f"{len(table['entries'])} entries", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
