"""Which values hold tracers inside a traced function: a small abstract interpreter.

Every expression of a traced function gets one of three kinds:

* ``S`` static: a concrete Python value at trace time (constants, ``x.shape``, ``len(x)``,
  static and unpassed-default parameters, module globals, values under
  ``jax.ensure_compile_time_eval()``);
* ``T`` traced: an abstract tracer (non-static parameters and everything computed from them,
  every ``jnp.*``/``lax.*``/``jax.random.*`` result);
* ``U`` unknown: the analysis cannot tell (results of unknown library calls, attributes of
  objects whose fields may be static).  Rules stay silent on ``U``: precision first.

The interpreter walks statements once (loops twice, so loop-carried values propagate), follows
calls into functions of the same module, and reports what it sees as *events* that the rule
classes subscribe to; it never decides what is a finding itself.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Tuple

import libcst as cst

from jaxlint.analysis.scopes import (
    MUTATING_METHODS,
    VALUE_KINDS,
    FastVisitor,
    FuncInfo,
    ModuleIndex,
    Scope,
    dotted_name,
)
from jaxlint.analysis.transforms import (
    PARTIAL,
    PASS_THROUGH,
    TRANSFORMS,
    Application,
    FnRef,
    Transform,
    TransformFinder,
    parse_statics,
    resolve,
)

S, U, T = 0, 1, 2

# flags
BOOL = 1  # a boolean array (comparison, isnan, logical_*): used as a mask it is data-dependent
ARRAY = 2  # known to be an array (not a pytree container)
PYSEQ = 4  # a Python list/tuple/range: indexing it needs a concrete integer
DICT = 8  # a Python dict (pytree container)
OPAQUE = 16  # attributes may be static fields (self, nnx modules, equinox filter_jit args)
SHAPE = 32  # a shape tuple (static)
REF = 64  # a mutable Ref (Pallas): ``ref[...] = v`` is its API
RAW = 128  # a parameter as received: could be an array, a pytree container or None
NOTNONE = 256  # a Python value known not to be None (bound by functools.partial to an expression)
TEXT = 512  # a string formatted from a traced value (it shows the tracer, not the numbers)
TRUE = 1024  # a Python value known to be true (the literal True)
FALSE = 2048  # a Python value known to be false (False, None)


class Val:
    __slots__ = ("k", "name", "f", "items", "fn", "cls")

    def __init__(self, k: int, name: Optional[str] = None, f: int = 0, items=None, fn=None, cls=None):
        self.k = k
        self.name = name
        self.f = f
        self.items = items
        self.fn = fn  # (FnRef, closure env, bound positional Vals, bound keyword Vals)
        self.cls = cls  # the pytree class (ClassInfo) of a traced value, when its annotation says

    def renamed(self, name: str, extra: int = 0) -> "Val":
        return Val(self.k, name, self.f | extra, self.items, None, self.cls)

    @property
    def container(self) -> bool:
        return bool(self.f & (PYSEQ | DICT))

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Val({'SUT'[self.k]}, {self.name!r}, f={self.f})"


STATIC = Val(S)
UNKNOWN = Val(U)
_KNOWN_CONSTANTS = {"True": Val(S, None, TRUE), "False": Val(S, None, FALSE), "None": Val(S, None, FALSE)}


def join(a: Val, b: Val) -> Val:
    if a is b:
        return a
    if a.k == b.k:
        if a.k == S:
            return a if a.f == b.f and a.fn is None else Val(S, None, a.f & b.f)
        return Val(a.k, a.name or b.name, a.f & b.f)
    hi, lo = (a, b) if a.k > b.k else (b, a)
    return Val(hi.k, hi.name, hi.f & lo.f if hi.k == U else hi.f)


def joinall(vals: Sequence[Val]) -> Val:
    out = STATIC
    for v in vals:
        out = v if out is STATIC else join(out, v)
    return out


def first_traced_name(vals: Sequence[Val]) -> Optional[str]:
    for v in vals:
        if v.k == T and v.name:
            return v.name
    return None


ARRAY_ATTRS = frozenset({"T", "mT", "real", "imag", "at", "flat"})

STATIC_ATTRS = frozenset(
    {"shape", "ndim", "dtype", "size", "weak_type", "sharding", "aval", "itemsize", "nbytes"}
)

# jax.numpy / lax functions whose result is a Python value even on tracers.
STATIC_FUNCS = frozenset(
    {
        "jax.numpy.shape",
        "jax.numpy.ndim",
        "jax.numpy.size",
        "jax.numpy.issubdtype",
        "jax.numpy.isdtype",
        "jax.numpy.result_type",
        "jax.numpy.promote_types",
        "jax.numpy.dtype",
        "jax.numpy.finfo",
        "jax.numpy.iinfo",
        "jax.numpy.can_cast",
        "jax.numpy.isscalar",
        "jax.numpy.iscomplexobj",
        "jax.numpy.isrealobj",
        "jax.numpy.broadcast_shapes",
        "jax.numpy.get_printoptions",
        "jax.lax.broadcast_shapes",
        "jax.lax.axis_size",
        "jax.core.get_aval",
        "jax.tree_util.tree_structure",
        "jax.tree.structure",
        "jax.tree_util.treedef_is_leaf",
        "jax.devices",
        "jax.local_devices",
        "jax.device_count",
        "jax.local_device_count",
        "jax.process_index",
        "jax.process_count",
        "jax.default_backend",
        "jax.eval_shape",
        "jax.ShapeDtypeStruct",
        "jax.named_scope",
        "jax.debug.print",
        "jax.debug.callback",
        "jax.debug.breakpoint",
        "jax.debug.visualize_array_sharding",
        "jax.ensure_compile_time_eval",
        "jax.typeof",
        "jax.lax.dtype",
        "jax.numpy.ndarray",
    }
)

TRACED_PREFIXES = (
    "jax.numpy.",
    "jax.lax.",
    "jax.random.",
    "jax.nn.",
    "jax.scipy.",
    "jax.image.",
    "jax.ops.",
    "jax.lax.linalg.",
)

# Pallas is mostly Python-level helpers (cdiv, BlockSpec, next_power_of_2); these are traced.
PALLAS_TRACED = frozenset(
    {
        "program_id",
        "num_programs",
        "load",
        "store",
        "swap",
        "atomic_add",
        "atomic_max",
        "atomic_min",
        "atomic_and",
        "atomic_or",
        "atomic_xor",
        "atomic_xchg",
        "atomic_cas",
        "dot",
        "max_contiguous",
        "multiple_of",
    }
)

STATIC_PREFIXES = ("jax.dtypes.", "jax.sharding.", "jax.typing.", "jax.core.", "jax.tree_util.register")

TREE_MAPS = frozenset(
    {
        "jax.tree_util.tree_map",
        "jax.tree.map",
        "jax.tree_map",
        "jax.tree_util.tree_map_with_path",
        "jax.tree.map_with_path",
    }
)

CALLBACKS = frozenset(
    {
        "jax.pure_callback",
        "jax.experimental.io_callback",
        "jax.experimental.host_callback.call",
        "jax.experimental.host_callback.id_tap",
    }
)

# Methods on Python containers, not arrays.
DICT_METHODS = frozenset({"keys", "values", "items", "get"})

# NumPy functions that only read a tracer's shape or dtype: a static result.
NUMPY_STATIC = frozenset(
    {"shape", "ndim", "size", "result_type", "dtype", "issubdtype", "iinfo", "finfo", "isscalar", "iscomplexobj", "isrealobj", "can_cast", "promote_types"}
)

# NumPy functions that work on tracers because they dispatch to the array's own method or
# only read its shape (verified against JAX: see fixtures/concretization.py and the oracle test).
NUMPY_SAFE = NUMPY_STATIC | frozenset(
    {
        "sum",
        "mean",
        "prod",
        "max",
        "min",
        "amax",
        "amin",
        "any",
        "all",
        "argmax",
        "argmin",
        "std",
        "var",
        "cumsum",
        "cumprod",
        "round",
        "around",
        "reshape",
        "transpose",
        "squeeze",
        "swapaxes",
        "shape",
        "ndim",
        "size",
        "take",
        "repeat",
        "trace",
        "diagonal",
        "searchsorted",
    }
)


Env = Dict[str, Val]


class Frame:
    """The state of one function being interpreted."""

    __slots__ = (
        "func",
        "scope",
        "env",
        "closure",
        "where",
        "entry",
        "cached",
        "declared",
        "returns",
        "concrete",
        "depth",
        "entry_name",
        "notnone",
    )

    def __init__(self, func: FuncInfo, scope: Scope, where: str, entry: Application, cached: bool):
        self.func = func
        self.scope = scope
        self.env: Env = {}
        self.closure: Optional[List[Env]] = None  # enclosing traced environments, innermost first
        self.where = where
        self.entry = entry
        self.cached = cached
        self.declared: set = set()  # global / nonlocal names
        self.returns: List[Val] = []
        self.concrete = 0  # inside ``with jax.ensure_compile_time_eval()``
        self.depth = 0
        self.entry_name = ""
        # Enclosing-scope names known not to be None where the function is handed to JAX
        # (``if prev is None: return ...`` earlier in the enclosing function).
        self.notnone: frozenset = frozenset()

    def lookup(self, name: str) -> Optional[Val]:
        v = self.env.get(name)
        if v is not None:
            return v
        if self.closure:
            for e in self.closure:
                v = e.get(name)
                if v is not None:
                    return v
        return None

    def is_local(self, name: str) -> bool:
        return self.lookup(name) is not None and name not in self.declared


class Context:
    """What a rule sees when an event reaches it."""

    __slots__ = ("frame", "analyzer")

    def __init__(self, frame: Frame, analyzer: "Analyzer"):
        self.frame = frame
        self.analyzer = analyzer

    @property
    def where(self) -> str:
        return self.frame.where

    @property
    def cached(self) -> bool:
        return self.frame.cached

    @property
    def func(self) -> FuncInfo:
        return self.frame.func

    def is_local(self, name: str) -> bool:
        return self.frame.is_local(name)

    def report(self, rule, node: cst.CSTNode, **fields) -> None:
        self.analyzer.report(rule, node, self.frame, fields)


EVENTS = (
    "test",
    "call",
    "method",
    "boolop",
    "not_",
    "compare_in",
    "subscript",
    "store",
    "capture",
    "name_write",
    "format_spec",
    "traced_static_arg",
)


def _entry_label(t: Transform, func: FuncInfo) -> str:
    return f"{t.label} {func.name}()"


class Analyzer:
    """Interprets every traced function of a module and publishes events to the rules."""

    MAX_DEPTH = 5

    def __init__(
        self,
        index: ModuleIndex,
        finder: TransformFinder,
        handlers: Dict[str, List[Callable]],
        report: Callable,
        external=None,
    ):
        self.index = index
        self.finder = finder
        self.handlers = handlers
        self._report = report
        self.external = external  # cross-module resolver, or None
        self.memo: Dict[tuple, Val] = {}
        self.active: set = set()
        self.analyzed_entries: List[Tuple[Application, Frame]] = []
        self.container_cache: Dict[int, frozenset] = {}
        self._callee_table: Optional[Dict] = None
        self._alias_by_app: Optional[Dict] = None

    # -- plumbing ----------------------------------------------------------------
    def emit(self, event: str, frame: Frame, *args) -> None:
        hs = self.handlers.get(event)
        if not hs:
            return
        ctx = Context(frame, self)
        for h in hs:
            h(ctx, *args)

    def report(self, rule, node, frame: Frame, fields) -> None:
        self._report(rule, node, frame, fields)

    # -- entry points ----------------------------------------------------------
    def run(self) -> None:
        for app in self.finder.applications:
            if self._nested_in_entry(app.func):
                continue  # interpreted inline, with the enclosing tracers in scope
            if app.nargs is not None and self._in_traced(app.site_scope):
                continue  # a lax body handed over inside traced code: interpreted there, with its operands
            self.analyze_entry(app)

    def _nested_in_entry(self, f: FuncInfo) -> bool:
        return self._in_traced(f.scope)

    def _in_traced(self, s) -> bool:
        while s is not None:
            if s.kind == "function" and s.func is not None and self.finder.is_traced_def(s.func):
                return True
            s = s.parent
        return False

    def passed_params(self, app: Application) -> Optional[set]:
        """Parameter names some call site of the module passes; None when unknowable (every
        parameter then counts as passed)."""
        t = app.transform
        if not t.statics and not t.in_axes and not t.filtered:
            return None  # lax bodies and the like receive every operand
        f = app.func
        # At a call site a method's self is the object the method is called on.
        callable_pos = [p.name.value for p in f.positional_params()][app.bound_pos + (1 if f.is_method else 0) :]
        names: set = set()
        for call in self.call_sites(app):
            npos = 0
            for a in call.args:
                if a.star:
                    return None
                if a.keyword is None:
                    npos += 1
                else:
                    names.add(a.keyword.value)
            names.update(callable_pos[:npos])
        return names

    def _calls_by_callee(self) -> Dict:
        """Calls grouped by the callee's name (``f(...)``, ``self.f(...)``) or node: built once,
        so that finding one function's call sites does not scan every call of the module."""
        table = self._callee_table
        if table is None:
            table = {}
            for call, scope, _ in self.index.calls:
                func = call.func
                if isinstance(func, cst.Name):
                    key = func.value
                elif isinstance(func, cst.Attribute):
                    key = "." + func.attr.value
                else:
                    key = id(func)
                table.setdefault(key, []).append((call, scope))
            self._callee_table = table
        return table

    def call_sites(self, app: Application) -> List[cst.Call]:
        """Calls of the traced callable within this module."""
        out = []
        f = app.func
        site = app.site
        table = self._calls_by_callee()
        candidates = list(table.get(id(site), ()))
        if isinstance(site, cst.Decorator):
            candidates += table.get(f.name, ())
            if f.cls is not None:
                candidates += table.get("." + f.name, ())
        else:
            candidates += [c for name, _app in self._alias_names(app) for c in table.get(name, ())]
        for call, scope in candidates:
            func = call.func
            if func is site:
                out.append(call)  # jax.jit(f)(...)
                continue
            if isinstance(func, cst.Name):
                if isinstance(site, cst.Decorator):
                    if scope.lookup_def(func.value) is f:
                        out.append(call)
                else:
                    owner = scope.lookup_scope(func.value)
                    if owner is not None and self.finder.aliases.get((id(owner), func.value)) is app:
                        out.append(call)
            elif (
                isinstance(func, cst.Attribute)
                and isinstance(site, cst.Decorator)
                and f.cls is not None
                and isinstance(func.value, cst.Name)
                and func.value.value in ("self", "cls")
                and func.attr.value == f.name
            ):
                out.append(call)
        return out

    def _alias_names(self, app: Application):
        names = self._alias_by_app
        if names is None:
            names = {}
            for (_sid, name), a in self.finder.aliases.items():
                names.setdefault(id(a), []).append((name, a))
            self._alias_by_app = names
        return names.get(id(app), [])

    def static_names(self, app: Application) -> Tuple[set, bool]:
        """Names of parameters made static; and whether the spec could not be read."""
        spec = app.statics
        pos = app.jit_positional()
        names = {n for n, _ in spec.names}
        for i, _node in spec.nums:
            j = i + len(pos) if i < 0 else i
            if 0 <= j < len(pos):
                names.add(pos[j])
        return names, spec.opaque

    def analyze_entry(self, app: Application) -> None:
        f = app.func
        t = app.transform
        where = _entry_label(t, f)
        frame = Frame(f, f.body_scope or f.scope, where, app, t.cached)
        frame.entry_name = where
        statics, opaque = self.static_names(app)
        passed = self.passed_params(app)
        p = f.params
        positional = f.positional_params()
        skip = 0
        if app.bound_self and f.is_method and positional:
            frame.env[positional[0].name.value] = STATIC
            skip = 1
        nargs = app.nargs
        operands = None
        if nargs is not None and isinstance(app.site, cst.Call):
            site_args = [(a, structure_of(a.value, app.site_scope)) for a in app.site.args]
            operands = lax_operands(resolve(app.site.func, app.site_scope) or "", site_args)
        for i, param in enumerate(positional[skip:]):
            name = param.name.value
            if i < app.bound_pos:
                frame.env[name] = STATIC
                continue
            j = i - app.bound_pos
            if name in app.bound_set:
                frame.env[name] = Val(S, None, NOTNONE)
                continue
            if nargs is not None and j >= nargs and param.default is not None:
                frame.env[name] = STATIC  # the primitive does not pass it: its default stays
                continue
            if operands is not None and j < len(operands) and operands[j].container:
                o = operands[j]
                frame.env[name] = Val(T, name, o.f, o.items)  # a carried Python list/tuple/dict
                continue
            frame.env[name] = self._param_val(app, param, name, statics, opaque, passed, i, f)
        for param in p.kwonly_params:
            name = param.name.value
            if nargs is not None and param.default is not None:
                frame.env[name] = STATIC
                continue
            frame.env[name] = self._param_val(app, param, name, statics, opaque, passed, -1, f)
        if isinstance(p.star_arg, cst.Param):
            k = U if (opaque or t.filtered or app.opaque_axes) else T
            sname = p.star_arg.name.value
            frame.env[sname] = Val(k, sname, PYSEQ | (REF if t.refs or is_ref_name(sname) else 0))
        if p.star_kwarg is not None:
            known = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
            k = U if (opaque or t.filtered or app.opaque_axes or app.bound_kw - known) else T
            frame.env[p.star_kwarg.name.value] = Val(k, p.star_kwarg.name.value, DICT)
        if isinstance(app.site, cst.Call) and app.site_scope.kind == "function":
            frame.notnone = guarded_not_none(app.site_scope.node, app.site)
        self.analyzed_entries.append((app, frame))
        self.run_frame(frame)

    def _param_val(self, app, param, name, statics, opaque, passed, i, f) -> Val:
        t = app.transform
        if name in app.bound_set:
            return Val(S, None, NOTNONE)
        if name in statics or name in app.bound_kw:
            return STATIC
        if opaque:
            return UNKNOWN
        if param.default is not None and passed is not None and name not in passed:
            # JAX does not bind defaults the caller did not pass: they stay Python values.
            return default_val(param.default)
        if i >= 0 and (i in app.unbatched or app.opaque_axes):
            return UNKNOWN  # vmap(in_axes=None) hands the value through untouched
        if t.filtered:
            return Val(T, name, ARRAY) if is_array_annotation(param.annotation, f.scope) else UNKNOWN
        if f.is_method and not app.bound_self and param is f.positional_params()[0]:
            return Val(T, name, OPAQUE)  # a traced ``self``: its fields may be static
        flags = OPAQUE if t.opaque_attrs else 0
        if t.refs or is_ref_name(name):
            return Val(T, name, flags | REF)
        return Val(T, name, flags | self.param_shape_flags(f, param, name), cls=self.pytree_class(param, f))

    def pytree_class(self, param, f: FuncInfo):
        """The module's class a parameter is annotated with (``state: TrainState``), if any."""
        ann = param.annotation
        if ann is None:
            return None
        e = ann.annotation
        if isinstance(e, cst.Name):
            owner = f.scope.lookup_scope(e.value)
            if owner is not None:
                return owner.classes.get(e.value)
        return None

    def param_shape_flags(self, f: FuncInfo, param, name: str) -> int:
        """ARRAY when the parameter is surely an array or scalar; RAW when it may be a pytree
        container (it is indexed, iterated, unpacked, compared with None...): then its bare
        truthiness (``if p:``) is a container or None check, not a bool conversion."""
        if is_array_annotation(param.annotation, f.scope) or is_scalar_annotation(param.annotation):
            return ARRAY
        cf = annotation_container(param.annotation)
        if cf:
            return cf
        d = param.default
        if isinstance(d, (cst.Integer, cst.Float)) or isinstance(d, cst.Name) and d.value in ("True", "False"):
            return ARRAY
        if name in container_uses(f.node, self.container_cache):
            return RAW
        return 0

    # -- functions called from traced code --------------------------------------
    def call_function(
        self,
        frame: Frame,
        call: Optional[cst.Call],
        fnval: tuple,
        argvals: List[Tuple[cst.Arg, Val]],
        self_val: Optional[Val] = None,
    ) -> Val:
        ref, closure, bound_args, bound_kw = fnval
        f: FuncInfo = ref.func
        if not any(v.k == T for _, v in argvals) and not any(v.k == T for v in bound_args) and not (
            self_val is not None and self_val.k == T
        ):
            return STATIC if all(v.k == S for _, v in argvals) else UNKNOWN
        if frame.depth >= self.MAX_DEPTH:
            return UNKNOWN
        env: Env = {}
        positional = f.positional_params()
        p = f.params
        idx = 0
        if ref.bound_self and f.is_method and positional:
            env[positional[0].name.value] = self_val if self_val is not None else STATIC
            idx = 1
        for v in bound_args:
            if idx < len(positional):
                env[positional[idx].name.value] = v
            idx += 1
        star_seen = False
        extra_pos: List[Val] = []
        for a, v in argvals:
            if a.keyword is not None:
                env[a.keyword.value] = v
                continue
            if a.star:
                star_seen = True
                continue
            if star_seen:
                continue
            if idx < len(positional):
                env[positional[idx].name.value] = v
            else:
                extra_pos.append(v)
            idx += 1
        for k, v in bound_kw.items():
            env.setdefault(k, v)
        for param in positional + list(p.kwonly_params):
            name = param.name.value
            if name not in env:
                if star_seen:
                    env[name] = UNKNOWN
                elif param.default is not None:
                    env[name] = default_val(param.default)
                else:
                    env[name] = UNKNOWN
        if isinstance(p.star_arg, cst.Param):
            env[p.star_arg.name.value] = Val(joinall(extra_pos).k if extra_pos else S, p.star_arg.name.value, PYSEQ)
        if p.star_kwarg is not None:
            env[p.star_kwarg.name.value] = Val(U, None, DICT)
        for app in self.finder.by_func.get(id(f.node), ()):
            # Calling a function that is itself jitted with static parameters: those stay Python
            # values inside it (a tracer passed there is a different error, at the call).
            if isinstance(app.site, cst.Decorator) and app.transform.statics:
                statics, opaque = self.static_names(app)
                for n in statics:
                    if n in env:
                        v = env[n]
                        if call is not None and v.k == T and not v.f & (RAW | OPAQUE | REF | PYSEQ | DICT):
                            arg = _arg_for(call, positional, n, ref.bound_self and f.is_method)
                            if arg is not None:
                                self.emit("traced_static_arg", frame, arg, n, f, v)
                        env[n] = STATIC
        for param in positional + list(p.kwonly_params):
            v = env.get(param.name.value)
            if v is not None and v.k == T and not v.container:
                cf = annotation_container(param.annotation)
                if cf:
                    env[param.name.value] = Val(T, v.name, cf)
        for n, v in list(env.items()):
            if v.k == T and v.fn is None and (v.name != n or is_ref_name(n)):
                # name parameters as the helper does; ``*_ref`` parameters are Pallas Refs
                env[n] = v.renamed(n, REF if is_ref_name(n) else 0)
        key = (
            id(f.node),
            tuple(sorted((n, v.k, v.f) for n, v in env.items())),
            frame.cached,
            id(closure) if closure else 0,
        )
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            return UNKNOWN
        self.active.add(key)
        where = f"{f.name}(), called with traced values from {frame.entry_name}"
        sub = Frame(f, f.body_scope or f.scope, where, frame.entry, frame.cached)
        sub.entry_name = frame.entry_name
        sub.env = env
        sub.closure = closure
        sub.depth = frame.depth + 1
        try:
            result = self.run_frame(sub)
        finally:
            self.active.discard(key)
        self.memo[key] = result
        return result

    def trace_inline(
        self, frame: Frame, fnval: tuple, label: str, statics: set = frozenset(), operands: Optional[List[Val]] = None
    ) -> None:
        """A function handed to a tracing transform inside traced code.  ``operands``: what a lax
        primitive passes positionally (the carry keeps its pytree structure); further parameters
        keep their defaults.  Without ``operands`` every parameter is traced."""
        ref, closure, bound_args, bound_kw = fnval
        f: FuncInfo = ref.func
        if frame.depth >= self.MAX_DEPTH:
            return
        key = (id(f.node), "inline", frame.cached, id(closure) if closure else 0)
        if key in self.memo or key in self.active:
            return
        self.active.add(key)
        sub = Frame(f, f.body_scope or f.scope, f"{label} {f.name}() inside {frame.entry_name}", frame.entry, frame.cached)
        sub.entry_name = frame.entry_name
        sub.closure = closure
        sub.depth = frame.depth + 1
        positional = f.positional_params()
        p = f.params
        skip = 1 if (ref.bound_self and f.is_method) else 0
        nb = len(bound_args)
        for i, param in enumerate(positional):
            name = param.name.value
            j = i - skip - nb  # index among the operands the primitive passes
            if i < skip or i - skip < nb or name in statics or name in bound_kw:
                sub.env[name] = STATIC if i < skip else (bound_args[i - skip] if i - skip < nb else STATIC)
            elif operands is not None and j < len(operands):
                v = operands[j]
                sub.env[name] = Val(v.k, name, v.f | (REF if is_ref_name(name) else 0), v.items) if v.k == T else v
            elif operands is not None and param.default is not None:
                sub.env[name] = STATIC
            else:
                sub.env[name] = Val(T, name, REF if is_ref_name(name) else self.param_shape_flags(f, param, name))
        for param in p.kwonly_params:
            name = param.name.value
            sub.env[name] = STATIC if (name in statics or name in bound_kw or param.default is not None) else Val(T, name)
        if isinstance(p.star_arg, cst.Param):
            sname = p.star_arg.name.value
            sub.env[sname] = Val(T, sname, PYSEQ | (REF if is_ref_name(sname) else 0))
        if p.star_kwarg is not None:
            known = {x.name.value for x in positional} | {x.name.value for x in p.kwonly_params}
            k = U if set(bound_kw) - known or ref.bound_kw - known else T
            sub.env[p.star_kwarg.name.value] = Val(k, p.star_kwarg.name.value, DICT)
        try:
            self.run_frame(sub)
        finally:
            self.active.discard(key)
        self.memo[key] = STATIC

    def run_frame(self, frame: Frame) -> Val:
        node = frame.func.node
        if isinstance(node, cst.Lambda):
            v = Interp(self, frame).eval(node.body)
            return v
        Interp(self, frame).block(node.body)
        if not frame.returns:
            return STATIC
        return joinall(frame.returns)


