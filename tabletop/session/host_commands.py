"""The host's commands, in one table: the web console, the keyboard console and the physical
host buttons all run them from here, so they cannot drift apart.

A :class:`HostCommand` has a ``name``, a ``parse`` that checks its arguments (a JSON object
from the web, or the words typed after the name at the console) before anything happens, a
``run`` on the session, and a ``reply`` that says what became of it. Checks raise
:class:`~tabletop.session.refusals.BadEntry` with a sentence; nothing here knows HTTP.

>>> sorted(COMMANDS)[:5]
['action', 'buzz', 'camera-record', 'camera-switch', 'confirm']
>>> COMMANDS["confirm"].parse({"index": 1}, None)
{'index': 1}
>>> COMMANDS["confirm"].parse_words("2")
{'index': 1}
>>> COMMANDS["window"].parse({"seconds": 0}, None)
Traceback (most recent call last):
...
tabletop.session.refusals.BadEntry: 'seconds' must be a number from 1 to 3600, not '0'.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from tabletop.errors import UserError
from tabletop.session.refusals import BadEntry, EntryRefused, NotYourEntry
from tabletop.session.result import Result

if TYPE_CHECKING:
    from tabletop.session.core import Session

log = logging.getLogger(__name__)

#: what a command's arguments are once checked
Args = dict[str, Any]

#: the physical host buttons -> the game actions each stands for, tried in order
HOST_BUTTONS: dict[str, tuple[str, ...]] = {
    "recognise": ("recognise",), "right": ("answer-right",), "wrong": ("answer-wrong",),
    "next": ("clue", "clue-read", "roll")}


@dataclass(frozen=True)
class HostReply:
    """What became of a host command: the session's :class:`Result`, or a status and a message."""

    status: str
    message: str
    result: Result | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, outcome: Result | None, nothing: str = "Nothing to do now.") -> "HostReply":
        """The reply for a session :class:`Result` (``None``: the command meant nothing now)."""
        if outcome is None:
            return cls("rejected", nothing)
        return cls(outcome.status, outcome.message, outcome)

    def to_json(self) -> dict[str, Any]:
        """The web console's answer."""
        if self.result is not None:
            return self.result.to_json()
        return {"status": self.status, "message": self.message, **self.extra}


@dataclass(frozen=True)
class HostCommand:
    """One thing the host can do (see the module docstring)."""

    name: str
    help: str
    run: Callable[["Session", Args, str], HostReply]
    parse: Callable[[Mapping[str, Any], "Session | None"], Args] = lambda body, session: {}
    parse_words: Callable[[str], Args] = lambda words: {}
    web: bool = True          #: offered by the web console (else only at the keyboard)


# -- argument checks ------------------------------------------------------------------------------
def number(body: Mapping[str, Any], key: str, default: float, low: float, high: float, whole: bool = False) -> float:
    """``body[key]``: a finite number from ``low`` to ``high`` (``whole``: an integer); else :class:`BadEntry`.

    >>> number({"index": 2}, "index", 0, 0, 9, whole=True)
    2
    >>> number({"index": True}, "index", 0, 0, 9, whole=True)
    Traceback (most recent call last):
    ...
    tabletop.session.refusals.BadEntry: 'index' must be a whole number from 0 to 9, not 'True'.
    """
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (low <= value <= high) \
            or (whole and not float(value).is_integer()):
        kind = "a whole number" if whole else "a number"
        raise BadEntry(f"{key!r} must be {kind} from {low:g} to {high:g}, not {str(value)[:40]!r}.")
    return int(value) if whole else float(value)


def _ordinal(words: str, key: str) -> Args:
    """``confirm 2`` at the console: the second pending read (``index`` 1); the first by default."""
    words = words.strip()
    if not words:
        return {key: 0}
    if not words.isdigit() or int(words) < 1:
        raise BadEntry(f"Say which one by its number (1 for the first), not {words[:20]!r}.")
    return {key: int(words) - 1}


def _index(body: Mapping[str, Any], session: "Session | None") -> Args:
    return {"index": int(number(body, "index", 0, 0, 999, whole=True))}


