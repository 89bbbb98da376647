# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/docs/faq.md#L99
# category: B
# expect: ok
# via: equinox, jit-call, pytree-class
# sink: static-spec
"""Equinox's FAQ "TypeError: not a valid JAX type": an eqx.nn.MLP passed to a plain jax.jit
function carries its activation function as a pytree leaf, and jax.jit cannot treat a Python
function as an array argument; eqx.filter_jit traces only the arrays and keeps the rest
static."""
import equinox as eqx
import jax


def loss_fn(model, x, y):
    return ((jax.vmap(model)(x) - y) ** 2).mean()


if __name__ == "__main__":
    model = eqx.nn.MLP(2, 2, 2, 2, key=jax.random.PRNGKey(0))
    x = jax.numpy.arange(8.0).reshape(4, 2)
    y = x * x
    print(eqx.filter_jit(loss_fn)(model, x, y))
