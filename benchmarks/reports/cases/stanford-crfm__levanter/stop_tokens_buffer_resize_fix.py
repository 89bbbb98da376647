# source: https://github.com/stanford-crfm/levanter/commit/a9459098aa200089dff6d7a40c0a0b81b86bdfb7
# category: R
# expect: ok
# via: jit-decorator, dataclass, method, host-loop
# sink: changing-shape
"""Levanter's inference engine grew the decode state's stop-token buffer to the longest stop
sequence of each new batch of requests, so every request with a longer stop sequence changed the
buffer's shape and compiled the jitted decode step again.  The commit gives the buffer a fixed
capacity from the engine config, pads requests into it and rejects longer ones."""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class DecodeState:
    tokens: jax.Array
    stop_tokens: jax.Array  # [stop_seq, position], -1 = padding

    @staticmethod
    def init(max_seqs, max_len, max_stop_seqs, max_stop_tokens):
        return DecodeState(
            tokens=jnp.zeros((max_seqs, max_len), jnp.int32),
            stop_tokens=jnp.full((max_stop_seqs, max_stop_tokens), -1, jnp.int32),
        )


jax.tree_util.register_dataclass(DecodeState, data_fields=["tokens", "stop_tokens"], meta_fields=[])


@jax.jit
def decode_step(state, new_tokens):
    tokens = jnp.concatenate([state.tokens[:, 1:], new_tokens[:, None]], axis=1)
    stop = state.stop_tokens[0]
    n = stop.shape[0]
    tail = tokens[:, -n:]
    hit = jnp.all((tail == stop) | (stop < 0), axis=-1)
    return dataclasses.replace(state, tokens=tokens), hit


class Engine:
    def __init__(self, max_seqs=2, max_len=8, max_stop_seqs=1, max_stop_tokens=4):
        self.decode_state = DecodeState.init(max_seqs, max_len, max_stop_seqs, max_stop_tokens)

    def generate(self, new_tokens, stop_tokens):
        desired_stop_len = stop_tokens.shape[-1]
        ds = self.decode_state
        if desired_stop_len > ds.stop_tokens.shape[-1]:
            raise ValueError(f"stop sequence of length {desired_stop_len} exceeds the configured capacity")
        cap = ds.stop_tokens.shape[-1]
        row = jnp.full((cap,), -1, jnp.int32).at[cap - desired_stop_len:].set(stop_tokens)
        ds = dataclasses.replace(ds, stop_tokens=ds.stop_tokens.at[0].set(row))
        self.decode_state, hit = decode_step(ds, new_tokens)
        return hit


if __name__ == "__main__":
    engine = Engine()
    for stop in [[7], [3, 4], [1, 2, 3]]:
        hit = engine.generate(jnp.array([3, 4]), jnp.array(stop, jnp.int32))
        print(stop, hit)
