# source: https://github.com/google-deepmind/dm-haiku/issues/100
# category: C
# expect: ok
# via: haiku, lax-scan, factory-closure
# sink: leaked-tracer
"""The workaround from the thread: an init-safe scan that, while Haiku is initialising, runs the
step function once eagerly (so parameters are created outside any trace) and stacks its output,
and uses `jax.lax.scan` only for apply."""
import haiku as hk
import jax
import jax.numpy as jnp


def init_safe_scan(f, init, xs, length=None):
    if hk.running_init():
        xs_flat, treedef = jax.tree_util.tree_flatten(xs)
        if length is None:
            length, = {x.shape[0] for x in xs_flat}
        x0 = jax.tree_util.tree_unflatten(treedef, [x[0] for x in xs_flat])
        carry, y0 = f(init, x0)
        ys = jax.tree_util.tree_map(lambda *z: jnp.stack(z), *(length * [y0]))
        return carry, ys
    return jax.lax.scan(f, init, xs, length)


def neural_net():
    return hk.Linear(5, name="step")


def my_model(step_fn):
    def doubled_step(x):
        y, _ = init_safe_scan(lambda x, _: (step_fn(x), _), init=x, xs=jnp.arange(2))
        return y
    return doubled_step


def forward(x):
    return my_model(neural_net())(x)


if __name__ == "__main__":
    model = hk.transform(forward)
    x = jnp.ones((1, 5))
    params = model.init(jax.random.PRNGKey(0), x)
    print(model.apply(params, None, x))
