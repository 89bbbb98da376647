"""Callables that are a new object each time the code that makes them runs, and the functions
that run again and again.

JAX keys its compilation cache on the function object it jits, and the cache of a static
argument (or of static pytree metadata) on its ``hash`` and ``==``; a lambda, a
``functools.partial``, a ``jax.grad`` result or a bound method compares by identity, so a new
one is a new cache entry.  Whether that costs a compilation per call depends on whether the code
that builds it runs repeatedly: inside a loop, or in a function called from one.  The slots of
a jitted call where a callable is compared that way are listed here too (``callable_slots``)."""

from __future__ import annotations

from typing import List, NamedTuple, Optional

import libcst as cst

from jaxlint.analysis.syntax.memo_guards import memoised
from jaxlint.analysis.syntax.functions import free_names, single_return
from jaxlint.analysis.host.host_value import class_hash
from jaxlint.analysis.jax.optax_transforms import OPTAX_TRANSFORMS
from jaxlint.analysis.model.classes import class_named, decorator_names, is_property
from jaxlint.analysis.model.names import PARTIAL, resolve
from jaxlint.analysis.model.nnx_state import OPTIMIZER
from jaxlint.analysis.model.transforms import Application, arguments_by_parameter
from jaxlint.analysis.syntax.fast_walk import FastVisitor, names_in
from jaxlint.analysis.syntax.nodes import argument_at, arguments_by_position, literal_value, simple_statements
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.syntax.statement_paths import block_key, scope_body, statement_path

# Transforms whose result is a new function object on every evaluation, which compares by
# identity (a ``jax.jit`` result too; ``eqx.filter_jit`` returns a Module that compares by its
# fields: two of one function are equal).
FRESH_TRANSFORMS = frozenset(
    {"jax.grad", "jax.value_and_grad", "jax.jacfwd", "jax.jacrev", "jax.hessian", "jax.vmap", "jax.checkpoint", "jax.remat", "jax.jit"}
)
# How far a value is followed into the functions and constructors that build it.
MAX_FACTORY_DEPTH = 3


def built_anew(m, expr, scope, bound_methods: bool = True):
    """(what it is, the nodes it reads) when evaluating ``expr`` makes a new callable object
    each time: a lambda, ``functools.partial(...)``, ``jax.grad(f)``, or a bound method
    ``self.method`` (each attribute access binds a new method object)."""
    if isinstance(expr, cst.Lambda):
        return "lambda", (expr,)
    if isinstance(expr, cst.Call):
        q = resolve(expr.func, scope)
        if q in PARTIAL and expr.args:
            return ("`" + q.rsplit(".", 1)[-1] + "` object"), tuple(a.value for a in expr.args)
        if q in FRESH_TRANSFORMS and expr.args:
            return f"`{q}` result", tuple(a.value for a in expr.args)
        return None
    if bound_methods and isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
        receiver = m.finder.receivers.receiver_of(expr.value, scope)
        cls = receiver.cls if receiver is not None else None
        if cls is None:
            return None
        f = m.analyzer.classes.member(cls, expr.attr.value)
        if f is None or isinstance(f.node, cst.Lambda) or _plain_function(f):
            return None
        return f"bound method `{expr.value.value}.{expr.attr.value}`", (expr.value,)
    return None


class Made(NamedTuple):
    """A callable that is a new object each time the code making it runs."""

    what: str
    reads: tuple  # the nodes whose names decide what it computes
    node: cst.CSTNode  # what is evaluated to make it: the expression, a name's value, or a def
    order: int  # where in the scope it is made


