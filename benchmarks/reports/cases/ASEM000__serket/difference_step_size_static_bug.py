# source: https://github.com/ASEM000/serket/commit/b57be42b1f1eb639fe75366b65e8c55ae8d7f99a
# category: B
# expect: raises
# via: partial-jit, static-argnums, helper
# sink: static-array
"""serket briefly made `step_size` a static argument of the jitted finite-difference
`difference`; its own docstring example passes `dx = x[1] - x[0]`, a JAX array, which JAX
cannot hash as a static argument (the commit reverts the change)."""
import functools as ft

import jax
import jax.numpy as jnp


def _generate_forward_offsets(derivative, accuracy=2):
    return tuple(range(0, (derivative + accuracy)))


def _generate_central_offsets(derivative, accuracy=2):
    return tuple(range(-((derivative + accuracy - 1) // 2), (derivative + accuracy - 1) // 2 + 1))


def _generate_backward_offsets(derivative, accuracy=2):
    return tuple(range(-(derivative + accuracy - 1), 1))


def generate_finitediff_coeffs(offsets, derivative):
    N = len(offsets)
    A = jnp.repeat(jnp.array(offsets, dtype=jnp.float32)[None, :], repeats=N, axis=0)
    A **= jnp.arange(0, N, dtype=jnp.float32).reshape(-1, 1)
    index = jnp.arange(N)
    factorial = jnp.prod(jnp.arange(1, derivative + 1, dtype=jnp.float32))
    B = jnp.where(index == derivative, factorial, 0.0)[:, None]
    C = jnp.linalg.inv(A) @ B
    return C.flatten()


@ft.partial(jax.jit, static_argnames=("accuracy", "axis", "derivative", "step_size"))
def difference(x, *, axis=0, accuracy=1, step_size=1, derivative=1):
    size = x.shape[axis]
    sliced = ft.partial(jax.lax.slice_in_dim, x, axis=axis)

    left_offsets = _generate_forward_offsets(derivative, accuracy)
    left_coeffs = generate_finitediff_coeffs(left_offsets, derivative)

    right_offsets = _generate_backward_offsets(derivative, accuracy)
    right_coeffs = generate_finitediff_coeffs(right_offsets, derivative)

    center_offsets = _generate_central_offsets(derivative, accuracy + 1)
    center_coeffs = generate_finitediff_coeffs(center_offsets, derivative)

    left_x = sum(
        coeff * sliced(offset, offset - center_offsets[0])
        for offset, coeff in zip(left_offsets, left_coeffs)
    )
    right_x = sum(
        coeff * sliced(size + (offset - center_offsets[-1]), size + (offset))
        for offset, coeff in zip(right_offsets, right_coeffs)
    )
    center_x = sum(
        coeff * sliced(offset - center_offsets[0], size + (offset - center_offsets[-1]))
        for offset, coeff in zip(center_offsets, center_coeffs)
    )
    return jnp.concatenate([left_x, center_x, right_x], axis=axis) / (step_size**derivative)


if __name__ == "__main__":
    # the docstring example: dF/dx of a 2D array
    x, y = [jnp.linspace(0, 1, 100, dtype=jnp.float32)] * 2
    dx, dy = x[1] - x[0], y[1] - y[0]
    X, Y = jnp.meshgrid(x, y, indexing="ij")
    F = jnp.sin(X) * jnp.cos(Y)
    dFdX = difference(F, step_size=dx, axis=0, accuracy=3)  # <-- bug
    print(float(dFdX[50, 50]), float(jnp.cos(X[50, 50]) * jnp.cos(Y[50, 50])))
