"""Sequence Letters (``sequence-letters``, rule text ``sequence-letters.txt``): children put chips
on pictures whose names start with the letter on their card, four in a row wins.

* 2 or 3 players play alone (5 cards each); 4 players are two teams in alternating seats (4
  cards each: Ann+Cai against Ben+Dee). Play goes in seat order (the record's ``players``, the
  first left of the dealer).
* ``play`` a letter card: a chip on an open picture of that letter (with the card's colour,
  when the event gives ``color``); ``Z``: a chip on any open picture; ``X``: another side's chip
  is taken off (that square cannot be covered again this turn).
* ``dead``: a letter card both of whose pictures are covered is turned in, once a turn, before
  the turn's play.
* Four chips of one side in a line (across, down or diagonal) win at once.

With ``"pieces": "virtual"`` the table deals and draws from the seed (:mod:`rules.sequence_cards`):
a play must use a card in the player's hand, the player then draws, an empty draw pile is
refilled by shuffling the discards. With real cards (the default) the record says what was played.

>>> from rules.board import parse_board
>>> board = parse_board('rows = 1\\ncols = 5\\n[layers]\\nletters = ["ABCDE"]\\ncolors = ["rrrrr"]', required=())
>>> g = SequenceLettersGame(GameSetup("sequence-letters", ("Ann", "Ben")), board, None)
>>> for col, (who, card) in enumerate([("Ann", "A"), ("Ben", "Z"), ("Ann", "C")]):
...     _ = g.apply({"type": "play", "player": who, "card": card, "row": 0, "col": col})
>>> g.apply({"type": "play", "player": "Ben", "card": "A", "row": 0, "col": 0}).message
Traceback (most recent call last):
...
rules.errors.NotPlayable: A1 has Ann's chip on it already: a chip goes on an open picture.
"""

from __future__ import annotations

import random
from typing import Any

from rules import errors
from rules.board import Board
from rules.events import INT, TEXT, Event, Schemas
from rules.game import ANY_PIECES, Action, Game, GameSetup, OptionField, Outcome
from rules.games import register_game
from rules.sequence_cards import deck_for, hand_size
from rules.snapshot import COPIED, GROWN, KEPT, NESTED, RANDOM
from rules.squares import Square

SCHEMAS: Schemas = {
    "play": ({"player": TEXT, "card": TEXT, "row": INT, "col": INT}, {"color": TEXT}),
    "dead": ({"player": TEXT, "card": TEXT}, {}),
    "time": ({}, {}),
    "end": ({}, {"player": TEXT}),
}
#: chip colours of the sides, in seat order (the photo reader's codes: red, blue, green)
CHIPS = "rbg"
LINE = 4
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


class DeadCardError(errors.Rejection):
    """A card turned in as dead that is not dead, or a second one this turn."""


