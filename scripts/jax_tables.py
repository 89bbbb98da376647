#!/usr/bin/env python3
"""Write ``jaxlint/analysis/jax/jax_concrete_args.py``: which arguments of JAX's functions must be
concrete Python values, read from JAX itself.

    python scripts/jax_tables.py          # rewrite the table from the installed JAX
    python scripts/jax_tables.py --check  # exit 1 when the table differs from it

For each public function of jax.numpy (with linalg and fft), jax.lax, jax.random, jax.nn,
jax.scipy, jax.ops and jax.image, a call that JAX traces is looked for among a few argument
lists built from the signature (small arrays, ints, shapes, a PRNG key for ``key``).  Each
argument of that call is then traced on its own (``jax.make_jaxpr`` with that argument an input
and the arrays traced too, as under ``jax.jit``):

* a Python value (an axis, a count, a shape) is passed as a traced array of the same value, and a
  tuple or list also with its first element traced, as ``(n, 3)`` with traced ``n``;
* an array is traced while the other arrays stay concrete, for the functions whose output size
  depends on the data (``jnp.nonzero``), which trace only when given a size.

When JAX then raises one of its concretization errors the argument must be concrete.  The
optional arguments that make the traced call work again (``size=``, ``total_repeat_length=``,
``num_segments=``, the ``x, y`` of ``jnp.where``) are recorded with it, and an argument is a
*shape* when a different concrete value gives a different output shape.  Functions that touch
files, devices, the configuration or named axes, take callables, or warn that they are deprecated
are not called.  Each call has a time limit, and the output is sorted, so two runs on one JAX
give the same table.  The linter never imports JAX: the table is data in the package, and a
test re-derives a sample of it against the JAX it runs with.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import itertools
import logging
import os
import pkgutil
import re
import signal
import sys
import warnings

os.environ.setdefault("JAX_PLATFORMS", "cpu")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generated_table import write_or_check  # noqa: E402
TABLE = os.path.join(os.path.dirname(HERE), "jaxlint", "analysis", "jax", "jax_concrete_args.py")

MODULES = ("jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.lax", "jax.lax.linalg", "jax.random", "jax.nn", "jax.ops", "jax.image")
SCIPY = "jax.scipy"

# Not called: files, printing, devices, settings, named axes, host callbacks, caches.
NOT_CALLED = re.compile(
    r"^(load|save|fromfile|frombuffer|fromstring|fromfunction|fromiter|from_dlpack|printoptions|"
    r"set_printoptions|get_printoptions|show_config|einsum_path|infeed|outfeed|axis_index|axis_size|"
    r"create_token|after_all|rng_bit_generator|composite|platform_dependent|pcast|psum|pmean|pmax|"
    r"pmin|ppermute|pshuffle|pswapaxes|pbroadcast|all_gather|all_to_all|psum_scatter|ragged_all_to_all|"
    r"with_sharding_constraint|device_put|block_until_ready|debug_|print|show|vectorize|frompyfunc|"
    r"custom_|stop_gradient$|optimization_barrier|key_impl|default_prng_impl|cache_)"
)
# Parameters that take a function, a named axis, a device or a file: a function with one of
# these required is not called (unless ``_values`` has functions for it: the loop and branch
# bodies of ``jax.lax``), and such an optional parameter is not probed.
NOT_CALLED_PARAMS = re.compile(
    r"^(f|fn|fun|func|func1d|function|pyfunc|computation|body_fun|cond_fun|true_fun|false_fun|branches|"
    r"solve|tangent_solve|matvec|mask_func|jac|callback|axis_name|axis_names|device|devices|sharding|"
    r"out_sharding|out_shardings|file|fname|buffer)$"
)
# Optional parameters not probed either: types, precisions, memory layouts, output buffers; a
# Python value there is a setting, never a traced value in practice.
UNPROBED_PARAMS = re.compile(
    NOT_CALLED_PARAMS.pattern[:-2] + r"|out|dtype|\w+_dtype|dtypes|precision|preferred_element_type|impl|"
    r"like|copy|order|casting|unroll|_split_transpose)$"
)

TIME_LIMIT_S = 5.0

# Errors JAX raises when a value it needs concrete is a tracer.
CONCRETIZATION_ERRORS = {
    "ConcretizationTypeError",
    "TracerIntegerConversionError",
    "TracerBoolConversionError",
    "TracerArrayConversionError",
    "NonConcreteBooleanIndexError",
}
CONCRETIZATION_MESSAGES = re.compile(
    r"[Ss]hapes must be 1D sequences of concrete values|Non-hashable static arguments|"
    r"was not hashable|must have __hash__ and __eq__|unhashable type: '\w*Tracer|"
    r"must be static|concrete value"
)


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def concretization_error(exc) -> bool:
    if type(exc).__name__ in CONCRETIZATION_ERRORS:
        return True
    return isinstance(exc, (TypeError, ValueError, IndexError)) and bool(CONCRETIZATION_MESSAGES.search(str(exc)))


def public_functions():
    """(qualified name, function) of every public function of the probed modules, sorted."""
    import jax.scipy

    names = list(MODULES) + sorted(m.name for m in pkgutil.walk_packages(jax.scipy.__path__, SCIPY + "."))
    out = {}
    for module_name in names:
        try:
            module = importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - a submodule that needs an optional dependency
            continue
        for name in sorted(dir(module)):
            if name.startswith("_") or NOT_CALLED.match(name):
                continue
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                f = getattr(module, name, None)
            if any(issubclass(w.category, DeprecationWarning) for w in caught):
                continue
            if f is None or not callable(f) or inspect.isclass(f) or inspect.ismodule(f):
                continue
            if "deprecat" in (getattr(f, "__doc__", None) or "")[:300].lower():
                continue
            out[f"{module_name}.{name}"] = f
    return sorted(out.items())


class Probe:
    """Calls of one function under ``jax.make_jaxpr``, with chosen arguments traced."""

    def __init__(self, f):
        self.f = f

    def run(self, pos, kw, traced=(), form="whole", eager=False):
        """None when ``f(*pos, **kw)`` traces with the slots in ``traced`` as tracers, else the
        exception.  A slot is ``("pos", i)`` or ``("kw", name)``; ``form`` says how a Python
        sequence is traced: whole (one traced array) or items (its first element traced).
        Arrays not in ``traced`` are traced too unless ``eager``, when they stay concrete and
        operations on them run at trace time."""
        import jax
        import jax.numpy as jnp
        import numpy as np

        traced = list(traced)
        probed = len(traced)  # the slots asked for; the arrays after them are traced whole
        inputs = []
        for slot in traced:
            value = pos[slot[1]] if slot[0] == "pos" else kw[slot[1]]
            if form == "items" and isinstance(value, (tuple, list, np.ndarray)):
                inputs.append(jnp.asarray(value[0]))
            else:
                inputs.append(jnp.asarray(value))
        if not eager:
            for i, v in enumerate(pos):
                if isinstance(v, np.ndarray) and ("pos", i) not in traced:
                    traced.append(("pos", i))
                    inputs.append(v)
            for k, v in kw.items():
                if isinstance(v, np.ndarray) and ("kw", k) not in traced:
                    traced.append(("kw", k))
                    inputs.append(v)

        def call(*xs):
            p, k = list(pos), dict(kw)
            for n, (slot, x) in enumerate(zip(traced, xs)):
                value = p[slot[1]] if slot[0] == "pos" else k[slot[1]]
                if form == "items" and n < probed and isinstance(value, (tuple, list, np.ndarray)):
                    x = (tuple if isinstance(value, tuple) else list)([x, *list(value[1:])])
                if slot[0] == "pos":
                    p[slot[1]] = x
                else:
                    k[slot[1]] = x
            if eager:
                with jax.ensure_compile_time_eval():
                    return self.f(*p, **k)
            return self.f(*p, **k)

        signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT_S)
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")
                out = jax.make_jaxpr(call, return_shape=True)(*inputs)[1]
            self.shapes = tuple(getattr(leaf, "shape", None) for leaf in jax.tree_util.tree_leaves(out))
            return None
        except Timeout as exc:
            return exc
        except Exception as exc:  # noqa: BLE001 - an argument list the function does not take
            return exc
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _values():
    """Values for required parameters: ``(by parameter name, for any parameter)``."""
    import jax
    import numpy as np

    vec = np.array([0.5, 1.0, 1.5], np.float32)
    mat = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    ivec = np.array([0, 1, 1], np.int32)
    key = jax.random.key(0)
    # by the parameter's name, the likeliest first
    by_name = {
        "key": [key], "keys": [jax.random.split(key, 2)], "seed": [0],
        "shape": [(3,), (2, 2)], "new_shape": [(3,), (2, 2)], "sizes": [(2,)], "slice_sizes": [(1,), (1, 1)],
        "filter_shape": [(2,)], "lhs_shape": [(2, 2)], "rhs_shape": [(2, 2)], "dims": [(2, 2)], "reps": [2, (2,)],
        "dtype": [np.float32, np.int32], "new_dtype": [np.float32], "index_dtype": [np.int32],
        "axis": [0, 1], "axis1": [0], "axis2": [1], "source": [0], "destination": [1], "dimension": [0],
        "axes": [(0,), (1, 0)], "perm": [(1, 0), (0,)], "dimensions": [(0,), (1, 0)],
        "kth": [1], "shift": [1], "start_indices": [(0,), (0, 0)], "start_index": [0], "index": [0],
        "indices_or_sections": [2, 3], "repeats": [2], "num_classes": [3], "num_segments": [3],
        "segment_ids": [ivec], "pad_width": [1, ((1, 1),)], "N": [2], "M": [2], "n": [2, vec], "m": [2, vec],
        "k": [1, vec], "num": [3], "size": [3], "length": [3], "start": [0, 0.5], "stop": [3, 1.5], "deg": [1],
        "condition": [np.array([True, False, True])], "condlist": [[np.array([True, False, True])]],
        "choicelist": [[vec]], "arrays": [[vec, vec]], "tup": [[vec, vec]], "operands": [[vec, vec]],
        "indices": [ivec, [0, 1]], "multi_index": [(ivec, ivec)],
        # bodies in the calling conventions of lax's loops and branches, the likeliest first:
        # scan's (carry, x) -> (carry, y), map's x -> y, fori_loop's (i, carry) -> carry,
        # while_loop's carry -> carry and carry -> bool, cond's operands -> value
        "f": [lambda carry, x: (carry, x), lambda x: x], "body_fun": [lambda i, carry: carry, lambda carry: carry],
        "cond_fun": [lambda carry: False], "true_fun": [lambda *xs: 0.0], "false_fun": [lambda *xs: 1.0],
        "branches": [[lambda *xs: 0.0, lambda *xs: 1.0]],
    }  # fmt: skip
    general = [vec, mat, ivec, 2, (2,), 0.5, np.array(0.5, np.float32)]
    return by_name, general


def other_arrays():
    """Arrays to put in place of a call's first array, for an optional argument that the first
    does not take (``jnp.squeeze(x, axis=0)`` needs a length-one axis)."""
    import numpy as np

    return [np.array([[0.5, 1.0, 1.5]], np.float32), np.array([[2.0, 1.0], [1.0, 3.0]], np.float32), np.array([0.5, 1.0, 1.5], np.float32)]


def _required_lists(sig, by_name, general, limit=60):
    """Candidate (positional, keyword) argument lists for the required parameters, the most
    likely first."""
    required, var = [], None
    for p in sig.parameters.values():
        if p.kind == p.VAR_KEYWORD:
            continue
        if p.kind == p.VAR_POSITIONAL:
            var = p
            continue
        if p.default is inspect.Parameter.empty:
            if NOT_CALLED_PARAMS.match(p.name) and p.name not in by_name:
                return []
            required.append(p)
    pools = [(by_name.get(p.name) or []) + [v for v in general if not any(v is w for w in by_name.get(p.name, ()))] for p in required]
    pools = [pool[:4] for pool in pools]
    var_counts = [1, 2] if var is not None and not required else [0]
    lists = []
    for count in var_counts:
        slots = pools + [general[:3]] * count
        combos = sorted(itertools.product(*[range(len(s)) for s in slots]), key=lambda c: (sum(c), c))
        for combo in combos[:limit]:
            pos, kw = [], {}
            for p, pool, i in zip(required, pools, combo):
                if p.kind == p.KEYWORD_ONLY:
                    kw[p.name] = pool[i]
                else:
                    pos.append(pool[i])
            pos += [general[i] for i in combo[len(required):]]
            lists.append((pos, kw))
    return lists


def _optional_values(p, by_name):
    """Values to pass for an optional parameter, or none when it is not probed."""
    if UNPROBED_PARAMS.match(p.name) or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
        return []
    d = p.default
    if isinstance(d, bool):
        return [not d]
    if isinstance(d, int):
        return [v for v in (by_name.get(p.name) or []) if isinstance(v, int)] + [1, 0, 2]
    if isinstance(d, float):
        return [0.25]
    if isinstance(d, tuple):
        return [v for v in (by_name.get(p.name) or []) if isinstance(v, tuple)] + [(0,), (3,)]
    if d is None:
        named = [v for v in (by_name.get(p.name) or []) if isinstance(v, (int, float, tuple))]
        return named + [1, 0, 2, (0,), 0.5]
    return []


def _python_value(v) -> bool:
    if isinstance(v, bool) or isinstance(v, (int, float)):
        return True
    return isinstance(v, (tuple, list)) and len(v) > 0 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)


def _bump(v):
    """Another concrete value of the same kind, to see whether the output shape follows it."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float)):
        return v + 1
    return type(v)(x + 1 for x in v)


