"""The structured facts of a finding, derived from what its rule reported.

A rule reports a node, the frame of the traced function it was in (if any) and its message
fields.  From those alone -- the same for every rule -- this module says what the dynamic mode
needs to know, without reading the message: the traced entry point and how to reach it from
the imported module, the enclosing host function, the call of a jitted callable the finding
points at (the parameter, the values passed, the loop that changes them), the jitted
function's signature and static spec, the ``jax.jit(...)`` of a fresh function, and example
arguments for each callable (jaxlint.analysis.facts.examples).  A new rule gets them without edits
here.  Computed only for the findings of a module, when their positions are known.

This module holds the lookups and the assembly of one report's facts; the callables' facts are
in ``callable_facts``, the call sites' and loops' in ``call_site_facts``.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

import libcst as cst

from jaxlint.dynamic.examples.arguments import Examples
from jaxlint.analysis.syntax.fast_walk import node_children
from jaxlint.analysis.syntax.nodes import dotted_name, named_params
from jaxlint.analysis.syntax.scopes import FuncInfo, Scope
from jaxlint.analysis.model.transforms import Application
from jaxlint.engine.call_site_facts import CallSiteFacts
from jaxlint.engine.callable_facts import CallableFacts, top_level
from jaxlint.config import DOTTED_NAME
from jaxlint.findings import FindingFacts

class FactsDeriver(CallableFacts, CallSiteFacts):
    """Facts for the reports of one module (``analysis``: its ModuleAnalysis)."""

    def __init__(self, analysis):
        self.analysis = analysis
        self.index = analysis.index
        self.finder = analysis.finder
        self.analyzer = analysis.analyzer
        self.examples = Examples(analysis)
        self._args: Optional[Dict[int, Tuple[cst.Call, Scope, cst.Arg]]] = None
        self._callees: Dict[Tuple[int, str], Optional[dict]] = {}
        self._owners: Optional[Dict[int, FuncInfo]] = None

    # -- positions and lookups ---------------------------------------------------------------
    def line_of(self, node) -> Optional[int]:
        return self.examples.line_of(node)

    def _arg_of(self, node) -> Optional[Tuple[cst.Call, Scope, cst.Arg]]:
        """The call whose argument ``node`` is."""
        if self._args is None:
            self._args = {}
            for call, scope, _ in self.index.calls:
                for a in call.args:
                    self._args.setdefault(id(a.value), (call, scope, a))
        return self._args.get(id(node))

    def _app_reached_by(self, call: cst.Call) -> Optional[Application]:
        # not a custom derivative: called on its own it compiles nothing, hashes nothing
        return next((a for a in self.finder.applications if not a.transform.converts and call in self.analyzer.call_sites(a)), None)

    def _app_declaring(self, node) -> Optional[Application]:
        """The application whose static spec or parameter list holds ``node``."""
        for app in filter(lambda a: a.transform.statics, self.finder.applications):
            held = [n for _, n in app.statics.nums + app.statics.names] + app.func.positional_params() + list(app.func.params.kwonly_params)
            if any(n is node for n in held):
                return app
        return None

    def _enclosing_function(self, node) -> Optional[FuncInfo]:
        """The innermost def that holds ``node``, its signature and decorators included (the
        function a finding about a parameter is in); a lambda is part of the code around it."""
        if self._owners is None:
            self._owners = {}
            for f in self.index.functions:  # outer defs first: an inner def's nodes are its own
                todo = [] if f.is_lambda else [f.node]
                while todo:
                    n = todo.pop()
                    self._owners[id(n)] = f
                    todo.extend(node_children(n))
        return self._owners.get(id(node))

    # -- one report --------------------------------------------------------------------------
    def derive(self, node, frame, fields: dict, given: Optional[FindingFacts]) -> FindingFacts:
        out: Dict[str, object] = {}
        related = fields.get("related")
        var = fields.get("var")
        if isinstance(var, str) and DOTTED_NAME.match(var):
            out["variable"] = var
        context = fields.get("context") or {}
        if context.get("old_api"):
            out["api"] = {k: context.get(k) for k in ("old_api", "deprecated_in", "removed_in")}
        if frame is not None:
            self._entry_facts(frame, out)
        else:
            self._host_facts(node, out)
        # a finding at a call may be about one of its arguments (``passed_at``)
        hit = self._arg_of(fields.get("passed_at", node))
        if hit is not None:
            self._call_facts(hit, out, fields)
        declaring = self._app_declaring(node)
        if declaring is not None:
            out["jitted"] = self.signature(declaring)
            if isinstance(node, cst.Param):
                out["parameter"] = node.name.value
        if given is not None and given.value_kind is not None:
            # where the value is built: the first related location, else the finding itself;
            # built in another function (a helper that returns it), the function around the
            # finding is what runs both
            built = related[0][0] if related else node
            maker = self._enclosing_function(built)
            if maker is not None and maker is not self._enclosing_function(node):
                built = node
            builder = self._builder(built)
            if builder is not None:
                out["builder"] = builder
        made_at = fields.get("made_at")
        if isinstance(made_at, cst.CSTNode):
            # reported at the call that compiles: the jitted object is made at ``made_at``
            where = self.analysis.positions.get(made_at)
            if where is not None:
                out["made"] = {"line": where.start.line, "end_line": where.end.line}
        rebuild = self._rebuild(made_at if isinstance(made_at, cst.CSTNode) else node)
        if rebuild is not None:
            out["rebuild"] = rebuild
        if isinstance(node, cst.Attribute):
            attribute = dotted_name(node)
            if attribute is not None:
                out["attribute"] = attribute
        cls_name = fields.get("cls")
        if isinstance(cls_name, str) and isinstance(var, str) and var.isidentifier():
            instance = self.instance(node, cls_name, var)
            if instance is not None:
                out["instance"] = instance
        if frame is None and related:
            # a wrapper's call reaches the jitted callable through its call in the wrapper: the
            # rule names it (``jitted_call``), else it is the second related location
            inner = fields.get("jitted_call")
            rc = self.related_call(related[0][0], [inner] if inner is not None else [r[0] for r in related[1:2]])
            if rc is not None and rc.get("main"):
                # the lines of the block that make the change (``solver.set_rhs(growth)``)
                rc["lines"] = sorted({self.line_of(n) for n, _ in related[1:] if self._in_main_block(n)} - {None})
            if rc is not None:
                out["related_call"] = rc
        loop_call = fields.get("repeated_by")
        if isinstance(loop_call, cst.Call):
            repeater = self.runner(self._enclosing_function(loop_call))
            if repeater is not None:
                out["repeater"] = repeater
        change = fields.get("convention")
        if change is not None:
            callee = self.entry(change.app)
            if callee is not None:
                out["convention"] = {"callee": callee, "param": change.param, "by_keyword": change.by_keyword}
                if change.first_scope is not None:
                    # the other convention is in another function: the run of this one makes
                    # only the finding's calls
                    out["convention"]["elsewhere"] = _scope_label(change.first_scope)
        if given is not None:
            for k in ("value_kind", "entry", "parameter"):
                v = getattr(given, k)
                if v is not None:
                    out[k] = v
        return FindingFacts(**out)

    def _entry_facts(self, frame, out: Dict[str, object]) -> None:
        """Where the traced code a finding is in starts: the transform's entry point, how the
        dynamic mode traces it, or why it cannot."""
        entry = frame.entry
        out["entry"] = entry.func.qualname
        out["in_entry"] = frame.func is entry.func
        if not isinstance(entry, Application):
            out["unreachable"] = f"its traced entry point, {entry.func.qualname}, is in another file (dynamic mode imports one file at a time)"
            origin = getattr(entry, "origin", None)
            if origin is not None:
                out["remote_entry"] = {"label": origin[0], "path": origin[1]}
        else:
            traced = self.entry(entry)
            reason = "no entry point reachable from the module (nested function or lambda)"
            if traced is None:
                traced, reason = self.factory(entry)
                if traced is not None and frame.outer is not None:
                    traced = _in_signature(traced, frame.outer)
            if traced is not None:
                out["traced"] = traced
            else:
                out["unreachable"] = reason
                nested = self.nested(entry)
                if nested is not None:
                    out["nested"] = nested
            site = self.site(entry)
            if site is not None:
                out["site"] = site

    def _host_facts(self, node, out: Dict[str, object]) -> None:
        """For a finding in host code: the top-level function it is in, or the module level."""
        host = self._enclosing_function(node)
        runner = self.runner(host)
        if runner is not None:
            out["host"] = runner
        elif host is None:
            out["module_level"] = True

    def _builder(self, node) -> Optional[dict]:
        """The module-level function around ``node``, when it can run as it is: not a method,
        and no required parameters (guessed arguments could take another path and refute a
        real finding)."""
        f = self._enclosing_function(node)
        if f is None or top_level(f) is not f or f.is_method:
            return None
        p = f.params
        if any(x.default is None for x in named_params(p)):
            return None
        return self.plain(f)


def _scope_label(scope) -> str:
    if scope.kind == "function" and scope.func is not None:
        return f"{scope.func.qualname}()"
    return "the module's top level" if scope.kind == "module" else f"the body of {scope.name}"


def _in_signature(traced: dict, outer) -> dict:
    """The factory's argument sets narrowed to the calls that pass, for each parameter the
    finding's signature holds a function in, that function by name (``make_step(mse)`` for a
    finding in ``mse``): the factory's other calls make closures that trace other functions,
    and guessed values are no function at all."""
    wanted = {name: fn[0].func.name for (_scope, name), fn in outer.fns.items()}

    def passes(argset) -> bool:
        given = {a["name"]: a["value"] for a in argset["args"]}
        for name, fname in wanted.items():
            v = given.get(name)
            if v is None or v.get("k") != "expr" or str(v.get("src", "")).rpartition(".")[2] != fname:
                return False
        return True

    factory = dict(traced["target"]["factory"])
    factory["argsets"] = [a for a in factory["argsets"] if passes(a)]
    return dict(traced, target=dict(traced["target"], factory=factory))
