"""Private entry windows of the player pages: the game's own (an answer, a write) and the
host's (everyone's words, hidden from the other seats until the time is up).

A mixin of :class:`tabletop.session.core.Session`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tabletop.games.table import EntryError, Window
from tabletop.session.refusals import BadEntry, EntryRefused, NotYourEntry
from tabletop.session.base import SessionBase

if TYPE_CHECKING:
    from tabletop.session.core import Result


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



#: the longest entry a seat may type (a word, a phrase, a short answer)
MAX_ENTRY = 200


class EntryWindows(SessionBase):
    """Who may enter what on their page, until when; refusals after the deadline."""

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
                if window.hard and window.deadline is not None and now > window.deadline:
                    raise EntryRefused(f"Too late: the time for this entry ran out {now - window.deadline:.1f} s ago.")
                raw = entry.get("text", "")
                if not isinstance(raw, str):
                    raise BadEntry("The entry's text must be text.")
                text = raw.strip()
                if not text:
                    raise BadEntry("Type something first.")
                if len(text) > MAX_ENTRY:
                    raise BadEntry(f"That is too long: an entry is at most {MAX_ENTRY} characters.")
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

