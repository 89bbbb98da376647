# source: https://github.com/huggingface/transformers/pull/17863
# category: R
# expect: recompiles
# via: flax-linen, jit-call, host-loop, dict-of-arrays
# sink: changing-shape
"""The Flax example scripts evaluated with a data loader that kept the last, incomplete batch, so
the compiled eval step saw a second batch shape at the end of every evaluation pass and was
compiled again for it."""
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
        yield {k: jnp.asarray(v[start:start + batch_size]) for k, v in dataset.items()}


def eval_step(params, batch):
    logits = model.apply({"params": params}, batch["inputs"])
    loss = -jnp.take_along_axis(jax.nn.log_softmax(logits), batch["labels"][:, None], axis=-1)
    return {"loss": jnp.sum(loss), "count": jnp.asarray(batch["labels"].shape[0], jnp.float32)}


p_eval_step = jax.jit(eval_step)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    eval_dataset = {"inputs": rng.normal(size=(20, 4)).astype(np.float32), "labels": rng.integers(0, 3, size=20)}
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
    for epoch in range(2):
        total, count = 0.0, 0.0
        for batch in data_loader(eval_dataset, batch_size=8):
            metrics = p_eval_step(params, batch)  # <-- bug
            total += float(metrics["loss"])
            count += float(metrics["count"])
        print(epoch, round(total / count, 4))
