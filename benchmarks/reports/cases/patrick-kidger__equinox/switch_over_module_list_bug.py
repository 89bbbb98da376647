# source: https://github.com/patrick-kidger/equinox/issues/119
# category: B
# expect: raises
# via: equinox, method, lax-cond, grad, jit-call
# sink: static-unhashable
"""A Module keeps a list of Linear layers and picks one with lax.switch on a random index.
lax.switch hashes its branch callables, and the layers are Modules full of arrays, so training
fails with an unhashable-type error; calling each layer through a small plain function works."""
import equinox as eqx
import jax.lax as lax
import jax.numpy as jnp
import jax.random as jr


class M(eqx.Module):
    modules: list

    def __init__(self, *, key):
        self.modules = [eqx.nn.Linear(1, 1, key=k) for k in jr.split(key, 5)]

    def __call__(self, x, *, key):
        i = jr.randint(key, (), minval=0, maxval=5)
        return lax.switch(i, self.modules, x)  # <-- bug


@eqx.filter_jit
@eqx.filter_grad
def loss(model, x, key):
    return jnp.sum(model(x, key=key) ** 2)


if __name__ == "__main__":
    m = M(key=jr.PRNGKey(0))
    grads = loss(m, jnp.array([1.0]), jr.PRNGKey(1))
    print([g.weight for g in grads.modules])
