"""The registries filled by a package's own modules (games, kinds of piece): each module
registers itself when imported, so no list anywhere names them; :func:`import_all` imports them.

>>> import_all("tabletop.pieces", skip=("demo_camera",))
>>> "tabletop.pieces.tiles" in __import__("sys").modules
True
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Iterable

_imported: set[str] = set()


def import_all(package: str, skip: Iterable[str] = ()) -> None:
    """Import every module of ``package`` (once), but ``skip`` and private ``_`` ones."""
    if package in _imported:
        return
    _imported.add(package)
    skipped = set(skip)
    for info in pkgutil.iter_modules(importlib.import_module(package).__path__):
        if info.name not in skipped and not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")
