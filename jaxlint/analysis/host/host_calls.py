"""Host mode's calls: what calling a function, a class or a JAX, NumPy, optax or equinox API
gives (a jitted function's arrays, an instance with its constructor fields, an optimiser's
state, the static half of ``eqx.partition``).

A mixin of ``HostValues``, separate because the calls are the largest part of the evaluator and
read the other parts only through ``self.eval`` and the cached per-scope questions.
"""

from __future__ import annotations

from typing import Dict, Optional

import libcst as cst

from jaxlint.analysis.host.array_values import ARRAY_METHODS, SIZE_KEEPING, empty_shape, functional_update, many_elements, returns_one_array
from jaxlint.analysis.host import host_value as host_value
from jaxlint.analysis.host.scope_run import Env
from jaxlint.analysis.jax.optax_transforms import OPTAX_TRANSFORMS
from jaxlint.analysis.jax.numpy_random_sizes import GENERATOR_MAKERS, size_argument
from jaxlint.analysis.model.classes import STATIC_FIELD, class_named, named_tuple_fields, qualified
from jaxlint.analysis.syntax.scopes import CONTAINER_CTORS, ClassInfo, FuncInfo, Scope
from jaxlint.analysis.syntax.functions import return_values
from jaxlint.analysis.syntax.nodes import keyword_value, received_arguments, string_literal
from jaxlint.analysis.model.transforms import Application
from jaxlint.analysis.model.names import PARTIAL, resolve


