"""The Ukrainian letter model: it is picked by the language, it reads held-out writers' letters,
and a photographed Ukrainian board is read end to end with the Ukrainian dictionary."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.letters import ALPHABET, UK_ALPHABET, UnknownLanguage, alphabet_of, model_for, normalise
from tests.helpers import script_module
from vision.synth import cyrillic

pytestmark = pytest.mark.vision
needs_data = pytest.mark.skipif(not cyrillic.COMNIST_PATH.is_file(), reason="CoMNIST is not on this machine")


def test_the_language_picks_the_model_and_its_letters():
    assert model_for("uk").alphabet == UK_ALPHABET and model_for("en").alphabet == ALPHABET
    assert model_for("uk").path.name == "letters-uk.onnx"
    features, scores = model_for("uk").outputs(np.zeros((3, 28, 28), np.float32))
    assert scores.shape == (3, 33) and len(features) == 3
    assert alphabet_of("uk") == UK_ALPHABET
    with pytest.raises(UnknownLanguage, match="no letter model for handwriting in 'de'"):
        model_for("de")


def test_the_board_reader_reads_ukrainian_with_the_ukrainian_model(sp_board):
    from vision.reader import BoardReader
    from vision.words import LexiconIndex

    reader = BoardReader(sp_board, ["місто", "cat"], language="uk")
    assert reader.model is model_for("uk") and reader.index is not None
    assert reader.index.words(5) == ["МІСТО"]  # the Latin word is not of the Ukrainian letters
    with pytest.raises(ValueError, match="model's alphabet"):
        BoardReader(sp_board, LexiconIndex(["cat"]), language="uk")


def test_the_reading_index_of_a_ukrainian_lexicon_has_ukrainian_letters():
    from rules.lexicon import Lexicon
    from tabletop.lexicons import reading_index

    index = reading_index(Lexicon(["їжак", "ґанок", "cat"]), "uk")
    assert index.alphabet == UK_ALPHABET and index.words(4) == ["ЇЖАК"] and index.words(5) == ["ҐАНОК"]


@needs_data
def test_the_model_reads_held_out_writers_letters_above_a_floor():
    """Isolated held-out letters, as the reader normalises a square's ink: the trained model reads
    about 9 in 10 of them (docs/vision.md); a broken or mismatched model reads 1 in 33."""
    held = cyrillic.ukrainian_letters(held_out=True)
    pick = np.random.default_rng(5).choice(len(held), 400, replace=False)
    images = np.stack([normalise(held.images[i].astype(np.float32) / 255) for i in pick])
    read = model_for("uk").predict_proba_images(images).argmax(1)
    right = np.mean([UK_ALPHABET[k] == held.labels[i] for k, i in zip(read, pick)])
    assert right > 0.85


def _held_out_images(text: str, seed: int) -> list[np.ndarray]:
    held = cyrillic.ukrainian_letters(held_out=True)
    rng = np.random.default_rng(seed)
    return [held.images[rng.choice(np.nonzero(held.labels == ch)[0])] for ch in text]


def _photo_of_print(tmp_path, game: str, words, seed: int):
    """The game's printed PNG with Ukrainian letters of held-out writers in its squares,
    photographed in perspective with glare, blur and noise."""
    from tabletop.cli import main
    from vision.synth.scene import camera_homography

    assert main(["print-board", game, "--out", str(tmp_path / "board.png")]) == 0
    page = cv2.imread(str(tmp_path / "board.png")).astype(np.float32)
    side = json.loads((tmp_path / "board.json").read_text())
    rng = np.random.default_rng(seed)
    for text, row, col, across in words:
        queue = cyrillic.ImageQueue(_held_out_images(text, seed))
        for k, ch in enumerate(text):
            r, c = (row, col + k) if across else (row + k, col)
            x0, y0, x1, y1 = side["cells"][r * side["cols"] + c]
            ink = queue(ch, min(x1 - x0, y1 - y0), rng)[:, :, None]
            box = page[y0:y0 + ink.shape[0], x0:x0 + ink.shape[1]]
            box[:] = box * (1 - ink) + np.array([140, 50, 20]) * ink
    h = camera_homography(page.shape[1], page.shape[0], (1280, 960), 20.0, rng, fill=0.95)
    photo = cv2.warpPerspective(page, h, (1280, 960), borderValue=(70, 90, 110))
    yy, xx = np.mgrid[0:960, 0:1280]
    photo += 100 * np.exp(-((xx - 950) ** 2 + (yy - 650) ** 2) / (2 * 90.0 ** 2))[:, :, None]  # glare, off the words
    photo = cv2.GaussianBlur(photo, (0, 0), 0.8) + rng.normal(0, 3, photo.shape)
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), np.clip(photo, 0, 255).astype(np.uint8))
    return path


@needs_data
@pytest.mark.slow
@pytest.mark.parametrize("game", ["extradiction-sp", "extradiction"])
def test_a_ukrainian_board_is_read_end_to_end(tmp_path, capsys, game):
    from tabletop.cli import main

    path = _photo_of_print(tmp_path, game, [("МІСТО", 2, 1, True), ("ЗЕМЛЯ", 4, 2, False)], seed=3)
    capsys.readouterr()
    assert main(["score", str(path), "--game", game, "--language", "uk", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sorted(w["word"] for w in out["words"]) == ["ЗЕМЛЯ", "МІСТО"]
    assert out["grid"][2][1:6] == "МІСТО"


@needs_data
@pytest.mark.slow
def test_a_board_file_in_ukrainian_is_read_in_ukrainian_without_being_told(tmp_path, capsys):
    from tabletop.cli import main
    from tabletop.resources import BOARDS

    path = _photo_of_print(tmp_path, "extradiction-sp", [("ЇЖАК", 3, 2, True)], seed=4)
    board = tmp_path / "sp-uk.toml"
    board.write_text('language = "uk"\n' + (BOARDS / "extradiction-sp.toml").read_text(encoding="utf-8"),
                     encoding="utf-8")
    capsys.readouterr()
    assert main(["score", str(path), "--board", str(board), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [w["word"] for w in out["words"]] == ["ЇЖАК"]


@pytest.mark.slow
def test_the_training_learns_on_from_an_exported_network_read_back_as_it_was(tmp_path):
    import torch

    from vision.letters import LetterModel

    module = script_module("train_letters_uk")
    from train_letters import build_net, export  # the script put scripts/ on the path; it learns on with these
    torch.manual_seed(0)
    net = build_net(4, 1, len(UK_ALPHABET)).eval()
    for m in net:  # batch norms that are not the identity, so that folding them matters
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
    first = tmp_path / "first.onnx"
    export(net, 0.5, first)
    again = module.from_onnx(first, len(UK_ALPHABET)).eval()
    x = np.random.default_rng(0).random((5, 1, 28, 28)).astype(np.float32)
    with torch.no_grad():
        here, there = net(torch.tensor(x)).numpy(), again(torch.tensor(x)).numpy()
    assert np.allclose(here, there, atol=1e-4)  # the same network, its batch norms folded
    assert np.allclose(here / 0.5, LetterModel.load(first, UK_ALPHABET).outputs(x[:, 0])[1], atol=1e-4)
    rng = np.random.default_rng(1)
    images, labels = (rng.random((300, 28, 28)) * 255).astype(np.uint8), rng.integers(0, 3, 300)
    second = tmp_path / "second.onnx"
    best_net, best, start = module.learn_on(again, images, labels, 2, 1e-2, 0, (images[:60], labels[:60]), second,
                                            log=lambda *a: None)
    assert best > start and second.is_file()  # three labels of 33 are learnt at once
    assert LetterModel.load(second, UK_ALPHABET).outputs(x[:, 0])[1].shape == (5, 33)
    with pytest.raises(ValueError, match="not a network of build_net's shape"):
        module.from_onnx(first, len(UK_ALPHABET), depth=2)


@pytest.mark.slow
def test_a_latin_network_is_the_start_of_a_ukrainian_one_with_a_new_last_layer(tmp_path):
    import torch

    module = script_module("train_letters_uk")
    from train_letters import build_net, export

    torch.manual_seed(0)
    latin = build_net(4, 1, len(ALPHABET)).eval()
    path = tmp_path / "latin.onnx"
    export(latin, 0.75, path)
    net = module.transferred(path, len(UK_ALPHABET)).eval()
    x = torch.tensor(np.random.default_rng(0).random((5, 1, 28, 28)).astype(np.float32))
    with torch.no_grad():
        assert np.allclose(latin[:-1](x).numpy(), net[:-1](x).numpy(), atol=1e-4)  # the Latin features kept
        assert net(x).shape == (5, 33)
    kept = [p.detach().clone() for p in net.parameters()]
    rng = np.random.default_rng(1)
    images, labels = (rng.random((300, 28, 28)) * 255).astype(np.uint8), rng.integers(0, 33, 300)
    module.head_first(net, images, labels, 1, 1e-2, 0, log=lambda *a: None)
    moved = [not torch.equal(a, b) for a, b in zip(kept, net.parameters())]
    assert moved[-2:] == [True, True] and not any(moved[:-2])  # only the new last layer learnt
    assert all(p.requires_grad for p in net.parameters())  # and everything learns on afterwards


@pytest.mark.parametrize("argv, said", [(["--transfer", "no-such.onnx"], "--transfer no-such.onnx: no such network file"),
                                        (["--init", "no-such.onnx"], "--init no-such.onnx: no such network file"),
                                        (["--font-scenes", "5", "--fonts", "no-such-dir"], "run scripts/fetch_fonts.sh uk")])
def test_the_training_script_refuses_a_missing_start_or_fonts_before_any_work(argv, said, capsys):
    module = script_module("train_letters_uk")
    with pytest.raises(SystemExit) as stop:
        module.main(argv)
    assert stop.value.code == 2 and said in capsys.readouterr().err