def _event(body: Mapping[str, Any], session: "Session | None") -> Args:
    event = body.get("event")
    if not isinstance(event, dict):
        raise BadEntry("An event must be a JSON object.")
    return {"event": event}


def _event_words(words: str) -> Args:
    from tabletop.records import parse_json

    try:
        event = parse_json(words, "that line")
    except UserError as error:
        raise BadEntry(str(error)) from None
    return _event({"event": event}, None)


def _player(body: Mapping[str, Any], session: "Session | None") -> Args:
    """The player named (as text: the command then refuses anyone who does not play, by name)."""
    player = body.get("player", "")
    return {"player": player.strip() if isinstance(player, str) else str(player)[:60]}


def _window(body: Mapping[str, Any], session: "Session | None") -> Args:
    seconds = number(body, "seconds", 60, 1, 3600)
    seats = body.get("seats")
    if seats is not None and (not isinstance(seats, list) or session is None
                              or not all(s in session.setup.players for s in seats)):
        players = ", ".join(session.setup.players) if session is not None else "its players"
        raise BadEntry(f"'seats' must list players of this game: {players}.")
    prompt = body.get("prompt", "")
    if not isinstance(prompt, str) or len(prompt) > 200:
        raise BadEntry("'prompt' must be text of at most 200 characters.")
    return {"seconds": seconds, "seats": seats, "prompt": prompt}


def _window_words(words: str) -> Args:
    seconds, _, prompt = words.strip().partition(" ")
    try:
        value = float(seconds) if seconds else 60.0
    except ValueError:
        raise BadEntry(f"Say the window's seconds first (e.g. 'window 90 your words'), not {seconds[:20]!r}.") from None
    return _window({"seconds": value, "prompt": prompt.strip()}, None)


def _clue(body: Mapping[str, Any], session: "Session | None") -> Args:
    return {"clue": int(number(body, "clue", 0, 0, 99, whole=True))}


# -- what each command does ------------------------------------------------------------------------
def _run_event(session: "Session", args: Args, source: str) -> HostReply:
    return HostReply.of(session.submit(args["event"], source=source))


def _run_undo(session: "Session", args: Args, source: str) -> HostReply:
    return HostReply.of(session.undo(source=source), "Nothing to undo.")


def _run_pause(session: "Session", args: Args, source: str) -> HostReply:
    session.pause(source)
    return HostReply("accepted", "Paused.")


def _run_resume(session: "Session", args: Args, source: str) -> HostReply:
    session.unpause(source)
    return HostReply("accepted", "Playing again.")


def _run_discard(session: "Session", args: Args, source: str) -> HostReply:
    dropped = session.discard_read(args["index"], source)
    return HostReply("accepted", f"Camera read {dropped.get('text') or dropped.get('card')} discarded.")


def _run_reads(session: "Session", args: Args, source: str) -> HostReply:
    reads = session.pending_reads
    if not reads:
        return HostReply("accepted", "No camera read is waiting.")
    lines = [f"  {i}. {_describe(read)}" for i, read in enumerate(reads, start=1)]
    return HostReply("accepted", "Camera reads waiting ('confirm N' or 'discard N'):\n" + "\n".join(lines))


def _describe(read: Mapping[str, Any]) -> str:
    """One pending read in words: 'CAT at row 3, column 2, across, for Ann (confidence 0.8)'."""
    what = read.get("text") or read.get("card") or read.get("type")
    where = f" at row {read['row'] + 1}, column {read['col'] + 1}" if "row" in read and "col" in read else ""
    way = f", {read['dir']}" if read.get("dir") else ""
    sure = f" (confidence {read['confidence']})" if read.get("confidence") is not None else ""
    return f"{what}{where}{way}, for {read.get('player')}{sure}"


def _run_forget_hand(session: "Session", args: Args, source: str) -> HostReply:
    session.reset_hand(args["player"], source)           # the session refuses one not playing
    return HostReply("accepted", f"The reader forgot {args['player']}'s handwriting.")


def _run_window(session: "Session", args: Args, source: str) -> HostReply:
    window = session.open_window(args["seats"], args["seconds"], args["prompt"], source)
    return HostReply("accepted", f"Entries open for {args['seconds']:g} s.",
                     extra={"window": window.id, "deadline": window.deadline})


