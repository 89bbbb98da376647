# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_jit.py#L236
# category: C
# expect: stale
# via: equinox, vmap, jit-call
# sink: closure-global
"""A function that counts its calls in a `nonlocal` is wrapped as
`eqx.filter_jit(eqx.filter_vmap(f))`; the counter is bumped while the function is traced, so
it moves once per compilation instead of once per call."""
import equinox as eqx
import jax.numpy as jnp


def main():
    num_calls = 0

    def f(x):
        nonlocal num_calls
        num_calls += 1  # <-- bug
        return x + 1

    fn = eqx.filter_jit(eqx.filter_vmap(f))
    for xs in (jnp.array([1, 2]), jnp.array([2, 3])):
        out = fn(xs)
        print(out, num_calls)


if __name__ == "__main__":
    main()