_CONTAINER_ANNOTATIONS = {
    "Dict": DICT,
    "dict": DICT,
    "Mapping": DICT,
    "MutableMapping": DICT,
    "List": PYSEQ,
    "list": PYSEQ,
    "Sequence": PYSEQ,
    "Tuple": PYSEQ,
    "tuple": PYSEQ,
    "Iterable": PYSEQ,
}


def annotation_container(ann) -> int:
    """DICT / PYSEQ when a parameter's annotation says it is a Python container (possibly
    Optional): its truthiness is an emptiness check, not a tracer's."""
    if ann is None:
        return 0
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    if isinstance(e, cst.BinaryOperation) and isinstance(e.operator, cst.BitOr):
        return annotation_container(e.left) or annotation_container(e.right)
    if isinstance(e, cst.Subscript):
        head = (dotted_name(e.value) or "").rsplit(".", 1)[-1]
        if head in ("Optional", "Union"):
            for el in e.slice:
                if isinstance(el.slice, cst.Index):
                    f = annotation_container(el.slice.value)
                    if f:
                        return f
            return 0
        e = e.value
    head = (dotted_name(e) or "").rsplit(".", 1)[-1]
    return _CONTAINER_ANNOTATIONS.get(head, 0)


def is_ref_name(name: str) -> bool:
    return name.endswith(("_ref", "_refs")) or name in ("ref", "refs")


