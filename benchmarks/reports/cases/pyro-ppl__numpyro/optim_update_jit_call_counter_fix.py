# source: https://github.com/pyro-ppl/numpyro/blob/0b935d488056ae1775b4ab05cbe2812f51f21a4f/test/test_optimizers.py#L103
# category: C
# expect: ok
# via: numpyro, jit-decorator, host-loop
# sink: closure-global
"""The steps are counted by the host loop that calls the jitted NumPyro optimizer update, so the
count is the number of steps taken."""
import jax
import jax.numpy as jnp
from numpyro import optim


def main():
    opt = optim.Adam(step_size=0.1)
    state = opt.init(jnp.zeros(10))
    my_fn_calls = 0

    @jax.jit
    def my_fn(state, g):
        return opt.update(g, state)

    for scale in (1.0, 2.0, 3.0):
        state = my_fn(state, jnp.ones(10) * scale)
        my_fn_calls += 1
    print(my_fn_calls, opt.get_params(state)[:3])


if __name__ == "__main__":
    main()
