"""The abstract values of the interpreter: what a name or an expression holds at trace time.

Every value has a *kind*:

* ``STATIC``: a concrete Python value at trace time (constants, ``x.shape``, ``len(x)``,
  static and unpassed-default parameters, module globals, values under
  ``jax.ensure_compile_time_eval()``, JAX computations on concrete values where no enclosing
  transform stages them: under ``jax.vmap`` or ``jax.grad`` alone);
* ``TRACED``: an abstract tracer (non-static parameters and everything computed from them;
  under a staging transform every ``jnp.*``/``lax.*``/``jax.random.*`` result, also of
  concrete inputs such as a global JAX array);
* ``UNKNOWN``: the analysis cannot tell (results of calls it cannot resolve, attributes of
  objects whose fields may be static).  Rules stay silent on ``UNKNOWN``: precision first.

and *flags* that refine it (an array, a Python sequence, a boolean mask...).  Containers keep
their structure per element (``items``) where the code shows it.
"""

from __future__ import annotations

from typing import Dict, Optional, Sequence

import libcst as cst


# kinds, ordered: a join takes the highest
STATIC, UNKNOWN, TRACED = 0, 1, 2

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
NONE = 4096  # the Python value None
# A concrete JAX array (a module global, or computed where nothing stages the computation).
# Under a staging transform (jit, a lax loop body...) every JAX operation on it gives a
# tracer, although the array itself, its shape and its conversions stay Python values.
JAXARR = 8192
NPARR = 16384  # a NumPy array: indexing it with a tracer converts the tracer with __array__
# an instance under equinox's filter_jit / filter_vmap: only the fields holding arrays are
# traced, the others are the Python values they hold (jaxlint.analysis.traced.traced_fields)
ARRAYS_ONLY = 32768
# a module of array functions handed over as a value (``xp=jnp``, ``def f(x, xp=np)``): the
# value's ``name`` is the module's qualified name, and ``xp.sum(...)`` is that module's call
MODULE = 65536
# an object the traced code built itself (``rec = Recorder()`` in the jitted function): it is
# made again by every trace and dropped with it, so writes to its attributes are not host state
MADE_IN_TRACE = 131072
# A Python bool from a test for tracers that the interpreter cannot decide
# (``isinstance(v, jax.core.Tracer)`` on a value it cannot see, ``any(...)`` of such tests over
# a tree's leaves): where it is false (NO_TRACER_IF_FALSE), or true (NO_TRACER_IF_TRUE), the
# values it tested are no tracers, so code that runs only there is not surely reached by them.
NO_TRACER_IF_FALSE = 262144
NO_TRACER_IF_TRUE = 524288
TRACER_TEST = NO_TRACER_IF_FALSE | NO_TRACER_IF_TRUE
# A tracer a memo keeps past the trace (the call that made it filled a lasting cache with it):
# the memo's later reads hand back a tracer of a trace that has ended.
KEPT = 1048576

# The modules whose functions the interpreter knows, which code hands around as values.
ARRAY_MODULES = frozenset({"numpy", "jax.numpy", "jax.lax", "jax.nn", "jax.random", "jax.scipy.special", "math"})


