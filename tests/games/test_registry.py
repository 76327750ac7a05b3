"""Adding a game touches no existing list: a toy game registered at run time shows up everywhere.

The toy is a one-row crossword game: its rules class registers with :mod:`rules.games`, its
table with :mod:`tabletop.games`; nothing else is edited, and ``play``'s help, ``demo``,
``replay`` and ``score`` all know it.
"""

from __future__ import annotations

import json

import pytest

from rules.crossword import CrosswordGame, WritePolicy
from rules.events import Event
from rules.game import Outcome
from rules.games import register_game, unregister_game
from tabletop import cli
from tabletop.games import Demo, GameSpec, register, unregister
from tabletop.games.table import TableGame
from tabletop.players.synthetic import Action

TOY_BOARD = """name = "Toy board"
rows = 5
cols = 5
[layers]
values = ["11111", "12321", "11111", "11111", "11111"]
zones = ["aaaaa", "abbba", "aaaaa", "aaaaa", "aaaaa"]
"""


class ToyGame(CrosswordGame):
    """Anyone writes a word across; it scores its squares' values."""

    game_id = "toy-words"
    title = "Toy words"
    policy = WritePolicy(across_only=True, require_centre=False, zones_multiply=False, score_formed_words=False)
    max_players = 2

    def _handle(self, event: Event) -> Outcome:
        if event.type == "write":
            turn = self.write(event)
            if len(self.turns) >= 2:
                self.ended = True
            return Outcome(f"{turn.explain()}.", turn)
        return Outcome("")


def toy_script(get_game, deck, seed=0):
    yield Action("event", event={"type": "write", "player": "Ann", "text": "CAT", "row": 1, "col": 1, "dir": "across"})
    yield Action("wait", 1.0)
    yield Action("event", event={"type": "write", "player": "Ben", "text": "DOG", "row": 3, "col": 0, "dir": "across"})


@pytest.fixture
def toy(tmp_path):
    board = tmp_path / "toy.toml"
    board.write_text(TOY_BOARD)
    register_game(ToyGame)
    register(GameSpec("toy-words", TableGame(), "a toy crossword for the registry test",
                      demo=Demo(("Ann", "Ben"), toy_script), board=str(board), pieces="letters"))
    yield board
    unregister("toy-words")
    unregister_game("toy-words")


def test_toy_game_is_in_every_command(toy, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")            # argparse wraps help text (at hyphens too) to the terminal
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    assert "toy-words (1 to 2 players)" in capsys.readouterr().out
    for command in ("demo", "score", "print-board"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        assert "toy-words" in capsys.readouterr().out, command

    record = tmp_path / "toy.json"
    assert cli.main(["demo", "toy-words", "--no-serve", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Ann 7, Ben 3" in out and "same totals on replay" in out

    assert cli.main(["replay", str(record), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["totals"] == {"Ann": 7, "Ben": 3} and result["winner"] == "Ann"

    assert cli.main(["print-board", "toy-words", "--out", str(tmp_path / "toy.png")]) == 0
    capsys.readouterr()
    assert cli.main(["score", str(tmp_path / "toy.png"), "--game", "toy-words", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["grid"] == ["....."] * 5


def test_unknown_game_names_the_games(capsys):
    assert cli.main(["replay", "--json", "/nonexistent.json"]) != 0
    assert cli.main(["play", "chess", "--players", "Ann"]) == 2
    err = capsys.readouterr().err
    assert "no game 'chess'; the games are: extradiction, extradiction-sp" in err
