"""The session's core: the journal, the game, the table clock and the lock.

:meth:`GameCore.submit` stamps an event with the clock, appends it to the journal (committed)
and only then hands it to the rules; the outcome (or the rejection) is written back and
published to every subscriber. Undo, pause and the clock's own events (:meth:`GameCore.tick`)
are journalled the same way. The session's parts (:mod:`tabletop.session.parts`) reach the
core through :class:`~tabletop.session.parts.Core`; every change of state takes :attr:`lock`.

>>> from tabletop.session.journal import Journal
>>> from tabletop.session.clock import SimClock
>>> from rules.lexicon import Lexicon
>>> from tabletop.resources import load_board
>>> journal = Journal(":memory:")
>>> setup = {"game": "extradiction", "players": ["Ann", "Ben"], "board": "extradiction"}
>>> gid = journal.create_game(setup, game_id="g1")
>>> core = GameCore(journal, gid, setup, board=load_board("extradiction"), lexicon=Lexicon(["CAT"]),
...                 clock=SimClock())
>>> core.submit({"type": "pass", "player": "Ann"}).status
'accepted'
"""

from __future__ import annotations

import json
import logging
import threading
from typing import TYPE_CHECKING, Any, Callable, Mapping

from rules import errors
from rules.events import parse_event
from rules.game import Game, GameSetup
from rules.games import new_game
from rules.record import Record, record_of
from tabletop.games import spec as game_spec
from tabletop.session.clock import TableClock
from tabletop.session.journal import Entry, Journal
from tabletop.session.refusals import BadEntry
from tabletop.session.result import Result

if TYPE_CHECKING:
    from rules.board import Board
    from rules.lexicon import Lexicon
    from tabletop.games.table import TableGame
    from tabletop.session.parts import Replayer

#: the public log keeps this many lines
LOG_LINES = 30
#: the largest event (as JSON) the session journals
MAX_EVENT_CHARS = 16_384
log = logging.getLogger(__name__)


def game_setup(data: Mapping[str, Any]) -> GameSetup:
    """The rules' :class:`~rules.game.GameSetup` of a journalled set-up dict.

    >>> game_setup({"game": "extradiction", "players": ["Ann"]}).players
    ('Ann',)
    """
    return GameSetup(data["game"], tuple(data["players"]), variant=data.get("variant"), seed=data.get("seed", 0),
                     language=data.get("language", "en"), rounds=data.get("rounds"),
                     options=dict(data.get("options") or {}))


