"""Announcements: what the table says aloud (espeak-ng) and the terminal scoreboard (rich).

:class:`Announcer` follows a session: each accepted event is turned into sentences by the game's
table plug-in (the clue in SP Classic, letter names and the picture word at Level 1, the turn's
score and the standings) and spoken by ``espeak-ng`` when it is installed and the voice is on.
Speech runs on its own thread so the table never waits for it. Tests and the demo (unless
``--voice``) run with the voice off; ``spoken`` keeps what would have been said.

:func:`scoreboard_table` draws the scores with rich for a table without a screen.
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading

from tabletop.i18n import translate

VOICES = {"en": "en-gb", "uk": "uk"}


def espeak_path() -> str | None:
    return shutil.which("espeak-ng") or shutil.which("espeak")


class Announcer:
    """Speaks what happens at the table (``voice=False``: only records it in ``spoken``)."""

    def __init__(self, session=None, *, voice: bool = False, language: str = "en", speed: int = 160,
                 voice_name: str | None = None):
        self.voice = voice and espeak_path() is not None
        self.language, self.speed = language, speed
        table_rate = getattr(getattr(session, "table", None), "speech_rate", None)
        if table_rate:
            self.speed = min(speed, int(table_rate))     # a game for small children is said slowly
        self.voice_name = voice_name or VOICES.get(language, language)
        self.spoken: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="announcer", daemon=True) if self.voice else None
        if self._thread:
            self._thread.start()
        if session is not None:
            self.follow(session)

    def follow(self, session) -> None:
        def on(message: dict) -> None:
            result = message.get("result")
            if message.get("kind") != "result" or not result:
                return
            if result["status"] == "accepted":
                lines = session.table.speech(session.game, result["event"], result["message"])
                if session.game.over and result["event"].get("type") in ("write", "pass", "end", "challenge", "remove"):
                    lines.append(session.game.standings())
            else:
                lines = [result.get("public_message") or result["message"]]   # never a private reason aloud
            for line in lines:                  # said in the game's language (tabletop.i18n)
                self.say(translate(line, self.language))
        session.subscribe(on)

    def say(self, text: str) -> None:
        if not text:
            return
        self.spoken.append(text)
        if self.voice:
            self._queue.put(text)

    def _run(self) -> None:
        exe = espeak_path()
        while True:
            text = self._queue.get()
            if text is None:
                return
            try:
                subprocess.run([str(exe), "-v", self.voice_name, "-s", str(self.speed), text],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False)
            except (OSError, subprocess.TimeoutExpired):
                pass

    def close(self) -> None:
        if self._thread:
            self._queue.put(None)


def scoreboard_table(view: dict):
    """A rich Table of the scores, whose turn it is and the timers."""
    from rich.table import Table
    title = f"{view['game']}{' (' + str(view['variant']) + ')' if view.get('variant') else ''}"
    table = Table(title=title, caption=_caption(view), min_width=44)
    table.add_column("Player")
    table.add_column("Score", justify="right")
    for player in view["players"]:
        mark = " ◀" if player == view.get("turn") else ""
        table.add_row(f"{player}{mark}", str(view["totals"][player]))
    return table


def _caption(view: dict) -> str:
    parts = []
    if view.get("over"):
        parts.append(f"game over: {view['winner']} wins" if view.get("winner") else "game over: a tie")
    if view.get("hands"):
        parts.append("hands: " + ", ".join(view["hands"]))
    for timer in view.get("timers", []):
        parts.append(f"{timer['name']}: {max(0.0, timer['ends'] - view['now']):.0f} s")
    return " · ".join(parts)


class TerminalScoreboard:
    """Prints the rich scoreboard after every scoring turn."""

    def __init__(self, session, console=None):
        from rich.console import Console
        self.session = session
        self.console = console or Console()
        session.subscribe(self._on)

    def _on(self, message: dict) -> None:
        result = message.get("result") or {}
        if result.get("turn") or message.get("kind") == "undo":
            self.console.print(scoreboard_table(self.session.view()))
