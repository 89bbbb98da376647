"""``python -m jaxlint.dynamic.worker PLAN OUT``: the worker process (jaxlint.dynamic.worker.entry);
``python -m jaxlint.dynamic.worker --serve``: the fork server (jaxlint.dynamic.worker.server)."""

import os
import sys

if __name__ == "__main__":
    # The CPU platform, chosen before the worker's modules import JAX (JAX reads it then).
    os.environ["JAX_PLATFORMS"] = "cpu"
    if sys.argv[1:] == ["--serve"]:
        from jaxlint.dynamic.worker.server import serve as run
    else:
        from jaxlint.dynamic.worker.entry import main

        def run():
            return main(sys.argv)

    rc = run()
    sys.stdout.flush()
    sys.stderr.flush()
    # Do not wait for threads the user's module may have started.
    os._exit(rc)
