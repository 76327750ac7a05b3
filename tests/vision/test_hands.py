"""Learning a player's hand (vision.hands): the adjustment, the memory's bounds and its JSON."""

import numpy as np
import pytest

from vision.hands import KEEP_PER_LETTER, HandMemory
from vision.letters import ALPHABET, default_model, normalise, softmax
from vision.synth.handwriting import render_letter

pytestmark = pytest.mark.vision


class PixelsAsFeatures:
    """A stand-in network whose features are the image's pixels (so likeness is plain to see)."""

    def outputs(self, images):
        images = np.asarray(images, np.float32)
        return images.reshape(len(images), -1), np.zeros((len(images), 26), np.float32)


def _bar(across: bool) -> np.ndarray:
    image = np.zeros((28, 28), np.float32)
    if across:
        image[12:16, 4:24] = 1
    else:
        image[4:24, 12:16] = 1
    return image


def test_a_remembered_shape_raises_its_letter_and_an_unlike_one_lowers_it():
    hand = HandMemory(PixelsAsFeatures(), weight=10.0, base=0.5)  # type: ignore[arg-type]
    hand.learn(np.stack([_bar(across=True)]), "H")
    images = np.stack([_bar(across=True), _bar(across=False)])
    features, scores = PixelsAsFeatures().outputs(images)
    moved = hand.adjust(features, scores)
    h = ALPHABET.index("H")
    assert moved[0, h] == pytest.approx(5.0)          # the same shape: likeness 1, above the base
    assert moved[1, h] < 0                            # a crossing bar: likeness 0, below it
    others = np.delete(moved, h, axis=1)
    assert not others.any()                           # letters the player never showed stay as read


def test_an_empty_memory_changes_nothing_and_a_reset_forgets():
    hand = HandMemory(default_model())
    scores = np.random.default_rng(1).normal(size=(3, 26)).astype(np.float32)
    assert hand.adjust(np.ones((3, 8), np.float32), scores) is scores
    hand.learn(np.stack([normalise(render_letter("Q", 40, np.random.default_rng(2)))]), "Q")
    assert len(hand) == 1
    hand.forget()
    assert len(hand) == 0 and hand.letters() == ""


def test_the_players_own_letter_is_read_surer_with_the_real_network():
    rng = np.random.default_rng(7)
    model = default_model()
    for letter in "RBGQ":
        image = normalise(render_letter(letter, 40, rng, amount=1.6))
        features, scores = model.outputs(image[None])
        hand = HandMemory(model)
        hand.learn(image[None], letter)
        before = softmax(scores)[0, ALPHABET.index(letter)]
        after = softmax(hand.adjust(features, scores))[0, ALPHABET.index(letter)]
        assert after > before or before > 0.999


def test_only_the_latest_letters_are_kept_and_bad_ones_are_skipped():
    hand = HandMemory(PixelsAsFeatures())  # type: ignore[arg-type]
    hand.learn(np.stack([_bar(True)] * (KEEP_PER_LETTER + 5) + [_bar(False)]), "E" * (KEEP_PER_LETTER + 5) + "?")
    assert len(hand) == KEEP_PER_LETTER and hand.letters() == "E"
    with pytest.raises(ValueError, match="2 images for 1 letters"):
        hand.learn(np.stack([_bar(True)] * 2), "E")


def test_the_memory_survives_json_and_malformed_parts_are_skipped():
    hand = HandMemory(PixelsAsFeatures())  # type: ignore[arg-type]
    hand.learn(np.stack([_bar(True), _bar(False)]), "HI")
    data = hand.to_json()
    again = HandMemory(PixelsAsFeatures())  # type: ignore[arg-type]
    again.learn_json({"letters": data["letters"] + "X", "images": data["images"] + ["not base64!"]})
    assert again.to_json() == data
    again.learn_json({"letters": 5, "images": "nonsense"})
    assert again.to_json() == data