def made_anew(m, expr, scope, order: int, build=None) -> Optional[Made]:
    """``expr``, read at ``order`` of ``scope``, when it is a callable made anew each time the
    code making it runs: built right there (``build``, by default ``built_anew``); or a name
    the scope binds once, by an assignment of such a value (``loss_fn = partial(loss, w=1)``)
    or by a ``def``, which makes a new function object each time the statement runs.  A
    decorator that is no transform may hand back any object (one it keeps in a memo)."""
    build = build or (lambda e, s: built_anew(m, e, s))
    found = build(expr, scope)
    if found is not None:
        return Made(*found, expr, order)
    if not isinstance(expr, cst.Name) or expr.value in scope.globals or expr.value in scope.nonlocals:
        return None
    b = scope.assigned_once(expr.value)
    if b is not None:
        found = build(b.value, scope)
        return Made(*found, b.value, b.order) if found is not None else None
    f = scope.sole_def(expr.value)
    if f is None or not all(m.finder.transform_of(d.decorator, scope) is not None for d in f.node.decorators):
        return None
    return made_by_def(f)


def made_by_def(f) -> Made:
    """The function object the ``def`` of ``f`` makes each time the statement runs."""
    owner = f" inside {f.scope.func.name}()" if f.scope.kind == "function" and f.scope.func is not None else ""
    return Made(f"function `{f.name}` defined{owner}", (f.node,), f.node, f.order)


def runs_repeatedly(m, func) -> Optional[cst.Call]:
    """Does ``func`` run again and again: called inside a loop of the module, or twice in one
    block, or from a function that does (any depth), at a call that is not guarded by a memo it
    fills (``if self._fn is None: self._fn = self._build()``: once per entry)?  The call in the
    loop, or the second of the two (of ``func`` or of a function that reaches it), or None.  The
    calls of ``func`` are the call-target resolver's (by name, a method through ``self`` or an
    instance, ``__call__``, a bound method, a factory's closure, a partial).  Computed once per
    module and function."""
    return _repeats(m, func, m.__dict__.setdefault("_repeated_functions", {}))


def _repeats(m, func, memo) -> Optional[cst.Call]:
    key = id(func.node)
    if key in memo:
        return memo[key]
    memo[key] = None  # a cycle of calls answers "no" (until shown otherwise)
    sites = []
    seen = set()
    for call, scope, _t in m.finder.call_targets.callers(func):
        order = m.call_sites.order(call)
        if id(call) not in seen and order is not None:
            seen.add(id(call))
            sites.append((call, scope, order))
    out = None
    # a call that fills a memo runs once per entry of the memo
    sites = [(call, scope, order) for call, scope, order in sites if not memoised(m, call, scope, order)]
    for call, scope, order in sites:
        # a loop span: a ``for``/``while`` statement's, or a comprehension's
        if any(a <= order <= b for a, b in scope.loops):
            out = call
            break
        caller = scope.func if scope.kind == "function" else None
        if caller is not None and caller is not func:
            out = _repeats(m, caller, memo)
            if out is not None:
                break
    memo[key] = out if out is not None else second_call_in_a_block(m, sites)
    return memo[key]


def second_call_in_a_block(m, sites) -> Optional[cst.Call]:
    """The second of two calls in one block of statements (``a = f(x); b = f(y)``): when the
    block runs, both do, and the function runs twice.  Calls under two branches of an ``if``
    do not both run."""
    if len(sites) < 2:
        return None
    seen = set()
    for call, scope, order in sorted(sites, key=lambda site: site[2]):
        path = statement_path(scope_body(m.module, scope), call, m.spans)
        if path is None or id(call) not in _unconditional_calls(path[-1][0]):
            continue
        where = (id(scope), block_key(path))
        if where in seen:
            return call
        seen.add(where)
    return None


def _unconditional_calls(statement) -> set:
    """The calls that run whenever the simple statement does: not in a lambda's body (it runs
    when called), a branch of a conditional expression, or the right of ``and`` / ``or``."""
    walk = _UnconditionalCalls()
    walk.walk(statement)
    return walk.calls


