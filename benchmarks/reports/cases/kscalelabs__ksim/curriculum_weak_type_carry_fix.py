# source: https://github.com/kscalelabs/ksim/pull/425
# category: R
# expect: ok
# via: jit-decorator, static-argnums, method, dataclass, host-loop
# sink: weak-type
"""The curriculum's initial state builds its counters with `jnp.array(<python float>)`, which
are weakly typed; after one jitted training step the EMA comes back as a strong float32, so the
carry fed to the second step has a different type and the step function is compiled again. The
fix gives the initial arrays an explicit float32 dtype."""
from dataclasses import dataclass
from functools import partial

import attrs
import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class EpisodeLengthCurriculumState:
    step_counter: jax.Array
    ema_episode_length: jax.Array


@jax.tree_util.register_dataclass
@dataclass(frozen=True)
class CurriculumState:
    level: jax.Array
    state: EpisodeLengthCurriculumState


@attrs.define(frozen=True, kw_only=True)
class EpisodeLengthCurriculum:
    num_levels: int = 100
    increase_threshold: float = 3.0
    decrease_threshold: float = 3.0
    min_level_steps: int = 1
    min_level: float = 0.0
    ema_decay: float = 0.9

    def __call__(self, episode_length, prev_state):
        step_size = 1 / self.num_levels
        ema = self.ema_decay * prev_state.state.ema_episode_length + (1 - self.ema_decay) * episode_length.mean()
        steps = prev_state.state.step_counter
        can_step = steps == 0
        should_inc = (ema > self.increase_threshold) & can_step
        should_dec = (ema < self.decrease_threshold) & can_step
        next_steps = jnp.where(should_inc | should_dec, self.min_level_steps, jnp.maximum(steps - 1, 0))
        level = prev_state.level
        next_level = jnp.where(should_inc, level + step_size, jnp.where(should_dec, level - step_size, level))
        next_level = jnp.clip(next_level, self.min_level, 1.0)
        return CurriculumState(level=next_level, state=EpisodeLengthCurriculumState(next_steps, ema))

    def get_initial_state(self, rng):
        return CurriculumState(
            level=jnp.array(self.min_level, dtype=jnp.float32),
            state=EpisodeLengthCurriculumState(
                step_counter=jnp.array(self.min_level_steps, dtype=jnp.int32),
                ema_episode_length=jnp.array(0.0, dtype=jnp.float32),
            ),
        )


class RLTask:
    def __init__(self):
        self.curriculum = EpisodeLengthCurriculum()

    @partial(jax.jit, static_argnums=(0,))
    def _rl_train_loop_step(self, carry, rng):
        episode_length = jax.random.uniform(rng, (8,), minval=1.0, maxval=6.0)
        return self.curriculum(episode_length, carry)

    def run_training(self, num_steps):
        rng = jax.random.PRNGKey(0)
        carry = self.curriculum.get_initial_state(rng)
        for _ in range(num_steps):
            rng, update_rng = jax.random.split(rng)
            carry = self._rl_train_loop_step(carry, update_rng)
        return carry


if __name__ == "__main__":
    carry = RLTask().run_training(3)
    print(carry.level, carry.state.ema_episode_length)
