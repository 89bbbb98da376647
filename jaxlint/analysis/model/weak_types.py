"""Dtype kind and weak type of simple expressions, as far as the text shows them.

JAX keys its compilation cache on each argument's shape, dtype and *weak type*.  A Python
scalar is weakly typed (``0.0`` is a weak float32, ``0`` a weak int32); so are the results of
arithmetic and element-wise functions on weak values (``x * 0.5``, ``jnp.sin(x)``,
``jnp.where(...)``, ``jnp.asarray(0.0)``).  Reductions (``jnp.sum``, ``x.mean()``), casts
(``x.astype(...)``, ``jnp.asarray(x, jnp.float32)``), typed constructors (``jnp.float32(0)``,
``jnp.zeros(())``) and mixing with a strong array of the same or a higher kind give strongly
typed results.  Promotion with a weak operand of a higher kind keeps it weak (``int32 array +
1.0`` is a weak float32).  ``jax.random`` samples are strongly typed.  A jitted or vmapped
function returns what its body returns, leaf by leaf; ``jax.grad(f, has_aux=True)`` returns
f's auxiliary output as f does; a lax loop returns its body's carry.  Every case here was
checked against jax 0.10.2.

A type is ``Typ(kind, weak, least)`` with ``kind`` one of BOOL < INT < FLOAT < COMPLEX, or None
for an unknown dtype of kind ``least`` or higher (``x.mean()`` is at least a float); a
``NamedTuple`` value is ``Fields(cls, {name: type})``; ``ANY_ARRAY`` an argument of unknown
type (a reduction of it is still strong); ``None`` means "cannot tell", and callers stay
silent on it.
"""

from __future__ import annotations

from typing import Callable, Dict, NamedTuple, Optional, Tuple, Union

import libcst as cst

from jaxlint.analysis.model.callee_values import Passed, Target
from jaxlint.analysis.model.classes import annotated_names, class_named, is_classmethod
from jaxlint.analysis.syntax.functions import single_return
from jaxlint.analysis.syntax.nodes import arguments_by_position, named_params, simple_statements
from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.model.names import resolve

BOOL, INT, FLOAT, COMPLEX = 0, 1, 2, 3
KIND_NAMES = {BOOL: "bool", INT: "int", FLOAT: "float", COMPLEX: "complex"}


class Typ(NamedTuple):
    kind: Optional[int]
    weak: bool
    least: int = BOOL  # when ``kind`` is None: the kind is at least this

    @property
    def low(self) -> int:
        return self.kind if self.kind is not None else self.least


class AnyArray:
    """An array argument of unknown dtype and weak type: enough for a reduction or a cast."""


ANY_ARRAY = AnyArray()
NOT_PASSED = object()  # a parameter the call leaves out


class Fields(NamedTuple):
    cls: object  # ClassInfo of a NamedTuple or dataclass pytree of the module
    fields: Dict[str, "Value"]


class TupleClass:
    """The ``cls`` of a tuple's ``Fields``, whose fields are its positions (0, 1, ...)."""

    name = "tuple"


TUPLE = TupleClass()

Value = Union[Typ, Fields, AnyArray, None]

