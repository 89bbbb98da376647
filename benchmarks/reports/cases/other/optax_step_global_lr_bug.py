# source: https://openillumi.com/en/en-jax-jit-external-variable-implicit-argument-jaxpr
# category: C
# expect: stale
# via: jit-decorator, optax, host-loop
# sink: closure-global
"""Following the Optax training-loop example, a user scales the updates inside a jitted step by a
module-level extra_learning_rate and lowers it during training; jit captured the value at trace
time, so the later steps still use the old rate."""
import jax
import jax.numpy as jnp
import optax

optimizer = optax.sgd(learning_rate=1.0)
extra_learning_rate = 0.1


def loss_fn(params, batch, labels):
    return jnp.mean((batch @ params["w"] - labels) ** 2)


@jax.jit
def step(params, opt_state, batch, labels):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch, labels)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    updates = jax.tree.map(lambda u: u * extra_learning_rate, updates)  # <-- bug
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
        params, opt_state, loss = step(params, opt_state, batch, labels)
        print(i, loss)
    print(params["w"])
