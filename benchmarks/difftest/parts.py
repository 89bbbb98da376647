"""The parts a generated program is composed of, and the composition.

A program is one traced function (``kernel``) whose body is a *sink* fed by a value from a
*source*, wrapped by a *transform*, reached from ``main`` through a *carrier*.  Each part is a
small template; ``compose`` puts one of each together into a complete script.  Parts never decide
the outcome: the same sink is a bug with one source or transform and correct code with another
(a Python float closed over is concrete under ``jit``; a parameter is traced), and JAX decides
which (see ``truth.py``).  Guards are sinks in their correct form (``jnp.where`` instead of
``if``, ``jax.debug.print`` instead of ``print``, one value for a static argument, ...).

Every part knows which lines of the program it wrote; the sink marks the line of its effect or
read (the *effect line*, used as the failing line of stale programs, see ``compare.py``).
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

EFFECT = "  # <effect>"  # stripped from the final text; marks the sink's effect or read line


def block(text: str, indent: int = 0) -> List[str]:
    lines = textwrap.dedent(text).strip("\n").splitlines()
    return [(" " * indent + line) if line.strip() else "" for line in lines]


# -- sources: where the value ``v`` the sink uses comes from ---------------------------------


@dataclass
class Source:
    """``defs``: module-level code.  ``prelude``: lines at the top of the kernel body.  ``read``:
    the expression for the value inside the kernel.  ``param``: the kernel parameter declared for
    it ('' when none), with ``arg`` the expression callers pass.  ``kind``: 'f' (float) or 'i'."""

    name: str
    read: str
    defs: str = ""
    prelude: str = ""
    param: str = ""
    arg: str = ""
    imports: Tuple[str, ...] = ()
    python_value: bool = False  # the value passed is a hashable Python value
    kernel_wrap: Optional[str] = None  # 'closure' / 'partial': how the kernel is bound


def sources(kind: str) -> List[Source]:
    """The sources of a value of kind 'f' (a float) or 'i' (an int)."""
    lit = "0.75" if kind == "f" else "3"
    lit2 = "1.25" if kind == "f" else "2"
    jlit = f"jnp.float32({lit})" if kind == "f" else f"jnp.int32({lit})"
    return [
        Source("param", "limit", param="limit", arg=lit, python_value=True),
        Source("param_array", "limit", param="limit", arg=jlit),
        Source("helper", "limit", prelude=f"limit = threshold_of(x)", defs=(
            f"""
            def threshold_of(values):
                \"\"\"A data-dependent threshold.\"\"\"
                return {'jnp.mean(values)' if kind == 'f' else 'jnp.argmax(values) + 1'}
            """)),
        Source("helper_shape", "limit", prelude="limit = size_of(x)", defs=(
            f"""
            def size_of(values):
                \"\"\"A threshold from the static shape.\"\"\"
                return {'values.shape[0] / 4.0' if kind == 'f' else 'values.shape[0] - 1'}
            """)),
        Source("namedtuple", "cfg.limit", param="cfg", arg=f"Settings(limit={lit}, rate=0.1)", defs=(
            f"""
            class Settings(NamedTuple):
                limit: {'float' if kind == 'f' else 'int'}
                rate: float
            """), imports=("from typing import NamedTuple",)),
        Source("property", "cfg.limit", param="cfg", arg=f"Bounds(low={lit}, width=1)", defs=(
            f"""
            class Bounds(NamedTuple):
                low: {'float' if kind == 'f' else 'int'}
                width: int

                @property
                def limit(self):
                    return self.low * self.width
            """), imports=("from typing import NamedTuple",)),
        Source("struct_static", "cfg.limit", param="cfg", arg=f"Config(scale=jnp.ones(()), limit={lit})", defs=(
            f"""
            @struct.dataclass
            class Config:
                scale: jax.Array
                limit: {'float' if kind == 'f' else 'int'} = struct.field(pytree_node=False)
            """), imports=("from flax import struct",)),
        Source("struct_data", "cfg.limit", param="cfg", arg=f"Config(scale=jnp.ones(()), limit={lit})", defs=(
            f"""
            @struct.dataclass
            class Config:
                scale: jax.Array
                limit: {'float' if kind == 'f' else 'int'}
            """), imports=("from flax import struct",)),
        Source("eqx_static", "cfg.limit", param="cfg", arg=f"Options({lit})", defs=(
            f"""
            class Options(eqx.Module):
                limit: {'float' if kind == 'f' else 'int'} = eqx.field(static=True)

                def __init__(self, limit):
                    self.limit = limit
            """), imports=("import equinox as eqx",)),
        Source("eqx_field", "cfg.limit", param="cfg", arg=f"Options({jlit})", defs=(
            """
            class Options(eqx.Module):
                limit: jax.Array

                def __init__(self, limit):
                    self.limit = limit
            """), imports=("import equinox as eqx",)),
        Source("pytree_aux", "cfg.limit", param="cfg", arg=f"Spec(jnp.ones(()), {lit})", defs=(
            """
            @jax.tree_util.register_pytree_node_class
            class Spec:
                def __init__(self, weight, limit):
                    self.weight = weight
                    self.limit = limit

                def tree_flatten(self):
                    return (self.weight,), (self.limit,)

                @classmethod
                def tree_unflatten(cls, aux, children):
                    return cls(children[0], *aux)
            """)),
        Source("pytree_child", "cfg.limit", param="cfg", arg=f"Spec(jnp.ones(()), {lit})", defs=(
            """
            @jax.tree_util.register_pytree_node_class
            class Spec:
                def __init__(self, weight, limit):
                    self.weight = weight
                    self.limit = limit

                def tree_flatten(self):
                    return (self.weight, self.limit), None

                @classmethod
                def tree_unflatten(cls, aux, children):
                    return cls(*children)
            """)),
        Source("dict", "cfg['limit']", param="cfg", arg=f'{{"limit": {lit}, "rate": 0.1}}'),
        Source("tuple", "cfg[0]", param="cfg", arg=f"({lit}, {lit2})"),
        Source("closure", "limit", kernel_wrap="closure", defs=""),
        Source("global", "LIMIT", defs=f"LIMIT = {lit}"),
        Source("numpy_global", "LIMIT", defs=f"LIMIT = np.{'float32' if kind == 'f' else 'int32'}({lit})"),
        Source("numpy_param", "limit", param="limit", arg=f"np.{'float32' if kind == 'f' else 'int32'}({lit})"),
        Source("rebound_jnp", "TABLE[0]", defs=(
            f"""
            TABLE = np.array([{lit}, {lit2}])
            TABLE = jnp.asarray(TABLE)
            """)),
        Source("partial", "limit", kernel_wrap="partial"),
        Source("default", "limit", param=f"limit={lit}"),
        Source("init_attr", "self.limit", kernel_wrap="method"),
    ]


# -- sinks ------------------------------------------------------------------------------------


@dataclass
class Sink:
    """``body``: the kernel statements (``{v}`` is the value; must bind ``out``), with the effect
    line marked.  ``category``: A, B, C or R.  ``kind``: the value kind it needs.  ``main``: how
    ``main`` drives the calls (see ``Program``), default two calls with the same arguments."""

    name: str
    category: str
    body: str
    kind: str = "f"
    guard: bool = False
    defs: str = ""
    main: str = "twice"
    needs_param: bool = False  # the value must be a kernel parameter the callers pass
    static: str = ""  # 'hashable' / 'unhashable' / 'array': the sink makes the value's slot static
    # how a loop ``main`` iterates: a ``for`` statement, or a list comprehension of the same calls
    form: str = "for"


A_SINKS = [
    Sink("if", "A", f"""
        if {{v}} > 0.5:{EFFECT}
            out = x * 2.0
        else:
            out = x - 1.0
        """),
    Sink("while", "A", f"""
        out = x
        k = 0.0
        while {{v}} > k:{EFFECT}
            out = out * 0.5
            k = k + 1.0
        """),
    Sink("ternary", "A", f"out = x * 2.0 if {{v}} > 0.5 else x{EFFECT}"),
    Sink("and", "A", f"""
        keep = {{v}} > 0.1 and {{v}} < 10.0{EFFECT}
        out = x * keep
        """),
    Sink("not", "A", f"""
        small = not {{v}} > 0.5{EFFECT}
        out = x if small else -x
        """),
    Sink("assert", "A", f"""
        assert {{v}} > 0, "the limit must be positive"{EFFECT}
        out = x * 2.0
        """),
    Sink("range", "A", f"""
        out = x
        for _ in range({{v}}):{EFFECT}
            out = out * 0.5
        """, kind="i"),
    Sink("int", "A", f"""
        steps = int({{v}}){EFFECT}
        out = x * steps
        """),
    Sink("float", "A", f"""
        scale = float({{v}}){EFFECT}
        out = x * scale
        """),
    Sink("item", "A", f"""
        scale = jnp.asarray({{v}}).item(){EFFECT}
        out = x * scale
        """),
    Sink("numpy", "A", f"""
        scale = np.exp({{v}}){EFFECT}
        out = x * scale
        """),
    Sink("shape", "A", f"""
        pad = jnp.zeros({{v}}){EFFECT}
        out = jnp.concatenate([x, pad])
        """, kind="i"),
    # lax.scan builds its loop from a concrete length: a traced one is a ConcretizationTypeError
    Sink("scan_length", "A", f"""
        out, _ = lax.scan(lambda c, _: (c * 0.5, None), x, None, length={{v}}){EFFECT}
        """, kind="i"),
    Sink("boolmask", "A", f"out = x[x > {{v}}]{EFFECT}"),
    # guards: the same decisions in forms that trace
    Sink("where", "A", f"out = jnp.where({{v}} > 0.5, x * 2.0, x - 1.0){EFFECT}", guard=True),
    Sink("lax_cond", "A", f"out = lax.cond({{v}} > 0.5, lambda t: t * 2.0, lambda t: t - 1.0, x){EFFECT}", guard=True),
    Sink("shape_if", "A", f"""
        if x.shape[0] > 2:{EFFECT}
            out = x * {{v}}
        else:
            out = x
        """, guard=True),
    Sink("is_none", "A", f"""
        if {{v}} is None:{EFFECT}
            out = x
        else:
            out = x * {{v}}
        """, guard=True),
    Sink("isinstance", "A", f"""
        if isinstance({{v}}, (int, float)) and {{v}} > 0.5:{EFFECT}
            out = x * 2.0
        else:
            out = jnp.where({{v}} > 0.5, x * 2.0, x - 1.0)
        """, guard=True),
    Sink("compile_time", "A", f"""
        with jax.ensure_compile_time_eval():
            scale = float({{v}}){EFFECT}
        out = x * scale
        """),
    Sink("masked_sum", "A", f"out = jnp.where(x > {{v}}, x, 0.0){EFFECT}", guard=True),
]


B_SINKS = [
    Sink("static_list", "B", f"""
        out = x{EFFECT}
        for width in {{v}}:
            out = out * width
        """, needs_param=True, static="unhashable", main="static_list"),
    Sink("static_tuple", "B", f"""
        out = x{EFFECT}
        for width in {{v}}:
            out = out * width
        """, needs_param=True, static="unhashable", main="static_tuple", guard=True),
    Sink("static_array", "B", f"out = x * {{v}}{EFFECT}", needs_param=True, static="array", main="static_array"),
    Sink("static_scalar", "B", f"out = x * {{v}}{EFFECT}", needs_param=True, static="hashable", main="twice", guard=True),
    Sink("static_dict", "B", f"out = x * {{v}}[\"scale\"]{EFFECT}", needs_param=True, static="unhashable", main="static_dict"),
    Sink("inner_static", "B", f"out = scaled_by(x, {{v}}){EFFECT}", defs=(
        """
        @functools.partial(jax.jit, static_argnums=1)
        def scaled_by(values, factor):
            return values * factor
        """)),
]


C_SINKS = [
    Sink("global_read", "C", f"out = x * SCALE + {{v}}{EFFECT}", defs="SCALE = 2.0", main="global_read"),
    Sink("global_read_fixed", "C", f"out = x * SCALE + {{v}}{EFFECT}", defs="SCALE = 2.0", main="twice", guard=True),
    Sink("print", "C", f"""
        print("limit:", {{v}}){EFFECT}
        out = x * 2.0
        """, main="twice_print"),
    Sink("debug_print", "C", f"""
        jax.debug.print("limit: {{{{}}}}", {{v}}){EFFECT}
        out = x * 2.0
        """, main="twice_print", guard=True),
    Sink("debug_fstring", "C", f"""
        jax.debug.print(f"limit: {{{{{{v}}}}}}"){EFFECT}
        out = x * 2.0
        """, main="twice_print"),
    Sink("append", "C", f"""
        HISTORY.append({{v}}){EFFECT}
        out = x * 2.0
        """, defs="HISTORY = []", main="report_history"),
    Sink("local_append", "C", f"""
        seen = []
        seen.append({{v}}){EFFECT}
        out = x * 2.0 + len(seen)
        """, main="twice", guard=True),
    Sink("counter", "C", f"""
        global CALLS
        CALLS += 1{EFFECT}
        out = x * {{v}}
        """, defs="CALLS = 0", main="report_calls"),
    Sink("attribute", "C", f"""
        STATS.count += 1{EFFECT}
        out = x * {{v}}
        """, defs=(
        """
        class Stats:
            def __init__(self):
                self.count = 0


        STATS = Stats()
        """), main="report_stats"),
    Sink("dict_write", "C", f"""
        CACHE["last"] = {{v}}{EFFECT}
        out = x * 2.0
        """, defs="CACHE = {}", main="report_cache"),
    Sink("randomness", "C", f"""
        noise = RNG.normal(){EFFECT}
        out = x * {{v}} + noise
        """, defs="RNG = np.random.default_rng(0)", main="report_rng"),
    Sink("jax_random", "C", f"""
        noise = jax.random.normal(jax.random.key(0)){EFFECT}
        out = x * {{v}} + noise
        """, main="twice", guard=True),
    Sink("inplace", "C", f"""
        out = x * {{v}}
        out[0] = 0.0{EFFECT}
        """),
    Sink("at_set", "C", f"""
        out = x * {{v}}
        out = out.at[0].set(0.0){EFFECT}
        """, guard=True),
    Sink("mutated_static", "C", f"out = x * {{v}} * SETTINGS.scale{EFFECT}", defs=(
        """
        class Scaling:
            def __init__(self, scale):
                self.scale = scale


        SETTINGS = Scaling(2.0)
        """), main="mutated_static"),
]


R_SINKS = [
    Sink("value_loop", "R", f"out = x * {{v}}{EFFECT}", needs_param=True, main="loop_values"),
    Sink("same_value_loop", "R", f"out = x * {{v}}{EFFECT}", needs_param=True, main="loop_same", guard=True),
    Sink("fresh_jit", "R", f"out = x * {{v}}{EFFECT}", main="fresh_jit"),
    Sink("weak_flip", "R", f"out = x * {{v}}{EFFECT}", main="weak_flip"),
    Sink("strong_start", "R", f"out = x * {{v}}{EFFECT}", main="strong_start", guard=True),
    Sink("shape_loop", "R", f"out = x * {{v}}{EFFECT}", main="shape_loop"),
    Sink("padded_loop", "R", f"out = x * {{v}}{EFFECT}", main="padded_loop", guard=True),
    Sink("batches", "R", f"out = x * {{v}}{EFFECT}", main="batches"),
    Sink("even_batches", "R", f"out = x * {{v}}{EFFECT}", main="even_batches", guard=True),
    Sink("convention", "R", f"out = x * {{v}}{EFFECT}", needs_param=True, main="convention"),
    # the same loops written as comprehensions
    Sink("value_comprehension", "R", f"out = x * {{v}}{EFFECT}", needs_param=True, main="loop_values", form="comprehension"),
    Sink("same_value_comprehension", "R", f"out = x * {{v}}{EFFECT}", needs_param=True, main="loop_same", guard=True, form="comprehension"),
    Sink("fresh_jit_comprehension", "R", f"out = x * {{v}}{EFFECT}", main="fresh_jit", form="comprehension"),
    Sink("shape_comprehension", "R", f"out = x * {{v}}{EFFECT}", main="shape_loop", form="comprehension"),
    Sink("padded_comprehension", "R", f"out = x * {{v}}{EFFECT}", main="padded_loop", guard=True, form="comprehension"),
]

SINKS = {"A": A_SINKS, "B": B_SINKS, "C": C_SINKS, "R": R_SINKS}


# -- transforms -------------------------------------------------------------------------------


@dataclass
class Transform:
    """``expr``: the expression that transforms a function named ``{f}`` (``{static}`` is the
    static-arguments keyword text, '' when none).  ``defs``: module-level helpers it needs.
    ``batched``: the kernel sees one row of a stacked ``x``.  ``jit``: the transform compiles on
    its own (a static slot means something)."""

    name: str
    expr: str
    defs: str = ""
    imports: Tuple[str, ...] = ()
    batched: bool = False
    jit: bool = False
    static_kw: str = ""  # how static arguments are spelt: 'jax' (static_argnames) or ''
    decorator: bool = False  # applied as a decorator on the kernel


_LOOP_BODY_NOTE = "The kernel is applied inside a loop body that JAX traces once."

TRANSFORMS = [
    Transform("jit", "jax.jit({f}{static})", jit=True, static_kw="jax"),
    Transform("jit_decorator", "jax.jit{static}", jit=True, static_kw="jax", decorator=True),
    Transform("partial_jit", "functools.partial(jax.jit{static})", jit=True, static_kw="partial", decorator=True),
    Transform("vmap", "jax.vmap({f}, in_axes=AXES)", batched=True),
    Transform("grad", "jax.grad({f})"),
    Transform("grad_jit", "jax.jit(jax.grad({f}){static})", jit=True, static_kw="jax"),
    Transform("scan", "scanned({f})", defs=(
        """
        def scanned(fn):
            \"\"\"Apply ``fn`` three times in a scan, shrinking the carry.\"\"\"
            def run(x, *args):
                def body(carry, _):
                    return carry * 0.5 + fn(carry, *args) * 0.1, None
                out, _ = lax.scan(body, x, None, length=3)
                return jnp.sum(out)
            return run
        """)),
    Transform("fori_loop", "iterated({f})", defs=(
        """
        def iterated(fn):
            \"\"\"Apply ``fn`` three times in a fori_loop.\"\"\"
            def run(x, *args):
                out = lax.fori_loop(0, 3, lambda i, carry: carry * 0.5 + fn(carry, *args) * 0.1, x)
                return jnp.sum(out)
            return run
        """)),
    Transform("while_loop", "until_done({f})", defs=(
        """
        def until_done(fn):
            \"\"\"Apply ``fn`` in a while_loop until three steps are done.\"\"\"
            def run(x, *args):
                def body(state):
                    i, carry = state
                    return i + 1, carry * 0.5 + fn(carry, *args) * 0.1
                _, out = lax.while_loop(lambda state: state[0] < 3, body, (0, x))
                return jnp.sum(out)
            return run
        """)),
    Transform("cond", "branched({f})", defs=(
        """
        def branched(fn):
            \"\"\"Apply ``fn`` in one branch of a lax.cond.\"\"\"
            def run(x, *args):
                out = lax.cond(jnp.sum(x) > 0, lambda t: t * 0.5 + fn(t, *args), lambda t: t, x)
                return jnp.sum(out)
            return run
        """)),
    Transform("switch", "switched({f})", defs=(
        """
        def switched(fn):
            \"\"\"Apply ``fn`` in one branch of a lax.switch.\"\"\"
            def run(x, *args):
                out = lax.switch(1, [lambda t: t, lambda t: t * 0.5 + fn(t, *args)], x)
                return jnp.sum(out)
            return run
        """)),
    Transform("checkpoint", "jax.checkpoint({f})"),
    Transform("checkpoint_jit", "jax.jit(jax.checkpoint({f}){static})", jit=True, static_kw="jax"),
    Transform("custom_jvp", "smooth({f})", defs=(
        """
        def smooth(fn):
            \"\"\"``fn`` with a hand-written derivative (the sum of the tangent).\"\"\"
            wrapped = jax.custom_jvp(fn)

            @wrapped.defjvp
            def _jvp(primals, tangents):
                return wrapped(*primals), jnp.sum(tangents[0])

            return wrapped
        """)),
    Transform("filter_jit", "eqx.filter_jit({f})", imports=("import equinox as eqx",), jit=True),
    Transform("filter_vmap", "eqx.filter_vmap({f}, in_axes=AXES)", imports=("import equinox as eqx",), batched=True),
    Transform("nnx_jit", "nnx.jit({f}{static})", imports=("from flax import nnx",), jit=True, static_kw="jax"),
    Transform("none", "{f}"),
]


# -- carriers ---------------------------------------------------------------------------------


@dataclass
class Carrier:
    """How ``main`` reaches the transformed kernel.  ``defs`` (with ``{expr}``, the transformed
    kernel, and ``{params}``/``{args}``) define a callable; ``setup`` is the line in ``main`` that
    obtains it, as ``run``."""

    name: str
    defs: str
    setup: str = ""
    imports: Tuple[str, ...] = ()
    holds_step: bool = False  # the compiled step is kept in an object's field


CARRIERS = [
    Carrier("direct", "run = {expr}"),
    Carrier("wrapper", (
        """
        step = {expr}


        def run({params}):
            \"\"\"Forward to the compiled step.\"\"\"
            return step({args})
        """)),
    Carrier("two_wrappers", (
        """
        step = {expr}


        def apply_step({params}):
            return step({args})


        def run({params}):
            \"\"\"Forward through a helper.\"\"\"
            return apply_step({args})
        """)),
    Carrier("method", (
        """
        step = {expr}


        class Runner:
            \"\"\"Holds the step and applies it.\"\"\"

            def apply(self, {params}):
                return step({args})
        """), setup="run = Runner().apply"),
    Carrier("call_method", (
        """
        class Runner:
            \"\"\"Builds the step once, in ``__init__``.\"\"\"

            def __init__(self):
                self._step = {expr}

            def __call__(self, {params}):
                return self._step({args})
        """), setup="run = Runner()"),
    Carrier("factory", (
        """
        def make_runner():
            \"\"\"Return a function that applies the step.\"\"\"
            step = {expr}

            def run({params}):
                return step({args})

            return run
        """), setup="run = make_runner()"),
    Carrier("callable_arg", (
        """
        step = {expr}


        def apply_with(fn, {params}):
            \"\"\"Apply the given function.\"\"\"
            return fn({args})
        """), setup="run = functools.partial(apply_with, step)"),
    Carrier("field", (
        """
        class Stepper(NamedTuple):
            \"\"\"Carries the compiled step and its name.\"\"\"

            step: Callable
            name: str


        STEPPER = Stepper({expr}, "main")


        def run({params}):
            \"\"\"Apply the carried step.\"\"\"
            return STEPPER.step({args})
        """), imports=("from typing import Callable, NamedTuple",), holds_step=True),
    Carrier("list_element", (
        """
        class Stage:
            \"\"\"One stage of a pipeline: applies its step.\"\"\"

            def __init__(self, step):
                self.step = step

            def __call__(self, {params}):
                return self.step({args})


        class Pipeline:
            \"\"\"Runs its stages in order.\"\"\"

            def __init__(self):
                self.stages = [Stage({expr})]

            def __call__(self, {params}):
                for stage in self.stages:
                    out = stage({args})
                return out
        """), setup="run = Pipeline()", holds_step=True),
]


# -- main: how the calls are made --------------------------------------------------------------

X_FLAT = "jnp.arange(1.0, 5.0)"
X_BATCH = "jnp.stack([jnp.arange(1.0, 5.0), jnp.arange(2.0, 6.0)])"


def fmt(expr: str) -> str:
    return f"float(jnp.sum({expr}))"


@dataclass
class Program:
    """One composed program and what is known about its text."""

    category: str
    parts: List[str]
    source: str
    effect_lines: List[int]


GUARD_SHARE = 0.2  # the share of programs whose sink is a guard (its correct form)
COMPILED_SHARE = 0.4  # the share drawn among the compiling transforms only (else among all)


class Composer:
    """Builds the text of one program from one of each part."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, category: str) -> Program:
        for _ in range(200):
            guards = [s for s in SINKS[category] if s.guard]
            others = [s for s in SINKS[category] if not s.guard]
            sink = self.rng.choice(guards if self.rng.random() < GUARD_SHARE else others)
            src = self.rng.choice([s for s in sources(sink.kind)])
            # half of the transforms compile (jit and its variants), half do not or only stage
            compiled = [t for t in TRANSFORMS if t.jit]
            tr = self.rng.choice(compiled if self.rng.random() < COMPILED_SHARE else TRANSFORMS)
            car = self.rng.choice(CARRIERS)
            prog = compose(category, src, sink, tr, car, self.rng)
            if prog is not None:
                return prog
        raise RuntimeError("no composition")


