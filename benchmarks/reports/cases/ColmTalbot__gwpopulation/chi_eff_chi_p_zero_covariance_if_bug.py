# source: https://github.com/ColmTalbot/gwpopulation/pull/110
# category: A
# expect: raises
# via: jit-call, method, class-attribute, dict-of-arrays
# sink: python-if
"""GaussianChiEffChiP took a shortcut with `if spin_covariance == 0:` in `__call__`; evaluated in
a jitted population likelihood the hyper-parameters are tracers and the `if` cannot be decided."""
import jax
import jax.numpy as xp
from jax.scipy.special import erf


def truncnorm(xx, mu, sigma, high, low):
    norm = 2**0.5 * sigma * xp.pi**0.5 / 2 * (
        erf((high - mu) / 2**0.5 / sigma) - erf((low - mu) / 2**0.5 / sigma))
    prob = xp.exp(-((xx - mu) ** 2) / (2 * sigma**2)) / norm
    return prob * (xx >= low) * (xx <= high)


def unnormalized_2d_gaussian(xx, yy, mu_x, mu_y, sigma_x, sigma_y, covariance):
    dx, dy = (xx - mu_x) / sigma_x, (yy - mu_y) / sigma_y
    return xp.exp(-(dx**2 + dy**2 - 2 * covariance * dx * dy) / (2 * (1 - covariance**2)))


class GaussianChiEffChiP(object):
    def __init__(self):
        self.chi_eff = xp.linspace(-1, 1, 500)
        self.chi_p = xp.linspace(0, 1, 250)
        self.chi_eff_grid, self.chi_p_grid = xp.meshgrid(self.chi_eff, self.chi_p)

    def __call__(self, dataset, mu_chi_eff, sigma_chi_eff, mu_chi_p, sigma_chi_p, spin_covariance):
        if spin_covariance == 0:  # <-- bug
            prob = truncnorm(dataset["chi_eff"], mu_chi_eff, sigma_chi_eff, high=1, low=-1)
            prob *= truncnorm(dataset["chi_p"], mu_chi_p, sigma_chi_p, high=1, low=0)
        else:
            prob = unnormalized_2d_gaussian(
                dataset["chi_eff"], dataset["chi_p"], mu_chi_eff, mu_chi_p,
                sigma_chi_eff, sigma_chi_p, spin_covariance,
            )
            prob /= self._normalization(mu_chi_eff, sigma_chi_eff, mu_chi_p, sigma_chi_p, spin_covariance)
            prob *= xp.abs(dataset["chi_eff"]) <= 1
            prob *= (dataset["chi_p"] <= 1) * (dataset["chi_p"] >= 0)
        return prob

    def _normalization(self, mu_chi_eff, sigma_chi_eff, mu_chi_p, sigma_chi_p, spin_covariance):
        prob = unnormalized_2d_gaussian(
            self.chi_eff_grid, self.chi_p_grid, mu_chi_eff, mu_chi_p,
            sigma_chi_eff, sigma_chi_p, spin_covariance,
        )
        return xp.trapezoid(xp.trapezoid(prob, self.chi_p, axis=0), self.chi_eff)


if __name__ == "__main__":
    model = GaussianChiEffChiP()
    key1, key2 = jax.random.split(jax.random.PRNGKey(1))
    dataset = {
        "chi_eff": jax.random.uniform(key1, (4, 20), minval=-0.5, maxval=0.5),
        "chi_p": jax.random.uniform(key2, (4, 20), minval=0.0, maxval=0.8),
    }

    @jax.jit
    def ln_likelihood(parameters):
        return xp.sum(xp.log(xp.mean(model(dataset, **parameters), axis=-1)))

    parameters = dict(mu_chi_eff=0.05, sigma_chi_eff=0.1, mu_chi_p=0.2, sigma_chi_p=0.15, spin_covariance=0.3)
    print(ln_likelihood(parameters))