class HostCalls:
    """The calls of ``HostValues``' evaluator; reads ``eval``, ``returned``, ``function_value``,
    ``finder``, ``classes``, ``index`` and the ``_sites`` cache of the class it is mixed into."""

    def _call(self, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        if not isinstance(e.func, (cst.Call, cst.Subscript)):
            # a function or method of the module: what it returns with its parameters bound
            # to what this call passes, where they are known
            v = self.returned_on_entry(e, scope, env, shadow)
            if v is not None:
                return v
        return self._call_value(e, scope, env, shadow)

    def _call_value(self, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        func = e.func
        if functional_update(e) is not None:
            # only a JAX array has ``.at[i].set(v)``, and what it gives is a new one, whatever
            # is known of the receiver (a tracer, an attribute the class also updates this way)
            base = self.eval(func.value.value.value, scope, env, shadow)
            return self.array(e, scope, env, shadow, shaped=base is not None and base.shaped)
        if isinstance(func, cst.Name):
            owner = scope.lookup_scope(func.value)
            if owner is None:
                b = func.value
                if b in ("tuple", "list") and len(e.args) == 1 and not e.args[0].star and e.args[0].keyword is None:
                    return self._sequence(b, e, scope, env, shadow)
                if b in host_value.CONTAINER_BUILTINS:
                    return host_value.HostValue(host_value.CONTAINER_BUILTINS[b], e)
                if b == "slice":
                    # Python 3.12 made slices hashable: before it, hash() raises on one
                    return host_value.SCALAR_VAL if self.slices_hash else host_value.HostValue(host_value.SLICE, e)
                return host_value.SCALAR_VAL if b in host_value.SCALAR_BUILTINS else None
            cls = class_named(scope, func.value, sole=True) or self.classes.made_by_cls(e, scope)
            if cls is not None:
                return self._construct(e, cls, scope, env, shadow)
            ahead = self._class_partial(func.value, scope)
            if ahead is not None:
                return self._construct(e, ahead[0], scope, env, shadow, ahead[1:])
            fields = named_tuple_fields(owner, func.value)
            if fields is not None and len(e.args) == len(fields) and not any(a.star for a in e.args):
                # an instance of a ``namedtuple(...)`` class is a tuple: it hashes its items
                given = {a.keyword.value: a.value for a in e.args if a.keyword is not None}
                values = [a.value for a in e.args if a.keyword is None] + [given.get(n) for n in fields[len(e.args) - len(given) :]]
                if all(v is not None for v in values):
                    return host_value.HostValue(host_value.TUPLE, e, items=tuple(self.eval(v, scope, env, shadow) for v in values))
        elif isinstance(func, cst.Attribute):
            m = self.classes.class_method(func, scope)
            if m is not None:
                return self.returned(m)  # ``Cls.create(...)``: what its ``cls(...)`` builds
        q = resolve(func, scope)
        if q is not None:
            return self._api_call(e, q, scope, env, shadow)
        if isinstance(func, cst.Attribute):
            base = self.eval(func.value, scope, env, shadow)
            if base is None:
                return None
            m = func.attr.value
            if base.kind in (host_value.JAX_ARRAY, host_value.NUMPY_ARRAY):
                if m in ARRAY_METHODS:
                    shaped = base.shaped and m in SIZE_KEEPING
                    return self.array(e, scope, env, shadow, shaped) if base.kind == host_value.JAX_ARRAY else host_value.HostValue(base.kind, e, shaped=shaped)
                return host_value.SCALAR_VAL if m == "item" else None
            if base.kind in (host_value.INSTANCE, host_value.PARAM):
                return self._method_result(func, base, scope)
            if base.kind == host_value.NUMPY_GENERATOR:
                return _draw(m, e)
            if base.kind == host_value.OPTIMIZER and m == "init":
                return host_value.HostValue(host_value.OPT_STATE, e)
            if base.kind == host_value.ARG_PARSER and m == "parse_args":
                return host_value.HostValue(host_value.NAMESPACE, e)
            if base.kind == host_value.ARG_PARSER and m == "parse_known_args":
                return host_value.HostValue(host_value.TUPLE, e, items=(host_value.HostValue(host_value.NAMESPACE, e), host_value.HostValue(host_value.LIST, e)))
            if base.kind in (host_value.LIST, host_value.DICT, host_value.SET) and m == "copy":
                return host_value.HostValue(base.kind, e, fields=base.fields)
            if base.kind == host_value.DICT and base.fields is not None and m == "get" and e.args and not any(a.star or a.keyword for a in e.args):
                # a key the dict is known to hold (a missing one would give the default: unknown)
                return base.fields.get(string_literal(e.args[0].value))
            return None
        callee = self.eval(func, scope, env, shadow)
        if callee is None:
            return None
        if callee.kind == host_value.JITTED:
            return self._jit_result(callee, e)
        if callee.kind == host_value.OPT_INIT:
            return host_value.HostValue(host_value.OPT_STATE, e)
        if callee.kind == host_value.FUNCTION and not callee.func.is_lambda:
            return self.returned(callee.func)
        if callee.kind == host_value.INSTANCE and callee.cls is not None:
            method = self.classes.member(callee.cls, "__call__")  # calling an instance
            return self.returned(method) if method is not None and not method.is_lambda else None
        return None

    def _sequence(self, b: str, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        """``tuple(it)`` / ``list(it)``: a sequence of what iterating ``it`` gives, which a
        tuple hashes element by element (``tuple(rules)`` of a list of lists does not hash)."""
        el = self._iterated(e.args[0].value, scope, env, shadow)
        if b == "list":
            return host_value.HostValue(host_value.LIST, e, items=(el,) if el is not None else None)
        v = self.eval(e.args[0].value, scope, env, shadow)
        if v is not None and v.kind == host_value.TUPLE:
            return v
        return host_value.HostValue(host_value.TUPLE, e, every=el)  # (every=None: a tuple of elements not known)

    def _iterated(self, it, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        """What every element of the iterable ``it`` is; ``map(tuple, rows)`` makes each one a
        sequence of its own."""
        if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "map" and scope.lookup_scope("map") is None:
            args = it.args
            if len(args) == 2 and not any(a.star or a.keyword for a in args) and isinstance(args[0].value, cst.Name):
                conv = args[0].value.value
                if conv in ("tuple", "list") and scope.lookup_scope(conv) is None:
                    el = self._iterated(args[1].value, scope, env, shadow)
                    inner = host_value.element(el)
                    if inner is None:
                        return None
                    return host_value.HostValue(host_value.LIST, it, items=(inner,)) if conv == "list" else host_value.HostValue(host_value.TUPLE, it, every=inner)
            return None
        return host_value.element(self.eval(it, scope, env, shadow))

    def _jit_result(self, callee: host_value.HostValue, e: cst.Call) -> Optional[host_value.HostValue]:
        """What calling the jitted ``callee`` gives: arrays, as the function returns them when
        asked for types."""
        f = callee.app.func
        if not _returns_value(f):
            return None
        out = host_value.HostValue(host_value.JIT_RESULT, e)
        if self.types and not callee.bound and not f.is_lambda:
            return _as_outputs(self.returned(f), out, 0)
        return out

    def _method_result(self, func: cst.Attribute, base: host_value.HostValue, scope: Scope) -> Optional[host_value.HostValue]:
        """What ``obj.method(...)`` returns, for an object whose class the module shows."""
        cls = base.cls
        if cls is None:
            r = self.finder.receivers.receiver_of(func.value, scope)
            cls = r.cls if r is not None else None
            if cls is not None and self.finder.call_targets.members.overridden(cls, func.attr.value):
                return None  # ``self`` may be an instance of a subclass that defines it again
        method = self.classes.member(cls, func.attr.value) if cls is not None else None
        if method is None and cls is not None:
            held = self._object_attribute(func, scope, {}, frozenset())  # ``self.generator(key)``
            if held is not None and held.kind == host_value.INSTANCE and held.cls is not None:
                method = self.classes.member(held.cls, "__call__")
            elif held is not None and held.kind == host_value.FUNCTION:
                method = held.func
        if method is None or method.is_lambda:
            return None
        if method.node.decorators:
            jitted = self.function_value(method) if len(method.node.decorators) == 1 else None
            if jitted is not None and jitted.kind == host_value.JITTED:
                return self._jit_result(jitted, func.value)  # ``@partial(jax.jit, static_argnames="self")``
            return None  # a property, a classmethod or a wrapped method: not this def's result
        return self.returned(method)

    def _api_call(self, e: cst.Call, q: str, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        def shaped(a) -> bool:
            v = self.eval(a, scope, env, shadow)
            return v is not None and v.shaped

        if returns_one_array(q, e):
            return self.array(e, scope, env, shadow, many_elements(q, e, shaped))
        if q.startswith(("jax.numpy.", "jax.random.")):
            return None
        if q.startswith("numpy.") and q[6:] in host_value.NUMPY_ARRAY_MAKERS:
            return host_value.HostValue(host_value.NUMPY_ARRAY, e, shaped=many_elements(q, e, shaped))
        if q.startswith("numpy.random."):
            return host_value.HostValue(host_value.NUMPY_GENERATOR, e) if q in GENERATOR_MAKERS else _draw(q[len("numpy.random.") :], e)
        if q.startswith("numpy.") and q[6:] in host_value.NUMPY_SCALAR_TYPES:
            return host_value.HostValue(host_value.NUMPY_SCALAR, e)
        if q in host_value.CLOCKS:
            # a clock read, a uuid: a new value on every call
            return host_value.HostValue(host_value.SCALAR, e, varies=e)
        if q == "argparse.ArgumentParser":
            return host_value.HostValue(host_value.ARG_PARSER, e)
        if q == "argparse.Namespace":
            return host_value.HostValue(host_value.NAMESPACE, e)
        if q in CONTAINER_CTORS:
            return host_value.HostValue(host_value.LIST if q == "collections.deque" else host_value.DICT, e)
        if q.startswith("optax."):
            stateful, stateful_with = OPTAX_TRANSFORMS.get(q[6:], (False, ()))
            if stateful or any(
                a.keyword is not None and a.keyword.value in stateful_with and not (isinstance(a.value, cst.Name) and a.value.value == "None")
                for a in e.args
            ):
                return host_value.HostValue(host_value.OPTIMIZER, e)
            return None
        if q.startswith("jax.example_libraries.optimizers.") and q.rsplit(".", 1)[-1][:1].islower():
            # (init_fun, update_fun, get_params); every init_fun's state holds arrays
            return host_value.HostValue(host_value.TUPLE, e, items=(host_value.HostValue(host_value.OPT_INIT, e), None, None))
        if q == "equinox.partition":
            return self._partition(e, scope, env, shadow)
        if q in PARTIAL and e.args and e.args[0].keyword is None and not e.args[0].star:
            inner = self.eval(e.args[0].value, scope, env, shadow)
            if inner is None or inner.kind != host_value.JITTED or any(a.star or a.keyword is not None for a in e.args[1:]):
                return None  # keywords bound: not followed
            bound = inner.bound + tuple((a.value, self.eval(a.value, scope, env, shadow)) for a in e.args[1:])
            return host_value.HostValue(host_value.JITTED, e, app=inner.app, bound=bound)
        # ``jax.jit(f, static_argnums=...)`` applied here
        if self._sites is None:
            self._sites = {id(a.site): a for a in self.finder.applications if isinstance(a.site, cst.Call)}
        app = self._sites.get(id(e))
        if app is not None and plain_jit(app) and not app.bound_pos and not app.bound_kw:
            return host_value.HostValue(host_value.JITTED, e, app=app)
        return None

    def _partition(self, e: cst.Call, scope: Scope, env: Env, shadow: frozenset) -> Optional[host_value.HostValue]:
        """``params, static = eqx.partition(model, eqx.is_array)``: the static half is the same
        pytree with its arrays replaced by None; its other fields (a dict, a list, a config
        object) stay, and are hashed when the half is passed for a static parameter."""
        args = [a for a in e.args if not a.star]
        positional = [a.value for a in args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in args if a.keyword is not None}
        tree = positional[0] if positional else keywords.get("pytree")
        spec = positional[1] if len(positional) > 1 else keywords.get("filter_spec")
        if tree is None or spec is None or len(e.args) != len(args) or set(keywords) - {"pytree", "filter_spec"}:
            return None
        if resolve(spec, scope) != "equinox.is_array":
            return None  # another filter may keep some arrays in the static half
        static = _without_arrays(self.eval(tree, scope, env, shadow), 0)
        return host_value.HostValue(host_value.TUPLE, e, items=(None, static)) if static is not None else None

    # -- instances ---------------------------------------------------------------------
    def _class_partial(self, name: str, scope: Scope):
        """(class, the partial's call, its scope) for a name bound once to
        ``functools.partial(Cls, ...)`` of a class of the module (``ResNet50 = partial(ResNet,
        stage_sizes=[3, 4, 6, 3])``): calling it builds a ``Cls`` with those arguments ahead
        of the call's own.  None otherwise."""
        v, owner = scope.sole_binding(name, mutable=True) or (None, None)
        if not isinstance(v, cst.Call) or owner.kind == "class" or resolve(v.func, owner) not in PARTIAL or not v.args:
            return None
        first = v.args[0]
        if first.keyword is not None or first.star or not isinstance(first.value, cst.Name) or any(a.star for a in v.args):
            return None
        cls = class_named(owner, first.value.value, sole=True)
        return (cls, v, owner) if cls is not None else None

    def _arguments(self, e: cst.Call, scope: Scope, ahead) -> cst.Call:
        """The call as the constructor receives it: a partial's arguments ahead of the call's
        own (a keyword of the call replaces the partial's), and a ``**kwargs`` that is known
        to be empty left out."""
        args = received_arguments(ahead[0].args[1:] if ahead else (), e.args)
        kept = [a for a in args if a.star != "**" or not self._empty_kwargs(a.value, scope)]
        if len(kept) == len(e.args) and not ahead:
            return e
        return e.with_changes(args=kept)

    def _empty_kwargs(self, e, scope: Scope) -> bool:
        """``e`` is the ``**kwargs`` parameter of the plain function ``scope`` runs, never
        rebound, and every call of that function (all of them calls of its name) passes no
        keyword beyond its named parameters: the dict is empty."""
        f = scope.func if scope.kind == "function" else None
        star = f.params.star_kwarg if f is not None and not f.is_lambda and not f.is_method else None
        if not isinstance(star, cst.Param) or not isinstance(e, cst.Name) or e.value != star.name.value:
            return False
        if not scope.unrebound_param(e.value) or self.finder.is_traced_def(f):
            return False
        targets = self.finder.call_targets
        sites = targets.callers(f)
        if not sites or not targets.only_called(f):
            return False
        named = {p.name.value for p in f.params.params} | {p.name.value for p in f.params.kwonly_params}
        return all(a.star != "**" and (a.keyword is None or a.keyword.value in named) for c, _s, _t in sites for a in c.args)

    def _construct(self, e: cst.Call, cls: ClassInfo, scope: Scope, env: Env, shadow: frozenset, ahead=()) -> host_value.HostValue:
        """The instance ``e`` builds; ``ahead``: the ``functools.partial`` call (and its scope)
        whose arguments come first."""
        fields = meta = None
        call = self._arguments(e, scope, ahead)
        pre = {id(a.value): self.value(a.value, ahead[1], ahead[0]) for a in ahead[0].args[1:]} if ahead else {}

        def value(a):
            return pre[id(a)] if id(a) in pre else self.eval(a, scope, env, shadow)

        names = self.classes.field_names(cls)
        hashing = next((c.body_scope.defs["__hash__"] for c in self.classes.mro(cls) if "__hash__" in c.body_scope.defs), None)
        hashed = host_value.hashed_attributes(hashing) if hashing is not None else ()
        if hashed and not any(a.star for a in call.args):
            # its own __hash__ of a tuple of attributes: what hashing the instance reads
            fields = self._init_fields(call, cls, hashed, value, hashed=True)
        elif names and not self.classes.has_own_init(cls):
            given = self.classes.constructor_arguments(cls, call.args)
            if given is not None:
                fields = {n: value(a) for n, a in given.items()}
                converted = self.classes.converted_fields(cls)
                for n in names:
                    if n in converted:
                        fields[n] = None  # the field holds what its converter made of the argument
                    elif n not in fields:
                        fields[n] = self._field_default(cls, n)
                meta = {n: fields.pop(n) for n in list(fields) if self._field_excluded(cls, n)}
        elif names and not any(a.star for a in call.args):
            fields = self._init_fields(call, cls, names, value)
        return host_value.HostValue(host_value.INSTANCE, e, cls=cls, fields=fields, meta=meta)

    def _init_fields(self, e: cst.Call, cls: ClassInfo, names, value, hashed: bool = False):
        """The fields an own ``__init__`` copies from its parameters (``self.nested = nested``),
        with what the call passes for them; a field assigned anything else, or more than once,
        is not known.  ``hashed``: ``names`` are the attributes the class's ``__hash__`` reads,
        all kept."""
        c = self.classes.constructor(cls)
        given = self.classes.parameter_arguments(cls, e.args) if c is not None and c.init is not None else None
        if given is None:
            return None
        fields: Dict[str, Optional[host_value.HostValue]] = {}
        for n in names:
            v = value(given[c.stores[n]].value) if c.stores.get(n) in given else None
            if hashed or not self._field_excluded(cls, n):
                fields[n] = v
        return fields

    def _field_default(self, cls: ClassInfo, name: str) -> Optional[host_value.HostValue]:
        st = self.classes.field_declaration(cls, name)[1]
        if st is None or st.value is None:
            return None
        v = st.value
        if isinstance(v, cst.Call):
            if qualified(v.func, cls.scope).rsplit(".", 1)[-1] != "field":
                return None
            f, default = keyword_value(v.args, "default_factory"), keyword_value(v.args, "default")
            if isinstance(f, cst.Name) and cls.scope.lookup_scope(f.value) is None and f.value in host_value.CONTAINER_BUILTINS:
                return host_value.HostValue(host_value.CONTAINER_BUILTINS[f.value], f)
            return self.eval(default, cls.scope, {}, frozenset()) if default is not None and f is None else None
        return self.eval(v, cls.scope, {}, frozenset())

    def _field_excluded(self, cls: ClassInfo, name: str) -> bool:
        """A field left out of the hash (``field(compare=False)`` / ``hash=False``), or static
        metadata of a pytree with leaves (hashed with the tree structure: not followed here),
        however the class declares it (``field(pytree_node=False)``, ``meta_fields=`` of its
        registration).  An object that is static whole (a Linen module) hashes its fields."""
        if self.classes.field_kind(cls, name) == STATIC_FIELD and self.classes.pytree_kind(cls) != "static":
            return True
        st = self.classes.field_declaration(cls, name)[1]
        if st is None:
            return True
        if not isinstance(st.value, cst.Call):
            return False
        for a in st.value.args:
            if a.keyword is not None and a.keyword.value in ("compare", "eq", "hash", "static", "pytree_node"):
                return True
        return qualified(st.value.func, cls.scope).rsplit(".", 1)[-1] == "static_field"


def _without_arrays(v: Optional[host_value.HostValue], depth: int) -> Optional[host_value.HostValue]:
    """What ``eqx.partition(v, eqx.is_array)`` leaves in its static half: arrays become None;
    containers and instances keep their shape (a list of arrays is a list of Nones)."""
    if v is None or depth > 4:
        return None
    if v.kind in (host_value.JAX_ARRAY, host_value.NUMPY_ARRAY, host_value.JIT_RESULT):
        return host_value.SCALAR_VAL
    if v.kind in (host_value.LIST, host_value.DICT, host_value.SET, host_value.SCALAR):
        return v
    if v.kind == host_value.TUPLE and v.items is not None:
        return host_value.HostValue(host_value.TUPLE, v.node, items=tuple(_without_arrays(it, depth + 1) for it in v.items))
    if v.kind == host_value.INSTANCE and v.cls is not None:
        if v.fields is None:
            return None  # the fields are not known: neither is what stays
        fields = {n: _without_arrays(f, depth + 1) for n, f in v.fields.items()}
        return host_value.HostValue(host_value.INSTANCE, v.node, cls=v.cls, fields=fields)
    return None


def _as_outputs(v: Optional[host_value.HostValue], unknown: host_value.HostValue, depth: int) -> host_value.HostValue:
    """What a jitted function hands back of what its body returns: each leaf an array of the
    leaf's dtype and weak type (a Python number becomes a weakly typed array of its kind), the
    tuples and pytree instances around them kept; a leaf not known is ``unknown``'s arrays."""
    if v is None or depth > 4:
        return unknown
    if v.kind in (host_value.JAX_ARRAY, host_value.SCALAR) and v.typ is not None:
        return host_value.HostValue(host_value.JAX_ARRAY, v.node, typ=v.typ)
    if v.kind == host_value.TUPLE and v.items is not None:
        return host_value.HostValue(host_value.TUPLE, v.node, items=tuple(_as_outputs(it, unknown, depth + 1) for it in v.items))
    if v.kind == host_value.INSTANCE and v.fields is not None:
        fields = {n: _as_outputs(f, unknown, depth + 1) for n, f in v.fields.items()}
        return host_value.HostValue(host_value.INSTANCE, v.node, cls=v.cls, fields=fields, meta=v.meta)
    return unknown


def _draw(sampler: str, e: cst.Call) -> Optional[host_value.HostValue]:
    """A NumPy random draw (``rng.normal(size=3)``, ``np.random.rand(2, 3)``): an array when
    it is given a size; one scalar (or another method's result) is left unknown."""
    size = size_argument(sampler, e.args)
    return host_value.HostValue(host_value.NUMPY_ARRAY, e, shaped=not empty_shape(size)) if size is not None else None


def plain_jit(app: Application) -> bool:
    """``jax.jit`` / ``jax.pmap`` (not equinox's or Flax's): outputs are arrays, and static
    parameters are hashed."""
    t = app.transform
    return t.cached and t.statics and not t.filtered and not t.opaque_attrs


def _returns_value(f: FuncInfo) -> bool:
    """The function returns something other than None: its outputs are arrays under jit."""
    if f.is_lambda:
        return True
    rets = return_values(f.node)
    return bool(rets) and not any(
        r is None or isinstance(r, cst.Name) and r.value == "None" or isinstance(r, cst.Tuple) and not r.elements for r in rets
    )
