"""Learning a player's hand, measured: each held-out writer's first 10 words are read and
confirmed (the table learns their letters, :mod:`vision.hands`); their later letters are then
read without what was learnt, with the likeness alone (the hand memory as it was before the
player's own last layer: :meth:`vision.hands.HandMemory.likeness_alone`) and with the whole memory.
Latin letters are the held-out writers' own recorded strokes, drawn as marker ink on the
printed board; Ukrainian ones the held-out CoMNIST writers' images re-drawn at a marker's width
(:func:`measure_hands_uk`). Each board is photographed (perspective, glare, blur, noise)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from tabletop.benchmarks.stats import report_line, wilson

WORDS = 10  #: the words each writer writes before the later letters are read
LATER_MOST = 240  #: later letters read per writer at most (two writers recorded thousands)
LATER_LEAST = 10  #: writers with fewer later letters than this are left out
PER_SCENE = 60
#: the ways the later letters are read: without the hand, with the likeness alone, with the whole memory
WAYS = ("before", "likeness_only", "after")


def _ink(data) -> Callable[[list[int]], Any]:
    """How the letters ``part`` of ``data`` are drawn in a scene: recorded strokes as marker ink,
    or letter images (:class:`vision.synth.cyrillic.LetterImages`) re-drawn at a marker's width."""
    from vision.synth.cyrillic import ImageQueue, LetterImages
    from vision.synth.handwriting import TABLE_HAND
    from vision.synth.letterdata import StrokeQueue

    if isinstance(data, LetterImages):
        return lambda part: ImageQueue(data.images[part], TABLE_HAND)
    return lambda part: StrokeQueue(data.strokes[i] for i in part)


def _scenes(reader, data, indices, rng, memories=()):
    """Yield (square images, true letters, letters read, letters read with each of ``memories``)
    for ``indices`` written in scenes (a scene whose board is not found reads nothing)."""
    from vision.cells import INK
    from vision.synth.scene import make_scene

    board, alphabet, ink = reader.board, reader.alphabet, _ink(data)
    squares = list(board.squares())
    for k in range(0, len(indices), PER_SCENE):
        part = indices[k:k + PER_SCENE]
        chosen = [squares[i] for i in rng.choice(len(squares), len(part), replace=False)]
        letters = {sq: str(data.labels[i]) for sq, i in zip(chosen, part)}
        frame = make_scene(board, letters, seed=int(rng.integers(1 << 30)), ink_renderer=ink(part)).frame
        truth = [letters[sq] for sq in chosen]
        try:
            located = reader.locate(frame)
        except Exception:  # noqa: BLE001 - a lost scene is counted as letters not read
            yield [], truth, [""] * len(chosen), [[""] * len(chosen) for _ in memories]
            continue
        reads = [reader.read(frame, located)] + [reader.read(frame, located, hand=m) for m in memories]
        seen = [[alphabet[int(r.probs[sq].argmax())] if r.states[sq] == INK else "" for sq in chosen] for r in reads]
        yield [reads[0].images.get(sq) for sq in chosen], truth, seen[0], seen[1:]


def measure_hands(board, data, rng: np.random.Generator, quick: bool = False, log=print, model=None) -> dict:
    """Accuracy on each held-out writer's later letters before and after their first
    :data:`WORDS` confirmed words (3-5 letters each), read by ``model`` (the reader's language's
    shipped network when None): without the hand, with the likeness alone and with the whole
    memory (:data:`WAYS`)."""
    from vision.hands import HandMemory
    from vision.reader import BoardReader

    reader = BoardReader(board, model=model)
    by_writer: dict[str, list[int]] = {}
    for i, w in enumerate(data.writer):
        by_writer.setdefault(str(w), []).append(i)
    right = dict.fromkeys(WAYS, 0)
    total = taught = writers = 0
    for name in sorted(by_writer):
        idx = [by_writer[name][i] for i in rng.permutation(len(by_writer[name]))]
        first = int(rng.integers(3, 6, WORDS).sum())
        later = idx[first:first + LATER_MOST]
        if len(later) < LATER_LEAST:
            continue
        memories = (HandMemory(reader.model), HandMemory.likeness_alone(reader.model))
        for images, truth, _seen, _ in _scenes(reader, data, idx[:first], rng):
            known = [(im, t) for im, t in zip(images, truth) if im is not None]
            if known:
                for memory in memories:
                    memory.learn(np.stack([im for im, _ in known]), "".join(t for _, t in known))
        taught += len(memories[0])
        for _images, truth, seen, (seen_hand, seen_likeness) in _scenes(reader, data, later, rng, memories):
            total += len(truth)
            for way, read in zip(WAYS, (seen, seen_likeness, seen_hand)):
                right[way] += sum(s == t for s, t in zip(read, truth))
        writers += 1
        if quick and writers >= 2:
            break
    log(f"  hands: {writers} writers, {total} later letters")
    out: dict[str, Any] = {"writers": writers, "later_letters": total, "letters_learnt": taught}
    for way in WAYS:
        out[way], out[f"{way}_95ci"] = right[way] / max(1, total), wilson(right[way], total)
    return out


def measure_hands_uk(board, quick: bool = False, log=print, model=None) -> dict:
    """:func:`measure_hands` for the held-out CoMNIST writers' Ukrainian letters (their own Є and Ґ,
    made from their Э and Г, included; І and Ї are left out: they are other writers' Latin I),
    re-drawn at a marker's width; ``{"not_measured": why}`` without the data."""
    from vision.letters import model_for
    from vision.synth.cyrillic import COMNIST_PATH, ukrainian_letters

    if not COMNIST_PATH.is_file():
        return {"not_measured": f"no CoMNIST data in {COMNIST_PATH.parent}"}
    held = ukrainian_letters(held_out=True)
    own = held.subset(~np.isin(held.made, ["І", "Ї"]))
    return measure_hands(board, own, np.random.default_rng([2026, 33, 17]), quick, log, model or model_for("uk"))


def print_lines(result: dict, language: str = "en") -> None:
    """The benchmark's lines for :func:`measure_hands`' result."""
    if "not_measured" in result:
        print(f"  a writer's later letters ({language}): not measured: {result['not_measured']}")
        return
    report_line(f"a writer's later letters ({language}), before learning ({result['later_letters']})",
                result["before"], ci=result["before_95ci"])
    report_line(f"  after {WORDS} words, likeness alone ({result['writers']} writers)", result["likeness_only"],
                ci=result["likeness_only_95ci"])
    report_line(f"  after their first {WORDS} words, own last layer too", result["after"], ">= 0.985",
                ci=result["after_95ci"])
