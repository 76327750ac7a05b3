import pathlib

import numpy as np
import pytest

from tests.helpers import HUMOR_SANS, script_module
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


def test_a_missing_or_broken_model_file_says_what_to_do(tmp_path):
    from vision.errors import ModelMissing

    with pytest.raises(ModelMissing, match="train_letters.py"):
        LetterModel.load(tmp_path / "absent.onnx")
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a network")
    with pytest.raises(ModelMissing, match="not a letter model"):
        LetterModel.load(broken)


def test_the_network_gives_features_and_honest_probabilities_for_a_batch():
    rng = np.random.default_rng(4)
    images = np.stack([normalise(render_letter(ch, 40, rng)) for ch in "HELLO"])
    features, scores = default_model().outputs(images)
    assert features.shape[0] == 5 and features.shape[1] >= 16 and scores.shape == (5, 26)
    one_by_one = np.concatenate([default_model().outputs(images[k:k + 1])[1] for k in range(5)])
    assert np.allclose(one_by_one, scores, atol=1e-4)  # a batch reads as its letters alone
    probs = default_model().predict_proba_images(images)
    assert np.allclose(probs.sum(1), 1, atol=1e-5)
    assert "".join(ALPHABET[i] for i in probs.argmax(1)) == "HELLO"


def test_normalise_empty_and_tiny():
    assert normalise(np.zeros((30, 30), np.float32)).sum() == 0
    dot = np.zeros((30, 30), np.float32)
    dot[10, 10] = 1
    assert normalise(dot).shape == (28, 28)
    assert default_model().predict_proba([]).shape == (0, 26)


def _tiny_recordings(path: pathlib.Path) -> pathlib.Path:
    """A strokes file in the shared data's format: two writers, every letter twice, drawn from
    our own skeletons (so the test needs no shared data)."""
    from vision.synth.handwriting import jitter_glyph

    rng = np.random.default_rng(1)
    points, stroke_ptr, sample_ptr, labels, writers = [], [0], [0], [], []
    for writer in ("ibm/a", "ibm/b", "apa/c"):
        for k, letter in enumerate(ALPHABET * 2):
            for stroke in jitter_glyph(letter, rng):
                points.append(np.round(np.asarray(stroke) * 1000).astype(np.int32))
                stroke_ptr.append(stroke_ptr[-1] + len(stroke))
            sample_ptr.append(len(stroke_ptr) - 1)
            labels.append(ALPHABET.index(letter))
            writers.append(writer)
    np.savez(path, points=np.concatenate(points), stroke_ptr=np.array(stroke_ptr), sample_ptr=np.array(sample_ptr),
             labels=np.array(labels, np.uint8), writer=np.array(writers))
    return path


def test_training_without_its_fonts_or_data_stops_at_once_with_what_to_do(tmp_path, capsys):
    module = script_module("train_letters")
    data = _tiny_recordings(tmp_path / "tiny.npz")
    assert module.main(["--fonts", str(tmp_path), "--data", str(data), "--out", str(tmp_path / "m.onnx")]) == 2
    assert "scripts/fetch_fonts.sh" in capsys.readouterr().err
    assert module.main(["--font-share", "1.5", "--out", str(tmp_path / "m.onnx")]) == 2
    assert module.main(["--data", str(tmp_path / "absent.npz"), "--out", str(tmp_path / "m.onnx")]) == 2
    assert "no handwriting data" in capsys.readouterr().err
    assert not (tmp_path / "m.onnx").exists()


@pytest.mark.slow
def test_training_script_runs_on_a_tiny_set_and_its_network_runs_at_the_table(tmp_path):
    module = script_module("train_letters")
    out = tmp_path / "tiny.onnx"
    share = "0.5" if HUMOR_SANS.is_dir() else "0"
    data = _tiny_recordings(tmp_path / "tiny.npz")
    assert module.main(["--scenes", "2", "--passes", "1", "--epochs", "1", "--width", "4", "--workers", "1",
                        "--out", str(out), "--data", str(data), "--calibration-share", "0.34",
                        "--fonts", str(HUMOR_SANS), "--font-share", share]) == 0
    model = LetterModel.load(out)
    assert model.predict_proba([render_letter("A", 32, np.random.default_rng(0))]).shape == (1, 26)
    assert model.outputs(np.zeros((3, 28, 28), np.float32))[0].shape == (3, 32)  # features: 8 x width


