# source: https://github.com/google/trajax/commit/0e413b22edc293deb9b3e9f8a5feec9f61c400d1
# category: B
# expect: raises
# via: partial-jit, static-argnums, helper, vmap, dict-of-arrays
# sink: static-spec
"""Trajax's `random_shooting` was jitted with only `cost` and `dynamics` static, so a
hyperparameter dict passed by the caller is traced, and `gaussian_samples` cannot build its noise
array from a traced `num_samples`.  (Rollout and objective are reduced; the acrobot of the test
is replaced by a small linear system.)"""
from functools import partial

import jax
import jax.numpy as np
from jax import jit, random, vmap


def rollout(dynamics, U, x0):
    def step(x, args):
        u, t = args
        x_next = dynamics(x, u, t)
        return x_next, x_next
    _, X = jax.lax.scan(step, x0, (U, np.arange(U.shape[0])))
    return np.vstack([x0[None], X])


def _objective(cost, dynamics, U, x0):
    X = rollout(dynamics, U, x0)
    T = U.shape[0]
    U_pad = np.vstack([U, np.zeros((1, U.shape[1]))])
    return np.sum(vmap(cost)(X, U_pad, np.arange(T + 1)))


def gaussian_samples(random_key, mean, stdev, control_low, control_high, hyperparams):
    num_samples = hyperparams['num_samples']
    horizon, dim_control = mean.shape
    noises = jax.random.normal(random_key, shape=(num_samples, horizon, dim_control))  # <-- bug
    smoothing_coef = hyperparams['sampling_smoothing']
    noises = noises.at[:, 1:].set(smoothing_coef * noises[:, :-1] + (1 - smoothing_coef) * noises[:, 1:])
    return np.clip(mean + noises * stdev, control_low, control_high)


@partial(jit, static_argnums=(0, 1))
def random_shooting(cost, dynamics, init_state, init_controls, control_low, control_high,
                    random_key=None, hyperparams=None):
    if random_key is None:
        random_key = random.PRNGKey(0)
    mean = np.array(init_controls)
    stdev = np.array([(control_high - control_low) / 2.] * init_controls.shape[0])
    obj_fn = partial(_objective, cost, dynamics)
    controls = gaussian_samples(random_key, mean, stdev, control_low, control_high, hyperparams)
    costs = vmap(obj_fn, in_axes=(0, None))(controls, init_state)
    best_idx = np.argmin(costs)
    U = controls[best_idx]
    return rollout(dynamics, U, init_state), U, costs[best_idx]


if __name__ == "__main__":
    T = 20
    goal = np.array([1.0, 0.0])
    dynamics = lambda x, u, t: x + 0.1 * np.array([x[1], u[0]])
    cost = lambda x, u, t: np.dot(x - goal, x - goal) + 0.01 * np.dot(u, u)
    cem_hyperparams = {'sampling_smoothing': 0.2, 'evolution_smoothing': 0.1,
                       'elite_portion': 0.1, 'max_iter': 100, 'num_samples': 2_000}
    X_opt, U_opt, obj = random_shooting(cost, dynamics, np.zeros(2), np.zeros((T, 1)),
                                        np.array([-10.0]), np.array([10.0]),
                                        hyperparams=cem_hyperparams)
    print(obj, X_opt[-1])