_SCALAR_TYPES = frozenset({"bool", "int", "float", "complex"})


def is_scalar_annotation(ann) -> bool:
    if ann is None:
        return False
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    return isinstance(e, cst.Name) and e.value in _SCALAR_TYPES


class _ContainerUses(FastVisitor):
    def __init__(self):
        self.names: set = set()

    def _add(self, e) -> None:
        if isinstance(e, cst.Name):
            self.names.add(e.value)

    def visit_Subscript(self, node) -> None:
        self._add(node.value)

    def visit_For(self, node) -> None:
        self._add(node.iter)

    def visit_CompFor(self, node) -> None:
        self._add(node.iter)

    def visit_StarredElement(self, node) -> None:
        self._add(node.value)

    def visit_Arg(self, node) -> None:
        if node.star:
            self._add(node.value)

    def visit_Assign(self, node) -> None:
        if any(isinstance(t.target, (cst.Tuple, cst.List)) for t in node.targets):
            self._add(node.value)

    def visit_Comparison(self, node) -> None:
        if any(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in node.comparisons):
            self._add(node.left)
            for c in node.comparisons:
                self._add(c.comparator)

    def visit_Call(self, node) -> None:
        f = node.func
        if isinstance(f, cst.Name) and f.value in ("len", "isinstance", "list", "tuple", "dict", "iter", "zip", "enumerate"):
            if node.args:
                self._add(node.args[0].value)
        elif isinstance(f, cst.Attribute) and f.attr.value in ("array", "asarray", "tree_map", "map", "tree_leaves", "leaves"):
            for a in node.args:
                self._add(a.value)


