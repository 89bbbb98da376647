"""One module's analysis, built once per file with the run's configuration.

The import index, the transform finder (which sees the configured ``extra-jit-decorators``)
and the traced-value interpreter are set up here and nowhere else: the one-module pipeline,
the cross-module phase and the facts of findings (for the dynamic mode) all stand on the same
analysis.  The facts rules ask for by name (static arguments, rebinding, call sites) and node
positions are computed on first use.
"""

from __future__ import annotations

from functools import cached_property
from typing import Callable, Dict, List, Optional

import libcst as cst

from jaxlint.analysis import facts
from jaxlint.analysis.facts.call_sites import CallSites
from jaxlint.analysis.facts.loop_updates import LoopUpdates
from jaxlint.analysis.facts.static_paths import StaticPaths
from jaxlint.analysis.facts.traced_self import TracedSelf
from jaxlint.analysis.host.host_values import HostValues
from jaxlint.analysis.jax.jax_api_migrations import table as jax_release_table
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.statement_paths import TreeSpans
from jaxlint.analysis.facts.static_arguments import StaticArgument, find_static_arguments
from jaxlint.analysis.traced.calls import Analyzer
from jaxlint.analysis.traced.frame import Frame
from jaxlint.analysis.model.transforms import TransformFinder
from jaxlint.config import Config
from jaxlint.engine.positions import node_positions

# (rule, node, frame or None, message fields): how rules report, through the pipeline.
Reporter = Callable[[object, cst.CSTNode, object, dict], None]


def _no_report(rule, node, frame, fields) -> None:
    pass


class ModuleAnalysis:
    def __init__(
        self,
        module: cst.Module,
        text: str,
        config: Config,
        handlers: Optional[Dict[str, list]] = None,
        report: Reporter = _no_report,
        external=None,
    ):
        self.module = module
        self.text = text
        self.config = config
        self.index = ModuleIndex(module)
        self.finder = TransformFinder(self.index, frozenset(config.extra_jit_decorators))
        self.analyzer = Analyzer(self.index, self.finder, handlers or {}, report, external)
        # Event handlers reach the module's facts through the analyzer they are called from.
        self.analyzer.module_ctx = self
        self._report = report

    @cached_property
    def positions(self):
        """Node -> CodeRange, as LibCST's PositionProvider gives them (computed on first use)."""
        return node_positions(self.module)

    @cached_property
    def spans(self) -> TreeSpans:
        """Which nodes hold which (statement paths ask it; computed on first use)."""
        return TreeSpans(self.module)

    @cached_property
    def static_arguments(self) -> List[StaticArgument]:
        return find_static_arguments(self.analyzer, self.host_values)

    @cached_property
    def static_paths(self):
        """Every value that reaches a slot JAX hashes, with where it was built (JAX202)."""
        return StaticPaths(self.index, self.finder, self.analyzer, self.host_values).run()

    @cached_property
    def traced_self_calls(self):
        """Calls handing a jitted function a traced argument JAX cannot interpret as an array
        (an instance that is no pytree, a function): JAX209's findings, which also keep JAX202
        quiet on their arguments."""
        return list(TracedSelf(self.index, self.finder, self.analyzer, self.host_values).calls())

    @cached_property
    def host_values(self):
        """Host-mode values of the module (``HostValues.value(expr, scope, call)``)."""
        return HostValues(self.index, self.finder, self.analyzer.classes, slices_hash=self.slices_hash)

    @cached_property
    def typed_host_values(self):
        """Host-mode values with the dtype kind and weak type of numbers and arrays, and what
        functions and methods return whatever it is (the weak-type question, JAX402)."""
        return HostValues(self.index, self.finder, self.analyzer.classes, types=True, slices_hash=self.slices_hash)

    @cached_property
    def rebinding(self):
        return facts.rebinding.Rebinding(self)

    @cached_property
    def static_objects(self):
        """Objects jitted functions are compiled for, and the host code that changes them (JAX307)."""
        return facts.static_objects.StaticObjects(self.index, self.analyzer, self.analyzer.classes, self.rebinding)

    @cached_property
    def loop_updates(self):
        """Variables that change on every iteration of the loops around each call."""
        return LoopUpdates(self.module)

    @cached_property
    def looped_calls(self):
        """Calls of jitted callables inside Python loops (jaxlint.analysis.facts.looped_calls)."""
        if not self.finder.applications:
            return []  # nothing is jitted here: no call of a jitted callable, in a loop or not
        return facts.looped_calls.looped_calls(self.index, self.finder, self.analyzer)

    @cached_property
    def convention_changes(self):
        """Parameters of a jitted callable passed by position at one call and by keyword at
        another (jaxlint.analysis.facts.calling_conventions)."""
        return facts.calling_conventions.convention_changes(self.index, self.finder, self.analyzer)

    @cached_property
    def call_sites(self) -> CallSites:
        return CallSites(self.index)

    @cached_property
    def api_references(self):
        """Uses of the JAX APIs in the migration table (JAX601/JAX602)."""
        return facts.api_references.api_references(self.index, self.text, unloaded=False)

    @cached_property
    def unloaded_submodules(self):
        """Attribute paths into JAX submodules that nothing loads (JAX603).  A fact of its own:
        JAX603 is a preview rule, and without it a module that names nothing of the migration
        table is not walked for references at all."""
        return [ref for ref in facts.api_references.api_references(self.index, self.text) if ref.unloaded is not None]

    def release(self) -> None:
        """Forget the analysis once the module's findings are made: reference counting then
        frees the tree at once (see ModuleIndex.release).  Nothing may use it afterwards."""
        self.analyzer.__dict__.clear()
        self.finder.__dict__.clear()
        self.index.release()
        self.__dict__.clear()

    @property
    def target_jax(self):
        """The JAX the code must run on: ``target-jax``, else the newest release jaxlint knows."""
        return self.config.target_jax or jax_release_table().newest

    @property
    def min_jax(self):
        """The oldest JAX the code must still run on (``min-jax``), or None."""
        return self.config.min_jax

    @property
    def slices_hash(self) -> bool:
        """Every Python the code must run on hashes a ``slice`` (3.12 on).  Without a declared
        ``requires-python`` it may run on 3.11, which every JAX release so far supports."""
        return self.config.min_python is not None and self.config.min_python >= (3, 12)

    def report(self, rule, node, entry=None, **fields) -> None:
        """For ``check_module`` rules: a finding at ``node``.  ``entry``: the transform
        application (jaxlint.analysis.model.transforms.Application) whose tracing reaches ``node``,
        when the rule knows it; the finding then carries that entry point like the
        interpreter's findings do (its context and facts, which the dynamic mode runs)."""
        frame = None
        if entry is not None:
            frame = Frame(entry.func, entry.func.scope, f"{entry.transform.label} {entry.func.name}()", entry, False)
        self._report(rule, node, frame, fields)
