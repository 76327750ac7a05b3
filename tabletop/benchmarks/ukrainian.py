"""Ukrainian handwriting: the held-out CoMNIST writers' capitals (and the four letters made from
real ones, :mod:`vision.synth.cyrillic`) written on the printed boards, photographed by the scene
simulator and read by the board reader with the Ukrainian letter model; per letter, with CoMNIST's
29 letters and the 4 constructed ones apart. Part of ``tabletop bench vision``."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from tabletop.benchmarks.stats import report_line, wilson

#: scenes of held-out letters (60 a scene: about 3,600 letters, each held-out letter about once)
SCENES = 60
PER_SCENE = 60


def measure_letters(boards: list, quick: bool, log: Callable[[str], None]) -> dict[str, Any]:
    """The held-out writers' Ukrainian letters read off photographed boards: the share right,
    overall, per letter, for CoMNIST's letters and for the constructed ones; ``{"not_measured":
    why}`` without the data."""
    from vision.letters import UK_ALPHABET
    from vision.reader import BoardReader
    from vision.synth.cyrillic import CONSTRUCTED, COMNIST_PATH, ImageQueue, ukrainian_letters
    from vision.synth.scene import make_scene

    if not COMNIST_PATH.is_file():
        return {"not_measured": f"no CoMNIST data in {COMNIST_PATH.parent}"}
    held = ukrainian_letters(held_out=True)
    readers = {b.name: BoardReader(b, language="uk") for b in boards}
    rng = np.random.default_rng([2026, 33])
    order = rng.permutation(len(held))
    per_letter = {ch: [0, 0] for ch in UK_ALPHABET}
    n_scenes = 2 if quick else SCENES
    missed = 0
    read_empty = 0  # written squares the reader judged empty (or covered): wrong, whatever the letter
    for k in range(n_scenes):
        board = boards[k % len(boards)]
        squares = list(board.squares())
        part = order[(k * PER_SCENE) % len(order):][:PER_SCENE]
        chosen = [squares[i] for i in rng.choice(len(squares), min(len(part), len(squares)), replace=False)]
        part = part[:len(chosen)]
        letters = {sq: str(held.labels[i]) for sq, i in zip(chosen, part)}
        scene = make_scene(board, letters, seed=int(rng.integers(1 << 30)), ink_renderer=ImageQueue(held.images[part]))
        try:
            read = readers[board.name].read(scene.frame)
        except Exception as error:  # noqa: BLE001 - counted, reported
            missed += 1
            log(f"  Ukrainian scene {k}: {error}")
            continue
        for sq, letter in letters.items():
            ok = read.states[sq] == 1 and UK_ALPHABET[int(read.probs[sq].argmax())] == letter
            read_empty += int(read.states[sq] != 1)
            per_letter[letter][0] += int(ok)
            per_letter[letter][1] += 1
    out: dict[str, Any] = {"language": "uk", "scenes_not_read": missed, "written_read_empty": read_empty}
    def share(group) -> tuple[float, tuple[float, float], int]:
        right, total = sum(per_letter[c][0] for c in group), sum(per_letter[c][1] for c in group)
        return right / max(1, total), wilson(right, total), total

    for key, group in (("", UK_ALPHABET), ("comnist_", [c for c in UK_ALPHABET if c not in CONSTRUCTED]),
                       ("constructed_", CONSTRUCTED)):
        out[f"{key}letter_accuracy"], out[f"{key}letter_accuracy_95ci"], out[f"{key}letters_read"] = share(group)
    judged = out["letters_read"] - read_empty
    out["letter_accuracy_of_squares_read_written"] = out["letter_accuracy"] * out["letters_read"] / max(1, judged)
    out["by_letter"] = {c: round(v[0] / v[1], 3) for c, v in per_letter.items() if v[1]}
    out["real_handwriting"] = (f"CoMNIST capitals of {len(set(held.writer[held.made == '']))} held-out sessions "
                               f"(vision/synth/comnist-split.txt), never trained on; Ґ Є from their Г Э, "
                               f"І Ї from held-out UNIPEN/UJI writers' I")
    return out


def print_lines(uk: dict[str, Any]) -> None:
    """The Ukrainian letter lines of the vision report."""
    if "not_measured" in uk:
        print(f"  letters (uk): not measured: {uk['not_measured']}")
        return
    print(f"  Ukrainian handwriting: {uk['real_handwriting']}")
    report_line(f"letters (uk) per square, all 33 ({uk['letters_read']})", uk["letter_accuracy"], ">= 0.95",
                ci=uk["letter_accuracy_95ci"])
    report_line(f"  CoMNIST's 29 letters as drawn ({uk['comnist_letters_read']})", uk["comnist_letter_accuracy"],
                ">= 0.95", ci=uk["comnist_letter_accuracy_95ci"])
    report_line(f"  Ґ Є І Ї made from real letters ({uk['constructed_letters_read']})",
                uk["constructed_letter_accuracy"], ci=uk["constructed_letter_accuracy_95ci"])
    report_line("  written squares read empty or covered", uk["written_read_empty"], fmt="{}")
    report_line("  letters right of the squares read as written", uk["letter_accuracy_of_squares_read_written"])
    print("    by letter: " + ", ".join(f"{k} {v:.2f}" for k, v in uk["by_letter"].items()))
