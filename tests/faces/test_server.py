"""The language server, driven over stdio by a real LSP client (pytest-lsp): diagnostics on
open, change and save, code actions applied, hover, configuration, a file that does not parse,
a clean shutdown, and a server process that never imports JAX."""

import os
import sys
import tempfile

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from clirun import ROOT  # noqa: E402

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]  # starts language-server processes

# The server process writes the names of the modules it imported here when it exits.
MODULES_DIR = tempfile.mkdtemp(prefix="jaxlint-server-modules-")
LAUNCH = (
    "import atexit, os, sys\n"
    "def _record():\n"
    f"    with open(os.path.join({MODULES_DIR!r}, str(os.getpid())), 'w') as fh:\n"
    "        fh.write('\\n'.join(sorted(sys.modules)))\n"
    "atexit.register(_record)\n"
    "from jaxlint.cli import main\n"
    "sys.exit(main(['server']))\n"
)
ENV = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))

SRC = '''import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    print("x", x)
    return x if x.sum() > 0 else -x
'''


@pytest.fixture
def project(tmp_path):
    # The server runs the rules the configuration enables: preview is turned on there, since
    # the examples' findings are preview rules' (JAX101, JAX301, JAX307).
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\npreview = true\nignore = ['JAX306']\n")
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", LAUNCH], server_env=ENV))
async def client(lsp_client: LanguageClient, project):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=project.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


def _open(client, path, text, version=1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="python", version=version, text=text)
        )
    )


async def _diagnostics(client, uri):
    while True:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if uri in client.diagnostics:
            return client.diagnostics.pop(uri)


def _summary(diags):
    return [
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.severity, d.source)
        for d in diags
    ]


def _apply(text, edits):
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def off(p):
        return offsets[min(p.line, len(lines))] + p.character

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end):]
    return text


async def test_diagnostics_on_open(client, project):
    path = project / "m.py"
    _open(client, path, SRC)
    diags = await _diagnostics(client, path.as_uri())
    E, W = types.DiagnosticSeverity.Error, types.DiagnosticSeverity.Warning
    assert _summary(diags) == [("JAX302", 6, 4, 6, 17, W, "jaxlint"), ("JAX101", 7, 16, 7, 27, E, "jaxlint")]
    assert diags[0].message == "`print()` of traced value `x` in jitted step() runs only while tracing and shows a tracer, not its value"
    assert [d.code_description.href for d in diags] == [
        "https://github.com/jaxlint/jaxlint/blob/main/docs/rules.md#jax302",
        "https://github.com/jaxlint/jaxlint/blob/main/docs/rules.md#jax101",
    ]


FROZEN = """import jax

learning_rate = 0.1


@jax.jit
def sgd_step(w, g):
    return w - learning_rate * g


def decay():
    global learning_rate
    learning_rate = 0.05


def train(w):
    for _ in range(3):
        w = sgd_step(w, 1.0)
        decay()
    return w
"""


async def test_related_information_points_where_a_captured_value_changes(client, project):
    path = project / "frozen.py"
    _open(client, path, FROZEN)
    (diag,) = await _diagnostics(client, path.as_uri())
    assert _summary([diag]) == [("JAX301", 7, 15, 7, 28, types.DiagnosticSeverity.Warning, "jaxlint")]
    assert [(r.location.uri, r.location.range, r.message) for r in diag.related_information] == [
        (
            path.as_uri(),
            types.Range(types.Position(line=12, character=4), types.Position(line=12, character=17)),
            "`learning_rate` gets a new value here",
        )
    ]
    # A finding with nothing related has no related information.
    _open(client, project / "m.py", SRC)
    assert [d.related_information for d in await _diagnostics(client, (project / "m.py").as_uri())] == [None, None]


WRAPPED = """from functools import partial

import jax
import jax.numpy as jnp


class Config:
    def __init__(self, scale):
        self.scale = scale


@partial(jax.jit, static_argnums=1)
def apply(x, cfg):
    return x * cfg.scale


def forward(x, cfg):
    return apply(x, cfg)


def main():
    cfg = Config(2.0)
    y = forward(jnp.ones(3), cfg)
    cfg.scale = 3.0
    return forward(y, cfg)
"""


