"""Stale frames from earlier boots and link sessions, interleaved at random with live traffic:
no press is ever lost or delivered twice, and the link always knows the box's current boot."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p
from firmware_bridge.emulator import REARM_US, DeviceEmulator
from firmware_bridge.link import BuzzerLink
from tests.helpers import wait_for

pytestmark = [pytest.mark.hardware, pytest.mark.slow, pytest.mark.timeout(300)]

stale = st.one_of(
    st.builds(lambda boot, nonce, oldest: ("hello", boot, nonce, oldest),
              st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF)),
    st.builds(lambda boot, seq, player: ("press", boot, seq, player),
              st.integers(0, 0xFFFF), st.integers(0, 40), st.integers(0, 5)))


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(st.just("tap"), st.just("reboot"), stale), min_size=5, max_size=25), st.integers(0, 1000))
def test_stale_frames_never_lose_or_double_a_press(plan, seed):
    rng = random.Random(seed)
    with DeviceEmulator(seed=seed) as box, BuzzerLink.open(box.path) as link:
        tapped, since_reboot = 0, 0
        last_tap: dict[int, float] = {}
        for step in plan:
            if step == "tap":
                player = tapped % 6
                # the same button again within 20 ms of its release is chatter on the box: wait
                rearmed = last_tap.get(player, 0.0) + REARM_US / 1e6 + 0.002
                time.sleep(max(0.0, rearmed - time.monotonic()))
                assert box.tap(player)
                last_tap[player] = time.monotonic()
                tapped += 1
                since_reboot += 1
            elif step == "reboot":
                # a press the old boot had not yet delivered was in its RAM: gone with it
                assert wait_for(lambda: not box.pending(), 3)
                box.reset()
                since_reboot = 0
                assert wait_for(lambda: link.hello is not None and link.hello.boot_id == box.boot_id, 3)
            else:
                kind, boot, a, b = step
                if boot == box.boot_id:
                    boot ^= 0x8000                       # stale means: not the box's boot now
                frame = (p.Hello(players=6, boot_id=boot, nonce=a, oldest_unacked=b) if kind == "hello"
                         else p.Press(press_seq=a, player=b, t_us=rng.randrange(1 << 32), boot_id=boot))
                box.garbage(p.encode_frame(frame))
        assert wait_for(lambda: not box.pending(), 3)
        got = []
        while not link.presses.empty():
            got.append(link.presses.get())
        per_boot: dict[int, list[int]] = {}
        for press in got:
            per_boot.setdefault(press.boot_id, []).append(press.seq)
        for seqs in per_boot.values():
            assert seqs == list(range(1, len(seqs) + 1)), "a press lost or doubled"
        assert len(got) == tapped                                    # every press of every boot, once
        assert len(per_boot.get(box.boot_id, [])) == since_reboot
        assert link.hello.boot_id == box.boot_id
