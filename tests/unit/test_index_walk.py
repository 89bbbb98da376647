"""The module index walks the tree itself; it must see exactly what LibCST's visit would."""

from __future__ import annotations

import glob
import os

import libcst as cst
import pytest

from jaxlint.analysis.syntax.fast_walk import DottedAttributes, FastVisitor, child_fields
from jaxlint.analysis.syntax.module_index import ModuleIndex

from clirun import ROOT

SOURCE = '''
import jax, jax.numpy as jnp
from jax import lax as L
from . import sibling
from .pkg.mod import thing as t
G = []

@jax.jit
@decorate(jnp.ones(3))
async def f(x, y: "T" = g(1), *args, z=h(), **kw) -> ret(2):
    global G
    a, (b, *c) = x, (y, 1, 2)
    d: int = k(a)
    G.append(a)
    a.b.c = 1
    x[0] += 1
    del x[1], a.b
    if (n := len(x)) > 0 and not x or y:
        pass
    elif q := x:
        pass
    else:
        lam = lambda u, v=w(): u(v) + t(f"{u(1)!r:>{v(2)}}")
    for i, j in enumerate(zip(a, b)):
        while i:
            i -= call(i)
            break
        else:
            continue
    else:
        print([m(e) for e in x if p(e)], {k2: v2() for k2, v2 in kw.items()}, {s() for s in ()}, (g2() for g2 in ()))
    with open(p()) as fh, lock() as (l1, l2):
        async for item in fh:
            await item.read()
    try:
        raise E(1) from F(2)
    except (A, B) as e:
        yield from gen(e)
    finally:
        cleanup()
    try:
        pass
    except* C:
        pass
    finally:
        return x[a:b(1):c(2), ...] @ y if z else -w ** 2
    match x:
        case {"k": [1, *rest]} if guard(rest):
            pass
        case Point(x=0) | None:
            pass

class C(Base, metaclass=meta(1)):
    attr: int = field(default=f())
    def method(self, s=self_default()):
        nonlocal_target = 1
        def inner():
            nonlocal nonlocal_target
            nonlocal_target = 2
            self.items.append(inner)
        return inner
    x = [y for y in range(3)]
    assert cond(x), msg()
'''


class RefIndex(ModuleIndex, cst.CSTVisitor):
    """The same index, walked by LibCST's own ``visit``."""

    def walk(self, node):
        node.visit(self)


def snapshot(ix):
    ids = {}

    def nid(n):
        return None if n is None else ids.setdefault(id(n), len(ids))

    def sid(s):
        return (s.kind, s.name, nid(s.node))

    def scope(s):
        return (
            sid(s),
            sorted(s.imports.items()),
            sorted((k, [(b.order, b.kind, nid(b.value)) for b in v]) for k, v in s.bindings.items()),
            sorted((k, [(o, kd, sid(sc)) for o, kd, sc in v]) for k, v in s.mutations.items()),
            sorted((k, [(sid(sc), o, kd) for sc, o, kd in v]) for k, v in s.remote_writes.items()),
            sorted(s.globals),
            sorted(s.nonlocals),
            list(s.loops),
            [(nid(c), o) for c, o in s.calls],
            sorted(s.defs),
            sorted(s.classes),
        )

    return [
        [(nid(c), sid(s), o) for c, s, o in ix.calls],
        [(nid(t), nid(st), sid(s), a) for t, st, s, a in ix.subscript_stores],
        [(f.qualname, nid(f.node)) for f in ix.functions],
        sorted(nid_ for nid_ in (ids.setdefault(k, len(ids)) for k in ix.func_by_node)),
        [scope(s) for s in [ix.module_scope] + [f.body_scope for f in ix.functions] + [c.body_scope for c in ix.classes]],
        ix.order,
    ]


class RefDottedAttributes(DottedAttributes, cst.CSTVisitor):
    """The same collection, walked by LibCST's own ``visit`` of the whole tree."""


def dotted_attributes_visited(module):
    found = set()
    module.visit(RefDottedAttributes(found))
    return found