@pytest.mark.slow
def test_training_renders_once_into_its_cache_and_learns_on_from_an_exported_network(tmp_path, capsys):
    module = script_module("train_letters")
    data = _tiny_recordings(tmp_path / "tiny.npz")
    cache, first, second = tmp_path / "crops.npz", tmp_path / "first.onnx", tmp_path / "second.onnx"
    common = ["--scenes", "1", "--passes", "1", "--epochs", "1", "--width", "4", "--workers", "1", "--data", str(data),
              "--calibration-share", "0.34", "--font-share", "0", "--cache", str(cache)]
    assert module.main(common + ["--render-only", "--out", str(first)]) == 0
    assert cache.is_file() and not first.exists()
    assert module.main(common + ["--out", str(first)]) == 0
    printed = capsys.readouterr().out
    assert "read from" in printed  # rendered once
    everything = int(printed.split(" training images")[0].split()[-1])
    net = module.from_onnx(first)
    import torch

    x = np.random.default_rng(0).random((3, 1, 28, 28)).astype(np.float32)
    with torch.no_grad():
        here = net.eval()(torch.tensor(x)).numpy()
    scores = LetterModel.load(first).outputs(x[:, 0])[1]
    temperature = float((here * here).sum() / (here * scores).sum())
    assert temperature > 0 and np.allclose(here / temperature, scores, atol=1e-4)  # the same network, re-read
    assert module.main(common + ["--init", str(first), "--recorded-only", "--out", str(second)]) == 0
    recorded = int(capsys.readouterr().out.split(" training images")[0].split()[-1])
    assert 0 < recorded < everything  # the rendered board of synthetic letters left out
    assert LetterModel.load(second).outputs(x[:, 0])[1].shape == (3, 26)
    assert module.main(common + ["--passes", "2", "--render-only", "--out", str(second)]) == 0
    assert "other settings" in capsys.readouterr().out  # another recipe is rendered afresh


@pytest.mark.slow
def test_everyone_learns_on_keeping_its_networks_temperature_and_acceptance_and_folds_read_with_a_network(
        tmp_path, capsys):
    """``--everyone``: every writer learnt from, so the temperature and the acceptance of the
    network it learns on from are kept (there is no unseen writer left to fit them on);
    ``--folds --read-with``: a fold read by an exported network as it is."""
    import json

    from vision.acceptance import Acceptance, accept_path, file_sha256, for_model

    module = script_module("train_letters")
    data = _tiny_recordings(tmp_path / "tiny.npz")
    first, second = tmp_path / "first.onnx", tmp_path / "second.onnx"
    common = ["--scenes", "1", "--passes", "1", "--epochs", "1", "--width", "4", "--workers", "1", "--data", str(data),
              "--calibration-share", "0.34", "--font-share", "0", "--cache", str(tmp_path / "crops.npz")]
    assert module.main(common + ["--everyone", "--out", str(second)]) == 2
    assert "--init" in capsys.readouterr().err
    assert module.main(common + ["--except-fold", "1", "--out", str(second)]) == 2  # only with --everyone
    assert module.main(common + ["--out", str(first)]) == 0
    accept_path(first).write_text(json.dumps(Acceptance(min_share=0.8).to_json(file_sha256(first))), encoding="utf-8")
    assert module.main(common + ["--everyone", "--init", str(first), "--out", str(second)]) == 0
    printed = capsys.readouterr().out
    assert "every other writer: 52 letters of 1 writers" in printed and "carried over" in printed
    assert module.onnx_temperature(second) == module.onnx_temperature(first)
    assert file_sha256(second) != file_sha256(first)
    assert for_model(second).min_share == 0.8  # tied to the new network's digest, so it is read
    assert "not re-fitted" in json.loads(accept_path(second).read_text(encoding="utf-8"))["carried_from"]
    table = tmp_path / "folds.md"
    assert module.main(common + ["--folds", "2", "--read-with", str(first), "--table", str(table)]) == 0
    results = json.loads(table.with_suffix(".json").read_text(encoding="utf-8"))
    assert results["2"]["by_contributor"]["apa"][1] == 52 and "first.onnx" in results["2"]["network"]
    assert module.main(common + ["--folds", "4", "--read-with", str(first)]) == 2