def _find_base(probe, sig, by_name, general):
    """A traced call of the function: ``(pos, kw, eager)``, ``eager`` when it traces only with
    its arrays concrete (its output size follows their values), or None."""
    lists = _required_lists(sig, by_name, general)
    found = _first_traced(probe, lists)
    if found is not None:
        return found
    # A call that needs one of its optional arguments (``lax.scan`` with no ``xs`` needs its
    # ``length``): the lists again with each such argument that has a value by its name.
    optional = [p for p in sig.parameters.values() if p.default is None and p.name in by_name and p.kind != p.POSITIONAL_ONLY]
    return _first_traced(probe, [(pos, dict(kw, **{p.name: by_name[p.name][0]})) for p in optional for pos, kw in lists])


def _first_traced(probe, lists):
    fallback = None
    for pos, kw in lists:
        err = probe.run(pos, kw)
        if err is None:
            return pos, kw, False
        if fallback is None and concretization_error(err) and probe.run(pos, kw, eager=True) is None:
            fallback = (pos, kw, True)
    return fallback


def _value(pos, kw, slot):
    return pos[slot[1]] if slot[0] == "pos" else kw[slot[1]]


def _rejected_forms(probe, pos, kw, slot, eager) -> list:
    """How JAX rejects a tracer in ``slot``: ``whole`` (a traced value), ``items`` (a Python
    sequence holding a tracer)."""
    import numpy as np

    value = _value(pos, kw, slot)
    forms = []
    if isinstance(value, np.ndarray):
        # an array is traced in the plain call already: only a call that needs its arrays
        # concrete can say which one it is
        if eager and concretization_error(probe.run(pos, kw, [slot], eager=True) or Exception()):
            forms.append("whole")
        # a Python list that is taken when its values are concrete, and not when one is a
        # tracer: NumPy reads it (``jnp.ndim([x])``)
        if not eager and value.ndim == 1 and _as_list(probe, pos, kw, slot) and concretization_error(probe.run(pos, kw, [slot], form="items") or Exception()):
            forms.append("items")
    elif _python_value(value):
        if concretization_error(probe.run(pos, kw, [slot], eager=eager) or Exception()):
            forms.append("whole")
        if isinstance(value, (tuple, list)) and concretization_error(probe.run(pos, kw, [slot], form="items", eager=eager) or Exception()):
            forms.append("items")
        elif type(value) is int:
            # an int where a tuple of ints is taken too (``jnp.pad(x, 1)``, ``(0, n)``)
            p, k = _replaced(pos, kw, slot, (value,))
            if probe.run(p, k, eager=eager) is None and concretization_error(probe.run(p, k, [slot], form="items", eager=eager) or Exception()):
                forms.append("items")
    return forms


