"""The session: every table input becomes a journaled, timestamped event for the rules.

:class:`Session` owns the game, its journal and its table clock. :meth:`Session.submit` stamps
an event with the clock, appends it to the journal (committed) and only then hands it to the
rules; the outcome (or the rejection) is written back and published to every subscriber: the
scoreboard pages, the announcer, the lights and the sand timer. A game in the journal can be
resumed (:meth:`Session.resume`) after a crash with nothing lost, and exported as a record
that ``tabletop replay`` accepts.

Thread-safe: device threads, the web server and the console all call in; one lock orders them.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from dataclasses import dataclass
from typing import Any, Callable

from rules import errors
from rules.events import parse_event
from rules.game import Game, GameSetup
from rules.games import new_game
from rules.record import Record, record_of
from tabletop.errors import UserError
from tabletop.session.clock import TableClock
from tabletop.session.journal import Journal
from tabletop.games import spec as game_spec
from tabletop.games.table import TableGame
from tabletop.session.camera_reads import CameraReads
from tabletop.session.clue_cards import ClueCards
from tabletop.session.entry_windows import EntryWindows, HostWindow
from tabletop.session.hands import Hands
from tabletop.session.refusals import BadEntry, EntryRefused, NotYourEntry
from tabletop.session.views import Views

LOG_LINES = 30
#: the largest event (as JSON) the session journals
MAX_EVENT_CHARS = 16_384
log = logging.getLogger(__name__)

__all__ = ["BadEntry", "EntryRefused", "HostWindow", "NotYourEntry", "Result", "Session"]


@dataclass
class Result:
    """What became of one input."""

    seq: int
    status: str                    # 'accepted' or 'rejected'
    message: str
    event: dict
    source: str | None = None
    turn: dict | None = None
    rule: str | None = None
    ignored: bool = False

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    def to_json(self) -> dict:
        data = {"seq": self.seq, "status": self.status, "message": self.message, "event": self.event,
                "source": self.source}
        if self.turn is not None:
            data["turn"] = self.turn
        if self.rule:
            data["rule"] = self.rule
        if self.ignored:
            data["ignored"] = True
        return data


def _setup_dict(setup: GameSetup, board_ref: str, lexicon_ref: str | None) -> dict:
    return {"game": setup.game, "variant": setup.variant, "players": list(setup.players), "seed": setup.seed,
            "language": setup.language, "rounds": setup.rounds, "board": board_ref, "lexicon": lexicon_ref,
            "options": dict(setup.options)}


def make_tokens(players) -> dict:
    return {"host": secrets.token_urlsafe(12), "seats": {p: secrets.token_urlsafe(12) for p in players}}


def load_game_parts(setup: dict, base=None):
    """The board and lexicon a session set-up names."""
    from tabletop.lexicons import builtin_lexicon, load_wordlist
    from tabletop.records import amend
    from tabletop.resources import load_board
    from rules.game import Game
    from rules.games import game_class

    layers = (game_class(setup["game"]) if setup.get("game") else Game).board_layers
    board = load_board(setup["board"], relative_to=base, required=layers) if setup.get("board") else None
    lexicon = load_wordlist(setup["lexicon"]) if setup.get("lexicon") else builtin_lexicon(setup.get("language", "en"))
    return board, amend(lexicon, setup.get("options") or {})


class Session(ClueCards, CameraReads, EntryWindows, Hands, Views):
    """One game at the table (see the module docstring)."""

    def __init__(self, journal: Journal, game_id: str, setup: dict, *, board=None, lexicon=None,
                 clock: TableClock | None = None, deck=None):
        self.journal = journal
        self.game_id = game_id
        self.setup_data = setup
        if board is None or lexicon is None:
            b, lx = load_game_parts(setup)
            board, lexicon = board or b, lexicon or lx
        self.board, self.lexicon = board, lexicon
        self.setup = GameSetup(setup["game"], tuple(setup["players"]), variant=setup.get("variant"),
                               seed=setup.get("seed", 0), language=setup.get("language", "en"),
                               rounds=setup.get("rounds"), options=dict(setup.get("options") or {}))
        self.table: TableGame = game_spec(self.setup.game).table
        self.game: Game = new_game(self.setup, board, lexicon)
        self.clock = clock or TableClock()
        self.tokens = setup.get("tokens") or {"host": "", "seats": {}}
        self.deck = deck
        self._lock = threading.RLock()
        self._subscribers: list[Callable[[dict], None]] = []
        self.applied: list[int] = []             # journal seq of each event in game.events
        self.log: list[dict] = []
        self.host_windows: dict[str, HostWindow] = {}
        self.last_result: Result | None = None
        self.paused = False
        self.devices: dict[str, str] = {}        # device name -> status, shown on the scoreboard
        self.pending_reads: list[dict] = []      # camera reads waiting for the host's confirmation
        self._pending_lessons: list[dict | None] = []
        self.resume_warnings: list[str] = []
        self.board_read: list[str] | None = None   # what the camera last saw on the board
        self.hand_lessons: dict[str, list[dict]] = {}   # per player, the letters of their confirmed reads
        self.hand_resets: dict[str, int] = {}

    # -- creating and resuming ------------------------------------------------------------------
    @classmethod
    def create(cls, journal: Journal, setup: GameSetup, board_ref: str, lexicon_ref: str | None = None, *,
               board=None, lexicon=None, clock=None, deck=None, game_id: str | None = None,
               tokens: dict | None = None, deck_ref: str | None = None) -> "Session":
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
    def resume(cls, journal: Journal, game_id: str, *, board=None, lexicon=None, clock=None,
               deck=None) -> "Session":
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

    def _replay_journal(self) -> None:
        """Apply the journal again; an entry that cannot be used is skipped and reported, so one
        bad entry can never make a game unrecoverable."""
        for entry in self.journal.entries(self.game_id):
            try:
                self._replay_entry(entry)
            except (KeyError, TypeError, ValueError, RuntimeError, errors.RulesError) as error:
                self.resume_warnings.append(f"journal entry {entry.seq} ({entry.kind}) was skipped: {error!r}"[:300])
        self.resume_warnings.extend(self.journal.unreadable)

    def _replay_entry(self, entry) -> None:
        if entry.kind == "event":
            if entry.status == "rejected":
                return
            result = self._apply(entry.seq, entry.body, entry.source)
            if entry.status == "pending":
                self._settle(result)
            elif result.status != entry.status:
                # only a change of the rules between runs can do this: keep the game going, say so
                self.resume_warnings.append(f"journal entry {entry.seq} was {entry.status} but is now "
                                            f"{result.status}: {result.message}")
            self._log(result)
        elif entry.kind == "undo":
            self._undo_to(entry.body["seq"])
        elif entry.kind == "pause":
            self.paused = True
        elif entry.kind == "resume":
            self.paused = False
        elif entry.kind == "window":
            body = entry.body
            self.host_windows[body["id"]] = HostWindow(str(body["id"]), tuple(body["seats"]), float(body["deadline"]),
                                                       str(body.get("prompt", "")))
        elif entry.kind == "hand-lesson":
            self._keep_lesson(entry.body)
        elif entry.kind == "hand-reset":
            self._forget_hand(entry.body["player"])
        elif entry.kind == "entry":
            body = entry.body
            self.host_windows[body["window"]].entries.setdefault(body["seat"], []).append(
                {"text": str(body["text"]), "t": entry.t})

    # -- the event path -------------------------------------------------------------------------
    def submit(self, event: dict, source: str | None = "console") -> Result:
        """Journal ``event`` (stamped with the table clock if it has no ``t``), then apply it.

        A malformed event (wrong field types, a non-finite number, oversized text) is refused
        with :class:`~tabletop.session.refusals.BadEntry` and never journaled; a well-formed event
        the rules refuse is journaled and settled as ``rejected``.
        """
        with self._lock:
            event = self.validated(event)
            seq = self.journal.append(self.game_id, "event", event, t=event["t"], source=source)
            result = self._apply(seq, event, source)
            self._settle(result)
            self._log(result)
            self.last_result = result
            self._publish({"kind": "result", "result": result.to_json()})
            return result

    def validated(self, event: object) -> dict:
        """``event`` checked for shape, types and size before it may be journaled, stamped with ``t``."""
        if not isinstance(event, dict):
            raise BadEntry("An event must be a JSON object.")
        event = dict(event)
        if event.get("t") is None:
            event["t"] = self.clock.now()
        try:
            parse_event(event, self.game.schemas)
        except errors.EventFormatError as error:
            raise BadEntry(f"Refused, not recorded: {error}.") from None
        if len(json.dumps(event, ensure_ascii=False)) > MAX_EVENT_CHARS:
            raise BadEntry(f"Refused, not recorded: an event is at most {MAX_EVENT_CHARS} characters of JSON.")
        return event

    def _apply(self, seq: int, event: dict, source: str | None) -> Result:
        try:
            outcome = self.game.apply(event)
        except errors.Rejection as rejection:
            return Result(seq, "rejected", str(rejection), event, source, rule=rejection.rule)
        except errors.EventFormatError as error:
            return Result(seq, "rejected", str(error), event, source, rule="malformed")
        self.applied.append(seq)
        turn = outcome.turn.to_json() if outcome.turn is not None else None
        return Result(seq, "accepted", outcome.message, event, source, turn=turn, ignored=outcome.ignored)

    def _settle(self, result: Result) -> None:
        payload: dict[str, Any] = {"message": result.message}
        if result.turn is not None:
            payload["turn"] = result.turn
        if result.rule:
            payload["rule"] = result.rule
        self.journal.settle(self.game_id, result.seq, result.status, payload)

    def _log(self, result: Result) -> None:
        if result.message:
            self.log.append({"seq": result.seq, "t": result.event.get("t"), "status": result.status,
                             "message": result.message})
            del self.log[:-LOG_LINES]

    # -- host actions ---------------------------------------------------------------------------
    def undo(self, source: str = "host") -> Result | None:
        """Take back the last accepted event (journaled as an ``undo`` entry)."""
        with self._lock:
            if not self.applied:
                return None
            target = self.applied[-1]
            seq = self.journal.append(self.game_id, "undo", {"seq": target}, t=self.clock.now(), source=source)
            undone = self.game.events[-1].to_json()
            self._undo_to(target)
            result = Result(seq, "accepted", f"Undone: the last {undone.get('type')} "
                            f"{'by ' + undone['player'] if undone.get('player') else ''}".strip() + ".", undone, source)
            self._log(result)
            self._publish({"kind": "undo", "result": result.to_json()})
            return result

    def _undo_to(self, target: int) -> None:
        if not self.applied or self.applied[-1] != target:
            raise RuntimeError(f"undo of entry {target} is not the last accepted event")
        events = [e.to_json() for e in self.game.events[:-1]]
        seqs = self.applied[:-1]
        self.game = new_game(self.setup, self.board, self.lexicon)
        self.applied = []
        for seq, event in zip(seqs, events):
            self.game.apply(event)
            self.applied.append(seq)

    def pause(self, source: str = "host") -> None:
        with self._lock:
            if self.paused:
                return
            self.journal.append(self.game_id, "pause", {}, t=self.clock.now(), source=source)
            self.paused = True
            self.clock.pause()
            self._publish({"kind": "pause"})

    def unpause(self, source: str = "host") -> None:
        with self._lock:
            if not self.paused:
                return
            self.journal.append(self.game_id, "resume", {}, t=self.clock.now(), source=source)
            self.paused = False
            self.clock.resume()
            self._publish({"kind": "resume"})

    def tick(self) -> list[Result]:
        """Let the clock act: submit the events a running-out window produces."""
        results: list[Result] = []
        with self._lock:
            if self.paused:
                return results
            now = self.clock.now()
            for event in self.game.due(now):
                results.append(self.submit(event, source="clock"))
        return results

    def checkpoint(self) -> None:
        self.journal.checkpoint_clock(self.game_id, self.clock.now())

    def buzz(self, player: str, t: float | None = None, source: str = "buzzer") -> Result | None:
        """A buzz-in press by ``player`` (at table time ``t``): a ``hand`` when it means one."""
        with self._lock:
            event = self.table.buzz(self.game, player)
            if event is None:
                return None
            if t is not None:
                event["t"] = t
            return self.submit(event, source=source)

    # -- views ----------------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[dict], None]) -> Callable[[], None]:
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _publish(self, message: dict) -> None:
        for callback in list(self._subscribers):
            try:
                callback(message)
            except Exception:            # a broken page must never stop the table
                log.exception("a subscriber of game %s failed", self.game_id)

    # -- records --------------------------------------------------------------------------------
    def record(self) -> Record:
        with self._lock:
            return record_of(self.game, self.setup_data["board"], self.setup_data.get("lexicon"))

    def finish(self) -> None:
        if self.game.over:
            self.journal.set_status(self.game_id, "over")
