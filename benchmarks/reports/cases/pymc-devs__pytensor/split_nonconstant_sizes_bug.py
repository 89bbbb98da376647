# source: https://github.com/pymc-devs/pytensor/blob/f857e69611b9e36be2443f8e1905f5aa484aa455/tests/link/jax/test_tensor_basic.py#L198
# category: A
# expect: raises
# via: factory-closure, jit-call
# sink: shape-from-value
"""PyTensor's JAX test of Split: when the split sizes are computed in the graph (here from the
input's shape) they reach the funcified `split` as a traced vector, so the cumulative sum handed
to jnp.split is not concrete and jitting fails.  Constant split sizes are taken from the graph at
funcify time and used as NumPy values."""
import numpy as np
import jax
import jax.numpy as jnp


def jax_funcify_Split(axis, len_splits, constant_splits=None):
    def split(x, splits):
        if len(splits) != len_splits:
            raise ValueError("Length of splits is not equal to n_splits")
        if constant_splits is not None:
            cumsum_splits = np.cumsum(constant_splits[:-1])
        else:
            cumsum_splits = jnp.cumsum(splits[:-1])
        return jnp.split(x, cumsum_splits, axis=axis)  # <-- bug

    return split


def fn(a):
    split = jax_funcify_Split(axis=1, len_splits=2)
    splits = jnp.stack([2, a.shape[1] - 2])
    return split(a, splits)


if __name__ == "__main__":
    outs = jax.jit(fn)(np.zeros((6, 4), dtype="float32"))
    print([o.shape for o in outs])
