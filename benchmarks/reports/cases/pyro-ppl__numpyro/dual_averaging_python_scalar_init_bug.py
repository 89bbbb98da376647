# source: https://github.com/pyro-ppl/numpyro/pull/963
# category: R
# expect: recompiles
# via: factory-closure, jit-call, host-loop
# sink: weak-type
"""NumPyro's `dual_averaging` step-size adapter started its state from Python scalars
(`x_t = 0.`, `t = 0`, ...), while its update returns arrays.  A warmup loop that jits the update
and feeds each state back in traces it with weakly typed scalars on the first call and with
float32 arrays on the next, so it compiles twice; the pull request builds the initial state from
`jnp.zeros(())` and an int array instead.  (The adapter is reduced here as it was then.)"""
import jax
import jax.numpy as jnp


def dual_averaging(t0=10, kappa=0.75, gamma=0.05):
    def init_fn(prox_center=0.0):
        x_t = 0.0
        x_avg = 0.0
        g_avg = 0.0
        t = 0
        return x_t, x_avg, g_avg, t, prox_center

    def update_fn(g, state):
        x_t, x_avg, g_avg, t, prox_center = state
        t = t + 1
        g_avg = (1 - 1 / (t + t0)) * g_avg + g / (t + t0)
        x_t = prox_center - (t**0.5) / gamma * g_avg
        weight_t = t ** (-kappa)
        x_avg = (1 - weight_t) * x_avg + weight_t * x_t
        return x_t, x_avg, g_avg, t, prox_center

    return init_fn, update_fn


if __name__ == "__main__":
    step_size = 0.5
    target_accept_prob = 0.8
    da_init, da_update = dual_averaging()
    da_update = jax.jit(da_update)
    da_state = da_init(jnp.log(10.0 * step_size))
    for accept_prob in jnp.array([0.3, 0.5, 0.9, 0.7, 0.85]):
        da_state = da_update(target_accept_prob - accept_prob, da_state)  # <-- bug
        log_step_size, log_step_size_avg = da_state[:2]
        print(float(jnp.exp(log_step_size)), float(jnp.exp(log_step_size_avg)))
