# source: https://github.com/eclipse-qrisp/Qrisp/issues/801
# category: C
# expect: raises
# via: pytree-class, wrapper, jit-call, helper
# sink: leaked-tracer
"""A `QuantumModulus` built from a traced modulus keeps the modulus out of its traced attributes,
so the pytree flattening copies the live tracer into the static template; the `qache`d helper is
cached under that template and the second independent `jaspify` call replays it with the first
trace's tracer, raising UnexpectedTracerError."""
import copy

import jax
import jax.numpy as jnp


class QuantumVariableTemplate:
    def __init__(self, qv):
        self.qv = copy.copy(qv)
        for attr in qv.traced_attributes:
            setattr(self.qv, attr, None)

    def __hash__(self):
        return hash((type(self.qv).__name__, self.qv.size))

    def __eq__(self, other):
        return type(self.qv) is type(other.qv) and self.qv.size == other.qv.size


class QuantumVariable:
    def __init__(self, size):
        self.size = size
        self.reg = jnp.zeros(size, dtype=jnp.int32)
        self.traced_attributes = ["reg"]


def _flatten(qv):
    return [getattr(qv, attr) for attr in qv.traced_attributes], QuantumVariableTemplate(qv)


def _unflatten(template, children):
    qv = copy.copy(template.qv)
    for attr, value in zip(qv.traced_attributes, children):
        setattr(qv, attr, value)
    return qv


class QuantumModulus(QuantumVariable):
    def __init__(self, modulus, size=1):
        super().__init__(size)
        self.modulus = modulus  # <-- bug


jax.tree_util.register_pytree_node(QuantumVariable, _flatten, _unflatten)
jax.tree_util.register_pytree_node(QuantumModulus, _flatten, _unflatten)


def qache(func):
    cache = {}

    def wrapper(*args):
        leaves, treedef = jax.tree_util.tree_flatten(args)
        if treedef not in cache:
            def flat_fun(*flat):
                qargs = jax.tree_util.tree_unflatten(treedef, flat)
                func(*qargs)
                return jax.tree_util.tree_leaves(qargs)
            cache[treedef] = jax.make_jaxpr(flat_fun)(*leaves)
        jaspr = cache[treedef]
        new_leaves = jax.core.eval_jaxpr(jaspr.jaxpr, jaspr.consts, *leaves)
        for qv, new in zip(args, jax.tree_util.tree_unflatten(treedef, new_leaves)):
            if isinstance(qv, QuantumVariable):
                for attr in qv.traced_attributes:
                    setattr(qv, attr, getattr(new, attr))

    return wrapper


def jaspify(func):
    def simulate(*args):
        def traced(*a):
            return func(*a)

        jaspr = jax.make_jaxpr(traced)(*args)
        return jax.core.eval_jaxpr(jaspr.jaxpr, jaspr.consts, *args)  # <-- bug

    return simulate


@qache
def op(f, root):
    f.reg = (f.reg + root) % f.modulus


@jaspify
def solve(q, root):
    f = QuantumModulus(q)
    op(f, root)
    return f.reg


if __name__ == "__main__":
    print(solve(13, 5))
    print(solve(13, 5))
