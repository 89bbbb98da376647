"""Which files a run lints.

* A folder is walked for ``*.py`` and ``*.pyi``.  Folders matched by the ``exclude`` list
  (ruff's default list of tool and environment folders unless configured) or by
  ``extend-exclude`` of the configuration that governs them are skipped, as are virtual
  environments (a ``pyvenv.cfg``) and, by default, what git ignores.
* A file named on the command line is linted even when excluded, unless ``force_exclude``
  (what pre-commit needs: it passes every staged file by name).
* Folder symlinks are followed only when they point inside the folder being walked.
* Nothing is skipped silently: a path with no Python file gives a warning, an unreadable folder
  an error.
"""

from __future__ import annotations

import os
import stat
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from jaxlint.config import Config, ListedFolder
from jaxlint.engine.source import file_kind
from jaxlint.paths import relpath

SOURCE_SUFFIXES = (".py", ".pyi")


def _regular_or_unreadable(path: str) -> bool:
    """False only for what exists and is not a regular file (FIFO, device, socket).  A broken
    symlink or a path that cannot be stat'ed is kept: reading it reports the error."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def not_a_file_reason(path: str) -> str:
    """Why a path given on the command line cannot be linted."""
    try:
        st = os.stat(path)
    except OSError:
        return "no such file or directory"
    return f"is not a regular file ({file_kind(st.st_mode)}); use '-' to lint standard input"


def _git_listed(top: str, args: List[str]) -> Optional[Set[str]]:
    """The paths (normalised, under ``top``) that ``git ls-files -z ...`` lists; None when git
    is missing or fails."""
    import subprocess  # imported on use: a run on named files (pre-commit) asks git nothing

    try:
        proc = subprocess.run(["git", *args], cwd=top, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    return {os.path.normpath(os.path.join(top, f)) for f in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if f}


class GitIgnored:
    """What git ignores, asked of git itself (``git ls-files``) once per repository.  Outside a
    repository, or without git, nothing is ignored."""

    def __init__(self) -> None:
        self._repos: Dict[str, Optional[Tuple[Set[str], Set[str]]]] = {}
        self._top_of: Dict[str, Optional[str]] = {}
        self._holds_git: Dict[str, bool] = {}  # folder -> whether its listing has a .git

    def note_listing(self, folder: str, names: Iterable[str]) -> None:
        """The names a walk listed in ``folder`` (absolute, normalised): whether it holds a
        ``.git`` is then known without a ``stat``."""
        self._holds_git[folder] = ".git" in names

    def _toplevel(self, folder: str) -> Optional[str]:
        if folder in self._top_of:
            return self._top_of[folder]
        top = None
        d = folder
        below = []  # the folders passed on the way up share the answer
        while True:
            if d in self._top_of:
                top = self._top_of[d]
                break
            below.append(d)
            holds_git = self._holds_git.get(d)
            if holds_git is None:
                holds_git = os.path.exists(os.path.join(d, ".git"))
            if holds_git:
                top = d
                break
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
        for b in below:
            self._top_of[b] = top
        return top

    def _listing(self, top: str) -> Optional[Tuple[Set[str], Set[str]]]:
        if top in self._repos:
            return self._repos[top]
        got = None
        files = _git_listed(top, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        if files is not None:
            dirs = set()
            for f in files:
                d = os.path.dirname(f)
                while d not in dirs and len(d) >= len(top):
                    dirs.add(d)
                    d = os.path.dirname(d)
            got = (files, dirs)
        self._repos[top] = got
        return got

    def ignored_files(self, paths: Sequence[str]) -> Set[str]:
        """Those of ``paths`` (files) that git ignores.  Git is asked about these files only:
        pre-commit names a handful of files of what may be a very large repository, and listing
        all of it on every commit would cost more than linting them."""
        by_top: Dict[str, List[str]] = {}
        for p in paths:
            full = os.path.normpath(os.path.abspath(p))
            top = self._toplevel(os.path.dirname(full))
            if top is not None:
                by_top.setdefault(top, []).append(full)
        ignored: Set[str] = set()
        for top, fulls in by_top.items():
            for i in range(0, len(fulls), 1000):  # well under any command-line limit
                chunk = fulls[i : i + 1000]
                cmd = ["--literal-pathspecs", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"]
                cmd.extend(os.path.relpath(f, top) for f in chunk)
                listed = _git_listed(top, cmd)
                if listed is not None:  # as for a folder: without git, nothing is ignored
                    ignored.update(f for f in chunk if f not in listed)
        return {p for p in paths if os.path.normpath(os.path.abspath(p)) in ignored}

    def listing_of(self, folder: str) -> Optional[Tuple[Set[str], Set[str]]]:
        """(files, folders) that git does not ignore in the repository of ``folder`` (absolute,
        normalised); None outside a repository, or without git."""
        top = self._toplevel(folder)
        return None if top is None else self._listing(top)

    def ignored(self, path: str, is_dir: bool) -> bool:
        full = os.path.normpath(os.path.abspath(path))
        listing = self.listing_of(full if is_dir else os.path.dirname(full))
        if listing is None:
            return False
        files, dirs = listing
        return full not in (dirs if is_dir else files)


class Discovery:
    def __init__(self) -> None:
        self.files: List[str] = []
        self.missing: List[str] = []  # paths that do not exist or are not files
        self.errors: List[str] = []  # "path: reason" for unreadable folders
        self.warnings: List[str] = []


def discover(
    paths: Sequence[str],
    config_for: Callable[[str], Config],
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    stdin_filename: Optional[str] = None,
) -> Discovery:
    """``stdin_filename``: the name standard input (``-``) stands for; with ``force_exclude``,
    standard input is dropped when that name is excluded, as a named file would be."""
    out = Discovery()
    seen: Set[str] = set()
    git = GitIgnored() if respect_gitignore else None
    if isinstance(config_for, Config):  # one configuration for everything
        fixed = config_for
        config_for = lambda _p: fixed  # noqa: E731
    named_ignored: Set[str] = set()
    if force_exclude and git is not None:
        named_ignored = git.ignored_files([p for p in paths if p != "-" and os.path.lexists(p) and not os.path.isdir(p)])
    # --force-exclude: the exclude lists apply to the paths named on the command line too
    # (a path's folders up to the configuration folder included).
    for p in paths:
        if p == "-":
            if force_exclude and stdin_filename and config_for(p).is_excluded(stdin_filename):
                continue
            out.files.append(p)
            continue
        if not os.path.lexists(p):
            out.missing.append(p)
            continue
        if os.path.isdir(p):
            if force_exclude and config_for(p).is_excluded(p):
                continue
            before = len(out.files)
            for f, key in _walk(p, config_for, git, out.errors):
                if key not in seen:
                    seen.add(key)
                    out.files.append(f)
            if len(out.files) == before and not any(e.startswith(p) for e in out.errors):
                out.warnings.append(f"{p}: no Python files to lint")
            continue
        if force_exclude and (config_for(p).is_excluded(p) or p in named_ignored):
            continue
        if not _regular_or_unreadable(p):  # a FIFO or device named on the command line
            out.missing.append(p)
            continue
        key = os.path.realpath(p)
        if key not in seen:
            seen.add(key)
            out.files.append(p)
    return out


def package_roots(files: Sequence[str]) -> List[str]:
    """The outermost package folder (a chain of ``__init__.py`` folders) above each file, once
    each; a file outside any package has none."""
    roots: List[str] = []
    for f in files:
        if f == "-":
            continue
        folder = os.path.dirname(os.path.abspath(f))
        top = None
        while os.path.isfile(os.path.join(folder, "__init__.py")) or os.path.isfile(os.path.join(folder, "__init__.pyi")):
            top = folder
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        if top is not None and top not in roots:
            roots.append(top)
    return roots


def package_context(
    files: Sequence[str], config_for: Callable[[str], Config], respect_gitignore: bool = True
) -> List[str]:
    """The other modules of the named files' packages (what ``jaxlint pkg`` would lint with
    them), walked with the usual exclusions, for a run that reports the named files only."""
    named = {os.path.realpath(f) for f in files if f != "-"}
    found = discover([os.path.relpath(r) for r in package_roots(files)], config_for, respect_gitignore)
    return [f for f in found.files if os.path.realpath(f) not in named]


def _walk(root: str, config_for: Callable[[str], Config], git: Optional[GitIgnored], errors: List[str]) -> Iterator[Tuple[str, str]]:
    """(path, real path) of each file to lint under ``root``, folder by folder (a folder's files,
    then its subfolders, each in name order).  ``os.scandir`` tells files from folders and
    symlinks without a system call per entry (on a network or virtual filesystem each costs
    more than a file's cached lint), and a real path is asked of the system only for a
    symlink: below a folder whose real path is known, an entry's is that folder's plus its
    name.  Likewise git is asked about absolute paths made from the root's (``abspath`` asks
    the system for the working folder on every call), once per folder for its files, and a
    subfolder's own listing, which walking it needs anyway, tells a virtual environment (a
    ``pyvenv.cfg`` in it).  The folders still to walk are a stack, not nested generators: a
    file deep in the tree would otherwise pass through a generator per level."""
    top_real = os.path.realpath(root)
    visited: Set[str] = set()

    def listing(dirpath: str, absolute: str) -> Tuple[Optional[list], Optional[OSError]]:
        listed = _listing(dirpath)
        if git is not None and listed[0] is not None:
            git.note_listing(absolute, (e.name for e in listed[0]))  # whether it holds a .git
        return listed

    absolute_root = os.path.abspath(root)
    # (path, real path, absolute path, listing, entry in its parent or None for the root),
    # the next to walk last.  A subfolder is checked when its turn comes, once the subfolders
    # before it were walked (a symlink to one of them is then known as visited).
    todo: List[tuple] = [(root, top_real, absolute_root, listing(root, absolute_root), None)]
    while todo:
        dirpath, real, absolute, listed, entry = todo.pop()
        if entry is not None:
            if entry.is_symlink():
                real = os.path.realpath(dirpath)
                # A folder symlink is followed only inside the tree being linted: one pointing
                # elsewhere (a virtualenv, the whole home folder) would lint someone else's code.
                if not (real == top_real or real.startswith(top_real + os.sep)):
                    continue
            if real in visited:  # a symlink loop
                continue
            listed = listing(dirpath, absolute)
            if listed[0] is not None and any(e.name == "pyvenv.cfg" and _is_file(e) for e in listed[0]):
                continue  # a virtual environment: someone else's code
            if config_for(_listed_folder(dirpath, listed)).is_excluded(dirpath):
                continue
            if git is not None and git.ignored(absolute, True):
                continue
        visited.add(real)
        entries, error = listed
        if entries is None:
            errors.append(f"{relpath(error.filename or root)}: cannot read folder: {error.strerror or error}")
            continue
        config = config_for(_listed_folder(dirpath, listed))  # the configuration of a folder governs the files in it
        git_listed = git.listing_of(absolute) if git is not None else None
        # os.path.join(folder, name) of each entry, the folder's part made once
        here, real_here, absolute_here = os.path.join(dirpath, ""), os.path.join(real, ""), os.path.join(absolute, "")
        subfolders = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()  # follows a symlink, as os.walk(followlinks=True) does
            except OSError:
                is_dir = False
            name = entry.name
            if is_dir:
                subfolders.append((here + name, real_here + name, absolute_here + name, None, entry))
                continue
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            full = here + name
            if config.is_excluded(full) or not _entry_regular_or_unreadable(entry, full):
                continue  # a FIFO named x.py would block the run: never opened
            if git_listed is not None and absolute_here + name not in git_listed[0]:
                continue
            yield full, os.path.realpath(full) if entry.is_symlink() else real_here + name
        todo.extend(reversed(subfolders))


def _listing(dirpath: str) -> Tuple[Optional[list], Optional[OSError]]:
    """(the folder's entries in name order, None), or (None, why it cannot be read): the error
    is reported only if the folder is to be walked (an excluded one may well be unreadable)."""
    try:
        with os.scandir(dirpath) as it:
            return sorted(it, key=lambda e: e.name), None
    except OSError as e:
        if e.filename is None:
            e.filename = dirpath
        return None, e


def _listed_folder(dirpath: str, listed: Tuple[Optional[list], Optional[OSError]]) -> str:
    """The folder as the settings are asked for it: with the names its listing holds, which
    tell its configuration files without a ``stat`` per name."""
    entries = listed[0]
    return dirpath if entries is None else ListedFolder(dirpath, (e.name for e in entries))


def _is_file(entry: "os.DirEntry[str]") -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _entry_regular_or_unreadable(entry: "os.DirEntry[str]", full: str) -> bool:
    """``_regular_or_unreadable`` of a folder entry: its type is known without a system call
    unless it is a symlink (followed: a broken one is kept, reading it reports the error)."""
    if entry.is_symlink():
        return _regular_or_unreadable(full)
    try:
        return entry.is_file()
    except OSError:
        return True
