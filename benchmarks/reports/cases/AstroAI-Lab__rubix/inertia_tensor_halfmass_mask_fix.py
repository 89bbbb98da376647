# source: https://github.com/AstroAI-Lab/rubix/commit/7e242ae8bdf324de83864ea47f643df6d02673ef
# category: A
# expect: ok
# via: factory-closure, helper, jit-call, dict-of-arrays
# sink: boolean-mask
"""The moment-of-inertia tensor weights every particle by a 0/1 mask of the half-mass radius instead
of selecting them with a boolean index, so the jitted rotation step keeps static shapes."""
import jax
import jax.numpy as jnp


def moment_of_inertia_tensor(positions, masses, halfmass_radius):
    distances = jnp.sqrt(jnp.sum(positions**2, axis=1))
    within_halfmass_radius = distances <= halfmass_radius
    filtered_positions = positions
    filtered_masses = jnp.where(within_halfmass_radius, masses, 0.0)
    I = jnp.zeros((3, 3))
    for i in range(3):
        for j in range(3):
            if i == j:
                I = I.at[i, j].set(jnp.sum(filtered_masses * jnp.sum(filtered_positions**2, axis=1)
                                           - filtered_masses * filtered_positions[:, i] ** 2))
            else:
                I = I.at[i, j].set(-jnp.sum(filtered_masses * filtered_positions[:, i] * filtered_positions[:, j]))
    return I


def rotation_matrix_from_inertia_tensor(I):
    eigen_values, eigen_vectors = jnp.linalg.eigh(I)
    return eigen_vectors[:, jnp.argsort(eigen_values)]


def get_galaxy_rotation(config):
    def rotate_galaxy(inputs):
        I = moment_of_inertia_tensor(inputs["coords"], inputs["mass"], inputs["halfmassrad_stars"])
        R = rotation_matrix_from_inertia_tensor(I)
        inputs["coords"] = inputs["coords"] @ R
        inputs["velocities"] = inputs["velocities"] @ R
        return inputs

    return rotate_galaxy


class LinearTransformerPipeline:
    def __init__(self, functions):
        self.functions = functions

    def compile_expression(self):
        def expression(data):
            for fn in self.functions:
                data = fn(data)
            return data

        return expression


if __name__ == "__main__":
    key_c, key_v, key_m = jax.random.split(jax.random.PRNGKey(0), 3)
    data = {
        "coords": jax.random.normal(key_c, (200, 3)) * jnp.array([3.0, 2.0, 0.5]),
        "velocities": jax.random.normal(key_v, (200, 3)),
        "mass": jax.random.uniform(key_m, (200,)),
        "halfmassrad_stars": jnp.array(2.5),
    }
    pipeline = LinearTransformerPipeline([get_galaxy_rotation({"galaxy": {}})])
    run = jax.jit(pipeline.compile_expression())
    out = run(data)
    print(out["coords"].std(axis=0))
