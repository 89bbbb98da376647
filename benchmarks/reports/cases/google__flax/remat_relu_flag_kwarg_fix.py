# source: https://github.com/google/flax/blob/18f8f311c275d57f46d95e41b15aa97b454754c0/tests/linen/linen_transforms_test.py#L154
# category: A
# expect: ok
# via: flax-linen, checkpoint, grad, method
# sink: python-if
"""The same module under nn.remat with static_argnums=(2,) (Flax counts `self` as 0), the way
Flax's later remat tests mark such a flag, so `apply_relu` stays a Python bool under grad."""
import jax
import jax.numpy as jnp
import flax.linen as nn


class ConditionalReLU(nn.Module):
    @nn.compact
    def __call__(self, input, apply_relu: bool = False):
        return nn.relu(input) if apply_relu else input


if __name__ == "__main__":
    key = jax.random.key(0)
    x = jnp.ones((4, 4)) * -1
    remat_model = nn.remat(ConditionalReLU, static_argnums=(2,))()
    p = remat_model.init(key, x, False)
    g = jax.grad(lambda x: remat_model.apply(p, x, True).sum())(x)
    print(g.sum())
