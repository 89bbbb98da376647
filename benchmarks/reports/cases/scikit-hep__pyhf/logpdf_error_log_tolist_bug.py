# source: https://github.com/scikit-hep/pyhf/pull/2580
# category: A
# expect: raises
# via: jit-call, static-argnums, method, helper
# sink: item
"""With the JAX backend a fit on data of the wrong length should end in InvalidPdfData, but
Model.logpdf's error handler logged the inputs with `tensorlib.tolist(data)`; inside the jitted
objective the data is a tracer, so tolist raised a concretization error instead."""
import logging

import jax
import jax.numpy as jnp

log = logging.getLogger(__name__)


class InvalidPdfData(Exception):
    pass


class jax_backend:
    def astensor(self, tensor_in):
        return jnp.asarray(tensor_in, dtype=jnp.float32)

    def tolist(self, tensor_in):
        return jnp.asarray(tensor_in).tolist()  # <-- bug


tensorlib = jax_backend()


class Model:
    """uncorrelated_background: one bin, signal + background with a shape uncertainty."""

    def __init__(self, signal, bkg, bkg_uncertainty):
        self.signal, self.bkg = jnp.asarray(signal), jnp.asarray(bkg)
        self.tau = (self.bkg / jnp.asarray(bkg_uncertainty)) ** 2
        self.npars, self.nmaindata = 2, len(signal)
        self.nauxdata = len(bkg)

    def logpdf(self, pars, data):
        try:
            pars, data = tensorlib.astensor(pars), tensorlib.astensor(data)
            if data.shape[-1] != self.nmaindata + self.nauxdata:
                raise InvalidPdfData(
                    f"eval failed as data has len {data.shape[-1]} but {self.nmaindata + self.nauxdata} was expected")
            mu, gamma = pars[0], pars[1]
            rate = mu * self.signal + gamma * self.bkg
            main = jax.scipy.stats.poisson.logpmf(data[: self.nmaindata], rate)
            aux = jax.scipy.stats.poisson.logpmf(data[self.nmaindata:], gamma * self.tau)
            return jnp.reshape(jnp.sum(main) + jnp.sum(aux), (1,))
        except Exception:
            log.error(f"Eval failed for data {tensorlib.tolist(data)} pars: {tensorlib.tolist(pars)}")
            raise


def _final_objective(pars, data, pdf):
    return -2 * pdf.logpdf(pars, data)[0]


_jitted_objective = jax.jit(_final_objective, static_argnums=(2,))


def fit(data, pdf, gamma=1.0):
    grid = [0.1 * i for i in range(30)]
    values = [_jitted_objective(jnp.array([mu, gamma]), jnp.asarray(data), pdf) for mu in grid]
    return grid[min(range(len(grid)), key=lambda i: float(values[i]))]


if __name__ == "__main__":
    model = Model([10.0], [15.0], [5.0])
    print(fit([12.5, 9.0], model))
    try:
        fit([12.5], model)
    except InvalidPdfData as err:
        print("InvalidPdfData:", err)
