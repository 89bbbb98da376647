# source: https://github.com/gdsfactory/quantum-rf-pdk/issues/833
# category: A
# expect: ok
# via: helper, jit-call, factory-closure
# sink: int-float-bool
"""The taper S-parameter model computes the widths and gaps of its segments with NumPy from the
concrete cross-section dimensions, so `float(ws[i])` reads plain numbers and the jitted model
traces."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

DEFAULT_FREQUENCY = jnp.linspace(4e9, 8e9, 5)


@dataclass(frozen=True)
class CrossSection:
    width: float
    gap: float


def coplanar_waveguide(width=10.0, gap=6.0):
    return CrossSection(width=width, gap=gap)


def get_cpw_dimensions(cross_section):
    return cross_section.width, cross_section.gap


def straight(f, length, cross_section):
    eps_eff = 6.0 + 0.01 * cross_section.width / (cross_section.width + 2 * cross_section.gap)
    beta = 2 * jnp.pi * f * jnp.sqrt(eps_eff) / 3e8
    return {"o1,o2": jnp.exp(-1j * beta * length * 1e-6)}


def evaluate_circuit_fg(netlist, instances):
    s21 = jnp.ones_like(DEFAULT_FREQUENCY, dtype=jnp.complex64)
    for sdict in instances.values():
        s21 = s21 * sdict["o1,o2"]
    return {"o1,o2": s21}


def taper_cross_section(f=DEFAULT_FREQUENCY, length=1000.0, cross_section_1="cpw",
                        cross_section_2="cpw", n_points=50):
    n_points = int(n_points)
    w1, g1 = get_cpw_dimensions(cross_section_1)
    w2, g2 = get_cpw_dimensions(cross_section_2)

    f = jnp.asarray(f)
    segment_length = length / n_points

    ws = np.linspace(w1, w2, n_points)
    gs = np.linspace(g1, g2, n_points)

    instances = {
        f"straight_{i}": straight(
            f=f,
            length=segment_length,
            cross_section=coplanar_waveguide(width=float(ws[i]), gap=float(gs[i])),
        )
        for i in range(n_points)
    }
    connections = {f"straight_{i},o2": f"straight_{i + 1},o1" for i in range(n_points - 1)}
    ports = {"o1": "straight_0,o1", "o2": f"straight_{n_points - 1},o2"}
    return evaluate_circuit_fg((connections, ports), instances)


if __name__ == "__main__":
    big, small = coplanar_waveguide(width=200.0, gap=100.0), coplanar_waveguide()
    model = jax.jit(lambda f: taper_cross_section(f, 100.0, big, small, n_points=8))
    print(jnp.abs(model(DEFAULT_FREQUENCY)["o1,o2"]))
