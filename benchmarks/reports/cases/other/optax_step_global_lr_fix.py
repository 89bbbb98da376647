# source: https://openillumi.com/en/en-jax-jit-external-variable-implicit-argument-jaxpr
# category: C
# expect: ok
# via: jit-decorator, optax, host-loop
# sink: closure-global
"""Following the Optax training-loop example, a user passes the extra learning rate to the jitted
step as an argument, so lowering it during training takes effect on the next step."""
import jax
import jax.numpy as jnp
import optax

optimizer = optax.sgd(learning_rate=1.0)
extra_learning_rate = 0.1


def loss_fn(params, batch, labels):
    return jnp.mean((batch @ params["w"] - labels) ** 2)


@jax.jit
def step(params, opt_state, batch, labels, extra_lr):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch, labels)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    updates = jax.tree.map(lambda u: u * extra_lr, updates)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


if __name__ == "__main__":
    batch = jnp.arange(12.0).reshape(4, 3) / 10.0
    labels = jnp.array([1.0, 2.0, 3.0, 4.0])
    params = {"w": jnp.zeros(3)}
    opt_state = optimizer.init(params)
    for i in range(6):
        if i == 3:
            extra_learning_rate = 0.01
        params, opt_state, loss = step(params, opt_state, batch, labels, extra_learning_rate)
        print(i, loss)
    print(params["w"])
