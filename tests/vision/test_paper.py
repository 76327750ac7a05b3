"""Paper sizes: ``print-cards --paper letter`` lays whole cards on US Letter (its bottom row is
no longer cut off), and the boards whose squares come out under 10 mm say to print on A3."""

from __future__ import annotations

import json

import pytest

from tabletop.cli import main
from vision.printing import PAPER_MM


@pytest.mark.parametrize("paper, name, per_page", [("letter", "Letter", 9), ("A4", "A4", 12)])
def test_every_card_lies_whole_on_the_paper_chosen(tmp_path, capsys, paper, name, per_page):
    out = tmp_path / "cards.pdf"
    assert main(["print-cards", "sequence-letters", "--paper", paper, "--out", str(out), "--dpi", "50"]) == 0
    side = json.loads((tmp_path / "cards.pdf.json").read_text())
    width, height = (round(mm / 25.4 * 50) for mm in PAPER_MM[name])
    assert side["paper"] == name and len(side["cards"]) == 52
    assert all(0 <= c["box"][0] and c["box"][2] <= width and 0 <= c["box"][1] and c["box"][3] <= height
               for c in side["cards"])
    assert max(sum(1 for c in side["cards"] if c["page"] == p) for p in {c["page"] for c in side["cards"]}) == per_page
    assert f"on {name} paper" in capsys.readouterr().out


def test_an_unknown_paper_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["print-cards", "sequence-letters", "--paper", "a5"])
    assert "a4" in capsys.readouterr().err


@pytest.mark.parametrize("game, paper, advised", [("questique", "A4", True), ("extradiction-sp", "Letter", True),
                                                  ("questique", "A3", False), ("extradiction", "A4", False)])
def test_small_squares_bring_the_a3_advice(tmp_path, capsys, game, paper, advised):
    assert main(["print-board", game, "--paper", paper, "--out", str(tmp_path / "b.png"), "--dpi", "40"]) == 0
    said = capsys.readouterr().out
    assert ("print it on A3" in said) is advised, said


def test_print_tiles_gives_the_same_advice(tmp_path, capsys):
    assert main(["print-tiles", "questique", "en", "--out", str(tmp_path / "t.pdf"), "--dpi", "40"]) == 0
    assert "print it on A3" in capsys.readouterr().out
