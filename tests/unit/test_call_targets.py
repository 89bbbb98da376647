"""Call targets: the function each call reaches through methods, instances, attributes set in
``__init__``, factories, ``functools.partial`` and callables passed as arguments, and what
lands on each parameter; unknown wherever a step is not provable."""

import textwrap

import libcst as cst

from jaxlint.analysis.model.call_targets import CallTargets
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.model.transforms import TransformFinder

SOURCE = '''
import functools

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    return params - 0.1 * jnp.mean(batch)


def loss_fn(model, x):
    return jnp.sum(model * x)


class Trainer:
    def __init__(self, lr):
        self.lr = lr
        self._step = jax.jit(loss_fn)

    def fit(self, params, batch):
        return self._step(params, batch)

    def __call__(self, params, batch):
        return self.fit(params, batch)


class Base:
    def __init__(self):
        self.update = train_step


class Child(Base):
    def __init__(self):
        super().__init__()

    def run(self, p, b):
        return self.update(p, b)


def sgd_update(lr, params, batch):
    return params - lr * jnp.mean(batch)


def make_train_step(cfg):
    step = train_step

    def apply(params, batch):
        return step(params, batch)

    return apply


def run_loop(step_fn, params, data):
    for batch in data:
        params = step_fn(params, batch)
    return params


def main():
    trainer = Trainer(0.1)
    trainer.fit(jnp.ones(3), jnp.ones(3))
    trainer(jnp.ones(3), jnp.ones(3))
    apply = make_train_step({"lr": 0.1})
    apply(jnp.ones(3), jnp.ones(3))
    bound = functools.partial(sgd_update, 0.1)
    run_loop(bound, jnp.ones(3), [jnp.ones(3)])
    Child().run(jnp.ones(3), jnp.ones(3))
'''


def _targets(source: str):
    module = cst.parse_module(textwrap.dedent(source))
    index = ModuleIndex(module)
    ct = CallTargets(index, TransformFinder(index))
    out = {}
    for call, scope, _ in index.calls:
        t = ct.target(call, scope)
        if t is None:
            continue
        b = ct.bind(t, call, scope)
        bound = None
        if b is not None:
            bound = {k: (module.code_for_node(p.expr) if p.expr is not None else "<" + p.receiver.name + ">") for k, p in b.items()}
        out[module.code_for_node(call)] = (t.func.qualname, t.app is not None, t.closure is not None, bound)
    return out, ct, index, module


def test_each_kind_of_callable_reaches_its_function():
    out, _, _, _ = _targets(SOURCE)
    assert out["self._step(params, batch)"] == ("loss_fn", True, False, {"model": "params", "x": "batch"})
    assert out["trainer.fit(jnp.ones(3), jnp.ones(3))"] == (
        "Trainer.fit", False, False, {"self": "<Trainer>", "params": "jnp.ones(3)", "batch": "jnp.ones(3)"}
    )
    assert out["trainer(jnp.ones(3), jnp.ones(3))"][0] == "Trainer.__call__"
    assert out["Trainer(0.1)"] == ("Trainer.__init__", False, False, {"self": "<Trainer>", "lr": "0.1"})
    assert out["apply(jnp.ones(3), jnp.ones(3))"] == (
        "make_train_step.apply", False, True, {"params": "jnp.ones(3)", "batch": "jnp.ones(3)"}
    )
    assert out["step(params, batch)"] == ("train_step", True, False, {"params": "params", "batch": "batch"})
    # the parameter ``step_fn`` is bound to the partial at the only call of run_loop
    assert out["step_fn(params, batch)"] == ("sgd_update", False, False, {"lr": "0.1", "params": "params", "batch": "batch"})
    # an attribute set in the base class's ``__init__``
    assert out["self.update(p, b)"] == ("train_step", True, False, {"params": "p", "batch": "b"})


def test_forwarded_parameters_lead_to_the_callers_values():
    _, ct, index, module = _targets(SOURCE)
    call, scope = next((c, s) for c, s, _ in index.calls if module.code_for_node(c) == "self._step(params, batch)")
    arg = call.args[0].value
    origins = ct.origins(arg, scope, call)
    # fit is called directly and through __call__: both hand it ``jnp.ones(3)``
    assert [module.code_for_node(p.expr) for p in origins] == ["jnp.ones(3)", "jnp.ones(3)"]
    assert {id(p.call) for p in origins} == {
        id(c) for c, _, _ in index.calls if module.code_for_node(c) in ("trainer.fit(jnp.ones(3), jnp.ones(3))", "trainer(jnp.ones(3), jnp.ones(3))")
    }


