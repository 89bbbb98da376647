# source: https://github.com/patrick-kidger/lineax/issues/34
# category: B
# expect: raises
# via: equinox, jit-decorator, pytree-class
# sink: static-metadata
"""Lineax's `MatrixLinearOperator` kept its `tags` frozenset as an ordinary Module field, so it was
a pytree leaf.  Building the operator under a plain `jax.jit` and returning it fails: the
frozenset comes out of the trace as a leaf, and it is not a valid JAX type.  (A reduced operator
stands in for lineax's.)"""
import equinox as eqx
import jax
import jax.numpy as jnp


class MatrixLinearOperator(eqx.Module):
    matrix: jax.Array
    tags: frozenset

    def __init__(self, matrix, tags=()):
        self.matrix = matrix
        self.tags = frozenset(tags)

    def mv(self, vector):
        return self.matrix @ vector


@jax.jit
def make_operator(scale):
    matrix = scale * jnp.eye(3) + jnp.diag(jnp.ones(2), 1)
    return MatrixLinearOperator(matrix, tags=("upper_triangular",))


if __name__ == "__main__":
    for scale in (1.0, 2.0):
        operator = make_operator(scale)  # <-- bug
        print(operator.mv(jnp.ones(3)), sorted(operator.tags))
