# source: https://github.com/epignatelli/navix/commit/b544af1775ddf20b69f3293add2b68a4d21b8de7
# category: C
# expect: ok
# via: flax-linen, method, lax-scan, jit-decorator
# sink: leaked-tracer
"""The Dreamer world model was initialised by running `observe()`, whose body calls the RSSM and
encoder submodules inside a raw `jax.lax.scan`; when `.init()` runs inside the jitted training
setup, the submodules are first created inside the scan's trace and their parameters escape it,
and JAX reports an unexpected tracer. The agent instead initialises through `init_probe()`, which
touches each submodule once outside any scan."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class WorldModel(nn.Module):
    recurrent_size: int = 8

    def setup(self):
        self.rssm = nn.GRUCell(self.recurrent_size)
        self.encoder = nn.Dense(self.recurrent_size)
        self.reward = nn.Dense(1)

    def observe(self, obs_seq):
        h0 = jnp.zeros((obs_seq.shape[1], self.recurrent_size))

        def step(h, obs):
            h, _ = self.rssm(h, self.encoder(obs))
            return h, self.reward(h)[..., 0]

        return jax.lax.scan(step, h0, obs_seq)[1]

    def init_probe(self, obs):
        h = jnp.zeros((obs.shape[0], self.recurrent_size))
        h, _ = self.rssm(h, self.encoder(obs))
        return self.reward(h)[..., 0]


model = WorldModel()


@jax.jit
def init_world_model(rng, obs_seq):
    return model.init(rng, obs_seq[0], method=WorldModel.init_probe)


@jax.jit
def rewards(params, obs_seq):
    return model.apply(params, obs_seq, method=WorldModel.observe)


if __name__ == "__main__":
    obs_seq = jnp.ones((5, 2, 4))
    params = init_world_model(jax.random.PRNGKey(0), obs_seq)
    print(rewards(params, obs_seq).shape)
