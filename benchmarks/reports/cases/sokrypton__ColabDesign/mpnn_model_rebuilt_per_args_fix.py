# source: https://github.com/sokrypton/ColabDesign/commit/f1876d302c0ca3d246d05f054bd0e98ea5a5c07c
# category: R
# expect: ok
# via: method, class-attribute, jit-call, host-loop
# sink: fresh-callable
"""ColabDesign's ProteinMPNN notebook rebuilt `mk_mpnn_model` whenever any setting (such as
`rm_aa`, the amino acids to exclude) changed; the model jits its sampler in the constructor, so
each change compiled the sampler again although only the inputs differed.  The commit builds
the model once and only re-runs `prep_inputs`."""
import jax
import jax.numpy as jnp

ALPHABET = "ACDEFGHIKLMNPQRSTVWY"


class mk_mpnn_model:
    def __init__(self, model_name="v_48_020", length=16):
        self._weights = jax.random.normal(jax.random.PRNGKey(0), (length, len(ALPHABET)))
        self._sample = jax.jit(self._sample_fn)
        self._inputs = None

    def _sample_fn(self, key, inputs, temperature):
        logits = self._weights + inputs["bias"]
        return jax.random.categorical(key, logits / temperature, axis=-1)

    def prep_inputs(self, rm_aa=None):
        bias = jnp.zeros(len(ALPHABET))
        if rm_aa is not None:
            idx = jnp.array([ALPHABET.index(a) for a in rm_aa])
            bias = bias.at[idx].set(-1e7)
        self._inputs = {"bias": bias}

    def sample(self, num=1, temperature=0.1, seed=0):
        keys = jax.random.split(jax.random.PRNGKey(seed), num)
        return [self._sample(k, self._inputs, temperature) for k in keys]


if __name__ == "__main__":
    mpnn_model = None
    for rm_aa in ["C", "CW", "CWM"]:
        if mpnn_model is None:
            mpnn_model = mk_mpnn_model("v_48_020")
        mpnn_model.prep_inputs(rm_aa=rm_aa)
        out = mpnn_model.sample(num=2, temperature=0.1)
        print(rm_aa, ["".join(ALPHABET[i] for i in s) for s in out])
