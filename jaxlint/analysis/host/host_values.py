"""Host mode: what a name holds where code runs eagerly (module level, ``__main__`` blocks,
ordinary functions, methods and tests), as far as JAX's static slots care.

A static slot hashes what it is given, so the question is narrow: is the value surely
unhashable (a list, a dict, a set, a JAX or NumPy array, an optimiser state, an instance of a
class without ``__hash__``), surely hashable (a Python scalar, a string, a tuple of hashables, a
frozen dataclass of hashables), or not known.  Values that are callables carry what is needed
to follow them into a static slot: a jitted function (with its ``functools.partial`` bindings),
a parameter of the enclosing function (for wrappers that forward it).

Statements are interpreted in order, with reassignment (``n = 3`` then ``n = jnp.array(3)``),
branches joined (``if``/``else`` that disagree give *unknown*), loops run to a fixpoint of two
passes, and paths that ``return`` or ``raise`` left out of the join.  A scope is interpreted only
when a question about one of its names is asked, once; ``HostValues.value`` is the whole API::

    hv = HostValues(index, finder, classes)
    v = hv.value(arg_expr, scope, call)   # HostValue or None (unknown)
    v.unhashable(hv.classes)              # "a list" / "an instance of `Cfg` (...)" / None
"""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.host.array_values import ARRAY_ATTRS, ARRAY_METHODS, NOT_ONE_ARRAY, NOT_ONE_ARRAY_RANDOM, functional_update
from jaxlint.analysis.model.classes import ClassModel, decorator_names, qualified
from jaxlint.analysis.syntax.scopes import CONTAINER_CTORS, ClassInfo, FastVisitor, FuncInfo, ModuleIndex, Scope
from jaxlint.analysis.model.transforms import Application, TransformFinder
from jaxlint.analysis.model.names import PARTIAL, resolve

# kinds
LIST, DICT, SET = "list", "dict", "set"
JAX_ARRAY, NUMPY_ARRAY = "JAX array", "NumPy array"
OPT_STATE = "optimiser state"
JIT_RESULT = "jit result"  # the outputs of a jitted function: arrays
INSTANCE = "instance"  # of a class of the module
TUPLE = "tuple"
SCALAR = "scalar"  # numbers, strings, bytes, None, booleans, ranges, functions, classes
NUMPY_SCALAR = "NumPy scalar"  # np.float32(0.5): hashable, yet an array to equinox's filters
JITTED = "jitted"  # a jitted callable of the module with static parameters
OPTIMIZER = "optimiser"  # an optax GradientTransformation (its .init builds a state)
OPT_INIT = "opt_init"  # jax.example_libraries.optimizers init function
PARAM = "param"  # a parameter of the enclosing function, as received
FUNCTION = "function"  # a def of the module that is not jitted (hashable; its result is followed)
ARG_PARSER = "argument parser"  # an argparse.ArgumentParser (its parse_args() builds a Namespace)
NAMESPACE = "namespace"  # an argparse.Namespace: it defines __eq__ and no __hash__

# Kinds that are arrays or containers of arrays: hashing any of them fails.
ARRAY_KINDS = frozenset({JAX_ARRAY, NUMPY_ARRAY, OPT_STATE, JIT_RESULT})

_UNHASHABLE_KINDS = {
    LIST: "a list",
    DICT: "a dict",
    SET: "a set",
    JAX_ARRAY: "a JAX array",
    NUMPY_ARRAY: "a NumPy array",
    OPT_STATE: "an optimiser state",
    JIT_RESULT: "the arrays returned by a jitted function",
    NAMESPACE: "an argparse.Namespace (it defines __eq__ without __hash__)",
}

# optax optimisers whose state holds arrays (step counts, moments): verified with optax; sgd
# without momentum, sign_sgd and fromage keep only empty states, which hash.
STATEFUL_OPTAX = frozenset(
    {
        "adam", "adamw", "adamax", "adamaxw", "nadam", "nadamw", "radam", "amsgrad", "adabelief",
        "adagrad", "adadelta", "adafactor", "rmsprop", "lamb", "lars", "lion", "novograd", "yogi",
        "sm3", "noisy_sgd", "rprop",
    }
)
NUMPY_ARRAY_MAKERS = frozenset(
    {
        "array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye", "identity",
        "zeros_like", "ones_like", "full_like", "empty_like", "stack", "concatenate", "vstack", "hstack",
        "random.rand", "random.randn", "random.normal", "random.uniform",
    }
)
NUMPY_SCALAR_TYPES = frozenset(
    {
        "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "bool_", "complex64", "complex128",
    }
)
SCALAR_BUILTINS = frozenset({"int", "float", "str", "bool", "len", "round", "abs", "repr", "hash", "range", "frozenset", "bytes", "complex", "id", "ord", "chr"})
DATACLASS = frozenset({"dataclasses.dataclass"})
# Pytree classes that are frozen dataclasses, or hash their leaves: hashable exactly when the
# fields are.
HASH_BY_FIELDS = frozenset(
    {"flax.struct.dataclass", "equinox.Module", "flax.struct.PyTreeNode", "typing.NamedTuple", "typing_extensions.NamedTuple"}
)


class HostValue:
    """A value of host code.  ``node``: the expression that built it (for messages)."""

    __slots__ = ("kind", "node", "cls", "items", "fields", "app", "bound", "name", "func")

    def __init__(self, kind: str, node=None, cls=None, items=None, fields=None, app=None, bound=(), name=None, func=None):
        self.kind = kind
        self.node = node
        self.cls: Optional[ClassInfo] = cls
        self.items: Optional[Tuple[Optional["HostValue"], ...]] = items  # a tuple's elements
        self.fields: Optional[Dict[str, Optional["HostValue"]]] = fields  # an instance's constructor fields
        self.app: Optional[Application] = app  # JITTED: the jit; PARAM: None
        self.bound = bound  # JITTED: positional arguments bound by functools.partial, as (expr, value)
        self.name = name  # PARAM: the parameter
        self.func: Optional[FuncInfo] = func  # FUNCTION: the def

    def unhashable(self, classes: ClassModel) -> Optional[str]:
        """What makes the value fail ``hash()``: "a list", "a tuple holding a JAX array"...; None
        when it hashes or is not known to fail."""
        text = _UNHASHABLE_KINDS.get(self.kind)
        if text is not None:
            return text
        if self.kind == TUPLE and self.items is not None:
            for it in self.items:
                inner = it.unhashable(classes) if it is not None else None
                if inner is not None:
                    return "a tuple holding " + inner.split(" (", 1)[0]
        if self.kind == INSTANCE and self.cls is not None:
            return instance_unhashable(self, classes)
        return None

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"HostValue({self.kind})"


