# source: https://github.com/google-research/t5x/commit/4129db381d22fb133096be5bbedec275047c0292
# category: R
# expect: recompiles
# via: method, partial-jit, factory-closure, host-loop
# sink: fresh-callable
"""The interactive model built its partitioned inference function afresh (a new
`functools.partial` of the infer step, jitted again) on every inference call, so each call
compiled the same step again."""
import functools

import jax
import jax.numpy as jnp


def get_infer_fn(infer_step, batch_size):
  partitioned_infer_step = jax.jit(infer_step)

  def infer_fn(ds, train_state):
    outs = [partitioned_infer_step(train_state, ds[i:i + batch_size])
            for i in range(0, ds.shape[0], batch_size)]
    return jnp.concatenate(outs)
  return infer_fn


def predict_batch(train_state, batch, decoder_params=None):
  temperature = decoder_params["temperature"] if decoder_params else 1.0
  return jnp.argmax(batch @ train_state["w"] / temperature, axis=-1)


class InteractiveModel:
  def __init__(self, batch_size, train_state):
    self._batch_size = batch_size
    self._train_state = train_state

  def infer_with_preprocessors(self, ds, **inference_kwargs):
    infer_step = predict_batch
    infer_fn = functools.partial(
        get_infer_fn(
            infer_step=functools.partial(infer_step, **inference_kwargs),
            batch_size=self._batch_size,
        ),
        train_state=self._train_state,
    )
    return infer_fn(ds)  # <-- bug


if __name__ == "__main__":
  model = InteractiveModel(batch_size=4, train_state={"w": jnp.arange(12.0).reshape(3, 4)})
  for step in range(3):
    ds = jnp.ones((8, 3)) * step
    print(model.infer_with_preprocessors(ds, decoder_params={"temperature": 0.5}))