# Reductions, cumulative sums and index searches return a strongly typed array even of a weak
# input (their ``axis`` and ``keepdims`` leave the type as it is).
REDUCTIONS = frozenset(
    {"sum", "prod", "max", "min", "amax", "amin", "mean", "std", "var", "nansum", "nanmean", "any", "all"}
    | {"cumsum", "cumprod", "linalg.norm", "argmax", "argmin", "argsort"}
)
BOOL_REDUCTIONS = frozenset({"any", "all"})
FLOAT_REDUCTIONS = frozenset({"mean", "std", "var", "nanmean", "linalg.norm"})
SUMS = frozenset({"sum", "prod", "nansum", "cumsum", "cumprod"})  # of bools: ints
INDEX_REDUCTIONS = frozenset({"argmax", "argmin", "argsort"})  # int32 indices of any input
# Element-wise functions keep the weak type of their input.
SAME_KIND_UNARY = frozenset({"abs", "negative", "square", "clip", "positive"})
FLOAT_UNARY = frozenset({"sin", "cos", "tanh", "exp", "log", "sqrt", "log1p", "expm1"})
BINARY = frozenset({"maximum", "minimum", "add", "subtract", "multiply"})
CONSTRUCTORS = frozenset({"zeros", "ones", "empty", "eye", "identity", "arange", "linspace"})
# An array of the same dtype and weak type as the one they are given (unless given a dtype)
LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like"})
SCALAR_TYPES = {
    "bool_": BOOL,
    **{f"int{b}": INT for b in (8, 16, 32, 64)},
    **{f"uint{b}": INT for b in (8, 16, 32, 64)},
    **{f"float{b}": FLOAT for b in (16, 32, 64)},
    "bfloat16": FLOAT,
    "complex64": COMPLEX,
    "complex128": COMPLEX,
}
# Python's number types as dtypes (``x.astype(float)``): the default dtype of the kind
BUILTIN_DTYPES = {"bool": BOOL, "int": INT, "float": FLOAT, "complex": COMPLEX}
# Python's functions that return numbers of a kind: the number types, ``len``
PYTHON_NUMBERS = {**BUILTIN_DTYPES, "len": INT}
# jax.numpy's constants are Python floats: weakly typed
FLOAT_CONSTANTS = frozenset({"jax.numpy.inf", "jax.numpy.nan", "jax.numpy.pi", "jax.numpy.e", "jax.numpy.euler_gamma"})
ORDERINGS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual, cst.Equal, cst.NotEqual)
ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
ARRAY_MODULES = ("jax.numpy.", "numpy.")
# jax.random's samplers, and the kind of the dtype they draw by default
RANDOM_KINDS = {
    **dict.fromkeys(("uniform", "normal", "truncated_normal", "exponential", "laplace", "logistic", "gumbel", "cauchy"), FLOAT),
    "randint": INT,
    "bernoulli": BOOL,
}
# The lax loops: (position and keyword of the body, and of the initial carry), the position
# of the carry among the body's arguments and how many it takes
LAX_LOOPS = {
    "jax.lax.scan": ((0, "f"), (1, "init"), 0, 2),
    "jax.lax.fori_loop": ((2, "body_fun"), (3, "init_val"), 1, 2),
    "jax.lax.while_loop": ((1, "body_fun"), (2, "init_val"), 0, 1),
}


