# source: https://github.com/RobertTLange/gymnax/issues/14
# category: B
# expect: raises
# via: jit-call, static-argnums, dict-of-arrays, host-loop
# sink: static-unhashable
"""gymnax's early environments kept their parameters in plain dicts; some entries (the Catch
board's `rows` and `columns`) fix the observation shape, so `reset` and `step` were jitted with the
parameter dict as a static argument, and a dict cannot be hashed.  The issue proposes immutable
FrozenDict parameters."""
import jax
import jax.numpy as jnp
from jax import jit

params_catch = {"max_steps_in_episode": 2000, "rows": 10, "columns": 5}


def sample_init_state(rng_input, params):
    ball_x = jax.random.randint(rng_input, shape=(), minval=0, maxval=params["columns"])
    return ball_x, 0, params["columns"] // 2, params["rows"] - 1


def get_obs(state, params):
    board = jnp.zeros((params["rows"], params["columns"]))
    board = board.at[state[1], state[0]].set(1.0)
    return board.at[state[3], state[2]].set(1.0)


def reset(rng_input, params):
    ball_x, ball_y, paddle_x, paddle_y = sample_init_state(rng_input, params)
    state = jnp.array([ball_x, ball_y, paddle_x, paddle_y, 0, 0])
    return get_obs(state, params), state


def step(rng_input, params, state, action):
    ball_x, ball_y, paddle_x, paddle_y = sample_init_state(rng_input, params)
    prev_done = state[5]
    paddle_x = jnp.clip(state[2] + action - 1, 0, params["columns"] - 1) * (1 - prev_done) + paddle_x * prev_done
    ball_y = (state[1] + 1) * (1 - prev_done) + ball_y * prev_done
    ball_x = state[0] * (1 - prev_done) + ball_x * prev_done
    paddle_y = state[3] * (1 - prev_done) + paddle_y * prev_done
    done = ball_y == paddle_y
    reward = done * jnp.where(paddle_x == ball_x, 1, -1)
    time = state[4] + 1
    state = jnp.array([ball_x, ball_y, paddle_x, paddle_y, time, done])
    return get_obs(state, params), state, reward, time > params["max_steps_in_episode"], {}


reset_catch = jit(reset, static_argnums=(1,))
step_catch = jit(step, static_argnums=(1,))


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    obs, state = reset_catch(rng, params_catch)  # <-- bug
    total = 0
    for t in range(12):
        rng, key = jax.random.split(rng)
        obs, state, reward, done, _ = step_catch(key, params_catch, state, 1)
        total += int(reward)
    print(obs.shape, total)
