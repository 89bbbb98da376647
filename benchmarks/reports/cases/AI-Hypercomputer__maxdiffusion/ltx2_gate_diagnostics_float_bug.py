# source: https://github.com/AI-Hypercomputer/maxdiffusion/commit/dce2562d486cc11cb19fadbd1746ff7fc9d6e711
# category: A
# expect: raises
# via: flax-nnx, method, jit-decorator
# sink: int-float-bool
"""LTX2Attention logged the mean and std of its gate-logit kernel and bias with
`print(f"... {float(jnp.mean(gate_kernel)):.8f} ...")`; inside the jitted transformer call the
parameters are tracers and float() cannot concretise them."""
import jax
import jax.numpy as jnp
from flax import nnx


class LTX2Attention(nnx.Module):
    def __init__(self, dim, heads, rngs: nnx.Rngs):
        self.heads = heads
        self.dim_head = dim // heads
        self.to_q = nnx.Linear(dim, dim, rngs=rngs)
        self.to_k = nnx.Linear(dim, dim, rngs=rngs)
        self.to_v = nnx.Linear(dim, dim, rngs=rngs)
        self.to_gate_logits = nnx.Linear(dim, heads, rngs=rngs)
        self.to_out = nnx.Linear(dim, dim, rngs=rngs)

    def __call__(self, hidden_states):
        b, s, _ = hidden_states.shape
        q = self.to_q(hidden_states).reshape(b, s, self.heads, self.dim_head)
        k = self.to_k(hidden_states).reshape(b, s, self.heads, self.dim_head)
        v = self.to_v(hidden_states).reshape(b, s, self.heads, self.dim_head)
        attn_output = jax.nn.dot_product_attention(q, k, v)

        if getattr(self, "to_gate_logits", None) is not None:
            gate_kernel = self.to_gate_logits.kernel.value
            gate_bias = self.to_gate_logits.bias.value
            print(f"[Gating Diagnostics] to_gate_logits kernel - mean: {float(jnp.mean(gate_kernel)):.8f}, std: {float(jnp.std(gate_kernel)):.8f}", flush=True)  # <-- bug
            print(f"[Gating Diagnostics] to_gate_logits bias - mean: {float(jnp.mean(gate_bias)):.8f}, std: {float(jnp.std(gate_bias)):.8f}", flush=True)
            gate_logits = self.to_gate_logits(hidden_states)
            gates = 2.0 * jax.nn.sigmoid(gate_logits)
            attn_output = attn_output * jnp.expand_dims(gates, axis=-1)

        return self.to_out(attn_output.reshape(b, s, -1))


@nnx.jit
def transformer_forward(attn, hidden_states):
    return attn(hidden_states)


if __name__ == "__main__":
    attn = LTX2Attention(dim=32, heads=4, rngs=nnx.Rngs(0))
    hidden_states = jnp.ones((2, 8, 32))
    out = transformer_forward(attn, hidden_states)
    print(out.shape, float(out.sum()))
