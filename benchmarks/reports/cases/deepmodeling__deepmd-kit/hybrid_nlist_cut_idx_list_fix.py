# source: https://github.com/deepmodeling/deepmd-kit/commit/fc455c9eb653621d03c2c911b8170fbbb2fa068f
# category: B
# expect: ok
# via: flax-nnx, method, list-of-arrays, jit-call
# sink: static-metadata
"""DeePMD-kit's JAX `DescrptHybrid` converted the neighbour-list index arrays of its
sub-descriptors into `ArrayAPIVariable`s in `__setattr__`.  The fix for Flax 0.12 wraps them in
`nnx.List` of `nnx.data` items, so the Variables are data of the module rather than part of a
static attribute.  (Reduced descriptor classes stand in for DeePMD-kit's.)"""
from typing import Any

import jax.numpy as jnp
import numpy as np
from flax import nnx


class ArrayAPIVariable(nnx.Variable):
    def __array__(self, *args, **kwargs):
        return np.asarray(self.value)


def to_jax_array(array):
    return None if array is None else jnp.asarray(array)


class DescrptSeR:
    def __init__(self, sel):
        self.sel = sel

    def call(self, rij):
        return jnp.sum(1.0 / (1.0 + rij ** 2), axis=-1, keepdims=True)


class DescrptHybridDP:
    def __init__(self, descrpt_list):
        self.descrpt_list = descrpt_list
        full_sel = max(descrpt.sel for descrpt in descrpt_list)
        nlist_cut_idx = []
        for descrpt in descrpt_list:
            nlist_cut_idx.append(np.arange(full_sel)[: descrpt.sel])
        self.nlist_cut_idx = nlist_cut_idx

    def call(self, rij):
        out = [descrpt.call(rij[:, jnp.asarray(idx)])
               for descrpt, idx in zip(self.descrpt_list, self.nlist_cut_idx)]
        return jnp.concatenate(out, axis=-1)


class DescrptHybrid(DescrptHybridDP, nnx.Module):
    def __setattr__(self, name: str, value: Any) -> None:
        if name in {"nlist_cut_idx"}:
            value = [ArrayAPIVariable(to_jax_array(vv)) for vv in value]
            value = nnx.List([nnx.data(item) for item in value])
        return super().__setattr__(name, value)


@nnx.jit
def forward(descriptor, rij):
    return descriptor.call(rij)


if __name__ == "__main__":
    descriptor = DescrptHybrid([DescrptSeR(sel=4), DescrptSeR(sel=6)])
    rij = jnp.linspace(0.5, 3.0, 3 * 6).reshape(3, 6)
    print(forward(descriptor, rij))