class Val:
    """An abstract value: its kind, the variable it came from (for messages), its flags, and
    where known its elements (``items``), the function it is (``fn``) or its class (``cls``, or
    ``ext`` for a class imported from another module)."""

    __slots__ = ("kind", "name", "flags", "items", "fn", "cls", "keys", "outer", "ext", "elem", "attrs", "dims", "const")

    def __init__(
        self,
        kind: int,
        name: Optional[str] = None,
        flags: int = 0,
        items=None,
        fn=None,
        cls=None,
        keys=None,
        outer=None,
        ext: Optional[str] = None,
        elem: Optional["Val"] = None,
        attrs: Optional["InstanceAttributes"] = None,
        dims: Optional[tuple] = None,
        const: Optional[int] = None,
    ):
        self.kind = kind
        self.name = name
        self.flags = flags
        self.items = items
        self.fn = fn  # (FnRef, closure env, bound positional Vals, bound keyword Vals)
        self.cls = cls  # the pytree class (ClassInfo) of a traced value, when its annotation says
        # A dict's string keys, in the order of ``items`` (a dict display, ``dict(k=v)``, the
        # ``**kwargs`` of a function).  With ``elem``, the dict may hold other entries too.
        self.keys = keys
        # (scope, name, node) of the global or closure variable whose object this is (``STATE``
        # in ``buf = STATE``, or in a helper's parameter given ``STATE``): a write through the
        # value changes that variable's object.  ``node``: the ``STATE`` whose read is reported
        # where the value is read (None once reported).
        self.outer = outer
        # The qualified name (as imported, maybe relative: ``.models.Robot``) of the class this
        # is an instance of, when that class lives in another module: its methods are followed
        # there by the cross-module phase; here they are unknown.
        self.ext = ext
        # Every element of a Python list or tuple whose length the code does not show
        # (``self.blocks = [Block(k) for k in keys]``): what iterating or indexing it gives.
        # Of a dict with ``keys``: each entry it holds under another key (``{**kw, "n": 3}``).
        self.elem = elem
        # The attributes of an object of a module class that the trace built itself, as its
        # ``__init__`` and methods set them; one table for every reference to the object, as
        # Python shares the object.
        self.attrs = attrs
        # Of an array: its shape, one entry per axis, the size where the code shows it, else
        # None (jaxlint.analysis.traced.shapes).  Shapes are Python values under every transform.
        self.dims = dims
        # Of a Python int: its value, where the code shows it (a literal, ``x.shape[1]``).
        self.const = const

    def renamed(self, name: str, extra: int = 0) -> "Val":
        return Val(self.kind, name, self.flags | extra, self.items, None, self.cls, self.keys, None, self.ext, self.elem, self.attrs, self.dims, self.const)

    def with_flags(self, flags: int) -> "Val":
        return Val(self.kind, self.name, flags, self.items, self.fn, self.cls, self.keys, self.outer, self.ext, self.elem, self.attrs, self.dims, self.const)

    @property
    def container(self) -> bool:
        return bool(self.flags & (PYSEQ | DICT))

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Val({('static', 'unknown', 'traced')[self.kind]}, {self.name!r}, flags={self.flags})"


class InstanceAttributes(dict):
    """What ``self.attr = v`` stored on an object built in the trace, by attribute name.
    ``fed_traced``: its constructor was given a traced value, so an attribute stored where the
    interpreter does not follow (a base class's ``__init__`` it could not resolve) may hold one."""

    __slots__ = ("fed_traced",)

    def __init__(self, fed_traced: bool):
        super().__init__()
        self.fed_traced = fed_traced

    def store(self, attr: str, v: "Val") -> None:
        # joined with what was stored before, as a name assigned on two paths: the
        # interpreter does not tell which store ran last on every path
        old = self.get(attr)
        self[attr] = v if old is None else join(old, v)


STATIC_VAL = Val(STATIC)
UNDECIDED_TRACER_TEST = Val(STATIC, None, NO_TRACER_IF_FALSE)
UNKNOWN_VAL = Val(UNKNOWN)
KNOWN_CONSTANTS = {"True": Val(STATIC, None, TRUE), "False": Val(STATIC, None, FALSE), "None": Val(STATIC, None, FALSE | NONE)}


def carries_tracer(v: Val, depth: int = 0) -> bool:
    """A tracer, or a Python object the trace built that keeps one: a list, tuple or dict
    holding it, an object whose attributes were given it.  Kept past the trace, the object
    keeps the tracer alive too."""
    if v.kind == TRACED:
        return True
    if depth > 3:
        return False
    held = list(v.items or ()) + list(v.attrs.values() if v.attrs is not None else ())
    return any(carries_tracer(x, depth + 1) for x in held)


def negated_test(v: Val) -> Val:
    """``not v`` of an undecided Python bool: a test for tracers keeps where it rules them out."""
    flags = v.flags & TRACER_TEST
    swapped = (NO_TRACER_IF_TRUE if flags & NO_TRACER_IF_FALSE else 0) | (NO_TRACER_IF_FALSE if flags & NO_TRACER_IF_TRUE else 0)
    return Val(v.kind, None, swapped) if swapped and v.kind == STATIC else Val(v.kind)


