# source: https://pytroubles.com/en/posts/id912-jax-jit-and-object-state-fixing-tracerarrayconversionerror-from-in-method-attribute-mutation
# category: C
# expect: ok
# via: method, partial-jit, static-argnums
# sink: attribute-write
"""The jitted method returns the intermediate result and the caller stores it on the object, so the
attribute holds a concrete array."""
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
        return out, out

    def apply(self, arr):
        out, cache = self.apply_jit(arr)
        self.cache = cache
        return out


if __name__ == "__main__":
    payload = host_bootstrap()
    box = Box()
    out1 = box.apply(payload)
    print(np.array(out1))
    print(np.array(box.cache))
