"""The class model: methods with inheritance, and which fields of a pytree class are leaves
(tracers under a trace) and which are static metadata (Python values), decided by how the
class is declared.

* ``typing.NamedTuple``: every field is a leaf.
* ``flax.struct.dataclass`` / ``PyTreeNode``, ``chex.dataclass``, ``jax_dataclasses``,
  ``jax.tree_util.register_dataclass``: fields are leaves, except ``field(pytree_node=False)``,
  ``static_field()``, ``Static[...]``, ``meta_fields=[...]``.
* ``equinox.Module``: fields are leaves, except ``eqx.field(static=True)`` / ``static_field()``.
* ``register_pytree_node_class`` / ``register_pytree_node(Cls, flatten, ...)``: the attributes
  ``tree_flatten`` returns as children are leaves, those in its aux data are static.
* ``ClassVar`` annotations and plain class attributes are class attributes: Python values.

A class the model cannot place (a plain class, a base class from another library) answers
``None``: the rules stay silent on its fields.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.nodes import arguments_by_position, dotted_name, keyword_value, simple_statements, string_value
from jaxlint.analysis.syntax.scopes import VALUE_KINDS, ClassInfo, FuncInfo, Scope
from jaxlint.analysis.model.names import resolve

LEAF = "leaf"
STATIC_FIELD = "static"

NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
EQUINOX_BASES = frozenset({"equinox.Module"})
FLAX_STRUCT_BASES = frozenset({"flax.struct.PyTreeNode"})
DATACLASS_PYTREE_DECORATORS = frozenset(
    {
        "flax.struct.dataclass",
        "chex.dataclass",
        "chex.mappable_dataclass",
        "jax_dataclasses.pytree_dataclass",
        "jax.tree_util.register_dataclass",
        "tjax.dataclass",
    }
)
CUSTOM_PYTREE_DECORATORS = frozenset({"jax.tree_util.register_pytree_node_class", "jax.tree_util.register_pytree_with_keys_class"})
STATIC_PYTREE_DECORATORS = frozenset({"jax.tree_util.register_static"})
REGISTER_CALLS = frozenset({"jax.tree_util.register_dataclass", "jax.tree_util.register_pytree_node", "jax.tree_util.register_pytree_with_keys"}) | CUSTOM_PYTREE_DECORATORS
# Calls that declare a dataclass field; their keywords say whether it is static.
FIELD_FUNCS = frozenset({"field", "static_field", "dataclass_field"})
STATIC_ANNOTATIONS = frozenset({"jax_dataclasses.Static", "Static"})
CLASSVAR = frozenset({"typing.ClassVar", "ClassVar"})


class Constructor(NamedTuple):
    """How a call of a class fills the instance it makes."""

    init: Optional[FuncInfo]  # the ``__init__`` that runs; None for a generated one
    positional: Tuple[str, ...]  # the parameters positional arguments fill, in order
    named: FrozenSet[str]  # the parameters a keyword argument can name
    stores: Dict[str, str]  # field -> the parameter whose argument it holds
    star_args: bool  # ``*args`` takes positional arguments beyond ``positional``
    star_kwargs: bool  # ``**kwargs`` takes other keywords


def qualified(expr, scope: Scope) -> str:
    """An expression's resolved dotted name (``flax.struct.dataclass``), else its spelling."""
    if isinstance(expr, cst.Call):
        expr = expr.func
    return resolve(expr, scope) or dotted_name(expr) or ""


def decorator_names(node, scope: Scope) -> Set[str]:
    out = set()
    for d in getattr(node, "decorators", ()):
        dec = d.decorator
        q = qualified(dec, scope)
        if q in ("functools.partial", "partial") and isinstance(dec, cst.Call) and dec.args:
            q = qualified(dec.args[0].value, scope)
        out.add(q)
    return out


def is_property(func: FuncInfo) -> bool:
    names = decorator_names(func.node, func.scope)
    return any(n == "property" or n.endswith("cached_property") for n in names)


