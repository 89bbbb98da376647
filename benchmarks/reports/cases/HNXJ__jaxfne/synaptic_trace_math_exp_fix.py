# source: https://github.com/HNXJ/jaxfne/commit/a70e97bcf0e760b7dec163ee209f1bd29fca2bbd
# category: A
# expect: ok
# via: helper, jit-call, grad
# sink: math-call
"""The decay factor is `jnp.exp(-dt_ms / tau_ms)` and the trace runs in `jax.lax.scan`, so the
jitted gradient with respect to the synaptic time constant traces."""
import jax
import jax.numpy as jnp


def exponential_synaptic_trace(spikes, tau_ms, dt_ms):
    """Compute exponential synaptic trace from spike times."""
    alpha = jnp.exp(-dt_ms / tau_ms)
    spikes_arr = jnp.asarray(spikes, dtype=jnp.float32)

    def body_fun(carry, step_spikes):
        next_carry = alpha * carry + step_spikes
        return next_carry, next_carry

    T, N = spikes_arr.shape
    init_carry = jnp.zeros(N, dtype=jnp.float32)
    _, trace = jax.lax.scan(body_fun, init_carry, spikes_arr)
    return trace


def synaptic_current(spikes, W, tau_ms, dt_ms):
    """Compute synaptic current from spikes and connectivity matrix."""
    trace = exponential_synaptic_trace(spikes, tau_ms, dt_ms)
    return jnp.dot(trace, W.T)


if __name__ == "__main__":
    spikes = (jax.random.uniform(jax.random.PRNGKey(0), (40, 6)) < 0.2).astype(jnp.float32)
    W = jax.random.normal(jax.random.PRNGKey(1), (3, 6))
    target = synaptic_current(spikes, W, 8.0, 1.0)

    loss = lambda tau: jnp.mean((synaptic_current(spikes, W, tau, 1.0) - target) ** 2)
    grad_fn = jax.jit(jax.grad(loss))
    tau = jnp.float32(4.0)
    for _ in range(3):
        tau = tau - 5.0 * grad_fn(tau)
    print(tau)
