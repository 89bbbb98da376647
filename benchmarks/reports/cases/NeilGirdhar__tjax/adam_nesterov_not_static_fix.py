# source: https://github.com/NeilGirdhar/tjax/commit/4a5bd77347a01d7ee7af8fe1e65ff866f5f9a8f4
# category: B
# expect: ok
# via: dataclass, pytree-class, optax, jit-decorator, method, host-loop
# sink: static-metadata
"""tjax's `Adam` gradient transformation is a pytree dataclass; its `nesterov` flag had been an
ordinary field, traced when the transformation is passed into a jitted step.  The commit declared
it `field(default=False, static=True)`: the flag is part of the tree structure and optax can branch
on it.  (tjax's `dataclass` and `field` are reduced to `jax.tree_util.register_dataclass`.)"""
import dataclasses
from dataclasses import KW_ONLY, asdict

import jax
import jax.numpy as jnp
import optax


def field(*, default=dataclasses.MISSING, static=False):
    return dataclasses.field(default=default, metadata={"static": static})


def dataclass(cls):
    cls = dataclasses.dataclass(cls)
    names = [f.name for f in dataclasses.fields(cls) if not f.metadata.get("static", False)]
    statics = [f.name for f in dataclasses.fields(cls) if f.metadata.get("static", False)]
    return jax.tree_util.register_dataclass(cls, data_fields=names, meta_fields=statics)


@dataclass
class Adam:
    learning_rate: float
    b1: float = 0.9
    b2: float = 0.999
    eps: float = 1e-8
    eps_root: float = 0.0
    mu_dtype: object = field(default=None, static=True)
    _: KW_ONLY
    nesterov: bool = field(default=False, static=True)

    def init(self, parameters):
        return optax.adam(**asdict(self)).init(parameters)

    def update(self, gradient, state, parameters):
        return optax.adam(**asdict(self)).update(gradient, state, parameters)


def loss(w):
    return jnp.sum((w - 3.0) ** 2)


@jax.jit
def train_step(transform, w, state):
    updates, state = transform.update(jax.grad(loss)(w), state, w)
    return optax.apply_updates(w, updates), state


if __name__ == "__main__":
    transform = Adam(0.1, nesterov=True)
    w = jnp.zeros(3)
    state = transform.init(w)
    for i in range(3):
        w, state = train_step(transform, w, state)
        print(i, loss(w))
