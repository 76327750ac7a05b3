"""Where a demo keeps its journal: a fresh folder in the temporary directory, the oldest pruned.

Each demo writes a real journal (so ``tabletop replay`` and ``resume`` work on it afterwards), and
a day of demos used to leave one folder each in ``/tmp``. Only the newest :data:`KEPT` demo
folders of this user are kept; older ones are removed when a new demo starts.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import tempfile

PREFIX = "tabletop-demo-"
KEPT = 20   #: demo folders kept in the temporary directory


def _ours(path: pathlib.Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and path.stat().st_uid == os.getuid()
    except OSError:
        return False


def new_demo_journal(root: str | os.PathLike[str] | None = None, *, keep: int = KEPT) -> pathlib.Path:
    """Make a new demo folder under ``root`` (the temporary directory) and return its journal path.

    The newest ``keep`` demo folders (this one included) stay; older ones of this user go.

    >>> new_demo_journal(tempfile.mkdtemp()).name
    'journal.sqlite'
    """
    base = pathlib.Path(root if root is not None else tempfile.gettempdir())
    folder = pathlib.Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))
    older = sorted((p for p in base.glob(PREFIX + "*") if p != folder and _ours(p)),
                   key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in older[max(0, keep - 1):]:
        shutil.rmtree(stale, ignore_errors=True)
    return folder / "journal.sqlite"
