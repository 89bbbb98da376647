# source: https://dm-haiku.readthedocs.io/en/latest/notebooks/transforms.html
# category: C
# expect: raises
# via: haiku, eval-shape
# sink: leaked-tracer
"""Inside `hk.transform`, an `hk.nets.MLP` is first run under `jax.eval_shape` to learn its output
shape and then called for real; the MLP creates its parameters while eval_shape traces it, so
Haiku's state keeps tracers of that trace and the real call raises UnexpectedTracerError."""
import haiku as hk
import jax
import jax.numpy as jnp


def eval_shape_net(x):
    net = hk.nets.MLP([300, 100])
    output_shape = jax.eval_shape(net, x)  # <-- bug
    return output_shape, net(x)


if __name__ == "__main__":
    init, apply = hk.transform(eval_shape_net)
    params = init(jax.random.PRNGKey(666), jnp.ones((2, 2)))  # <-- bug
    shape, out = apply(params, None, jnp.ones((2, 2)))
    print(shape, out.shape)
