# source: https://github.com/google-deepmind/kfac-jax/commit/0457eaaeb6a3a2285f54cd458f3ba000951a56ab
# category: C
# expect: raises
# via: jit-call, pytree-class, method, class-attribute
# sink: leaked-tracer
"""K-FAC's loss-function pytrees flattened their `weight` into the auxiliary (static) data; when
the weight is dynamic, a loss built inside a transformed function carries the tracer out in its
tree definition, and evaluating the returned loss uses the escaped tracer."""
import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class CategoricalLogitsNegativeLogProbLoss:
  def __init__(self, logits, targets=None, weight=1.0):
    self._logits, self._targets, self._weight = logits, targets, weight

  @property
  def parameter_dependants(self):
    return (self._logits,)

  @property
  def weight(self):
    return self._weight

  def evaluate(self):
    log_probs = jax.nn.log_softmax(self._logits)
    return -self.weight * jnp.sum(log_probs * self._targets)  # <-- bug

  def tree_flatten(self):
    aux = dict(weight=self._weight)
    return (self._logits, self._targets), aux

  @classmethod
  def tree_unflatten(cls, aux_data, children):
    return cls(*children, **aux_data)


@jax.jit
def register_loss(logits, targets, weight):
  return CategoricalLogitsNegativeLogProbLoss(logits, targets, weight=weight)


if __name__ == "__main__":
  logits = jnp.array([[0.5, 1.0, -1.0], [0.0, 0.2, 0.1]])
  targets = jax.nn.one_hot(jnp.array([1, 2]), 3)
  for w in (0.5, 1.0):
    loss = register_loss(logits, targets, jnp.asarray(w))
    print(loss.evaluate())  # <-- bug