def literal_type(expr) -> Optional[Typ]:
    """A Python number literal (``0``, ``0.0``, ``-1``, ``True``): weakly typed."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
        return literal_type(expr.expression)
    if isinstance(expr, cst.Integer):
        return Typ(INT, True)
    if isinstance(expr, cst.Float):
        return Typ(FLOAT, True)
    if isinstance(expr, cst.Imaginary):
        return Typ(COMPLEX, True)
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return Typ(BOOL, True)
    return None


def promote(a: Value, b: Value, divide: bool = False) -> Optional[Typ]:
    """The type of ``a op b`` for an arithmetic operator (JAX's weak-type promotion)."""
    if not isinstance(a, Typ) or not isinstance(b, Typ):
        return _with_unknown(a, b)
    if a.weak == b.weak:
        kind = None if a.kind is None or b.kind is None else max(a.kind, b.kind)
        out = Typ(kind, a.weak, max(a.low, b.low))
    else:
        strong, weak = (b, a) if a.weak else (a, b)
        if weak.kind is None or (strong.kind is None and strong.least < weak.kind):
            return None  # the weak operand wins when its kind is higher: cannot tell
        out = strong if strong.low >= weak.kind else weak
    if divide and out.low < FLOAT:
        out = Typ(FLOAT if out.kind is not None else None, out.weak, FLOAT)
    return out


def compared(a: Value, b: Value) -> Optional[Typ]:
    """The type of ``a < b`` (any ordering or equality): a bool, weakly typed when the two
    sides promote to a weakly typed value (``int32 array < 1`` is strong, ``bool array < 1``
    weak)."""
    p = promote(a, b)
    return Typ(BOOL, p.weak) if p is not None else None


def _with_unknown(a: Value, b: Value) -> Optional[Typ]:
    """``a op b`` where one operand's type is not known: a strongly typed float (or complex)
    operand makes the result strongly typed, of that kind or higher, whatever the other is.
    Only a weak operand of a higher kind keeps a result weak, and above a float there is only
    a complex (a Python complex number in a float computation is left out).  A strong int or
    bool says nothing: ``+ 1.5`` would make the result a weak float."""
    known = a if isinstance(a, Typ) else b
    if not isinstance(known, Typ) or known.weak or known.low < FLOAT:
        return None
    return Typ(None, False, known.low)


def dtype_kind(expr, scope: Scope) -> Optional[int]:
    """The kind of a dtype expression (``jnp.float32``, ``"int32"``), or None."""
    if isinstance(expr, cst.SimpleString):
        return SCALAR_TYPES.get(expr.evaluated_value if isinstance(expr.evaluated_value, str) else "")
    if isinstance(expr, cst.Name) and expr.value in BUILTIN_DTYPES and scope.lookup_scope(expr.value) is None:
        return BUILTIN_DTYPES[expr.value]
    q = resolve(expr, scope)
    if q is None:
        return None
    for prefix in ARRAY_MODULES:
        if q.startswith(prefix):
            return SCALAR_TYPES.get(q[len(prefix) :])
    return None


class TypeEvaluator:
    """Types of expressions in one scope; ``names`` gives the type of a name (or None).  Which
    function a call reaches is the call-target model's answer (``targets``), and what a plain
    object is an instance of the receiver model's."""

    def __init__(self, scope: Scope, names: Callable[[str], Value], classes, targets, depth: int = 0, receivers=None):
        self.scope = scope
        self.names = names
        self.classes = classes
        self.targets = targets
        self.depth = depth  # how many calls deep the evaluator follows (a bound on the work)
        # what an object is an instance of (model.receivers): the methods of an object that is
        # no pytree value here (``self.curriculum.update(...)``, ``env.step(...)``)
        self.receivers = receivers

    def of(self, expr) -> Value:
        lit = literal_type(expr)
        if lit is not None:
            return lit
        if isinstance(expr, cst.Name):
            return self.names(expr.value)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus)):
            return self.of(expr.expression)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, ARITHMETIC):
            return promote(self.of(expr.left), self.of(expr.right), isinstance(expr.operator, cst.Divide))
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1 and isinstance(expr.comparisons[0].operator, ORDERINGS):
            return compared(self.of(expr.left), self.of(expr.comparisons[0].comparator))
        if isinstance(expr, cst.Attribute):
            if resolve(expr, self.scope) in FLOAT_CONSTANTS:
                return Typ(FLOAT, True)
            base = self.of(expr.value)
            if isinstance(base, Fields):
                return base.fields.get(expr.attr.value)
            return None
        if isinstance(expr, cst.Subscript):
            base = self.of(expr.value)
            # an element or a slice of a strong array is strong, of the same dtype
            return base if isinstance(base, Typ) and not base.weak or base is ANY_ARRAY else None
        if isinstance(expr, cst.Call):
            return self._call(expr)
        if isinstance(expr, cst.Tuple) and not any(isinstance(e, cst.StarredElement) for e in expr.elements):
            return Fields(TUPLE, {i: self.of(e.value) for i, e in enumerate(expr.elements)})
        return None

    def item(self, unpacked) -> Value:
        """The item a name takes of the value it unpacks (``Binding.unpacked``), also of an item
        unpacked again (``(a, b), c = f()``)."""
        value, i, n = unpacked
        return item_of(self.item(value) if type(value) is tuple else self.of(value), i, n)

    def _call(self, call: cst.Call) -> Value:
        pos = [a.value for a in call.args if a.keyword is None and not a.star]
        kw = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        if any(a.star for a in call.args):
            return None
        func = call.func
        made_by = self.classes.class_method(func, self.scope) if isinstance(func, cst.Attribute) else None
        if made_by is not None:
            # ``Cls.create(...)``: the classmethod, its ``cls`` bound to the class
            return self._follow(Target(made_by, None, (Passed(None, None, None, made_by.cls),)), call)
        if isinstance(func, cst.Attribute) and resolve(func, self.scope) is None:
            # a method of an array value: x.astype(d), x.sum(); or state._replace(count=...)
            recv = self.of(func.value)
            name = func.attr.value
            if isinstance(recv, Fields) and name in ("_replace", "replace") and not pos:
                return self._replaced(recv, kw)
            if isinstance(recv, Fields) and recv.cls is not TUPLE:
                # a method of an instance of the module's class, with ``self`` the instance
                return self._follow(self._method(recv.cls, name), call, recv)
            if recv is None:
                callee = self._callee(call)
                if callee is None and _reduces(name, pos, kw):
                    # no method of the module's: an array's reduction, strongly typed whatever
                    # the array was
                    return self._reduced(name, None)
                return self._follow(callee, call)
            if not isinstance(recv, Typ) and recv is not ANY_ARRAY:
                return None
            if name == "astype" and (pos or "dtype" in kw):
                return _cast(dtype_kind(pos[0] if pos else kw["dtype"], self.scope))
            if _reduces(name, pos, kw):
                return self._reduced(name, recv)
            return None
        if isinstance(func, cst.Name) and func.value in PYTHON_NUMBERS and self.scope.lookup_scope(func.value) is None:
            # ``float(x)``, ``len(xs)``: a Python number, weakly typed
            return Typ(PYTHON_NUMBERS[func.value], True)
        q = resolve(func, self.scope)
        if q is None:
            returned = self._follow(self._callee(call), call)
            return returned if returned is not None else self._constructor(call)
        if q in LAX_LOOPS:
            return self._loop(q, call, pos, kw)
        if q == "dataclasses.replace" and len(pos) == 1:
            recv = self.of(pos[0])
            return self._replaced(recv, kw) if isinstance(recv, Fields) else None
        if q == "jax.lax.convert_element_type" and len(pos) == 2:
            return _cast(dtype_kind(pos[1], self.scope))
        if q in ("jax.numpy.where", "jax.lax.select") and len(pos) == 3 and not kw:
            # weakly typed only when both branches are (the condition takes no part)
            return promote(self.of(pos[1]), self.of(pos[2]))
        if q.startswith("jax.random.") and q[len("jax.random.") :] in RANDOM_KINDS:
            # a sample is a strongly typed array of its dtype (by default float32, int32, bool)
            dtype = kw.get("dtype")
            return _cast(dtype_kind(dtype, self.scope)) if dtype is not None else Typ(RANDOM_KINDS[q[len("jax.random.") :]], False)
        if not q.startswith("jax.numpy."):
            return None
        name = q[len("jax.numpy.") :]
        if name in SCALAR_TYPES and len(pos) == 1 and not kw:
            return Typ(SCALAR_TYPES[name], False)
        if name in ("asarray", "array") and pos:
            dtype = pos[1] if len(pos) > 1 else kw.get("dtype")
            if dtype is not None:
                return _cast(dtype_kind(dtype, self.scope))
            if len(pos) == 1 and not kw and isinstance(pos[0], (cst.List, cst.Tuple)):
                return _nested_numbers(pos[0])
            t = self.of(pos[0]) if len(pos) == 1 and not kw else None
            return t if isinstance(t, Typ) else None
        if name in LIKE and pos:
            dtype = kw.get("dtype", pos[2] if name == "full_like" and len(pos) > 2 else pos[1] if name != "full_like" and len(pos) > 1 else None)
            if dtype is not None:
                return _cast(dtype_kind(dtype, self.scope))
            t = self.of(pos[0])
            return t if isinstance(t, Typ) else None
        if _reduces(name, pos[1:], kw) and pos:
            # a reduction gives a strong array of whatever it is given
            return self._reduced(name, self.of(pos[0]))
        if name in SAME_KIND_UNARY and len(pos) >= 1:
            t = self.of(pos[0])
            return t if name != "clip" or all(isinstance(self.of(b), Typ) and self.of(b).weak for b in pos[1:]) else None
        if name in FLOAT_UNARY and len(pos) == 1 and not kw:
            t = self.of(pos[0])
            if not isinstance(t, Typ):
                return None
            return Typ(None if t.kind is None else max(t.kind, FLOAT), t.weak, max(t.low, FLOAT))
        if name in BINARY and len(pos) == 2 and not kw:
            return promote(self.of(pos[0]), self.of(pos[1]))
        if name in CONSTRUCTORS:
            dtype = kw.get("dtype")
            if name in ("zeros", "ones", "empty") and len(pos) > 1:
                dtype = pos[1]
            if dtype is not None:
                return _cast(dtype_kind(dtype, self.scope))
            if name != "arange":
                return Typ(FLOAT, False)
            # of Python ints (``len(x)`` too) or int arrays: a strongly typed int32 array
            ints = [self.of(p) for p in pos]
            return Typ(INT, False) if pos and all(isinstance(t, Typ) and t.kind == INT for t in ints) else None
        return None

    @staticmethod
    def _reduced(name: str, t: Value) -> Optional[Typ]:
        if isinstance(t, Fields):
            return None
        kind = t.kind if isinstance(t, Typ) else None
        least = t.low if isinstance(t, Typ) else BOOL
        # mean/std/var give floats; sum/prod of bools give ints; max/min keep the dtype
        floor = FLOAT if name in FLOAT_REDUCTIONS else INT if name in SUMS else BOOL
        if name in BOOL_REDUCTIONS or name in INDEX_REDUCTIONS:
            return Typ(BOOL if name in BOOL_REDUCTIONS else INT, False)
        if kind is not None:
            kind = max(kind, floor)
        return Typ(kind, False, max(least, floor))

    def _callee(self, call: cst.Call) -> Optional[Target]:
        """The function ``call`` reaches: the call-target model's answer, else the method of an
        object the receiver model places (``self.tracker(...)`` calls its ``__call__``)."""
        t = self.targets.target(call, self.scope)
        func = call.func
        ways = ((func.value, func.attr.value), (func, "__call__")) if isinstance(func, cst.Attribute) else ((func, "__call__"),)
        for obj, name in ways if t is None and self.receivers is not None else ():
            r = self.receivers.receiver_of(obj, self.scope)
            t = self._method(r.cls, name) if r is not None and r.cls is not None else None
            if t is not None:
                break
        return t

    def _method(self, cls, name: str) -> Optional[Target]:
        """The method ``name`` of an instance of ``cls``, bound to the instance."""
        m = self.classes.member(cls, name)
        return Target(m, None, (Passed(None, None, None, cls),)) if m is not None and m.is_method else None

    def _loop(self, q: str, call: cst.Call, pos, kw) -> Value:
        """What a lax loop returns: the carry as the body gives it back for the initial carry
        (JAX makes a weakly typed initial carry strong where the body's result is, and traces
        the body again), and for ``scan`` with it the stacked outputs, which keep the body's
        weak types."""
        (body_at, body_kw), (init_at, init_kw), carry_at, width = LAX_LOOPS[q]
        body = pos[body_at] if len(pos) > body_at else kw.get(body_kw)
        init = pos[init_at] if len(pos) > init_at else kw.get(init_kw)
        if body is None or init is None:
            return None
        given = [None] * width
        given[carry_at] = self.of(init)
        return self._follow(self.targets.value(body, self.scope), call, given=given)

    def _follow(self, t: Optional[Target], call: cst.Call, recv: Value = None, given=None) -> Value:
        """What the function ``call`` reaches returns, given the types of the arguments (``recv``:
        the instance a method is called on, else one whose fields are not known): the value of
        its only ``return``, its own names bound once; parameters it is not given are not known.
        ``given``: the types of the positional arguments a JAX primitive calls it with."""
        if t is None or self.depth > 2 or t.keywords:
            return None
        app = t.app
        derivative = None
        if app is not None:
            # jit, vmap, pmap... return what the function returns (vmap a batch of it), each
            # leaf with its dtype and weak type; a gradient transform returns the gradients,
            # and beside them what the function returns (see ``_differentiated``); not a
            # library's callable
            derivative = _derivative(app)
            if app.gradient and derivative is None or app.leading or app.ahead:
                return None
            if not (app.transform.cached or app.transform.in_axes or derivative is not None):
                return None
            if app.bound_self and app.func.is_method and not t.bound:
                if app.receiver_cls is None:
                    return None
                t = t._replace(bound=(Passed(None, None, None, app.receiver_cls),))
        f = t.func
        if f.is_lambda or f.body_scope is None or any(b.expr is not None for b in t.bound):
            return None  # (a partial's arguments are not followed)
        decorated = app is not None and isinstance(app.site, cst.Decorator)
        if f.node.decorators and not (len(f.node.decorators) == 1 and (is_classmethod(f) or decorated)):
            return None  # a wrapped function returns what its wrapper makes of it
        ret = single_return(f.node)
        names = [p.name.value for p in f.positional_params()]
        if ret is None or t.bound and not names:
            return None
        bound: Dict[str, Value] = {names[0]: recv if recv is not None else Fields(t.bound[0].receiver, {})} if t.bound else {}
        declared = set(names) | {p.name.value for p in f.params.kwonly_params}
        if given is not None:
            if len(given) > len(names) - len(bound):
                return None
            bound.update(zip(names[len(bound) :], given))
        for a, p in arguments_by_position(call.args, names, len(bound)) if given is None else ():
            if p is None:
                return None  # into ``*args``
            if p in declared:  # (one that ``**kwargs`` takes is no name of the body)
                bound[p] = self.of(a.value)
        out = returned_type(f, ret, lambda n: bound.get(n, NOT_PASSED), None, self.classes, self.targets, self.receivers, self.depth + 1)
        return _differentiated(derivative, out) if derivative is not None else out

    def _replaced(self, recv: Fields, kw) -> Value:
        """``state._replace(count=...)``, ``state.replace(...)``, ``dataclasses.replace(state, ...)``."""
        if not all(k in recv.fields for k in kw):
            return None
        fields = dict(recv.fields)
        for k, v in kw.items():
            fields[k] = self.of(v)
        return Fields(recv.cls, fields)

    def _constructor(self, call) -> Value:
        """``State(count=0, w=w)``: a NamedTuple or a dataclass pytree of the module (its
        generated constructor), field by field."""
        func = call.func
        if isinstance(func, cst.Name):
            cls = class_named(self.scope, func.value) or self.classes.made_by_cls(call, self.scope)
        elif isinstance(func, cst.Call) and _is_builtin(func.func, "type", self.scope) and len(func.args) == 1:
            # ``type(self)(...)``: the class of an instance whose class is known
            inst = self.of(func.args[0].value)
            cls = inst.cls if isinstance(inst, Fields) and inst.cls is not TUPLE else None
        else:
            return None
        if cls is None or self.classes.pytree_kind(cls) not in ("namedtuple", "dataclass"):
            return None
        given = self.classes.constructor_arguments(cls, call.args)
        if given is None:
            return None
        defaults = {st.target.value: st.value for st in annotated_names(cls) if st.value is not None}
        fields: Dict[str, Value] = {}
        for n in self.classes.field_names(cls):
            expr = given.get(n, defaults.get(n))
            fields[n] = self.of(expr) if expr is not None else None
        return Fields(cls, fields)


