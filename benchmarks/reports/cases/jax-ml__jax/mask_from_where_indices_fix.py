# source: https://github.com/jax-ml/jax/issues/4418
# category: A
# expect: ok
# via: jit-decorator
# sink: shape-from-value
"""The mask is built with the three-argument `jnp.where(cond, 0, 1)`, which keeps the input's shape,
instead of gathering index arrays of data-dependent size, so it compiles under jit."""
import jax
import jax.numpy as np_jax


@jax.jit
def empty_position_mask(Dataset):
    mask = np_jax.where(~Dataset[:, 0].any(axis=2), 0, 1)
    mask = mask.astype(np_jax.float32)
    return mask


if __name__ == "__main__":
    Dataset = np_jax.array([[[[1, 2], [0, 0]], [[0, 1], [0, 0]]],
                            [[[0, 0], [3, 0]], [[0, 0], [1, 1]]]])
    print(empty_position_mask(Dataset))
