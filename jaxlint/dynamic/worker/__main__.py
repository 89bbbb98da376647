"""``python -m jaxlint.dynamic.worker PLAN OUT``: the worker process (jaxlint.dynamic.worker.entry)."""

import os
import sys

from jaxlint.dynamic.worker.entry import main

if __name__ == "__main__":
    rc = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Do not wait for threads the user's module may have started.
    os._exit(rc)
