"""The session: every table input becomes a journaled, timestamped event for the rules.

:class:`Session` is a facade over a core and its parts (:mod:`tabletop.session.parts`):

* the core (:class:`~tabletop.session.game_core.GameCore`): the journal, the game, the table
  clock, the lock; submit, undo, pause, tick, publish;
* :class:`~tabletop.session.entry_windows.EntryWindows`: the pages' private entry windows;
* :class:`~tabletop.session.hands.Hands`: each player's handwriting lessons;
* :class:`~tabletop.session.camera_reads.CameraReads`: moves the camera saw, sure or pending;
* :class:`~tabletop.session.clue_cards.ClueCards`: the seeded clue deck;
* :class:`~tabletop.session.device_status.DeviceStatus`: what the devices report.

Each part owns its state and the journal kinds it writes; resuming replays every entry through
the kind -> replayer map they declare. A game in the journal can be resumed
(:meth:`Session.resume`) after a crash with nothing lost, and exported as a record that
``tabletop replay`` accepts.

Thread-safe: device threads, the web server and the console all call in; one lock orders them.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, Callable, Iterable

from rules import errors
from rules.game import Game, GameSetup
from rules.games import new_game
from rules.record import Record
from tabletop.errors import UserError
from tabletop.games.table import TableGame, Window
from tabletop.session import views
from tabletop.session.camera_reads import CameraMove, CameraReads
from tabletop.session.clock import TableClock
from tabletop.session.clue_cards import ClueCards
from tabletop.session.device_status import DeviceStatus
from tabletop.session.entry_windows import EntryWindows, HostWindow
from tabletop.session.game_core import GameCore
from tabletop.session.hands import Hands
from tabletop.session.join_codes import new_codes
from tabletop.session.journal import Journal
from tabletop.session.parts import Replayer
from tabletop.session.refusals import BadEntry, EntryRefused, NotYourEntry
from tabletop.session.result import Result

log = logging.getLogger(__name__)

__all__ = ["BadEntry", "CameraMove", "EntryRefused", "HostWindow", "NotYourEntry", "Result", "Session"]


def _setup_dict(setup: GameSetup, board_ref: str, lexicon_ref: str | None) -> dict[str, Any]:
    return {"game": setup.game, "variant": setup.variant, "players": list(setup.players), "seed": setup.seed,
            "language": setup.language, "rounds": setup.rounds, "board": board_ref, "lexicon": lexicon_ref,
            "options": dict(setup.options)}


def make_tokens(players: Iterable[str]) -> dict[str, Any]:
    """A fresh host token, one token a seat, each seat's short join code
    (:mod:`tabletop.session.join_codes`) and the camera page's token."""
    players = list(players)
    return {"host": secrets.token_urlsafe(12), "seats": {p: secrets.token_urlsafe(12) for p in players},
            "codes": new_codes(players), "camera": secrets.token_urlsafe(12)}


def load_game_parts(setup: dict[str, Any], base: Any = None) -> tuple[Any, Any]:
    """The board and lexicon a session set-up names."""
    from tabletop.lexicons import builtin_lexicon, load_wordlist
    from tabletop.records import amend
    from tabletop.resources import load_board
    from rules.games import game_class

    layers = (game_class(setup["game"]) if setup.get("game") else Game).board_layers
    board = load_board(setup["board"], relative_to=base, required=layers) if setup.get("board") else None
    lexicon = load_wordlist(setup["lexicon"]) if setup.get("lexicon") else builtin_lexicon(setup.get("language", "en"))
    return board, amend(lexicon, setup.get("options") or {})


