# source: https://github.com/google-deepmind/dm-haiku/issues/84
# category: C
# expect: raises
# via: haiku, lax-fori, other-module
# sink: leaked-tracer
"""The reporter hands a Haiku network to a TFP masked autoregressive flow inside `hk.transform`;
the flow runs the network inside its own loop transform, so on `init` the network's parameters
are created inside that trace and come back as escaped tracers."""
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


def made(y):
    out = hk.nets.MLP([16, 2 * y.shape[-1]])(y)  # <-- bug
    shift, log_scale = jnp.split(out, 2, axis=-1)
    return shift, jnp.tanh(log_scale)


def flow_forward(x):
    maf = MaskedAutoregressiveFlow(made)
    return maf.forward(x)


if __name__ == "__main__":
    f = hk.without_apply_rng(hk.transform(flow_forward))
    x = jnp.ones((4, 3))
    params = f.init(jax.random.PRNGKey(0), x)
    print(f.apply(params, x).sum())  # <-- bug
