# source: https://github.com/google-deepmind/optax/blob/c3354dd27675644e8550b2b4883115c14b90f602/optax/_src/control_variates_test.py#L70
# category: B
# expect: raises
# via: wrapper, static-argnums, jit-call, helper
# sink: static-array
"""The control-variate tests jitted `control_variates_jacobians` with `static_argnums` that included
position 5, the PRNG key; a key is an array and cannot be a static (hashed) argument of jit."""
import jax
import jax.numpy as jnp


class multi_normal:
    def __init__(self, loc, log_scale):
        self.loc, self.scale = loc, jnp.exp(log_scale)

    def sample(self, shape, seed):
        return self.loc + self.scale * jax.random.normal(seed, shape + self.loc.shape)

    def log_prob(self, x):
        return jnp.sum(-0.5 * ((x - self.loc) / self.scale) ** 2 - jnp.log(self.scale), axis=-1)


def score_function_jacobians(function, params, dist_builder, rng, num_samples):
    samples = jax.lax.stop_gradient(dist_builder(*params).sample((num_samples,), seed=rng))

    def surrogate(p):
        return jnp.mean(jax.vmap(function)(samples) * dist_builder(*p).log_prob(samples))

    return jax.grad(surrogate)(params)


def control_variates_jacobians(function, control_variate_from_function, grad_estimator, params,
                               dist_builder, rng, num_samples, control_variate_state=None,
                               estimate_cv_coeffs=False):
    del control_variate_from_function, estimate_cv_coeffs
    return grad_estimator(function, params, dist_builder, rng, num_samples), control_variate_state


def _cv_jac_variant(variant):
    return variant(control_variates_jacobians, static_argnums=(0, 1, 2, 4, 5, 6, 7, 8))


if __name__ == "__main__":
    params = [jnp.array([1.0, 2.0]), jnp.zeros(2)]
    function = lambda x: jnp.sum(x**2)
    rng = jax.random.PRNGKey(1)
    jacobians = _cv_jac_variant(jax.jit)(  # <-- bug
        function,
        None,  # no control variate
        score_function_jacobians,
        params,
        multi_normal,  # dist_builder
        rng,
        1000,
        None,  # No cv state.
        False)[0]
    print(jacobians[0])
