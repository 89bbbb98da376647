# source: https://github.com/jax-ml/jax/issues/3603
# category: A
# expect: ok
# via: jit-call, static-argnums, lax-scan, factory-closure
# sink: int-float-bool
"""do_stuff takes the number of scan steps as an argument and is jitted whole, so the scan length
arrives as a tracer; scan needs a concrete int length."""
import jax


def do_stuff(length):
    def f(carry, x):
        return carry, [None]

    out, _ = jax.lax.scan(f, [1], xs=None, length=length)
    return out[0]


if __name__ == "__main__":
    print(int(jax.jit(do_stuff, static_argnums=0)(10)))
