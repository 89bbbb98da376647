# source: https://github.com/Smlcrm/Chronax/blob/fee328b56b17896670c0ff59fdb2d8c283862b70/chronax/models/hint/hint_model.py
# category: C
# expect: ok
# via: method, vmap, helper
# sink: attribute-write
"""The walk-forward refits run on a throwaway clone from new() for each window, so the vmapped
fit calls leave the fitted estimator's model_ and _contexts untouched."""
from dataclasses import dataclass

import jax.numpy as jnp
from jax import lax, vmap


@dataclass
class ConformalIntervals:
    h: int
    n_windows: int


class BaseForecaster:
    def new(self):
        b = type(self).__new__(type(self))
        b.__dict__.update(self.__dict__)
        return b

    def conformity_scores(self, y, X=None):
        h, n_windows = self.conformal_params.h, self.conformal_params.n_windows
        n_samples = y.size
        base_train_end = n_samples - n_windows * h
        max_train_size = base_train_end + (n_windows - 1) * h

        def compute_window_scores(i_window):
            train_end = base_train_end + i_window * h
            y_train = lax.dynamic_slice(y, (0,), (max_train_size,))
            mask = jnp.arange(max_train_size) < train_end
            y_train = jnp.where(mask, y_train, y_train[train_end - 1])
            y_test = lax.dynamic_slice(y, (train_end,), (h,))
            fcst_window = self.new().forecast(h=h, y=y_train)
            return y_test - fcst_window["mean"]

        return vmap(compute_window_scores)(jnp.arange(n_windows))


class HINT(BaseForecaster):
    def __init__(self, h, input_size, alias="HINT"):
        self.h, self.input_size, self.alias = h, input_size, alias
        self.conformal_params = None
        self.model_ = None
        self._contexts = None

    def fit(self, y, X=None):
        y = jnp.asarray(y, dtype=jnp.float32)
        L = self.input_size
        windows = jnp.stack([y[i:i + L] for i in range(y.shape[0] - L)])
        targets = y[L:]
        self.model_ = jnp.linalg.lstsq(windows, targets)[0]
        self._contexts = y[-L:]
        return self

    def predict(self, h, X=None, level=None):
        ctx, out = self._contexts, []
        for _ in range(h):
            nxt = ctx @ self.model_
            out.append(nxt)
            ctx = jnp.concatenate([ctx[1:], nxt[None]])
        return {"mean": jnp.stack(out)}

    def forecast(self, y, h, X=None, X_future=None, level=None, fitted=False):
        self.fit(y, X=X)
        return self.predict(h=h, level=level)

    def conformity_scores(self, y, X=None):
        return BaseForecaster.conformity_scores(self, jnp.asarray(y), X)


if __name__ == "__main__":
    y = jnp.sin(jnp.arange(40, dtype=jnp.float32) / 3.0) + 0.05 * jnp.arange(40)
    model = HINT(h=3, input_size=4)
    model.conformal_params = ConformalIntervals(h=3, n_windows=2)
    model.fit(y)
    cs = model.conformity_scores(y)
    print(cs.shape)
    print(model.predict(3)["mean"])
