import pathlib

import numpy as np
import pytest

from tests.helpers import HUMOR_SANS
from vision.synth.handwriting import render_letter
from vision.letters import ALPHABET, LetterModel, default_model, normalise

pytestmark = pytest.mark.vision


def test_shipped_model_reads_synthetic_handwriting():
    rng = np.random.default_rng(99)
    inks = [render_letter(ch, int(rng.integers(24, 48)), rng) for ch in ALPHABET for _ in range(8)]
    truth = np.repeat(np.arange(26), 8)
    probs = default_model().predict_proba(inks)
    assert probs.shape == (208, 26)
    assert np.allclose(probs.sum(1), 1, atol=1e-4)
    assert (probs.argmax(1) == truth).mean() > 0.9


def _random_net(rng, width=4):
    c1, c2, c3 = width, 2 * width, 4 * width
    shapes = {"conv0_w": (3, 3, 1, c1), "conv0_b": (c1,), "conv1_w": (3, 3, c1, c2), "conv1_b": (c2,),
              "conv2_w": (3, 3, c2, c3), "conv2_b": (c3,), "fc0_w": (c3 * 16, 8), "fc0_b": (8,), "fc1_w": (8, 26),
              "fc1_b": (26,)}
    return LetterModel({k: rng.normal(0, 0.1, s).astype(np.float32) for k, s in shapes.items()})


def test_an_ensemble_averages_its_members_scores_and_survives_saving(tmp_path):
    rng = np.random.default_rng(5)
    a, b = _random_net(rng), _random_net(rng)
    images = rng.random((6, 28, 28)).astype(np.float32)
    pair = LetterModel.ensemble([a, b], temperature=1.5)
    assert pair.members == 2 and pair.temperature == 1.5
    assert np.allclose(pair.logits(images), (a.logits(images) + b.logits(images)) / 2, atol=1e-5)
    pair.save(tmp_path / "pair.npz")
    again = LetterModel.load(tmp_path / "pair.npz")
    assert again.members == 2
    assert np.allclose(again.predict_proba_images(images), pair.predict_proba_images(images), atol=2e-3)  # float16 weights


def test_weights_from_the_cache_read_as_the_file_does_and_follow_its_changes(tmp_path):
    rng = np.random.default_rng(8)
    images = rng.random((5, 28, 28)).astype(np.float32)
    path, cache = tmp_path / "model.npz", tmp_path / "cache"
    _random_net(rng).save(path)
    plain = LetterModel.load(path)
    for _ in range(2):                                    # built into the cache, then mapped from it
        cached = LetterModel.load(path, cache=cache)
        assert set(cached.params) == set(plain.params)
        assert np.array_equal(cached.predict_proba_images(images), plain.predict_proba_images(images))
    assert not cached.params["fc1_w"].flags.writeable
    _random_net(rng).save(path)                           # a new model: a new key, not the old weights
    assert np.array_equal(LetterModel.load(path, cache=cache).logits(images), LetterModel.load(path).logits(images))
    assert len(list(cache.iterdir())) == 2


def test_normalise_empty_and_tiny():
    assert normalise(np.zeros((30, 30), np.float32)).sum() == 0
    dot = np.zeros((30, 30), np.float32)
    dot[10, 10] = 1
    assert normalise(dot).shape == (28, 28)
    assert default_model().predict_proba([]).shape == (0, 26)


def _training_script():
    import importlib.util

    path = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "train_letters.py"
    spec = importlib.util.spec_from_file_location("train_letters", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_without_its_fonts_stops_at_once_with_what_to_do(tmp_path, capsys):
    module = _training_script()
    assert module.main(["--fonts", str(tmp_path), "--out", str(tmp_path / "m.npz")]) == 2
    assert "scripts/fetch_fonts.sh" in capsys.readouterr().err
    assert module.main(["--font-share", "1.5", "--out", str(tmp_path / "m.npz")]) == 2
    assert not (tmp_path / "m.npz").exists()


def test_letter_offsets_undo_a_leaning_without_learning_letter_frequencies():
    fit_class_bias = _training_script().fit_class_bias

    class Leaning:
        temperature = 1.0

        def logits(self, images):
            return scores

    rng = np.random.default_rng(2)
    labels = np.repeat(np.arange(26), 40)
    labels = np.concatenate([labels, np.full(2000, 14)])  # a check set full of O: not to be learnt
    scores = rng.normal(0, 1.0, (len(labels), 26))
    scores[np.arange(len(labels)), labels] += 2.5
    scores[:, 3] += 2.0  # leans towards D
    bias = fit_class_bias(Leaning(), np.zeros((len(labels), 28, 28), np.uint8), labels)
    assert int(np.argmin(bias)) == 3
    assert abs(bias[14]) < 0.3  # plenty of O in the set, but O is read no better or worse than others
    before = (scores.argmax(1) == labels)[:1040].mean()
    after = ((scores + bias).argmax(1) == labels)[:1040].mean()
    assert after > before + 0.1


@pytest.mark.slow
def test_training_script_runs_on_a_tiny_set(tmp_path):
    module = _training_script()
    out = tmp_path / "tiny.npz"
    share = "0.5" if HUMOR_SANS.is_dir() else "0"
    assert module.main(["--scenes", "2", "--epochs", "1", "--width", "4", "--workers", "1", "--out", str(out),
                        "--fonts", str(HUMOR_SANS), "--font-share", share]) == 0
    model = LetterModel.load(out)
    assert model.predict_proba([render_letter("A", 32, np.random.default_rng(0))]).shape == (1, 26)


def test_a_recording_of_one_straight_stroke_is_a_lone_bar_and_a_letter_is_not():
    """The benchmark counts recordings that lost strokes (an H that is one dash) apart."""
    from vision.synth.realdata import is_lone_bar
    from vision.synth.strokefont import GLYPHS

    dash = np.array([[0.0, 0.5], [0.3, 0.52], [0.7, 0.49], [1.0, 0.5]])
    assert is_lone_bar([dash]) and is_lone_bar([dash[::-1] * 3 + 2])  # either way, any scale
    assert is_lone_bar([np.array([[0.2, 0.2], [0.2, 0.2]])])  # a dot
    assert not is_lone_bar([dash, dash + [0, 0.3]])  # two strokes
    arc = np.stack([np.cos(np.linspace(0.5, 2.6, 20)), np.sin(np.linspace(0.5, 2.6, 20))], 1)
    assert not is_lone_bar([arc])  # a C or a ')' is not straight
    hook = np.array([[0.0, 0.0], [0.0, 1.0], [0.3, 1.0]])
    assert not is_lone_bar([hook])  # an L in one stroke
    written = [letter for letter, allographs in GLYPHS.items() if any(is_lone_bar([np.asarray(s, float) for s in strokes])
                                                                      for strokes in allographs)]
    assert written == ["I"]  # of our own skeletons, only an I is ever one straight stroke