def is_cached_property(func: FuncInfo) -> bool:
    return any(n.endswith("cached_property") for n in decorator_names(func.node, func.scope))


def annotated_names(cls: ClassInfo) -> Iterator[cst.AnnAssign]:
    """The annotated assignments to a name in the body of ``cls`` (``n: int = 3``), in order."""
    for small in simple_statements(cls.node.body):
        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
            yield small


def declared_annotation(cls: ClassInfo, attr: str) -> Optional[cst.BaseExpression]:
    """The annotation of the first ``attr: T`` in the body of ``cls``, or None."""
    return next((small.annotation.annotation for small in annotated_names(cls) if small.target.value == attr), None)


def reads_self_attribute(func: FuncInfo, attr: str) -> bool:
    """``func``'s body reads ``self.attr`` (its first parameter's attribute) as a statement of
    its own: ``self.n_actions`` alone on a line in ``__init__``."""
    params = func.positional_params()
    if not params or not isinstance(func.node.body, cst.IndentedBlock):
        return False
    me = params[0].name.value
    for small in simple_statements(func.node.body):
        v = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
        if isinstance(v, cst.Attribute) and isinstance(v.value, cst.Name) and v.value.value == me and v.attr.value == attr:
            return True
    return False


def is_classmethod(func: FuncInfo) -> bool:
    return "classmethod" in decorator_names(func.node, func.scope)