def returned_type(f, ret, incoming: Callable[[str], Value], outer, classes, targets, receivers, depth: int = 0) -> Value:
    """The type of ``ret``, returned by the function ``f``, when each parameter ``n`` comes in
    as ``incoming(n)`` (``NOT_PASSED``: it holds its literal default).  A name of the body
    bound once is the value of that assignment (or the item it unpacks); one bound (and a
    parameter rebound) only by plain assignments among the body's own statements, which run in
    order, is at each read the value of the last of them before it; ``outer(n, scope)`` is a
    name of an enclosing scope (None: not known)."""
    body = f.body_scope
    params = {} if f.is_lambda else {p.name.value: p for p in named_params(f.node.params)}
    straight = _straight_line(f)
    memo: Dict[Tuple[str, float], Value] = {}
    evaluators: Dict[float, TypeEvaluator] = {}

    def given(n: str) -> Value:
        v = incoming(n)
        if v is NOT_PASSED:
            return literal_type(params[n].default) if params[n].default is not None else None
        return v

    def names(n: str, at: float) -> Value:
        """``n`` as a statement at order ``at`` of the body reads it (``inf``: the return)."""
        key = (n, at)
        if key in memo:
            return memo[key]
        memo[key] = None  # a cycle answers "unknown"
        out = None
        if body is not None and n in body.bindings:
            b = _reaching(body.bindings[n], at, straight)
            if b is not None and b.kind == "param":
                out = given(n)
            elif b is not None and n not in body.mutations:
                # an object changed in place after it was made is not what its statement made
                out = evaluator(b.order).item(b.unpacked) if b.unpacked is not None else evaluator(b.order).of(b.value)
        elif n in params:
            out = given(n)
        elif body is not None and outer is not None:
            owner = body.lookup_scope(n)
            out = outer(n, owner) if owner is not None else None
        memo[key] = out
        return out

    def evaluator(at: float) -> TypeEvaluator:
        if at not in evaluators:
            evaluators[at] = TypeEvaluator(body or f.scope, lambda n: names(n, at), classes, targets, depth, receivers)
        return evaluators[at]

    return evaluator(float("inf")).of(ret)


