# source: https://github.com/PyAutoLabs/PyAutoGalaxy/pull/527
# category: A
# expect: raises
# via: method, jit-call, helper
# sink: numpy-call
"""The dPIEMass constructor converts the Lenstool ellipticity and position angle to `ell_comps`
with `np.sqrt` and NumPy trigonometry; when both are free parameters of a jitted model fit they
arrive as tracers and the NumPy calls cannot convert them."""
import jax
import jax.numpy as jnp
import numpy as np


def ell_comps_from(axis_ratio, angle, xp=np):
    angle *= np.pi / 180.0
    fac = (1 - axis_ratio) / (1 + axis_ratio)
    return (fac * xp.sin(2 * angle), fac * xp.cos(2 * angle))


class dPIEMass:
    def __init__(self, centre=(0.0, 0.0), ellipticity=0.1, angle_pos=0.0, ra=0.1, rs=2.0, b0=1.0):
        axis_ratio = np.sqrt((1.0 - ellipticity) / (1.0 + ellipticity))  # <-- bug
        ell_comps = ell_comps_from(axis_ratio=axis_ratio, angle=angle_pos)
        self.centre, self.ell_comps, self.ra, self.rs, self.b0 = centre, ell_comps, ra, rs, b0

    def convergence_2d_from(self, grid, xp=np):
        e1, e2 = self.ell_comps
        y, x = grid[:, 0] - self.centre[0], grid[:, 1] - self.centre[1]
        r2 = (1 - e2) * x ** 2 + (1 + e2) * y ** 2 - 2 * e1 * x * y
        return 0.5 * self.b0 * (1 / xp.sqrt(self.ra ** 2 + r2) - 1 / xp.sqrt(self.rs ** 2 + r2))


grid = jnp.stack(jnp.meshgrid(jnp.linspace(-2, 2, 10), jnp.linspace(-2, 2, 10)), -1).reshape(-1, 2)
data = dPIEMass(ellipticity=0.2, angle_pos=30.0).convergence_2d_from(np.asarray(grid))


@jax.jit
def log_likelihood(parameters):
    mass = dPIEMass(ellipticity=parameters[0], angle_pos=parameters[1], b0=parameters[2])
    model = mass.convergence_2d_from(grid, xp=jnp)
    return -0.5 * jnp.sum((data - model) ** 2)


if __name__ == "__main__":
    for parameters in ([0.2, 30.0, 1.0], [0.3, 10.0, 1.1]):
        print(log_likelihood(jnp.array(parameters)))