SCALAR_VAL = HostValue(SCALAR)


def join(a: Optional[HostValue], b: Optional[HostValue]) -> Optional[HostValue]:
    """One path gives ``a``, another ``b``: the same kind survives, anything else is unknown."""
    if a is b:
        return a
    if a is None or b is None:
        return None
    if a.kind != b.kind:
        # arrays either way (an optimiser state, then the state a jitted step returns): unhashable
        return a if a.kind in ARRAY_KINDS and b.kind in ARRAY_KINDS else None
    if a.kind == TUPLE:
        if a.items is None or b.items is None or len(a.items) != len(b.items):
            return HostValue(TUPLE, a.node)
        return HostValue(TUPLE, a.node, items=tuple(join(x, y) for x, y in zip(a.items, b.items)))
    if a.kind == INSTANCE:
        if a.cls is not b.cls:
            return None
        if a.fields is not None and b.fields is not None and a.fields.keys() == b.fields.keys():
            # ``Cfg(jnp.ones(3), 2)`` on both paths: each field as far as the two agree
            return HostValue(INSTANCE, a.node, a.cls, fields={k: join(v, b.fields[k]) for k, v in a.fields.items()})
        return a if a.fields is None and b.fields is None else HostValue(INSTANCE, a.node, a.cls)
    if a.kind == JITTED:
        return a if a.app is b.app and len(a.bound) == len(b.bound) and not a.bound else None
    if a.kind == PARAM:
        return a if a.name == b.name else None
    if a.kind == FUNCTION:
        return a if a.func is b.func else SCALAR_VAL
    if a.kind == SCALAR and is_number(a) != is_number(b):
        return SCALAR_VAL  # a number on one path, a string on the other: a scalar, no number
    return a


def is_number(v: Optional[HostValue]) -> bool:
    """A Python int or float (``0.75``, ``-1``, a name bound to one), not a bool or string."""
    return v is not None and v.kind == SCALAR and isinstance(v.node, (cst.Integer, cst.Float))


# -- the class model's answer to hash() ------------------------------------------------------


def _dataclass_options(cls: ClassInfo) -> Optional[Dict[str, bool]]:
    """``@dataclass(eq=..., frozen=..., unsafe_hash=...)`` of the class itself, or None."""
    for d in cls.node.decorators:
        dec = d.decorator
        if qualified(dec, cls.scope) not in DATACLASS:
            continue
        opts = {"eq": True, "frozen": False, "unsafe_hash": False}
        if isinstance(dec, cst.Call):
            for a in dec.args:
                if a.keyword is None or a.keyword.value not in opts:
                    continue
                v = a.value
                if not (isinstance(v, cst.Name) and v.value in ("True", "False")):
                    return None  # computed options: not known
                opts[a.keyword.value] = v.value == "True"
        return opts
    return None


def _sets_hash_none(cls: ClassInfo) -> Optional[bool]:
    """``__hash__ = None`` (True), another ``__hash__ = ...`` (False), none (None)."""
    for b in cls.body_scope.bindings.get("__hash__", ()):
        if b.kind == "assign":
            return isinstance(b.value, cst.Name) and b.value.value == "None"
    return None


def class_hash(cls: ClassInfo, classes: ClassModel) -> Tuple[Optional[str], str]:
    """How instances of ``cls`` hash: ("none", why) unhashable; ("fields", why) by their
    fields; ("identity", "") by identity or a custom ``__hash__``; (None, "") not known."""
    for c in classes.mro(cls):
        own = c.body_scope.defs
        if "__hash__" in own:
            return "identity", ""  # its own __hash__: trusted
        explicit = _sets_hash_none(c)
        if explicit is True:
            return "none", f"`{c.name}` sets __hash__ = None"
        if explicit is False:
            return None, ""
        opts = _dataclass_options(c)
        if opts is not None:
            if opts["unsafe_hash"] or (opts["eq"] and opts["frozen"]):
                return "fields", ""
            if opts["eq"]:
                return "none", f"`{c.name}` is a dataclass with eq and without frozen=True, so it has no __hash__"
        elif decorator_names(c.node, c.scope) & HASH_BY_FIELDS or {qualified(b, c.scope) for b in c.bases} & HASH_BY_FIELDS:
            return "fields", ""
        if "__eq__" in own:
            return "none", f"`{c.name}` defines __eq__ without __hash__"
        if decorator_names(c.node, c.scope) - {"", "dataclasses.dataclass"}:
            return None, ""  # another decorator may add a __hash__
    # every class of the MRO is of this module: is there a base from elsewhere?
    for c in classes.mro(cls):
        for b in c.bases:
            if isinstance(b, cst.Name) and b.value == "object":
                continue
            if isinstance(b, cst.Name) and c.scope.lookup_scope(b.value) is not None and (c.scope.lookup_scope(b.value).classes.get(b.value) is not None):
                continue
            return None, ""  # a base class of another module may define __eq__ or __hash__
    return "identity", ""


def instance_unhashable(v: HostValue, classes: ClassModel) -> Optional[str]:
    how, why = class_hash(v.cls, classes)
    if how == "none":
        return f"an instance of `{v.cls.name}` ({why})"
    if how == "fields" and v.fields:
        for name, fv in v.fields.items():
            inner = fv.unhashable(classes) if fv is not None else None
            if inner is not None:
                return f"an instance of `{v.cls.name}` whose field `{name}` holds {inner.split(' (', 1)[0]}"
    return None


# -- the interpreter ----------------------------------------------------------------------


