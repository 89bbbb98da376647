# source: https://openillumi.com/en/en-jax-jit-static-argnums-array-fix
# category: B
# expect: raises
# via: static-argnums, jit-call, grad, host-loop
# sink: static-array
"""A user fitting a linear model marks the fixed training arrays x and y of the MSE loss as static
arguments of jit, thinking they should be frozen into the compilation; NumPy arrays cannot be
hashed and the first call fails with a non-hashable static argument error."""
import jax
import jax.numpy as jnp
import numpy as np


def loss(r, x, y):
    return jnp.mean((x * r[0] + r[1] - y) ** 2)


loss_jit = jax.jit(loss, static_argnums=(1, 2))
grad_loss = jax.grad(loss)

if __name__ == "__main__":
    x = np.linspace(0.0, 1.0, 20)
    y = 3.0 * x + 1.0
    r = jnp.array([0.0, 0.0])
    for step in range(50):
        r = r - 0.5 * grad_loss(r, x, y)
    print(loss_jit(r, x, y))  # <-- bug
