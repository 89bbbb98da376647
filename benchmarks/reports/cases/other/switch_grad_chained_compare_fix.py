# source: https://php.wlsqs.com/faq/1902260.html
# category: A
# expect: ok
# via: grad, lax-cond
# sink: bool-ops
"""A user differentiates a function that dispatches with jax.lax.switch to a list of lambdas; the
conditions are combined with the elementwise & operator instead of a chained comparison."""
import jax.numpy as jnp
from jax import grad
from jax.lax import switch

func_0 = lambda x: jnp.where((0. < x) & (x < 1.), x, 0.)
func_1 = lambda x: jnp.where((0. < x) & (x < 1.), x, 1.)
func_list = [func_0, func_1]

func = lambda index, x: switch(index, func_list, x)

if __name__ == "__main__":
    df = grad(func, argnums=1)(1, 0.5)
    print(df)