class GameCore:
    """The journal, the game, the clock and the lock: everything a part of the session builds on."""

    kinds = ("event", "undo", "pause", "resume")

    def __init__(self, journal: Journal, game_id: str, setup: dict[str, Any], *, board: "Board | None",
                 lexicon: "Lexicon", clock: TableClock):
        self.journal = journal
        self.game_id = game_id
        self.setup_data = setup
        self.setup = game_setup(setup)
        self.board, self.lexicon = board, lexicon
        self._table: TableGame[Any] = game_spec(self.setup.game).table
        self._game: Game = new_game(self.setup, board, lexicon)
        self.clock = clock
        self.tokens: dict[str, Any] = setup.get("tokens") or {"host": "", "seats": {}}
        self.lock = threading.RLock()
        self._subscribers: list[Callable[[dict[str, Any]], None]] = []
        self.applied: list[int] = []             # journal seq of each event in game.events
        self.log: list[dict[str, Any]] = []          # what everyone may read
        self.private_log: list[dict[str, Any]] = []  # private refusals, each with the player it is "to"
        self.last_result: Result | None = None
        self.paused = False
        self.resume_warnings: list[str] = []    # what resuming could not use, said to the host

    @property
    def game(self) -> Game:
        """The rules' game as the journal has made it so far."""
        return self._game

    @property
    def table(self) -> "TableGame[Any]":
        """How the game sits at the table (its adapter)."""
        return self._table

    # -- the journal ----------------------------------------------------------------------------
    def append(self, kind: str, body: dict[str, Any], source: str | None, t: float | None = None) -> int:
        """Journal an entry of ``kind`` (committed) at table time ``t`` (default: now); its ``seq``."""
        return self.journal.append(self.game_id, kind, body, t=self.clock.now() if t is None else t, source=source)

    def replayers(self) -> dict[str, "Replayer"]:
        """The core's journal kinds and what applies each again on resume."""
        return {"event": self._replay_event, "undo": lambda entry: self._undo_to(entry.body["seq"]),
                "pause": lambda entry: setattr(self, "paused", True),
                "resume": lambda entry: setattr(self, "paused", False)}

    def _replay_event(self, entry: Entry) -> None:
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

    # -- the event path -------------------------------------------------------------------------
    def submit(self, event: dict[str, Any], source: str | None = "console") -> Result:
        """Journal ``event`` (stamped with the table clock if it has no ``t``), then apply it.

        A malformed event (wrong field types, a non-finite number, oversized text) is refused
        with :class:`~tabletop.session.refusals.BadEntry` and never journaled; a well-formed event
        the rules refuse is journaled and settled as ``rejected``.
        """
        with self.lock:
            event = self.validated(event)
            seq = self.journal.append(self.game_id, "event", event, t=event["t"], source=source)
            result = self._apply(seq, event, source)
            self._settle(result)
            self._log(result)
            self.last_result = result
            self.publish({"kind": "result", "result": result.to_json()})
            return result

    def validated(self, event: object) -> dict[str, Any]:
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

    def _apply(self, seq: int, event: dict[str, Any], source: str | None) -> Result:
        try:
            outcome = self.game.apply(event)
        except errors.Rejection as rejection:
            return Result(seq, "rejected", str(rejection), event, source, rule=rejection.rule,
                          private_to=rejection.private_to)
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
        """The public log gets what everyone may see; a private refusal's words go to the private
        log, which only its player's page and the host read."""
        if result.message:
            line = {"seq": result.seq, "t": result.event.get("t"), "status": result.status}
            self.log.append({**line, "message": result.public_message})
            del self.log[:-LOG_LINES]
            if result.private_to is not None:
                self.private_log.append({**line, "message": result.message, "to": result.private_to})
                del self.private_log[:-LOG_LINES]

    # -- host actions ---------------------------------------------------------------------------
    def undo(self, source: str = "host") -> Result | None:
        """Take back the last accepted event (journaled as an ``undo`` entry)."""
        with self.lock:
            if not self.applied:
                return None
            target = self.applied[-1]
            seq = self.append("undo", {"seq": target}, source)
            undone = self.game.events[-1].to_json()
            self._undo_to(target)
            by = f"by {undone['player']}" if undone.get("player") else ""
            result = Result(seq, "accepted", f"Undone: the last {undone.get('type')} {by}".strip() + ".", undone,
                            source)
            self._log(result)
            self.publish({"kind": "undo", "result": result.to_json()})
            return result

    def _undo_to(self, target: int) -> None:
        if not self.applied or self.applied[-1] != target:
            raise RuntimeError(f"undo of entry {target} is not the last accepted event")
        events = [e.to_json() for e in self.game.events[:-1]]
        seqs = self.applied[:-1]
        self._game = new_game(self.setup, self.board, self.lexicon)
        self.applied = []
        for seq, event in zip(seqs, events):
            self._game.apply(event)
            self.applied.append(seq)

    def pause(self, source: str = "host") -> None:
        """Stop the table clock (journalled)."""
        with self.lock:
            if self.paused:
                return
            self.append("pause", {}, source)
            self.paused = True
            self.clock.pause()
            self.publish({"kind": "pause"})

    def unpause(self, source: str = "host") -> None:
        """Start the table clock again (journalled as ``resume``)."""
        with self.lock:
            if not self.paused:
                return
            self.append("resume", {}, source)
            self.paused = False
            self.clock.resume()
            self.publish({"kind": "resume"})

    def tick(self) -> list[Result]:
        """Let the clock act: submit the events a running-out window produces."""
        results: list[Result] = []
        with self.lock:
            if self.paused:
                return results
            now = self.clock.now()
            for event in self.game.due(now):
                results.append(self.submit(event, source="clock"))
        return results

    def checkpoint(self) -> None:
        """Save the table clock, so a resumed game continues its time."""
        self.journal.checkpoint_clock(self.game_id, self.clock.now())

    def buzz(self, player: str, t: float | None = None, source: str = "buzzer") -> Result | None:
        """A buzz-in press by ``player`` (at table time ``t``): a ``hand`` when it means one."""
        with self.lock:
            event = self.table.buzz(self.game, player)
            if event is None:
                return None
            if t is not None:
                event["t"] = t
            return self.submit(event, source=source)

    # -- subscribers ----------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Call ``callback`` with every message the session publishes; returns the unsubscriber."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def publish(self, message: dict[str, Any]) -> None:
        """Tell every subscriber (pages, announcer, lights); a failing one never stops the table."""
        for callback in list(self._subscribers):
            try:
                callback(message)
            except Exception:            # a broken page must never stop the table
                log.exception("a subscriber of game %s failed", self.game_id)

    # -- records --------------------------------------------------------------------------------
    def record(self) -> Record:
        """The game's record, as ``tabletop replay`` reads it."""
        with self.lock:
            return record_of(self.game, self.setup_data["board"], self.setup_data.get("lexicon"))

    def finish(self) -> None:
        """Mark the game over in the journal once the rules say it is."""
        if self.game.over:
            self.journal.set_status(self.game_id, "over")
