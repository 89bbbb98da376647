# source: https://github.com/google-deepmind/dm-haiku/issues/84
# category: C
# expect: ok
# via: haiku, lax-fori, other-module
# sink: leaked-tracer
"""When `hk.running_init()` the network is called once outside the flow, so its parameters are
created by Haiku at the top level and the flow's loop only reads them."""
import haiku as hk
import jax
import jax.numpy as jnp


class MaskedAutoregressiveFlow:  # reduced from tensorflow_probability's bijector
    def __init__(self, shift_and_log_scale_fn):
        self._fn = shift_and_log_scale_fn

    def forward(self, x):
        def body(i, y):
            shift, log_scale = self._fn(y)
            return x * jnp.exp(log_scale) + shift

        return jax.lax.fori_loop(0, x.shape[-1], body, jnp.zeros_like(x))


def flow_forward(x):
    mlp = hk.nets.MLP([16, 2 * x.shape[-1]])

    def made(y):
        shift, log_scale = jnp.split(mlp(y), 2, axis=-1)
        return shift, jnp.tanh(log_scale)

    if hk.running_init():
        made(x)
    maf = MaskedAutoregressiveFlow(made)
    return maf.forward(x)


if __name__ == "__main__":
    f = hk.without_apply_rng(hk.transform(flow_forward))
    x = jnp.ones((4, 3))
    params = f.init(jax.random.PRNGKey(0), x)
    print(f.apply(params, x).sum())