async def test_related_information_carries_every_related_location_in_order(client, project):
    path = project / "wrapped.py"
    _open(client, path, WRAPPED)
    (diag,) = await _diagnostics(client, path.as_uri())
    assert _summary([diag]) == [("JAX307", 23, 4, 23, 13, types.DiagnosticSeverity.Warning, "jaxlint")]

    def at(line, start, end):  # 0-based, as the protocol counts
        return types.Range(types.Position(line=line, character=start), types.Position(line=line, character=end))

    assert [(r.location.uri, r.location.range, r.message) for r in diag.related_information] == [
        (path.as_uri(), at(22, 8, 33), "jitted apply() is compiled for `cfg` here"),
        (path.as_uri(), at(17, 11, 24), "the call above reaches jitted apply() here"),
        (path.as_uri(), at(13, 15, 24), "`cfg.scale` is read here at trace time"),
    ]


async def test_unsaved_changes_are_linted(client, project):
    path = project / "m.py"
    path.write_text("import jax\n")  # the file on disk is clean; the buffer is not
    _open(client, path, SRC)
    assert len(await _diagnostics(client, path.as_uri())) == 2
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=SRC.replace('    print("x", x)\n', ""))],
        )
    )
    assert _summary(await _diagnostics(client, path.as_uri())) == [("JAX101", 6, 16, 6, 27, types.DiagnosticSeverity.Error, "jaxlint")]
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri())))
    assert len(await _diagnostics(client, path.as_uri())) == 1


async def _actions(client, path, line, only=None, character=4):
    rng = types.Range(types.Position(line=line, character=character), types.Position(line=line, character=character))
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            range=rng,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )


async def test_code_actions_apply(client, project):
    path = project / "m.py"
    _open(client, path, SRC)
    await _diagnostics(client, path.as_uri())
    actions = await _actions(client, path, 6)
    assert [(a.title, a.kind) for a in actions] == [
        ("JAX302: Replace with `jax.debug.print`", "quickfix"),
        ("JAX302: Ignore with `# noqa: JAX302`", "quickfix"),
        ("jaxlint: Fix all safe problems", "source.fixAll.jaxlint"),
    ]
    (edit,) = actions[0].edit.document_changes
    assert _apply(SRC, edit.edits) == SRC.replace('print("x", x)', 'jax.debug.print("x {}", x)')
    (noqa,) = actions[1].edit.document_changes
    assert _apply(SRC, noqa.edits) == SRC.replace('print("x", x)', 'print("x", x)  # noqa: JAX302')
    unsafe = await _actions(client, path, 7, character=20)
    assert unsafe[0].title == "JAX101: Replace with `jnp.where` (unsafe fix)"
    assert not unsafe[0].is_preferred
    (fixed,) = unsafe[0].edit.document_changes
    assert _apply(SRC, fixed.edits) == SRC.replace("return x if x.sum() > 0 else -x", "return jnp.where(x.sum() > 0, x, -x)")
    fix_all = await _actions(client, path, 0, only=["source.fixAll"])
    assert [a.kind for a in fix_all] == ["source.fixAll.jaxlint"]
    (all_edit,) = fix_all[0].edit.document_changes
    assert _apply(SRC, all_edit.edits) == SRC.replace('print("x", x)', 'jax.debug.print("x {}", x)')


async def test_hover_explains_the_rule(client, project):
    path = project / "m.py"
    _open(client, path, SRC)
    await _diagnostics(client, path.as_uri())
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line=6, character=6))
    )
    text = hover.contents.value
    assert text.startswith("**JAX302** `print-in-traced`: `print()` of traced value `x`")
    assert "What it does" in text and "jax.debug.print" in text
    nothing = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=types.Position(line=0, character=0))
    )
    assert nothing is None


async def test_configuration_from_pyproject(client, project):
    path = project / "noisy.py"
    _open(client, path, "import jax\nimport time\n\n@jax.jit\ndef f(x):\n    return x + time.time()\n")
    assert list(await _diagnostics(client, path.as_uri())) == []  # JAX306 is ignored in pyproject.toml


