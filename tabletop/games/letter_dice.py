"""The letter-dice game at the table: the dice rolled (or seen, or rolled for the players), the
sand timer on the GPIO LED bar, the buzzer box and the scoreboard, every seat's words sealed on
its phone until the sand runs out, then the reveal. Registers the game with :mod:`tabletop.games`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from rules.letter_dice import LetterDiceGame, Phase, best_words
from rules.letter_dice_sets import JOKER
from tabletop.games import Demo, GameSpec, register
from tabletop.games.table import EntryError, TableGame, Window, whole_number
from tabletop.players.synthetic import Action


class LetterDiceTable(TableGame[LetterDiceGame]):
    """Each seat writes its words on its own page while the sand runs; nobody sees another's."""

    uses_sand_timer = True

    def windows(self, game: LetterDiceGame) -> list[Window]:
        if game.phase is not Phase.WRITING or game.round is None:
            return []
        deadline = game.deadlines()[0].ends if game.deadlines() else None
        return [Window(f"sheet-{game.round.number}-{seat}", "sheet", (seat,), deadline, ("text", "row"),
                       prompt=f"Round {game.round.number}: write up to {game.quota} words, one a row "
                              f"({game.entries_count(seat)} so far).", late="the sand")
                for seat in game.setup.players]

    def entry_event(self, game: LetterDiceGame, window: Window, seat: str,
                    entry: dict[str, Any]) -> dict[str, Any]:
        if window.purpose != "sheet":
            return super().entry_event(game, window, seat, entry)
        if "row" not in entry:
            raise EntryError("Pick the row you wrote the word on.")
        row = whole_number(entry, "row", "the row (a number printed on the sheet)")
        if not 1 <= row <= len(game.sheet):
            raise EntryError(f"There is no row {row if abs(row) < 10**6 else 'that far down'} on the sheet: "
                             f"its rows run from 1 to {len(game.sheet)}.")
        if entry.get("undo") is True:                 # taken back while the sand runs: the row is free again
            return {"type": "undo_word", "player": seat, "row": row}
        text = entry.get("text")
        crossed = text is None or str(text).strip() in ("", "-", "x", "X")
        return {"type": "word", "player": seat, "row": row, "word": None if crossed else str(text)}

    def closed_entry(self, game: LetterDiceGame, seat: str) -> str | None:
        """Why a word comes too late: the sand ran out (or the game is over)."""
        if game.over:
            return "The game is over: no more words."
        if not game.writing and game.scored:
            return (f"The sand ran out: round {len(game.scored)}'s words are closed, {seat}. "
                    "Words wait for the next roll.")
        if not game.writing:
            return "The dice are not rolled yet: words wait for the roll."
        return None

    def seat_view(self, game: LetterDiceGame, seat: str) -> dict[str, Any]:
        """The seat's own rows this round while the sand runs (sealed: nobody else's page has them)."""
        if not game.writing or game.round is None:
            return {}
        mine = sorted((e for e in game.round.entries if e.player == seat), key=lambda e: e.row)
        return {"my_words": [{"row": e.row, "word": e.word} for e in mine]}

    def speech(self, game: LetterDiceGame, event: dict[str, Any], message: str) -> list[str]:
        kind = event.get("type")
        if kind == "roll":
            faces = game.round.faces if game.round else ()
            spoken = ", ".join("Joker" if f == JOKER else f for f in faces)
            return [spoken + ".", "Turn the sand timer!"]        # the announcer says it in the game's language
        if kind == "end_round":
            return [message]
        return []                                  # words are sealed: nothing said aloud

    def status(self, game: LetterDiceGame) -> str:
        if game.over:
            return "The game is over."
        if game.phase is Phase.WRITING and game.round is not None:
            counts = ", ".join(f"{p} {game.entries_count(p)}" for p in game.setup.players)
            return f"Round {game.round.number}: the sand is running. Words so far: {counts}."
        return f"Round {len(game.scored) + 1} of {game.rounds_total}: roll the dice."

    def summary(self, game: LetterDiceGame) -> dict[str, Any]:
        """The dice, the free rows, and the reveal: every scored round (never a sealed word)."""
        rounds = game.rounds_json()
        reveal = []
        for n, rnd in enumerate(rounds, start=1):
            faces = game.faces_of(n)
            words: dict[str, list[str]] = {}
            for player, rows in rnd.items():
                for r in rows:
                    if r["word"]:
                        words.setdefault(r["word"], []).append(player)
            family = game.setup.option("family_filter", True) is not False
            best = {length: _best(game.lexicon, faces, length, game.setup.language, family)
                    for length in sorted({sq for sq, _ in game.sheet})}
            reveal.append({"round": n, "faces": list(faces), "rows": rnd,
                           "clashes": {w: ps for w, ps in words.items() if len(ps) > 1}, "best": best})
        return {"phase": game.phase.value, "dice": list(game.round.faces) if game.round and game.writing else None,
                "sheet": [list(r) for r in game.sheet], "free_rows": {p: game.free_rows(p) for p in game.setup.players},
                "counts": {p: game.entries_count(p) for p in game.setup.players}, "reveal": reveal,
                "round": len(game.scored) + (1 if game.writing else 0), "total_rounds": game.rounds_total}


