# source: https://github.com/google/vizier/commit/6cead27dbd3d8289c273ed44aba548a02ab63a15
# category: R
# expect: recompiles
# via: pytree-class, dataclass, jit-decorator, static-argnums, lax-fori, method
# sink: changing-static
"""The vectorized acquisition optimizer is a flax struct dataclass whose number of unpadded
feature dimensions is a static field; problems with a different number of parameters but the
same padded width therefore retrace the jitted optimization, defeating the padding schedule.
The fix makes the count a dynamic field and masks the padded dimensions with a traced
comparison."""
import functools

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class VectorizedOptimizer:
    n_feature_dimensions: int = struct.field(pytree_node=False)
    n_feature_dimensions_with_padding: int = struct.field(pytree_node=False)
    max_evaluations: int = struct.field(pytree_node=False, default=20)
    batch_size: int = struct.field(pytree_node=False, default=16)

    def __call__(self, score_fn, count, seed):
        dimension_is_missing = (
            jnp.arange(self.n_feature_dimensions_with_padding) >= self.n_feature_dimensions)

        def _optimization_one_step(_, args):
            best_rewards, best_features, seed = args
            seed, new_seed = jax.random.split(seed)
            new_features = jax.random.uniform(
                seed, (self.batch_size, self.n_feature_dimensions_with_padding))
            new_features = jnp.where(dimension_is_missing, jnp.zeros_like(new_features), new_features)
            new_rewards = score_fn(new_features)
            rewards = jnp.concatenate([best_rewards, new_rewards])
            features = jnp.concatenate([best_features, new_features])
            idx = jnp.argsort(-rewards)[:count]
            return rewards[idx], features[idx], new_seed

        init = (-jnp.inf * jnp.ones([count]),
                jnp.zeros([count, self.n_feature_dimensions_with_padding]), seed)
        rewards, features, _ = jax.lax.fori_loop(0, self.max_evaluations, _optimization_one_step, init)
        return rewards, features


def score_fn(xs):
    return -jnp.sum((xs - 0.5) ** 2, axis=-1)


@functools.partial(jax.jit, static_argnames=('score_fn', 'count'))
def optimize(optimizer, score_fn, count, seed):
    return optimizer(score_fn, count, seed)


if __name__ == "__main__":
    for n_params in (3, 4, 5):
        optimizer = VectorizedOptimizer(n_feature_dimensions=n_params, n_feature_dimensions_with_padding=10)
        rewards, features = optimize(optimizer, score_fn, 2, jax.random.PRNGKey(n_params))  # <-- bug
        print(n_params, rewards)
