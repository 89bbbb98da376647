# source: https://github.com/PennyLaneAI/pennylane/blob/1a4281d65bc1198b847a468c88c90f82ec8dd048/tests/capture/autograph/test_if_else.py#L158
# category: A
# expect: raises
# via: helper
# sink: python-if
"""PennyLane's autograph test: a function calls a helper that branches with a Python `if` on its
argument; converting the function to a jaxpr without autograph traces the argument, and the
branch needs a concrete bool."""
import jax


def inner(x):
    if x > 3:  # <-- bug
        return x**2
    return x**3


def fn(x: int):
    return inner(x)


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(fn)(4)
    for x in (5, 2):
        print(jax.core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, x)[0])
