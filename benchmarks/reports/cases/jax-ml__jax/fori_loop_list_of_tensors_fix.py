# source: https://github.com/jax-ml/jax/issues/2962
# category: A
# expect: ok
# via: jit-decorator, list-of-arrays
# sink: list-index
"""To cut compile time, a Python loop that contracts a list of differently shaped tensors is turned
into lax.fori_loop; the loop index is then a tracer, and it cannot index the Python list."""
import numpy as onp
import jax.numpy as np
from jax import jit, random


@jit
def trace(list_of_tensors):
    L = len(list_of_tensors)
    edge = np.ones((1))
    for i in range(L):
        edge = np.einsum("i,ij->j", edge, list_of_tensors[i])
    return edge


if __name__ == "__main__":
    rs = onp.random.RandomState(0)
    for _ in range(2):
        key = random.PRNGKey(rs.randint(1, 1000000))
        list_of_tensors = [random.normal(key, (1, 2)), random.normal(key, (2, 4)),
                           random.normal(key, (4, 8)), random.normal(key, (8, 1))]
        print(trace(list_of_tensors))
