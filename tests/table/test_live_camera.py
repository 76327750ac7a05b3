"""The live table opens the camera input of its game's kind of piece (tabletop.pieces): a
Questique table with a camera reads tiles, a handwritten board reads letters, the dice read dice.
A synthetic camera stands in for the real one, behind the same ``open_camera``."""

from __future__ import annotations

import time

import pytest

from rules.game import GameSetup
from rules.squares import Square
from tabletop.games import spec
from tabletop.lexicons import builtin_lexicon
from tabletop.resources import load_board
from tabletop.session import Journal, Session, TableClock
from tabletop.session.devices import SyntheticTileCamera
from tabletop.table import live

pytestmark = [pytest.mark.vision, pytest.mark.slow]

CONFIG = {"buzzers": {"kind": "none"}, "camera": {"kind": "auto", "fps": 20}}


def _session(game_id: str, **options):
    game = spec(game_id)
    board = load_board(game.board, required=game.rules.board_layers) if game.board else None
    setup = GameSetup(game_id, game.demo.players, options={**dict(game.demo.options), **options}, seed=7)
    return Session.create(Journal(":memory:"), setup, game.board or "", board=board, lexicon=builtin_lexicon("en"),
                          clock=TableClock())


def _first_write(session):
    for action in spec(session.setup.game).demo.script(lambda: session.game, None, seed=7):
        if action.kind == "write":
            return action.write
        if action.kind == "event":
            session.submit(action.event)
    raise AssertionError("the demo script never writes")


class PlayerAtTheBoard:
    """The synthetic camera while a player puts tiles down: her hand over the board, then not."""

    def __init__(self, camera):
        self.camera, self.hand = camera, False

    def read(self):
        return self.camera.hand_frame() if self.hand else self.camera.read()


def test_play_questique_with_a_camera_reads_the_tiles_put_down(monkeypatch):
    session = _session("questique")
    camera = SyntheticTileCamera(session.board, seed=4)
    player = PlayerAtTheBoard(camera)
    monkeypatch.setattr("tabletop.session.devices.open_camera", lambda kind, index: player)
    said: list[str] = []
    closers = live.open_devices(session, CONFIG, said.append)
    try:
        assert any(line.startswith("camera: PlayerAtTheBoard") and "letter tiles" in line for line in said), said
        planned = _first_write(session)
        time.sleep(1.0)                       # the camera has seen the empty board
        player.hand = True
        time.sleep(0.5)
        dr, dc = (0, 1) if planned["dir"] == "across" else (1, 0)
        camera.show({Square(planned["row"] + k * dr, planned["col"] + k * dc): ch
                     for k, ch in enumerate(planned["text"])})
        player.hand = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not session.game.turns and not session.pending_reads:
            time.sleep(0.05)
    finally:
        for close in closers:
            close()
    if session.pending_reads:                 # a square read unsure: the host confirms it at the console
        assert live.console_command(session, "confirm") == ""
    assert [(t.player, t.text) for t in session.game.turns] == [(planned["player"], planned["text"])], \
        (session.devices, session.log)
    assert [e for e in session.journal.entries(session.game_id) if e.kind == "event"][-1].source.startswith("camera")


def test_without_a_camera_the_table_says_how_moves_come_in(monkeypatch):
    monkeypatch.setattr("tabletop.session.devices.open_camera", lambda kind, index: None)
    for game_id, expected in (("questique", "type their words"), ("letter-dice", "type 'roll'"),
                              ("sequence-letters", "enters each chip")):
        session = _session(game_id)
        said: list[str] = []
        for close in live.open_devices(session, CONFIG, said.append):
            close()
        assert any(expected in line for line in said), (game_id, said)
