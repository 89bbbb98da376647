# source: https://github.com/patrick-kidger/lineax/issues/34
# category: B
# expect: ok
# via: equinox, jit-decorator, pytree-class
# sink: static-metadata
"""Lineax's `MatrixLinearOperator` kept its `tags` frozenset as an ordinary Module field, so it was
a pytree leaf.  The fix marks `tags` with `eqx.field(static=True)`: it becomes part of the tree
structure, so an operator built under a plain `jax.jit` can be returned.  (A reduced operator
stands in for lineax's.)"""
import equinox as eqx
import jax
import jax.numpy as jnp


class MatrixLinearOperator(eqx.Module):
    matrix: jax.Array
    tags: frozenset = eqx.field(static=True)

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
        operator = make_operator(scale)
        print(operator.mv(jnp.ones(3)), sorted(operator.tags))
