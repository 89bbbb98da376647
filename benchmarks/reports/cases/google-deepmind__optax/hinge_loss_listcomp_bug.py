# source: https://github.com/google-deepmind/optax/pull/409
# category: A
# expect: raises
# via: jit-call, helper
# sink: python-if
"""The first version of the binary hinge loss mapped 0 labels to -1 with a Python list
comprehension (`-1 if i == 0 else i for i in predictions`) and averaged a Python list of arrays;
under jax.jit each element is a tracer and the comparison cannot be turned into a bool."""
import jax
import jax.numpy as jnp


def hinge_loss(predictions, targets):
    assert predictions.shape[0] == targets.shape[0], "Predictions and Target lengths must be consistent."
    # Binary Case
    new_predictions = jnp.array([-1 if i == 0 else i for i in predictions])  # <-- bug
    new_targets = jnp.array([-1 if i == 0 else i for i in targets])

    loss = jnp.mean(jnp.array([jnp.maximum(0.0, 1 - x * y) for x, y in zip(new_targets, new_predictions)]))
    return loss


if __name__ == "__main__":
    scores = jnp.array([0.9, -0.4, 0.2, -1.3])
    labels = jnp.array([1.0, -1.0, -1.0, 1.0])
    print(hinge_loss(scores, labels))
    print(jax.jit(hinge_loss)(scores, labels))
