"""Side effects reached from traced code through helpers, aliases and forwarded arguments: the
findings name the traced entry point, and the look-alikes stay silent.  fixtures/
effects_call_chains.py checks the same shapes under JAX."""

import textwrap

from fixture_units import rule_config
from jaxlint import lint_source

HEADER = "import collections\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\nimport optax\n"


def findings(src):
    return [(f.line, f.code, f.message) for f in lint_source(HEADER + textwrap.dedent(src), "m.py", rule_config()).findings]


def codes(src):
    return [(line, code) for line, code, _ in findings(src)]


def test_helper_message_names_the_entry_point():
    (found,) = findings(
        """
        HISTORY = []

        def add_to(store, x):
            store.append(x)

        @jax.jit
        def step(x):
            add_to(HISTORY, x)
            return x
        """
    )
    assert found[:2] == (10, "JAX303")
    assert "`store.append()` on outer `HISTORY` in add_to(), called with traced values from jitted step()" in found[2]


def test_alias_written_through_is_not_a_read_of_the_global():
    # The host empties HISTORY between calls, but the traced code only appends to it.
    assert codes(
        """
        HISTORY = []

        @jax.jit
        def step(x):
            buf = HISTORY
            buf.append(x)
            return x

        def loop(x):
            for _ in range(3):
                step(x)
                HISTORY.clear()
        """
    ) == [(12, "JAX303")]


def test_alias_read_as_a_value_is_a_read_of_the_global():
    assert codes(
        """
        TABLE = {"scale": 1.0}

        @jax.jit
        def step(x):
            t = TABLE
            return x * t["scale"]

        def loop(x):
            for i in range(3):
                step(x)
                TABLE["scale"] = float(i)
        """
    ) == [(11, "JAX301")]


def test_global_passed_to_a_helper_that_reads_it():
    assert codes(
        """
        VOCAB = ["a"]

        def size(words):
            return len(words)

        @jax.jit
        def pad(x):
            return jnp.zeros(size(VOCAB)) + x

        def loop(x):
            for w in "bc":
                pad(x)
                VOCAB.append(w)
        """
    ) == [(14, "JAX301")]


def test_local_state_passed_to_helpers_is_fine():
    assert codes(
        """
        def add_to(store, x):
            store.append(x)

        def forward(*args, **kwargs):
            return add_to(*args, **kwargs)

        @jax.jit
        def step(x):
            parts = []
            add_to(parts, x)
            forward(parts, x=x * 2)
            counts = {"n": 0}
            counts["n"] += 1
            return jnp.stack(parts).sum() * counts["n"]
        """
    ) == []


def test_kwargs_forwarded_to_a_helper_that_mutates_a_global():
    assert codes(
        """
        LOG = {}

        def put(key, value):
            LOG[key] = value

        def forward(**kwargs):
            put(**kwargs)

        @jax.jit
        def step(x):
            forward(key="x", value=x)
            return x
        """
    ) == [(10, "JAX303")]


def test_update_on_an_object_that_is_not_a_container():
    # optax's update returns new state: no mutation, even with traced arguments.
    assert codes(
        """
        OPT = optax.adam(1e-3)

        @jax.jit
        def step(grads, state):
            return OPT.update(grads, state)
        """
    ) == []


def test_records_kept_past_the_trace_and_values_taken_out_run_once_per_trace():
    assert codes(
        """
        SHAPES = []
        RATES = collections.deque([0.1, 0.01])

        @jax.jit
        def step(x):
            SHAPES.append(x.shape)
            return x * RATES.popleft()
        """
    ) == [(12, "JAX303"), (13, "JAX303")]


def test_records_made_again_with_each_trace_or_popped_in_it_stay_silent():
    assert codes(
        """
        STACK = []

        def scan_with_shapes(xs):
            shapes = []  # a new list for each trace of the body

            def body(carry, x):
                shapes.append(jnp.shape(carry))
                return carry + x, carry

            return jax.lax.scan(body, jnp.zeros(()), xs), shapes

        @jax.jit
        def scoped(x):
            STACK.append("scoped")  # pushed and popped within the trace
            y = x * len(STACK)
            STACK.pop()
            return y

        @jax.vmap
        def per_call(x):
            STACK.append(1)  # vmap alone traces on every call
            return x

        WARNED = set()
        CACHE = {}

        @jax.jit
        def warn_once(x, key="scale"):
            if key not in WARNED:
                WARNED.add(key)  # the same key again changes nothing
            CACHE.setdefault(key, 2.0)
            return x * CACHE[key]
        """
    ) == []


def test_host_generator_draw_and_seed():
    assert codes(
        """
        RNG = np.random.default_rng(0)

        def jitter():
            RNG.bit_generator
            return RNG.uniform()

        @jax.jit
        def step(x):
            return x + jitter()
        """
    ) == [(11, "JAX306")]


def test_global_key_never_changed_is_not_frozen_state():
    # The same key gives the same numbers with or without jit: nothing is frozen by tracing.
    assert codes(
        """
        KEY = jax.random.PRNGKey(0)

        def init(shape):
            return jax.random.normal(KEY, shape)

        @jax.jit
        def make(x):
            return x + init(x.shape)
        """
    ) == []


def test_key_lookup_in_forwarded_kwargs_is_a_python_bool():
    # **kwargs now keeps what was passed (a traced value here); ``name in kwargs`` still only
    # looks at the keys.
    assert codes(
        """
        def tree_set(tree, **kwargs):
            def replace(node):
                if node.__class__.__name__ in kwargs:
                    return kwargs[node.__class__.__name__]
                return node
            return jax.tree_util.tree_map(replace, tree)

        @jax.jit
        def set_lr(state, lr):
            return tree_set(state, learning_rate=lr)
        """
    ) == []
