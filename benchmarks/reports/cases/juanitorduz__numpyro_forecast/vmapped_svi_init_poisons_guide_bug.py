# source: https://github.com/juanitorduz/numpyro_forecast/blob/462a96c35d99bd957aea4de2a96338d7866168fa/tests/test_vmap_svi_invariants.py#L102
# category: C
# expect: raises
# via: numpyro, vmap, helper
# sink: leaked-tracer
"""A rolling-window backtest fitted one SVI per window by vmapping a function that calls
`svi.init`.  The AutoNormal guide caches its prototype trace on the instance the first time it is
initialised, so when that first init runs under vmap the guide keeps batched tracers, and the next
eager `svi.init` on the same object fails with an escaped tracer."""
import jax
import jax.numpy as jnp
import numpyro
import numpyro.distributions as dist
from jax import lax, random
from numpyro.infer import SVI, Trace_ELBO
from numpyro.infer.autoguide import AutoNormal

T_TRAIN, N_WIN = 30, 4


def model(covariates, data=None):
    beta = numpyro.sample("beta", dist.Normal(0.0, 1.0))
    sigma = numpyro.sample("sigma", dist.Exponential(1.0))
    mu = beta * covariates[:, 0]
    numpyro.sample("obs", dist.Normal(mu, sigma), obs=None if data is None else data[:, 0])


def make_windows():
    full_cov = jnp.linspace(0, 1, T_TRAIN + N_WIN)[:, None]
    full_data = (2.0 * full_cov[:, 0] + 0.1 * random.normal(random.PRNGKey(0), (T_TRAIN + N_WIN,)))[:, None]

    def slice_window(t0):
        return (lax.dynamic_slice_in_dim(full_data, t0, T_TRAIN, axis=0),
                lax.dynamic_slice_in_dim(full_cov, t0, T_TRAIN, axis=0))

    starts = jnp.arange(N_WIN)
    return starts, *jax.vmap(slice_window)(starts)


if __name__ == "__main__":
    starts, train_d, train_c = make_windows()
    guide = AutoNormal(model)
    svi = SVI(model, guide, numpyro.optim.Adam(0.05), Trace_ELBO())

    def fit_one(key, d, c):
        return svi.init(key, c, d)  # <-- bug

    keys = jax.vmap(lambda i: random.fold_in(random.PRNGKey(1), i))(starts)
    states = jax.vmap(fit_one)(keys, train_d, train_c)
    state = svi.init(random.PRNGKey(9), train_c[0], train_d[0])  # <-- bug
    print(svi.get_params(state)["beta_auto_loc"])
