"""The games at the table: one registry, filled by the game modules of this package.

A game is its rules module (``rules/<game>.py``, registered with
:func:`rules.games.register_game`) plus its table module here (``tabletop/games/<game>.py``),
which registers one :class:`GameSpec`: the table adapter, the demo's players and script, the
built-in board, and the kind of piece the camera reads (:mod:`tabletop.pieces`). The CLI's choices, ``demo``,
``play``, ``score``, ``print-board`` and their help texts all come from :func:`games`, so adding
a game is adding those two files; no list elsewhere names it (docs/adding-a-game.md).

>>> [spec.game_id for spec in games()][:2]
['extradiction', 'extradiction-sp']
>>> spec("extradiction-sp").title
'eXtraDICTION SP'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator

from tabletop.errors import UserError
from tabletop.registry import import_all

if TYPE_CHECKING:
    from rules.game import Game
    from tabletop.games.table import TableGame

#: a demo script: ``script(get_game, deck, seed)`` yields the simulated players' actions
DemoScript = Callable[..., Iterator[Any]]

@dataclass(frozen=True)
class Demo:
    """How ``tabletop demo GAME`` plays the game: who sits at the table and what they do."""

    players: tuple[str, ...]
    script: DemoScript
    variant: str | None = None
    options: tuple[tuple[str, Any], ...] = ()     # set-up options, e.g. (("pieces", "virtual"),)


@dataclass(frozen=True)
class GameSpec:
    """Everything the application knows of one game, registered once by its table module."""

    game_id: str
    table: "TableGame[Any]"           # the adapter, typed for its own rules class
    summary: str
    demo: Demo | None = None
    board: str | None = None          # the built-in board (None: the game has no board)
    pieces: str | None = None         # the kind of piece the camera reads (tabletop.pieces; None: nothing)
    languages: tuple[str, ...] = ("en", "uk")
    legend: tuple[str, ...] = ()      # lines printed under the board (default: vision.printing.LEGEND)

    @property
    def rules(self) -> type["Game"]:
        """The rules class (from the rules core's own registry)."""
        from rules.games import game_class
        return game_class(self.game_id)

    @property
    def title(self) -> str:
        return self.rules.title

    def players_text(self) -> str:
        """'2 to 4 players', for help texts and messages."""
        low, high = self.rules.min_players, self.rules.max_players
        return f"{low} player{'s' if low != 1 else ''}" if low == high else f"{low} to {high} players"


_SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Put a game at the table (its table module calls this once, at import)."""
    _SPECS[spec.game_id] = spec
    return spec


def unregister(game_id: str) -> None:
    """Take a game away again (tests register toy games)."""
    _SPECS.pop(game_id, None)


def _discover() -> None:
    import_all("tabletop.games", skip=("table",))


def games() -> list[GameSpec]:
    """Every game at the table: the built-in ones by their modules' names, then those registered
    at run time, in their order (the same order however the modules were first imported)."""
    _discover()
    specs = list(_SPECS.values())

    def builtin(spec: GameSpec) -> str | None:
        module = type(spec.table).__module__
        return module if module.startswith(f"{__name__}.") else None

    return sorted((s for s in specs if builtin(s)), key=lambda s: builtin(s) or "") + \
        [s for s in specs if not builtin(s)]


def game_ids() -> list[str]:
    """The ids of :func:`games`."""
    return [g.game_id for g in games()]


def spec(game_id: str) -> GameSpec:
    """The game ``game_id``; a :class:`~tabletop.errors.UserError` naming the games if unknown."""
    _discover()
    try:
        return _SPECS[game_id]
    except KeyError:
        raise UserError(f"no game {game_id!r}; the games are: {', '.join(game_ids())}") from None
