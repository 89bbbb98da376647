# source: https://github.com/scikit-hep/awkward/pull/3405
# category: B
# expect: ok
# via: pytree-class, jit-call, helper
# sink: static-metadata
"""awkward after the fix: the aux data is the form (the offsets and the dtype, no data buffer),
and unflattening rebuilds the layout from it and the buffers JAX hands back."""
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


class AuxData:
    def __init__(self, form, other_buffers):
        self._form = form
        self._other_buffers = other_buffers

    @classmethod
    def from_array_or_layout(cls, obj):
        layout = obj.layout
        form = (str(layout.content.data.dtype), len(layout.offsets) - 1)
        return [layout.content.data], AuxData(form, {"offsets": np.asarray(layout.offsets)})

    def unflatten(self, data_buffers):
        (data,) = data_buffers
        return Array(ListOffsetArray(self._other_buffers["offsets"], NumpyArray(data)))

    def __eq__(self, other):
        return self._form == other._form and np.array_equal(
            self._other_buffers["offsets"], other._other_buffers["offsets"]
        )


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
