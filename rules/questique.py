"""Questique (``questique``, rule text ``questique.txt``): each player grows a crossword of their
own from a diamond start towards the star squares; the first to cover four stars wins.

* Tiles go down as ``write`` events (the crossword format); a lowercase letter in ``text`` is a
  blank tile standing for that letter. Words are letters only and must be in the dictionary.
* A player's first word starts on a free diamond start and covers as many of its diamond
  squares as a word of its length can; later words join the player's own crossword.
* Crosswords never merge: a new tile may not sit beside (across or down) another player's
  tile; corner to corner is allowed. Nobody adds to another's crossword.
* Star squares: a star under a player's tile is theirs. Exclusion blanks cover stars by the
  number of players (:mod:`rules.questique_layout`), or as the record's ``excluded`` says.
* ``exchange`` swaps tiles with the bag and forfeits the turn; ``take_blank`` puts down the
  letter a blank stands for and takes the blank (the turn goes on); ``place`` puts an
  individual letter on its square before play (standard play extra); ``pass``; ``end``.
* Winner: the first to cover their target (4 stars; handicap ``targets``; partners 7
  together); else the most stars; else the one closest to a star still open (the fewest
  squares, counted across and down, from a tile of their crossword); else a tie.

Variants (:mod:`rules.questique_setup`): extra, elimination ("Questique!": a tile on a square
diagonally next to another player's individual letter eliminates them), handicap, themed,
token, partner, speed and solo. Every choice where the text is silent is in
docs/games/questique.md.

>>> from rules.game import GameSetup
>>> from rules.lexicon import Lexicon
>>> from rules.questique_layout import standard_board
>>> g = QuestiqueGame(GameSetup("questique", ("Ann", "Ben")), standard_board(), Lexicon(["cat", "tea", "act"]))
>>> g.apply({"type": "write", "player": "Ann", "text": "CAT", "row": 4, "col": 3, "dir": "across"}).message
'Ann starts at the top left diamond with CAT.'
>>> g.apply({"type": "write", "player": "Ben", "text": "ACT", "row": 4, "col": 13, "dir": "across"}).message
Traceback (most recent call last):
...
rules.questique.WrongStart: With two players the starts are diagonally opposite: Ben starts at the bottom right diamond, not the top right one.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from rules import errors
from rules.board import Board
from rules.events import INT, NUM, TEXT, Event, Schemas
from rules.game import ANY_PIECES, Action, Game, GameSetup, OptionField, Outcome, Turn
from rules.games import register_game
from rules.grid import Grid
from rules.lexicon import Lexicon
from rules.placement import Placement, analyse, check_words
from rules.questique_layout import LAYERS, QUADRANT_NAMES, QuestiqueLayout
from rules.questique_setup import (EXCLUSION_BLANKS, PARTNER_TARGET, TOKENS, VARIANTS, QuestiqueRules, parse_individual,
                                   parse_squares, parse_targets, parse_themes)
from rules.questique_tiles import BLANK, BLANKS, TileSupply, alphabet, tile_counts
from rules.scoring import WordScore
from rules.snapshot import COPIED, GROWN, KEPT, NESTED, OWN
from rules.squares import Square

SCHEMAS: Schemas = {
    "write": ({"player": TEXT, "text": TEXT, "row": INT, "col": INT, "dir": TEXT}, {"confidence": NUM}),
    "place": ({"player": TEXT, "letter": TEXT, "row": INT, "col": INT}, {}),
    "exchange": ({"player": TEXT}, {"tiles": TEXT}),
    "take_blank": ({"player": TEXT, "row": INT, "col": INT}, {}),
    "pass": ({"player": TEXT}, {}),
    "time": ({}, {}),
    "end": ({}, {"player": TEXT}),
}
_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


class WrongStart(errors.Rejection):
    """A first word off the diamond start, on a start taken or not allowed, or covering too few diamonds."""

    rule = "diamond start"


class TooClose(errors.Rejection):
    """A tile beside another player's crossword: crosswords keep one empty square between them."""

    rule = "one square between crosswords"


class NotYourCrossword(errors.Rejection):
    """A word that adds to another player's crossword, or does not join the player's own."""

    rule = "own crossword"


