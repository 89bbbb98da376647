# source: https://github.com/google-deepmind/optax/pull/409
# category: A
# expect: ok
# via: jit-call, helper
# sink: python-if
"""The binary hinge loss written with array operations (`jnp.maximum(0, 1 - predictions * targets)`
averaged with `jnp.mean`), as the pull request made it, so jax.jit can trace it."""
import jax
import jax.numpy as jnp


def hinge_loss(predictions, targets):
    assert predictions.shape[0] == targets.shape[0], "Predictions and Target lengths must be consistent."
    # Binary Case
    return jnp.mean(jnp.maximum(0, 1 - predictions * targets))


if __name__ == "__main__":
    scores = jnp.array([0.9, -0.4, 0.2, -1.3])
    labels = jnp.array([1.0, -1.0, -1.0, 1.0])
    print(hinge_loss(scores, labels))
    print(jax.jit(hinge_loss)(scores, labels))
