# source: https://github.com/google/trax/commit/a0b31efff800b7388f94ac4eee04e9cbd9cf40c3
# category: C
# expect: ok
# via: method, class-attribute, eval-shape
# sink: leaked-tracer
"""A Trax layer creates its PRNG key lazily from an integer seed and caches it on the layer;
the weights' signature now reads the key before the abstract evaluation of `init` and sets it
back afterwards, so no tracer stays on the layer."""
import jax
import jax.numpy as jnp


class Layer:
  def __init__(self, n_units):
    self._n_units = n_units
    self._rng = 17
    self.weights = None

  @property
  def rng(self):
    if isinstance(self._rng, int):
      self._rng = jax.random.PRNGKey(self._rng)
    return self._rng

  @rng.setter
  def rng(self, rng):
    self._rng = rng

  def init_weights_and_state(self, input_signature):
    shape = (input_signature.shape[-1], self._n_units)
    return jax.random.normal(self.rng, shape) * 0.1

  def init(self, input_signature):
    return self.init_weights_and_state(input_signature)

  def weights_and_state_signature(self, input_signature):
    """Return the signature of the weights."""
    rng = self.rng
    abstract_init = jax.eval_shape(self.init, input_signature)
    self.rng = rng
    return abstract_init


if __name__ == "__main__":
  layer = Layer(4)
  sig = jax.ShapeDtypeStruct((2, 3), jnp.float32)
  print(layer.weights_and_state_signature(sig).shape)
  layer.weights = layer.init(sig)
  print(layer.weights.shape, float(jnp.abs(layer.weights).sum()) > 0)