def join(a: Val, b: Val) -> Val:
    """The value that is ``a`` on one path and ``b`` on another.  Tuples of the same length
    are joined position by position: ``return d, True`` / ``return d, False`` keep a static
    flag next to a traced ``d``."""
    if a is b:
        return a
    if a.items is not None and b.items is not None and len(a.items) == len(b.items) and a.keys == b.keys:
        items = tuple(join(x, y) for x, y in zip(a.items, b.items))
        kind = max((i.kind for i in items), default=max(a.kind, b.kind))
        # the other entries of a dict: those of either path
        others = [d.elem for d in (a, b) if d.keys is not None and d.elem is not None]
        elem = joinall(others) if others else None
        kind = max(kind, elem.kind) if elem is not None else kind
        return Val(kind, first_traced_name(items) or a.name or b.name, a.flags & b.flags, items, None, None, a.keys, elem=elem)
    cls = a.cls if a.cls is b.cls else None
    if a.kind == b.kind:
        if a.kind == STATIC:
            if a.flags & MODULE and a.name != b.name:
                return Val(STATIC, None, a.flags & b.flags & ~MODULE)  # ``np`` on one path, ``jnp`` on another
            same = a.flags == b.flags and a.fn is None and a.outer == b.outer and _same_elem(a, b) and a.attrs is b.attrs and a.const == b.const and a.dims == b.dims
            return a if same else Val(STATIC, None, a.flags & b.flags)
        # (the other entries of dicts with different keys are not what every entry holds)
        elem = a.elem if a.elem is not None and _same_elem(a, b) and a.keys is None and b.keys is None else None
        dims = a.dims if a.dims == b.dims else None  # (an array of one shape on either path)
        return Val(a.kind, a.name or b.name, a.flags & b.flags, None, None, cls, ext=a.ext if a.ext == b.ext else None, elem=elem, dims=dims)
    hi, lo = (a, b) if a.kind > b.kind else (b, a)
    return Val(hi.kind, hi.name, hi.flags & lo.flags if hi.kind == UNKNOWN else hi.flags, None, None, cls if hi.kind == TRACED else None)


def _same_elem(a: Val, b: Val) -> bool:
    """Both values have no element class, or the same one (by signature)."""
    return a.elem is b.elem or a.elem is not None and b.elem is not None and signature(a.elem) == signature(b.elem)


def signature(v: Val, depth: int = 0) -> tuple:
    """What a call's memo key keeps of an argument: kind, flags, class and element structure;
    for a function value, which def it is (``helper(good, x)`` and ``helper(bad, x)`` call
    different functions, and share no interpretation)."""
    items = None
    if v.items is not None and depth < 3:
        items = tuple(signature(i, depth + 1) for i in v.items)
    outer = (id(v.outer[0]), v.outer[1], id(v.outer[2])) if v.outer is not None else None
    module = v.name if v.flags & MODULE else None  # ``xp=np`` and ``xp=jnp`` are two signatures
    fn = id(v.fn[0].func.node) if v.fn is not None else 0
    elem = signature(v.elem, depth + 1) if v.elem is not None and depth < 3 else None
    attrs = None
    if v.attrs is not None and depth < 3:
        attrs = tuple(sorted((a, signature(x, depth + 1)) for a, x in v.attrs.items()))
    return (v.kind, v.flags, id(v.cls) if v.cls is not None else 0, items, v.keys, outer, v.ext, module, fn, elem, attrs, v.dims, v.const)


def joinall(vals: Sequence[Val]) -> Val:
    out = STATIC_VAL
    for v in vals:
        out = v if out is STATIC_VAL else join(out, v)
    return out


def first_traced_name(vals: Sequence[Val]) -> Optional[str]:
    for v in vals:
        if v.kind == TRACED and v.name:
            return v.name
    return None


Env = Dict[str, Val]


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
        if w is None or w.kind != v.kind or w.flags != v.flags:
            return False
    return True


def to_traced(v: Val) -> Val:
    """``v`` as a traced function receives it when JAX flattens it: every leaf a tracer."""
    if v.cls is not None and v.fn is None:
        # An instance of a class of the module (a NamedTuple or dataclass carry): which fields
        # are leaves is the class model's to say, not the values it was built with.
        return Val(TRACED, v.name, 0, None, None, v.cls)
    if v.items is not None:
        elem = to_traced(v.elem) if v.keys is not None and v.elem is not None else None
        return Val(TRACED, v.name, v.flags & (PYSEQ | DICT), tuple(to_traced(x) for x in v.items), None, None, v.keys, elem=elem)
    if v.flags & (PYSEQ | DICT):
        return Val(TRACED, v.name, v.flags & (PYSEQ | DICT))
    if v.flags & (JAXARR | NPARR):
        return Val(TRACED, v.name, ARRAY, dims=v.dims)  # a tracer of the array's shape
    # A Python value whose structure the analysis does not know (a number, or an object such
    # as a registered dataclass: ``jax.tree.map(pad, data)`` of a static ``data``) is not known
    # to be one leaf: its parts keep what the class makes of them.
    # Of a value the analysis cannot see at all, the flattened form may be a leaf or a container.
    raw = RAW if v.kind == UNKNOWN else 0
    return Val(TRACED, v.name, v.flags & (ARRAY | BOOL | RAW | REF) | raw, ext=v.ext)


