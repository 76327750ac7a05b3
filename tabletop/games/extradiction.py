"""eXtraDICTION at the table: the helper (or the asker) draws a clue card, a player guesses, then
writes; Speed: players take turns writing. Registers the game with :mod:`tabletop.games`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from rules.extradiction import ExtradictionGame, Phase
from tabletop.games import Demo, GameSpec, register
from tabletop.games.table import TableGame, Window, clue_prompt, scores_line
from tabletop.players.synthetic import Action, pick_clue, wrong_guess


class ExtradictionTable(TableGame[ExtradictionGame]):
    """Levels 1-3 and Speed: clue cards from the deck, guesses typed or judged, words written."""

    uses_clue_deck = True

    def deck_kind(self, game: ExtradictionGame) -> str:
        """Levels 1-2 are for children learning letters: picture cards; Level 3 and Speed: words."""
        return "pictures" if game.level in ("level1", "level2") else "words"

    def windows(self, game: ExtradictionGame) -> list[Window]:
        phase, n = game.phase, len(game.events)
        if phase is Phase.GUESS:
            return [Window(f"answer-{n}", "answer", (game.guesser_due(),), None, prompt="Type the word you guess.")]
        writer = game.whose_turn()
        if phase in (Phase.WRITE, Phase.SPEED) and writer is not None:
            return [Window(f"write-{n}", "write", (writer,), None, ("text", "row", "col", "dir"),
                           prompt="Type the word you wrote, its first square and its direction.")]
        return []

    def speech(self, game: ExtradictionGame, event: dict[str, Any], message: str) -> list[str]:
        kind = event.get("type")
        if kind == "clue" and game.level in ("level1", "level2") and event.get("answer"):
            word = event["answer"].upper()
            if game.level == "level1":
                letters = ", ".join(c for c in word if c.isalpha())
                return [f"The picture shows {word.lower()}.", f"{word.lower()} is spelt {letters}."]
            return [f"A {len(word)}-letter word beginning with {word[0]}." +
                    (f" {event['definition']}" if event.get("definition") else "")]
        if kind == "clue" and event.get("definition"):
            answer = event.get("answer") or ""
            return [f"{len(answer.replace(' ', ''))}-letter word beginning with {answer[:1]}: {event['definition']}"]
        if kind == "write" and message:
            if game.level == "level1":
                return [", ".join(c for c in event["text"].upper() if c.isalpha()), message, scores_line(game)]
            return [message, scores_line(game)]
        return [message] if message else []

    def status(self, game: ExtradictionGame) -> str:
        phase, who = game.phase, game.whose_turn()
        return {
            Phase.OVER: "The game is over.",
            Phase.SPEED: f"{who} writes a word (or passes).",
            Phase.DRAW: f"{game.clue_asker()} takes a clue card for {who}.",
            Phase.GUESS: (f"Show {who} the card and say the word together." if game.level == "level1"
                          else f"{who} guesses the word."),
            Phase.WRITE: f"{who} writes the word on the board.",
        }[phase]

    def summary(self, game: ExtradictionGame) -> dict[str, Any]:
        phase = game.phase
        summary: dict[str, Any] = {"phase": phase.value, "cards_used": game.cards_used,
                                   "clue": clue_prompt(game, phase in (Phase.GUESS, Phase.WRITE) and game.level == "level3")}
        clue = next((e for e in reversed(game.events) if e.type == "clue"), None)
        if game.level in ("level1", "level2") and clue is not None and phase in (Phase.GUESS, Phase.WRITE):
            # the card as the child sees it: Level 1 shows the word under the picture, Level 2
            # its first letter and length (the child guesses the word)
            word = (clue.get("answer") or "").upper()
            shown = word if game.level == "level1" or phase is Phase.WRITE else (word[:1] + " _" * (len(word) - 1))
            summary["card"] = {"picture": clue.get("picture") or "", "word": shown, "letters": len(word)}
        if game.level in ("level1", "level2") and phase is Phase.WRITE and clue is not None and clue.get("answer"):
            summary["confirm_write"] = {"player": game.whose_turn(), "word": clue["answer"].upper()}
        return summary

    def seat_view(self, game: ExtradictionGame, seat: str) -> dict[str, Any]:
        """Levels 1-2 are for children: their pages need no typing (docs/session.md, "The child's
        page"; the view adds the game's alphabet for its letter buttons): the directions the level
        allows and, when the table knows it, the card's word as one big button (Level 1: the card shows it;
        Level 2: once the child has guessed it)."""
        if game.level not in ("level1", "level2"):
            return {}
        card = self.summary(game).get("card")
        known = card is not None and game.whose_turn() == seat and (game.level == "level1" or game.phase is Phase.WRITE)
        return {"child": {"word": card["word"] if known and card else None,
                          "directions": ["across"] if game.policy.across_only else ["across", "down"]}}


def demo_script(get_game: Callable[[], Any], deck: Any, seed: int = 0) -> Iterator[Action]:
    """eXtraDICTION (levels 1-3): the helper draws a card, a player guesses, then writes."""
    rng = random.Random(seed)
    cards = list(deck)
    position = 0
    card_no = 0
    while True:
        game = get_game()
        if game.over:
            return
        guesser = game.guesser_due()
        asker = game.clue_asker()
        picked = pick_clue(game, cards, position, guesser)
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
        text = wrong_guess(clue, rng, game.lexicon) if wrong else clue.answer
        yield Action("event", event={"type": "answer", "player": guesser, "text": text.lower()},
                     source=f"seat:{guesser}")
        if wrong:
            yield Action("wait", 2.0)
            continue
        yield Action("wait", 5.0 + rng.random() * 6)
        yield Action("write", player=guesser, write=write, source="camera")
        yield Action("wait", 2.0)


register(GameSpec(
    "extradiction", ExtradictionTable(),
    "the original eXtraDICTION: clue cards, words written on the board (levels 1-3, speed)",
    demo=Demo(("Ann", "Ben"), demo_script, variant="level3"),
    board="extradiction", pieces="letters", languages=("en", "uk")))
