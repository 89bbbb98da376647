# source: https://github.com/jax-ml/jax/issues/196
# category: C
# expect: ok
# via: jit-decorator, host-loop, dict-of-arrays
# sink: print
"""A jitted network function prints an intermediate activation to debug training, but under jit the
print runs once while tracing and shows a Traced<ShapedArray(float32[1,64])> instead of values."""
import jax
import jax.numpy as jnp
from jax import grad, jit


def net_apply(params, inputs):
    hidden = jnp.tanh(inputs @ params["w1"])
    print(hidden)
    return hidden @ params["w2"]


def loss(params, inputs, targets):
    return jnp.mean((net_apply(params, inputs) - targets) ** 2)


@jit
def opt_update(params, grads):
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


if __name__ == "__main__":
    params = {"w1": jnp.full((3, 64), 0.01, dtype=jnp.float32), "w2": jnp.full((64, 1), 0.02, dtype=jnp.float32)}
    inputs, targets = jnp.ones((1, 3)), jnp.ones((1, 1))
    for step in range(2):
        out = net_apply(params, inputs)
        params = opt_update(params, grad(loss)(params, inputs, targets))
        print(step, float(out[0, 0]))
