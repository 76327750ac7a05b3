"""The host link against the Python device emulator on a real pty (no firmware build needed)."""

from __future__ import annotations

import os
import time

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.emulator import DeviceEmulator
from firmware_bridge.errors import Disconnected, HandshakeTimeout, VersionMismatch
from firmware_bridge.link import BuzzerLink
from tests.helpers import wait_for

pytestmark = [pytest.mark.hardware, pytest.mark.timeout(60)]


@pytest.fixture
def box():
    with DeviceEmulator(seed=3) as box:
        yield box


@pytest.fixture
def link(box):
    with BuzzerLink.open(box.path) as link:
        yield link


def drain(link, n, timeout=3.0):
    got = [link.presses.get(timeout=timeout) for _ in range(n)]
    time.sleep(0.15)
    assert link.presses.empty(), "a press came out twice"
    return got


def test_presses_come_out_once_with_device_stamps(box, link):
    for i, player in enumerate([2, 0, 1]):
        box.tap(player, 1_000 + i)
    got = drain(link, 3)
    assert [(g.player, g.t_us) for g in got] == [(2, 1_000), (0, 1_001), (1, 1_002)]
    assert wait_for(lambda: box.pending() == [])  # acknowledged, so the box forgot them


def test_loop_url_without_a_box_is_a_readable_timeout():
    with pytest.raises(HandshakeTimeout, match="no HELLO from loop://"):
        BuzzerLink.open("loop://", hello_timeout=0.4)


def test_missing_device_is_a_readable_timeout(tmp_path):
    with pytest.raises(HandshakeTimeout, match="no HELLO"):
        BuzzerLink.open(str(tmp_path / "ttyUSB9"), hello_timeout=0.3)


def test_unplug_and_replug_mid_turn_loses_and_doubles_nothing(box, link):
    box.tap(0, 100)
    drain(link, 1)
    box.unplug()
    assert wait_for(lambda: not link.connected)
    with pytest.raises(Disconnected):
        link.command(p.Leds(mask=1), wait_link=0.1)
    for player in (3, 1, 4):
        box.tap(player, 5_000 + player)
    box.replug()
    assert link.wait_connected(3)
    got = drain(link, 3)
    assert sorted(g.player for g in got) == [1, 3, 4]
    assert link.stats.reconnects == 1


def test_unacked_presses_are_replayed_and_deduplicated(box, link):
    link._write = lambda frame: None  # the host's acks are lost on the way
    box.tap(5, 42)
    (press,) = [link.presses.get(timeout=2)]
    time.sleep(0.3)  # the box sends it again every 50 ms
    assert link.presses.empty() and link.stats.duplicates >= 2
    assert press.t_us == 42


def test_box_that_resets_is_noticed(box, link):
    boot = link.hello.boot_id
    box.reset()
    assert wait_for(lambda: link.stats.box_resets == 1)
    assert link.hello.boot_id != boot
    box.tap(1)
    (press,) = drain(link, 1)
    assert press.seq == 1


def test_garbage_bytes_are_survived_and_reported(box, link):
    rng = __import__("random").Random(9)
    for _ in range(50):
        box.garbage(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))))
    box.tap(2, 77)
    (press,) = drain(link, 1)
    assert press.player == 2
    assert link.stats.frame_errors > 0 and link.connected


def test_one_percent_corruption_no_false_or_lost_press(box, link):
    box.corrupt_rate = box.corrupt_in_rate = 0.01  # both directions
    stamps = {}
    for i in range(60):
        player = i % 6
        t = 10_000 + i * 30_000
        box.press(player, t)
        box.release(player, t + 1)
        stamps[(player, t)] = True
        time.sleep(0.005)
    got = [link.presses.get(timeout=5) for _ in range(60)]
    time.sleep(0.3)
    assert link.presses.empty()
    assert sorted((g.player, g.t_us) for g in got) == sorted(stamps)


