# source: https://github.com/AstroAI-Lab/rubix/issues/35
# category: B
# expect: raises
# via: method, factory-closure, helper, wrapper
# sink: static-spec
"""rubix's linear pipeline composes its transformers into a `Partial(expr, pipeline=...)` that takes
a single positional input, and its test asks `get_jaxpr` for static argument 1 of it; newer JAX
checks `static_argnums` against the signature in `make_jaxpr`, so the test fails with a static
spec that names a position the function does not have."""
from copy import deepcopy

import jax.numpy as jnp
from jax import make_jaxpr
from jax.tree_util import Partial


def expression_transformer(*args, static_args: list = []):
    def transformer_wrap(kernel):
        if len(args) > 0:
            return make_jaxpr(deepcopy(kernel), static_argnums=static_args)(  # <-- bug
                *deepcopy(args)
            )
        return make_jaxpr(deepcopy(kernel), static_argnums=static_args)

    return transformer_wrap


class LinearTransformerPipeline:
    def __init__(self, cfg, transformers):
        self.config = cfg
        self.transformers = {t.__name__: t for t in transformers}
        self._pipeline = []
        self.expression = None

    def assemble(self):
        self._pipeline = [
            Partial(self.transformers[step["name"]], **step["args"]) for step in self.config["Transformers"]
        ]
        self.build_expression()

    def build_expression(self):
        def expr(input, pipeline=[]):
            res = input
            for f in pipeline:
                res = f(res)
            return res

        self.expression = Partial(expr, pipeline=deepcopy(self._pipeline))

    def get_jaxpr(self, *args, static_args: list = []):
        return expression_transformer(*args, static_args=static_args)(self.expression)


def add(x, s: float = 0.0):
    return x + s


def mult(x, m: float = 1):
    return x * m


def div(x, d: float = 1):
    return x / d


def sub(x, s: float = 0.0):
    return x - s


def test_get_jaxpr():
    cfg = {
        "Transformers": [
            {"name": "add", "args": {"s": 4.0}},
            {"name": "sub", "args": {"s": 2.0}},
            {"name": "add", "args": {"s": 3.0}},
            {"name": "mult", "args": {"m": 3.0}},
            {"name": "div", "args": {"d": 4.0}},
        ]
    }
    pipeline = LinearTransformerPipeline(cfg, [add, sub, mult, div])
    x = jnp.array([3.0, 2.0, 1.0], dtype=jnp.float32)
    pipeline.assemble()
    expr = pipeline.get_jaxpr(
        x,
        static_args=[
            1,
        ],
    )
    return expr


if __name__ == "__main__":
    print(test_get_jaxpr())
