"""eXtraDICTION (the original): Levels 1, 2 and 3 with clue cards, and Speed eXtraDICTION.

* Levels 1-2: the card's word is written across, anywhere; it scores the stars of its squares.
* Level 3: words go across or down; the first uses the centre square; later words cross, touch
  or float; score = stars x zones (floating: not multiplied), plus every word formed by touching.
* Every level: a letter newly written on a Chance square draws a Chance card from the seeded
  deck (:mod:`rules.chance`); at Level 3 and Speed not for a floating word, at Levels 1-2 for
  every word (each is written anywhere, and the rule text gives a card for each such letter).
* The game ends after 10 clue cards, or when no square is left.
* Speed: no clue cards, players take turns (``pass`` to skip), a word only once a game; ends
  when no square is left or with an ``end`` event.

Events: ``clue`` (a card is taken; optional ``answer``), ``answer`` (a guess: ``text`` compared
with the card's answer, or ``correct`` as the helper judged), ``write``, ``pass``, ``end``.
A ``write`` without a card in play stands for a card guessed right and written.

>>> from rules.board import parse_board
>>> from rules.lexicon import Lexicon
>>> board = parse_board('rows = 3\\ncols = 5\\n[layers]\\nvalues = ["00000","12121","00000"]\\n'
...                     'zones = ["aaaaa","abbba","aaaaa"]')
>>> game = ExtradictionGame(GameSetup("extradiction", ("Ann", "Ben"), variant="level3"), board, Lexicon(["cat"]))
>>> game.apply({"type": "write", "player": "Ann", "text": "CAT", "row": 1, "col": 1, "dir": "across"}).turn.score
5
"""

from __future__ import annotations

import enum
from typing import Any, Callable

from rules import errors
from rules.board import Board
from rules.crossword import CrosswordGame, WritePolicy
from rules.events import Event
from rules.games import register_game
from rules.game import Action, GameSetup, Outcome
from rules.lexicon import Lexicon, normalise
from rules.snapshot import KEPT, OWN
from rules.turn_order import TurnOrder

CARDS_PER_GAME = 10

_LEVEL_POLICY = {
    "level1": WritePolicy(across_only=True, require_centre=False, check_dictionary=False, zones_multiply=False,
                          score_formed_words=False, chance_cards=True, floating_chance=True),
    "level3": WritePolicy(chance_cards=True),
    "speed": WritePolicy(chance_cards=True, unique_words=True),
}
_LEVEL_POLICY["level2"] = _LEVEL_POLICY["level1"]
_ALIASES = {"1": "level1", "2": "level2", "3": "level3", "level 1": "level1", "level 2": "level2",
            "level 3": "level3", "l1": "level1", "l2": "level2", "l3": "level3"}


class Phase(enum.StrEnum):
    """Where a game of eXtraDICTION stands."""

    DRAW = "draw"        # a clue card is due (the asker takes one)
    GUESS = "guess"      # a card is in play: the guesser guesses
    WRITE = "write"      # the guess was right: the guesser writes
    SPEED = "speed"      # Speed: the player whose turn it is writes or passes
    OVER = "over"


def variant_name(variant: str | None) -> str:
    """Normalise a variant name: ``None`` -> 'level3', '2' -> 'level2', 'Speed' -> 'speed'."""
    if variant is None:
        return "level3"
    key = str(variant).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _LEVEL_POLICY:
        raise errors.RecordFormatError(
            f"eXtraDICTION has no variant {variant!r}; choose level1, level2, level3 or speed")
    return key