class _UnconditionalCalls(FastVisitor):
    def __init__(self):
        self.calls = set()
        self._conditional = 0

    def visit_Call(self, node) -> None:
        if not self._conditional:
            self.calls.add(id(node))

    def visit_Lambda(self, node) -> bool:
        return False

    def visit_IfExp(self, node) -> bool:
        self.walk(node.test)
        self._conditional += 1
        self.walk(node.body)
        self.walk(node.orelse)
        self._conditional -= 1
        return False

    def visit_BooleanOperation(self, node) -> bool:
        self.walk(node.left)
        self._conditional += 1
        self.walk(node.right)
        self._conditional -= 1
        return False


def repetition(m, call) -> str:
    """How the call that ``runs_repeatedly`` answered makes a function run again and again."""
    in_loop = any(any(a <= o <= b for a, b in s.loops) for c, s, o in m.index.calls if c is call)
    return "runs in a loop" if in_loop else "is called more than once"


def _plain_function(f) -> bool:
    """staticmethod (a plain function on every access) or property (not a method object)."""
    names = decorator_names(f.node, f.scope)
    return "staticmethod" in names or is_property(f)


# How a slot keys the cache: a static parameter; an argument of an ``eqx.filter_jit`` function
# (everything but arrays is static there); a ``jax.tree_util.Partial`` passed for a traced
# parameter (a pytree: its function is aux data, its arguments leaves).
# And an argument of ``nnx.jit``: an NNX object whose attributes that are no Variables are
# static graph data.
STATIC, FILTERED, TREE_PARTIAL, GRAPH = "static", "filtered", "tree_partial", "graph"


class CallableSlot(NamedTuple):
    """An argument of a call of a jitted function whose callable object is part of the cache
    key: compared by ``hash`` and ``==``, which for a lambda or a partial object is identity."""

    app: Application  # the jitted function called
    arg: cst.Arg
    param: str
    scope: Scope  # where the call is made
    order: int  # the call's place in its scope
    kind: str  # how the slot keys the cache: STATIC, FILTERED or TREE_PARTIAL
    call: cst.Call  # the call of the jitted function: where it compiles


def callable_slots(m) -> List[CallableSlot]:
    """Every argument that reaches a static slot of a cached jitted function: a
    ``static_argnums`` / ``static_argnames`` parameter; any argument of an ``eqx.filter_jit``
    function (a callable is not an array, so it is static there); and a
    ``jax.tree_util.Partial`` passed anywhere (a pytree whose function is static aux data)."""
    out: List[CallableSlot] = []
    seen_args = set()
    for app, arg, pname, scope, order, call in m.static_arguments:
        if not app.transform.statics:
            continue  # an equinox filter's Python scalar: its slot is the filtered one below
        seen_args.add(id(arg))
        if not app.transform.cached:
            continue
        out.append(CallableSlot(app, arg, pname, scope, order, STATIC, call))
    for app, _statics in m.analyzer.cached_applications():
        pos = app.jit_positional()
        for call, scope in m.analyzer.call_sites_with_scopes(app):
            order = m.call_sites.order(call)
            if order is None:
                continue
            for a, pname in arguments_by_parameter(app, call, pos):
                if pname is None or id(a) in seen_args or a.star:
                    continue
                seen_args.add(id(a))  # one slot per argument, however many applications reach it
                if app.transform.filtered:
                    out.append(CallableSlot(app, a, pname, scope, order, FILTERED, call))
                elif _tree_partial(a.value, scope):
                    out.append(CallableSlot(app, a, pname, scope, order, TREE_PARTIAL, call))
                elif app.transform.opaque_attrs:
                    out.append(CallableSlot(app, a, pname, scope, order, GRAPH, call))
    return out


def _resolve_alias(expr, scope) -> Optional[str]:
    """``resolve``, also through a variable bound once to an imported name (``adam =
    optax.adam``): calling it calls that object."""
    q = resolve(expr, scope)
    if q is not None or not isinstance(expr, cst.Name):
        return q
    v, owner = scope.sole_binding(expr.value, mutable=True) or (None, None)
    return resolve(v, owner) if isinstance(v, (cst.Name, cst.Attribute)) and expr.value not in owner.globals else None