class ClassModel:
    """The classes of one module: inheritance, members and the pytree field model (computed
    on demand, memoised)."""

    def __init__(self, index: Optional[ModuleIndex]):
        self.index = index
        self._mro: Dict[int, List[ClassInfo]] = {}
        self._kind: Dict[int, Optional[str]] = {}
        self._fields: Dict[int, Dict[str, str]] = {}
        self._registrations: Optional[Dict[str, cst.Call]] = None
        self._constructors: Dict[int, Optional[Constructor]] = {}
        # id(module scope) -> the ClassModel of another module whose classes this module's
        # analysis is given (the cross-module phase): their registrations are read there
        self.delegates: Dict[int, "ClassModel"] = {}

    def _owner(self, cls: ClassInfo) -> "ClassModel":
        """The class model of the module ``cls`` is defined in."""
        if not self.delegates:
            return self
        return self.delegates.get(id(cls.scope.module()), self)

    # -- inheritance ---------------------------------------------------------------
    def bases(self, cls: ClassInfo) -> List[ClassInfo]:
        out = []
        for b in cls.bases:
            if isinstance(b, cst.Name):
                c = class_named(cls.scope, b.value)
                if c is not None and c is not cls:
                    out.append(c)
        return out

    def mro(self, cls: ClassInfo) -> List[ClassInfo]:
        r = self._mro.get(id(cls))
        if r is None:
            r, todo = [], [cls]
            while todo and len(r) < 32:
                c = todo.pop(0)
                if c not in r:
                    r.append(c)
                    todo.extend(self.bases(c))
            self._mro[id(cls)] = r
        return r

    def imported_base(self, cls: ClassInfo) -> Optional[str]:
        """The qualified name (as imported) of the one base class, along the module's MRO of
        ``cls``, that is not a class of the module; None when there is none or several (then
        which one defines a member cannot be told here)."""
        found = []
        for c in self.mro(cls):
            local = self.bases(c)
            for b in c.bases:
                if isinstance(b, cst.Name) and any(x.name == b.value for x in local):
                    continue
                q = resolve(b, c.scope)
                if q is None:
                    return None  # a base the module computes: nothing to look up
                if q not in found:
                    found.append(q)
        return found[0] if len(found) == 1 else None

    def made_by_cls(self, call: cst.Call, scope: Scope) -> Optional[ClassInfo]:
        """``cls(...)`` in a classmethod (``def create(cls, ...): return cls(...)``): the class
        the method is defined in, which is what ``cls`` holds when no class of the module
        derives from it (a subclass calling it gets an instance of its own)."""
        g = scope.func if scope.kind == "function" else None
        if g is None or not isinstance(call.func, cst.Name) or g.cls is None or g.receiver != call.func.value:
            return None
        if not is_classmethod(g) or not scope.unrebound_param(call.func.value):
            return None
        if self.index is None or any(c is not g.cls and g.cls in self.mro(c) for c in self.index.classes):
            return None
        return g.cls

    def class_method(self, func: cst.Attribute, scope: Scope) -> Optional[FuncInfo]:
        """``Cls.create`` (``Cls`` a class of the module, bound once): its classmethod of that name."""
        if not isinstance(func.value, cst.Name):
            return None
        cls = class_named(scope, func.value.value, sole=True)
        m = self.member(cls, func.attr.value) if cls is not None else None
        return m if m is not None and not m.is_lambda and m.body_scope is not None and is_classmethod(m) and len(m.node.decorators) == 1 else None

    def member(self, cls: ClassInfo, name: str) -> Optional[FuncInfo]:
        """The function ``name`` of the class or its bases in the module."""
        for c in self.mro(cls):
            f = c.body_scope.defs.get(name)
            if f is not None:
                return f
        return None

    # -- the pytree field model -------------------------------------------------------
    def registrations(self) -> Dict[str, cst.Call]:
        """``register_dataclass(Cls, ...)`` / ``register_pytree_node(Cls, ...)`` calls, by class name."""
        if self._registrations is None:
            regs: Dict[str, cst.Call] = {}
            for call, scope, _ in self.index.calls if self.index is not None else ():
                if not call.args or not isinstance(call.args[0].value, cst.Name):
                    continue
                if qualified(call.func, scope) in REGISTER_CALLS:
                    regs[_registered_name(call.args[0].value.value, scope)] = call
            self._registrations = regs
        return self._registrations

    def pytree_kind(self, cls: ClassInfo) -> Optional[str]:
        """How the class is a pytree: 'namedtuple', 'dataclass', 'equinox', 'custom', 'static'; None."""
        owner = self._owner(cls)
        if owner is not self:
            return owner.pytree_kind(cls)
        key = id(cls)
        if key in self._kind:
            return self._kind[key]
        kind = None
        for c in self.mro(cls):
            decos = decorator_names(c.node, c.scope)
            bases = {qualified(b, c.scope) for b in c.bases}
            if decos & STATIC_PYTREE_DECORATORS:
                kind = "static"
            elif bases & NAMED_TUPLE_BASES:
                kind = "namedtuple"
            elif bases & EQUINOX_BASES:
                kind = "equinox"
            elif decos & DATACLASS_PYTREE_DECORATORS or bases & FLAX_STRUCT_BASES:
                kind = "dataclass"
            elif decos & CUSTOM_PYTREE_DECORATORS:
                kind = "custom"
            elif c.name in self.registrations():
                call = self.registrations()[c.name]
                kind = "dataclass" if qualified(call.func, c.scope).endswith("register_dataclass") else "custom"
            if kind is not None:
                break
        self._kind[key] = kind
        return kind

    def is_linen_module(self, cls: ClassInfo) -> bool:
        """A ``flax.linen.Module`` subclass: ``model.apply(variables, *inputs)`` runs its
        ``__call__`` (or the ``method=`` it names)."""
        return self.derives(cls, LINEN_MODULE_BASES)

    def is_nnx_module(self, cls: ClassInfo) -> bool:
        """A ``flax.nnx.Module`` subclass: a pytree of its Variables and arrays."""
        return self.derives(cls, NNX_MODULE_BASES)

    def derives(self, cls: ClassInfo, bases) -> bool:
        """``cls`` or a class of the module it derives from names one of ``bases`` as a base."""
        return any(qualified(b, c.scope) in bases for c in self.mro(cls) for b in c.bases)

    def field_kind(self, cls: ClassInfo, attr: str) -> Optional[str]:
        """LEAF / STATIC_FIELD for an attribute of an instance of ``cls``; None if unknown."""
        owner = self._owner(cls)
        if owner is not self:
            return owner.field_kind(cls, attr)
        fields = self._fields.get(id(cls))
        if fields is None:
            fields = self._fields[id(cls)] = {}
            kind = self.pytree_kind(cls)
            if kind is not None:
                for c in reversed(self.mro(cls)):
                    fields.update(self._declared_fields(c, kind))
            if kind == "custom":
                # what the flatten returns decides, over a class attribute of the same name
                flattened: Dict[str, str] = {}
                for name, part_kind, _node in self.flatten_parts(cls):
                    flattened.setdefault(name, part_kind)
                fields.update(flattened)
        return fields.get(attr)

    def _declared_fields(self, cls: ClassInfo, kind: str) -> Dict[str, str]:
        out: Dict[str, str] = {}
        if kind == "static":
            return {name: STATIC_FIELD for name in self.annotated_fields(cls)}
        for small in simple_statements(cls.node.body):
            if isinstance(small, cst.Assign):
                # a class attribute without an annotation is not a field: a Python value
                for t in small.targets:
                    if isinstance(t.target, cst.Name):
                        out[t.target.value] = STATIC_FIELD
            if not isinstance(small, cst.AnnAssign) or not isinstance(small.target, cst.Name):
                continue
            name = small.target.value
            ann = small.annotation.annotation
            head = ann.value if isinstance(ann, cst.Subscript) else ann
            hq = qualified(head, cls.scope)
            if hq in CLASSVAR:
                out[name] = STATIC_FIELD
            elif kind == "namedtuple":
                out[name] = LEAF
            elif kind == "custom":
                continue  # decided by tree_flatten below
            elif hq in STATIC_ANNOTATIONS or _static_field_call(small.value, cls.scope):
                out[name] = STATIC_FIELD
            else:
                out[name] = LEAF
        calls = [self.registrations()[cls.name]] if kind == "dataclass" and cls.name in self.registrations() else []
        # partial(register_dataclass, meta_fields=[...]) and alike
        calls += [d.decorator for d in cls.node.decorators if isinstance(d.decorator, cst.Call)]
        for call in calls:
            for a in call.args:
                if a.keyword is not None and a.keyword.value in ("data_fields", "meta_fields"):
                    for name in _string_list(a.value):
                        out[name] = LEAF if a.keyword.value == "data_fields" else STATIC_FIELD
        return out

    def flatten_parts(self, cls: ClassInfo) -> List[Tuple[str, str, cst.CSTNode]]:
        """(attribute, LEAF or STATIC_FIELD, the expression that holds it) for each attribute of
        an instance of ``cls`` that its flatten function returns, children first; [] when it
        cannot be read.  JAX calls the user's flatten and keeps what it gets: the children are
        the leaves, traced; everything in the aux data, however nested (tuples, lists, dicts,
        ``dict(k=v)``, a local name for any of them, the whole ``self.__dict__``), is static
        metadata, hashed and compared as part of the cache key and kept past the trace."""
        owner = self._owner(cls)
        if owner is not self:
            return owner.flatten_parts(cls)
        out: List[Tuple[str, str, cst.CSTNode]] = []
        flatten = self._flatten_function(cls)
        if flatten is None or flatten.is_lambda:
            return out
        params = flatten.positional_params()
        if not params:
            return out
        me = params[0].name.value
        local: Dict[str, cst.BaseExpression] = {}
        for small in simple_statements(flatten.node.body):
            if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
                local[small.targets[0].target.value] = small.value
            if isinstance(small, cst.Return) and isinstance(small.value, cst.Tuple) and len(small.value.elements) == 2:
                children, aux = (el.value for el in small.value.elements)
                for part, kind in ((children, LEAF), (aux, STATIC_FIELD)):
                    out.extend((name, kind, node) for name, node in self._held_attributes(cls, part, me, local, flatten.body_scope, 0))
        return out

    def _flatten_function(self, cls: ClassInfo) -> Optional[FuncInfo]:
        """The flatten function JAX calls for ``cls``: the one its registration names
        (``register_pytree_node(Cls, flatten, ...)``), else its ``tree_flatten``, inherited too."""
        for c in self.mro(cls):
            call = self.registrations().get(c.name)
            if call is not None and len(call.args) > 1:
                fn = call.args[1].value
                if isinstance(fn, cst.Name):
                    return c.scope.lookup_def(fn.value)
                if isinstance(fn, cst.Attribute) and isinstance(fn.value, cst.Name):
                    named = class_named(c.scope, fn.value.value)
                    return self.member(named, fn.attr.value) if named is not None else None
        return self.member(cls, "tree_flatten")

    def _held_attributes(self, cls: ClassInfo, e, me: str, local: Dict[str, cst.BaseExpression], scope: Scope, depth: int) -> List[Tuple[str, cst.CSTNode]]:
        """(attribute, expression) for each attribute of the instance ``me`` that the value
        ``e`` holds: ``self.a``, inside tuples, lists and dicts, through local names, and every
        attribute for ``self.__dict__`` / ``vars(self)``."""
        if depth > 4:
            return []
        if isinstance(e, (cst.Tuple, cst.List)):
            return [h for el in e.elements for h in self._held_attributes(cls, el.value, me, local, scope, depth + 1)]
        if isinstance(e, cst.Dict):
            return [h for el in e.elements for h in self._held_attributes(cls, el.value, me, local, scope, depth + 1)]
        if isinstance(e, cst.Name):
            return self._held_attributes(cls, local[e.value], me, local, scope, depth + 1) if e.value in local else []
        if isinstance(e, cst.Attribute) and isinstance(e.value, cst.Name) and e.value.value == me:
            if e.attr.value == "__dict__":
                return [(name, e) for name in self.instance_attributes(cls)]
            return [(e.attr.value, e)]
        if isinstance(e, cst.Call) and not any(a.star for a in e.args):
            q = qualified(e.func, scope)
            if q == "dict":
                return [h for a in e.args if a.keyword is not None for h in self._held_attributes(cls, a.value, me, local, scope, depth + 1)]
            if q == "vars" and len(e.args) == 1 and isinstance(e.args[0].value, cst.Name) and e.args[0].value.value == me:
                return [(name, e) for name in self.instance_attributes(cls)]
        return []

    def instance_attributes(self, cls: ClassInfo) -> List[str]:
        """The attributes the methods of ``cls`` and its bases set on ``self``, in order."""
        methods = {id(f.body_scope): f for c in self.mro(cls) for f in c.body_scope.defs.values() if f.is_method and f.body_scope is not None}
        out: List[str] = []
        for w in self.index.attribute_writes if self.index is not None else ():
            f = methods.get(id(w.scope))
            if f is not None and not w.in_place and w.attr not in out and f.receiver == w.name:
                out.append(w.attr)
        return out

    def metadata_declarations(self, cls: ClassInfo) -> Dict[str, cst.CSTNode]:
        """The static metadata fields of a pytree class (those JAX compares as part of the
        treedef), each with where it is declared: the field's annotated assignment, the
        ``meta_fields`` string, or the ``self.attr`` in the aux data of its flatten function.
        Class attributes and ``ClassVar`` are not fields and are left out."""
        kind = self.pytree_kind(cls)
        out: Dict[str, cst.CSTNode] = {}
        if kind not in ("dataclass", "equinox", "custom"):
            return out
        if kind == "custom":
            for name, part_kind, node in self.flatten_parts(cls):
                if part_kind == STATIC_FIELD:
                    out.setdefault(name, node)
            return out
        for c in reversed(self.mro(cls)):
            for name, node in self.annotated_fields(c).items():
                if self.field_kind(cls, name) == STATIC_FIELD and not _is_classvar(node, c.scope):
                    out[name] = node
            for call in self._meta_field_calls(c):
                for a in call.args:
                    if a.keyword is not None and a.keyword.value == "meta_fields" and isinstance(a.value, (cst.List, cst.Tuple)):
                        for el in a.value.elements:
                            name = string_value(el.value)
                            if name is not None and name not in out:
                                out[name] = el.value
        return out

    def _meta_field_calls(self, cls: ClassInfo) -> List[cst.Call]:
        calls = [d.decorator for d in cls.node.decorators if isinstance(d.decorator, cst.Call)]
        reg = self.registrations().get(cls.name)
        if reg is not None:
            calls.append(reg)
        return calls

    def annotated_fields(self, cls: ClassInfo) -> Dict[str, cst.AnnAssign]:
        return {small.target.value: small for small in annotated_names(cls)}

    def field_names(self, cls: ClassInfo) -> List[str]:
        """The declared fields in constructor order (bases first), ``ClassVar`` excluded."""
        out: List[str] = []
        for c in reversed(self.mro(cls)):
            for small in annotated_names(c):
                ann = small.annotation.annotation
                head = ann.value if isinstance(ann, cst.Subscript) else ann
                if qualified(head, c.scope) not in CLASSVAR and small.target.value not in out:
                    out.append(small.target.value)
        return out

    def converted_fields(self, cls: ClassInfo) -> Set[str]:
        """Fields declared with ``field(converter=...)`` (equinox, attrs): the constructor stores
        what the converter makes of the argument, not the argument."""
        return {
            name
            for c in self.mro(cls)
            for name, st in self.annotated_fields(c).items()
            if _option(st.value, "converter") is not None
        }

    def has_own_init(self, cls: ClassInfo) -> bool:
        return any("__init__" in c.body_scope.defs or "__new__" in c.body_scope.defs for c in self.mro(cls))

    def constructor(self, cls: ClassInfo) -> Optional[Constructor]:
        """How ``cls(...)`` fills the instance (memoised), or None when that is not known.
        Python calls ``__init__`` on what ``__new__`` returns (an instance of the class), so a
        class's own ``__new__`` does not change where ``__init__`` stores its arguments.  Without an ``__init__`` of the module's classes,
        the one a dataclass, NamedTuple, attrs class or equinox Module generates: a parameter
        per field in declaration order, bases first, each stored in its field; a field declared
        ``init=False`` takes no argument, keyword-only ones (``kw_only=True``, after
        ``_: KW_ONLY``) come after the positional ones, and an ``InitVar`` is a parameter that
        is no field.  With its own ``__init__``: the attributes its body sets to a parameter
        (``self.a = a`` as a statement of its own, the one write of ``self.a`` there, the
        parameter never rebound); other attributes are not known from the arguments."""
        owner = self._owner(cls)
        if owner is not self:
            return owner.constructor(cls)
        if id(cls) not in self._constructors:
            self._constructors[id(cls)] = self._make_constructor(cls)
        return self._constructors[id(cls)]

    def _make_constructor(self, cls: ClassInfo) -> Optional[Constructor]:
        init = self.member(cls, "__init__")
        if init is None and any("__new__" in c.body_scope.defs for c in self.mro(cls)):
            return None  # what its own ``__new__`` makes is not told by the fields
        if init is None:
            positional: List[str] = []
            keyword: List[str] = []
            stores: Dict[str, str] = {}
            for c in reversed(self.mro(cls)):
                kw_only = any(_is_name(_option(d.decorator, "kw_only"), "True") for d in c.node.decorators)
                for small in annotated_names(c):
                    name, head = small.target.value, _annotation_head(small, c.scope)
                    if head.rsplit(".", 1)[-1] == "KW_ONLY":
                        kw_only = True  # ``_: KW_ONLY``: the fields after it are keyword-only
                    elif head not in CLASSVAR and not _is_name(_option(small.value, "init"), "False") and name not in positional + keyword:
                        (keyword if kw_only or _is_name(_option(small.value, "kw_only"), "True") else positional).append(name)
                        if head.rsplit(".", 1)[-1] != "InitVar":
                            stores[name] = name
            return Constructor(None, tuple(positional), frozenset(positional + keyword), stores, False, False)
        if not init.is_method or init.is_lambda or init.body_scope is None or not init.positional_params():
            return None
        params = init.node.params
        me, *positional = [p.name.value for p in init.positional_params()]
        named = [p.name.value for p in params.params if p.name.value != me] + [p.name.value for p in params.kwonly_params]
        top = {id(small.value) for small in simple_statements(init.node.body) if isinstance(small, (cst.Assign, cst.AnnAssign))}
        writes: Dict[str, list] = {}
        for w in self.index.attribute_writes if self.index is not None else ():
            if w.scope is init.body_scope and w.name == me:
                writes.setdefault(w.attr, []).append(w)
        stores = {}
        for attr, ws in writes.items():
            v = ws[0].value
            if len(ws) == 1 and not ws[0].in_place and isinstance(v, cst.Name) and id(v) in top and v.value in positional + named and init.body_scope.unrebound_param(v.value):
                stores[attr] = v.value
        return Constructor(init, tuple(positional), frozenset(named), stores, isinstance(params.star_arg, cst.Param), isinstance(params.star_kwarg, cst.Param))

    def parameter_arguments(self, cls: ClassInfo, args) -> Optional[Dict[str, cst.Arg]]:
        """{parameter: argument} of a call of ``cls`` passing ``args``, up to the first star
        argument (which may carry the parameters left out); None when the constructor is not
        known or an argument lands on no parameter (the call raises)."""
        c = self.constructor(cls)
        if c is None:
            return None
        out: Dict[str, cst.Arg] = {}
        for a, p in arguments_by_position(args, c.positional):
            if p is None or a.keyword is not None and p not in c.named:
                if not (c.star_kwargs if a.keyword is not None else c.star_args):
                    return None
                continue  # into ``*args`` / ``**kwargs``
            out[p] = a
        return out

    def constructor_arguments(self, cls: ClassInfo, args) -> Optional[Dict[str, cst.BaseExpression]]:
        """{field: argument} of a call passing ``args`` to the constructor a dataclass or
        NamedTuple generates; a field left to its default is absent.  None for a class with its
        own constructor, a star argument, or an argument that lands on no field (the call raises)."""
        c = self.constructor(cls)
        given = self.parameter_arguments(cls, args) if c is not None and c.init is None and not any(a.star for a in args) else None
        return None if given is None else {f: given[p].value for f, p in c.stores.items() if p in given}

    def field_declaration(self, cls: ClassInfo, attr: str) -> Tuple[Optional[ClassInfo], Optional[cst.AnnAssign]]:
        """The first class along the MRO of ``cls`` whose body annotates ``attr``, and that
        annotated assignment (a subclass's declaration overrides its bases')."""
        return next(((c, self.annotated_fields(c)[attr]) for c in self.mro(cls) if attr in self.annotated_fields(c)), (None, None))

    def field_class(self, cls: ClassInfo, attr: str) -> Optional[ClassInfo]:
        """The module class a field is annotated with (``params: Params``), if any."""
        c, decl = self.field_declaration(cls, attr)
        return annotation_class(decl.annotation.annotation, c.scope) if decl is not None else None


