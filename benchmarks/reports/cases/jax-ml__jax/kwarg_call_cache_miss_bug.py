# source: https://github.com/jax-ml/jax/pull/595
# category: R
# expect: recompiles
# via: jit-call
# sink: keyword-vs-positional
"""The same jitted lambda is called with y positionally and then as a keyword: keyword arguments
are a different call signature for jit's cache, so the second style compiles the function again."""
import jax

f = jax.jit(lambda x, y: x + y)

if __name__ == "__main__":
    print(f(4, 5))
    print(f(6, 7))
    print(f(4, y=5))  # <-- bug
    print(f(8, y=9))
