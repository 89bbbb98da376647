# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_ad.py#L125
# category: C
# expect: stale
# via: equinox, custom-vjp, grad, jit-call
# sink: closure-global
"""The backward rule of an `eqx.filter_custom_vjp` counts its calls in a `nonlocal`; taking the
gradient of the jitted function twice runs the rule only while it is traced, so the count reads
1 after two backward passes."""
import equinox as eqx
import jax
import jax.numpy as jnp


def main():
    num_calls = 0

    @eqx.filter_custom_vjp
    def f(x):
        return x

    @f.def_fwd
    def f_fwd(perturbed, x):
        del perturbed
        return x, None

    @f.def_bwd
    def f_bwd(residual, g, perturbed, x):
        del residual, perturbed, x
        nonlocal num_calls
        num_calls += 1  # <-- bug
        return g + 2

    x = jnp.array(1.0)
    jitf = jax.jit(f)
    for _ in range(2):
        print(eqx.filter_grad(jitf)(x), num_calls)


if __name__ == "__main__":
    main()
