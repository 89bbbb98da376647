# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_jit.py#L236
# category: C
# expect: ok
# via: equinox, vmap, jit-call
# sink: closure-global
"""The calls are counted by the host loop around the compiled
`eqx.filter_jit(eqx.filter_vmap(f))`, not by the traced function, so the count is the number of
calls whether or not the function is compiled."""
import equinox as eqx
import jax.numpy as jnp


def main():
    num_calls = 0

    def f(x):
        return x + 1

    fn = eqx.filter_jit(eqx.filter_vmap(f))
    for xs in (jnp.array([1, 2]), jnp.array([2, 3])):
        out = fn(xs)
        num_calls += 1
        print(out, num_calls)


if __name__ == "__main__":
    main()