def sources():
    yield "synthetic", SOURCE
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.py")) + glob.glob(os.path.join(ROOT, "jaxlint", "**", "*.py"), recursive=True)):
        with open(path, encoding="utf-8") as fh:
            yield os.path.relpath(path, ROOT), fh.read()


# The synthetic source is the rule-work loop's check; every real file of the package and the
# fixtures is the slow sweep.
@pytest.mark.parametrize(
    "name,text",
    [pytest.param(n, t, marks=() if n == "synthetic" else pytest.mark.slow) for n, t in sources()],
    ids=lambda v: v if isinstance(v, str) and len(v) < 80 else "",
)
def test_fast_walk_records_what_libcst_visit_records(name, text):
    module = cst.parse_module(text)
    index = ModuleIndex(module)
    assert snapshot(index) == snapshot(RefIndex(module))
    assert index.dotted_attributes == dotted_attributes_visited(module)


STARS_AND_KEYWORDS = """
import abc, jax
def f(*args: jax.Array, **kw: abc.Mapping) -> None:
    g = lambda *a, **k: a.b
class C(metaclass=abc.ABCMeta, flag=jax.numpy.float32):
    pass
"""


def test_index_records_every_dotted_attribute():
    """The migration rules walk a module only when the index has recorded a dotted name that
    may reach an old API: the index must record every one, including where it does not walk
    for its own facts (star parameters' annotations, a class's keywords).  Every fixture and
    every module of the package: the sweep above."""
    module = cst.parse_module(STARS_AND_KEYWORDS)
    found = dotted_attributes_visited(module)
    assert {"jax.Array", "abc.Mapping", "abc.ABCMeta", "jax.numpy.float32", "a.b"} <= found
    assert ModuleIndex(module).dotted_attributes == found


def test_hooks_and_order_match_libcst():
    events_fast, events_ref = [], []

    class Fast(FastVisitor):
        def visit_Call(self, node):
            events_fast.append(("call", node))

        def leave_Call(self, node):
            events_fast.append(("/call", node))

        def visit_Name(self, node):  # normally a skipped leaf: hooked, it is entered
            events_fast.append(("name", node))

        def visit_Lambda(self, node):
            events_fast.append(("lambda", node))
            return False

    class Ref(cst.CSTVisitor):
        def visit_Call(self, node):
            events_ref.append(("call", node))

        def leave_Call(self, node):
            events_ref.append(("/call", node))

        def visit_Name(self, node):
            events_ref.append(("name", node))

        def visit_Lambda(self, node):
            events_ref.append(("lambda", node))
            return False

    module = cst.parse_module(SOURCE)
    Fast().walk(module)
    module.visit(Ref())
    assert len(events_fast) > 100
    assert [(k, id(n)) for k, n in events_fast] == [(k, id(n)) for k, n in events_ref]


def test_child_fields_follow_libcst_order_without_punctuation():
    call = cst.parse_expression("f(a, b=1)")
    assert child_fields(call) == ("func", "args")
    ifexp = cst.parse_expression("a if b else c")
    assert child_fields(ifexp) == ("body", "test", "orelse")


def test_walk_does_not_depend_on_the_first_instance_of_a_node_type():
    """An optional child missing from the first node of a type seen (``f"{x}"`` has no format
    spec) must still be walked in later nodes of that type (``f"{x:{width()}}"``)."""
    from jaxlint.analysis.syntax import fast_walk

    saved = dict(fast_walk._FIELD_ORDER)
    fast_walk._FIELD_ORDER.clear()
    try:
        ModuleIndex(cst.parse_module('import jax\na = f"{x}"\n'))
        ix = ModuleIndex(cst.parse_module('import jax\nb = f"{x:{width()}}"\n'))
        assert [c.func.value for c, _s, _o in ix.calls] == ["width"]
    finally:
        fast_walk._FIELD_ORDER.clear()
        fast_walk._FIELD_ORDER.update(saved)