def _run_action(session: "Session", args: Args, source: str) -> HostReply:
    return HostReply.of(session.host_action(args["key"], source=source), f"{args['key']!r} is not possible now.")


def _key(body: Mapping[str, Any], session: "Session | None") -> Args:
    key = body.get("key")
    if not isinstance(key, str) or not key or len(key) > 40:
        raise BadEntry("Name the game's action by its key (e.g. 'pass').")
    return {"key": key}


def press_button(session: "Session", name: str, source: str = "host-button") -> Result | None:
    """A physical host button: recognise the first hand, right, wrong, next (draw a card; once it
    is read aloud, start the answers' time; in letter dice, roll for the table). Finds the game's
    action by its key; ``None`` when the button means nothing now."""
    for key in HOST_BUTTONS[name]:
        result = session.host_action(key, source=source)
        if result is not None:
            return result
    return None


def _button(name: str) -> HostCommand:
    keys = " / ".join(HOST_BUTTONS[name])
    return HostCommand(name, f"the host's {name!r} button ({keys})",
                       run=lambda session, args, source: HostReply.of(press_button(session, name, source)))


def _run_buzz(session: "Session", args: Args, source: str) -> HostReply:
    if args["player"] not in session.setup.players:
        raise BadEntry(f"{args['player'][:50]!r} does not play in this game (its players: "
                       f"{', '.join(session.setup.players)}).")
    return HostReply.of(session.buzz(args["player"], source=source), f"A buzz by {args['player']} means nothing now.")


def _run_scores(session: "Session", args: Args, source: str) -> HostReply:
    return HostReply("accepted", session.game.standings())


def _run_help(session: "Session", args: Args, source: str) -> HostReply:
    width = max(len(c.name) for c in COMMANDS.values())
    lines = [f"  {c.name:<{width}}  {c.help}" for c in COMMANDS.values()]
    keys = ", ".join(a.key for a in session.game.actions())
    return HostReply("accepted", "Host commands (the host page's buttons do the same):\n" + "\n".join(lines)
                     + "\n  {\"type\": ...}  any event as JSON; quit stops (the game stays resumable)"
                     + (f"\n  the game's actions now: {keys}" if keys else ""))


def _on(body: Mapping[str, Any], session: "Session | None") -> Args:
    on = body.get("on", True)
    if not isinstance(on, bool):
        raise BadEntry("'on' must be true or false.")
    return {"on": on}


def _on_words(words: str) -> Args:
    word = words.strip().lower() or "on"
    if word not in ("on", "off"):
        raise BadEntry(f"Say 'camera-record on' or 'camera-record off', not {words[:20]!r}.")
    return {"on": word == "on"}


def _run_camera_switch(session: "Session", args: Args, source: str) -> HostReply:
    from tabletop.session.devices.phone_camera import station

    return HostReply("accepted", station(session).switch())


def _run_camera_record(session: "Session", args: Args, source: str) -> HostReply:
    from tabletop.session.devices.phone_camera import station

    return HostReply("accepted", station(session).record(args["on"]))


def _table(*commands: HostCommand) -> dict[str, HostCommand]:
    return {c.name: c for c in commands}


