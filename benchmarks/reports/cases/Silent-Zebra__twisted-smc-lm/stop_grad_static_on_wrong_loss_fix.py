# source: https://github.com/Silent-Zebra/twisted-smc-lm/commit/9bef4edf4cf4d01781a387b414dc905d7fe1c9a4
# category: B
# expect: ok
# via: partial-jit, static-argnums, grad, helper
# sink: static-spec
"""The fix moves `stop_grad` from the static names of the total-KL loss to those of the RL-based
twist loss, the function that takes the flag and branches on it in Python."""
from functools import partial

import jax
import jax.numpy as jnp


def evaluate_log_psi_selected_tokens(samples, params_twist):
    return jnp.take(params_twist, samples).cumsum(axis=-1)


def get_l_one_total_kl(rng_key, prompt, params_p, params_twist, output_len, n_twist, exact_expectation=True):
    samples = jax.random.categorical(rng_key, params_p, shape=(n_twist, output_len))
    log_psi = evaluate_log_psi_selected_tokens(samples, params_twist)
    if exact_expectation:
        return -jax.nn.logsumexp(log_psi[:, -1]) + log_psi.mean()
    return -log_psi.mean()


get_l_one_total_kl_jit = partial(jax.jit, static_argnames=["output_len", "n_twist", "exact_expectation"])(get_l_one_total_kl)


def get_l_rl_based_partial_jit(rng_key, prompt, params_p, params_twist, output_len, n_twist,
                               evaluate_over_samples_from="p", loss_type="squared_error_in_log_space", stop_grad=True):
    logits = params_p if evaluate_over_samples_from == "p" else params_p + params_twist
    samples_to_evaluate_over = jax.random.categorical(rng_key, logits, shape=(n_twist, output_len))
    target_term = jnp.take(params_p, samples_to_evaluate_over).cumsum(axis=-1)
    if stop_grad:
        target_term = jax.lax.stop_gradient(target_term)
    values = evaluate_log_psi_selected_tokens(samples_to_evaluate_over, params_twist)
    if loss_type == "squared_error":
        return ((jnp.exp(values) - jnp.exp(target_term)) ** 2).mean()
    elif loss_type == "squared_error_in_log_space":
        return ((values - target_term) ** 2).mean()
    raise NotImplementedError


get_l_rl_based_jit = partial(jax.jit, static_argnames=["output_len", "n_twist", "evaluate_over_samples_from", "loss_type", "stop_grad"])(get_l_rl_based_partial_jit)


if __name__ == "__main__":
    rng_key = jax.random.PRNGKey(0)
    prompt = jnp.array([1, 2])
    params_p = jnp.log(jnp.array([0.1, 0.2, 0.3, 0.4]))
    params_twist = jnp.zeros(4)
    dre_grad_fn = jax.grad(partial(get_l_rl_based_jit, stop_grad=False, evaluate_over_samples_from="q",
                                   loss_type="squared_error_in_log_space"), argnums=3)
    for step in range(3):
        rng_key, sk = jax.random.split(rng_key)
        grad_params_twist = dre_grad_fn(sk, prompt, params_p, params_twist, 5, 8)
        params_twist = params_twist - 0.1 * grad_params_twist
    print(params_twist)