def _tree_partial(expr, scope) -> bool:
    return isinstance(expr, cst.Call) and resolve(expr.func, scope) == "jax.tree_util.Partial"


def built_anew_for_slot(m, expr, scope, kind: str):
    """What ``expr`` is when it makes a callable object that is new on every evaluation and
    keys the cache by identity in a slot of ``kind``: a ``jax.tree_util.Partial`` is a pytree
    outside static parameters, and only its function (static aux data) counts there."""
    if _tree_partial(expr, scope) and kind != STATIC:
        inner = expr.args[0].value if expr.args and expr.args[0].keyword is None else None
        built = built_anew(m, inner, scope, bound_methods=False) if inner is not None else None
        if built is None:
            return None
        return f"`Partial` of a {built[0]}", built[1]
    if kind == GRAPH:
        # ``nnx.Optimizer(model, tx)`` keeps ``tx`` as a static attribute; the model's
        # Variables are traced state
        if not isinstance(expr, cst.Call) or resolve(expr.func, scope) not in OPTIMIZER:
            return None
        tx = argument_at(expr.args, 1, "tx")
        tx = (_rebuilt_with(m, tx, expr, scope) or tx) if isinstance(tx, cst.Name) else tx
        inner = _new_key(m, tx, scope, 1) if tx is not None else None
        return (f"`nnx.Optimizer` holding a {inner[0]}", inner[1]) if inner is not None else None
    return _new_key(m, expr, scope, 0)


def _new_key(m, expr, scope, depth: int, factory=None):
    """What ``expr`` makes that is a new cache key on every evaluation, or None: a callable
    built there (``built_anew``), an optax optimiser, an instance of a class of the module
    that compares by identity, or one hashed by its fields that holds such a value, also
    when a function of the module builds and returns it (``factory``: that function, whose
    own nested ``def``s are new function objects on each of its calls)."""
    if isinstance(expr, cst.IfExp):
        # ``fn if fn else (lambda x: x)``: a default built anew whenever that branch is taken
        for branch in (expr.body, expr.orelse):
            inner = _new_key(m, branch, scope, depth, factory)
            if inner is not None:
                return f"{inner[0]} (a branch of a conditional expression)", inner[1]
        return None
    if factory is not None and isinstance(expr, cst.Name) and expr.value in scope.defs and scope.func is factory:
        return f"function `{expr.value}` defined in {factory.name}()", ()
    if not isinstance(expr, cst.Call) or depth > MAX_FACTORY_DEPTH:
        return built_anew(m, expr, scope, bound_methods=False)
    args = tuple(a.value for a in expr.args)
    q = _resolve_alias(expr.func, scope)
    if q is not None and q.startswith("optax.") and q[len("optax.") :] in OPTAX_TRANSFORMS and args:
        # a ``GradientTransformation``: a tuple of the ``init`` and ``update`` closures the call
        # makes, so two calls with the same settings neither hash nor compare equal
        return f"`{q}` optimiser (a tuple of new closures)", args
    if isinstance(expr.func, cst.Name) and q is None:
        cls = class_named(scope, expr.func.value)
        if cls is not None:
            how, _why = class_hash(cls, m.analyzer.classes)
            if how == "identity":
                return f"instance of `{cls.name}` (a class without __eq__ or __hash__)", args
            if how == "fields":
                for a in _held_arguments(m, cls, expr):
                    value = _rebuilt_with(m, a.value, expr, scope) if isinstance(a.value, cst.Name) else None
                    inner = _new_key(m, a.value if value is None else value, scope, depth + 1, factory)
                    if inner is not None:
                        # followed to its binding, it depends on what that value reads
                        return f"`{cls.name}` holding a {inner[0]}", args if value is None else tuple(v for v in args if v is not a.value) + inner[1]
            return None
        f = scope.lookup_def(expr.func.value)
        if f is not None and not f.is_lambda and not f.is_method and f.body_scope is not None:
            ret = single_return(f.node)
            inner = _new_key(m, ret, f.body_scope, depth + 1, f) if ret is not None else None
            if inner is not None:
                return (inner[0] if f"{f.name}()" in inner[0] else f"{inner[0]} from {f.name}()"), args
            return None
    return built_anew(m, expr, scope, bound_methods=False)


