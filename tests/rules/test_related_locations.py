"""A finding lands on the line the user edits; its related locations show the rest.

Frozen state: a capture (JAX301) is reported at the read inside the traced function, with every
write that changes the value, in source order; a changed static object (JAX307) is reported at
the write, with the call the function was compiled at, the forwarding calls down to the jitted
function, and the read the compiled function keeps.  Wrappers: a recompilation judged at a
wrapper's call carries each forwarding call, from the user's call down to the jitted callable.

Each case asserts the exact (line, column, message) of every related location."""

import textwrap

from fixture_units import rule_config
from jaxlint.engine import lint_source


def _findings(src):
    return lint_source(textwrap.dedent(src), "example.py", rule_config()).findings


def _related(f):
    return [(r["line"], r["column"], r["message"]) for r in f.related or ()]


def _one(src, code):
    (f,) = [f for f in _findings(src) if f.code == code]
    return f


def test_module_global_rebound_in_a_function_and_at_module_level():
    f = _one(
        """
        import jax
        import jax.numpy as jnp

        lr = 0.1


        @jax.jit
        def step(w):
            return w - lr * w


        def decay():
            global lr
            lr = lr * 0.5


        def train(w):
            for _ in range(3):
                w = step(w)
                decay()
            return w


        w = step(jnp.ones(3))
        lr = 0.01
        w = step(w)
        """,
        "JAX301",
    )
    assert (f.line, f.column) == (10, 16)  # the read: the line where `lr` becomes an argument
    assert _related(f) == [(15, 5, "`lr` gets a new value here"), (26, 1, "`lr` gets a new value here")]


def test_module_container_appended_to_after_a_call():
    f = _one(
        """
        import jax
        import jax.numpy as jnp

        HISTORY = [1.0]


        @jax.jit
        def step(w):
            return w * len(HISTORY)


        w = step(jnp.ones(3))
        HISTORY.append(2.0)
        w = step(w)
        HISTORY.extend([3.0, 4.0])
        w = step(w)
        """,
        "JAX301",
    )
    assert (f.line, f.column) == (10, 20)
    assert _related(f) == [(14, 1, "`HISTORY` is changed here"), (16, 1, "`HISTORY` is changed here")]


def test_attribute_of_a_module_object_set_by_a_setter_and_at_module_level():
    f = _one(
        """
        import jax
        import jax.numpy as jnp


        class Config:
            def __init__(self):
                self.scale = 2.0


        CFG = Config()


        @jax.jit
        def step(w):
            return w * CFG.scale


        def set_scale(s):
            CFG.scale = s


        w = step(jnp.ones(3))
        CFG.scale = 3.0
        w = step(w)
        set_scale(4.0)
        w = step(w)
        """,
        "JAX301",
    )
    assert (f.line, f.column) == (16, 16)
    # in source order: the setter's body comes first, then the module's own write
    assert _related(f) == [(20, 5, "`CFG.scale` is changed here"), (24, 1, "`CFG.scale` is changed here")]


def test_the_initial_value_and_writes_before_the_first_call_are_not_listed():
    f = _one(
        """
        import jax
        import jax.numpy as jnp

        lr = 0.1
        lr = 0.2


        @jax.jit
        def step(w):
            return w - lr * w


        w = step(jnp.ones(3))
        lr = 0.01
        w = step(w)
        """,
        "JAX301",
    )
    assert _related(f) == [(15, 1, "`lr` gets a new value here")]


STATIC_SELF = """
from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale

    def gain(self):
        return self.scale * 2

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        return x * self.gain()

    def set_scale(self, s):
        self.scale = s


model = Model(2.0)
y = model(jnp.ones(3))
model.scale = 3.0
y = model(jnp.ones(3))
model.set_scale(4.0)
y = model(jnp.ones(3))
"""


def test_static_self_changed_directly_and_by_a_method():
    by_line = {f.line: f for f in _findings(STATIC_SELF) if f.code == "JAX307"}
    assert sorted(by_line) == [20, 25]
    # the write at module level: compiled here, and read (through the helper) at trace time
    assert (by_line[25].line, by_line[25].column) == (25, 1)
    assert _related(by_line[25]) == [
        (24, 5, "jitted Model.__call__() is compiled for `model` here"),
        (13, 16, "`self.scale` is read here at trace time"),
    ]
    # the write in the method also shows the call of the method that makes it
    assert (by_line[20].line, by_line[20].column) == (20, 9)
    assert _related(by_line[20]) == [
        (24, 5, "jitted Model.__call__() is compiled for `model` here"),
        (27, 1, "the method that changes it is called here"),
        (13, 16, "`self.scale` is read here at trace time"),
    ]


