# source: https://github.com/jax-ml/jax/issues/4779
# category: B
# expect: ok
# via: custom-vjp, jit-call, grad, static-argnums
# sink: static-array
"""`nondiff_argnums` of custom_vjp behaves like a static-argument list, but nothing stops a user
from putting an array there.  Under jit the array is a tracer, and custom_vjp refuses a tracer in
a non-differentiable position.  The mask is an ordinary argument whose cotangent is zero."""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def masked_scale(x, mask):
    return x * mask


def masked_scale_fwd(x, mask):
    return masked_scale(x, mask), mask


def masked_scale_bwd(mask, g):
    return (g * mask, jnp.zeros_like(mask))


masked_scale.defvjp(masked_scale_fwd, masked_scale_bwd)


def loss(x, mask):
    return jnp.sum(masked_scale(x, mask) ** 2)


if __name__ == "__main__":
    x = jnp.arange(4.0)
    mask = jnp.array([1.0, 0.0, 1.0, 0.0])
    print(jax.jit(jax.grad(loss))(x, mask))
