# source: https://github.com/QSTheory/fftarray/blob/6a9381e2bb669915ae97c21a08e96f821d3d1a7d/fftarray/tests/test_fft_dimension.py#L103
# category: C
# expect: raises
# via: lax-scan, pytree-class
# sink: leaked-tracer
"""An `FFTDimension` built with `dynamically_traced_coords=False` flattens its grid coordinates
into the pytree's static aux data; a `lax.scan` step that shifts `_pos_min` and rescales `_d_pos`
stores scan tracers in that static data, and the carry comes back holding tracers that escaped
the step (UnexpectedTracerError)."""
import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node


class FFTDimension:
    def __init__(self, name, n, d_pos, pos_min, freq_min, dynamically_traced_coords=False):
        self._name = name
        self._n = n
        self._d_pos = d_pos
        self._pos_min = pos_min
        self._freq_min = freq_min
        self._dynamically_traced_coords = dynamically_traced_coords


def fft_dimension_flatten(v):
    if v._dynamically_traced_coords:
        return [v._pos_min, v._freq_min, v._d_pos], [v._name, v._n, True]
    return [], [v._name, v._n, v._pos_min, v._freq_min, v._d_pos, False]


def fft_dimension_unflatten(aux_data, children):
    fftdim = FFTDimension.__new__(FFTDimension)
    fftdim._name, fftdim._n = aux_data[0], aux_data[1]
    if aux_data[-1]:
        fftdim._pos_min, fftdim._freq_min, fftdim._d_pos = children
    else:
        fftdim._pos_min, fftdim._freq_min, fftdim._d_pos = aux_data[2:5]
    fftdim._dynamically_traced_coords = aux_data[-1]
    return fftdim


register_pytree_node(FFTDimension, fft_dimension_flatten, fft_dimension_unflatten)


def jax_step_func_dynamic(fftdim, a):
    fftdim._pos_min = fftdim._pos_min - a  # <-- bug
    fftdim._d_pos = a * fftdim._d_pos
    fftdim._freq_min = fftdim._freq_min / a
    return fftdim, None


if __name__ == "__main__":
    fftdim_test = FFTDimension("x", n=16, d_pos=1e-5, pos_min=3e-6, freq_min=0.0,
                               dynamically_traced_coords=False)
    out, _ = jax.lax.scan(jax_step_func_dynamic, fftdim_test, jnp.arange(1.0, 4.0))  # <-- bug
    print(out._pos_min, out._d_pos)
