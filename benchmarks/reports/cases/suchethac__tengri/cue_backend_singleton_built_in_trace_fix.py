# source: https://github.com/suchethac/tengri/blob/1d8ef93cdadfd62d0ce5746206361109acd98b85/src/tengri/components/agn/nlr_cloudy.py
# category: C
# expect: ok
# via: jit-call, helper, vmap
# sink: global-write
"""The Cue backend singleton is built under jax.ensure_compile_time_eval, so even when the first
caller is inside jax.jit the cached weight tables are concrete and later eager calls work."""
from typing import NamedTuple

import numpy as np
import jax
import jax.numpy as jnp
from jax import vmap

_LINE_WAVES = np.linspace(3700.0, 6800.0, 16)
_DEFAULT_CUE_WEIGHTS_PATH = "data/cue_weights.npz"
_CUE_AGN_BACKEND = None


class CueWeights(NamedTuple):
    batched_param_shifts: jnp.ndarray
    batched_param_scales: jnp.ndarray
    batched_W_out: jnp.ndarray
    sorted_line_wav: jnp.ndarray


def load_cue_weights(npz_path):
    rng = np.random.RandomState(len(npz_path))
    nets = [dict(param_shift=rng.normal(size=12), param_scale=1.0 + rng.rand(12),
                 W=0.1 * rng.normal(size=12)) for _ in range(16)]
    return CueWeights(
        batched_param_shifts=jnp.stack([n["param_shift"] for n in nets]),
        batched_param_scales=jnp.stack([n["param_scale"] for n in nets]),
        batched_W_out=jnp.stack([n["W"] for n in nets]),
        sorted_line_wav=jnp.asarray(_LINE_WAVES),
    )


class CueBackend:
    def __init__(self, weights_path):
        self.weights = load_cue_weights(weights_path)


def get_cue_agn_backend(weights_path=None):
    global _CUE_AGN_BACKEND
    if weights_path is not None or _CUE_AGN_BACKEND is None:
        with jax.ensure_compile_time_eval():
            _CUE_AGN_BACKEND = CueBackend(weights_path or _DEFAULT_CUE_WEIGHTS_PATH)
    return _CUE_AGN_BACKEND


def agn_nlr_cue(backend, l_acc_erg, covering_fraction, neb_logU):
    w = backend.weights
    params = jnp.full(12, neb_logU) + 0.1 * jnp.log10(l_acc_erg / 1e44)
    x = (params[None, :] - w.batched_param_shifts) / w.batched_param_scales
    log_lum = jnp.sum(x * w.batched_W_out, axis=1)
    return w.sorted_line_wav, covering_fraction * jnp.exp(log_lum)


def _lines_to_lnu(wavelength, line_wavelengths, line_lum, fwhm_kms):
    def _single_line(line):
        sigma = line[0] * fwhm_kms / 2.998e5 / 2.355
        return line[1] * jnp.exp(-0.5 * ((wavelength - line[0]) / sigma) ** 2)

    return vmap(_single_line)(jnp.stack([line_wavelengths, line_lum], axis=1)).sum(axis=0)


def compute_nlr_sed_cue(wavelength, l_disc_bol_erg, covering_fraction=0.1, fwhm_kms=500.0, neb_logU=-2.0):
    backend = get_cue_agn_backend()
    line_wave_aa, line_lum = agn_nlr_cue(backend, l_disc_bol_erg, covering_fraction, neb_logU)
    return _lines_to_lnu(wavelength, line_wave_aa, line_lum, fwhm_kms)


if __name__ == "__main__":
    wave = jnp.linspace(3000.0, 7000.0, 256)

    def _traced(l_bol):
        return compute_nlr_sed_cue(wave, l_disc_bol_erg=l_bol)

    print(float(jax.jit(_traced)(jnp.asarray(1e45)).max()))
    eager = compute_nlr_sed_cue(wave, l_disc_bol_erg=1e45)
    print(float(eager.max()))
