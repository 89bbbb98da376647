# source: https://github.com/google-research/scenic/commit/da0a6a321907d34a9915aab26de41a19fb9be3a3
# category: A
# expect: ok
# via: jit-call, helper, factory-closure
# sink: bool-ops
"""The polynomial learning-rate schedule masks the decay with a traced comparison instead of
clipping the step with Python's min(), so it works on the traced step of a jitted train step."""
import jax
import jax.numpy as jnp


def polynomial_lr_scheduler(step, decay_steps, end_factor, power):
  decay = step <= decay_steps
  decayed_learning_rate = (1 - end_factor) * (
      decay * (1 - step / decay_steps))**(power) + end_factor
  return decayed_learning_rate


def create_learning_rate_fn(base_learning_rate, decay_steps, end_factor, power):
  def step_fn(step):
    ratio = base_learning_rate
    ratio *= polynomial_lr_scheduler(step, decay_steps, end_factor, power)
    return jnp.asarray(ratio, dtype=jnp.float32)
  return step_fn


if __name__ == "__main__":
  lr_fn = create_learning_rate_fn(0.1, decay_steps=100, end_factor=0.01, power=1.0)
  train_step = jax.jit(lambda step, w: w - lr_fn(step) * w)
  w = jnp.ones(2)
  for step in range(3):
    w = train_step(jnp.asarray(step * 60), w)
  print(w)