LINEN_MODULE_BASES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
NNX_MODULE_BASES = frozenset({"flax.nnx.Module", "flax.nnx.module.Module"})


def class_named(scope: Scope, name: str, sole: bool = False) -> Optional[ClassInfo]:
    """The class of the module that ``name`` means in code of ``scope``: the scope that owns the
    name decides, as Python looks it up (a rebinding hides an outer class; class bodies are not
    seen from their methods).  ``sole``: only when the ``class`` statement is the name's one
    binding (a rebinding may hold anything when it is read)."""
    owner = scope.lookup_scope(name)
    cls = owner.classes.get(name) if owner is not None else None
    if cls is not None and sole and owner.only_binding(name) is None:
        return None
    return cls


def annotation_class(e, scope: Scope) -> Optional[ClassInfo]:
    """The module class an annotation names (``TrainState``, ``"TrainState"``), if any."""
    if isinstance(e, cst.SimpleString):
        text = string_value(e)
        if text is None or not text.isidentifier():
            return None
        e = cst.Name(text)
    return class_named(scope, e.value) if isinstance(e, cst.Name) else None


def _static_field_call(value, scope: Scope) -> bool:
    if not isinstance(value, cst.Call):
        return False
    q = qualified(value.func, scope)
    last = q.rsplit(".", 1)[-1]
    if last == "static_field" or q == "jax.tree.static":  # ``field(metadata={"static": True})``
        return True
    if last not in FIELD_FUNCS:
        return False
    options = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
    # ``field(static=True)``, ``field(pytree_node=False)``, or the same in ``metadata=``
    return any(_is_name(o.get("static"), "True") or _is_name(o.get("pytree_node"), "False") for o in (options, _mapping_entries(options.get("metadata"), scope)))


