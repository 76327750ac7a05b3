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

import secrets
import threading
from dataclasses import dataclass, field
from typing import Callable

from rules import errors
from rules.game import Game, GameSetup
from rules.games import new_game
from rules.record import Record, record_of
from tabletop.errors import UserError
from tabletop.session.clock import TableClock
from tabletop.session.journal import Journal
from tabletop.games import spec as game_spec
from tabletop.games.table import EntryError, TableGame, Window

LOG_LINES = 30


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


class EntryRefused(Exception):
    """An entry or host action the session refuses now (no window, too late, nothing due)."""


class BadEntry(EntryRefused):
    """An entry or host action that is malformed whenever it comes (empty text, no such clue)."""


class NotYourEntry(EntryRefused):
    """An entry from a seat that has nothing to enter in the window it names."""


@dataclass
class HostWindow:
    """A window the host opened for private entries from several seats (words, answers)."""

    id: str
    seats: tuple[str, ...]
    deadline: float
    prompt: str = ""
    entries: dict[str, list[dict]] = field(default_factory=dict)

    def as_window(self) -> Window:
        return Window(self.id, "words", self.seats, self.deadline, prompt=self.prompt)


def _setup_dict(setup: GameSetup, board_ref: str, lexicon_ref: str | None) -> dict:
    return {"game": setup.game, "variant": setup.variant, "players": list(setup.players), "seed": setup.seed,
            "language": setup.language, "rounds": setup.rounds, "board": board_ref, "lexicon": lexicon_ref}


def make_tokens(players) -> dict:
    return {"host": secrets.token_urlsafe(12), "seats": {p: secrets.token_urlsafe(12) for p in players}}


def load_game_parts(setup: dict, base=None):
    """The board and lexicon a session set-up names."""
    from tabletop.lexicons import builtin_lexicon, load_wordlist
    from tabletop.resources import load_board
    board = load_board(setup["board"], relative_to=base)
    lexicon = load_wordlist(setup["lexicon"]) if setup.get("lexicon") else builtin_lexicon(setup.get("language", "en"))
    return board, lexicon


