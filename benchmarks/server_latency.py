"""Time from ``didOpen`` to the first ``publishDiagnostics`` of the language server, on a warm
server (already initialised, one other document linted), for a ~500-line file.

    python benchmarks/server_latency.py [FILE.py] [--repeat N]

Without FILE, a ~490-line module is built from two fixtures (real JAX code full of findings).
Each repetition opens the file under a new URI, so nothing is reused from an earlier lint.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time

from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sample_module() -> str:
    """Two whole fixtures, about 490 lines: real JAX code with many findings."""
    parts = []
    for name in ("control_flow.py", "concretization.py"):
        with open(os.path.join(ROOT, "fixtures", name), encoding="utf-8") as fh:
            parts.append(fh.read())
    return "\n\n".join(parts)


async def measure(text: str, repeat: int) -> list:
    client = LanguageClient("jaxlint-bench", "1")
    arrived: dict = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams):
        event = arrived.get(params.uri)
        if event is not None:
            event[1] = time.perf_counter()
            event[2] = len(params.diagnostics)
            event[0].set()

    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    await client.start_io(sys.executable, "-m", "jaxlint", "server", env=env)
    folder = tempfile.mkdtemp(prefix="jaxlint-bench-")
    await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri="file://" + folder))
    client.initialized(types.InitializedParams())

    async def open_and_wait(name: str):
        uri = "file://" + os.path.join(folder, name)
        arrived[uri] = [asyncio.Event(), None, None]
        start = time.perf_counter()
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
        )
        await asyncio.wait_for(arrived[uri][0].wait(), 60)
        return arrived[uri][1] - start, arrived[uri][2]

    await open_and_wait("warmup.py")  # imports, first lint: what a warm server has behind it
    times = []
    for i in range(repeat):
        times.append(await open_and_wait(f"file_{i}.py"))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("file", nargs="?")
    p.add_argument("--repeat", type=int, default=10)
    args = p.parse_args()
    if args.file:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    else:
        text = sample_module()
    results = asyncio.run(measure(text, args.repeat))
    seconds = [t for t, _ in results]
    print(f"{len(text.splitlines())} lines, {results[0][1]} diagnostics")
    print(f"didOpen -> publishDiagnostics on a warm server: median {statistics.median(seconds) * 1000:.0f} ms, "
          f"max {max(seconds) * 1000:.0f} ms over {len(seconds)} opens (target < 500 ms)")


if __name__ == "__main__":
    main()
