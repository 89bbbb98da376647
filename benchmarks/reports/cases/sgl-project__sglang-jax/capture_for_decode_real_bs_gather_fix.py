# source: https://github.com/sgl-project/sglang-jax/pull/1188
# category: R
# expect: ok
# via: method, jit-decorator, static-argnums, host-loop
# sink: changing-shape
"""The EAGLE draft worker gathers the padded batch's logits down to the real requests
(`logits[sel]`) before `capture_for_decode` runs the jitted `topk_probs_from_logits`, so the jit
sees a new leading dimension whenever the number of live requests changes and traces again.  The
pull request keeps the logits at the padded batch size through the jit and applies `sel` to
the top-k outputs afterwards.  (sglang-jax is not installed: the worker is reduced.)"""
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.partial(jax.jit, static_argnames=("topk",))
def topk_probs_from_logits(logits, topk):
    probs = jax.nn.softmax(logits, axis=-1)
    return jax.lax.top_k(probs, topk)


class EagleDraftWorker:
    def __init__(self, padded_bs=8, vocab=32, topk=2):
        self.padded_bs, self.vocab, self.topk = padded_bs, vocab, topk

    def capture_for_decode(self, logits, hidden_states, sel=None):
        topk_p, topk_index = topk_probs_from_logits(logits, topk=self.topk)
        if sel is not None:
            topk_p, topk_index, hidden_states = topk_p[sel], topk_index[sel], hidden_states[sel]
        return {"topk_p": topk_p, "topk_index": topk_index, "hidden_states": hidden_states}

    def draft_extend_for_prefill(self, logits, hidden_states, real_bs):
        sel = jnp.arange(real_bs)
        return self.capture_for_decode(logits, hidden_states, sel=sel)


if __name__ == "__main__":
    worker = EagleDraftWorker()
    rng = np.random.default_rng(0)
    for real_bs in (3, 5, 2, 6):
        logits = jnp.asarray(rng.normal(size=(worker.padded_bs, worker.vocab)), jnp.float32)
        hidden = jnp.asarray(rng.normal(size=(worker.padded_bs, 4)), jnp.float32)
        spec_info = worker.draft_extend_for_prefill(logits, hidden, real_bs)
        print(real_bs, spec_info["topk_index"].shape, float(spec_info["topk_p"].sum()))
