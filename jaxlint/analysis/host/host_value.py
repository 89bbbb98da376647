"""Host mode's values: the kinds a name may hold where code runs eagerly (a list, a JAX array, an
instance of a class of the module, a jitted callable...), ``HostValue``, the join of two paths,
and whether a value hashes (an instance by its class's ``__hash__``, a dataclass's options).

Separate from the evaluator (``host_values``) because the traced analysis and the facts read the
kinds and the hashability question without evaluating anything.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import libcst as cst

from jaxlint.analysis.model.classes import ClassModel, class_named, decorator_names, qualified
from jaxlint.analysis.syntax.scopes import ClassInfo, FuncInfo
from jaxlint.analysis.model.transforms import Application
from jaxlint.analysis.model.weak_types import SCALAR_TYPES
from jaxlint.analysis.jax.numpy_array_makers import NUMPY_ARRAY_MAKERS as COMPUTED_NUMPY_ARRAY_MAKERS


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
NUMPY_GENERATOR = "NumPy random generator"  # np.random.default_rng() / RandomState(): draws arrays
ARG_PARSER = "argument parser"  # an argparse.ArgumentParser (its parse_args() builds a Namespace)
NAMESPACE = "namespace"  # an argparse.Namespace: it defines __eq__ and no __hash__
SLICE = "slice"  # slice(a, b): hashable from Python 3.12 on only

# Kinds that are arrays or containers of arrays: hashing any of them fails.
ARRAY_KINDS = frozenset({JAX_ARRAY, NUMPY_ARRAY, OPT_STATE, JIT_RESULT})

_UNHASHABLE_KINDS = {
    LIST: "a list",
    DICT: "a dict",
    SET: "a set",
    JAX_ARRAY: "a JAX array",
    NUMPY_ARRAY: "a NumPy array",
    OPT_STATE: "an optimiser state",
    JIT_RESULT: "the output of a jitted function",
    NAMESPACE: "an argparse.Namespace (it defines __eq__ without __hash__)",
    SLICE: "a slice (hashable only from Python 3.12 on)",
}

# What NumPy's array-making functions return is read from NumPy (numpy_array_makers.py);
# its random draws give arrays when asked for a size (numpy_random_sizes.py).
NUMPY_ARRAY_MAKERS = COMPUTED_NUMPY_ARRAY_MAKERS
# NumPy's scalar types are JAX's dtypes but bfloat16, which NumPy lacks
NUMPY_SCALAR_TYPES = frozenset(SCALAR_TYPES) - {"bfloat16"}
# What calling a builtin that makes a container gives (a list for ``sorted`` and ``bytearray``)
CONTAINER_BUILTINS = {"list": LIST, "sorted": LIST, "bytearray": LIST, "dict": DICT, "set": SET}
SCALAR_BUILTINS = frozenset({"int", "float", "str", "bool", "len", "round", "abs", "repr", "hash", "range", "frozenset", "bytes", "complex", "id", "ord", "chr"})
# Class decorators that generate ``__eq__`` and decide ``__hash__`` from ``eq`` / ``frozen`` /
# ``unsafe_hash`` as dataclasses do, each with whether it freezes by default: attrs' modern
# (``attrs.define``, ``attrs.frozen``) and classic (``attr.s``) APIs follow the same rule (eq
# without frozen sets ``__hash__ = None``; eq and frozen hash the fields), verified with attrs 26.1.
_ATTRS = {"define": False, "mutable": False, "frozen": True}
DATACLASS = {"dataclasses.dataclass": False, "attr.s": False, "attr.attrs": False, "attr.dataclass": False} | {
    f"{mod}.{name}": frozen for mod in ("attr", "attrs") for name, frozen in _ATTRS.items()
}
# Calls whose result differs from call to call: clocks, uuids, OS randomness.
CLOCKS = frozenset(
    {
        "time.time",
        "time.time_ns",
        "time.perf_counter",
        "time.perf_counter_ns",
        "time.monotonic",
        "time.monotonic_ns",
        "time.process_time",
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
        "time.thread_time",
        "time.thread_time_ns",
        "uuid.uuid1",
        "uuid.uuid4",
        "os.urandom",
        "os.getrandom",
    }
)
# Classes that are frozen dataclasses, or hash their fields: hashable exactly when the fields
# are (a Linen module is made a dataclass with a field hash by ``Module.__init_subclass__``);
# checked against the installed libraries in tests/slow/test_jax_tables.py.
HASH_BY_FIELDS = frozenset(
    {
        "flax.struct.dataclass", "equinox.Module", "flax.struct.PyTreeNode", "typing.NamedTuple",
        "typing_extensions.NamedTuple", "flax.linen.Module", "flax.linen.module.Module",
    }
)


class HostValue:
    """A value of host code.  ``node``: the expression that built it (for messages)."""

    __slots__ = ("kind", "node", "cls", "items", "fields", "app", "bound", "name", "func", "meta", "typ", "varies", "shaped", "every")

    def __init__(self, kind: str, node=None, cls=None, items=None, fields=None, app=None, bound=(), name=None, func=None, meta=None, typ=None, varies=None, shaped=False, every=None):
        self.kind = kind
        self.node = node
        self.cls: Optional[ClassInfo] = cls
        # a tuple's elements; of a list, () when it is empty, else (what every element is,)
        self.items: Optional[Tuple[Optional["HostValue"], ...]] = items
        # an instance's constructor fields; a dict's items, when its keys are known strings
        self.fields: Optional[Dict[str, Optional["HostValue"]]] = fields
        self.app: Optional[Application] = app  # JITTED: the jit; PARAM: None
        self.bound = bound  # JITTED: positional arguments bound by functools.partial, as (expr, value)
        self.name = name  # PARAM: the parameter
        self.func: Optional[FuncInfo] = func  # FUNCTION: the def
        # INSTANCE: the constructor fields left out of ``fields`` (static metadata of a pytree,
        # fields out of the hash), as given: what the object holds, not what hashing reads
        self.meta: Optional[Dict[str, Optional["HostValue"]]] = meta
        # SCALAR (a number) and JAX_ARRAY: the dtype kind and weak type (weak_types.Typ), when
        # the evaluator is asked for them and the expression shows them; JAX keys its cache on it
        self.typ = typ
        # what makes the value new each time the code around it runs again: the loop whose
        # iterations draw it (``for n in (3, 4, 5)``, ``for i in range(k)``), or the call that
        # returns a new one on every call (``uuid.uuid4()``, ``time.time()``)
        self.varies = varies
        # JAX_ARRAY and NUMPY_ARRAY: certainly more than one element, so ``==`` on it gives an
        # array whose truth value is ambiguous (a 0-d or one-element array compares like a bool)
        self.shaped = shaped
        # TUPLE of a length not known (``tuple(rows)``): what every element is
        self.every: Optional["HostValue"] = every

    def unhashable(self, classes: ClassModel) -> Optional[str]:
        """What makes the value fail ``hash()``: "a list", "a tuple holding a JAX array"...; None
        when it hashes or is not known to fail."""
        text = _UNHASHABLE_KINDS.get(self.kind)
        if text is not None:
            return text
        if self.kind == TUPLE and (self.items is not None or self.every is not None):
            for it in self.items if self.items is not None else (self.every,):
                inner = it.unhashable(classes) if it is not None else None
                if inner is not None:
                    inner = inner.split(" (", 1)[0]
                    return inner if inner.startswith("a tuple holding ") else "a tuple holding " + inner
        if self.kind == INSTANCE and self.cls is not None:
            return instance_unhashable(self, classes)
        return None

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"HostValue({self.kind})"


SCALAR_VAL = HostValue(SCALAR)


def element(v: Optional[HostValue]) -> Optional[HostValue]:
    """What iterating ``v`` gives, when every element is known to be one kind: an element of a
    list, of a tuple, or a row of a JAX array (itself a JAX array: JAX arrays do not hash, 0-d
    ones neither).  A NumPy array's elements may be NumPy scalars, which hash: not known."""
    if v is None:
        return None
    if v.kind == LIST and v.items:
        return v.items[0]
    if v.kind == TUPLE and v.items:
        out = v.items[0]
        for it in v.items[1:]:
            out = join(out, it)
        return out
    if v.kind == TUPLE:
        return v.every
    if v.kind in (JAX_ARRAY, JIT_RESULT):
        return HostValue(JAX_ARRAY, v.node)
    return None


