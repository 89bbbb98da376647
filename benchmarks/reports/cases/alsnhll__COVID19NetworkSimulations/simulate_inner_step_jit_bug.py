# source: https://github.com/alsnhll/COVID19NetworkSimulations/pull/10
# category: R
# expect: recompiles
# via: jit-decorator, factory-closure, lax-fori, host-loop
# sink: fresh-callable
"""`simulate` defined its jitted `step` inside the function, closing over the contact matrix,
the probabilities and the state-length sampler.  Every call to `simulate` (one per run of the
experiment) made a new `step`, so the epidemic step was traced and compiled again for each run
and the compiled copies accumulated in memory."""
import jax.numpy as np
from jax import jit, random
from jax.lax import fori_loop


def state_length_sampler(key, n):
    return 1 + random.poisson(key, 3.0, (n,))


def interaction_step(key, state, state_timer, w, infection_probabilities, state_length_sampler):
    key, k1, k2 = random.split(key, 3)
    pressure = w @ (state == 2)
    infect = (state == 0) & (random.uniform(k1, state.shape) < infection_probabilities * pressure)
    state = np.where(infect, 1, state)
    state_timer = np.where(infect, state_length_sampler(k2, state.shape[0]), state_timer)
    return key, state, state_timer


def developing_step(key, state, state_timer, recovery_probabilities, state_length_sampler):
    key, k1 = random.split(key)
    state_timer = state_timer - 1
    to_develop = (state_timer <= 0) & (state > 0) & (state < 3)
    state = np.where(to_develop, state + 1, state)
    state_timer = np.where(to_develop, state_length_sampler(k1, state.shape[0]), state_timer)
    return key, state, state_timer


def simulate(w, total_steps, state_length_sampler, infection_probabilities, recovery_probabilities,
             init_state, init_state_timer, key=0, epoch_len=1):
    key = random.PRNGKey(key)

    @jit
    def step(t, args):
        del t
        key, state, state_timer = args
        key, state, state_timer = interaction_step(
            key, state, state_timer, w, infection_probabilities, state_length_sampler)
        key, state, state_timer = developing_step(
            key, state, state_timer, recovery_probabilities, state_length_sampler)
        return key, state, state_timer

    state, state_timer = init_state, init_state_timer
    history = []
    for epoch in range(total_steps // epoch_len):
        key, state, state_timer = fori_loop(0, epoch_len, step, (key, state, state_timer))  # <-- bug
        history.append(float(np.mean(state == 3)))
    return history


if __name__ == "__main__":
    n = 50
    w = random.bernoulli(random.PRNGKey(1), 0.1, (n, n)).astype(np.float32)
    init_state = np.zeros(n, np.int32).at[:3].set(2)
    init_state_timer = np.full(n, 3, np.int32)
    for run in range(3):
        history = simulate(w, 8, state_length_sampler, np.full(n, 0.3), np.full(n, 0.1), init_state, init_state_timer, key=run, epoch_len=4)  # <-- bug
        print(run, [round(h, 2) for h in history])
