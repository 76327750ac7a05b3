"""eXtraDICTION SP at the table: clue read aloud, buzz-ins, 30 s / 5 s windows, writing,
challenges (Classic); players taking turns (Speed). Registers the game with :mod:`tabletop.games`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from rules.deck import Clue
from rules.extradiction_sp import ANSWER_WINDOW, ExtradictionSPGame, Phase
from rules.game import Action as GameAction
from rules.lexicon import normalise
from tabletop.games import Demo, GameSpec, register
from tabletop.games.table import EntryError, TableGame, Window, clue_prompt, scores_line
from tabletop.players.planner import best_placement
from tabletop.players.synthetic import Action, pick_clue, wrong_guess


#: what the asker does from her own phone once she asks (besides drawing the card)
ASKER_KEYS = ("clue-read", "recognise", "answer-right", "answer-wrong")


class ExtradictionSPTable(TableGame[ExtradictionSPGame]):
    """Buzz-in presses are hands; the answerer and the writer get their windows on their pages."""

    uses_buzzers = True
    uses_clue_deck = True
    uses_sand_timer = True

    def buzz(self, game: ExtradictionSPGame, player: str) -> dict[str, Any] | None:
        if game.variant == "speed" or game.over:
            return None
        # only while the rules would count it: not the asker's, not twice, not after her answer
        if any(a.key == f"hand:{player}" for a in game.actions()):
            return {"type": "hand", "player": player}
        return None

    def buzz_opened_at(self, game: ExtradictionSPGame) -> float | None:
        """When the clue was read (the shared answer window's start), while hands may go up."""
        turn = game.turn
        if game.variant == "speed" or game.over or turn.phase is not Phase.ANSWERING or turn.window_end is None:
            return None
        return round(turn.window_end - ANSWER_WINDOW, 6)

    def windows(self, game: ExtradictionSPGame) -> list[Window]:
        turn, n = game.turn, len(game.events)
        if game.over:
            return []
        if game.variant == "classic" and turn.phase is Phase.ANSWERING and turn.current:
            # named by the question and the answerer, so it stays the same while other hands go up
            return [Window(f"answer-{game.turns_started}-{turn.current}", "answer", (turn.current,), turn.answer_deadline,
                           prompt="Type your answer (the host judges it).")]
        writer = turn.writer if turn.phase is Phase.WRITING else (
            game.whose_turn() if game.variant == "speed" else None)
        if writer:
            return [Window(f"write-{n}", "write", (writer,), game.write_deadline(), ("text", "row", "col", "dir"),
                           prompt="Type the answer you wrote, tap its first square, pick its direction.",
                           hard=False)]        # a late write is allowed, and open to challenge
        return []

    def seat_actions(self, game: ExtradictionSPGame, seat: str) -> list[GameAction]:
        """From her own phone, a player takes her clue card and passes her own write; in Classic,
        the asker also says the clue is read, recognises, and marks answers right or wrong, only
        while the rules say she is the one asking."""
        if game.over:
            return []
        out = []
        for action in game.actions():
            if action.key in ("clue", "pass") and action.event.get("player") == seat:
                out.append(action)
            elif game.variant == "classic" and action.key in ASKER_KEYS and game.turn.asker == seat:
                out.append(action)
        return out

    def entry_event(self, game: ExtradictionSPGame, window: Window, seat: str,
                    entry: dict[str, Any]) -> dict[str, Any]:
        if window.purpose == "answer" and game.turn.answer is None:
            # a physical card whose answer nobody entered: only the host can judge, so say it aloud
            raise EntryError("This answer is said aloud: the card's answer was not entered, so the host judges it.")
        return super().entry_event(game, window, seat, entry)

    def speech(self, game: ExtradictionSPGame, event: dict[str, Any], message: str) -> list[str]:
        kind = event.get("type")
        if kind == "clue" and event.get("answer") and event.get("definition"):
            clue = Clue(normalise(event["answer"]), event["definition"])
            return [f"{event.get('player')} asks: {clue.prompt()}"]
        if kind == "write" and message:
            return [message, scores_line(game)]
        return [message] if message else []

    def status(self, game: ExtradictionSPGame) -> str:
        if game.over:
            return "The game is over."
        turn, who = game.turn, game.whose_turn()
        if game.variant == "speed":
            return f"{who} writes a word (or passes)."
        return {
            Phase.DUE: f"{who} picks a clue card.",
            Phase.READING: f"{turn.asker} reads the clue.",
            Phase.ANSWERING: (f"{turn.current} answers." if turn.current else
                              "Hands up! Who knows the answer?" if not turn.hands else f"{turn.hands[0]}'s hand is up first."),
            Phase.WRITING: f"{turn.writer} writes the answer on the board.",
            Phase.WRITTEN: f"The answer is on the board. Next: {who} picks a clue card." if who else
            "The answer is on the board.",
        }[turn.phase]

    def summary(self, game: ExtradictionSPGame) -> dict[str, Any]:
        turn = game.turn
        return {"phase": turn.phase.value, "asker": turn.asker, "hands": list(turn.hands), "answering": turn.current,
                "writer": turn.writer, "round": game.order.round, "turn_number": game.turns_started,
                "total_turns": game.total_turns,
                "clue": clue_prompt(game, turn.phase in (Phase.READING, Phase.ANSWERING))}


def demo_script(get_game: Callable[[], Any], deck: Any, seed: int = 0) -> Iterator[Action]:
    """eXtraDICTION SP Classic, played to the end by the seated players."""
    rng = random.Random(seed)
    cards = list(deck)
    position = 0
    turn_no = 0
    while True:
        game = get_game()
        if game.over:
            return
        turn_no += 1
        players = game.setup.players
        asker = game.clue_asker()
        # the asker may pick any clue on the card; the writer is not known yet, any player's view of the board will do
        picked = pick_clue(game, cards, position, asker)
        if picked is None:
            yield Action("event", event={"type": "end"}, note="no clue fits the board any more")
            return
        position, card, clue, _ = picked
        yield Action("event", event={"type": "clue", "player": asker, "answer": clue.answer.lower(),
                                     "definition": clue.definition, "card": card.id}, source="host",
                     note=f"{asker} reads card {card.id}: {clue.prompt()}")
        yield Action("wait", 3.0 + rng.random() * 2)
        yield Action("event", event={"type": "clue_read", "player": asker}, source="host")
        others = [p for p in players if p != asker]
        rng.shuffle(others)
        plan = turn_no % 7
        hands = others if plan in (1, 3, 5) else others[: max(1, rng.randint(1, len(others)))]
        for player in hands:
            yield Action("wait", 0.4 + rng.random() * 1.5)
            yield Action("buzz", player=player, source="buzzer")
        answered_right = False
        for k, player in enumerate(hands):
            yield Action("wait", 1.0)
            yield Action("event", event={"type": "recognise", "player": asker, "target": player}, source="host")
            if plan == 3 and k == 0:
                yield Action("wait", 6.0, note=f"{player} says nothing for 5 seconds")
                continue                       # the clock turns the silence into a wrong answer
            yield Action("wait", 1.0 + rng.random() * 2)
            wrong = (plan in (1, 5) and k == 0) or plan == 6 or (plan == 4 and k < len(hands) - 1)
            text = wrong_guess(clue, rng, game.lexicon) if wrong else clue.answer
            yield Action("event", event={"type": "answer", "player": player, "text": text.lower()},
                         source=f"seat:{player}")
            if not wrong:
                answered_right = True
                break
        game = get_game()
        if not answered_right and game.turn.phase is Phase.ANSWERING:
            yield Action("wait", 31.0, note="the 30 seconds run out")
        game = get_game()
        writer = game.turn.writer
        if writer is None:
            yield Action("event", event={"type": "pass", "player": asker}, note="nobody can write")
            continue
        write = best_placement(game, writer, clue.answer)
        if write is None:
            yield Action("event", event={"type": "pass", "player": writer}, source="host")
            continue
        late = plan == 2 and turn_no < 10
        yield Action("wait", 33.0 if late else 6.0 + rng.random() * 8)
        yield Action("write", player=writer, write=write, source="camera")
        game = get_game()
        if game.turn.phase is Phase.WRITTEN and game.turn.written is not None:
            challenger = next(p for p in players if p != writer)
            if late:
                yield Action("wait", 2.0)
                yield Action("event", event={"type": "challenge", "player": challenger, "reason": "late"},
                             source="host", note=f"{challenger} challenges: written too late")
            elif plan == 5:
                yield Action("wait", 2.0)
                yield Action("event", event={"type": "challenge", "player": challenger, "reason": "misspelt"},
                             source="host", note=f"{challenger} challenges the spelling")
        yield Action("wait", 2.0)


register(GameSpec(
    "extradiction-sp", ExtradictionSPTable(),
    "eXtraDICTION SP: clues read aloud, buzz-in answers, timed writing, challenges (classic, speed)",
    demo=Demo(("Ann", "Ben", "Cai"), demo_script, variant="classic"),
    board="extradiction-sp", pieces="letters", languages=("en", "uk")))
