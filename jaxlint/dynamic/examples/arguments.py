"""Example arguments for a function of the module, read from the source (never run).

The dynamic mode traces the functions behind findings, and needs values to call them with.
They come, best first, from: an explicit ``# jaxlint: example(x=f32[3,4], n=3)`` spec; the
calls of the function in the module, with arguments that are literals, ``jnp.*``/``np.*``
calls, constructor calls of the module's classes, or names bound to such values earlier in the
same scope (also when the call is nested in another expression, ``print(step(1.55))``, and
when the argument is a parameter of the enclosing function, through that function's callers);
annotations; defaults (left unpassed); guesses.  A value is a JSON-able spec the dynamic
worker builds (``jaxlint.dynamic.protocol.Value``).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.dynamic.examples.params import Param, as_protocol, bound_names, described, from_annotation, params_of, shape_dtype_default
from jaxlint.dynamic.examples.render import module_class, nearest_binding, render
from jaxlint.dynamic.examples.values import GUESSES, SPEC_RE, parse_spec, py, value_of_src
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.transforms import Application

MAX_ARGSETS = 8


class Examples:
    """Example values for the functions of one module (memoised per function)."""

    def __init__(self, analysis):
        self.analysis = analysis
        self.index = analysis.index
        self.finder = analysis.finder
        self.analyzer = analysis.analyzer
        self._param_values: Dict[int, Dict[str, dict]] = {}
        self._in_progress: set = set()

    def where(self, call) -> Optional[Tuple[Scope, int]]:
        """(scope, statement order) of a call of the module."""
        return self.analysis.call_sites.sites.get(id(call))

    def line_of(self, node) -> Optional[int]:
        p = self.analysis.positions.get(node)
        return p.start.line if p is not None else None

    def apps_of(self, f: FuncInfo) -> List[Application]:
        return self.finder.by_func.get(id(f.node), [])

    def render_at(self, expr, call, subst=None) -> Optional[str]:
        so = self.where(call)
        if so is None:
            return None
        scope, order = so
        return render(expr, scope, order, subst, fallback=lambda name, s: self._through_callers(name, s, order) if s is scope else None)

    def _through_callers(self, name: str, scope: Scope, order: int) -> Optional[str]:
        """A parameter of the enclosing plain function, not rebound before ``order``: the value
        its callers pass for it."""
        func = scope.func if scope.kind == "function" else None
        if func is None or func.is_lambda or scope.lookup_scope(name) is not scope or name not in func.all_param_names():
            return None
        if self.apps_of(func):
            return None  # a traced function: its parameters are tracers, not what callers pass
        if any(b.kind != "param" and (b.order is None or b.order < order) for b in scope.bindings.get(name, ())):
            return None
        v = self.param_values(func).get(name)
        if v is None or v["k"] not in ("py", "expr"):
            return None
        return v["src"]

    def param_values(self, func: FuncInfo) -> Dict[str, dict]:
        """The most complete set of simple values a call in the module passes to ``func``."""
        key = id(func.node)
        hit = self._param_values.get(key)
        if hit is not None:
            return hit
        if key in self._in_progress:
            return {}
        self._in_progress.add(key)
        try:
            params = params_of(func, set(), 1 if func.is_method else 0)
            best: Dict[str, dict] = {}
            for c, _s in self.call_sites(func, self.apps_of(func)):
                vals = self.call_args(c, params) or {}
                known = {k: v for k, v in vals.items() if v is not None}
                if len(known) > len(best):
                    best = known
        finally:
            self._in_progress.discard(key)
        self._param_values[key] = best
        return best

    def call_args(self, call: cst.Call, params: List[Param]) -> Optional[Dict[str, Optional[dict]]]:
        """Values a call passes, by parameter name (None: passed but not a simple value)."""
        names = bound_names(call, params)
        known = {p.name for p in params}
        if names is None or any(n not in known for n in names):
            return None
        out: Dict[str, Optional[dict]] = {}
        for a, name in zip(call.args, names):
            src = self.render_at(a.value, call)
            out[name] = value_of_src(src) if src is not None else None
        return out

    def call_sites(self, f: FuncInfo, apps: Sequence[Application]) -> List[Tuple[cst.Call, Scope]]:
        """Calls of ``f`` in the module: of its transformed forms, by name, through module
        aliases and ``jax.jit(f)(...)``; nested in other expressions too."""
        out = []
        seen = set()
        for app in apps:
            for c in self.analyzer.call_sites(app):
                if id(c) not in seen:
                    seen.add(id(c))
                    out.append(c)
        for call, scope, _ in self.index.calls:
            if id(call) in seen:
                continue
            func = call.func
            hit = False
            if isinstance(func, cst.Name):
                if scope.lookup_def(func.value) is f:
                    hit = True
                elif f.cls is not None and f.name == "__call__":
                    # ``model(x)`` on an instance runs its class's ``__call__``
                    hit = self._instance_of(func, scope, call, f.cls)
                else:
                    owner = scope.lookup_scope(func.value)
                    alias = self.finder.aliases.get((id(owner), func.value)) if owner is not None else None
                    hit = alias is not None and alias.func is f
            elif isinstance(func, cst.Call) and func.args and func.args[0].keyword is None:
                inner = func.args[0].value
                hit = isinstance(inner, cst.Name) and scope.lookup_def(inner.value) is f
            elif isinstance(func, cst.Attribute) and f.cls is not None and func.attr.value == f.name:
                hit = self._instance_of(func.value, scope, call, f.cls)
            if hit:
                seen.add(id(call))
                out.append(call)
        return [(c, self.where(c)[0]) for c in out if self.where(c) is not None]

    def _instance_of(self, expr, scope: Scope, call: cst.Call, cls) -> bool:
        """``expr`` is ``Cls(...)`` of the module, or a name last assigned one before ``call``."""
        if isinstance(expr, cst.Call):
            return isinstance(expr.func, cst.Name) and module_class(expr.func.value, scope) is cls
        if not isinstance(expr, cst.Name):
            return False
        owner = scope.lookup_scope(expr.value)
        if owner is None:
            return False
        where = self.where(call)
        b = nearest_binding(owner, expr.value, where[1] if where is not None and owner is scope else None)
        value = b.value if b is not None and b.kind == "assign" else None
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Name)
            and module_class(value.func.value, owner) is cls
        )

    def explicit_specs(self, f: FuncInfo) -> List[Tuple[List[dict], Dict[str, dict]]]:
        node = f.node
        pos = self.analysis.positions
        if f.is_lambda or node not in pos:
            return []
        start = self.line_of(node.decorators[0]) if node.decorators else self.line_of(node)
        body_start = None
        body = node.body
        if isinstance(body, cst.IndentedBlock) and body.body:
            body_start = self.line_of(body.body[0])
        if start is None:
            return []
        end = body_start or start
        lines = self.analysis.text.splitlines()
        first = start
        while first - 2 >= 0 and lines[first - 2].lstrip().startswith("#"):
            first -= 1
        texts = [lines[i - 1] for i in range(first, min(end, len(lines)) + 1)]
        doc = node.get_docstring() if isinstance(node, cst.FunctionDef) else None
        if doc:
            texts.extend(doc.splitlines())
        specs = [parse_spec(m.group("body")) for m in (SPEC_RE.search(t.strip()) for t in texts) if m]
        return [spec for spec in specs if spec is not None]

    def argsets(
        self,
        f: FuncInfo,
        params: List[Param],
        apps: Sequence[Application],
        fill: Optional[Callable[[cst.Call, Dict[str, Optional[dict]]], None]] = None,
    ) -> Tuple[List[dict], List[str]]:
        """Candidate argument sets ``{"source", "args"}``, best first; and the parameters only
        guesses could fill.  ``fill`` may complete a call site's values in place."""
        base: Dict[str, Optional[dict]] = {}
        dims: Dict[str, int] = {}  # jaxtyping's named dimensions: one size across the parameters
        for p in params:
            v = from_annotation(p, f.scope, dims=dims) or shape_dtype_default(p, f.scope)
            if v is not None:
                base[p.name] = v
            elif p.has_default:
                base[p.name] = {"k": "omit"}
        sources: List[Tuple[str, Dict[str, Optional[dict]]]] = []
        for pos, kw in self.explicit_specs(f):
            vals: Dict[str, Optional[dict]] = {}
            positional = [p for p in params if p.kind != "kw"]
            for i, v in enumerate(pos):
                if i < len(positional):
                    vals[positional[i].name] = v
            vals.update(kw)
            sources.append(("example spec", vals))
        for call, _scope in self.call_sites(f, apps):
            vals = self.call_args(call, params)
            if vals is None:
                continue
            if fill is not None:
                fill(call, vals)
            for p in params:
                if p.name not in vals and p.has_default:
                    vals[p.name] = {"k": "omit"}  # an unpassed parameter keeps its default
            sources.append((f"call at line {self.line_of(call)}", vals))
        sources.append(("annotations and defaults", {}))
        out = []
        seen = set()
        guessed: List[str] = []
        for label, vals in sources:
            for gname, g in GUESSES:
                args = []
                used_guess = False
                for p in params:
                    v = vals.get(p.name)
                    if v is None:
                        v = base.get(p.name)
                    if v is None or v.get("k") == "array?":
                        used_guess = True
                        v = py("3") if p.static else g
                        if label == "annotations and defaults" and p.name not in guessed and p.name not in base:
                            guessed.append(p.name)
                    args.append(dict(as_protocol(p), value=v))
                key = repr(args)
                if key not in seen:
                    seen.add(key)
                    argset = {"source": label + (f", {gname} guesses" if used_guess else ""), "args": args}
                    shown = [a for a in args if "origin" in a["value"]]
                    if shown and not used_guess:
                        # built from the annotations (jaxtyping shapes, ShapeDtypeStruct
                        # defaults): the finding's detail says so
                        argset["annotated"] = "; ".join(f"{a['value']['origin']} as {described(a['value'])}" for a in shown)
                    out.append(argset)
                if not used_guess:
                    break
        return out[:MAX_ARGSETS], guessed
