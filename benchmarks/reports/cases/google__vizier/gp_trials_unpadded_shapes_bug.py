# source: https://github.com/google/vizier/commit/60c2430ee10fb8e75075a9a9eba15c1258c6ad58
# category: R
# expect: recompiles
# via: jit-decorator, method, grad, host-loop
# sink: changing-shape
"""The GP bandit fits its model on all completed trials, so the feature and label arrays grow
by one row after every suggestion and the jitted ARD loss is traced and compiled again for each
new number of trials. The change pads the observations up to a multiple of 10 and masks the
padded rows, so only a few distinct shapes are ever compiled."""
import jax
import jax.numpy as jnp
import numpy as np


def _pad_to(n, multiple):
    return n


@jax.jit
def ard_loss(log_length_scale, features, labels, observations_is_missing):
    d = jnp.sum(((features[:, None, :] - features[None, :, :]) / jnp.exp(log_length_scale)) ** 2, -1)
    mask = ~observations_is_missing
    k = jnp.exp(-0.5 * d) * (mask[:, None] & mask[None, :]) + jnp.eye(features.shape[0]) * 1e-2
    y = jnp.where(mask, labels, 0.0)
    return 0.5 * y @ jnp.linalg.solve(k, y) + 0.5 * jnp.linalg.slogdet(k)[1]


class VizierGPBandit:
    def __init__(self, dim):
        self._features = np.zeros((0, dim), np.float32)
        self._labels = np.zeros((0,), np.float32)
        self._log_length_scale = jnp.zeros((dim,))

    def update(self, x, y):
        self._features = np.concatenate([self._features, x[None]])
        self._labels = np.concatenate([self._labels, np.asarray([y], np.float32)])

    def _train_gp(self):
        n = self._features.shape[0]
        n_padded = _pad_to(n, 10)
        features = np.zeros((n_padded, self._features.shape[1]), np.float32)
        features[:n] = self._features
        labels = np.zeros((n_padded,), np.float32)
        labels[:n] = self._labels
        observations_is_missing = np.arange(n_padded) >= n
        loss, grad = jax.value_and_grad(ard_loss)(  # <-- bug
            self._log_length_scale, features, labels, observations_is_missing)
        self._log_length_scale = self._log_length_scale - 0.1 * grad
        return loss


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    designer = VizierGPBandit(dim=2)
    for _ in range(6):
        x = rng.uniform(size=2).astype(np.float32)
        designer.update(x, float(np.sin(3 * x[0]) + x[1]))
        print(designer._train_gp())
