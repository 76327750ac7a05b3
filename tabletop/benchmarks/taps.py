"""Taps per game, measured: simulated games in which four held-out writers take turns writing
everyday words on the 15x15 board; each word is read by the camera pipeline with its writer's
hand memory (:mod:`vision.hands`) as the table has it then, and taken without asking or offered
to the writer's phone (:mod:`vision.acceptance`). A word asked about costs its writer one tap
(confirm, or pick the right reading), stated as :data:`SECONDS_PER_TAP`; either way the table
then learns the word's letters for that writer. Part of ``tabletop bench vision``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from rules.squares import Square
from tabletop.benchmarks.stats import report_line, wilson

PLAYERS = 4
WORDS_PER_GAME = 28  #: seven turns each (four scenes of seven words)
GAMES = 12
#: what one tap costs the writer: the phone buzzes, they look, read the offered word and tap (stated, not measured)
SECONDS_PER_TAP = 5.0


def measure_taps(board, data: Any, words: list[str], index: Any, n_games: int, rng: np.random.Generator,
                 log: Callable[..., None]) -> dict[str, Any]:
    """Words asked, taps and seconds per game, and wrong words taken without asking."""
    from vision.hands import HandMemory
    from vision.letters import softmax
    from vision.reader import BoardReader
    from vision.synth.letterdata import StrokeQueue
    from vision.synth.scene import make_scene

    reader = BoardReader(board, index)
    by_writer: dict[str, dict[str, list[int]]] = {}
    for i, (w, letter) in enumerate(zip(data.writer, data.labels)):
        by_writer.setdefault(str(w), {}).setdefault(str(letter), []).append(i)
    writers = sorted(w for w, own in by_writer.items() if sum(map(len, own.values())) >= 40)  # writers of a game's words
    asked = total = wrong_taken = not_read = 0
    asked_unlearnt = wrong_unlearnt = 0  # the same words read without the writers' hands
    unseen = 0  # words of a lost scene or with a square read empty: asked either way
    prompts = refused = 0  # reads refused (glare, blur) and their words, left out of the shares
    per_game: list[int] = []
    for g in range(n_games):
        players = [writers[int(i)] for i in rng.choice(len(writers), PLAYERS, replace=False)]
        hands = {p: HandMemory(reader.model) for p in players}
        game_asked = 0
        turn = 0
        while turn < WORDS_PER_GAME:
            letters: dict[Square, str] = {}
            samples: list[Any] = []
            placed: list[tuple[str, str, tuple[Square, ...]]] = []
            for row in range(1, board.rows - 1, 2):
                if turn + len(placed) >= WORDS_PER_GAME:
                    break
                player = players[(turn + len(placed)) % PLAYERS]
                word = words[int(rng.integers(len(words)))]
                col = int(rng.integers(0, board.cols - len(word) + 1))
                squares = tuple(Square(row, col + j) for j in range(len(word)))
                for sq, ch in zip(squares, word):
                    pool = by_writer[player].get(ch) or np.nonzero(data.labels == ch)[0].tolist()
                    letters[sq] = ch
                    samples.append(data.strokes[pool[int(rng.integers(len(pool)))]])
                placed.append((player, word, squares))
            frame = make_scene(board, letters, seed=int(rng.integers(1 << 30)), ink_renderer=StrokeQueue(samples)).frame
            turn += len(placed)
            try:
                read = reader.read(frame)
                if read.unreadable:  # the table says why and writes nothing: the players move the light
                    prompts += 1
                    refused += len(placed)
                    continue
            except Exception as error:  # noqa: BLE001 - every word of a lost scene is asked about
                log(f"  taps scene: {error}")
                asked += len(placed)
                game_asked += len(placed)
                total += len(placed)
                unseen += len(placed)
                continue
            for player, word, squares in placed:
                total += 1
                images = [read.images[sq] for sq in squares if sq in read.images]
                if len(images) < len(squares):
                    not_read += 1  # a square read empty: the word is not seen, the writer types it
                    unseen += 1
                    asked += 1
                    game_asked += 1
                    continue
                stack = np.stack(images).astype(np.float32) / 255
                feats, scores = reader.model.outputs(stack)
                plain = _decode(softmax(scores), reader)
                asked_unlearnt += int(not reader.acceptance.accepts(plain))
                wrong_unlearnt += int(reader.acceptance.accepts(plain) and plain.text != word)
                decoded = _decode(softmax(hands[player].adjust(feats, scores)), reader)
                sure = reader.acceptance.accepts(decoded)
                if sure:
                    wrong_taken += int(decoded.text != word)
                    learnt = decoded.text
                else:
                    asked += 1
                    game_asked += 1
                    learnt = word  # the writer tapped the right reading
                hands[player].learn(np.stack(images), learnt)
        per_game.append(game_asked)
        log(f"  taps: game {g + 1} of {n_games}: {game_asked} words asked")
    taken = total - asked
    return {"games": n_games, "words": total, "asked": asked, "asked_share": asked / max(1, total),
            "asked_95ci": wilson(asked, total), "not_read": not_read,
            "taps_per_game": float(np.mean(per_game)) if per_game else 0.0,
            "seconds_per_game": float(np.mean(per_game)) * SECONDS_PER_TAP if per_game else 0.0,
            "taken": taken, "taken_wrong": wrong_taken, "taken_right": (taken - wrong_taken) / max(1, taken),
            "asked_share_unlearnt": (asked_unlearnt + unseen) / max(1, total), "taken_wrong_unlearnt": wrong_unlearnt,
            "reads_refused": prompts, "words_refused": refused, "prompts_per_game": prompts / max(1, n_games)}


def _decode(probs: np.ndarray, reader: Any) -> Any:
    """One word's letter probabilities decoded as the reader does (its temperature, its dictionary)."""
    from vision.words import decode

    logp = np.log(np.clip(probs, 1e-6, 1.0)) / reader.acceptance.temperature
    return decode(logp, reader.index, alphabet=reader.alphabet)


def print_lines(result: dict[str, Any]) -> None:
    """The benchmark's lines for :func:`measure_taps`' result."""
    report_line(f"taps per game ({result['games']} games of {WORDS_PER_GAME} words, {PLAYERS} writers)",
                result["taps_per_game"], f"<= {0.1 * WORDS_PER_GAME:g}", fmt="{:.1f}")
    report_line(f"  seconds of the writers' per game, at {SECONDS_PER_TAP:g} s a tap", result["seconds_per_game"],
                fmt="{:.0f}")
    report_line(f"  words asked about ({result['words']})", result["asked_share"], "<= 0.10", ci=result["asked_95ci"])
    report_line(f"  words taken without asking, right ({result['taken']})", result["taken_right"], ">= 0.995")
    report_line("  of the asked, words with a square read empty", result["not_read"], fmt="{}")
    report_line("  reads refused a game (glare, blur: 'move the light')", result["prompts_per_game"], fmt="{:.1f}")
    report_line("  words in them, left out above", result["words_refused"], fmt="{}")
    report_line("  words asked about had the table not learnt their hands", result["asked_share_unlearnt"])
    report_line("  wrong words taken then / with the hands",
                f"{result['taken_wrong_unlearnt']} / {result['taken_wrong']}")
