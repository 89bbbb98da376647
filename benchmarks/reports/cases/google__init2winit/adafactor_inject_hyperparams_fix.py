# source: https://github.com/google/init2winit/commit/8edfa41e88bfd34338eb8081e18c39d33a906ba1
# category: A
# expect: ok
# via: optax, jit-call, helper, host-loop
# sink: python-if
"""`get_optimizer` wraps the stock `optax.adafactor` in `optax.inject_hyperparams` so the
learning rate can be injected each step; inject_hyperparams turns every numeric hyperparameter
into a traced array, including `min_dim_size_to_factor`, which adafactor compares in Python
while deciding which dimensions to factor, so the jitted init fails. The fix passes
`static_args='min_dim_size_to_factor'`."""
import jax
import jax.numpy as jnp
import optax


def get_optimizer(hps):
    opt_init, opt_update = optax.inject_hyperparams(
        optax.adafactor, static_args='min_dim_size_to_factor')(
            learning_rate=0.0,  # Manually injected on each train step.
            min_dim_size_to_factor=hps['min_dim_size_to_factor'],
            decay_rate=hps['adafactor_decay_rate'],
            clipping_threshold=hps['clipping_threshold'])
    return opt_init, opt_update


def inject_learning_rate(optimizer_state, lr):
    optimizer_state.hyperparams['learning_rate'] = lr
    return optimizer_state


@jax.jit
def train_step(params, optimizer_state, x, lr):
    optimizer_state = inject_learning_rate(optimizer_state, lr)
    grad = jax.grad(lambda p: jnp.sum((x @ p['w'] + p['b']) ** 2))(params)
    updates, optimizer_state = opt_update(grad, optimizer_state, params)
    return optax.apply_updates(params, updates), optimizer_state


if __name__ == "__main__":
    hps = {'min_dim_size_to_factor': 128, 'adafactor_decay_rate': 0.8, 'clipping_threshold': 1.0}
    opt_init, opt_update = get_optimizer(hps)
    params = {'w': jnp.ones((256, 200)) * 0.01, 'b': jnp.zeros((200,))}
    optimizer_state = jax.jit(opt_init)(params)
    x = jnp.ones((4, 256))
    for step in range(3):
        params, optimizer_state = train_step(params, optimizer_state, x, jnp.float32(0.01))
    print(jnp.sum(params['w']))