@register_game
class ExtradictionGame(CrosswordGame):
    """The original eXtraDICTION board game (all levels and Speed)."""

    game_id = "extradiction"
    title = "eXtraDICTION"
    min_players, max_players = 1, 6           # levels 1-2: 1 or 2 children and a helper; the cards go round
    variants = ("level1", "level2", "level3", "speed")
    changes = CrosswordGame.changes | {"cards_used": KEPT, "card_answer": KEPT, "card_in_play": KEPT,
                                       "guesser": KEPT, "order": OWN}

    def __init__(self, setup: GameSetup, board: Board, lexicon: Lexicon):
        self.level = variant_name(setup.variant)
        self.policy = _LEVEL_POLICY[self.level]
        super().__init__(setup, board, lexicon)
        self.cards_used = 0
        self.card_answer: str | None = None   # the answer of the card in play ('' = unknown answer)
        self.card_in_play = False
        self.guesser: str | None = None      # who guessed the card in play right
        self.order = TurnOrder(setup.players)

    @property
    def speed(self) -> bool:
        return self.level == "speed"

    # -- events ---------------------------------------------------------------------------------
    def _handle(self, event: Event) -> Outcome:
        handler: Callable[[Event], Outcome] | None = {
            "write": self._write, "pass": self._pass, "clue": self._clue, "answer": self._answer,
            "time": lambda event: Outcome(""),
        }.get(event.type)
        if handler is None:
            raise errors.WrongPhase(f"A {event.type!r} event has no place in eXtraDICTION ({self.level}).")
        return handler(event)

    def _clue(self, event: Event) -> Outcome:
        if self.speed:
            raise errors.WrongPhase("Speed eXtraDICTION is played without clue cards.")
        self._take_card()
        self.card_answer = normalise(event.get("answer") or "") or None
        return Outcome(f"{event.player} takes clue card {self.cards_used} of {CARDS_PER_GAME}.")

    def _take_card(self) -> None:
        if self.cards_used >= CARDS_PER_GAME:
            raise errors.GameOver(f"The game is over: all {CARDS_PER_GAME} clue cards have been used.")
        self.cards_used += 1
        self.card_in_play, self.guesser, self.card_answer = True, None, None

    def _answer(self, event: Event) -> Outcome:
        if not self.card_in_play:
            raise errors.WrongPhase(f"{event.player} answers, but no clue card is in play.")
        if self.guesser is not None:
            raise errors.WrongPhase(f"{self.guesser} has already guessed this card; now it is written.")
        correct = event.get("correct")
        if correct is None:
            if "text" not in event.data or self.card_answer is None:
                raise errors.WrongPhase("An answer needs 'correct' (true/false) when the card's answer is not recorded.")
            correct = normalise(event["text"]) == self.card_answer
        if correct:
            self.guesser = event.player
            return Outcome(f"{event.player} guessed right and writes the word.")
        self._resolve_card()
        return Outcome(f"{event.player} guessed wrong; the card is put aside.")

    def _write(self, event: Event) -> Outcome:
        if self.speed:
            self.order.check(event.by)
        elif self.card_in_play:
            if self.guesser is not None and event.player != self.guesser:
                raise errors.NotYourTurn(f"{self.guesser} guessed the card, so {self.guesser} writes, not {event.player}.")
            text = normalise(event["text"])
            if self.card_answer and text != self.card_answer:
                raise errors.WrongAnswer(
                    f"The card's word is {self.card_answer}; {text} at {self.board.label(event.square)} is not it.",
                    [event.square])
        else:
            self._take_card()
        turn = self.write(event)
        self._finish_turn()
        if self.level in ("level1", "level2"):      # for children: the stars, no scoring words
            stars = turn.score
            chance = f" and {len(turn.chance)} Chance card{'s' if len(turn.chance) != 1 else ''}" if turn.chance else ""
            return Outcome(f"{turn.player} wrote {turn.text}: {stars} star{'s' if stars != 1 else ''}{chance}!", turn)
        return Outcome(f"{turn.explain()}.", turn)

    def _pass(self, event: Event) -> Outcome:
        if self.speed:
            self.order.check(event.by, "play")
        self._finish_turn()
        return Outcome(f"{event.player} passes.")

    def _finish_turn(self) -> None:
        if self.speed:
            self.order.advance()
        else:
            self._resolve_card()
        if self.board_full():
            self.ended = True

    def _resolve_card(self) -> None:
        self.card_in_play, self.guesser, self.card_answer = False, None, None
        if self.cards_used >= CARDS_PER_GAME:
            self.ended = True

    def _over_reason(self) -> str:
        if self.board_full():
            return "no square is left to write on"
        if not self.speed and self.cards_used >= CARDS_PER_GAME:
            return f"all {CARDS_PER_GAME} clue cards have been used"
        return "it was ended"

    @property
    def next_player(self) -> str | None:
        """Whose turn it is in Speed; ``None`` at the levels, where the clue cards decide."""
        return self.order.current if self.speed else None

    # -- what the table asks ----------------------------------------------------------------------
    @property
    def phase(self) -> Phase:
        """Where the game stands: a card due, being guessed, being written; Speed; over."""
        if self.over:
            return Phase.OVER
        if self.speed:
            return Phase.SPEED
        if not self.card_in_play:
            return Phase.DRAW
        return Phase.WRITE if self.guesser is not None else Phase.GUESS

    def guesser_due(self) -> str:
        """Who guesses the card in play (or the next card): the players take the cards in turn."""
        players = self.setup.players
        return players[(self.cards_used - (1 if self.card_in_play else 0)) % len(players)]

    def clue_asker(self) -> str | None:
        """Who takes the next clue card and shows it (the player before the guesser), if one is due."""
        if self.phase is not Phase.DRAW:
            return None
        players = self.setup.players
        guesser = self.guesser_due()
        return players[(players.index(guesser) - 1) % len(players)]

    def whose_turn(self) -> str | None:
        """The guesser, then the writer, of the card in play or due; in Speed, whose turn it is.

        >>> from rules.board import parse_board
        >>> from rules.lexicon import Lexicon
        >>> board = parse_board('rows = 1\\ncols = 3\\n[layers]\\nvalues = ["111"]\\nzones = ["aaa"]')
        >>> game = ExtradictionGame(GameSetup("extradiction", ("Ann", "Ben"), variant="level1"), board, Lexicon([]))
        >>> game.whose_turn(), game.apply({"type": "clue", "player": "Ben"}).message, game.whose_turn()
        ('Ann', 'Ben takes clue card 1 of 10.', 'Ann')
        """
        phase = self.phase
        if phase is Phase.OVER:
            return None
        if phase is Phase.SPEED:
            return self.order.current
        if phase is Phase.WRITE:
            return self.guesser
        return self.guesser_due()

    def awaited_word(self) -> str | None:
        """The answer of the clue card in play (when the ``clue`` gave one), else None: the word to
        be written, which the camera's reader weighs first (``vision.tracker.Tracker.expected``)."""
        return self.card_answer if self.card_in_play and self.card_answer else None

    def actions(self) -> tuple[Action, ...]:
        """Take a card; judge the guess right or wrong; pass; end the game."""
        phase, out = self.phase, []
        if phase is Phase.DRAW:
            asker = self.clue_asker()
            out.append(Action("clue", f"{asker} takes a clue card", {"type": "clue", "player": asker}))
        elif phase is Phase.GUESS:
            who = self.guesser_due()
            out.append(Action("answer-right", f"{who} is right", {"type": "answer", "player": who, "correct": True}))
            out.append(Action("answer-wrong", f"{who} is wrong", {"type": "answer", "player": who, "correct": False}))
        elif phase in (Phase.WRITE, Phase.SPEED):
            writer = self.whose_turn()
            out.append(Action("pass", f"{writer} passes", {"type": "pass", "player": writer}))
        return tuple(out) + super().actions()

    def state(self) -> dict[str, Any]:
        state = super().state()
        state.update(level=self.level, cards_used=self.cards_used, next_player=self.next_player,
                     phase=self.phase.value)
        return state