def test_static_object_through_two_wrappers():
    f = _one(
        """
        from functools import partial

        import jax
        import jax.numpy as jnp


        class Config:
            def __init__(self, scale):
                self.scale = scale


        @partial(jax.jit, static_argnums=1)
        def apply(x, cfg):
            return x * cfg.scale


        def forward(x, cfg):
            return apply(x, cfg)


        def predict(x, cfg):
            return forward(x, cfg)


        def main():
            cfg = Config(2.0)
            y = predict(jnp.ones(3), cfg)
            cfg.scale = 3.0
            y = predict(jnp.ones(3), cfg)
            return y
        """,
        "JAX307",
    )
    assert (f.line, f.column) == (29, 5)
    assert _related(f) == [
        (28, 9, "jitted apply() is compiled for `cfg` here"),
        (23, 12, "forwarded here"),
        (19, 12, "the call above reaches jitted apply() here"),
        (15, 16, "`cfg.scale` is read here at trace time"),
    ]


def test_static_object_stored_by_init_and_passed_on_by_a_method():
    f = _one(
        """
        from functools import partial

        import jax
        import jax.numpy as jnp


        class Config:
            def __init__(self, scale):
                self.scale = scale


        @partial(jax.jit, static_argnums=1)
        def forward(x, cfg):
            return x * cfg.scale


        class Runner:
            def __init__(self, cfg):
                self.cfg = cfg

            def apply(self, x):
                return forward(x, self.cfg)


        def main():
            cfg = Config(1.0)
            runner = Runner(cfg)
            out = runner.apply(jnp.ones(2))
            cfg.scale = 5.0
            out = runner.apply(jnp.ones(2))
            return out
        """,
        "JAX307",
    )
    assert (f.line, f.column) == (30, 5)
    assert _related(f) == [
        (29, 11, "jitted forward() is compiled for `cfg` here"),
        (23, 16, "the call above reaches jitted forward() here"),
        (15, 16, "`cfg.scale` is read here at trace time"),
    ]


def test_changing_shape_through_two_wrappers():
    f = _one(
        """
        import jax
        import jax.numpy as jnp


        @jax.jit
        def scale(x):
            return x * 2


        def inner(x):
            return scale(x)


        def outer(x):
            return inner(x)


        def shapes():
            for n in range(1, 5):
                y = outer(jnp.ones(n))
            return y
        """,
        "JAX205",
    )
    assert (f.line, f.column) == (21, 19)  # the argument the user pads or buckets
    assert _related(f) == [(16, 12, "forwarded here"), (12, 12, "forwarded to scale() here")]


METHOD_WRAPPER = """
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self._step = jax.jit(self.update, static_argnums=1)

    def update(self, x, k):
        return x * k

    def step(self, x, k):
        return self._step(x, k)


def run():
    t = Trainer()
    x = jnp.ones(3)
    for k in range(4):
        x = t.step(x, k)
    for n in range(1, 4):
        x2 = t.step(jnp.ones(n), 1)
    return x, x2
"""


def test_method_wrapper_of_a_jit_stored_on_self_in_init():
    by_code = {f.code: f for f in _findings(METHOD_WRAPPER)}
    assert sorted(by_code) == ["JAX204", "JAX205"]
    static, shape = by_code["JAX204"], by_code["JAX205"]
    assert (static.line, static.column) == (21, 23)
    assert _related(static) == [(14, 16, "forwarded to update() here")]
    assert (shape.line, shape.column) == (23, 21)
    assert _related(shape) == [(14, 16, "forwarded to update() here")]


def test_changing_static_value_through_two_wrappers():
    f = _one(
        """
        from functools import partial

        import jax
        import jax.numpy as jnp


        @partial(jax.jit, static_argnums=1)
        def scale(x, k):
            return x * k


        def inner(x, k):
            return scale(x, k)


        def outer(x, k):
            return inner(x, k)


        def train():
            x = jnp.ones(3)
            for k in range(5):
                x = outer(x, k)
            return x
        """,
        "JAX204",
    )
    assert (f.line, f.column) == (24, 22)  # the loop variable the user passes
    assert _related(f) == [(18, 12, "forwarded here"), (14, 12, "forwarded to scale() here")]
