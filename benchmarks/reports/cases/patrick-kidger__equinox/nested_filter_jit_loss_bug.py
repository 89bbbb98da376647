# source: https://github.com/patrick-kidger/equinox/issues/307
# category: R
# expect: recompiles
# via: equinox, factory-closure, grad, optax, host-loop
# sink: fresh-callable
"""A policy-gradient training step put @eqx.filter_jit on the loss function defined inside the
(unjitted) `train` function.  Each call of `train` builds a new loss function, so filter_jit
compiles it again on every episode and training slows to a crawl; jitting `train` itself
(the placement the reporter marked as fast) compiles once."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def get_future_rewards(rewards, gamma=0.99):
    def body(carry, r):
        carry = r + gamma * carry
        return carry, carry

    _, out = jax.lax.scan(body, 0.0, rewards[::-1])
    return out[::-1]


def policy_gradient_loss(logits_t, a_t, adv_t, w_t):
    log_pi = jax.nn.log_softmax(logits_t)
    log_pi_a = jnp.take_along_axis(log_pi, a_t[:, None], axis=-1)[:, 0]
    return -jnp.mean(log_pi_a * adv_t * w_t)


def train(t_optim, t_opt_state, t_params, t_eps_obs, t_eps_actions, t_eps_rewards):
    @eqx.filter_jit
    def loss_fn(l_model, l_states, l_rewards, l_actions):
        logits = jax.vmap(l_model)(l_states)
        advantages = get_future_rewards(l_rewards)
        actions = l_actions.reshape(-1)
        return policy_gradient_loss(logits, actions, advantages, jnp.ones_like(advantages))

    grads = eqx.filter_grad(loss_fn)(t_params, t_eps_obs, t_eps_rewards, t_eps_actions)  # <-- bug
    updates, t_opt_state = t_optim.update(grads, t_opt_state, t_params)
    t_params = eqx.apply_updates(t_params, updates)
    return t_params, t_opt_state


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    model = eqx.nn.MLP(4, 2, 8, 1, key=key)
    optim = optax.adam(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    obs = jax.random.normal(key, (16, 4))
    actions = jnp.arange(16) % 2
    rewards = jnp.ones(16)
    for episode in range(3):
        model, opt_state = train(optim, opt_state, model, obs, actions, rewards)
        print(episode, model.layers[0].bias[:2])