def join(a: Optional[HostValue], b: Optional[HostValue]) -> Optional[HostValue]:
    """One path gives ``a``, another ``b``: the same kind survives, anything else is unknown."""
    if a is b:
        return a
    if a is None or b is None:
        return None
    if a.kind != b.kind:
        # arrays either way (an optimiser state, then the state a jitted step returns): unhashable;
        # a JAX array on one path only is not certainly one (a NumPy array takes ``x[i] = v``)
        if a.kind not in ARRAY_KINDS or b.kind not in ARRAY_KINDS:
            return None
        keep = b if a.kind == JAX_ARRAY else a
        return keep if a.shaped == b.shaped else HostValue(keep.kind, keep.node)
    if a.kind == TUPLE:
        if a.items is None or b.items is None or len(a.items) != len(b.items):
            return HostValue(TUPLE, a.node)
        return HostValue(TUPLE, a.node, items=tuple(join(x, y) for x, y in zip(a.items, b.items)))
    if a.kind == INSTANCE:
        if a.cls is not b.cls:
            return None
        if a.fields is not None and b.fields is not None and a.fields.keys() == b.fields.keys():
            # ``Cfg(jnp.ones(3), 2)`` on both paths: each field as far as the two agree
            meta = None
            if a.meta is not None and b.meta is not None and a.meta.keys() == b.meta.keys():
                meta = {k: join(v, b.meta[k]) for k, v in a.meta.items()}
            return HostValue(INSTANCE, a.node, a.cls, fields={k: join(v, b.fields[k]) for k, v in a.fields.items()}, meta=meta)
        return a if a.fields is None and b.fields is None else HostValue(INSTANCE, a.node, a.cls)
    if a.kind == LIST and (a.items is not None or b.items is not None):
        if a.items is None or b.items is None:
            return HostValue(LIST, a.node)
        return HostValue(LIST, a.node, items=tuple(join(x, y) for x, y in zip(a.items, b.items)) if a.items and b.items else a.items or b.items)
    if a.kind == DICT and (a.fields is not None or b.fields is not None):
        # ``{"lr": 0.1}`` on both paths: each item as far as the two agree
        if a.fields is not None and b.fields is not None and a.fields.keys() == b.fields.keys():
            return HostValue(DICT, a.node, fields={k: join(v, b.fields[k]) for k, v in a.fields.items()})
        return HostValue(DICT, a.node)
    if a.kind == JITTED:
        return a if a.app is b.app and len(a.bound) == len(b.bound) and not a.bound else None
    if a.kind == PARAM:
        return a if a.name == b.name else None
    if a.kind == FUNCTION:
        return a if a.func is b.func else SCALAR_VAL
    if a.kind == SCALAR and is_number(a) != is_number(b):
        return SCALAR_VAL  # a number on one path, a string on the other: a scalar, no number
    if a.typ != b.typ or a.shaped != b.shaped:
        # ``0`` on one path, ``0.0`` on another: the type is not known; nor a shape one path gives
        return HostValue(a.kind, a.node, typ=a.typ if a.typ == b.typ else None)
    return a


