# source: https://github.com/jax-ml/jax/issues/4309
# category: A
# expect: raises
# via: vmap, factory-closure, list-of-arrays
# sink: list-index
"""A double loop is flattened into a Python list of (j, i) pairs and the body is vmapped over the
pair index n; newMap[n] indexes a Python list with a batched tracer, which Python cannot do."""
import jax.numpy as jnp
from jax import vmap


def getFeature(x, resMap):
    newMap = []
    for j in range(0, resMap.shape[0] - 1):
        for i in range(0, resMap.shape[1] - 1):
            newMap.append([j, i])

    def innerLoop(n):
        j, i = newMap[n]  # <-- bug
        return x[resMap[j, i]] + x[resMap[j, i + 1]]

    return vmap(innerLoop)(jnp.arange(len(newMap)))


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 12)
    resMap = jnp.arange(12).reshape(3, 4)
    print(getFeature(x, resMap))
