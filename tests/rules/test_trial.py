"""``Game.trial`` leaves a game exactly as it was, and so does a refused ``Game.apply``
(hypothesis, every game, physical and virtual pieces).

Random playouts: at each step a candidate event (one of the game's own actions, a plausible
move, or a fuzzed, often illegal, event) is tried with ``trial``, and every attribute of the
game, followed down through its containers and objects, must be as before; then the event is
applied, and if the rules refuse it the game must again be as before.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import errors
from rules.game import Game, GameSetup, Outcome
from rules.games import game_class, new_game
from rules.letter_dice import best_words
from rules.questique_layout import standard_board
from rules.snapshot import KEPT, fixed_part, picture, undeclared_changes
from tabletop.games.questique_players import choose_move
from tabletop.games.sequence_letters import choose_play
from tabletop.resources import load_board
from tests.rules.playouts import (LETTER_DICE_WORDS, QUESTIQUE_LEXICON, QUESTIQUE_WORDS, attempt, event_for,
                                  fuzzed_events, short_lexicon)

SEATS = ("Ann", "Ben", "Cai", "Dee")
REFUSED = (errors.Rejection, errors.EventFormatError)


# -- plausible moves, per game ----------------------------------------------------------------------
def crossword_move(game: Any, data: st.DataObject) -> dict[str, Any]:
    return event_for(game, *data.draw(attempt))


def letter_dice_move(game: Any, data: st.DataObject) -> dict[str, Any]:
    if not game.writing:
        if data.draw(st.booleans()):
            return {"type": "roll"}                                   # the table rolls from the seed
        return {"type": "roll", "faces": data.draw(st.lists(st.sampled_from("CATERSON*"), min_size=8, max_size=8))}
    player = data.draw(st.sampled_from(game.setup.players))
    row = data.draw(st.sampled_from(game.free_rows(player) or [1]) | st.integers(0, len(game.sheet) + 1))
    if data.draw(st.integers(0, 5)) == 0:
        return {"type": "undo_word", "player": player, "row": row}
    length = game.sheet[row - 1][0] if 1 <= row <= len(game.sheet) else 3
    words = best_words(LETTER_DICE_WORDS, game.round.faces, length) + [None, "x" * length, "cat"]
    return {"type": "word", "player": player, "row": row, "word": data.draw(st.sampled_from(words))}


def word_grid_move(game: Any, data: st.DataObject) -> dict[str, Any]:
    if not game.finding:
        if data.draw(st.booleans()):
            return {"type": "tray"}                                   # the table shakes from the seed
        return {"type": "tray", "grid": data.draw(st.lists(st.text("CATERSON*", min_size=4, max_size=4),
                                                           min_size=4, max_size=4))}
    player = data.draw(st.sampled_from(game.setup.players))
    return {"type": "word", "player": player, "word": data.draw(st.sampled_from(["cat", "act", "tea", "xyz", "at"]))}


def sequence_move(game: Any, data: st.DataObject) -> dict[str, Any]:
    player = game.whose_turn() or data.draw(st.sampled_from(game.setup.players))
    if game.virtual and data.draw(st.booleans()):
        move = choose_play(game, player, random.Random(data.draw(st.integers(0, 99))))
        if move is not None:
            return {"type": "play", "player": player, **move}
    letters = sorted({game.board.cell("letters", sq) for sq in game.pictures}) + ["X", "Z"]
    card = data.draw(st.sampled_from(game.hands.get(player) or letters))
    squares = list(game.chips) if card == "X" else game.open_pictures(card)
    square = data.draw(st.sampled_from(squares or list(game.pictures)))
    event = {"type": "play", "player": player, "card": card, "row": square.row, "col": square.col}
    if data.draw(st.integers(0, 4)) == 0:
        event["color"] = data.draw(st.sampled_from("rbgyo"))
    return event


def questique_move(game: Any, data: st.DataObject) -> dict[str, Any]:
    player = game.whose_turn() or data.draw(st.sampled_from(game.setup.players))
    squares = game.to_place.get(player)
    if squares:
        square = data.draw(st.sampled_from(squares))
        letter = data.draw(st.sampled_from(game.alphabet))
        return {"type": "place", "player": player, "letter": letter, "row": square.row, "col": square.col}
    return choose_move(game, player, random.Random(data.draw(st.integers(0, 99))), words=QUESTIQUE_WORDS)


# -- the tables --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    """A game to play out: which, how many players, its options, and its plausible moves."""

    game_id: str
    variant: str | None
    players: int
    move: Callable[[Any, st.DataObject], dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)

    def build(self, seed: int) -> Game:
        if self.game_id == "questique":
            board, lexicon = standard_board(), QUESTIQUE_LEXICON
        elif self.game_id in ("letter-dice", "word-grid"):
            board, lexicon = None, LETTER_DICE_WORDS
        else:
            board = load_board(self.game_id, required=game_class(self.game_id).board_layers)
            lexicon = short_lexicon()
        setup = GameSetup(self.game_id, SEATS[:self.players], variant=self.variant, seed=seed, options=self.options)
        return new_game(setup, board, lexicon)

    def __str__(self) -> str:
        pieces = self.options.get("pieces", "physical")
        return f"{self.game_id}-{self.variant or 'standard'}-{self.players}-{pieces}"


VIRTUAL = {"pieces": "virtual"}
TABLES = [
    Table("extradiction", "level1", 2, crossword_move),
    Table("extradiction", "level3", 3, crossword_move),
    Table("extradiction", "speed", 2, crossword_move),
    Table("extradiction-sp", "classic", 3, crossword_move),
    Table("extradiction-sp", "speed", 2, crossword_move),
    Table("letter-dice", None, 2, letter_dice_move),
    Table("letter-dice", None, 3, letter_dice_move, {"own_repeats": "zero", "invalid_words_block": True}),
    Table("word-grid", None, 3, word_grid_move),
    Table("word-grid", None, 2, word_grid_move, {"size": 5, "pieces": "virtual"}),
    Table("sequence-letters", None, 2, sequence_move),
    Table("sequence-letters", None, 2, sequence_move, VIRTUAL),
    Table("sequence-letters", None, 3, sequence_move, VIRTUAL),
    Table("sequence-letters", None, 4, sequence_move, VIRTUAL),
    Table("questique", None, 2, questique_move),
    Table("questique", None, 2, questique_move, VIRTUAL),
    Table("questique", "extra", 3, questique_move),
    Table("questique", "extra+token", 3, questique_move, VIRTUAL),
    Table("questique", "partner+elimination", 4, questique_move, VIRTUAL),
    Table("questique", "elimination+speed", 2, questique_move),
    Table("questique", "solo", 1, questique_move, VIRTUAL),
]


def candidate(game: Game, table: Table, data: st.DataObject, clock: list[float]) -> dict[str, Any]:
    """An event to try now: one of the game's own actions, a plausible move, or a fuzzed one,
    sometimes stamped with a later table time (deadlines run out)."""
    kind = data.draw(st.sampled_from(["action", "move", "move", "move", "fuzz"]))
    actions = [dict(a.event) for a in game.actions()]
    if kind == "action" and actions:
        event = data.draw(st.sampled_from(actions))
    elif kind == "fuzz":
        event = data.draw(fuzzed_events(sorted(game.schemas) + ["draw"]))
    else:
        event = table.move(game, data)
    if data.draw(st.integers(0, 2)) == 0:
        clock[0] += data.draw(st.integers(0, 40))
        event = {**event, "t": clock[0]}
    return event


def changed(before: Any, after: Any) -> list[str]:
    """The names of the attributes whose pictures differ."""
    old, new = dict(before[1]), dict(after[1])
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=str)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_a_trial_and_a_refused_apply_leave_every_attribute_as_it_was(table, data, seed):
    game = table.build(seed)
    clock = [0.0]
    for _ in range(data.draw(st.integers(1, 40), label="steps")):
        event = candidate(game, table, data, clock)
        before, events = picture(game), list(game.events)
        try:
            game.trial(event)
        except REFUSED:
            pass
        assert game.events == events
        after = picture(game)
        assert after == before, f"trial({event}) changed {', '.join(changed(before, after))}"
        fixed = fixed_part(game)
        try:
            game.apply(event)
        except REFUSED:
            after = picture(game)
            assert after == before, f"the refused apply({event}) changed {', '.join(changed(before, after))}"
        undeclared = undeclared_changes(fixed, fixed_part(game))
        assert not undeclared, f"apply({event}) changed {', '.join(undeclared)}, not declared as changing"


def test_a_trial_play_leaves_a_virtual_hand_as_it_was():
    """The bug that started it: a trial play drew a card into the real hand."""
    game = Table("sequence-letters", None, 2, sequence_move, VIRTUAL).build(seed=1)
    hand = list(game.hands["Ann"])
    card = next(c for c in hand if c != "X")
    square = game.open_pictures(card)[0]
    game.trial({"type": "play", "player": "Ann", "card": card, "row": square.row, "col": square.col})
    assert game.hands["Ann"] == hand and not game.chips and not game.plays


class Forgetful(Game):
    """A game whose author forgot to declare ``count``."""

    game_id = "forgetful"
    needs_board = False

    def __init__(self, setup: GameSetup, board: Any, lexicon: Any):
        super().__init__(setup, board, lexicon)
        self.count = 0

    def _handle(self, event: Any) -> Outcome:
        self.count += 1
        return Outcome(f"{self.count} events.")


def test_a_field_a_game_forgets_to_declare_is_caught_and_a_declared_one_is_restored():
    game = Forgetful(GameSetup("forgetful", ("Ann",)), None, None)
    fixed = fixed_part(game)
    game.apply({"type": "time"})
    assert undeclared_changes(fixed, fixed_part(game)) == ["count"]
    game.trial({"type": "time"})
    assert game.count == 2                      # the trial could not put it back

    class Careful(Forgetful):
        changes = Forgetful.changes | {"count": KEPT}

    game = Careful(GameSetup("forgetful", ("Ann",)), None, None)
    fixed = fixed_part(game)
    game.apply({"type": "time"})
    assert undeclared_changes(fixed, fixed_part(game)) == []
    game.trial({"type": "time"})
    assert game.count == 1 and len(game.events) == 1
