"""How each game sits at the table: which devices it uses and what its state means for them.

The session is game-agnostic; a :class:`TableGame` plugs a game in. It says who is to play,
which timers run (the scoreboard counts them down, the sand timer shows the main one), what a
buzz-in button means, whose hand a word the camera sees belongs to, which events the clock
itself produces (a window running out), which private entry windows the player pages offer,
what the host console can do, and what is said aloud. Adding a game = one subclass here plus
its rules in :mod:`rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.game import Game


@dataclass(frozen=True)
class Timer:
    """A countdown the table shows: ``name`` (for people), ends at table time ``ends``."""

    name: str
    ends: float
    seconds: float
    player: str | None = None

    def to_json(self) -> dict:
        return {"name": self.name, "ends": self.ends, "seconds": self.seconds, "player": self.player}


@dataclass(frozen=True)
class Window:
    """A player-page entry window derived from the game: who may type what, until when."""

    id: str
    purpose: str                  # 'answer', 'write' (or 'words' for host-opened windows)
    seats: tuple[str, ...]
    deadline: float | None
    fields: tuple[str, ...] = ("text",)
    prompt: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "purpose": self.purpose, "seats": list(self.seats), "deadline": self.deadline,
                "fields": list(self.fields), "prompt": self.prompt}


@dataclass
class HostAction:
    """A button on the host console: posts ``event`` (or a session action) when pressed."""

    label: str
    event: dict | None = None
    action: str | None = None
    args: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"label": self.label, "event": self.event, "action": self.action, "args": self.args}


class TableGame:
    """Base: a game with no timers, no buzzers and writes credited to whoever's turn it is."""

    game_id = "game"
    uses_buzzers = False
    uses_clue_deck = False

    def whose_turn(self, game: Game) -> str | None:
        return None

    def timers(self, game: Game) -> list[Timer]:
        return []

    def buzz(self, game: Game, player: str) -> dict | None:
        """The event a buzz-in press by ``player`` stands for now (``None``: it means nothing)."""
        return None

    def writer(self, game: Game) -> str | None:
        """Who the word the camera sees appear belongs to."""
        return self.whose_turn(game)

    def due(self, game: Game, now: float) -> list[dict]:
        """Events the clock produces at ``now`` (without ``t``; the session stamps it)."""
        return []

    def windows(self, game: Game) -> list[Window]:
        return []

    def entry_event(self, game: Game, window: Window, seat: str, entry: dict) -> dict:
        """Turn a player-page entry into the rules event it stands for."""
        if window.purpose == "write":
            return {"type": "write", "player": seat, "text": entry["text"], "row": int(entry["row"]),
                    "col": int(entry["col"]), "dir": entry.get("dir", "across")}
        if window.purpose == "answer":
            return {"type": "answer", "player": seat, "text": entry["text"]}
        raise ValueError(f"no event for a {window.purpose!r} entry")

    def host_actions(self, game: Game, clue: dict | None) -> list[HostAction]:
        return []

    def needs_clue(self, game: Game) -> str | None:
        """The player who should now take a clue card (the host console's 'draw' button)."""
        return None

    def clue_event(self, game: Game, player: str, clue: Any, card_id: str | None) -> dict:
        return {"type": "clue", "player": player, "answer": clue.answer, "definition": clue.definition,
                **({"card": card_id} if card_id else {})}

    def speech(self, game: Game, event: dict, message: str) -> list[str]:
        """What is said aloud after ``event`` was accepted with ``message``."""
        return [message] if message else []

    def summary(self, game: Game) -> dict:
        """Extra public scoreboard fields."""
        return {}


def clue_prompt(game, phases_game) -> str | None:
    """What the asker read aloud for the clue in play (first letter, length, definition; never the answer)."""
    if not phases_game:
        return None
    clue = next((e for e in reversed(game.events) if e.type == "clue"), None)
    if clue is None or not clue.get("answer") or not clue.get("definition"):
        return None
    from rules.deck import Clue
    from rules.lexicon import normalise
    return Clue(normalise(clue["answer"]), clue["definition"]).prompt()


