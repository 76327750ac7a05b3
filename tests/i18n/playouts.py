"""Random playouts of every registered game at the table, collecting every sentence the rules
and the session show: results (accepted and refused), host replies, refused entries, and the
texts of the scoreboard, host and seat views (:data:`tabletop.i18n.views.TEXT_KEYS`).

A playout is seeded (the same seed plays the same game): it presses the host's buttons, types
entries into the open windows (right ones from the dice, the tray or the rack, and absurd ones),
submits fuzzed events, undoes, and lets the clock run out.
"""

from __future__ import annotations

import functools
import random
import string
from typing import Any, Iterator

from tabletop.i18n.views import texts_of

FUZZ_TEXTS = ["", "cat", "CAT", "tea", "a", "zzzz", "?", "ICE CREAM", "кіт", "море", "*", "12", "x" * 30]
FUZZ_TYPES = ["write", "word", "pass", "remove", "challenge", "roll", "place", "exchange", "play", "draw",
              "answer", "buzz", "end", "end_round", "undo_word", "clue", "time", "shake", "tray", "cross"]
PLAYERS = ["Ann", "Ben", "Cai", "Dee", "Zed", "", "host"]


@functools.lru_cache(maxsize=None)
def _parts(game_id: str, language: str) -> tuple[Any, Any, Any]:
    from tabletop.decks import builtin_deck
    from tabletop.errors import UserError
    from tabletop.games import spec as game_spec
    from tabletop.lexicons import builtin_lexicon
    from tabletop.resources import load_board
    spec = game_spec(game_id)
    board = load_board(spec.board, required=spec.rules.board_layers) if spec.board else None
    deck = None
    if spec.table.uses_clue_deck:
        try:
            deck = builtin_deck(language)
        except UserError:            # no printed deck in this language: the host reads the clues
            deck = None
    return board, builtin_lexicon(language), deck


def _fuzzed_event(rng: random.Random, players: tuple[str, ...]) -> dict[str, Any]:
    event: dict[str, Any] = {"type": rng.choice(FUZZ_TYPES), "player": rng.choice(list(players) + PLAYERS)}
    for key, values in (("text", FUZZ_TEXTS), ("word", FUZZ_TEXTS), ("row", [-1, 0, 1, 2, 5, 7, 13, 40, "3"]),
                        ("col", [-1, 0, 3, 7, 14, 30]), ("dir", ["across", "down", "diagonal"]),
                        ("letter", ["A", "", "Я", "ab"]), ("tiles", ["AB", "", "?", "ЯЮ"]),
                        ("faces", [["C", "A", "T", "E"], ["К", "І", "Т", "*"], [], ["??"]])):
        if rng.random() < 0.4:
            event[key] = rng.choice(values)
    return event


def _entry(rng: random.Random, session: Any, window: dict[str, Any]) -> dict[str, Any]:
    letters = [str(x) for x in (session.view().get("dice") or [])]
    pool = "".join(letters).replace("*", "") or string.ascii_lowercase
    text = "".join(rng.choice(pool) for _ in range(rng.randint(1, 6))) if rng.random() < 0.6 else rng.choice(FUZZ_TEXTS)
    entry: dict[str, Any] = {}
    for field in window.get("fields", ["text"]):
        if field == "text":
            entry["text"] = text
        elif field in ("row", "col"):
            entry[field] = rng.choice([1, 2, 3, 4, 5, 6, 8, 12, 0, 99])
        elif field == "dir":
            entry["dir"] = rng.choice(["across", "down"])
        elif field == "square":
            entry["square"] = rng.choice(["H8", "A1", "Z99", "C3"])
        else:
            entry[field] = rng.choice([text, 1, "", "yes"])
    if rng.random() < 0.1:
        entry["cross"] = True
    return entry


def playout(game_id: str, language: str, seed: int, steps: int = 120) -> Iterator[str]:
    """Every sentence shown during one seeded random playout of ``game_id`` in ``language``."""
    from rules.errors import RulesError
    from rules.game import GameSetup
    from tabletop.games import spec as game_spec
    from tabletop.session import Journal, Session, SimClock, host_commands
    from tabletop.session.core import EntryRefused

    spec = game_spec(game_id)
    board, lexicon, deck = _parts(game_id, language)
    rng = random.Random(f"{game_id}:{language}:{seed}")
    demo = spec.demo
    players = demo.players if demo else ("Ann", "Ben", "Cai")
    setup = GameSetup(game_id, players, variant=demo.variant if demo else None, seed=seed, language=language,
                      options=dict(demo.options) if demo else {})
    session = Session.create(Journal(":memory:"), setup, spec.board or "", board=board, lexicon=lexicon,
                             clock=SimClock(), deck=deck.shuffled(seed) if deck else None, game_id="i18n")
    shown: list[str] = []
    session.subscribe(lambda message: shown.extend(texts_of(message)))

    def views() -> Iterator[str]:
        yield from texts_of(session.host_view())
        yield from texts_of(session.view())
        for seat in players:
            yield from texts_of(session.seat_view(seat, buzzers=True, scan=False))

    try:
        for _ in range(steps):
            roll = rng.random()
            try:
                if roll < 0.35:
                    actions = session.host_view()["actions"]
                    if rng.random() > 0.02:         # the game ends seldom: most of a playout is play
                        actions = [a for a in actions if a["key"] != "end"]
                    if not actions:
                        continue
                    action = rng.choice(actions)
                    if action.get("action"):
                        reply = host_commands.run(session, action["action"], dict(action.get("args") or {}), "host")
                    else:
                        reply = host_commands.run(session, "action", {"key": action["key"]}, "host")
                    yield reply.message
                elif roll < 0.65:
                    seat = rng.choice(players)
                    windows = session.seat_view(seat)["windows"]
                    if windows:
                        outcome = session.enter(seat, _entry(rng, session, rng.choice(windows)))
                        yield from texts_of(outcome if isinstance(outcome, dict) else outcome.to_json())
                    else:
                        yield from texts_of(session.submit(_fuzzed_event(rng, players), "host").to_json())
                elif roll < 0.75:
                    yield from texts_of(session.submit(_fuzzed_event(rng, players), "host").to_json())
                elif roll < 0.8:
                    undone = session.undo()
                    if undone is not None:
                        yield from texts_of(undone.to_json())
                elif roll < 0.83:
                    seat = rng.choice(players)
                    result = session.buzz(seat)
                    if result is not None:
                        yield from texts_of(result.to_json())
                else:
                    session.clock.advance(rng.choice([1, 5, 31, 61, 200]))
                    for result in session.tick():
                        yield from texts_of(result.to_json())
            except (EntryRefused, RulesError, host_commands.UnknownCommand) as refused:
                yield str(refused)
            yield from shown
            shown.clear()
            if rng.random() < 0.2:
                yield from views()
        yield from views()
    finally:
        session.journal.close()
