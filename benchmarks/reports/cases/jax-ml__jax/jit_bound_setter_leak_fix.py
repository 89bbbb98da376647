# source: https://github.com/jax-ml/jax/issues/26560
# category: C
# expect: ok
# via: jit-call, method
# sink: attribute-write
"""A bound setter method is jitted and called; it stores its traced argument on the instance, so the
tracer outlives the trace and the leak checker reports the leaked DynamicJaxprTrace."""
import jax


class Something:
    def set_x(self, x):
        return x


def test_ok():
    something = Something()
    something.x = jax.jit(something.set_x)(7)
    return something


if __name__ == "__main__":
    s = test_ok()
    print(hasattr(s, "x"))
