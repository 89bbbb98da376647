# source: https://github.com/PennyLaneAI/pennylane/pull/8190
# category: A
# expect: ok
# via: jit-call, method, helper
# sink: python-if
"""PauliSentence.simplify and `operation()` test a coefficient's value only when it is not
abstract, so coefficients traced by jax.jit keep their terms and their scalar products."""
import jax
import jax.numpy as jnp


def is_abstract(x):
    return isinstance(x, jax.core.Tracer)


PAULI = {"I": jnp.eye(2), "X": jnp.array([[0.0, 1.0], [1.0, 0.0]]), "Z": jnp.diag(jnp.array([1.0, -1.0]))}


class SProd:
    def __init__(self, coeff, base):
        self.coeff, self.base = coeff, base

    def matrix(self):
        return self.coeff * self.base.matrix()


class PauliWordOp:
    def __init__(self, word):
        self.word = word

    def matrix(self):
        return PAULI[self.word]


class PauliSentence(dict):
    def __add__(self, other):
        out = PauliSentence(self)
        for pw, c in other.items():
            out[pw] = out.get(pw, 0.0) + c
        return out

    def simplify(self, tol=1e-8):
        """Remove any PauliWords in the PauliSentence with coefficients less than the threshold tolerance."""
        items = list(self.items())
        for pw, coeff in items:
            if not is_abstract(coeff) and abs(coeff) <= tol:
                del self[pw]
        return self

    def operation(self):
        summands = []
        for pw, coeff in self.items():
            pw_op = PauliWordOp(pw)
            summands.append(
                pw_op if not is_abstract(coeff) and jnp.all(coeff == 1) else SProd(coeff, pw_op))
        return sum(s.matrix() for s in summands)


def f(c1, c2):
    op = PauliSentence({"X": c1}) + PauliSentence({"X": c2})
    return op.simplify().operation()


if __name__ == "__main__":
    print(f(1.0, 1.0))
    print(jax.jit(f)(1.0, 1.0))
