# source: https://github.com/apax-hub/apax/commit/29a01cb140200ff0dc06ca7efb855099fdaf00dc
# category: R
# expect: ok
# via: jit-decorator, method, factory-closure, host-loop
# sink: fresh-callable
"""The ASE calculator of apax (then gmnn_jax) rebuilt its energy function and a new `@jax.jit`
step whenever the cell changed, but tested `"cell" in all_changes`, which is always true, so
every MD step built and compiled the step again.  The fix tests `system_changes`."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

all_changes = ["positions", "numbers", "cell", "pbc"]


class Atoms:
    def __init__(self, numbers, positions, cell):
        self.numbers, self.positions, self.cell = numbers, positions, cell


class Calculator:
    def calculate(self, atoms, properties, system_changes):
        self.atoms = atoms


def model(params, positions, box):
    d = positions[:, None, :] - positions[None, :, :]
    d = d - box * jnp.round(d / box)
    r2 = jnp.sum(d**2, axis=-1) + jnp.eye(positions.shape[0])
    return params["eps"] * jnp.sum(jnp.triu(1.0 / r2**3 - 1.0 / r2, 1))


class ASECalculator(Calculator):
    def __init__(self, params):
        self.params = params
        self.step = None

    def initialize(self, atoms):
        box = jnp.asarray(atoms.cell)
        energy_fn = partial(model, self.params)

        @jax.jit
        def body_fn(positions):
            energy, neg_forces = jax.value_and_grad(energy_fn)(positions, box)
            return energy, -neg_forces

        self.step = body_fn

    def calculate(self, atoms, properties=["energy"], system_changes=all_changes):
        Calculator.calculate(self, atoms, properties, system_changes)
        if self.step is None or "numbers" in system_changes or "cell" in system_changes:
            self.initialize(atoms)
        energy, forces = self.step(atoms.positions)
        self.results = {"energy": float(energy), "forces": np.asarray(forces, dtype=np.float64)}


if __name__ == "__main__":
    grid = np.stack(np.meshgrid(*[np.arange(2.0)] * 3), -1).reshape(-1, 3) * 1.5
    atoms = Atoms(np.ones(8, int), grid.astype(np.float32), np.full(3, 3.0, np.float32))
    calc = ASECalculator({"eps": 1.0})
    calc.calculate(atoms)
    for step in range(4):  # velocity-free steepest-descent "MD": only positions change
        atoms.positions = atoms.positions + 1e-3 * calc.results["forces"].astype(np.float32)
        calc.calculate(atoms, system_changes=["positions"])
        print(step, round(calc.results["energy"], 5))
