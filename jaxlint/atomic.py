"""Writing a file in place without ever leaving it half written.

The new content goes to a temporary file in the same folder, is flushed to disk, takes the
old file's mode (and owner, where the process may set it), and then replaces the old file with
one ``os.replace``: a reader, a crash or a full disk sees either the old file or the new one.
A symbolic link is followed: its target is replaced and the link stays.

A file whose mode has no write bit is refused with ``PermissionError`` even for root, who could
replace it: read-only says "do not change this", and root ignores permission bits otherwise.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import Callable, Optional


def write_bytes(path: str, data: bytes) -> None:
    """Replace ``path``'s content with ``data`` atomically.  Raises OSError (the file is then as
    it was, and no temporary file is left)."""
    target = os.path.realpath(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "not a regular file", path) if stat.S_ISDIR(st.st_mode) else OSError(errno.EINVAL, "not a regular file", path)
    if st is not None and not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(errno.EACCES, "the file is read-only", path)

    def take_mode(tmp: str) -> None:
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
            if hasattr(os, "chown"):
                try:
                    os.chown(tmp, st.st_uid, st.st_gid)
                except OSError:
                    pass  # only root (or the owner, for its groups) may: keep what we can
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # what open() would have made (mkstemp makes 0600)

    replace_through_temporary(target, data, "." + os.path.basename(target) + ".", ".jaxlint-tmp", sync=True, prepare=take_mode)


def replace_through_temporary(target: str, data: bytes, prefix: str, suffix: str, sync: bool, prepare: Optional[Callable[[str], None]] = None) -> None:
    """Write ``data`` to a new temporary file in ``target``'s folder (flushed to disk when
    ``sync``), let ``prepare`` set its mode, and ``os.replace`` ``target`` with it.  The
    temporary file (mode 0600) is removed when anything fails."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=os.path.dirname(target) or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        if prepare is not None:
            prepare(tmp)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def describe(e: OSError) -> str:
    """``No space left on device``: the reason of a failed write, for one line of output."""
    return e.strerror or str(e)
