# source: https://dm-haiku.readthedocs.io/en/latest/notebooks/transforms.html
# category: C
# expect: ok
# via: haiku, eval-shape
# sink: leaked-tracer
"""`hk.eval_shape` replaces `jax.eval_shape`: Haiku threads its parameter state through the shape
evaluation explicitly, so no parameter is created inside a bare JAX trace."""
import haiku as hk
import jax
import jax.numpy as jnp


def eval_shape_net(x):
    net = hk.nets.MLP([300, 100])
    output_shape = hk.eval_shape(net, x)
    return output_shape, net(x)


if __name__ == "__main__":
    init, apply = hk.transform(eval_shape_net)
    params = init(jax.random.PRNGKey(666), jnp.ones((2, 2)))
    shape, out = apply(params, None, jnp.ones((2, 2)))
    print(shape, out.shape)
