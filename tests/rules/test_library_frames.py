"""Writes to a library's frame from inside a plain JAX trace (JAX303) on small sources: Linen
modules (whose leaks the oracle cannot watch: a Linen module is made anew by each ``init``, so
the write runs on every call, and the leak shows only at ``apply``) and the ways Haiku code
reaches a module (an attribute set from a constructor's argument, a dataclass field, a list of
layers).  Each source also runs under JAX: ``init`` then ``apply`` with the outputs used; the
flagged ones raise UnexpectedTracerError, the others run."""

import textwrap

import pytest

from jaxlint import lint_source
from jaxlint.config import Config
from markers import actual, describe, expected_markers

_LINEN = """
    import flax.linen as nn
    import jax
    import jax.numpy as jnp
    from jax.experimental.ode import odeint
"""

_HAIKU = """
    import dataclasses

    import haiku as hk
    import jax
    import jax.numpy as jnp
"""

LINEN_BAD = {
    "submodule_in_odeint": """
        class ODEBlock(nn.Module):
            @nn.compact
            def __call__(self, y0):
                dynamics = nn.Dense(3)

                def f(y, t):
                    return jnp.tanh(dynamics(y))  # error: JAX303

                return odeint(f, y0, jnp.array([0.0, 1.0]))[-1]


        MODEL = ODEBlock()
    """,
    "sow_under_jit": """
        class Probe(nn.Module):
            @nn.compact
            def __call__(self, x):
                h = nn.Dense(3)(x)

                def record(y):
                    self.sow("intermediates", "h", y)  # error: JAX303
                    return y * 2

                return jax.jit(record)(h)


        MODEL = Probe()
    """,
    "setup_submodule_under_checkpoint": """
        class Block(nn.Module):
            def setup(self):
                self.dense = nn.Dense(3)

            def body(self, x):
                return jax.nn.relu(self.dense(x))  # error: JAX303

            def __call__(self, x):
                return jax.checkpoint(self.body)(x)


        MODEL = Block()
    """,
    "variable_written_in_scan": """
        class Counter(nn.Module):
            @nn.compact
            def __call__(self, x):
                count = self.variable("stats", "count", jnp.zeros, ())

                def body(c, _):
                    count.value = count.value + 1.0  # error: JAX303
                    return c, None

                return jax.lax.scan(body, x, jnp.arange(2))[0]


        MODEL = Counter()
    """,
}

LINEN_GOOD = {
    "lifted_remat_and_scan": """
        class Block(nn.Module):
            @nn.compact
            def __call__(self, x):
                x = nn.remat(nn.Dense)(3)(x)
                step = nn.scan(
                    lambda mdl, c, _: (mdl(c), None),
                    variable_broadcast="params",
                    split_rngs={"params": False},
                    length=2,
                )
                return step(nn.Dense(3), x, None)[0]


        MODEL = Block()
    """,
    "make_rng_under_jit": """
        class Noisy(nn.Module):
            @nn.compact
            def __call__(self, x):
                return jax.jit(lambda y: y + jax.random.uniform(self.make_rng("noise")))(x)


        MODEL = Noisy()
    """,
    "parameters_declared_before_the_trace": """
        class ODEBlock(nn.Module):
            @nn.compact
            def __call__(self, y0):
                kernel = self.param("kernel", nn.initializers.lecun_normal(), (y0.shape[-1], 3))

                def f(y, t):
                    return jnp.tanh(y @ kernel)

                return odeint(f, y0, jnp.array([0.0, 1.0]))[-1]


        MODEL = ODEBlock()
    """,
    "submodule_called_before_the_trace": """
        class Twice(nn.Module):
            @nn.compact
            def __call__(self, x):
                dense = nn.Dense(3)
                x = dense(x)
                return jax.jit(lambda y: dense(y))(x)


        MODEL = Twice()
    """,
}

