# source: https://github.com/jax-ml/jax/issues/6350
# category: A
# expect: raises
# via: jit-call
# sink: shape-from-value
"""jax.ops.segment_sum jitted directly without num_segments: the output length is then taken from
the largest segment id, which under jit is a traced value, so the call cannot be compiled."""
import jax
import numpy as np


if __name__ == "__main__":
    c = np.array([[1, 2, 3, 4], [4, 3, 2, 1], [5, 6, 7, 8]])
    b = np.array([0, 0, 1])
    print(jax.ops.segment_sum(c, b))
    jit_fn = jax.jit(jax.ops.segment_sum)
    print(jit_fn(c, b))  # <-- bug
