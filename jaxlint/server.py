"""``jaxlint server``: a language server over stdio (pygls), for editors.

Diagnostics are computed on the editor's buffer (not the file on disk) when a document is
opened, changed (after a short pause in typing) and saved, with the configuration a CLI run
would use (``[tool.jaxlint]`` of the nearest ``pyproject.toml``), with the places a finding
involves as ``relatedInformation``.  Code actions offer each
finding's fix (unsafe ones say so), a ``# noqa`` comment, and ``source.fixAll.jaxlint`` (all
safe fixes).  Hovering a diagnostic shows the rule's documentation.

Linting runs on worker threads, off the event loop: the server keeps answering while a slow
file is analysed, and a result for a buffer that changed meanwhile is dropped.  Like every
static face of jaxlint, the server never imports JAX or the code it lints.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Optional, Sequence, Tuple

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace.position_codec import ServerTextPosition

from jaxlint.versions import __version__
from jaxlint.config import Config, ConfigError, load_config
from jaxlint.paths import SourcePath
from jaxlint.engine.pipeline import lint_source
from jaxlint.findings import Finding
from jaxlint.engine import edits as fix_edits
from jaxlint.engine.fixing import fix_source
from jaxlint.engine.noqa_comments import add_noqa
from jaxlint.fixes.declare import SAFE
from jaxlint.formats._common import rule_url, severity
from jaxlint.rules import RULES_BY_CODE

log = logging.getLogger("jaxlint.server")

SOURCE = "jaxlint"
FIX_ALL = "source.fixAll.jaxlint"
# Typing pauses shorter than this do not start a lint: only the last change of a burst is linted.
DEBOUNCE_SECONDS = 0.25
LINT_THREADS = 2


def lint_buffer(path: Optional[str], text: str) -> List[Finding]:
    """Findings for a buffer, configured as ``jaxlint PATH`` run from the project root would be."""
    try:
        # The folder, not the file: a new buffer may not exist on disk yet.
        cfg = load_config([os.path.dirname(path)] if path else [], rules=RULES_BY_CODE)
    except ConfigError as e:
        log.warning("jaxlint: %s; using the default configuration", e)
        cfg = Config()
    if path is None:
        return lint_source(text, "untitled.py", cfg, facts=False).findings
    # Shown relative to the configuration folder; matched against the configuration by its real
    # path, as the command line does, whatever this server's working folder is.
    path = os.path.abspath(path)
    display = os.path.relpath(path, cfg.root) if cfg.root else os.path.basename(path)
    where = SourcePath(path, display.replace(os.sep, "/"))
    if cfg.is_excluded(where):
        return []
    return lint_source(text, where, cfg, facts=False).findings


def line_edits(old: str, new: str) -> List[types.TextEdit]:
    """Edits turning ``old`` into ``new``, whole lines at a time (independent of how the client
    counts columns)."""
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            rng = types.Range(types.Position(line=i1, character=0), types.Position(line=i2, character=0))
            out.append(types.TextEdit(range=rng, new_text="".join(b[j1:j2])))
    return out


def _kind_wanted(kind: str, only: Optional[Sequence[str]]) -> bool:
    return not only or any(kind == k or kind.startswith(k + ".") for k in only)


class JaxlintServer(LanguageServer):
    def __init__(self):
        super().__init__("jaxlint", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.executor = ThreadPoolExecutor(max_workers=LINT_THREADS, thread_name_prefix="jaxlint-lint")
        self.pending: Dict[str, asyncio.Task] = {}
        # uri -> (document version, text, findings): the last lint of each open document
        self.results: Dict[str, Tuple[Optional[int], str, List[Finding]]] = {}

    # -- linting ---------------------------------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_later(uri, delay))

    async def _lint_later(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        findings = await self.current(uri)
        if findings is not None:
            self.publish(uri, findings)

    async def current(self, uri: str) -> Optional[List[Finding]]:
        """The findings of the document as it is now (linted again only if it changed)."""
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        known = self.results.get(uri)
        if known is not None and known[0] == version and known[1] == text:
            return known[2]
        loop = asyncio.get_running_loop()
        findings = await loop.run_in_executor(self.executor, lint_buffer, to_fs_path(uri), text)
        now = self.workspace.get_text_document(uri)
        if now.version != version or now.source != text:
            return None  # edited meanwhile: the lint scheduled for the edit publishes
        self.results[uri] = (version, text, findings)
        return findings

    def publish(self, uri: str, findings: Sequence[Finding]) -> None:
        doc = self.workspace.get_text_document(uri)
        diags = [self.diagnostic(doc, f) for f in findings]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=doc.version))

    # -- conversions -----------------------------------------------------------------------------

    @staticmethod
    def span_range(doc, line: int, column: int, end_line: int, end_column: int) -> types.Range:
        """A 1-based span of the document (columns in code points, end exclusive) in the
        client's units."""
        lines = doc.lines
        codec = doc.position_codec
        start = codec.position_to_client_units(lines, ServerTextPosition(line=line - 1, character=column - 1))
        end = codec.position_to_client_units(lines, ServerTextPosition(line=end_line - 1, character=end_column - 1))
        return types.Range(start=start, end=end)

    def diagnostic(self, doc, f: Finding) -> types.Diagnostic:
        return types.Diagnostic(
            range=self.span_range(doc, f.line, f.column, f.end_line, f.end_column),
            message=f.message,
            severity=types.DiagnosticSeverity.Error if severity(f.code) == "error" else types.DiagnosticSeverity.Warning,
            code=f.code,
            code_description=types.CodeDescription(href=rule_url(f.code)),
            source=SOURCE,
            related_information=self.related_information(doc, f),
        )

    def related_information(self, doc, f: Finding) -> Optional[List[types.DiagnosticRelatedInformation]]:
        """Where else the finding points (where a frozen capture gets a new value), for clients
        that show related information."""
        if not f.related or not self._client_shows_related():
            return None
        out = []
        for r in f.related:
            if r["path"] != f.path:
                # The analysis relates places of one module; a location elsewhere has no buffer
                # to convert its columns against, so it is left out rather than misplaced.
                continue
            where = self.span_range(doc, r["line"], r["column"], r["end_line"], r["end_column"])
            out.append(types.DiagnosticRelatedInformation(location=types.Location(uri=doc.uri, range=where), message=r["message"]))
        return out or None

    def _client_shows_related(self) -> bool:
        caps = self.client_capabilities.text_document
        diagnostics = caps.publish_diagnostics if caps is not None else None
        return bool(diagnostics is not None and diagnostics.related_information)

    @staticmethod
    def contains(f: Finding, line: int, char: int) -> bool:
        """Is the 0-based (line, char) position inside the finding, ends included?"""
        return (f.line - 1, f.column - 1) <= (line, char) <= (f.end_line - 1, f.end_column - 1)

    # -- code actions ----------------------------------------------------------------------------

    def code_actions(self, uri: str, doc, text: str, findings: Sequence[Finding], params) -> List[types.CodeAction]:
        only = params.context.only
        rng = doc.position_codec.range_from_client_units(doc.lines, params.range)
        lo = (rng.start.line, rng.start.character)
        hi = (rng.end.line, rng.end.character)
        here = [f for f in findings if (f.line - 1, f.column - 1) <= hi and lo <= (f.end_line - 1, f.end_column - 1)]
        actions: List[types.CodeAction] = []
        if _kind_wanted(types.CodeActionKind.QuickFix, only):
            for f in here:
                diag = [self.diagnostic(doc, f)]
                if f.fixable(True):
                    safe = f.autofix["safety"] == SAFE
                    new = fix_edits.apply([f.autofix], text)
                    title = f"{f.code}: {f.autofix['title']}" + ("" if safe else " (unsafe fix)")
                    actions.append(self._action(title, types.CodeActionKind.QuickFix, uri, doc, text, new, diag, safe))
                new, n = add_noqa(text, [f])  # none for a finding about the whole file
                if n:
                    actions.append(self._action(f"{f.code}: Ignore with `# noqa: {f.code}`", types.CodeActionKind.QuickFix, uri, doc, text, new, diag, False))
        if _kind_wanted(FIX_ALL, only) and any(f.fixable(False) for f in findings):
            result = fix_source(text, lambda t: lint_buffer(to_fs_path(uri), t))
            if result.source != text:
                actions.append(self._action("jaxlint: Fix all safe problems", FIX_ALL, uri, doc, text, result.source, None, False))
        return actions

    @staticmethod
    def _action(title, kind, uri, doc, old, new, diagnostics, preferred) -> types.CodeAction:
        edit = types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=doc.version),
                    edits=line_edits(old, new),
                )
            ]
        )
        return types.CodeAction(title=title, kind=kind, diagnostics=diagnostics, edit=edit, is_preferred=preferred or None)

    # -- hover -----------------------------------------------------------------------------------

    @staticmethod
    def hover_text(findings: Sequence[Finding]) -> str:
        parts = []
        for f in findings:
            rule = RULES_BY_CODE.get(f.code)
            text = f"**{f.code}** `{f.name}`: {f.message}"
            if f.fix:
                text += f"\n\n**Fix:** {f.fix}"
            if f.autofix and f.autofix["edits"]:
                text += f"\n\n**Quick fix** ({f.autofix['safety']}): {f.autofix['title']}"
            if rule is not None and rule.docs():
                text += "\n\n```text\n" + rule.docs() + "\n```"
            parts.append(text)
        return "\n\n---\n\n".join(parts)


server = JaxlintServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: JaxlintServer, params: types.DidOpenTextDocumentParams):
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: JaxlintServer, params: types.DidChangeTextDocumentParams):
    ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: JaxlintServer, params: types.DidSaveTextDocumentParams):
    ls.schedule(params.text_document.uri, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: JaxlintServer, params: types.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.results.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=False),
)
async def code_action(ls: JaxlintServer, params: types.CodeActionParams):
    uri = params.text_document.uri
    findings = await ls.current(uri)
    if findings is None:
        return []  # the buffer changed while linting: the client asks again
    doc = ls.workspace.get_text_document(uri)
    return ls.code_actions(uri, doc, doc.source, findings, params)


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: JaxlintServer, params: types.HoverParams):
    uri = params.text_document.uri
    known = ls.results.get(uri)
    doc = ls.workspace.get_text_document(uri)
    if known is None or known[0] != doc.version:
        return None  # no diagnostics shown for this text yet
    pos = doc.position_codec.position_from_client_units(doc.lines, params.position)
    here = [f for f in known[2] if ls.contains(f, pos.line, pos.character)]
    if not here:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=ls.hover_text(here)))


@server.feature(types.SHUTDOWN)
def shutdown(ls: JaxlintServer, params):
    for task in ls.pending.values():
        task.cancel()
    ls.executor.shutdown(wait=False, cancel_futures=True)


def main(argv: Optional[Sequence[str]] = None) -> int:

    p = argparse.ArgumentParser(prog="jaxlint server", description="Run the jaxlint language server over standard input and output.")
    p.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    p.parse_args(argv)
    server.start_io()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
