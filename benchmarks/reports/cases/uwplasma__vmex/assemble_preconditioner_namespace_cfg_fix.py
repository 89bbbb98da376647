# source: https://github.com/uwplasma/vmex/commit/60e175bcbde3b2d66abec0fee5add58dfbfcddfa
# category: B
# expect: ok
# via: partial-jit, static-argnums, helper, other-module
# sink: static-unhashable
"""vmex after the fix: the assembly is jitted only for a hashable `cfg`; a `SimpleNamespace`
config takes the unjitted function, with the same array algebra."""
from functools import partial
from types import SimpleNamespace

import jax.numpy as jnp
from jax import jit


def _assemble_rz_preconditioner_matrices_impl_unjitted(*, arm, ard, brm, brd, cxd, delta_s, cfg, jmax_override=None):
    """Assemble VMEC R/Z preconditioner diagonals from cached parity coefficients."""
    ns = int(ard.shape[0])
    ns_f = max(ns - 1, 1) if jmax_override is None else int(max(1, min(int(jmax_override), ns)))
    dtype = ard.dtype
    mpol = int(cfg.mpol)
    nrange = int(cfg.ntor) + 1
    nfp = float(cfg.nfp)
    m = jnp.arange(mpol, dtype=dtype)
    n = jnp.arange(nrange, dtype=dtype)
    m2 = (m * m)[None, :, None]
    n2 = ((n * nfp) ** 2)[None, None, :]
    m_par = (jnp.arange(mpol) % 2).astype(jnp.int32)

    arm_m = arm[:ns_f][:, m_par]
    brm_m = brm[:ns_f][:, m_par]
    ard_m = ard[:ns_f][:, m_par]
    brd_m = brd[:ns_f][:, m_par]
    ar = -(arm_m[:, :, None] + brm_m[:, :, None] * m2)
    dr = -(ard_m[:, :, None] + brd_m[:, :, None] * m2 + cxd[:ns_f][:, None, None] * n2)
    mats = {"ar": ar / delta_s, "dr": dr / delta_s}
    return mats, ns_f


_assemble_rz_preconditioner_matrices_impl_jit = partial(
    jit, static_argnames=("cfg", "jmax_override")
)(_assemble_rz_preconditioner_matrices_impl_unjitted)


def _assemble_rz_preconditioner_matrices_impl(*, cfg, **kwargs):
    """Assemble R/Z preconditioner matrices, JITing only hashable configs."""
    try:
        hash(cfg)
    except TypeError:
        assemble = _assemble_rz_preconditioner_matrices_impl_unjitted
    else:
        assemble = _assemble_rz_preconditioner_matrices_impl_jit
    return assemble(cfg=cfg, **kwargs)


def _rz_preconditioner_matrices_impl(*, coeffs, delta_s, cfg):
    return _assemble_rz_preconditioner_matrices_impl(
        arm=coeffs["arm"],
        ard=coeffs["ard"],
        brm=coeffs["brm"],
        brd=coeffs["brd"],
        cxd=coeffs["cxd"],
        delta_s=delta_s,
        cfg=cfg,
    )


if __name__ == "__main__":
    cfg = SimpleNamespace(mpol=4, ntor=2, nfp=3, ntheta=16, nzeta=12, lasym=False, lthreed=True)
    ns = 9
    s = jnp.linspace(0.0, 1.0, ns, dtype=jnp.float32)
    coeffs = {
        "arm": jnp.stack([1.0 + s, 0.5 + s], axis=1),
        "ard": jnp.stack([2.0 + s, 1.5 + s], axis=1),
        "brm": jnp.stack([0.1 * s, 0.2 * s], axis=1),
        "brd": jnp.stack([0.3 * s, 0.4 * s], axis=1),
        "cxd": 0.05 * (1.0 + s),
    }
    mats, ns_f = _rz_preconditioner_matrices_impl(coeffs=coeffs, delta_s=jnp.float32(1.0 / (ns - 1)), cfg=cfg)
    print(ns_f, mats["ar"].shape, float(mats["ar"].sum()), float(mats["dr"].sum()))
