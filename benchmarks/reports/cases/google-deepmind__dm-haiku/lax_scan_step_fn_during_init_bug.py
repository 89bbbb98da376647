# source: https://github.com/google-deepmind/dm-haiku/issues/100
# category: C
# expect: raises
# via: haiku, lax-scan, factory-closure
# sink: leaked-tracer
"""A library wrote its model with a plain `jax.lax.scan` over a user-supplied Haiku step function.
During `init`, the step's `hk.Linear` creates its parameters inside the scan body, so the params
Haiku returns hold tracers of the scan trace, and using them in `apply` fails with an escaped
tracer."""
import haiku as hk
import jax
import jax.numpy as jnp


def neural_net():
    return hk.Linear(5, name="step")


def my_model(step_fn):
    def doubled_step(x):
        y, _ = jax.lax.scan(lambda x, _: (step_fn(x), _), init=x, xs=jnp.arange(2))  # <-- bug
        return y
    return doubled_step


def forward(x):
    return my_model(neural_net())(x)


if __name__ == "__main__":
    model = hk.transform(forward)
    x = jnp.ones((1, 5))
    params = model.init(jax.random.PRNGKey(0), x)
    print(model.apply(params, None, x))  # <-- bug