# -- eXtraDICTION ---------------------------------------------------------------------------------
_LETTER_NAMES = {c: c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


class ExtradictionTable(TableGame):
    """eXtraDICTION: the host (or the asker) draws a clue card, a player guesses, then writes."""

    game_id = "extradiction"
    uses_clue_deck = True

    def _card_phase(self, game) -> str:
        if game.over:
            return "over"
        if game.speed:
            return "speed"
        if not game.card_in_play:
            return "draw"
        return "write" if game.guesser is not None else "guess"

    def whose_turn(self, game) -> str | None:
        if game.over:
            return None
        if game.speed:
            return game.order.current
        if game.card_in_play and game.guesser:
            return game.guesser
        return self._guesser_due(game)

    def _guesser_due(self, game) -> str:
        players = game.setup.players
        clues = sum(1 for e in game.events if e.type == "clue") - (1 if game.card_in_play else 0)
        return players[clues % len(players)]

    def needs_clue(self, game) -> str | None:
        if game.over or game.speed or game.card_in_play:
            return None
        players = game.setup.players
        guesser = self._guesser_due(game)
        # the asker (or the adult helper) is the player before the guesser
        return players[(players.index(guesser) - 1) % len(players)] if len(players) > 1 else guesser

    def windows(self, game) -> list[Window]:
        phase = self._card_phase(game)
        n = len(game.events)
        if phase == "guess":
            return [Window(f"answer-{n}", "answer", (self._guesser_due(game),), None, prompt="Type the word you guess.")]
        if phase in ("write", "speed"):
            who = self.whose_turn(game)
            return [Window(f"write-{n}", "write", (who,), None, ("text", "row", "col", "dir"),
                           prompt="Type the word you wrote, its first square and its direction.")]
        return []

    def host_actions(self, game, clue) -> list[HostAction]:
        phase = self._card_phase(game)
        actions = []
        if phase == "draw":
            actions.append(HostAction("Draw a clue card", action="draw"))
        if phase == "guess":
            who = self._guesser_due(game)
            actions.append(HostAction(f"{who} is right", {"type": "answer", "player": who, "correct": True}))
            actions.append(HostAction(f"{who} is wrong", {"type": "answer", "player": who, "correct": False}))
        if phase in ("write", "speed"):
            actions.append(HostAction(f"{self.whose_turn(game)} passes", {"type": "pass", "player": self.whose_turn(game)}))
        if not game.over:
            actions.append(HostAction("End the game", {"type": "end"}))
        return actions

    def speech(self, game, event, message) -> list[str]:
        kind = event.get("type")
        if kind == "clue" and game.level in ("level1", "level2") and event.get("answer"):
            word = event["answer"].upper()
            if game.level == "level1":
                letters = ", ".join(_LETTER_NAMES.get(c, c) for c in word if c.isalpha())
                return [f"The picture shows {word.lower()}.", f"{word.lower()} is spelt {letters}."]
            return [f"A {len(word)}-letter word beginning with {word[0]}." +
                    (f" {event['definition']}" if event.get("definition") else "")]
        if kind == "clue" and event.get("definition"):
            answer = event.get("answer") or ""
            return [f"{len(answer.replace(' ', ''))}-letter word beginning with {answer[:1]}: {event['definition']}"]
        if kind == "write" and message:
            scores = "Scores: " + ", ".join(f"{p} {v}" for p, v in game.totals.items()) + "."
            if game.level == "level1":
                return [", ".join(c for c in event["text"].upper() if c.isalpha()), message, scores]
            return [message, scores]
        return [message] if message else []

    def summary(self, game) -> dict:
        phase = self._card_phase(game)
        return {"phase": phase, "cards_used": game.cards_used,
                "clue": clue_prompt(game, phase in ("guess", "write") and game.level == "level3")}


# -- eXtraDICTION SP ------------------------------------------------------------------------------
class ExtradictionSPTable(TableGame):
    """eXtraDICTION SP Classic: clue read aloud, buzz-ins, 30 s / 5 s windows, writing, challenges."""

    game_id = "extradiction-sp"
    uses_buzzers = True
    uses_clue_deck = True

    def whose_turn(self, game) -> str | None:
        if game.over:
            return None
        if game.variant == "speed":
            return game.order.current
        turn = game.turn
        if turn.phase == "answering":
            return turn.current
        if turn.phase == "writing":
            return turn.writer
        if turn.phase == "written":
            total = game.total_turns
            if total is not None and game.turns_started >= total:
                return None
            players = game.setup.players
            return players[(players.index(turn.asker) + 1) % len(players)]
        return turn.asker

    def timers(self, game) -> list[Timer]:
        if game.variant == "speed":
            return []
        from rules.extradiction_sp import ANSWER_TIME, ANSWER_WINDOW, WRITING_TIME
        turn, out = game.turn, []
        if turn.phase == "answering" and turn.window_end is not None:
            out.append(Timer("answers", turn.window_end, ANSWER_WINDOW))
            if turn.current is not None and turn.answer_deadline is not None:
                out.append(Timer(f"{turn.current} answers", turn.answer_deadline, ANSWER_TIME, turn.current))
        if turn.phase == "writing" and turn.write_from is not None:
            out.append(Timer(f"{turn.writer} writes", turn.write_from + WRITING_TIME, WRITING_TIME, turn.writer))
        return out

    def buzz(self, game, player) -> dict | None:
        if game.variant == "speed" or game.over:
            return None
        turn = game.turn
        if turn.phase == "answering" and player != turn.asker:
            return {"type": "hand", "player": player}
        return None

    def due(self, game, now) -> list[dict]:
        if game.variant == "speed" or game.over:
            return []
        turn = game.turn
        if turn.phase != "answering":
            return []
        if turn.current is not None and turn.answer_deadline is not None and now > turn.answer_deadline:
            return [{"type": "answer", "player": turn.current, "correct": False, "timeout": True}]
        if turn.current is None and turn.window_end is not None and now > turn.window_end:
            return [{"type": "time"}]
        return []

    def windows(self, game) -> list[Window]:
        turn, n = game.turn, len(game.events)
        if game.over:
            return []
        if game.variant == "classic" and turn.phase == "answering" and turn.current:
            return [Window(f"answer-{n}", "answer", (turn.current,), turn.answer_deadline,
                           prompt="Type your answer (the host judges it).")]
        writer = turn.writer if turn.phase == "writing" else (
            game.order.current if game.variant == "speed" else None)
        if writer:
            deadline = None if turn.write_from is None else turn.write_from + 30.0
            return [Window(f"write-{n}", "write", (writer,), deadline, ("text", "row", "col", "dir"),
                           prompt="Type the answer you wrote, its first square and its direction.")]
        return []

    def entry_event(self, game, window, seat, entry) -> dict:
        if window.purpose == "answer" and game.turn.answer is None:
            # a physical card whose answer nobody entered: only the host can judge, so say it aloud
            raise ValueError("the answer said aloud (the card's answer was not entered: the host judges it)")
        return super().entry_event(game, window, seat, entry)

    def needs_clue(self, game) -> str | None:
        if game.over or game.variant == "speed":
            return None
        turn = game.turn
        if turn.phase in ("due", "written"):
            return self.whose_turn(game)
        return None

    def host_actions(self, game, clue) -> list[HostAction]:
        if game.over and game.turn.phase != "written":
            return []
        turn, actions = game.turn, []
        if game.variant == "classic":
            if turn.phase in ("due", "written") and not game.over:
                actions.append(HostAction(f"{self.needs_clue(game)} draws a clue card", action="draw"))
            if turn.phase == "reading":
                actions.append(HostAction("Clue read: start the 30 s", {"type": "clue_read", "player": turn.asker}))
            if turn.phase == "answering" and turn.current is None and turn.hands:
                actions.append(HostAction(f"Recognise {turn.hands[0]}",
                                          {"type": "recognise", "player": turn.asker, "target": turn.hands[0]}))
            if turn.phase == "answering" and turn.current:
                actions.append(HostAction(f"{turn.current} is right",
                                          {"type": "answer", "player": turn.current, "correct": True}))
                actions.append(HostAction(f"{turn.current} is wrong",
                                          {"type": "answer", "player": turn.current, "correct": False}))
        if turn.phase == "written" and turn.written is not None and not turn.written.removed:
            for p in game.setup.players:
                if p != turn.written.player:
                    actions.append(HostAction(f"{p} challenges {turn.written.text}",
                                              {"type": "challenge", "player": p}))
            actions.append(HostAction(f"Remove {turn.written.text}", {"type": "remove"}))
        if turn.phase == "writing":
            actions.append(HostAction(f"{turn.writer} passes", {"type": "pass", "player": turn.writer}))
        if not game.over:
            actions.append(HostAction("End the game", {"type": "end"}))
        return actions

    def speech(self, game, event, message) -> list[str]:
        kind = event.get("type")
        if kind == "clue" and event.get("answer") and event.get("definition"):
            from rules.deck import Clue
            from rules.lexicon import normalise
            clue = Clue(normalise(event["answer"]), event["definition"])
            return [f"{event.get('player')} asks: {clue.prompt()}"]
        if kind == "write" and message:
            return [message, self.scores_line(game)]
        return [message] if message else []

    @staticmethod
    def scores_line(game) -> str:
        return "Scores: " + ", ".join(f"{p} {v}" for p, v in game.totals.items()) + "."

    def summary(self, game) -> dict:
        turn = game.turn
        return {"phase": turn.phase, "asker": turn.asker, "hands": list(turn.hands), "answering": turn.current,
                "writer": turn.writer, "round": game.order.round, "turn_number": game.turns_started,
                "total_turns": game.total_turns,
                "clue": clue_prompt(game, turn.phase in ("reading", "answering"))}


TABLES: dict[str, TableGame] = {t.game_id: t for t in (ExtradictionTable(), ExtradictionSPTable())}


def table_for(game_id: str) -> TableGame:
    try:
        return TABLES[game_id]
    except KeyError:
        raise KeyError(f"no table plug-in for {game_id!r}; the games are {', '.join(sorted(TABLES))}") from None