def _replaced(pos, kw, slot, value):
    p, k = list(pos), dict(kw)
    if slot[0] == "pos":
        p[slot[1]] = value
    else:
        k[slot[1]] = value
    return p, k


def _as_list(probe, pos, kw, slot) -> bool:
    """The call traces with the array in ``slot`` given as a Python list."""
    return probe.run(*_replaced(pos, kw, slot, _value(pos, kw, slot).tolist())) is None


def _kind(probe, pos, kw, slot, eager) -> str:
    """``size`` for an array whose values set the output size, ``shape`` when JAX calls a
    tracer there a shape or another concrete value changes the output size (the number of
    elements: an axis only moves them), else ``value``."""
    import numpy as np

    value = _value(pos, kw, slot)
    if isinstance(value, np.ndarray):
        return "size" if eager else "value"
    err = probe.run(pos, kw, [slot], eager=eager)
    if err is not None and "Shapes must be" in str(err):
        return "shape"
    if isinstance(value, bool) or not _python_value(value) or probe.run(pos, kw, eager=eager) is not None:
        return "value"
    before = _sizes(probe.shapes)
    p, k = _replaced(pos, kw, slot, _bump(value))
    return "shape" if probe.run(p, k, eager=eager) is None and _sizes(probe.shapes) != before else "value"


