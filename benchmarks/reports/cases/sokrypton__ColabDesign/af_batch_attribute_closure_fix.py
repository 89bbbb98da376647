# source: https://github.com/sokrypton/ColabDesign/commit/117258d0e340abe1a0764161b5275ee9a57bebf1
# category: C
# expect: ok
# via: method, class-attribute, jit-call
# sink: closure-global
"""ColabDesign's AfDesign loss functions read the reference structure from `self._batch` inside
the jitted model function, so the batch was baked in when the function was first traced; after
`prep_inputs` switched to another structure of the same size, the compiled loss still scored
against the old one unless the model was rebuilt.  The commit passes the batch in as
`inputs["batch"]`."""
import jax
import jax.numpy as jnp


class mk_af_model:
    def __init__(self):
        self._model = {"fn": jax.jit(self._model_fn)}
        self._inputs = {}

    def _loss_fixbb(self, inputs, outputs):
        batch = inputs["batch"]
        return jnp.sqrt(jnp.mean((outputs["positions"] - batch["all_atom_positions"]) ** 2))

    def _model_fn(self, params, inputs):
        outputs = {"positions": inputs["coords"] + params["shift"]}
        return self._loss_fixbb(inputs, outputs)

    def prep_inputs(self, coords, target):
        self._inputs = {"coords": coords, "batch": {"all_atom_positions": target}}

    def predict(self, params):
        return float(self._model["fn"](params, self._inputs))


if __name__ == "__main__":
    model = mk_af_model()
    params = {"shift": jnp.zeros((5, 3))}
    coords = jnp.zeros((5, 3))
    model.prep_inputs(coords, target=jnp.ones((5, 3)))
    print("rmsd 1:", model.predict(params))
    model.prep_inputs(coords, target=3.0 * jnp.ones((5, 3)))
    print("rmsd 2:", model.predict(params))
