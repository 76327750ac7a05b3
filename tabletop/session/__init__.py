"""The table session: devices in, journaled events to the rules, outcomes out.

* :mod:`tabletop.session.core` — :class:`Session` (submit, undo, pause, resume, export)
* :mod:`tabletop.session.journal` — the SQLite journal (WAL, synchronous=FULL)
* :mod:`tabletop.session.clock` — the table clock
* :mod:`tabletop.games` — how each game sits at the table (its adapter, demo script, board)
* :mod:`tabletop.session.devices` — inputs and outputs with their simulated twins
* :mod:`tabletop.players.synthetic`, :mod:`tabletop.players.planner` — the simulated players
"""

from __future__ import annotations

import importlib
from typing import Any

#: name -> module; imported on first use, so that importing a submodule stays cheap
_EXPORTS = {"SimClock": "clock", "TableClock": "clock", "EntryRefused": "core", "Result": "core",
            "Session": "core", "Journal": "journal"}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"tabletop.session.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'tabletop.session' has no attribute {name!r}")
