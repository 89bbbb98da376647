# source: https://github.com/google/CommonLoopUtils/commit/b6e167e13347c18bfe35317c6fb41d938b768e43
# category: R
# expect: ok
# via: dataclass, method, jit-decorator, host-loop
# sink: dtype-change
"""CLU's Average metric starts `empty()` with an int32 count, but `from_model_output` counted
with `jnp.ones_like(values)`, a float; merging the two turns the count into a float, so a jitted
step that merges each batch into the running metric sees a new input type on its second call and
traces again.  The commit counts with int32 everywhere (and tests for at most one trace)."""
import flax
import jax
import jax.numpy as jnp


@flax.struct.dataclass
class Average:
    total: jnp.ndarray
    count: jnp.ndarray

    @classmethod
    def empty(cls):
        return cls(total=jnp.array(0, jnp.float32), count=jnp.array(0, jnp.int32))

    @classmethod
    def from_model_output(cls, values, mask=None):
        if mask is None:
            mask = jnp.ones_like(values, dtype=bool)
        return cls(
            total=jnp.where(mask, values, jnp.zeros_like(values)).sum(),
            count=jnp.where(mask, jnp.ones_like(values, dtype=jnp.int32), jnp.zeros_like(values, dtype=jnp.int32)).sum(),
        )

    def merge(self, other):
        return type(self)(total=self.total + other.total, count=self.count + other.count)

    def compute(self):
        return self.total / self.count


@jax.jit
def merge_metric(loss, metric):
    update = Average.from_model_output(loss)
    return metric.merge(update)


if __name__ == "__main__":
    metric = Average.empty()
    for loss in [jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]), jnp.array([5.0, 6.0])]:
        metric = merge_metric(loss, metric)
    print(metric.compute())