def _sizes(shapes) -> tuple:
    import math

    return tuple(None if s is None else math.prod(s) for s in shapes)


def _entry(params, slot):
    """``(position, name)`` of the parameter a slot fills."""
    if slot[0] == "kw":
        p = next(p for p in params if p.name == slot[1])
        return (params.index(p) if p.kind != p.KEYWORD_ONLY else None), p.name
    i = slot[1]
    if i < len(params) and params[i].kind not in (params[i].VAR_POSITIONAL, params[i].KEYWORD_ONLY):
        return i, params[i].name
    return i, ""


def probe_function(f):
    """The arguments of ``f`` that must be concrete: ``[(position, name, kind, forms, unless)]``
    (see ``render``), or None when no call of ``f`` could be traced."""
    try:
        sig = inspect.signature(f)
    except (TypeError, ValueError):
        return None
    by_name, general = _values()
    probe = Probe(f)
    base = _find_base(probe, sig, by_name, general)
    if base is None:
        return None
    pos, kw, eager = base
    params = list(sig.parameters.values())
    found = {}

    def check(pos, kw, slot, eager):
        forms = _rejected_forms(probe, pos, kw, slot, eager)
        if not forms:
            return ()
        unless = _unless(probe, params, pos, kw, slot, by_name, general)
        position, name = _entry(params, slot)
        kind = _kind(probe, pos, kw, slot, eager)
        found[(10**6 if position is None else position, name)] = (position, name, kind, tuple(forms), tuple(u[:2] for u in unless))
        return unless

    slots = [("pos", i) for i in range(len(pos))] + [("kw", k) for k in kw]
    if eager:
        # The output size follows the data (jnp.nonzero): find the arrays it follows, then
        # probe the rest with the size given, as a traced call would have it.
        sized = dict(kw)
        for slot in slots:
            for position, name, value in check(pos, kw, slot, True):
                keyword = next(p for p in params if p.name == name).kind != inspect.Parameter.POSITIONAL_ONLY
                if keyword and probe.run(pos, dict(sized, **{name: value})) is None:
                    sized[name] = value
        if probe.run(pos, sized) is not None:
            return [found[k] for k in sorted(found)]
        kw, slots = sized, [s for s in slots if s[0] == "pos"] + [("kw", k) for k in sized]
    for slot in slots:
        check(pos, kw, slot, False)
    calls = [pos] + _variants(probe, pos, kw)
    for i, p in enumerate(params):
        if p.default is inspect.Parameter.empty or p.name in kw or p.kind == p.POSITIONAL_ONLY:
            continue
        if p.kind == p.POSITIONAL_OR_KEYWORD and i < len(pos):
            continue
        widened = next(((c, dict(kw, **{p.name: v})) for c in calls for v in _optional_values(p, by_name) if probe.run(c, dict(kw, **{p.name: v})) is None), None)
        if widened is not None:
            check(*widened, ("kw", p.name), False)
    return [found[k] for k in sorted(found)]