#: every host command, by name
COMMANDS: dict[str, HostCommand] = _table(
    HostCommand("event", "submit any event as JSON", _run_event, _event, _event_words),
    HostCommand("action", "do the game's action KEY now (pass, roll, end-round...)", _run_action, _key,
                lambda words: _key({"key": words.strip()}, None)),
    HostCommand("draw", "draw the next clue card for the player due to ask (its clue N)",
                lambda session, args, source: HostReply.of(session.draw(source, args["clue"])), _clue,
                lambda words: {"clue": _ordinal(words, "clue")["clue"]}),
    HostCommand("undo", "take back the last accepted event", _run_undo),
    HostCommand("pause", "stop the table clock", _run_pause),
    HostCommand("resume", "start the table clock again", _run_resume),
    HostCommand("reads", "list the camera reads waiting for you", _run_reads, web=False),
    HostCommand("confirm", "confirm camera read N (the first by default): it is played",
                lambda session, args, source: HostReply.of(session.confirm_read(args["index"], source)), _index,
                lambda words: _ordinal(words, "index")),
    HostCommand("discard", "discard camera read N (the first by default)", _run_discard, _index,
                lambda words: _ordinal(words, "index")),
    HostCommand("forget-hand", "forget what the reader learnt of PLAYER's handwriting", _run_forget_hand, _player,
                lambda words: _player({"player": words}, None)),
    HostCommand("window", "open SECONDS of private entries for every seat [PROMPT]", _run_window, _window,
                _window_words),
    _button("recognise"), _button("right"), _button("wrong"), _button("next"),
    HostCommand("buzz", "a buzz-in press for PLAYER", _run_buzz, _player, lambda words: _player({"player": words}, None),
                web=False),
    HostCommand("camera-switch", "make the phone camera waiting the table's camera", _run_camera_switch),
    HostCommand("camera-record", "keep the phone camera's frames for a bug report: on / off", _run_camera_record,
                _on, _on_words),
    HostCommand("scores", "the standings", _run_scores, web=False),
    HostCommand("help", "this list", _run_help, web=False),
)


def run(session: "Session", name: str, body: Mapping[str, Any], source: str = "host") -> HostReply:
    """Run host command ``name`` with the web console's JSON ``body``.

    Raises :class:`~tabletop.session.refusals.EntryRefused` (its :class:`BadEntry` for bad
    arguments, an unknown command included), never anything else for what the host sends.
    """
    command = COMMANDS.get(name)
    if command is None or not command.web:
        raise UnknownCommand(f"Unknown host action {name[:40]!r}.")
    return command.run(session, command.parse(body, session), source)


def run_for_seat(session: "Session", seat: str, body: Mapping[str, Any]) -> HostReply:
    """A game action from ``seat``'s own page (``{"key": ...}``; ``clue:N`` draws the card and
    reads its clue N): run only when the rules give that seat the action now
    (:meth:`~tabletop.games.table.TableGame.seat_actions`: SP Classic's asker recognises, marks
    right or wrong); :class:`~tabletop.session.refusals.NotYourEntry` otherwise."""
    key = _key(body, session)["key"]
    name, _, clue = key.partition(":")
    wanted = name if name == "clue" else key
    with session.lock:
        if wanted not in {a.key for a in session.table.seat_actions(session.game, seat)}:
            if wanted not in {a.key for a in session.game.actions()}:
                return HostReply("rejected", f"{key[:40]!r} is not possible now.")
            raise NotYourEntry(f"The rules do not give {seat} {key[:40]!r} now: the host can do it.")
        source = f"seat:{seat}"
        if name == "clue" and clue:
            if not clue.isdigit():
                raise BadEntry(f"Say which clue of the card by its number, not {clue[:20]!r}.")
            return HostReply.of(session.draw(source, int(clue)))
        return HostReply.of(session.host_action(key, source=source), f"{key!r} is not possible now.")


class UnknownCommand(BadEntry):
    """No host command has that name."""


def typed(session: "Session", line: str) -> str:
    """One line typed at the host's keyboard; returns what to print ("" when the session's own
    messages say it: every accepted or refused event is printed by the console's subscriber).
    The console never stops on what the host types."""
    line = line.strip()
    if not line:
        return ""
    if line.startswith("{"):
        name, words = "event", line
    else:
        name, _, words = line.partition(" ")
        if name == "?":
            name = "help"
        elif name not in COMMANDS and any(a.key == name for a in session.game.actions()):
            name, words = "action", name
    command = COMMANDS.get(name)
    if command is None:
        return f"unknown command {name[:40]!r}; type help"
    try:
        args = command.parse_words(words)
        reply = command.run(session, args, "console")
    except (EntryRefused, UserError) as refused:
        return str(refused)
    except Exception as error:          # the console never exits on what the host types
        log.exception("console command %r failed", line[:80])
        return f"that did not work ({type(error).__name__}: {str(error)[:120]}); type help"
    if reply.result is not None:
        return ""                       # the session's subscriber prints every outcome and refusal
    return reply.message
