# source: https://github.com/google-research/scenic/commit/a69dfe080ead7f96319be86eedd8f7506a299b3d
# category: A
# expect: raises
# via: jit-call, helper, factory-closure, lax-fori, dict-of-arrays
# sink: python-if
"""Gradient accumulation slices micro-batches inside a lax.fori_loop body; the slicing helper
asserted that the (traced) loop index stays inside the batch, which needs a concrete bool."""
from typing import Dict

import jax
import jax.numpy as jnp


def accumulate_gradients(compute_gradient_fn, params, batch, accum_steps):
  batch_size = next(iter(batch.values())).shape[0]
  microbatch_size = batch_size // accum_steps

  def get_microbatch(batch: Dict[str, jnp.ndarray], idx: int) -> Dict[str, jnp.ndarray]:
    """Fetch microbatch slice from the given batch."""
    assert microbatch_size * idx < batch_size  # <-- bug
    return jax.tree_util.tree_map(
        lambda x: x.reshape((-1, microbatch_size) + x.shape[1:])[idx], batch)

  def per_microbatch_compute_gradient_fn(loop_cnt, loop_state):
    grad_accum, loss_accum = loop_state
    mbatch = get_microbatch(batch, loop_cnt)
    loss, grad = compute_gradient_fn(params, mbatch)
    grad = jax.tree_util.tree_map(jnp.add, grad_accum, grad)
    return grad, loss_accum + loss

  init_loss, grad_init = compute_gradient_fn(params, get_microbatch(batch, 0))
  grad_acc, loss = jax.lax.fori_loop(
      1, accum_steps, per_microbatch_compute_gradient_fn, (grad_init, init_loss))
  return jax.tree_util.tree_map(lambda g: g / accum_steps, grad_acc), loss / accum_steps


def training_loss_fn(params, batch):
  pred = batch["inputs"] @ params["w"]
  return jnp.mean((pred - batch["label"]) ** 2)


@jax.jit
def train_step(params, batch):
  return accumulate_gradients(
      jax.value_and_grad(lambda p, b: training_loss_fn(p, b)), params, batch, accum_steps=4)


if __name__ == "__main__":
  params = {"w": jnp.ones((3,))}
  batch = {"inputs": jnp.arange(24.0).reshape(8, 3), "label": jnp.arange(8.0)}
  grads, loss = train_step(params, batch)
  print(grads["w"], loss)
