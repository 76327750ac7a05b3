"""Questique at the table: the demo plays a whole game to a winner that its record replays to,
the pages' windows follow the rules (individual letters first, then the player whose turn it is,
everyone in speed play), and the table says stars, "Questique!" and whose turn it is."""

from __future__ import annotations

import io
import json

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.questique import QuestiqueGame
from rules.questique_layout import standard_board
from tabletop.cli import main
from tabletop.games import spec
from tabletop.table.demo import play_demo

TABLE = spec("questique").table
WORDS = Lexicon(["cat", "cats", "at"])


def game(players=("Ann", "Ben"), variant=None, **options):
    return QuestiqueGame(GameSetup("questique", players, variant=variant, options=options), standard_board(), WORDS)


@pytest.mark.slow
def test_the_demo_plays_a_whole_game_to_a_winner_and_its_record_replays_to_it(tmp_path, capsys):
    out = io.StringIO()
    record = tmp_path / "q.json"
    report = play_demo("questique", record=str(record), out=out, pace=0.0, serve=False)
    text = out.getvalue()
    assert report.winner in ("Ann", "Ben") and report.totals[report.winner] == 4
    assert f"{report.winner} covers 4 stars and wins!" in text
    assert f"== Final: Stars: {report.winner} 4, " in text
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["winner"] == report.winner and result["totals"] == report.totals


def test_individual_letters_are_entered_first_then_the_player_whose_turn_it_is_writes():
    g = game(("Ann", "Ben", "Cai"), "extra")
    [window] = TABLE.windows(g)
    assert window.purpose == "place" and window.seats == ("Ann",) and "D1" in window.prompt
    event = TABLE.entry_event(g, window, "Ann", {"text": "r", "row": 0, "col": 3})
    assert event == {"type": "place", "player": "Ann", "letter": "r", "row": 0, "col": 3}
    g.apply(event)
    assert TABLE.windows(g)[0].seats == ("Ben",)
    for player, col in (("Ben", 13), ("Cai", 13)):
        g.apply({"type": "place", "player": player, "letter": "S", "row": 0 if player == "Ben" else 10, "col": col})
    [window] = TABLE.windows(g)
    assert window.purpose == "write" and window.seats == ("Ann",)


def test_in_speed_play_every_seat_may_write():
    assert TABLE.windows(game(("Ann", "Ben", "Cai"), "speed"))[0].seats == ("Ann", "Ben", "Cai")


def test_the_table_says_questique_and_whose_turn_it_is():
    g = game(("Ann", "Ben", "Cai"), "elimination", individual=[{"player": "Cai", "letter": "R", "row": 3, "col": 2}])
    event = {"type": "write", "player": "Ann", "text": "CAT", "row": 4, "col": 3, "dir": "across"}
    message = g.apply(event).message
    lines = TABLE.speech(g, event, message)
    assert "Questique! Ann eliminates Cai." in lines[0] and lines[1] == "Ben, it is your turn."
    summary = TABLE.summary(g)
    assert summary["eliminated"] == ["Cai"] and summary["owners"][4][3:6] == "000"
    assert TABLE.status(g) == "Ben's turn."


def test_print_board_draws_the_19x19_board_with_its_sidecar(tmp_path, capsys):
    assert main(["print-board", "questique", "--out", str(tmp_path / "q.png"), "--dpi", "100"]) == 0
    side = json.loads((tmp_path / "q.json").read_text())
    assert (side["rows"], side["cols"], len(side["cells"])) == (19, 19, 361)
    assert "19x19" in capsys.readouterr().out
