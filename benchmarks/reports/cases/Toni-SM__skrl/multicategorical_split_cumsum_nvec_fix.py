# source: https://github.com/Toni-SM/skrl/commit/08c01d9ae886e5de20914e216fbbde7e55ff9c33
# category: A
# expect: ok
# via: method, jit-decorator
# sink: shape-from-value
"""A multi-categorical policy splits its logits with jnp.split at jnp.cumsum(action_space.nvec);
when the PPO loss that calls `act` is jitted, the cumsum is a tracer and jnp.split cannot use
traced split points."""
import jax
import jax.numpy as jnp
import numpy as np


class MultiDiscrete:
    def __init__(self, nvec):
        self.nvec = np.asarray(nvec)


class MultiCategoricalPolicy:
    def __init__(self, num_observations, action_space):
        self.action_space = action_space
        self._action_space_nvec = np.cumsum(action_space.nvec).tolist()
        self.num_actions = int(np.sum(action_space.nvec))
        key = jax.random.PRNGKey(0)
        self.params = {"w": 0.1 * jax.random.normal(key, (num_observations, self.num_actions))}

    def apply(self, params, inputs, role=""):
        return inputs["states"] @ params["w"], {}

    def act(self, inputs, role="", params=None):
        net_output, outputs = self.apply(self.params if params is None else params, inputs, role)
        net_outputs = jnp.split(net_output, self._action_space_nvec, axis=-1)
        taken = jnp.split(inputs["taken_actions"], len(self.action_space.nvec), axis=-1)
        log_prob = []
        for logits, actions in zip(net_outputs, taken):
            logp = jax.nn.log_softmax(logits, axis=-1)
            log_prob.append(jnp.take_along_axis(logp, actions.astype(jnp.int32), axis=-1))
        return None, jnp.concatenate(log_prob, axis=-1).sum(-1), outputs


policy = MultiCategoricalPolicy(4, MultiDiscrete([3, 2]))


@jax.jit
def _policy_loss(params, states, taken_actions, advantages):
    _, log_prob, _ = policy.act({"states": states, "taken_actions": taken_actions}, role="policy", params=params)
    return -(log_prob * advantages).mean()


if __name__ == "__main__":
    states = jnp.ones((8, 4))
    taken_actions = jnp.zeros((8, 2))
    advantages = jnp.ones((8,))
    print(_policy_loss(policy.params, states, taken_actions, advantages))
