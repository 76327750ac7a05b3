"""eXtraDICTION SP: Classic (questions, hands up, answers, writing, challenges) and Speed.

Classic, one turn per asker in seat order; a round is every player asking once; 10 rounds for
2 players, 7 for 3, 5 for 4 or more, or the agreed ``rounds``:

1. ``clue`` — the asker picks a card and one of its clues (``answer`` optional) and reads it.
2. ``clue_read`` — the asker has finished reading: the answerers' shared 30 s window opens.
3. ``hand`` — a player raises a hand; hands queue in the order they are raised (the asker
   never raises a hand; a player who has answered, or lost her turn, cannot queue again).
4. ``recognise`` — the asker tells the first hand in the queue to answer (within the 30 s);
   that player then has 5 s.
5. ``answer`` — only the recognised player's first answer counts. An answer from anyone else is
   ignored and costs that player her turn to answer; a second answer is ignored. Right: she
   writes. Wrong or too slow: the next hand. Nobody right (all tried, or the 30 s ran out, which
   any later event, e.g. ``time``, reveals): the asker writes.
6. ``write`` — within 30 s of the right answer (later is allowed but open to challenge).
7. ``challenge`` — before the next turn starts, another player may have the answer removed with
   its points: written too late, misspelt (not the card's answer), or forming a non-word.
   ``remove`` (the host) takes it off without grounds.

A record may skip the question-and-answer events: a ``write`` (or ``pass``) when a turn is due
is a whole turn whose answer was written. Speed: players take turns writing (``pass`` to skip),
with no rounds limit unless ``rounds`` is set.

>>> from rules.board import parse_board
>>> from rules.lexicon import Lexicon
>>> board = parse_board('rows = 1\\ncols = 5\\n[layers]\\nvalues = ["12345"]\\nzones = ["aabbb"]')
>>> g = ExtradictionSPGame(GameSetup("extradiction-sp", ("Ann", "Ben")), board, Lexicon(["cat"]))
>>> for e in [{"type": "clue", "player": "Ann", "answer": "cat", "t": 0},
...           {"type": "clue_read", "player": "Ann", "t": 4},
...           {"type": "hand", "player": "Ben", "t": 5},
...           {"type": "recognise", "player": "Ann", "target": "Ben", "t": 6},
...           {"type": "answer", "player": "Ben", "text": "cat", "t": 7}]:
...     _ = g.apply(e)
>>> g.apply({"type": "write", "player": "Ben", "text": "CAT", "row": 0, "col": 1, "dir": "across", "t": 20}).turn.score
18
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar

from rules import errors
from rules.board import Board
from rules.crossword import CrosswordGame, WritePolicy
from rules.events import Event
from rules.games import register_game
from rules.game import Action, Deadline, GameSetup, Outcome, Turn
from rules.lexicon import Lexicon, normalise
from rules.snapshot import COPIED, KEPT, OWN, Saving
from rules.turn_order import TurnOrder

ANSWER_WINDOW = 30.0    # seconds shared by all answerers once the clue is read
ANSWER_TIME = 5.0       # seconds for the recognised player
WRITING_TIME = 30.0     # seconds to finish writing the answer

CHALLENGE_REASONS = ("late", "misspelt", "not_a_word")


class Phase(enum.StrEnum):
    """Where the current question (a turn) stands."""

    DUE = "due"              # the asker is to pick a card and read a clue
    READING = "reading"      # the clue is being read
    ANSWERING = "answering"  # hands up: the 30 s answer window runs
    WRITING = "writing"      # the right answer (or the asker) is being written
    WRITTEN = "written"      # the answer is on the board (challenges are open until the next turn)


@dataclass
class ClassicTurn:
    """Where the current question stands."""

    #: everything but the asker moves on during the turn, and a challenge removes what was
    #: written (:mod:`rules.snapshot`)
    changes: ClassVar[dict[str, Saving]] = {
        "phase": KEPT, "answer": KEPT, "window_end": KEPT, "hands": COPIED, "done": COPIED, "current": KEPT,
        "answer_deadline": KEPT, "writer": KEPT, "write_from": KEPT, "written": OWN}

    asker: str
    phase: Phase = Phase.DUE
    answer: str | None = None          # the card's answer, when recorded
    window_end: float | None = None
    hands: list[str] = field(default_factory=list)
    done: set[str] = field(default_factory=set)      # answered, or lost the turn to answer
    current: str | None = None
    answer_deadline: float | None = None
    writer: str | None = None
    write_from: float | None = None
    written: Turn | None = None


@register_game
class ExtradictionSPGame(CrosswordGame):
    """eXtraDICTION SP, Classic and Speed."""

    game_id = "extradiction-sp"
    title = "eXtraDICTION SP"
    min_players, max_players = 2, 4           # "2 to 4 players" (the rule text)
    variants = ("classic", "speed")
    policy = WritePolicy()
    after_end = ("time", "challenge", "remove")
    changes = CrosswordGame.changes | {"order": OWN, "turn": OWN, "turns_started": KEPT}

    def __init__(self, setup: GameSetup, board: Board, lexicon: Lexicon):
        variant = (setup.variant or "classic").strip().lower()
        if variant not in self.variants:
            raise errors.RecordFormatError(f"eXtraDICTION SP has no variant {setup.variant!r}; choose classic or speed")
        super().__init__(setup, board, lexicon)
        self.variant = variant
        self.order = TurnOrder(setup.players)
        self.total_turns = (setup.rounds_for(len(setup.players)) * len(setup.players)
                            if variant == "classic" or setup.rounds else None)
        self.turn = ClassicTurn(asker=self.order.current)
        self.turns_started = 1

    # -- dispatch -------------------------------------------------------------------------------
    def _handle(self, event: Event) -> Outcome:
        expired = self._advance_clock(event.t)
        handler: Callable[[Event], Outcome] | None = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            raise errors.WrongPhase(f"A {event.type!r} event has no place in eXtraDICTION SP.")
        outcome = handler(event)
        if expired:
            outcome = Outcome(f"{expired} {outcome.message}".strip(), outcome.turn, outcome.ignored)
        return outcome

    def _advance_clock(self, t: float | None) -> str:
        """Close the answer window if ``t`` is past it; say so (or return '')."""
        turn = self.turn
        if t is None or turn.phase != Phase.ANSWERING or turn.window_end is None:
            return ""
        answering = turn.current is not None and turn.answer_deadline is not None and t <= turn.answer_deadline
        if t > turn.window_end and not answering:
            self._nobody_right(turn.window_end)
            return f"Time is up: nobody answered right, so {turn.asker} writes."
        return ""

    def _nobody_right(self, at: float | None) -> None:
        turn = self.turn
        turn.phase, turn.writer, turn.write_from, turn.current = Phase.WRITING, turn.asker, at, None

    # -- starting turns -------------------------------------------------------------------------
    def _next_turn_due(self) -> None:
        """Close a finished turn so that the event being applied can start the next one."""
        if self.turn.phase == Phase.WRITTEN:
            if self.total_turns is not None and self.turns_started >= self.total_turns:
                raise errors.GameOver(f"The game is over: {self._rounds_text()} have been played.")
            self.order.advance()
            self.turns_started += 1
            self.turn = ClassicTurn(asker=self.order.current)

    def _rounds_text(self) -> str:
        rounds = (self.total_turns or 0) // len(self.setup.players)
        return f"all {rounds} round{'s' if rounds != 1 else ''}"

    def _on_clue(self, event: Event) -> Outcome:
        if self.variant == "speed":
            raise errors.WrongPhase("Speed eXtraDICTION SP has no questions: players simply take turns writing.")
        self._next_turn_due()
        turn = self.turn
        if turn.phase != Phase.DUE:
            raise errors.WrongPhase(f"{turn.asker}'s question is already under way.")
        if event.player != turn.asker:
            raise errors.NotYourTurn(f"It is {turn.asker}'s turn to ask a question, not {event.player}'s.")
        turn.phase = Phase.READING
        turn.answer = normalise(event.get("answer") or "") or None
        return Outcome(f"{turn.asker} asks a question (turn {self.turns_started}).")

    def _on_clue_read(self, event: Event) -> Outcome:
        turn = self.turn
        if turn.phase != Phase.READING or event.player != turn.asker:
            raise errors.WrongPhase(f"Only {turn.asker}, reading a clue, can finish reading it.")
        turn.phase = Phase.ANSWERING
        turn.window_end = None if event.t is None else event.t + ANSWER_WINDOW
        return Outcome(f"Hands up! {ANSWER_WINDOW:.0f} seconds to answer.")

    # -- answering ------------------------------------------------------------------------------
    def _answerers_left(self) -> list[str]:
        turn = self.turn
        return [p for p in self.setup.players if p != turn.asker and p not in turn.done]

    def _on_hand(self, event: Event) -> Outcome:
        turn, player = self.turn, event.by
        if turn.phase == Phase.READING:
            raise errors.WrongPhase(f"{player} raised a hand before the clue was finished; hands count once it is read.")
        if turn.phase != Phase.ANSWERING:
            raise errors.TooLate(f"{player} raised a hand, but the time to answer is over.")
        if player == turn.asker:
            raise errors.WrongPhase(f"{player} asked the question and does not answer it.")
        if player in turn.done:
            return Outcome(f"{player} has had her turn to answer this question.", ignored=True)
        if player in turn.hands or player == turn.current:
            return Outcome(f"{player}'s hand is already up.", ignored=True)
        turn.hands.append(player)
        return Outcome(f"{player} raises a hand ({len(turn.hands)} in the queue).")

    def _on_recognise(self, event: Event) -> Outcome:
        turn, target = self.turn, event["target"]
        if event.player != turn.asker:
            raise errors.NotYourTurn(f"Only {turn.asker}, who asked, recognises players.")
        if turn.phase != Phase.ANSWERING:
            raise errors.WrongPhase("Nobody can be recognised now: the answering time is not running.")
        if turn.current is not None:
            raise errors.WrongPhase(f"{turn.current} is still answering.")
        if not turn.hands:
            raise errors.WrongPhase(f"{target} cannot be recognised: no hand is up.")
        if target != turn.hands[0]:
            raise errors.NotYourTurn(f"{turn.hands[0]} raised a hand first and answers before {target}.")
        turn.hands.pop(0)
        turn.current = target
        turn.answer_deadline = None if event.t is None else event.t + ANSWER_TIME
        return Outcome(f"{target}, {ANSWER_TIME:.0f} seconds to answer.")

    def _on_answer(self, event: Event) -> Outcome:
        turn, player = self.turn, event.by
        if turn.phase not in (Phase.ANSWERING, Phase.READING):
            raise errors.WrongPhase(f"{player} answers, but no question is open.")
        if player == turn.asker:
            raise errors.WrongPhase(f"{player} asked the question and does not answer it.")
        if player in turn.done:
            return Outcome(f"{player} has already answered; only the first answer counts.", ignored=True)
        if player != turn.current:
            turn.done.add(player)
            if player in turn.hands:
                turn.hands.remove(player)
            outcome = Outcome(f"{player} answered out of turn: ignored, and {player} loses her turn to answer.",
                              ignored=True)
            self._after_wrong(event.t)
            return outcome
        turn.done.add(player)
        turn.current = None
        if event.t is not None and turn.answer_deadline is not None and event.t > turn.answer_deadline:
            return Outcome(f"{player}'s {ANSWER_TIME:.0f} seconds were up. " + self._after_wrong(event.t))
        if self._is_right(event):
            turn.phase, turn.writer, turn.write_from = Phase.WRITING, player, event.t
            return Outcome(f"{player} is right and writes the answer: {WRITING_TIME:.0f} seconds.")
        return Outcome(f"{player} is wrong. " + self._after_wrong(event.t))

    def _is_right(self, event: Event) -> bool:
        if event.get("correct") is not None:
            return bool(event["correct"])
        if self.turn.answer is None or event.get("text") is None:
            raise errors.WrongPhase(
                "This answer cannot be judged: give 'correct' (true/false), or record the card's answer with the clue.")
        return normalise(event["text"]) == self.turn.answer

    def _after_wrong(self, t: float | None) -> str:
        turn = self.turn
        if not self._answerers_left() and turn.current is None and turn.phase == Phase.ANSWERING:
            self._nobody_right(t)
            return f"Nobody is left to answer: {turn.asker} writes."
        if turn.hands:
            return f"Next: {turn.hands[0]}."
        return "Any other hands?"

    # -- writing and challenges -----------------------------------------------------------------
    def _on_write(self, event: Event) -> Outcome:
        self._next_turn_due()
        turn = self.turn
        if self.variant == "speed":
            self.order.check(event.by)
            turn.writer = event.player
        elif turn.phase == Phase.DUE:
            turn.writer = event.player            # a whole turn, recorded as its write only
        elif turn.phase != Phase.WRITING:
            raise errors.WrongPhase(f"{event.player} cannot write now: nobody has answered the question right yet.")
        elif event.player != turn.writer:
            raise errors.NotYourTurn(f"{turn.writer} writes this answer, not {event.player}.")
        late = (event.t is not None and turn.write_from is not None and event.t - turn.write_from > WRITING_TIME)
        written = self.write(event, late=late)
        turn.phase, turn.written = Phase.WRITTEN, written
        self._check_end()
        note = f" (after more than {WRITING_TIME:.0f} s: it may be challenged)" if late else ""
        return Outcome(f"{written.explain()}{note}.", written)

    def _on_pass(self, event: Event) -> Outcome:
        self._next_turn_due()
        turn = self.turn
        if self.variant == "speed":
            self.order.check(event.by, "play")
        elif turn.phase == Phase.WRITING and event.player != turn.writer:
            raise errors.NotYourTurn(f"{turn.writer} writes this answer, not {event.player}.")
        elif turn.phase in (Phase.READING, Phase.ANSWERING) and event.player != turn.asker:
            raise errors.NotYourTurn(f"Only {turn.asker}, who asked, can drop this question.")
        turn.phase, turn.written = Phase.WRITTEN, None
        self._check_end()
        return Outcome(f"{event.player} passes.")

    def _check_end(self) -> None:
        if self.board_full() or (self.total_turns is not None and self.turns_started >= self.total_turns):
            self.ended = True

    def _challengeable(self) -> Turn:
        turn = self.turn
        if turn.phase != Phase.WRITTEN or turn.written is None or turn.written.removed:
            raise errors.WrongPhase("There is no answer to challenge: challenges come after a write, "
                                    "before the next turn starts.")
        return turn.written

    def _on_challenge(self, event: Event) -> Outcome:
        written = self._challengeable()
        if event.player == written.player:
            raise errors.WrongPhase(f"{event.player} cannot challenge her own answer.")
        reason = event.get("reason")
        if reason is not None and reason not in CHALLENGE_REASONS:
            raise errors.ChallengeFails(f"{reason!r} is not a ground for a challenge; use {', '.join(CHALLENGE_REASONS)}.")
        grounds = self._grounds(written)
        upheld = [g for g in grounds if reason in (None, g)]
        if not upheld:
            raise errors.ChallengeFails(
                f"{event.player}'s challenge fails: {written.text} was written in time, as on the card, "
                f"and forms only real words.")
        self.remove_turn(written)
        return Outcome(f"Challenge upheld ({', '.join(upheld)}): {written.text} is removed and "
                       f"{written.player} loses its points.", written)

    def _grounds(self, written: Turn) -> list[str]:
        grounds = []
        if written.late:
            grounds.append("late")
        if self.turn.answer and written.text != self.turn.answer and self.variant == "classic":
            grounds.append("misspelt")
        if any(w.word not in self.lexicon and not self.lexicon.accepts_entry(w.word) for w in written.words):
            grounds.append("not_a_word")
        return grounds

    def _on_remove(self, event: Event) -> Outcome:
        written = self._challengeable()
        self.remove_turn(written)
        return Outcome(f"{written.text} is removed and {written.player} loses its points.", written)

    def _on_time(self, event: Event) -> Outcome:
        return Outcome("")

    def _over_reason(self) -> str:
        if self.board_full():
            return "no square is left to write on"
        if self.total_turns is not None and self.turns_started >= self.total_turns:
            return f"{self._rounds_text()} have been played"
        return "it was ended"

    # -- views ----------------------------------------------------------------------------------
    @property
    def round(self) -> int:
        return self.order.round

    @property
    def next_player(self) -> str | None:
        """Who plays next: the asker (Classic) or writer (Speed) of the turn under way or due next;
        ``None`` once the last turn has been played."""
        if self.turn.phase == Phase.WRITTEN:
            if self._last_turn_played():
                return None
            return self.setup.players[(self.order.turns_taken + 1) % len(self.setup.players)]
        return self.turn.asker

    def _last_turn_played(self) -> bool:
        return self.total_turns is not None and self.turns_started >= self.total_turns

    # -- what the table asks ----------------------------------------------------------------------
    def whose_turn(self) -> str | None:
        """Who the table waits for: the answerer, the writer, the asker; in Speed, whose turn it is.

        >>> from rules.board import parse_board
        >>> from rules.lexicon import Lexicon
        >>> board = parse_board('rows = 1\\ncols = 3\\n[layers]\\nvalues = ["111"]\\nzones = ["aaa"]')
        >>> g = ExtradictionSPGame(GameSetup("extradiction-sp", ("Ann", "Ben")), board, Lexicon([]))
        >>> g.whose_turn(), g.apply({"type": "clue", "player": "Ann", "t": 0}).message, g.whose_turn()
        ('Ann', 'Ann asks a question (turn 1).', 'Ann')
        """
        if self.over:
            return None
        if self.variant == "speed":                # after a write, the next player is up
            return self.next_player if self.turn.phase is Phase.WRITTEN else self.order.current
        turn = self.turn
        if turn.phase is Phase.ANSWERING:
            return turn.current
        if turn.phase is Phase.WRITING:
            return turn.writer
        if turn.phase is Phase.WRITTEN:
            return self.next_player
        return turn.asker

    def clue_asker(self) -> str | None:
        """Who picks the next clue card now (Classic, between turns), or ``None``."""
        if self.over or self.variant == "speed" or self.turn.phase not in (Phase.DUE, Phase.WRITTEN):
            return None
        return self.whose_turn()

    def awaited_word(self) -> str | None:
        """The clue card's answer while its writer is to write it (when the ``clue`` gave one), else
        None: the camera's reader weighs it first (``vision.tracker.Tracker.expected``)."""
        turn = self.turn
        return turn.answer if turn.phase == Phase.WRITING and turn.answer else None

    def write_deadline(self) -> float | None:
        """When the writer's 30 seconds end (``None`` when no write is timed)."""
        turn = self.turn
        if turn.phase is not Phase.WRITING or turn.write_from is None:
            return None
        return turn.write_from + WRITING_TIME

    def deadlines(self) -> tuple[Deadline, ...]:
        """The recognised answerer's 5 s, the answerers' 30 s, the writer's 30 s (Classic only).

        The 5 s run out into a wrong answer; the 30 s, with nobody answering, into a ``time``
        event (the asker writes); the writer's 30 s only make a late write open to challenge.
        """
        if self.variant == "speed" or self.over:
            return ()
        turn, out = self.turn, []
        if turn.phase is Phase.ANSWERING:        # the shared window first, the one answerer's inside it
            if turn.window_end is not None:
                out.append(Deadline("answers", turn.window_end, ANSWER_WINDOW, None,
                                    {"type": "time"} if turn.current is None else None))
            if turn.current is not None and turn.answer_deadline is not None:
                out.append(Deadline(f"{turn.current} answers", turn.answer_deadline, ANSWER_TIME, turn.current,
                                    {"type": "answer", "player": turn.current, "correct": False, "timeout": True}))
        write_deadline = self.write_deadline()
        if write_deadline is not None:
            out.append(Deadline(f"{turn.writer} writes", write_deadline, WRITING_TIME, turn.writer))
        return tuple(out)

    def actions(self) -> tuple[Action, ...]:
        """The host's buttons: take a card, clue read, recognise, right/wrong, challenges, pass, end."""
        turn, out = self.turn, []
        if self.over and turn.phase is not Phase.WRITTEN:
            return ()
        if self.variant == "classic":
            asker = self.clue_asker()
            if asker is not None:
                out.append(Action("clue", f"{asker} draws a clue card", {"type": "clue", "player": asker}))
            if turn.phase is Phase.READING:
                out.append(Action("clue-read", f"Clue read: start the {ANSWER_WINDOW:.0f} s",
                                  {"type": "clue_read", "player": turn.asker}))
            if turn.phase is Phase.ANSWERING:
                for p in self._answerers_left():
                    if p not in turn.hands and p != turn.current:
                        out.append(Action(f"hand:{p}", f"{p} raises a hand", {"type": "hand", "player": p}))
            if turn.phase is Phase.ANSWERING and turn.current is None and turn.hands:
                out.append(Action("recognise", f"Recognise {turn.hands[0]}",
                                  {"type": "recognise", "player": turn.asker, "target": turn.hands[0]}))
            if turn.phase is Phase.ANSWERING and turn.current:
                out.append(Action("answer-right", f"{turn.current} is right",
                                  {"type": "answer", "player": turn.current, "correct": True}))
                out.append(Action("answer-wrong", f"{turn.current} is wrong",
                                  {"type": "answer", "player": turn.current, "correct": False}))
        if turn.phase is Phase.WRITTEN and turn.written is not None and not turn.written.removed:
            for p in self.setup.players:
                if p != turn.written.player:
                    out.append(Action(f"challenge:{p}", f"{p} challenges {turn.written.text}",
                                      {"type": "challenge", "player": p}))
            out.append(Action("remove", f"Remove {turn.written.text}", {"type": "remove"}))
        if turn.phase is Phase.WRITING:
            out.append(Action("pass", f"{turn.writer} passes", {"type": "pass", "player": turn.writer}))
        elif self.variant == "speed" and not self.over:
            player = self.whose_turn()
            out.append(Action("pass", f"{player} passes", {"type": "pass", "player": player}))
        return tuple(out) + super().actions()

    def state(self) -> dict[str, Any]:
        state = super().state()
        turn = self.turn
        state.update(
            round=self.order.round, turn_number=self.turns_started, phase=turn.phase.value, asker=turn.asker,
            next_player=self.next_player,
            hands=list(turn.hands), answering=turn.current, writer=turn.writer,
            window_end=turn.window_end, answer_deadline=turn.answer_deadline,
            write_deadline=self.write_deadline(),
        )
        return state
