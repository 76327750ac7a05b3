"""The table session: devices in, journaled events to the rules, outcomes out.

* :mod:`tabletop.session.core` — :class:`Session` (submit, undo, pause, resume, export)
* :mod:`tabletop.session.journal` — the SQLite journal (WAL, synchronous=FULL)
* :mod:`tabletop.session.clock` — the table clock
* :mod:`tabletop.games` — how each game sits at the table (its adapter, demo script, board)
* :mod:`tabletop.session.devices` — inputs and outputs with their simulated twins
* :mod:`tabletop.session.synthetic`, :mod:`tabletop.session.planner` — the simulated players
"""

from tabletop.session.clock import SimClock, TableClock
from tabletop.session.core import EntryRefused, Result, Session
from tabletop.session.journal import Journal

__all__ = ["EntryRefused", "Journal", "Result", "Session", "SimClock", "TableClock"]