@register_game
class SequenceLettersGame(Game):
    """Sequence Letters; see the module docstring."""

    game_id = "sequence-letters"
    title = "Sequence Letters"
    schemas = SCHEMAS
    min_players, max_players = 2, 4
    board_layers = ("letters", "colors")
    option_fields = (ANY_PIECES, OptionField("chips"))
    #: the chips, whose turn, the plays; with virtual cards the hands, the piles and the shuffler
    changes = Game.changes | {"chips": COPIED, "turn": KEPT, "dead_this_turn": KEPT, "sequence": KEPT,
                              "plays": GROWN, "hands": NESTED, "pile": COPIED, "discards": COPIED, "_rng": RANDOM}

    def __init__(self, setup: GameSetup, board: Board, lexicon: Any):
        super().__init__(setup, board, lexicon)
        if board is None:
            raise errors.RecordFormatError("Sequence Letters is played on a board, and none was given")
        self.pictures = picture_names(board)
        players = setup.players
        self.sides: tuple[tuple[str, ...], ...] = ((players[0], players[2]), (players[1], players[3])) \
            if len(players) == 4 else tuple((p,) for p in players)
        self.side_of = {p: k for k, side in enumerate(self.sides) for p in side}
        chips = str(setup.option("chips", CHIPS))
        if len(chips) < len(self.sides) or len(set(chips[:len(self.sides)])) < len(self.sides):
            raise errors.RecordFormatError(f"'chips' names a different colour for each of the {len(self.sides)} sides")
        self.chip_colours = chips[:len(self.sides)]
        self.chips: dict[Square, int] = {}
        self.turn = 0
        self.dead_this_turn = False
        self.sequence: tuple[Square, ...] = ()
        self.plays: list[dict[str, Any]] = []
        self.virtual = setup.option("pieces", "physical") == "virtual"
        self.hands: dict[str, list[str]] = {}
        self.pile: list[str] = []
        self.discards: list[str] = []
        self._rng = random.Random(setup.seed)
        if self.virtual:
            self.pile = deck_for(board)
            self._rng.shuffle(self.pile)
            for _ in range(hand_size(len(players))):
                for p in players:
                    self.hands.setdefault(p, []).append(self.pile.pop())

    # -- what the table asks ----------------------------------------------------------------------
    def whose_turn(self) -> str | None:
        return None if self.over else self.setup.players[self.turn % len(self.setup.players)]

    def actions(self) -> tuple[Action, ...]:
        player = self.whose_turn()
        if player is None:
            return ()
        dead = self.dead_cards(player) if not self.dead_this_turn else []
        return tuple(Action("dead", f"{player} turns in the dead {c} card", {"type": "dead", "player": player, "card": c})
                     for c in dead) + super().actions()

    def side_name(self, side: int) -> str:
        """A side's players joined by ``+`` in seat order (``Ann+Cai``), or the one player."""
        return "+".join(self.sides[side])

    def picture(self, square: Square) -> str:
        """The picture printed on ``square`` (its name, or its letter if the board names none)."""
        return self.pictures.get(square, self.board.cell("letters", square))

    def open_pictures(self, card: str) -> list[Square]:
        """The open squares a card may cover (``Z``: every open picture)."""
        return [sq for sq in self.pictures if sq not in self.chips and (card == "Z" or self.board.cell("letters", sq) == card)]

    def is_dead(self, card: str) -> bool:
        """A letter card with no open picture left (``X`` and ``Z`` are never dead)."""
        return card not in ("X", "Z") and not self.open_pictures(card)

    def dead_cards(self, player: str) -> list[str]:
        """The dead cards in ``player``'s hand (the table's own cards; none known with real cards),
        each once."""
        return [c for c in dict.fromkeys(self.hands.get(player, [])) if self.is_dead(c)]

    def run_through(self, square: Square, side: int) -> list[list[Square]]:
        """Per direction (across, down, both diagonals): ``square`` and the chips of ``side`` that
        touch it in an unbroken line, sorted along the line (``square`` counted as ``side``'s)."""
        runs = []
        for dr, dc in DIRECTIONS:
            run = [square]
            for sign in (1, -1):
                r, c = square.row + sign * dr, square.col + sign * dc
                while self.chips.get(Square(r, c)) == side:
                    run.append(Square(r, c))
                    r, c = r + sign * dr, c + sign * dc
            runs.append(sorted(run))
        return runs

    # -- events -------------------------------------------------------------------------------------
    def _handle(self, event: Event) -> Outcome:
        if event.type == "time":
            return Outcome("")
        player = str(event.player)
        if player != self.whose_turn():
            raise errors.NotYourTurn(f"It is {self.whose_turn()}'s turn, not {player}'s.")
        card = str(event.get("card")).strip().upper()
        if not (len(card) == 1 and "A" <= card <= "Z"):
            raise errors.BadText(f"A card is one letter, X or Z, not {event.get('card')!r}.")
        self._holds(player, card)
        if event.type == "dead":
            return self._dead(player, card)
        return self._play(player, card, Square(int(event.get("row")), int(event.get("col"))), event.get("color"))

    def _holds(self, player: str, card: str) -> None:
        if self.virtual and card not in self.hands[player]:
            raise errors.NotPlayable(f"{player} has no {card} card; {player}'s cards: {' '.join(self.hands[player])}.",
                                     private_to=player)

    def _dead(self, player: str, card: str) -> Outcome:
        if self.dead_this_turn:
            raise DeadCardError(f"{player} has turned in a dead card this turn already: one a turn.")
        if not self.is_dead(card):
            where = " and ".join(f"the {self.picture(sq)} ({sq.name})" for sq in self.open_pictures(card))
            raise DeadCardError(f"The {card} card is not dead: {where or 'a picture'} is still open.")
        self.dead_this_turn = True
        self._discard(player, card)
        self._draw(player)
        return Outcome(f"{player} turns in the dead {card} card and takes a new one.")

    def _play(self, player: str, card: str, square: Square, colour: Any) -> Outcome:
        if square not in self.board:
            raise errors.OffBoard(f"There is no picture at {self.board.label(square)}.")
        if square not in self.pictures:
            raise errors.NotPlayable(f"{square.name} has no picture: chips go on pictures.")
        side = self.side_of[player]
        if card == "X":
            return self._take(player, side, square)
        if square in self.chips:
            owner = self.side_name(self.chips[square])
            raise errors.NotPlayable(f"{square.name} has {owner}'s chip on it already: a chip goes on an open picture.")
        letter = self.board.cell("letters", square)
        if card != "Z" and letter != card:
            others = " or ".join(self.picture(sq) for sq in self.pictures if self.board.cell("letters", sq) == card)
            raise errors.NotPlayable(f"That is the {self.picture(square)} ({square.name}); {card} is for "
                                     f"{others or 'no picture on this board'}.")
        if colour is not None and card != "Z" and str(colour) != self.board.cell("colors", square):
            raise errors.NotPlayable(f"The {self.picture(square)} ({square.name}) has the colour "
                                     f"{self.board.cell('colors', square)!r}, the card {colour!r}: the colours must match.")
        self.chips[square] = side
        self._record(player, card, square, "place")
        line = self._line_through(square, side)
        message = f"{card}, {self.picture(square)}! {player} puts a chip on the {self.picture(square)}."
        if line:
            self.sequence, self.ended = line, True
            pictures = ", ".join(self.picture(sq) for sq in line)
            return Outcome(message + f" Four in a row: {pictures}. {self.side_name(side)} wins!")
        return Outcome(message)

    def _take(self, player: str, side: int, square: Square) -> Outcome:
        if square not in self.chips:
            raise errors.NotPlayable(f"No chip is on the {self.picture(square)} ({square.name}): X takes off another side's chip.")
        if self.chips[square] == side:
            raise errors.NotPlayable(f"The chip on the {self.picture(square)} ({square.name}) is {self.side_name(side)}'s "
                                     "own: X takes off another side's chip.")
        owner = self.side_name(self.chips.pop(square))
        self._record(player, "X", square, "take")
        return Outcome(f"X! {player} takes {owner}'s chip off the {self.picture(square)}.")

    def _record(self, player: str, card: str, square: Square, what: str) -> None:
        self.plays.append({"player": player, "card": card, "row": square.row, "col": square.col, "what": what})
        self._discard(player, card)
        self._draw(player)
        self.turn += 1
        self.dead_this_turn = False

    def _discard(self, player: str, card: str) -> None:
        if self.virtual:
            self.hands[player].remove(card)
        self.discards.append(card)

    def _draw(self, player: str) -> None:
        if not self.virtual:
            return
        if not self.pile and self.discards:
            self.pile, self.discards = self.discards, []
            self._rng.shuffle(self.pile)
        if self.pile:
            self.hands[player].append(self.pile.pop())

    def _line_through(self, square: Square, side: int) -> tuple[Square, ...]:
        for run in self.run_through(square, side):
            if len(run) >= LINE:
                return _window(run, square)
        return ()

    def _over_reason(self) -> str:
        return f"{self.side_name(self.chips[self.sequence[0]])} made a sequence" if self.sequence else "it was ended"

    # -- results --------------------------------------------------------------------------------
    @property
    def totals(self) -> dict[str, int]:
        """Each player's side's chips on the board."""
        count = self._side_counts()
        return {p: count[self.side_of[p]] for p in self.setup.players}

    @property
    def winner(self) -> str | None:
        return self.side_name(self.chips[self.sequence[0]]) if self.sequence else None

    def standings(self) -> str:
        return f"{self.winner} wins with four in a row." if self.winner else \
            "Chips on the board: " + ", ".join(f"{self.side_name(k)} {n}" for k, n in
                                               enumerate(self._side_counts())) + "."

    def _side_counts(self) -> list[int]:
        count = [0] * len(self.sides)
        for side in self.chips.values():
            count[side] += 1
        return count

    def report(self) -> list[str]:
        lines = [f"{n:3d}. {p['player']}: {p['card']} -> {'takes the chip off' if p['what'] == 'take' else 'a chip on'} "
                 f"the {self.picture(Square(p['row'], p['col']))} ({Square(p['row'], p['col']).name})"
                 for n, p in enumerate(self.plays, start=1)]
        if self.sequence:
            lines.append("     sequence: " + ", ".join(f"{self.picture(sq)} ({sq.name})" for sq in self.sequence))
        return lines

    def result_json(self) -> dict[str, Any]:
        data = super().result_json()
        data["plays"] = list(self.plays)
        if self.sequence:
            data["sequence"] = [[sq.row, sq.col] for sq in self.sequence]
        return data

    def state(self) -> dict[str, Any]:
        data = super().state()
        data.update(chips={f"{sq.row},{sq.col}": self.chip_colours[k] for sq, k in sorted(self.chips.items())},
                    grid=self.grid_rows(), turn=self.whose_turn(), sequence=[[s.row, s.col] for s in self.sequence],
                    hands={p: list(h) for p, h in self.hands.items()}, pile=len(self.pile), discards=len(self.discards))
        return data

    def grid_rows(self) -> list[str]:
        """DESIGN.md's grid: one character a square, ``.`` for no chip, else the chip's colour code."""
        return ["".join(self.chip_colours[self.chips[Square(r, c)]] if Square(r, c) in self.chips else "."
                        for c in range(self.board.cols)) for r in range(self.board.rows)]


