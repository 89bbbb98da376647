# source: https://github.com/google-deepmind/optax/blob/be29106878337f29e4419723fdf615a97b4d55e8/optax/experimental/microbatching_test.py#L253
# category: A
# expect: ok
# via: factory-closure, wrapper, lax-fori, jit-decorator
# sink: bool-ops
"""`microbatch` now tests `num_real_microbatches is not None` to choose its loop bound, so the number
of real microbatches can be a traced argument of a jitted function and bound the fori_loop."""
import functools

import jax
import jax.numpy as jnp


def microbatch(fun, argnums, microbatch_size, num_real_microbatches=None):
    if isinstance(argnums, int):
        argnums = (argnums,)

    def microbatched_fun(*args):
        batch_size = args[argnums[0]].shape[0]
        num_microbatches = batch_size // microbatch_size
        reshaped_args = [
            a.reshape(num_microbatches, microbatch_size, *a.shape[1:]) if i in argnums else a
            for i, a in enumerate(args)
        ]

        def f(index):
            input_args = list(reshaped_args)
            for i in argnums:
                input_args[i] = jax.tree.map(functools.partial(jnp.take, indices=index, axis=0), input_args[i])
            return fun(*input_args)

        def body_fun(index, carry):
            return carry + f(index)

        early_stop = num_real_microbatches is not None
        loop_bound = num_real_microbatches if early_stop else num_microbatches
        return jax.lax.fori_loop(1, loop_bound, body_fun, f(0))

    return microbatched_fun


@jax.jit
def fun(x, steps):
    return microbatch(jnp.sum, argnums=0, microbatch_size=4, num_real_microbatches=steps)(x)


if __name__ == "__main__":
    x = jnp.ones(128)
    print(fun(x, 4), x[:16].sum())
