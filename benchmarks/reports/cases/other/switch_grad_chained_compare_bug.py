# source: https://php.wlsqs.com/faq/1902260.html
# category: A
# expect: raises
# via: grad, lax-cond
# sink: bool-ops
"""A user differentiates a function that dispatches with jax.lax.switch to a list of lambdas whose
jnp.where conditions are written as Python chained comparisons; inside the traced branches the
chained comparison needs a Python bool and grad fails with a tracer boolean conversion error."""
import jax.numpy as jnp
from jax import grad
from jax.lax import switch

func_0 = lambda x: jnp.where(0. < x < 1., x, 0.)  # <-- bug
func_1 = lambda x: jnp.where(0. < x < 1., x, 1.)
func_list = [func_0, func_1]

func = lambda index, x: switch(index, func_list, x)

if __name__ == "__main__":
    df = grad(func, argnums=1)(1, 0.5)
    print(df)
