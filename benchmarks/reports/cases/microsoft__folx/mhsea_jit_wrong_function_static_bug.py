# source: https://github.com/microsoft/folx/commit/ec77864c4149f442300e84a1eecc321ef8266348
# category: B
# expect: raises
# via: custom-vjp, jit-call, static-argnums, helper, other-module
# sink: static-spec
"""folx jitted its edge-bias attention as `jax.jit(custom_vjp_mhsa, static_argnums=(6, ..., 10))`:
the static positions are those of the 11-argument `custom_vjp_mhsea`, but the function given is
the 10-argument `custom_vjp_mhsa`, so JAX rejects the spec as soon as the module is loaded."""
import jax
import jax.numpy as jnp


def _attention(q, k, v, mask, bias=None):
    # q, k, v: (batch, seq, heads, dim); mask: (batch, seq)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    if bias is not None:
        logits = logits + jnp.transpose(bias, (0, 2, 1, 3))
    logits = jnp.where(mask[:, None, None, :], logits, -1e9)
    out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(logits, axis=-1), v)
    return jnp.where(mask[:, :, None, None], out, 0.0)


def mhsa(q, k, v, mask, input_mask, kernel, interpret, q_block_len, num_warps, num_stages):
    return _attention(q, k, v, mask)


def mhsea(q, k, bias, v, mask, input_mask, kernel, interpret, q_block_len, num_warps, num_stages):
    return _attention(q, k, v, mask, bias)


def mhsa_forward(q, k, v, mask, input_mask, kernel, interpret, q_block_len, num_warps, num_stages):
    out, vjp = jax.vjp(lambda q, k, v: _attention(q, k, v, mask), q, k, v)
    return out, (q, k, v, mask, input_mask)


def mhsa_backward(kernel, interpret, q_block_len, num_warps, num_stages, res, o_bar):
    q, k, v, mask, input_mask = res
    _, vjp = jax.vjp(lambda q, k, v: _attention(q, k, v, mask), q, k, v)
    return (*vjp(o_bar), None, None)


def mhsea_forward(q, k, bias, v, mask, input_mask, kernel, interpret, q_block_len, num_warps, num_stages):
    out = _attention(q, k, v, mask, bias)
    return out, (q, k, bias, v, mask, input_mask)


def mhsea_backward(kernel, interpret, q_block_len, num_warps, num_stages, res, o_bar):
    q, k, bias, v, mask, input_mask = res
    _, vjp = jax.vjp(lambda q, k, b, v: _attention(q, k, v, mask, b), q, k, bias, v)
    return (*vjp(o_bar), None, None)


custom_vjp_mhsa = jax.custom_vjp(mhsa, nondiff_argnums=(5, 6, 7, 8, 9))
custom_vjp_mhsa.defvjp(mhsa_forward, mhsa_backward)
custom_vjp_mhsa_jitted = jax.jit(custom_vjp_mhsa, static_argnums=(5, 6, 7, 8, 9))

custom_vjp_mhsea = jax.custom_vjp(mhsea, nondiff_argnums=(6, 7, 8, 9, 10))
custom_vjp_mhsea.defvjp(mhsea_forward, mhsea_backward)
custom_vjp_mhsea_jitted = jax.jit(custom_vjp_mhsa, static_argnums=(6, 7, 8, 9, 10))  # <-- bug


def multi_head_self_attention(q, k, v, mask, input_mask, bias=None, kernel="reference", interpret=False,
                              q_block_len=None, num_warps=2, num_stages=2):
    if bias is None:
        return custom_vjp_mhsa_jitted(q, k, v, mask, input_mask, kernel, interpret, q_block_len, num_warps, num_stages)
    return custom_vjp_mhsea_jitted(q, k, bias, v, mask, input_mask, kernel, interpret, q_block_len, num_warps, num_stages)


if __name__ == "__main__":
    kq, kk, kv, kb = jax.random.split(jax.random.PRNGKey(0), 4)
    shape = (2, 8, 2, 4)
    q = jax.random.normal(kq, shape, dtype=jnp.float32)
    k = jax.random.normal(kk, shape, dtype=jnp.float32)
    v = jax.random.normal(kv, shape, dtype=jnp.float32)
    bias = 0.1 * jax.random.normal(kb, (2, 8, 2, 8), dtype=jnp.float32)
    mask = jnp.arange(8)[None, :] < jnp.array([[8], [6]])
    input_mask = jnp.ones((24, 2), dtype=bool)
    out = multi_head_self_attention(q, k, v, mask, input_mask)
    out_b = multi_head_self_attention(q, k, v, mask, input_mask, bias=bias)
    print(out.shape, round(float(out.sum()), 4), out_b.shape, round(float(out_b.sum()), 4))
