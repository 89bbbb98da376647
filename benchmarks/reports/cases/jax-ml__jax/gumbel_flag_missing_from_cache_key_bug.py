# source: https://github.com/jax-ml/jax/issues/40609
# category: C
# expect: stale
# via: jit-call, factory-closure
# sink: closure-global
"""`jax.random.gumbel` reads the `jax_high_dynamic_range_gumbel` flag while it is traced.  The
reporter compiled a sampler, flipped the flag at runtime, and called the same jitted callable
again: the flag is not part of the cache key, so the cached program keeps the sampling mode of
its first compilation."""
import numpy as np
import jax
import jax.random as jr

FLAG = "jax_high_dynamic_range_gumbel"
KEY = jr.PRNGKey(0)

if __name__ == "__main__":
    jax.config.update(FLAG, False)
    f = jax.jit(lambda key: jr.gumbel(key, (4,)))  # <-- bug

    low = np.asarray(f(KEY))
    jax.config.update(FLAG, True)
    after_update = np.asarray(f(KEY))
    print("low:                      ", low)
    print("same callable, flag=True: ", after_update)
    jax.config.update(FLAG, False)
