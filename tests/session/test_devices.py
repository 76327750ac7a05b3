"""Device adapters: the buzzer box over a pty, the GPIO panel and sand timer on mock pins, the camera."""

from __future__ import annotations

import time

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock

pytestmark = [pytest.mark.hardware]

START = [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
         {"type": "clue_read", "player": "Ann"}]


def wait_for(condition, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


@pytest.fixture
def session():
    s = Session.create(Journal(":memory:"), GameSetup("extradiction-sp", ("Ann", "Ben", "Cai"), variant="classic"),
                       "extradiction-sp", lexicon=Lexicon(["market"]), clock=SimClock(), game_id="dev")
    for event in START:
        s.submit(event)
    return s


def test_buzzer_box_presses_become_hands_and_leds_follow(session):
    from firmware_bridge.emulator import DeviceEmulator
    from tabletop.session.devices import SerialBuzzers, TableOutputs
    with DeviceEmulator(players=3) as box:
        buzzers = SerialBuzzers(session, box.path)
        outputs = TableOutputs(session, lights=buzzers.leds, timers=[buzzers.timer], beep=buzzers.beep)
        try:
            box.tap(2)
            box.tap(1)
            assert wait_for(lambda: len(session.game.turn.hands) == 2)
            assert session.game.turn.hands == ["Cai", "Ben"]
            assert {e.source for e in session.journal.entries("dev")[-2:]} == {"buzzer-box"}
            box.tap(0)                                   # the asker's button means nothing now
            time.sleep(0.2)
            buzzers.dispatch.drain()
            assert session.game.turn.hands == ["Cai", "Ben"]
            session.submit({"type": "recognise", "player": "Ann", "target": "Cai"})
            outputs.drain()
            assert wait_for(lambda: box.leds == 0b100)     # Cai's LED, sent over the serial protocol
            assert box.timer[1] == 5000                    # the box's timer shows Cai's 5 seconds
            session.submit({"type": "recognise", "player": "Ann", "target": "Ben"})   # refused: Cai answers
            outputs.drain()
            assert wait_for(lambda: box.buzzes == [(220, 250)])
        finally:
            outputs.close()
            buzzers.close()


def test_gpio_panel_buttons_and_host_buttons_on_mock_pins(session):
    from tabletop.decks import builtin_deck
    from tabletop.session.devices import GpioPanel
    panel = GpioPanel(session)
    try:
        assert panel.mock
        pin = panel.panel.factory.pin(6)                   # player 1 (Ben) in the default wiring
        pin.drive_low()
        assert wait_for(lambda: session.game.turn.hands == ["Ben"])
        pin.drive_high()
        panel.panel.factory.pin(23).drive_low()            # the host's "recognise" button
        assert wait_for(lambda: session.game.turn.current == "Ben")
        panel.panel.factory.pin(23).drive_high()
        panel.panel.factory.pin(24).drive_low()            # "right"
        assert wait_for(lambda: session.game.turn.writer == "Ben")
        panel.panel.factory.pin(24).drive_high()
        for event in [{"type": "write", "player": "Ben", "text": "MARKET", "row": 9, "col": 6, "dir": "across"}]:
            session.submit(event)
        session.deck = builtin_deck("en")
        for phase in ("reading", "answering"):             # "next": Ben draws a card, then it is read
            time.sleep(0.03)
            panel.panel.factory.pin(8).drive_low()
            assert wait_for(lambda: session.game.turn.phase == phase)
            panel.panel.factory.pin(8).drive_high()
        assert session.game.turn.asker == "Ben"
    finally:
        panel.close()


def test_sand_timer_runs_the_current_countdown_on_table_time(session):
    from tabletop.session.devices import TableOutputs, sand_timer_on_mock_pins
    sand = sand_timer_on_mock_pins(session)
    outputs = TableOutputs(session, sand_timer=sand)
    try:
        session.submit({"type": "hand", "player": "Ben"})
        outputs.drain()
        assert sand.running and outputs.timer_starts == 1
        assert sand.remaining == pytest.approx(30.0)
        session.clock.advance(10)
        assert sand.update() == pytest.approx(20.0)
        session.submit({"type": "recognise", "player": "Ann", "target": "Ben"})
        outputs.drain()
        assert sand.remaining == pytest.approx(5.0)        # now Ben's 5 seconds
    finally:
        outputs.close()


@pytest.mark.vision
def test_synthetic_camera_writes_are_read_and_credited_to_the_writer(session):
    from tabletop.session.devices import CameraInput, SyntheticCamera
    from tabletop.players.planner import letters_of
    for event in [{"type": "hand", "player": "Ben"}, {"type": "recognise", "player": "Ann", "target": "Ben"},
                  {"type": "answer", "player": "Ben", "text": "market"}]:
        session.submit(event)
    camera = SyntheticCamera(session.board, seed=3)
    feed = CameraInput(session, camera, reader=None)
    feed.feed(camera.read(), 0.0)
    camera.show(letters_of({"text": "MARKET", "row": 9, "col": 6, "dir": "across"}))
    results = []
    for k in range(5):
        results += feed.feed(camera.read(), 1.0 + 0.3 * k)
    assert [r.event["player"] for r in results] == ["Ben"] and results[0].accepted
    assert results[0].event["text"] == "MARKET" and session.game.totals["Ben"] == 21
    assert session.view()["read"][9][6:12] == "MARKET"
    session.submit({"type": "remove"})                          # the host takes it off: still on the board
    view = session.view()
    assert view["grid"][9][6:12] == "......" and view["read"][9][6:12] == "MARKET"   # shown as 'erase'
    lessons = [e.body for e in session.journal.entries(session.game_id, "hand-lesson")]
    assert [(b["player"], b["letters"], len(b["images"])) for b in lessons] == [("Ben", "MARKET", 6)]
    assert feed.hands.of("Ben").letters() == "AEKMRT" and len(feed.hands.of("Ann")) == 0
    session.reset_hand("Ben")
    assert len(feed.hands.of("Ben")) == 0                        # the reset reaches the reader


def test_presses_reach_the_session_in_the_order_they_were_made(session):
    from tabletop.session.devices import PressOrderer
    orderer = PressOrderer(session, "gpio", hold=0.05)
    orderer.add("Cai", 2_000_500, 2)      # arrives first but was made later
    orderer.add("Ben", 2_000_100, 1)
    orderer.drain()
    assert session.game.turn.hands == ["Ben", "Cai"]
    orderer.close()


def test_drain_waits_for_a_flush_that_is_still_handing_presses_over():
    """drain() must not return between the timer's flush taking the batch and the presses
    reaching the dispatcher (a preempted flush thread once let a test see no buzz at all)."""
    import time as clock
    from types import SimpleNamespace

    from tabletop.session.devices import PressOrderer

    buzzed = []
    game = SimpleNamespace(turns=[], turns_started=1)
    session = SimpleNamespace(setup=SimpleNamespace(players=("Ann", "Ben")), game=game,
                              buzz=lambda player, source: buzzed.append(player))
    orderer = PressOrderer(session, "test", hold=0.01)
    real_put = orderer.dispatch.put

    def slow_put(job):
        clock.sleep(0.05)  # the flush thread loses the CPU just before handing over
        real_put(job)

    orderer.dispatch.put = slow_put
    orderer.add("Ben", 2_000, 1)
    orderer.drain()
    assert buzzed == ["Ben"]
    orderer.close()


def test_presses_go_through_the_arbiter_ordered_once_each_with_ties_marked():
    """Both device paths share PressOrderer: device-stamp order, chatter dropped, a tie counted."""
    from types import SimpleNamespace

    from tabletop.session.devices import PressOrderer

    buzzed = []
    game = SimpleNamespace(turns=[], turns_started=1)
    session = SimpleNamespace(setup=SimpleNamespace(players=("Ann", "Ben", "Cai")), game=game,
                              buzz=lambda player, source: buzzed.append(player))
    orderer = PressOrderer(session, "test", hold=0.01)
    for player, t_us, seat in [("Cai", 1_000_500, 2), ("Ann", 1_000_200, 0), ("Ann", 1_000_230, 0),
                               ("Ben", 1_000_500, 1)]:
        orderer.add(player, t_us, seat)
    orderer.drain()
    assert buzzed == ["Ann", "Ben", "Cai"]
    assert (orderer.forwarded, orderer.dropped, orderer.ties) == (3, 1, 1)
    game.turns_started = 2                      # the next question: everybody may buzz again
    orderer.add("Ann", 9_000_000, 0)
    orderer.drain()
    orderer.close()
    assert buzzed[-1] == "Ann" and orderer.forwarded == 4