def _mapping_entries(e, scope: Scope) -> Dict[str, cst.BaseExpression]:
    """The string-keyed entries of a mapping written out: ``{"static": True}`` or
    ``dict(static=True)``."""
    if isinstance(e, cst.Dict):
        return {string_value(el.key): el.value for el in e.elements if isinstance(el, cst.DictElement) and string_value(el.key)}
    if isinstance(e, cst.Call) and qualified(e.func, scope) == "dict":
        return {a.keyword.value: a.value for a in e.args if a.keyword is not None}
    return {}


def _is_name(e, name: str) -> bool:
    return isinstance(e, cst.Name) and e.value == name


def _string_list(e) -> List[str]:
    if isinstance(e, (cst.List, cst.Tuple)):
        return [s for s in (string_value(el.value) for el in e.elements) if s is not None]
    return []


def _registered_name(name: str, scope: Scope) -> str:
    """The class a registration call names: ``cls`` in ``__new__``, ``__init_subclass__`` or a
    classmethod is the class being made, so the class that defines it (and every subclass,
    through it) is registered."""
    f = scope.func if scope.kind == "function" else None
    owner = scope.enclosing_class()
    if f is None or owner is None or f.receiver != name:
        return name
    if f.name in ("__new__", "__init_subclass__") or is_classmethod(f):
        return owner.name
    return name


