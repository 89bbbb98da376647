# source: https://github.com/HajimeKawahara/exojax/commit/ac7a81d41bce809c3ac928227eac9ccdd73882a4
# category: A
# expect: raises
# via: jit-call, vmap, helper
# sink: numpy-call
"""atomll.gamma_uns computed the van der Waals line width of VALD3 metal lines with np.where and
np.isnan; mapped over the temperature layers with jit(vmap(...)), the line data were jit
arguments too, so NumPy was handed tracers."""
import numpy as np
import jax.numpy as jnp
from jax import jit, vmap

ccgs = 29979245800.0
eV2wn = 8065.54


def gamma_uns(T, PH, PHH, PHe, nu_lines, elower, ionE, gamRad, gamSta, enh_damp=1.0):
    """HWHM of Lorentzian (cm-1) from Unsoeld's classical van der Waals damping."""
    gamRad = np.where(gamRad == 0., -99, gamRad)  # <-- bug
    gamSta = np.where(gamSta == 0., -99, gamSta)
    chi_lam = nu_lines / eV2wn
    chi = elower / eV2wn

    C6 = 0.3e-30 * ((1 / (ionE - chi - chi_lam) ** 2) - (1 / (ionE - chi) ** 2))
    gam6H = 1e20 * C6 ** 0.4 * PH * 1e6 / T ** 0.7
    gam6He = 1e20 * C6 ** 0.4 * PHe * 1e6 * 0.41336 / T ** 0.7
    gam6HH = 1e20 * C6 ** 0.4 * PHH * 1e6 * 0.85 / T ** 0.7
    gamma6 = enh_damp * (gam6H + gam6He + gam6HH)
    gamma_case1 = (gamma6 + 10 ** gamRad + 10 ** gamSta) / (4 * np.pi * ccgs)
    # Avoid nan (appeared by np.log10(negative C6))
    gamma = np.where(np.isnan(gamma_case1), 0., gamma_case1)
    return gamma


if __name__ == "__main__":
    NP = 20
    Parr = np.logspace(-8, 2, NP)
    Tarr = 1500.0 * (Parr / 1.0) ** 0.1
    PH, PHe, PHH = Parr * 0.1, Parr * 0.15, Parr * 0.75
    nu_lines = np.array([15200.0, 15300.0, 15400.0])
    elower = np.array([20000.0, 22000.0, 24000.0])
    ionE = np.array([7.9, 7.9, 7.9])
    gamRad = np.array([8.3, 0.0, 8.1])
    gamSta = np.array([-5.5, -6.0, 0.0])
    gammaLMP = jit(vmap(gamma_uns, (0, 0, 0, 0, None, None, None, None, None)))(
        Tarr, PH, PHH, PHe, nu_lines, elower, ionE, gamRad, gamSta)
    print(gammaLMP.shape, jnp.sum(gammaLMP))
