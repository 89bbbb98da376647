# source: https://github.com/jax-ml/jax/issues/40609
# category: C
# expect: ok
# via: jit-call, factory-closure
# sink: closure-global
"""The sampler is built again after the flag changes (the report forces the same fresh
compilation by clearing JAX's caches), so `jax.random.gumbel` is traced under the new mode."""
import numpy as np
import jax
import jax.random as jr

FLAG = "jax_high_dynamic_range_gumbel"
KEY = jr.PRNGKey(0)

if __name__ == "__main__":
    jax.config.update(FLAG, False)
    f = jax.jit(lambda key: jr.gumbel(key, (4,)))

    low = np.asarray(f(KEY))
    jax.config.update(FLAG, True)
    f = jax.jit(lambda key: jr.gumbel(key, (4,)))
    after_update = np.asarray(f(KEY))
    print("low:                      ", low)
    print("same callable, flag=True: ", after_update)
    jax.config.update(FLAG, False)
