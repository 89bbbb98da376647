# source: https://github.com/brainpy/BrainPy/commit/6acb75e50c3fba43e9a4bfe7f228a0f78fac4a1b
# category: A
# expect: raises
# via: method, grad, jit-call, class-attribute
# sink: bool-ops
"""BrainPy's Dense.update tested `share.load('fit') and self.online_fit_by is not None`; inside the
jitted, grad-traced BPFF fit step the `fit` flag in the shared store is a tracer, so the `and`
forced it to a Python bool and training a plain Dense layer failed.  The fix checks the static
`*_fit_by` configuration first so the `and` short-circuits."""
import jax
import jax.numpy as jnp


class _Share:
    def __init__(self):
        self._data = {}

    def save(self, **kwargs):
        self._data.update(kwargs)

    def load(self, key, default=None):
        return self._data.get(key, default)

    def clear_shargs(self):
        self._data.clear()


share = _Share()


class Dense:
    def __init__(self, num_in, num_out, online_fit_by=None, offline_fit_by=None):
        self.online_fit_by = online_fit_by
        self.offline_fit_by = offline_fit_by
        self.fit_record = {}

    def update(self, W, x):
        res = x @ W
        if share.load('fit', False) and self.online_fit_by is not None:  # <-- bug
            self.fit_record['input'] = x
            self.fit_record['output'] = res
        if share.load('fit', False) and self.offline_fit_by is not None:
            self.fit_record['input'] = x
            self.fit_record['output'] = res
        return res


def make_fit_step(model):
    def _step_func_loss(W, x, y, fit):
        share.save(fit=fit)
        loss = jnp.mean((model.update(W, x) - y) ** 2)
        share.clear_shargs()
        return loss

    return jax.jit(jax.grad(_step_func_loss))


if __name__ == "__main__":
    model = Dense(3, 2)
    step = make_fit_step(model)
    W = jnp.zeros((3, 2))
    for _ in range(3):
        W = W - 0.1 * step(W, jnp.ones((4, 3)), jnp.ones((4, 2)), True)
    print(W.sum())
