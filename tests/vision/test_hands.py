"""Learning a player's hand (vision.hands): the adjustment, the memory's bounds and its JSON."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    hand = HandMemory(PixelsAsFeatures(), weight=10.0, base=0.5, change_l2=None)  # type: ignore[arg-type]
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
    assert hand.adjust(np.ones((3, 8), np.float32), scores) is scores and hand.correction() is None
    hand.learn(np.stack([normalise(render_letter("Q", 40, np.random.default_rng(2)))]), "Q")
    assert len(hand) == 1 and hand.correction() is not None
    hand.forget()
    assert len(hand) == 0 and hand.letters() == "" and hand.correction() is None
    assert hand.adjust(np.ones((3, 8), np.float32), scores) is scores


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


class TemplateNet:
    """A stand-in network: each letter is a fixed random pattern of ink, its features are the
    image's pixels and its scores how like each letter's pattern the image is (cosine, times 10)."""

    def __init__(self, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.patterns = (rng.random((26, 28 * 28)) < 0.2).astype(np.float32)

    def image(self, letter: int, rng: np.random.Generator, style: np.ndarray | None = None) -> np.ndarray:
        """An image of ``letter``'s pattern (with ``style``, most of it and a writer's own strokes
        over it), a few pixels flipped."""
        ink = self.patterns[letter] if style is None else np.maximum(self.patterns[letter] * (rng.random(784) < 0.6), style)
        flip = rng.random(784) < 0.03
        return np.where(flip, 1 - ink, ink).reshape(28, 28).astype(np.float32)

    def outputs(self, images):
        f = np.asarray(images, np.float32).reshape(len(images), -1)
        unit = f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)
        pattern = self.patterns / np.linalg.norm(self.patterns, axis=1, keepdims=True)
        return f, (10 * unit @ pattern.T).astype(np.float32)


@settings(max_examples=15, deadline=None)
@given(odd=st.integers(0, 25), like=st.integers(0, 25), shown=st.integers(3, 6), seed=st.integers(0, 10_000))
def test_a_writers_consistently_odd_letter_is_learnt_and_their_other_letters_stay(odd, like, shown, seed):
    """The writer's ``odd`` letter is half another letter's pattern (``like``) and half strokes
    of their own, so the network reads it as ``like``; once the table has seen it ``shown``
    times among their other letters, their next ones read as ``odd``, and the letters they
    write as everyone does still read as they are."""
    if odd == like:
        like = (like + 1) % 26
    net, rng = TemplateNet(seed % 7), np.random.default_rng([seed, 1])
    style = (rng.random(784) < 0.12).astype(np.float32)
    others = [k for k in rng.permutation(26) if k not in (odd, like)][:8]
    letters = [odd] * shown + [like] + others
    images = np.stack([net.image(like, rng, style) if k == odd else net.image(k, rng) for k in letters])
    fresh = np.stack([net.image(like, rng, style) for _ in range(6)])
    plain = net.outputs(fresh)[1].argmax(1)
    assert (plain == like).mean() > 0.5            # the network alone mostly misreads the odd letter
    hand = HandMemory(net)  # type: ignore[arg-type]
    hand.learn(images, "".join(ALPHABET[k] for k in letters))
    assert (hand.adjust(*net.outputs(fresh)).argmax(1) == odd).all()
    usual = [like] + others + [k for k in range(26) if k not in letters][:4]
    plain_usual = np.stack([net.image(k, rng) for k in usual])
    assert (hand.adjust(*net.outputs(plain_usual)).argmax(1) == usual).all()


def test_the_memory_and_its_fitted_layer_survive_the_journals_json():
    """A resumed game learns the journalled lessons again: the same letters, the same reads."""
    net, rng = TemplateNet(), np.random.default_rng(3)
    hand = HandMemory(net)  # type: ignore[arg-type]
    for word in ("CAT", "MAP", "TEA"):
        hand.learn(np.stack([net.image(ALPHABET.index(ch), rng) for ch in word]), word)
    again = HandMemory(net)  # type: ignore[arg-type]
    again.learn_json(json.loads(json.dumps(hand.to_json())))
    new = np.stack([net.image(k, rng) for k in range(26)])
    assert np.array_equal(again.adjust(*net.outputs(new)), hand.adjust(*net.outputs(new)))
    first, second = hand.correction(), again.correction()
    assert first is not None and second is not None
    assert np.array_equal(first.delta, second.delta) and np.array_equal(first.bias, second.bias)


def test_likeness_alone_is_the_memory_before_the_players_own_layer():
    net, rng = TemplateNet(), np.random.default_rng(4)
    hand = HandMemory.likeness_alone(net)  # type: ignore[arg-type]
    hand.learn(np.stack([net.image(2, rng)]), "C")
    assert hand.correction() is None and (hand.weight, hand.base) == (16.0, 0.6)
