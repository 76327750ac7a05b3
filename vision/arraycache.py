"""Arrays computed once and kept on disk, memory-mapped read-only on later runs.

A command that reads one photo should not redraw a board's printed look or inflate the letter
network's weights every time, nor hold private copies of them: :func:`arrays` keeps a named set
of arrays as ``.npy`` files in one folder per key, and maps them back in, so only the pages a
read actually touches come into memory (shared, through the page cache, by every process that
maps them). The key names what the arrays were made from (a hash of their source); a new source
is a new folder. A folder that is damaged or half deleted is built again; an unwritable cache is
no cache, never an error.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> build = lambda: {"ones": np.ones(3, np.float32), "scale": np.float64(0.5)}
>>> first = arrays(folder, "demo-1", build)            # built and written
>>> again = arrays(folder, "demo-1", build)            # mapped from the files
>>> again["ones"].tolist(), float(again["scale"]), again["ones"].flags.writeable
([1.0, 1.0, 1.0], 0.5, False)
>>> sorted(p.name for p in (folder / "demo-1").iterdir())
['names.txt', 'ones.npy', 'scale.npy']
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
from typing import Callable, Mapping

import numpy as np

#: the file that lists a folder's arrays; written last, so a folder without it was never finished
MANIFEST = "names.txt"


def source_key(*parts: str | bytes | os.PathLike[str]) -> str:
    """A short hash of what arrays are made from: strings, bytes, and files (by their content).

    >>> source_key("board", b"1") == source_key("board", b"1") != source_key("board", b"2")
    True
    """
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, os.PathLike):
            with open(part, "rb") as handle:
                digest.update(hashlib.file_digest(handle, "sha256").digest())
        else:
            digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def arrays(folder: pathlib.Path | None, key: str,
           build: Callable[[], Mapping[str, np.ndarray | np.generic | float]]) -> dict[str, np.ndarray]:
    """The arrays ``build()`` makes, kept in ``folder / key``: mapped read-only from there when
    they are already kept, else built, written (atomically) and returned as built. Names must be
    file names; scalars come back as 0-d arrays. ``folder`` None: always built, nothing kept."""
    if folder is None:
        return {name: np.asarray(value) for name, value in build().items()}
    place = folder / key
    try:
        return _load(place)
    except FileNotFoundError:
        damaged = place.exists()
    except (OSError, ValueError, EOFError):
        damaged = True
    made = {name: np.asarray(value) for name, value in build().items()}
    try:
        _store(place, made, damaged)
    except OSError:
        pass                                   # no cache: the arrays work all the same
    return made


def _load(place: pathlib.Path) -> dict[str, np.ndarray]:
    names = (place / MANIFEST).read_text(encoding="utf-8").split()
    if not names:
        raise ValueError(f"{place} lists no arrays")
    # np.asarray: a plain ndarray view of each map (the map stays open while the view lives)
    return {name: np.asarray(np.load(place / f"{name}.npy", mmap_mode="r", allow_pickle=False)) for name in names}


def _store(place: pathlib.Path, made: Mapping[str, np.ndarray], damaged: bool) -> None:
    """Write the arrays into a fresh folder beside ``place`` and rename it into place; a damaged
    ``place`` is moved aside first (another process may still map its files)."""
    place.parent.mkdir(parents=True, exist_ok=True)
    tmp = place.with_name(f"{place.name}.{os.getpid()}.tmp")
    _discard(tmp)
    tmp.mkdir()
    try:
        for name, value in made.items():
            np.save(tmp / f"{name}.npy", value, allow_pickle=False)
        (tmp / MANIFEST).write_text("\n".join(made) + "\n", encoding="utf-8")
        if damaged:
            old = place.with_name(f"{place.name}.{os.getpid()}.old")
            os.replace(place, old)
            _discard(old)
        os.replace(tmp, place)                 # fails if another process put a whole copy there first
    finally:
        _discard(tmp)


def _discard(path: pathlib.Path) -> None:
    """Remove a folder or file, if it is there."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