def _derivative(app) -> Optional[Tuple[str, bool]]:
    """(the API, has_aux) of ``jax.grad(f, ...)`` or ``jax.value_and_grad(f, ...)`` applied
    at a call; None for another application."""
    site = app.site
    if not app.transform.differentiated or not isinstance(site, cst.Call):
        return None
    api = resolve(site.func, app.site_scope)
    if api not in ("jax.grad", "jax.value_and_grad"):
        return None
    aux = next((a.value for a in site.args if a.keyword is not None and a.keyword.value == "has_aux"), None)
    if aux is not None and not (isinstance(aux, cst.Name) and aux.value in ("True", "False")):
        return None  # (a flag the text does not show)
    return api, aux is not None and aux.value == "True"


def _differentiated(derivative: Tuple[str, bool], out: Value) -> Value:
    """What a gradient transform returns of the function that returns ``out``: the gradients
    (not known here), with ``has_aux`` beside them the auxiliary output as the function
    returns it, and for ``value_and_grad`` the value first (a strongly typed array)."""
    api, has_aux = derivative
    aux = item_of(out, 1, 2) if has_aux else None
    if api == "jax.grad":
        return Fields(TUPLE, {0: None, 1: aux}) if has_aux else None
    value = item_of(out, 0, 2) if has_aux else out
    value = Typ(value.kind, False, value.least) if isinstance(value, Typ) else None
    return Fields(TUPLE, {0: Fields(TUPLE, {0: value, 1: aux}) if has_aux else value, 1: None})


