# source: https://pytroubles.com/en/posts/id912-jax-jit-and-object-state-fixing-tracerarrayconversionerror-from-in-method-attribute-mutation
# category: C
# expect: raises
# via: method, partial-jit, static-argnums
# sink: attribute-write
"""A method jitted with `self` static keeps its intermediate result on `self.cache`; the attribute
holds the tracer from the trace, and converting it with NumPy after the call fails."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def host_bootstrap():
    print("runs once at the beginning of the program")
    return jnp.array([1.0, 2.0, 3.0])


class Box:
    @partial(jax.jit, static_argnums=0)
    def apply_jit(self, arr):
        out = arr * 2
        self.cache = out  # <-- bug
        return out


if __name__ == "__main__":
    payload = host_bootstrap()
    box = Box()
    out1 = box.apply_jit(payload)
    print(np.array(out1))
    print(np.array(box.cache))  # <-- bug