def is_number(v: Optional[HostValue]) -> bool:
    """A Python int or float (``0.75``, ``-1``, a name bound to one), not a bool or string."""
    return v is not None and v.kind == SCALAR and isinstance(v.node, (cst.Integer, cst.Float))


# -- the class model's answer to hash() ------------------------------------------------------


def _dataclass_options(cls: ClassInfo) -> Optional[Dict[str, bool]]:
    """``@dataclass(eq=..., frozen=..., unsafe_hash=...)`` (or attrs' ``@define`` ...) of the
    class itself, or None."""
    for d in cls.node.decorators:
        dec = d.decorator
        frozen = DATACLASS.get(qualified(dec, cls.scope))
        if frozen is None:
            continue
        opts = {"eq": True, "frozen": frozen, "unsafe_hash": False}
        for a in dec.args if isinstance(dec, cst.Call) else ():
            if a.keyword is not None and a.keyword.value in ("hash", "cmp"):
                return None  # attrs' older spellings: ``hash=False`` keeps an inherited __hash__
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
    fields; ("attributes", "") by their own ``__hash__`` of a tuple of attributes (see
    ``hashed_attributes``); ("custom", "") by another ``__hash__`` of their own; ("identity", "") by identity, as
    ``object`` does (two instances are two cache keys); (None, "") not known."""
    for c in classes.mro(cls):
        own = c.body_scope.defs
        if "__hash__" in own:
            # its own __hash__: trusted, unless it hashes a tuple of attributes, which fails
            # where one of them does (an array there)
            return ("attributes", "") if hashed_attributes(own["__hash__"]) else ("custom", "")
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
                kind = "a dataclass" if decorator_names(c.node, c.scope) & {"dataclasses.dataclass"} else "an attrs class"
                return "none", f"`{c.name}` is {kind} with eq and without frozen=True, so it has no __hash__"
        elif decorator_names(c.node, c.scope) & HASH_BY_FIELDS or {qualified(b, c.scope) for b in c.bases} & HASH_BY_FIELDS:
            return "fields", ""
        if "__eq__" in own:
            return "none", f"`{c.name}` defines __eq__ without __hash__"
        if decorator_names(c.node, c.scope) - {""} - DATACLASS.keys():
            return None, ""  # another decorator may add a __hash__
    # every class of the MRO is of this module: is there a base from elsewhere?
    unhashable_base = None
    for c in classes.mro(cls):
        for b in c.bases:
            if isinstance(b, cst.Name) and b.value == "object":
                continue
            if isinstance(b, cst.Name) and class_named(c.scope, b.value) is not None:
                continue
            builtin = _unhashable_builtin(b, c.scope)
            if builtin is None:
                return None, ""  # a base class of another module may define __eq__ or __hash__
            unhashable_base = unhashable_base or (c, builtin)
    if unhashable_base is not None:
        c, builtin = unhashable_base
        return "none", f"`{c.name}` subclasses `{builtin}`, whose __hash__ is None"
    return "identity", ""


# Builtin containers that set ``__hash__ = None`` (mutable, compared by value): a subclass
# inherits it unless some class defines ``__hash__``.
UNHASHABLE_BUILTINS = frozenset({"dict", "list", "set", "bytearray"})
UNHASHABLE_LIBRARY_CLASSES = frozenset({"collections.OrderedDict", "collections.defaultdict", "collections.Counter", "collections.deque"})


def _unhashable_builtin(base, scope) -> Optional[str]:
    """The name of an unhashable builtin or standard-library container that ``base`` is."""
    if isinstance(base, cst.Name) and base.value in UNHASHABLE_BUILTINS and scope.lookup_scope(base.value) is None:
        return base.value
    q = qualified(base, scope)
    return q if q in UNHASHABLE_LIBRARY_CLASSES else None


def hashed_attributes(f: FuncInfo) -> Tuple[str, ...]:
    """``def __hash__(self): return hash((self.x, self.mul))``: the attributes whose hashes
    the instance's is made of, ("x", "mul"); () for any other ``__hash__``.  Hashing the tuple
    hashes each of them, so it fails where one of them is unhashable."""
    params = f.positional_params()
    body = f.node.body.body
    if f.is_lambda or not params or len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine):
        return ()
    ret = body[0].body[0]
    if not isinstance(ret, cst.Return) or not isinstance(ret.value, cst.Call) or len(ret.value.args) != 1:
        return ()
    if not (isinstance(ret.value.func, cst.Name) and ret.value.func.value == "hash" and f.scope.lookup_scope("hash") is None):
        return ()
    me = params[0].name.value
    hashed = ret.value.args[0].value
    items = [el.value for el in hashed.elements] if isinstance(hashed, cst.Tuple) else [hashed]
    return tuple(
        e.attr.value for e in items if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == me
    )


def instance_unhashable(v: HostValue, classes: ClassModel) -> Optional[str]:
    how, why = class_hash(v.cls, classes)
    if how == "none":
        return f"an instance of `{v.cls.name}` ({why})"
    if how in ("fields", "attributes") and v.fields:
        for name, fv in v.fields.items():
            inner = fv.unhashable(classes) if fv is not None else None
            if inner is not None:
                return f"an instance of `{v.cls.name}` whose field `{name}` holds {inner.split(' (', 1)[0]}"
    return None
