# source: https://taourl.com/read-2425218.html
# category: C
# expect: ok
# via: jit-call
# sink: print
"""`jax.debug.print` is staged into the compiled function, so the value is printed on every call
of the jitted version, just as the plain function prints it."""
import jax


def non_jit_func(x):
    jax.debug.print("Non-JIT print: {}", x)
    return x * 2


jit_func = jax.jit(non_jit_func)

if __name__ == "__main__":
    print("JIT output:", jit_func(5))
    print("JIT output:", jit_func(5))
