"""A traced function nested in a factory is interpreted once per abstract signature of the
callables the factory's calls give it: calls that pass the same function share one
interpretation, whatever their number, and each interpretation knows its function."""

import textwrap

import libcst as cst

from jaxlint.config import Config
from jaxlint.engine.module_analysis import ModuleAnalysis

SOURCE = '''
import functools

import jax
import jax.numpy as jnp


def mse(pred, target):
    return jnp.mean((pred - target) ** 2)


def xent(pred, target):
    return -jnp.mean(target * jnp.log(pred))


def make_step(loss_fn, lr):
    def step(w, x, target):
        return w - lr * loss_fn(w * x, target)

    return jax.jit(step)


a = make_step(mse, 0.1)
b = make_step(mse, 0.2)
c = functools.partial(make_step, mse)(0.3)
d = make_step(xent, 0.1)
e = make_step(functools.partial(xent), 0.1)


def make_scaled(scale):
    def scaled(x):
        return x * scale

    return jax.jit(scaled)


f = make_scaled(2.0)
g = make_scaled(3.0)
'''


def _frames(source, name):
    text = textwrap.dedent(source)
    m = ModuleAnalysis(cst.parse_module(text), text, Config())
    m.analyzer.run()
    return [frame for app, frame in m.analyzer.analyzed_entries if app.func.name == name]


def _callables(frame):
    return sorted(fn[0].func.name for fn in frame.outer.fns.values()) if frame.outer is not None else None


def test_one_interpretation_per_signature_not_per_call():
    # three calls give mse (one through a partial of the factory), one gives xent and one a
    # partial of xent that binds nothing, the same signature as xent: two interpretations
    frames = _frames(SOURCE, "step")
    assert sorted(_callables(f) for f in frames) == [["mse"], ["xent"]]
    assert len({f.outer.key for f in frames}) == 2


def test_a_factory_given_no_function_is_interpreted_once_without_one():
    frames = _frames(SOURCE, "scaled")
    assert [f.outer for f in frames] == [None]


def test_each_signature_resolves_the_closure_variable_to_its_own_function():
    # the memo of calls made under one signature is not reused under another: both
    # losses are interpreted, each from the step that was given it
    text = textwrap.dedent(SOURCE)
    m = ModuleAnalysis(cst.parse_module(text), text, Config())
    m.analyzer.run()
    called = {key[0] for key in m.analyzer.memo if isinstance(key, tuple) and key and isinstance(key[0], int)}
    defs = {f.name: id(f.node) for f in m.index.functions if not f.is_lambda}
    assert defs["mse"] in called and defs["xent"] in called
