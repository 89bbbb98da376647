# source: https://github.com/pymc-devs/pytensor/blob/f857e69611b9e36be2443f8e1905f5aa484aa455/tests/link/jax/test_subtensor.py#L87
# category: A
# expect: ok
# via: helper, jit-call
# sink: boolean-mask
"""PyTensor's JAX backend test: a graph that selects the negative entries of a vector with a
boolean mask (`x[x < 0]`) is funcified to an AdvancedSubtensor and jitted; the mask is traced,
so JAX cannot size the result.  The re-expressible form sums with a where instead."""
import numpy as np
import jax
import jax.numpy as jnp


def jax_funcify_AdvancedSubtensor():
    def advanced_subtensor_sum(x, *ilists):
        return jnp.where(ilists[0], x, 0).sum()

    return advanced_subtensor_sum


def compare_jax_and_py(x_test):
    subtensor = jax_funcify_AdvancedSubtensor()

    def fgraph_fn(x):
        return subtensor(x, x < 0)

    jax_res = jax.jit(fgraph_fn)(x_test)
    py_res = x_test[x_test < 0].sum()
    np.testing.assert_allclose(jax_res, py_res)
    return jax_res


if __name__ == "__main__":
    print(compare_jax_and_py(np.arange(-5, 5).astype("float64")))
