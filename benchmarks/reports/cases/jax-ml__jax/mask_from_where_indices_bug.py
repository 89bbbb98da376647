# source: https://github.com/jax-ml/jax/issues/4418
# category: A
# expect: raises
# via: jit-decorator
# sink: shape-from-value
"""The reporter built a mask by taking `jnp.where(cond)` index arrays of the empty positions and
setting those entries to zero; under jit the one-argument `where` has a data-dependent size."""
import jax
import jax.numpy as np_jax


@jax.jit
def empty_position_mask(Dataset):
    ax1, ax2 = np_jax.where(~Dataset[:, 0].any(axis=2))  # <-- bug
    mask = np_jax.ones(Dataset.shape[:1] + Dataset.shape[2:3])
    mask = mask.at[ax1, ax2].set(0)
    return mask


if __name__ == "__main__":
    Dataset = np_jax.array([[[[1, 2], [0, 0]], [[0, 1], [0, 0]]],
                            [[[0, 0], [3, 0]], [[0, 0], [1, 1]]]])
    print(empty_position_mask(Dataset))
