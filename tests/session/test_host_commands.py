"""The host's commands, in one table (tabletop.session.host_commands): the web console, the
keyboard and the buttons run the same commands; arguments are checked before anything happens,
without a web server; the console confirms, lists and discards unsure camera reads."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.session import host_commands
from tabletop.session.camera_reads import CameraMove
from tabletop.session.refusals import BadEntry, EntryRefused
from tabletop.table.live import console_command

WORDS = ["market", "apple", "cat"]
WRITE = {"type": "write", "text": "APPLE", "row": 7, "col": 5, "dir": "across"}


def level3(players=("Ann", "Ben")):
    return Session.create(Journal(":memory:"), GameSetup("extradiction", players, variant="level3", seed=1),
                          "extradiction", lexicon=Lexicon(WORDS), clock=SimClock(), game_id="g")


def test_every_command_has_help_and_the_web_offers_only_the_web_ones():
    for name, command in host_commands.COMMANDS.items():
        assert command.name == name and command.help
    session = level3()
    for name in ("help", "scores", "buzz", "reads"):
        with pytest.raises(host_commands.UnknownCommand):
            host_commands.run(session, name, {})
    with pytest.raises(host_commands.UnknownCommand, match="Unknown host action 'fly'"):
        host_commands.run(session, "fly", {})


@pytest.mark.parametrize("name, body, says", [
    ("event", {"event": [1, 2]}, "An event must be a JSON object."),
    ("event", {}, "An event must be a JSON object."),
    ("confirm", {"index": -1}, "'index' must be a whole number from 0 to 999"),
    ("confirm", {"index": 1.5}, "'index' must be a whole number"),
    ("discard", {"index": "0"}, "'index' must be a whole number"),
    ("draw", {"clue": True}, "'clue' must be a whole number"),
    ("window", {"seconds": 4000}, "'seconds' must be a number from 1 to 3600"),
    ("window", {"seats": ["Zed"]}, "'seats' must list players of this game: Ann, Ben."),
    ("window", {"prompt": "x" * 201}, "'prompt' must be text of at most 200 characters."),
    ("action", {"key": 7}, "Name the game's action by its key"),
])
def test_bad_arguments_are_refused_with_a_sentence_and_change_nothing(name, body, says):
    session = level3()
    before = session.journal.count(session.game_id)
    with pytest.raises(BadEntry, match=says.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        host_commands.run(session, name, body)
    assert session.journal.count(session.game_id) == before


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(host_commands.COMMANDS)),
       body=st.dictionaries(st.sampled_from(["index", "clue", "seconds", "seats", "prompt", "key", "player", "event"]),
                            st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                                      st.text(max_size=30), st.lists(st.text(max_size=5), max_size=3)), max_size=4))
def test_any_arguments_give_a_reply_or_a_refusal(name, body):
    session = level3()
    try:
        reply = host_commands.run(session, name, body)
    except EntryRefused as refused:
        assert str(refused)
    else:
        assert reply.to_json()["status"] in ("accepted", "rejected")


def test_the_console_confirms_lists_and_discards_unsure_camera_reads():
    session = level3()
    assert console_command(session, "reads") == "No camera read is waiting."
    assert console_command(session, "confirm") == "No camera read is waiting for confirmation."
    session.camera_move(CameraMove(WRITE, 3.0, sure=False))
    session.camera_move(CameraMove({**WRITE, "text": "APPLF"}, 4.0, sure=False))
    listing = console_command(session, "reads")
    assert "1. APPLE at row 8, column 6, across, for Ann" in listing and "2. APPLF" in listing
    assert console_command(session, "discard 2") == "Camera read APPLF discarded."
    assert console_command(session, "confirm 2") == "No camera read is waiting for confirmation."  # one left
    assert console_command(session, "confirm x").startswith("Say which one by its number")
    assert console_command(session, "confirm") == ""        # the rules' answer is printed by the subscriber
    last = [e for e in session.journal.entries(session.game_id) if e.kind == "event"][-1]
    assert last.source == "camera+console" and last.body["player"] == "Ann" and last.body["text"] == "APPLE"
    assert session.pending_reads == []


def test_the_console_web_and_buttons_reach_the_same_commands():
    session = level3()
    assert console_command(session, "window 30 your words") == "Entries open for 30 s."
    reply = host_commands.run(session, "window", {"seconds": 45, "prompt": "more"})
    assert reply.to_json()["message"] == "Entries open for 45 s." and reply.to_json()["window"].startswith("words-")
    assert len(session.host_windows) == 2
    assert console_command(session, "pause") == "Paused." and session.paused
    assert host_commands.run(session, "resume", {}).message == "Playing again." and not session.paused
    assert console_command(session, "forget-hand Zed").startswith("'Zed' does not play in this game")
    assert console_command(session, "undo") == "Nothing to undo."
    assert console_command(session, "right") == "Nothing to do now."            # a button: nothing to answer
    assert "confirm" in console_command(session, "help") and "forget-hand" in console_command(session, "?")
    assert console_command(session, "fly") == "unknown command 'fly'; type help"
    assert console_command(session, '{"type": "pass", "player": "Ann"}') == ""  # printed by the subscriber
    assert session.game.events[-1].type == "pass"
