# source: https://github.com/google-deepmind/kfac-jax/commit/0457eaaeb6a3a2285f54cd458f3ba000951a56ab
# category: C
# expect: ok
# via: jit-call, pytree-class, method, class-attribute
# sink: leaked-tracer
"""K-FAC's loss-function pytrees return every input, the weight included, as children (the
parameter dependants and independants) and keep no auxiliary data, so a loss built inside a
transformed function with a dynamic weight comes back with a concrete weight."""
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
  def parameter_independants(self):
    return self._targets, self._weight

  @property
  def weight(self):
    return self._weight

  def evaluate(self):
    log_probs = jax.nn.log_softmax(self._logits)
    return -self.weight * jnp.sum(log_probs * self._targets)

  def tree_flatten(self):
    return self.parameter_dependants + self.parameter_independants, None

  @classmethod
  def tree_unflatten(cls, aux, children):
    return cls(*children, **(aux or {}))


@jax.jit
def register_loss(logits, targets, weight):
  return CategoricalLogitsNegativeLogProbLoss(logits, targets, weight=weight)


if __name__ == "__main__":
  logits = jnp.array([[0.5, 1.0, -1.0], [0.0, 0.2, 0.1]])
  targets = jax.nn.one_hot(jnp.array([1, 2]), 3)
  for w in (0.5, 1.0):
    loss = register_loss(logits, targets, jnp.asarray(w))
    print(loss.evaluate())
