# source: https://github.com/pyro-ppl/numpyro/pull/603
# category: R
# expect: ok
# via: method, jit-decorator, host-loop
# sink: weak-type
"""`_NumpyroOptim.init` now returns the iteration count as an array (`np.array(0)` in the pull
request), the type `update` returns, so the jitted step is compiled once."""
import jax
import jax.numpy as jnp
from jax import jit
from jax.example_libraries import optimizers


class _NumpyroOptim(object):
    def __init__(self, optim_fn, *args, **kwargs):
        self.init_fn, self.update_fn, self.get_params_fn = optim_fn(*args, **kwargs)

    def init(self, params):
        opt_state = self.init_fn(params)
        return jnp.array(0), opt_state

    def update(self, g, state):
        i, opt_state = state
        opt_state = self.update_fn(i, g, opt_state)
        return i + 1, opt_state

    def get_params(self, state):
        _, opt_state = state
        return self.get_params_fn(opt_state)


class Adam(_NumpyroOptim):
    def __init__(self, *args, **kwargs):
        super(Adam, self).__init__(optimizers.adam, *args, **kwargs)


if __name__ == "__main__":
    opt = Adam(1e-2)
    state = opt.init(jnp.zeros(10))

    @jit
    def my_fn(state, g):
        return opt.update(g, state)

    for k in (1.0, 2.0, 3.0):
        state = my_fn(state, jnp.ones(10) * k)
    print(opt.get_params(state)[:3])
