# source: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/test/test_optimizers.py#L103
# category: C
# expect: stale
# via: numpyro, jit-decorator, host-loop
# sink: closure-global
"""A jitted step that applies a NumPyro optimizer update counts its calls in a `nonlocal`;
the counter is bumped only while the step is traced, so after three steps it reads 1."""
import jax
import jax.numpy as jnp
from numpyro import optim


def main():
    opt = optim.Adam(step_size=0.1)
    state = opt.init(jnp.zeros(10))
    my_fn_calls = 0

    @jax.jit
    def my_fn(state, g):
        nonlocal my_fn_calls
        my_fn_calls += 1  # <-- bug
        return opt.update(g, state)

    for scale in (1.0, 2.0, 3.0):
        state = my_fn(state, jnp.ones(10) * scale)
    print(my_fn_calls, opt.get_params(state)[:3])


if __name__ == "__main__":
    main()
