# source: https://github.com/NeilGirdhar/tjax/blob/ad413b0266dddef4e2b8a1700d2d16a71ed7eaa1/examples/recompilation.py
# category: R
# expect: ok
# via: jit-decorator, dataclass, optax, host-loop
# sink: changing-static
"""tjax's recompilation example builds an optax `adam(learning_rate)` for each learning rate of a
sweep and hands it to a jitted model function as a static argument: every new
GradientTransformation hashes differently, so the function is compiled again on every pass of
the loop.  tjax's own `Adam` is a dataclass pytree whose learning rate is a traced leaf, so
passing it as an ordinary argument compiles once.  (tjax is not installed: its `Adam` is
reduced here.)"""
import flax
import jax
import jax.numpy as jnp
import optax


@flax.struct.dataclass
class Adam:
    learning_rate: float

    def init(self, params):
        return optax.scale_by_adam().init(params)

    def update(self, grads, state, params):
        updates, state = optax.scale_by_adam().update(grads, state, params)
        return jax.tree_util.tree_map(lambda u: -self.learning_rate * u, updates), state


def loss(params, x):
    return jnp.mean((x @ params["w"] - 1.0) ** 2)


@jax.jit
def try_model_tjax(params, x, tjax_gt):
    state = tjax_gt.init(params)
    for _ in range(3):
        grads = jax.grad(loss)(params, x)
        updates, state = tjax_gt.update(grads, state, params)
        params = optax.apply_updates(params, updates)
    return loss(params, x)


if __name__ == "__main__":
    x = jnp.arange(12.0).reshape(4, 3) / 10.0
    params = {"w": jnp.zeros((3,))}
    for learning_rate in [0.1, 0.2, 0.4, 0.8]:
        tjax_gt = Adam(learning_rate)
        final_loss = try_model_tjax(params, x, tjax_gt=tjax_gt)
        print(learning_rate, float(final_loss))