def _held_arguments(m, cls, call) -> List[cst.Arg]:
    """The arguments of the construction ``call`` that the instance keeps as they are: all of
    them for a generated constructor; for an ``__init__`` of the class's own, those it stores
    unchanged (``self.optim = optim``), not one it converts first."""
    init = m.analyzer.classes.member(cls, "__init__")
    if init is None:
        return list(call.args)
    params = [p.name.value for p in init.positional_params()]
    if not params or init.body_scope is None:
        return []
    stored = {
        small.value.value
        for small in simple_statements(init.node.body)
        if isinstance(small, cst.Assign) and isinstance(small.value, cst.Name) and len(small.targets) == 1
        and isinstance(small.targets[0].target, cst.Attribute) and names_in(small.targets[0].target.value) == {params[0]}
    }
    return [a for a, p in arguments_by_position(call.args, params, 1) if p in stored and init.body_scope.only_binding(p) is not None]


def _rebuilt_with(m, name, holder, scope):
    """The value of ``name``, bound once in ``scope`` before the construction ``holder`` and
    inside every loop around it (``optim = optax.adam(lr)``, then ``Solver(optim)``): a new
    object whenever the holder is built.  None for one built once and held again and again."""
    b = scope.assigned_once(name.value) if name.value not in scope.globals and name.value not in scope.nonlocals else None
    order = m.call_sites.order(holder)
    if b is None or b.order is None or order is None or b.order > order:
        return None
    if any(start <= order <= end and not start <= b.order <= end for start, end in scope.loops):
        return None
    return b.value


def reads_loop_variables(m, nodes, scope, loop) -> bool:
    """Do the nodes read a variable that the loop binds (its target, or an assignment in its
    body)?  Not the element of data the loop walks (``for lmbda in jnp.linspace(...)``, ``for
    lr in (0.1, 0.01)``): data is what a compiled function takes as an argument, and a closure
    over it compiles once per value for what one compilation could do."""
    start, end = loop
    varying = {
        n
        for n, binds in scope.bindings.items()
        if any(b.order is not None and start <= b.order <= end and b.kind != "def" and not _walks_array(m, b, scope) for b in binds)
    }
    varying |= {n for n, binds in scope.comprehension_bindings.items() if any(start <= b.order <= end and not _walks_array(m, b, scope) for b in binds)}
    if not varying:
        return False
    read = set()
    todo, seen = list(nodes), set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        # A lambda's or function's own parameters and locals are not the loop's variables,
        # even when they share a name (``def loss(params, batch)`` jitted in ``for batch in``).
        found = free_names(m.index, node)
        read |= found
        # a function of this scope that the callable uses (``jax.grad(fun)``, ``partial(fun)``)
        # reads what its body reads
        for n in found:
            f = scope.defs.get(n)
            if f is not None:
                todo.append(f.node)
    return bool(varying & read)


def _walks_array(m, binding, scope) -> bool:
    """A ``for`` loop's (or a comprehension's) variable bound to data: the elements of a JAX
    array, or of a literal sequence of floats."""
    if binding.kind != "for" or not isinstance(binding.value, (cst.For, cst.CompFor)):
        return False
    return walks_data(m, binding.value.iter, scope)


def walks_data(m, iterable, scope) -> bool:
    """Are the elements of ``iterable`` data, which a compiled function takes as arguments of
    one shape: the rows of a JAX array, or the floats of a literal sequence (a float is never
    a shape or a count; traced, it is a weak-typed scalar, one program for all values)?"""
    if m.host_values.is_array(iterable, scope):
        return True
    return isinstance(iterable, (cst.List, cst.Tuple)) and bool(iterable.elements) and all(type(literal_value(e.value)) is float for e in iterable.elements)
