# source: https://github.com/joeryjoery/jit_env/issues/36
# category: A
# expect: raises
# via: method, jit-call, class-attribute
# sink: python-if
"""`DiscreteArray` promotes `num_values` to a jax array and validates it with
`if not (num_values > 0).all()`; an environment that builds its action spec inside its jitted
`step` makes that array a tracer, so the validation cannot be turned into a bool."""
import jax
import jax.numpy as _jnp


class BoundedArray:
    def __init__(self, shape, dtype, minimum, maximum, name=""):
        self._shape, self._dtype, self._name = shape, dtype, name
        self._minimum, self._maximum = minimum, maximum

    @property
    def maximum(self):
        return self._maximum


class DiscreteArray(BoundedArray):
    """A variant of BoundedArray with strict integer values and minimum=0."""

    def __init__(self, num_values, dtype=_jnp.int32, name=""):
        if not _jnp.issubdtype(dtype, _jnp.integer):
            raise ValueError(f"`dtype` must be integer, got {dtype}.")
        num_values = _jnp.asarray(num_values, dtype)
        if not (num_values > 0).all():  # <-- bug
            raise ValueError(f"`num_values` may only contain positive integers, got {num_values}.")
        super().__init__(shape=_jnp.shape(num_values), dtype=dtype, minimum=0,
                         maximum=num_values - 1, name=name)


class GridWorld:
    num_actions = 4

    def action_spec(self):
        return DiscreteArray(num_values=self.num_actions, name="action")

    def reset(self, key):
        return _jnp.zeros(2, _jnp.int32)

    def step(self, state, action):
        spec = self.action_spec()
        action = _jnp.clip(action, 0, spec.maximum)
        moves = _jnp.array([[0, 1], [1, 0], [0, -1], [-1, 0]])
        return _jnp.clip(state + moves[action], 0, 4)


if __name__ == "__main__":
    env = GridWorld()
    step = jax.jit(env.step)
    state = env.reset(jax.random.PRNGKey(0))
    for a in [0, 1, 1, 3]:
        state = step(state, _jnp.int32(a))
    print(state)
