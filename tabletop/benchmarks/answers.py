"""Answers checked against the clue card: where the table knows what should be written (SP
Classic, levels 1-2), the written word is *verified* against it (:func:`vision.words.verify`)
instead of read freely. Measured on held-out writers' words: how many written answers are
verified right without asking, how many go to the host, and how often a different word (one
letter away from what was written where the dictionary has one: the hardest case) is wrongly
taken for the card's answer."""

from __future__ import annotations

import numpy as np

from tabletop.benchmarks.scenes import word_scenes
from tabletop.benchmarks.stats import report_line, wilson


def one_letter_away(word: str, index) -> list[str]:
    """The dictionary's words of ``word``'s length that differ from it in exactly one letter
    (what a player might write instead of the card's answer: the hardest wrong answer to refuse).

    >>> from vision.words import LexiconIndex
    >>> one_letter_away("CAT", LexiconIndex(["cat", "cot", "car", "dog"]))
    ['CAR', 'COT']
    """
    return [w for w in index.words(len(word)) if sum(a != b for a, b in zip(w, word)) == 1]


def measure_answers(board, data, words: list[str], n_scenes: int, rng: np.random.Generator, index, log=print) -> dict:
    """Each written word verified against itself (the player wrote the answer) and against another
    word of its length, one letter away where there is one (the player wrote something else)."""
    by_length: dict[int, list[str]] = {}
    for w in words:
        by_length.setdefault(len(w), []).append(w)
    counts = {"answers": 0, "verified": 0, "asked": 0, "others": 0, "false": 0}

    def check(reader, read, word, squares):
        right = reader.verify(read, squares, word)
        counts["answers"] += 1
        counts["verified"] += int(right.matches and not right.needs_confirmation)
        counts["asked"] += int(right.needs_confirmation)
        pool = one_letter_away(word, index) or [w for w in by_length.get(len(word), []) if w != word]
        if pool:
            other = reader.verify(read, squares, pool[int(rng.integers(len(pool)))])
            counts["others"] += 1
            counts["false"] += int(other.matches and not other.needs_confirmation)

    word_scenes(board, data, words, n_scenes, rng, index, log, each=check)
    n = counts["answers"]
    return {**counts, "verified_right": counts["verified"] / max(1, n), "verified_right_95ci": wilson(counts["verified"], n)}


def print_lines(result: dict) -> None:
    """The benchmark's lines for :func:`measure_answers`' result."""
    report_line(f"answers verified right without asking ({result['answers']})", result["verified_right"], ">= 0.999",
         ci=result["verified_right_95ci"])
    report_line("  answers sent to the host", result["asked"], fmt="{}")
    report_line(f"  other words taken for the answer (of {result['others']})", result["false"], "0", fmt="{}")