def test_what_is_not_provable_is_unknown():
    out, ct, index, module = _targets(
        '''
        import jax


        @jax.jit
        def f(x):
            return x


        @jax.jit
        def g(x):
            return x


        class Runner:
            def __init__(self):
                self.step = f

            def go(self, x):
                return self.step(x)


        def use(fn, x):
            return fn(x)


        def forward(x):
            return f(x)


        def logged(fn):
            return fn


        @logged
        def wrapped(x):
            return f(x)


        def main(*args):
            r = Runner()
            r.step = g
            use(f, 1)
            use(g, 2)
            forward(*args)
            wrapped(3)
            forward(4)
        '''
    )
    assert "self.step(x)" not in out  # rebound from outside the class
    assert "fn(x)" not in out  # two call sites pass different functions
    assert "wrapped(3)" not in out  # a decorator may wrap it
    assert out["forward(4)"][0] == "forward"
    call, scope = next((c, s) for c, s, _ in index.calls if module.code_for_node(c) == "f(x)")
    assert ct.origins(call.args[0].value, scope, call) is None  # ``forward(*args)``


def test_a_function_also_used_as_a_value_has_callers_nobody_sees():
    source = '''
        import jax
        import jax.numpy as jnp


        def scale(x, factor):
            return x * factor


        def shift(x, offset):
            return x + offset


        def run(xs):
            a = scale(xs, 2.0)
            b = shift(xs, 1.0)
            return a, b, jax.tree.map(lambda v: shift(v, 3.0), xs), list(map(scale, xs, xs))
        '''
    _, ct, index, module = _targets(source)
    funcs = {f.name: f for f in index.functions if not f.is_lambda}
    # ``scale`` is also handed to ``map``: asked for functions only ever called by name, what
    # its parameters hold is not known
    assert ct.param_origins(funcs["scale"], "factor", only_called=True) is None
    # ``shift`` is only ever called, from ``run`` and from a lambda: both values are seen
    shift = ct.param_origins(funcs["shift"], "offset", only_called=True)
    assert sorted(module.code_for_node(p.expr) for p in shift) == ["1.0", "3.0"]


def test_an_attribute_holding_an_instance_reaches_its_methods():
    out, _, _, _ = _targets(
        '''
        class Builder:
            def build(self, target):
                return target


        class Other:
            def build(self, target):
                return target


        class Designer:
            def __init__(self):
                self._builder = Builder()

            def suggest(self, target):
                return self._builder.build(target)


        class Mixed:
            def __init__(self, flag):
                self._builder = Builder()
                if flag:
                    self._builder = Other()

            def suggest(self, value):
                return self._builder.build(value)
        '''
    )
    # every write of ``self._builder`` is a Builder: its ``build`` is called
    assert out["self._builder.build(target)"] == ("Builder.build", False, False, {"self": "<Builder>", "target": "target"})
    # a Builder or an Other: unknown
    assert "self._builder.build(value)" not in out


def test_transformed_defs_and_jitted_methods_are_called_like_their_functions():
    out, _, _, _ = _targets(
        '''
        import jax


        @jax.custom_jvp
        def soft(x, k):
            return x * k


        class Engine:
            @jax.jit
            def prefill(self, tokens):
                return tokens

            @jax.custom_jvp
            def smooth(self, x):
                return x


        def serve(engine, tokens):
            return engine.prefill(tokens), engine.smooth(tokens)


        def main():
            soft(1.0, 2.0)
            serve(Engine(), 3)
        '''
    )
    # a custom_jvp object is called like its primal function
    assert out["soft(1.0, 2.0)"] == ("soft", True, False, {"x": "1.0", "k": "2.0"})
    # a jitted method binds the object as ``self``; ``engine`` is an Engine at every call of serve
    assert out["engine.prefill(tokens)"] == ("Engine.prefill", True, False, {"self": "<Engine>", "tokens": "tokens"})
    # a custom_jvp object is no descriptor: ``engine.smooth`` binds no ``self``
    assert "engine.smooth(tokens)" not in out
