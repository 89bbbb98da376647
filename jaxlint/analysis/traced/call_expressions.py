"""Call expressions of traced code: dispatch by what is called, then calls of the module's own
functions (followed through the Analyzer), of instances of its classes and their methods, of
builtins, of ``super()`` and of library layers.

Calls of imported functions resolved by name are in ``library_calls.py``; this module holds
the calls whose value comes from following code of the module.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

import libcst as cst

from jaxlint.analysis.jax.jax_api import ARRAY_METHODS, DICT_METHODS, STATIC_ATTRS, TRACER_TYPES, TREE_LEAVES, is_layer_class
from jaxlint.analysis.model.classes import class_named, is_classmethod, is_property, named_tuple_fields
from jaxlint.analysis.model.library_callables import HAIKU_METHODS, LINEN_INITIALISERS, LINEN_LEADING, LINEN_VARIABLE_READS, haiku_callable
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.model.transforms import FnRef
from jaxlint.analysis.model.weak_types import BOOL, dtype_kind
from jaxlint.analysis.syntax.nodes import string_literal, string_value
from jaxlint.analysis.syntax.scopes import MUTATING_METHODS
from jaxlint.analysis.traced.effects import state_of
from jaxlint.analysis.traced.factory_contexts import callable_value
from jaxlint.analysis.traced.traced_fields import LAYER
from jaxlint.analysis.traced.shapes import SAME_SHAPE, known_int, known_len
from jaxlint.analysis.traced.value_checks import tree_leaves
from jaxlint.analysis.traced import values as lattice


class CallExpressions:
    """The call part of the interpreter (combined into ``Interp``)."""

    __slots__ = ()

    def e_Call(self, e: cst.Call, t) -> lattice.Val:
        fr = self.frame
        func = e.func
        q = None
        head = func
        while isinstance(head, cst.Attribute):
            head = head.value
        if isinstance(head, cst.Name) and fr.lookup(head.value) is None:
            q = resolve(func, fr.scope)
        if q is not None:
            return self.call_qualified(e, q)
        if isinstance(func, cst.Name):
            return self.call_name(e, func)
        if isinstance(func, cst.Attribute):
            return self.call_attribute(e, func)
        fv = self.eval(func)
        argvals = self.args(e)
        if fv.fn is not None:
            return self.invoke(e, fv, argvals)
        called = self._called_instance(e, fv, argvals)  # ``self.layers[0](x)``
        if called is not None:
            return called
        if isinstance(func, cst.Call) and self._is_layer(func):
            return self.layer_output(argvals)  # ``nn.Dense(4)(x)``
        return self.generic(argvals, fv)

    def _called_instance(self, e: cst.Call, v: lattice.Val, argvals) -> Optional[lattice.Val]:
        """Calling an instance of a class of the module (``net(x)`` on an eqx.Module): its
        ``__call__``, evaluated with the real receiver; None when that is not known."""
        if v.cls is None or v.kind == lattice.UNKNOWN or v.flags & lattice.ARRAY:
            return None
        method = self.analyzer.instance_attribute(self.frame, v, "__call__", v.name)
        return self.invoke(e, method, argvals) if method is not None and method.fn is not None else None

    def _is_layer(self, expr) -> bool:
        """``expr`` is (or builds) an instance of a library's layer class (``nn.Dense(4)``, a
        name or attribute every assignment of which builds one)."""
        if isinstance(expr, cst.Call):
            return is_layer_class(resolve(expr.func, self.frame.scope))
        r = self.analyzer.receivers.receiver_of(expr, self.frame.scope)
        return r is not None and r.cls is None and is_layer_class(r.external)

    def layer_output(self, argvals) -> lattice.Val:
        """What a library layer returns: traced when an input is; with Python inputs it may
        still compute with traced parameters, or hand its input back (``Identity``): unknown.
        It may be a tuple (``LSTMCell``), so its bare truthiness is not an array's."""
        traced = [v for _, v in argvals if v.kind == lattice.TRACED]
        if self.frame.concrete or not traced:
            return lattice.UNKNOWN_VAL
        return lattice.Val(lattice.TRACED, lattice.first_traced_name(traced), lattice.RAW)

    def args(self, e: cst.Call) -> List[Tuple[cst.Arg, lattice.Val]]:
        return [(a, self.eval(a.value)) for a in e.args]

    def generic(self, argvals, fv: lattice.Val = lattice.STATIC_VAL) -> lattice.Val:
        k = max([fv.kind] + [v.kind for _, v in argvals])
        return lattice.STATIC_VAL if k == lattice.STATIC else lattice.UNKNOWN_VAL

    def invoke(self, e, fv: lattice.Val, argvals, self_val: Optional[lattice.Val] = None) -> lattice.Val:
        fr = self.frame
        if fv.fn[0].jit is not None and not (fr.staged and not fr.concrete) and not any(v.kind == lattice.TRACED for _, v in argvals):
            return lattice.UNKNOWN_VAL  # evaluated outside any staging trace: concrete arrays
        return self.analyzer.call_function(self.frame, e, fv.fn, argvals, self_val)

    def fn_from(self, expr) -> Optional[tuple]:
        """A function value for an expression handed to a transform."""
        v = self.eval(expr)
        if v.fn is not None:
            return v.fn
        ref = self.analyzer.finder.resolve_fn(expr, self.frame.scope)
        if ref is not None:
            return (ref, None, [], {})
        return None

    BUILTIN_STATIC = frozenset(
        {
            "len",
            "isinstance",
            "issubclass",
            "type",
            "hasattr",
            "callable",
            "id",
            "repr",
            "str",
            "print",
            "super",
            "format",
            "hash",
            "vars",
            "dir",
            "setattr",
            "delattr",
            "iter",
            "next",
            "object",
            "NotImplementedError",
            "ValueError",
            "TypeError",
            "RuntimeError",
            "AssertionError",
        }
    )

    def call_name(self, e: cst.Call, func: cst.Name) -> lattice.Val:
        fr = self.frame
        name = func.value
        local = fr.lookup(name)
        if name in ("isinstance", "issubclass") and len(e.args) == 2 and isinstance(e.args[1].value, cst.Name):
            self.receiver = e.args[1].value  # a table of types consulted, not a value computed with
        if local is not None and name not in fr.declared:
            helper = local.fn is not None
        else:
            owner = fr.scope.lookup_scope(name)
            helper = owner is not None and name in owner.defs
        # A helper of the module reads its arguments where its body does: ``add_to(STATE, x)``
        # hands ``STATE`` over, and only the helper's use of it says whether it is read.
        argvals = [(a, self.outer_object(a.value) if not a.star else self.eval(a.value)) for a in e.args] if helper else self.args(e)
        if local is not None and name not in fr.declared:
            if local.fn is not None:
                return self.invoke(e, local, argvals)
            if local.cls is not None and local.kind != lattice.UNKNOWN and not local.flags & lattice.ARRAY:
                called = self._called_instance(e, local, argvals)
                if called is not None:
                    return called
            elif local.ext is not None and local.cls is None and local.kind != lattice.UNKNOWN and not local.flags & lattice.ARRAY:
                self.foreign_member(e, local, "__call__", argvals)
            if local.kind != lattice.UNKNOWN and local.fn is None and local.cls is None and self._is_layer(func):
                return self.layer_output(argvals)  # ``dense = nn.Dense(4)`` ... ``dense(x)``
            return self.generic(argvals, local)
        owner = fr.scope.lookup_scope(name)
        if owner is None:
            # A builtin.
            self.emit("call", fr, e, "builtins." + name, argvals)
            return self.builtin(e, name, argvals)
        f = owner.defs.get(name)
        if f is not None:
            return self.invoke(e, lattice.Val(lattice.STATIC, name, 0, None, (FnRef(f), None, [], {})), argvals)
        app = self.analyzer.finder.aliases.get((id(owner), name))
        if app is not None and not app.leading:
            ref = FnRef(app.func, app.bound_self)
            ref.stages = app.stages  # ``g = jax.jit(f)``: calling g stages f
            return self.invoke(e, lattice.Val(lattice.STATIC, name, 0, None, (ref, None, [], {})), argvals)
        v = self.name_val(func)
        if v.fn is not None:
            return self.invoke(e, v, argvals)
        ref = self.analyzer.finder.resolve_fn(func, fr.scope) or self._instance_call(func)
        if ref is not None:
            return self.invoke(e, lattice.Val(lattice.STATIC, name, 0, None, (ref, None, [], {})), argvals)
        passed = self._passed_callable(e)
        if passed is not None:
            return self.invoke(e, lattice.Val(lattice.STATIC, name, 0, None, passed), argvals)
        cls = owner.classes.get(name)
        if cls is not None:
            return self.analyzer.construct(fr, e, cls, argvals)
        fields = named_tuple_fields(owner, name)
        if fields is not None:
            # ``Pair = namedtuple("Pair", "a b")``: a tuple of what it is given, field by field
            given = {a.keyword.value: v for a, v in argvals if a.keyword is not None}
            positional = [v for a, v in argvals if a.keyword is None and not a.star]
            if len(positional) + len(given) == len(fields) and not any(a.star for a, _ in argvals):
                items = tuple(positional[:len(fields)]) + tuple(given.get(n, lattice.STATIC_VAL) for n in fields[len(positional):])
                return lattice.Val(max(v.kind for v in items), lattice.first_traced_name(items), lattice.PYSEQ, items)
        if self._is_layer(func):
            return self.layer_output(argvals)  # a global ``mlp = eqx.nn.MLP(...)``
        return self.generic(argvals)

    def _is_layer_attribute(self, cls, attr: str) -> bool:
        held = self.analyzer.traced_fields.held(cls, attr, self.analyzer.classes.is_nnx_module(cls))
        return held is not None and held[0] == LAYER

    def _passed_callable(self, e: cst.Call) -> Optional[tuple]:
        """``fn(x)`` where ``fn`` is a parameter of an enclosing function (a factory's
        ``iterated(fn)``, a helper's ``apply_with(fn, x)``) that every call of it binds to the
        same plain function of the module, to the same ``functools.partial`` of one, or to the
        same bound method of an object of the module (``scanned(MODEL.kernel)``): the function
        value, with the partial's arguments as the host code bound them."""
        owner = self.frame.scope.lookup_scope(e.func.value)
        if owner is None or not owner.unrebound_param(e.func.value):
            return None  # a class, an instance, a name bound to a callable: not a parameter
        t = self.analyzer.finder.call_targets.target(e, self.frame.scope)
        return callable_value(self.analyzer, t) if t is not None else None

    def _instance_call(self, func: cst.Name) -> Optional[FnRef]:
        """``model(x)`` on a global or captured instance of a class of the module
        (``model = Net(...)``): its ``__call__``, bound to the object as ``model.forward``
        would be."""
        receiver = self.analyzer.finder.receivers.receiver_of(func, self.frame.scope)
        cls = receiver.cls if receiver is not None else None
        f = self.analyzer.classes.member(cls, "__call__") if cls is not None else None
        if f is None or not f.is_method or is_property(f) or is_classmethod(f):
            return None
        return FnRef(f, True, cls)

    def foreign_member(self, e, base: lattice.Val, member: str, argvals, attribute: bool = False, cls_name: Optional[str] = None) -> None:
        """``base.member(...)`` (or the attribute read ``base.member``) on an instance of a class
        imported from another module: handed to the cross-module phase, which interprets the
        member where the class is defined.  Here its result stays unknown."""
        ext = self.analyzer.external
        if ext is None or self.frame.unsure:
            return  # (unsure: the tracers may never get there, see ``Frame.unsure``)
        if base.kind != lattice.TRACED and not any(v.kind == lattice.TRACED for _, v in argvals):
            return  # nothing traced goes in: what the member does is host code
        ext(self, e, cls_name or base.ext, argvals, member=member, self_val=base, attribute=attribute)

    def call_super(self, e: cst.Call, meth: str) -> Optional[lattice.Val]:
        """``super().meth(...)`` in a method: the next class in the module's MRO that has it."""
        fr = self.frame
        cls = fr.func.cls
        if cls is None or not fr.func.is_method:
            return None
        positional = fr.func.positional_params()
        self_val = fr.lookup(positional[0].name.value) if positional else None
        for c in self.analyzer.classes.mro(cls)[1:]:
            f = c.body_scope.defs.get(meth)
            if f is not None:
                ref = FnRef(f, True)
                return self.invoke(e, lattice.Val(lattice.STATIC, meth, 0, None, (ref, None, [], {})), self.args(e), self_val or lattice.STATIC_VAL)
        base = self.analyzer.classes.imported_base(cls)
        if base is not None and self_val is not None:
            # The next class is in another module: followed there; here the result is unknown.
            self.foreign_member(e, self_val, meth, self.args(e), cls_name=base)
            return lattice.UNKNOWN_VAL
        return None

    def call_on_class(self, e: cst.Call, class_name: cst.Name, meth: str) -> Optional[lattice.Val]:
        """``Cls.meth(...)`` on a class of the module: a staticmethod gets the arguments as
        written, a classmethod the class first, and a plain method read off the class is a
        function whose first argument is the instance."""
        cls = class_named(self.frame.scope, class_name.value)
        if cls is None:
            return None
        f = self.analyzer.classes.member(cls, meth)
        if f is None:
            return None
        ref = FnRef(f)
        argvals = self.args(e)
        if is_classmethod(f):
            return self.invoke(e, lattice.Val(lattice.STATIC, meth, 0, None, (ref, None, [lattice.Val(lattice.STATIC, None, 0, cls=cls)], {})), argvals)
        return self.invoke(e, lattice.Val(lattice.STATIC, meth, 0, None, (ref, None, [], {})), argvals)

    _NUMBER_TYPES = frozenset({"int", "float", "bool", "complex", "numbers.Number", "numbers.Integral", "numbers.Real", "numbers.Complex"})

    # Python and NumPy types no JAX array (tracer or concrete) is an instance of.
    _NOT_ARRAY_TYPES = frozenset({"int", "float", "bool", "complex", "str", "bytes", "numpy.ndarray", "numpy.generic", "numpy.number"})

    def builtin(self, e, name: str, argvals) -> lattice.Val:
        vals = [v for _, v in argvals]
        if name in ("any", "all") and len(e.args) == 1 and not e.args[0].star:
            decided = self.type_tests(e.args[0].value, name)
            if decided is not None:
                return decided
        if name == "isinstance" and len(argvals) == 2 and not any(a.star for a, _ in argvals):
            v = vals[0]
            array = v.kind == lattice.TRACED and not v.flags & (lattice.PYSEQ | lattice.DICT | lattice.OPAQUE | lattice.REF | lattice.RAW) and v.items is None and v.cls is None
            if array or v.kind == lattice.STATIC and v.flags & lattice.JAXARR:
                types = self._type_names(argvals[1][0].value)
                if types and all(t in self._NOT_ARRAY_TYPES for t in types):
                    # ``isinstance(x, (int, float))`` on an array is False, which JAX never
                    # changes: ``isinstance(x, float) and x > 0`` never reads ``x > 0``
                    return lattice.KNOWN_CONSTANTS["False"]
                if array and any(t in self._ARRAY_TYPES for t in types):
                    # a tracer is an instance of ``jax.core.Tracer`` and ``jax.Array`` under
                    # every transform: ``if isinstance(x, Tracer): return ...`` is taken, and
                    # what follows it runs only on concrete values
                    return lattice.KNOWN_CONSTANTS["True"]
                if not array and types and all(t in TRACER_TYPES for t in types):
                    return lattice.KNOWN_CONSTANTS["False"]  # a concrete array is no tracer
            types = self._type_names(argvals[1][0].value)
            if v.kind == lattice.STATIC and v.flags & (lattice.PYSEQ | lattice.DICT | lattice.NONE) and types and all(t in self._NUMBER_TYPES for t in types):
                return lattice.KNOWN_CONSTANTS["False"]  # a tuple, a dict or None is no number
            if any(t in TRACER_TYPES for t in types):
                if v.kind == lattice.STATIC and all(t in TRACER_TYPES for t in types):
                    return lattice.KNOWN_CONSTANTS["False"]  # a Python value at trace time
                # the interpreter cannot see whether ``v`` is a tracer; where the test is
                # false, it is none
                return lattice.UNDECIDED_TRACER_TEST
        if name == "len" and len(vals) == 1 and not argvals[0][0].star:
            n = known_len(vals[0])
            if n is not None:
                return lattice.int_val(n)
        if name == "range" and len(vals) == 1 and (n := known_int(vals[0])) is not None and n <= 0:
            return lattice.empty_sequence()
        if name in self.BUILTIN_STATIC or name in ("int", "float", "bool", "complex", "range"):
            if name == "range":
                return lattice.Val(lattice.STATIC, None, lattice.PYSEQ)
            if name in ("str", "repr", "format") and vals and vals[0].kind == lattice.TRACED:
                return lattice.Val(lattice.STATIC, vals[0].name, lattice.TEXT)
            return lattice.STATIC_VAL
        if name in ("abs", "round", "sum", "pow", "divmod") and any(v.flags & lattice.JAXARR for v in vals):
            return self.array_op(vals)  # ``abs(W)`` is ``W.__abs__()``: a JAX operation
        if name in ("abs", "round", "sum", "pow", "divmod", "min", "max"):
            v = lattice.joinall(vals) if vals else lattice.STATIC_VAL
            if v.kind == lattice.TRACED:
                return lattice.Val(lattice.TRACED, v.name, lattice.ARRAY)
            return lattice.Val(v.kind)
        if name in ("list", "tuple", "sorted", "reversed", "set", "frozenset"):
            v = vals[0] if vals else lattice.STATIC_VAL
            if lattice.surely_empty(v):
                return lattice.empty_sequence()
            if v.items is not None:
                return lattice.Val(v.kind, v.name, lattice.PYSEQ, v.items if name in ("list", "tuple") else None)
            return lattice.Val(v.kind, v.name, lattice.PYSEQ)
        if name in ("zip", "enumerate", "map", "filter"):
            if name in ("zip", "enumerate") and vals and any(map(lattice.surely_empty, vals if name == "zip" else vals[:1])):
                return lattice.empty_sequence()  # of an empty sequence: nothing to iterate
            v = lattice.joinall(vals) if vals else lattice.STATIC_VAL
            return lattice.Val(v.kind, v.name, lattice.PYSEQ)
        if name == "dict":
            positional = [v for a, v in argvals if a.keyword is None and not a.star]
            if not any(a.star == "*" for a, _ in argvals) and len(positional) <= 1 and all(v.flags & lattice.DICT for v in positional):
                # ``dict(d, k=v, **kw)``: the entries of ``d``, then the keywords, as a display
                entries = [(lattice.SPREAD, v) for v in positional]
                entries += [(a.keyword.value if a.keyword is not None else lattice.SPREAD, v) for a, v in argvals if a.keyword is not None or a.star == "**"]
                return lattice.dict_of(entries)
            v = lattice.joinall(vals) if vals else lattice.STATIC_VAL
            return lattice.Val(v.kind, v.name, lattice.DICT)
        if name == "getattr" and vals and not any(a.star for a, _ in argvals):
            base = vals[0]
            attr = string_value(argvals[1][0].value) if len(argvals) >= 2 else None
            if attr is None:
                # an attribute named at run time: what the object holds there, only it can tell
                return lattice.STATIC_VAL if base.kind == lattice.STATIC else lattice.UNKNOWN_VAL
            got = self.attribute_of(base, attr, f"{base.name}.{attr}" if base.name else None)
            if len(vals) >= 3 and base.kind == lattice.TRACED and attr in STATIC_ATTRS and not base.flags & lattice.OPAQUE:
                # ``getattr(x, "shape", x)``: every tracer has the array's attributes, and the
                # default serves only a value that is no array (a container of them, maybe)
                return got if base.flags & lattice.ARRAY else lattice.UNKNOWN_VAL
            # with a default: the attribute where the object has it, else the default
            return lattice.join(got, vals[2]) if len(vals) >= 3 else got
        return self.generic(argvals)

    def type_tests(self, gen, name: str) -> Optional[lattice.Val]:
        """``any(isinstance(v, T) for v in (a, b))`` (or ``all``) over values whose elements
        the code shows (written out, or a tuple the interpreter knows element by element, such
        as a carried structure or a function's returned tuple): each element's test, combined as
        Python combines them; None when one is undecided."""
        if not isinstance(gen, (cst.GeneratorExp, cst.ListComp)):
            return None
        loop, test = gen.for_in, gen.elt
        if loop.ifs or loop.inner_for_in is not None or not isinstance(loop.target, cst.Name):
            return None
        if not (isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "isinstance"):
            return None
        if self.frame.lookup("isinstance") is not None or len(test.args) != 2:
            return None
        value = test.args[0].value
        if not isinstance(value, cst.Name) or value.value != loop.target.value:
            return None
        true, false = lattice.KNOWN_CONSTANTS["True"], lattice.KNOWN_CONSTANTS["False"]
        tracer_test = any(t in TRACER_TYPES for t in self._type_names(test.args[1].value))
        # ``any`` of tests for tracers is false only where no element is one, whatever the
        # elements are: a test the interpreter cannot decide still rules tracers out there
        undecided = lattice.UNDECIDED_TRACER_TEST if tracer_test and name == "any" else None
        if isinstance(loop.iter, (cst.Tuple, cst.List)):
            if any(isinstance(el, cst.StarredElement) for el in loop.iter.elements):
                return undecided
            elements = [self.eval(el.value) for el in loop.iter.elements]
        elif name == "any" and self.leaves_call(loop.iter):
            # ``jax.tree.leaves(x)``: the leaves of what the interpreter knows of ``x``
            elements = tree_leaves(self.eval(loop.iter.args[0].value))
            if elements is None:
                return undecided
        else:
            seq = self.eval(loop.iter)
            tuple_like = seq.cls is None or self.analyzer.classes.pytree_kind(seq.cls) == "namedtuple"
            if seq.items is None or seq.keys is not None or not tuple_like:
                return undecided  # (an instance of another class iterates as its ``__iter__`` says)
            elements = list(seq.items)
        results = [self.builtin(test, "isinstance", [(test.args[0], v), (test.args[1], lattice.STATIC_VAL)]) for v in elements]
        if name == "any":
            return true if any(r is true for r in results) else false if all(r is false for r in results) else undecided
        return true if all(r is true for r in results) else false if any(r is false for r in results) else None

    def leaves_call(self, e) -> bool:
        """``jax.tree.leaves(x)`` (or ``jax.tree_util.tree_leaves``) of one tree, as written."""
        if not isinstance(e, cst.Call) or len(e.args) != 1 or e.args[0].keyword is not None or e.args[0].star:
            return False
        head = e.func
        while isinstance(head, cst.Attribute):
            head = head.value
        if not isinstance(head, cst.Name) or self.frame.lookup(head.value) is not None:
            return False
        return resolve(e.func, self.frame.scope) in TREE_LEAVES

    # Keywords of ``flax.linen.Module.apply`` that are not inputs of the method it runs.
    _LINEN_APPLY_OPTIONS = frozenset({"rngs", "method", "mutable", "capture_intermediates"})

    def _linen_apply(self, e: cst.Call, model: lattice.Val, argvals) -> lattice.Val:
        """``model.apply(variables, *inputs, method=..., mutable=...)`` on a linen module of
        the module: its ``__call__`` (or the method named by ``method=``) with the inputs."""
        name = "__call__"
        mutable = False
        for a, _v in argvals:
            if a.keyword is None:
                continue
            if a.keyword.value == "mutable":
                mutable = True
            elif a.keyword.value == "method":
                m = a.value
                if isinstance(m, cst.Attribute):
                    name = m.attr.value
                else:
                    name = string_literal(m)
        if name is None or not argvals or argvals[0][0].keyword is not None:
            return lattice.UNKNOWN_VAL
        bound = self.analyzer.instance_attribute(self.frame, model, name, model.name)
        if bound is None or bound.fn is None:
            return lattice.UNKNOWN_VAL
        inputs = [(a, v) for a, v in argvals[1:] if a.keyword is None or a.keyword.value not in self._LINEN_APPLY_OPTIONS]
        out = self.invoke(e, bound, inputs)
        # with ``mutable=`` apply returns (output, updated collections); init the variables
        return lattice.UNKNOWN_VAL if mutable or e.func.attr.value == "init" else out

    def _library_made(self, e: cst.Call, made) -> lattice.Val:
        """``t.apply(params, rng, *inputs)`` of ``t = hk.transform(f)``: ``f`` run on the inputs.
        Only ``apply`` of a stateless transform returns what ``f`` returns."""
        ref, leading = made
        argvals = self.args(e)
        skipped = 0
        inputs = []
        for a, v in argvals:
            if a.star:
                return lattice.UNKNOWN_VAL  # which argument lands where is not known
            if a.keyword is None and skipped < len(leading):
                skipped += 1
            elif a.keyword is None or a.keyword.value not in leading:
                inputs.append((a, v))
        out = self.invoke(e, lattice.Val(lattice.STATIC, ref.func.name, 0, None, (ref, None, [], {})), inputs)
        return out if leading[0] == "params" and "state" not in leading else lattice.UNKNOWN_VAL

    # Methods of ``x.at[i]``: functional updates, they return arrays.
    # methods that rearrange an array's elements and keep its dtype
    SAME_DTYPE = frozenset({"reshape", "ravel", "flatten", "transpose", "squeeze", "swapaxes", "copy", "repeat", "take"})
    _UPDATE_METHODS = frozenset({"set", "add", "multiply", "divide", "power", "min", "max", "apply", "get"})

    def call_attribute(self, e: cst.Call, func: cst.Attribute) -> lattice.Val:
        fr = self.frame
        meth = func.attr.value
        base_expr = func.value
        if isinstance(base_expr, cst.Call) and isinstance(base_expr.func, cst.Name) and base_expr.func.value == "super":
            r = self.call_super(e, meth)
            if r is not None:
                return r
        if isinstance(base_expr, cst.Name) and base_expr.value in ("self", "cls") and fr.lookup(base_expr.value) is None:
            # ``self.method(...)`` inside a nested function or lambda of a method
            cls = fr.scope.enclosing_class() if fr.func.cls is None else fr.func.cls
            f = self.analyzer.classes.member(cls, meth) if cls is not None else None
            if f is not None:
                ref = FnRef(f, True)
                return self.invoke(e, lattice.Val(lattice.STATIC, meth, 0, None, (ref, None, [], {})), self.args(e), lattice.STATIC_VAL)
        if isinstance(base_expr, cst.Name) and fr.lookup(base_expr.value) is None:
            r = self.call_on_class(e, base_expr, meth)
            if r is not None:
                return r
        if meth in HAIKU_METHODS and isinstance(base_expr, cst.Name):
            made = haiku_callable(self.analyzer.finder, func, fr.scope)
            if made is not None:
                return self._library_made(e, made)
        if meth in MUTATING_METHODS and isinstance(base_expr, cst.Name):
            self.receiver = base_expr
        base = self.eval(base_expr)
        if base.flags & lattice.MODULE and base.name:
            return self.call_qualified(e, f"{base.name}.{meth}")  # ``xp.sum(x)`` with ``xp=jnp``
        if base.kind == lattice.STATIC and base.cls is None and base.fn is None and isinstance(base_expr, cst.Name) and fr.lookup(base_expr.value) is None:
            base = self._module_object(base, base_expr)
        if base.cls is None and base.fn is None and not base.flags & lattice.ARRAY and isinstance(base_expr, cst.Name) and fr.lookup(base_expr.value) is None:
            # a global whose class the module does not show, called through a member the call
            # targets resolve (``tx.update(...)`` of ``tx = optax.GradientTransformation(
            # init_fn, update_fn)`` calls the function given for that field); a def nested in
            # the factory that built it reads the factory's locals as unknown, as a def held
            # in an object's field does
            t = self.analyzer.finder.call_targets.target(e, fr.scope)
            plain = t is not None and t.app is None and not t.bound and not t.keywords and not t.func.is_method
            fn = (FnRef(t.func), None, [], {}) if plain else callable_value(self.analyzer, t) if t is not None else None
            if fn is not None:
                return self.invoke(e, lattice.Val(lattice.STATIC, meth, 0, None, fn), self.args(e))
        argvals = self.args(e)
        effects = self.analyzer.effects
        if meth in ("append", "appendleft", "extend", "insert"):
            effects.push(state_of(fr, base_expr), e)
        elif meth == "pop" and not argvals or meth == "remove":
            effects.undo(state_of(fr, base_expr), e)  # a push of this trace taken back
        self.emit("method", fr, e, base, meth, argvals)
        if meth == "clear" and not argvals:
            effects.replace(state_of(fr, base_expr))  # what the trace put there is gone
        if base.fn is not None:
            return lattice.STATIC_VAL
        if base.ext is not None and base.cls is None and base.kind != lattice.UNKNOWN and not base.flags & lattice.ARRAY:
            self.foreign_member(e, base, meth, argvals)
        if base.cls is not None and base.kind != lattice.UNKNOWN and not base.flags & lattice.ARRAY:
            return self._module_class_method(e, base, meth, argvals)
        if base.kind == lattice.TRACED:
            return self._traced_method(base, meth, argvals)
        if base.kind == lattice.UNKNOWN:
            return lattice.UNKNOWN_VAL
        if base.flags & lattice.JAXARR:
            if meth in ("item", "tolist"):
                return lattice.STATIC_VAL  # a concrete array converts to Python values
            if meth in ARRAY_METHODS or meth in self._UPDATE_METHODS:
                return self.array_op([v for _, v in argvals], lattice.BOOL if meth in ("any", "all") else 0)
            return self.generic(argvals)
        if meth == "format" and isinstance(base_expr, (cst.SimpleString, cst.ConcatenatedString)):
            traced = next((v for _, v in argvals if v.kind == lattice.TRACED), None)
            return lattice.Val(lattice.STATIC, traced.name, lattice.TEXT) if traced is not None else lattice.STATIC_VAL
        # a method of a concrete Python object
        return self.generic(argvals)

    def _module_object(self, base: lattice.Val, base_expr: cst.Name) -> lattice.Val:
        """A module-level object (``model = MLP(4)``) read by traced code: an instance of
        the class it is built with, when every assignment agrees."""
        r = self.analyzer.receivers.receiver_of(base_expr, self.frame.scope)
        if r is not None and r.cls is not None:
            return lattice.Val(lattice.STATIC, None, 0, cls=r.cls)
        if r is not None and r.external is not None:
            # maybe a class of another module of the run; the value keeps what it was read
            # as (the global whose object it is)
            known = self.analyzer.foreign.get(r.external)
            ext = r.external if known is None else None
            return lattice.Val(base.kind, base.name, base.flags, base.items, base.fn, known, base.keys, base.outer, ext)
        return base

    def _module_class_method(self, e: cst.Call, base: lattice.Val, meth: str, argvals) -> lattice.Val:
        """A method of a class of the module, evaluated with the real receiver."""
        fr = self.frame
        method = self.analyzer.instance_attribute(fr, base, meth, base.name)
        if method is not None and method.fn is not None:
            return self.invoke(e, method, argvals)
        called = self._called_instance(e, method, argvals) if method is not None else None
        if called is not None:
            return called  # ``self.encoder(x)``: a field holding an instance of a class of the module
        if meth in LINEN_LEADING and method is None and self.analyzer.classes.is_linen_module(base.cls):
            return self._linen_apply(e, base, argvals)
        if (method is None or method.fn is None and method.cls is None) and self._is_layer_attribute(base.cls, meth):
            return self.layer_output(argvals)  # ``self.linear(x)`` with ``self.linear = nnx.Linear(...)``
        if meth in ("replace", "_replace") and self.analyzer.classes.pytree_kind(base.cls) is not None:
            return self.analyzer.replaced(base, argvals)
        if method is None and (meth in LINEN_INITIALISERS or meth in LINEN_VARIABLE_READS) and self.analyzer.classes.is_linen_module(base.cls):
            if meth in LINEN_INITIALISERS:
                self._linen_initialiser(e, meth, argvals)
            if meth in LINEN_VARIABLE_READS:
                return self.array_op([])
        if method is None:
            inherited = self.analyzer.classes.imported_base(base.cls)
            if inherited is not None:
                self.foreign_member(e, base, meth, argvals, cls_name=inherited)
        return lattice.UNKNOWN_VAL

    def _linen_initialiser(self, e: cst.Call, meth: str, argvals) -> None:
        """``self.param(name, init_fn, *init_args)`` of a linen module: ``init_fn`` runs here,
        on an rng key and the arguments that follow it; ``self.variable``'s at ``init``
        (``LINEN_INITIALISERS``)."""
        at, every_call = LINEN_INITIALISERS[meth]
        pos = [(a, v) for a, v in argvals if a.keyword is None]
        if any(a.star for a, _ in argvals) or len(pos) <= at:
            return  # which argument is the initialiser is not known
        fn = self.fn_from(pos[at][0].value)
        if fn is None:
            return
        inputs = pos[at + 1 :] + [(a, v) for a, v in argvals if a.keyword is not None and a.keyword.value != "unbox"]
        if every_call:
            # a key: an array, a tracer where the frame stages
            inputs.insert(0, (cst.Arg(value=cst.Name("_")), self.array_op([])))
        # A variable's initialiser runs only where it creates the variable: surely under a
        # transformed ``model.init``; reached another way (``apply``, the variables given), maybe not.
        unsure = not every_call and self.frame.entry.leading != LINEN_LEADING["init"]
        self.frame.unsure += unsure
        try:
            self.analyzer.call_function(self.frame, e, fn, inputs)
        finally:
            self.frame.unsure -= unsure

    def _traced_method(self, base: lattice.Val, meth: str, argvals) -> lattice.Val:
        """A method called on a traced value: an array's, or a pytree container's."""
        if base.flags & lattice.OPAQUE:
            return lattice.UNKNOWN_VAL
        if meth in ("item", "tolist"):
            return lattice.STATIC_VAL
        if base.container:
            if meth in DICT_METHODS:
                if meth == "get" and base.keys is not None and argvals and argvals[0][0].keyword is None:
                    key = string_value(argvals[0][0].value)
                    if key in base.keys:
                        return base.items[base.keys.index(key)]
                    if key is not None and base.elem is not None:
                        # one of the other entries, or the default
                        return lattice.join(base.elem, argvals[1][1]) if len(argvals) > 1 else base.elem
                if meth == "items":
                    return lattice.Val(lattice.TRACED, base.name, lattice.PYSEQ, None)
                if meth == "keys":
                    return lattice.Val(lattice.STATIC, None, lattice.PYSEQ)
                # ``values()`` is a sequence; an element (``get``, ``pop``...) a leaf, a
                # subtree or a Python value kept beside the arrays
                return lattice.Val(lattice.TRACED, base.name, lattice.PYSEQ if meth == "values" else lattice.RAW)
            if meth in ("index", "count"):
                return lattice.UNKNOWN_VAL
            return lattice.Val(lattice.TRACED, base.name)
        if meth in self._UPDATE_METHODS and base.flags & lattice.ARRAY:
            # (``x.at[i]`` is an array's indexer; ``d.get(k)`` of a value that may be a dict is
            # no update)
            return lattice.Val(lattice.TRACED, base.name, lattice.ARRAY | base.flags & lattice.BOOL)  # of the array's dtype
        if self.frame.concrete:
            return lattice.STATIC_VAL
        if not base.flags & lattice.ARRAY and meth not in ARRAY_METHODS:
            # Not a jax.Array method, on a value whose class jaxlint cannot see: it may
            # return anything (``model.number_of_links()`` reads a static field).
            return lattice.UNKNOWN_VAL
        flags = lattice.ARRAY
        if meth in ("any", "all") or meth in self.SAME_DTYPE and base.flags & lattice.BOOL:
            flags |= lattice.BOOL
        elif meth == "astype" and argvals and dtype_kind(argvals[0][0].value, self.frame.scope) == BOOL:
            flags |= lattice.BOOL
        return lattice.Val(lattice.TRACED, base.name, flags, dims=base.dims if meth in SAME_SHAPE else None)
