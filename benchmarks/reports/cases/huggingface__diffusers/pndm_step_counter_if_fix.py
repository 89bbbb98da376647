# source: https://github.com/huggingface/diffusers/pull/583
# category: A
# expect: ok
# via: jit-call, method, dataclass, lax-fori
# sink: bool-ops
"""The Flax PNDM scheduler chooses between its Runge-Kutta and linear multistep updates with
`jax.lax.switch` on an index computed by `jnp.where` from `state.counter`, so it runs inside the
pipeline's jitted `fori_loop` denoising loop."""
import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class PNDMSchedulerState:
    counter: jnp.ndarray
    prk_timesteps: jnp.ndarray
    cur_model_output: jnp.ndarray
    ets: jnp.ndarray


class FlaxPNDMScheduler:
    skip_prk_steps = False

    def create_state(self, shape):
        return PNDMSchedulerState(jnp.int32(0), jnp.arange(8)[::-1], jnp.zeros(shape), jnp.zeros((4,) + shape))

    def step_prk(self, state, model_output, timestep, sample):
        cur = state.cur_model_output + model_output / 6
        return sample - 0.1 * cur, state.replace(counter=state.counter + 1, cur_model_output=cur)

    def step_plms(self, state, model_output, timestep, sample):
        ets = jnp.roll(state.ets, -1, axis=0).at[-1].set(model_output)
        eps = (55 * ets[-1] - 59 * ets[-2] + 37 * ets[-3] - 9 * ets[-4]) / 24
        return sample - 0.1 * eps, state.replace(counter=state.counter + 1, ets=ets)

    def step(self, state, model_output, timestep, sample):
        if self.skip_prk_steps:
            return self.step_plms(state, model_output, timestep, sample)
        return jax.lax.switch(
            jnp.where(state.counter < len(state.prk_timesteps), 0, 1),
            (self.step_prk, self.step_plms),
            state, model_output, timestep, sample)


def generate(scheduler, latents, num_inference_steps):
    def loop_body(step, args):
        latents, scheduler_state = args
        noise_pred = jnp.tanh(latents)  # stands in for the UNet
        return scheduler.step(scheduler_state, noise_pred, step, latents)

    state = scheduler.create_state(latents.shape)
    latents, _ = jax.lax.fori_loop(0, num_inference_steps, loop_body, (latents, state))
    return latents


if __name__ == "__main__":
    scheduler = FlaxPNDMScheduler()
    p_generate = jax.jit(generate, static_argnums=(0, 2))
    print(p_generate(scheduler, jnp.ones((2, 3)), 12))
