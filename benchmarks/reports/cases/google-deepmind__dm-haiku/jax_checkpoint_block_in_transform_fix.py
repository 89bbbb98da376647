# source: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/_src/stateful_test.py#L834
# category: C
# expect: ok
# via: haiku, checkpoint, factory-closure
# sink: leaked-tracer
"""The block is rematerialised with `hk.remat`, which threads Haiku's parameter state through the
checkpoint, so `init` returns concrete parameters."""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x):
    block = hk.Linear(4, name="block")
    h = hk.remat(lambda x: jax.nn.relu(block(x)))(x)
    return x + h


if __name__ == "__main__":
    model = hk.transform(forward)
    x = jnp.ones([2, 4])
    params = model.init(jax.random.PRNGKey(0), x)
    out = model.apply(params, None, x)
    print(out.sum())