def _straight_line(f) -> set:
    """The values assigned by the plain assignments of the body's own statements (not in a
    branch, a loop or a nested block), which run once each and in order."""
    if f.is_lambda:
        return set()
    return {id(small.value) for small in simple_statements(f.node.body) if isinstance(small, cst.Assign)}


def _reaching(binds, at: float, straight: set):
    """The binding a read at order ``at`` sees, of a name with the bindings ``binds``: its only
    assignment; or, when it is bound only as a parameter and by plain assignments among the
    body's own statements (which run once each, in order), the last of them before ``at``.
    None when not known (a binding in a branch, a loop or from elsewhere)."""
    if len(binds) == 1 and binds[0].kind != "param":
        b = binds[0]
    elif all(b.kind == "param" or b.order is not None and id(_bound_by(b)) in straight for b in binds):
        b = max((b for b in binds if b.kind == "param" or b.order < at), key=lambda b: -1 if b.kind == "param" else b.order, default=None)
    else:
        return None
    if b is None or b.kind == "param":
        return b
    return b if b.order is not None and (b.unpacked is not None or b.kind == "assign" and b.value is not None) else None


def _bound_by(b):
    """The expression a binding's statement assigns (the value it unpacks, for an unpacking)."""
    if b.unpacked is None:
        return b.value
    value = b.unpacked[0]
    while type(value) is tuple:
        value = value[0]
    return value


