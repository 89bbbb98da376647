# source: https://github.com/jax-ml/jax/issues/4779
# category: B
# expect: raises
# via: custom-vjp, jit-call, grad, static-argnums
# sink: static-array
"""`nondiff_argnums` of custom_vjp behaves like a static-argument list, but nothing stops a user
from putting an array there.  Under jit the array is a tracer, and custom_vjp refuses a tracer in
a non-differentiable position."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def masked_scale(x, mask):
    return x * mask


def masked_scale_fwd(x, mask):
    return masked_scale(x, mask), None


def masked_scale_bwd(mask, res, g):
    return (g * mask,)


masked_scale.defvjp(masked_scale_fwd, masked_scale_bwd)


def loss(x, mask):
    return jnp.sum(masked_scale(x, mask) ** 2)  # <-- bug


if __name__ == "__main__":
    x = jnp.arange(4.0)
    mask = jnp.array([1.0, 0.0, 1.0, 0.0])
    print(jax.jit(jax.grad(loss))(x, mask))
