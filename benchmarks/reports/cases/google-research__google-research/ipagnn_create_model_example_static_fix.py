# source: https://github.com/google-research/google-research/issues/1025
# category: B
# expect: ok
# via: partial-jit, static-argnums, method, flax-linen, dict-of-arrays
# sink: static-unhashable
"""IPA-GNN's adapter initialises the model inside a jitted `create_model` whose `example` and
model class are both static arguments; `example` is a dict of NumPy arrays from the dataset,
which cannot be hashed, so jit refuses it.  Only the model class needs to be static; the
example is traced."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn


class StatementModel(nn.Module):
    vocab_size: int = 50
    hidden: int = 16

    @nn.compact
    def __call__(self, example):
        x = nn.Embed(self.vocab_size, self.hidden)(example["code_statements"])
        x = x.mean(axis=(-2, -3))
        return nn.Dense(self.vocab_size)(x)


class BaseAdapter:
    def __init__(self, model_cls):
        self.model_cls = model_cls

    def as_example(self, dataset_item):
        return {k: np.asarray(v) for k, v in dataset_item.items()}

    def create_model(self, dataset, rng=None):
        @functools.partial(jax.jit, static_argnums=(2,))
        def create_model(rng, example, model_cls):
            return model_cls().init(rng, example)

        rng = rng if rng is not None else jax.random.PRNGKey(0)
        example = self.as_example(next(iter(dataset)))
        return create_model(rng, example, self.model_cls)


if __name__ == "__main__":
    dataset = [{"code_statements": np.ones((2, 5, 4), np.int32), "code_length": np.array([5, 5])}]
    params = BaseAdapter(StatementModel).create_model(dataset)
    print(jax.tree_util.tree_map(jnp.shape, params))
