# source: https://github.com/mia-jinns/jinns/commit/5ed973b6d5c42030a07b96874f40ba3e11510fc6
# category: B
# expect: raises
# via: pytree-class, jit-decorator, method, host-loop
# sink: static-metadata
"""jinns' `DataGeneratorODE` flattened its `rar_parameters` dict with the array children, so when
the generator went through a jitted step the RAR sample counts were tracers, and tiling the new
points by `selected_sample_size_times` needed a concrete size.  The commit moved `rar_parameters`
into the aux data with the other static values.  (The generator and the RAR step are reduced.)"""
import jax
import jax.numpy as jnp


class DataGeneratorODE:
    def __init__(self, key, tmin, tmax, nt, rar_parameters=None, times=None):
        self._key = key
        self.tmin = tmin
        self.tmax = tmax
        self.nt = nt
        self.rar_parameters = rar_parameters
        self.times = jnp.linspace(tmin, tmax, nt) if times is None else times

    def tree_flatten(self):
        children = (self._key, self.times, self.tmin, self.tmax, self.rar_parameters)  # arrays / dynamic values
        aux_data = {"nt": self.nt}  # static values
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        key, times, tmin, tmax, rar_parameters = children
        return cls(key, tmin, tmax, rar_parameters=rar_parameters, times=times, **aux_data)


jax.tree_util.register_pytree_node(DataGeneratorODE, DataGeneratorODE.tree_flatten, DataGeneratorODE.tree_unflatten)


@jax.jit
def rar_step(data, residual_fn):
    key, subkey = jax.random.split(data._key)
    candidates = jax.random.uniform(subkey, (data.nt,), minval=data.tmin, maxval=data.tmax)
    n_new = data.rar_parameters["selected_sample_size_times"]
    worst = jnp.argsort(-residual_fn(candidates))
    new_times = jnp.tile(candidates[worst[0]], n_new)  # <-- bug
    times = jnp.concatenate([data.times[n_new:], new_times])
    return DataGeneratorODE(key, data.tmin, data.tmax, data.nt, data.rar_parameters, times)


def residual(t):
    return jnp.sin(3.0 * t) ** 2


if __name__ == "__main__":
    rar = {"start_iter": 0, "update_every": 1, "selected_sample_size_times": 2}
    data = DataGeneratorODE(jax.random.PRNGKey(0), 0.0, 1.0, 8, rar_parameters=rar)
    residual_fn = jax.tree_util.Partial(residual)
    for solve in range(2):
        data = rar_step(data, residual_fn)
        print(solve, jnp.round(data.times, 3))
