# source: https://github.com/google/TensorNetwork/pull/678
# category: B
# expect: ok
# via: partial-jit, static-argnums, helper, list-of-arrays
# sink: static-unhashable
"""TensorNetwork's `ncon` caches a jitted `_jittable_ncon` with the network structure, the
contraction order and the output order as static arguments.  The fix packs them into tuples (the
flattened labels and the size of each tensor's label group) and rebuilds the arrays inside the
jitted function, so every static argument hashes by value.  (A small JAX backend stands in for
the library's.)"""
import jax
import jax.numpy as jnp
import numpy as np

_CACHED_JITTED_NCONS = {}


class JaxBackend:
    name = "jax"

    def jit(self, fun, *args, **kwargs):
        return jax.jit(fun, *args, **kwargs)

    def tensordot(self, a, b, axes):
        return jnp.tensordot(a, b, axes)

    def transpose(self, tensor, perm):
        return jnp.transpose(tensor, perm)


def _jittable_ncon(tensors, flat_labels, sizes, con_order, out_order, backend_obj):
    slices = np.append(0, np.cumsum(sizes))
    network_structure = [np.array(flat_labels)[slices[n]:slices[n + 1]] for n in range(len(slices) - 1)]
    con_order, out_order = np.array(con_order), np.array(out_order)
    tensors = list(tensors)
    while len(con_order) > 0:
        cont_ind = con_order[0]
        locs = np.sort(np.nonzero([np.isin(cont_ind, labels) for labels in network_structure])[0])
        t2, t1 = tensors.pop(locs[1]), tensors.pop(locs[0])
        labels_t2, labels_t1 = network_structure.pop(locs[1]), network_structure.pop(locs[0])
        common, t1_cont, t2_cont = np.intersect1d(labels_t1, labels_t2, return_indices=True)
        tensors.append(backend_obj.tensordot(t1, t2, axes=(tuple(t1_cont), tuple(t2_cont))))
        network_structure.append(np.append(np.delete(labels_t1, t1_cont), np.delete(labels_t2, t2_cont)))
        con_order = np.delete(con_order, np.intersect1d(con_order, common, return_indices=True)[1])
    i1, i2 = np.nonzero(out_order[:, None] == network_structure[0][None, :])
    return backend_obj.transpose(tensors[0], tuple(i1[i2]))


def ncon(tensors, network_structure, backend="jax"):
    backend_obj = JaxBackend()
    network_structure = [np.array(l) for l in network_structure]
    flat_labels = np.concatenate(network_structure)
    out_order = np.sort(flat_labels[flat_labels < 0])[::-1]
    con_order = np.unique(flat_labels[flat_labels > 0])
    if backend not in _CACHED_JITTED_NCONS:
        _CACHED_JITTED_NCONS[backend] = backend_obj.jit(_jittable_ncon, static_argnums=(1, 2, 3, 4, 5))
    sizes = tuple([len(l) for l in network_structure])
    return _CACHED_JITTED_NCONS[backend](tensors, tuple(int(l) for l in flat_labels), sizes,
                                         tuple(int(o) for o in con_order),
                                         tuple(int(o) for o in out_order), backend_obj)


if __name__ == "__main__":
    a = jnp.arange(6.0).reshape(2, 3)
    b = jnp.arange(12.0).reshape(3, 4)
    c = jnp.arange(8.0).reshape(4, 2)
    print(ncon([a, b, c], [[-1, 1], [1, 2], [2, -2]]))
    print(ncon([a, b], [[-1, 1], [1, -2]]))