def four_in_a_row(rows: list[str] | tuple[str, ...], empty: str = ".") -> tuple[str | None, tuple[Square, ...]]:
    """The chip colour with four in a line on a grid of chip codes (DESIGN.md's grid), and the
    four squares (the first such line in reading order); ``(None, ())`` when there is none.

    >>> four_in_a_row(["r...", ".r..", "..r.", "...r"])
    ('r', (Square(row=0, col=0), Square(row=1, col=1), Square(row=2, col=2), Square(row=3, col=3)))
    """
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if code == empty:
                continue
            for dr, dc in DIRECTIONS:
                line = tuple(Square(r + k * dr, c + k * dc) for k in range(LINE))
                if all(0 <= sq.row < len(rows) and 0 <= sq.col < len(rows[sq.row]) and rows[sq.row][sq.col] == code
                       for sq in line):
                    return code, line
    return None, ()


def _window(run: list[Square], square: Square) -> tuple[Square, ...]:
    """Four consecutive squares of ``run`` (sorted along its line) that hold ``square``."""
    at = run.index(square)
    start = min(max(0, at - LINE + 1), len(run) - LINE)
    return tuple(run[start:start + LINE])


def picture_names(board: Board) -> dict[Square, str]:
    """Each picture square's name: the ``[pictures]`` table gives a letter's names in reading order
    (a square whose letter the table does not name is called by its letter).

    >>> from rules.board import parse_board
    >>> b = parse_board('rows = 1\\ncols = 3\\n[layers]\\nletters = ["AB."]\\ncolors = ["ry."]\\n[pictures]\\nA = ["ant"]',
    ...                 required=())
    >>> picture_names(b)
    {Square(row=0, col=0): 'ant', Square(row=0, col=1): 'B'}
    """
    names = board.tables.get("pictures", {})
    if not isinstance(names, dict):
        raise errors.RecordFormatError("the board's [pictures] must be a table: letter = [names in reading order]")
    seen: dict[str, int] = {}
    pictures: dict[Square, str] = {}
    for square in board.squares():
        letter = board.cell("letters", square)
        if letter == ".":
            continue
        k = seen.get(letter, 0)
        seen[letter] = k + 1
        given = names.get(letter, [])
        pictures[square] = str(given[k]) if isinstance(given, list) and k < len(given) else letter
    return pictures


def letter_cards(board: Board) -> dict[str, tuple[str, list[Square]]]:
    """Each letter on ``board``: its card's colour (its first picture's square colour) and its
    picture squares in reading order.

    >>> from rules.board import parse_board
    >>> b = parse_board('rows = 1\\ncols = 3\\n[layers]\\nletters = ["ABA"]\\ncolors = ["ryr"]', required=())
    >>> letter_cards(b)["A"]
    ('r', [Square(row=0, col=0), Square(row=0, col=2)])
    """
    cards: dict[str, tuple[str, list[Square]]] = {}
    for square in board.squares():
        letter = board.cell("letters", square)
        if letter != ".":
            cards.setdefault(letter, (board.cell("colors", square), []))[1].append(Square(*square))
    return cards