async def test_a_file_that_does_not_parse_is_reported_and_the_server_goes_on(client, project):
    bad = project / "bad.py"
    _open(client, bad, "import jax\ndef f(:\n")
    assert [d.code for d in await _diagnostics(client, bad.as_uri())] == ["JAX001"]
    good = project / "m.py"
    _open(client, good, SRC)
    assert len(await _diagnostics(client, good.as_uri())) == 2


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", LAUNCH], server_env=ENV))
async def bare_client(lsp_client: LanguageClient, project):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("neovim"), root_uri=project.as_uri())
    )
    yield


async def test_clean_shutdown_and_jax_never_imported(bare_client, project):
    path = project / "m.py"
    _open(bare_client, path, SRC)
    assert len(await _diagnostics(bare_client, path.as_uri())) == 2
    await bare_client.shutdown_session()
    process = bare_client._server
    assert process.returncode == 0
    with open(os.path.join(MODULES_DIR, str(process.pid))) as fh:
        modules = fh.read().split()
    assert "jaxlint.server" in modules and "pygls" in modules
    assert not [m for m in modules if m == "jax" or m.startswith(("jax.", "jaxlib"))]


async def test_a_slow_file_does_not_hold_up_the_others(client, project):
    slow = project / "slow.py"
    big = "import jax\n\n" + "".join(f"@jax.jit\ndef f{i}(x):\n    if x > {i}:\n        x = x - 1\n    return x\n\n\n" for i in range(500))
    fast = project / "m.py"
    order = []
    _open(client, slow, big)
    _open(client, fast, SRC)
    while len(order) < 2:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        for uri in (slow.as_uri(), fast.as_uri()):
            if uri in client.diagnostics and uri not in order:
                order.append(uri)
    assert order == [fast.as_uri(), slow.as_uri()]
    assert len(client.diagnostics[slow.as_uri()]) == 500


ELSEWHERE = tempfile.mkdtemp(prefix="jaxlint-server-cwd-")
LAUNCH_ELSEWHERE = f"import os\nos.chdir({ELSEWHERE!r})\n" + LAUNCH

CONFIGURED = {
    "pyproject.toml": (
        "[tool.jaxlint]\npreview = true\nextend-exclude = ['gen/*']\n\n"
        "[tool.jaxlint.per-file-ignores]\n'legacy/*' = ['JAX302']\n'src/*' = ['JAX101']\n"
    ),
    "legacy/old.py": SRC,
    "src/model.py": SRC,
    "gen/made.py": SRC,
    "top.py": SRC,
}


@pytest.fixture
def configured(tmp_path):
    for name, text in CONFIGURED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", LAUNCH_ELSEWHERE], server_env=ENV))
async def elsewhere_client(lsp_client: LanguageClient, configured):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=configured.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


async def test_a_server_started_in_another_folder_reports_what_the_cli_reports(elsewhere_client, configured):
    """per-file-ignores and extend-exclude are matched against each file's real path relative
    to the configuration file, not against the server's working folder."""
    import re

    from clirun import jaxlint

    cli = jaxlint(["--no-cache", "--force-exclude", "--output-format", "concise", *CONFIGURED], cwd=str(configured))
    expected = {}
    for path, line, col, code in re.findall(r"^(\S+\.py):(\d+):(\d+): (JAX\d{3}) ", cli.stdout.decode(), re.M):
        expected.setdefault(path, []).append((code, int(line) - 1, int(col) - 1))
    assert expected == {
        "legacy/old.py": [("JAX101", 7, 16)],
        "src/model.py": [("JAX302", 6, 4)],
        "top.py": [("JAX302", 6, 4), ("JAX101", 7, 16)],
    }
    for name in CONFIGURED:
        if not name.endswith(".py"):
            continue
        path = configured / name
        _open(elsewhere_client, path, SRC)
        diags = await _diagnostics(elsewhere_client, path.as_uri())
        got = sorted((d.code, d.range.start.line, d.range.start.character) for d in diags)
        assert got == sorted(expected.get(name, [])), name