class _CallCollector(FastVisitor):
    """The calls of one statement (not inside nested functions or classes), each with the
    names that a lambda or comprehension around it binds (those shadow the scope's)."""

    def __init__(self, out: Dict[int, frozenset], in_lambda: Dict[int, bool]):
        self.out = out
        self.in_lambda = in_lambda
        self.shadow: List[frozenset] = [frozenset()]
        self.lambdas = 0

    def visit_Call(self, node: cst.Call) -> None:
        self.out[id(node)] = self.shadow[-1]
        if self.lambdas:
            self.in_lambda[id(node)] = True

    def visit_Lambda(self, node: cst.Lambda) -> None:
        p = node.params
        names = {x.name.value for x in list(p.posonly_params) + list(p.params) + list(p.kwonly_params)}
        self.shadow.append(self.shadow[-1] | names)
        self.lambdas += 1

    def leave_Lambda(self, node) -> None:
        self.shadow.pop()
        self.lambdas -= 1

    def _comp(self, node) -> None:
        names = set()
        f = node.for_in
        while f is not None:
            names.update(_target_names(f.target))
            f = f.inner_for_in
        self.shadow.append(self.shadow[-1] | names)

    def _uncomp(self, node) -> None:
        self.shadow.pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _uncomp

    def visit_FunctionDef(self, node) -> bool:
        return False

    def visit_ClassDef(self, node) -> bool:
        return False


def _calls_module_code(callee, module: Scope) -> bool:
    """The callee of a module-level call may be code of the module (a function or class it
    defines, or any name it binds other than an import): calling it may run traced code."""
    while isinstance(callee, (cst.Attribute, cst.Subscript, cst.Call)):
        callee = callee.value if not isinstance(callee, cst.Call) else callee.func
    if not isinstance(callee, cst.Name):
        return True
    name = callee.value
    if name in module.imports:
        return False
    return name in module.bindings


def _target_names(t) -> List[str]:
    if isinstance(t, cst.Name):
        return [t.value]
    if isinstance(t, (cst.Tuple, cst.List)):
        return [n for el in t.elements for n in _target_names(el.value)]
    if isinstance(t, cst.StarredElement):
        return _target_names(t.value)
    return []


Env = Dict[str, Optional[HostValue]]
_MISSING = object()


def _join_env(a: Optional[Env], b: Optional[Env]) -> Optional[Env]:
    if a is None:
        return b
    if b is None or a is b:
        return a
    out = {}
    for k in a.keys() | b.keys():
        x, y = a.get(k, _MISSING), b.get(k, _MISSING)
        out[k] = None if x is _MISSING or y is _MISSING else join(x, y)
    return out


class _ScopeRun:
    """One scope's body interpreted once: the environment before each call, the values its
    ``return`` statements give, and every value each name is bound to anywhere in the scope
    (what an inner function reading the name may see)."""

    def __init__(self, hv: "HostValues", scope: Scope):
        self.hv = hv
        self.scope = scope
        self.at_call: Dict[int, Env] = {}
        self.shadow: Dict[int, frozenset] = {}
        self.in_lambda: Dict[int, bool] = {}
        self.assigned: Dict[str, Optional[HostValue]] = {}
        self.returns: List[Tuple[cst.BaseExpression, Env]] = []
        self._loop_exits: List[List[Env]] = []
        self._loop_depth = 0
        env: Env = {}
        func = scope.func
        if func is not None and not func.is_lambda:
            for n in func.all_param_names():
                env[n] = HostValue(PARAM, name=n)
        node = scope.node
        if isinstance(node, cst.Module):
            stmts = node.body
        elif isinstance(node.body, cst.IndentedBlock):
            stmts = node.body.body
        else:
            stmts = ()  # ``def f(): return x`` on one line: nothing to follow
        self.final: Env = self.block(stmts, env) or {}

    # -- statements ------------------------------------------------------------------
    def block(self, stmts, env: Optional[Env]) -> Optional[Env]:
        for st in stmts:
            if env is None:
                return None
            env = self.stmt(st, env)
        return env

    def _record(self, node, env: Env) -> None:
        calls: Dict[int, frozenset] = {}
        _CallCollector(calls, self.in_lambda).walk(node)
        for cid, shadow in calls.items():
            old = self.at_call.get(cid, _MISSING)
            self.at_call[cid] = env if old is _MISSING else _join_env(old, env)
            if shadow:
                self.shadow[cid] = shadow

    def _bind(self, env: Env, name: str, v: Optional[HostValue]) -> None:
        env[name] = v
        old = self.assigned.get(name, _MISSING)
        self.assigned[name] = v if old is _MISSING else join(old, v)

    def _assign(self, env: Env, target, v: Optional[HostValue], value_node) -> None:
        if isinstance(target, cst.Name):
            self._bind(env, target.value, v)
        elif isinstance(target, (cst.Tuple, cst.List)):
            els = target.elements
            items = None
            starred = any(isinstance(el, cst.StarredElement) for el in els)
            if not starred and isinstance(value_node, (cst.Tuple, cst.List)) and len(value_node.elements) == len(els):
                if not any(isinstance(el, cst.StarredElement) for el in value_node.elements):
                    items = [self.eval(el.value, env) for el in value_node.elements]
            elif not starred and v is not None and v.kind == TUPLE and v.items is not None and len(v.items) == len(els):
                items = list(v.items)
            for i, el in enumerate(els):
                self._assign(env, el.value, items[i] if items is not None else None, None)
        elif isinstance(target, cst.StarredElement):
            self._assign(env, target.value, None, None)
        # attribute and subscript stores change no name's kind

    def stmt(self, st, env: Env) -> Optional[Env]:
        """The environment after ``st`` (None: no path goes on).  A recorded environment is
        never changed afterwards: a statement that binds works on a copy."""
        if isinstance(st, cst.SimpleStatementLine):
            self._record(st, env)
            env = dict(env)
            for small in st.body:
                if isinstance(small, cst.Assign):
                    v = self.eval(small.value, env)
                    for t in small.targets:
                        self._assign(env, t.target, v, small.value)
                elif isinstance(small, cst.AnnAssign):
                    if small.value is not None:
                        self._assign(env, small.target, self.eval(small.value, env), small.value)
                elif isinstance(small, cst.AugAssign):
                    if isinstance(small.target, cst.Name):
                        old = env.get(small.target.value)
                        rhs = self.eval(small.value, env)
                        keep = old is not None and (
                            old.kind in (LIST, JAX_ARRAY, NUMPY_ARRAY) or old.kind == SCALAR and rhs is not None and rhs.kind == SCALAR
                        )
                        self._bind(env, small.target.value, old if keep else None)
                elif isinstance(small, cst.Del):
                    for n in _target_names(small.target):
                        env.pop(n, None)
                elif isinstance(small, cst.Return):
                    if small.value is not None:
                        self.returns.append((small.value, env))
                    return None
                elif isinstance(small, cst.Raise):
                    return None
                elif isinstance(small, (cst.Break, cst.Continue)):
                    if self._loop_exits:
                        self._loop_exits[-1].append(env)
                    return None
                elif isinstance(small, (cst.Global, cst.Nonlocal)):
                    for n in small.names:
                        self._bind(env, n.name.value, None)
                elif isinstance(small, cst.Expr) and isinstance(small.value, cst.NamedExpr):
                    t = small.value.target
                    if isinstance(t, cst.Name):
                        self._bind(env, t.value, self.eval(small.value.value, env))
            return env
        if isinstance(st, cst.If):
            self._record(st.test, env)
            yes = self.block(st.body.body, env)
            if st.orelse is None:
                no = env
            elif isinstance(st.orelse, cst.If):
                no = self.stmt(st.orelse, env)
            else:
                no = self.block(st.orelse.body.body, env)
            return _join_env(yes, no)
        if isinstance(st, (cst.For, cst.While)):
            self._record(st.iter if isinstance(st, cst.For) else st.test, env)
            after = env
            self._loop_depth += 1
            # two passes, so that values of the previous iteration reach the body (one when deep)
            for _ in range(2 if self._loop_depth <= 3 else 1):
                start = dict(_join_env(env, after))
                if isinstance(st, cst.For):
                    self._assign(start, st.target, self._element(st.iter, env), None)
                self._loop_exits.append([])
                out = self.block(st.body.body, start)
                exits = self._loop_exits.pop()
                after = start if out is None else _join_env(start, out)
                for e in exits:
                    after = _join_env(after, e)
            self._loop_depth -= 1
            out = _join_env(env, after)
            if st.orelse is not None:
                out = self.block(st.orelse.body.body, out)
            return out
        if isinstance(st, cst.With):
            env = dict(env)
            for item in st.items:
                self._record(item.item, env)
                if item.asname is not None:
                    self._assign(env, item.asname.name, None, None)
            return self.block(st.body.body, env)
        if isinstance(st, (cst.Try, cst.TryStar)):
            body = self.block(st.body.body, env)
            out = body
            base = _join_env(env, body)
            for h in st.handlers:
                henv = dict(base)
                if h.name is not None:
                    self._assign(henv, h.name.name, None, None)
                out = _join_env(out, self.block(h.body.body, henv))
            if st.orelse is not None and body is not None:
                out = _join_env(self.block(st.orelse.body.body, body), out)
            if st.finalbody is not None:
                out = self.block(st.finalbody.body.body, out if out is not None else base)
            return out
        if isinstance(st, cst.FunctionDef):
            for d in st.decorators:
                self._record(d.decorator, env)
            f = self.scope.defs.get(st.name.value)
            env = dict(env)
            self._bind(env, st.name.value, self.hv.function_value(f) if f is not None and f.node is st else SCALAR_VAL)
            return env
        if isinstance(st, cst.ClassDef):
            env = dict(env)
            self._bind(env, st.name.value, SCALAR_VAL)
            return env
        if isinstance(st, cst.Match):
            self._record(st.subject, env)
            out = env
            for case in st.cases:
                out = _join_env(out, self.block(case.body.body, env))
            # names a pattern captures are not followed
            return {k: (v if k in env else None) for k, v in out.items()} if out is not None else None
        return env

    def _element(self, it, env: Env) -> Optional[HostValue]:
        """A value of the loop variable of ``for x in it``."""
        if isinstance(it, (cst.List, cst.Tuple)) and it.elements:
            if any(isinstance(e, cst.StarredElement) for e in it.elements):
                return None
            vals = [self.eval(e.value, env) for e in it.elements]
            out = vals[0]
            for v in vals[1:]:
                out = join(out, v)
            return out
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" and self.scope.lookup_scope("range") is None:
            return SCALAR_VAL
        return None

    def eval(self, e, env: Env) -> Optional[HostValue]:
        return self.hv.eval(e, self.scope, env, frozenset())


