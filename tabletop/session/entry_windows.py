"""Private entry windows of the player pages: the game's own (an answer, a write) and the
host's (everyone's words, hidden from the other seats until the time is up).

A part of the session (:mod:`tabletop.session.parts`): it owns the host's windows and writes
the journal kinds ``window`` (the host opened one) and ``entry`` (a seat's entry in it).

>>> HostWindow("words-3", ("Ann", "Ben"), 60.0).as_window().purpose
'words'
"""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from tabletop.games.table import EntryError, Window
from tabletop.session.parts import Part, Replayer
from tabletop.session.refusals import BadEntry, EntryRefused, NotYourEntry, TooManyRefusals

if TYPE_CHECKING:
    from tabletop.session.journal import Entry
    from tabletop.session.result import Result


@dataclass
class HostWindow:
    """A window the host opened for private entries from several seats (words, answers)."""

    id: str
    seats: tuple[str, ...]
    deadline: float
    prompt: str = ""
    entries: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def as_window(self) -> Window:
        return Window(self.id, "words", self.seats, self.deadline, prompt=self.prompt)



#: the longest entry a seat may type (a word, a phrase, a short answer)
MAX_ENTRY = 200
#: a seat may have this many entries refused in :data:`REFUSALS_SECONDS` (real seconds); beyond
#: that its entries are turned away unread, unjournalled, until the oldest refusal is that old
MOST_REFUSALS = 8
REFUSALS_SECONDS = 10.0


class EntryWindows(Part):
    """Who may enter what on their page, until when; refusals after the deadline."""

    kinds = ("window", "entry")

    def __init__(self, core: Any, monotonic: Any = time.monotonic):
        super().__init__(core)
        self.host_windows: dict[str, HostWindow] = {}
        self._monotonic = monotonic                 # real time: the flood guard is not game time
        self._refusals: dict[str, collections.deque[float]] = {}   # per seat, when its entries were refused
        self.turned_away: dict[str, int] = {}       # per seat, entries turned away unread (shown to the host)

    def replayers(self) -> Mapping[str, Replayer]:
        return {"window": self._replay_window, "entry": self._replay_entry}

    def _replay_window(self, entry: "Entry") -> None:
        body = entry.body
        with self.core.lock:
            self.host_windows[body["id"]] = HostWindow(str(body["id"]), tuple(body["seats"]), float(body["deadline"]),
                                                       str(body.get("prompt", "")))

    def _replay_entry(self, entry: "Entry") -> None:
        body = entry.body
        with self.core.lock:
            self.host_windows[body["window"]].entries.setdefault(body["seat"], []).append(
                {"text": str(body["text"]), "t": entry.t})

    # -- player pages ---------------------------------------------------------------------------
    def windows(self) -> list[Window]:
        """The windows open now: the game's own (from the rules) and the host's."""
        with self.core.lock:
            return self.core.table.windows(self.core.game) + [w.as_window() for w in self.host_windows.values()]

    def open_window(self, seats: Iterable[str] | None, seconds: float, prompt: str = "",
                    source: str = "host") -> HostWindow:
        """Open a private entry window for ``seats`` (everyone's words stay hidden until it closes)."""
        with self.core.lock:
            core = self.core
            now = core.clock.now()
            window = HostWindow(f"words-{core.journal.count(core.game_id) + 1}", tuple(seats or core.setup.players),
                                round(now + seconds, 3), prompt)
            core.append("window", {"id": window.id, "seats": list(window.seats), "deadline": window.deadline,
                                   "prompt": prompt}, source, t=now)
            self.host_windows[window.id] = window
            core.publish({"kind": "window"})
            return window

    def enter(self, seat: str, entry: dict[str, Any]) -> "Result | dict[str, Any]":
        """A player page's entry: refused unless a window is open for ``seat``; checked against the
        clock. A seat whose entries keep being refused is slowed down (:class:`TooManyRefusals`):
        its refusals are never journalled without bound."""
        with self.core.lock:
            self._check_pace(seat)
            try:
                outcome = self._enter(seat, entry)
            except EntryRefused:
                self._refused(seat)
                raise
            if not isinstance(outcome, dict) and not outcome.accepted:
                self._refused(seat)
            return outcome

    def _check_pace(self, seat: str) -> None:
        recent = self._refusals.get(seat)
        if recent is None:
            return
        now = self._monotonic()
        while recent and now - recent[0] > REFUSALS_SECONDS:
            recent.popleft()
        if len(recent) >= MOST_REFUSALS:
            self.turned_away[seat] = self.turned_away.get(seat, 0) + 1
            wait = REFUSALS_SECONDS - (now - recent[0])
            raise TooManyRefusals(f"Slow down: {seat}'s last {MOST_REFUSALS} entries were refused. "
                                  f"Try again in {max(1, round(wait))} s.")

    def _refused(self, seat: str) -> None:
        self._refusals.setdefault(seat, collections.deque()).append(self._monotonic())

    def _enter(self, seat: str, entry: dict[str, Any]) -> "Result | dict[str, Any]":
        with self.core.lock:
            now = self.core.clock.now()
            wanted = entry.get("window")
            for window in self.windows():
                if wanted is not None and window.id != wanted:
                    continue
                if seat not in window.seats:
                    continue
                if window.hard and window.deadline is not None and now > window.deadline:
                    raise EntryRefused(f"Too late: {window.late or 'the time for this entry'} ran out "
                                       f"{now - window.deadline:.1f} s ago.")
                raw = entry.get("text", "")
                if not isinstance(raw, str):
                    raise BadEntry("The entry's text must be text.")
                text = raw.strip()
                if not text:
                    raise BadEntry("Type something first.")
                if len(text) > MAX_ENTRY:
                    raise BadEntry(f"That is too long: an entry is at most {MAX_ENTRY} characters.")
                if window.id in self.host_windows:
                    self.core.append("entry", {"window": window.id, "seat": seat, "text": text}, f"seat:{seat}", t=now)
                    self.host_windows[window.id].entries.setdefault(seat, []).append({"text": text, "t": now})
                    self.core.publish({"kind": "entry", "window": window.id, "seat": seat})
                    return {"status": "accepted", "message": f"{seat}'s entry is in (hidden until the time is up)."}
                try:
                    event = self.core.table.entry_event(self.core.game, window, seat, {**entry, "text": text})
                except EntryError as error:
                    raise BadEntry(str(error)) from None
                except KeyError as error:
                    raise BadEntry(f"This entry needs {error.args[0]}.") from None
                return self.core.submit(event, source=f"seat:{seat}")
            if wanted is not None and any(w.id == wanted for w in self.windows()):
                raise NotYourEntry(f"{seat} has no entry to make in this window.")
            raise EntryRefused(self.core.table.closed_entry(self.core.game, seat) or f"Nothing for {seat} to enter now.")

    def entries_for(self, seat: str | None) -> list[dict[str, Any]]:
        """Host windows as ``seat`` may see them: its own entries always, others' after the deadline
        (``None``: the host, who sees every entry)."""
        with self.core.lock:
            now = self.core.clock.now()
            out = []
            for window in self.host_windows.values():
                closed = now > window.deadline
                visible = {s: list(v) for s, v in window.entries.items() if closed or s == seat or seat is None}
                out.append({"id": window.id, "deadline": window.deadline, "closed": closed, "prompt": window.prompt,
                            "seats": list(window.seats), "entries": visible,
                            "counts": {s: len(v) for s, v in window.entries.items()}})
            return out