HAIKU_BAD = {
    "attribute_from_constructor_in_fori_loop": """
        class Flow:
            def __init__(self, fn):
                self._fn = fn

            def forward(self, x):
                def body(i, y):
                    return self._fn(y)

                return jax.lax.fori_loop(0, 2, body, x)


        def net(y):
            return hk.nets.MLP([3])(y)  # error: JAX303


        def forward(x):
            return Flow(net).forward(x)
    """,
    "dataclass_field_and_layer_list_in_scan": """
        @dataclasses.dataclass
        class Term:
            field: object

            def vf(self, y):
                return self.field(y)


        class Func(hk.Module):
            def __init__(self):
                super().__init__()
                self.layers = [hk.Linear(3), jax.nn.relu]

            def __call__(self, y):
                for layer in self.layers:
                    y = layer(y)  # error: JAX303
                return y


        def forward(x):
            term = Term(Func())
            return jax.lax.scan(lambda c, _: (term.vf(c), None), x, jnp.arange(2))[0]
    """,
    "factory_result_under_jit": """
        def make_layer():
            return hk.Linear(3)


        def forward(x):
            layer = make_layer()
            return jax.jit(lambda y: layer(y))(x)  # error: JAX303
    """,
    "branch_list_of_switch": """
        def forward(x):
            return jax.lax.switch(1, [lambda y: y, lambda y: hk.Linear(3)(y)], x)  # error: JAX303
    """,
}

HAIKU_GOOD = {
    "module_without_parameters_under_jit": """
        def forward(x):
            return jax.jit(lambda y: hk.Flatten()(y))(x)
    """,
    "state_read_in_scan": """
        def forward(x):
            def step(c, _):
                return c * hk.get_state("scale", [], init=jnp.ones), None

            return jax.lax.scan(step, x, jnp.arange(2))[0]
    """,
    "lifted_vmap": """
        def forward(x):
            return hk.vmap(lambda row: hk.Linear(3)(row), split_rng=False)(x)
    """,
}


def _text(head, src):
    return textwrap.dedent(head).lstrip("\n") + "\n\n" + textwrap.dedent(src).lstrip("\n")


SOURCES = [(name, _text(_LINEN, src), "linen", True) for name, src in LINEN_BAD.items()]
SOURCES += [(name, _text(_LINEN, src), "linen", False) for name, src in LINEN_GOOD.items()]
SOURCES += [(name, _text(_HAIKU, src), "haiku", True) for name, src in HAIKU_BAD.items()]
SOURCES += [(name, _text(_HAIKU, src), "haiku", False) for name, src in HAIKU_GOOD.items()]
IDS = [s[0] for s in SOURCES]


@pytest.mark.parametrize("name,src,library,bad", SOURCES, ids=IDS)
def test_findings(name, src, library, bad):
    findings = lint_source(src, "example.py", Config(preview=True)).findings
    want, _ = expected_markers(src)
    got = actual(findings)
    assert got == want, f"missing {describe(want - got)}; unexpected {describe(got - want, findings)}"
    assert bool(want) == bad


def test_message_names_the_call_and_the_lifted_transform():
    text = _text(_HAIKU, HAIKU_BAD["dataclass_field_and_layer_list_in_scan"])
    (f,) = lint_source(text, "example.py", Config(preview=True)).findings
    assert f.message.startswith("`layer()` creates parameters in hk.transform's frame from inside `jax.lax.scan`")
    assert f.fix.startswith("use hk.scan instead of scan")


def _run(text, library):
    import jax

    namespace = {}
    exec(compile(text, "example.py", "exec"), namespace)
    key = jax.random.PRNGKey(0)
    x = jax.numpy.ones((2, 3))
    use = lambda tree: jax.tree.map(lambda a: a + 1, tree)  # noqa: E731
    if library == "haiku":
        import haiku as hk

        t = hk.transform_with_state(namespace["forward"])
        params, state = t.init(key, x)
        use(t.apply(params, state, key, x))
        return
    model = namespace["MODEL"]
    rngs = {"params": key, "noise": key}
    variables = model.init(rngs, x)
    use(model.apply(variables, x, rngs={"noise": key}, mutable=["stats", "intermediates"]))


@pytest.mark.slow
@pytest.mark.parametrize("name,src,library,bad", SOURCES, ids=IDS)
def test_jax_agrees(name, src, library, bad):
    pytest.importorskip(library if library == "haiku" else "flax")
    import jax

    if bad:
        with pytest.raises(jax.errors.UnexpectedTracerError):
            _run(src, library)
    else:
        _run(src, library)
