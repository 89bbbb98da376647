# source: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/_src/stateful_test.py#L834
# category: C
# expect: raises
# via: haiku, checkpoint, factory-closure
# sink: leaked-tracer
"""A residual block was rematerialised with `jax.checkpoint` inside `hk.transform`.  The block's
`hk.Linear` creates its parameters inside the checkpointed trace during `init`, so the returned
params are tracers of that trace and the first `apply` fails; Haiku's own `hk.remat` is the
state-aware version the library tests expect to be used."""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(x):
    block = hk.Linear(4, name="block")
    h = jax.checkpoint(lambda x: jax.nn.relu(block(x)))(x)  # <-- bug
    return x + h


if __name__ == "__main__":
    model = hk.transform(forward)
    x = jnp.ones([2, 4])
    params = model.init(jax.random.PRNGKey(0), x)
    out = model.apply(params, None, x)  # <-- bug
    print(out.sum())