def item_of(v: Value, i: int, n: int) -> Value:
    """Item ``i`` of ``v`` unpacked into ``n`` names: of a tuple of that length."""
    return v.fields.get(i) if isinstance(v, Fields) and v.cls is TUPLE and len(v.fields) == n else None


def _is_builtin(expr, name: str, scope: Scope) -> bool:
    return isinstance(expr, cst.Name) and expr.value == name and scope.lookup_scope(name) is None


def _nested_numbers(expr, depth: int = 0) -> Optional[Typ]:
    """``jnp.array([[1, 2], [0.5, 1.0]])``: a strongly typed array of the highest kind of the
    Python numbers it is made of; None when an element is anything else."""
    kinds = []
    for e in expr.elements:
        if isinstance(e, cst.StarredElement) or depth > 4:
            return None
        v = e.value
        t = _nested_numbers(v, depth + 1) if isinstance(v, (cst.List, cst.Tuple)) else literal_type(v)
        if t is None:
            return None
        kinds.append(t.kind)
    return Typ(max(kinds), False, max(kinds)) if kinds else None


def _cast(kind: Optional[int]) -> Typ:
    return Typ(kind, False, kind if kind is not None else BOOL)


def _reduces(name: str, extra: list, kw: dict) -> bool:
    """A reduction given, besides its array, at most one positional argument (the axis, a norm's
    order) and keywords that leave its type as it is (no ``dtype``)."""
    return name in REDUCTIONS and len(extra) <= 1 and all(k in ("axis", "keepdims") for k in kw)
