# source: https://github.com/AshishKumar4/FlaxDiff/pull/4
# category: R
# expect: ok
# via: method, jit-decorator, flax-linen, factory-closure, host-loop
# sink: fresh-callable
"""`DiffusionSampler.generate_images` defines a `@jax.jit` wrapper `sample_model_fn` around the
already jitted `self.sample_model` inside the method, closing over the parameters; every call
(the trainer samples images after each epoch) makes a new jitted function that is traced and
compiled again.  The fix drops the inner `@jax.jit` and relies on `self.sample_model`."""
import flax.linen as nn
import jax
import jax.numpy as jnp


class Denoiser(nn.Module):
    @nn.compact
    def __call__(self, x, t):
        h = x.reshape((x.shape[0], -1))
        h = nn.Dense(16)(h) + nn.Dense(16)(t[:, None])
        return nn.Dense(x.shape[1] * x.shape[2] * x.shape[3])(nn.relu(h)).reshape(x.shape)


class CosineNoiseSchedule:
    max_timesteps = 100

    def get_rates(self, t):
        angle = t / self.max_timesteps * jnp.pi / 2
        return jnp.cos(angle), jnp.sin(angle)

    def transform_inputs(self, x, t):
        return x, t / self.max_timesteps


class EpsilonPredictionTransform:
    def get_input_scale(self, rates):
        alpha, sigma = rates
        return (1.0 / jnp.sqrt(alpha ** 2 + sigma ** 2))[:, None, None, None]

    def __call__(self, x_t, eps, t, schedule):
        alpha, sigma = schedule.get_rates(t)
        alpha, sigma = alpha[:, None, None, None], sigma[:, None, None, None]
        return (x_t - sigma * eps) / jnp.maximum(alpha, 1e-3), eps


class DiffusionSampler:
    def __init__(self, model, params, noise_schedule, model_output_transform, image_size=8):
        self.model, self.params, self.image_size = model, params, image_size
        self.noise_schedule, self.model_output_transform = noise_schedule, model_output_transform

        def sample_model(params, x_t, t):
            c_in = self.model_output_transform.get_input_scale(self.noise_schedule.get_rates(t))
            model_output = self.model.apply(params, *self.noise_schedule.transform_inputs(x_t * c_in, t))
            x_0, eps = self.model_output_transform(x_t, model_output, t, self.noise_schedule)
            return x_0, eps, model_output

        self.sample_model = jax.jit(sample_model)

    def take_next_step(self, reconstructed_samples, pred_noise, next_step):
        alpha, sigma = self.noise_schedule.get_rates(next_step)
        return alpha[:, None, None, None] * reconstructed_samples + sigma[:, None, None, None] * pred_noise

    def generate_images(self, params=None, num_images=4, diffusion_steps=5, rng=jax.random.PRNGKey(42)):
        samples = jax.random.normal(rng, (num_images, self.image_size, self.image_size, 3))
        params = params if params is not None else self.params

        # @jax.jit
        def sample_model_fn(x_t, t):
            return self.sample_model(params, x_t, t)

        steps = jnp.linspace(0, self.noise_schedule.max_timesteps, diffusion_steps + 1)[::-1]
        step_ones = jnp.ones((num_images,), dtype=jnp.float32)
        for i in range(diffusion_steps):
            pred_images, pred_noise, _ = sample_model_fn(samples, steps[i] * step_ones)
            samples = self.take_next_step(pred_images, pred_noise, steps[i + 1] * step_ones)
        return jnp.clip(samples, -1, 1)


if __name__ == "__main__":
    model = Denoiser()
    params = model.init(jax.random.PRNGKey(0), jnp.zeros((1, 8, 8, 3)), jnp.zeros((1,)))
    sampler = DiffusionSampler(model, params, CosineNoiseSchedule(), EpsilonPredictionTransform())
    for epoch in range(3):
        params = jax.tree_util.tree_map(lambda p: p * 0.99, params)  # stands for a training epoch
        images = sampler.generate_images(params=params)
        print(epoch, float(jnp.mean(images)))