def _variants(probe, pos, kw) -> list:
    """The call with its first array or number replaced by arrays of other shapes, where it
    still traces."""
    import numpy as np

    first = next((i for i, v in enumerate(pos) if isinstance(v, (np.ndarray, int, float))), None)
    if first is None:
        return []
    out = []
    for array in other_arrays():
        if array.shape != np.shape(pos[first]):
            call = list(pos)
            call[first] = array
            if probe.run(call, kw) is None:
                out.append(call)
    return out


def _unless(probe, params, pos, kw, slot, by_name, general):
    """The optional parameters, any of which makes the call with ``slot`` traced work:
    ``[(position, name, value)]``: the ``size=`` of ``jnp.nonzero``, the ``x, y`` of
    ``jnp.where``."""
    out = []
    later_positional = []
    for i, p in enumerate(params):
        if p.default is inspect.Parameter.empty or p.name in kw or (i < len(pos) and p.kind != p.KEYWORD_ONLY):
            continue
        if p.kind == p.POSITIONAL_ONLY:
            later_positional.append(p)
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or UNPROBED_PARAMS.match(p.name):
            continue
        values = [v for v in _optional_values(p, by_name) if type(v) is int][:3]
        if isinstance(p.default, str):
            values = _named_choices(probe, pos, kw, p)
        for value in values:
            if probe.run(pos, dict(kw, **{p.name: value}), [slot]) is None:
                out.append((i if p.kind != p.KEYWORD_ONLY else None, p.name, value))
                break
    if later_positional:
        # ``jnp.where(c, x, y)``: the optional positional arguments given together
        if probe.run(list(pos) + [general[0]] * len(later_positional), kw, [slot]) is None:
            out += [(params.index(p), p.name, general[0]) for p in later_positional]
    return sorted(out, key=lambda u: (u[0] is None, u[0] or 0, u[1]))


