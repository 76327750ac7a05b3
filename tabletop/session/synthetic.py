"""The simulated players of the synthetic table: scripted, seeded, and always legal.

A script is a generator of :class:`Action` s that reads the live game after each one (so it
always plans against the board as it stands): wait on the table clock, a host or player event,
a buzz-in press, or a word written on the board. The runner (:mod:`tabletop.session.demo`)
carries each action through the devices: presses through the buzzer box, words through the
synthetic camera and the vision pipeline.

The eXtraDICTION SP Classic script has buzz-ins, wrong answers, an answer too slow, a turn
where nobody is right and the asker writes, a late write that is challenged and removed, and a
challenge that fails.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable, Iterator

from rules.lexicon import normalise
from tabletop.session.planner import best_placement


@dataclass
class Action:
    kind: str                      # 'wait', 'event', 'buzz', 'write'
    seconds: float = 0.0
    event: dict | None = None
    player: str | None = None
    source: str = "host"
    note: str = ""
    write: dict | None = field(default=None, repr=False)


def _usable(answer: str) -> bool:
    return answer.isalpha() and 3 <= len(answer) <= 9


def _pick_clue(game, cards, start: int, player: str):
    """The first card from ``start`` with a single-word clue that fits the board; (index, card, clue, write)."""
    for i in range(start, start + len(cards)):
        card = cards[i % len(cards)]
        for clue in card.clues:
            if not _usable(clue.answer):
                continue
            write = best_placement(game, player, clue.answer)
            if write is not None:
                return i + 1, card, clue, write
    return None


def _wrong_guess(clue, rng: random.Random, lexicon) -> str:
    """A plausible wrong answer: a word of the same length and first letter, else a near miss."""
    candidates = [w for w in lexicon.words_of_length(len(clue.answer))
                  if w.startswith(clue.answer[0]) and w != clue.answer and w.isalpha()][:200]
    return rng.choice(candidates) if candidates else clue.answer[::-1]


def sp_classic(get_game: Callable, deck, seed: int = 0) -> Iterator[Action]:
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
        asker = game.turn.asker if game.turn.phase == "due" else players[(players.index(game.turn.asker) + 1) % len(players)]
        # the asker may pick any clue on the card; the writer is not known yet, any player's view of the board will do
        picked = _pick_clue(game, cards, position, asker)
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
            text = _wrong_guess(clue, rng, game.lexicon) if wrong else clue.answer
            yield Action("event", event={"type": "answer", "player": player, "text": text.lower()},
                         source=f"seat:{player}")
            if not wrong:
                answered_right = True
                break
        game = get_game()
        if not answered_right and game.turn.phase == "answering":
            remaining = (game.turn.window_end or 0) - 0
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
        if game.turn.phase == "written" and game.turn.written is not None:
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


def extradiction(get_game: Callable, deck, seed: int = 0) -> Iterator[Action]:
    """eXtraDICTION (levels 1-3): the helper draws a card, a player guesses, then writes."""
    rng = random.Random(seed)
    cards = list(deck)
    position = 0
    card_no = 0
    while True:
        game = get_game()
        if game.over:
            return
        players = game.setup.players
        guesser = players[game.cards_used % len(players)]
        asker = players[(players.index(guesser) - 1) % len(players)]
        picked = _pick_clue(game, cards, position, guesser)
        if picked is None:
            yield Action("event", event={"type": "end"}, note="no clue fits the board any more")
            return
        position, card, clue, write = picked
        card_no += 1
        yield Action("event", event={"type": "clue", "player": asker, "answer": clue.answer.lower(),
                                     "definition": clue.definition, "card": card.id}, source="host",
                     note=f"card {card.id}: {clue.card_text()}")
        yield Action("wait", 4.0 + rng.random() * 3)
        wrong = card_no in (4, 8)
        text = _wrong_guess(clue, rng, game.lexicon) if wrong else clue.answer
        yield Action("event", event={"type": "answer", "player": guesser, "text": text.lower()},
                     source=f"seat:{guesser}")
        if wrong:
            yield Action("wait", 2.0)
            continue
        yield Action("wait", 5.0 + rng.random() * 6)
        yield Action("write", player=guesser, write=write, source="camera")
        yield Action("wait", 2.0)


SCRIPTS = {"extradiction": extradiction, "extradiction-sp": sp_classic}