def test_commands_are_acknowledged_retried_and_run_once(box, link):
    link.leds(0b11)
    assert box.leds == 0b11
    box.corrupt_rate = 0.03  # some acks get lost: the host retries, the box must not run it twice
    for _ in range(10):
        link.buzz(1000, 10)
    box.corrupt_rate = 0.0
    assert len(box.buzzes) == 10
    link.timer_start(30_000)
    assert box.timer == (p.TIMER_START, 30_000)
    assert link.ping() < 0.5


def test_clock_wrap_around_keeps_press_times_increasing():
    with DeviceEmulator(start_us=0xFFFF_FFFF - 200_000) as box, BuzzerLink.open(box.path) as link:
        box.tap(0)
        time.sleep(0.4)  # the box's 32-bit clock wraps meanwhile
        box.tap(1)
        a, b = drain(link, 2)
        assert 300_000 < b.t_us - a.t_us < 2_000_000


def test_symlink_path_follows_the_current_pty(box):
    first = os.readlink(box.path)
    box.unplug()
    assert not os.path.exists(box.path)
    box.replug()
    assert os.path.exists(box.path) and os.readlink(box.path).startswith("/dev/pts/")
    assert first.startswith("/dev/pts/")


def test_a_box_speaking_another_protocol_version_is_refused():
    with DeviceEmulator() as box:
        box.proto = 9
        box.reset()
        with pytest.raises(VersionMismatch, match="protocol 9"):
            BuzzerLink.open(box.path, hello_timeout=0.6)


def test_a_silent_box_is_dropped_and_picked_up_again(box, link):
    box.hung = True
    assert wait_for(lambda: not link.connected, timeout=3)
    box.tap(3, 500)  # pressed while the box was stuck: still buffered
    box.hung = False
    assert link.wait_connected(3)
    (press,) = drain(link, 1)
    assert press.player == 3 and link.stats.reconnects == 1


def test_a_hello_replayed_from_the_previous_boot_loses_no_press(box, link):
    """The tester's case: after a reboot, the previous boot's HELLO arrives again; then 5 presses."""
    old = link.hello
    for n in range(3):                                   # the old boot had presses 1-3, delivered
        box.tap(n)
    [link.presses.get(timeout=3) for _ in range(3)]
    box.reset()
    assert wait_for(lambda: link.stats.box_resets == 1 and link.hello.boot_id == box.boot_id)
    for replay in (old, p.Hello(**{**old.__dict__, "nonce": 0}), p.Hello(**{**old.__dict__, "oldest_unacked": 9})):
        box.garbage(p.encode_frame(replay))              # the old boot's HELLO, as sent and as a boot's own
    for n in range(5):
        box.tap(n)
    got = [link.presses.get(timeout=3) for _ in range(5)]
    assert [g.player for g in got] == [0, 1, 2, 3, 4] and [g.seq for g in got] == [1, 2, 3, 4, 5]
    assert all(g.boot_id == box.boot_id for g in got)
    assert link.hello.boot_id == box.boot_id and link.stats.box_resets == 1
    assert wait_for(lambda: not box.pending())          # every press acknowledged to the box that made it
    assert link.stats.stale_hellos >= 3


def test_presses_replayed_from_an_earlier_boot_are_never_delivered(box, link):
    old_boot = link.hello.boot_id
    box.reset()
    assert wait_for(lambda: link.hello.boot_id == box.boot_id)
    for seq in range(1, 6):
        box.garbage(p.encode_frame(p.Press(press_seq=seq, player=seq % 6, t_us=1000 * seq, boot_id=old_boot)))
    box.tap(5)
    (press,) = [link.presses.get(timeout=3)]
    time.sleep(0.2)
    assert press.player == 5 and press.seq == 1 and link.presses.empty()
    assert link.stats.stale_presses == 5


def test_an_acknowledgement_for_another_boot_does_not_drop_a_press(box, link):
    box.hung = True                                      # the box makes a press but cannot send yet
    box.press(2)
    box.garbage(p.encode_frame(p.PressAck(press_seq=1, boot_id=(box.boot_id + 1) & 0xFFFF)))
    box.hung = False
    assert link.presses.get(timeout=3).player == 2
