# source: https://github.com/kokabsc/gwkokab/commit/b8e49b0242c8b05f83d755f68c65b4b6ba71eb7b
# category: B
# expect: raises
# via: partial-jit, static-argnums, lax-scan, factory-closure
# sink: static-spec
"""GWKokab's analytical likelihood builds a `normalized_weights_fn` lambda and hands it to
`moment_match_mean`, which is jitted with `static_argnames=("max_iter", "n_samples")` only; the
lambda is then a traced argument, and jit rejects a function as an invalid JAX type.  The commit
adds `normalized_weights_fn` to the static names."""
import functools as ft

import jax
import jax.numpy as jnp
import jax.random as jrd
from numpyro.distributions import MultivariateNormal, Normal


@ft.partial(jax.jit, static_argnames=("n_samples",))
def mvn_samples(loc, cov, n_samples, key):
    scale_tril = jnp.linalg.cholesky(cov)
    eps = jrd.normal(key, shape=(n_samples, *loc.shape))
    return loc + jnp.squeeze(jnp.matmul(scale_tril, eps[..., jnp.newaxis]), axis=-1)


@ft.partial(jax.jit, static_argnames=("max_iter", "n_samples"))
def moment_match_mean(rng_key, mean, cov, normalized_weights_fn, max_iter, n_samples):
    def scan_moment_matching_mean_fn(moment_matching_mean_i, key):
        samples = mvn_samples(loc=moment_matching_mean_i, cov=cov, n_samples=n_samples, key=key)
        weights = normalized_weights_fn(samples)
        return jnp.sum(samples * weights, axis=0), None

    rng_key, subkey = jrd.split(rng_key)
    moment_matching_mean, _ = jax.lax.scan(
        scan_moment_matching_mean_fn, mean, jrd.split(subkey, max_iter), length=max_iter
    )
    return moment_matching_mean


def likelihood_fn(loc, mean_stack, cov_stack, key):
    model_instance = Normal(loc, 1.0).to_event(1)
    event_mvn = MultivariateNormal(loc=mean_stack, covariance_matrix=cov_stack)
    model_log_prob_vmap_fn = jax.vmap(model_instance.log_prob, in_axes=(1,), out_axes=-1)
    normalized_weights_fn = lambda samples: jax.nn.softmax(
        jnp.expand_dims(model_log_prob_vmap_fn(samples) + event_mvn.log_prob(samples), axis=-1),
        axis=0,
    )
    rng_key, subkey = jrd.split(key)
    moment_matching_mean = moment_match_mean(  # <-- bug
        subkey, mean_stack, cov_stack, normalized_weights_fn, 4, 100
    )
    return jnp.sum(event_mvn.log_prob(moment_matching_mean))


if __name__ == "__main__":
    mean_stack = jnp.array([[0.1, 0.2], [1.0, -0.5], [0.3, 0.0]])
    cov_stack = jnp.broadcast_to(0.2 * jnp.eye(2), (3, 2, 2))
    key = jrd.PRNGKey(0)
    print(likelihood_fn(jnp.zeros(2), mean_stack, cov_stack, key))
