"""The dice camera at the table: a roll the camera sees at rest becomes the ``roll`` event (with
the faces it read) when the rules want a roll, and nothing else does: not tumbling dice, not a
roll seen while the sand runs, not the same dice seen again."""

from __future__ import annotations

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.session.devices import DiceCameraInput, SyntheticDiceCamera

pytestmark = pytest.mark.vision


@pytest.fixture
def table(tmp_path):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("letter-dice", ("Ann", "Ben"), language="uk",
                             options={"sand_seconds": 60}), "", lexicon=Lexicon(["кіт", "рак"]), clock=SimClock(),
                             game_id="dice")
    camera = SyntheticDiceCamera(seed=3)
    yield session, camera, DiceCameraInput(session, camera)
    session.journal.close()


def watch(session, camera, feed, frames=12, settle_after=3):
    results = []
    for n in range(frames):
        if n == settle_after:
            camera.settle()
        results += feed.feed(camera.read(), session.clock.now())
        session.clock.advance(0.25)
    return results


def test_a_roll_at_rest_is_the_rounds_roll(table):
    session, camera, feed = table
    faces = ("А", "Ї", "Є", "К", "П", "Ш", "Ґ", "*")
    camera.roll(faces)
    results = watch(session, camera, feed)
    assert len(results) == 1 and results[0].accepted
    assert session.game.round.faces == faces
    entry = session.journal.entries("dice")[-1]
    assert entry.source == "camera" and entry.body["faces"] == list(faces) and 0.5 < entry.body["confidence"] <= 1
    # the same dice, still lying there: no second roll
    assert watch(session, camera, feed, settle_after=0) == []


def test_dice_rolled_while_the_sand_runs_are_not_played(table):
    session, camera, feed = table
    session.submit({"type": "roll"}, source="host")
    before = len(session.journal.entries("dice"))
    camera.roll(("О", "Ю", "Е", "Н", "С", "Г", "Т", "*"))
    assert watch(session, camera, feed) == []
    assert len(session.journal.entries("dice")) == before
    assert "no roll is due" in session.devices["camera"]


def test_tumbling_dice_are_never_read(table):
    session, camera, feed = table
    camera.roll(("І", "Ю", "А", "Л", "Д", "З", "Ж", "*"))
    assert watch(session, camera, feed, frames=10, settle_after=99) == []
    assert session.game.round is None
    assert "moving" in session.devices["camera"]


def test_the_hosts_next_button_rolls_for_the_table_when_a_roll_is_due(table):
    from tabletop.session.devices import host_button

    session, _, _ = table
    result = host_button(session, "next")
    assert result is not None and result.accepted and len(session.game.round.faces) == 8
    assert host_button(session, "next") is None          # the sand runs: nothing to roll
