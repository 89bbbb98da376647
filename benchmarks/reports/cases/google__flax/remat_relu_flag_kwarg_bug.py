# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/linen/linen_transforms_test.py#L154
# category: A
# expect: raises
# via: flax-linen, checkpoint, grad, method
# sink: python-if
"""Flax's (skipped) test_remat_kwargs: a module chooses relu or identity with a Python
conditional on its `apply_relu` flag; wrapped in nn.remat without static_argnums the flag is
traced, so tracing the model (its init, and the grad the test takes) fails on that conditional."""
import jax
import jax.numpy as jnp
import flax.linen as nn


class ConditionalReLU(nn.Module):
    @nn.compact
    def __call__(self, input, apply_relu: bool = False):
        return nn.relu(input) if apply_relu else input  # <-- bug


if __name__ == "__main__":
    key = jax.random.key(0)
    x = jnp.ones((4, 4)) * -1
    remat_model = nn.remat(ConditionalReLU)()
    p = remat_model.init(key, x, False)
    g = jax.grad(lambda x: remat_model.apply(p, x, True).sum())(x)
    print(g.sum())
