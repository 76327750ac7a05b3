"""The registry of piece kinds (tabletop.pieces): every game names a registered kind, every kind
gives its camera input, photo read, demo camera and a benchmark that exists, and a kind added at
run time reaches ``score --pieces`` with no list edited."""

from __future__ import annotations

import argparse

import pytest

from tabletop import pieces
from tabletop.commands.bench import available
from tabletop.games import games
from tabletop.pieces.demo_camera import DemoCamera


def test_every_kind_is_complete_and_its_benchmark_exists():
    assert pieces.names() == ["chips", "dice", "letters", "plain-dice", "tiles"]
    for kind in pieces.kinds():
        assert kind.description and kind.counted and kind.without_camera
        assert callable(kind.camera_input) and callable(kind.read_photo)
        assert issubclass(kind.demo_camera, DemoCamera)  # type: ignore[arg-type]
        assert kind.benchmark in available(), kind.name


def test_every_game_names_a_registered_kind():
    assert {g.game_id: g.pieces for g in games()} == {
        "extradiction": "letters", "extradiction-sp": "letters", "letter-dice": "dice", "questique": "tiles",
        "sequence-letters": "chips", "word-grid": "plain-dice"}
    assert pieces.of_game("sequence-letters") is pieces.kind("chips")


def test_letters_and_tiles_are_read_from_a_phones_photo_and_only_tiles_take_corners():
    assert [k.name for k in pieces.kinds() if k.scanner is not None] == ["letters", "tiles"]
    assert [k.name for k in pieces.kinds() if k.takes_corners] == ["tiles"]


def test_a_kind_registered_at_run_time_is_a_choice_of_score(capsys):
    def read(args, game):
        print(f"marbles on {game.game_id}")
        return 0

    kind = pieces.register(pieces.PieceKind(
        name="marbles", description="marbles", camera_input=lambda session, camera: None,  # type: ignore
        demo_camera=DemoCamera, read_photo=read, benchmark="rules", counted="marbles seen",  # type: ignore[arg-type]
        without_camera="no camera"))
    try:
        from tabletop.cli import main

        assert main(["score", "photo.jpg", "--game", "questique", "--pieces", "marbles"]) == 0
        assert capsys.readouterr().out == "marbles on questique\n"
    finally:
        pieces._KINDS.pop(kind.name)


def test_corners_are_refused_for_kinds_without_them():
    from tabletop.commands.vision_cmds import score
    from tabletop.errors import UserError

    args = argparse.Namespace(game="extradiction-sp", pieces=None, corners=["1,2"] * 4, photo="x.jpg")
    with pytest.raises(UserError, match="--corners is for --pieces tiles"):
        score(args)
