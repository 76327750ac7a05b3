"""Time to validate and score one move on the SP board and a Questique move (budget: 1 ms on
one core), and letter dice's round scoring (6 players, <= 10 ms) and best-words lists (<= 200 ms).

Plays seeded random games of eXtraDICTION SP (Speed) with the built-in English dictionary on
the built-in 19x19 board, and times every ``Game.apply`` of a write: accepted moves (placement
analysis, dictionary look-ups, zone scoring, commit) and rejected ones (analysis up to the
refusal, then the roll-back) separately.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from rules import errors
from rules.game import GameSetup
from rules.extradiction_sp import ExtradictionSPGame
from rules.games import new_game
from tabletop.benchmarks.questique_moves import measure_questique
from tabletop.benchmarks.stats import ms_since, percentile, us_since
from tabletop.lexicons import builtin_lexicon
from tabletop.resources import load_board

BUDGET_US = 1000.0


def measure(games: int, attempts: int, seed: int = 1) -> dict:
    board = load_board("extradiction-sp")
    lexicon = builtin_lexicon("en")
    words = sorted(w for w in lexicon.words() if 2 <= len(w) <= 9 and w.isalpha())
    rng = random.Random(seed)
    accepted: list[float] = []
    rejected: list[float] = []
    for g in range(games):
        game = new_game(GameSetup("extradiction-sp", ("Ann", "Ben"), variant="speed", seed=g), board, lexicon)
        assert isinstance(game, ExtradictionSPGame)
        for _ in range(attempts):
            if game.over:
                break
            if game.grid and rng.random() < 0.7:
                # aim at the written area, so moves cross and touch as in real play
                anchor = rng.choice(list(game.grid))
                row, col = anchor.row + rng.randint(-3, 1), anchor.col + rng.randint(-3, 1)
            else:
                row, col = (board.center if not game.grid else (rng.randrange(19), rng.randrange(19)))
            event = {"type": "write", "player": game.next_player, "text": rng.choice(words),
                     "row": row, "col": col, "dir": rng.choice(["across", "down"])}
            start = time.perf_counter_ns()
            try:
                game.apply(event)
                accepted.append(us_since(start))
            except errors.Rejection:
                rejected.append(us_since(start))
    return {"accepted": accepted, "rejected": rejected, "dictionary_words": len(lexicon)}


def _summary(samples: list[float]) -> dict:
    return {
        "moves": len(samples),
        "median_us": round(statistics.median(samples), 1),
        "p95_us": round(percentile(samples, 0.95), 1),
        "p99_us": round(percentile(samples, 0.99), 1),
        "max_us": round(max(samples), 1),
    }


def run(args) -> int:
    games, attempts = (5, 200) if getattr(args, "quick", False) else (40, 400)
    print(f"Timing moves on the eXtraDICTION SP board: {games} seeded games, up to {attempts} tries each ...",
          flush=True)
    data = measure(games, attempts)
    result = {
        "board": "extradiction-sp (19x19)",
        "dictionary_words": data["dictionary_words"],
        "accepted_move": _summary(data["accepted"]),
        "rejected_move": _summary(data["rejected"]),
        "budget_us": BUDGET_US,
    }
    if not getattr(args, "json", False):
        print("Timing Questique moves: four players with the table's tiles, elimination play ...", flush=True)
    questique = measure_questique(2 if getattr(args, "quick", False) else 12)
    result["questique"] = {"accepted_move": _summary(questique["accepted"]),
                           "rejected_move": _summary(questique["rejected"])}
    result["within_budget"] = all(r["p99_us"] <= BUDGET_US for r in (
        result["accepted_move"], result["rejected_move"], *result["questique"].values()))
    if not getattr(args, "json", False):
        print("Timing letter dice: scoring rounds of six players, best-words lists of rolls ...", flush=True)
    result["letter_dice"] = measure_letter_dice(5 if getattr(args, "quick", False) else 40)
    if getattr(args, "json", False):
        print(json.dumps(result))
        return 0
    print(f"dictionary: {data['dictionary_words']} words")
    for label in ("accepted_move", "rejected_move"):
        s = result[label]
        print(f"{label.replace('_', ' '):>14}: {s['moves']:6d} moves  median {s['median_us']:7.1f} us  "
              f"p95 {s['p95_us']:7.1f} us  p99 {s['p99_us']:7.1f} us  max {s['max_us']:7.1f} us")
    for label, s in result["questique"].items():
        print(f"{'Questique ' + label.split('_')[0]:>18}: {s['moves']:6d} moves  median {s['median_us']:7.1f} us  "
              f"p95 {s['p95_us']:7.1f} us  p99 {s['p99_us']:7.1f} us  max {s['max_us']:7.1f} us")
    verdict = "within" if result["within_budget"] else "OVER"
    print(f"budget: {BUDGET_US:.0f} us per move (p99) -> {verdict} budget")
    for language, d in result["letter_dice"].items():
        s, b = d["score_round_6_players_ms"], d["best_words_ms"]
        print(f"letter dice ({language}, {d['rolls']} rolls): scoring a round of 6 players median {s['median']:.2f} ms, "
              f"p95 {s['p95']:.2f} ms (target <= 10 ms); best words for a roll (rows of 3-8 letters) median "
              f"{b['median']:.1f} ms, p95 {b['p95']:.1f} ms (target <= 200 ms), the game's first roll "
              f"{d['best_words_first_roll_ms']:.0f} ms (files the dictionary by letters once)")
    return 0


def measure_letter_dice(rolls: int, seed: int = 1) -> dict:
    """Letter dice, both languages: ms to score a round of six players (three words each, some
    shared, some not words) and ms for a roll's best-words lists (five per row length, 3-8
    letters, commonest first)."""
    from rules.game import GameSetup as Setup
    from rules.letter_dice import best_words
    from rules.letter_dice_sets import DEFAULT_SHEET, DICE
    from tabletop.lexicons import word_frequencies

    players = ("Ann", "Ben", "Cai", "Dee", "Eve", "Fay")
    rng = random.Random(seed)
    out: dict = {}
    for language in ("en", "uk"):
        lexicon = builtin_lexicon(language)
        rank = word_frequencies(language)
        best_ms: list[float] = []
        score_ms: list[float] = []
        for n in range(rolls):
            faces = [rng.choice(die) for die in DICE[language]]
            start = time.perf_counter()
            lists = {length: best_words(lexicon, faces, length, rank=rank) for length in sorted({sq for sq, _ in DEFAULT_SHEET})}
            best_ms.append(ms_since(start))
            game = new_game(Setup("letter-dice", players, language=language, seed=n), None, lexicon)
            game.apply({"type": "roll", "faces": faces})
            for k, player in enumerate(players):
                rows = rng.sample(range(1, len(DEFAULT_SHEET) + 1), 3)
                for row in rows:
                    words = lists[DEFAULT_SHEET[row - 1][0]]
                    word = rng.choice(words) if words and rng.random() < 0.9 else "Q" * DEFAULT_SHEET[row - 1][0]
                    game.apply({"type": "word", "player": player, "row": row, "word": word})
            start = time.perf_counter()
            game.apply({"type": "end_round"})
            score_ms.append(ms_since(start))
        out[language] = {"rolls": rolls, "score_round_6_players_ms": _ms(score_ms),
                         "best_words_first_roll_ms": round(best_ms[0], 1),   # files the dictionary by signature
                         "best_words_ms": _ms(best_ms[1:] or best_ms)}
    return out


def _ms(samples: list[float]) -> dict:
    return {"median": round(statistics.median(samples), 2), "p95": round(percentile(samples, 0.95), 2),
            "max": round(max(samples), 2)}
