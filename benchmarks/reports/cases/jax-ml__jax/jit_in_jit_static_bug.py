# source: https://github.com/jax-ml/jax/issues/14666
# category: A
# expect: raises
# via: partial-jit, static-argnums, jit-call, helper
# sink: int-float-bool
"""g2 is jitted with N static and passes N through a helper that is itself jitted with N static;
the inner jit returns a traced value, so float() on the result fails although N was static."""
from functools import partial

import jax


def f(N):
    return N


jit_f = jax.jit(f, static_argnums=0)


@partial(jax.jit, static_argnums=0)
def g2(N):
    fN = jit_f(N)
    return float(fN)  # <-- bug


if __name__ == "__main__":
    print(g2(3))
