# source: https://github.com/PennyLaneAI/pennylane/blob/1a4281d65bc1198b847a468c88c90f82ec8dd048/tests/capture/autograph/test_if_else.py#L158
# category: A
# expect: ok
# via: helper, lax-cond
# sink: python-if
"""PennyLane's autograph test: the helper's branch on its argument is the conditional that
autograph produces, a `lax.cond` on the traced predicate, so the function converts to a jaxpr."""
import jax


def inner(x):
    return jax.lax.cond(x > 3, lambda x: x**2, lambda x: x**3, x)


def fn(x: int):
    return inner(x)


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(fn)(4)
    for x in (5, 2):
        print(jax.core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, x)[0])
