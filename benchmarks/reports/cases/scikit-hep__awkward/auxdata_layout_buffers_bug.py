# source: https://github.com/scikit-hep/awkward/pull/3405
# category: B
# expect: leaks
# via: pytree-class, jit-call, helper
# sink: static-metadata
"""awkward registers its arrays as pytrees whose aux data is the whole layout, and the layout
still holds the data buffers that JAX swaps for tracers; the treedef of every traced output then
keeps those tracers alive, which JAX reports as a leaked trace (newer JAX made it visible)."""
import jax
import jax.numpy as jnp
import numpy as np


class NumpyArray:
    def __init__(self, data):
        self.data = data


class ListOffsetArray:
    def __init__(self, offsets, content):
        self.offsets = offsets
        self.content = content

    def is_equal_to(self, other):
        return np.array_equal(self.offsets, other.offsets) and (
            self.content.data.dtype == other.content.data.dtype
        )


class Array:
    """A jagged array: offsets into one flat buffer."""

    def __init__(self, layout):
        self.layout = layout

    def to_list(self):
        data = np.asarray(self.layout.content.data)
        offs = self.layout.offsets
        return [data[offs[i] : offs[i + 1]].tolist() for i in range(len(offs) - 1)]

    def __mul__(self, k):
        return Array(ListOffsetArray(self.layout.offsets, NumpyArray(self.layout.content.data * k)))

    def __sub__(self, k):
        return Array(ListOffsetArray(self.layout.offsets, NumpyArray(self.layout.content.data - k)))


def find_all_buffers(layout):
    return [layout.content.data]


def replace_all_buffers(layout, buffers):
    return ListOffsetArray(layout.offsets, NumpyArray(buffers.pop(0)))


class AuxData:
    def __init__(self, layout):
        self._layout = layout

    @classmethod
    def from_array_or_layout(cls, obj):
        layout = obj.layout
        buffers = find_all_buffers(layout)
        return buffers, AuxData(layout=layout)  # <-- bug

    def unflatten(self, buffers):
        return Array(replace_all_buffers(self._layout, list(buffers)))

    def __eq__(self, other):
        return self._layout.is_equal_to(other._layout)


def jax_flatten(array):
    return AuxData.from_array_or_layout(array)


def jax_unflatten(aux_data, children):
    return aux_data.unflatten(children)


jax.tree_util.register_pytree_node(Array, jax_flatten, jax_unflatten)


def func(x):
    return x * 2 - 1


if __name__ == "__main__":
    array = Array(ListOffsetArray(np.array([0, 3, 3, 5]), NumpyArray(jnp.arange(5, dtype=jnp.float32))))
    out = jax.jit(func)(array)
    print(out.to_list())
    out = jax.jit(func)(out)
    print(out.to_list())
