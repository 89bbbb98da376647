# source: https://github.com/jax-ml/jax/issues/2962
# category: A
# expect: raises
# via: jit-decorator, lax-fori, list-of-arrays, helper
# sink: list-index
"""To cut compile time, a Python loop that contracts a list of differently shaped tensors is turned
into lax.fori_loop; the loop index is then a tracer, and it cannot index the Python list."""
import numpy as onp
import jax.numpy as np
from jax import jit, lax, random


@jit
def trace(list_of_tensors):
    L = len(list_of_tensors)
    edge = np.ones((1))
    list_of_tensors, edge = lax.fori_loop(0, L, loop_body, (list_of_tensors, edge))
    return edge


def loop_body(i, args):
    edge = np.einsum("i,ij->j", args[1], args[0][i])  # <-- bug
    return (args[0], edge)


if __name__ == "__main__":
    rs = onp.random.RandomState(0)
    for _ in range(2):
        key = random.PRNGKey(rs.randint(1, 1000000))
        list_of_tensors = [random.normal(key, (1, 2)), random.normal(key, (2, 4)),
                           random.normal(key, (4, 8)), random.normal(key, (8, 1))]
        print(trace(list_of_tensors))
