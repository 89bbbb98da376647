# source: https://github.com/sokrypton/ColabFold/pull/31
# category: R
# expect: ok
# via: haiku, method, jit-call, host-loop, dict-of-arrays
# sink: changing-shape
"""The AlphaFold2 batch notebook runs every query through the model runner's jitted haiku
`apply` with features built at that query's own length, so each new sequence length compiles
the whole model again.  The pull request sorts the queries by length and pads the features to a
shared crop length (10% above the shortest), trimming the outputs back to each query.
(AlphaFold is not installed: the model and its feature pipeline are reduced here.)"""
import math

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np

AA = "ACDEFGHIKLMNPQRSTVWY"


def _forward(batch):
    emb = hk.Embed(vocab_size=21, embed_dim=8)(batch["aatype"])
    h = jax.nn.relu(hk.Linear(8)(emb)) * batch["seq_mask"][:, None]
    pair = jnp.einsum("ic,jc->ij", h, h)
    return {"plddt": jax.nn.sigmoid(hk.Linear(1)(h))[:, 0] * 100, "pae": jnp.abs(pair)}


class RunModel:
    def __init__(self, params):
        self.params = params
        transformed = hk.transform(_forward)

        def apply(params, rng, batch):
            return transformed.apply(params, rng, batch)

        self.apply = jax.jit(apply)

    def predict(self, feat, random_seed=0):
        return self.apply(self.params, jax.random.PRNGKey(random_seed), feat)


def make_features(sequence, num_res):
    aatype = np.full(num_res, 20, dtype=np.int32)
    aatype[:len(sequence)] = [AA.index(a) for a in sequence]
    seq_mask = np.zeros(num_res, dtype=np.float32)
    seq_mask[:len(sequence)] = 1.0
    return {"aatype": jnp.asarray(aatype), "seq_mask": jnp.asarray(seq_mask)}


def predict_structure(jobname, feature_dict, seq_len, model_runner):
    prediction_result = model_runner.predict(feature_dict)
    plddt = prediction_result["plddt"][:seq_len]
    print(jobname, seq_len, float(jnp.mean(plddt)))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    queries = [(f"query{i}", "".join(rng.choice(list(AA), n))) for i, n in enumerate([31, 30, 33, 32])]
    params = hk.transform(_forward).init(jax.random.PRNGKey(0), make_features("A" * 4, 4))
    model_runner = RunModel(params)
    # sort by seq. len
    queries.sort(key=lambda t: len(t[1]))
    crop_len = math.ceil(len(queries[0][1]) * 1.1)
    for jobname, query_sequence in sorted(queries):
        if len(query_sequence) > crop_len:
            crop_len = math.ceil(len(query_sequence) * 1.1)
        feature_dict = make_features(query_sequence, num_res=crop_len)
        predict_structure(jobname, feature_dict, len(query_sequence), model_runner)
