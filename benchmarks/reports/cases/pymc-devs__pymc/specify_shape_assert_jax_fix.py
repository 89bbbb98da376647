# source: https://github.com/pymc-devs/pymc/issues/6050
# category: A
# expect: ok
# via: factory-closure, helper, grad, jit-call
# sink: python-if
"""A PyMC model sampled with JAX failed inside the funcified log-density: the JAX version of
SpecifyShape asserted on `jnp.all(x.shape == shape)`; even with a constant shape the jnp result
is traced under the sampler's jit, so the assert could not turn it into a Python bool.  The
fix (PR 6062) skips SpecifyShape nodes when sampling with JAX."""
import numpy as np
import jax
import jax.numpy as jnp


def jax_funcify_SpecifyShape():
    def specifyshape(x, *shape):
        return x

    return specifyshape


def get_jaxified_logp():
    specifyshape = jax_funcify_SpecifyShape()

    auto_81469 = np.array(6)

    def jax_funcified_fgraph(raw_mu_b):
        auto_1 = jnp.reshape(raw_mu_b, (-1,))
        auto_2 = specifyshape(auto_1, auto_81469)
        return -0.5 * jnp.sum(auto_2 ** 2)

    def logp_fn_wrap(x):
        return jax_funcified_fgraph(*x)

    return logp_fn_wrap


if __name__ == "__main__":
    logp_fn = get_jaxified_logp()
    value_and_grad = jax.jit(jax.value_and_grad(logp_fn))
    print(value_and_grad((jnp.ones((2, 3)),)))