def _kernel_params(src: Source, sink: Sink) -> List[str]:
    return ["x"] + ([src.param] if src.param and "=" not in src.param else [])


def compose(category: str, src: Source, sink: Sink, tr: Transform, car: Carrier, rng: random.Random) -> Optional[Program]:
    """The program for this choice of parts, or None when they do not fit together (a sink that
    needs the value passed by callers, and a source that does not pass it)."""
    passes = bool(src.param) and "=" not in src.param
    if sink.needs_param and not passes:
        return None
    if sink.static and not tr.static_kw:
        return None
    if sink.main in ("method_self", "method_self_static") and not tr.jit:
        return None
    if sink.main == "eqx_static_array" and tr.name not in ("filter_jit", "jit", "jit_decorator"):
        return None
    if sink.main in ("weak_flip", "strong_start", "shape_loop", "padded_loop", "batches", "even_batches") and tr.batched:
        return None
    if src.kernel_wrap == "method" and (sink.main.startswith("method_self") or tr.decorator):
        return None
    if sink.main == "fresh_jit" and (tr.decorator or car.name == "callable_arg" or car.holds_step):
        return None  # the transform is applied at the call: there is no compiled step to pass or keep
    if sink.main in ("weak_flip", "strong_start") and src.name == "helper_shape":
        return None  # the carried value is a scalar: it has no first dimension
    if sink.main == "convention" and not passes:
        return None
    imports = {"import functools", "import jax", "import jax.numpy as jnp", "import numpy as np", "from jax import lax"}
    imports.update(src.imports)
    imports.update(tr.imports)
    imports.update(car.imports)
    if sink.main == "eqx_static_array":
        imports.add("import equinox as eqx")
    v = src.read
    params = _kernel_params(src, sink)
    kparams = ["x"] + ([src.param] if src.param else [])
    # static slot of the value (B sinks and R value loops ask for one; guards keep it hashable)
    static_names: Tuple[str, ...] = ()
    if (sink.static or sink.main in ("loop_values", "loop_same")) and passes and tr.static_kw:
        static_names = (src.param,)
    static_txt = ""
    if static_names:
        static_txt = f", static_argnames=({static_names[0]!r},)"
    if tr.decorator and tr.name == "jit_decorator" and static_txt:
        # ``@jax.jit`` cannot take arguments: spell it as a partial
        head = f"functools.partial(jax.jit{static_txt})"
    elif tr.decorator:
        head = tr.expr.format(static=static_txt, f="")
    else:
        head = None
    body_lines = block(src.prelude) + block(sink.body.format(v=v))
    body_lines.append("return jnp.sum(out)")

    out: List[str] = []
    out += sorted(i for i in imports if i.startswith("import"))
    out += sorted(i for i in imports if i.startswith("from"))
    out += ["", ""]

    def section(text: str):
        if text and text.strip():
            out.extend(block(text))
            out.extend(["", ""])

    section(src.defs)
    section(sink.defs)
    section(tr.defs)
    if tr.batched:
        axes = "(0, None)" if passes else "(0,)"
        section(f"AXES = {axes}")

    kname = "kernel"
    if src.kernel_wrap == "closure":
        lit = "0.75" if sink.kind == "f" else "3"
        out.append("def make_kernel(limit):")
        out.append('    """Close the kernel over its limit."""')
        out.append("")
        if head:
            out.append(f"    @{head}")
        out.append(f"    def kernel({', '.join(kparams)}):")
        out.extend("        " + l if l else "" for l in body_lines)
        out.append("")
        out.append("    return kernel")
        out += ["", ""]
        out.append(f"kernel_fn = make_kernel({lit})")
        out += ["", ""]
        kname = "kernel_fn"
    elif src.kernel_wrap == "method":
        lit = "0.75" if sink.kind == "f" else "3"
        out.append("class Model:")
        out.append('    """Keeps its limit from construction."""')
        out.append("")
        out.append("    def __init__(self, limit):")
        out.append("        self.limit = limit")
        out.append("")
        out.append(f"    def kernel({', '.join(['self'] + kparams)}):")
        out.extend("        " + l if l else "" for l in body_lines)
        out += ["", ""]
        out.append(f"MODEL = Model({lit})")
        out += ["", ""]
        kname = "MODEL.kernel"
    elif src.kernel_wrap == "partial":
        lit = "0.75" if sink.kind == "f" else "3"
        if head:
            return None  # a decorator applies to the function, the partial is made after
        out.append(f"def kernel({', '.join(kparams + ['limit'])}):")
        out.extend("    " + l if l else "" for l in body_lines)
        out += ["", ""]
        out.append(f"kernel_fn = functools.partial(kernel, limit={lit})")
        out += ["", ""]
        kname = "kernel_fn"
    else:
        if head:
            out.append(f"@{head}")
        out.append(f"def kernel({', '.join(kparams)}):")
        out.extend("    " + l if l else "" for l in body_lines)
        out += ["", ""]

    expr = kname if head else tr.expr.format(f=kname, static=static_txt)
    if sink.main == "fresh_jit":
        if tr.name not in ("jit", "grad_jit", "checkpoint_jit", "filter_jit", "nnx_jit"):
            return None
    call_params = ", ".join(params)
    args = ", ".join(params)
    carrier_text = car.defs.format(expr=expr, params=call_params, args=args)
    if sink.main == "fresh_jit":
        carrier_text = fresh_carrier(car.defs).format(expr=expr, params=call_params, args=args)
    section(carrier_text)

    main = main_body(sink, src, tr, car, passes)
    if main is None:
        return None
    out.append("def main():")
    if car.setup:
        out.append(f"    {car.setup}")
    out.extend("    " + l if l else "" for l in block(main))
    out += ["", ""]
    out.append('if __name__ == "__main__":')
    out.append("    main()")
    text = "\n".join(out) + "\n"
    # collapse runs of blank lines left by empty sections
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    effect = []
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        if line.endswith(EFFECT):
            effect.append(i)
            lines[i - 1] = line[: -len(EFFECT)]
    text = "\n".join(lines) + "\n"
    parts = [f"source:{src.name}", f"carrier:{car.name}", f"transform:{tr.name}", f"sink:{sink.name}"]
    if sink.guard:
        parts.append(f"guard:{sink.name}")
    return Program(category, parts, text, effect)


