"""Framing, CRC and decoding: garbage and corruption never make a false message."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import cobs
from firmware_bridge import protocol as p
from firmware_bridge.crc import crc16
from firmware_bridge.errors import FrameError
from firmware_bridge.timebase import Unwrapper, diff32


@given(st.binary(max_size=300))
def test_cobs_round_trip_and_no_zero_bytes(data):
    encoded = cobs.encode(data)
    assert 0 not in encoded
    assert cobs.decode(encoded) == data


def test_cobs_rejects_a_malformed_block():
    with pytest.raises(FrameError):
        cobs.decode(b"\x05\x01")


def test_crc_matches_the_standard_check_value():
    assert crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE


messages = st.one_of(
    st.builds(p.Press, seq=st.integers(0, 255), press_seq=st.integers(0, 0xFFFF), player=st.integers(0, 5),
              t_us=st.integers(0, 0xFFFF_FFFF)),
    st.builds(p.Heartbeat, seq=st.integers(0, 255), now_us=st.integers(0, 0xFFFF_FFFF), unacked=st.integers(0, 32)),
    st.builds(p.Ack, seq=st.integers(0, 255), acked=st.integers(0, 255), now_us=st.integers(0, 0xFFFF_FFFF)),
    st.builds(p.Hello, seq=st.integers(0, 255), boot_id=st.integers(0, 0xFFFF), now_us=st.integers(0, 0xFFFF_FFFF)),
    st.builds(p.Leds, seq=st.integers(0, 255), mask=st.integers(0, 255)),
    st.builds(p.Timer, seq=st.integers(0, 255), op=st.integers(0, 3), duration_ms=st.integers(0, 10**9)),
)


@given(st.lists(messages, max_size=20))
def test_every_message_survives_the_round_trip(msgs):
    stream = b"".join(p.encode_frame(m) for m in msgs)
    assert p.FrameDecoder().feed(stream) == msgs


@given(st.binary(max_size=2000))
def test_garbage_never_raises_and_rarely_decodes(noise):
    decoder = p.FrameDecoder()
    decoder.feed(noise)  # any bytes at all: counted as errors, never an exception


@settings(max_examples=300, deadline=None)
@given(st.lists(messages, min_size=2, max_size=30), st.integers(0, 2**32), st.floats(0.001, 0.05))
def test_corruption_never_creates_a_false_message_and_resyncs_within_one_frame(msgs, seed, rate):
    rng = random.Random(seed)
    frames = [p.encode_frame(m) for m in msgs]
    damaged, hit = bytearray(), []
    for frame in frames:
        was = len(damaged)
        for byte in frame:
            r = rng.random()
            if r < rate / 2:
                continue  # dropped
            damaged.append(byte ^ (1 << rng.randrange(8)) if r < rate else byte)
        hit.append(bytes(damaged[was:]) != frame)
    got = p.FrameDecoder().feed(bytes(damaged))
    for m in got:
        assert m in msgs, f"false message {m}"
    # every frame not itself damaged comes through: the link is back in sync at the next frame
    intact = [m for m, h in zip(msgs, hit) if not h]
    for m in intact:
        assert m in got


def test_wrap_around_unwraps_forward_and_backward():
    assert diff32(3, 0xFFFF_FFFE) == 5
    assert diff32(0xFFFF_FFFE, 3) == -5
    u = Unwrapper()
    stamps = [0xFFFF_FF00, 0xFFFF_FFFF, 0x0000_0010, 0xFFFF_FFF0, 0x0001_0000]
    values = [u.unwrap(t) for t in stamps]
    assert values == [0xFFFF_FF00, 0xFFFF_FFFF, 0x1_0000_0010, 0xFFFF_FFF0, 0x1_0001_0000]
