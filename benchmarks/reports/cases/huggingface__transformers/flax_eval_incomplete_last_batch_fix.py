# source: https://github.com/huggingface/transformers/pull/17863
# category: R
# expect: ok
# via: flax-linen, jit-call, host-loop, dict-of-arrays
# sink: changing-shape
"""The incomplete last batch is padded up to the full batch size and the padded examples are
masked out of the metrics, so every eval batch has the same shape and the eval step compiles
once while still covering the whole evaluation set."""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Classifier(nn.Module):
    num_labels: int = 3

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.num_labels)(nn.relu(nn.Dense(16)(x)))


model = Classifier()


def data_loader(dataset, batch_size):
    for start in range(0, len(dataset["labels"]), batch_size):
        batch = {k: v[start:start + batch_size] for k, v in dataset.items()}
        n = len(batch["labels"])
        pad = batch_size - n
        batch = {k: np.concatenate([v, np.zeros((pad,) + v.shape[1:], v.dtype)]) for k, v in batch.items()}
        batch["mask"] = (np.arange(batch_size) < n).astype(np.float32)
        yield {k: jnp.asarray(v) for k, v in batch.items()}


def eval_step(params, batch):
    logits = model.apply({"params": params}, batch["inputs"])
    loss = -jnp.take_along_axis(jax.nn.log_softmax(logits), batch["labels"][:, None], axis=-1)[:, 0]
    return {"loss": jnp.sum(loss * batch["mask"]), "count": jnp.sum(batch["mask"])}


p_eval_step = jax.jit(eval_step)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    eval_dataset = {"inputs": rng.normal(size=(20, 4)).astype(np.float32), "labels": rng.integers(0, 3, size=20)}
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
    for epoch in range(2):
        total, count = 0.0, 0.0
        for batch in data_loader(eval_dataset, batch_size=8):
            metrics = p_eval_step(params, batch)
            total += float(metrics["loss"])
            count += float(metrics["count"])
        print(epoch, round(total / count, 4))
