# source: https://taourl.com/read-2425218.html
# category: C
# expect: stale
# via: jit-call
# sink: print
"""The page compares a plain function with its `jax.jit` version: the `print` inside runs on every
plain call, but under jit it runs only while tracing, shows a tracer instead of the value, and is
skipped on the second, cached call."""
import jax


def non_jit_func(x):
    print("Non-JIT print:", x)  # <-- bug
    return x * 2


jit_func = jax.jit(non_jit_func)

if __name__ == "__main__":
    print("JIT output:", jit_func(5))
    print("JIT output:", jit_func(5))
