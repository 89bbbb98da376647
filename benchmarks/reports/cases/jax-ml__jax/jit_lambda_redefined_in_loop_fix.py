# source: https://github.com/jax-ml/jax/pull/19129
# category: R
# expect: ok
# via: jit-call, host-loop
# sink: fresh-callable
"""The cache-miss explainer's motivating case: jax.jit(lambda x: 2 * x) written inside a loop makes a
new callable every iteration, so the tracing cache never hits and each call traces again."""
import jax

if __name__ == "__main__":
    double = jax.jit(lambda x: 2 * x)
    for _ in range(2):
        print(double(3))
