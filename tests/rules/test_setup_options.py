"""Set-up options are checked against the fields each game declares; Questique's individual
letters outside the set are a record error with a sentence, never a traceback."""

from __future__ import annotations

import json
import re

import pytest

from rules import errors
from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.questique import QuestiqueGame
from rules.questique_layout import standard_board
from tabletop.cli import main


def questique(options, language="en", variant="extra"):
    return QuestiqueGame(GameSetup("questique", ("Ann", "Ben"), variant=variant, language=language, options=options),
                         standard_board(), Lexicon(["cat"]))


@pytest.mark.parametrize("options, says", [
    ({"pieces": "holographic"}, "'pieces' must be one of physical, virtual, not 'holographic'"),
    ({"colour": "red"}, "Questique has no set-up option 'colour'; its options are: excluded, first, individual, "
                        "pieces, targets, themes"),
])
def test_an_unknown_option_or_value_names_what_is_valid(options, says):
    with pytest.raises(errors.RecordFormatError) as refused:
        questique(options, variant=None)
    assert str(refused.value) == says


def test_every_game_declares_what_it_reads():
    from tabletop.games import games
    for spec in games():
        names = {f.name for f in spec.rules.option_fields}
        assert "pieces" in names, spec.game_id                    # `play --pieces physical` works for all


@pytest.mark.parametrize("letter, language, says", [
    ("ß", "en", "Ann's individual letter 'ß' reads as SS, not one letter of the tiles"),
    ("Ж", "en", "Ann's individual letter 'Ж' is not a letter of the en tiles (ABCDEFGHIJKLMNOPQRSTUVWXYZ)"),
    ("Q", "uk", "Ann's individual letter 'Q' is not a letter of the uk tiles"),
])
def test_an_individual_letter_outside_the_set_is_a_record_error(letter, language, says):
    with pytest.raises(errors.RecordFormatError, match=re.escape(says)):
        questique({"individual": [{"player": "Ann", "letter": letter, "row": 0, "col": 3}]}, language)


def test_an_individual_letter_off_the_board_is_named_as_off_it():
    with pytest.raises(errors.RecordFormatError, match=r"^Ann's individual letter is on row 0, column 4 \(off the board, "
                                                       r"whose squares run from A1 to S19\)$"):
        questique({"individual": [{"player": "Ann", "letter": "R", "row": -1, "col": 3}]})


@pytest.mark.parametrize("extra, says", [
    ({"individual": [{"player": "Ann", "letter": "Ж", "row": 0, "col": 3}], "variant": "extra"}, "is not a letter"),
    ({"pieces": "holographic"}, "'pieces' must be one of physical, virtual"),
])
def test_replay_says_it_in_one_line(tmp_path, capsys, extra, says):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"game": "questique", "board": "questique", "players": ["Ann", "Ben"], "events": [],
                                **extra}), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_play_says_it_in_one_line(tmp_path, capsys):
    code = main(["play", "questique", "--players", "Ann,Ben", "--variant", "extra", "--journal", str(tmp_path / "j.sqlite"),
                 "--port", "0", "--host", "127.0.0.1", "--no-voice",
                 "--option", 'individual=[{"player": "Ann", "letter": "ß", "row": 0, "col": 3}]'])
    err = capsys.readouterr().err
    assert code == 2 and "reads as SS, not one letter of the tiles" in err and "Traceback" not in err