class Session:
    """One game at the table (see the module docstring)."""

    def __init__(self, journal: Journal, game_id: str, setup: dict[str, Any], *, board: Any = None,
                 lexicon: Any = None, clock: TableClock | None = None, deck: Any = None):
        if board is None or lexicon is None:
            b, lx = load_game_parts(setup)
            board, lexicon = board or b, lexicon or lx
        self.core = GameCore(journal, game_id, setup, board=board, lexicon=lexicon, clock=clock or TableClock())
        self.hands = Hands(self.core)
        self.camera = CameraReads(self.core, self.hands)
        self.entry_windows = EntryWindows(self.core)
        self.clue_cards = ClueCards(self.core, deck)
        self.device_status = DeviceStatus(self.core)
        #: the box's own plain letter dice (``play --dice SET.toml``), for the camera's dice reader
        self.dice_set: tuple[tuple[str, ...], ...] | None = None

    # -- the core's state, read through the facade ----------------------------------------------
    @property
    def journal(self) -> Journal:
        return self.core.journal

    @property
    def game_id(self) -> str:
        return self.core.game_id

    @property
    def setup(self) -> GameSetup:
        return self.core.setup

    @property
    def setup_data(self) -> dict[str, Any]:
        return self.core.setup_data

    @property
    def board(self) -> Any:
        return self.core.board

    @property
    def lexicon(self) -> Any:
        return self.core.lexicon

    @property
    def game(self) -> Game:
        return self.core.game

    @property
    def table(self) -> TableGame[Any]:
        return self.core.table

    @property
    def clock(self) -> TableClock:
        return self.core.clock

    @property
    def tokens(self) -> dict[str, Any]:
        return self.core.tokens

    @property
    def lock(self) -> Any:
        """The session's lock (an RLock): hold it to read several things that must agree."""
        return self.core.lock

    @property
    def applied(self) -> list[int]:
        return self.core.applied

    @property
    def log(self) -> list[dict[str, Any]]:
        return self.core.log

    @property
    def private_log(self) -> list[dict[str, Any]]:
        return self.core.private_log

    @property
    def paused(self) -> bool:
        return self.core.paused

    @property
    def last_result(self) -> Result | None:
        return self.core.last_result

    @property
    def resume_warnings(self) -> list[str]:
        return self.core.resume_warnings

    @property
    def deck(self) -> Any:
        """The seeded clue deck (``None``: the game has none, or cards are read from the table)."""
        return self.clue_cards.deck

    @deck.setter
    def deck(self, deck: Any) -> None:
        with self.lock:
            self.clue_cards.deck = deck

    @property
    def devices(self) -> dict[str, str]:
        return self.device_status.devices

    @property
    def board_read(self) -> list[str] | None:
        return self.device_status.board_read

    @property
    def pending_reads(self) -> list[dict[str, Any]]:
        """The camera reads waiting for the host, oldest first (copies)."""
        return self.camera.reads()

    @property
    def host_windows(self) -> dict[str, HostWindow]:
        return self.entry_windows.host_windows

    @property
    def hand_lessons(self) -> dict[str, list[dict[str, Any]]]:
        return self.hands.lessons

    @property
    def hand_resets(self) -> dict[str, int]:
        return self.hands.resets

    # -- creating and resuming ------------------------------------------------------------------
    @classmethod
    def create(cls, journal: Journal, setup: GameSetup, board_ref: str, lexicon_ref: str | None = None, *,
               board: Any = None, lexicon: Any = None, clock: TableClock | None = None, deck: Any = None,
               game_id: str | None = None, tokens: dict[str, Any] | None = None,
               deck_ref: str | None = None) -> "Session":
        """Journal a new game's set-up (refused before anything is written if the rules refuse it)."""
        data = _setup_dict(setup, board_ref, lexicon_ref)
        data["tokens"] = tokens or make_tokens(setup.players)
        if deck_ref:
            data["deck"] = deck_ref
        if board is None or lexicon is None:
            b, lx = load_game_parts(data)
            board, lexicon = board or b, lexicon or lx
        new_game(setup, board, lexicon)         # refuse a bad set-up before journaling it
        game_id = journal.create_game(data, game_id=game_id)
        return cls(journal, game_id, data, board=board, lexicon=lexicon, clock=clock, deck=deck)

    @classmethod
    def resume(cls, journal: Journal, game_id: str, *, board: Any = None, lexicon: Any = None,
               clock: TableClock | None = None, deck: Any = None) -> "Session":
        """Rebuild a journaled game: apply its accepted (and pending) events, skip rejected ones."""
        info = journal.game(game_id)
        if info is None:
            known = ", ".join(g.id for g in journal.games()) or "none"
            raise UserError(f"no game {game_id!r} in the journal {journal.path} (games: {known})")
        clock = clock or TableClock()
        session = cls(journal, game_id, info.setup, board=board, lexicon=lexicon, clock=clock, deck=deck)
        session._replay_journal()
        clock.set(max(info.clock, session.game.last_time or 0.0))
        if session.paused:
            clock.pause()
        return session

    def replayers(self) -> dict[str, Replayer]:
        """Every journal kind the session writes -> the part that replays it."""
        replayers = dict(self.core.replayers())
        for part in (self.hands, self.camera, self.entry_windows, self.clue_cards, self.device_status):
            for kind, replayer in part.replayers().items():
                if kind in replayers:
                    raise RuntimeError(f"two parts of the session replay the journal kind {kind!r}")
                replayers[kind] = replayer
        return replayers

    def _replay_journal(self) -> None:
        """Apply the journal again; an entry that cannot be used is skipped and reported, so one
        bad entry can never make a game unrecoverable."""
        replayers = self.replayers()
        warnings = self.core.resume_warnings
        for entry in self.journal.entries(self.game_id):
            replayer = replayers.get(entry.kind)
            if replayer is None:
                warnings.append(f"journal entry {entry.seq} is of a kind this table does not know ({entry.kind!r}); "
                                "it was skipped")
                continue
            try:
                replayer(entry)
            except (KeyError, TypeError, ValueError, RuntimeError, errors.RulesError) as error:
                warnings.append(f"journal entry {entry.seq} ({entry.kind}) was skipped: {error!r}"[:300])
        warnings.extend(self.journal.unreadable)

    # -- the core -------------------------------------------------------------------------------
    def submit(self, event: dict[str, Any], source: str | None = "console") -> Result:
        """Journal ``event``, then apply it (:meth:`GameCore.submit <tabletop.session.game_core.GameCore.submit>`)."""
        return self.core.submit(event, source)

    def validated(self, event: object) -> dict[str, Any]:
        """``event`` checked for shape, types and size before it may be journaled, stamped with ``t``."""
        return self.core.validated(event)

    def undo(self, source: str = "host") -> Result | None:
        """Take back the last accepted event (journaled as an ``undo`` entry)."""
        return self.core.undo(source)

    def pause(self, source: str = "host") -> None:
        """Stop the table clock (journalled)."""
        self.core.pause(source)

    def unpause(self, source: str = "host") -> None:
        """Start the table clock again (journalled)."""
        self.core.unpause(source)

    def tick(self) -> list[Result]:
        """Let the clock act: submit the events a running-out window produces."""
        return self.core.tick()

    def checkpoint(self) -> None:
        """Save the table clock, so a resumed game continues its time."""
        self.core.checkpoint()

    def buzz(self, player: str, t: float | None = None, source: str = "buzzer") -> Result | None:
        """A buzz-in press by ``player`` (at table time ``t``): a ``hand`` when it means one."""
        return self.core.buzz(player, t, source)

    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Call ``callback`` with every message the session publishes; returns the unsubscriber."""
        return self.core.subscribe(callback)

    def record(self) -> Record:
        """The game's record, as ``tabletop replay`` reads it."""
        return self.core.record()

    def finish(self) -> None:
        """Mark the game over in the journal once the rules say it is."""
        self.core.finish()

    def host_action(self, key: str, source: str = "host") -> Result | None:
        """Do what the game's action ``key`` says (``answer-right``, ``pass``...; ``clue`` draws a card).

        Buttons, the console and the pages all find actions by these stable keys, never by label.
        Returns ``None`` when no such action is possible now.
        """
        with self.lock:
            action = next((a for a in self.game.actions() if a.key == key), None)
            if action is None:
                return None
            if key == "clue" and self.deck is not None:
                return self.clue_cards.draw(source=source)
            return self.submit(dict(action.event), source=source)

    # -- clue cards -----------------------------------------------------------------------------
    def next_clue(self) -> Any:
        """The next card of the seeded deck and the clue to read: ``(card, clue)`` or ``None``."""
        return self.clue_cards.next_clue()

    def draw(self, source: str = "host", clue: int = 0) -> Result:
        """Draw the next clue card for the player due to ask (its clue number ``clue``)."""
        return self.clue_cards.draw(source, clue)

    def clue_asker(self) -> str | None:
        """The player the rules say takes the next clue card now, or ``None``."""
        return self.clue_cards.asker()

    # -- entry windows --------------------------------------------------------------------------
    def windows(self) -> list[Window]:
        """The entry windows open now."""
        return self.entry_windows.windows()

    def open_window(self, seats: Iterable[str] | None, seconds: float, prompt: str = "",
                    source: str = "host") -> HostWindow:
        """Open a private entry window for ``seats`` (everyone's words stay hidden until it closes)."""
        return self.entry_windows.open_window(seats, seconds, prompt, source)

    def enter(self, seat: str, entry: dict[str, Any]) -> Result | dict[str, Any]:
        """A player page's entry (:meth:`EntryWindows.enter <tabletop.session.entry_windows.EntryWindows.enter>`)."""
        return self.entry_windows.enter(seat, entry)

    def entries_for(self, seat: str | None) -> list[dict[str, Any]]:
        """Host windows as ``seat`` may see them (``None``: the host)."""
        return self.entry_windows.entries_for(seat)

    # -- the camera -----------------------------------------------------------------------------
    def camera_move(self, move: CameraMove, source: str = "camera") -> Result | None:
        """A move the camera saw (:meth:`CameraReads.seen <tabletop.session.camera_reads.CameraReads.seen>`)."""
        return self.camera.seen(move, source)

    def camera_read(self, detection: dict[str, Any], needs_confirmation: bool, source: str = "camera",
                    lesson: dict[str, Any] | None = None) -> Result | None:
        """A camera read as an event dict (its ``t`` the time seen): sure reads are submitted at
        once, unsure ones wait for the host. ``lesson``: the read's new letters' images."""
        return self.camera.seen(CameraMove(detection, detection.get("t"), not needs_confirmation, lesson), source)

    def answer_reading(self, seat: str, read: int, text: str) -> Result:
        """``seat`` settles the unsure read ``read`` of a word they wrote, on their own phone
        (:meth:`CameraReads.answered_by_writer <tabletop.session.camera_reads.CameraReads.answered_by_writer>`)."""
        return self.camera.answered_by_writer(seat, read, text)

    def confirm_read(self, index: int = 0, source: str = "host") -> Result:
        """The host confirms an unsure camera read: it becomes the event."""
        return self.camera.confirm(index, source)

    def discard_read(self, index: int = 0, source: str = "host") -> dict[str, Any]:
        """The host discards an unsure camera read; returns its event."""
        return self.camera.discard(index, source)

    def set_device(self, name: str, status: str) -> None:
        """A device reports its status (shown on the scoreboard)."""
        self.device_status.set(name, status)

    def set_board_read(self, rows: list[str]) -> None:
        """The camera's latest still read of the board."""
        self.device_status.set_board_read(rows)

    # -- hands ----------------------------------------------------------------------------------
    def teach_hand(self, player: str, lesson: dict[str, Any], source: str | None = "camera") -> None:
        """Journal ``lesson`` as ``player``'s hand, then keep it."""
        self.hands.teach(player, lesson, source)

    def reset_hand(self, player: str, source: str | None = "host") -> None:
        """Forget what the table learnt of ``player``'s hand (journalled)."""
        self.hands.reset(player, source)

    def hand_letters(self, player: str) -> int:
        """How many of ``player``'s letters the table has learnt from."""
        return self.hands.hand_letters(player)

    # -- views ----------------------------------------------------------------------------------
    def title(self) -> str:
        """The game's name for people: 'eXtraDICTION SP (classic)'."""
        return views.title(self.game)

    def view(self) -> dict[str, Any]:
        """The public scoreboard (:func:`tabletop.session.views.scoreboard`)."""
        return views.scoreboard(self)

    def host_view(self) -> dict[str, Any]:
        """The host's console (:func:`tabletop.session.views.host`)."""
        return views.host(self)

    def seat_view(self, seat: str, *, buzzers: bool = False, scan: bool = False) -> dict[str, Any]:
        """What ``seat``'s own page shows (:func:`tabletop.session.views.seat`)."""
        return views.seat(self, seat, buzzers=buzzers, scan=scan)

    def board_json(self) -> dict[str, Any]:
        """The board's size and layers (:func:`tabletop.session.views.board_layers`)."""
        return views.board_layers(self.board)