class HostValues:
    """Host-mode values of one module, computed per scope on the first question."""

    def __init__(self, index: ModuleIndex, finder: TransformFinder, classes: ClassModel):
        self.index = index
        self.finder = finder
        self.classes = classes
        self._runs: Dict[int, Optional[_ScopeRun]] = {}
        self._active: set = set()
        self._returns: Dict[int, Optional[HostValue]] = {}
        self._sites: Optional[Dict[int, Application]] = None
        self._attributes: Dict[Tuple[int, str], Optional[HostValue]] = {}
        self._passed: Dict[Tuple[int, str], Optional[HostValue]] = {}

    # -- the API ---------------------------------------------------------------------
    def value(self, expr, scope: Scope, call: Optional[cst.Call] = None) -> Optional[HostValue]:
        """The value of ``expr``, written in ``scope`` inside ``call`` (the call it is an
        argument or the callee of; None: at the end of the scope).  None when not known."""
        run = self._run(scope)
        if run is None:
            return self.eval(expr, scope, {}, frozenset())
        env = run.at_call.get(id(call)) if call is not None else run.final
        if env is None:
            return None  # unreachable, or not in a statement the run saw
        shadow = run.shadow.get(id(call), frozenset()) if call is not None else frozenset()
        v = self.eval(expr, scope, env, shadow)
        if call is not None and run.in_lambda.get(id(call)) and v is not None:
            # a lambda runs later: the names it reads may have been rebound since
            v = join(v, self.eval(expr, scope, run.final, shadow))
        return v

    # -- scopes ----------------------------------------------------------------------
    def _run(self, scope: Scope) -> Optional[_ScopeRun]:
        if scope.kind == "class":
            return None
        key = id(scope)
        if key in self._runs:
            return self._runs[key]
        if key in self._active:
            return None  # asked again while being interpreted: not known
        self._active.add(key)
        try:
            run = _ScopeRun(self, scope)
        finally:
            self._active.discard(key)
        self._runs[key] = run
        return run

    def outer_value(self, name: str, owner: Scope) -> Optional[HostValue]:
        """What ``name`` of ``owner`` holds where an inner function (traced code reading a
        global or a closure variable) reads it; None when not known."""
        return self._outer_name(name, owner)

    def _outer_name(self, name: str, owner: Scope) -> Optional[HostValue]:
        """A name of an enclosing scope read from an inner function: every value it is ever
        bound to must agree (the inner function may run at any time)."""
        if name in owner.imports:
            return None
        binds = owner.bindings.get(name, ())
        if any(b.order is None for b in binds):
            return None  # also written from another function
        if len(binds) == 1:
            if name in owner.defs:
                return self.function_value(owner.defs[name])
            if name in owner.classes:
                return SCALAR_VAL
        run = self._run(owner)
        if run is None:
            return None
        if owner.kind == "module" and len(binds) > 1 and name in run.final:
            # ``TABLE = np.array(...)`` then ``TABLE = jnp.asarray(TABLE)``: a function that runs
            # after the module has run reads the last value.  Only when nothing the module
            # defines is called before that last binding (it could run the function earlier).
            last = max(b.order for b in binds)
            if not any(order < last and _calls_module_code(callee, owner) for callee, order in owner.calls):
                return run.final[name]
        return run.assigned.get(name)

    # -- parameters of plain functions, from their call sites ------------------------------
    def passed_value(self, f: Optional[FuncInfo], name: str, depth: int = 0) -> Optional[HostValue]:
        """What parameter ``name`` of the plain function ``f`` holds, from every call of ``f``
        in the module (``def run(x, cfg): return step(x, cfg)`` ... ``run(x, Cfg(1.0))``): the
        value all of them pass, followed through callers that forward their own parameter.
        None when a call is not visible (``f`` is also used as a value), a call leaves the
        parameter out or passes it through ``*args``, or two calls disagree on its kind."""
        if f is None or f.is_lambda or f.is_method or f.body_scope is None or depth > 3:
            return None
        key = (id(f.node), name)
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = None  # while being computed: a recursive call is not known
        out = self._passed_value(f, name, depth)
        self._passed[key] = out
        return out

    def _passed_value(self, f: FuncInfo, name: str, depth: int) -> Optional[HostValue]:
        if self.finder.by_func.get(id(f.node)) or self.finder.is_traced_def(f):
            return None  # a transform's function: what it receives is traced, not passed
        positional = [p.name.value for p in f.positional_params()]
        if name not in positional or any(b.kind != "param" for b in f.body_scope.bindings.get(name, ())):
            return None
        origins = self.finder.call_targets.param_origins(f, name, only_called=True)
        if not origins:
            return None
        out: Optional[HostValue] = None
        for p in origins:
            if p.expr is None:
                return None  # a receiver: an object, not an argument
            v = self.value(p.expr, p.scope, p.call)
            if v is None or v.kind == PARAM or out is not None and v.kind != out.kind:
                return None
            out = v if out is None else join(out, v)
            if out is None:
                return None
        return out

    def star_values(self, g: Optional[FuncInfo]) -> Optional[Tuple[Optional[HostValue], ...]]:
        """What the ``*args`` of ``g`` hold, when ``g`` is the closure a factory returns
        (``def scanned(fn): def run(x, *args): ...; return run``) and the factory's result is
        bound once to a module name that is only ever called (``step = scanned(kernel)`` ...
        ``step(x, cfg)``): the extra positional arguments, the same number at every call, each
        the value the calls agree on (None where they do not).  None when not known."""
        if g is None or g.is_lambda or g.is_method or not isinstance(g.params.star_arg, cst.Param):
            return None
        key = (id(g.node), "*")
        if key in self._passed:
            return self._passed[key]
        self._passed[key] = None
        out = self._star_values(g)
        self._passed[key] = out
        return out

    def _star_values(self, g: FuncInfo) -> Optional[Tuple[Optional[HostValue], ...]]:
        factory = g.scope.func
        if factory is None or factory.is_lambda or factory.is_method or factory.scope.kind != "module":
            return None
        if g.scope.defs.get(g.name) is not g or len(g.scope.bindings.get(g.name, ())) != 1:
            return None
        returns = _returns_of(factory.node)
        if not returns or any(not (isinstance(r, cst.Name) and r.value == g.name) for r in returns):
            return None
        module = self.index.module_scope
        # ``step = scanned(kernel)``: every call of the factory binds one module name
        names = []
        for call, scope in self.index.calls_of(factory.name):
            if scope.lookup_def(factory.name) is not factory:
                continue
            binds = [n for n, bs in module.bindings.items() if len(bs) == 1 and bs[0].kind == "assign" and bs[0].value is call]
            if len(binds) != 1:
                return None
            names.append(binds[0])
        if not names or self._name_count(factory.scope, factory.name) != len(names) + 1:
            return None
        fixed = len(g.positional_params())
        out: Optional[list] = None
        for name in names:
            calls = [(c, sc) for c, sc in self.index.calls_of(name) if sc.lookup_scope(name) is module]
            if self._name_count(module, name) != len(calls) + 1:
                return None  # the closure is also used as a value: its calls are not all seen
            for call, scope in calls:
                if any(a.star or a.keyword is not None for a in call.args):
                    return None
                extra = call.args[fixed:]
                vals = []
                for a in extra:
                    v = self.value(a.value, scope, call)
                    if v is not None and v.kind == PARAM:
                        v = self.passed_value(scope.func, v.name)
                    vals.append(v)
                if out is None:
                    out = vals
                elif len(out) != len(vals):
                    return None
                else:
                    out = [x if x is not None and y is not None and x.kind == y.kind and join(x, y) is not None else None for x, y in zip(out, vals)]
        return tuple(out) if out is not None else None

    def _name_count(self, owner: Scope, name: str) -> int:
        return self.finder.call_targets.mentions(owner, name)

    # -- values of definitions ---------------------------------------------------------
    def function_value(self, f: FuncInfo) -> HostValue:
        """A def as a value: a jitted callable when ``jax.jit`` (or ``pmap``) decorates it."""
        for app in self.finder.by_func.get(id(f.node), ()):
            if isinstance(app.site, cst.Decorator) and _plain_jit(app):
                return HostValue(JITTED, None, app=app)
        return HostValue(FUNCTION, None, func=f)

    def returned(self, f: FuncInfo) -> Optional[HostValue]:
        """What a plain function of the module returns, when every ``return`` agrees on a
        jitted callable (a factory); else not known."""
        key = id(f.node)
        if key in self._returns:
            return self._returns[key]
        self._returns[key] = None
        out = None
        run = self._run(f.body_scope) if f.body_scope is not None and not f.is_lambda else None
        if run is not None and run.returns:
            vals = [self.eval(r, f.body_scope, env, frozenset()) for r, env in run.returns]
            out = vals[0]
            for v in vals[1:]:
                out = join(out, v)
            if out is not None and out.kind != JITTED:
                out = None
        self._returns[key] = out
        return out

    # -- expressions -------------------------------------------------------------------
    def eval(self, e, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        if isinstance(e, (cst.List, cst.ListComp)):
            return HostValue(LIST, e)
        if isinstance(e, (cst.Dict, cst.DictComp)):
            return HostValue(DICT, e)
        if isinstance(e, (cst.Set, cst.SetComp)):
            return HostValue(SET, e)
        if isinstance(e, cst.Tuple):
            if any(isinstance(el, cst.StarredElement) for el in e.elements):
                return HostValue(TUPLE, e)
            return HostValue(TUPLE, e, items=tuple(self.eval(el.value, scope, env, shadow) for el in e.elements))
        if isinstance(e, (cst.Integer, cst.Float)):
            return HostValue(SCALAR, e)  # a number: the literal is kept, so ``is_number`` can tell
        if isinstance(e, (cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Lambda)):
            return SCALAR_VAL
        if isinstance(e, cst.Name):
            return self._name(e, scope, env, shadow)
        if isinstance(e, cst.Call):
            return self._call(e, scope, env, shadow)
        if isinstance(e, cst.Attribute):
            attr = e.attr.value
            if attr in ("shape", "ndim", "size", "dtype") or attr in ARRAY_ATTRS:
                base = self.eval(e.value, scope, env, shadow)
                if base is None or base.kind not in (JAX_ARRAY, NUMPY_ARRAY):
                    return None
                return SCALAR_VAL if attr in ("ndim", "size", "dtype") else HostValue(TUPLE if attr == "shape" else base.kind, e)
            return self._object_attribute(e, scope, env, shadow)
        if isinstance(e, cst.Subscript):
            base = self.eval(e.value, scope, env, shadow)
            if base is not None and base.kind == JAX_ARRAY:
                return HostValue(JAX_ARRAY, e)  # indexing a JAX array gives an array
            return None
        if isinstance(e, cst.BinaryOperation):
            return self._binary(e, scope, env, shadow)
        if isinstance(e, cst.UnaryOperation):
            v = self.eval(e.expression, scope, env, shadow)
            if isinstance(e.operator, cst.Not):
                return SCALAR_VAL if v is not None and v.kind == SCALAR else None
            if v is not None and v.kind in (JAX_ARRAY, NUMPY_ARRAY):
                return HostValue(v.kind, e)
            return v if v is not None and v.kind == SCALAR else None
        if isinstance(e, cst.IfExp):
            return join(self.eval(e.body, scope, env, shadow), self.eval(e.orelse, scope, env, shadow))
        return None

    # -- objects -----------------------------------------------------------------------
    def _object_attribute(self, e: cst.Attribute, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        """``obj.attr`` / ``self.attr`` of an instance of a class of the module: the field its
        constructor was given, else what every write of the attribute by the class's methods
        stores (a parameter of ``__init__`` followed to what its callers pass)."""
        attr = e.attr.value
        base = self.eval(e.value, scope, env, shadow)
        if base is not None and base.kind == INSTANCE and base.fields is not None and base.fields.get(attr) is not None:
            return base.fields[attr]
        if base is not None and base.kind not in (INSTANCE, PARAM):
            return None
        r = self.finder.receivers.receiver_of(e.value, scope)
        if r is None or r.cls is None:
            return None
        return self.attribute_value(r.cls, attr)

    def attribute_value(self, cls: ClassInfo, attr: str) -> Optional[HostValue]:
        """What every write of ``<instance>.attr`` stores, when they agree; None when it is a
        method or property, is written from outside the class or by a subclass, or a write
        cannot be read."""
        key = (id(cls), attr)
        if key in self._attributes:
            return self._attributes[key]
        self._attributes[key] = None  # a cycle answers unknown
        self._attributes[key] = self._attribute_value(cls, attr)
        return self._attributes[key]

    def _attribute_value(self, cls: ClassInfo, attr: str) -> Optional[HostValue]:
        targets = self.finder.call_targets
        if self.classes.member(cls, attr) is not None or attr in targets.outside_writes():
            return None
        receivers = self.finder.receivers
        for c in self.index.classes:
            if c is not cls and cls in self.classes.mro(c) and len(receivers.attribute_values(c, attr)) != len(receivers.attribute_values(cls, attr)):
                return None  # a subclass writes it too
        writes = receivers.attribute_values(cls, attr)
        if not writes:
            return None
        out: Optional[HostValue] = None
        for i, (value, scope) in enumerate(writes):
            if value is None:
                return None
            origins = targets.origins(value, scope, None)
            if origins is None:
                return None
            for p in origins:
                if p.expr is None or p.scope is None:
                    return None
                v = self.value(p.expr, p.scope, p.call)
                if v is None or v.kind == PARAM:
                    return None
                out = v if out is None else join(out, v)
                if out is None:
                    return None
        return out

    def _binary(self, e: cst.BinaryOperation, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        a = self.eval(e.left, scope, env, shadow)
        b = self.eval(e.right, scope, env, shadow)
        if a is None or b is None:
            # an array on one side makes an array, whatever the other (a scalar, an array)
            known = a or b
            if known is not None and known.kind == JAX_ARRAY and not isinstance(e.operator, (cst.BitOr, cst.BitAnd)):
                return HostValue(JAX_ARRAY, e)
            return None
        kinds = {a.kind, b.kind}
        if kinds <= {JAX_ARRAY, NUMPY_ARRAY, SCALAR} and kinds & {JAX_ARRAY, NUMPY_ARRAY}:
            return HostValue(JAX_ARRAY if JAX_ARRAY in kinds else NUMPY_ARRAY, e)
        if kinds == {SCALAR}:
            return SCALAR_VAL
        if a.kind == LIST and (b.kind == LIST and isinstance(e.operator, cst.Add) or b.kind == SCALAR and isinstance(e.operator, cst.Multiply)):
            return HostValue(LIST, e)
        if a.kind == b.kind == TUPLE and isinstance(e.operator, cst.Add) and a.items is not None and b.items is not None:
            return HostValue(TUPLE, e, items=a.items + b.items)
        return None

    def _name(self, e: cst.Name, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        n = e.value
        if n in shadow:
            return None
        owner = scope.lookup_scope(n)
        if owner is None:
            return SCALAR_VAL if n in ("True", "False", "None") else None
        if owner is scope and scope.kind != "class":
            if any(b.order is None for b in scope.bindings.get(n, ())):
                return None  # rebound from an inner function (nonlocal / global): at an unknown time
            if n in env:
                return env[n]
            if n in scope.defs and len(scope.bindings.get(n, ())) == 1:
                return self.function_value(scope.defs[n])
            return None
        return self._outer_name(n, owner)

    def _call(self, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        func = e.func
        if functional_update(e) is not None:
            base = self.eval(func.value.value.value, scope, env, shadow)
            return HostValue(JAX_ARRAY, e) if base is not None and base.kind == JAX_ARRAY else None
        if isinstance(func, cst.Name):
            owner = scope.lookup_scope(func.value)
            if owner is None:
                b = func.value
                if b in ("list", "sorted", "bytearray"):
                    return HostValue(LIST, e)
                if b == "dict":
                    return HostValue(DICT, e)
                if b == "set":
                    return HostValue(SET, e)
                return SCALAR_VAL if b in SCALAR_BUILTINS else None
            cls = owner.classes.get(func.value)
            if cls is not None and len(owner.bindings.get(func.value, ())) == 1:
                return self._construct(e, cls, scope, env, shadow)
        q = resolve(func, scope)
        if q is not None:
            return self._api_call(e, q, scope, env, shadow)
        if isinstance(func, cst.Attribute):
            base = self.eval(func.value, scope, env, shadow)
            if base is None:
                return None
            m = func.attr.value
            if base.kind in (JAX_ARRAY, NUMPY_ARRAY):
                if m in ARRAY_METHODS:
                    return HostValue(base.kind, e)
                return SCALAR_VAL if m == "item" else None
            if base.kind == OPTIMIZER and m == "init":
                return HostValue(OPT_STATE, e)
            if base.kind == ARG_PARSER and m == "parse_args":
                return HostValue(NAMESPACE, e)
            if base.kind == ARG_PARSER and m == "parse_known_args":
                return HostValue(TUPLE, e, items=(HostValue(NAMESPACE, e), HostValue(LIST, e)))
            if base.kind in (LIST, DICT, SET) and m == "copy":
                return HostValue(base.kind, e)
            return None
        callee = self.eval(func, scope, env, shadow)
        if callee is None:
            return None
        if callee.kind == JITTED:
            return HostValue(JIT_RESULT, e) if _returns_value(callee.app.func) else None
        if callee.kind == OPT_INIT:
            return HostValue(OPT_STATE, e)
        if callee.kind == FUNCTION and not callee.func.is_lambda:
            return self.returned(callee.func)
        return None

    def _api_call(self, e: cst.Call, q: str, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        for prefix, excluded in (("jax.numpy.", NOT_ONE_ARRAY), ("jax.random.", NOT_ONE_ARRAY_RANDOM)):
            if q.startswith(prefix):
                name = q[len(prefix):]
                if "." in name or name in excluded or prefix == "jax.numpy." and name[:1].isupper():
                    return None
                if name == "where" and sum(1 for a in e.args if a.keyword is None and not a.star) != 3:
                    return None
                return HostValue(JAX_ARRAY, e)
        if q.startswith("numpy.") and q[6:] in NUMPY_ARRAY_MAKERS:
            return HostValue(NUMPY_ARRAY, e)
        if q.startswith("numpy.") and q[6:] in NUMPY_SCALAR_TYPES:
            return HostValue(NUMPY_SCALAR, e)
        if q == "argparse.ArgumentParser":
            return HostValue(ARG_PARSER, e)
        if q == "argparse.Namespace":
            return HostValue(NAMESPACE, e)
        if q in CONTAINER_CTORS:
            return HostValue(LIST if q == "collections.deque" else DICT, e)
        if q.startswith("optax."):
            name = q[6:]
            if name in STATEFUL_OPTAX or name == "sgd" and any(
                a.keyword is not None and a.keyword.value == "momentum" and not (isinstance(a.value, cst.Name) and a.value.value == "None")
                for a in e.args
            ):
                return HostValue(OPTIMIZER, e)
            return None
        if q.startswith("jax.example_libraries.optimizers.") and q.rsplit(".", 1)[-1][:1].islower():
            # (init_fun, update_fun, get_params); every init_fun's state holds arrays
            return HostValue(TUPLE, e, items=(HostValue(OPT_INIT, e), None, None))
        if q == "equinox.partition":
            return self._partition(e, scope, env, shadow)
        if q in PARTIAL and e.args and e.args[0].keyword is None and not e.args[0].star:
            inner = self.eval(e.args[0].value, scope, env, shadow)
            if inner is None or inner.kind != JITTED or any(a.star or a.keyword is not None for a in e.args[1:]):
                return None  # keywords bound: not followed
            bound = inner.bound + tuple((a.value, self.eval(a.value, scope, env, shadow)) for a in e.args[1:])
            return HostValue(JITTED, e, app=inner.app, bound=bound)
        # ``jax.jit(f, static_argnums=...)`` applied here
        if self._sites is None:
            self._sites = {id(a.site): a for a in self.finder.applications if isinstance(a.site, cst.Call)}
        app = self._sites.get(id(e))
        if app is not None and _plain_jit(app) and not app.bound_pos and not app.bound_kw and not app.bound_self:
            return HostValue(JITTED, e, app=app)
        return None

    def _partition(self, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[HostValue]:
        """``params, static = eqx.partition(model, eqx.is_array)``: the static half is the same
        pytree with its arrays replaced by None; its other fields (a dict, a list, a config
        object) stay, and are hashed when the half is passed for a static parameter."""
        args = [a for a in e.args if not a.star]
        positional = [a.value for a in args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in args if a.keyword is not None}
        tree = positional[0] if positional else keywords.get("pytree")
        spec = positional[1] if len(positional) > 1 else keywords.get("filter_spec")
        if tree is None or spec is None or len(e.args) != len(args) or set(keywords) - {"pytree", "filter_spec"}:
            return None
        if resolve(spec, scope) != "equinox.is_array":
            return None  # another filter may keep some arrays in the static half
        static = _without_arrays(self.eval(tree, scope, env, shadow), 0)
        return HostValue(TUPLE, e, items=(None, static)) if static is not None else None

    # -- instances ---------------------------------------------------------------------
    def _construct(self, e: cst.Call, cls: ClassInfo, scope: Scope, env: Env, shadow: frozenset) -> HostValue:
        fields = None
        names = self.classes.field_names(cls)
        if names and not self.classes.has_own_init(cls) and not any(a.star for a in e.args):
            fields = {}
            for n, a in zip(names, [a for a in e.args if a.keyword is None]):
                fields[n] = self.eval(a.value, scope, env, shadow)
            for a in e.args:
                if a.keyword is not None:
                    fields[a.keyword.value] = self.eval(a.value, scope, env, shadow)
            for n in names:
                if n not in fields:
                    fields[n] = self._field_default(cls, n)
            for n in list(fields):
                if self._field_excluded(cls, n):
                    del fields[n]
        elif names and not any(a.star for a in e.args):
            fields = self._init_fields(e, cls, names, scope, env, shadow)
        return HostValue(INSTANCE, e, cls=cls, fields=fields)

    def _init_fields(self, e: cst.Call, cls: ClassInfo, names, scope: Scope, env: Env, shadow: frozenset):
        """The fields an own ``__init__`` copies from its parameters (``self.nested = nested``),
        with what the call passes for them; a field assigned anything else, or more than once,
        is not known."""
        if any("__new__" in c.body_scope.defs for c in self.classes.mro(cls)):
            return None
        init = self.classes.member(cls, "__init__")
        if init is None or init.body_scope is None or init.is_lambda:
            return None
        params = init.positional_params()
        if not params:
            return None
        me = params[0].name.value
        positional = [p.name.value for p in params[1:]]
        given: Dict[str, cst.BaseExpression] = {}
        i = 0
        for a in e.args:
            if a.keyword is not None:
                given[a.keyword.value] = a.value
            elif i < len(positional):
                given[positional[i]] = a.value
                i += 1
            else:
                return None  # more arguments than parameters: *args
        writes: Dict[str, list] = {}
        for w in self.index.attribute_writes:
            if w.scope is init.body_scope and w.name == me:
                writes.setdefault(w.attr, []).append(w)
        top = set()
        for st in init.node.body.body:
            if isinstance(st, cst.SimpleStatementLine):
                top.update(id(small.value) for small in st.body if isinstance(small, (cst.Assign, cst.AnnAssign)))
        fields: Dict[str, Optional[HostValue]] = {}
        for n in names:
            ws = writes.get(n, ())
            v = None
            if len(ws) == 1 and not ws[0].in_place and isinstance(ws[0].value, cst.Name) and id(ws[0].value) in top:
                p = ws[0].value.value
                binds = init.body_scope.bindings.get(p, ())
                if len(binds) == 1 and binds[0].kind == "param" and p in given:
                    v = self.eval(given[p], scope, env, shadow)
            if not self._field_excluded(cls, n):
                fields[n] = v
        return fields

    def _field_statement(self, cls: ClassInfo, name: str) -> Optional[cst.AnnAssign]:
        for c in self.classes.mro(cls):
            for st in c.node.body.body:
                if isinstance(st, cst.SimpleStatementLine):
                    for small in st.body:
                        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and small.target.value == name:
                            return small
        return None

    def _field_default(self, cls: ClassInfo, name: str) -> Optional[HostValue]:
        st = self._field_statement(cls, name)
        if st is None or st.value is None:
            return None
        v = st.value
        if isinstance(v, cst.Call):
            if qualified(v.func, cls.scope).rsplit(".", 1)[-1] != "field":
                return None
            for a in v.args:
                if a.keyword is not None and a.keyword.value == "default_factory":
                    f = a.value
                    if isinstance(f, cst.Name) and cls.scope.lookup_scope(f.value) is None and f.value in ("list", "dict", "set"):
                        return HostValue({"list": LIST, "dict": DICT, "set": SET}[f.value], a.value)
                    return None
                if a.keyword is not None and a.keyword.value == "default":
                    return self.eval(a.value, cls.scope, {}, frozenset())
            return None
        return self.eval(v, cls.scope, {}, frozenset())

    def _field_excluded(self, cls: ClassInfo, name: str) -> bool:
        """A field left out of the hash (``field(compare=False)`` / ``hash=False``), or static
        metadata of a pytree (hashed with the tree structure: not followed here)."""
        st = self._field_statement(cls, name)
        if st is None:
            return True
        if not isinstance(st.value, cst.Call):
            return False
        for a in st.value.args:
            if a.keyword is not None and a.keyword.value in ("compare", "hash", "static", "pytree_node"):
                return True
        return qualified(st.value.func, cls.scope).rsplit(".", 1)[-1] == "static_field"


def _without_arrays(v: Optional[HostValue], depth: int) -> Optional[HostValue]:
    """What ``eqx.partition(v, eqx.is_array)`` leaves in its static half: arrays become None;
    containers and instances keep their shape (a list of arrays is a list of Nones)."""
    if v is None or depth > 4:
        return None
    if v.kind in (JAX_ARRAY, NUMPY_ARRAY, JIT_RESULT):
        return SCALAR_VAL
    if v.kind in (LIST, DICT, SET, SCALAR):
        return v
    if v.kind == TUPLE and v.items is not None:
        return HostValue(TUPLE, v.node, items=tuple(_without_arrays(it, depth + 1) for it in v.items))
    if v.kind == INSTANCE and v.cls is not None:
        if v.fields is None:
            return None  # the fields are not known: neither is what stays
        fields = {n: _without_arrays(f, depth + 1) for n, f in v.fields.items()}
        return HostValue(INSTANCE, v.node, cls=v.cls, fields=fields)
    return None


def _plain_jit(app: Application) -> bool:
    """``jax.jit`` / ``jax.pmap`` (not equinox's or Flax's): outputs are arrays, and static
    parameters are hashed."""
    t = app.transform
    return t.cached and t.statics and not t.filtered and not t.opaque_attrs


def _returns_of(node: cst.FunctionDef) -> List[cst.BaseExpression]:
    """The values of the function's own ``return`` statements (not of nested functions);
    empty when some ``return`` has no value."""
    out: List[cst.BaseExpression] = []
    bare = []

    class _Returns(FastVisitor):
        def visit_Return(self, r: cst.Return) -> None:
            (out if r.value is not None else bare).append(r.value)

        def visit_FunctionDef(self, n) -> bool:
            return False

        def visit_ClassDef(self, n) -> bool:
            return False

        def visit_Lambda(self, n) -> bool:
            return False

    _Returns().walk(node.body)
    return [] if bare else out


def _returns_value(f: FuncInfo) -> bool:
    """The function returns something other than None: its outputs are arrays under jit."""
    if f.is_lambda:
        return True
    rets = _returns_of(f.node)
    return bool(rets) and not any(
        isinstance(r, cst.Name) and r.value == "None" or isinstance(r, cst.Tuple) and not r.elements for r in rets
    )
