# source: https://github.com/AI-Hypercomputer/JetStream/pull/228
# category: R
# expect: ok
# via: method, jit-decorator, static-argnums, host-loop, dataclass
# sink: changing-static
"""JetStream's orchestrator gives every `ActiveRequest` a fresh `uuid.uuid4()` and passes it as
`request_id` to the engine's jitted `prefill` and `insert`, where `request_id` is a static
argument; each request is a new static value, so the engine compiles again for every request.
The pull request stops setting the uuid (it defaults to None).  (The engine is reduced from
JetStream's mock `TestEngine`.)"""
import dataclasses
import functools
import uuid
from typing import Any, Optional

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class ActiveRequest:
    max_tokens: int
    prefill_content: Any
    request_id: Optional[uuid.UUID] = None
    prefill_result: Any = None


class TestEngine:
    def __init__(self, batch_size=4, cache_length=8, weight=2.0):
        self.batch_size = batch_size
        self.cache_length = cache_length
        self.weight = weight

    def load_params(self):
        return jnp.array([self.weight], dtype=jnp.float32)

    def init_decode_state(self):
        return jnp.zeros((self.batch_size, self.cache_length), jnp.float32)

    @functools.partial(jax.jit, static_argnums=(0,), static_argnames=("request_id",))
    def prefill(self, *, params, padded_tokens, true_length, request_id=None):
        cache = padded_tokens[None, :] * params
        return cache * (jnp.arange(self.cache_length) < true_length)

    @functools.partial(jax.jit, static_argnums=(0,), static_argnames=("request_id",))
    def insert(self, prefix, decode_state, slot, request_id=None):
        return jax.lax.dynamic_update_slice_in_dim(decode_state, prefix, slot, axis=0)


def serve(engine, prompts):
    params = engine.load_params()
    decode_state = engine.init_decode_state()
    for slot, tokens in enumerate(prompts):
        request = ActiveRequest(max_tokens=16, prefill_content=tokens)
        padded = jnp.zeros(engine.cache_length, jnp.float32).at[: len(tokens)].set(tokens)
        request.prefill_result = engine.prefill(
            params=params, padded_tokens=padded, true_length=len(tokens),
            request_id=request.request_id,
        )
        decode_state = engine.insert(
            request.prefill_result, decode_state, slot, request_id=request.request_id
        )
    return decode_state


if __name__ == "__main__":
    print(serve(TestEngine(), [[1.0, 2.0], [3.0, 4.0, 5.0], [6.0], [7.0, 8.0]]))