_BEST: dict[tuple[int, tuple[str, ...], int, bool], list[str]] = {}
#: how many best words the reveal shows for each length
BEST_SHOWN = 5


def _best(lexicon: Any, faces: tuple[str, ...], length: int, language: str, family: bool = False) -> list[str]:
    """best_words (commonest first), remembered: the scoreboard asks again at every change;
    ``family``: without the words the family filter leaves out (:mod:`tabletop.family_filter`)."""
    key = (id(lexicon), tuple(faces), length, family)
    if key not in _BEST:
        if len(_BEST) > 512:
            _BEST.clear()
        from tabletop.lexicons import word_frequencies
        if family:
            from tabletop.family_filter import FamilyFilter
            words = best_words(lexicon, faces, length, limit=4 * BEST_SHOWN, rank=word_frequencies(language))
            _BEST[key] = FamilyFilter.builtin(language).keep(words)[:BEST_SHOWN]
        else:
            _BEST[key] = best_words(lexicon, faces, length, limit=BEST_SHOWN, rank=word_frequencies(language))
    return _BEST[key]


def demo_script(get_game: Callable[[], Any], deck: Any, seed: int = 0) -> Iterator[Action]:
    """Players at the table: they roll the dice, each writes words the roll allows (some the same
    as another's, now and then a non-word or a crossed-out row), the sand runs out."""
    rng = random.Random(seed)
    while True:
        game = get_game()
        if game.over:
            return
        yield Action("roll", note="the players roll the dice")
        game = get_game()
        faces = game.round.faces
        picks: dict[int, list[str]] = {}
        for k, player in enumerate(game.setup.players):
            free = game.free_rows(player)
            rng.shuffle(free)
            written = 0
            for row in free:
                if written >= game.quota:
                    break
                length = game.sheet[row - 1][0]
                if length not in picks:
                    picks[length] = _best(game.lexicon, faces, length, game.setup.language)
                choices = picks[length]
                yield Action("wait", 4.0 + rng.random() * 6)
                if not choices or rng.random() < 0.1:
                    word = None                                  # a crossed-out row
                else:
                    word = choices[min(len(choices) - 1, int(rng.random() ** 2 * len(choices)))]
                yield Action("event", event={"type": "word", "player": player, "row": row, "word": word},
                             source=f"seat:{player}")
                written += 1
        yield Action("wait", game.sand_seconds + 1, note="the sand runs out")


register(GameSpec(
    "letter-dice", LetterDiceTable(),
    "letter dice with a sand timer: everyone writes words from the roll, unique words score (English, Ukrainian)",
    demo=Demo(("Ann", "Ben", "Cai"), demo_script), board=None, pieces="dice", languages=("en", "uk")))
