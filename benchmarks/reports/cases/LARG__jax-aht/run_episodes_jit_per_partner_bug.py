# source: https://github.com/LARG/jax-aht/pull/112
# category: R
# expect: recompiles
# via: helper, jit-call, vmap, lax-scan, factory-closure, method, host-loop
# sink: fresh-callable
"""The held-out evaluation calls `run_episodes` once per partner, and `run_episodes` builds a new
`jax.jit(jax.vmap(lambda ...))` each time with the partner's parameters closed over as
constants, so every partner pays a full compile even when partners share a policy.  The pull
request passes the parameters as arguments and memoizes the jitted runner on its static key."""
import jax
import jax.numpy as jnp


class ToyEnv:
    agents = ["agent_0", "agent_1"]

    def reset(self, rng):
        return jax.random.normal(rng, (4,))

    def step(self, state, act_0, act_1):
        state = 0.9 * state + 0.1 * (act_0 - act_1)
        return state, -jnp.sum(state ** 2)


class MLPPolicy:
    def get_action(self, params, obs, test_mode=False):
        return jnp.tanh(obs @ params["w"] + params["b"])


def run_single_episode(rng, env, agent_0_param, agent_0_policy, agent_1_param, agent_1_policy,
                       max_episode_steps, agent_0_test_mode=False, agent_1_test_mode=False):
    state = env.reset(rng)

    def scan_step(carry, _):
        state, ret = carry
        act_0 = agent_0_policy.get_action(agent_0_param, state, agent_0_test_mode)
        act_1 = agent_1_policy.get_action(agent_1_param, state, agent_1_test_mode)
        state, reward = env.step(state, act_0, act_1)
        return (state, ret + reward), None

    (state, ret), _ = jax.lax.scan(scan_step, (state, 0.0), None, length=max_episode_steps)
    return ret


def run_episodes(rng, env, agent_0_param, agent_0_policy, agent_1_param, agent_1_policy,
                 max_episode_steps, num_eps, agent_0_test_mode=False, agent_1_test_mode=False):
    ep_rngs = jax.random.split(rng, num_eps + 1)[1:]
    vmap_run_single_episode = jax.jit(jax.vmap(
        lambda ep_rng: run_single_episode(
            ep_rng, env, agent_0_param, agent_0_policy, agent_1_param, agent_1_policy,
            max_episode_steps, agent_0_test_mode, agent_1_test_mode)
    ))
    return vmap_run_single_episode(ep_rngs)  # <-- bug


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"w": jax.random.normal(k1, (4, 4)) * 0.1, "b": jax.random.normal(k2, (4,)) * 0.1}


if __name__ == "__main__":
    env, policy = ToyEnv(), MLPPolicy()
    ego_param = init_params(jax.random.PRNGKey(0))
    heldout = [init_params(jax.random.PRNGKey(i)) for i in range(1, 5)]
    rng = jax.random.PRNGKey(42)
    for i, partner_param in enumerate(heldout):
        returns = run_episodes(rng, env, ego_param, policy, partner_param, policy,
                               max_episode_steps=10, num_eps=8)
        print(i, jnp.mean(returns))
