"""The crossword part every grid word game shares: writing entries on the board and scoring them.

:class:`CrosswordGame` keeps the grid and turns a ``write`` event into a scored :class:`Turn`
(placement analysis, dictionary, zone scoring, Chance cards); the games decide who may write
when (:mod:`rules.extradiction`, :mod:`rules.extradiction_sp`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules import errors
from rules.chance import ChanceDeck
from rules.events import Event
from rules.game import Game, GameSetup, Turn
from rules.grid import Grid
from rules.lexicon import Lexicon, normalise
from rules.placement import Placement, PlacementKind, analyse, check_words
from rules.scoring import WordScore, score_squares
from rules.snapshot import COPIED, KEPT, OWN
from rules.squares import Direction
from rules.board import Board


@dataclass(frozen=True)
class WritePolicy:
    """How a game lets players write and scores what they write."""

    across_only: bool = False        # Levels 1-2: words go horizontally, anywhere
    require_centre: bool = True      # the first word uses the centre square
    check_dictionary: bool = True    # the entry and every word it forms must be words
    zones_multiply: bool = True      # value sum x zones (False: stars only, Levels 1-2)
    score_formed_words: bool = True  # perpendicular words formed by touching score too
    chance_cards: bool = False       # letters on '!' squares draw Chance cards
    floating_chance: bool = False    # Levels 1-2: a word written anywhere (floating) draws them too
    unique_words: bool = False       # Speed eXtraDICTION: a word only once a game


class CrosswordGame(Game):
    """A game played by writing entries on a grid board."""

    policy = WritePolicy()
    #: the grid (immutable: a write makes a new one), the Chance deck and the words used; a game
    #: that calls :meth:`remove_turn` declares where the turn it removes is kept (``OWN``)
    changes = Game.changes | {"grid": KEPT, "chance_deck": OWN, "used_words": COPIED}

    def __init__(self, setup: GameSetup, board: Board, lexicon: Lexicon):
        super().__init__(setup, board, lexicon)
        self.grid = Grid(board.rows, board.cols)
        self.chance_deck = ChanceDeck.standard(setup.seed) if self.policy.chance_cards else None
        self.used_words: set[str] = set()
        self.playable_squares = sum(1 for s in board.squares() if board.is_playable(s))

    # -- writing --------------------------------------------------------------------------------
    def analyse_write(self, event: Event) -> Placement:
        """Check a ``write`` event against the board and the policy, without changing the game."""
        policy = self.policy
        direction = event.direction
        if policy.across_only and direction is not Direction.ACROSS:
            raise errors.WrongDirection(
                f"At this level words are written across (left to right); "
                f"{normalise(event['text'])} at {self.board.label(event.square)} goes down.", [event.square])
        placement = analyse(self.board, self.grid, event["text"], event.square, direction,
                            require_centre=policy.require_centre)
        if policy.check_dictionary:
            check_words(placement, self.lexicon)
        if policy.unique_words and placement.text in self.used_words:
            raise errors.WordAlreadyUsed(
                f"{placement.text} has already been written this game; in Speed eXtraDICTION a word is used only once.",
                placement.squares)
        return placement

    def score_write(self, placement: Placement) -> list[WordScore]:
        """The scored words of a placement: the entry, then every word it formed."""
        policy = self.policy
        floating = placement.kind is PlacementKind.FLOATING
        multiply = policy.zones_multiply and not floating
        words = [score_squares(self.board, placement.text, placement.squares, multiply)]
        if policy.score_formed_words:
            words += [score_squares(self.board, w.text, w.squares, policy.zones_multiply) for w in placement.formed_words]
        return words

    def write(self, event: Event, *, late: bool = False) -> Turn:
        """Validate, score and commit a ``write``: the grid gains its letters and a turn is recorded."""
        placement = self.analyse_write(event)
        words = self.score_write(placement)
        turn = Turn(player=event.by, event_index=len(self.events), text=placement.text, words=tuple(words),
                    kind=placement.kind.value, late=late, new_squares=placement.new_squares)
        if self.chance_deck is not None and (placement.kind is not PlacementKind.FLOATING or self.policy.floating_chance):
            self._draw_chance(turn, sum(1 for s in placement.new_squares if self.board.is_chance(s)))
        self.grid = placement.grid_after
        self.used_words.add(placement.text)
        self.turns.append(turn)
        return turn

    def _draw_chance(self, turn: Turn, count: int) -> None:
        cards = []
        assert self.chance_deck is not None
        balance = self.totals[turn.player] + sum(w.score for w in turn.words)
        delta = 0
        for _ in range(count):
            card = self.chance_deck.draw()
            if card is None:
                break
            cards.append(card)
            change = card.stars if not card.rats else -min(card.rats, balance)
            balance += change
            delta += change
        turn.chance = tuple(cards)
        turn.chance_delta = delta

    def remove_turn(self, turn: Turn) -> None:
        """Take an answer off the board with its points (a challenge upheld)."""
        turn.removed = True
        self.grid = self.grid.without(turn.new_squares)
        self.used_words.discard(turn.text)

    def board_full(self) -> bool:
        """No playable square is left (letters only ever stand on playable squares)."""
        return len(self.grid) >= self.playable_squares


    def state(self) -> dict[str, Any]:
        state = super().state()
        state["grid"] = self.grid.rows_text()
        return state