class Session:
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
                               rounds=setup.get("rounds"))
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
        self.resume_warnings: list[str] = []
        self.board_read: list[str] | None = None   # what the camera last saw on the board

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
        for entry in self.journal.entries(self.game_id):
            if entry.kind == "event":
                if entry.status == "rejected":
                    continue
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
                self.host_windows[body["id"]] = HostWindow(body["id"], tuple(body["seats"]), body["deadline"],
                                                           body.get("prompt", ""))
            elif entry.kind == "entry":
                body = entry.body
                self.host_windows[body["window"]].entries.setdefault(body["seat"], []).append(
                    {"text": body["text"], "t": entry.t})

    # -- the event path -------------------------------------------------------------------------
    def submit(self, event: dict, source: str | None = "console") -> Result:
        """Journal ``event`` (stamped with the table clock if it has no ``t``), then apply it."""
        with self._lock:
            event = dict(event)
            if event.get("t") is None:
                event["t"] = self.clock.now()
            seq = self.journal.append(self.game_id, "event", event, t=event["t"], source=source)
            result = self._apply(seq, event, source)
            self._settle(result)
            self._log(result)
            self.last_result = result
            self._publish({"kind": "result", "result": result.to_json()})
            return result

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
        payload = {"message": result.message}
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
        results = []
        with self._lock:
            if self.paused:
                return results
            now = self.clock.now()
            for event in self.game.due(now):
                results.append(self.submit(event, source="clock"))
        return results

    def checkpoint(self) -> None:
        self.journal.checkpoint_clock(self.game_id, self.clock.now())

    # -- clue cards -----------------------------------------------------------------------------
    def next_clue(self):
        """The next card of the seeded deck and the clue to read: ``(card, clue)`` or ``None``."""
        if self.deck is None or len(self.deck) == 0:
            return None
        drawn = sum(1 for e in self.game.events if e.type == "clue")
        cards = list(self.deck)
        card = cards[drawn % len(cards)]
        return card, card.clues[0]

    def draw(self, source: str = "host", clue: int = 0) -> Result:
        """The host's 'draw a clue card': a ``clue`` event for the player due to ask, with the
        card's clue number ``clue`` (an SP card has several; the asker picks one)."""
        with self._lock:
            player = self.clue_asker()
            if player is None:
                raise EntryRefused("No clue card is due now.")
            drawn = self.next_clue()
            if drawn is None:
                raise EntryRefused("No clue deck is loaded: read a card and use the event form.")
            card, _first = drawn
            if not 0 <= clue < len(card.clues):
                raise BadEntry(f"Card {card.id} has {len(card.clues)} clue(s), not a clue {clue + 1}.")
            return self.submit(self.table.clue_event(self.game, player, card.clues[clue], card.id), source=source)

    def clue_asker(self) -> str | None:
        """The player the rules say takes the next clue card now (their ``clue`` action), or ``None``."""
        action = next((a for a in self.game.actions() if a.key == "clue"), None)
        return None if action is None else action.event.get("player")

    def host_action(self, key: str, source: str = "host") -> Result | None:
        """Do what the game's action ``key`` says (``answer-right``, ``pass``...; ``clue`` draws a card).

        Buttons, the console and the pages all find actions by these stable keys, never by label.
        Returns ``None`` when no such action is possible now.
        """
        with self._lock:
            action = next((a for a in self.game.actions() if a.key == key), None)
            if action is None:
                return None
            if key == "clue" and self.deck is not None:
                return self.draw(source=source)
            return self.submit(dict(action.event), source=source)

    def buzz(self, player: str, t: float | None = None, source: str = "buzzer") -> Result | None:
        """A buzz-in press by ``player`` (at table time ``t``): a ``hand`` when it means one."""
        with self._lock:
            event = self.table.buzz(self.game, player)
            if event is None:
                return None
            if t is not None:
                event["t"] = t
            return self.submit(event, source=source)

    def camera_write(self, detection: dict, source: str = "camera") -> Result | None:
        """A word the camera saw appear: credited to the player who is writing now."""
        with self._lock:
            writer = self.table.writer(self.game)
            if writer is None:
                return None
            return self.submit({**detection, "type": "write", "player": writer}, source=source)

    def camera_read(self, detection: dict, needs_confirmation: bool, source: str = "camera") -> Result | None:
        """A camera read: sure reads become writes at once; unsure ones wait for the host."""
        if not needs_confirmation:
            return self.camera_write(detection, source=source)
        with self._lock:
            writer = self.table.writer(self.game)
            if writer is None:
                return None
            self.pending_reads.append({**detection, "type": "write", "player": writer})
            self._publish({"kind": "camera", "pending": len(self.pending_reads)})
            return None

    def confirm_read(self, index: int = 0, source: str = "host") -> Result:
        """The host confirms an unsure camera read: it becomes the write event."""
        with self._lock:
            if not 0 <= index < len(self.pending_reads):
                raise EntryRefused("No camera read is waiting for confirmation.")
            event = self.pending_reads.pop(index)
            event.pop("t", None)
            return self.submit(event, source=f"camera+{source}")

    def discard_read(self, index: int = 0) -> dict:
        with self._lock:
            if not 0 <= index < len(self.pending_reads):
                raise EntryRefused("No camera read is waiting for confirmation.")
            event = self.pending_reads.pop(index)
            self._publish({"kind": "camera", "pending": len(self.pending_reads)})
            return event

    # -- player pages ---------------------------------------------------------------------------
    def windows(self) -> list[Window]:
        with self._lock:
            return self.table.windows(self.game) + [w.as_window() for w in self.host_windows.values()]

    def open_window(self, seats, seconds: float, prompt: str = "", source: str = "host") -> HostWindow:
        """Open a private entry window for ``seats`` (everyone's words stay hidden until it closes)."""
        with self._lock:
            now = self.clock.now()
            window = HostWindow(f"words-{self.journal.count(self.game_id) + 1}", tuple(seats or self.setup.players),
                                round(now + seconds, 3), prompt)
            self.journal.append(self.game_id, "window", {"id": window.id, "seats": list(window.seats),
                                "deadline": window.deadline, "prompt": prompt}, t=now, source=source)
            self.host_windows[window.id] = window
            self._publish({"kind": "window"})
            return window

    def enter(self, seat: str, entry: dict) -> Result | dict:
        """A player page's entry: refused unless a window is open for ``seat``; checked against the clock."""
        with self._lock:
            now = self.clock.now()
            wanted = entry.get("window")
            for window in self.windows():
                if wanted is not None and window.id != wanted:
                    continue
                if seat not in window.seats:
                    continue
                if window.deadline is not None and now > window.deadline:
                    raise EntryRefused(f"Too late: the time for this entry ran out {now - window.deadline:.1f} s ago.")
                text = str(entry.get("text", "")).strip()
                if not text:
                    raise BadEntry("Type something first.")
                if window.id in self.host_windows:
                    self.journal.append(self.game_id, "entry", {"window": window.id, "seat": seat, "text": text},
                                        t=now, source=f"seat:{seat}")
                    self.host_windows[window.id].entries.setdefault(seat, []).append({"text": text, "t": now})
                    self._publish({"kind": "entry", "window": window.id, "seat": seat})
                    return {"status": "accepted", "message": f"{seat}'s entry is in (hidden until the time is up)."}
                try:
                    event = self.table.entry_event(self.game, window, seat, {**entry, "text": text})
                except EntryError as error:
                    raise BadEntry(str(error)) from None
                except KeyError as error:
                    raise BadEntry(f"This entry needs {error.args[0]}.") from None
                return self.submit(event, source=f"seat:{seat}")
            if wanted is not None and any(w.id == wanted for w in self.windows()):
                raise NotYourEntry(f"{seat} has no entry to make in this window.")
            raise EntryRefused(f"Nothing for {seat} to enter now.")

    def entries_for(self, seat: str | None) -> list[dict]:
        """Host windows as ``seat`` may see them: its own entries always, others' after the deadline."""
        with self._lock:
            now = self.clock.now()
            out = []
            for window in self.host_windows.values():
                closed = now > window.deadline
                visible = {s: list(v) for s, v in window.entries.items() if closed or s == seat or seat is None}
                out.append({"id": window.id, "deadline": window.deadline, "closed": closed, "prompt": window.prompt,
                            "seats": list(window.seats), "entries": visible,
                            "counts": {s: len(v) for s, v in window.entries.items()}})
            return out

    def set_device(self, name: str, status: str) -> None:
        """A device reports its status (camera: 'hand over the board', buzzer box: 'connected'...)."""
        if self.devices.get(name) != status:
            self.devices[name] = status
            self._publish({"kind": "device", "device": name, "status": status})

    def set_board_read(self, rows: list[str]) -> None:
        """The camera's latest still read of the board (letters the game does not count show as stale)."""
        if rows != self.board_read:
            self.board_read = list(rows)
            self._publish({"kind": "device", "device": "camera"})

    # -- views ----------------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[dict], None]) -> Callable[[], None]:
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _publish(self, message: dict) -> None:
        for callback in list(self._subscribers):
            try:
                callback(message)
            except Exception as error:   # a broken page must never stop the table
                print(f"tabletop: a subscriber failed: {error!r}")

    def view(self) -> dict:
        """The public scoreboard: nothing here is secret (no card answers, no hidden entries)."""
        with self._lock:
            game, state = self.game, self.game.state()
            last = game.turns[-1] if game.turns else None
            for turn in reversed(game.turns):
                if not turn.removed:
                    last = turn
                    break
            view = {
                "game_id": self.game_id, "game": self.setup.game, "variant": getattr(game, "variant", None)
                or getattr(game, "level", None), "players": list(self.setup.players), "totals": game.totals,
                "turn": game.whose_turn(), "over": game.over, "winner": game.winner if game.over else None,
                "now": self.clock.now(), "paused": self.paused, "grid": state.get("grid"),
                "timers": [d.to_json() for d in game.deadlines()],
                "last": {"text": last.text, "player": last.player, "squares": [list(s) for s in last.new_squares]}
                if last else None,
                "turns": [t.to_json() for t in game.turns],
                "log": list(self.log[-12:]), "windows": [w.to_json() for w in self.windows()],
                "events": len(game.events), "devices": dict(self.devices), "read": self.board_read,
            }
            view.update(self.table.summary(game))
            return view

    def host_view(self) -> dict:
        with self._lock:
            view = self.view()
            clue = None
            events = [e for e in self.game.events if e.type == "clue"]
            if events:
                clue = events[-1].to_json()
            view["clue"] = clue
            actions = [{**a.to_json(), "action": None, "args": {}} for a in self.game.actions()]
            drawn = self.next_clue() if self.table.uses_clue_deck else None
            at = next((i for i, a in enumerate(actions) if a["key"] == "clue"), None)
            if at is not None:                 # the deck's card: one button per clue, the asker picks
                asker = actions[at]["event"]["player"]
                if drawn is None:
                    actions[at].update(event=None, action="draw", args={})
                else:
                    card, _ = drawn
                    actions[at:at + 1] = [
                        {"key": f"clue:{i}", "label": f"{asker} reads card {card.id}: {c.answer.lower()} — {c.card_text()}",
                         "event": None, "action": "draw", "args": {"clue": i}} for i, c in enumerate(card.clues)]
            view["actions"] = actions
            view["entries"] = self.entries_for(None)
            view["can_undo"] = bool(self.applied)
            view["pending_reads"] = [dict(r) for r in self.pending_reads]
            return view

    def board_json(self) -> dict:
        b = self.board
        layer = lambda name: ["".join(b.cell(name, (r, c)) if hasattr(b, "cell") else "." for c in range(b.cols))
                              for r in range(b.rows)]
        data = {"name": b.name, "rows": b.rows, "cols": b.cols}
        try:
            from rules.squares import Square
            data["values"] = ["".join(str(b.value(Square(r, c))) for c in range(b.cols)) for r in range(b.rows)]
            data["zones"] = ["".join(b.zone(Square(r, c)) or "." for c in range(b.cols)) for r in range(b.rows)]
            data["marks"] = ["".join(b.mark(Square(r, c)) for c in range(b.cols)) for r in range(b.rows)]
        except Exception:
            data.update(values=layer("values"))
        return data

    # -- records --------------------------------------------------------------------------------
    def record(self) -> Record:
        with self._lock:
            return record_of(self.game, self.setup_data["board"], self.setup_data.get("lexicon"))

    def finish(self) -> None:
        if self.game.over:
            self.journal.set_status(self.game_id, "over")
