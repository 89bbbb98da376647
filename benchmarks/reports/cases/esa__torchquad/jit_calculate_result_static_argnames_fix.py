# source: https://github.com/esa/torchquad/pull/165
# category: B
# expect: ok
# via: method, wrapper, jit-call, static-argnums, factory-closure
# sink: static-spec
"""torchquad compiled `self.calculate_result` with `jax.jit(..., static_argnames=["dim",
"n_per_dim"])`, but the method is wrapped by a decorator whose signature is `(*args, **kwargs)`
and it is called positionally, so the names match nothing and `dim` and `n_per_dim` are traced;
building the reshape target `[n_per_dim] * dim` then needs a concrete integer.  The PR switched to
`static_argnums=(1, 2)`, which works through the wrapper.  (The integrator is reduced to a trapezoid rule.)"""
import jax
import jax.numpy as jnp


def expand_func_values_and_squeeze_integral(f):
    def wrap(*args, **kwargs):
        is_1d = args[1].ndim == 1
        if is_1d:
            return jnp.squeeze(f(args[0], jnp.expand_dims(args[1], axis=1), *args[2:], **kwargs))
        return f(*args, **kwargs)

    return wrap


class Trapezoid:
    def calculate_grid(self, N, integration_domain):
        dim = integration_domain.shape[0]
        n_per_dim = int(N ** (1.0 / dim) + 1e-8)
        ticks = jnp.stack([jnp.linspace(a, b, n_per_dim) for a, b in integration_domain])
        hs = (integration_domain[:, 1] - integration_domain[:, 0]) / (n_per_dim - 1)
        mesh = jnp.meshgrid(*ticks, indexing="ij")
        return jnp.stack([m.ravel() for m in mesh], axis=1), hs, n_per_dim

    @expand_func_values_and_squeeze_integral
    def calculate_result(self, function_values, dim, n_per_dim, hs):
        dim_shape = [n_per_dim] * dim
        values = jnp.moveaxis(function_values, 0, -1).reshape([*function_values.shape[1:], *dim_shape])
        for axis in range(dim):
            values = jnp.sum((values[..., :-1] + values[..., 1:]) / 2, axis=-1) * hs[dim - axis - 1]
        return values

    def get_jit_compiled_integrate(self, dim, N, integration_domain):
        jit_calculate_grid = jax.jit(self.calculate_grid, static_argnames=["N"])
        jit_calculate_result = jax.jit(self.calculate_result, static_argnums=(1, 2))  # dim and n_per_dim

        def compiled_integrate(fn, integration_domain):
            grid_points, hs, n_per_dim = jit_calculate_grid(N, integration_domain)
            function_values = fn(grid_points)
            return jit_calculate_result(function_values, dim, int(n_per_dim), hs)

        return compiled_integrate


if __name__ == "__main__":
    domain = jnp.array([[0.0, 1.0], [0.0, 2.0]])
    integrate = Trapezoid().get_jit_compiled_integrate(2, 101 * 101, domain)
    print(integrate(lambda x: jnp.sum(x ** 2, axis=1), domain))