class NotInRack(errors.Rejection):
    """Tiles the player's rack does not hold (virtual pieces), or more tiles than the set has."""

    rule = "tiles"


class NotOnTheme(errors.Rejection):
    """Themed play: a word not on the player's theme list."""

    rule = "theme"


@dataclass
class StarTurn(Turn):
    """A write in Questique: its words, and the stars it covered (its score)."""

    stars: tuple[Square, ...] = ()

    @property
    def score(self) -> int:
        return len(self.stars)

    def explain(self) -> str:
        """``'Ben: NOIR (and TA); stars on K9, K11 (+2)'``."""
        words = self.words[0].word + (f" (and {', '.join(w.word for w in self.words[1:])})" if self.words[1:] else "")
        stars = f"; star{'s' if len(self.stars) > 1 else ''} on {', '.join(s.name for s in self.stars)} " \
                f"(+{len(self.stars)})" if self.stars else ""
        return f"{self.player}: {words}{stars}"


@register_game
class QuestiqueGame(Game):
    """Questique; see the module docstring."""

    game_id = "questique"
    title = "Questique"
    schemas = SCHEMAS
    min_players, max_players = 1, 4
    board_layers = LAYERS
    variants = VARIANTS
    #: the record's set-up fields (rules/questique_setup.py checks each value)
    option_fields = (ANY_PIECES, OptionField("first"), OptionField("targets"), OptionField("themes"),
                     OptionField("individual"), OptionField("excluded"))
    #: the board, who owns what, the starts and exclusions, whose turn, and the virtual tiles
    changes = Game.changes | {
        "grid": KEPT, "owner": COPIED, "crossword": COPIED, "individual": COPIED, "blanks": COPIED,
        "starts": COPIED, "eliminated": GROWN, "winning_side": KEPT, "passes": KEPT, "words_played": KEPT,
        "supply": OWN, "current": KEPT, "to_place": NESTED, "excluded": KEPT}

    def __init__(self, setup: GameSetup, board: Board, lexicon: Lexicon):
        super().__init__(setup, board, lexicon)
        self.rules = QuestiqueRules.parse(setup.variant)
        self.rules.check_players(setup.players)
        self.layout = QuestiqueLayout(board)
        self.alphabet = alphabet(setup.language) if setup.language in ("en", "uk") else ""
        self.tile_counts: Mapping[str, int] = MappingProxyType(tile_counts(setup.language))
        players = setup.players
        self.sides: tuple[tuple[str, ...], ...] = ((players[0], players[2]), (players[1], players[3])) \
            if self.rules.partner else tuple((p,) for p in players)
        self.side_of: Mapping[str, int] = MappingProxyType({p: k for k, side in enumerate(self.sides) for p in side})
        self.targets: Mapping[str, int] = MappingProxyType(parse_targets(setup.option("targets"), players))
        self.themes: Mapping[str, frozenset[str]] = MappingProxyType(
            parse_themes(setup.option("themes"), players) if self.rules.themed else {})
        self.grid = Grid(board.rows, board.cols)
        self.owner: dict[Square, str] = {}
        self.crossword: dict[str, frozenset[Square]] = {p: frozenset() for p in players}
        self.individual: dict[Square, str] = {}
        self.blanks: set[Square] = set()
        self.starts: dict[str, int] = {}
        self.eliminated: list[str] = []
        self.winning_side: int | None = None
        self.passes = 0
        self.words_played: tuple[str, ...] = ()
        self.virtual = setup.option("pieces", "physical") == "virtual"
        self.supply = TileSupply(setup.language, setup.seed, players) if self.virtual else None
        self.order = self._seat_order(setup.option("first"))
        self.current = self.order[0]
        self.seat_quadrant: Mapping[str, int] = MappingProxyType(self._seat_quadrants())
        self.to_place: dict[str, list[Square]] = {}
        #: starts are fixed by seat when the individual letters go on the standard squares
        self.fixed_starts = bool(self.seat_quadrant) and setup.option("individual") is None
        self._set_individual_letters(setup.option("individual"))
        given = setup.option("excluded")
        self.excluded_given = given is not None
        self.excluded: frozenset[Square] = frozenset(self._check_excluded(given)) if given is not None else frozenset()

    # -- set-up -----------------------------------------------------------------------------------
    def _seat_order(self, first: Any) -> tuple[str, ...]:
        players = self.setup.players
        if first is None and self.supply is not None:
            first = self._draw_for_first()
        if first is None:
            first = players[0]
        if first not in players:
            raise errors.RecordFormatError(f"'first' names {str(first)[:40]!r}, who is not playing")
        k = players.index(first)
        return players[k:] + players[:k]

    def _draw_for_first(self) -> str:
        """Each player draws a tile; the nearest to A begins (a blank counts as farthest), ties draw
        again; the tiles go back (taken from the bag's far end, which is drawn last)."""
        assert self.supply is not None
        rank = {letter: k for k, letter in enumerate(self.alphabet)}
        tied = list(self.setup.players)
        bag = list(self.supply.bag)
        while len(tied) > 1 and bag:
            draws = {p: bag.pop(0) for p in tied if bag}
            best = min(rank.get(t, len(rank)) for t in draws.values())
            tied = [p for p, t in draws.items() if rank.get(t, len(rank)) == best]
        return tied[0]

    def _seat_quadrants(self) -> dict[str, int]:
        """Where each player must start when individual letters are placed by the standard layout:
        seats clockwise from the top left quadrant (two players: diagonally opposite)."""
        if not self.rules.individual_letters or self.rules.solo:
            return {}
        players = self.setup.players
        if len(players) == 2:
            return {players[0]: 0, players[1]: 2}
        return {p: k for k, p in enumerate(players)}

    def standard_individual_squares(self, player: str) -> list[Square]:
        """The squares where ``player``'s individual letters go by the rule text's standard layout."""
        layout = self.layout
        quadrant = self.seat_quadrant[player]
        if len(self.setup.players) == 2:
            home = layout.right_of(quadrant)
            top = min(layout.diamonds[home])
            squares = [top, Square(top.row, top.col - 4)]
        else:
            home = quadrant
            centre = layout.centre[quadrant]
            squares = [Square(centre.row - 4, centre.col - 1)]
        for square in squares:
            if layout.quadrant_of(square) != home:
                raise errors.RecordFormatError(
                    f"this board has no room for the standard individual letters ({square.name}); give 'individual'")
        return squares

    def _set_individual_letters(self, given: Any) -> None:
        if not self.rules.individual_letters:
            if given is not None:
                raise errors.RecordFormatError("'individual' letters belong to standard play extra or elimination")
            return
        if given is not None:
            for player, letter, square in parse_individual(given, self.setup.players):
                if len(letter) != 1 or (self.alphabet and letter not in self.alphabet):
                    raise errors.RecordFormatError(
                        f"{player}'s individual letter {letter!r} is not a letter of the {self.setup.language} tiles "
                        f"({self.alphabet})" if self.alphabet else
                        f"{player}'s individual letter {letter!r} is not one letter")
                if square not in self.board:
                    raise errors.RecordFormatError(f"{player}'s individual letter is on {self.board.label(square)}")
                if square in self.owner:
                    raise errors.RecordFormatError(f"{player}'s individual letter's square {square.name} is taken")
                self._put_individual(player, letter, square)
            return
        for player in self.setup.players:
            squares = self.standard_individual_squares(player)
            if self.supply is None:
                self.to_place[player] = squares
                continue
            for square in squares:
                tile = self.supply.draw()
                while tile == BLANK and self.supply.bag:
                    self.supply.bag.insert(0, tile)
                    tile = self.supply.draw()
                if tile is not None:
                    self._put_individual(player, tile, square)

    def _put_individual(self, player: str, letter: str, square: Square) -> None:
        self.grid = self.grid.with_letters({square: letter})
        self.owner[square] = player
        self.individual[square] = player

    def _check_excluded(self, given: Any) -> list[Square]:
        squares = parse_squares(given, "excluded")
        if len(squares) > EXCLUSION_BLANKS:
            raise errors.RecordFormatError(f"there are {EXCLUSION_BLANKS} exclusion blanks, not {len(squares)}")
        for square in squares:
            if square not in self.layout.all_stars:
                raise errors.RecordFormatError(f"'excluded' names {square.name}, which is not a star square")
        return squares

    def _default_exclusions(self) -> None:
        """Exclusion blanks by the number of players, once the starts that decide them are known."""
        if self.excluded_given or self.rules.solo or self.excluded:
            return
        n, layout = len(self.setup.players), self.layout
        used = set(self.starts.values())
        stars: frozenset[Square] = frozenset()
        if n == 3 and len(used) == 3:
            unused = ({0, 1, 2, 3} - used).pop()
            stars = frozenset(layout.outer_stars(unused))
        elif n == 2 and used:
            first = next(iter(used))
            stars = layout.back_stars(first) | layout.back_stars(layout.opposite(first))
        self.excluded = frozenset(s for s in stars if s not in self.owner)    # a covered star keeps its tile

    # -- what the table asks ----------------------------------------------------------------------
    def active(self) -> list[str]:
        """Players still in the game, in turn order."""
        return [p for p in self.order if p not in self.eliminated]

    def whose_turn(self) -> str | None:
        if self.over:
            return None
        for player in self.order:
            if self.to_place.get(player):
                return player
        return None if self.rules.speed else self.current

    def actions(self) -> tuple[Action, ...]:
        player = self.whose_turn()
        if player is None or self.to_place.get(player):
            return super().actions()
        found = [Action("pass", f"{player} passes", {"type": "pass", "player": player})]
        rack = self.supply.racks[player] if self.supply is not None else None
        bag = len(self.supply.bag) if self.supply is not None else 0
        if rack is None or (rack and bag >= len(rack)):
            tiles = {"tiles": "".join(rack)} if rack else {}
            found.append(Action("exchange", f"{player} exchanges tiles and misses the turn",
                                {"type": "exchange", "player": player, **tiles}))
        for square in sorted(self.blanks):
            letter = self.grid[square]
            if rack is None or letter in rack:
                found.append(Action(f"take-blank-{square.name}", f"{player} puts down {letter} for the blank on {square.name}",
                                    {"type": "take_blank", "player": player, "row": square.row, "col": square.col}))
        return tuple(found) + super().actions()

    def stars_of(self, player: str) -> list[Square]:
        """The star squares under ``player``'s tiles."""
        return sorted(s for s in self.layout.all_stars if self.owner.get(s) == player)

    def open_stars(self) -> list[Square]:
        """Star squares neither covered by a tile nor excluded."""
        return sorted(s for s in self.layout.all_stars if s not in self.owner and s not in self.excluded)

    def distance_to_star(self, player: str) -> int | None:
        """The fewest squares (across plus down) from a tile of ``player``'s crossword to an open
        star; ``None`` when there is no crossword or no open star."""
        stars = self.open_stars()
        tiles = self.crossword[player]
        if not stars or not tiles:
            return None
        return min(abs(s.row - t.row) + abs(s.col - t.col) for s in stars for t in tiles)

    def side_name(self, side: int) -> str:
        """A side's players joined by ``+`` (partners), or the one player."""
        return "+".join(self.sides[side])

    def side_stars(self, side: int) -> int:
        return sum(len(self.stars_of(p)) for p in self.sides[side])

    def side_target(self, side: int) -> int:
        if self.rules.partner:
            return PARTNER_TARGET
        if self.rules.solo:
            return len(self.layout.all_stars - self.excluded)
        return self.targets[self.sides[side][0]]

    # -- events -----------------------------------------------------------------------------------
    def _handle(self, event: Event) -> Outcome:
        if event.type == "time":
            return Outcome("")
        player = event.by
        if event.type == "place":
            return self._place(player, event)
        if any(self.to_place.values()):
            waiting = next(p for p in self.order if self.to_place.get(p))
            raise errors.WrongPhase(f"First the individual letters go down: {waiting} still places theirs "
                                    f"({', '.join(s.name for s in self.to_place[waiting])}).")
        if player in self.eliminated:
            raise errors.NotYourTurn(f"{player} has been eliminated and plays no more.")
        if not self.rules.speed and player != self.whose_turn():
            raise errors.NotYourTurn(f"It is {self.whose_turn()}'s turn, not {player}'s.")
        if event.type == "write":
            return self._write(player, event)
        if event.type == "take_blank":
            return self._take_blank(player, event.square)
        if event.type == "exchange":
            return self._exchange(player, str(event.get("tiles", "")))
        return self._pass(player)

    def _place(self, player: str, event: Event) -> Outcome:
        squares = self.to_place.get(player)
        if not squares:
            raise errors.WrongPhase(f"{player} has no individual letter to place now.")
        square = event.square
        if square not in squares:
            raise errors.NotPlayable(f"{player}'s individual letter goes on {' or '.join(s.name for s in squares)}, "
                                     f"not {self.board.label(square)}.", squares)
        letter = str(event["letter"]).strip().upper()
        self._check_letter(letter, square)
        self._check_set([letter])
        self._put_individual(player, letter, square)
        self.to_place[player] = [s for s in squares if s != square]
        return Outcome(f"{player} places the individual letter {letter} on {square.name}.")

    def _check_letter(self, letter: str, square: Square) -> None:
        if len(letter) != 1 or (self.alphabet and letter not in self.alphabet):
            raise errors.BadText(f"{letter!r} on {square.name} is not a letter of the {self.setup.language} tiles.", [square])

    def _check_set(self, letters: list[str], blanks: int = 0) -> None:
        """Physical tiles: the board cannot show more of a letter (or blanks) than the set has,
        with ``letters`` (real tiles) and ``blanks`` more put down."""
        if blanks + len(self.blanks) > BLANKS:
            raise NotInRack(f"A set has {BLANKS} blank tiles, and this would put {blanks + len(self.blanks)} on the board "
                            "(a lowercase letter in a write is a blank).")
        for letter in sorted(set(letters)):
            on_board = sum(1 for s, ch in self.grid.items() if ch == letter and s not in self.blanks)
            have = self.tile_counts.get(letter, 0)
            if on_board + letters.count(letter) > have:
                raise NotInRack(f"A set has {have} {letter} tile{'s' if have != 1 else ''}, and this would put "
                                f"{on_board + letters.count(letter)} on the board (a lowercase letter is a blank).")

    def _write(self, player: str, event: Event) -> Outcome:
        text = unicodedata.normalize("NFC", str(event["text"]).strip())
        for k, ch in enumerate(text):
            if not ch.isalpha() or (self.alphabet and ch.upper() not in self.alphabet):
                raise errors.BadText(
                    f"{text.upper()} cannot go down: Questique words are whole dictionary words of letters only "
                    f"(no spaces, hyphens or apostrophes), and its character {k + 1} is {ch!r}.")
        placement = analyse(self.board, self.grid, text.upper(), event.square, event.direction, require_centre=False)
        new = dict(placement.new_letters)
        blanks = [s for k, s in enumerate(self._entry_squares(placement)) if s in new and text[k].islower()]
        for square in new:
            if square in self.excluded:
                raise errors.NotPlayable(f"{square.name} is an excluded star square: an exclusion blank covers it.", [square])
        self._check_ownership(player, placement)
        first = not self.crossword[player]
        quadrant = self._check_start(player, placement) if first else None
        self._check_distance(player, placement)
        if not first:
            self._check_joins(player, placement)
        check_words(placement, self.lexicon)
        self._check_theme(player, placement)
        self._use_tiles(player, new, blanks)
        # -- accepted: the board changes
        self.grid = placement.grid_after
        self.blanks |= set(blanks)
        for square in new:
            self.owner[square] = player
        joined = set(placement.squares) | {s for w in placement.formed_words for s in w.squares}
        self.crossword[player] = self.crossword[player] | joined
        if quadrant is not None:
            self.starts[player] = quadrant
            self._default_exclusions()
        stars = tuple(s for s in new if s in self.layout.all_stars)
        words = (placement.text,) + tuple(w.text for w in placement.formed_words)
        self.words_played += words
        turn = StarTurn(player=player, event_index=len(self.events), text=placement.text,
                        words=tuple(WordScore(w, (), 0, (), 0, False) for w in words),
                        new_squares=placement.new_squares, stars=stars)
        self.turns.append(turn)
        self.passes = 0
        message = self._describe_write(player, placement, quadrant, stars)
        message += self._eliminations(player, new)
        if self.supply is not None:
            self.supply.refill(player)
        self._advance()
        return Outcome(message + self._check_win(player), turn)

    @staticmethod
    def _entry_squares(placement: Placement) -> list[Square]:
        return [placement.start.step(placement.direction, k) for k in range(len(placement.text))]

    def _check_ownership(self, player: str, placement: Placement) -> None:
        for square in placement.squares:
            owner = self.owner.get(square)
            if owner is not None and owner != player:
                raise NotYourCrossword(f"{placement.describe()} would use the {self.grid[square]} on {square.name}, "
                                       f"which is {owner}'s: letters are never added to another player's crossword.",
                                       [square])

    def _check_start(self, player: str, placement: Placement) -> int:
        layout = self.layout
        covered = [s for s in placement.squares if layout.quadrant_of(s) is not None
                   and s in layout.diamonds[layout.quadrant_of(s) or 0]]
        if not covered:
            free = [QUADRANT_NAMES[k] for k in range(4) if k not in self.starts.values()]
            raise WrongStart(f"{player}'s first word must start on a diamond start square; {placement.describe()} "
                             f"covers none (free starts: {', '.join(free)}).", placement.squares)
        quadrant = layout.quadrant_of(covered[0]) or 0
        name = QUADRANT_NAMES[quadrant]
        taken = [p for p, q in self.starts.items() if q == quadrant]
        if taken:
            raise WrongStart(f"{taken[0]} has started at the {name} diamond already: {player} starts at another.", covered)
        if self.fixed_starts and self.seat_quadrant[player] != quadrant:
            raise WrongStart(f"{player}'s individual letters are placed for a start at the "
                             f"{QUADRANT_NAMES[self.seat_quadrant[player]]} diamond, not the {name} one.", covered)
        partner = [p for p in self.sides[self.side_of[player]] if p != player and p in self.starts]
        if (len(self.setup.players) == 2 and self.starts) or partner:
            other = partner[0] if partner else next(iter(self.starts))
            wanted = layout.opposite(self.starts[other])
            if quadrant != wanted:
                who = "Partners start" if partner else "With two players the starts are"
                raise WrongStart(f"{who} diagonally opposite: {player} starts at the {QUADRANT_NAMES[wanted]} "
                                 f"diamond, not the {name} one.", covered)
        best = layout.most_diamonds(len(placement.text), quadrant)
        if len(covered) < best:
            raise WrongStart(f"A first word covers as many diamond squares as it can: {placement.text} can cover {best}, "
                             f"but at {placement.start.name} {placement.direction.value} it covers {len(covered)}.",
                             covered)
        return quadrant

    def _check_joins(self, player: str, placement: Placement) -> None:
        old = (set(placement.squares) | {s for w in placement.formed_words for s in w.squares}) \
            - set(placement.new_squares)
        if not old & self.crossword[player]:
            raise NotYourCrossword(f"{placement.describe()} does not join {player}'s crossword: each player builds "
                                   "one crossword, and a new word must cross or touch it.", placement.squares)

    def _check_distance(self, player: str, placement: Placement) -> None:
        for square in placement.new_squares:
            for dr, dc in _ORTHOGONAL:
                near = Square(square.row + dr, square.col + dc)
                owner = self.owner.get(near)
                if owner is not None and owner != player:
                    what = "individual letter" if near in self.individual else "crossword"
                    raise TooClose(f"The {dict(placement.new_letters)[square]} on {square.name} would touch {owner}'s "
                                   f"{what} at {near.name}: crosswords keep one empty square between them (corner to "
                                   "corner is allowed).", [square, near])

    def _check_theme(self, player: str, placement: Placement) -> None:
        if not self.themes:
            return
        for word in (placement.text,) + tuple(w.text for w in placement.formed_words):
            if word not in self.themes[player]:
                raise NotOnTheme(f"{word} is not on {player}'s theme list: in themed play every word fits the theme.",
                                 placement.squares)

    def _use_tiles(self, player: str, new: dict[Square, str], blanks: list[Square]) -> None:
        if self.supply is None:
            self._check_set([letter for square, letter in new.items() if square not in blanks], len(blanks))
            return
        self._check_set([], len(blanks))
        tiles = [BLANK if s in blanks else letter for s, letter in new.items()]
        short = self.supply.missing(player, tiles)
        if short:
            raise NotInRack(f"{player}'s rack has no {' '.join(short)} for this word (the rack: "
                            f"{' '.join(self.supply.racks[player])}).", list(new), private_to=player)
        self.supply.take(player, tiles)

    def _describe_write(self, player: str, placement: Placement, quadrant: int | None, stars: tuple[Square, ...]) -> str:
        if quadrant is not None:
            message = f"{player} starts at the {QUADRANT_NAMES[quadrant]} diamond with {placement.text}."
        else:
            formed = [w.text for w in placement.formed_words]
            message = f"{player} writes {placement.text}" + (f" (and {', '.join(formed)})" if formed else "") + "."
        if stars:
            count = len(self.stars_of(player))
            message += f" Star{'s' if len(stars) > 1 else ''} on {', '.join(s.name for s in stars)}: " \
                       f"{player} has {count} star{'s' if count != 1 else ''}."
        return message

    def _eliminations(self, player: str, new: dict[Square, str]) -> str:
        if not self.rules.elimination:
            return ""
        side = self.side_of[player]
        caught: list[str] = []
        for square in new:
            for dr, dc in _DIAGONAL:
                victim = self.individual.get(Square(square.row + dr, square.col + dc))
                if victim and self.side_of[victim] != side and victim not in self.eliminated and victim not in caught:
                    caught.append(victim)
        for victim in caught:
            self.eliminated.append(victim)
        if not caught:
            return ""
        message = f" Questique! {player} eliminates {' and '.join(caught)}."
        standing = {self.side_of[p] for p in self.active()}
        if self.rules.partner and caught:
            standing = {side}
        if len(standing) == 1:
            self.winning_side = standing.pop()
            self.ended = True
            message += f" {self.side_name(self.winning_side)} wins!"
        return message

    def _check_win(self, player: str) -> str:
        if self.ended:
            return ""
        side = self.side_of[player]
        if self.side_stars(side) >= self.side_target(side):
            self.winning_side, self.ended = side, True
            if self.rules.solo:
                return f" Every star is covered in {self.moves} moves with {len(set(self.words_played))} different words."
            return f" {self.side_name(side)} covers {self.side_stars(side)} stars and wins!"
        return ""

    def _take_blank(self, player: str, square: Square) -> Outcome:
        if square not in self.board:
            raise errors.OffBoard(f"There is no blank to take back at {self.board.label(square)}.", [])
        if square not in self.blanks:
            what = f"the {self.grid[square]} tile" if square in self.grid else "no tile"
            raise errors.NotPlayable(f"{square.name} holds {what}, not a blank: only a blank can be taken back.", [square])
        letter = self.grid[square]
        if self.supply is not None:
            if self.supply.missing(player, [letter]):
                raise NotInRack(f"{player} needs a {letter} to put down for the blank on {square.name} "
                                f"(the rack: {' '.join(self.supply.racks[player])}).", [square], private_to=player)
            self.supply.take(player, [letter])
            self.supply.give(player, BLANK)
        else:
            self._check_set([letter])
        self.blanks.discard(square)
        return Outcome(f"{player} puts down the {letter} on {square.name} and takes back the blank.")

    def _exchange(self, player: str, tiles_text: str) -> Outcome:
        if self.supply is not None:
            tiles = [BLANK if t == BLANK else t for t in tiles_text.replace(" ", "").upper()]
            if not tiles:
                raise NotInRack(f"Say which tiles {player} puts back (the rack: {' '.join(self.supply.racks[player])}).",
                                private_to=player)
            short = self.supply.missing(player, tiles)
            if short:
                raise NotInRack(f"{player}'s rack has no {' '.join(short)} to exchange (the rack: "
                                f"{' '.join(self.supply.racks[player])}).", private_to=player)
            if len(self.supply.bag) < len(tiles):
                raise NotInRack(f"The bag holds {len(self.supply.bag)} tiles, too few to exchange {len(tiles)}.")
            self.supply.exchange(player, tiles)
        self.passes = 0
        self._advance()
        return Outcome(f"{player} exchanges tiles with the bag and misses the turn.")

    def _pass(self, player: str) -> Outcome:
        self.passes += 1
        self._advance()
        if not self.rules.speed and self.passes >= len(self.active()):
            self.ended = True
            return Outcome(f"{player} passes. Everyone has passed in turn: the game ends. {self.standings()}")
        return Outcome(f"{player} passes.")

    def _advance(self) -> None:
        """The turn passes to the left: the next player in seat order still in the game."""
        if self.rules.speed or self.over:
            return
        k = self.order.index(self.current)
        for step in range(1, len(self.order) + 1):
            player = self.order[(k + step) % len(self.order)]
            if player not in self.eliminated:
                self.current = player
                return

    def _end(self, event: Event) -> Outcome:
        self.ended = True
        return Outcome(f"The game ends. {self.standings()}")

    def _over_reason(self) -> str:
        if self.winning_side is not None:
            return f"{self.side_name(self.winning_side)} won"
        return "it was ended"

    # -- results ----------------------------------------------------------------------------------
    @property
    def moves(self) -> int:
        """Writes made so far (solo play reports them)."""
        return len(self.turns)

    @property
    def totals(self) -> dict[str, int]:
        """Each player's stars covered."""
        return {p: len(self.stars_of(p)) for p in self.setup.players}

    @property
    def winner(self) -> str | None:
        """The winning player (partners joined by ``+``), or ``None``: no winner yet, or a tie."""
        if self.winning_side is not None:
            return self.side_name(self.winning_side)
        if not self.over or self.rules.solo:
            return None
        sides = sorted({self.side_of[p] for p in self.active()})
        if not sides:
            return None
        best = max(self.side_stars(s) for s in sides)
        leaders = [s for s in sides if self.side_stars(s) == best]
        if len(leaders) > 1:
            far = 10**9
            near = {s: min((d for p in self.sides[s] if (d := self.distance_to_star(p)) is not None), default=far)
                    for s in leaders}
            closest = min(near.values())
            leaders = [s for s in leaders if near[s] == closest and closest < far]
        return self.side_name(leaders[0]) if len(leaders) == 1 else None

    def tokens(self) -> dict[str, int]:
        """Token play: tokens each player holds at the end: one a star covered (while the pool
        lasts), the rest of the pool to the winner (a winning pair shares it, first partner first)."""
        players = self.setup.players
        pool = TOKENS * len(players)
        won = {p: 0 for p in players}
        for turn in self.turns:
            take = min(turn.score, pool)
            won[turn.player] += take
            pool -= take
        winner = self.winner
        if winner is not None and self.over:
            partners = winner.split("+")
            for k in range(pool):
                won[partners[k % len(partners)]] += 1
        return won

    def standings(self) -> str:
        stars = ", ".join(f"{p} {n}" for p, n in sorted(self.totals.items(), key=lambda kv: -kv[1]))
        winner = self.winner
        tail = f" {winner} wins." if self.over and winner else ""
        return f"Stars: {stars}.{tail}"

    def result_json(self) -> dict[str, Any]:
        data = super().result_json()
        data["eliminated"] = list(self.eliminated)
        data["excluded"] = [[s.row, s.col] for s in sorted(self.excluded)]
        data["stars"] = {p: [s.name for s in self.stars_of(p)] for p in self.setup.players}
        data["first"] = self.order[0]
        if self.rules.tokens:
            data["tokens"] = self.tokens()
        if self.rules.solo:
            data["moves"] = self.moves
            data["distinct_words"] = len(set(self.words_played))
        return data

    def state(self) -> dict[str, Any]:
        state = super().state()
        state.update(grid=self.grid.rows_text(), blanks=sorted(self.blanks), owner=sorted(self.owner.items()),
                     eliminated=list(self.eliminated), excluded=sorted(self.excluded), starts=dict(self.starts),
                     current=self.current, passes=self.passes, winner=self.winner,
                     to_place={p: list(s) for p, s in self.to_place.items()})
        if self.supply is not None:
            state.update(bag=list(self.supply.bag), racks={p: list(r) for p, r in self.supply.racks.items()})
        return state