@pytest.mark.slow
def test_both_latin_networks_read_comnists_held_out_look_alikes(capsys):
    from vision.letters import HELDOUT_MODEL_PATH, MODEL_PATH
    from vision.synth.cyrillic import COMNIST_PATH

    if not COMNIST_PATH.is_file():
        pytest.skip("CoMNIST is not on this machine")
    module = script_module("train_letters")
    assert module.main(["--comnist-check", str(HELDOUT_MODEL_PATH), str(MODEL_PATH), "--workers", "1"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "read right" in line]
    assert len(lines) == 2 and all(float(line.split(": ")[1].split()[0]) > 0.85 for line in lines)


def test_the_fold_table_counts_each_held_out_contributor_once(tmp_path):
    module = script_module("train_letters")
    results = {"2": {"held_out": ["apa", "apb"], "by_contributor": {"apa": [90, 100], "apb": [45, 50]}, "network": "x"},
               "1": {"held_out": ["val"], "by_contributor": {"val": [40, 50]}, "network": "y"}}
    module.write_fold_table(results, tmp_path / "folds.md")
    text = (tmp_path / "folds.md").read_text(encoding="utf-8")
    assert "| 1 | val | 50 | 80.0% | y |" in text and "| 2 | apa, apb | 150 | 90.0% | x |" in text
    assert "| all | every contributor, once | 200 | 87.5% | |" in text
    assert text.index("| 1 | val") < text.index("| 2 | apa")
    assert "made in different ways" in text  # two networks: the sum says it mixes them
    assert (tmp_path / "folds.json").is_file()


def test_every_contributor_is_in_one_fold_and_the_benchmarks_writers_are_the_first():
    from vision.synth.realdata import CONTRIBUTORS, FOLDS, HELD_OUT_CONTRIBUTORS

    held = [c for fold in FOLDS for c in fold]
    assert sorted(held) == sorted(CONTRIBUTORS) and len(held) == len(set(held))
    assert FOLDS[0] == HELD_OUT_CONTRIBUTORS
    assert any({"apa", "apb", "app"} <= set(fold) for fold in FOLDS)  # one institution, one fold


def test_each_shipped_latin_network_reads_with_the_acceptance_kept_for_it():
    """The shipped network and the benchmark's each have an acceptance file tied to their own
    bytes (a file for another network would fall back to asking below the share threshold)."""
    from vision.acceptance import FALLBACK, accept_path, for_model
    from vision.letters import HELDOUT_MODEL_PATH, MODEL_PATH

    for path in (MODEL_PATH, HELDOUT_MODEL_PATH):
        assert accept_path(path).is_file() and for_model(path) is not FALLBACK, path.name
    assert MODEL_PATH.read_bytes() != HELDOUT_MODEL_PATH.read_bytes()


def test_a_reader_built_while_the_benchmarks_network_stands_in_reads_with_it_and_its_acceptance(small_board):
    from vision.letters import HELDOUT_MODEL_PATH, model_for, standing_in
    from vision.reader import BoardReader

    shipped = model_for("en")
    with standing_in(LetterModel.load(HELDOUT_MODEL_PATH)) as stand_in:
        reader = BoardReader(small_board)
        assert reader.model is stand_in and reader.acceptance.source.endswith("letters-heldout.accept.json")
    assert model_for("en") is shipped and BoardReader(small_board).acceptance.source.endswith("/letters.accept.json")


def test_recorded_letters_from_both_formats_load_into_one_set(tmp_path):
    from vision.synth.realdata import load_handwriting

    data = load_handwriting([_tiny_recordings(tmp_path / "tiny.npz"), tmp_path / "absent.npz"])
    assert len(data) == 156 and set(data.contributor) == {"ibm", "apa"}
    assert len(data.of(["apa"])) == 52 and all(0 <= float(s.min()) and float(s.max()) <= 1 for s in data.strokes[0])
    assert len(load_handwriting([tmp_path / "absent.npz"])) == 0


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
