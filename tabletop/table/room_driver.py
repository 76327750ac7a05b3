"""A headless table in a room, for crash tests and the room benchmark:
``python -m tabletop.table.room_driver JOURNAL SCRIPT URL TABLE [PACE]``.

SCRIPT is a JSON file made by :func:`write_script` (a game's demo, played once in memory: its
set-up and its journal's events and undos, each with its table time). The driver creates the
game in JOURNAL (or resumes it after a crash), joins the room at URL as table TABLE, and plays the
steps from ``journal.count(game)`` on, ``PACE`` real seconds apart, so a killed driver restarted
carries on without losing or repeating an input. Prints ``ready N`` once joined, ``done`` when
the game is over and the outbox is empty, then stays linked (answering the room) until its
standard input closes.
"""

from __future__ import annotations

import json
import pathlib
import sys
import time
from typing import Any

from rules.game import GameSetup
from tabletop.room.address import RoomAddress
from tabletop.room.link import TableLink
from tabletop.session.clock import SimClock
from tabletop.session.core import Session, load_game_parts
from tabletop.session.journal import Journal
from tabletop.table.runner import run_script


def demo_steps(game: str, seed: int = 7) -> dict[str, Any]:
    """``{"setup", "steps"}``: ``game``'s demo played once in memory, as journal steps."""
    from tabletop.decks import builtin_deck
    from tabletop.games import spec as game_spec
    spec = game_spec(game)
    demo = spec.demo
    if demo is None:
        raise ValueError(f"{game} has no demo")
    setup = {"game": game, "variant": demo.variant, "players": list(demo.players), "seed": seed, "language": "en",
             "rounds": None, "board": spec.board or "", "lexicon": None, "options": dict(demo.options)}
    board, lexicon = load_game_parts(setup)
    deck = builtin_deck("en").shuffled(seed) if spec.table.uses_clue_deck else None
    gs = GameSetup(game, tuple(demo.players), variant=demo.variant, seed=seed, options=dict(demo.options))
    session = Session.create(Journal(":memory:"), gs, spec.board or "", board=board, lexicon=lexicon,
                             clock=SimClock(), deck=deck, game_id="script")
    run_script(session, demo.script(lambda: session.game, deck, seed=seed))
    steps = []
    for entry in session.journal.entries("script"):
        if entry.kind == "event":
            steps.append({"kind": "event", "event": entry.body, "source": entry.source})
        elif entry.kind == "undo":
            steps.append({"kind": "undo"})
    return {"setup": setup, "steps": steps, "totals": session.game.totals}


def write_script(path: str | pathlib.Path, game: str, seed: int = 7) -> dict[str, Any]:
    script = demo_steps(game, seed)
    pathlib.Path(path).write_text(json.dumps(script), encoding="utf-8")
    return script


def main(argv: list[str]) -> int:
    journal_path, script_path, url, table = argv[:4]
    pace = float(argv[4]) if len(argv) > 4 else 0.02
    script = json.loads(pathlib.Path(script_path).read_text(encoding="utf-8"))
    setup, game_id = script["setup"], f"table-{table}"
    journal = Journal(journal_path)
    board, lexicon = load_game_parts(setup)
    if journal.game(game_id) is None:
        gs = GameSetup(setup["game"], tuple(setup["players"]), variant=setup.get("variant"), seed=setup.get("seed", 0),
                       options=dict(setup.get("options") or {}))
        session = Session.create(journal, gs, setup["board"], board=board, lexicon=lexicon, clock=SimClock(),
                                 game_id=game_id)
    else:
        session = Session.resume(journal, game_id, board=board, lexicon=lexicon, clock=SimClock())
    link = TableLink(session, RoomAddress.parse(url), table).start()
    print(f"ready {journal.count(game_id)}", flush=True)
    for step in script["steps"][journal.count(game_id):]:
        time.sleep(pace)
        if step["kind"] == "event":
            session.clock.set(step["event"]["t"])           # type: ignore[attr-defined]
            session.submit(step["event"], source=step.get("source"))
        else:
            session.undo()
    session.finish()
    link.collect()
    deadline = time.monotonic() + 60
    while len(link.outbox) and time.monotonic() < deadline:
        time.sleep(0.05)
    print("done", flush=True)
    sys.stdin.read()                 # linked until told to go (the room may still ask for a gap)
    link.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
