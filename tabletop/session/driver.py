"""A fast, idempotent session driver for crash tests: ``python -m tabletop.session.driver JOURNAL SCRIPT``.

SCRIPT is a JSON file: ``{"game_id": ..., "setup": {...session set-up...}, "steps": [...]}``; each
step is ``{"kind": "event", "event": {...with t...}, "source": ...}`` or ``{"kind": "undo"}`` and
makes exactly one journal entry, so after a crash the driver resumes the game and carries on
from step ``journal.count(game)``: an input is never lost (it is journaled before it counts) nor
doubled (a journaled input is never submitted again). Prints ``ready`` once resumed, ``done``
at the end.
"""

from __future__ import annotations

import json
import sys

from tabletop.session.clock import SimClock
from tabletop.session.core import Session, load_game_parts
from tabletop.session.journal import Journal
from rules.game import GameSetup


def main(argv: list[str]) -> int:
    journal_path, script_path = argv[:2]
    script = json.loads(open(script_path, encoding="utf-8").read())
    journal = Journal(journal_path)
    game_id, setup = script["game_id"], script["setup"]
    board, lexicon = load_game_parts(setup)
    if journal.game(game_id) is None:
        gs = GameSetup(setup["game"], tuple(setup["players"]), variant=setup.get("variant"), seed=setup.get("seed", 0),
                       language=setup.get("language", "en"), rounds=setup.get("rounds"))
        session = Session.create(journal, gs, setup["board"], setup.get("lexicon"), board=board, lexicon=lexicon,
                                 clock=SimClock(), game_id=game_id, tokens=setup.get("tokens"))
        pending = 0
    else:
        pending = sum(1 for e in journal.entries(game_id) if e.status == "pending")
        session = Session.resume(journal, game_id, board=board, lexicon=lexicon, clock=SimClock())
    print(f"ready {journal.count(game_id)} pending={pending}", flush=True)
    steps = script["steps"]
    for step in steps[journal.count(game_id):]:
        if step["kind"] == "event":
            session.clock.set(step["event"]["t"])
            session.submit(step["event"], source=step.get("source"))
        elif step["kind"] == "undo":
            session.undo()
        else:
            raise ValueError(f"unknown step {step['kind']!r}")
    session.finish()
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
