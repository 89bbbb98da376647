"""read -> gate -> parse -> analyse -> rules -> suppressions -> findings.

One engine for every face (CLI, flake8 plugin, pre-commit, formats, dynamic mode).  Nothing
here imports or executes the code being linted.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import libcst as cst
from jaxlint.positions import node_positions

from jaxlint.analysis.scopes import ModuleIndex
from jaxlint.analysis.tracing import EVENTS, Analyzer
from jaxlint.analysis.transforms import TransformFinder
from jaxlint.config import Config
from jaxlint.findings import Finding
from jaxlint.rules import RULES_BY_CODE, selected_rules

NOQA_PREFIX_RE = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]*(?:[,\s]+[A-Z]+[0-9]*)*)", re.IGNORECASE)


def decode_source(data: bytes) -> str:
    """Decode like Python does: BOM, coding cookie, else UTF-8.  Raises UnicodeDecodeError/SyntaxError."""
    enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode(enc)
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


class ModuleContext:
    """What module-level rule checks see."""

    def __init__(self, module, index, finder, analyzer, reporter, text: str = "", jax_versions=(None, None)):
        self.module = module
        self.index = index
        self.finder = finder
        self.analyzer = analyzer
        self.cache: dict = {}
        self._reporter = reporter
        self.text = text
        # (the JAX the code must run on, the oldest JAX it must support): the configured
        # target-jax (default: the newest release jaxlint knows) and min-jax (or None).
        self.target_jax, self.min_jax = jax_versions

    def report(self, rule, node, **fields) -> None:
        self._reporter(rule, node, None, fields)


class _Pending:
    __slots__ = ("rule", "node", "frame", "fields")

    def __init__(self, rule, node, frame, fields):
        self.rule = rule
        self.node = node
        self.frame = frame
        self.fields = fields


def _short(code: str, limit: int = 60) -> str:
    code = " ".join(code.split())
    return code if len(code) <= limit else code[: limit - 3] + "..."


# CPython's tokenizer refuses brackets nested deeper than this ("too many nested parentheses");
# LibCST's parser overflows the C stack (SIGSEGV) at a few thousand levels, so such a file must
# never reach it.
MAX_BRACKET_DEPTH = 200
_BRACKETS_RE = re.compile(r"[\[\](){}]")


def bracket_nesting_error(text: str) -> Optional[Tuple[str, int, int]]:
    """(message, line, column) when brackets nest deeper than Python allows, else None.

    A quick scan that ignores strings and comments decides; only a file it finds deeper than
    the limit is tokenized to know for sure."""
    if sum(text.count(c) for c in "([{") <= MAX_BRACKET_DEPTH:
        return None
    depth = deepest = 0
    for m in _BRACKETS_RE.finditer(text):
        if m.group() in "([{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif depth:
            depth -= 1
    if deepest <= MAX_BRACKET_DEPTH:
        return None
    depth = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type != tokenize.OP:
                continue
            if tok.string in ("(", "[", "{"):
                depth += 1
                if depth > MAX_BRACKET_DEPTH:
                    line, col = tok.start
                    return (f"too many nested parentheses (more than {MAX_BRACKET_DEPTH} levels)", line, col + 1)
            elif tok.string in (")", "]", "}") and depth:
                depth -= 1
    except (tokenize.TokenError, SyntaxError) as e:
        # Not Python either way; and the quick scan says the parser could not take it.
        return (f"syntax error: {e.args[0] if e.args else e}", 1, 1)
    return None


def mentions_jax(text: str, extra: Sequence[str] = ()) -> bool:
    if "jax" in text:
        return True
    return any(e.split(".")[0] in text for e in extra)


def lint_source(
    source,
    path: str = "<string>",
    config: Optional[Config] = None,
    rules=None,
    noqa: bool = True,
    calls: Optional[list] = None,
) -> List[Finding]:
    """Lint one module given as text or bytes.  Never raises for bad input.

    ``noqa=False`` leaves ``# noqa`` comments to the caller (flake8 applies its own).
    ``calls``: when a list, the calls this module's traced code makes with traced arguments
    into imported functions are appended to it (plain dicts; see jaxlint.project)."""
    config = config or Config()
    if rules is None:
        rules = selected_rules(config.select, config.ignore)
    enabled = {r.code for r in rules}
    if isinstance(source, bytes):
        try:
            text = decode_source(source)
        except (UnicodeDecodeError, SyntaxError, LookupError) as e:
            return _meta(path, "JAX001", f"cannot decode file: {e}", 1, 1, enabled)
    else:
        text = source
    if "\x00" in text:  # before the gate: such a file is not Python, whatever it mentions
        return _meta(path, "JAX001", "file contains a NUL byte", 1, 1, enabled)
    if not mentions_jax(text, config.extra_jit_decorators):
        return []
    too_deep = bracket_nesting_error(text)
    if too_deep is not None:
        return _meta(path, "JAX001", too_deep[0], too_deep[1], too_deep[2], enabled)
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as e:
        return _meta(path, "JAX001", f"syntax error: {e.message}", e.raw_line, e.raw_column + 1, enabled)
    except RecursionError:
        return _meta(path, "JAX001", "file is too deeply nested to parse", 1, 1, enabled)
    except Exception as e:  # noqa: BLE001 - the parser may fail in other ways on odd input
        return _meta(path, "JAX001", f"cannot parse file: {type(e).__name__}: {e}", 1, 1, enabled)
    ncalls = len(calls) if calls is not None else 0
    try:
        try:
            findings = _analyse(module, text, path, config, rules, calls)
        except RecursionError:
            # Deeply nested code (the parser accepts far more than the default recursion limit
            # lets the analysis walk): analyse again on a thread with room for it.
            if calls is not None:
                del calls[ncalls:]
            findings = _run_deep(_analyse, module, text, path, config, rules, calls)
    except RecursionError:
        return _meta(path, "JAX002", "RecursionError: file too deeply nested for the analysis", 1, 1, enabled)
    except Exception as e:  # noqa: BLE001 - one file's bug must never stop a run
        return _meta(path, "JAX002", f"{type(e).__name__}: {e}", 1, 1, enabled)
    ignored = config.ignored_for(path)
    if ignored:
        findings = [f for f in findings if not any(f.code.startswith(c) for c in ignored)]
    return apply_noqa(findings, text) if noqa else findings


DEEP_STACK_BYTES = 512 * 1024 * 1024
DEEP_RECURSION_LIMIT = 60_000


def _run_deep(fn, *args):
    """``fn(*args)`` on a thread with a large stack and a raised recursion limit (restored after)."""
    import sys
    import threading

    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
    try:
        threading.stack_size(DEEP_STACK_BYTES)
        try:
            t = threading.Thread(target=target, name="jaxlint-deep")
            t.start()
        finally:
            threading.stack_size(old_stack)
        t.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _meta(path, code, detail, line, col, enabled) -> List[Finding]:
    if code not in enabled:
        return []
    rule = RULES_BY_CODE[code]
    return [
        Finding(
            path=path,
            line=max(1, int(line or 1)),
            column=max(1, int(col or 1)),
            end_line=max(1, int(line or 1)),
            end_column=max(1, int(col or 1)) + 1,
            code=code,
            name=rule.name,
            message=rule.message.format(detail=detail),
            fix=rule.fix,
        )
    ]


def rule_handlers(rules):
    """(rule instances, {event: [bound on_<event> handlers]}) for the analysis rules."""
    instances = [r() for r in rules if r.code not in ("JAX001", "JAX002")]
    handlers: Dict[str, list] = {}
    for ev in EVENTS:
        hs = [getattr(r, "on_" + ev) for r in instances if hasattr(r, "on_" + ev)]
        if hs:
            handlers[ev] = hs
    return instances, handlers


def jax_versions(config: Config):
    from jaxlint.analysis.jax_api_migrations import NEWEST

    return (config.target_jax or NEWEST, config.min_jax)


def _analyse(module: cst.Module, text: str, path: str, config: Config, rules, calls=None) -> List[Finding]:
    instances, handlers = rule_handlers(rules)
    pending: List[_Pending] = []
    seen = set()

    def report(rule, node, frame, fields):
        key = (id(node), rule.code)
        if key in seen:
            return
        seen.add(key)
        pending.append(_Pending(rule, node, frame, fields))

    index = ModuleIndex(module)
    finder = TransformFinder(index, frozenset(config.extra_jit_decorators))
    external = None
    if calls is not None:
        from jaxlint.project import call_recorder

        external = call_recorder(path, calls)
    analyzer = Analyzer(index, finder, handlers, report, external)
    mctx = ModuleContext(module, index, finder, analyzer, report, text, jax_versions(config))
    analyzer.module_ctx = mctx
    analyzer.cache = mctx.cache
    if finder.applications:
        analyzer.run()
    for r in instances:
        check = getattr(r, "check_module", None)
        if check is not None:
            check(mctx)
    if not pending:
        return []
    return _materialise(module, path, pending)


def _materialise(module: cst.Module, path: str, pending: List[_Pending]) -> List[Finding]:
    # Positions are computed only for files with findings: the one costly metadata pass.
    # jaxlint.positions: PositionProvider's ranges without its per-node objects.
    positions = node_positions(module)
    out = []
    for p in pending:
        rng = positions.get(p.node)
        if rng is None:
            continue
        fields = {}
        for k, v in p.fields.items():
            if isinstance(v, cst.CSTNode):
                v = _short(module.code_for_node(v))
            fields[k] = v
        suggestion = fields.pop("suggestion", None)
        fix_safety = fields.pop("fix_safety", None)
        extra_context = fields.pop("context", None)
        if p.frame is not None:
            fields.setdefault("where", p.frame.where)
        rule = p.rule
        message = rule.message.format(**fields)
        fix = rule.fix.format(**fields) if "{" in rule.fix else rule.fix
        context = None
        if p.frame is not None:
            entry = p.frame.entry
            epos = positions.get(entry.func.node)
            context = {
                "function": p.frame.func.name,
                "entry": entry.func.qualname,
                "entry_line": epos.start.line if epos is not None else None,
                "transform": entry.transform.label,
            }
        sugg = None
        if suggestion:
            sugg = {
                "text": suggestion,
                "line": rng.start.line,
                "column": rng.start.column + 1,
                "end_line": rng.end.line,
                "end_column": rng.end.column + 1,
            }
            if fix_safety is not None:
                sugg["safety"] = fix_safety
        if extra_context:
            context = dict(context or {}, **extra_context)
        out.append(
            Finding(
                path=path,
                line=rng.start.line,
                column=rng.start.column + 1,
                end_line=rng.end.line,
                end_column=rng.end.column + 1,
                code=rule.code,
                name=rule.name,
                message=message,
                fix=fix,
                suggestion=sugg,
                context=context,
            )
        )
    out.sort(key=Finding.sort_key)
    return out


def noqa_codes(line: str) -> Optional[Tuple[str, ...]]:
    """None: no noqa; (): bare noqa (everything); else the code prefixes listed."""
    if "#" not in line or "noqa" not in line.lower():
        return None
    m = NOQA_PREFIX_RE.search(line)
    if m:
        return tuple(c.upper() for c in re.split(r"[,\s]+", m.group("codes")) if c)
    if re.search(r"#\s*noqa(?![:\w])", line, re.IGNORECASE):
        return ()
    return None


def apply_noqa(findings: List[Finding], text: str) -> List[Finding]:
    if not findings or "noqa" not in text.lower():
        return findings
    lines = text.splitlines()
    out = []
    for f in findings:
        line = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        codes = noqa_codes(line)
        if codes is None or (codes and not any(f.code.startswith(c) for c in codes)):
            out.append(f)
    return out


def read_and_lint(path: str, display: str, config: Config, rules=None, calls: Optional[list] = None) -> List[Finding]:
    """Read a file and lint it; unreadable files give a JAX001 finding."""
    try:
        data = read_regular_file(path)
    except OSError as e:
        enabled = {r.code for r in (rules or selected_rules(config.select, config.ignore))}
        return _meta(display, "JAX001", f"cannot read file: {e.strerror or e}", 1, 1, enabled)
    return lint_source(data, display, config, rules, calls=calls)


def read_regular_file(path: str) -> bytes:
    """The bytes of a regular file.  Anything else (a FIFO, a device, a socket) raises OSError
    instead of blocking or reading forever: opening is non-blocking, and checked before reading."""
    import errno
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = file_kind(mode)
            raise OSError(errno.EINVAL, f"not a regular file ({kind})", path)
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            return fh.read()
    finally:
        if fd >= 0:
            os.close(fd)


def file_kind(mode: int) -> str:
    import stat

    for test, name in (
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def lint_paths(paths: Iterable[str], config: Optional[Config] = None) -> List[Finding]:
    """Lint files (not folders) and return all findings, sorted."""
    config = config or Config()
    rules = selected_rules(config.select, config.ignore)
    out: List[Finding] = []
    for p in paths:
        out.extend(read_and_lint(p, p, config, rules))
    out.sort(key=Finding.sort_key)
    return out
