"""Learning a player's hand, measured: each held-out writer's first 10 words are read and
confirmed (the table learns their letters, :mod:`vision.hands`); their later letters are then
read without and with what was learnt. Letters are the writers' own recorded strokes, drawn as
marker ink on the printed board and photographed (perspective, glare, blur, noise)."""

from __future__ import annotations

import numpy as np

from tabletop.benchmarks.stats import report_line, wilson

WORDS = 10  #: the words each writer writes before the later letters are read
LATER_MOST = 240  #: later letters read per writer at most (two writers recorded thousands)
LATER_LEAST = 10  #: writers with fewer later letters than this are left out
PER_SCENE = 60


def _scenes(reader, data, indices, rng, hand=None):
    """Yield (square images, true letters, letters read, letters read with ``hand``) for
    ``indices`` written in scenes (a scene whose board is not found reads nothing)."""
    from vision.cells import INK
    from vision.letters import ALPHABET
    from vision.synth.letterdata import StrokeQueue
    from vision.synth.scene import make_scene

    board = reader.board
    squares = list(board.squares())
    for k in range(0, len(indices), PER_SCENE):
        part = indices[k:k + PER_SCENE]
        chosen = [squares[i] for i in rng.choice(len(squares), len(part), replace=False)]
        letters = {sq: str(data.labels[i]) for sq, i in zip(chosen, part)}
        frame = make_scene(board, letters, seed=int(rng.integers(1 << 30)),
                           ink_renderer=StrokeQueue(data.strokes[i] for i in part)).frame
        try:
            located = reader.locate(frame)
        except Exception:  # noqa: BLE001 - a lost scene is counted as letters not read
            yield [], [letters[sq] for sq in chosen], [""] * len(chosen), [""] * len(chosen)
            continue
        plain = reader.read(frame, located)
        adapted = reader.read(frame, located, hand=hand) if hand is not None else plain
        images = [plain.images.get(sq) for sq in chosen]
        truth = [letters[sq] for sq in chosen]
        seen = [ALPHABET[int(plain.probs[sq].argmax())] if plain.states[sq] == INK else "" for sq in chosen]
        seen_hand = [ALPHABET[int(adapted.probs[sq].argmax())] if adapted.states[sq] == INK else "" for sq in chosen]
        yield images, truth, seen, seen_hand


def measure_hands(board, data, rng: np.random.Generator, quick: bool = False, log=print) -> dict:
    """Accuracy on each held-out writer's later letters before and after their first
    :data:`WORDS` confirmed words (3-5 letters each)."""
    from vision.hands import HandMemory
    from vision.reader import BoardReader

    reader = BoardReader(board)
    by_writer: dict[str, list[int]] = {}
    for i, w in enumerate(data.writer):
        by_writer.setdefault(str(w), []).append(i)
    before = after = total = taught = 0
    writers = 0
    for name in sorted(by_writer):
        idx = [by_writer[name][i] for i in rng.permutation(len(by_writer[name]))]
        first = int(rng.integers(3, 6, WORDS).sum())
        later = idx[first:first + LATER_MOST]
        if len(later) < LATER_LEAST:
            continue
        hand = HandMemory(reader.model)
        for images, truth, _seen, _ in _scenes(reader, data, idx[:first], rng):
            known = [(im, t) for im, t in zip(images, truth) if im is not None]
            if known:
                hand.learn(np.stack([im for im, _ in known]), "".join(t for _, t in known))
        taught += len(hand)
        for _images, truth, seen, seen_hand in _scenes(reader, data, later, rng, hand):
            total += len(truth)
            before += sum(s == t for s, t in zip(seen, truth))
            after += sum(s == t for s, t in zip(seen_hand, truth))
        writers += 1
        if quick and writers >= 2:
            break
    log(f"  hands: {writers} writers, {total} later letters")
    return {"writers": writers, "later_letters": total, "letters_learnt": taught,
            "before": before / max(1, total), "before_95ci": wilson(before, total),
            "after": after / max(1, total), "after_95ci": wilson(after, total)}


def print_lines(result: dict) -> None:
    """The benchmark's lines for :func:`measure_hands`' result."""
    report_line(f"a writer's later letters, before learning ({result['later_letters']})", result["before"],
         ci=result["before_95ci"])
    report_line(f"  after their first {WORDS} words ({result['writers']} writers)", result["after"], ">= 0.985",
         ci=result["after_95ci"])
