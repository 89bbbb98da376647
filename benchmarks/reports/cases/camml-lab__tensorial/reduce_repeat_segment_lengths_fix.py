# source: https://github.com/camml-lab/tensorial/blob/37a55b21cacaca22ac4b618e673c49870344088f/test/gcnn/test_common.py#L39
# category: A
# expect: ok
# via: jit-call, helper
# sink: shape-from-value
"""tensorial's graph reduction builds a node-to-graph index with jnp.repeat over the graph's
n_node counts; jitting it without a static `num_segments` leaves the repeat length data
dependent, and the library's own test pins the ConcretizationTypeError."""
from types import SimpleNamespace
from typing import Optional

import jax
import jax.numpy as jnp

# jraph's segment reductions, reduced to the ones used here
jraph = SimpleNamespace(
    segment_sum=lambda data, ids, n, sorted_, unique: jax.ops.segment_sum(data, ids, n, sorted_, unique),
    segment_max=lambda data, ids, n, sorted_, unique: jax.ops.segment_max(data, ids, n, sorted_, unique),
)


def _reduce(inputs, segment_lengths, num_segments: Optional[int] = None,
            indices_are_sorted: bool = False, unique_indices: bool = False, reduction: str = "sum"):
    try:
        op = getattr(jraph, f"segment_{reduction}")
    except AttributeError:
        raise ValueError(f"Unknown reduction operation: {reduction}") from None

    # this aggregation follows jraph/_src/models.py
    n_graph = segment_lengths.shape[0]
    graph_idx = jnp.arange(n_graph)
    node_gr_idx = jnp.repeat(graph_idx, segment_lengths, axis=0, total_repeat_length=num_segments)

    return jax.tree_util.tree_map(
        lambda n: op(n, node_gr_idx, n_graph, indices_are_sorted, unique_indices), inputs
    )


if __name__ == "__main__":
    coords = (-1.0, 1.0)
    positions = jnp.array([[i, j, k] for i in coords for j in coords for k in coords])
    n_node = jnp.array([8])
    print(_reduce(positions, n_node))
    pos = jax.jit(_reduce, static_argnames="num_segments")(
        positions, n_node, num_segments=positions.shape[0]
    )
    print(pos.shape, jnp.allclose(pos, 0.0))
