"""End to end: the avr-gcc-built firmware in simavr, its UART on a pty, the pyserial host link.

Button pins are driven at exact simulated times by the harness, so the spacings here are the
firmware's own resolution, not the host's scheduling.
"""

from __future__ import annotations

import random
import time

import pytest

from firmware_bridge import protocol as p
from tests.helpers import wait_for

pytestmark = [pytest.mark.firmware, pytest.mark.timeout(60)]

# A stamp is taken inside the pin-change interrupt, so it is late by that interrupt's latency.
# Its fixed part (entry, pushes) cancels in a spacing; its varying part does not: when the edge
# comes while another interrupt runs, the stamp waits for it. The longest other one is Timer0's
# millisecond tick, 65 cycles from entry to reti (counted in avr-objdump's listing of the -Os
# build) = 4.1 us at 16 MHz; the stamp's resolution (Timer1 at 0.5 us, kept in whole us) adds
# 1 us. A press lands in the tick about 0.4 % of the time, so most spacings are exact to 1 us.
STAMP_JITTER_US = 5


def assert_spacing(got_us, want_us):
    """Stamps are as far apart as the pin changes were, within the interrupt latency."""
    assert len(got_us) == len(want_us)
    off = [g - w for g, w in zip(got_us, want_us)]
    assert all(abs(o) <= STAMP_JITTER_US for o in off), f"spacing {got_us}, wanted {want_us}"


def collect(link, n, timeout=3.0):
    presses = [link.presses.get(timeout=timeout) for _ in range(n)]
    time.sleep(0.15)  # let any replay arrive: none may come out
    assert link.presses.empty(), "a press came out twice"
    return presses


def release_all(box, lead_us=1_000):
    box.sequence([(player, 0, False) for player in range(6)], lead_us=lead_us)


def test_handshake_says_hello(link):
    assert link.hello.proto == p.PROTOCOL_VERSION
    assert link.hello.players == 6
    assert link.ping() < 1.0


def test_presses_50us_apart_are_ordered_right(simbox, link):
    rng = random.Random(4)
    for _ in range(3):
        order = rng.sample(range(6), 6)
        simbox.sequence([(player, 50 * i, True) for i, player in enumerate(order)])
        got = collect(link, 6)
        assert [g.player for g in sorted(got, key=lambda g: g.t_us)] == order
        assert_spacing([b.t_us - a.t_us for a, b in zip(got, got[1:])], [50] * 5)
        release_all(simbox)
        time.sleep(0.06)


def test_two_presses_in_the_same_microsecond_are_a_tie(simbox, link):
    simbox.sequence([(1, 0, True), (4, 0, True)])
    a, b = collect(link, 2)
    assert {a.player, b.player} == {1, 4}
    assert a.t_us == b.t_us


def test_chatter_keeps_the_first_edge_and_never_adds_a_press(simbox, link):
    bouncy = simbox.chatter(0, 0, (7, 11, 5, 30, 9, 400, 13))  # bouncy switch, first
    simbox.sequence(bouncy + [(3, 50, True)])  # clean switch, 50 us later
    got = collect(link, 2)
    assert [g.player for g in got] == [0, 3]
    assert_spacing([got[1].t_us - got[0].t_us], [50])


def test_button_held_down_presses_once_until_released(simbox, link):
    at = simbox.sequence([(2, 0, True)])
    (first,) = collect(link, 1)
    time.sleep(0.3)
    assert link.presses.empty()
    up = simbox.sequence([
        (2, 0, False),
        (2, 10_000, True),  # 10 ms after release: still chatter
        (2, 20_000, False),
        (2, 60_000, True),  # 40 ms after release: a new press
    ])
    (second,) = collect(link, 1)
    assert_spacing([second.t_us - first.t_us], [up + 60_000 - at])


def test_unplug_mid_turn_replays_buffered_presses_exactly_once(simbox, link):
    simbox.sequence([(0, 0, True)])
    (before,) = collect(link, 1)
    simbox.unplug()
    time.sleep(0.1)
    simbox.sequence([(player, 100 * player, True) for player in (5, 1, 3)])
    time.sleep(0.3)
    simbox.replug()
    assert link.wait_connected(5)
    got = collect(link, 3)
    first = min(g.t_us for g in got)
    by_player = sorted((g.player, g.t_us - first) for g in got)
    assert [player for player, _ in by_player] == [1, 3, 5]
    assert_spacing([t for _, t in by_player], [0, 200, 400])
    assert link.stats.reconnects == 1
    assert before.seq not in {g.seq for g in got}


def test_garbage_bytes_make_no_false_press(simbox, link):
    rng = random.Random(1)
    for _ in range(20):
        simbox.to_host(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))))
    time.sleep(0.3)
    assert link.presses.empty()
    simbox.sequence([(4, 0, True)])
    (press,) = collect(link, 1)
    assert press.player == 4
    assert link.connected