def fresh_carrier(defs: str) -> str:
    """The carrier with the transform applied at the call, every time, instead of once."""
    defs = re.sub(r"\n *step = \{expr\}\n", "\n", defs)
    defs = defs.replace("self._step = {expr}", "self.calls = 0")
    defs = defs.replace("self._step({args})", "{expr}({args})")
    defs = re.sub(r"(?<![\w.])step\(\{args\}\)", "{expr}({args})", defs)
    defs = defs.replace("run = {expr}", "def run({params}):\n    return {expr}({args})")
    return defs


def main_body(sink: Sink, src: Source, tr: Transform, car: Carrier, passes: bool) -> Optional[str]:
    """The statements of ``main`` for the sink's call pattern."""
    x = X_BATCH if tr.batched else X_FLAT
    arg = src.arg if passes else ""
    call = lambda xs, a=arg: f"run({xs}{', ' + a if a else ''})"  # noqa: E731
    m = sink.main
    if m == "twice":
        return f"""
            x = {x}
            first = {call('x')}
            second = {call('x + 1.0')}
            print({fmt('first')}, {fmt('second')})
            """
    if m == "twice_print":
        return f"""
            x = {x}
            for _ in range(3):
                result = {call('x')}
            print({fmt('result')})
            """
    if m == "report_history":
        return f"""
            x = {x}
            for _ in range(3):
                result = {call('x')}
            print("recorded", len(HISTORY), {fmt('result')})
            """
    if m == "report_calls":
        return f"""
            x = {x}
            for _ in range(3):
                result = {call('x')}
            print("calls", CALLS, {fmt('result')})
            """
    if m == "report_stats":
        return f"""
            x = {x}
            for _ in range(3):
                result = {call('x')}
            print("count", STATS.count, {fmt('result')})
            """
    if m == "report_cache":
        return f"""
            x = {x}
            for _ in range(3):
                result = {call('x')}
            print("cached", CACHE.get("last"), {fmt('result')})
            """
    if m == "report_rng":
        return f"""
            x = {x}
            first = {call('x')}
            second = {call('x + 1.0')}
            print({fmt('first')}, {fmt('second')}, "next draw", RNG.random())
            """
    if m == "global_read":
        return f"""
            global SCALE
            x = {x}
            before = {call('x')}
            SCALE = 3.0
            after = {call('x')}
            print({fmt('before')}, {fmt('after')})
            """
    if m == "mutated_static":
        return f"""
            x = {x}
            before = {call('x')}
            SETTINGS.scale = 3.0
            after = {call('x')}
            print({fmt('before')}, {fmt('after')})
            """
    if m in ("static_list", "static_tuple", "static_dict", "static_array"):
        if src.name not in ("param", "param_array", "numpy_param"):
            return None
        value = {"static_list": "[2.0, 3.0]", "static_tuple": "(2.0, 3.0)", "static_dict": '{"scale": 2.0}',
                 "static_array": "jnp.asarray(2.0)"}[m]
        return f"""
            x = {x}
            widths = {value}
            result = {call('x', 'widths')}
            print({fmt('result')})
            """
    if m in ("method_self", "method_self_static"):
        return None  # built by compose_method (see below)
    if m == "eqx_static_array":
        return None
    if m in ("loop_values", "loop_same"):
        if src.name not in ("param",):
            return None
        values = "[0.5, 1.0, 1.5]" if m == "loop_values" else "[0.5, 0.5, 0.5]"
        if sink.form == "comprehension":
            return f"""
            x = {x}
            sums = [jnp.sum({call('x', 'limit')}) for i, limit in enumerate({values})]
            print(float(sum(sums)))
            """
        return f"""
            x = {x}
            total = 0.0
            for i, limit in enumerate({values}):
                total = total + jnp.sum({call('x', 'limit')})
            print(float(total))
            """
    if m == "fresh_jit" and sink.form == "comprehension":
        return f"""
            x = {x}
            sums = [jnp.sum({call('x')}) for _ in range(3)]
            print(float(sum(sums)))
            """
    if m == "fresh_jit":
        return f"""
            x = {x}
            total = 0.0
            for _ in range(3):
                total = total + jnp.sum({call('x')})
            print(float(total))
            """
    if m in ("weak_flip", "strong_start"):
        start = "0.0" if m == "weak_flip" else "jnp.zeros(())"
        return f"""
            acc = {start}
            for _ in range(3):
                acc = {call('acc')}
            print(float(acc))
            """
    if m in ("shape_loop", "padded_loop"):
        piece = "x[:n]" if m == "shape_loop" else "jnp.where(jnp.arange(4) < n, x, 0.0)"
        if sink.form == "comprehension":
            return f"""
            x = {x}
            sums = [jnp.sum({call(piece)}) for n in range(2, 5)]
            print(float(sum(sums)))
            """
        return f"""
            x = {x}
            total = 0.0
            for n in range(2, 5):
                total = total + jnp.sum({call(piece)})
            print(float(total))
            """
    if m in ("batches", "even_batches"):
        size = 10 if m == "batches" else 12
        return f"""
            data = jnp.arange({size}.0)
            batch_size = 4
            total = 0.0
            for start in range(0, data.shape[0], batch_size):
                total = total + jnp.sum({call('data[start:start + batch_size]')})
            print(float(total))
            """
    if m == "convention":
        return f"""
            x = {x}
            {src.param} = {arg}
            first = run(x, {src.param})
            second = run(x, {src.param}={src.param})
            print({fmt('first')}, {fmt('second')})
            """
    raise ValueError(m)
