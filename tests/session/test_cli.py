"""play / resume / export / doctor from the command line, and the config file."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tabletop.config import load_config
from tabletop.errors import UserError


def tabletop(*args, stdin="", timeout=90):
    return subprocess.run([sys.executable, "-m", "tabletop", *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.slow
def test_play_then_resume_then_export_replays(tmp_path):
    journal = str(tmp_path / "j.sqlite")
    common = ["--journal", journal, "--port", "0", "--no-voice", "--host", "127.0.0.1"]
    first = tabletop("play", "extradiction-sp", "--players", "Ann,Ben", *common,
                     stdin="draw\nclue-read\nbuzz Ben\nrecognise\nright\nbuzz Ann\nquit\n")
    assert first.returncode == 0, first.stderr
    assert "host console: http://127.0.0.1:" in first.stdout and "seat Ben: http://" in first.stdout
    assert "Ben is right and writes" in first.stdout
    assert "A buzz by Ann means nothing now." in first.stdout   # once Ben is right
    listing = tabletop("export", "--list", "--journal", journal).stdout
    game_id = listing.split()[0]
    write = json.dumps({"type": "write", "player": "Ben", "text": "MARKET", "row": 9, "col": 6, "dir": "across"})
    second = tabletop("resume", *common, stdin=f"{write}\nundo\n{write}\nquit\n")
    assert second.returncode == 0, second.stderr
    assert f"resumed {game_id}" in second.stdout and "with 5 events" in second.stdout
    assert "MARKET" in second.stdout and "Undone" in second.stdout
    record = tmp_path / "game.json"
    assert tabletop("export", game_id, "--journal", journal, "-o", str(record)).returncode == 0
    replayed = tabletop("replay", str(record), "--json")
    assert json.loads(replayed.stdout)["totals"] == {"Ann": 0, "Ben": 21}


def test_play_refuses_bad_options(tmp_path):
    bad = tabletop("play", "extradiction-sp", "--journal", str(tmp_path / "j"), "--port", "0")
    assert bad.returncode == 2 and "--players" in bad.stderr
    bad = tabletop("play", "chess", "--players", "Ann", "--journal", str(tmp_path / "j"))
    assert bad.returncode == 2 and "no game 'chess'" in bad.stderr
    bad = tabletop("resume", "nope", "--journal", str(tmp_path / "j"))
    assert bad.returncode == 2 and "no game 'nope'" in bad.stderr


def test_doctor_reports_each_check(tmp_path):
    proc = tabletop("doctor", "--journal", str(tmp_path / "j.sqlite"))
    for name in ("camera:", "pins:", "serial:", "tesseract:", "dictionary en:", "voice:", "journal:", "labels' font:",
                 "pictures' font:", "tile network: tiles.onnx", "letter network: letters.onnx",
                 "Ukrainian letter network: letters-uk.onnx"):
        assert name in proc.stdout
    assert proc.returncode in (0, 1)


def test_doctor_says_when_the_ukrainian_letter_network_is_damaged(tmp_path, monkeypatch):
    from tabletop.commands import doctor
    import vision.letters

    bad = tmp_path / "letters-uk.onnx"
    bad.write_bytes(b"not a network")
    monkeypatch.setattr(vision.letters, "UK_MODEL_PATH", bad)
    level, text = doctor._ukrainian_letter_network()
    assert level == doctor.MISSING and str(bad) in text


def test_doctor_says_when_the_tile_network_is_damaged(tmp_path, monkeypatch):
    from tabletop.commands import doctor
    import vision.tiles

    bad = tmp_path / "tiles.onnx"
    bad.write_bytes(b"not a network")
    monkeypatch.setattr(vision.tiles, "MODEL_PATH", bad)
    level, text = doctor._tile_network()
    assert level == doctor.MISSING and str(bad) in text


def test_doctor_says_when_the_letter_network_is_damaged(tmp_path, monkeypatch):
    from tabletop.commands import doctor
    import vision.letters

    bad = tmp_path / "letters.onnx"
    bad.write_bytes(b"not a network")
    monkeypatch.setattr(vision.letters, "MODEL_PATH", bad)
    level, text = doctor._letter_network()
    assert level == doctor.MISSING and str(bad) in text and "not a letter model" in text


def test_config_file_merges_and_refuses_unknown_keys(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[camera]\nkind = "none"\n[buzzers]\nserial_port = "/dev/ttyUSB0"\n')
    config = load_config(path)
    assert config["camera"]["kind"] == "none" and config["buzzers"]["serial_port"] == "/dev/ttyUSB0"
    assert config["web"]["port"] == 8080
    path.write_text('[camera]\nkinds = "none"\n')
    with pytest.raises(UserError, match="unknown key 'kinds'"):
        load_config(path)
    with pytest.raises(UserError, match="not found"):
        load_config(tmp_path / "missing.toml")


def test_example_config_is_valid():
    import pathlib
    from hardware.config import load_pins
    example = pathlib.Path(__file__).resolve().parents[2] / "deploy" / "config.example.toml"
    config = load_config(example)
    assert load_pins(config["pins"])["host"]["recognise"] == 23