def container_uses(node, cache: Dict[int, frozenset]) -> frozenset:
    """Names a function uses as containers (indexed, iterated, unpacked, compared with None)."""
    key = id(node)
    r = cache.get(key)
    if r is None:
        v = _ContainerUses()
        v.walk(node)
        r = cache[key] = frozenset(v.names)
    return r


def is_array_annotation(ann, scope: Scope) -> bool:
    """``jax.Array``, ``jnp.ndarray``, ``np.ndarray``, ``chex.Array``, jaxtyping ``Float[Array, "n"]``."""
    if ann is None:
        return False
    e = ann.annotation if isinstance(ann, cst.Annotation) else ann
    if isinstance(e, cst.Subscript):
        q = resolve(e.value, scope) or dotted_name(e.value) or ""
        if q.split(".")[-1] in (
            "Float",
            "Int",
            "Bool",
            "Shaped",
            "Num",
            "Real",
            "Inexact",
            "Integer",
            "UInt",
            "Complex",
        ):
            return True
        return False
    q = resolve(e, scope)
    if q is None:
        n = dotted_name(e)
        return n in ("Array", "jax.Array", "jnp.ndarray", "np.ndarray", "chex.Array")
    return q in (
        "jax.Array",
        "jax.numpy.ndarray",
        "numpy.ndarray",
        "chex.Array",
        "jaxtyping.Array",
        "jax.typing.Array",
        "jax.core.Tracer",
    ) or q.endswith(".Array") and q.startswith(("jax", "chex", "jaxtyping"))