def _named_choices(probe, pos, kw, p) -> list:
    """The other values a string parameter takes, as JAX lists them when given one it does not
    know (``jnp.choose``: "Must be 'raise', 'wrap', or 'clip'")."""
    err = probe.run(pos, dict(kw, **{p.name: "?"}))
    words = re.findall(r"'(\w+)'", str(err)) if err is not None else []
    return sorted(set(words) - {p.default})


def concrete_args(names=None):
    """(JAX version, {qualified name: entries}) for the functions named, or all of them."""
    import jax

    logging.disable(logging.WARNING)
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        table = {}
        for qualname, f in public_functions():
            if names is not None and qualname not in names:
                continue
            entries = probe_function(f)
            if entries:
                table[qualname] = entries
        return jax.__version__, table
    finally:
        signal.signal(signal.SIGALRM, old)
        logging.disable(logging.NOTSET)


def render(version, table) -> str:
    lines = [
        '"""Which arguments of JAX functions must be concrete Python values (written by',
        f"scripts/jax_tables.py from JAX {version}, which traces each function with one argument at a",
        "time made a tracer; tests/slow/test_jax_tables.py re-derives a sample with the installed JAX).",
        "",
        "``CONCRETE_ARGS[qualified name]`` lists ``(position, name, kind, forms, unless)``: the",
        "argument's position (None when keyword-only) and keyword; ``kind``: ``size`` for an array",
        "whose values set the output size, ``shape`` when the output size follows the value, else",
        "``value``; ``forms``: what JAX rejects there, ``whole`` a tracer, ``items`` a tuple or list",
        "holding one; ``unless``: the optional arguments ``(position, name)`` any of which makes a",
        'traced value fine (``size=`` of ``jnp.nonzero``, the ``x, y`` of ``jnp.where``)."""',
        "",
        f'JAX_VERSION = "{version}"',
        "",
        "# fmt: off",
        "CONCRETE_ARGS = {",
    ]
    for name in sorted(table):
        entries = ", ".join(f"({p!r}, {a!r}, {k!r}, {tuple(f)!r}, {tuple(u)!r})" for p, a, k, f, u in table[name])
        lines.append(f'    "{name}": ({entries},),'.replace("'", '"'))
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv=None) -> int:
    version, table = concrete_args()
    text = render(version, table)
    checked = write_or_check(TABLE, text, argv)
    if checked is not None:
        return checked
    print(f"{len(table)} functions, {sum(len(v) for v in table.values())} arguments from JAX {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