def test_box_that_resets_is_noticed_and_keeps_working(simbox, link):
    boot = link.hello.boot_id
    before = simbox.now_us()
    simbox.reset()
    deadline = time.monotonic() + 3
    while link.stats.box_resets == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert link.stats.box_resets == 1
    assert link.hello.boot_id != boot
    simbox.sequence([(2, 0, True)])
    (press,) = collect(link, 1)
    assert press.player == 2 and press.seq == 1
    assert press.t_us > before  # the host keeps time going forward across the reboot


def test_commands_light_leds_and_run_the_sand_timer(simbox, link):
    link.leds(0b100101)
    assert simbox.ports()["C"] & 0x3F == 0b100101
    link.timer_start(800)
    assert wait_for(lambda: simbox.ports()["B"] & 0b10111 == 0b10111, 2.0)  # four timer LEDs lit
    # simavr is paced to the wall clock but may fall behind on a loaded machine: wait on the
    # box's own (simulated) clock, checked below, not on a fixed host sleep
    assert wait_for(lambda: simbox.ports()["B"] & 0b10111 == 0, 10.0)  # drained
    changes = {(pin, level): t for pin, level, t in simbox.pins if pin.startswith("B")}
    started = changes[("B4", 1)]
    # out one by one, a quarter of the sand each, to the millisecond of simulated time
    for pin, quarter in (("B4", 1), ("B2", 2), ("B1", 3), ("B0", 4)):
        assert abs(changes[(pin, 0)] - started - 200_000 * quarter) < 2_000
    link.buzz(2000, 50)
    with pytest.raises(Exception, match="rejected"):
        link.command(p.Timer(op=9))


def test_box_presses_feed_the_arbiter_ties_and_all(simbox, link):
    from rules.arbitration import Arbiter, TieShown

    arbiter = Arbiter(range(6))
    simbox.sequence([(5, 0, True), (2, 40, True), (0, 40, True)])
    got = collect(link, 3)
    arbiter.open(min(g.t_us for g in got) - 1)
    for press in reversed(got):  # arrival order does not matter
        arbiter.press(press.player, press.t_us)
    assert [b.player for b in arbiter.queue][0] == 5
    assert arbiter.next_hand().player == 5
    arbiter.done(5)
    shown = arbiter.next_hand()
    assert isinstance(shown, TieShown) and set(shown.players) == {0, 2}


def test_one_percent_corruption_both_ways_no_false_lost_or_doubled_press(simbox, link):
    simbox.corrupt(0.01, seed=11)
    rounds, got = 10, []
    for r in range(rounds):
        order = random.Random(r).sample(range(6), 6)
        simbox.sequence([(player, 100 * k, True) for k, player in enumerate(order)], lead_us=5_000)
        round_presses = [link.presses.get(timeout=3) for _ in range(6)]
        assert [g.player for g in sorted(round_presses, key=lambda g: g.t_us)] == order
        got += round_presses
        release_all(simbox)
        time.sleep(0.03)
    time.sleep(0.3)
    assert link.presses.empty()
    assert len({g.seq for g in got}) == len(got) == 6 * rounds
    link.leds(0b1)  # commands get through too (retried when damaged)
    assert link.connected


def test_device_clock_wrap_around_keeps_order_and_spacing(tmp_path):
    from firmware_bridge.link import BuzzerLink
    from firmware_bridge.simbox import SimBox

    start = 2**32 - 1_500_000  # the box's 32-bit microsecond clock wraps 1.5 s after boot
    elf, harness = SimBox.build(tmp_path, CLOCK_START_US=start)
    with SimBox(elf, harness) as box, BuzzerLink.open(box.path, hello_timeout=5) as link:
        assert link.hello.now_us >= start
        lead = max(0, 1_000_000 - box.now_us())
        box.sequence([(0, 0, True), (1, 1_000_000, True)], lead_us=lead)  # one before, one after
        a = link.presses.get(timeout=4)
        b = link.presses.get(timeout=4)
        assert (a.player, b.player) == (0, 1)
        assert_spacing([b.t_us - a.t_us], [1_000_000])
        assert a.t_us < 2**32 <= b.t_us  # unwrapped: past 2**32, not back to 0


def test_firmware_a_hello_replayed_from_the_previous_boot_loses_no_press(simbox, link):
    """The tester's case against the real firmware: reboot, the old boot's HELLO again, 5 presses."""
    old = link.hello
    simbox.reset()
    deadline = time.monotonic() + 3
    while link.hello.boot_id == old.boot_id and time.monotonic() < deadline:
        time.sleep(0.02)
    assert link.hello.boot_id != old.boot_id
    for replay in (old, p.Hello(**{**old.__dict__, "nonce": 0})):
        simbox.to_host(p.encode_frame(replay))
    simbox.to_host(p.encode_frame(p.Press(press_seq=1, player=5, t_us=123, boot_id=old.boot_id)))
    simbox.sequence([(player, 200 * player, True) for player in range(5)])
    got = collect(link, 5)
    assert sorted(g.player for g in got) == [0, 1, 2, 3, 4] and sorted(g.seq for g in got) == [1, 2, 3, 4, 5]
    assert link.hello.boot_id != old.boot_id and link.stats.stale_presses >= 1
