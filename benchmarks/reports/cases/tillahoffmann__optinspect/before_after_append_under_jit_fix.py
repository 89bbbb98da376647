# source: https://github.com/tillahoffmann/optinspect/blob/ebe8946d271f31e4240487db20631cc2ea8e124c/optinspect/tests/test_util.py
# category: C
# expect: ok
# via: optax, callback, factory-closure, jit-call
# sink: append
"""With the library's default `skip_if_traced=True` the hooks see that the optimizer state is
traced and do nothing while `update` is being compiled, so no tracer reaches the lists."""
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import optax
from jax.core import Tracer


def is_traced(*args: Any) -> bool:
    leaves, _ = jax.tree.flatten(args)
    return any(isinstance(leaf, Tracer) for leaf in leaves)


def before_after_update(inner, before: Optional[Callable] = None, after: Optional[Callable] = None,
                        *, skip_if_traced: bool = True):
    def init(params):
        return inner.init(params)

    def update(updates, state, params=None, **extra_args):
        skip = skip_if_traced and is_traced(state)
        if not skip and before:
            before(updates=updates, state=state, params=params, **extra_args)
        updates, state = inner.update(updates, state, params, **extra_args)
        if not skip and after:
            after(updates=updates, state=state, params=params, **extra_args)
        return updates, state

    return optax.GradientTransformationExtraArgs(init, update)


if __name__ == "__main__":
    x = jnp.array(4.0)
    _, grad = jax.value_and_grad(jnp.square)(x)

    before, after = [], []
    optim = before_after_update(
        optax.scale_by_adam(0.1),
        lambda state, **kwargs: before.append(state),
        lambda state, **kwargs: after.append(state),
        skip_if_traced=True,
    )
    state = optim.init(x)
    optim.update(grad, state, x)
    print("eager counts:", before[0].count, after[0].count)
    updates, _ = jax.jit(optim.update)(grad, state, x)
    print("jitted updates:", updates)