def jit_output(v: Val) -> Val:
    """What a jitted function returns under a trace that stages: the pytree its body returns,
    every leaf a tracer (None is an empty pytree and stays None)."""
    if v.kind == STATIC and v.flags & NONE:
        return v
    if v.kind != UNKNOWN and v.items is not None and v.fn is None and v.cls is None:
        return Val(TRACED, v.name, v.flags & (PYSEQ | DICT), tuple(jit_output(x) for x in v.items), None, None, v.keys)
    if v.kind == STATIC and v.fn is None and v.cls is None and not v.flags & (PYSEQ | DICT | MODULE | TEXT):
        return Val(TRACED, v.name, ARRAY)  # a Python number handed back is a weakly typed array
    return to_traced(v) if v.fn is None and v.kind != TRACED else v


def keyed_dict(keys: Sequence[str], items: Sequence[Val], others: Optional[Val] = None) -> Val:
    """A dict whose entries under ``keys`` hold ``items`` and whose entries under any other key
    (where it may have more: ``others``) hold ``others``."""
    vals = list(items) + ([others] if others is not None else [])
    kind = max((v.kind for v in vals), default=STATIC)
    return Val(kind, first_traced_name(vals), DICT, tuple(items), None, None, tuple(keys), elem=others)


def other_entries(d: Val) -> Optional[Val]:
    """What an entry of the dict ``d`` that its ``keys`` do not list holds: a leaf, a subtree
    or a Python value kept beside the arrays, as far as the dict's kind tells; None when the
    keys are all it holds."""
    if d.keys is not None and d.items is not None:
        return d.elem
    if d.kind == TRACED:
        return Val(TRACED, d.name, (d.flags & REF) | RAW)
    return STATIC_VAL if d.kind == STATIC else UNKNOWN_VAL


SPREAD = object()  # the key of a ``**d`` entry in ``dict_of``


def dict_of(entries) -> Val:
    """The dict built from ``(key, value)`` entries in order, ``(SPREAD, d)`` being ``**d``.
    With string keys each value keeps its own kind (``cfg["n"]`` static next to ``cfg["w"]``)
    and a later entry replaces an earlier one of the same key; what ``**d`` adds beyond the
    keys it shows is every other entry."""
    known, others = {}, []
    for key, v in entries:
        if key is None:
            # a key the code computes: which entry holds what is not known
            return Val(joinall([x for _, x in entries]).kind, first_traced_name([x for _, x in entries]), DICT)
        if key is not SPREAD:
            known.pop(key, None)
            known[key] = v
            continue
        for k, item in zip(v.keys or (), v.items or ()):
            known.pop(k, None)
            known[k] = item
        rest = other_entries(v)
        if rest is not None:
            others.append(rest)
    return keyed_dict(tuple(known), tuple(known.values()), joinall(others) if others else None)


def default_val(default) -> Val:
    """A parameter left at its default: a Python value, known when it is a literal bool/None,
    an int, or a tuple or list of such literals (indexing it with a tracer fails as a tuple
    written in the body does)."""
    if isinstance(default, cst.Name) and default.value in KNOWN_CONSTANTS:
        return KNOWN_CONSTANTS[default.value]
    if isinstance(default, cst.Integer):
        return int_val(default.evaluated_value)
    if isinstance(default, (cst.Tuple, cst.List)):
        if not default.elements:
            return empty_sequence()
        if not any(isinstance(el, cst.StarredElement) for el in default.elements):
            return Val(STATIC, None, PYSEQ, tuple(default_val(el.value) for el in default.elements))
    return STATIC_VAL


def int_val(n: int) -> Val:
    """A Python int known here: its truth value too (``if x.shape[1]:``)."""
    return Val(STATIC, None, TRUE if n else FALSE, const=n)


def empty_sequence() -> Val:
    """A Python tuple or list known to be empty: iterating it runs no loop body."""
    return Val(STATIC, None, PYSEQ | FALSE, ())


def surely_empty(v: Val) -> bool:
    """``v`` is a tuple or list (not a dict) known to hold nothing."""
    return v.items == () and v.keys is None


# What a value cannot be if it is None: an array (NumPy, or JAX on the host), a Python
# container, a shape, a string, a module, the literal True.  (A traced value may be a None
# leaf handed to the transform, unless it is known to be an array.)
_NOT_NONE_FLAGS = NOTNONE | NPARR | JAXARR | PYSEQ | DICT | SHAPE | TEXT | MODULE | TRUE


def surely_not_none(v: Val) -> bool:
    if v.items is not None or v.fn is not None or v.cls is not None:
        return True
    if v.kind == TRACED:
        return bool(v.flags & (ARRAY | NOTNONE))
    return bool(v.flags & _NOT_NONE_FLAGS)