def _annotation_head(decl: cst.AnnAssign, scope: Scope) -> str:
    """The resolved name of what an annotation subscripts (``typing.ClassVar`` of ``ClassVar[int]``)."""
    ann = decl.annotation.annotation
    return qualified(ann.value if isinstance(ann, cst.Subscript) else ann, scope)


def _is_classvar(decl: cst.AnnAssign, scope: Scope) -> bool:
    return _annotation_head(decl, scope) in CLASSVAR


def _option(e, name: str) -> Optional[cst.BaseExpression]:
    """What a call (``field(init=False)``, ``dataclass(kw_only=True)``) passes as ``name``."""
    return keyword_value(e.args, name) if isinstance(e, cst.Call) else None


NAMED_TUPLE_FACTORIES = frozenset({"collections.namedtuple", "typing.NamedTuple"})


def named_tuple_fields(owner, name: str) -> Optional[List[str]]:
    """The field names of ``name`` when its one binding in ``owner`` is a named tuple class made
    by call (``namedtuple("P", ["a", "b"])``, ``namedtuple("P", "a b")``,
    ``NamedTuple("P", [("a", int)])``); None otherwise."""
    b = owner.only_binding(name)
    call = b.value if b is not None and b.kind in VALUE_KINDS and b.unpacked is None else None
    if not isinstance(call, cst.Call) or len(call.args) < 2 or resolve(call.func, owner) not in NAMED_TUPLE_FACTORIES:
        return None
    spec = call.args[1].value
    text = string_value(spec) if isinstance(spec, (cst.SimpleString, cst.ConcatenatedString)) else None
    if text is not None:
        names = text.replace(",", " ").split()
    elif isinstance(spec, (cst.List, cst.Tuple)):
        names = []
        for el in spec.elements:
            v = el.value.elements[0].value if isinstance(el.value, cst.Tuple) and el.value.elements else el.value
            names.append(string_value(v) if isinstance(v, (cst.SimpleString, cst.ConcatenatedString)) else None)
    else:
        return None
    return names if names and all(n and n.isidentifier() for n in names) else None
