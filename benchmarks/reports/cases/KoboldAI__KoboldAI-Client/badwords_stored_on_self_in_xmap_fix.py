# source: https://github.com/KoboldAI/KoboldAI-Client/pull/127
# category: C
# expect: ok
# via: method, factory-closure, jit-call, haiku, lax-while
# sink: attribute-write
"""The sampler built in PenalizingCausalTransformer.__init__ keeps the banned-token array in a
local variable of the traced function, so nothing traced is left on the model object."""
import jax
import jax.numpy as jnp
import haiku as hk


class vars:
    badwordsids = [[13], [42]]


def compiling_callback():
    print("compiling")


class CausalTransformer:
    def __init__(self, config):
        self.config = config
        self.state = {"params": {"~": {"embed": jnp.linspace(-1.0, 1.0, config["n_vocab"])}}}


class PenalizingCausalTransformer(CausalTransformer):
    def __init__(self, config, **kwargs):
        super().__init__(config, **kwargs)

        def generate_static(state, key, ctx, gen_length):
            compiling_callback()
            # These are the tokens that we don't want the AI to ever write
            badwords = jnp.array(vars.badwordsids).squeeze()

            @hk.transform
            def generate_sample(context):
                embed = hk.get_parameter("embed", (config["n_vocab"],), init=jnp.zeros)

                def generate_loop_fn(carry):
                    generated, generated_index, sample_key = carry
                    sample_key, new_key = jax.random.split(sample_key)
                    logits = embed + 0.01 * context.sum()
                    logits = logits.at[badwords].set(-jnp.inf)
                    next_token = jax.random.categorical(sample_key, logits)
                    generated = generated.at[generated_index].set(next_token)
                    return generated, generated_index + 1, new_key

                generated = jnp.zeros(gen_length, dtype=jnp.int32)
                init = (generated, 0, hk.next_rng_key())
                return jax.lax.while_loop(lambda c: c[1] < gen_length, generate_loop_fn, init)[0]

            return generate_sample.apply(state["params"], key, ctx)

        self.generate_static_xmap = jax.jit(generate_static, static_argnums=3)

    def generate_static(self, ctx, gen_length, key):
        return self.generate_static_xmap(self.state, key, ctx, gen_length)


if __name__ == "__main__":
    network = PenalizingCausalTransformer({"n_vocab": 64})
    ctx = jnp.arange(8, dtype=jnp.int32)
    for seed in range(3):
        out = network.generate_static(ctx, 6, jax.random.PRNGKey(seed))
        print(out.tolist())
