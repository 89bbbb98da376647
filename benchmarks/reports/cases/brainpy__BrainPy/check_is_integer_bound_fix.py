# source: https://github.com/brainpy/BrainPy/commit/b2710655eeb2ce262cfd13e27ceebf84978302f3
# category: A
# expect: ok
# via: helper, method, jit-call, lax-fori
# sink: python-if
"""BrainPy's `check.is_integer` accepted 0-d integer arrays but then bounds-checked them with
`if jnp.any(value < min_bound): raise ...`; a delay retrieved with a traced step inside a jitted
loop reaches that `if` with a tracer.  The commit routes the bound checks through `jit_error2`,
which raises from a host callback under `lax.cond`."""
import jax
import jax.numpy as jnp
import numpy as np


def jit_error2(pred, err):
    def true_err_fun():
        raise err

    jax.lax.cond(pred, lambda: jax.debug.callback(true_err_fun), lambda: None)


def is_integer(value, name=None, min_bound=None, max_bound=None):
    if name is None:
        name = ''
    if not isinstance(value, (int, np.integer)):
        if not (np.issubdtype(value.dtype, np.integer) and value.ndim == 0):
            raise ValueError(f'{name} must be an int, but got {value}')
    if min_bound is not None:
        jit_error2(jnp.any(value < min_bound),
                   ValueError(f"{name} must be an int bigger than {min_bound}, while we got {value}"))
    if max_bound is not None:
        jit_error2(jnp.any(value > max_bound),
                   ValueError(f"{name} must be an int smaller than {max_bound}, while we got {value}"))
    return value


class LengthDelay:
    def __init__(self, delay_len, size):
        self.num_delay_step = delay_len + 1
        self.data = jnp.zeros((self.num_delay_step, size))

    def retrieve(self, data, delay_len):
        is_integer(delay_len, 'delay_len', min_bound=0, max_bound=self.num_delay_step - 1)
        return data[delay_len]


@jax.jit
def run(data):
    delay = LengthDelay(delay_len=3, size=2)

    def body(i, acc):
        return acc + delay.retrieve(data, i % 4)

    return jax.lax.fori_loop(0, 8, body, jnp.zeros(2))


if __name__ == "__main__":
    print(run(jnp.arange(8.0).reshape(4, 2)))