class Interp:
    """Interprets one function body in a Frame."""

    __slots__ = ("a", "fr", "emit", "receiver", "attr_hint")

    def __init__(self, analyzer: Analyzer, frame: Frame):
        self.a = analyzer
        self.fr = frame
        self.emit = analyzer.emit
        # The name being mutated in place (``h.append(x)``, ``d[k] = v``): not a value read.
        self.receiver: Optional[cst.Name] = None
        # (name node, attribute) while evaluating ``name.attribute``: captures say which field is read
        self.attr_hint: Optional[tuple] = None

    # -- statements --------------------------------------------------------------
    def block(self, body) -> None:
        if isinstance(body, cst.IndentedBlock) or isinstance(body, cst.SimpleStatementSuite):
            stmts = body.body
        else:
            stmts = body
        for st in stmts:
            self.stmt(st)

    def stmt(self, st) -> None:
        m = getattr(self, "s_" + type(st).__name__, None)
        if m is not None:
            m(st)

    def s_SimpleStatementLine(self, st) -> None:
        for small in st.body:
            m = getattr(self, "x_" + type(small).__name__, None)
            if m is not None:
                m(small, st)

    def s_SimpleStatementSuite(self, st) -> None:
        self.s_SimpleStatementLine(st)

    def x_Expr(self, n, st) -> None:
        self.eval(n.value)

    def x_Assign(self, n, st) -> None:
        v = self.eval(n.value)
        for t in n.targets:
            self.assign(t.target, v, st, n)

    def x_AnnAssign(self, n, st) -> None:
        if n.value is not None:
            self.assign(n.target, self.eval(n.value), st, n)

    def x_AugAssign(self, n, st) -> None:
        v = self.eval(n.value)
        t = n.target
        if isinstance(t, cst.Name):
            old = self.fr.lookup(t.value)
            if old is None:
                old = self.name_val(t) if t.value in self.fr.declared else STATIC
            new = self.binop(old, v, n.operator)
            self.assign(t, new, st, n, aug=True)
        else:
            self.assign(t, v, st, n, aug=True)

    def x_Return(self, n, st) -> None:
        self.fr.returns.append(self.eval(n.value) if n.value is not None else STATIC)

    def x_Assert(self, n, st) -> None:
        v = self.eval(n.test, True)
        self.emit("test", self.fr, "assert", n.test, v, n)

    def x_Raise(self, n, st) -> None:
        if n.exc is not None:
            self.eval(n.exc)

    def x_Global(self, n, st) -> None:
        for name in n.names:
            self.fr.declared.add(name.name.value)

    x_Nonlocal = x_Global

    def x_Import(self, n, st) -> None:
        for alias in n.names:
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.fr.env.pop(alias.asname.name.value, None)

    def x_Del(self, n, st) -> None:
        pass

    # -- narrowing: tests after which a name is surely a Python value -----------------
    _SCALAR_TYPES = frozenset(
        {
            "int",
            "float",
            "bool",
            "complex",
            "str",
            "bytes",
            "numbers.Number",
            "numbers.Integral",
            "numbers.Real",
            "numbers.Complex",
            "numpy.integer",
            "numpy.floating",
            "numpy.number",
            "numpy.generic",
            "numpy.bool_",
        }
    )
    _ARRAY_TYPES = frozenset({"jax.core.Tracer", "jax.Array", "jax.numpy.ndarray"})

    def _type_names(self, e) -> List[str]:
        items = [el.value for el in e.elements] if isinstance(e, cst.Tuple) else [e]
        out = []
        for it in items:
            q = resolve(it, self.fr.scope)
            if q is None and isinstance(it, cst.Name) and self.fr.scope.lookup_scope(it.value) is None:
                q = it.value
            out.append(q or "")
        return out

    def narrow(self, test) -> List[str]:
        """Names that hold Python values wherever ``test`` is true."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
            return self.narrow(test.left) + self.narrow(test.right)
        negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
        call = test.expression if negated else test
        if not isinstance(call, cst.Call) or not call.args or not isinstance(call.args[0].value, cst.Name):
            return []
        name = call.args[0].value.value
        func = call.func
        fname = dotted_name(func) or ""
        if fname == "isinstance" and len(call.args) == 2 and self.fr.scope.lookup_scope("isinstance") is None:
            types = self._type_names(call.args[1].value)
            if not negated and types and not any(t in self._ARRAY_TYPES or t in ("", "object", "numpy.ndarray") for t in types):
                return [name]  # a Python scalar, or an instance of a Python class: not a tracer
            if negated and types and all(t in self._ARRAY_TYPES for t in types):
                return [name]
            return []
        last = fname.rsplit(".", 1)[-1].lower()
        if "tracer" in last and (negated and last.startswith("is") or not negated and last.startswith("not")):
            return [name]  # ``not is_tracer(x)``, ``not_jax_tracer(x)``
        if not negated and last in ("is_concrete", "is_constant"):
            return [name]
        return []

    def narrow_false(self, test) -> List[str]:
        """Names that hold Python values wherever ``test`` is false."""
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            return self.narrow(test.expression)
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            return self.narrow_false(test.left) + self.narrow_false(test.right)
        return []

    def _with_static(self, names, fn):
        saved = {n: self.fr.env.get(n) for n in names}
        for n in names:
            self.fr.env[n] = STATIC
        try:
            return fn()
        finally:
            for n, v in saved.items():
                if v is None:
                    self.fr.env.pop(n, None)
                else:
                    self.fr.env[n] = v

    def _none_test(self, test) -> Optional[bool]:
        """For ``x is None`` / ``x is not None`` on a value known not to be None: the outcome."""
        if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)):
            return None
        c = test.comparisons[0]
        if not _is_none(c.comparator) or not isinstance(c.operator, (cst.Is, cst.IsNot)):
            return None
        v = self.fr.lookup(test.left.value)
        if v is None:
            if test.left.value not in self.fr.notnone:
                return None
        elif not v.f & NOTNONE:
            return None
        return isinstance(c.operator, cst.IsNot)

    def s_If(self, st: cst.If, kind: str = "if") -> None:
        known = self._none_test(st.test)
        v = self.eval(st.test, True)
        self.emit("test", self.fr, kind, st.test, v, st)
        if known is None and v.k == S and v.f & (TRUE | FALSE):
            # A Python value known here (``if not apply_softmax:`` with the default True).
            known = bool(v.f & TRUE)
        if known is True:
            self.block(st.body)  # the else branch cannot run at trace time
            return
        if known is False:
            if isinstance(st.orelse, cst.If):
                self.s_If(st.orelse, "if")
            elif isinstance(st.orelse, cst.Else):
                self.block(st.orelse.body)
            return
        before = dict(self.fr.env)
        for n in self.narrow(st.test):
            self.fr.env[n] = STATIC
        self.block(st.body)
        after_body = self.fr.env
        self.fr.env = dict(before)
        if isinstance(st.orelse, cst.If):
            self.s_If(st.orelse, "elif")
        elif isinstance(st.orelse, cst.Else):
            self.block(st.orelse.body)
        if st.orelse is None and _exits(st.body):
            # ``if not isinstance(x, C): raise ...``: past it, x is a C (a Python object)
            self.fr.env = dict(self.fr.env)
            for n in self.narrow_false(st.test):
                self.fr.env[n] = STATIC
            return
        self.fr.env = merge(after_body, self.fr.env)

    def s_For(self, st: cst.For) -> None:
        it = self.eval(st.iter)
        elem = self.element_of(st.iter, it)
        before = dict(self.fr.env)
        for _ in range(2):
            self.assign(st.target, elem, st, None)
            snapshot = dict(self.fr.env)
            self.block(st.body)
            self.fr.env = merge(before, self.fr.env)
            if same_kinds(snapshot, self.fr.env):
                break
        if st.orelse is not None:
            self.block(st.orelse.body)

    def s_While(self, st: cst.While) -> None:
        before = dict(self.fr.env)
        for _ in range(2):
            v = self.eval(st.test, True)
            self.emit("test", self.fr, "while", st.test, v, st)
            snapshot = dict(self.fr.env)
            self.block(st.body)
            self.fr.env = merge(before, self.fr.env)
            if same_kinds(snapshot, self.fr.env):
                break
        if st.orelse is not None:
            self.block(st.orelse.body)

    def s_Try(self, st) -> None:
        before = dict(self.fr.env)
        self.block(st.body)
        if st.orelse is not None:
            self.block(st.orelse.body)
        envs = [self.fr.env]
        for h in st.handlers:
            self.fr.env = dict(before)
            if h.name is not None and isinstance(h.name.name, cst.Name):
                self.fr.env[h.name.name.value] = STATIC
            self.block(h.body)
            envs.append(self.fr.env)
        env = envs[0]
        for e in envs[1:]:
            env = merge(env, e)
        self.fr.env = env
        if st.finalbody is not None:
            self.block(st.finalbody.body)

    s_TryStar = s_Try

    def s_With(self, st: cst.With) -> None:
        concrete = False
        for item in st.items:
            e = item.item
            if isinstance(e, cst.Call) and resolve(e.func, self.fr.scope) == "jax.ensure_compile_time_eval":
                concrete = True
                v = STATIC
            else:
                v = self.eval(e)
            if item.asname is not None:
                self.assign(item.asname.name, UNKNOWN if v.k != S else STATIC, st, None)
        if concrete:
            self.fr.concrete += 1
        try:
            self.block(st.body)
        finally:
            if concrete:
                self.fr.concrete -= 1

    def s_FunctionDef(self, st: cst.FunctionDef) -> None:
        f = self.a.index.func_by_node.get(id(st))
        if f is None:
            return
        for d in st.decorators:
            self.eval(d.decorator)
        closure = [self.fr.env] + (self.fr.closure or [])
        ref = FnRef(f)
        fnval = (ref, closure, [], {})
        self.fr.env[st.name.value] = Val(S, st.name.value, 0, None, fnval)
        apps = self.a.finder.by_func.get(id(st))
        if apps:
            for app in apps:
                if isinstance(app.site, cst.Decorator):
                    statics, _ = self.a.static_names(app)
                    self.a.trace_inline(self.fr, fnval, app.transform.label, statics)

    def s_ClassDef(self, st) -> None:
        self.fr.env[st.name.value] = STATIC

    def s_Match(self, st) -> None:
        self.eval(st.subject)
        before = dict(self.fr.env)
        env = None
        for case in st.cases:
            self.fr.env = dict(before)
            self.block(case.body)
            env = self.fr.env if env is None else merge(env, self.fr.env)
        if env is not None:
            self.fr.env = env

    # -- binding ---------------------------------------------------------------
    def assign(self, target, v: Val, st, node, aug: bool = False) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            if name in self.fr.declared:
                self.emit("name_write", self.fr, target, name, v, node or st)
            if v.k == T and v.fn is None and (v.name != name or is_ref_name(name)):
                # messages name the variable the user wrote; ``*_ref`` variables are Pallas Refs
                v = v.renamed(name, REF if is_ref_name(name) else 0)
            self.fr.env[name] = v
        elif isinstance(target, (cst.Tuple, cst.List)):
            els = target.elements
            starred = any(isinstance(e, cst.StarredElement) for e in els)
            if v.items is not None and not starred and len(v.items) == len(els):
                for e, item in zip(els, v.items):
                    self.assign(e.value, item, st, node)
            else:
                sub = Val(v.k, v.name, v.f & REF) if v.k != S else STATIC
                for e in els:
                    if isinstance(e, cst.StarredElement):
                        self.assign(e.value, Val(sub.k, sub.name, PYSEQ), st, node)
                    else:
                        self.assign(e.value, sub, st, node)
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, v, st, node)
        elif isinstance(target, cst.Subscript):
            if isinstance(target.value, cst.Name):
                self.receiver = target.value
            base = self.eval(target.value)
            idx = [self.eval_slice(s) for s in target.slice]
            self.emit("store", self.fr, "subscript", target, base, idx, v, node or st, aug)
        elif isinstance(target, cst.Attribute):
            if isinstance(target.value, cst.Name):
                self.receiver = target.value
            base = self.eval(target.value)
            self.emit("store", self.fr, "attr", target, base, [], v, node or st, aug)

    # -- expressions -------------------------------------------------------------
    def eval(self, e, in_test: bool = False) -> Val:
        m = getattr(self, "e_" + type(e).__name__, None)
        if m is None:
            return UNKNOWN
        return m(e, in_test)

    def e_Integer(self, e, t) -> Val:
        return STATIC

    e_Float = e_Imaginary = e_SimpleString = e_ConcatenatedString = e_Ellipsis = e_Integer

    def e_FormattedString(self, e, t) -> Val:
        traced = None
        for part in e.parts:
            if isinstance(part, cst.FormattedStringExpression):
                v = self.eval(part.expression)
                if v.k == T and traced is None:
                    traced = v
                if part.format_spec:
                    self.emit("format_spec", self.fr, part, v)
        return Val(S, traced.name, TEXT) if traced is not None else STATIC

    def e_Name(self, e: cst.Name, t) -> Val:
        if e.value in _KNOWN_CONSTANTS:
            return _KNOWN_CONSTANTS[e.value]
        v = self.fr.lookup(e.value)
        if v is not None and e.value not in self.fr.declared:
            return v
        return self.name_val(e)

    def name_val(self, e: cst.Name) -> Val:
        """A name that is not local to the traced computation: a global or a closure."""
        name = e.value
        owner = self.fr.scope.lookup_scope(name)
        if owner is None:
            return STATIC  # builtins
        binds = owner.bindings.get(name)
        if e is not self.receiver and binds and any(b.kind in VALUE_KINDS for b in binds):
            hint = self.attr_hint
            attr = hint[1] if hint is not None and hint[0] is e else None
            self.emit("capture", self.fr, e, name, owner, attr)
        f = owner.defs.get(name)
        if f is not None:
            return Val(S, name, 0, None, (FnRef(f), None, [], {}))
        return STATIC

    def e_Attribute(self, e: cst.Attribute, t) -> Val:
        base_expr = e.value
        if isinstance(base_expr, (cst.Name, cst.Attribute)):
            head = base_expr
            while isinstance(head, cst.Attribute):
                head = head.value
            if isinstance(head, cst.Name) and self.fr.lookup(head.value) is None:
                if resolve(e, self.fr.scope) is not None:
                    return STATIC  # a module attribute: jnp.float32, jnp.pi, lax.add
        attr = e.attr.value
        if isinstance(base_expr, cst.Name):
            self.attr_hint = (base_expr, attr)
        base = self.eval(base_expr)
        if attr in STATIC_ATTRS:
            return Val(S, None, SHAPE | PYSEQ if attr == "shape" else 0)
        if base.k == S:
            if base.fn is not None or base.f & OPAQUE:
                return STATIC
            return STATIC
        if base.f & OPAQUE:
            return UNKNOWN
        if base.k == T:
            name = dotted_name(e) or base.name
            if base.f & ARRAY or attr in ARRAY_ATTRS:
                return Val(T, name, ARRAY)
            # A field of a pytree argument: a leaf (traced) or static metadata of a dataclass
            # (``field(pytree_node=False)``, ``eqx.field(static=True)``).  Only the class can
            # tell: a NamedTuple's fields are leaves; a dataclass says which fields are static.
            kind = field_kind(base.cls, attr) if base.cls is not None else None
            if kind == "leaf":
                return Val(T, name, 0)
            if kind == "static":
                return STATIC
            return UNKNOWN
        return UNKNOWN

    def eval_slice(self, s: cst.SubscriptElement) -> Val:
        sl = s.slice
        if isinstance(sl, cst.Index):
            return self.eval(sl.value)
        vals = [self.eval(x) for x in (sl.lower, sl.upper, sl.step) if x is not None]
        return Val(max((v.k for v in vals), default=S), first_traced_name(vals), PYSEQ, tuple(vals))

    def e_Subscript(self, e: cst.Subscript, t) -> Val:
        base = self.eval(e.value)
        idx = [self.eval_slice(s) for s in e.slice]
        self.emit("subscript", self.fr, e, base, idx)
        if base.k == T:
            if base.f & PYSEQ and len(idx) == 1 and isinstance(e.slice[0].slice, cst.Slice):
                return Val(T, base.name, base.f & (PYSEQ | REF), None)  # lst[:] is a list
            if base.f & (PYSEQ | DICT) and base.items is None:
                return Val(T, base.name, base.f & REF)
            if base.items is not None and len(idx) == 1:
                i = _const_index(e.slice[0])
                if i is not None and -len(base.items) <= i < len(base.items):
                    return base.items[i]
            return Val(T, base.name, base.f & ARRAY)
        if base.k == S:
            if any(v.k == T for v in idx):
                return UNKNOWN
            if base.items is not None and len(idx) == 1:
                i = _const_index(e.slice[0])
                if i is not None and -len(base.items) <= i < len(base.items):
                    return base.items[i]
            if any(v.k == U for v in idx):
                return UNKNOWN
            return STATIC
        return UNKNOWN

    def binop(self, a: Val, b: Val, op) -> Val:
        if a.k == T or b.k == T:
            if a.container and b.container and isinstance(op, (cst.Add, cst.AddAssign)):
                return Val(T, a.name or b.name, PYSEQ)
            if a.f & PYSEQ and isinstance(op, (cst.Multiply, cst.MultiplyAssign)):
                return Val(T, a.name, PYSEQ)  # [x] * n: a Python list
            name = a.name if a.k == T else b.name
            return Val(T, name, ARRAY)  # arithmetic on a tracer gives an array
        if a.k == U or b.k == U:
            return UNKNOWN
        if a.container or b.container:
            return Val(S, None, a.f & (PYSEQ | DICT))
        return STATIC

    def e_BinaryOperation(self, e, t) -> Val:
        a = self.eval(e.left)
        b = self.eval(e.right)
        if isinstance(e.left, (cst.SimpleString, cst.FormattedString)) and isinstance(e.operator, cst.Modulo):
            return STATIC
        return self.binop(a, b, e.operator)

    def e_UnaryOperation(self, e, t) -> Val:
        v = self.eval(e.expression, t and isinstance(e.operator, cst.Not))
        if isinstance(e.operator, cst.Not):
            self.emit("not_", self.fr, e, v, t)
            if v.k == S and v.f & (TRUE | FALSE):
                return Val(S, None, FALSE if v.f & TRUE else TRUE)
            if v.f & (PYSEQ | DICT):
                return STATIC  # ``not args``: an emptiness check of a Python container
            if v.k == T:
                return Val(T, v.name, BOOL | (v.f & RAW))
            return Val(v.k)
        if v.k == T:
            return Val(T, v.name, v.f & (ARRAY | BOOL))
        return Val(v.k)

    def e_BooleanOperation(self, e, t) -> Val:
        a = self.eval(e.left, t)
        names = self.narrow(e.left) if isinstance(e.operator, cst.And) else []
        b = self._with_static(names, lambda: self.eval(e.right, t)) if names else self.eval(e.right, t)
        self.emit("boolop", self.fr, e, a, b, t)
        return join(a, b)

    def e_Comparison(self, e: cst.Comparison, t) -> Val:
        if _is_str(e.left) or any(_is_str(c.comparator) for c in e.comparisons):
            # Comparing with strings: the other side is a Python string (a dict key, a mode).
            self.eval(e.left)
            for c in e.comparisons:
                self.eval(c.comparator)
            return STATIC
        left = self.eval(e.left)
        vals = [left]
        static = True
        for c in e.comparisons:
            op = c.operator
            if isinstance(op, (cst.In, cst.NotIn)) and isinstance(c.comparator, cst.Name):
                # ``key in REGISTRY``: a membership lookup in a table, not a value computed with
                self.receiver = c.comparator
            r = self.eval(c.comparator)
            if isinstance(op, (cst.In, cst.NotIn)):
                self.emit("compare_in", self.fr, e, vals[-1], r, c, t)
                if isinstance(e.left, cst.SimpleString) or vals[-1].k == S and r.f & DICT:
                    vals.append(STATIC)
                    continue
                static = False
            elif not isinstance(op, (cst.Is, cst.IsNot)):
                static = False
            vals.append(r)
        if static:
            return STATIC
        k = max(v.k for v in vals)
        if k == T:
            return Val(T, first_traced_name(vals), BOOL | ARRAY)
        return Val(k)

    def e_IfExp(self, e: cst.IfExp, t) -> Val:
        v = self.eval(e.test, True)
        self.emit("test", self.fr, "ifexp", e.test, v, e)
        names = self.narrow(e.test)
        body = self._with_static(names, lambda: self.eval(e.body)) if names else self.eval(e.body)
        return join(body, self.eval(e.orelse))

    def e_Lambda(self, e: cst.Lambda, t) -> Val:
        f = self.a.index.func_by_node.get(id(e))
        if f is None:
            return STATIC
        closure = [self.fr.env] + (self.fr.closure or [])
        return Val(S, None, 0, None, (FnRef(f), closure, [], {}))

    def _seq(self, e, flags) -> Val:
        items = []
        plain = True
        for el in e.elements:
            if isinstance(el, cst.StarredElement):
                plain = False
                items.append(self.eval(el.value))
            else:
                items.append(self.eval(el.value))
        k = max((v.k for v in items), default=S)
        return Val(k, first_traced_name(items), flags, tuple(items) if plain else None)

    def e_Tuple(self, e, t) -> Val:
        return self._seq(e, PYSEQ)

    e_List = e_Tuple

    def e_Set(self, e, t) -> Val:
        v = self._seq(e, PYSEQ)
        return Val(v.k, v.name, PYSEQ)

    def e_Dict(self, e, t) -> Val:
        vals = []
        for el in e.elements:
            if isinstance(el, cst.DictElement):
                self.eval(el.key)
                vals.append(self.eval(el.value))
            else:
                vals.append(self.eval(el.value))
        k = max((v.k for v in vals), default=S)
        return Val(k, first_traced_name(vals), DICT)

    def _comp(self, e, elts) -> Val:
        saved = self.fr.env
        self.fr.env = dict(saved)
        try:
            fr = e.for_in
            while fr is not None:
                it = self.eval(fr.iter)
                self.assign(fr.target, self.element_of(fr.iter, it), None, None)
                for cond in fr.ifs:
                    v = self.eval(cond.test, True)
                    self.emit("test", self.fr, "comprehension", cond.test, v, cond)
                fr = fr.inner_for_in
            vals = [self.eval(x) for x in elts]
        finally:
            self.fr.env = saved
        k = max((v.k for v in vals), default=S)
        return Val(k, first_traced_name(vals), PYSEQ)

    def e_ListComp(self, e, t) -> Val:
        return self._comp(e, [e.elt])

    e_SetComp = e_GeneratorExp = e_ListComp

    def e_DictComp(self, e, t) -> Val:
        v = self._comp(e, [e.key, e.value])
        return Val(v.k, v.name, DICT)

    def e_NamedExpr(self, e, t) -> Val:
        v = self.eval(e.value, t)
        if isinstance(e.target, cst.Name):
            self.fr.env[e.target.value] = v
        return v

    def e_Await(self, e, t) -> Val:
        self.eval(e.expression)
        return UNKNOWN

    def element_of(self, expr, it: Val) -> Val:
        """The value bound by ``for target in expr``."""
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and not expr.args:
            meth = expr.func.attr.value
            if meth == "keys":
                return STATIC  # dict keys are Python values, even in a pytree of tracers
            if meth == "items":
                base = self.eval(expr.func.value)
                return Val(base.k, base.name, PYSEQ, (STATIC, Val(base.k, base.name) if base.k != S else STATIC))
        if it.f & DICT and it.items is None:
            return STATIC  # iterating a dict gives its keys
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
            fname = expr.func.value
            builtin = self.fr.lookup(fname) is None and self.fr.scope.lookup_scope(fname) is None
            if builtin and fname == "range":
                return STATIC
            if builtin and fname == "enumerate" and expr.args:
                inner = self.eval(expr.args[0].value)
                return Val(inner.k, inner.name, PYSEQ, (STATIC, self.element_of(expr.args[0].value, inner)))
            if builtin and fname == "zip":
                items = tuple(self.element_of(a.value, self.eval(a.value)) for a in expr.args if a.keyword is None)
                return Val(max((v.k for v in items), default=S), first_traced_name(items), PYSEQ, items)
        if it.items is not None and it.items:
            return joinall(it.items) if all(v.k == it.items[0].k for v in it.items) else Val(it.k, it.name)
        if it.k == T:
            if it.f & RAW and not it.f & ARRAY:
                return Val(T, it.name, RAW)  # rows of an array, or keys of a dict: cannot tell yet
            return Val(T, it.name, it.f & ARRAY if not it.container else 0)
        return Val(it.k) if it.k != S else STATIC

    # -- calls -----------------------------------------------------------------------
    def e_Call(self, e: cst.Call, t) -> Val:
        fr = self.fr
        func = e.func
        q = None
        head = func
        while isinstance(head, cst.Attribute):
            head = head.value
        if isinstance(head, cst.Name) and fr.lookup(head.value) is None:
            q = resolve(func, fr.scope)
        if q is not None:
            return self.call_qualified(e, q)
        if isinstance(func, cst.Name):
            return self.call_name(e, func)
        if isinstance(func, cst.Attribute):
            return self.call_attribute(e, func)
        fv = self.eval(func)
        argvals = self.args(e)
        if fv.fn is not None:
            return self.invoke(e, fv, argvals)
        return self.generic(argvals, fv)

    def args(self, e: cst.Call) -> List[Tuple[cst.Arg, Val]]:
        return [(a, self.eval(a.value)) for a in e.args]

    def generic(self, argvals, fv: Val = STATIC) -> Val:
        k = max([fv.k] + [v.k for _, v in argvals])
        if k == S:
            return STATIC
        return UNKNOWN

    def invoke(self, e, fv: Val, argvals, self_val: Optional[Val] = None) -> Val:
        ref = fv.fn[0]
        if ref.jit is not None:
            return self.a.call_function(self.fr, e, fv.fn, argvals, self_val) if any(v.k == T for _, v in argvals) else UNKNOWN
        return self.a.call_function(self.fr, e, fv.fn, argvals, self_val)

    def fn_from(self, expr) -> Optional[tuple]:
        """A function value for an expression handed to a transform."""
        v = self.eval(expr)
        if v.fn is not None:
            return v.fn
        ref = self.a.finder.resolve_fn(expr, self.fr.scope)
        if ref is not None:
            return (ref, None, [], {})
        return None

    def call_qualified(self, e: cst.Call, q: str) -> Val:
        fr = self.fr
        argvals = self.args(e)
        self.emit("call", fr, e, q, argvals)
        t = TRANSFORMS.get(q)
        if t is not None:
            return self.call_transform(e, q, t, argvals)
        if q in PASS_THROUGH:
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    return Val(S, None, 0, None, fn)
            return STATIC
        if q in PARTIAL:
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    ref, closure, bargs, bkw = fn
                    bargs = list(bargs) + [v for a, v in argvals[1:] if a.keyword is None and not a.star]
                    bkw = dict(bkw)
                    bkw.update(
                        {
                            a.keyword.value: v if _is_none(a.value) else Val(v.k, v.name, v.f | NOTNONE, v.items, v.fn)
                            for a, v in argvals[1:]
                            if a.keyword is not None
                        }
                    )
                    return Val(S, None, 0, None, (ref, closure, bargs, bkw))
            return STATIC
        if q in TREE_MAPS:
            if argvals and e.args[0].keyword is None:
                trees = [v for a, v in argvals[1:] if a.keyword is None]
                leaf = joinall(trees) if trees else STATIC
                if leaf.k == T:
                    fn = self.fn_from(e.args[0].value)
                    if fn is None:
                        return UNKNOWN
                    vals = [(cst.Arg(value=cst.Name("_")), Val(t.k, t.name) if t.k == T else t) for t in trees]
                    if q.endswith("with_path"):
                        vals = [(cst.Arg(value=cst.Name("_")), STATIC)] + vals
                    r = self.a.call_function(fr, e, fn, vals)
                    return Val(r.k, leaf.name, leaf.f & (DICT | PYSEQ)) if r.k != S else STATIC
                return Val(leaf.k, leaf.name, leaf.f & (DICT | PYSEQ)) if leaf.k != S else STATIC
            return UNKNOWN
        if q in CALLBACKS:
            return Val(T, None) if any(v.k == T for _, v in argvals) else STATIC
        if q in STATIC_FUNCS:
            return STATIC
        if q in ("jax.tree_util.tree_leaves", "jax.tree.leaves", "jax.tree_util.tree_flatten", "jax.tree.flatten"):
            k = max((v.k for _, v in argvals), default=S)
            leaves = Val(k, first_traced_name([v for _, v in argvals]), PYSEQ)
            if q.endswith("flatten"):
                return Val(k, leaves.name, PYSEQ, (leaves, STATIC))
            return leaves
        if q.startswith(("jax.tree_util.", "jax.tree.")):
            return self.generic(argvals)
        if q.startswith(STATIC_PREFIXES):
            return STATIC
        if q.startswith("jax.experimental.pallas."):
            if q.rsplit(".", 1)[-1] not in PALLAS_TRACED:
                return self.generic(argvals)
            return Val(T, first_traced_name([v for _, v in argvals]), ARRAY)
        if q in ("jax.lax.psum", "jax.lax.axis_size") and argvals and argvals[0][1].k == S:
            return STATIC  # psum(1, axis) is the axis size, a Python int
        if q.startswith(TRACED_PREFIXES):
            if fr.concrete:
                return STATIC
            if q.rsplit(".", 1)[-1].startswith("_"):
                return self.generic(argvals)  # private helpers: often Python-level utilities
            name = first_traced_name([v for _, v in argvals])
            flags = ARRAY
            last = q.rsplit(".", 1)[-1]
            if last.startswith(("is", "logical_", "equal", "not_equal", "greater", "less")) or last in (
                "any",
                "all",
                "signbit",
            ):
                flags |= BOOL
            return Val(T, name, flags)
        if q.startswith("numpy."):
            if q.startswith("numpy.random.") or q[6:] in NUMPY_STATIC:
                return STATIC
            if any(v.k == T for _, v in argvals):
                return Val(T, first_traced_name([v for _, v in argvals]), ARRAY) if q[6:] in NUMPY_SAFE else UNKNOWN
            return self.generic(argvals)
        if q.startswith(("math.", "random.", "time.", "operator.", "builtins.")):
            return STATIC if all(v.k == S for _, v in argvals) else UNKNOWN
        ext = self.a.external
        if ext is not None and any(v.k == T for _, v in argvals):
            r = ext(self, e, q, argvals)
            if r is not None:
                return r
        return self.generic(argvals)

    def call_transform(self, e, q: str, t: Transform, argvals) -> Val:
        fr = self.fr
        # Transforms that return a function: jit, vmap, checkpoint, ...
        if t.fn_args and t.fn_args[0][0] == 0 and t.fn_args[0][1] in ("fun",) or q in (
            "jax.make_jaxpr",
        ):
            if argvals and e.args[0].keyword is None:
                fn = self.fn_from(e.args[0].value)
                if fn is not None:
                    ref, closure, bargs, bkw = fn
                    spec_nodes = [a for a in e.args if a.keyword is not None]
                    if spec_nodes and t.statics:
                        from jaxlint.analysis.transforms import StaticSpec

                        sp = StaticSpec()
                        parse_statics(spec_nodes, sp)
                        if sp.opaque or sp.nums or sp.names:
                            return STATIC  # static parameters by call: not followed further
                    return Val(S, None, 0, None, fn)
            return STATIC
        if q == "jax.eval_shape" or q == "equinox.filter_eval_shape":
            return STATIC
        # Control flow primitives: they trace the functions they are given, right here.
        pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
        fns = []
        for i, kw in t.fn_args:
            expr = None
            for a, _v in argvals:
                if a.keyword is not None and a.keyword.value == kw:
                    expr = a.value
            if expr is None and i < len(pos):
                expr = pos[i][0].value
            if expr is None:
                continue
            if isinstance(expr, (cst.List, cst.Tuple)):
                fns.extend(el.value for el in expr.elements)
            else:
                fns.append(expr)
        operands = self.lax_operands(q, t, e, argvals)
        for expr in fns:
            fn = self.fn_from(expr)
            if fn is not None:
                self.a.trace_inline(fr, fn, t.label, frozenset(), operands)
        if fr.concrete:
            return STATIC
        return Val(T, first_traced_name([v for _, v in argvals]), 0)

    def lax_operands(self, q: str, t: Transform, e: cst.Call, argvals) -> Optional[List[Val]]:
        if t.arity is None:
            return None
        return lax_operands(q, argvals)

    BUILTIN_STATIC = frozenset(
        {
            "len",
            "isinstance",
            "issubclass",
            "type",
            "hasattr",
            "callable",
            "id",
            "repr",
            "str",
            "print",
            "super",
            "format",
            "hash",
            "vars",
            "dir",
            "setattr",
            "delattr",
            "iter",
            "next",
            "object",
            "NotImplementedError",
            "ValueError",
            "TypeError",
            "RuntimeError",
            "AssertionError",
        }
    )

    def call_name(self, e: cst.Call, func: cst.Name) -> Val:
        fr = self.fr
        name = func.value
        local = fr.lookup(name)
        if name in ("isinstance", "issubclass") and len(e.args) == 2 and isinstance(e.args[1].value, cst.Name):
            self.receiver = e.args[1].value  # a table of types consulted, not a value computed with
        argvals = self.args(e)
        if local is not None and name not in fr.declared:
            if local.fn is not None:
                return self.invoke(e, local, argvals)
            return self.generic(argvals, local)
        owner = fr.scope.lookup_scope(name)
        if owner is None:
            # A builtin.
            self.emit("call", fr, e, "builtins." + name, argvals)
            return self.builtin(e, name, argvals)
        f = owner.defs.get(name)
        if f is not None:
            return self.invoke(e, Val(S, name, 0, None, (FnRef(f), None, [], {})), argvals)
        app = self.a.finder.aliases.get((id(owner), name))
        if app is not None:
            ref = FnRef(app.func)
            ref.bound_self = app.bound_self
            return self.invoke(e, Val(S, name, 0, None, (ref, None, [], {})), argvals)
        v = self.name_val(func)
        if v.fn is not None:
            return self.invoke(e, v, argvals)
        ref = self.a.finder.resolve_fn(func, fr.scope)
        if ref is not None:
            return self.invoke(e, Val(S, name, 0, None, (ref, None, [], {})), argvals)
        if owner.classes.get(name) is not None:
            return self.generic(argvals)
        return self.generic(argvals)

    def builtin(self, e, name: str, argvals) -> Val:
        vals = [v for _, v in argvals]
        if name in self.BUILTIN_STATIC or name in ("int", "float", "bool", "complex", "range"):
            if name == "range":
                return Val(S, None, PYSEQ)
            if name in ("str", "repr", "format") and vals and vals[0].k == T:
                return Val(S, vals[0].name, TEXT)
            return STATIC
        if name in ("abs", "round", "sum", "pow", "divmod", "min", "max"):
            v = joinall(vals) if vals else STATIC
            if v.k == T:
                return Val(T, v.name, ARRAY)
            return Val(v.k)
        if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset"):
            v = vals[0] if vals else STATIC
            if v.items is not None:
                return Val(v.k, v.name, PYSEQ, v.items if name in ("list", "tuple") else None)
            return Val(v.k, v.name, PYSEQ)
        if name in ("zip", "enumerate", "map", "filter"):
            v = joinall(vals) if vals else STATIC
            return Val(v.k, v.name, PYSEQ)
        if name == "dict":
            v = joinall(vals) if vals else STATIC
            return Val(v.k, v.name, DICT)
        if name == "getattr" and vals:
            if len(argvals) >= 2 and isinstance(argvals[1][0].value, cst.SimpleString):
                attr = _str(argvals[1][0].value)
                if attr in STATIC_ATTRS:
                    return STATIC
            base = vals[0]
            if base.k == T and not base.f & OPAQUE:
                return Val(T, base.name)
            return STATIC if base.k == S else UNKNOWN
        return self.generic(argvals)

    def call_attribute(self, e: cst.Call, func: cst.Attribute) -> Val:
        fr = self.fr
        meth = func.attr.value
        base_expr = func.value
        # self.method(...) / cls.method(...) within a class
        if isinstance(base_expr, cst.Name) and base_expr.value in ("self", "cls"):
            cls = fr.scope.enclosing_class() if fr.func.cls is None else fr.func.cls
            if cls is None:
                cls = fr.scope.enclosing_class()
            if cls is not None:
                f = cls.body_scope.defs.get(meth)
                if f is not None:
                    self_val = fr.lookup(base_expr.value) or STATIC
                    argvals = self.args(e)
                    ref = FnRef(f)
                    ref.bound_self = True
                    if self_val.k == T and not any(v.k == T for _, v in argvals):
                        return UNKNOWN
                    return self.invoke(e, Val(S, meth, 0, None, (ref, None, [], {})), argvals, self_val)
        if meth in MUTATING_METHODS and isinstance(base_expr, cst.Name):
            self.receiver = base_expr
        base = self.eval(base_expr)
        argvals = self.args(e)
        self.emit("method", fr, e, base, meth, argvals)
        if base.fn is not None:
            return STATIC
        if base.k == T:
            if base.f & OPAQUE:
                return UNKNOWN
            if meth in ("item", "tolist"):
                return STATIC
            if base.container:
                if meth in DICT_METHODS:
                    if meth == "items":
                        return Val(T, base.name, PYSEQ, None)
                    if meth == "keys":
                        return Val(S, None, PYSEQ)
                    return Val(T, base.name, PYSEQ if meth == "values" else 0)
                if meth in ("index", "count"):
                    return UNKNOWN
                return Val(T, base.name)
            if meth in ("set", "add", "multiply", "divide", "power", "min", "max", "apply", "get"):
                return Val(T, base.name, ARRAY)
            if fr.concrete:
                return STATIC
            flags = ARRAY
            if meth in ("any", "all"):
                flags |= BOOL
            return Val(T, base.name, flags)
        if base.k == U:
            return UNKNOWN
        if meth == "format" and isinstance(base_expr, (cst.SimpleString, cst.ConcatenatedString)):
            traced = next((v for _, v in argvals if v.k == T), None)
            return Val(S, traced.name, TEXT) if traced is not None else STATIC
        # a method of a concrete Python object
        return self.generic(argvals)


class _ContainsCall(FastVisitor):
    def __init__(self, target: cst.Call):
        self.target = target
        self.found = False

    def visit_Call(self, node) -> None:
        if node is self.target:
            self.found = True


def _exits(block) -> bool:
    body = block.body if isinstance(block, (cst.IndentedBlock, cst.SimpleStatementSuite)) else []
    if not body:
        return False
    last = body[-1]
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return isinstance(last.body[-1], (cst.Return, cst.Raise))
    return False


def guarded_not_none(func_node, site) -> frozenset:
    """Names that ``if name is None: ... return`` guards make non-None before ``site``, among
    the top-level statements of ``func_node``."""
    out = set()
    alias = {}  # ``nbrs = neighbors``: a guard on one is a guard on the other
    for st in func_node.body.body:
        v = _ContainsCall(site)
        v.walk(st)
        if v.found:
            break
        if isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and isinstance(st.body[0], cst.Assign):
            a = st.body[0]
            if len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name) and isinstance(a.value, cst.Name):
                alias[a.targets[0].target.value] = a.value.value
        if isinstance(st, cst.If) and st.orelse is None and _exits(st.body):
            t = st.test
            if (
                isinstance(t, cst.Comparison)
                and isinstance(t.left, cst.Name)
                and len(t.comparisons) == 1
                and isinstance(t.comparisons[0].operator, cst.Is)
                and _is_none(t.comparisons[0].comparator)
            ):
                out.add(t.left.value)
                if t.left.value in alias:
                    out.add(alias[t.left.value])
    return frozenset(out)


def lax_operands(q: str, argvals) -> Optional[List[Val]]:
    """What a lax primitive passes to its function(s), from its (Arg, Val) arguments: the
    carry keeps its pytree structure, every leaf becomes an array."""
    if any(a.star for a, _ in argvals):
        return None
    pos = [(a, v) for a, v in argvals if a.keyword is None]
    kw = {a.keyword.value: (a, v) for a, v in argvals if a.keyword is not None}

    def arg(i, name):
        if i < len(pos):
            return pos[i]
        return kw.get(name)

    short = q.rsplit(".", 1)[-1]
    if short == "scan":
        init, xs = arg(1, "init"), arg(2, "xs")
        x = STATIC if xs is None or _is_none(xs[0].value) else Val(T, xs[1].name, ARRAY)
        return [carried(init), x]
    if short == "fori_loop":
        return [Val(T, None, ARRAY), carried(arg(3, "init_val"))]
    if short == "while_loop":
        return [carried(arg(2, "init_val"))]
    if short in ("cond", "switch"):
        start = 3 if short == "cond" else 2
        return [carried(p) for p in pos[start:]]
    if short == "map":
        return [Val(T, None, ARRAY)]
    return None


def structure_of(expr, scope: Scope, depth: int = 0) -> Val:
    """The pytree structure of an expression outside traced code, as far as literals show it."""
    if isinstance(expr, (cst.Tuple, cst.List)) and not any(isinstance(el, cst.StarredElement) for el in expr.elements):
        items = tuple(structure_of(el.value, scope, depth + 1) for el in expr.elements)
        return Val(S, None, PYSEQ, items)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return Val(S, None, PYSEQ)
    if isinstance(expr, (cst.Dict, cst.DictComp)):
        return Val(S, None, DICT)
    if isinstance(expr, cst.Name) and depth < 4:
        if expr.value == "None":
            return STATIC
        owner = scope.lookup_scope(expr.value)
        binds = owner.bindings.get(expr.value, ()) if owner is not None else ()
        assigns = sorted(
            (b for b in binds if b.kind == "assign" and b.value is not None and b.order is not None),
            key=lambda b: b.order,
        )
        if assigns:
            # The structure a variable is created with (``x = [a, b]``) is the one a loop carries.
            return structure_of(assigns[0].value, owner, depth + 1)
    return Val(U)


_STATIC_FIELD_FUNCS = frozenset({"static_field", "field", "dataclass_field"})


def field_kind(cls, attr: str) -> Optional[str]:
    """'leaf' / 'static' for a field of a pytree class defined in the module; None if unknown."""
    base_names = {(dotted_name(b) or "").rsplit(".", 1)[-1] for b in cls.bases}
    named_tuple = "NamedTuple" in base_names
    for d in cls.node.decorators:
        # register_dataclass(..., meta_fields=["topology"]) / partial(register_dataclass, ...)
        dec = d.decorator
        if isinstance(dec, cst.Call):
            for a in dec.args:
                if a.keyword is not None and a.keyword.value == "meta_fields" and isinstance(a.value, (cst.List, cst.Tuple)):
                    if any(isinstance(el.value, cst.SimpleString) and el.value.value[1:-1] == attr for el in a.value.elements):
                        return "static"
    for st in cls.node.body.body:
        if not isinstance(st, cst.SimpleStatementLine):
            continue
        for small in st.body:
            if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                continue
            if small.target.value != attr:
                continue
            if named_tuple:
                return "leaf"
            v = small.value
            if isinstance(v, cst.Call):
                fname = (dotted_name(v.func) or "").rsplit(".", 1)[-1]
                if fname == "static_field":
                    return "static"
                if fname in _STATIC_FIELD_FUNCS:
                    for a in v.args:
                        if a.keyword is None:
                            continue
                        k, val = a.keyword.value, a.value
                        if k == "pytree_node" and isinstance(val, cst.Name) and val.value == "False":
                            return "static"
                        if k == "static" and isinstance(val, cst.Name) and val.value == "True":
                            return "static"
                        if k == "metadata" and isinstance(val, cst.Dict):
                            for el in val.elements:
                                if (
                                    isinstance(el, cst.DictElement)
                                    and isinstance(el.key, cst.SimpleString)
                                    and el.key.value[1:-1] == "static"
                                ):
                                    return "static"
            return "leaf" if cls.node.decorators or named_tuple else None
    return None


def default_val(default) -> Val:
    """A parameter left at its default: a Python value, known when it is a literal bool/None."""
    if isinstance(default, cst.Name) and default.value in _KNOWN_CONSTANTS:
        return _KNOWN_CONSTANTS[default.value]
    return STATIC


def _arg_for(call: cst.Call, positional, name: str, bound_self: bool) -> Optional[cst.Arg]:
    """The argument of ``call`` that lands on parameter ``name``."""
    names = [p.name.value for p in positional][1 if bound_self else 0 :]
    i = 0
    for a in call.args:
        if a.star:
            return None
        if a.keyword is not None:
            if a.keyword.value == name:
                return a
            continue
        if i < len(names) and names[i] == name:
            return a
        i += 1
    return None


def _is_str(e) -> bool:
    if isinstance(e, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return True
    if isinstance(e, (cst.Tuple, cst.List, cst.Set)) and e.elements:
        return all(isinstance(el.value, (cst.SimpleString, cst.ConcatenatedString)) for el in e.elements)
    return False


def _is_none(e) -> bool:
    return isinstance(e, cst.Name) and e.value == "None"


def carried(av) -> Val:
    """A lax operand as the function receives it: every leaf an array, the containers kept."""
    if av is None:
        return Val(T, None, 0)
    a, v = av
    if _is_none(a.value):
        return STATIC
    return to_traced(v)


def to_traced(v: Val) -> Val:
    if v.items is not None:
        return Val(T, v.name, v.f & (PYSEQ | DICT), tuple(to_traced(x) for x in v.items))
    if v.f & (PYSEQ | DICT):
        return Val(T, v.name, v.f & (PYSEQ | DICT))
    return Val(T, v.name, v.f & (ARRAY | BOOL | RAW | REF) or (ARRAY if v.k == S else v.f & RAW))


def _const_index(s: cst.SubscriptElement) -> Optional[int]:
    sl = s.slice
    if isinstance(sl, cst.Index):
        v = sl.value
        if isinstance(v, cst.Integer):
            try:
                return int(v.value, 0)
            except ValueError:
                return None
        if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus) and isinstance(v.expression, cst.Integer):
            try:
                return -int(v.expression.value, 0)
            except ValueError:
                return None
    return None


def _str(node) -> Optional[str]:
    try:
        v = node.evaluated_value
    except Exception:  # noqa: BLE001
        return None
    return v if isinstance(v, str) else None


def merge(a: Env, b: Env) -> Env:
    if a is b:
        return a
    out = dict(a)
    for k, v in b.items():
        old = out.get(k)
        out[k] = v if old is None else join(old, v)
    return out


def same_kinds(a: Env, b: Env) -> bool:
    if len(a) != len(b):
        return False
    for k, v in a.items():
        w = b.get(k)
        if w is None or w.k != v.k or w.f != v.f:
            return False
    return True
