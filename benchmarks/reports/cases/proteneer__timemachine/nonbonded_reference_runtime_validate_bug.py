# source: https://github.com/proteneer/timemachine/pull/800
# category: A
# expect: raises
# via: method, factory-closure, jit-call, helper
# sink: python-if
"""`generic.Nonbonded.to_reference()` returns a closure over `nonbonded_v3`, which by default
validates its inputs with `assert (mask == mask.T).all()`; jitting the returned potential makes
the assert evaluate a traced array and fail. The fix calls `nonbonded_v3` with
`runtime_validate=False` from the closure."""
import jax
import jax.numpy as jnp
import numpy as np


def convert_exclusions_to_rescale_masks(exclusion_idxs, scale_factors, N):
    charge_rescale_mask = jnp.ones((N, N))
    lj_rescale_mask = jnp.ones((N, N))
    for (i, j), (sq, slj) in zip(np.asarray(exclusion_idxs, dtype=int).reshape(-1, 2), np.asarray(scale_factors).reshape(-1, 2)):
        charge_rescale_mask = charge_rescale_mask.at[i, j].set(1 - sq).at[j, i].set(1 - sq)
        lj_rescale_mask = lj_rescale_mask.at[i, j].set(1 - slj).at[j, i].set(1 - slj)
    return charge_rescale_mask, lj_rescale_mask


def nonbonded_v3(conf, params, box, lamb, charge_rescale_mask, lj_rescale_mask, beta, cutoff,
                 lambda_plane_idxs, lambda_offset_idxs, runtime_validate=True):
    if runtime_validate:
        assert (charge_rescale_mask == charge_rescale_mask.T).all()  # <-- bug
        assert (lj_rescale_mask == lj_rescale_mask.T).all()
    N = conf.shape[0]
    w = cutoff * (lambda_plane_idxs + lambda_offset_idxs * lamb)
    conf = jnp.concatenate([conf, w[:, None]], axis=1)
    dij = jnp.sqrt(jnp.sum((conf[:, None, :] - conf[None, :, :]) ** 2, -1) + jnp.eye(N))
    charges, sig, eps = params[:, 0], params[:, 1], params[:, 2]
    sig_ij = 0.5 * (sig[:, None] + sig[None, :])
    eps_ij = jnp.sqrt(eps[:, None] * eps[None, :])
    keep = (1 - jnp.eye(N)) * (dij < cutoff)
    lj = 4 * eps_ij * ((sig_ij / dij) ** 12 - (sig_ij / dij) ** 6) * lj_rescale_mask * keep
    coulomb = charges[:, None] * charges[None, :] * jax.scipy.special.erfc(beta * dij) / dij
    return 0.5 * jnp.sum(lj + coulomb * charge_rescale_mask * keep)


class Nonbonded:
    def __init__(self, exclusion_idxs, scale_factors, lambda_plane_idxs, lambda_offset_idxs, beta, cutoff):
        self.exclusion_idxs = exclusion_idxs
        self.scale_factors = scale_factors
        self.lambda_plane_idxs = lambda_plane_idxs
        self.lambda_offset_idxs = lambda_offset_idxs
        self.beta = beta
        self.cutoff = cutoff

    def to_reference(self):
        charge_rescale_mask, lj_rescale_mask = convert_exclusions_to_rescale_masks(
            self.exclusion_idxs, self.scale_factors, len(self.lambda_plane_idxs))

        def U(conf, params, box, lam):
            return nonbonded_v3(conf, params, box, lam, charge_rescale_mask, lj_rescale_mask,
                                self.beta, self.cutoff, self.lambda_plane_idxs, self.lambda_offset_idxs)

        return U


if __name__ == "__main__":
    rng = np.random.default_rng(2022)
    N = 30
    potential = Nonbonded(exclusion_idxs=jnp.zeros((0,)), scale_factors=jnp.zeros((0, 1)),
                          lambda_plane_idxs=jnp.zeros(N), lambda_offset_idxs=jnp.zeros(N),
                          beta=1.0, cutoff=0.1)
    U_ref = potential.to_reference()
    U_ref_jit = jax.jit(U_ref)
    print(U_ref_jit(conf=rng.uniform(0, 1, size=(N, 3)), params=rng.uniform(0, 1, size=(N, 3)),
                    box=10.0 * np.eye(3), lam=0.1))
