# source: https://github.com/patrick-kidger/equinox/issues/645
# category: R
# expect: ok
# via: equinox, jit-decorator, host-loop
# sink: changing-static
"""The reporter decorated `f(x, i)` with eqx.filter_jit (plus a max-traces check) and called it in
a loop with the Python int loop counter `i`.  filter_jit treats every non-array argument as
static, so each new `i` compiles `f` again ("COMPILE" on every iteration); with jax.jit the
same loop traces `i` and compiles once."""
import equinox as eqx
import jax


@jax.jit
def f(x, i):
    print("COMPILE")
    return x * 2


if __name__ == "__main__":
    for i in range(10):
        print(f(2.0 * i, i))
